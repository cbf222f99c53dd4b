"""`read_partial` for a text that only grows, at C speed: the streamed arguments of one tool call.

`GrowingObject` remembers where it stopped: the containers still open, whether the text ends in
a string, a key or a number, and for each open container where its last whole member ends. A
`read` looks only at the characters that are new (a string's body is skipped by one regex
match), then decodes the certain part with the C decoder: the text up to where the innermost
container's last certain value ends, and the closers it lacks. So a piece of a few characters
costs a few regex steps and one C-level parse, not a Python step per token received so far.

The reading is `read_partial`'s, exactly (a test compares them on every prefix): an open string
shows its text so far; a number or literal that may still grow, a key without its value and a
half-written escape are left out; text that is not the start of one object reads as None.
"""

from __future__ import annotations

import json
import re
from typing import Any

# A string's body up to its closing quote, or up to a backslash it cannot take whole: escapes
# are taken as units, so an escape cut by the end of the text stops the match at its backslash.
_STRING_BODY = re.compile(r'[^"\\]*(?:(?:\\u[0-9a-fA-F]{4}|\\[^u])[^"\\]*)*')
_CUT_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{0,3})?\Z")
_HIGH_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}")
_NEXT = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r'[^ \t\n\r,\]}"{\[:]*')  # A number or literal runs to the next delimiter.
_NUMBER_SO_FAR = re.compile(r"-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?")
_LITERALS = ("true", "false", "null")
_MAX_DEPTH = 200  # As `read_partial`: deeper is unreadable.
_CLOSER = {"{": "}", "[": "]"}


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity: `read_partial` does not take them.


_DECODER = json.JSONDecoder(strict=False, parse_constant=_refuse_constant)

# What comes next. The FIRST_ states are right after an opener, where a closer may come.
_BEFORE, _FIRST_KEY, _KEY, _COLON, _VALUE, _FIRST_ITEM, _AFTER, _DONE = range(8)


