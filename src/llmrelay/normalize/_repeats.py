"""Blocks read once per distinct body: a model stuck in a loop writes the same block thousands of times.

A tagged answer is read block by block, and a block whose JSON is not strict goes to the lenient
loader, which costs ~30 µs on even a one-character body (`{`): 2000 such blocks (the tag budget)
took ~70 ms. A looping model repeats one block, so each distinct body is read once here and its
reading reused: the same calls and rejections, in the same order, as reading every block would
give (`tests/normalize/test_repeats.py`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING

from .._envelope import RejectedCall
from ._types import CallReading

if TYPE_CHECKING:
    from ._tags import TagBlock

BlockReading = tuple[list[CallReading], int] | None
"""A block's calls (or rejections) and where its markup ends; None when it holds no call attempt."""
_Kept = tuple[list[CallReading], int, bool] | None  # The readings, their end past the body's start, shareable.


class RepeatedBlocks:
    """The readings of the blocks of one answer, kept per body (see the module's docstring).

    Only for a reader whose reading depends on the block's body, whether it was closed, and
    whether it runs to the end of the text: nothing else of the text around it.
    """

    def __init__(self, text: str, read: Callable[[TagBlock], BlockReading]) -> None:
        self._text = text
        self._read = read
        self._kept: dict[tuple[str, int, bool], _Kept] = {}

    def read(self, block: TagBlock) -> BlockReading:
        """`read(block)`, from the reading of an earlier block with the same body when there is one."""
        text = self._text
        key = (text[block.body_start : block.body_end], block.end - block.body_end, block.body_end == len(text))
        if key in self._kept:
            return _again(self._kept[key], block.body_start)
        found = self._read(block)
        if found is None:
            self._kept[key] = None
        else:
            readings, end = found
            self._kept[key] = (readings, end - block.body_start, all(map(_immutable, readings)))
        return found


def _again(kept: _Kept, body_start: int) -> BlockReading:
    """A kept reading for a block whose body starts at `body_start`: a copy, unless nothing in it can change."""
    if kept is None:
        return None
    readings, end, shareable = kept
    # Calls hold argument dicts a user may change: each block gets its own, as reading it would give.
    return (list(readings) if shareable else copy.deepcopy(readings)), body_start + end


def _immutable(reading: CallReading) -> bool:
    """Whether `reading` can be shared: a rejection whose arguments are text (a body the loader refused)."""
    return type(reading) is RejectedCall and (reading.arguments is None or type(reading.arguments) is str)
