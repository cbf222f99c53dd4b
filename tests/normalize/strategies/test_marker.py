"""Seed 001's TOOL_CALL marker contract."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from llmrelay.normalize.strategies import ToolCallMarker
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

M = "tool_call_marker"

CASES = [
    Case(
        "two markers, prose between",
        'TOOL_CALL\n{"tool_name": "a", "parameters": {}}\nthen\nTOOL_CALL\n{"tool_name": "b", "parameters": {"x": 1}}',
        [("a", {}), ("b", {"x": 1})],
        content="then",
        format=M,
    ),
    Case("name and arguments keys", 'TOOL_CALL {"name": "f", "arguments": {"a": "b"}}', [("f", {"a": "b"})], format=M),
    Case(
        "marker with an array of calls",
        'TOOL_CALL\n[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]',
        [("a", {}), ("b", {})],
        format=M,
    ),
    Case(
        "trailing comma and Python literal",
        'TOOL_CALL\n{"tool_name": "f", "parameters": {"on": True,},}',
        [("f", {"on": True})],
        format=M,
    ),
    Case(
        "one missing final brace at the end",
        'TOOL_CALL\n{"tool_name": "f", "parameters": {"a": 1}',
        [("f", {"a": 1})],
        format=M,
    ),
    Case(
        "cut off mid-call is truncated",
        'TOOL_CALL\n{"tool_name": "f", "parameters": {"text": "abc',
        rejected=["truncated"],
        format=M,
    ),
    Case(
        "unreadable JSON is malformed",
        "Sure.\nTOOL_CALL\n{tool_name => f}",
        content="Sure.",
        rejected=["malformed"],
        format=M,
    ),
    Case(
        "fenced with a language and text after",
        'TOOL_CALL\n```json\n{"tool_name": "f", "parameters": {}}\n```\nDone.',
        [("f", {})],
        content="Done.",
        format=M,
    ),
    Case(
        "arguments as a JSON string",
        'TOOL_CALL {"tool_name": "f", "parameters": "{\\"a\\": 2}"}',
        [("f", {"a": 2})],
        format=M,
    ),
    plain("the marker mentioned in prose", "Emit TOOL_CALL followed by a JSON object when you need a tool."),
    plain("a longer word containing the marker", "MY_TOOL_CALLS are logged."),
    # Issue 12: the look-behind now follows the marker in the pattern; a word before it still hides it.
    plain("the marker ending a longer word", 'AUTO_TOOL_CALL {"a": 1}'),
    Case(
        "the marker after a line break",
        'Sure.\nTOOL_CALL {"name": "f", "arguments": {}}',
        [("f", {})],
        content="Sure.",
        format=M,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_marker(case: Case) -> None:
    check(case)


def test_custom_marker() -> None:
    result = parse_response('CALL>> {"tool": "f", "args": {}}', strategies=[ToolCallMarker("CALL>>")])
    assert [(c.name, c.arguments) for c in result.tool_calls] == [("f", {})]


def test_many_markers_without_json_is_linear() -> None:
    text = "TOOL_CALL " * 200_000
    started = time.perf_counter()
    assert parse_response(text).tool_calls == []
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
