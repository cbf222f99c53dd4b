"""Phi-4-mini's `functools[…]`: a JSON array of calls after the word `functools`.

Shape learned from vLLM's `phi4mini_tool_parser.py` and its `tool_chat_template_phi4_mini.jinja`
("prefix function calls with functools marker (no closing marker required)")::

    functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]

The array ends where its brackets balance (vLLM's non-greedy regex stops at the first `]`, even
one inside the arguments); prose before and after it is content. `functools` followed by
anything but `[{` (`functools.partial`, `functools[]`) is not a call.
"""

from __future__ import annotations

import re

from .._budget import MAX_CALLS, too_many_calls
from .._calls import read_json_calls
from .._scan import find_balanced_end
from .._text import cut_spans
from .._types import CallReading, Parsed

# `functools` as a word of its own, right before its array.
_MARKER = re.compile(r"(?<![\w.])functools[ \t]*(?=\[)")
_CALL_START = re.compile(r"\[\s*\{")


class Phi4Functools:
    """Phi-4-mini's `functools[{…}, …]` call list."""

    name = "phi4"
    markers = ("[",)  # Cheaper to look for than "functools" (one `memchr`), and `detect` needs both.

    def detect(self, text: str) -> bool:
        """Cheap check: `functools[` occurs."""
        return "[" in text and "functools" in text  # The one character first: `memchr` answers it.

    def parse(self, text: str) -> Parsed | None:
        """Read each `functools[…]` list; None when none of them holds a call object."""
        markers = list(_MARKER.finditer(text))
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        for index, marker in enumerate(markers):
            if not _CALL_START.match(text, marker.end()):
                continue
            if len(readings) >= MAX_CALLS:
                readings.append(too_many_calls())
                spans.append((marker.start(), len(text)))
                break
            # The array cannot run past the next marker: that bound keeps the scan linear.
            limit = markers[index + 1].start() if index + 1 < len(markers) else len(text)
            segment = text[marker.end() : limit]
            end = find_balanced_end(segment, 0) or len(segment)
            readings.extend(read_json_calls(segment[:end], "after functools"))
            spans.append((marker.start(), marker.end() + end))
        if not readings:
            return None
        return Parsed.from_readings(readings, text=cut_spans(text, spans))
