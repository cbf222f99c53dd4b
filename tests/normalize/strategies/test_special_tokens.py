"""Kimi K2 tool-call tokens and the seeds' generic `<|tool_call_begin|>` markers."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from llmrelay.normalize.strategies import SpecialTokenSections
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

UNCAPPED = 1_000_000
"""A `max_calls` above the strategies' own reading bounds, so those are what is tested."""

S = "special_tokens"
SB, SE = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
B, A, E = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"

CASES = [
    Case(
        "kimi call after prose",
        f'Let me check.{SB}{B}functions.get_weather:0{A}{{"city": "Paris"}}{E}{SE}',
        [("get_weather", {"city": "Paris"})],
        content="Let me check.",
        format=S,
        ids=["functions.get_weather:0"],
    ),
    Case(
        "kimi: two calls with the spacing the template writes, prose after",
        f'{SB}\n{B}functions.get_weather:0 {A} {{"city": "Paris"}} {E}\n'
        f"{B}functions.get_time:1 {A} {{}} {E}\n{SE}\nWaiting for results.",
        [("get_weather", {"city": "Paris"}), ("get_time", {})],
        content="Waiting for results.",
        format=S,
        ids=["functions.get_weather:0", "functions.get_time:1"],
    ),
    Case(
        "kimi header without the functions namespace",
        f'{B}search:3{A}{{"q": "x"}}{E}',
        [("search", {"q": "x"})],
        format=S,
        ids=["search:3"],
    ),
    Case(
        "seed 000: a JSON call inside the tokens",
        f'{SB}{B}{{"name": "test", "arguments": {{}}}}{E}{SE}',
        [("test", {})],
        format=S,
        ids=[None],
    ),
    Case("seed 004: a bare name means no arguments", f"{SB}\n{B}read_file{E}\n{SE}", [("read_file", {})], format=S),
    Case(
        "bare name without a section",
        f"Reading it now.\n{B}read_file{E}",
        [("read_file", {})],
        content="Reading it now.",
        format=S,
    ),
    Case(
        "arguments as a JSON-encoded string",
        f'{B}{{"name": "f", "arguments": "{{\\"a\\": 1}}"}}{E}',
        [("f", {"a": 1})],
        format=S,
    ),
    Case(
        "missing end tokens: the model stopped at its stop token",
        f'{SB}{B}functions.get_weather:0{A}{{"city": "Paris"}}',
        [("get_weather", {"city": "Paris"})],
        format=S,
    ),
    Case(
        "unreadable arguments are malformed",
        f"OK.{B}functions.f:0{A}<<nope>>{E}",
        content="OK.",
        rejected=["malformed"],
        format=S,
    ),
    Case(
        "prose inside a calls section is malformed",
        f"{SB}{B}call the weather tool{E}{SE}",
        rejected=["malformed"],
        format=S,
    ),
    Case("a header that is no name is malformed", f"{B}not a name{A}{{}}{E}", rejected=["malformed"], format=S),
    Case(
        "cut off mid-arguments is truncated", f'{SB}{B}functions.f:0{A}{{"city": "Par', rejected=["truncated"], format=S
    ),
    Case(
        "a good call and a truncated one",
        f'{B}functions.a:0{A}{{}}{E}{B}functions.b:1{A}{{"x": "y',
        [("a", {})],
        rejected=["truncated"],
        format=S,
    ),
    plain("the tokens mentioned in prose", f"Kimi wraps each call in {B} and {E} tokens."),
    plain("an unclosed token followed by prose", f"The {B} token starts a call."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_special_tokens(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [B, f"{SB}{B}{{", f"{B}x{A}", f"{B}{E}", f"{B}a b{E}"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    SpecialTokenSections().parse(text)
    # 0.25 s per MB (0.5 s at least): far above linear, far below what a quadratic scan takes.
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS


def test_calls_past_the_limit_are_reported_not_read() -> None:
    result = parse_response(f"{B}f{A}{{}}{E}" * 1_001, max_calls=UNCAPPED)
    assert len(result.tool_calls) == 1_000
    assert [r.kind for r in result.rejected] == ["malformed"]
    assert "more than 1000 tool calls" in result.rejected[0].reason
