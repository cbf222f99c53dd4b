"""AI21 Jamba's `<tool_calls>[…]</tool_calls>`."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

J = "jamba"

CASES = [
    Case(
        "single call",
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>',
        [("get_weather", {"city": "Paris"})],
        format=J,
    ),
    Case(
        "several calls, prose before",
        'Checking both.\n<tool_calls>[{"name": "a", "arguments": {}}, '
        '{"name": "b", "arguments": {"x": 1}}]</tool_calls>',
        [("a", {}), ("b", {"x": 1})],
        content="Checking both.",
        format=J,
    ),
    Case(
        "prose between and after blocks",
        '<tool_calls>[{"name": "a", "arguments": {}}]</tool_calls> then '
        '<tool_calls>[{"name": "b", "arguments": {}}]</tool_calls> done',
        [("a", {}), ("b", {})],
        content="then\ndone",
        format=J,
    ),
    Case(
        "arguments as a JSON-encoded string, with an id",
        '<tool_calls>[{"id": "j1", "name": "a", "arguments": "{\\"q\\": \\"x\\"}"}]</tool_calls>',
        [("a", {"q": "x"})],
        ids=["j1"],
        format=J,
    ),
    Case(
        "the last </tool_calls> is missing",
        '<tool_calls>[{"name": "a", "arguments": {"q": 1}}]',
        [("a", {"q": 1})],
        format=J,
    ),
    Case(
        "a single object instead of an array",
        '<tool_calls>{"name": "a", "arguments": {}}</tool_calls>',
        [("a", {})],
        format=J,
    ),
    Case("unreadable JSON is malformed", "<tool_calls>[{a b c}]</tool_calls>", rejected=["malformed"], format=J),
    Case(
        "cut off mid-string is truncated",
        '<tool_calls>[{"name": "a", "arguments": {"q": "unfinish',
        rejected=["truncated"],
        format=J,
    ),
    plain("the tag mentioned in prose", "Jamba writes <tool_calls> before its calls."),
    # <tool_calls> is not Hermes' <tool_call>, and the reverse.
    Case(
        "Hermes' singular tag is not Jamba's",
        '<tool_call>{"name": "a", "arguments": {}}</tool_call>',
        [("a", {})],
        format="hermes",
    ),
    # Issue 16: MiniMax-M1, Hunyuan and Apriel 1.5 write the same tags.
    Case(
        "minimax-m1: one call object per line, after its think block",
        '<think>Two lookups.</think>\n<tool_calls>\n{"name": "a", "arguments": {"q": "x"}}\n'
        '{"name": "b", "arguments": {}}\n</tool_calls>',
        [("a", {"q": "x"}), ("b", {})],
        format=J,
        reasoning="Two lookups.",
    ),
    Case(
        "minimax-m1: an unreadable line does not lose the calls after it",
        '<tool_calls>\n{"name": "a", "arguments": {"q": }\n{"name": "b", "arguments": {"n": 2}}\n'
        '{"name": "c", "arguments": {}}\n</tool_calls>',
        [("b", {"n": 2}), ("c", {})],
        rejected=["malformed"],
        format=J,
    ),
    Case(
        "hunyuan: the answer wrapper after the reasoning",
        '<think>Plan.</think>\n<answer>\n<tool_calls>[{"name": "a", "arguments": {"q": "Zürich"}}]</tool_calls>\n'
        "</answer>",
        [("a", {"q": "Zürich"})],
        format=J,
        reasoning="Plan.",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_jamba(case: Case) -> None:
    check(case)


def test_200k_unclosed_open_tags_is_linear() -> None:
    text = "<tool_calls>" * 200_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert (result.tool_calls, result.content) == ([], text)
    assert elapsed < NO_BLOWUP_SECONDS
