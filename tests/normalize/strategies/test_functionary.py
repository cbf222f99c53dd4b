"""Functionary v3.2 `>>>` segments, and v3.1 / Llama 3.1 `<function=…>{JSON}</function>` tags."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

F = "functionary"

CASES = [
    # v3.2
    Case(
        "v3.2: text for the user, then two calls",
        '>>>all\nLet me check both.>>>get_weather\n{"city": "Paris"}>>>get_time\n{"tz": "UTC"}',
        [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})],
        content="Let me check both.",
        format=F,
    ),
    Case(
        "v3.2: the first recipient line has no >>> (the prompt ended with it)",
        'get_weather\n{"city": "Paris"}\n>>>get_time\n{}',
        [("get_weather", {"city": "Paris"}), ("get_time", {})],
        format=F,
    ),
    Case(
        "v3.2: 'all' first, without >>>",
        'all\nOne moment.\n>>>get_time\n{"tz": "UTC"}',
        [("get_time", {"tz": "UTC"})],
        content="One moment.",
        format=F,
    ),
    Case(
        "v3.2: arguments as a JSON-encoded string; text after the call stays",
        '>>>get_weather\n"{\\"city\\": \\"Paris\\"}"\nAsked.',
        [("get_weather", {"city": "Paris"})],
        content="Asked.",
        format=F,
    ),
    Case(
        "v3.2: the python tool takes raw code",
        ">>>python\nprint(sum(range(10)))\n",
        [("python", {"code": "print(sum(range(10)))"})],
        format=F,
    ),
    Case(
        "v3.2: cut off mid-string is truncated",
        '>>>get_weather\n{"city": "Par',
        rejected=["truncated"],
        format=F,
    ),
    Case(
        "v3.2: unreadable arguments are malformed",
        ">>>get_weather\n{city = Paris}",
        rejected=["malformed"],
        format=F,
    ),
    plain("a Python REPL transcript is not v3.2", "In a REPL:\n>>> x = 1\n>>> print(x)\n1"),
    plain("a quote marker is not v3.2", ">>>note\nthis is quoted text"),
    # v3.1 / Llama 3.1
    Case(
        "v3.1: single call",
        '<function=get_weather>{"city": "Paris"}</function>',
        [("get_weather", {"city": "Paris"})],
        format=F,
    ),
    Case(
        "v3.1: several calls, prose before, between and after; name= spelling",
        'Sure.\n<function=get_weather>{"city": "Paris"}</function>\nand\n'
        '<function name="get_time">{}</function>\nDone.',
        [("get_weather", {"city": "Paris"}), ("get_time", {})],
        content="Sure.\nand\nDone.",
        format=F,
    ),
    Case(
        "v3.1: arguments as a JSON-encoded string",
        '<function=get_weather>"{\\"city\\": \\"Paris\\"}"</function>',
        [("get_weather", {"city": "Paris"})],
        format=F,
    ),
    Case(
        "v3.1: inside a <tool_call> wrapper, which leaves the content too",
        '<tool_call>\n<function=get_weather>{"city": "Paris"}</function>\n</tool_call>',
        [("get_weather", {"city": "Paris"})],
        format=F,
    ),
    Case(
        "v3.1: the last </function> is missing; prose after the JSON stays",
        '<function=get_weather>{"city": "Paris"}\nAsked.',
        [("get_weather", {"city": "Paris"})],
        content="Asked.",
        format=F,
    ),
    Case(
        "v3.1: arguments that are not an object are malformed",
        "<function=get_weather>[1, 2]</function>",
        rejected=["malformed"],
        format=F,
    ),
    Case(
        "v3.1: cut off mid-call is truncated",
        '<function=write>{"text": "once upon',
        rejected=["truncated"],
        format=F,
    ),
    plain("v3.1: the tag mentioned in prose", "Llama 3.1 writes <function=NAME> before its JSON."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_functionary(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [">>>f\n", "<function=f>", '<function name="f">'])
def test_200k_unclosed_open_tags_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert (result.tool_calls, result.content) == ([], text)
    assert elapsed < NO_BLOWUP_SECONDS


def test_200k_cut_off_calls_stop_at_the_tag_budget() -> None:
    started = time.perf_counter()
    result = parse_response(">>>f\n{" * 200_000)
    elapsed = time.perf_counter() - started
    assert result.format == F
    assert "not read" in result.rejected[-1].reason
    assert elapsed < NO_BLOWUP_SECONDS
