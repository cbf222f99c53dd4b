"""gpt-oss harmony messages."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from llmrelay.normalize.strategies import Harmony
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

UNCAPPED = 1_000_000
"""A `max_calls` above the strategies' own reading bounds, so those are what is tested."""

H = "harmony"
START = "<|start|>assistant"
THOUGHT = "Need to use function get_weather."
ANALYSIS = f"<|channel|>analysis<|message|>{THOUGHT}<|end|>"
JSON = " <|constrain|>json<|message|>"
PARIS = '{"city":"Paris"}'
CALL = f"{START}<|channel|>commentary to=functions.get_weather{JSON}{PARIS}"
WEATHER = ("get_weather", {"city": "Paris"})


def final(text: str) -> str:
    return f"{START}<|channel|>final<|message|>{text}<|return|>"


CASES = [
    Case(
        "the format guide's example: reasoning, then a call",
        f"{ANALYSIS}{CALL}<|call|>",
        [WEATHER],
        format=H,
        reasoning=THOUGHT,
    ),
    Case(
        "no leading start token",
        f"<|channel|>commentary to=functions.get_weather{JSON}{PARIS}<|call|>",
        [WEATHER],
        format=H,
    ),
    Case(
        "recipient in the role section",
        f"{START} to=functions.get_weather<|channel|>commentary{JSON}{PARIS}<|call|>",
        [WEATHER],
        format=H,
    ),
    Case(
        "the rest of a role section whose start was in the prompt",
        f" to=functions.get_weather<|channel|>commentary json<|message|>{PARIS}<|call|>",
        [WEATHER],
        format=H,
    ),
    Case(
        "no constrain token",
        "<|channel|>commentary to=functions.get_time<|message|>{}<|call|>",
        [("get_time", {})],
        format=H,
    ),
    Case(
        "a preamble for the user, then two calls",
        f"{ANALYSIS}{START}<|channel|>commentary<|message|>I'll check both cities.<|end|>{CALL}<|call|>"
        f"{CALL.replace('Paris', 'Rome')}<|call|>",
        [WEATHER, ("get_weather", {"city": "Rome"})],
        content="I'll check both cities.",
        format=H,
        reasoning=THOUGHT,
    ),
    # Issue 16: with no call, the final text is the content and the analysis the reasoning.
    Case(
        "a final answer and no call", ANALYSIS + final("2 + 2 = 4."), content="2 + 2 = 4.", format=H, reasoning=THOUGHT
    ),
    Case(
        "plain text around analysis and final messages",
        f"Sure.\n{ANALYSIS}{final('It is 4.')}",
        content="Sure.\nIt is 4.",
        format=H,
        reasoning=THOUGHT,
    ),
    Case(
        "a stray commentary between two calls is not content",
        f"{CALL}<|call|>{START}<|channel|>commentary<|message|>Now Rome.<|end|>{CALL.replace('Paris', 'Rome')}<|call|>",
        [WEATHER, ("get_weather", {"city": "Rome"})],
        format=H,
        reasoning="Now Rome.",
    ),
    Case("an analysis cut off before its end", "<|channel|>analysis<|message|>Let me", format=H, reasoning="Let me"),
    plain("a quoted final message in prose", "The model writes `<|channel|>final<|message|>Hi<|return|>` at the end."),
    plain("a channel token named in prose", "After <|channel|> comes the channel name, then <|message|>."),
    Case(
        "built-in browser tool on the analysis channel",
        f'<|channel|>analysis to=browser.search{JSON}{{"query": "weather Paris"}}<|call|>',
        [("browser.search", {"query": "weather Paris"})],
        format=H,
    ),
    Case(
        "built-in python tool takes code",
        "<|channel|>analysis to=python code<|message|>print(2 + 2)<|call|>",
        [("python", {"code": "print(2 + 2)"})],
        format=H,
    ),
    Case(
        "a tool's reply echoed back is neither call nor content",
        f"{CALL}<|call|><|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{{}}<|end|>"
        + final("It is sunny."),
        [WEATHER],
        content="It is sunny.",
        format=H,
    ),
    Case("the call token is missing: the model stopped at it", CALL, [WEATHER], format=H),
    Case(
        "unreadable arguments are malformed",
        f"<|channel|>commentary to=functions.f{JSON}<<nope>><|call|>",
        rejected=["malformed"],
        format=H,
    ),
    Case(
        "a recipient that is no tool name is malformed",
        "<|channel|>commentary to=functions.<|message|>{}<|call|>",
        rejected=["malformed"],
        format=H,
    ),
    Case(
        "cut off mid-arguments is truncated",
        ANALYSIS + CALL.replace("Paris", "Pa")[:-2],
        rejected=["truncated"],
        format=H,
        reasoning=THOUGHT,
    ),
    Case(  # Issue 12 (fuzz): the second header found the rest already taken, and raised an IndexError.
        "a role rest taken, then a header with an empty role",
        " to=functions.f<|channel|>commentary<|start|><|channel|>final<|message|>Hi<|end|>",
        content="Hi",
        format=H,
    ),
    plain("tokens mentioned in prose", "Harmony messages end with <|end|> or <|call|>, never with <|return|> twice."),
    plain("a message token in prose without a channel", "Write <|message|> before the body."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_harmony(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    "unit", ["<|message|>", "<|channel|>", f"{CALL[: -len(PARIS)]}{{", "<|channel|>final<|message|>x<|end|>"]
)
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    Harmony().parse(text)
    # 0.25 s per MB (0.5 s at least): far above linear, far below what a quadratic scan takes.
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS


def test_calls_past_the_limit_are_reported_not_read() -> None:
    result = parse_response("<|channel|>commentary to=functions.f<|message|>{}<|call|>" * 1_001, max_calls=UNCAPPED)
    assert len(result.tool_calls) == 1_000
    assert [r.kind for r in result.rejected] == ["malformed"]
