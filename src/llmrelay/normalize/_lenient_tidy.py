r"""The tidy way of `loads_lenient`: comments blanked and quotes made `"` by passes over the whole text.

For text the quick way (`_lenient_quick`) leaves because of comments or quotes of several
kinds. The general way (`_lenient_general`) splits such text into one Python string per token;
here one regex checks the whole text (a block at a time), and if it fits:

    [{"a": 'b'}, // note    ->  [{"a": 'b'},            comments: one `re.sub` with " ", or where
     “c”]                        “c”]                   a string holds `//` or `#`, one `re.split`
                            ->  [{"a": "b"}, "c"]      quotes of several kinds: `str.replace`

then one `json.loads`, or the quick way for what else the text needs (a Python dict's repr,
trailing commas, unquoted keys). Each step rewrites the text as the general way rewrites its
tokens, which the checks guarantee (`_COMMENTED…`, `_QUOTED`); the property test
`tests/normalize/test_lenient_tidy.py` compares the two. Text that does not fit, or whose
result is not JSON, is left to the general way, which also says what is wrong with it; but
where the tidied text stops at junk no repair helps with, the tidy way says where (`Junk`),
as the general way would, without doing its work again.
"""

from __future__ import annotations

import bisect
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from . import _lenient_quick
from ._lenient_patterns import (
    _DQ_BODY,
    _KEY,
    _PY_LITERALS,
    _QUOTES,
    _SMART_BODY,
    _SMART_SQ_BODY,
    _SQ_BODY,
    repair_may_help,
)
from ._scan import possessive

__all__ = ["BLOCK", "Junk", "tidied"]

BLOCK = 1 << 15
"""About how many characters of text have their comments blanked at once."""

NOT_THIS_WAY = _lenient_quick.NOT_THIS_WAY

# What closes a single-quoted string, as `_AFTER` in `_lenient_patterns` without its comment
# marks: a quote followed by a comment would read differently once the comment is a space.
_AFTER = r"[ \t\n\r]*+(?:[,:\]}]|\Z)"
_AFTER_TOKEN = r"[ \t\n\r]*+(?:[,:\]}/#]|\Z)"  # `_AFTER` in `_lenient_patterns`
# Possessive (`*+`) everywhere: each run stops where only what follows can match, and a failed
# check fails at once instead of trying other ways to cut the text (Python 3.11+; on 3.10 the
# tidy way is off and the general way reads such text).


def _string(opener: str, stops: str, closer: str, apostrophe: str = "") -> str:
    r"""A string as `_TOKEN` reads it, holding no `#`, and no `/` that a `/` or `*` follows.

    `apostrophe`: the quote that stays in the string unless `_AFTER_TOKEN` follows it (`'`, `’`),
    as in `_TOKEN`: where only a comment mark follows, it neither stays nor closes, and the
    text is left to the general way.
    """
    normal = rf"[^{stops}\\/#]*+"
    specials = [r"\\[^/#]", r"\\?/(?![/*])"] + ([rf"{apostrophe}(?!{_AFTER_TOKEN})"] if apostrophe else [])
    return rf"{opener}{normal}(?:(?:{'|'.join(specials)}){normal})*+{closer}"


