"""Solar Open 2's `<|tool_call:start|>` calls with `<|tool_arg:…|>` pairs, and its reasoning (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import SolarOpenToolCall
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

S = "solar_open"
TOOLS = [
    {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}},
    }
]


def call(name: str, *pairs: tuple[str, str], end: bool = True) -> str:
    arguments = "".join(f"<|tool_arg:start|>{k}<|tool_arg:value|>{v}<|tool_arg:end|>" for k, v in pairs)
    return f"<|tool_call:start|>{name}\n{arguments}" + ("<|tool_call:end|>" if end else "")


SEOUL = call("get_weather", ("city", "Seoul"), ("days", "3"))

CASES = [
    Case("values stay text without a schema", SEOUL, [("get_weather", {"city": "Seoul", "days": "3"})], format=S),
    Case(
        "with a schema, the schema decides",
        SEOUL,
        [("get_weather", {"city": "Seoul", "days": 3})],
        format=S,
        tools=TOOLS,
    ),
    Case(
        "reasoning the prompt opened, prose, two calls",
        "Two lookups.<|think:end|>Let me check.\n" + SEOUL + "\n" + call("get_time", ("tz", "Asia/Seoul")),
        [("get_weather", {"city": "Seoul", "days": "3"}), ("get_time", {"tz": "Asia/Seoul"})],
        content="Let me check.",
        format=S,
        reasoning="Two lookups.",
    ),
    Case(
        "a whole think block first",
        "<|think:start|>Seoul, three days.<|think:end|>" + SEOUL,
        [("get_weather", {"city": "Seoul", "days": "3"})],
        format=S,
        reasoning="Seoul, three days.",
    ),
    Case("no arguments", call("list_cities"), [("list_cities", {})], format=S),
    Case(
        "a dropped end token: the next call starts",
        call("get_time", ("tz", "UTC"), end=False) + SEOUL,
        [("get_time", {"tz": "UTC"}), ("get_weather", {"city": "Seoul", "days": "3"})],
        format=S,
    ),
    Case(
        "a dropped argument end; the first of a repeated name wins; a multi-line value",
        "<|tool_call:start|>note\n<|tool_arg:start|>text<|tool_arg:value|>line one\nline two"
        "<|tool_arg:start|>text<|tool_arg:value|>again<|tool_arg:end|><|tool_call:end|>",
        [("note", {"text": "line one\nline two"})],
        format=S,
    ),
    Case(
        "JSON in a value is text too; unicode",
        call("book", ("guests", '[{"name": "지민"}]')),
        [("book", {"guests": '[{"name": "지민"}]'})],
        format=S,
    ),
    Case(
        "cut off at the end: never read",
        "On it.\n" + call("get_weather", ("city", "Seo"), end=False),
        content="On it.",
        rejected=["truncated"],
        format=S,
    ),
    plain("the token named in prose", "Solar Open 2 starts a call with <|tool_call:start|> and a name."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_solar_open(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    "unit", [SEOUL, "<|tool_call:start|>f\n<|tool_arg:start|>a", "<|tool_arg:start|>a<|tool_arg:value|>"]
)
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = "<|tool_call:start|>f\n" + unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    SolarOpenToolCall().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
