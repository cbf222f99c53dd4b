"""Answers split at special tokens: after each opening token, calls; after any other, prose.

Granite's `<|tool_call|>`, Mistral's `[TOOL_CALLS]`, Llama's `<|python_tag|>` and Command R7B's
`<|START_ACTION|>` open calls that end where their JSON (or Python) ends, with no close token
needed; the text after the calls, and after every other token (`</s>`, `<|eom_id|>`), is
content. C-level `re.split`s find the tokens (`split_windowed`), and the loop does next to
nothing for a token that opens no call: hostile answers hold hundreds of thousands of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterator
from itertools import chain, pairwise

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
    before, pairs = split_windowed(text, tokens)
    kept = [before]  # the text parts that are content
    readings: list[CallReading] = []
    for (token, after), (following, _) in pairwise(chain(pairs, [("", "")])):
        found = None
        if token in openers:
            if after and (starts is None or after.lstrip()[:1] in starts):
                found = read(token, after, following)
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


_WINDOW = 1 << 16
"""Characters split at once by `split_windowed`."""


def split_windowed(text: str, tokens: re.Pattern[str]) -> tuple[str, Iterator[tuple[str, str]]]:
    """`tokens.split(text)` as the text before the first token and `(token, text after it)` pairs.

    The text is split a window of about `_WINDOW` characters at a time, each window cut where a
    token begins: a split of the whole text would hold two small strings per token at once, 7x
    to 10x the input when the tokens are back to back (hostile answers hold 200k of them).

    Args:
        text: the answer.
        tokens: the tokens, as one capturing group (as `read_token_sections` takes them), none of
            which can begin inside another (special tokens): a window found from any position
            then starts where the whole split has a token.
    """
    first = tokens.search(text)
    start = first.start() if first else len(text)
    windows = (tokens.split(window) for window in _windows(text, tokens, start))
    # Each window starts with a token: its split is "", token, text, token, …, text.
    return text[:start], chain.from_iterable(zip(parts[1::2], parts[2::2], strict=True) for parts in windows)


def _windows(text: str, tokens: re.Pattern[str], start: int) -> Iterator[str]:
    """The text from `start` (where a token begins), in pieces of about `_WINDOW` characters, each starting with one."""
    while start < len(text):
        cut = tokens.search(text, start + _WINDOW)
        end = cut.start() if cut else len(text)
        yield text[start:end]
        start = end
