r"""The general way of `loads_lenient`: any text rewritten into strict JSON, a block at a time.

For the text the quick way (`_lenient_quick`) leaves: comments, quotes of several kinds,
escapes in smart-quoted strings. A Python loop over tokens costs about 1 µs a token, too slow
for a megabyte of them, so each step is a C-level pass: one `re.split` cuts out the strings and
comments (`_TOKEN`); what is left, the skeleton, is repaired with `re.sub`s; the strings are
re-quoted by passes over all of them joined; and the pieces are joined again.

Why blocks: split whole, a megabyte of dense tokens is 400k Python strings at once, about 34
times the input in memory. Each block (`BLOCK` characters or so) is split, rewritten and joined
on its own, so only the strict text grows with the input. A block ends before a token, so no
token is cut, and where the repairs see there what they would see in the whole text (after a
string, or after a comment that no closer follows: see `_cuttable`).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

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

__all__ = ["BLOCK", "Refusal", "Rewrite", "rewrite"]

BLOCK = 1 << 13
"""About how many characters of text are split into tokens at once."""

# For `_requote_all`: the tokens joined by _SEP (each starts right after one and ends right
# before one), and the comments among them.
_SEP = "\x00"
_FEW_TOKENS = 16
_COMMENT_TOKEN = re.compile(r"\x00[/#][^\x00]*")
# A `"` inside a token: not escaped, and not a token's own delimiter (which touches a _SEP).
_BARE_QUOTE = re.compile(r'(?<![\\\x00])"(?!\x00)')
_BAD_ESCAPE = re.compile(r'\\(?!["/bfnrt]|u[0-9a-fA-F]{4})')
_COMMA_THEN_COMMENT = re.compile(r"[,][\s\ufeff]*[/#]")
_BLANK = re.compile(r"[\s\ufeff]*")  # What `_repaired` makes spaces, and spaces.
_SHIELDS = "\x01\x02\x03\x04\x05\x06\x07\x08"
_RAW_QUOTE = re.compile(r'(?<!\\)"')
_SLOW_ESCAPE = re.compile(r'\\(u[0-9a-fA-F]{4}|.)|"', re.DOTALL)


class Refusal(Exception):
    """What makes the text unreadable, found while rewriting it: said by `loads_lenient`'s error."""

    def __init__(self, message: str, pos: int, truncated: bool = False) -> None:
        super().__init__(message)
        self.message, self.pos, self.truncated = message, pos, truncated


@dataclass
class Rewrite:
    """A text rewritten into strict JSON, and where each block of it came from."""

    text: str
    strict: str = ""
    starts: list[int] = field(default_factory=list)
    """Where each block starts in `strict`; `spans[i]` is where block i was in `text`."""
    spans: list[tuple[int, int]] = field(default_factory=list)

    def original_pos(self, pos: int) -> int:
        """Where a position in `strict` was in the text (approximate inside a repaired stretch).

        The block's tokens are split again: only the block holding the position is kept in memory.
        """
        index = max(bisect.bisect_right(self.starts, pos) - 1, 0)
        start, stop = self.spans[index]
        parts = _TOKEN.split(self.text[start:stop])
        pieces, _ = _strict_pieces(parts, comments=True)
        return start + _pos_in_parts(pos - self.starts[index], pieces, parts)


def rewrite(text: str) -> Rewrite:
    """`text` rewritten into strict JSON, a block at a time (its value is the text's value).

    Raises:
        Refusal: the text ends inside a string or comment, or holds a control character that
            the rewrite uses as a mark outside strings.
    """
    done = Rewrite(text)
    pieces: list[str] = []
    mark_at: int | None = None
    length = 0
    for start, stop, parts in _blocks(text):
        if stop == len(text):
            _check_end(parts, text)
        block, at = _strict_pieces(parts, comments=_comment_after_comma(text, start, stop))
        if mark_at is None and at is not None:
            mark_at = start + at
        done.starts.append(length)
        done.spans.append((start, stop))
        pieces.append(block_text := "".join(block))
        length += len(block_text)
    if mark_at is not None:
        raise Refusal("unexpected control character", mark_at)
    done.strict = "".join(pieces)
    return done


def _comment_after_comma(text: str, start: int, stop: int) -> bool:
    """Whether a comma in `text[start:stop]` has a comment mark after it (a regex try per comma: most have none)."""
    if text.find("/", start, stop) < 0 and text.find("#", start, stop) < 0:
        return False
    return _COMMA_THEN_COMMENT.search(text, start, stop) is not None


def _blocks(text: str) -> Iterator[tuple[int, int, list[str]]]:
    """`(start, stop, parts)` of each block: `text[start:stop]` split by `_TOKEN`, cut before a token.

    A block leaves the skeleton before the token it is cut at to the next block, so the last
    token of the text always has the skeleton before it in its block. A block with no place
    to cut (`_cuttable`) is split again at twice the size (the size stays doubled).
    """
    start, size = 0, BLOCK
    while len(text) - start > size:
        stop = start + size
        parts = _TOKEN.split(text[start:stop])
        cut = next((k for k in range(len(parts) - 2, 2, -2) if _cuttable(parts, k)), None)
        if cut is None:
            size *= 2
            continue
        stop -= sum(map(len, parts[cut - 1 :]))
        del parts[cut - 1 :]
        parts.append("")
        yield start, stop, parts
        start = stop
    yield start, len(text), _TOKEN.split(text[start:])


