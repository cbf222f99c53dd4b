"""Kimi K3's XTML channels: `think`, `response` and `tools` elements of special tokens (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import KimiK3Xtml
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

K = "kimi_k3"
TOOLS, TOOLS_END = "<|open|>tools<|sep|>\n", "<|close|>tools<|sep|>"


def arg(key: str, value: str, kind: str = "string") -> str:
    """One argument element, as K3's template writes it."""
    return f'<|open|>argument key="{key}" type="{kind}"<|sep|>{value}<|close|>argument<|sep|>\n'


def call(name: str, *arguments: str, index: int = 1) -> str:
    """One call element holding `arguments`."""
    return f'<|open|>call tool="{name}" index="{index}"<|sep|>\n' + "".join(arguments) + "<|close|>call<|sep|>\n"


WEATHER = call("get_weather", arg("city", "Lyon"), arg("days", "2", "integer"))
IN_LYON = ("get_weather", {"city": "Lyon", "days": 2})
FORECAST = TOOLS + WEATHER + TOOLS_END

CASES = [
    Case(
        "reasoning, the reply and a call, each in its channel",
        "<|open|>think<|sep|>Two days of Lyon weather.<|close|>think<|sep|>"
        "<|open|>response<|sep|>Looking it up.<|close|>response<|sep|>" + FORECAST + "<|close|>message<|sep|>",
        [IN_LYON],
        content="Looking it up.",
        reasoning="Two days of Lyon weather.",
        format=K,
    ),
    Case(
        "the reply's open marker was in the prompt: only its close is written",
        "Looking it up.<|close|>response<|sep|>" + FORECAST,
        [IN_LYON],
        content="Looking it up.",
        format=K,
    ),
    Case(
        "two calls; object, array, boolean and null values decoded as their types say",
        TOOLS
        + WEATHER
        + call(
            "plan",
            arg("opts", '{"units": "metric"}', "object"),
            arg("stops", '["Lyon", "Nice"]', "array"),
            arg("urgent", "false", "boolean"),
            arg("note", "null", "null"),
            index=2,
        )
        + TOOLS_END,
        [IN_LYON, ("plan", {"opts": {"units": "metric"}, "stops": ["Lyon", "Nice"], "urgent": False, "note": None})],
        format=K,
    ),
    Case(
        "a string value stays raw: JSON-looking text, blank lines, another format's tags",
        TOOLS + call("write", arg("body", '{"a": 1}\n\n<tool_call>x</tool_call>')) + TOOLS_END,
        [("write", {"body": '{"a": 1}\n\n<tool_call>x</tool_call>'})],
        format=K,
    ),
    Case(
        "a typed value that is not JSON is kept as written",
        TOOLS + call("get_weather", arg("days", "a couple", "integer")) + TOOLS_END,
        [("get_weather", {"days": "a couple"})],
        format=K,
    ),
    Case(
        "escaped attributes are read back; unicode values",
        TOOLS + call("note", arg("a&amp;b", "Ça va, Zoë? 東京")) + TOOLS_END,
        [("note", {"a&b": "Ça va, Zoë? 東京"})],
        format=K,
    ),
    Case("a call with no arguments", TOOLS + call("get_time") + TOOLS_END, [("get_time", {})], format=K),
    Case(
        "a call without its tool attribute is rejected; the next call is still read",
        TOOLS + '<|open|>call index="1"<|sep|>' + arg("x", "1") + "<|close|>call<|sep|>" + WEATHER + TOOLS_END,
        [IN_LYON],
        rejected=["malformed"],
        format=K,
    ),
    Case(
        "an argument left open before the call closes is malformed",
        TOOLS
        + '<|open|>call tool="f"<|sep|><|open|>argument key="a" type="string"<|sep|>x<|close|>call<|sep|>'
        + WEATHER
        + TOOLS_END,
        [IN_LYON],
        rejected=["malformed"],
        format=K,
    ),
    Case(
        "cut off inside an argument: the call before it stands",
        "On it.<|close|>response<|sep|>" + TOOLS + WEATHER + '<|open|>call tool="f"<|sep|>'
        '<|open|>argument key="a" type="string"<|sep|>half a val',
        [IN_LYON],
        content="On it.",
        rejected=["truncated"],
        format=K,
    ),
    Case(
        "cut off before the call's close marker",
        TOOLS + '<|open|>call tool="get_weather"<|sep|>' + arg("city", "Lyon"),
        rejected=["truncated"],
        format=K,
    ),
    Case(
        "a reply with no calls: the end-of-message marker is removed",
        "Hello there!<|close|>message<|sep|>",
        content="Hello there!",
        format=K,
    ),
    Case(
        "the whole reply channel, unwrapped",
        "<|open|>response<|sep|>Paris is sunny.<|close|>response<|sep|><|close|>message<|sep|><|end_of_msg|>",
        content="Paris is sunny.",
        format=K,
    ),
    Case(
        "an empty tools channel is markup, not content",
        "<|open|>response<|sep|>Nothing to run.<|close|>response<|sep|>" + TOOLS + TOOLS_END,
        content="Nothing to run.",
        format=K,
    ),
    Case(
        "a think channel after the reply is reasoning too",
        "<|open|>response<|sep|>Done.<|close|>response<|sep|><|open|>think<|sep|>Check later.<|close|>think<|sep|>",
        content="Done.",
        reasoning="Check later.",
        format=K,
    ),
    Case(
        "a call written while thinking is not accepted",
        "<|open|>think<|sep|>Maybe " + TOOLS + WEATHER + TOOLS_END + "<|close|>think<|sep|>"
        "<|open|>response<|sep|>No call needed.<|close|>response<|sep|>",
        content="No call needed.",
        reasoning="Maybe " + TOOLS + WEATHER.rstrip() + "\n" + TOOLS_END,
        rejected=["in_reasoning"],
        format=K,
    ),
    Case(
        "with a schema, a string argument keeps its text whatever the written type",
        TOOLS + call("get_weather", arg("city", "75", "integer")) + TOOLS_END,
        [("get_weather", {"city": "75"})],
        tools=[{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}],
        format=K,
    ),
    # As for `</think>` alone (docs/normalizer.md): the text before a close marker whose opener was
    # in the prompt is the reasoning, as vLLM's and SGLang's K3 readers take it.
    Case(
        "the think opener was in the prompt: the text before its close is reasoning",
        "Weighing it.<|close|>think<|sep|><|open|>response<|sep|>Hi there.<|close|>response<|sep|>",
        content="Hi there.",
        format=K,
        reasoning="Weighing it.",
    ),
    plain("the tools marker quoted in prose", "K3 opens its calls with <|open|>tools<|sep|> and then a call."),
    plain("the reply marker named mid-sentence", "It wraps text in <|open|>response<|sep|> markers, like that."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_kimi_k3(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    "unit",
    [
        '<|open|>call tool="f"<|sep|>',
        '<|open|>argument key="a" type="string"<|sep|>',
        "<|open|>think<|sep|>",
        "<|open|>tools<|sep|>",
        "<|close|>call<|sep|>",
    ],
)
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    KimiK3Xtml().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