_STRINGS = "|".join(
    [
        _string('"', '"', '"'),
        _string("'", "'", rf"'(?={_AFTER})", apostrophe="'"),
        _string("[“”„]", "“”", "[“”]"),
        _string("[‘’‚]", "‘’", rf"(?:‘|’(?={_AFTER}))", apostrophe="’"),
    ]
)
# Comments in a row, as `_TOKEN` reads them: one token.
_COMMENT = r"(?://[^\n]*+|/\*[^*]*+\*+(?:[^/*][^*]*+\*+)*+/|\#[^\n]*+)"
_COMMENTS = rf"{_COMMENT}(?:[ \t\n\r]*+{_COMMENT})*+"
# The whole text: strings, comments (closed, no colon after them: `a /* c */ : 1` keeps its key
# unquoted in the general way) and what is between them, with no `/` `#` or `\` there.
_NORMAL = rf"[^{_QUOTES}/#\\]*+"
_NO_QUOTE = rf"[^{_QUOTES}\\]*+"
_JSON_ESCAPE = r"\\(?:[\\/bfnrt]|u[0-9a-fA-F]{4})"
# (Compiled on 3.10 too, with plain `*`, but not used there.)
# Group 1: the last string or comment matched, before which a block may end.
_COMMENTED = possessive(rf"{_NORMAL}(?:({_STRINGS}|{_COMMENTS}(?![ \t\n\r]*+:)){_NORMAL})*+")
_A_COMMENT = possessive(_COMMENTS)
# `_TOKEN` reads a block comment and the line comments right after it as one token, which the
# general way calls unclosed when it ends the text (as it does not end with `*/`).
_BLOCK_THEN_LINE_AT_END = possessive(r"\*/(?:[ \t\n\r]*+(?://[^\n]*+|\#[^\n]*+))+\Z")
# Strings exactly as `_TOKEN` reads them, holding anything; a quote that an apostrophe may be
# closed only where `_AFTER` follows, as above. Comments are blanked around them by a split
# whose match is the text before a comment (group 1) and the comment: one match per comment.
_EXACT_STRINGS = (
    rf"\"{_DQ_BODY}\"|'{_SQ_BODY}'(?={_AFTER})|[“”„]{_SMART_BODY}[“”]|[‘’‚]{_SMART_SQ_BODY}(?:‘|’(?={_AFTER}))"
)
_COMMENTED_EXACTLY = possessive(rf"{_NORMAL}(?:({_EXACT_STRINGS}|{_COMMENTS}(?![ \t\n\r]*+:)){_NORMAL})*+", re.DOTALL)
_NO_COMMENT = possessive(rf"{_NORMAL}(?:(?:{_EXACT_STRINGS}){_NORMAL})*+", re.DOTALL)
_BEFORE_A_COMMENT = possessive(rf"((?:[^{_QUOTES}/#\\]++|{_EXACT_STRINGS})*+)(?:{_COMMENTS}|\Z)", re.DOTALL)
# After the comments: every string closed, with no quote inside, and no escape but those JSON
# has (which the general way keeps as they are; `\"` in a `"…"` only).
_BODY = rf"{_NO_QUOTE}(?:{_JSON_ESCAPE}{_NO_QUOTE})*+"
_QUOTED = possessive(
    rf"{_NO_QUOTE}(?:(?:\"{_NO_QUOTE}(?:(?:{_JSON_ESCAPE}|\\\"){_NO_QUOTE})*+\"|'{_BODY}'(?={_AFTER})"
    rf"|[“”„]{_BODY}[“”]|[‘’‚]{_BODY}(?:‘|’(?={_AFTER}))){_NO_QUOTE})*+"
)


# A Python dict's repr: strings `'…'` (holding no `'` or `\\`), and no other quote outside them.
_SINGLE_QUOTED = possessive(rf"[^{_QUOTES}\\]*+(?:'[^'\\]*+'(?={_AFTER})[^{_QUOTES}\\]*+)*+")


# What `_KEY` reads a key of, and how far back `_junk` looks for where one starts.
_WORD_CHAR = re.compile(r"[\w$\-]")
_LONGEST_WORD = 64


