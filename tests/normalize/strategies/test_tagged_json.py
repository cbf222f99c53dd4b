"""LongCat's `<longcat_tool_call>` and InternLM2's `<|action_start|><|plugin|>` blocks (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import InternLmAction, LongCatToolCall, PanguToolCall
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

WEATHER = ("get_weather", {"city": "Paris"})
ONE = '{"name": "get_weather", "arguments": {"city": "Paris"}}'


def longcat(body: str) -> str:
    return f"<longcat_tool_call>\n{body}\n</longcat_tool_call>"


def action(body: str) -> str:
    return f"<|action_start|><|plugin|>\n{body}<|action_end|>"


CASES = [
    Case("longcat: one call", longcat(ONE), [WEATHER], format="longcat"),
    Case(
        "longcat: two blocks back to back, prose before",
        "Checking.\n" + longcat(ONE) + longcat('{"name": "get_time", "arguments": {"tz": "Europe/Zürich"}}'),
        [WEATHER, ("get_time", {"tz": "Europe/Zürich"})],
        content="Checking.",
        format="longcat",
    ),
    Case(
        "longcat: a broken block does not hide the next",
        longcat('{"name": "a", "arguments": {"q": ]}') + longcat(ONE),
        [WEATHER],
        rejected=["malformed"],
        format="longcat",
    ),
    Case("longcat: cut off", "<longcat_tool_call>\n" + ONE[:30], rejected=["truncated"], format="longcat"),
    plain("longcat: the tag named in prose", "LongCat writes <longcat_tool_call> before each call."),
    Case(
        "internlm2: an action to the plugin, prose before",
        "Let me check.\n" + action('{"name": "get_weather", "parameters": {"city": "Paris"}}'),
        [WEATHER],
        content="Let me check.",
        format="internlm",
    ),
    Case(
        "internlm2: nested parameters and empty ones",
        action('{"name": "search", "parameters": {"filters": {"year": [2023, 2024]}}}')
        + action('{"name": "get_time", "parameters": {}}'),
        [("search", {"filters": {"year": [2023, 2024]}}), ("get_time", {})],
        format="internlm",
    ),
    Case(
        "internlm2: the end token is missing", action(ONE).removesuffix("<|action_end|>"), [WEATHER], format="internlm"
    ),
    Case(
        "intern-s1: reasoning, then an action with newlines between its tokens",
        "<think>Weather lookup.</think>\nSure.<|action_start|>\n<|plugin|>\n"
        '{"name": "get_weather", "parameters": {"city": "Paris"}}\n<|action_end|>',
        [WEATHER],
        content="Sure.",
        format="internlm",
        reasoning="Weather lookup.",
    ),
    Case(
        "intern-s1: two actions, the second spaced",
        action('{"name": "get_time", "parameters": {}}')
        + '<|action_start|> <|plugin|>{"name": "get_weather", "arguments": {"city": "Paris"}}<|action_end|><|im_end|>',
        [("get_time", {}), WEATHER],
        format="internlm",
    ),
    Case(
        "apertus: single-key objects, the key the tool's name",
        'Checking.<|tools_prefix|>[{"get_weather": {"city": "Zürich"}}, {"get_time": {}}]<|tools_suffix|>',
        [("get_weather", {"city": "Zürich"}), ("get_time", {})],
        content="Checking.",
        format="apertus",
    ),
    Case(
        "apertus: an item that is no call does not hide the next",
        '<|tools_prefix|>[{"a": 1, "b": 2}, ' + '{"get_weather": {"city": "Paris"}}]<|tools_suffix|>',
        [WEATHER],
        rejected=["malformed"],
        format="apertus",
    ),
    plain("apertus: the token named in prose", "Apertus opens calls with <|tools_prefix|> then a list."),
    plain("internlm2: the tokens named in prose", "InternLM opens actions with <|action_start|><|plugin|>, then JSON."),
    # Issue 16: Pangu / openPangu v2 (vLLM's pangu_tool_parser.py, openpangu_v2_tool_parser.py).
    Case(
        "pangu: a JSON list in [unused11] tokens, reasoning before it",
        '<think>Shenzhen weather.</think>\nLet me see.[unused11][{"name": "get_weather", "arguments": '
        '{"city": "深圳"}}, {"name": "get_time", "arguments": {}}][unused12]',
        [("get_weather", {"city": "深圳"}), ("get_time", {})],
        content="Let me see.",
        reasoning="Shenzhen weather.",
        format="pangu",
    ),
    Case(
        "openpangu v2: LFM2's tokens, arguments under `parameters`",
        'Sure.<|tool_call_start|>[{"name": "get_weather", "parameters": {"city": "Xi\'an"}}]<|tool_call_end|>',
        [("get_weather", {"city": "Xi'an"})],
        content="Sure.",
        format="lfm2",
    ),
    Case(
        "pangu: one unreadable item does not hide the next",
        '[unused11][{"name": "get_time", "arguments": {}}, {"name": 7}][unused12]',
        [("get_time", {})],
        rejected=["malformed"],
        format="pangu",
    ),
    Case(
        "pangu: cut off inside the list",
        '[unused11][{"name": "get_weather", "arguments": {"city": "Shen',
        rejected=["truncated"],
        format="pangu",
    ),
    plain("pangu: the token named in prose", "Pangu checkpoints open calls with [unused11] and a JSON list."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_tagged_json(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("strategy", "unit"),
    [
        (LongCatToolCall(), "<longcat_tool_call>{"),
        (InternLmAction(), "<|action_start|><|plugin|>["),
        (PanguToolCall(), "[unused11][{"),
    ],
)
def test_hostile_repetition_is_linear(strategy: LongCatToolCall | InternLmAction | PanguToolCall, unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    strategy.parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
