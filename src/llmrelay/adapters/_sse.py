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
from dataclasses import dataclass

from .._text import stream_decoder
from ..errors import ProviderError
from ._errors import transport_error

_JSON_STRUCTURE = re.compile(r'["{}\[\]]')
"""Outside strings, only quotes and brackets matter to a JSON reader that cuts objects out."""
_JSON_IN_STRING = re.compile(r'["\\]')


@dataclass(frozen=True)
class ServerEvent:
    """One event of the stream."""

    event: str | None
    """The `event:` field (None when absent, and for JSON-array items)."""
    data: str
    """The `data:` lines joined, or one JSON object's text."""


class EventDecoder:
    """Feed it the body's bytes as they come; it returns the events each piece completes.

    Linear in the body whatever its shape: each piece is scanned once (by `re`, in C), and a line
    or a JSON object spread over many pieces is kept as a list of them, joined once at its end.
    """

    def __init__(self) -> None:
        self._text = stream_decoder()  # Invalid UTF-8: U+FFFD and a warning, as a whole answer gets.
        self._kind: str | None = None  # "sse" or "json", decided by the first non-blank character.
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
        # str methods only (C speed, ~1 ns a character; `re` scans cost 15-90 ns): line ends made
        # LF, runs of blank lines made one (the blank lines after the first dispatch nothing),
        # then one split. An unfinished line waits, in pieces, for the next piece.
        if self._skip_lf and text.startswith("\n"):
            text = text[1:]  # The second half of a CRLF split across two pieces.
        self._skip_lf = text.endswith("\r")
        if not text:
            return []
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if "\n" not in text:  # The middle of a long line.
            self._line.append(text)
            return []
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
        lines = text.split("\n")
        rest = lines.pop()
        if self._line:  # The first line began in an earlier piece.
            lines[0], self._line = "".join([*self._line, lines[0]]), []
        if rest:
            self._line.append(rest)
        events: list[ServerEvent] = []
        for line in lines:
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
