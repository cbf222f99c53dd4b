"""Mistral's `[TOOL_CALLS]` token."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import MistralToolCalls
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

M = "mistral"
T = "[TOOL_CALLS]"
PARIS = '{"city": "Paris"}'
WEATHER = ("get_weather", {"city": "Paris"})
ARRAY = f'[{{"name": "get_weather", "arguments": {PARIS}}}, {{"name": "get_time", "arguments": {{}}}}]'

CASES = [
    Case(
        "v3: an array with the call's id",
        f'{T}[{{"name": "get_weather", "arguments": {PARIS}, "id": "abc123xyz"}}]',
        [WEATHER],
        format=M,
        ids=["abc123xyz"],
    ),
    Case(
        "v3: two calls after prose, end of sentence removed",
        f"Let me check.{T} {ARRAY}</s>",
        [WEATHER, ("get_time", {})],
        content="Let me check.",
        format=M,
    ),
    Case(
        "v11: a token before each call",
        f"{T}get_weather[ARGS]{PARIS}{T}get_time[ARGS]{{}}",
        [WEATHER, ("get_time", {})],
        format=M,
    ),
    Case(
        "v11 with call ids",
        f"{T}get_weather[CALL_ID]a1b2c3d4e[ARGS]{PARIS}{T}get_time[CALL_ID]f5g6h7i8j[ARGS]{{}}",
        [WEATHER, ("get_time", {})],
        format=M,
        ids=["a1b2c3d4e", "f5g6h7i8j"],
    ),
    Case("a name glued to its arguments", f'{T}add{{"a": 3.5, "b": 4}}', [("add", {"a": 3.5, "b": 4})], format=M),
    Case(
        "prose after a v11 call",
        f"{T}get_weather[ARGS]{PARIS}\nI will report back.",
        [WEATHER],
        content="I will report back.",
        format=M,
    ),
    Case(
        "arguments as a JSON-encoded string",
        f'{T}[{{"name": "f", "arguments": "{{\\"a\\": 1}}"}}]',
        [("f", {"a": 1})],
        format=M,
    ),
    Case(
        "the array's closing bracket is missing at the end",
        f'{T}[{{"name": "get_weather", "arguments": {PARIS}}}',
        [WEATHER],
        format=M,
    ),
    Case(
        "unreadable arguments are malformed",
        f"Sure.{T}get_weather[ARGS]<<nope>>",
        content="Sure.",
        rejected=["malformed"],
        format=M,
    ),
    Case("unreadable array is malformed", f'{T}[{{"name" => "f"}}]', rejected=["malformed"], format=M),
    Case("a name that is prose is malformed", f"{T}get the weather[ARGS]{{}}", rejected=["malformed"], format=M),
    Case("cut off mid-arguments is truncated", f'{T}get_weather[ARGS]{{"city": "Pa', rejected=["truncated"], format=M),
    Case(
        "cut off before [ARGS] is truncated",
        f"{T}get_weather[ARGS]{PARIS}{T}get_time",
        [WEATHER],
        rejected=["truncated"],
        format=M,
    ),
    Case(
        "cut off between the call id and [ARGS] is truncated",
        f"{T}get_weather[CALL_ID]a1b2c3d4e",
        rejected=["truncated"],
        format=M,
    ),
    plain("the token mentioned in prose", f"Mistral writes {T} before its calls."),
    plain("the token then a sentence", f"{T} are how Mistral starts calls."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_mistral(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [T, f"{T}f[ARGS]{{", f"{T}[", f"{T}f"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    MistralToolCalls().parse(text)
    # 0.25 s per MB (0.5 s at least): far above linear, far below what a quadratic scan takes.
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
