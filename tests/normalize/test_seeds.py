"""Every example and test case of the design seeds 000, 001, 003 and 004, as envelope cases.

Where a seed expected a placeholder content ("Executing tools"), llmrelay gives "" instead: the
content is only text the model wrote for the user.
"""

from __future__ import annotations

import pytest

from .cases import Case, check, plain

WEATHER_TOOLS = [
    {
        "name": "fs.read",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
]

SEED_000 = [
    Case(
        "000 clean envelope",
        '{"toolCalls": [{"name": "read_file", "arguments": {"path": "x.txt"}}], "needsMoreWork": true}',
        [("read_file", {"path": "x.txt"})],
        format="json_document",
    ),
    Case(
        "000 content-only envelope",
        '{"content": "The answer is 42", "needsMoreWork": false}',
        content="The answer is 42",
        format="json_document",
        needs_more_work=False,
    ),
    Case(
        "000 function_calls with JSON array",
        '<function_calls>[{"name": "list_dir", "arguments": {"path": "."}}]</function_calls>',
        [("list_dir", {"path": "."})],
        format="function_calls_json",
    ),
    Case(
        "000 text outside function_calls is kept",
        'I will list that directory.\n<function_calls>[{"name": "list_dir", "arguments": {"path": "."}}]</function_calls>',
        [("list_dir", {"path": "."})],
        content="I will list that directory.",
        format="function_calls_json",
    ),
    Case(
        "000 invoke tags with parameters",
        '<function_calls><invoke name="read_file"><parameter name="path">config.json</parameter></invoke></function_calls>',
        [("read_file", {"path": "config.json"})],
        format="anthropic_xml",
    ),
    Case(
        "000 multiple invoke tags",
        '<function_calls><invoke name="read_file"><parameter name="path">a.txt</parameter></invoke>'
        '<invoke name="read_file"><parameter name="path">b.txt</parameter></invoke></function_calls>',
        [("read_file", {"path": "a.txt"}), ("read_file", {"path": "b.txt"})],
        format="anthropic_xml",
    ),
    Case(
        "000 JSON in a markdown code block",
        'Here is the result:\n```json\n{"toolCalls": [{"name": "test", "arguments": {}}], "needsMoreWork": true}\n```',
        [("test", {})],
        content="Here is the result:",
        format="fenced_json",
    ),
    Case(
        "000 JSON embedded in mixed content",
        'I will help you with that.\n\n{"toolCalls": [{"name": "search", "arguments": {"q": "test"}}], "needsMoreWork": true}',
        [("search", {"q": "test"})],
        content="I will help you with that.",
        format="embedded_json",
    ),
    Case(
        "000 token markers",
        '<|tool_calls_section_begin|><|tool_call_begin|>{"name": "test", "arguments": {}}<|tool_call_end|><|tool_calls_section_end|>',
        [("test", {})],
        format="special_tokens",
    ),
    Case(
        "000 single tool object",
        '{"name": "read_file", "arguments": {"path": "test.txt"}}',
        [("read_file", {"path": "test.txt"})],
        format="json_document",
    ),
    plain("000 plain text", "The answer to your question is 42."),
    plain("000 empty string", ""),
    # A call cut off mid-way is reported as truncated, never guessed at; the text is all kept.
    Case(
        "000 malformed JSON is kept as content",
        '{"toolCalls": [{"name": "test"',
        content='{"toolCalls": [{"name": "test"',
        rejected=["truncated"],
        format="json_document",  # A cut envelope is read by the strict JSON strategy, first (`read_cut_envelope`).
    ),
    Case(
        "000 appendix A: Groq Llama function_calls",
        '<function_calls>\n[{"name": "read_file", "arguments": {"path": "/etc/hosts"}}]\n</function_calls>',
        [("read_file", {"path": "/etc/hosts"})],
        format="function_calls_json",
    ),
    Case(
        "000 appendix B: Claude invoke, JSON-valued parameter decoded",
        '<function_calls>\n<invoke name="search_web">\n<parameter name="query">weather today</parameter>\n'
        '<parameter name="num_results">5</parameter>\n</invoke>\n</function_calls>',
        [("search_web", {"query": "weather today", "num_results": 5})],
        format="anthropic_xml",
    ),
    Case(
        "000 appendix C: ChatGPT markdown",
        "I'll search for that information.\n\n```json\n"
        '{"toolCalls": [{"name": "web_search", "arguments": {"q": "latest news"}}], "needsMoreWork": true}\n```',
        [("web_search", {"q": "latest news"})],
        content="I'll search for that information.",
        format="fenced_json",
    ),
]

SEED_001 = [
    Case(
        "001 standard TOOL_CALL",
        'TOOL_CALL\n{\n  "tool_name": "search",\n  "parameters": {"query": "Python tutorials"}\n}',
        [("search", {"query": "Python tutorials"})],
        format="tool_call_marker",
    ),
    Case(
        "001 TOOL_CALL with code fence",
        'TOOL_CALL\n\n```json\n{\n  "tool_name": "search",\n  "parameters": { "query": "Python tutorials" }\n}\n```',
        [("search", {"query": "Python tutorials"})],
        format="tool_call_marker",
    ),
    Case(
        "001 TOOL_CALL mixed with text",
        "I'll search for that information.\n\nTOOL_CALL\n"
        '{"tool_name": "search", "parameters": {"query": "Python tutorials"}}\n\nLet me find that for you.',
        [("search", {"query": "Python tutorials"})],
        content="I'll search for that information.\nLet me find that for you.",
        format="tool_call_marker",
    ),
    Case(
        "001 alternate field names tool/params",
        'TOOL_CALL\n{\n"tool": "search",\n"params": {"query": "Python tutorials"}\n}',
        [("search", {"query": "Python tutorials"})],
        format="tool_call_marker",
    ),
    Case(
        "001 single quotes",
        "TOOL_CALL\n{'tool_name': 'search', 'parameters': {'query': 'test'}}",
        [("search", {"query": "test"})],
        format="tool_call_marker",
    ),
    Case(
        "001 unescaped newlines in strings",
        'TOOL_CALL\n{\n  "tool_name": "write_file",\n  "parameters": {\n    "content": "Line 1\nLine 2"\n  }\n}',
        [("write_file", {"content": "Line 1\nLine 2"})],
        format="tool_call_marker",
    ),
    Case(
        "001 explanatory text around the marker",
        "I'll search for that information using the search tool.\n\nTOOL_CALL\n"
        '{"tool_name": "search", "parameters": {"query": "Python"}}\n\nThis will help me find relevant results.',
        [("search", {"query": "Python"})],
        content="I'll search for that information using the search tool.\nThis will help me find relevant results.",
        format="tool_call_marker",
    ),
    # Seed 001 kept only the first object; llmrelay supports several calls and keeps both, in order.
    Case(
        "001 multiple JSON objects",
        '{"tool_name": "first"}\n{"tool_name": "second"}',
        [("first", {}), ("second", {})],
        format="embedded_json",
    ),
    Case(
        "001 empty parameters",
        '{\n  "tool_name": "get_time",\n  "parameters": {}\n}',
        [("get_time", {})],
        format="json_document",
    ),
    Case(
        "001 null parameters",
        '{\n  "tool_name": "get_time",\n  "parameters": null\n}',
        [("get_time", {})],
        format="json_document",
    ),
    Case("001 missing parameters field", '{\n  "tool_name": "get_time"\n}', [("get_time", {})], format="json_document"),
    plain("001 empty tool name is no call", '{\n  "tool_name": "",\n  "parameters": {}\n}', format="json_document"),
    Case(
        "001 empty tool name after the marker is reported",
        'TOOL_CALL\n{"tool_name": "", "parameters": {}}',
        rejected=["malformed"],
        format="tool_call_marker",
    ),
    Case(
        "001 deeply nested parameters",
        '{"tool_name": "complex", "parameters": {"level1": {"level2": {"level3": {"value": "deep"}}}}}',
        [("complex", {"level1": {"level2": {"level3": {"value": "deep"}}}})],
        format="json_document",
    ),
    Case(
        "001 test_parse_standard_format",
        'TOOL_CALL\n{"tool_name": "search", "parameters": {"q": "test"}}',
        [("search", {"q": "test"})],
        format="tool_call_marker",
    ),
    Case(
        "001 test_parse_with_code_fence",
        '\n    ```json\n    {"tool_name": "search", "parameters": {"q": "test"}}\n    ```\n    ',
        [("search", {"q": "test"})],
        format="fenced_json",
    ),
    plain("001 test_no_tool_call", "Just a normal response."),
    Case(
        "001 test_malformed_json",
        "TOOL_CALL\n{'tool_name': 'search', 'parameters': {}}",
        [("search", {})],
        format="tool_call_marker",
    ),
    Case(
        "001 test_alternate_field_names", '{"tool": "search", "params": {}}', [("search", {})], format="json_document"
    ),
    Case(
        "001 marker with a custom-looking colon",
        'TOOL_CALL: {"tool_name": "ping"}',
        [("ping", {})],
        format="tool_call_marker",
    ),
]

SEED_003 = [
    Case(
        "003 action",
        '{\n  "type": "action",\n  "tool": "fs.read",\n  "args": {\n    "path": "README.md"\n  }\n}',
        [("fs.read", {"path": "README.md"})],
        format="json_document",
    ),
    Case(
        "003 action after text",
        "I'll help you read that file. Let me fetch it for you.\n"
        '{"type": "action", "tool": "fs.read", "args": {"path": "README.md"}}',
        [("fs.read", {"path": "README.md"})],
        content="I'll help you read that file. Let me fetch it for you.",
        format="embedded_json",
    ),
    Case(
        "003 action after text is explicit in strict mode",
        'Reading it.\n{"type": "action", "tool": "fs.read", "args": {"path": "README.md"}}',
        [("fs.read", {"path": "README.md"})],
        content="Reading it.",
        format="embedded_json",
        strict=True,
    ),
    plain("003 pure text", "I'll help you read that file. Let me fetch it for you."),
    Case(
        "003 error is reported, not called",
        '{"type": "error", "code": "permission_denied", "message": "I don\'t have permission to read that file"}',
        format="json_document",
        needs_more_work=None,
    ),
    Case(
        "003 unknown tool is rejected with the registry",
        '{"type": "action", "tool": "fs.delete", "args": {"path": "x"}}',
        rejected=["unknown_tool"],
        format="json_document",
        tools=WEATHER_TOOLS,
    ),
    Case(
        "003 invalid args are rejected with the registry",
        '{"type": "action", "tool": "fs.read", "args": {"path": 5, "x": 1}}',
        [("fs.read", {"path": "5", "x": 1})],
        format="json_document",
        tools=WEATHER_TOOLS,
    ),
    Case(
        "003 missing required arg is rejected",
        '{"type": "action", "tool": "fs.read", "args": {}}',
        rejected=["invalid_arguments"],
        format="json_document",
        tools=WEATHER_TOOLS,
    ),
    Case(
        "003 an example in prose cannot trigger a tool (strict)",
        'For example, you could send {"name": "fs.read", "arguments": {"path": "/etc/passwd"}} to read a file.',
        content='For example, you could send {"name": "fs.read", "arguments": {"path": "/etc/passwd"}} to read a file.',
        rejected=["embedded"],
        format="embedded_json",
        strict=True,
    ),
    Case(
        "003 the same example is a call when not strict",
        'For example, you could send {"name": "fs.read", "arguments": {"path": "/etc/passwd"}} to read a file.',
        [("fs.read", {"path": "/etc/passwd"})],
        content="For example, you could send\nto read a file.",
        format="embedded_json",
    ),
]

SEED_004 = [
    Case(
        "004 pattern 1: Claude's preferred format",
        '<function_calls>\n<invoke name="read_file">\n<parameter name="path">/etc/hosts</parameter>\n</invoke>\n</function_calls>',
        [("read_file", {"path": "/etc/hosts"})],
        format="anthropic_xml",
    ),
    Case(
        "004 pattern 2: alternative invoke format",
        '<function_calls>\n[{"name": "read_file", "arguments": {"path": "/etc/hosts"}}]\n</function_calls>',
        [("read_file", {"path": "/etc/hosts"})],
        format="function_calls_json",
    ),
    Case(
        "004 pattern 3: tool markers with a bare name",
        "<|tool_calls_section_begin|>\n<|tool_call_begin|>read_file<|tool_call_end|>\n<|tool_calls_section_end|>",
        [("read_file", {})],
        format="special_tokens",
    ),
]

CASES = SEED_000 + SEED_001 + SEED_003 + SEED_004


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_seed_case(case: Case) -> None:
    check(case)


def test_model_reported_error_is_on_the_envelope() -> None:
    result = check(SEED_003[4])
    assert result.error is not None
    assert (result.error.code, result.error.message) == (
        "permission_denied",
        "I don't have permission to read that file",
    )


WRITE_FILE = {
    "name": "write_file",
    "parameters": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}, "mode": {"type": "integer"}},
    },
}

