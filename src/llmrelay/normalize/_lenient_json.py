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
on the whole text, one `json.loads`, no object per token. Text with comments or quotes of
several kinds, but whose strings hold no comment marker, the tidy way, `_lenient_tidy`:
comments blanked and quotes made `"` by passes over the whole text, then the quick way.
Everything
else the general way, `_lenient_general`: the text is split into strings and comments and
rewritten into strict JSON a block at a time, each step a C-level pass, then one `json.loads`.
Where the fast path failed also says early whether any repair can help. No regex here backtracks more than linearly, and
an unclosed string is one token running to the end of the text, so no match is retried from
each later quote.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from . import _lenient_general, _lenient_quick, _lenient_tidy
from ._lenient_patterns import repair_may_help

__all__ = ["LenientJSONError", "TruncatedJSONError", "loads_lenient", "loads_strict"]


class LenientJSONError(ValueError):
    """The text could not be read as JSON, even leniently."""

    def __init__(self, message: str, pos: int | None = None) -> None:
        super().__init__(message)
        self.pos = pos
        """Where in the input the problem was found, when known."""


class TruncatedJSONError(LenientJSONError):
    """The text is JSON that stops before its end (more than one closer missing, or mid-string)."""


_CLOSERS = ("}", "]")
_OPENERS = ("{", "[")  # What a JSON document usually starts with.
# What the text may end inside of, when it stops in the middle of a value.
_LITERALS = ("true", "false", "null", "True", "False", "None", "NaN", "Infinity", "-Infinity")
_NUMBER_CHARS = frozenset("0123456789+-.eE")
_PARTIAL_NUMBER = re.compile(r"-|-?[0-9]+(?:\.|\.[0-9]+)?(?:[eE][+\-]?)?(?<=[.eE+\-])")

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
        strict_until = exc.pos
    except RecursionError:
        raise LenientJSONError("nested too deeply") from None
    except ValueError as exc:  # e.g. an integer over the int-to-str digit limit
        raise LenientJSONError(str(exc)) from None
    try:
        value = _lenient_quick.one_quote_kind(text, strict_until)
    except RecursionError:
        raise LenientJSONError("nested too deeply") from None
    if value is not _lenient_quick.NOT_THIS_WAY:
        return value
    try:
        value = _lenient_tidy.tidied(text)
    except _lenient_tidy.Junk as junk:
        raise _decode_error(junk.message, junk.pos, text) from None
    if value is not _lenient_quick.NOT_THIS_WAY:
        return value
    try:
        rewritten = _lenient_general.rewrite(text)
    except _lenient_general.Refusal as refusal:
        cls = TruncatedJSONError if refusal.truncated else LenientJSONError
        raise _error(refusal.message, text, refusal.pos, cls) from None
    return _parse(rewritten)


def _refuse_early(exc: json.JSONDecodeError, text: str) -> None:
    """Raise now if no repair can get past the place where strict JSON failed."""
    if not repair_may_help(exc, text):
        raise _decode_error(exc.msg, exc.pos, text)


def _parse(rewritten: _lenient_general.Rewrite) -> Any:
    strict, text = rewritten.strict, rewritten.text
    try:
        return json.loads(strict, strict=False)
    except RecursionError:
        raise LenientJSONError("nested too deeply") from None
    except json.JSONDecodeError as exc:
        if strict[exc.pos :].strip(" \t\n\r"):
            raise _decode_error(exc.msg, rewritten.original_pos(exc.pos), text) from None
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
