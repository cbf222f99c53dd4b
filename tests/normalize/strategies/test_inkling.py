"""Inkling's typed blocks: thinking, text and JSON tool calls (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import InklingBlocks
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

INKLING = "inkling"
END = "<|end_message|>"
CALL = '<|message_model|><|content_invoke_tool_json|>{"name": "get_weather", "args": {"city": "Porto"}}' + END
PORTO = ("get_weather", {"city": "Porto"})

CASES = [
    Case(
        "thinking, text, then a tool block",
        f"<|content_thinking|>Porto, today.{END}<|message_model|><|content_text|>Looking it up.{END}{CALL}",
        [PORTO],
        content="Looking it up.",
        reasoning="Porto, today.",
        format=INKLING,
    ),
    Case(
        "two tool blocks, the second ended by the end-of-sampling token; text after them",
        CALL
        + '<|message_model|><|content_invoke_tool_json|>{"name": "get_time", "args": {}}<|content_model_end_sampling|>'
        + f"<|message_model|><|content_text|>Both requested.{END}",
        [PORTO, ("get_time", {})],
        content="Both requested.",
        format=INKLING,
    ),
    Case(
        "the words after <|message_model|> name the message: not content",
        '<|message_model|>assistant<|content_invoke_tool_json|>{"name": "note", "args": {"text": "Olá, São João"}}'
        + END,
        [("note", {"text": "Olá, São João"})],
        format=INKLING,
    ),
    Case(
        "raw tool text and tool errors are shown as text",
        f"<|content_tool_error|>The tool timed out.{END}<|content_text|>Retrying later.{END}",
        content="The tool timed out.\nRetrying later.",
        format=INKLING,
    ),
    Case(
        "an unreadable tool block does not hide the next",
        '<|content_invoke_tool_json|>{"name": oops}' + END + CALL,
        [PORTO],
        rejected=["malformed"],
        format=INKLING,
    ),
    Case(
        "cut off inside a tool block",
        '<|content_invoke_tool_json|>{"name": "get_weather", "args": {"city": "Por',
        rejected=["truncated"],
        format=INKLING,
    ),
    Case(
        "a call inside a thinking block is not accepted",
        f"<|content_thinking|>Maybe {CALL[len('<|message_model|>') :]}<|content_text|>No call needed.{END}",
        content="No call needed.",
        reasoning='Maybe <|content_invoke_tool_json|>{"name": "get_weather", "args": {"city": "Porto"}}',
        rejected=["in_reasoning"],
        format=INKLING,
    ),
    plain("a kind token named in prose", "Inkling opens text with <|content_text|> and more words."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_inkling(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", ["<|content_invoke_tool_json|>{", "<|content_thinking|>", "<|message_model|>"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    InklingBlocks().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
