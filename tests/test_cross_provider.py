"""One conversation across providers, and what happens when a provider's SDK is missing.

A call Gemini made (without an id) is answered, and the conversation goes on with Anthropic and
then OpenAI: each must receive the call and its result paired under an id it accepts.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import pytest

import llmrelay
from llmrelay import Client, MissingDependencyError
from llmrelay.adapters import adapter_class
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
GEMINI_URL = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
GEMINI_CALL = {  # Gemini 2.x sends function calls without ids.
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}],
            },
            "finishReason": "STOP",
        }
    ],
    "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 5, "totalTokenCount": 25},
    "modelVersion": "gemini-2.5-flash",
}
ANTHROPIC_TEXT = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-6",
    "content": [{"type": "text", "text": "It is 21C in Paris."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 40, "output_tokens": 9},
}
OPENAI_TEXT = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "gpt-4o-mini",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Sunny, 21C."}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 40, "completion_tokens": 5, "total_tokens": 45},
}


def client(model: str) -> Client:
    return Client(model, api_key="test-key-0123456789", learner=CapabilityLearner(), max_repairs=0)


def sent(route: Any) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(route.calls[-1].request.content)
    return body


def test_a_gemini_call_continues_on_anthropic_then_openai() -> None:
    ask = [{"role": "user", "content": "Weather in Paris?"}]
    with mock_http() as router:
        router.post(GEMINI_URL).respond(200, json=GEMINI_CALL)
        anthropic_route = router.post("https://api.anthropic.com/v1/messages").respond(200, json=ANTHROPIC_TEXT)
        openai_route = router.post("https://api.openai.com/v1/chat/completions").respond(200, json=OPENAI_TEXT)

        first = client("gemini:gemini-2.5-flash").complete(ask, tools=[WEATHER])
        [call] = first.tool_calls
        assert (call.name, call.arguments) == ("get_weather", {"city": "Paris"})
        assert call.id  # Made up: Gemini sent none.
        conversation = [*ask, first, {"role": "tool", "tool_call_id": call.id, "content": "21C"}]

        second = client("anthropic:claude-sonnet-4-6").complete(conversation, tools=[WEATHER])
        third = client("openai:gpt-4o-mini").complete([*conversation, second], tools=[WEATHER])

    assert (second.content, third.content) == ("It is 21C in Paris.", "Sunny, 21C.")
    anthropic_body = sent(anthropic_route)
    tool_use = anthropic_body["messages"][1]["content"][0]
    tool_result = anthropic_body["messages"][2]["content"][0]
    assert (tool_use["type"], tool_use["name"], tool_use["input"]) == ("tool_use", "get_weather", {"city": "Paris"})
    assert re.fullmatch(r"[a-zA-Z0-9_-]+", tool_use["id"])
    assert (tool_result["type"], tool_result["tool_use_id"]) == ("tool_result", tool_use["id"])

    openai_messages = sent(openai_route)["messages"]
    [wire_call] = openai_messages[1]["tool_calls"]
    assert (wire_call["function"]["name"], json.loads(wire_call["function"]["arguments"])) == (
        "get_weather",
        {"city": "Paris"},
    )
    assert len(wire_call["id"]) <= 40
    assert (openai_messages[2]["role"], openai_messages[2]["tool_call_id"]) == ("tool", wire_call["id"])
    assert openai_messages[3] == {"role": "assistant", "content": "It is 21C in Paris."}


@pytest.mark.parametrize(
    ("provider", "module", "extra"),
    [
        ("openai", "openai", "openai"),
        ("anthropic", "anthropic", "anthropic"),
        ("gemini", "google.genai", "gemini"),
        ("groq", "groq", "groq"),
        ("openrouter", "openai", "openai"),
        ("openai-compatible", "openai", "openai"),
    ],
)
def test_a_missing_sdk_names_the_extra_to_install(
    provider: str, module: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # `import <module>` now raises ImportError.
    adapter_module = f"llmrelay.adapters.{provider.replace('-', '_')}"
    monkeypatch.delitem(sys.modules, adapter_module, raising=False)
    for name in [n for n in sys.modules if n.startswith("llmrelay.adapters._openai")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(MissingDependencyError) as caught:
        adapter_class(provider)
    assert f'pip install "llmrelay[{extra}]"' in str(caught.value)
    with pytest.raises(MissingDependencyError):
        llmrelay.Client(f"{provider}:some-model", base_url="http://localhost:1/v1")
