"""What can be read of a JSON object whose text is still arriving: streamed tool-call arguments.

`read_partial('{"city": "Par')` is `{"city": "Par"}`: open strings and containers are closed
where the text stops, and a value that may still change is left out (`{"days": 1` could
become 12: no `days` yet; `tru`, a key without its value, a half-written escape). One pass over
the text, in linear time, with no state kept between calls: a stream calls it again on the
arguments received so far, which is cheap for arguments of a few kilobytes.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ._growing_json import GrowingObject

_WHITESPACE = re.compile(r"[ \t\n\r]*")
# A string's body up to its closing quote, or up to where the text stops. Escapes are taken
# whole, so a backslash or a `\u` escape cut by the end of the text is left out, not misread.
_STRING_BODY = re.compile(r'(?:[^"\\]|\\u[0-9a-fA-F]{4}|\\[^u])*')
_CUT_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{0,3})?\Z")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
# What a number may look like while it is still being written (`-`, `1.`, `2e`).
_NUMBER_SO_FAR = re.compile(r"-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?")
_LITERALS = {"true": True, "false": False, "null": None}
_MAX_DEPTH = 200  # Two frames a level: well within Python's recursion limit.
_DECODER = json.JSONDecoder(strict=False)  # Raw control characters in strings: as models send them.


class _Unreadable(Exception):
    """The text is not the start of a JSON object."""


_MISSING: Any = object()
"""A value that is not certain yet: left out of its container."""


def read_partial(text: str) -> dict[str, Any] | None:
    """Read the JSON object `text` starts, as far as it is certain.

    Returns None when the text is not the start of a JSON object, or before its first member is
    readable (`{`, `{"ci`, `{"days": 1`); a closed `{}` is `{}`.
    """
    reader = _Reader(text)
    try:
        start = reader.skip(0)
        if text[start : start + 1] != "{":
            return None
        value, end, closed = reader.object(start + 1, 1)
        if closed and reader.skip(end) != len(text):
            return None  # Text after the object: not one object after all.
    except (_Unreadable, ValueError):  # ValueError: an escape JSON does not have (`\x`).
        return None
    return value if value or closed else None


class _Reader:
    """Recursive descent over one text; every method returns where it stopped."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.end = len(text)

    def skip(self, position: int) -> int:
        match = _WHITESPACE.match(self.text, position)
        return match.end() if match else position

    def value(self, position: int, depth: int) -> tuple[Any, int]:
        """A value at `position`: `(value or _MISSING, where it stopped)`."""
        position = self.skip(position)
        first = self.text[position : position + 1]
        if first == "{":
            found, stop, _ = self.object(position + 1, depth + 1)
            return found, stop
        if first == "[":
            return self.array(position + 1, depth + 1)
        if first == '"':
            string, stop, _ = self.string(position + 1)
            return string, stop
        return self.scalar(position)

    def object(self, position: int, depth: int) -> tuple[dict[str, Any], int, bool]:
        """The members after `{`: `(members, where it stopped, whether `}` closed it)`."""
        if depth > _MAX_DEPTH:
            raise _Unreadable("nested too deep")
        members: dict[str, Any] = {}
        position = self.skip(position)
        if self.text.startswith("}", position):
            return members, position + 1, True
        while True:
            position = self.skip(position)
            if position == self.end:
                return members, position, False
            if self.text[position] != '"':
                raise _Unreadable(f"expected a key at {position}")
            key, position, complete = self.string(position + 1)
            position = self.skip(position)
            if not complete or position == self.end:
                return members, self.end, False
            if self.text[position] != ":":
                raise _Unreadable(f"expected ':' at {position}")
            value, position = self.value(position + 1, depth)
            if value is not _MISSING:
                members[key] = value
            position = self.skip(position)
            if position == self.end:
                return members, position, False
            if self.text[position] == "}":
                return members, position + 1, True
            if self.text[position] != ",":
                raise _Unreadable(f"expected ',' or '}}' at {position}")
            position += 1

    def array(self, position: int, depth: int) -> tuple[list[Any], int]:
        """The items after `[`: `(items, where it stopped)`."""
        if depth > _MAX_DEPTH:
            raise _Unreadable("nested too deep")
        items: list[Any] = []
        position = self.skip(position)
        if self.text.startswith("]", position):
            return items, position + 1
        while True:
            value, position = self.value(position, depth)
            if value is not _MISSING:
                items.append(value)
            position = self.skip(position)
            if position == self.end:
                return items, position
            if self.text[position] == "]":
                return items, position + 1
            if self.text[position] != ",":
                raise _Unreadable(f"expected ',' or ']' at {position}")
            position += 1

    def string(self, position: int) -> tuple[str, int, bool]:
        """The string after `"`: `(text so far, where it stopped, whether its quote closed it)`."""
        body = _STRING_BODY.match(self.text, position)
        stop = body.end() if body else position
        closed = self.text.startswith('"', stop)
        if not closed and stop != self.end and not _CUT_ESCAPE.match(self.text, stop):
            raise _Unreadable(f"bad escape at {stop}")
        decoded: str = _DECODER.decode('"' + self.text[position:stop] + '"')
        if not closed and decoded[-1:] and "\ud800" <= decoded[-1] <= "\udbff":
            decoded = decoded[:-1]  # Half of a surrogate pair (`\ud83d`): the other half is to come.
        return decoded, (stop + 1 if closed else self.end), closed

    def scalar(self, position: int) -> tuple[Any, int]:
        """A number or literal: `_MISSING` while the text may still extend it."""
        so_far = _NUMBER_SO_FAR.match(self.text, position)
        if so_far is not None and so_far.end() == self.end and so_far.end() > position:
            return _MISSING, self.end  # `12` may become `123`.
        number = _NUMBER.match(self.text, position)
        if number is not None and number.end() > position:
            return _DECODER.decode(number.group()), number.end()
        for word, value in _LITERALS.items():
            if self.text.startswith(word, position):
                return value, position + len(word)
            if word.startswith(self.text[position:]) and position < self.end:
                return _MISSING, self.end  # `tru` at the end of the text.
        if position == self.end:
            return _MISSING, self.end
        raise _Unreadable(f"unexpected {self.text[position]!r} at {position}")


class GrowingArguments:
    """`read_partial` for arguments that keep arriving, at a linear total cost.

    Each reading looks only at the new text (`GrowingObject`), then decodes the certain part at
    C speed. That decoding is still a pass over the arguments so far: short arguments are read
    on every piece; past `ALWAYS_BELOW` characters, only once they have grown by a quarter since
    the last reading, and the last reading is given in between (still true, only older).
    """

    ALWAYS_BELOW = 1024

    def __init__(self) -> None:
        self._read_at = 0
        self._value: dict[str, Any] | None = None
        self._object = GrowingObject()

    def read(self, text: str, *, now: bool = False) -> dict[str, Any] | None:
        """The reading of `text`, the arguments so far (`now`: read it again whatever its length)."""
        if now or len(text) < self.ALWAYS_BELOW or len(text) - self._read_at >= self._read_at // 4:
            self._read_at, self._value = len(text), self._object.read(text)
        return self._value
