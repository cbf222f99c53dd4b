"""Claude-style `<invoke>` markup written as text (seed 000, format 3)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

A = "anthropic_xml"
NS = "antml:"  # The namespace prefix Claude's own tool-use markup carries.


def invoke(name: str, *params: tuple[str, str], prefix: str = "") -> str:
    """One invoke with its parameters, written the way Claude writes it."""
    body = "".join(f'<{prefix}parameter name="{k}">{v}</{prefix}parameter>\n' for k, v in params)
    return f'<{prefix}invoke name="{name}">\n{body}</{prefix}invoke>\n'


CASES = [
    Case(
        "seed 000 example B: a JSON-valued parameter is decoded, a string one is kept",
        '<function_calls>\n<invoke name="search_web">\n<parameter name="query">weather today</parameter>\n'
        '<parameter name="num_results">5</parameter>\n</invoke>\n</function_calls>',
        [("search_web", {"query": "weather today", "num_results": 5})],
        format=A,
    ),
    Case(
        "several invokes; prose before, between and after",
        f"Reading both.\n<function_calls>\n{invoke('read_file', ('path', 'a.txt'))}</function_calls>\nthen\n"
        f"<function_calls>\n{invoke('read_file', ('path', 'b.txt'))}</function_calls>\nDone.",
        [("read_file", {"path": "a.txt"}), ("read_file", {"path": "b.txt"})],
        content="Reading both.\nthen\nDone.",
        format=A,
    ),
    Case(
        "namespaced tags, as Claude writes them",
        f"<{NS}function_calls>\n{invoke('read_file', ('path', 'config.json'), prefix=NS)}</{NS}function_calls>",
        [("read_file", {"path": "config.json"})],
        format=A,
    ),
    Case(
        "no wrapper, single quotes, everything on one line",
        "<invoke name='get_time'><parameter name='tz'>UTC</parameter></invoke>",
        [("get_time", {"tz": "UTC"})],
        format=A,
    ),
    Case(
        "JSON values: boolean, object, array, null, quoted string",
        invoke("f", ("on", "true"), ("opts", '{"a": 1}'), ("ids", "[1, 2]"), ("none", "null"), ("s", '"5"')),
        [("f", {"on": True, "opts": {"a": 1}, "ids": [1, 2], "none": None, "s": "5"})],
        format=A,
    ),
    Case(
        "newline padding is stripped, spaces are kept, NaN stays text",
        invoke("f", ("text", "\n  indented line\n"), ("pad", " two spaces "), ("x", "NaN")),
        [("f", {"text": "  indented line", "pad": " two spaces ", "x": "NaN"})],
        format=A,
    ),
    Case(
        "MiniMax-M2 wrapper",
        f"<minimax:tool_call>\n{invoke('search', ('query', 'llm parsers'), ('limit', '3'))}</minimax:tool_call>",
        [("search", {"query": "llm parsers", "limit": 3})],
        format=A,
    ),
    Case(
        "the close tags are missing after complete parameters (a stop sequence)",
        '<function_calls>\n<invoke name="read_file">\n<parameter name="path">a.txt</parameter>\n',
        [("read_file", {"path": "a.txt"})],
        format=A,
    ),
    Case(
        "a missing </parameter> is ended by the next parameter",
        '<invoke name="f"><parameter name="a">1\n<parameter name="b">two</parameter></invoke>',
        [("f", {"a": 1, "b": "two"})],
        format=A,
    ),
    Case(
        "legacy anthropic-tools format, without </function_calls>",
        "<function_calls>\n<invoke>\n<tool_name>get_weather</tool_name>\n<parameters>\n"
        "<location>San Francisco, CA</location>\n<days>3</days>\n</parameters>\n</invoke>\n",
        [("get_weather", {"location": "San Francisco, CA", "days": 3})],
        format=A,
    ),
    Case(
        "a tool name with spaces is malformed",
        '<invoke name="read file"><parameter name="path">a</parameter></invoke>',
        rejected=["malformed"],
        format=A,
    ),
    Case(
        "a parameter without a name is malformed",
        'Let me see.\n<invoke name="f"><parameter>1</parameter></invoke>',
        content="Let me see.",
        rejected=["malformed"],
        format=A,
    ),
    Case(
        "cut off inside a parameter value is truncated",
        '<function_calls>\n<invoke name="write_file">\n<parameter name="content">Once upon a ti',
        rejected=["truncated"],
        format=A,
    ),
    plain("the tag mentioned in prose", "Claude calls tools with an <invoke> tag inside <function_calls>."),
    plain("a word containing invoke", "We invoke the <invoker> only on Fridays."),
    # The JSON-array form is XmlFunctionCalls', ordered after this strategy.
    Case(
        "<function_calls> holding JSON is not this format",
        '<function_calls>[{"name": "invoke", "arguments": {}}]</function_calls>',
        [("invoke", {})],
        format="function_calls_json",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_anthropic_xml(case: Case) -> None:
    check(case)


def test_200k_unclosed_open_tags_is_linear() -> None:
    text = "<function_calls><invoke>" * 100_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert (result.tool_calls, result.content) == ([], text)
    assert elapsed < NO_BLOWUP_SECONDS


def test_200k_unclosed_invokes_stop_at_the_tag_budget() -> None:
    text = '<invoke name="a">' * 200_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert {c.name for c in result.tool_calls} == {"a"}
    assert "not read" in result.rejected[-1].reason
    assert elapsed < NO_BLOWUP_SECONDS
