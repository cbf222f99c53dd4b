"""Remove tool-call markup from text, keeping the prose around it."""

from __future__ import annotations

from collections.abc import Iterable


def cut_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Return `text` without the `(start, end)` spans, as the prose a user should see.

    The pieces between spans are trimmed where they were cut and joined with a newline, so
    "Let me check.\\n<tool_call>…</tool_call>\\nDone." becomes "Let me check.\\nDone.". Spans
    must be sorted and must not overlap.
    """
    pieces: list[str] = []
    position = 0
    for start, end in spans:
        pieces.append(text[position:start])
        position = end
    pieces.append(text[position:])
    return "\n".join(stripped for piece in pieces if (stripped := piece.strip()))