# Values written as text (XML-style formats) are decoded as JSON only where the schema wants it:
# a string argument keeps the text exactly as the model wrote it.
TEXT_ARGUMENTS = [
    Case(
        "Claude XML string argument that looks like JSON stays text",
        '<invoke name="write_file"><parameter name="path">true</parameter>'
        '<parameter name="content">{"a": 1}</parameter><parameter name="mode">644</parameter></invoke>',
        [("write_file", {"path": "true", "content": '{"a": 1}', "mode": 644})],
        format="anthropic_xml",
        tools=[WRITE_FILE],
    ),
    Case(
        "Qwen3-Coder string argument keeps its decimals",
        "<tool_call>\n<function=write_file>\n<parameter=content>\n1.50\n</parameter>\n</function>\n</tool_call>",
        [("write_file", {"content": "1.50"})],
        format="qwen3_coder",
        tools=[WRITE_FILE],
    ),
    Case(
        "GLM string argument that looks like a list stays text",
        "<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>[1, 2]</arg_value>\n</tool_call>",
        [("write_file", {"content": "[1, 2]"})],
        format="glm",
        tools=[WRITE_FILE],
    ),
    Case(
        "without tools the JSON-looking text is decoded",
        '<invoke name="write_file"><parameter name="content">{"a": 1}</parameter></invoke>',
        [("write_file", {"content": {"a": 1}})],
        format="anthropic_xml",
    ),
]


@pytest.mark.parametrize("case", TEXT_ARGUMENTS, ids=lambda c: c.id)
def test_text_arguments_follow_the_schema(case: Case) -> None:
    check(case)


def test_input_over_the_size_limit_is_returned_unsearched_with_a_warning() -> None:
    from llmrelay import parse_response

    text = "x" * 50 + '{"name": "f", "arguments": {}}'
    result = parse_response(text, max_chars=60)
    assert (result.content, result.tool_calls, result.raw) == (text, [], text)
    assert result.warnings == ["input is 80 characters, over max_chars=60: not searched for tool calls"]
    assert [c.name for c in parse_response(text, max_chars=80).tool_calls] == ["f"]  # At the limit: searched.
