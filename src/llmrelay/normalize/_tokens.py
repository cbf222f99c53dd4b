"""Answers split at special tokens: after each opening token, calls; after any other, prose.

Granite's `<|tool_call|>`, Mistral's `[TOOL_CALLS]`, Llama's `<|python_tag|>` and Command R7B's
`<|START_ACTION|>` open calls that end where their JSON (or Python) ends, with no close token
needed; the text after the calls, and after every other token (`</s>`, `<|eom_id|>`), is
content. One C-level `re.split` finds the tokens, and the loop does next to nothing for a token
that opens no call: hostile answers hold hundreds of thousands of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container

from ._budget import MAX_CALLS, too_many_calls
from ._text import join_pieces
from ._types import CallReading, Parsed

ReadAfter = Callable[[str, str, str], tuple[list[CallReading], str] | None]
"""Reads the text after an opening token, given `(token, text, next token or "")`: the calls
written there and the prose after them, or None when the text is prose (the token was mentioned)."""


def read_token_sections(
    text: str,
    tokens: re.Pattern[str],
    openers: Container[str],
    read: ReadAfter,
    *,
    starts: str | None = None,
    hidden: Container[str] = (),
) -> Parsed | None:
    """Read the calls after each opening token; None when no token opens a call.

    Args:
        text: the answer.
        tokens: the format's tokens, as one capturing group, so that `split` keeps them: text,
            token, text, token, …, text.
        openers: the tokens that may open calls.
        read: reads the text after an opener (see `ReadAfter`); never called on empty text.
        starts: when given, the characters a call starts with (`{[` for JSON): text after an
            opener that starts, after blank space, with none of them is prose, found without
            calling `read` (hostile answers mention a token 100k times).
        hidden: the tokens whose text is neither content nor calls (Command R7B's thinking).
    """
    parts = tokens.split(text)
    kept = [parts[0]]  # the text parts that are content
    readings: list[CallReading] = []
    for index in range(1, len(parts), 2):
        token, after = parts[index], parts[index + 1]
        found = None
        if token in openers:
            if after and (starts is None or after.lstrip()[:1] in starts):
                found = read(token, after, parts[index + 2] if index + 2 < len(parts) else "")
        elif token in hidden:
            continue
        if found is None:
            kept.append(after)
            continue
        if len(readings) >= MAX_CALLS:
            readings.append(too_many_calls())
            break
        readings.extend(found[0])
        kept.append(found[1])
    return Parsed.from_readings(readings, text=join_pieces(kept)) if readings else None
