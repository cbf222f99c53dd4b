"""PLaMo 3's `<|plamo:…|>` tool requests, reasoning and end of turn (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import PlamoToolRequests
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

P = "plamo"
WEATHER = ("get_weather", {"city": "Tokyo"})
BEGIN, END = "<|plamo:begin_tool_requests:plamo|>", "<|plamo:end_tool_requests:plamo|>"


def request(name: str, arguments: str, *, constrain: bool = True) -> str:
    opener = "<|plamo:begin_tool_arguments:plamo|>" + ("<|plamo:constrain|>json<|plamo:msg|>" if constrain else "")
    return (
        f"<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>{name}<|plamo:end_tool_name:plamo|>"
        f"{opener}{arguments}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>"
    )


ONE = request("get_weather", '{"city": "Tokyo"}')

CASES = [
    Case("one request", f"{BEGIN}{ONE}{END}", [WEATHER], format=P),
    Case(
        "two requests, prose before, the end of turn after",
        f"Checking both.{BEGIN}{ONE}{request('get_time', '{}')}{END}<|plamo:tag|>",
        [WEATHER, ("get_time", {})],
        content="Checking both.",
        format=P,
    ),
    Case(
        "reasoning first, then the request",
        f"<|plamo:begin_think:plamo|>Tokyo weather.<|plamo:end_think:plamo|>{BEGIN}{ONE}{END}",
        [WEATHER],
        format=P,
        reasoning="Tokyo weather.",
    ),
    Case(
        "the prompt opened the reasoning: only its end tag",
        f"Need one call.<|plamo:end_think:plamo|>{BEGIN}{ONE}{END}",
        [WEATHER],
        format=P,
        reasoning="Need one call.",
    ),
    Case(
        "nested JSON and unicode; no constraint tag; blank space between tags",
        f"{BEGIN}\n"
        + request("book", '{"guests": [{"name": "Zoë"}], "city": "東京"}', constrain=False).replace("><", ">\n<")
        + f"\n{END}",
        [("book", {"guests": [{"name": "Zoë"}], "city": "東京"})],
        format=P,
    ),
    Case(
        "one request that is no JSON does not hide the next",
        f"{BEGIN}{request('get_weather', 'Tokyo please')}{ONE}{END}",
        [WEATHER],
        rejected=["malformed"],
        format=P,
    ),
    Case(
        "cut off inside the arguments",
        f"{BEGIN}<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|>"
        '<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"city": "To',
        rejected=["truncated"],
        format=P,
    ),
    Case("the end of turn after prose", "Tokyo is sunny today.<|plamo:tag|>", content="Tokyo is sunny today."),
    plain("a tag named in prose", "PLaMo 3 opens each call with <|plamo:begin_tool_request:plamo|> and a name."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_plamo(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [ONE, ONE[:60], "<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>f"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    PlamoToolRequests().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
