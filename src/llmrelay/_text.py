r"""One rule for text that cannot be encoded: lone surrogates become U+FFFD, with a warning.

A JSON answer may hold `"\\ud800"`, a lone UTF-16 surrogate that Python decodes into a `str` but
that no UTF-8 encoder accepts: kept, it makes the next request (which sends the answer back) fail
with a bare `UnicodeEncodeError`, after the tools have run. So where text enters llmrelay (a
provider's answer, streamed or not, and the messages users pass) each lone surrogate is replaced
by U+FFFD, the replacement character, as `bytes.decode(errors="replace")` does for invalid UTF-8
bytes, and a `UnicodeWarning` says so. Invalid UTF-8 in an answer's body gets the same treatment
(`decode_body`), whether it is read whole or streamed.
"""

from __future__ import annotations

import codecs
import re
import warnings
from collections.abc import Mapping
from typing import Any, TypeVar

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")
_T = TypeVar("_T")


def clean(value: _T, where: str) -> _T:
    """`value` (text, or JSON-like data holding text) with lone surrogates replaced; warns when any were."""
    cleaned, count = _clean(value)
    if count:
        warnings.warn(
            f"{where}: {count} lone surrogate(s) (text no encoder accepts) replaced with U+FFFD",
            UnicodeWarning,
            stacklevel=3,
        )
    return cleaned  # type: ignore[no-any-return]


def clean_json(value: _T, source: str, where: str) -> _T:
    r"""`clean` for `value` decoded from the JSON text `source`, walked only when `source` may hold one.

    A lone surrogate in decoded JSON comes from a `\uD800`-`\uDFFF` escape, or from the text
    itself: one search of the text says whether to walk the data (a stream event's, each one).
    """
    return clean(value, where) if _SURROGATE_OR_ESCAPE.search(source) else value


_SURROGATE_OR_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")


def _clean(value: Any) -> tuple[Any, int]:
    if isinstance(value, str):
        return _SURROGATE.subn(REPLACEMENT, value) if _SURROGATE.search(value) else (value, 0)
    if isinstance(value, Mapping):
        items = [(_clean(key), _clean(item)) for key, item in value.items()]
        if not any(k[1] or v[1] for k, v in items):
            return value, 0
        return {k[0]: v[0] for k, v in items}, sum(k[1] + v[1] for k, v in items)
    if isinstance(value, (list, tuple)):
        cleaned = [_clean(item) for item in value]
        if not any(count for _, count in cleaned):
            return value, 0
        return type(value)(item for item, _ in cleaned), sum(count for _, count in cleaned)
    return value, 0


_WARN_AND_REPLACE = "llmrelay.replace"


def _warn_and_replace(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):  # pragma: no cover - registered for decoding only
        raise error
    warnings.warn("a streamed answer: invalid UTF-8 replaced with U+FFFD", UnicodeWarning, stacklevel=2)
    return REPLACEMENT, error.end


codecs.register_error(_WARN_AND_REPLACE, _warn_and_replace)


def stream_decoder() -> codecs.IncrementalDecoder:
    """A UTF-8 decoder for a body read piece by piece: invalid bytes become U+FFFD, with a warning."""
    return codecs.getincrementaldecoder("utf-8")(errors=_WARN_AND_REPLACE)


def decode_body(content: bytes, where: str) -> str:
    """An answer's bytes as text: invalid UTF-8 replaced by U+FFFD (with a warning), as a stream's decoder does."""
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        warnings.warn(f"{where}: invalid UTF-8 replaced with U+FFFD", UnicodeWarning, stacklevel=2)
        return content.decode("utf-8", errors="replace")
