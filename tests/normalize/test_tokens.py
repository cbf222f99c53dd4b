"""`read_token_sections`: the loop behind the strategies that split an answer at special tokens."""

from __future__ import annotations

import re

import pytest

from llmrelay.normalize import _tokens
from llmrelay.normalize._calls import read_json_calls
from llmrelay.normalize._scan import json_prefix
from llmrelay.normalize._tokens import read_token_sections, split_windowed
from llmrelay.normalize._types import CallReading, Parsed

TOKENS = re.compile(r"(<CALL>|<END>|<THINK>)")
calls_read: list[str] = []


def read(token: str, after: str, following: str) -> tuple[list[CallReading], str] | None:
    calls_read.append(after)
    found = json_prefix(after)
    return None if found is None else (read_json_calls(found[0], f"after {token}"), found[1])


def parse(text: str, *, starts: str | None = None, hidden: tuple[str, ...] = ()) -> Parsed | None:
    return read_token_sections(text, TOKENS, ("<CALL>",), read, starts=starts, hidden=hidden)


def test_calls_after_openers_and_prose_around_them() -> None:
    parsed = parse('Checking.<CALL>{"name": "f"} then<END> done<CALL> is a token')
    assert parsed is not None
    assert [c.name for c in parsed.calls] == ["f"]
    assert parsed.text == "Checking.\nthen\ndone\nis a token"


def test_no_call_is_none() -> None:
    assert parse("a <CALL> mention<END> and <CALL>") is None


def test_starts_skips_prose_without_calling_read() -> None:
    calls_read.clear()
    assert parse("<CALL> prose<CALL>[1]<CALL>", starts="{[") is not None
    assert calls_read == ["[1]"]


def test_hidden_text_is_neither_content_nor_read() -> None:
    parsed = parse('<THINK>the plan<END>The answer.<CALL>{"name": "g"}', hidden=("<THINK>",))
    assert parsed is not None
    assert [c.name for c in parsed.calls] == ["g"]
    assert parsed.text == "The answer."


SPLITS = [
    "",
    "no token at all",
    "<CALL>",
    "prose<CALL>{}<END>",
    "<END><END><END>",
    "ab<THINK>cdefgh<CALL>i<END>" * 5,
    "<CALL>" + "x" * 40 + "<END>",  # A window longer than its target: cut at the next token only.
]


@pytest.mark.parametrize("text", SPLITS)
@pytest.mark.parametrize("window", [1, 4, 1 << 16])
def test_split_windowed_is_the_whole_split(monkeypatch: pytest.MonkeyPatch, text: str, window: int) -> None:
    # Issue 12: split a window at a time (not 10x the input at once), with the same pieces.
    monkeypatch.setattr(_tokens, "_WINDOW", window)
    before, pairs = split_windowed(text, TOKENS)
    assert [before, *(piece for pair in pairs for piece in pair)] == TOKENS.split(text)
