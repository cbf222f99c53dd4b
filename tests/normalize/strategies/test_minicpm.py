"""MiniCPM5's `<function name="…"><param name="…">` calls (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import MiniCpmXml
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

M = "minicpm"


def call(name: str, *params: tuple[str, str]) -> str:
    body = "".join(f'<param name="{k}">{v}</param>' for k, v in params)
    return f'<function name="{name}">{body}</function>'


CASES = [
    Case("one call", call("get_weather", ("city", "Paris")), [("get_weather", {"city": "Paris"})], format=M),
    Case(
        "calls between pieces of text; JSON values decoded",
        f"First Paris.\n{call('get_weather', ('city', 'Paris'), ('days', '3'))}\nThen the time.\n"
        + call("get_time", ("zones", '["UTC", "CET"]'), ("exact", "true")),
        [("get_weather", {"city": "Paris", "days": 3}), ("get_time", {"zones": ["UTC", "CET"], "exact": True})],
        content="First Paris.\nThen the time.",
        format=M,
    ),
    Case(
        "a CDATA value is kept as written",
        call("write", ("text", "<![CDATA[line 1\n<b>2</b>]]>")),
        [("write", {"text": "line 1\n<b>2</b>"})],
        format=M,
    ),
    Case("no params", '<function name="get_time"></function>', [("get_time", {})], format=M),
    Case(
        "the close tag missing at the end",
        '<function name="get_weather"><param name="city">Paris</param>',
        [("get_weather", {"city": "Paris"})],
        format=M,
    ),
    plain("the tag named in prose", 'MiniCPM5 writes <function name="…"> for each call.'),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_minicpm(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", ['<function name="f">', '<function name="f"><param name="a">'])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    MiniCpmXml().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
