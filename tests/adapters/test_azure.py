"""Azure OpenAI (`azure:` and `azure-responses:`): endpoint, API version, credentials, the capability hint, filters.

Bodies in the shapes of Azure's REST reference (learn.microsoft.com/azure/ai-services/openai/reference,
"content filtering"): `prompt_filter_results`, `content_filter_results`, the `content_filter` 400.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import llmrelay
from llmrelay import ContentFilterError, errors
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

from .openai_bodies import FAKE_KEY, clean_environment

ENDPOINT = "https://my-resource.openai.azure.com"
CHAT_URL = f"{ENDPOINT}/openai/deployments/prod-chat/chat/completions"
RESPONSES_URL = f"{ENDPOINT}/openai/responses"
ANSWER = {
    "id": "chatcmpl-1",
    "model": "gpt-4o-2024-11-20",
    "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {"hate": {"filtered": False}}}],
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    }
                ],
            },
            "content_filter_results": {},
        }
    ],
    "usage": {"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59},
}
FILTERED_PROMPT = {
    "error": {
        "message": "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
        "type": None,
        "param": "prompt",
        "code": "content_filter",
        "status": 400,
        "innererror": {
            "code": "ResponsibleAIPolicyViolation",
            "content_filter_result": {"violence": {"filtered": True, "severity": "high"}},
        },
    }
}


def get_weather(city: str) -> str:
    """The weather in a city."""
    return "sunny"


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clean_environment(monkeypatch)
    for name in ("AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT", "OPENAI_API_VERSION", "AZURE_OPENAI_AD_TOKEN"):
        monkeypatch.delenv(name, raising=False)


def azure(model: str = "azure:prod-chat", **options: Any) -> llmrelay.Client:
    arguments: dict[str, Any] = {"base_url": ENDPOINT, "api_key": FAKE_KEY, "learner": CapabilityLearner()}
    return llmrelay.Client(model, **{**arguments, **options})


def test_a_tool_call_goes_to_the_deployment_with_the_key_and_api_version() -> None:
    with mock_http() as router:
        route = router.post(CHAT_URL).respond(200, json=ANSWER, headers={"apim-request-id": "apim-1"})
        result = azure().complete("Weather in Paris?", tools=[get_weather], max_tokens=99)
        request = route.calls[0].request
    assert request.url.params["api-version"] == "2024-10-21"
    assert request.headers["api-key"] == FAKE_KEY
    body = json.loads(request.content)
    assert (body["model"], body["max_completion_tokens"]) == ("prod-chat", 99)
    assert (result.provider, result.tool_calls[0].arguments, result.finish_reason) == (
        "azure",
        {"city": "Paris"},
        "tool_calls",
    )


def test_endpoint_key_and_version_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", ENDPOINT)
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("OPENAI_API_VERSION", "2025-01-01-preview")
    monkeypatch.setenv("OPENAI_ORG_ID", "org-openai-only")
    with mock_http() as router:
        route = router.post(CHAT_URL).respond(200, json=ANSWER)
        llmrelay.Client("azure:prod-chat", learner=CapabilityLearner()).complete("Hi", tools=[get_weather])
        request = route.calls[0].request
    assert request.url.params["api-version"] == "2025-01-01-preview"
    assert request.headers["api-key"] == FAKE_KEY
    assert "openai-organization" not in request.headers


@pytest.mark.parametrize("how", ["sync", "async"])
def test_an_entra_token_provider_is_asked_for_a_bearer_token(how: str) -> None:
    asked: list[int] = []

    def token() -> str:
        asked.append(1)
        return "entra-token"

    options = {"api_key": None, "provider_options": {"azure_ad_token_provider": token}}
    with mock_http() as router:
        route = router.post(CHAT_URL).respond(200, json=ANSWER)
        if how == "sync":
            azure(**options).complete("Hi", tools=[get_weather])
        else:
            import asyncio

            asyncio.run(llmrelay.AsyncClient("azure:prod-chat", base_url=ENDPOINT, **options).complete("Hi"))
        request = route.calls[0].request
    assert request.headers["authorization"] == "Bearer entra-token"
    assert "api-key" not in request.headers
    assert asked


def test_without_credentials_or_endpoint_clear_errors_and_no_request() -> None:
    with mock_http() as router:
        route = router.route().respond(200, json=ANSWER)
        with pytest.raises(errors.AuthenticationError, match=r"AZURE_OPENAI_API_KEY.*azure_ad_token_provider"):
            azure(api_key=None).complete("Hi")
        with pytest.raises(errors.ConfigError, match="AZURE_OPENAI_ENDPOINT"):
            azure(base_url=None).complete("Hi")
    assert not route.called


def test_the_model_hint_picks_the_capability_row() -> None:
    """A deployment named anything: `model` says which model's facts apply (gpt-4: no JSON modes)."""
    hinted = azure("azure:team-deploy-7", provider_options={"model": "gpt-4"})
    unhinted = azure("azure:team-deploy-7")
    assert hinted._supported_modes("azure", "team-deploy-7") == ("native_tools", "text")
    assert unhinted._supported_modes("azure", "team-deploy-7") == ("native_tools", "json_schema", "json_object", "text")


