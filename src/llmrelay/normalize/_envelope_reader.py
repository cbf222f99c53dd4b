"""Read llmrelay's JSON envelope as it arrives: the content's text, and each call as its object closes.

In the json modes the whole answer is one envelope, `{"content": "...", "toolCalls": [{"name",
"arguments"}, ...], "needsMoreWork": ...}`, with the keys in any order. `EnvelopeReader` is a
small resumable state machine over the characters received: `feed` never re-reads earlier text,
so a long answer in small chunks costs linear time. It decodes the `content` string as it grows
(an escape or a surrogate pair cut between chunks waits for its end), and records for each item
of the calls array its name, its arguments as they grow (the decoded string in json_schema mode,
the raw JSON text of an object in json_object mode) and, once the item closes, its reading.

The reader is strict JSON (plus raw control characters in strings, which the lenient reader
also takes). At anything else it stops (`broken`): what it read so far stays valid, the rest is
left to `parse_response`. `read_cut_envelope` reads an answer that stopped inside the envelope
(a token limit), so that a cut envelope means the same whether it was streamed or not.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from .._envelope import RejectedCall
from ._calls import ENVELOPE_CALL_KEYS, ENVELOPE_MORE_KEYS, is_tool_name, read_bool, read_envelope_item
from ._pieces import Pieces
from ._types import CallReading, Candidate, Parsed

MAX_DEPTH = 200
"""Containers open at once, at most: deeper, the text is not read as an envelope (no model's
envelope nests that deep, and the reader is a Python loop: hostile nesting must not cost seconds)."""
ENVELOPE_KEYS = frozenset({"content", *ENVELOPE_CALL_KEYS, *ENVELOPE_MORE_KEYS})
"""Top-level keys of the envelope: an object with only these is read as one, even cut short."""

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_BLANKS = " \t\n\r"
_PLAIN = re.compile(r'[^"\\]+')  # A string's text up to its next quote or escape.
_SCALAR_CHARS = re.compile(r"[-+.0-9a-zA-Z]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_DECODER = json.JSONDecoder(strict=False)  # Raw control characters in strings, as the lenient reader takes them.

# What the reader expects next.
_VALUE, _FIRST_ITEM, _FIRST_KEY, _KEY, _COLON, _AFTER, _STRING, _SCALAR_TOKEN, _DONE = range(9)
# What a value is to the envelope (its role decides what is recorded while it is read).
_OTHER, _TOP, _CONTENT, _CALLS, _ITEM, _NAME, _ARGS_TEXT, _ARGS, _MORE, _KEY_NAME = range(10)


@dataclass(slots=True)
class EnvelopeItem:
    """One item of the calls array, as far as it was read."""

    index: int
    """Its position in the array, from 0."""
    name: str | None = None
    """The item's `name`, once that string closed (and only if it can be a tool name)."""
    arguments: list[str] = field(default_factory=list)
    """The arguments' text so far, in pieces: the decoded string, or the raw JSON of an object
    (since the last `take_arguments`)."""
    raw: Pieces = field(default_factory=Pieces)
    """The item's JSON text so far, while it is open (once read, `reading` says what it meant)."""
    reading: CallReading | None = None
    """Once the item closed: the call, or why it is not one (see `_calls.read_envelope_item`)."""
    closed: bool = False

    def take_arguments(self) -> list[str]:
        """The pieces of arguments read since the last take; they are not kept (a stream sends them once)."""
        pieces = self.arguments[:]
        self.arguments.clear()  # In place: the arguments string being read still decodes to this list.
        return pieces


@dataclass(slots=True)
class _Frame:
    kind: str  # "{" or "["
    role: int
    key: str | None = None


