"""Hermes / Qwen `<tool_call>` blocks holding JSON."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from llmrelay.normalize._budget import MAX_TAGS
from llmrelay.normalize.strategies.hermes import HermesToolCall
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

H = "hermes"
WEATHER = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
TIME = '<tool_call>\n{"name": "get_time", "arguments": {"tz": "UTC"}}\n</tool_call>'

CASES = [
    Case("single call (Qwen2.5 template)", WEATHER, [("get_weather", {"city": "Paris"})], format=H),
    Case(
        "several blocks, prose before, between and after",
        f"Let me check.\n{WEATHER}\nand\n{TIME}\nOne moment.",
        [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})],
        content="Let me check.\nand\nOne moment.",
        format=H,
    ),
    Case(
        "arguments as a JSON-encoded string",
        '<tool_call>{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}</tool_call>',
        [("get_weather", {"city": "Paris"})],
        format=H,
    ),
    Case(
        "ids are kept when the model writes them",
        '<tool_call>{"id": "call_7", "name": "get_time", "arguments": {}}</tool_call>',
        [("get_time", {})],
        ids=["call_7"],
        format=H,
    ),
    Case(
        "the last </tool_call> is missing (stopped at the stop token)",
        'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n',
        [("get_weather", {"city": "Paris"})],
        content="Checking.",
        format=H,
    ),
    Case(
        "an unclosed block followed by another block",
        '<tool_call>{"name": "a", "arguments": {}}\n<tool_call>{"name": "b", "arguments": {"x": 1}}</tool_call>',
        [("a", {}), ("b", {"x": 1})],
        format=H,
    ),
    Case(
        "prose after the JSON of an unclosed block stays content",
        '<tool_call>{"name": "a", "arguments": {}}\nI have asked for it.',
        [("a", {})],
        content="I have asked for it.",
        format=H,
    ),
    Case(
        "a JSON array of calls in one block",
        '<tool_call>[{"name": "a", "arguments": {}}, {"name": "b", "parameters": {"x": 1}}]</tool_call>',
        [("a", {}), ("b", {"x": 1})],
        format=H,
    ),
    Case(
        "several JSON objects in one block",
        '<tool_call>\n{"name": "a", "arguments": {}}\n{"name": "b", "arguments": {}}\n</tool_call>',
        [("a", {}), ("b", {})],
        format=H,
    ),
    Case(
        "the stray closing brace Qwen2.5 adds",
        '<tool_call>\n{"name": "get_time", "arguments": {"tz": "UTC"}}}\n</tool_call>',
        [("get_time", {"tz": "UTC"})],
        format=H,
    ),
    Case(
        "lenient JSON: single quotes and a trailing comma",
        "<tool_call>{'name': 'get_time', 'arguments': {'tz': 'UTC',},}</tool_call>",
        [("get_time", {"tz": "UTC"})],
        format=H,
    ),
    Case("GLM no-argument call: a bare name", "<tool_call>get_time</tool_call>", [("get_time", {})], format=H),
    Case(
        "unreadable JSON is malformed, and its markup leaves the content",
        "On it.\n<tool_call>{name => get_time}</tool_call>",
        content="On it.",
        rejected=["malformed"],
        format=H,
    ),
    Case(
        "JSON that is not a call is malformed",
        '<tool_call>{"city": "Paris"}</tool_call>',
        rejected=["malformed"],
        format=H,
    ),
    Case(
        "cut off inside a string is truncated",
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par',
        rejected=["truncated"],
        format=H,
    ),
    Case(
        "one bad block does not hide the good one",
        f"<tool_call>{{oops</tool_call>\n{WEATHER}",
        [("get_weather", {"city": "Paris"})],
        rejected=["malformed"],
        format=H,
    ),
    plain("the tag mentioned in prose", "Wrap each call in <tool_call></tool_call> tags, then stop."),
    plain("an open tag in prose", "Use the <tool_call> tag for calls."),
    plain("a bare word in an unclosed tag is not a call", "Reply with <tool_call>name and nothing else."),
    # Bodies of the formats ordered before Hermes: not JSON, so never a Hermes attempt.
    plain("Qwen3-Coder body with a phantom name", "<tool_call>\n<function={{ name }}>\n</function>\n</tool_call>"),
    # Issue 16: Xiaomi MiMo (llama.cpp's xiaomi_mimo format) writes Hermes blocks after its <think>.
    Case(
        "mimo: reasoning, then two Hermes blocks",
        "<think>Two lookups.</think>\n" + WEATHER + "\n" + TIME,
        [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})],
        reasoning="Two lookups.",
        format=H,
    ),
    # Round three: Step-Audio 2 writes type, name and JSON arguments on three lines (vLLM's step_audio_2_tool_parser.py).
    Case(
        "step-audio 2: one call after prose",
        'Let me look.<tool_call>function\nforecast_weather\n{"location": "上海", "days": 2}</tool_call>',
        [("forecast_weather", {"location": "上海", "days": 2})],
        content="Let me look.",
        format=H,
    ),
    Case(
        "step-audio 2: two calls, prose between and after",
        '<tool_call>function\nget_time\n{}</tool_call>\nand\n<tool_call>function\nget_weather\n{"city": "Paris"}'
        "</tool_call>\nDone.",
        [("get_time", {}), ("get_weather", {"city": "Paris"})],
        content="and\nDone.",
        format=H,
    ),
    Case(
        "step-audio 2: arguments that are no JSON, beside a good call",
        "<tool_call>function\nget_weather\ncity=Paris</tool_call><tool_call>function\nget_time\n{}</tool_call>",
        [("get_time", {})],
        rejected=["malformed"],
        format=H,
    ),
    # Trinity (SGLang's trinity_detector.py) writes Qwen2.5's blocks. SGLang strips its think tags
    # and runs a call written inside them; here, as the issue rules, a call in reasoning is rejected.
    Case(
        "trinity: reasoning, then a call",
        '<think>Paris weather.</think>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
        [("get_weather", {"city": "Paris"})],
        format=H,
        reasoning="Paris weather.",
    ),
    Case(
        "trinity: a call inside the think block is thinking aloud, rejected",
        '<think>I will call <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call></think>'
        "\nIt is sunny.",
        content="It is sunny.",
        rejected=["in_reasoning"],
        reasoning='I will call <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
    ),
    Case(
        "step-audio 2: cut off before its close tag",
        '<tool_call>function\nget_weather\n{"city": "Pa',
        rejected=["truncated"],
        format=H,
    ),
]


# llama.cpp's Hermes 2 Pro reader (common/chat.cpp): the call in a markdown fence around its
# block, or in the tags fine-tunes write instead of <tool_call> (issue 16, engines audit).
W = "hermes_wrapped"
RATE = '{"name": "get_rate", "arguments": {"from": "EUR", "to": "JPY"}}'
RATE_CALL = ("get_rate", {"from": "EUR", "to": "JPY"})
WRAPPED_CASES = [
    Case("a block in an xml fence", f"```xml\n<tool_call>\n{RATE}\n</tool_call>\n```", [RATE_CALL], format=H),
    Case(
        "a block in a json fence, prose before",
        f"Converting.\n```json\n<tool_call>{RATE}</tool_call>\n```",
        [RATE_CALL],
        content="Converting.",
        format=H,
    ),
    Case("the call in <json> tags", f"<json>{RATE}</json>", [RATE_CALL], format=W),
    Case(
        "the call in <tool> tags, prose before", f"Sure.\n<tool>{RATE}</tool>", [RATE_CALL], content="Sure.", format=W
    ),
    Case("the call in <JSON> tags in a json fence", f"```json\n<JSON>\n{RATE}\n</JSON>\n```", [RATE_CALL], format=W),
    Case("the call in <xml> tags", f"<xml>\n{RATE}\n</xml>", [RATE_CALL], format=W),
    Case(
        "two calls in <response> tags, unicode",
        '<response>[{"name": "say", "arguments": {"text": "Grüß dich"}}, {"name": "nap", "arguments": {}}]</response>',
        [("say", {"text": "Grüß dich"}), ("nap", {})],
        format=W,
    ),
    plain("data in <json> tags stays text", 'The totals: <json>{"eur": 3, "jpy": 480}</json>'),
    plain("an ERNIE-style <response> holding prose stays text", "<response>\nIt is sunny.\n</response>"),
    plain("an xml fence of data stays as written", "Like this:\n```xml\n<note>hi</note>\n```"),
]


@pytest.mark.parametrize("case", CASES + WRAPPED_CASES, ids=lambda c: c.id)
def test_hermes(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("body", ["<function=f>{}</function>", "f\n<arg_key>a</arg_key>", "<<<>>>", "\x00"])
def test_bodies_of_other_formats_are_not_hermes(body: str) -> None:
    assert HermesToolCall().parse(f"<tool_call>{body}</tool_call>") is None


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_json_is_rejected_not_raised(depth: int) -> None:
    parsed = HermesToolCall().parse("<tool_call>" + "[" * depth + "]" * depth + "</tool_call>")
    assert parsed is not None
    assert [r.kind for r in parsed.rejected] == ["malformed"]


def test_200k_unclosed_open_tags_is_linear() -> None:
    text = "<tool_call>" * 200_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert (result.tool_calls, result.content) == ([], text)
    assert elapsed < NO_BLOWUP_SECONDS


def test_past_the_tag_budget_the_rest_is_reported_not_read() -> None:
    text = '<tool_call>{"name": "a", "arguments": {}}</tool_call>' * (MAX_TAGS + 10)
    result = parse_response(text, max_calls=MAX_TAGS * 2)  # The reading bound, below the per-answer cap.
    assert len(result.tool_calls) == MAX_TAGS
    assert [r.kind for r in result.rejected] == ["malformed"]
    assert "not read" in result.rejected[0].reason
