"""Qwen2.5-Coder's `<tools>` blocks (issue 16, engines audit: vLLM's qwen2_5_coder parser)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import Qwen25CoderTools
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

Q = "qwen25_coder"
LOOKUP = ("lookup_stock", {"symbol": "ACME"})
LOOKUP_JSON = '{"name": "lookup_stock", "arguments": {"symbol": "ACME"}}'
CLOCK_JSON = '{"name": "read_clock", "arguments": {}}'
DEFINITION = (
    '{"type": "function", "function": {"name": "lookup_stock", "description": "Price of a share", '
    '"parameters": {"type": "object", "properties": {"symbol": {"type": "string"}}}}}'
)

CASES = [
    Case("one object on its own lines", f"<tools>\n{LOOKUP_JSON}\n</tools>", [LOOKUP], format=Q),
    Case(
        "an array of two, prose before and after",
        f"Let me look.\n<tools>[{LOOKUP_JSON}, {CLOCK_JSON}]</tools>\nBack soon.",
        [LOOKUP, ("read_clock", {})],
        content="Let me look.\nBack soon.",
        format=Q,
    ),
    Case(
        "one object per line",
        f"<tools>\n{LOOKUP_JSON}\n{CLOCK_JSON}\n</tools>",
        [LOOKUP, ("read_clock", {})],
        format=Q,
    ),
    Case(
        "objects separated by commas, no brackets",
        f"<tools>{LOOKUP_JSON},\n{CLOCK_JSON}</tools>",
        [LOOKUP, ("read_clock", {})],
        format=Q,
    ),
    Case(
        "parameters instead of arguments, nested and unicode values",
        '<tools>{"name": "note", "parameters": {"text": "café ☕", "tags": {"a": [1, 2]}}}</tools>',
        [("note", {"text": "café ☕", "tags": {"a": [1, 2]}})],
        format=Q,
    ),
    Case("the close tag never came", f"<tools>\n{LOOKUP_JSON}", [LOOKUP], format=Q),
    Case("cut off inside the JSON", f"<tools>[{LOOKUP_JSON[:30]}", rejected=["truncated"], format=Q),
    Case(
        "one unreadable line does not hide the calls around it",
        f'<tools>\n{LOOKUP_JSON}\n{{"name": "oops" "arguments": {{}}}}\n{CLOCK_JSON}\n</tools>',
        [LOOKUP, ("read_clock", {})],
        rejected=["malformed"],
        format=Q,
    ),
    Case(
        "reasoning before the block",
        f"<think>A share price: one call.</think>\n<tools>{LOOKUP_JSON}</tools>",
        [LOOKUP],
        format=Q,
        reasoning="A share price: one call.",
    ),
    plain("the tag named in prose", "Qwen2.5-Coder wraps its calls in <tools> tags."),
    plain("an echoed list of tool definitions is no call", f"<tools>\n{DEFINITION}\n</tools>"),
    plain("an empty block", "Here are the tools: <tools></tools>"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_qwen25_coder(case: Case) -> None:
    check(case)


def test_hostile_repetition_is_linear() -> None:
    text = "<tools>[{" * 100_000
    started = time.perf_counter()
    Qwen25CoderTools().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
