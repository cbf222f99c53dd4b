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
from .._fences import FENCE_INFO, JSON_LANGUAGES, Fence, iter_fences
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

    def whole_body(self, text: str) -> str | None:
        """The body of the one closed JSON fence that is all of `text` (blank space around), else None.

        `parse` reads such a fence as `read_whole` reads its decoded body: the fence is the answer.
        """
        start = text.find("```")
        close = text.rfind("```")
        if start == -1 or close == start or text[:start].strip() or text[close + 3 :].strip():
            return None
        info = FENCE_INFO.match(text, start + 3)
        assert info is not None  # The pattern can match the empty string.
        # The fence closes at its body's first ``` (see `iter_fences`): the last one, when no
        # backtick comes between (one `memchr`, where looking for ``` scans at a third the speed).
        if (info.group(1) or "").lower() not in JSON_LANGUAGES or close < info.end():
            return None
        if text.find("`", info.end(), close) != -1 and text.find("```", info.end()) != close:
            return None
        return text[info.end() : close].strip()

    def read_whole(self, value: object) -> Parsed | None:
        """The reading of a whole-answer fence whose body decodes to `value` (see `whole_body`)."""
        return _calls_in(value, explicit=True)

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
    return _calls_in(value, explicit=explicit)


def _calls_in(value: object, *, explicit: bool) -> Parsed | None:
    parsed = interpret_json(value, explicit=explicit)
    if parsed is None or not parsed.found_anything:
        return None
    return parsed
