"""One broken call never hides the valid calls beside it: the items of a JSON array, read one by one.

A list of calls is one JSON array (`[TOOL_CALLS][…]`, `<tool_call>[…]</tool_call>`, …). When one
item is unreadable, the array as a whole is too; `array_items` splits it at its top-level commas
(brackets and strings respected, in one linear scan) so each item can be read, or rejected, on
its own. Only for an array read to its closing bracket: one that stops early is cut off, and
stays one `truncated` rejection.
"""

from __future__ import annotations

_QUOTES = "\"'"
_OPEN, _CLOSE = "[{", "]}"


def array_items(body: str) -> list[str] | None:
    """The top-level items of the JSON array `body` is, as text; None unless it has two or more."""
    text = body.strip()
    if not text.startswith("[") or not text.endswith("]"):
        return None
    items: list[str] = []
    depth, start, position, quote = 0, 1, 0, ""
    while position < len(text):
        char = text[position]
        if quote:
            if char == "\\":
                position += 1  # The escaped character is part of the string.
            elif char == quote:
                quote = ""
        elif char in _QUOTES:
            quote = char
        elif char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
            if depth == 0:
                if position != len(text) - 1:
                    return None  # Text after the array's close: not one array.
                items.append(text[start:position])
        elif char == "," and depth == 1:
            items.append(text[start:position])
            start = position + 1
        position += 1
    items = [item.strip() for item in items if item.strip()]
    return items if len(items) > 1 else None
