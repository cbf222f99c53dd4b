"""End-of-turn tokens at the very end of an answer: removed, whatever read the answer (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay import parse_response
from llmrelay.normalize._turn_end import TURN_END_TOKENS, without_turn_end
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

WEATHER = ("get_weather", {"city": "Paris"})
HERMES = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
MISTRAL = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]'
DEEPSEEK = (
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
    '{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
)

CASES = [
    Case("chatml: prose, then <|im_end|>", "It is sunny in Paris.<|im_end|>", content="It is sunny in Paris."),
    Case("a call, then <|im_end|>", f"{HERMES}<|im_end|>", [WEATHER], format="hermes"),
    Case(
        "prose, a call, the token on its own line",
        f"Checking.\n{HERMES}\n<|im_end|>\n",
        [WEATHER],
        content="Checking.",
        format="hermes",
    ),
    Case("llama 3: <|eot_id|> after prose", "Hello! How can I help?<|eot_id|>", content="Hello! How can I help?"),
    Case("phi: two tokens in a row", "Done.\n<|end|><|endoftext|>", content="Done."),
    Case("gemma: <end_of_turn>", "Bonjour !<end_of_turn>\n", content="Bonjour !"),
    Case("mistral: </s> after its calls", f"{MISTRAL}</s>", [WEATHER], format="mistral"),
    Case(
        "deepseek: its end of sentence after the tool tokens",
        f"{DEEPSEEK}<｜end▁of▁sentence｜>",
        [WEATHER],
        format="deepseek",
    ),
    Case(
        "a JSON call, then the token",
        '{"name": "get_weather", "arguments": {"city": "Paris"}}<|im_end|>',
        [WEATHER],
        format="json_document",
    ),
    Case(
        "gpt-oss: <|return|> after the final message",
        "<|channel|>final<|message|>It is sunny.<|return|>",
        content="It is sunny.",
        format="harmony",
    ),
    Case(
        "after the reasoning and the answer",
        "<think>Easy.</think>\nHi there.<|im_end|>",
        content="Hi there.",
        reasoning="Easy.",
    ),
    Case("a think block never closed, then the token", "<think>Still weighing<|im_end|>", reasoning="Still weighing"),
    plain("the token named in prose", "ChatML ends every turn with <|im_end|> and the next starts after it."),
    plain("the token quoted at the end", "The end token of ChatML is `<|im_end|>`"),
    plain("text after the token: the model ran on, kept as written", "Done.<|im_end|>\n<|im_start|>user\nThanks"),
    plain("a tag that is no end token", "Line one<br>"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_turn_end(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("token", TURN_END_TOKENS)
def test_every_token_is_removed_at_the_end_only(token: str) -> None:
    assert parse_response(f"Fine.{token}").content == "Fine."
    assert parse_response(f"Use {token} here.").content == f"Use {token} here."


def test_the_raw_answer_keeps_the_token() -> None:
    assert parse_response("Hi.<|im_end|>").raw == "Hi.<|im_end|>"


@pytest.mark.parametrize("unit", ["</s>", "</s>\n", " " * 1000 + "<|im_end|>"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = "x" + unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    without_turn_end(text)
    parse_response(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
