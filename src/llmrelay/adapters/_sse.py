"""Read a streamed answer's bytes into events, whatever the network's chunking: SSE, or a JSON array.

Server-sent events (html.spec.whatwg.org, "Server-sent events"): lines ending in LF, CR or CRLF;
`event:` and `data:` fields (one optional space after the colon, several `data:` lines joined with
LF); a blank line ends an event; lines starting with ":" are comments (OpenRouter's
`: OPENROUTER PROCESSING` keep-alives). An event cut off by the end of the body is not an event.

Gemini answers `streamGenerateContent` without `?alt=sse` with one JSON array of response
objects, written as they are generated (the conformance `llm-gemini-*` recordings); a server may
do so even when SSE was asked for. A body whose first character is `[` or `{` is read that way:
each top-level object is one event (`event` None, `data` its JSON text), and `closed` says the
array's `]` arrived.

Also the transport's failures while the body is read, as llmrelay errors (`read_failure`).
"""

from __future__ import annotations

import re
import sys
from functools import partial
from itertools import repeat
from typing import NamedTuple

from .._text import stream_decoder
from ..errors import ProviderError
from ._errors import transport_error

_JSON_STRUCTURE = re.compile(r'["{}\[\]]')
"""Outside strings, only quotes and brackets matter to a JSON reader that cuts objects out."""
_JSON_IN_STRING = re.compile(r'["\\]')


class ServerEvent(NamedTuple):
    """One event of the stream (a named tuple: the decoder makes millions of tiny ones at C speed)."""

    event: str | None
    """The `event:` field (None when absent, and for JSON-array items)."""
    data: str
    """The `data:` lines joined, or one JSON object's text."""


_new_event = partial(tuple.__new__, ServerEvent)
"""`ServerEvent` from an `(event, data)` pair, called from C by `map` (half the cost of a call)."""


