"""Seed 001's `TOOL_CALL` contract: a marker line, then one JSON call (optionally fenced).

```
I'll search for that information.

TOOL_CALL
{"tool_name": "search", "parameters": {"query": "Python tutorials"}}
```

Field-name variants (`tool_name`/`tool`/`name`, `parameters`/`params`/`arguments`) are read by
`_calls.read_call`; a missing or null `parameters` means `{}`. The marker makes the intent
explicit, so a marker followed by JSON that is not a readable call is reported as malformed
rather than ignored.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall
from .._calls import decode_json, interpret_json, read_call
from .._scan import find_balanced_end
from .._text import cut_spans
from .._types import CallReading, Parsed

# After the marker: an optional colon, blank space, and an optional opening fence with a tag.
_LEAD = re.compile(r":?[ \t]*\n?\s*(?:```[ \t]*[A-Za-z]*[ \t]*\n?\s*)?")
_CLOSING_FENCE = re.compile(r"\s*```")


class ToolCallMarker:
    """`TOOL_CALL` followed by a JSON call; the marker is configurable."""

    name = "tool_call_marker"

    def __init__(self, marker: str = "TOOL_CALL") -> None:
        self.marker = marker
        marker_re = re.escape(marker)
        # The marker first, its look-behind after it: a pattern that starts with a literal is found by a
        # C-level substring search; one that starts with a look-behind is tried at every offset (5x slower).
        self._marker = re.compile(rf"{marker_re}(?<![\w]{marker_re})(?![\w])")

    @property
    def markers(self) -> tuple[str, ...]:
        """What `detect` looks for (see `Strategy`): the marker."""
        return (self.marker,)

    def detect(self, text: str) -> bool:
        """Cheap check: the marker occurs."""
        return self.marker in text

    def parse(self, text: str) -> Parsed | None:
        """Read the JSON after each marker; None when no marker is followed by JSON."""
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        for match in self._marker.finditer(text):
            if spans and match.start() < spans[-1][1]:
                continue  # The marker text sits inside the previous call's JSON.
            lead = _LEAD.match(text, match.end())
            json_start = lead.end() if lead else match.end()
            if text[json_start : json_start + 1] not in ("{", "["):
                continue
            end = find_balanced_end(text, json_start)
            body = text[json_start : end if end is not None else len(text)]
            readings.extend(_read_body(body, self.marker))
            span_end = end if end is not None else len(text)
            opened_fence = "```" in text[match.end() : json_start]
            if opened_fence and (fence := _CLOSING_FENCE.match(text, span_end)):
                span_end = fence.end()
            spans.append((match.start(), span_end))
        if not spans:
            return None
        return Parsed.from_readings(readings, text=cut_spans(text, spans))


def _read_body(body: str, marker: str) -> list[CallReading]:
    """One call, or any shape `interpret_json` knows (an envelope, a list of calls), after the marker."""
    value = decode_json(body, f"after {marker}")
    if isinstance(value, RejectedCall):
        return [value]
    reading = read_call(value, explicit=True)
    if reading is not None:
        return [reading]
    parsed = interpret_json(value, explicit=True)
    if parsed is not None and (parsed.calls or parsed.rejected):
        return [*parsed.calls, *parsed.rejected]
    return [RejectedCall(None, value, f"the JSON after {marker} is not a tool call (no tool name)", "malformed")]
