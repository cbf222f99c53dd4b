"""JSON in markdown code fences."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

F = "fenced_json"
CALL = '{"name": "f", "arguments": {"a": 1}}'

CASES = [
    Case("whole answer is one fence", f"```json\n{CALL}\n```", [("f", {"a": 1})], format=F),
    Case("fence without a language", f"```\n{CALL}\n```", [("f", {"a": 1})], format=F),
    Case("one-line fence", f"```{CALL}```", [("f", {"a": 1})], format=F),
    Case(
        "prose before and after",
        f"Calling it.\n```json\n{CALL}\n```\nBack soon.",
        [("f", {"a": 1})],
        content="Calling it.\nBack soon.",
        format=F,
    ),
    Case(
        "two fences in order",
        f'```json\n{CALL}\n```\nand\n```json\n{{"name": "g", "arguments": {{}}}}\n```',
        [("f", {"a": 1}), ("g", {})],
        content="and",
        format=F,
    ),
    Case(
        "an array of calls",
        '```json\n[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]\n```',
        [("a", {}), ("b", {})],
        format=F,
    ),
    Case(
        "malformed JSON in a fence is repaired",
        "```json\n{'name': 'f', 'arguments': {'a': 1,},}\n```",
        [("f", {"a": 1})],
        format=F,
    ),
    Case(
        "a data fence stays in the content next to a call fence",
        f'Data:\n```json\n{{"rows": 3}}\n```\n```json\n{CALL}\n```',
        [("f", {"a": 1})],
        content='Data:\n```json\n{"rows": 3}\n```',
        format=F,
    ),
    Case(
        "unclosed fence at the end with a complete call",
        f"Calling.\n```json\n{CALL}",
        [("f", {"a": 1})],
        content="Calling.",
        format=F,
    ),
    Case(
        "strict: a bare call in a fence amid prose is an example",
        f"For example:\n```json\n{CALL}\n```\nwould call f.",
        content=f"For example:\n```json\n{CALL}\n```\nwould call f.",
        rejected=["embedded"],
        format=F,
        strict=True,
        needs_more_work=None,
    ),
    Case(
        "strict: an envelope in a fence is explicit",
        'Here:\n```json\n{"toolCalls": [{"name": "f", "arguments": {}}]}\n```',
        [("f", {})],
        content="Here:",
        format=F,
        strict=True,
    ),
    plain("a python fence is code", 'Use:\n```python\nclient.call({"name": "f", "arguments": {}})\n```'),
    plain("a fenced data answer", '```json\n{"temperature": 21}\n```'),
    plain("a fence with no JSON", "```\nls -la\n```"),
    # Round three: RWKV's `**Tool Call:**` line before each fence (vLLM's rwkv_tool_parser.py).
    Case(
        "rwkv: the marker, then the fence; prose before",
        f"I will check.\n\n**Tool Call:**\n```json\n{CALL}\n```",
        [("f", {"a": 1})],
        content="I will check.",
        format=F,
    ),
    Case(
        "rwkv: two marked calls, an end token after",
        f'**Tool Call:**\n```json\n{CALL}\n```\n\n**Tool Call:**\n```json\n{{"name": "g", "arguments": {{"q": "é"}}}}\n```'
        "<|endoftext|>",
        [("f", {"a": 1}), ("g", {"q": "é"})],
        format=F,
    ),
    Case(
        "rwkv: a marked fence counts in strict mode, amid prose",
        f"Sure.\n**Tool Call:**\n```json\n{CALL}\n```\nDone.",
        [("f", {"a": 1})],
        content="Sure.\nDone.",
        format=F,
        strict=True,
    ),
    Case(
        "rwkv: a marked fence cut off",
        '**Tool Call:**\n```json\n{"name": "f", "arguments": {"a": ',
        rejected=["truncated"],
        format=F,
    ),
    plain("rwkv: the marker in prose, no fence", "RWKV writes **Tool Call:** before each call."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fenced_json(case: Case) -> None:
    check(case)


def test_a_megabyte_of_fences_is_linear() -> None:
    started = time.perf_counter()
    assert parse_response("```" * 350_000).tool_calls == []
    assert parse_response("```json\n{\n" * 100_000).tool_calls == []
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
