"""Gemma 4's `<|tool_call>call:…{…}<tool_call|>` and FunctionGemma's `<start_function_call>` (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import GemmaFunctionCall
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

G = "gemma"
Q = '<|"|>'


def gemma4(name: str, body: str) -> str:
    return f"<|tool_call>call:{name}{{{body}}}<tool_call|>"


CASES = [
    Case(
        "gemma 4: one call", gemma4("get_weather", f"city:{Q}Paris{Q}"), [("get_weather", {"city": "Paris"})], format=G
    ),
    Case(
        "gemma 4: bare numbers, booleans, lists, nested objects; a string holding , and :",
        gemma4("book", f"nights:2,vip:true,tags:[{Q}a{Q},{Q}b{Q}],guest:{{name:{Q}Zoë, Jr.: II{Q}}},note:null"),
        [("book", {"nights": 2, "vip": True, "tags": ["a", "b"], "guest": {"name": "Zoë, Jr.: II"}, "note": None})],
        format=G,
    ),
    Case(
        "gemma 4: reasoning channel, two calls back to back, prose before",
        "<|channel>thought\nTwo lookups.<channel|>Checking.\n"
        + gemma4("get_weather", f"city:{Q}Paris{Q}")
        + gemma4("get_time", ""),
        [("get_weather", {"city": "Paris"}), ("get_time", {})],
        content="Checking.",
        format=G,
        reasoning="Two lookups.",
    ),
    Case(
        "gemma 4: a string value stays a string even when it looks like a number",
        gemma4("f", f"code:{Q}007{Q}"),
        [("f", {"code": "007"})],
        format=G,
    ),
    Case("gemma 4: cut off inside a string", f"<|tool_call>call:f{{a:{Q}unfinis", rejected=["truncated"], format=G),
    Case(
        "gemma 4: a broken call does not hide the next",
        gemma4("f", f"a:{Q}x") + gemma4("g", "n:1"),
        [("g", {"n": 1})],
        rejected=["malformed"],
        format=G,
    ),
    Case(
        "functiongemma: values between escape tokens, JSON when JSON",
        "<start_function_call>call:set_timer{minutes:<escape>5<escape>,label:<escape>tea<escape>}<end_function_call>",
        [("set_timer", {"minutes": 5, "label": "tea"})],
        format=G,
    ),
    # vLLM test_gemma4_tool_parser.py: a number written with a point and no decimals.
    Case(
        "gemma 4: numbers ending in a point (not inside strings)",
        '<|tool_call>call:area{left:108.,right:-22.,note:<|"|>1.<|"|>}<tool_call|>',
        [("area", {"left": 108.0, "right": -22.0, "note": "1."})],
        format=G,
    ),
    plain("the token named in prose", "Gemma 4 opens a call with <|tool_call> and closes it later."),
    plain("functiongemma: the token named in prose", "Then <start_function_call> starts the call."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gemma(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", ["<|tool_call>call:f{", f"<|tool_call>call:f{{a:{Q}", "<start_function_call>call:"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    GemmaFunctionCall().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