class EnvelopeReader:
    """Read an envelope chunk by chunk; the attributes say what was read so far."""

    def __init__(self, *, keep_items: bool = True) -> None:
        self.keep_items = keep_items
        """Whether `items` keeps every item; a stream, which reads each from `touched`, keeps none."""
        self.item_count = 0
        """Items begun so far (their indexes)."""
        self.keys: list[str] = []
        """The top-level keys, in order (repeats included)."""
        self.content: list[str] = []
        """The decoded pieces of the (last) `content` string so far (since the last `take_content`)."""
        self.content_is_text = False
        """Whether the last `content` value is a string (it may still be open)."""
        self.content_keys = 0
        """How many `content` keys the object has (more than one: only the last counts)."""
        self.calls_key: str | None = None
        """The top-level key whose array is read as the calls: the first calls key with an array."""
        self.odd = False
        """A second calls key or array: which one the envelope's reading takes is not known early."""
        self.items: list[EnvelopeItem] = []
        self.touched: list[EnvelopeItem] = []
        """The items that changed since the owner last cleared this list."""
        self.more: object = None
        """The decoded value of the last `needsMoreWork` key, once complete."""
        self.broken = False
        """The text stopped being strict JSON (or the value is not an object): reading stopped."""
        self.closed = False
        """The top-level object closed."""
        self._stack: list[_Frame] = []
        self._state = _VALUE
        self._role = _OTHER  # Of the string or scalar being read.
        self._sink: list[str] | None = None  # Where the string being read is decoded to.
        self._escape = ""  # An escape cut by the end of a chunk.
        self._high = ""  # A high surrogate, waiting for its low half.
        self._key: list[str] = []
        self._scalar: list[str] = []
        self._item: EnvelopeItem | None = None  # The open item.
        self._item_from = -1  # Where the item's text starts in the current chunk (-1: not capturing).
        self._args_from = -1  # Same for an object of arguments.
        self._more: list[str] | None = None
        self._more_from = -1

    @property
    def envelope_likely(self) -> bool:
        """Whether the object is (or reads as) the envelope: only envelope keys, or a calls array or flag."""
        if self.calls_key is not None or any(key in ENVELOPE_MORE_KEYS for key in self.keys):
            return True
        return bool(self.keys) and all(key in ENVELOPE_KEYS for key in self.keys)

    def take_content(self) -> str:
        """The content decoded since the last take, joined; its pieces are not kept (a stream sends them once)."""
        text = "".join(self.content)
        self.content.clear()  # In place: the content string being read still decodes to this list.
        return text

    @property
    def open_item(self) -> EnvelopeItem | None:
        """The item being read when the text stopped, if any."""
        return self._item

    def feed(self, chunk: str) -> None:
        """Read the next piece of the answer."""
        position, end = 0, len(chunk)
        while position < end and not self.broken:
            state = self._state
            if state == _STRING:
                position = self._string(chunk, position, end)
                continue
            if state == _SCALAR_TOKEN:
                match = _SCALAR_CHARS.match(chunk, position)
                assert match is not None
                self._scalar.append(match.group())
                position = match.end()
                if position < end:
                    self._end_scalar(chunk, position)
                continue
            char = chunk[position]
            if char in _BLANKS:  # A test before the regex: most tokens follow none (`"a":`, `},{`).
                position = _WHITESPACE.match(chunk, position).end()  # type: ignore[union-attr]
                if position == end:
                    break
                char = chunk[position]
            if state == _VALUE or state == _FIRST_ITEM:
                if state == _FIRST_ITEM and char == "]":
                    position = self._close(chunk, position, "[")
                else:
                    position = self._begin_value(chunk, position, char)
            elif state == _FIRST_KEY or state == _KEY:
                if char == '"':
                    self._begin_string(_KEY_NAME, self._key)
                    self._key.clear()
                    position += 1
                elif char == "}" and state == _FIRST_KEY:
                    position = self._close(chunk, position, "{")
                else:
                    self.broken = True
            elif state == _COLON:
                if char == ":":
                    self._state = _VALUE
                    position += 1
                else:
                    self.broken = True
            elif state == _AFTER:
                frame = self._stack[-1]
                if char == ",":
                    self._state = _KEY if frame.kind == "{" else _VALUE
                    position += 1
                elif char == ("}" if frame.kind == "{" else "]"):
                    position = self._close(chunk, position, frame.kind)
                else:
                    self.broken = True
            else:  # _DONE: text after the object.
                self.broken = True
        self._flush(chunk)

    # --- values -------------------------------------------------------------------------------

    def _role_of(self, opener: str) -> int:
        """What the value starting with `opener` is to the envelope, from where it is written."""
        if not self._stack:
            return _TOP
        frame = self._stack[-1]
        if frame.role == _TOP:
            key = frame.key
            if key == "content":
                return _CONTENT if opener == '"' else _OTHER
            if key in ENVELOPE_CALL_KEYS and opener == "[":
                if self.calls_key is None:
                    self.calls_key = key
                    return _CALLS
                self.odd = True
            elif key in ENVELOPE_MORE_KEYS:
                return _MORE
            return _OTHER
        if frame.role == _CALLS:
            return _ITEM
        if frame.role == _ITEM and frame.kind == "{":
            if frame.key == "name" and opener == '"':
                return _NAME
            if frame.key == "arguments":
                return _ARGS_TEXT if opener == '"' else _ARGS if opener in "{[" else _OTHER
        return _OTHER

    def _begin_value(self, chunk: str, position: int, char: str) -> int:
        role = self._role_of(char)
        if role == _TOP and char != "{":
            self.broken = True  # Not an object: not the envelope.
            return position
        if role == _ITEM:
            self._item = EnvelopeItem(self.item_count)
            self.item_count += 1
            if self.keep_items:
                self.items.append(self._item)
            self._item_from = position
        elif role == _ARGS:
            self._args_from = position
        elif role == _MORE:
            self._more, self._more_from = [], position
        if char == "{" or char == "[":
            if len(self._stack) >= MAX_DEPTH:
                self.broken = True  # Hostile (`{"a":` 200k times): stop rather than walk it in Python.
                return position
            self._stack.append(_Frame(char, role))
            self._state = _FIRST_KEY if char == "{" else _FIRST_ITEM
            return position + 1
        if char == '"':
            if role == _CONTENT:
                self.content_is_text = True
                self.content.clear()
                sink: list[str] | None = self.content
            elif role == _NAME:
                sink = []
            elif role == _ARGS_TEXT:
                sink = self._item.arguments if self._item is not None else None
            else:
                sink = None
            self._begin_string(role, sink)
            return position + 1
        if _SCALAR_CHARS.match(chunk, position).end() > position:  # type: ignore[union-attr]
            self._role, self._state = role, _SCALAR_TOKEN
            self._scalar.clear()
            return position
        self.broken = True
        return position

    def _begin_string(self, role: int, sink: list[str] | None) -> None:
        self._role, self._sink, self._state = role, sink, _STRING

    def _end_value(self, role: int, chunk: str, end: int) -> None:
        """A value ended just before `end` in `chunk`: finish what its role records."""
        if role == _ITEM and self._item is not None:
            item = self._item
            item.raw.append(chunk[self._item_from : end])
            item.closed = True
            try:
                item.reading = read_envelope_item(_DECODER.decode(item.raw.take()))
            except (ValueError, RecursionError):
                self.broken = True  # Cannot happen for text this reader accepted; stop rather than guess.
                return
            self._mark(item)
            self._item, self._item_from = None, -1
        elif role == _ARGS and self._item is not None:
            self._item.arguments.append(chunk[self._args_from : end])
            self._mark(self._item)
            self._args_from = -1
        elif role == _MORE and self._more is not None:
            self._more.append(chunk[self._more_from : end])
            self.more = _DECODER.decode("".join(self._more))
            self._more, self._more_from = None, -1
        self._state = _AFTER if self._stack else _DONE

    def _close(self, chunk: str, position: int, kind: str) -> int:
        frame = self._stack.pop()
        if frame.kind != kind:
            self.broken = True
            return position
        if frame.role == _TOP:
            self.closed = True
        self._end_value(frame.role, chunk, position + 1)
        return position + 1

    def _end_scalar(self, chunk: str, end: int) -> None:
        if _SCALAR.fullmatch("".join(self._scalar)) is None:
            self.broken = True
            return
        self._end_value(self._role, chunk, end)

    # --- strings ------------------------------------------------------------------------------

    def _string(self, chunk: str, position: int, end: int) -> int:
        """Read a string's body from `position`; return where reading stopped."""
        sink = self._sink
        while position < end:
            if self._escape:
                position = self._continue_escape(chunk, position, end)
                if self.broken:
                    return end
                continue
            plain = _PLAIN.match(chunk, position)
            if plain is not None:
                if self._high:
                    self._put(self._high)
                    self._high = ""
                if sink is not None:
                    sink.append(plain.group())
                    self._touch()
                position = plain.end()
                continue
            if chunk[position] == '"':
                if self._high:
                    self._put(self._high)
                    self._high = ""
                self._end_string(chunk, position + 1)
                return position + 1
            self._escape = "\\"
            position += 1
        return position

    def _continue_escape(self, chunk: str, position: int, end: int) -> int:
        """Add to the escape being read; decode it once whole."""
        need = 6 if self._escape[1:2] == "u" or (len(self._escape) == 1 and chunk[position] == "u") else 2
        taken = chunk[position : position + need - len(self._escape)]
        self._escape += taken
        position += len(taken)
        if len(self._escape) < need:
            return position
        escape, self._escape = self._escape, ""
        if need == 2:
            char = _ESCAPES.get(escape[1])
            if char is None:
                self.broken = True  # An escape JSON lacks: the lenient reader keeps it as written.
                return position
        else:
            if _HEX4.fullmatch(escape, 2) is None:
                self.broken = True
                return position
            code = int(escape[2:], 16)
            if 0xD800 <= code <= 0xDBFF:
                if self._high:
                    self._put(self._high)
                self._high = chr(code)  # Half of a pair: wait for the other half.
                return position
            if 0xDC00 <= code <= 0xDFFF and self._high:
                char = chr(0x10000 + ((ord(self._high) - 0xD800) << 10) + (code - 0xDC00))
                self._high = ""
                self._put(char)
                return position
            char = chr(code)
        if self._high:
            self._put(self._high)
            self._high = ""
        self._put(char)
        return position

    def _put(self, text: str) -> None:
        if self._sink is not None:
            self._sink.append(text)
            self._touch()

    def _touch(self) -> None:
        if self._role == _ARGS_TEXT and self._item is not None:
            self._mark(self._item)

    def _mark(self, item: EnvelopeItem) -> None:
        """Note that `item` changed (once per run of changes)."""
        if not self.touched or self.touched[-1] is not item:
            self.touched.append(item)

    def _end_string(self, chunk: str, end: int) -> None:
        role = self._role
        if role == _KEY_NAME:
            key = "".join(self._key)
            frame = self._stack[-1]
            frame.key = key
            if frame.role == _TOP:
                self._top_key(key)
            self._state = _COLON
            return
        if role == _NAME and self._item is not None and self._sink is not None:
            name = "".join(self._sink)
            if is_tool_name(name):
                self._item.name = name
                self._mark(self._item)
        self._sink = None
        self._end_value(role, chunk, end)

    def _top_key(self, key: str) -> None:
        if key in self.keys and key in ENVELOPE_CALL_KEYS:
            self.odd = True  # A repeated calls key: the last one wins, after what was streamed.
        self.keys.append(key)
        if key == "content":
            self.content_keys += 1
            self.content_is_text = False
            self.content.clear()

    def _flush(self, chunk: str) -> None:
        """End of a chunk: keep the text of the values still open."""
        if self._item_from >= 0 and self._item is not None:
            self._item.raw.append(chunk[self._item_from :])
            self._item_from = 0
        if self._args_from >= 0 and self._item is not None:
            self._item.arguments.append(chunk[self._args_from :])
            self._mark(self._item)
            self._args_from = 0
        if self._more_from >= 0 and self._more is not None:
            self._more.append(chunk[self._more_from :])
            self._more_from = 0

    def scalar_at_end(self) -> bool:
        """The text stopped right after a literal (`true`): complete, since it cannot grow."""
        return self._state == _SCALAR_TOKEN and "".join(self._scalar) in ("true", "false", "null")


