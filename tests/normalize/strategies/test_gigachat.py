"""GigaChat 3's `function call<|role_sep|>` messages, and GigaChat 3.5's GCML invokes (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import GigaChat35Gcml, GigaChatFunctionCall
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

G = "gigachat"
CALL = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
WEATHER = ("get_weather", {"city": "Paris"})
HEADER = "function call<|role_sep|>\n"

CASES = [
    Case("a call message alone", HEADER + CALL, [WEATHER], format=G),
    Case(
        "text, the separator, then the call; no markup left in the content",
        f"Let me look that up.<|message_sep|>\n\n{HEADER}{CALL}</s>",
        [WEATHER],
        content="Let me look that up.",
        format=G,
    ),
    Case("the inline header", f"<|function_call|>{CALL}", [WEATHER], format=G),
    Case(
        "nested and unicode arguments",
        HEADER + '{"name": "book", "arguments": {"guest": {"name": "Алёна"}, "nights": 2}}',
        [("book", {"guest": {"name": "Алёна"}, "nights": 2})],
        format=G,
    ),
    Case("empty arguments", HEADER + '{"name": "get_time", "arguments": {}}', [("get_time", {})], format=G),
    Case("cut off mid-arguments", HEADER + CALL[:30], rejected=["truncated"], format=G),
    plain("the header named in prose", "GigaChat writes a function call<|role_sep|> header before JSON."),
    plain("a plain answer", "The function call failed yesterday, try again."),
]


G35 = "gigachat35"


def gcml(name: str, *parameters: tuple[str, str, str | None]) -> str:
    """One GCML invoke; each parameter is (name, value, string flag or None to leave it out)."""
    written = "".join(
        f'<｜GCML｜parameter name="{key}"{"" if flag is None else f" string={chr(34)}{flag}{chr(34)}"}>{value}'
        "</｜GCML｜parameter>\n"
        for key, value, flag in parameters
    )
    return f'<｜GCML｜invoke name="{name}">\n{written}</｜GCML｜invoke>\n'


# Issue 16: GigaChat 3.5 (vLLM's gigachat35_tool_parser.py) writes DSML's markup under ｜GCML｜.
GIGACHAT35_CASES = [
    Case(
        "gigachat 3.5: prose, two invokes in the wrapper, the end token removed",
        "Checking both.\n<｜GCML｜tool_calls>\n"
        + gcml("get_weather", ("city", "Kazan", "true"), ("days", "2", "false"))
        + gcml("get_time", ("tz", "Europe/Moscow", None))
        + "</｜GCML｜tool_calls></s>",
        [("get_weather", {"city": "Kazan", "days": 2}), ("get_time", {"tz": "Europe/Moscow"})],
        content="Checking both.",
        format=G35,
    ),
    Case(
        "gigachat 3.5: a value without the flag is text, even when it looks like JSON",
        "<｜GCML｜tool_calls>\n"
        + gcml("lookup", ("code", "007", None), ("ids", "[1, 2]", None))
        + "</｜GCML｜tool_calls>",
        [("lookup", {"code": "007", "ids": "[1, 2]"})],
        format=G35,
    ),
    Case(
        "gigachat 3.5: string=false decodes nested JSON; unicode text",
        "<｜GCML｜tool_calls>\n"
        + gcml("book", ("guest", '{"name": "Алёна", "nights": 2}', "false"), ("note", "тихий номер", "true"))
        + "</｜GCML｜tool_calls>",
        [("book", {"guest": {"name": "Алёна", "nights": 2}, "note": "тихий номер"})],
        format=G35,
    ),
    Case(
        "gigachat 3.5: cut off inside a parameter",
        '<｜GCML｜tool_calls>\n<｜GCML｜invoke name="get_weather">\n<｜GCML｜parameter name="city" string="true">Kaz',
        rejected=["truncated"],
        format=G35,
    ),
    plain("gigachat 3.5: the markup named in prose", "GigaChat 3.5 writes ｜GCML｜invoke tags for its tool calls."),
]
CASES += GIGACHAT35_CASES


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gigachat(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("unit", "strategy"),
    [
        (HEADER, GigaChatFunctionCall()),
        (HEADER + "{", GigaChatFunctionCall()),
        ("<|message_sep|>", GigaChatFunctionCall()),
        ("<|function_call|>[", GigaChatFunctionCall()),
        ('<｜GCML｜invoke name="f"><｜GCML｜parameter name="a">', GigaChat35Gcml()),
    ],
)
def test_hostile_repetition_is_linear(unit: str, strategy: GigaChatFunctionCall | GigaChat35Gcml) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    strategy.parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
