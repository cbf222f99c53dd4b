"""The clean JSON envelope read straight into a `Completion`: the answer json_schema mode gives.

`{"toolCalls": [{"name": ..., "arguments": {...}}], "content": "...", "needsMoreWork": true}`
is the most common answer of all, and the first strategy (`JsonDocument`) reads it. Through the
general path it becomes a `Candidate` per call and a `Parsed`, then a `ToolCall` per call and a
`Completion`, across a dozen function calls: on a short envelope more than `json.loads` itself.
Here the same envelope, in the narrow shape below, goes from the decoded JSON to the
`Completion` directly. Anything else returns None and takes the general path, so the result is
the one `JsonDocument` and `read_capped` give (tests/normalize/test_dispatch.py checks it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .._envelope import Completion, ToolCall, new_completion, new_tool_call
from ._calls import read_bool

_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_JSON_SPACE = " \t\n\r"  # What JSON allows around a value; `str.strip()` would take more.
_KEYS = frozenset({"toolCalls", "content", "needsMoreWork"})


def read_clean_envelope(text: str, max_calls: int, name: str) -> Completion | None:
    """The `Completion` of a clean envelope with at most `max_calls` calls; None for anything else.

    Clean: one strict JSON object with `toolCalls` (a list) and no keys but `content` and
    `needsMoreWork` beside it, each call `{"name", "arguments"}` with an optional string `id`.
    The text must start with `{`. Only for `parse_response` without tools and outside strict
    mode, and only when the first strategy is the built-in `JsonDocument`, named `name`: then
    its reading is the answer's.
    """
    try:
        value, end = _SCAN(text, 0)  # `loads_strict` for a text that starts with `{`, one call less.
    except (StopIteration, ValueError, RecursionError):
        return None
    if end != len(text) and text[end:].strip(_JSON_SPACE):
        return None
    if type(value) is not dict or not _KEYS.issuperset(value) or type(items := value.get("toolCalls")) is not list:
        return None
    if len(items) > max_calls:
        return None
    calls = _clean_calls(items)
    if calls is None:
        return None
    content = value.get("content")
    if type(content) is not str:
        content = ""
    more = value.get("needsMoreWork")
    # A JSON boolean is what `read_bool` returns as is: no call for the usual flag.
    stated = more if type(more) is bool else read_bool(more) if "needsMoreWork" in value else None
    needs_more_work = True if stated is None and calls else stated
    return new_completion(content, calls, needs_more_work, [], text, name, None, [])


def _clean_calls(items: list[Any]) -> list[ToolCall] | None:
    """Each item as a `ToolCall`, as `_calls._interpret_envelope` reads a canonical call; None if one is not."""
    calls = []
    for item in items:  # The checks of `_interpret_envelope`'s inline reading, in its order.
        if type(item) is not dict or not 2 <= len(item) <= 3:
            return None
        name, arguments = item.get("name"), item.get("arguments")
        if type(arguments) is not dict or type(name) is not str or not name.isidentifier() or len(name) > 128:
            return None
        call_id = None
        if len(item) == 3:
            call_id = item.get("id")
            if type(call_id) is not str or not call_id:
                return None
        calls.append(new_tool_call(name, arguments, call_id))
    return calls
