"""One broken call never hides the valid calls beside it, in any format (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay import parse_response
from llmrelay.normalize._salvage import array_items
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check

BAD = '{"name": "a", "arguments": {"x": @@ 1 2}}'
GOOD = '{"name": "b", "arguments": {"y": 1}}'
B = ("b", {"y": 1})

CASES = [
    Case(
        "mistral: an array with a broken item",
        f"[TOOL_CALLS][{BAD}, {GOOD}]",
        [B],
        rejected=["malformed"],
        format="mistral",
    ),
    Case(
        "hermes: an array in one block",
        f"<tool_call>[{BAD}, {GOOD}]</tool_call>",
        [B],
        rejected=["malformed"],
        format="hermes",
    ),
    Case(
        "jamba: an array in one block",
        f"<tool_calls>[{GOOD}, {BAD}]</tool_calls>",
        [B],
        rejected=["malformed"],
        format="jamba",
    ),
    Case("phi-4: functools array", f"functools[{BAD}, {GOOD}]", [B], rejected=["malformed"], format="phi4"),
    Case(
        "granite: the tool_call token's array",
        f"<|tool_call|>[{BAD}, {GOOD}]",
        [B],
        rejected=["malformed"],
        format="granite",
    ),
    Case(
        "command r7b: the action block's array",
        f"<|START_ACTION|>[{BAD}, {GOOD}]<|END_ACTION|>",
        [B],
        rejected=["malformed"],
        format="command_r",
    ),
    Case("llama: semicolon-joined calls", f"<|python_tag|>{BAD}; {GOOD}", [B], rejected=["malformed"], format="llama"),
    Case(
        "a comma and a bracket inside a string do not split an item",
        '[TOOL_CALLS][{"name": "a", "arguments": {"x": "one, ]two"}}, ' + BAD + "]",
        [("a", {"x": "one, ]two"})],
        rejected=["malformed"],
        format="mistral",
    ),
    Case(
        "pythonic: a broken element in a bare list",
        '[get_weather(city="Paris"), send(text=)]',
        [("get_weather", {"city": "Paris"})],
        rejected=["malformed"],
        format="pythonic",
    ),
    # A cut-off array stays one truncated rejection: never split and guessed at.
    Case(
        "an array cut off stays truncated", f"[TOOL_CALLS][{GOOD}, {BAD[:20]}", rejected=["truncated"], format="mistral"
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_salvage(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("body", "items"),
    [
        ("[1, 2]", ["1", "2"]),
        ('[{"a": [1, 2]}, "x,y", \'z]\']', ['{"a": [1, 2]}', '"x,y"', "'z]'"]),
        ("[1]", None),
        ("[1, 2] tail", None),
        ("[1, 2", None),
        ("{}", None),
    ],
)
def test_array_items(body: str, items: list[str] | None) -> None:
    assert array_items(body) == items


def test_array_items_is_linear_and_bounded() -> None:
    text = "[" + '{"a": "x\\"y"}, ' * 100_000 + "1]"
    started = time.perf_counter()
    assert len(array_items(text) or []) == 1_001  # MAX_CALLS items, and where the rest starts.
    assert len(array_items(text, limit=200_000) or []) == 100_001
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS


def test_an_array_of_more_calls_than_the_limit_reports_the_rest() -> None:
    text = "[TOOL_CALLS][" + f"{GOOD}, " * 1_500 + f"{BAD}]"
    result = parse_response(text, max_calls=10_000)  # The strategy's own reading bound, not the per-answer cap.
    assert len(result.tool_calls) == 1_000
    assert [r.kind for r in result.rejected] == ["malformed"] and "not read" in result.rejected[0].reason
