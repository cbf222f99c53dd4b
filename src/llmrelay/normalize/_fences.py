"""Find markdown code fences (```lang … ```) in linear time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

# The info string after the opening backticks: an optional language tag, then the line break.
# A one-line fence (```{"a": 1}```) has no tag and its body starts right away.
FENCE_INFO = re.compile(r"[ \t]*([A-Za-z][\w+.-]*)?[ \t]*\n?")
JSON_LANGUAGES = frozenset({"", "json", "jsonc", "json5", "javascript", "js", "tool_call", "tool_code", "tool_calls"})


class Fence(NamedTuple):
    """One fenced block: where it is, its language tag, and where its body is.

    A named tuple rather than a frozen dataclass: several times cheaper to make, on every
    answer with a fence.
    """

    start: int
    """Offset of the opening backticks."""
    end: int
    """Offset just past the closing backticks (or the end of the text when unclosed)."""
    language: str
    """The info string's first word, lower-cased ("" when none)."""
    body_start: int
    body_end: int
    closed: bool
    """False when the text ended before the closing fence."""

    @property
    def is_json(self) -> bool:
        """Whether the tag allows JSON (no tag, json, js, tool_call…)."""
        return self.language in JSON_LANGUAGES


MAX_FENCES = 1000
"""Fences read per answer at most: a real answer has a handful, a hostile one hundreds of thousands."""


def iter_fences(text: str, limit: int = MAX_FENCES) -> Iterator[Fence]:
    """Yield the first `limit` fenced blocks of `text` in order; the last one may be unclosed.

    Each search starts where the previous block ended, so the scan is linear, and the limit
    bounds the work on a text that is nothing but backticks.
    """
    position = 0
    while limit > 0 and (start := text.find("```", position)) != -1:
        limit -= 1
        info = FENCE_INFO.match(text, start + 3)
        assert info is not None  # The pattern can match the empty string.
        body_start = info.end()
        close = text.find("```", body_start)
        if close == -1:
            yield Fence(start, len(text), (info.group(1) or "").lower(), body_start, len(text), closed=False)
            return
        yield Fence(start, close + 3, (info.group(1) or "").lower(), body_start, close, closed=True)
        position = close + 3
