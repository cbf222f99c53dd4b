"""Issue 12: the key in use never shows, wherever it came from, whatever the error, however it is printed.

A gateway that echoes the key (in a 401's JSON, a plain-text page, a 200 that is not JSON) is
served to every provider's adapter through the real SDKs, with the key read from the provider's
environment variable (not passed, not shaped like a known key). The whole traceback of what is
raised, its chained SDK exception included, is formatted as `logger.exception` would, and searched.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass

import httpx
import pytest

import llmrelay
from llmrelay.testing import mock_http

pytestmark = pytest.mark.filterwarnings(r"ignore:The model '[^']+' is deprecated:DeprecationWarning")

KEY = "gw-proxy-0123456789-TOKEN-abcdef"
"""A gateway's own token: nothing like `sk-`, so only the key in use can be redacted."""


@dataclass(frozen=True)
class Provider:
    id: str
    model: str
    url: str
    env: str
    base_url: str | None = None


PROVIDERS = [
    Provider("openai", "openai:gpt-4o-mini", "https://api.openai.com/v1/chat/completions", "OPENAI_API_KEY"),
    Provider("groq", "groq:llama-3.3-70b", "https://api.groq.com/openai/v1/chat/completions", "GROQ_API_KEY"),
    Provider("openrouter", "openrouter:x/y", "https://openrouter.ai/api/v1/chat/completions", "OPENROUTER_API_KEY"),
    Provider(
        "openai-compatible",
        "openai-compatible:m",
        "http://localhost:8000/v1/chat/completions",
        "OPENAI_COMPATIBLE_API_KEY",
        "http://localhost:8000/v1",
    ),
    Provider("anthropic", "anthropic:claude-sonnet-4-5", "https://api.anthropic.com/v1/messages", "ANTHROPIC_API_KEY"),
    Provider("gemini", "gemini:gemini-2.5-flash", "https://generativelanguage.googleapis.com/", "GEMINI_API_KEY"),
]
ANSWERS = {
    "401 json": (401, {"error": {"message": f"Incorrect API key provided: {KEY}", "type": "auth", "code": 401}}),
    "401 text": (401, f"Unauthorized: token {KEY} is not valid"),
    "400 json": (400, {"error": {"message": f"bad request from {KEY}", "status": "INVALID_ARGUMENT", "code": 400}}),
    "429 json": (429, {"error": {"message": f"rate limited: {KEY}", "code": 429}}),
    "500 text": (500, f"<html>upstream failed for {KEY}</html>"),
    "200 not json": (200, f"<html>login page for {KEY}</html>"),
}


def respond(status: int, body: object) -> httpx.Response:
    if isinstance(body, str):
        return httpx.Response(status, text=body, headers={"content-type": "text/html"})
    return httpx.Response(status, json=body)


def formatted(error: BaseException) -> str:
    """Everything a log shows of an exception: the traceback of it, its causes and group members."""
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


@pytest.mark.parametrize("streamed", [False, True], ids=["complete", "stream"])
@pytest.mark.parametrize("answer", list(ANSWERS))
@pytest.mark.parametrize("provider", [pytest.param(p, id=p.id) for p in PROVIDERS])
async def test_no_traceback_holds_the_key_in_use(
    provider: Provider, answer: str, streamed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(provider.env, KEY)
    status, body = ANSWERS[answer]
    if streamed and status == 200:
        pytest.skip("a 200 stream that is not SSE is read as events: nothing raised with the body")
    options = {"base_url": provider.base_url} if provider.base_url else {}
    client = llmrelay.AsyncClient(provider.model, retry=llmrelay.RetryPolicy(max_attempts=1), **options)
    with mock_http() as router:
        router.route(url__startswith=provider.url).mock(return_value=respond(status, body))
        with pytest.raises(llmrelay.LLMRelayError) as caught:
            if streamed:
                async for _ in client.stream("Hi"):
                    pass
            else:
                await client.complete("Hi")
    error = caught.value
    shown = formatted(error)
    assert KEY not in shown and KEY not in repr(getattr(error, "body", None))
    chain: list[BaseException] = [error, *getattr(error, "exceptions", ())]
    for item in chain:
        cause = item.__cause__ or item.__context__
        while cause is not None:
            assert KEY not in str(cause) and KEY not in repr(getattr(cause, "body", None))
            cause = cause.__cause__ or cause.__context__
    assert "status" in shown or str(status) in shown or status == 200, "what is useful stays"
