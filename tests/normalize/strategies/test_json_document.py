"""The whole answer is one JSON value: every call shape, and the JSON answers that are only data."""

from __future__ import annotations

import json

import pytest

from ..cases import Case, check, plain

F = "json_document"


def dumps(value: object) -> str:
    return json.dumps(value)


DEEP_CUT = '{"content": "Checking.", "toolCalls": [{"name": "f", "arguments": {}}, {"name": "g", "arguments": ' + (
    '{"a": ' * 300
)

CASES = [
    # Envelopes.
    Case(
        "camelCase envelope with content",
        dumps({"toolCalls": [{"name": "f", "arguments": {"a": 1}}], "content": "Checking.", "needsMoreWork": True}),
        [("f", {"a": 1})],
        content="Checking.",
        format=F,
    ),
    Case(
        "snake_case envelope",
        dumps({"tool_calls": [{"name": "f", "arguments": {}}], "needs_more_work": False}),
        [("f", {})],
        format=F,
        needs_more_work=False,
    ),
    Case(
        "envelope with no calls and no flag is plain content",
        dumps({"toolCalls": [], "content": "Done."}),
        content="Done.",
        format=F,
    ),
    Case(
        "envelope flag as a string",
        dumps({"content": "x", "needsMoreWork": "false"}),
        content="x",
        format=F,
        needs_more_work=False,
    ),
    Case(
        "envelope with an item that is not a call",
        dumps({"toolCalls": [{"name": "f", "arguments": {}}, 42]}),
        [("f", {})],
        rejected=["malformed"],
        format=F,
    ),
    Case(
        "envelope call with arguments as a JSON string",
        dumps({"toolCalls": [{"name": "f", "arguments": '{"a": [1, 2]}'}]}),
        [("f", {"a": [1, 2]})],
        format=F,
    ),
    Case(
        "envelope call with unreadable argument string",
        dumps({"toolCalls": [{"name": "f", "arguments": "not json at all"}]}),
        rejected=["malformed"],
        format=F,
    ),
    Case(
        "envelope call with arguments that are a list",
        dumps({"toolCalls": [{"name": "f", "arguments": [1]}]}),
        rejected=["malformed"],
        format=F,
    ),
    # OpenAI shapes.
    Case(
        "OpenAI wire tool call",
        dumps(
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
        ),
        [("get_weather", {"city": "Paris"})],
        ids=["call_1"],
        format=F,
    ),
    Case(
        "OpenAI assistant message",
        dumps(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_a", "type": "function", "function": {"name": "a", "arguments": "{}"}},
                    {"id": "call_b", "type": "function", "function": {"name": "b", "arguments": '{"x": 1}'}},
                ],
            }
        ),
        [("a", {}), ("b", {"x": 1})],
        ids=["call_a", "call_b"],
        format=F,
    ),
    Case(
        "list of OpenAI wire calls",
        dumps([{"type": "function", "function": {"name": "a", "arguments": "{}"}}]),
        [("a", {})],
        format=F,
    ),
    Case(
        "legacy function_call",
        dumps({"function_call": {"name": "f", "arguments": '{"q": "x"}'}}),
        [("f", {"q": "x"})],
        format=F,
    ),
    Case(
        "empty argument string means no arguments",
        dumps({"type": "function", "function": {"name": "now", "arguments": ""}}),
        [("now", {})],
        format=F,
    ),
    # Other vendors' shapes.
    Case(
        "Anthropic tool_use block",
        dumps({"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}),
        [("f", {"a": 1})],
        ids=["toolu_1"],
        format=F,
    ),
    Case(
        "Gemini functionCall part",
        dumps({"functionCall": {"name": "f", "args": {"a": 1}}}),
        [("f", {"a": 1})],
        format=F,
    ),
    Case(
        "Gemini parts with text",
        dumps([{"text": "Let me look."}, {"functionCall": {"name": "f", "args": {}}}]),
        [("f", {})],
        content="Let me look.",
        format=F,
    ),
    Case(
        "Gemini candidate content",
        dumps(
            {
                "candidates": [
                    {
                        "content": {
                            "role": "model",
                            "parts": [
                                {"functionCall": {"name": "a", "args": {"x": 1}}},
                                {"functionCall": {"name": "b", "args": {}}},
                            ],
                        }
                    }
                ]
            }
        ),
        [("a", {"x": 1}), ("b", {})],
        format=F,
    ),
    Case(
        "llama.cpp tool_call wrapper",
        dumps({"tool_call": {"name": "f", "arguments": {"a": 1}}}),
        [("f", {"a": 1})],
        format=F,
    ),
    Case(
        "llama.cpp tool_calls with ids",
        dumps({"tool_calls": [{"name": "f", "arguments": {}, "id": "123456789"}]}),
        [("f", {})],
        ids=["123456789"],
        format=F,
    ),
    # Issue 13: an `id` beside name and arguments (read on the envelope's direct path).
    Case(
        "envelope calls with ids",
        dumps({"toolCalls": [{"id": "call_1", "name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {}}]}),
        [("f", {"a": 1}), ("g", {})],
        ids=["call_1", None],
        format=F,
    ),
    Case(
        "envelope call with an integer id",
        dumps({"toolCalls": [{"id": 7, "name": "f", "arguments": {}}]}),
        [("f", {})],
        ids=["7"],
        format=F,
    ),
    Case(
        "envelope call with an empty id",
        dumps({"toolCalls": [{"id": "", "name": "f", "arguments": {}}]}),
        [("f", {})],
        ids=[None],
        format=F,
    ),
    Case(
        "envelope call with a third key that is not an id",
        dumps({"toolCalls": [{"name": "f", "arguments": {}, "type": "function"}]}),
        [("f", {})],
        format=F,
    ),
    Case(
        "xLAM array of calls",
        dumps([{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]),
        [("a", {"x": 1}), ("b", {})],
        format=F,
    ),
    # llama.cpp's generic format (COMMON_CHAT_FORMAT_GENERIC): `{"response": ...}` when nothing is called.
    Case(
        "llama.cpp generic: a response alone is the content",
        dumps({"response": "Bonjour!\nÇa va ?"}),
        content="Bonjour!\nÇa va ?",
        format=F,
    ),
    plain("a response key beside other data is data", dumps({"response": "ok", "score": 2}), format=F),
    plain("a response that is no text is data", dumps({"response": {"ok": True}}), format=F),
    Case(
        "Llama 3 JSON with parameters",
        dumps({"name": "get_weather", "parameters": {"city": "Paris"}}),
        [("get_weather", {"city": "Paris"})],
        format=F,
    ),
    Case("tool/args variant", dumps({"tool": "f", "args": {"a": 1}}), [("f", {"a": 1})], format=F),
    Case("input variant", dumps({"name": "f", "input": {"a": 1}}), [("f", {"a": 1})], format=F),
    Case("function as a name", dumps({"function": "f", "arguments": {"a": 1}}), [("f", {"a": 1})], format=F),
    Case("integer id kept as text", dumps({"name": "f", "arguments": {}, "id": 7}), [("f", {})], ids=["7"], format=F),
    Case("surrounding whitespace", "\n\n  " + dumps({"name": "f", "arguments": {}}) + "\n", [("f", {})], format=F),
    # Valid JSON that is only data: kept unchanged as content.
    plain("data object", dumps({"temperature": 21, "unit": "C"}), format=F),
    plain("data list", dumps([1, 2, 3]), format=F),
    plain("a person named like a tool call", dumps({"name": "Alice", "age": 30}), format=F),
    plain("name without arguments is data", dumps({"name": "get_weather"}), format=F),
    plain("a name with spaces is not a tool", dumps({"name": "Alice Smith", "arguments": {}}), format=F),
    plain(
        "a tool definition shown to the user",
        dumps(
            {
                "name": "get_weather",
                "description": "Weather",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            }
        ),
        format=F,
    ),
    plain(
        "an OpenAI tool definition",
        dumps(
            {
                "type": "function",
                "function": {"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}},
            }
        ),
        format=F,
    ),
    plain(
        "a JSON schema",
        dumps({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
        format=F,
    ),
    plain(
        "parameters that are a schema",
        dumps({"name": "f", "parameters": {"type": "object", "properties": {}}}),
        format=F,
    ),
    plain("a list with one non-call", dumps([{"name": "a", "arguments": {}}, {"x": 1}]), format=F),
    plain("an empty list", "[]", format=F),
    plain("an object of another type", dumps({"type": "message", "name": "f", "arguments": {}}), format=F),
    plain(
        "markup quoted inside a JSON string is not a call",
        dumps({"html": '<tool_call>{"name": "f", "arguments": {}}</tool_call>'}),
        format=F,
    ),
    # An envelope cut short (a token limit): the content read so far, the calls that closed, the
    # call cut off rejected as truncated. (Before: the raw JSON text as content.)
    Case("envelope cut inside its content", '{"content": "Hello wor', content="Hello wor", format=F),
    Case("envelope cut inside an escape", '{"content": "caf\\u00', content="caf", format=F),
    Case("envelope missing its closing brace", '{"content": "Done."', content="Done.", format=F),
    Case(
        "envelope cut inside its second call",
        '{"content": "Checking.", "toolCalls": [{"name": "f", "arguments": "{\\"a\\": 1}"}, '
        '{"name": "g", "arguments": "{\\"b',
        [("f", {"a": 1})],
        content="Checking.",
        rejected=["truncated"],
        format=F,
    ),
    Case(
        "envelope cut in content after its calls",
        '{"toolCalls": [{"name": "f", "arguments": {}}], "content": "Sure, here',
        [("f", {})],
        content="Sure, here",
        format=F,
    ),
    Case(
        "cut envelope whose content quotes markup",
        '{"content": "Use <tool_call>{\\"name\\": \\"f\\"}</tool_call> tags',
        content='Use <tool_call>{"name": "f"}</tool_call> tags',
        format=F,
    ),
    # Issue 12: the cut-envelope reader is a Python loop, so it stops past 200 open containers;
    # deeper (hostile: `{"a":` 200k times took seconds), the answer is one truncated rejection.
    Case(
        "cut envelope whose last call nests 150 deep",
        '{"content": "Checking.", "toolCalls": [{"name": "f", "arguments": {}}, {"name": "g", "arguments": '
        + '{"a": ' * 150,
        [("f", {})],
        content="Checking.",
        rejected=["truncated"],
        format=F,
    ),
    Case(
        "cut envelope nesting past 200 levels",
        DEEP_CUT,
        content=DEEP_CUT,
        rejected=["truncated"],
        format="lenient_json_document",
    ),
    Case("a whole answer of only content", dumps({"content": "Hi!"}), content="Hi!", format=F),
    plain("data cut short", '{"temperature": 21, "unit": "C', format=None),
    plain("data with a content key", dumps({"content": "x", "score": 3}), format=F),
    Case(
        "envelope in single quotes",
        "{'toolCalls': [{'name': 'f', 'arguments': {'a': 1}}]}",
        [("f", {"a": 1})],
        format="lenient_json_document",
    ),
    Case(
        "envelope whose content explains markup",
        dumps({"content": "Use <tool_call> tags.", "toolCalls": []}),
        content="Use <tool_call> tags.",
        format=F,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_json_document(case: Case) -> None:
    check(case)
