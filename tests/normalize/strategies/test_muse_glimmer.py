"""MuseGlimmer's recipient-addressed messages and `<atem:invoke>` calls (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import MuseGlimmerMessages
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

M = "muse_glimmer"


def invoke(name: str, **values: str) -> str:
    parameters = "".join(f'<atem:parameter name="{k}">{v}</atem:parameter>\n' for k, v in values.items())
    return f'<atem:invoke name="{name}">\n{parameters}</atem:invoke>\n'


def to_tool(name: str, *invokes: str) -> str:
    return (
        f"<|start|>assistant to={name}<|message|><atem:function_calls>\n{''.join(invokes)}</atem:function_calls><|eom|>"
    )


THINK = " to=self<|message|>The user wants Paris.<|eom|>"
WEATHER = invoke("weather.get_weather", city="Paris", days="3")

CASES = [
    Case(
        "reasoning, then a call; JSON values decoded",
        THINK + to_tool("weather.get_weather", WEATHER),
        [("weather.get_weather", {"city": "Paris", "days": 3})],
        format=M,
        reasoning="The user wants Paris.",
    ),
    Case(
        "reasoning, then the answer to the user",
        " to=self<|message|>A greeting.<|eom|><|start|>assistant to=user<|message|>Hello there!<|eot|>",
        content="Hello there!",
        format=M,
        reasoning="A greeting.",
    ),
    Case(
        "two invokes in one message, a nested JSON value, unicode",
        THINK + to_tool("cal.book", invoke("cal.book", guests='[{"name": "Zoë"}]', room="東京"), WEATHER),
        [
            ("cal.book", {"guests": [{"name": "Zoë"}], "room": "東京"}),
            ("weather.get_weather", {"city": "Paris", "days": 3}),
        ],
        format=M,
        reasoning="The user wants Paris.",
    ),
    Case(
        "an invoke quoted in the reasoning or the answer is never a call",
        f" to=self<|message|>I could write {WEATHER.strip()} here.<|eom|>"
        f"<|start|>assistant to=user<|message|>Use {WEATHER.strip()} next time.<|eot|>",
        content=f"Use {WEATHER.strip()} next time.",
        format=M,
        reasoning=f"I could write {WEATHER.strip()} here.",
    ),
    Case(
        "a reasoning message never ended does not swallow the call after it",
        " to=self<|message|>Thinking" + to_tool("weather.get_weather", WEATHER),
        [("weather.get_weather", {"city": "Paris", "days": 3})],
        format=M,
        reasoning="Thinking",
    ),
    Case(
        "a call cut off inside a value",
        THINK + '<|start|>assistant to=f<|message|><atem:function_calls>\n<atem:invoke name="f">\n'
        '<atem:parameter name="q">unfinish',
        rejected=["truncated"],
        format=M,
        reasoning="The user wants Paris.",
    ),
    Case(
        "no framing at all: Claude-style invokes",
        f"<atem:function_calls>\n{WEATHER}</atem:function_calls>",
        [("weather.get_weather", {"city": "Paris", "days": 3})],
        format="anthropic_xml",
    ),
    plain("the tokens named in prose", "MuseGlimmer writes to=self<|message|> before its thoughts."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_muse_glimmer(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [" to=self<|message|>x", "<|message|>", " " * 50 + "to=a<|message|>"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    MuseGlimmerMessages().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