def test_a_filtered_prompt_is_a_content_filter_error() -> None:
    with mock_http() as router:
        router.post(CHAT_URL).respond(400, json=FILTERED_PROMPT, headers={"x-request-id": "req-9"})
        with pytest.raises(ContentFilterError) as caught:
            azure(retry=llmrelay.RetryPolicy(max_attempts=1)).complete("Hi")
    error = caught.value
    assert isinstance(error, errors.BadRequestError)
    assert (error.status, error.code, error.request_id, error.provider) == (400, "content_filter", "req-9", "azure")
    assert error.body["error"]["innererror"]["content_filter_result"]["violence"]["filtered"] is True


def test_a_filtered_answer_finishes_with_content_filter() -> None:
    cut = {**ANSWER, "choices": [{"index": 0, "finish_reason": "content_filter", "message": {"content": "Once"}}]}
    with mock_http() as router:
        router.post(CHAT_URL).respond(200, json=cut)
        result = azure().complete("Tell me a story")
    assert (result.content, result.finish_reason, result.provider_finish_reason) == (
        "Once",
        "content_filter",
        "content_filter",
    )


def test_a_stream_starting_with_prompt_filter_results_only() -> None:
    chunks = [
        {"choices": [], "created": 0, "id": "", "model": "", "object": "",
         "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {}}]},
        {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"}, "content_filter_results": {}}],
         "model": "gpt-4o"},
        {"choices": [{"index": 0, "delta": {"content": "lo"}, "finish_reason": "stop"}], "model": "gpt-4o"},
        {"choices": [], "model": "gpt-4o", "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}},
    ]  # fmt: skip
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    with mock_http() as router:
        route = router.post(CHAT_URL).mock(
            return_value=httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})
        )
        events = list(azure().stream("Hi"))
        sent = json.loads(route.calls[0].request.content)
    end = events[-1]
    assert isinstance(end, llmrelay.StreamEnd)
    assert "".join(e.text for e in events if isinstance(e, llmrelay.TextDelta)) == end.completion.content == "Hello"
    assert (end.completion.model, end.completion.usage.total_tokens) == ("gpt-4o", 7)
    assert sent["stream_options"] == {"include_usage": True}


def test_the_responses_api_on_azure() -> None:
    answer = {"id": "resp_1", "status": "completed", "model": "o4-mini",
              "output": [{"type": "message", "content": [{"type": "output_text", "text": "Hi"}]}]}  # fmt: skip
    with mock_http() as router:
        route = router.post(RESPONSES_URL).respond(200, json=answer)
        result = azure("azure-responses:prod-reasoner").complete("Hi")
        request = route.calls[0].request
    assert request.url.params["api-version"] == "2025-04-01-preview"
    assert json.loads(request.content)["model"] == "prod-reasoner"
    assert (result.provider, result.content) == ("azure-responses", "Hi")


def test_provider_options_never_show_in_repr() -> None:
    client = azure(provider_options={"azure_ad_token_provider": lambda: "secret-token", "model": "gpt-4o"})
    assert "secret-token" not in repr(client._adapter_for("azure"))
