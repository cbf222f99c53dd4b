"""A block read once per distinct body gives what reading every block gives (`_repeats`)."""

from __future__ import annotations

from unittest import mock

import pytest

from llmrelay import Completion, parse_response
from llmrelay.normalize._repeats import RepeatedBlocks

CALL = '{"name": "f", "arguments": {"a": [1]}}'
CASES = [
    # (case, text): repeated bodies of each kind, with a different last one or an unclosed end.
    ("unreadable, unclosed", "<tool_call>{" * 300),
    ("unreadable, closed", "<tool_call>{</tool_call>\n" * 300),
    ("lenient calls", "<tool_call>{'name': 'f', 'arguments': {'a': [1]}}</tool_call>\n" * 300),
    ("a strict call, then its copies unclosed", f"<tool_call>{CALL}</tool_call>" + f"<tool_call>{CALL} x" * 300),
    ("Step-Audio 2 lines, the last cut off", "<tool_call>function\nf\n{" * 300),
    ("Step-Audio 2 lines, closed", '<tool_call>function\nf\n{"a": 1}</tool_call>' * 300),
    ("bare names and bodies that are none", "<tool_call>get_time</tool_call><tool_call>no call here." * 300),
    ("alternating bodies", "<longcat_tool_call>{<longcat_tool_call>[{" * 300),
    ("Pangu arrays, one item broken", '[unused11][{"name": "f", "arguments": {}}, {"name": }][unused12]' * 300),
    ("LFM2 Python calls", "<|tool_call_start|>[f(a='x'y'), g(b=[1])]<|tool_call_end|>" * 300),
    ("LFM2 empty lists and JSON", '<|tool_call_start|>[]<|tool_call_end|><|tool_call_start|>{"name": "f"' * 300),
    ("past the tag budget", "<tool_call>{" * 2_500),
]


def read_every_block(self: RepeatedBlocks, block: object) -> object:
    return self._read(block)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [text for _, text in CASES], ids=[case for case, _ in CASES])
@pytest.mark.parametrize("max_calls", [128, 1_000])
def test_same_reading_as_every_block_read(text: str, max_calls: int) -> None:
    with mock.patch.object(RepeatedBlocks, "read", read_every_block):
        expected = parse_response(text, max_calls=max_calls)
    assert parse_response(text, max_calls=max_calls) == expected


def argument_values(completion: Completion) -> list[object]:
    found = [call.arguments for call in completion.tool_calls]
    return found + [r.arguments for r in completion.rejected if not isinstance(r.arguments, str | None)]


@pytest.mark.parametrize(
    "text",
    ["<tool_call>{'name': 'f', 'arguments': {'a': [1]}}</tool_call>" * 3, "<|tool_call_start|>[f(a=[1])]" * 3],
)
def test_repeated_calls_do_not_share_their_arguments(text: str) -> None:
    """A user who changes one call's arguments changes no other call's, as when each block is read."""
    values = argument_values(parse_response(text))
    assert len(values) == 3
    assert len({id(value) for value in values}) == 3
    assert len({id(value["a"]) for value in values}) == 3  # type: ignore[index]