class GrowingObject:
    """What can be read of a JSON object whose text grows at its end; give `read` each new text."""

    def __init__(self) -> None:
        self._start("")

    def _start(self, text: str) -> None:
        self._text = text
        self._position = 0  # Read up to here.
        self._state = _BEFORE
        self._stack: list[str] = []  # The open containers, outermost first: "{" or "[".
        self._certain: list[int] = []  # For each open container: where its last whole member ends.
        self._string = -1  # Where the open string's body starts (-1: not in a string).
        self._in_key = False  # Whether the open string is a key.
        self._scalar = -1  # Where the number or literal being read starts (-1: none).
        self._broken = False  # Not the start of one object: None from now on.

    def read(self, text: str) -> dict[str, Any] | None:
        """The reading of `text`, which extends the text last read (any other text starts afresh)."""
        if text.startswith(self._text):
            self._text = text
        else:
            self._start(text)
        self._scan()
        return None if self._broken else self._reading()

    def _scan(self) -> None:
        """Follow the structure over the new characters."""
        text, end = self._text, len(self._text)
        while self._position < end and not self._broken:
            if self._string >= 0:
                if not self._scan_string():
                    return  # An escape cut by the end of the text: wait for the rest.
            elif self._scalar >= 0:
                self._scan_scalar()
            else:
                self._position = _NEXT.match(text, self._position).end()  # type: ignore[union-attr]
                if self._position < end:
                    self._step(text[self._position])

    def _scan_string(self) -> bool:
        text = self._text
        stop = _STRING_BODY.match(text, self._position).end()  # type: ignore[union-attr]
        self._position = stop
        if stop == len(text):
            return True
        if text[stop] == '"':
            self._position, self._string = stop + 1, -1
            self._state = _COLON if self._in_key else self._value_ends()
            return True
        if _CUT_ESCAPE.match(text, stop) is None:
            self._broken = True  # An escape JSON does not have.
        return False

    def _scan_scalar(self) -> None:
        self._position = _SCALAR.match(self._text, self._position).end()  # type: ignore[union-attr]
        if self._position < len(self._text):  # A delimiter ended it: whole (the decoder checks it).
            self._scalar = -1
            self._state = self._value_ends()

    def _step(self, char: str) -> None:
        """Take the structural character at the current position."""
        state = self._state
        if state == _AFTER:
            if char == ",":
                self._state = _KEY if self._stack[-1] == "{" else _VALUE
                self._position += 1
            elif char == _CLOSER[self._stack[-1]]:
                self._close()
            else:
                self._broken = True
        elif state in (_VALUE, _FIRST_ITEM):
            self._value(char, state)
        elif state in (_KEY, _FIRST_KEY):
            if char == '"':
                self._open_string(key=True)
            elif char == "}" and state == _FIRST_KEY:
                self._close()
            else:
                self._broken = True
        elif state == _COLON and char == ":":
            self._state = _VALUE
            self._position += 1
        elif state == _BEFORE and char == "{":
            self._open(char)
        else:
            self._broken = True  # Text after the object, a missing colon, anything else.

    def _value(self, char: str, state: int) -> None:
        if char in "{[":
            self._open(char)
        elif char == '"':
            self._open_string(key=False)
        elif char == "]" and state == _FIRST_ITEM:
            self._close()
        elif char in ",:]}":
            self._broken = True
        else:
            self._scalar = self._position
            self._scan_scalar()

    def _open(self, kind: str) -> None:
        if len(self._stack) >= _MAX_DEPTH:
            self._broken = True
            return
        self._stack.append(kind)
        self._position += 1
        self._certain.append(self._position)
        self._state = _FIRST_KEY if kind == "{" else _FIRST_ITEM

    def _close(self) -> None:
        self._stack.pop()
        self._certain.pop()
        self._position += 1
        self._state = self._value_ends() if self._stack else _DONE

    def _open_string(self, *, key: bool) -> None:
        self._position += 1
        self._string, self._in_key = self._position, key

    def _value_ends(self) -> int:
        """A member or item just ended: it is certain; a `,` or a closer comes next."""
        self._certain[-1] = self._position
        return _AFTER

    # --- the reading -----------------------------------------------------------------------------

    def _reading(self) -> dict[str, Any] | None:
        if self._state == _BEFORE:
            return None
        if self._state == _DONE:
            return self._decode(self._text)
        cut, tail = self._certain[-1], ""
        if self._string >= 0 and not self._in_key:
            cut, tail = self._string_end(), '"'  # An open string shows its text so far.
        elif self._string >= 0 and not self._valid_key():
            return None
        elif self._scalar >= 0:
            scalar = self._text[self._scalar :]
            if scalar in _LITERALS:
                cut = len(self._text)
            elif not (_NUMBER_SO_FAR.fullmatch(scalar) or any(word.startswith(scalar) for word in _LITERALS)):
                return None  # Can never be a number or literal.
        closers = "".join(_CLOSER[kind] for kind in reversed(self._stack))
        value = self._decode(self._text[:cut] + tail + closers)
        return value or None  # An object not closed yet reads as None until a member is certain.

    def _string_end(self) -> int:
        """Where the open string's certain text ends: without half of a surrogate pair."""
        end, text = self._position, self._text
        if end > self._string and "\ud800" <= text[end - 1] <= "\udbff":
            return end - 1
        start = end - 6
        if start >= self._string and _HIGH_SURROGATE_ESCAPE.fullmatch(text, start, end) and self._escapes(start):
            return start
        return end

    def _escapes(self, position: int) -> bool:
        """Whether the backslash at `position` starts an escape (it is not itself escaped)."""
        before = position
        while before > self._string and self._text[before - 1] == "\\":
            before -= 1
        return (position - before) % 2 == 0

    def _valid_key(self) -> bool:
        """Whether the open key's text so far is a valid string's start (the key itself is left out)."""
        try:
            _DECODER.decode('"' + self._text[self._string : self._position] + '"')
        except ValueError:
            return False
        return True

    @staticmethod
    def _decode(text: str) -> dict[str, Any] | None:
        try:
            value = _DECODER.decode(text)
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None
