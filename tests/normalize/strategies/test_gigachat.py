"""GigaChat 3's `function call<|role_sep|>` messages (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import GigaChatFunctionCall
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


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gigachat(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [HEADER, HEADER + "{", "<|message_sep|>", "<|function_call|>["])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    GigaChatFunctionCall().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
