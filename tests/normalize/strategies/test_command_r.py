"""Cohere's Command R7B / Command A action blocks and Command-R's `Action:` lists."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import CommandRAction
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

C = "command_r"
PLAN = "I will look up the weather in Paris."
THINK = f"<|START_THINKING|>{PLAN}<|END_THINKING|>"
SEARCH = '{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}'
WEATHER = ("get_weather", {"city": "Paris"})


def action(*calls: str) -> str:
    listed = ",\n    ".join(calls)
    return f"<|START_ACTION|>[\n    {listed}\n]<|END_ACTION|>"


LEGACY = '[\n    {\n        "tool_name": "internet_search",\n        "parameters": {"query": "weather Paris"}\n    }\n]'

CASES = [
    Case(
        "r7b: the plan is reasoning, the action holds the call",
        THINK + action(SEARCH),
        [WEATHER],
        format=C,
        ids=["0"],
        reasoning=PLAN,
    ),
    Case(
        "r7b: two calls with their ids",
        THINK + action(SEARCH, '{"tool_call_id": "1", "tool_name": "get_time", "parameters": {}}'),
        [WEATHER, ("get_time", {})],
        format=C,
        ids=["0", "1"],
        reasoning=PLAN,
    ),
    Case(
        "a response block beside the action is content",
        f"{THINK}{action(SEARCH)}<|START_RESPONSE|>One moment.<|END_RESPONSE|>",
        [WEATHER],
        content="One moment.",
        format=C,
        reasoning=PLAN,
    ),
    Case(
        "a text block (Command 4) is content too",
        f"<|START_TEXT|>Checking.<|END_TEXT|>{action(SEARCH)}<|END_OF_TURN_TOKEN|>",
        [WEATHER],
        content="Checking.",
        format=C,
    ),
    # Issue 16: the thinking block is reasoning, the response block the content, even with no call.
    Case(
        "r7b: a response and no call",
        f"{THINK}<|START_RESPONSE|>Paris is sunny today.<|END_RESPONSE|>",
        content="Paris is sunny today.",
        format=C,
        reasoning=PLAN,
    ),
    Case(
        "r7b: a response block alone",
        "<|START_RESPONSE|>Hello!<|END_RESPONSE|>",
        content="Hello!",
        format=C,
    ),
    plain("r7b: response tokens named in prose", "Cohere answers start with <|START_RESPONSE|>, I believe."),
    Case("prose before the action", f"Let me check.{action(SEARCH)}", [WEATHER], content="Let me check.", format=C),
    Case("the end token is missing", f"<|START_ACTION|>[{SEARCH}]", [WEATHER], format=C),
    Case(
        "parameters as a JSON-encoded string",
        action('{"tool_call_id": "0", "tool_name": "f", "parameters": "{\\"a\\": 1}"}'),
        [("f", {"a": 1})],
        format=C,
    ),
    Case("an unreadable action is malformed", action('{"tool_name" => "f"}'), rejected=["malformed"], format=C),
    Case(
        "an action cut off mid-call is truncated",
        '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {"q": "ab',
        rejected=["truncated"],
        format=C,
    ),
    Case(
        "command-r: the plan is content, the action list holds the call",
        f"Plan: I will search for the weather in Paris.\nAction: ```json\n{LEGACY}\n```",
        [("internet_search", {"query": "weather Paris"})],
        content="Plan: I will search for the weather in Paris.",
        format=C,
    ),
    Case(
        "command-r: two calls, including directly_answer",
        'Action: ```json\n[{"tool_name": "a", "parameters": {}},\n'
        '{"tool_name": "directly_answer", "parameters": {}}]\n```',
        [("a", {}), ("directly_answer", {})],
        format=C,
    ),
    Case(
        "command-r: no fence",
        'Action: [{"tool_name": "a", "parameters": {"x": 1}}]\nThen I will answer.',
        [("a", {"x": 1})],
        content="Then I will answer.",
        format=C,
    ),
    Case(
        "command-r: unreadable list is malformed",
        "Action: ```json\n[{tool_name => search}]\n```",
        rejected=["malformed"],
        format=C,
    ),
    Case(
        "command-r: cut off mid-list is truncated",
        'Plan: search.\nAction: ```json\n[{"tool_name": "search", "parameters": {"query": "wea',
        content="Plan: search.",
        rejected=["truncated"],
        format=C,
    ),
    plain("block tokens mentioned in prose", "Command R7B wraps calls in <|START_ACTION|> and <|END_ACTION|>."),
    plain("an action that is prose", "Action: open the door.\nResult: it opened."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_command_r(case: Case) -> None:
    check(case)


def test_an_action_of_another_agent_format_is_not_read() -> None:
    text = 'Thought: done.\nAction: ```json\n{"action": "Final Answer", "action_input": "Hi"}\n```'
    assert CommandRAction().parse(text) is None


@pytest.mark.parametrize(
    "unit", ["<|START_ACTION|>", "<|START_ACTION|>[", "<|START_THINKING|>", "Action: ```", "Action: [", "Action:\n"]
)
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    CommandRAction().parse(text)
    # 0.25 s per MB (0.5 s at least): far above linear, far below what a quadratic scan takes.
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
