"""The usual tagged answer, read in one pass: every block closed and one strict JSON value.

A Hermes answer of 2 KB calls is mostly JSON; here each block's JSON is decoded where it
stands and one regex match goes on to the next block, so the answer costs little more than
`json.loads` of the same calls. Any other answer is left to `_tags.parse_tagged_json`'s
general reader, which this one must agree with exactly (`tests/normalize/test_dispatch.py`).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from .._envelope import RejectedCall
from ._budget import MAX_TAGS, TagBudget
from ._calls import calls_in
from ._text import join_pieces
from ._types import CallReading, Candidate, Parsed

# What `json.JSONDecoder().raw_decode` calls, without its wrapper: (value, end), or StopIteration.
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_JSON_OPENERS = ("{", "[")


def read_clean_answer(text: str, open_tag: str, close_tag: str, first_chars: str, where: str) -> Parsed | None:
    """The usual answer, read fast: every block closed and clean (see `_tags._read_clean_block`); else None.

    `tag_blocks` searches three times per block (candidate, next open tag, close tag), each
    search running through the block's body. Here the JSON after each open tag is decoded where
    it stands, and one regex match goes from its end over the close tag and the prose to the
    next open tag (`_CleanSteps`); when the JSON holds no `<`, neither tag can sit inside it
    (`memchr` answers that), so the search for the open tag runs through the prose between
    blocks only. Those are the blocks `tag_blocks` finds, read as `read_json_block` reads them,
    with the prose `cut_spans` keeps: the same `Parsed`; past the tag budget, the rest is left
    unread as `tag_blocks` leaves it. Any other block, and the general reader takes over.
    """
    find = text.find  # Looked up once: hundreds of blocks.
    start = find(open_tag)
    if start == -1:
        return None
    steps = _clean_steps(open_tag, close_tag)
    kept = [text[:start]]
    calls: list[Candidate] = []
    rejected: list[RejectedCall] = []
    scan, budget, adjacent, between = _SCAN, MAX_TAGS, steps.adjacent.match, steps.between.match
    first = steps.open.match(text, start).end()  # type: ignore[union-attr]  # The tag is there.
    if text[first : first + 1] not in _JSON_OPENERS:
        return None
    end, blank = 0, False
    while True:
        budget -= 1
        if budget < 0:  # `tag_blocks`' budget spent: the rest is prose, and said so if a block starts there.
            position = steps.close.match(text, end).end()  # type: ignore[union-attr]  # Matched before.
            if blank:  # The blank space before the next block was not kept: the rest is one piece.
                kept.append(text[position:])
            else:
                kept[-1] = text[position:]
            rejected.extend(_unread(text, find(open_tag, position), open_tag, first_chars))
            break
        try:
            value, end = scan(text, first)
        except (StopIteration, ValueError, RecursionError):
            return None
        if find("<", first, end) != -1 and _holds_a_tag(text, first, end, open_tag, close_tag):
            return None
        # The canonical call read inline (as `read_call` reads it first): most blocks are one.
        if (
            type(value) is dict
            and len(value) == 2
            and type(arguments := value.get("arguments")) is dict
            and type(name := value.get("name")) is str
            and name.isidentifier()
            and len(name) <= 128
        ):
            calls.append(Candidate(name, arguments, None, True))
        else:
            _sort(calls_in(value, where), calls, rejected)
        # The usual case: closed, then the next block's JSON, with blank space only between
        # (`join_pieces` would drop it) or some prose.
        if (step := adjacent(text, end)) is not None:
            first, blank = step.end(), True
            continue
        if (step := between(text, end)) is not None:
            kept.append(step.group(1))
            first, blank = step.end(), False
            continue
        close = steps.close.match(text, end)
        if close is None:
            return None
        position = close.end()
        start = find(open_tag, position)
        if start == -1:
            kept.append(text[position:])
            break
        kept.append(text[position:start])
        first, blank = steps.open.match(text, start).end(), False  # type: ignore[union-attr]  # The tag is there.
        if budget and text[first : first + 1] not in _JSON_OPENERS:  # (No budget: the rest is prose.)
            return None
    # Blocks of empty arrays only: no call read, so not this format (as `parse_tagged_json` says).
    if not calls and not rejected:
        return None
    return Parsed(calls, join_pieces(kept), None, rejected)  # What `Parsed.from_readings` makes of them.


def _unread(text: str, start: int, open_tag: str, first_chars: str) -> list[RejectedCall]:
    """The rejection `tag_blocks` gives past its budget, when a block starts at or after `start`."""
    return [TagBudget().rejection()] if block_starts(open_tag, first_chars).search(text, start) else []


def _sort(readings: list[CallReading], calls: list[Candidate], rejected: list[RejectedCall]) -> None:
    """Add each of `readings` to `calls` or to `rejected`, in order."""
    for reading in readings:
        if isinstance(reading, Candidate):
            calls.append(reading)
        else:
            rejected.append(reading)


class _CleanSteps(NamedTuple):
    """The regexes `_read_clean_answer` steps through an answer with, for one pair of tags."""

    open: re.Pattern[str]
    """The open tag and the blank space after it."""
    close: re.Pattern[str]
    """Blank space and the close tag."""
    between: re.Pattern[str]
    """From the end of a block's JSON: blank space, the close tag, the prose (group 1) up to the
    next open tag, that tag and blank space, where JSON starts. The prose runs to the first open
    tag there is (possessive, so a failed match costs no backtracking)."""
    adjacent: re.Pattern[str]
    """`between` where the prose is blank space only (no group to read)."""


@functools.cache
def _clean_steps(open_tag: str, close_tag: str) -> _CleanSteps:
    head, rest = re.escape(open_tag[0]), re.escape(open_tag[1:])
    prose = rf"([^{head}]*+(?:{head}(?!{rest})[^{head}]*+)*+)"
    opened = re.escape(open_tag) + r"\s*"
    closed = r"\s*" + re.escape(close_tag)
    json_starts = r"(?=[\[{])"
    return _CleanSteps(
        re.compile(opened),
        re.compile(closed),
        re.compile(closed + prose + opened + json_starts),
        re.compile(closed + r"\s*+" + opened + json_starts),
    )


def _holds_a_tag(text: str, start: int, end: int, open_tag: str, close_tag: str) -> bool:
    """Whether `open_tag` or `close_tag` occurs in `text[start:end]` (in a JSON string, say)."""
    return text.find(open_tag, start, end) != -1 or text.find(close_tag, start, end) != -1


@functools.cache
def block_starts(open_tag: str, first: str) -> re.Pattern[str]:
    """`open_tag` where a block starts: followed, after blank space, by a character of `first`."""
    return re.compile(re.escape(open_tag) + rf"(?=\s*[{first}])")
