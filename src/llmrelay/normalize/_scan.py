"""Placeholder until the linear-time scanner lands (same API)."""

from __future__ import annotations

from collections.abc import Iterator


def find_balanced_end(text: str, start: int) -> int | None:
    """Return the offset just past the closer matching the opener at `start`, or None."""
    depth = 0
    in_string = False
    escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def iter_json_spans(text: str, start: int = 0, *, max_candidates: int = 1000) -> Iterator[tuple[int, int]]:
    """Yield balanced top-level regions."""
    position = start
    while max_candidates > 0:
        opener = min((i for i in (text.find("{", position), text.find("[", position)) if i != -1), default=-1)
        if opener == -1:
            return
        end = find_balanced_end(text, opener)
        if end is None:
            position = opener + 1
            continue
        max_candidates -= 1
        yield opener, end
        position = end