class Junk(Exception):
    """The tidied text stops where no repair helps: what `json` said, and where that is in the text."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message, self.pos = message, pos


@dataclass
class _Uncommented:
    """A text with its comments blanked, and where each block of it came from (to say where an error is)."""

    text: str
    comments: re.Pattern[str]
    """`_A_COMMENT` (each match a comment), or `_BEFORE_A_COMMENT` (the text before one, group 1, and it)."""
    starts: list[int] = field(default_factory=list)
    """Where each block starts in `text`; `spans[i]` is where block i was in the original text."""
    spans: list[tuple[int, int]] = field(default_factory=list)

    def original_pos(self, pos: int, original: str) -> int:
        """Where a position in `text` was in the original (a blank: where its comment starts)."""
        index = bisect.bisect_right(self.starts, pos) - 1
        start, stop = self.spans[index]
        pos -= self.starts[index]
        kept_from = 0  # Blanked, the block is each stretch kept then a space.
        for match in self.comments.finditer(original, start, stop):
            kept_to = match.end(1) if match.re.groups else match.start()
            if pos <= kept_to - start - kept_from:
                break
            pos -= kept_to - start - kept_from + 1
            kept_from = match.end() - start
        return start + kept_from + pos


def tidied(text: str) -> Any:
    """The value of `text` with its comments blanked and its quotes made `"`; or `NOT_THIS_WAY`.

    Raises:
        Junk: the text stops where no repair helps, as the general way would find.
    """
    if sys.version_info < (3, 11):
        return NOT_THIS_WAY
    uncommented = None
    if "/" in text or "#" in text:
        uncommented = _uncommented(text, _COMMENTED, _A_COMMENT)
        if uncommented is None and _NO_COMMENT.fullmatch(text) is None:  # Else `/` or `#` only in strings.
            uncommented = _uncommented(text, _COMMENTED_EXACTLY, _BEFORE_A_COMMENT)
            if uncommented is None:
                return NOT_THIS_WAY
    elif not _several_kinds(text):
        return NOT_THIS_WAY  # The quick way has read it already.
    tidy = uncommented.text if uncommented else text
    if _several_kinds(tidy) and _QUOTED.fullmatch(tidy) is not None:
        for quote in _QUOTES[1:] if not tidy.isascii() else "'":  # str.translate is slow on non-ASCII text
            tidy = tidy.replace(quote, '"')
    try:
        return json.loads(tidy)
    except json.JSONDecodeError as exc:
        junk: tuple[str, int] | None = (exc.msg, exc.pos) if _junk(exc, tidy, text) else None
        if junk is None and (value := _quick(tidy, exc.pos)) is not NOT_THIS_WAY:
            return value
        junk = junk or _junk_in_a_repr(tidy, text)
    except (ValueError, RecursionError):  # The general way says what it is.
        return NOT_THIS_WAY
    if junk is None:
        return NOT_THIS_WAY
    raise Junk(junk[0], uncommented.original_pos(junk[1], text) if uncommented else junk[1])


def _junk(exc: json.JSONDecodeError, tidy: str, text: str) -> bool:
    """Whether the general way would stop where `json` stopped in the tidied text, saying the same.

    Where no repair helps (`repair_may_help`), but at what the general way repairs all the same
    and then stops elsewhere (a word before a colon, quoted as a key: at the word or the colon; a
    comma before a closer, dropped: at the comma or the closer), and in a text holding the
    characters it marks strings and comments with (which it refuses first, saying so).
    """
    if repair_may_help(exc, tidy) or "\x00" in text or "\x01" in text or tidy[exc.pos] in ",]}:":
        return False
    word = exc.pos  # The word `json` stopped in (`True-: 1`) may be a key to the general way.
    while word > exc.pos - _LONGEST_WORD and word and _WORD_CHAR.match(tidy, word - 1):
        word -= 1
    return word > exc.pos - _LONGEST_WORD and _KEY.match(tidy, word) is None


def _junk_in_a_repr(tidy: str, text: str) -> tuple[str, int] | None:
    r"""Where a tidied text with `'…'` strings stops, as the general way finds, if it is junk (see `_junk`).

    The strings checked to be read so by the general way (no `'` and no `\` in them), quotes are
    swapped and Python literals replaced as the quick way does, to see where `json` stops.
    """
    if "\\" in tidy or _SINGLE_QUOTED.fullmatch(tidy) is None:
        return None
    probe = tidy.replace('"', '\\"').replace("'", '"')
    for word, pattern, json_word in _PY_LITERALS:
        if word in probe:
            probe = pattern.sub(json_word, probe)
    try:
        json.loads(probe, strict=False)
    except json.JSONDecodeError as exc:
        if _junk(exc, probe, text):
            return exc.msg, exc.pos - probe.count('\\"', 0, exc.pos)  # Where it was before each `"` was escaped.
    except (ValueError, RecursionError):
        pass
    return None


def _quick(tidy: str, strict_until: int) -> Any:
    """The value of a tidied text (no comment, one kind of quote) read the quick way, or `NOT_THIS_WAY`."""
    try:
        return _lenient_quick.one_quote_kind(tidy, strict_until, True)  # positional: tests patch it with `lambda *_`
    except RecursionError:
        return NOT_THIS_WAY


def _uncommented(text: str, check: re.Pattern[str], comments: re.Pattern[str]) -> _Uncommented | None:
    """`text` with its comments blanked, a block at a time; None if it is not all `check` (`_COMMENTED…`).

    Blanked whole, a megabyte of `1//` lines is 175k Python strings at once, 12 times the text
    in memory. A block ends before the last string or comment matched in it, which may be cut
    (or, when it is a comment, may have a colon after it that the block does not hold); where
    the match stopped short of the block's end, the text is not `_COMMENTED` or a string runs
    past the end: the block ends there, and the next one, twice as long, finds out which.
    """
    if _BLOCK_THEN_LINE_AT_END.search(text):
        return None
    done, blocks, length = _Uncommented("", comments), [], 0
    start, size = 0, BLOCK
    while start < len(text):
        stop = min(start + size, len(text))
        match = check.match(text, start, stop)
        cut = match.end() if match.end() < stop or stop == len(text) else match.start(1)  # type: ignore[union-attr]
        if cut <= start:
            if stop == len(text):
                return None
            size *= 2
            continue
        block = _blanked(text[start:cut], comments)
        if block is None:
            return None
        done.starts.append(length)
        done.spans.append((start, cut))
        blocks.append(block)
        length += len(block)
        start = cut
    done.text = "".join(blocks)
    return done


def _blanked(block: str, comments: re.Pattern[str]) -> str | None:
    """A block with its comments blanked: one `re.sub`, or where strings may hold comment marks, a split.

    Split, each match starts where the last ended (the block is `_COMMENTED_EXACTLY`): were there
    text between two, it would be lost, and the block is refused instead.
    """
    if not comments.groups:
        return comments.sub(" ", block)
    parts = comments.split(block)
    return None if any(parts[0::2]) else " ".join(parts[1::2])


def _several_kinds(text: str) -> bool:
    """Whether `text` holds quotes of more than one kind (`"` and `'`, or straight and smart)."""
    kinds = ['"' in text, "'" in text]
    if not text.isascii():
        kinds += [any(quote in text for quote in "“”„"), any(quote in text for quote in "‘’‚")]
    return sum(kinds) > 1
