"""Between httpx messages and recorded interactions: what is recorded, and how it is served again."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator

import httpx

from ._vcr import Headers, RecordedRequest, RecordedResponse, _decoded, _framed, _Invalid

_EVENT_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")


class _Pieces(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A recorded body served in pieces, sync or async: an event stream event by event."""

    def __init__(self, pieces: list[bytes]) -> None:
        self._pieces = pieces

    def __iter__(self) -> Iterator[bytes]:
        yield from self._pieces

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self._pieces:
            yield piece


def pieces(body: bytes, content_type: str | None) -> list[bytes]:
    """How a recorded body is served: an event stream cut after each event, anything else whole."""
    if not body:
        return []
    if "text/event-stream" not in (content_type or "").lower():
        return [body]
    out, start = [], 0
    for end in _EVENT_END.finditer(body):
        out.append(body[start : end.end()])
        start = end.end()
    if start < len(body):
        out.append(body[start:])
    return out


def replayed(response: RecordedResponse) -> httpx.Response:
    """A recorded response as respx serves it, its body in `pieces`."""
    headers = [(name, value) for name, values in response.headers.items() for value in values]
    stream = _Pieces(pieces(response.body, response.header("content-type")))
    extensions = {"reason_phrase": response.reason.encode("latin-1", "replace")} if response.reason else {}
    return httpx.Response(response.status, headers=headers, stream=stream, extensions=extensions)


def recorded_request(request: httpx.Request) -> RecordedRequest:
    """An intercepted request, as it would be recorded (before redaction)."""
    return RecordedRequest(request.method, str(request.url), _headers(request.headers), request.content or None)


def recorded_response(response: httpx.Response, body: bytes) -> RecordedResponse:
    """A live response and its whole body, as recorded: decompressed, framing headers recomputed."""
    try:
        headers, decoded = _decoded(_headers(response.headers), body, "response")
    except _Invalid:  # Not the gzip it claims to be: keep the bytes exactly as the server sent them.
        headers, decoded = _headers(response.headers), body
    reason = response.extensions.get("reason_phrase", b"")
    text = reason.decode("latin-1") if isinstance(reason, bytes) else str(reason)
    return RecordedResponse(response.status_code, text, _framed(headers, decoded), decoded)


def _headers(headers: httpx.Headers) -> Headers:
    """The headers as sent, names in their own case (vcrpy keeps them so too)."""
    out: Headers = {}
    for name, value in headers.raw:
        out.setdefault(name.decode(headers.encoding), []).append(value.decode(headers.encoding))
    return out


__all__ = ["pieces", "recorded_request", "recorded_response", "replayed"]
