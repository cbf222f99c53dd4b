"""Named OpenAI-compatible servers (`ollama:`, `deepseek:`, ...): data rows over one adapter.

For every row: a tool call through `Client("<id>:<model>")` reaches the row's URL with the row's
key, and an error answer is the typed error naming that provider. Then the rules that differ
between local and hosted servers.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import llmrelay
from llmrelay import errors
from llmrelay.adapters import adapter_class
from llmrelay.adapters._presets import PRESETS, Preset
from llmrelay.adapters.presets import PresetAdapter
from llmrelay.capabilities import CapabilityLearner, lookup
from llmrelay.testing import mock_http

from .openai_bodies import FAKE_KEY, clean_environment

# A model of each server that calls tools natively (per the capability rows).
MODELS = {
    "ollama": "llama3.1:8b",
    "lmstudio": "qwen3-8b",
    "vllm": "Qwen/Qwen3-8B",
    "deepseek": "deepseek-chat",
    "mistral": "mistral-large-latest",
    "xai": "grok-4",
    "together": "meta-llama/Llama-3.3-70B-Instruct-Turbo",
    "fireworks": "accounts/fireworks/models/qwen3-235b-a22b",
    "cerebras": "gpt-oss-120b",
}
PARAMS = [pytest.param(preset, id=provider) for provider, preset in PRESETS.items()]
TOOL_CALL = {
    "id": "chatcmpl-1",
    "model": "served-model",
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
        }
    ],
    "usage": {"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59},
}


def get_weather(city: str) -> str:
    """The weather in a city."""
    return "sunny"


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clean_environment(monkeypatch)
    for preset in PRESETS.values():
        monkeypatch.delenv(preset.api_key_env, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-key-that-must-stay-at-openai")


def client(preset: Preset, **options: Any) -> llmrelay.Client:
    return llmrelay.Client(
        f"{preset.provider}:{MODELS[preset.provider]}", learner=CapabilityLearner(), max_repairs=0, **options
    )


def test_every_preset_has_a_model_here_and_capability_rows() -> None:
    assert set(MODELS) == set(PRESETS)
    for provider, model in MODELS.items():
        caps = lookup(provider, model)
        assert caps.native_tools, provider
        assert caps.sources["native_tools"].startswith("models.toml"), provider


@pytest.mark.parametrize("preset", PARAMS)
def test_a_tool_call(preset: Preset, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(preset.api_key_env, FAKE_KEY)
    with mock_http() as router:
        route = router.post(f"{preset.base_url}/chat/completions").respond(200, json=TOOL_CALL)
        result = client(preset).complete("Weather in Paris?", tools=[get_weather])
        request = route.calls[0].request
        body = json.loads(request.content)
    assert adapter_class(preset.provider).provider == preset.provider
    assert (result.provider, result.mode, result.finish_reason) == (preset.provider, "native_tools", "tool_calls")
    assert [(c.name, c.arguments, c.id) for c in result.tool_calls] == [("get_weather", {"city": "Paris"}, "call_1")]
    assert request.headers["authorization"] == f"Bearer {FAKE_KEY}"
    assert body["tools"][0]["function"]["name"] == "get_weather"
    assert "max_completion_tokens" not in body


ERRORS = [
    (401, {"error": {"message": "Authentication Fails, Your api key is invalid", "type": "authentication_error"}},
     errors.AuthenticationError),
    (400, {"object": "error", "message": "model 'nope' not found", "type": "NotFoundError", "code": 400},
     errors.BadRequestError),
    (429, {"error": "rate limit exceeded"}, errors.RateLimitError),
]  # fmt: skip


@pytest.mark.parametrize("preset", PARAMS)
@pytest.mark.parametrize(("status", "body", "error"), ERRORS, ids=["401", "400 vLLM-shaped", "429 Ollama-shaped"])
def test_an_error(preset: Preset, status: int, body: Any, error: type[errors.ProviderError]) -> None:
    with mock_http() as router:
        router.post(f"{preset.base_url}/chat/completions").respond(status, json=body)
        with pytest.raises(errors.ProviderError) as caught:
            client(preset, api_key=FAKE_KEY, retry=llmrelay.RetryPolicy(max_attempts=1)).complete("Hi")
    assert type(caught.value) is error
    assert (caught.value.provider, caught.value.status) == (preset.provider, status)
    assert FAKE_KEY not in str(caught.value)


def test_ollama_works_with_no_key_and_no_base_url() -> None:
    with mock_http() as router:
        route = router.post("http://localhost:11434/v1/chat/completions").respond(200, json=TOOL_CALL)
        result = llmrelay.Client("ollama:llama3.1:8b").complete("Weather in Paris?", tools=[get_weather])
        request = route.calls[0].request
    assert result.tool_calls[0].name == "get_weather"
    assert json.loads(request.content)["model"] == "llama3.1:8b"
    assert "sk-openai" not in request.headers["authorization"]  # OPENAI_API_KEY is OpenAI's alone.


@pytest.mark.parametrize("preset", [p for p in PARAMS if p.values[0].key_required])  # type: ignore[union-attr]
def test_a_hosted_server_without_a_key_is_an_authentication_error(preset: Preset) -> None:
    with mock_http() as router:
        route = router.route().respond(200, json=TOOL_CALL)
        with pytest.raises(errors.AuthenticationError, match=preset.api_key_env):
            client(preset).complete("Hi")
    assert not route.called


def test_base_url_overrides_a_local_default() -> None:
    with mock_http() as router:
        route = router.post("http://gpu-box:9000/v1/chat/completions").respond(200, json=TOOL_CALL)
        llmrelay.Client("vllm:Qwen/Qwen3-8B", base_url="http://gpu-box:9000/v1").complete("Hi", tools=[get_weather])
    assert route.called


def test_a_signature_goes_back_only_to_the_server_that_sent_it() -> None:
    """A Gemini-signed call sent on to Mistral carries no `extra_content` (Mistral refuses unknown fields)."""
    signed = llmrelay.ToolCall("get_weather", {"city": "Paris"}, "call_1", signature="c2lnbmF0dXJl")
    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "", "tool_calls": [signed]},
                {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}]  # fmt: skip
    with mock_http() as router:
        route = router.post("https://api.mistral.ai/v1/chat/completions").respond(200, json=TOOL_CALL)
        llmrelay.Client("mistral:mistral-large-latest", api_key=FAKE_KEY).complete(messages, tools=[get_weather])
        sent = json.loads(route.calls[0].request.content)
    assert "extra_content" not in sent["messages"][1]["tool_calls"][0]


def test_streams_ask_for_usage_where_the_server_takes_it() -> None:
    stream = b'data: {"choices":[{"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    asked = {}
    for provider in ("deepseek", "mistral"):
        with mock_http() as router:
            route = router.post(f"{PRESETS[provider].base_url}/chat/completions").mock(
                return_value=httpx.Response(200, content=stream, headers={"content-type": "text/event-stream"})
            )
            list(llmrelay.Client(f"{provider}:{MODELS[provider]}", api_key=FAKE_KEY).stream("Hi"))
            asked[provider] = "stream_options" in json.loads(route.calls[0].request.content)
    assert asked == {"deepseek": True, "mistral": False}
    assert issubclass(adapter_class("deepseek"), PresetAdapter)


def test_the_new_provider_ids_are_selectable_in_config_profiles(tmp_path: Any) -> None:
    path = tmp_path / "llmrelay.toml"
    path.write_text(
        'default_profile = "local"\n'
        '[profiles.local]\nmodel = "ollama:llama3.1:8b"\nfallback_models = ["reasoning"]\n'
        '[profiles.reasoning]\nmodel = "openai-responses:gpt-5"\n'
        '[aliases]\nreasoning = "openai-responses:gpt-5"\n'
    )
    local = llmrelay.Client.from_config(path, learner=CapabilityLearner())
    reasoning = llmrelay.Client.from_config(path, "reasoning", api_key=FAKE_KEY, learner=CapabilityLearner())
    assert (local.provider, local.model, local.fallback_models) == (
        "ollama",
        "llama3.1:8b",
        [("openai-responses", "gpt-5")],
    )
    assert (reasoning.provider, reasoning.model) == ("openai-responses", "gpt-5")
