"""The text around tool-call markup: the prose kept as content, and the blank space skipped."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ._types import Parsed

_NOT_SPACE = re.compile(r"\S")


def cut_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    r"""Return `text` without the `(start, end)` spans, as the prose a user should see.

    The pieces between spans are trimmed where they were cut and joined with a newline, so
    "Let me check.\n<tool_call>…</tool_call>\nDone." becomes "Let me check.\nDone.". Spans
    must be sorted and must not overlap.
    """
    pieces: list[str] = []
    position = 0
    for start, end in spans:
        pieces.append(text[position:start])
        position = end
    pieces.append(text[position:])
    return join_pieces(pieces)


def join_pieces(pieces: Iterable[str]) -> str:
    """Join the prose pieces left around markup: each trimmed, blank ones dropped, one per line.

    `cut_spans` joins its pieces so; strategies that split an answer at its tokens, rather
    than cutting spans out of it, join theirs with this too, so every content reads alike.
    """
    return "\n".join(stripped for piece in pieces if (stripped := piece.strip()))


def without_empty_fences(content: str) -> str:
    r"""`content` without the code fences left empty where calls were cut out of them.

    Models wrap their markup in a fence (```` ```json\n<tool_call>…</tool_call>\n``` ````, as
    llama.cpp's Hermes 2 Pro reader allows): once the calls are cut, the fence holds nothing.
    """
    return _EMPTY_FENCE.sub("", content).strip() if "```" in content else content


_EMPTY_FENCE = re.compile(r"(?:^|\n)[ \t]*```[\w+.-]*[ \t]*\n\s*```[ \t]*(?=\n|$)")


def content_around(text: str, found: Sequence[tuple[tuple[int, int], Parsed]], *, keep_examples: bool = False) -> str:
    """The content of an answer in which each span of `found` was read as JSON.

    The prose around the spans comes first, then each reading's own text (an envelope's
    `content`). With `keep_examples`, spans whose calls are all non-explicit (a call quoted in
    prose) stay in the prose: that is the content strict mode shows.
    """
    cut = [(span, p) for span, p in found if not (keep_examples and p.calls and not any(c.explicit for c in p.calls))]
    if not cut:
        return text
    texts = [cut_spans(text, [span for span, _ in cut]), *(p.text for _, p in cut)]
    return "\n".join(t for t in texts if t)


def skip_space(text: str, position: int, end: int | None = None) -> int:
    """Return the offset of the first non-space character at or after `position` (or `end`)."""
    limit = len(text) if end is None else end
    match = _NOT_SPACE.search(text, position, limit)
    return match.start() if match is not None else limit
