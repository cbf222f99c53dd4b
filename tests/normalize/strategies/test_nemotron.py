"""NVIDIA Nemotron's `<TOOLCALL>` blocks (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import NemotronToolCall
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

N = "nemotron"
WEATHER = ("get_weather", {"city": "Paris"})
ONE = '{"name": "get_weather", "arguments": {"city": "Paris"}}'

CASES = [
    Case("a list with one call", f"<TOOLCALL>[{ONE}]</TOOLCALL>", [WEATHER], format=N),
    Case(
        "two calls, prose before",
        f'Checking.\n<TOOLCALL>[{ONE}, {{"name": "get_time", "arguments": {{}}}}]</TOOLCALL>',
        [WEATHER, ("get_time", {})],
        content="Checking.",
        format=N,
    ),
    Case("the close tag is missing", f"<TOOLCALL>[{ONE}]", [WEATHER], format=N),
    Case("cut off inside the JSON", f"<TOOLCALL>[{ONE[:25]}", rejected=["truncated"], format=N),
    Case(
        "one item that is no call does not hide the other",
        f'<TOOLCALL>[{{"city": "Paris"}}, {ONE}]</TOOLCALL>',
        [WEATHER],
        rejected=["malformed"],
        format=N,
    ),
    Case(
        "objects separated by commas without brackets (vLLM's nemotron_json and nemotron_nano_v2)",
        f'<TOOLCALL>{ONE}, {{"name": "get_time", "arguments": {{}}}}</TOOLCALL>',
        [WEATHER, ("get_time", {})],
        format=N,
    ),
    plain("the tag named in prose", "Nemotron wraps its calls in <TOOLCALL> tags."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_nemotron(case: Case) -> None:
    check(case)


def test_hostile_repetition_is_linear() -> None:
    text = "<TOOLCALL>[{" * 100_000
    started = time.perf_counter()
    NemotronToolCall().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
