"""What non-native modes send: the envelope's instructions, and tool turns written as text."""

from __future__ import annotations

import json

from llmrelay import Message, NamedTool, Tool, ToolCall
from llmrelay._instructions import envelope_schema, instructions, prepare_messages
from llmrelay._types import Request

WEATHER = Tool("get_weather", "Weather for a city.", {"type": "object", "properties": {"city": {"type": "string"}}})
HISTORY = (
    Message("system", "Be brief."),
    Message("user", "Weather in Paris?"),
    Message("assistant", "Checking.", (ToolCall("get_weather", {"city": "Paris"}, "call_1"),)),
    Message("tool", "21C", tool_call_id="call_1", name="get_weather"),
)


def request(mode: str, tools: tuple[Tool, ...] = (WEATHER,), choice: object = None) -> Request:
    return Request("m", HISTORY, mode, tools, choice)  # type: ignore[arg-type]


def test_native_mode_sends_the_conversation_as_it_is() -> None:
    assert prepare_messages(request("native_tools")) == HISTORY


def test_text_mode_adds_instructions_to_the_system_turn_and_writes_tool_turns_as_text() -> None:
    system, user, assistant, tool = prepare_messages(request("text"))
    assert system.role == "system" and system.content.startswith("Be brief.\n\nYou can call tools.")
    assert "- get_weather: Weather for a city." in system.content
    assert user == HISTORY[1]
    assert (assistant.role, assistant.tool_calls) == ("assistant", ())
    assert json.loads(assistant.content) == {
        "content": "Checking.",
        "toolCalls": [{"name": "get_weather", "arguments": {"city": "Paris"}}],
        "needsMoreWork": True,
    }
    assert (tool.role, tool.content) == ("user", "Result of tool get_weather (call call_1):\n21C")


def test_without_tools_no_instructions_but_tool_turns_are_still_text() -> None:
    messages = prepare_messages(request("text", tools=()))
    assert messages[0] == HISTORY[0]
    assert all(m.role != "tool" and not m.tool_calls for m in messages)


def test_a_system_turn_is_added_when_there_is_none() -> None:
    messages = prepare_messages(Request("m", (Message("user", "hi"),), "json_object", (WEATHER,)))
    assert messages[0].role == "system" and "JSON object" in messages[0].content


def test_tool_choice_sentences() -> None:
    assert "must call at least one tool" in instructions("text", (WEATHER,), "required")
    assert "Do not call any tool" in instructions("text", (WEATHER,), "none")
    assert "must call the tool 'get_weather'" in instructions("text", (WEATHER,), NamedTool("get_weather"))
    assert "must call" not in instructions("text", (WEATHER,), "auto")


def test_json_schema_mode_asks_for_arguments_as_a_string() -> None:
    assert "JSON-encoded as a string" in instructions("json_schema", (WEATHER,), None)


def test_envelope_schema_is_strict() -> None:
    schema = envelope_schema((WEATHER,))
    assert schema["additionalProperties"] is False and schema["required"] == ["content", "toolCalls", "needsMoreWork"]
    call = schema["properties"]["toolCalls"]["items"]
    assert call["properties"]["name"]["enum"] == ["get_weather"] and call["additionalProperties"] is False
