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
from typing import TYPE_CHECKING, Any

from .._envelope import Completion, ToolCall, new_completion, new_tool_call
from ._calls import read_bool
from ._types import Parsed

if TYPE_CHECKING:
    from .strategies.json_document import JsonDocument

SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_JSON_SPACE = " \t\n\r"  # What JSON allows around a value; `str.strip()` would take more.
_KEYS = frozenset({"toolCalls", "content", "needsMoreWork"})


def read_envelope(text: str, first: JsonDocument, cap: int) -> tuple[Completion, int] | Parsed | None:
    """A JSON object answer, read as `JsonDocument` (asked first) reads it, decoded once.

    Returns the `Completion` of a clean envelope and how many calls past `cap` it dropped;
    for any other JSON object, `first`'s reading of it (the general path goes on from there);
    None when the text is not one strict JSON object, or `first` failed on it (the general
    path reads it again, and says so).

    Clean: `toolCalls` (a list) and no keys but `content` and `needsMoreWork` beside it, each
    call `{"name", "arguments"}` with an optional string `id`. The text must start with `{`.
    Only for `parse_response` without tools and outside strict mode: then the envelope's
    calls are all accepted, as `read_capped` accepts them.
    """
    try:
        value, end = SCAN(text, 0)  # `loads_strict` for a text that starts with `{`, one call less.
    except (StopIteration, ValueError, RecursionError):
        return None
    if end != len(text) and text[end:].strip(_JSON_SPACE):
        return None
    clean = clean_completion(value, text, first.name, cap, [])
    if clean is not None:
        return clean
    try:
        return first.read_value(value, text)
    except Exception:  # Left to the general path, which asks it again and keeps the warning.
        return None


def clean_completion(
    value: object, raw: str, strategy: str, cap: int, warnings: list[str]
) -> tuple[Completion, int] | None:
    """The `Completion` of a clean envelope `value` (see `read_envelope`) and the calls past `cap`, else None."""
    if type(value) is not dict or not _KEYS.issuperset(value) or type(items := value.get("toolCalls")) is not list:
        return None
    calls = _clean_calls(items, cap)
    if calls is None:
        return None
    # What `read_capped` makes of `_calls._interpret_envelope`'s reading:
    content = value.get("content")
    if type(content) is not str:
        content = ""
    more = value.get("needsMoreWork")
    # A JSON boolean is what `read_bool` returns as is: no call for the usual flag.
    stated = more if type(more) is bool else read_bool(more) if "needsMoreWork" in value else None
    needs_more_work = True if stated is None and calls else stated
    dropped = len(items) - cap if len(items) > cap else 0
    return new_completion(content, calls, needs_more_work, [], raw, strategy, None, warnings), dropped


def _clean_calls(items: list[Any], cap: int) -> list[ToolCall] | None:
    """The first `cap` items as `ToolCall`s, when every item is a canonical call (see `_interpret_envelope`)."""
    calls: list[ToolCall] = []
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
        if len(calls) < cap:  # Past the cap a call is only counted, as `within_cap` counts it.
            calls.append(new_tool_call(name, arguments, call_id))
    return calls
