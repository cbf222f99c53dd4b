"""The patterns `loads_lenient` reads text with: tokens (strings, comments) and the repairs around them.

Shared by the general way (`_lenient_general`) and the quick way (`_lenient_quick`).
"""

from __future__ import annotations

import json
import re

from ._scan import possessive

# What may follow a complete string: a quote before anything else is an apostrophe inside it.
_AFTER = r"[ \t\n\r]*(?:[,:\]}/#]|\Z)"
# Each body is "normal* (special normal*)*", which cannot backtrack more than linearly.
# Possessive (`*+`, see `_scan.possessive`): what follows each body can match wherever it stops.
_DQ_BODY = r'[^"\\]*+(?:\\.[^"\\]*+)*+'
_SQ_BODY = rf"[^'\\]*+(?:(?:\\.|'+(?!{_AFTER}))[^'\\]*+)*+"
_SMART_BODY = r"[^“”\\]*+(?:\\.[^“”\\]*+)*+"
_SMART_SQ_BODY = rf"[^‘’\\]*+(?:(?:\\.|’(?!{_AFTER}))[^‘’\\]*+)*+"
# One token: a string (closed, or running to the end of the text) or a comment. The first
# character is matched alone and the alternatives look back at it: a pattern that starts with
# a plain character class lets the regex engine skip to the next candidate at C speed.
_TOKEN = possessive(
    rf"""([\"'“”„‘’‚/\#](?:
        (?<=")  {_DQ_BODY}      (?:"|\\?\Z)
      | (?<=')  {_SQ_BODY}      (?:'|\\?\Z)
      | (?<=[“”„]) {_SMART_BODY}    (?:[“”]|\\?\Z)
      | (?<=[‘’‚]) {_SMART_SQ_BODY} (?:[’‘]|\\?\Z)
      | (?:(?<=/)(?:/[^\n]*+|\*.*?(?:\*/|\Z)) | (?<=\#)[^\n]*+)  # comments, and any right after
        (?:[ \t\n\r]*+(?://[^\n]*+|\#[^\n]*+))*+
    ))""",
    re.DOTALL | re.VERBOSE,
)
# The closing character of each kind of token, to tell whether the last one was closed.
_CLOSER_OF = {'"': '"', "'": "'", "“": "”“", "”": "”“", "„": "”“", "‘": "’‘", "’": "’‘", "‚": "’‘"}
_QUOTES = "\"'“”„‘’‚"

# In the skeleton a string stands as _MARK and a comment as _COMMENT_MARK.
_MARK = "\x00"
_COMMENT_MARK = "\x01"
# Matched by their first letter, so the regex engine skips ahead to it; a literal before a
# colon is a key and is left to _KEY.
_PY_LITERALS = [
    (word, re.compile(rf"{word}(?<![\w$]{word})(?![\w$]|[ \t\n\r]*:)"), json_word)
    for word, json_word in (("True", "true"), ("False", "false"), ("None", "null"))
]
# An identifier before a colon. The lookbehind stops a match from starting inside a word,
# which would make a long word quadratic.
_KEY = re.compile(r"([A-Za-z_$](?<![\w$\-].)[\w$\-]*)(?=[ \t\n\r]*:)")
_TRAILING_COMMA = re.compile(rf",(?=[ \t\n\r{_COMMENT_MARK}]*[\]}}])")
_ODD_SPACE = re.compile(r"[^\S \t\n\r]|\ufeff")
_ODD_ASCII_SPACES = "\x0b\x0c\x1c\x1d\x1e\x1f"
_ODD_ASCII_SPACE = re.compile(f"[{_ODD_ASCII_SPACES}]")


def _odd_space(text: str) -> re.Pattern[str] | None:
    """What finds the whitespace JSON lacks in `text`, if it holds some (str methods on ASCII text)."""
    if text.isascii():
        return _ODD_ASCII_SPACE if any(char in text for char in _ODD_ASCII_SPACES) else None
    return _ODD_SPACE if _ODD_SPACE.search(text) else None


# Escapes JSON lacks keep their backslash as a character.
_GOOD_ESCAPES = '"/bfnrt'
_GOOD_ESCAPE = re.compile(r'\\["/bfnrt]')
_DOUBLED_BEFORE_HEX = re.compile(r"\\\\(?=u[0-9a-fA-F]{4})")


def _double_bad_escapes(body: str) -> str:
    r"""`body` with the backslash of each escape JSON lacks doubled (`\x` becomes `\\x`).

    `\\` pairs must be gone from `body` (shielded by the caller). Every backslash is doubled,
    then the escapes JSON has undoubled: str methods, not a regex match per escape (a megabyte
    of `\x` is half a million of them).
    """
    good = _GOOD_ESCAPES if _GOOD_ESCAPE.search(body) else ""  # One scan: `in` is slow on `\x\x…`.
    body = body.replace("\\", "\\\\")
    for char in good:
        body = body.replace("\\\\" + char, "\\" + char)
    if "\\\\u" in body:
        body = "\\".join(_DOUBLED_BEFORE_HEX.split(body))
    return body


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


def repair_may_help(exc: json.JSONDecodeError, text: str) -> bool:
    """Whether a repair may get the lenient reader past the place where strict JSON failed in `text`."""
    if exc.pos >= len(text.rstrip(" \t\n\r")):
        return True
    repairable = _REPAIRABLE_AT.get(exc.msg)
    char = text[exc.pos]
    if repairable is None or char in repairable or char.isspace():
        return True
    return exc.msg.startswith("Expecting property") and (char.isalpha() or char == "_")  # an unquoted key