def _cuttable(parts: list[str], k: int) -> bool:
    """Whether a block may end before token `k`: no repair then reads past the cut.

    Only a trailing comma looks past a token, past a comment's to be exact (`[1, /* c */ ]`):
    the block must not end right after a comment that a closer follows.
    """
    if parts[k - 2][0] in _QUOTES:
        return True
    after = parts[k - 1]
    return after[_BLANK.match(after).end() :][:1] not in ("", "]", "}")  # type: ignore[union-attr]


def _strict_pieces(parts: list[str], *, comments: bool) -> tuple[list[str], int | None]:
    """The parts of a block (skeleton, token, skeleton, …) as strict JSON, and where a mark stands outside strings.

    `comments`: whether the block may hold a comment right after a comma, which a trailing
    comma's repair must tell from a string (so each token's mark says which it is).
    """
    tokens = parts[1::2]
    joined = _SEP + _SEP.join(tokens) + _SEP
    if joined.count(_SEP) != len(tokens) + 1:  # a string holds the separator: one by one
        joined = ""
    marks = [_COMMENT_MARK if t[0] in "/#" else _MARK for t in tokens] if comments else None
    skeleton, mark_at = _skeleton(parts, marks)
    if mark_at is not None:  # the text is refused: no need to rewrite it
        return [], mark_at
    pieces = parts[:]
    pieces[1::2] = _requote_all(tokens, joined)
    pieces[0::2] = skeleton.split(_MARK)
    return pieces, None


def _check_end(parts: list[str], text: str) -> None:
    """Refuse a text ending inside a string or comment: only the last token can be unclosed."""
    if len(parts) < 3 or parts[-1] or _is_closed(parts[-2]):
        return
    last = parts[-2]
    start = len(text) - len(last)
    if last[0] == "/":
        raise Refusal("unclosed comment", start)
    before = parts[-3].rstrip()
    in_place = not before or before[-1] in "[{,:"
    unescaped = re.sub(r"\\.", "", last[1:], flags=re.DOTALL)
    if in_place and (last[0] == '"' or not any(q in unescaped for q in _QUOTES)):
        raise Refusal("ends inside a string", start, truncated=True)
    raise Refusal("unterminated string", start)


def _is_closed(token: str) -> bool:
    """Whether a token that runs to the end of the text has its closer (not escaped)."""
    first = token[0]
    if first in "/#":
        return first == "#" or token[1] == "/" or (len(token) >= 4 and token.endswith("*/"))
    if len(token) < 2 or token[-1] not in _CLOSER_OF[first]:
        return False
    body = token[1:-1]
    return (len(body) - len(body.rstrip("\\"))) % 2 == 0


def _requote_all(tokens: list[str], joined: str) -> list[str]:
    r"""Every token as strict JSON, in C-level passes over the tokens joined by a separator.

    Comments go first (they may hold quotes and backslashes); then escapes, as `_fix_escapes`
    rewrites them, with `\\` shielded by a character no token holds; then each `"` inside a
    token that is not `"…"` is escaped; then the other delimiters become `"`.
    """
    if len(tokens) <= _FEW_TOKENS or not joined:  # Few tokens, or one holds the separator: one by one.
        return [_requote(t) for t in tokens]
    if "/" in joined or "#" in joined:
        joined = _COMMENT_TOKEN.sub(_SEP + " ", joined)  # not "": `1/**/2` must not become `12`
    shield = next((c for c in _SHIELDS if c not in joined), None) if "\\" in joined else ""
    if shield is None:  # every shield character occurs: one by one
        return [_requote(t) for t in tokens]
    if shield:
        joined = joined.replace("\\\\", shield).replace("\\'", "'")
        if _BAD_ESCAPE.search(joined):
            joined = _double_bad_escapes(joined)
    if joined.count('"') > 2 * joined.count(_SEP + '"') + joined.count('\\"'):  # Not each a delimiter or escaped.
        joined = _BARE_QUOTE.sub(r'\\"', joined)
    if shield:
        joined = joined.replace(shield, "\\\\")
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
    shield = next((c for c in _SHIELDS if c not in body), None)
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


def _skeleton(parts: list[str], marks: list[str] | None) -> tuple[str, int | None]:
    """Everything outside strings, each token replaced by its mark, repaired; or where a mark stood in the text.

    It starts with a _MARK, taken off after the repairs: a block after the first starts right
    after a string, and a colon there is a string key's.
    """
    skeleton = _MARK + (_MARK.join(parts[0::2]) if marks is None else _interleave(parts[0::2], marks))
    if skeleton.count(_MARK) + skeleton.count(_COMMENT_MARK) != len(parts) // 2 + 1:
        return "", _mark_at(parts)
    if marks is not None:
        return _repaired(skeleton).replace(_COMMENT_MARK, _MARK)[1:], None
    return _repaired(skeleton)[1:], None


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


def _mark_at(parts: list[str]) -> int | None:
    """Where a control character we use as a mark stands outside strings (junk anyway)."""
    offset = 0
    for index, part in enumerate(parts):
        found = [i for i in (part.find(_MARK), part.find(_COMMENT_MARK)) if i >= 0]
        if index % 2 == 0 and found:
            return offset + min(found)
        offset += len(part)
    return None


def _pos_in_parts(pos: int, pieces: list[str], parts: list[str]) -> int:
    """Map a position in the joined pieces to the parts they were rewritten from."""
    ends = list(itertools.accumulate(map(len, pieces)))
    index = bisect.bisect_right(ends, pos)
    offset = pos - (ends[index - 1] if index else 0)
    if index >= len(parts):
        return sum(map(len, parts))
    return sum(map(len, parts[:index])) + min(offset, len(parts[index]))
