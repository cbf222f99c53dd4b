r"""Unquoted keys written compactly (`{a:1,b:{c:2}}`), quoted by three `str.replace` and read in pieces.

`_KEY` finds a key by a regex match per key, and its split makes two Python strings per key:
on a megabyte of `k1:1,` most of the time. When the text holds no string and each `,` and `{`
is followed by a key and a colon (one fullmatch, no Python object per key), every `,` `{` and
`:` takes a quote, which is what `_KEY` would do there, with str methods.

Read in pieces: the value of a wide object is about 9 times its text in memory (a string and
a dict slot per key), and one `json.loads` of it also holds a dict of every key it has seen
and the whole quoted text, together over 12 times. A top-level object is read a piece of
members at a time, each piece quoted and parsed on its own and merged into the result: the
same keys in the same order, the last value of a repeated key kept, as `json.loads` does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ._scan import possessive

__all__ = ["PIECE", "compact", "quoted", "quoted_and_read"]

PIECE = 1 << 14
"""About how many characters of a wide object are quoted and parsed at once."""

# No string, and every `,` or `{` followed by an identifier (as `_KEY` reads one) and a colon;
# no colon anywhere else.
_COMPACT_KEYS = possessive(r"[^,{:\"]*+(?:[,{][A-Za-z_$][\w$\-]*+:[^,{:\"]*+)*+")


def compact(text: str) -> bool:
    """Whether `text` has no string and a key right after each `,` and `{` (so `quoted_and_read` applies)."""
    return _COMPACT_KEYS.fullmatch(text) is not None


def quoted(text: str) -> str:
    """A `compact` text with its keys quoted, as `'"'.join(_KEY.split(text))` quotes them."""
    return text.replace(",", ',"').replace("{", '{"').replace(":", '":')


def quoted_and_read(text: str) -> Any:
    """The value of a `compact` text, its keys quoted; a wide top-level object is read in pieces.

    Raises:
        ValueError: the quoted text is not JSON.
    """
    if len(text) <= 2 * PIECE or text[0] != "{" or text[-1] != "}":
        return json.loads(quoted(text), strict=False)
    value: dict[str, Any] = {}
    for piece in _pieces(text):
        value.update(json.loads(quoted(piece), strict=False))
    return value


def _pieces(text: str) -> Iterator[str]:
    """The object `text` as objects of a few members each, cut at its own commas.

    Parsed one by one and merged, they give the value of the whole, as each is a non-empty
    list of the members in order (`compact` puts a key after each comma). Where the next cut
    would fall inside a nested value, the rest is one piece.
    """
    start, depth = 0, 0
    while (cut := text.find(",", start + PIECE)) >= 0:
        depth += sum(text.count(opener, start, cut) for opener in "{[")
        depth -= sum(text.count(closer, start, cut) for closer in "}]")
        if depth != 1:
            break
        yield ("{" if start else "") + text[start:cut] + "}"
        start = cut + 1
    yield ("{" if start else "") + text[start:]
