"""IBM Granite's `<|tool_call|>` and Granite 20B FC's `<function_call>`."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import GraniteToolCall
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

G = "granite"
T = "<|tool_call|>"
WEATHER = '{"name": "get_weather", "arguments": {"city": "Paris"}}'

CASES = [
    Case("granite 3: one call in an array", f"{T}[{WEATHER}]", [("get_weather", {"city": "Paris"})], format=G),
    Case(
        "granite 3: two calls in the array",
        f'{T}[{WEATHER}, {{"name": "get_time", "arguments": {{}}}}]',
        [("get_weather", {"city": "Paris"}), ("get_time", {})],
        format=G,
    ),
    Case(
        "prose before and after, end token removed",
        f"Checking.\n{T}[{WEATHER}]\nOne moment.<|end_of_text|>",
        [("get_weather", {"city": "Paris"})],
        content="Checking.\nOne moment.",
        format=G,
    ),
    Case(
        "granite 20B FC: one marker per call",
        f'Sure.\n<function_call> {WEATHER}\n<function_call> {{"name": "get_time", "arguments": {{}}}}',
        [("get_weather", {"city": "Paris"}), ("get_time", {})],
        content="Sure.",
        format=G,
    ),
    Case(
        "granite 20B FC with a closing tag",
        f"<function_call>{WEATHER}</function_call>",
        [("get_weather", {"city": "Paris"})],
        format=G,
    ),
    Case(
        "phi-4's closing token is removed too",
        f"{T}{WEATHER}</|tool_call|>\nDone.",
        [("get_weather", {"city": "Paris"})],
        content="Done.",
        format=G,
    ),
    Case(
        "arguments as a JSON-encoded string",
        f'{T}[{{"name": "f", "arguments": "{{\\"a\\": 1}}"}}]',
        [("f", {"a": 1})],
        format=G,
    ),
    Case(
        "the array's closing bracket is missing at the end",
        f"{T}[{WEATHER}",
        [("get_weather", {"city": "Paris"})],
        format=G,
    ),
    Case("unreadable JSON is malformed", f'{T}[{{"name" => "f"}}]', rejected=["malformed"], format=G),
    Case("an object with no tool name is malformed", f'{T}[{{"city": "Paris"}}]', rejected=["malformed"], format=G),
    Case(
        "cut off mid-call is truncated",
        f'{T}[{WEATHER}, {{"name": "f", "arguments": {{"q": "ab',
        rejected=["truncated"],
        format=G,
    ),
    plain("the token mentioned in prose", f"Granite marks its calls with a {T} token."),
    plain("the FC marker mentioned in prose", "<function_call> is how Granite 20B starts a call."),
    # llama.cpp test-chat.cpp HERMES_2_PRO `json_fence_function_call`: the fence is left empty.
    Case(
        "a json fence around the marker and call leaves no empty fence",
        '```json\n\n  <function_call> {"name": "special_function", "arguments": {"arg1": 1}} \n  </function_call> \n```',
        [("special_function", {"arg1": 1})],
        format=G,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_granite(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", [T, f"{T}[", "<function_call>{", "<function_call>"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * 200_000
    started = time.perf_counter()
    GraniteToolCall().parse(text)
    # 0.25 s per MB (0.5 s at least): far above linear, far below what a quadratic scan takes.
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
