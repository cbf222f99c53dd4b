r"""Read JSON the way models write it: `loads_lenient`.

Valid JSON takes the fast path, one `json.loads`, and gives exactly what `json.loads` gives.
Anything else is rewritten into strict JSON and parsed again. What is repaired:

    {'name': 'f', 'arguments': {'q': 'it\'s "x"'}}   single-quoted strings (a Python dict repr)
    {'text': 'don't stop'}                            an apostrophe inside one (see `_AFTER`)
    {"a": [1, 2,],}                                   trailing commas
    {"ok": True, "v": None}                           Python literals
    {name: "f", $ref: "x"}                            unquoted identifier keys
    {"code": "line 1<newline>line 2<tab>"}            raw newlines, tabs, control characters in strings
    {"a": 1 // note}   {"a": /* x */ 1}   # note      comments (`#` and `//` outside strings only)
    {“name”: “f”}   {‘name’: ‘f’}                     smart quotes used as delimiters
    {"path": "C:\Users"}   {"s": "don\'t"}           escapes JSON lacks, kept as written
    {"name": "f", "arguments": {"a": 1}               one missing closer at the very end
    <BOM, no-break spaces between tokens>             non-JSON whitespace

What is refused (`LenientJSONError`, with the position): prose or code, junk before or after
the value, missing commas or colons, mismatched closers, unquoted string values, and an
unescaped `"` inside a double-quoted string (`["a" "b"]` would be read as one string: guessing
there changes values silently). JSON that stops early (two or more closers missing, or the text
ending inside a string) raises `TruncatedJSONError`: the caller reports a cut-off call rather
than guessing its end. The mistakes are the ones seed 001 lists (single quotes, raw newlines)
plus those the json-repair package and vLLM's `partial_json_parser` exist for.

Text whose strings all use one kind of quote (a Python dict's repr, smart quotes) and has no
backslash or comment is read the quick way, `_lenient_quick`: quotes swapped and repairs made
on the whole text, one `json.loads`, no object per token. Everything else the general way:

How, and why this way: a Python loop over tokens costs about 1 µs a token, too slow for a
megabyte of single-quoted JSON. So each step is a C-level pass over the whole text: one
`re.split` cuts out the strings and comments (`_TOKEN`); what is left, the skeleton, is repaired
with literal `re.sub`s; the strings are re-quoted in one list comprehension; and `json.loads`
parses the result. Where the fast path failed also says early whether any repair can help.
No regex here backtracks more than linearly, and an unclosed string is one token running to
the end of the text, so no match is retried from each later quote.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from . import _lenient_quick
from ._lenient_patterns import (
    _CLOSER_OF,
    _COMMENT_MARK,
    _KEY,
    _MARK,
    _PY_LITERALS,
    _QUOTES,
    _TOKEN,
    _TRAILING_COMMA,
    _double_bad_escapes,
    _odd_space,
)

__all__ = ["LenientJSONError", "TruncatedJSONError", "loads_lenient", "loads_strict"]


class LenientJSONError(ValueError):
    """The text could not be read as JSON, even leniently."""

    def __init__(self, message: str, pos: int | None = None) -> None:
        super().__init__(message)
        self.pos = pos
        """Where in the input the problem was found, when known."""


class TruncatedJSONError(LenientJSONError):
    """The text is JSON that stops before its end (more than one closer missing, or mid-string)."""


# Escapes JSON lacks keep their backslash as a character; `\'` is an apostrophe.
_RAW_QUOTE = re.compile(r'(?<!\\)"')
# For `_requote_all`: the tokens joined by _SEP (each starts right after one and ends right
# before one), the tokens needing more than new delimiters, and the comments.
_SEP = "\x00"
_FEW_TOKENS = 16
_NEEDS_WORK = re.compile(r'\x00(?:"[^\x00\\]*\\|[\'“”„‘’‚][^\x00"\\]*["\\])[^\x00]*')
_COMMENT_TOKEN = re.compile(r"\x00[/#][^\x00]*")
_SLOW_ESCAPE = re.compile(r'\\(u[0-9a-fA-F]{4}|.)|"', re.DOTALL)
_CLOSERS = ("}", "]")
_OPENERS = ("{", "[")  # What a JSON document usually starts with.
# What the text may end inside of, when it stops in the middle of a value.
_LITERALS = ("true", "false", "null", "True", "False", "None", "NaN", "Infinity", "-Infinity")
_NUMBER_CHARS = frozenset("0123456789+-.eE")
_PARTIAL_NUMBER = re.compile(r"-|-?[0-9]+(?:\.|\.[0-9]+)?(?:[eE][+\-]?)?(?<=[.eE+\-])")

# For each error `json.loads` reports, what the lenient reader may find at that position and
# repair. Anything else there cannot be repaired: the text before it is strict JSON, read the
# same way by both, so the lenient reader would stop at the same place.
_SKIPPABLE = "/#\ufeff"
_REPAIRABLE_AT = {
    "Expecting value": _SKIPPABLE + "]}TFN" + _QUOTES,
    "Expecting property name enclosed in double quotes": _SKIPPABLE + "}$_" + _QUOTES,
    "Expecting ',' delimiter": _SKIPPABLE,
    "Expecting ':' delimiter": _SKIPPABLE,
    "Extra data": _SKIPPABLE,
}


# The C scanner behind `json.loads`, called directly: same grammar and values, without the two
# Python wrapper layers, which cost more than the scan itself on a typical short envelope.
_scan_once: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_WHITESPACE = re.compile(r"[ \t\n\r]*")


def loads_strict(text: str) -> Any:
    """`json.loads(text)`, faster on short input; raises `json.JSONDecodeError` (or RecursionError) likewise."""
    start = 0 if text[:1] in _OPENERS else _skip_whitespace(text, 0)
    try:
        value, end = _scan_once(text, start)
    except StopIteration as exc:
        raise json.JSONDecodeError("Expecting value", text, exc.value) from None
    if end != len(text):
        end = _skip_whitespace(text, end)
        if end != len(text):
            raise json.JSONDecodeError("Extra data", text, end)
    return value


def _skip_whitespace(text: str, position: int) -> int:
    match = _WHITESPACE.match(text, position)
    return match.end() if match else position


def loads_lenient(text: str) -> Any:
    """Parse JSON as models write it; raise `LenientJSONError` when it cannot be read.

    Raises:
        TruncatedJSONError: the JSON stops before its end.
        LenientJSONError: anything else that is not JSON, even leniently.
    """
    try:
        return loads_strict(text)
    except json.JSONDecodeError as exc:
        _refuse_early(exc, text)
    except RecursionError:
        raise LenientJSONError("nested too deeply") from None
    except ValueError as exc:  # e.g. an integer over the int-to-str digit limit
        raise LenientJSONError(str(exc)) from None
    try:
        value = _lenient_quick.one_quote_kind(text)
    except RecursionError:
        raise LenientJSONError("nested too deeply") from None
    if value is not _lenient_quick.NOT_THIS_WAY:
        return value
    if _lenient_quick.too_deep(text):
        raise LenientJSONError("nested too deeply")
    parts = _TOKEN.split(text)
    _check_end(parts, text)
    pieces = parts[:]
    pieces[1::2] = _requote_all(parts[1::2])
    pieces[0::2] = _skeleton(parts, text).split(_MARK)
    return _parse(pieces, parts, text)


def _refuse_early(exc: json.JSONDecodeError, text: str) -> None:
    """Raise now if no repair can get past the place where strict JSON failed."""
    if exc.pos >= len(text.rstrip(" \t\n\r")):
        return
    repairable = _REPAIRABLE_AT.get(exc.msg)
    char = text[exc.pos]
    if repairable is None or char in repairable or char.isspace():
        return
    if exc.msg.startswith("Expecting property") and (char.isalpha() or char == "_"):
        return  # an unquoted key
    raise _decode_error(exc.msg, exc.pos, text)


def _check_end(parts: list[str], text: str) -> None:
    """Refuse a text ending inside a string or comment: only the last token can be unclosed."""
    if len(parts) < 3 or parts[-1] or _is_closed(parts[-2]):
        return
    last = parts[-2]
    start = len(text) - len(last)
    if last[0] == "/":
        raise _error("unclosed comment", text, start)
    before = parts[-3].rstrip()
    in_place = not before or before[-1] in "[{,:"
    unescaped = re.sub(r"\\.", "", last[1:], flags=re.DOTALL)
    if in_place and (last[0] == '"' or not any(q in unescaped for q in _QUOTES)):
        raise _error("ends inside a string", text, start, TruncatedJSONError)
    raise _error("unterminated string", text, start)


def _is_closed(token: str) -> bool:
    """Whether a token that runs to the end of the text has its closer (not escaped)."""
    first = token[0]
    if first in "/#":
        return first == "#" or token[1] == "/" or (len(token) >= 4 and token.endswith("*/"))
    if len(token) < 2 or token[-1] not in _CLOSER_OF[first]:
        return False
    body = token[1:-1]
    return (len(body) - len(body.rstrip("\\"))) % 2 == 0


def _requote_all(tokens: list[str]) -> list[str]:
    """Every token as strict JSON, in C-level passes over the tokens joined by a separator."""
    if len(tokens) <= _FEW_TOKENS:  # Passes over the whole text would cost more than they save.
        return [_requote(t) for t in tokens]
    joined = _SEP + _SEP.join(tokens) + _SEP
    if joined.count(_SEP) != len(tokens) + 1:  # a string holds the separator: one by one
        return [_requote(t) for t in tokens]
    joined = _NEEDS_WORK.sub(lambda m: _SEP + _requote(m.group()[1:]), joined)
    if "/" in joined or "#" in joined:
        joined = _COMMENT_TOKEN.sub(_SEP + " ", joined)  # not "": `1/**/2` must not become `12`
    for quote in _QUOTES[1:] if not joined.isascii() else "'":
        joined = joined.replace(_SEP + quote, _SEP + '"').replace(quote + _SEP, '"' + _SEP)
    return joined[1:-1].split(_SEP)


def _requote(token: str) -> str:
    """A string token as strict JSON (raw control characters are left to strict=False)."""
    first = token[0]
    if first == '"':
        return _fix_escapes(token) if "\\" in token else token
    if first in "/#":
        return " "  # not "": `1/**/2` must not become `12`
    body = token[1:-1]
    if "\\" in body:
        return _fix_escapes('"' + body + '"', bare_quotes=True)
    return '"' + body.replace('"', '\\"') + '"' if '"' in body else '"' + body + '"'


def _fix_escapes(quoted: str, *, bare_quotes: bool = False) -> str:
    r"""Keep the backslash of escapes JSON lacks; `\'` is an apostrophe; escape bare quotes."""
    body = quoted[1:-1]
    shield = next((c for c in "\x01\x02\x03\x04\x05\x06\x07\x08" if c not in body), None)
    if shield is None:  # every shield character occurs: the exact, slower way
        return '"' + _SLOW_ESCAPE.sub(_slow_escape, body) + '"'
    body = _double_bad_escapes(body.replace("\\\\", shield).replace("\\'", "'"))
    if bare_quotes:
        body = _RAW_QUOTE.sub(r'\\"', body)
    return '"' + body.replace(shield, "\\\\") + '"'


def _slow_escape(match: re.Match[str]) -> str:
    escaped = match.group(1)
    if escaped is None:
        return '\\"'
    if escaped[0] in '"\\/bfnrt' or len(escaped) == 5:
        return match.group()
    return "'" if escaped == "'" else "\\\\" + escaped


def _skeleton(parts: list[str], text: str) -> str:
    """Everything outside strings, each string replaced by a mark, repaired in C-level passes."""
    if "/" in text or "#" in text:
        marks = [_COMMENT_MARK if t[0] in "/#" else _MARK for t in parts[1::2]]
        skeleton = _interleave(parts[0::2], marks)
    else:
        skeleton = _MARK.join(parts[0::2])
    if skeleton.count(_MARK) + skeleton.count(_COMMENT_MARK) != len(parts) // 2:
        _refuse_mark(parts, text)
    return _repaired(skeleton).replace(_COMMENT_MARK, _MARK)


def _repaired(skeleton: str) -> str:
    """The skeleton (strings marked) repaired: odd spaces, Python literals, unquoted keys, trailing commas."""
    if (odd_space := _odd_space(skeleton)) is not None:
        skeleton = odd_space.sub(" ", skeleton)
    for word, pattern, json_word in _PY_LITERALS:
        if word in skeleton:
            skeleton = pattern.sub(json_word, skeleton)
    if skeleton.count(":") != skeleton.count(_MARK + ":"):  # some key is not a string
        skeleton = '"'.join(_KEY.split(skeleton))  # [a, key, b] -> a"key"b
    return _TRAILING_COMMA.sub("", skeleton)


def _interleave(outside: list[str], between: list[str]) -> str:
    joined = outside + between
    joined[0::2] = outside
    joined[1::2] = between
    return "".join(joined)


def _refuse_mark(parts: list[str], text: str) -> None:
    """A control character we use as a mark stands outside strings: it is junk anyway."""
    offset = 0
    for index, part in enumerate(parts):
        found = [i for i in (part.find(_MARK), part.find(_COMMENT_MARK)) if i >= 0]
        if index % 2 == 0 and found:
            raise _error("unexpected control character", text, offset + min(found))
        offset += len(part)


def _parse(pieces: list[str], parts: list[str], text: str) -> Any:
    strict = "".join(pieces)
    try:
        return json.loads(strict, strict=False)
    except RecursionError:
        raise LenientJSONError("nested too deeply") from None
    except json.JSONDecodeError as exc:
        if strict[exc.pos :].strip(" \t\n\r"):
            raise _decode_error(exc.msg, _original_pos(exc.pos, pieces, parts), text) from None
    except ValueError as exc:
        raise LenientJSONError(str(exc)) from None
    if not strict.strip(" \t\n\r"):
        raise _error("no JSON value", text, 0)
    return _close_once(strict.rstrip(" \t\n\r"), text)


def _close_once(strict: str, text: str) -> Any:
    """The JSON stopped early: accept it if exactly one closer at the end completes it."""
    if strict[-1] not in "[{,:":
        for closer in _CLOSERS:
            try:
                return json.loads(strict + closer, strict=False)
            except (ValueError, RecursionError):
                continue
    raise _error("ends before the JSON is complete", text, len(text.rstrip()), TruncatedJSONError)


def _original_pos(pos: int, pieces: list[str], parts: list[str]) -> int:
    """Map a position in the joined pieces to the input (approximate inside a repaired stretch)."""
    ends = list(itertools.accumulate(map(len, pieces)))
    index = bisect.bisect_right(ends, pos)
    offset = pos - (ends[index - 1] if index else 0)
    return sum(map(len, parts[:index])) + min(offset, len(parts[index]))


def _decode_error(message: str, pos: int, text: str) -> LenientJSONError:
    """Say what stopped the reading, in words when it is a word; truncated if cut mid-token."""
    rest = text[pos:].rstrip()
    start = pos  # json.loads stops *after* the digits of a number cut short (`[1.`)
    while start and text[start - 1] in _NUMBER_CHARS:
        start -= 1
    if rest and (_PARTIAL_NUMBER.fullmatch(text[start:].rstrip()) or any(lit.startswith(rest) for lit in _LITERALS)):
        return _error(f"ends inside {text[start:].rstrip()!r}", text, start, TruncatedJSONError)
    word = re.match(r"[^\W\d]\w*", rest[:40])
    if word:
        return _error(f"unexpected word {word.group()!r}", text, pos)
    return _error(message, text, pos)


def _error(message: str, text: str, pos: int, cls: type[LenientJSONError] = LenientJSONError) -> LenientJSONError:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return cls(f"{message} at line {line} column {column} (char {pos})", pos)
