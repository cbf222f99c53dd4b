"""JSON in a markdown code fence: ```json {…} ``` (ChatGPT and many models when asked for JSON).

The fence may hold any shape `_calls.interpret_json` knows (an envelope, a call, a list of calls).
When the fence is the whole answer, its calls are explicit; a bare call object in a fence amid
prose is only an example as far as strict mode is concerned (an envelope or seed 003's
`"type": "action"` still counts, wherever it is written). Fences in other languages (```python)
are code, never calls.
"""

from __future__ import annotations

from ..._envelope import RejectedCall
from .._calls import interpret_json
from .._fences import Fence, iter_fences
from .._lenient_json import LenientJSONError, TruncatedJSONError, loads_lenient
from .._text import content_around
from .._types import Parsed


class FencedJson:
    """Tool calls written as JSON inside markdown code fences."""

    name = "fenced_json"
    markers = ("```",)

    def detect(self, text: str) -> bool:
        """Cheap check: there is a fence."""
        return "```" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every JSON fence that holds calls; other fences stay in the content."""
        fences = [f for f in iter_fences(text) if f.is_json]
        # The fence is the whole answer when only blank space is around it (`cut_spans` leaves nothing).
        whole = len(fences) == 1 and not text[: fences[0].start].strip() and not text[fences[0].end :].strip()
        readings: list[tuple[Fence, Parsed]] = []
        for fence in fences:
            parsed = _read_fence(text, fence, explicit=whole)
            if parsed is not None:
                readings.append((fence, parsed))
        if not readings:
            return None
        if whole:  # The fence is the answer: its content is the reading's own, in both modes.
            return readings[0][1]
        found = [((f.start, f.end), p) for f, p in readings]
        return Parsed.combine(
            [p for _, p in readings],
            text=content_around(text, found),
            strict_text=content_around(text, found, keep_examples=True),
        )


def _read_fence(text: str, fence: Fence, *, explicit: bool) -> Parsed | None:
    body = text[fence.body_start : fence.body_end].strip()
    if body[:1] not in ("{", "["):
        return None
    try:
        value = loads_lenient(body)
    except TruncatedJSONError as exc:
        if fence.closed or ('"name"' not in body and "toolCalls" not in body and "tool_name" not in body):
            return None
        reason = f"a JSON tool call in a code fence was cut off before its end ({exc})"
        return Parsed(rejected=[RejectedCall(None, body, reason, "truncated")])
    except LenientJSONError:
        return None
    parsed = interpret_json(value, explicit=explicit)
    if parsed is None or not parsed.found_anything:
        return None
    return parsed
