"""One broken call never hides the valid calls beside it: the items of a JSON array, read one by one.

A list of calls is one JSON array (`[TOOL_CALLS][…]`, `<tool_call>[…]</tool_call>`, …). When one
item is unreadable, the array as a whole is too; `array_items` splits it at its top-level commas
(brackets and strings respected) so each item can be read, or rejected, on its own. Only for an
array read to its closing bracket: one that stops early is cut off, and stays one `truncated`
rejection. The scan jumps from one bracket, comma or string to the next (a C-level regex), and
stops after `MAX_CALLS` items: the rest of such an answer is reported as not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._budget import MAX_CALLS, too_many_calls
from ._types import CallReading

# A string literal (to its closing quote, or the end) or one structural character; what lies
# between them is skipped by the regex engine itself.
_TOKEN = re.compile(r""""(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[\[\]{},]""", re.DOTALL)


def array_items(body: str, limit: int = MAX_CALLS) -> list[str] | None:
    """The top-level items of the JSON array `body` is, as text; None unless it has two or more.

    At most `limit + 1` items: past `limit`, the scan stops (see `read_items`).
    """
    text = body.strip()
    if not text.startswith("[") or not text.endswith("]"):
        return None
    items: list[str] = []
    depth, start = 0, 1
    for token in _TOKEN.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 0:
                if token.end() != len(text):
                    return None  # Text after the array's close: not one array.
                items.append(text[start : token.start()])
        elif char == "," and depth == 1:
            items.append(text[start : token.start()])
            start = token.end()
            if len(items) > limit:
                break
    items = [item.strip() for item in items if item.strip()]
    return items if len(items) > 1 else None


def read_items(items: list[str], read: Callable[[str], list[CallReading]]) -> list[CallReading]:
    """Each item read with `read`, in order: at most `MAX_CALLS`, then a rejection for the rest."""
    readings = [reading for item in items[:MAX_CALLS] for reading in read(item)]
    return [*readings, too_many_calls()] if len(items) > MAX_CALLS else readings
