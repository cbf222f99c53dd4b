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

import codecs
import re
import sys
from dataclasses import dataclass

from ..errors import ProviderError
from ._errors import transport_error

_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class ServerEvent:
    """One event of the stream."""

    event: str | None
    """The `event:` field (None when absent, and for JSON-array items)."""
    data: str
    """The `data:` lines joined, or one JSON object's text."""


class EventDecoder:
    """Feed it the body's bytes as they come; it returns the events each piece completes."""

    def __init__(self) -> None:
        self._text = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._kind: str | None = None  # "sse" or "json", decided by the first non-blank character.
        self._pending = ""
        # SSE state.
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
        if self._kind == "sse" and not self._pending:
            events += self._dispatch()
        return events

    def _decode(self, text: str) -> list[ServerEvent]:
        if self._kind is None:
            self._pending += text
            stripped = self._pending.lstrip()
            if not stripped:
                return []
            self._kind = "json" if stripped[0] in "[{" else "sse"
            text, self._pending = self._pending, ""
        return self._json(text) if self._kind == "json" else self._sse(text)

    def _sse(self, text: str) -> list[ServerEvent]:
        if text:
            if self._skip_lf and text.startswith("\n"):
                text = text[1:]  # The second half of a CRLF split across two pieces.
            self._skip_lf = text.endswith("\r")
        lines = _LINE_END.split(self._pending + text)
        self._pending = lines.pop()  # An unfinished line waits for the next piece.
        return self._lines(lines)

    def _lines(self, lines: list[str]) -> list[ServerEvent]:
        events: list[ServerEvent] = []
        for line in lines:
            if not line:
                events += self._dispatch()
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                self._data.append(value)
            elif name == "event":
                self._event = value
        return events

    def _dispatch(self) -> list[ServerEvent]:
        event, data = self._event, self._data
        self._event, self._data = None, []
        return [ServerEvent(event, "\n".join(data))] if data else []

    def _json(self, text: str) -> list[ServerEvent]:
        events: list[ServerEvent] = []
        start = 0
        for position, char in enumerate(text):
            if self._in_string:
                if self._escaped:
                    self._escaped = False
                elif char == "\\":
                    self._escaped = True
                elif char == '"':
                    self._in_string = False
            elif char == '"':
                self._in_string = True
            elif char in "{[":
                if self._depth == 0 and char == "[" and not self._object:
                    continue  # The array itself.
                if self._depth == 0:
                    start = position
                self._depth += 1
            elif char in "}]":
                if self._depth == 0:
                    self.closed = self.closed or char == "]"
                    continue
                self._depth -= 1
                if self._depth == 0:
                    self._object.append(text[start : position + 1])
                    events.append(ServerEvent(None, "".join(self._object)))
                    self._object = []
        if self._depth > 0:
            self._object.append(text[start:])
        return events


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
