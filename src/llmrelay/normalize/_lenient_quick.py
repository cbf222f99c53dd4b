r"""The quick way of `loads_lenient`: text whose strings are all quoted with one kind of quote.

The general way (`_lenient_general`) splits the text into one Python string per token, a
block at a time, which on a megabyte of dense tokens (a Python dict's repr, smart-quoted
strings) costs several times as much. Here such text is read with `str.replace` and `re.sub`
passes over the whole text and one `json.loads`. Equivalence with the general way is a
property test (`tests/normalize/test_lenient_json.py::test_the_quick_way_reads_as_the_general_way`).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from . import _lenient_keys
from ._lenient_patterns import _KEY, _PY_LITERALS, _TRAILING_COMMA, _double_bad_escapes, _odd_space
from ._scan import possessive

__all__ = ["NOT_THIS_WAY", "one_quote_kind"]

# The kinds of quote `one_quote_kind` swaps for `"`, each with all the characters that may close it.
_SWAPPABLE = ("'", "“”", "‘’")
# Each stands for an escape (`\\`, `\'`, `\"`) while quotes are swapped: no text holding one is read here.
_BACKSLASH, _APOSTROPHE, _QUOTE = _SHIELDS = ("\x02", "\x03", "\x04")
NOT_THIS_WAY: Any = object()
"""What `one_quote_kind` answers for a text it leaves to the general way."""


def one_quote_kind(text: str, strict_until: int = 0, uncommented: bool = False) -> Any:
    r"""The value of a text whose strings are all quoted with one kind of quote, read the quick way.

    The usual repairs (a Python dict's repr, smart quotes, trailing commas, literals) done by a
    few `str.replace` and `re.sub` passes over the whole text and one `json.loads`, where the
    general way costs several Python steps per token. Each such quote becomes `"`, and each `"` (which can
    then only stand inside a string) `\"`. Strings are then read as the general way reads them
    when each is closed by a quote followed by `,` `:` `]` `}` or the end: the first quote of
    its kind, so no apostrophe (`„ ‚`, which only open, are left as they are: a string opened
    so fails to parse). Escapes are rewritten as the general way rewrites them (with `'` or no
    other quote only). Else, with comments, quotes of several kinds, or when the result is not
    JSON: `NOT_THIS_WAY`, and the general way reads it.

    `strict_until`: where strict JSON failed in the text. A `"` before it is in a double-quoted
    string (the first is where a value or key may start), which swapping quotes would break.
    `uncommented`: the text holds no comment (the tidy way blanked them), so a `/` or `#` is in
    a string.
    """
    kinds = [kind for kind in _SWAPPABLE if any(quote in text for quote in kind)]  # Quick on ASCII text.
    escapes = "\\" in text
    if kinds and text.find('"', 0, strict_until) >= 0:  # double-quoted strings beside others
        return NOT_THIS_WAY
    if len(kinds) > 1 or (escapes and (kinds not in ([], ["'"]) or any(mark in text for mark in _SHIELDS))):
        return NOT_THIS_WAY
    swapped = _escapes_shielded(text) if escapes else text
    if kinds:
        swapped = swapped.replace('"', '\\"')
        for quote in kinds[0]:
            swapped = swapped.replace(quote, '"')
    if escapes:
        swapped = swapped.replace(_BACKSLASH, "\\\\").replace(_APOSTROPHE, "'").replace(_QUOTE, '\\"')
    if kinds or escapes:
        try:
            return json.loads(swapped, strict=False)
        except ValueError:
            pass
    if not uncommented and ("/" in text or "#" in text):  # Comments, whose quotes are no delimiters.
        return NOT_THIS_WAY
    return _with_simple_strings(swapped)


def _escapes_shielded(text: str) -> str:
    r"""`text` with its escapes as the general way reads them in a string, before quotes are swapped.

    `\\`, `\'` and `\"` stand as one character each until the quotes are swapped (`\'` is an
    apostrophe, `\"` a quote, in single- and double-quoted strings alike); escapes JSON lacks
    keep their backslash. A backslash outside strings stays one, and the text does not parse.
    """
    shielded = text.replace("\\\\", _BACKSLASH).replace("\\'", _APOSTROPHE).replace('\\"', _QUOTE)
    return _double_bad_escapes(shielded)


def _with_simple_strings(text: str) -> Any:
    r"""`text`, whose strings are all `"…"` with no escape but `\"`, repaired without splitting it.

    The repairs run on the whole text, with no Python object per token, once no string holds
    what one of them would change (one regex pass, made for the repairs this text needs).
    Whether the text then parses says the rest: JSON wants each string closed by a quote
    followed by `,` `:` `]` `}` or the end.
    """
    if _odd_space(text) is not None:
        return NOT_THIS_WAY
    literals = tuple(word for word, _, _ in _PY_LITERALS if word in text)
    commas = _TRAILING_COMMA.search(text) is not None
    keys = text.count(":") != text.count('":')  # Some colon follows no string: a key unquoted.
    if '"' in text and (literals or commas or keys) and not _plain_strings(literals, commas, keys).fullmatch(text):
        return NOT_THIS_WAY
    for word, pattern, json_word in _PY_LITERALS:
        if word in literals:
            text = pattern.sub(json_word, text)
    try:
        if keys and not commas and _lenient_keys.compact(text):
            return _lenient_keys.quoted_and_read(text)
        if keys:
            text = '"'.join(_KEY.split(text))
        if commas:
            text = _TRAILING_COMMA.sub("", text)
        return json.loads(text, strict=False)
    except ValueError:
        return NOT_THIS_WAY


@functools.cache
def _plain_strings(literals: tuple[str, ...], commas: bool, keys: bool) -> re.Pattern[str]:
    """What matches a text whose strings hold nothing the repairs needed would change.

    Unrolled as "normal* (special normal*)*" (see `_lenient_patterns`): linear even on Python
    3.10, where possessive `*+` is plain `*`. Conservative: a string holding `True` inside a
    word, or any colon when keys need quotes, sends the text to the general way.
    """
    stops = "".join(word[0] for word in literals) + ("," if commas else "") + (":" if keys else "")
    specials = [r"\\."] + [f"{word[0]}(?!{word[1:]})" for word in literals]
    if commas:
        specials.append(r",(?![ \t\n\r]*+[\]}])")
    body = rf'[^"\\{stops}]*+(?:(?:{"|".join(specials)})[^"\\{stops}]*+)*+'
    return possessive(rf'[^"]*+(?:"{body}"[^"]*+)*+', re.DOTALL)
