"""Issue 12: where the key goes. Each `Attempt` names the host the request went to.

The SDKs read `OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `GROQ_BASE_URL` and
`GOOGLE_GEMINI_BASE_URL` when no `base_url` is given: a variable in the environment sends the
key elsewhere without a word in the code, so the trace says where each request went.
"""

from __future__ import annotations

import httpx
import pytest

import llmrelay
from llmrelay.testing import mock_http
from tests.adapters.test_unencodable import answer, streamed

pytestmark = pytest.mark.filterwarnings(r"ignore:The model '[^']+' is deprecated:DeprecationWarning")

HOSTS = [
    # (model, base_url, environment, the host requests go to)
    ("openai:gpt-4o-mini", None, {}, "api.openai.com"),
    ("openai:gpt-4o-mini", None, {"OPENAI_BASE_URL": "https://gw.example/v1"}, "gw.example"),
    ("openai:gpt-4o-mini", "https://mine.example/v1", {"OPENAI_BASE_URL": "https://gw.example/v1"}, "mine.example"),
    ("groq:llama-3.3-70b", None, {}, "api.groq.com"),
    ("groq:llama-3.3-70b", None, {"GROQ_BASE_URL": "https://gw.example"}, "gw.example"),
    ("openrouter:x/y", None, {"OPENAI_BASE_URL": "https://gw.example/v1"}, "openrouter.ai"),  # Not OpenAI's.
    ("openai-compatible:m", "http://localhost:8000/v1", {}, "localhost"),
    ("anthropic:claude-sonnet-4-5", None, {}, "api.anthropic.com"),
    ("anthropic:claude-sonnet-4-5", None, {"ANTHROPIC_BASE_URL": "https://gw.example"}, "gw.example"),
    ("gemini:gemini-2.5-flash", None, {}, "generativelanguage.googleapis.com"),
    ("gemini:gemini-2.5-flash", None, {"GOOGLE_GEMINI_BASE_URL": "https://gw.example/"}, "gw.example"),
]


@pytest.mark.parametrize("streaming", [False, True], ids=["complete", "stream"])
@pytest.mark.parametrize(("model", "base_url", "environment", "host"), HOSTS)
def test_each_attempt_names_the_host_the_request_went_to(
    model: str,
    base_url: str | None,
    environment: dict[str, str],
    host: str,
    streaming: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    provider = model.split(":")[0]
    body = streamed(provider, "ok") if streaming else answer(provider, "ok")
    kind = "text/event-stream" if streaming else "application/json"
    options = {"base_url": base_url} if base_url else {}
    client = llmrelay.Client(model, api_key="test-key-123456", **options)
    with mock_http() as router:
        route = router.route().mock(return_value=httpx.Response(200, content=body, headers={"content-type": kind}))
        if streaming:
            *_, end = client.stream("Hi")
            result = end.completion  # type: ignore[attr-defined]
        else:
            result = client.complete("Hi")
    assert {call.request.url.host for call in route.calls} == {host}
    assert [attempt.host for attempt in result.attempts] == [host]


# --- no credential follows a redirect to another origin --------------------------------------------

REDIRECTED = [
    ("openai:gpt-4o-mini", "api.openai.com"),
    ("groq:llama-3.3-70b", "api.groq.com"),
    ("openrouter:x/y", "openrouter.ai"),
    ("anthropic:claude-sonnet-4-5", "api.anthropic.com"),
    ("gemini:gemini-2.5-flash", "generativelanguage.googleapis.com"),
]


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize(("model", "host"), REDIRECTED)
async def test_no_key_nor_header_of_yours_follows_a_redirect_to_another_host(
    model: str, host: str, use_async: bool
) -> None:
    """The SDKs drop their own key on such a redirect; `headers=` (an X-Proxy-Token) went along before."""
    secrets = {"api_key": "secret-key-0123456789", "headers": {"X-Proxy-Token": "proxy-token-987654321"}}
    with mock_http() as router:
        router.route(host=host).mock(
            return_value=httpx.Response(307, headers={"location": "https://collector.example/steal"})
        )
        stolen = router.route(host="collector.example").mock(return_value=httpx.Response(404, json={}))
        retry = llmrelay.RetryPolicy(max_attempts=1)
        with pytest.raises(llmrelay.LLMRelayError):
            if use_async:
                await llmrelay.AsyncClient(model, retry=retry, **secrets).complete("Hi")  # type: ignore[arg-type]
            else:
                llmrelay.Client(model, retry=retry, **secrets).complete("Hi")  # type: ignore[arg-type]
    for call in stolen.calls:
        sent = str(call.request.headers)
        assert "secret-key" not in sent and "proxy-token" not in sent