def read_cut_envelope(text: str) -> Parsed | None:
    """Read an answer that stops inside a JSON envelope: the content so far, the calls that closed.

    The call cut off is rejected as "truncated", keeping its text. Cut before any `content` key,
    the content is the whole text, as before. Returns None when the text is
    not a cut envelope: not strict JSON up to its end, already complete, or an object that does
    not read as the envelope (`EnvelopeReader.envelope_likely`).
    """
    reader = EnvelopeReader()
    reader.feed(text)
    if reader.broken or reader.closed or not reader.envelope_likely:
        return None
    if reader.scalar_at_end() and reader._more is not None:
        reader.more = _DECODER.decode("".join(reader._more))  # `"needsMoreWork": true` with no `}` after it.
    calls: list[Candidate] = []
    rejected: list[RejectedCall] = []
    for item in reader.items:
        if isinstance(item.reading, Candidate):
            calls.append(item.reading)
        elif item.reading is not None:
            rejected.append(item.reading)
    cut = reader.open_item
    if cut is not None:
        rejected.append(cut_call(cut))
    # Cut before any `content` key: the text is kept as the content, as for any unreadable answer
    # (seed 000). Nothing of it was streamed: only a `content` value streams.
    content = "".join(reader.content) if reader.content_is_text else "" if reader.content_keys else text
    return Parsed(calls, content, read_bool(reader.more), rejected)


def cut_call(item: EnvelopeItem) -> RejectedCall:
    """The rejection of a call the answer stopped in the middle of."""
    what = f"tool call '{item.name}'" if item.name else "a tool call"
    reason = f"{what} was cut off before its end (the answer stopped inside the JSON envelope)"
    return RejectedCall(item.name, item.raw.text(), reason, "truncated")
