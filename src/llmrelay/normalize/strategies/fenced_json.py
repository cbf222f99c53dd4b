"""JSON in a markdown code fence: ```json {…} ``` (ChatGPT and many models when asked for JSON).

The fence may hold any shape `_calls.interpret_json` knows (an envelope, a call, a list of calls).
When the fence is the whole answer, its calls are explicit; a bare call object in a fence amid
prose is only an example as far as strict mode is concerned (an envelope or seed 003's
`"type": "action"` still counts, wherever it is written). Fences in other languages (```python)
are code, never calls.

RWKV's tool template announces each call with a marker line (vLLM's `rwkv_tool_parser.py`)::

    **Tool Call:**
    ```json
    {"name": "get_weather", "arguments": {"city": "Paris"}}
    ```

A fence right after that marker is an explicit call wherever it is, and the marker is markup.
"""

from __future__ import annotations

from ..._envelope import RejectedCall
from .._calls import interpret_json
from .._fences import Fence, iter_fences
from .._lenient_json import LenientJSONError, TruncatedJSONError, loads_lenient
from .._tags import opened_before
from .._text import content_around
from .._types import Parsed

TOOL_CALL_MARKER = "**Tool Call:**"
"""RWKV's line before a fenced JSON call."""


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
        spans = [(opened_before(text, f.start, TOOL_CALL_MARKER), f.end) for f in fences]
        # The fence is the whole answer when only blank space is around it (`cut_spans` would leave nothing).
        whole = len(spans) == 1 and not text[: spans[0][0]].strip() and not text[spans[0][1] :].strip()
        found: list[tuple[tuple[int, int], Parsed]] = []
        for fence, span in zip(fences, spans, strict=True):
            parsed = _read_fence(text, fence, explicit=whole or span[0] != fence.start)
            if parsed is not None:
                found.append((span, parsed))
        if not found:
            return None
        if whole:  # The fence is the answer: its content is the reading's own, in both modes.
            return found[0][1]
        return Parsed.combine(
            [p for _, p in found],
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