class EventDecoder:
    """Feed it the body's bytes as they come; it returns the events each piece completes.

    Linear in the body whatever its shape: each piece is scanned a few times by str methods and
    `re` (in C), and a line or a JSON object spread over many pieces is kept as a list of them,
    joined once at its end. Pieces of plain `data:` lines (every provider's usual events) are read
    without a Python step per line (`_data_lines`).
    """

    def __init__(self) -> None:
        self._text = stream_decoder()  # Invalid UTF-8: U+FFFD and a warning, as a whole answer gets.
        self._kind: str | None = None  # "sse" or "json", decided by the first non-blank character.
        self._started = False  # The first character arrived (and a byte order mark was dropped).
        self._blank: list[str] = []  # Before that character: blank text since the last line end.
        # SSE state.
        self._line: list[str] = []  # The pieces of the line not yet ended.
        self._skip_lf = False
        self._event: str | None = None
        self._data: list[str] = []
        # JSON state.
        self._depth = 0
        self._in_string = False
        self._escaped = False
        self._object: list[str] = []
        self.closed = False
        """JSON arrays only: the closing `]` arrived."""

    @property
    def is_json(self) -> bool:
        """The body is a JSON array (or objects), not SSE."""
        return self._kind == "json"

    def feed(self, data: bytes) -> list[ServerEvent]:
        """The events completed by `data`."""
        return self._decode(self._text.decode(data))

    def end(self) -> list[ServerEvent]:
        """The events completed at the end of the body.

        An SSE event whose lines all arrived but not its closing blank line still counts; a line
        cut off mid-way does not (the stream was truncated).
        """
        events = self._decode(self._text.decode(b"", final=True))
        if self._kind == "sse" and not self._line:
            events += self._dispatch()
        return events

    def _decode(self, text: str) -> list[ServerEvent]:
        if self._kind is None:
            if not self._started and text:  # One byte order mark may open the stream: it is not text.
                self._started, text = True, text.removeprefix("\ufeff")
            if not (stripped := text.lstrip()):
                self._keep_blank(text)
                return []
            self._kind = "json" if stripped[0] in "[{" else "sse"
            text = "".join(self._blank) + text
            self._blank = []
        return self._json(text) if self._kind == "json" else self._sse(text)

    def _keep_blank(self, text: str) -> None:
        # Only what follows the last line end can matter (blank lines before it dispatch nothing),
        # so a body that opens with megabytes of blank lines is not held in memory.
        if (last := max(text.rfind("\r"), text.rfind("\n"))) >= 0:
            self._blank = [text[last:]]
        elif text:
            self._blank.append(text)

    def _sse(self, text: str) -> list[ServerEvent]:
        # Line ends made LF, then the complete lines read at once; an unfinished line waits, in
        # pieces, for the next piece.
        if self._skip_lf and text.startswith("\n"):
            text = text[1:]  # The second half of a CRLF split across two pieces.
        self._skip_lf = text.endswith("\r")
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if not (end := text.rfind("\n") + 1):  # The middle of a long line.
            if text:
                self._line.append(text)
            return []
        lines, rest = text[:end], text[end:]
        if self._line:  # The first line began in an earlier piece.
            lines, self._line = "".join([*self._line, lines]), []
        if rest:
            self._line.append(rest)
        while "\n\n\n" in lines:  # The blank lines after the first dispatch nothing.
            lines = lines.replace("\n\n\n", "\n\n")
        events: list[ServerEvent] = []
        if lines[0] == "\n":  # A blank line first: it ends the event the earlier pieces began.
            events, lines = self._dispatch(), lines.lstrip("\n")
        if not lines:
            return events
        if (prefix := _data_prefix(lines)) is not None:
            return events + self._data_lines(lines, prefix)
        return events + self._each_line(lines)

    def _data_lines(self, lines: str, prefix: str) -> list[ServerEvent]:
        """The events of complete lines all blank or `prefix` lines (`data: `), read by str methods in C.

        Tiny events (`data: x`) are the hostile case: a Python step per line or per event costs
        more than the 100 ms per MB target allows. Each blank line becomes a NUL (absent from the
        text), the prefixes go, and one split gives each event's data.
        """
        marked = lines.replace("\n\n", "\x00").replace("\x00" + prefix, "\x00").replace("\n" + prefix, "\n")
        parts = marked.split("\x00")
        del marked  # Before the first part is copied: a 16 MB line is held three times at most, not four.
        parts[0] = parts[0][len(prefix) :]
        *complete, pending = parts
        events: list[ServerEvent] = []
        if complete and (self._data or self._event is not None):  # The first event began earlier.
            self._data.append(complete.pop(0))
            events = self._dispatch()
        events += map(_new_event, zip(repeat(None), complete))
        if pending:  # Lines of an event not ended yet, each with its LF.
            self._data.append(pending[:-1])
        return events

    def _each_line(self, lines: str) -> list[ServerEvent]:
        """The events of complete lines of any kind, read one by one."""
        events: list[ServerEvent] = []
        for line in lines[:-1].split("\n"):
            if not line:
                events += self._dispatch()
            elif line[0] != ":":  # Not a comment (a keep-alive).
                self._field(line)
        return events

    def _field(self, line: str) -> None:
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value

    def _dispatch(self) -> list[ServerEvent]:
        event, data = self._event, self._data
        self._event, self._data = None, []
        return [ServerEvent(event, "\n".join(data))] if data else []

    def _json(self, text: str) -> list[ServerEvent]:
        events: list[ServerEvent] = []
        position, start = 0, 0
        while position < len(text):
            if self._in_string:
                position = self._string_end(text, position)
                continue
            if (found := _JSON_STRUCTURE.search(text, position)) is None:
                break
            position, char = found.end(), found.group()
            if char == '"':
                self._in_string = True
            elif char in "{[":
                if self._depth == 0 and char == "[" and not self._object:
                    continue  # The array itself.
                if self._depth == 0:
                    start = position - 1
                self._depth += 1
            elif self._depth == 0:
                self.closed = self.closed or char == "]"
            else:
                self._depth -= 1
                if self._depth == 0:
                    self._object.append(text[start:position])
                    events.append(ServerEvent(None, "".join(self._object)))
                    self._object = []
        if self._depth > 0:
            self._object.append(text[start:])
        return events

    def _string_end(self, text: str, position: int) -> int:
        """Where reading resumes after the string's text from `position` (its end, or the piece's)."""
        if self._escaped:
            self._escaped = False
            return position + 1
        if (found := _JSON_IN_STRING.search(text, position)) is None:
            return len(text)
        if found.group() == "\\":
            self._escaped = True
        else:
            self._in_string = False
        return found.end()


def _data_prefix(lines: str) -> str | None:
    """The prefix every one of `lines` that is not blank begins with: `data: ` or `data:`, else None.

    `lines` are complete, with no blank line first or twice in a row. None too when NUL, the bulk
    path's mark, is in them, or when some lines have the space and others not. Counted by str
    methods (about a nanosecond a character): lines are their LFs, blank lines the LFs after one.
    """
    ends, blank = lines.count("\n"), lines.count("\n\n")
    spaced = lines.count("\ndata: ") + lines.startswith("data: ")
    if "\x00" in lines:
        return None
    if ends == blank + spaced:
        return "data: "
    if not spaced and ends == blank + lines.count("\ndata:") + lines.startswith("data:"):
        return "data:"
    return None


def read_failure(exc: BaseException, *, provider: str, model: str, secret: str | None) -> ProviderError | None:
    """A transport failure while the body was read (a drop, a timeout), as our error; None if it is not one.

    The SDKs wrap failures only while the request is made; reading a streamed body raises the HTTP
    library's own exceptions (httpx or httpx2, whichever the SDK uses).
    """
    timeouts: list[type[BaseException]] = [TimeoutError]
    transports: list[type[BaseException]] = []
    for name in ("httpx", "httpx2"):
        if (module := sys.modules.get(name)) is not None:
            timeouts.append(module.TimeoutException)
            transports.append(module.TransportError)
    if isinstance(exc, tuple(timeouts)):
        return transport_error(exc, timeout=True, provider=provider, model=model, secret=secret)
    if isinstance(exc, tuple(transports)):
        return transport_error(exc, timeout=False, provider=provider, model=model, secret=secret)
    return None
