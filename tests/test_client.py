"""The client's own work, with a scripted adapter: modes, tools, messages, the trace, the learner."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import pytest

import llmrelay
from llmrelay import Client, ConfigError, MissingToolCallError, NamedTool, UnsupportedFeatureError
from llmrelay._types import NativeCall, RawResponse
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import FakeAdapter

WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city"],
    },
}
ASK = [{"role": "user", "content": "Weather in Paris?"}]


def client(script: list[Any], model: str = "openai:gpt-4o-mini", **kwargs: Any) -> tuple[Client, FakeAdapter]:
    fake = FakeAdapter(script)
    return Client(model, adapter=fake, learner=kwargs.pop("learner", CapabilityLearner()), **kwargs), fake


def test_native_call_is_validated_and_coerced() -> None:
    c, _ = client([NativeCall("get_weather", '{"city": "Paris", "days": "3"}', "call_1")])
    resp = c.complete(ASK, tools=[WEATHER])
    assert [(t.name, t.arguments, t.id) for t in resp.tool_calls] == [
        ("get_weather", {"city": "Paris", "days": 3}, "call_1")
    ]
    assert (resp.needs_more_work, resp.finish_reason, resp.provider_finish_reason) == (True, "tool_calls", "tool_calls")
    assert (resp.mode, resp.provider, resp.model, resp.format) == ("native_tools", "fake", "gpt-4o-mini", "native")
    assert resp.usage == llmrelay.Usage(10, 5, 15)
    assert [(a.outcome, a.mode) for a in resp.attempts] == [("ok", "native_tools")]


def test_text_format_calls_are_read_from_the_answer() -> None:
    c, _ = client(['Checking.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>'])
    resp = c.complete(ASK, tools=[WEATHER], mode="text")
    assert [(t.name, t.arguments) for t in resp.tool_calls] == [("get_weather", {"city": "Rome"})]
    assert (resp.content, resp.finish_reason, resp.provider_finish_reason) == ("Checking.", "tool_calls", "stop")


def test_invalid_calls_are_rejected_and_traced() -> None:
    c, _ = client(
        [NativeCall("get_weather", '{"days": 2}'), NativeCall("delete_all", "{}")],
        max_repairs=0,
        modes=["native_tools"],
    )
    resp = c.complete(ASK, tools=[WEATHER])
    assert resp.tool_calls == [] and resp.needs_more_work is None
    assert [r.kind for r in resp.rejected] == ["invalid_arguments"]
    assert resp.attempts[0].outcome == "exhausted" and "missing required argument 'city'" in str(
        resp.attempts[0].reason
    )


@pytest.mark.parametrize(
    ("model", "expected"),
    [("openai:gpt-4o-mini", "native_tools"), ("openrouter:meta-llama/unknown-model", "text")],
)
def test_mode_is_the_best_the_model_supports(model: str, expected: str) -> None:
    c, fake = client(["ok"], model=model)
    c.complete(ASK, tools=[WEATHER])
    assert fake.requests[0].mode == expected


def test_without_tools_the_mode_is_plain_text() -> None:
    c, fake = client(["Hello."])
    assert c.complete("Hi").content == "Hello."
    assert (fake.requests[0].mode, fake.requests[0].messages[0].content) == ("text", "Hi")


def test_forced_mode_wins_and_json_schema_carries_the_envelope_schema() -> None:
    c, fake = client(
        [
            json.dumps(
                {
                    "content": "",
                    "toolCalls": [{"name": "get_weather", "arguments": '{"city": "Oslo"}'}],
                    "needsMoreWork": True,
                }
            )
        ],
        mode="json_schema",
    )
    resp = c.complete(ASK, tools=[WEATHER])
    request = fake.requests[0]
    assert request.mode == "json_schema" and request.response_schema is not None
    assert request.response_schema["properties"]["toolCalls"]["items"]["properties"]["name"]["enum"] == ["get_weather"]
    assert [(t.name, t.arguments) for t in resp.tool_calls] == [("get_weather", {"city": "Oslo"})]


def test_the_learner_stops_choosing_a_rejected_mode() -> None:
    learner = CapabilityLearner()
    rejection = UnsupportedFeatureError("tools are not supported", feature="native_tools", provider="fake", status=400)
    c, fake = client([rejection, "fine", "fine again"], learner=learner)
    assert c.complete(ASK, tools=[WEATHER]).content == "fine"  # Fell back to the next mode at once.
    c.complete(ASK, tools=[WEATHER])
    assert [r.mode for r in fake.requests] == ["native_tools", "json_schema", "json_schema"]
    assert "native_tools" in learner.learned("openai", "gpt-4o-mini")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("auto", "auto"),
        ("none", "none"),
        ("required", "required"),
        ("any", "required"),
        ("get_weather", NamedTool("get_weather")),
        ({"type": "function", "function": {"name": "get_weather"}}, NamedTool("get_weather")),
        ({"name": "get_weather"}, NamedTool("get_weather")),
        (None, None),
    ],
)
def test_tool_choice_forms(given: Any, expected: Any) -> None:
    c, fake = client(["ok"], max_repairs=0, modes=["native_tools"])
    with contextlib.suppress(MissingToolCallError):  # "ok" makes no call: a required one is missing.
        c.complete(ASK, tools=[WEATHER], tool_choice=given)
    assert fake.requests[0].tool_choice == expected


def test_tool_choice_naming_an_unknown_tool_is_a_config_error() -> None:
    c, _ = client([])
    with pytest.raises(ConfigError, match="not auto, none, required or a tool's name"):
        c.complete(ASK, tools=[WEATHER], tool_choice="search")


def test_a_completion_goes_back_into_the_conversation() -> None:
    c, fake = client([NativeCall("get_weather", {"city": "Paris"}, "call_9"), "Sunny."])
    first = c.complete(ASK, tools=[WEATHER])
    c.complete([*ASK, first, {"role": "tool", "tool_call_id": "call_9", "content": "21C"}], tools=[WEATHER])
    assistant, tool = fake.requests[1].messages[1:]
    assert assistant.tool_calls == tuple(first.tool_calls)
    assert (tool.role, tool.tool_call_id, tool.name, tool.content) == ("tool", "call_9", "get_weather", "21C")


def test_params_merge_client_defaults_with_call_params() -> None:
    c, fake = client(["ok"], params={"temperature": 0, "max_tokens": 100})
    c.complete("Hi", max_tokens=5)
    assert dict(fake.requests[0].params) == {"temperature": 0, "max_tokens": 5}


@pytest.mark.parametrize("model", ["gpt-4o", "openai:", ":gpt-4o"])
def test_bad_model_strings(model: str) -> None:
    with pytest.raises(ConfigError, match="provider:model-name"):
        Client(model, adapter=FakeAdapter())


def test_unknown_provider() -> None:
    with pytest.raises(llmrelay.UnknownProviderError, match="unknown provider 'nope'"):
        Client("nope:model")


def test_ollama_model_names_keep_their_colons() -> None:
    c = Client("openai-compatible:llama3.1:8b", adapter=FakeAdapter())
    assert (c.provider, c.model) == ("openai-compatible", "llama3.1:8b")


def test_unknown_mode_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown mode"):
        Client("openai:gpt-4o", adapter=FakeAdapter(), mode="xml")  # type: ignore[arg-type]


async def test_async_client_mirrors_the_sync_one() -> None:
    fake = FakeAdapter([NativeCall("get_weather", {"city": "Lima"})])
    c = llmrelay.AsyncClient("anthropic:claude-sonnet-4-5", adapter=fake, learner=CapabilityLearner())
    resp = await c.complete(ASK, tools=[WEATHER])
    assert [(t.name, t.arguments) for t in resp.tool_calls] == [("get_weather", {"city": "Lima"})]
    assert resp.tool_calls[0].id is None


def test_sync_and_async_signatures_match() -> None:
    import inspect

    assert inspect.signature(llmrelay.Client.complete) == inspect.signature(llmrelay.AsyncClient.complete)
    assert inspect.signature(llmrelay.Client.__init__) == inspect.signature(llmrelay.AsyncClient.__init__)


def test_repr_never_shows_the_key() -> None:
    c = Client("openai:gpt-4o", adapter=FakeAdapter(), api_key="sk-secret-123")
    assert "sk-secret" not in repr(c) and "sk-secret" not in str(c.__dict__.get("_options"))


def test_raw_response_finish_reasons_are_normalized() -> None:
    reasons = {"end_turn": "stop", "max_tokens": "length", "SAFETY": "content_filter", "weird": "other", "STOP": "stop"}
    for provider_reason, expected in reasons.items():
        c, _ = client([RawResponse("fake", "m", text="x", finish_reason=provider_reason)])
        assert c.complete("Hi").finish_reason == expected


def test_a_provider_signature_rides_on_the_tool_call_and_comes_back() -> None:
    c, fake = client([NativeCall("get_weather", {"city": "Oslo"}, "call_s", "c2lnbmVk"), "Done."])
    first = c.complete(ASK, tools=[WEATHER])
    assert first.tool_calls[0].signature == "c2lnbmVk"
    c.complete([*ASK, first, {"role": "tool", "tool_call_id": "call_s", "content": "cold"}], tools=[WEATHER])
    assert fake.requests[1].messages[1].tool_calls[0].signature == "c2lnbmVk"
    as_dict = {
        "role": "assistant",
        "tool_calls": [{"id": "call_s", "name": "get_weather", "arguments": {}, "signature": "c2ln"}],
    }
    c2, fake2 = client(["ok"])
    c2.complete([*ASK, as_dict], tools=[WEATHER])
    assert fake2.requests[0].messages[1].tool_calls[0].signature == "c2ln"


def test_a_google_signature_in_the_openai_wire_shape_is_kept() -> None:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": "{}"},
        "extra_content": {"google": {"thought_signature": "c2ln"}},
    }
    c, fake = client(["ok"])
    c.complete([*ASK, {"role": "assistant", "tool_calls": [call]}], tools=[WEATHER])
    assert fake.requests[0].messages[1].tool_calls[0].signature == "c2ln"


def test_a_call_written_in_the_reasoning_is_reported_never_repaired() -> None:
    # Issue 16: the model thought about a call, then answered; its answer stands as it is.
    thought = '<think>Maybe <tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call></think>Cold.'
    c, fake = client([thought])
    resp = c.complete(ASK, tools=[WEATHER], mode="text")
    assert (resp.content, resp.tool_calls, [r.kind for r in resp.rejected]) == ("Cold.", [], ["in_reasoning"])
    assert resp.reasoning is not None and "Maybe" in resp.reasoning
    assert len(fake.requests) == 1 and [a.outcome for a in resp.attempts] == ["ok"]


def test_strict_mode_never_asks_the_model_to_turn_a_quoted_example_into_a_call() -> None:
    quoted = 'To get the weather you would send {"name": "get_weather", "arguments": {"city": "Paris"}} to the API.'
    c, fake = client([quoted], strict=True)
    resp = c.complete(ASK, tools=[WEATHER], mode="text")
    assert resp.tool_calls == [] and [r.kind for r in resp.rejected] == ["embedded"]
    assert resp.content == quoted
    assert len(fake.requests) == 1 and [a.outcome for a in resp.attempts] == ["ok"]


# --- issue 12: what would fail on every request is refused when the client is made ---------------

SECRET = "sk-pasted-in-the-wrong-place-0123456789"
BAD_OPTIONS = [
    pytest.param({"base_url": "file:///etc/passwd"}, "a file: URL", id="file-url"),
    pytest.param({"base_url": "localhost:11434/v1"}, "base_url must be", id="no-scheme"),
    pytest.param({"base_url": "//proxy.example.com/v1"}, "no http(s)://host", id="no-scheme-host"),
    pytest.param({"base_url": "https://"}, "no http(s)://host", id="no-host"),
    pytest.param({"base_url": "http://[::1/v1"}, "no http(s)://host", id="broken-ipv6"),
    pytest.param({"base_url": f"{SECRET}://x"}, "base_url must be", id="secret-as-scheme"),
    pytest.param({"headers": {"X-Token": f"{SECRET}\r\nX-Injected: 1"}}, "X-Token", id="header-line-break"),
    pytest.param({"headers": {"X-Token": f"{SECRET}\x00"}}, "control character", id="header-nul"),
    pytest.param({"headers": {"X-Team": "équipe"}}, "non-ASCII", id="header-non-ascii"),
    pytest.param({"headers": {"X Team": "a"}}, "header name", id="header-name-space"),
    pytest.param({"timeout": float("nan")}, "timeout", id="timeout-nan"),
    pytest.param({"timeout": -1.0}, "timeout", id="timeout-negative"),
    pytest.param({"max_stream_bytes": 0}, "max_stream_bytes", id="cap-zero"),
]


@pytest.mark.parametrize(("options", "message"), BAD_OPTIONS)
def test_bad_connection_settings_are_a_config_error_at_construction(options: dict[str, Any], message: str) -> None:
    with pytest.raises(llmrelay.ConfigError, match=re.escape(message)) as caught:
        llmrelay.Client("openai-compatible:m", **{"base_url": "http://localhost:1/v1", **options})
    assert "pasted" not in str(caught.value), "a value that may be a secret is never echoed"


@pytest.mark.parametrize(
    "base_url", ["http://localhost:11434/v1", "https://proxy.example.com/v1", "HTTPS://[::1]:8080", "http://10.0.0.1"]
)
def test_good_base_urls_are_accepted(base_url: str) -> None:
    assert llmrelay.Client("openai-compatible:m", base_url=base_url)._options["openai-compatible"].base_url == base_url


@pytest.mark.parametrize("arguments", [{"model": SECRET}, {"model": "openai:gpt-4o-mini", "mode": SECRET}])
def test_a_secret_pasted_as_model_or_mode_is_not_echoed(arguments: dict[str, Any]) -> None:
    with pytest.raises(llmrelay.ConfigError) as caught:
        llmrelay.Client(**arguments)
    assert "pasted" not in str(caught.value)


def test_capabilities_are_looked_up_once_per_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13: the capability database was matched on every request (most of a step's cost)."""
    import llmrelay._pipeline.setup as setup

    calls: list[tuple[str, str]] = []
    real = setup.lookup

    def counting(provider: str, model: str, overrides: Any = None) -> Any:
        calls.append((provider, model))
        return real(provider, model, overrides)

    monkeypatch.setattr(setup, "lookup", counting)
    c, _ = client(["a", "b", "c"])
    for _ in range(3):
        c.complete(ASK, tools=[WEATHER])
    assert calls == [("openai", "gpt-4o-mini")]
