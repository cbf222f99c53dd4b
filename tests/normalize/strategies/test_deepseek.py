"""DeepSeek V3 / R1 / V3.1 tool-call tokens."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import DeepSeekTokens
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

D = "deepseek"
CALLS_BEGIN, CALLS_END = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"
BEGIN, SEP, END = "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>"
EOS = "<｜end▁of▁sentence｜>"
PARIS = '{"city": "Paris"}'


def v3(name: str, arguments: str) -> str:
    return f"{BEGIN}function{SEP}{name}\n```json\n{arguments}\n```{END}"


CASES = [
    Case(
        "v3: one call after prose, end of sentence removed",
        f"Let me look.{CALLS_BEGIN}{v3('get_weather', PARIS)}{CALLS_END}{EOS}",
        [("get_weather", {"city": "Paris"})],
        content="Let me look.",
        format=D,
    ),
    Case(
        "v3: two calls on separate lines",
        f"{CALLS_BEGIN}{v3('get_weather', PARIS)}\n{v3('get_time', '{}')}{CALLS_END}",
        [("get_weather", {"city": "Paris"}), ("get_time", {})],
        format=D,
    ),
    Case(
        "v3.1: name, separator, bare JSON",
        f"{CALLS_BEGIN}{BEGIN}get_weather{SEP}{PARIS}{END}{CALLS_END}",
        [("get_weather", {"city": "Paris"})],
        format=D,
    ),
    Case(
        "v3.1: two calls and prose after",
        f'{CALLS_BEGIN}{BEGIN}a{SEP}{{}}{END}{BEGIN}b{SEP}{{"x": [1, 2]}}{END}{CALLS_END}\nDone.',
        [("a", {}), ("b", {"x": [1, 2]})],
        content="Done.",
        format=D,
    ),
    Case(
        "r1: the think block is reasoning, not content (issue 16)",
        f"<think>\nThe user wants the weather.\n</think>\n\n{CALLS_BEGIN}{v3('get_weather', PARIS)}{CALLS_END}",
        [("get_weather", {"city": "Paris"})],
        format=D,
        reasoning="The user wants the weather.",
    ),
    Case(
        "r1 distill: a variant opener and no call-begin token",
        f"<｜tool_calls_begin｜>function{SEP}get_weather\n```json\n{PARIS}\n```{END}{CALLS_END}",
        [("get_weather", {"city": "Paris"})],
        format=D,
    ),
    Case(
        "ascii bars leaked by a server",
        f"<|tool▁calls▁begin|><|tool▁call▁begin|>get_weather<|tool▁sep|>{PARIS}<|tool▁call▁end|><|tool▁calls▁end|>",
        [("get_weather", {"city": "Paris"})],
        format=D,
    ),
    Case(
        "a JSON call with arguments as a JSON string",
        f'{CALLS_BEGIN}{BEGIN}{{"name": "f", "arguments": "{{\\"a\\": 1}}"}}{END}{CALLS_END}',
        [("f", {"a": 1})],
        format=D,
    ),
    Case(
        "v3.1 without its end tokens",
        f"{CALLS_BEGIN}{BEGIN}get_weather{SEP}{PARIS}",
        [("get_weather", {"city": "Paris"})],
        format=D,
    ),
    Case(
        "v3 stopped after the JSON: no closing fence, no end tokens",
        f"{CALLS_BEGIN}{BEGIN}function{SEP}get_weather\n```json\n{PARIS}",
        [("get_weather", {"city": "Paris"})],
        format=D,
    ),
    Case(
        "unreadable arguments are malformed",
        f"{CALLS_BEGIN}{BEGIN}f{SEP}<<nope>>{END}{CALLS_END}",
        rejected=["malformed"],
        format=D,
    ),
    Case(
        "a name that is prose is malformed", f"{BEGIN}get the weather{SEP}{{}}{END}", rejected=["malformed"], format=D
    ),
    Case(
        "no separator between closed tokens is malformed", f"{BEGIN}get_weather{END}", rejected=["malformed"], format=D
    ),
    Case(
        "cut off mid-arguments is truncated",
        f'{CALLS_BEGIN}{v3("a", "{}")}{BEGIN}function{SEP}b\n```json\n{{"q": "ab',
        [("a", {})],
        rejected=["truncated"],
        format=D,
    ),
    Case(
        "kimi's ascii tokens are left to special_tokens",
        "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|>",
        [("f", {})],
        format="special_tokens",
    ),
    plain("section tokens mentioned in prose", f"DeepSeek wraps calls in {CALLS_BEGIN} and {CALLS_END}."),
    plain("an unclosed call token followed by prose", f"The {BEGIN} token opens one call."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_deepseek(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [BEGIN, f"{CALLS_BEGIN}function{SEP}", SEP, f"{BEGIN}f{SEP}{{"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    DeepSeekTokens().parse(text)
    # 0.25 s per MB (0.5 s at least): far above linear, far below what a quadratic scan takes.
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
