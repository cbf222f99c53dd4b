"""The one-pass reader of clean tagged answers agrees with the general reader (`_clean_tags`).

Its regex steps from one block's JSON over the close tag and the prose to the next open tag:
the rows are the prose and tags that step must not get wrong.
"""

from __future__ import annotations

from unittest import mock

import pytest

from llmrelay.normalize import _tags
from llmrelay.normalize._budget import MAX_TAGS
from llmrelay.normalize._tags import parse_tagged_json

CALL = '{"name": "f", "arguments": {"a": 1}}'
CASES = [
    # (case, open tag, close tag, text, read by the one-pass reader)
    (
        "prose with a `<` between blocks",
        "<tool_call>",
        "</tool_call>",
        f"<tool_call>{CALL}</tool_call> a <b> <tool_call>{CALL}</tool_call>",
        True,
    ),
    (
        "prose naming a longer tag",
        "<tool_call>",
        "</tool_call>",
        f"<tool_call>{CALL}</tool_call><tool_calls><tool_call>{CALL}</tool_call>",
        True,
    ),
    (
        "the next block is not JSON",
        "<tool_call>",
        "</tool_call>",
        f"<tool_call>{CALL}</tool_call>\n<tool_call>get_time</tool_call>",
        False,
    ),
    (
        "the next open tag, then nothing",
        "<tool_call>",
        "</tool_call>",
        f"<tool_call>{CALL}</tool_call>\n<tool_call>",
        False,
    ),
    (
        "blank space around the tags",
        "<tool_call>",
        "</tool_call>",
        f"<tool_call> \n{CALL}\t\n</tool_call>\n\n<tool_call>\n\n{CALL} </tool_call> done",
        True,
    ),
    (
        "no close tag after the last block",
        "<tool_call>",
        "</tool_call>",
        f"<tool_call>{CALL}</tool_call><tool_call>{CALL}",
        False,
    ),
    (
        "Pangu tokens, brackets in the prose",
        "[unused11]",
        "[unused12]",
        f"[unused11][{CALL}][unused12] [x] [unused1 [unused11][{CALL}][unused12]",
        True,
    ),
    (
        "Intern-S1's two tokens, half of them in the prose",
        "<|action_start|><|plugin|>",
        "<|action_end|>",
        f"<|action_start|><|plugin|>{CALL}<|action_end|><|action_start|> <|action_start|><|plugin|>{CALL}<|action_end|>",
        True,
    ),
]


@pytest.mark.parametrize(("open_tag", "close_tag", "text", "clean"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_one_pass_reads_as_the_general_reader(open_tag: str, close_tag: str, text: str, clean: bool) -> None:
    found = _tags._read_clean_answer(text, open_tag, close_tag, r"\[{", f"in {open_tag}")
    assert (found is not None) == clean
    with mock.patch.object(_tags, "_read_clean_answer", return_value=None):
        expected = parse_tagged_json(text, open_tag, close_tag)
    assert parse_tagged_json(text, open_tag, close_tag) == expected
    if found is not None:
        assert found == expected


@pytest.mark.parametrize("between", ["\n", " ok ", ""], ids=["blank", "prose", "nothing"])
@pytest.mark.parametrize("after", ["", f"<tool_call>{CALL}</tool_call> end", "<tool_call> x", " <tool_call>"])
def test_past_the_tag_budget_whatever_lies_between(between: str, after: str) -> None:
    """The last block read, the budget spent: the rest is one piece of prose, as `tag_blocks` leaves it."""
    text = "Sure.\n" + between.join([f"<tool_call>{CALL}</tool_call>"] * MAX_TAGS) + between + after
    found = _tags._read_clean_answer(text, "<tool_call>", "</tool_call>", r"\[{", "in <tool_call>")
    with mock.patch.object(_tags, "_read_clean_answer", return_value=None):
        assert found == parse_tagged_json(text, "<tool_call>", "</tool_call>")
