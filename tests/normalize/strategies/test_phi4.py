"""Phi-4-mini's `functools[…]`."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import Phi4Functools
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

P = "phi4"
WEATHER = '{"name": "get_weather", "arguments": {"city": "Paris"}}'

CASES = [
    Case("one call", f"functools[{WEATHER}]", [("get_weather", {"city": "Paris"})], format=P),
    Case(
        "two calls",
        f'functools[{WEATHER}, {{"name": "get_time", "parameters": {{"tz": "CET"}}}}]',
        [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "CET"})],
        format=P,
    ),
    Case(
        "prose before and after",
        f"I'll look it up.\nfunctools[{WEATHER}]\nBack soon.",
        [("get_weather", {"city": "Paris"})],
        content="I'll look it up.\nBack soon.",
        format=P,
    ),
    Case(
        "a bracket inside the arguments does not end the list",
        'functools[{"name": "grep", "arguments": {"pattern": "a]b", "files": ["x", "y"]}}]',
        [("grep", {"pattern": "a]b", "files": ["x", "y"]})],
        format=P,
    ),
    Case(
        "arguments as a JSON-encoded string",
        'functools[{"name": "f", "arguments": "{\\"a\\": 1}"}]',
        [("f", {"a": 1})],
        format=P,
    ),
    Case(
        "the closing bracket is missing at the end",
        f"functools[{WEATHER}",
        [("get_weather", {"city": "Paris"})],
        format=P,
    ),
    Case("unreadable JSON is malformed", 'functools[{"name" => "f"}]', rejected=["malformed"], format=P),
    Case("an item with no tool name is malformed", 'functools[{"city": "Paris"}]', rejected=["malformed"], format=P),
    Case(
        "cut off mid-call is truncated",
        'functools[{"name": "f", "arguments": {"q": "ab',
        rejected=["truncated"],
        format=P,
    ),
    plain("the module mentioned in prose", "Use functools.partial or functools[0] in Python; functools[] is empty."),
    plain("a longer word", 'myfunctools[{"x": 1}] is a variable.'),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_phi4(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", ["functools[", "functools[{", "functools"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    Phi4Functools().parse(text)
    # 0.25 s per MB (0.5 s at least): far above linear, far below what a quadratic scan takes.
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
