"""Reasoning blocks at the start of an answer: kept on `Completion.reasoning`, never content or calls (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay import parse_response
from llmrelay.normalize._reasoning import split_reasoning
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

HERMES = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
WEATHER = ("get_weather", {"city": "Paris"})
TOOLS = [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]

CASES = [
    Case(
        "qwen3: think, then a call",
        f"<think>\nThe user wants Paris.\n</think>\n\n{HERMES}",
        [WEATHER],
        format="hermes",
        reasoning="The user wants Paris.",
    ),
    Case(
        "think, then a plain answer",
        "<think>Easy sum.</think>\n\n2 + 2 = 4.",
        content="2 + 2 = 4.",
        reasoning="Easy sum.",
    ),
    Case(
        "xLAM: a JSON list of calls after the think block",
        '<think>One call is enough.</think>[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
        [WEATHER],
        format="json_document",
        reasoning="One call is enough.",
    ),
    Case(
        "seed-oss: its own think tag",
        "<seed:think>Check the tools.</seed:think>Nothing to call.",
        content="Nothing to call.",
        reasoning="Check the tools.",
    ),
    Case("kimi-vl's triangle tags", "◁think▷Simple.◁/think▷Hello!", content="Hello!", reasoning="Simple."),
    # Magistral (llama.cpp's MAGISTRAL format, vLLM's mistral reasoning parser).
    Case(
        "magistral: bracket tags, then prose",
        "[THINK]A greeting.\nNo tool.[/THINK]Hi there.",
        content="Hi there.",
        reasoning="A greeting.\nNo tool.",
    ),
    Case(
        "magistral: reasoning, then a call after [TOOL_CALLS]",
        '[THINK]Weather: one call.[/THINK][TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
        [("get_weather", {"city": "Paris"})],
        format="mistral",
        reasoning="Weather: one call.",
    ),
    Case(
        "magistral: a call inside the reasoning is thinking aloud",
        '[THINK]Maybe [TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}? No.[/THINK]It is sunny.',
        content="It is sunny.",
        rejected=["in_reasoning"],
        reasoning='Maybe [TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}? No.',
    ),
    plain("magistral: the tag named mid-prose stays content", "Magistral writes [THINK] first, then [/THINK]."),
    Case("leading blank space before the block", "\n\n<think>Hmm.</think>Hi.", content="Hi.", reasoning="Hmm."),
    Case(
        "an empty think block: markup, nothing thought", "<think>\n\n</think>\n\nHello.", content="Hello.", reasoning=""
    ),
    Case(
        "two blocks in a row (interleaved thinking)",
        "<think>First.</think>\n<think>Second.</think>\nDone.",
        content="Done.",
        reasoning="First.\n\nSecond.",
    ),
    Case(
        "a think block never closed: the model stopped thinking",
        "<think>Still weighing the opt",
        reasoning="Still weighing the opt",
    ),
    Case(
        "hunyuan: the answer wrapped in <answer>",
        "<think>Plan.</think>\n<answer>\nIt is sunny.\n</answer>",
        content="It is sunny.",
        reasoning="Plan.",
    ),
    Case(
        "a call written inside the reasoning is rejected as in_reasoning",
        f"<think>I could do {HERMES} but I know it.</think>It is sunny.",
        content="It is sunny.",
        rejected=["in_reasoning"],
        reasoning=f"I could do {HERMES} but I know it.",
    ),
    Case(
        "a call in reasoning and the same call in the answer: one accepted, one reported",
        f"<think>Plan: {HERMES}</think>\n{HERMES}",
        [WEATHER],
        format="hermes",
        rejected=["in_reasoning"],
        reasoning=f"Plan: {HERMES}",
        tools=TOOLS,
    ),
    Case(
        "JSON mentioned in the thinking prose is not reported",
        '<think>Maybe {"name": "get_weather", "arguments": {"city": "Paris"}} later.</think>Sure.',
        content="Sure.",
        reasoning='Maybe {"name": "get_weather", "arguments": {"city": "Paris"}} later.',
    ),
    Case(
        "deepseek r1: think, then its tool tokens",
        "<think>Need weather.</think><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
        '{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [WEATHER],
        format="deepseek",
        reasoning="Need weather.",
    ),
    Case(
        "ernie 4.5: the answer in <response> after the reasoning",
        "<think>Simple greeting.</think>\n\n<response>\nHello!\n</response>",
        content="Hello!",
        reasoning="Simple greeting.",
    ),
    Case(
        "apriel: reasoning steps, then the final response markers",
        "Here are my reasoning steps:\nThe user greets me.\n[BEGIN FINAL RESPONSE]\nHi there!\n[END FINAL RESPONSE]\n<|end|>",
        content="Hi there!",
        reasoning="The user greets me.",
    ),
    Case(
        "apriel: a call in its final response",
        "Here are my reasoning steps:\nNeed weather.\n[BEGIN FINAL RESPONSE]\n"
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>\n[END FINAL RESPONSE]',
        [WEATHER],
        format="jamba",
        reasoning="Need weather.",
    ),
    # The prompt opened the block (DeepSeek R1, Qwen3 thinking, GLM, MiniMax): only its close tag is written.
    Case(
        "deepseek r1: only the close tag, then a call",
        f"The user wants Paris.\n</think>\n\n{HERMES}",
        [WEATHER],
        format="hermes",
        reasoning="The user wants Paris.",
    ),
    Case(
        "qwen3: only the close tag, then prose",
        "Simple sum.</think>2 + 2 = 4.",
        content="2 + 2 = 4.",
        reasoning="Simple sum.",
    ),
    Case(
        "seed-oss: its own close tag alone",
        "Check the tools.</seed:think>Nothing to call.",
        content="Nothing to call.",
        reasoning="Check the tools.",
    ),
    Case("kimi-vl: the triangle close tag alone", "Simple.◁/think▷Hello!", content="Hello!", reasoning="Simple."),
    Case("nothing thought: the close tag first", "</think>\n\nHello.", content="Hello.", reasoning=""),
    Case(
        "minimax m2: only the close tag, then its invoke markup",
        'Weather first.\n</think>\n\n<minimax:tool_call>\n<invoke name="get_weather">\n'
        '<parameter name="city">Paris</parameter>\n</invoke>\n</minimax:tool_call>',
        [WEATHER],
        format="minimax_m2",
        reasoning="Weather first.",
    ),
    Case(
        "a call before the lone close tag is thinking aloud",
        f"Maybe {HERMES} is enough.</think>It is sunny.",
        content="It is sunny.",
        rejected=["in_reasoning"],
        reasoning=f"Maybe {HERMES} is enough.",
    ),
    Case(
        "only the first close tag ends the reasoning",
        "Plan.</think>Answer with </think> in it.",
        content="Answer with </think> in it.",
        reasoning="Plan.",
    ),
    Case(
        "an end token after the answer as well",
        "Plan.\n</think>\n\nHi!<|im_end|>",
        content="Hi!",
        reasoning="Plan.",
    ),
    plain("the close tag quoted in prose", "Close the block with `</think>` when you are done."),
    # A whole JSON answer is read as JSON first: a close tag inside one of its strings is text.
    Case(
        "a JSON envelope whose content names the close tag",
        '{"content": "Wrap it in <think> and end with </think> tags.", "toolCalls": []}',
        content="Wrap it in <think> and end with </think> tags.",
        format="json_document",
    ),
    Case(
        "a JSON call whose argument holds the close tag",
        '{"name": "note", "arguments": {"text": "the end is </think> here"}}',
        [("note", {"text": "the end is </think> here"})],
        format="json_document",
    ),
    plain("the close tag in quotes", 'The tag "</think>" ends a reasoning block.'),
    # llama.cpp test-chat.cpp APERTUS `call_thoughts`.
    Case(
        "apertus: inner prefix and suffix, then its call",
        '<|inner_prefix|>I\'m\nthinking<|inner_suffix|><|tools_prefix|>[{"get_weather": {"city": "Bern"}}]<|tools_suffix|>',
        [("get_weather", {"city": "Bern"})],
        format="apertus",
        reasoning="I'm\nthinking",
    ),
    plain("prose starting like apriel's marker", "Here are my thoughts: no tool is needed."),
    plain("apriel's words without its end marker stay content", "Here are my reasoning steps:\n1. Add.\n2. Done."),
    plain("the tag named in prose", "Reasoning models wrap their thoughts in <think> tags."),
    plain("a think block after prose stays as written", "Sure. <think>not at the start</think> Done."),
    plain("a quoted think tag at the start", "`<think>` is the tag DeepSeek R1 uses."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_reasoning(case: Case) -> None:
    check(case)


def test_no_reasoning_leaves_the_text_alone() -> None:
    text = "  plain answer"
    assert split_reasoning(text) == (None, text)


@pytest.mark.parametrize("opener", ["[", "{"])
def test_a_lone_close_tag_after_nesting_past_the_recursion_limit_never_raises(opener: str) -> None:
    # The check that a whole JSON answer names the tag (not reasoning) decodes the text: a text
    # nested deeper than Python recurses must not raise out of parse_response.
    text = opener * 200_000 + " I think </think> done"
    result = parse_response(text)
    assert (result.reasoning, result.content) == (text[: text.index(" </think>")].strip(), "done")


@pytest.mark.parametrize("unit", ["<think>", "<think></think>", "<think>a</think>\n", "◁think▷◁/think▷"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    parse_response(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
