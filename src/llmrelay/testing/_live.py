"""Send an intercepted request to the real server, for recording, sync or async.

While a cassette records, respx has patched the connection pools of both HTTP stacks, so the
request cannot go back through them. It is sent on a connection of its own instead: httpcore's
`HTTP11Connection` over a socket opened by httpcore's network backend (neither is patched). One
connection per request, HTTP/1.1, no proxy: enough to record, and nothing is pooled across tests.

The response comes back as an `httpx.Response` whose stream hands the caller each piece as it
arrives (an event stream stays a stream) and keeps a copy; `on_close` gets the whole body once the
caller has read it or closed the response.
"""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpcore
import httpx

OnClose = Callable[[httpx.Response, bytes], None]
"""Called once with the response (status, headers) and every byte of the body that was received."""


def send(request: httpx.Request, on_close: OnClose) -> httpx.Response:
    """Send `request` for real and return its response, its body still streaming."""
    url, timeouts = request.url, request.extensions.get("timeout", {})
    stream = httpcore.SyncBackend().connect_tcp(url.host, _port(url), timeout=timeouts.get("connect"))
    if url.scheme == "https":
        stream = stream.start_tls(_tls(), server_hostname=url.host, timeout=timeouts.get("connect"))
    connection = httpcore.HTTP11Connection(origin=_origin(url), stream=stream)
    try:
        answer = connection.handle_request(_core_request(request))
    except BaseException:
        connection.close()
        raise
    return _response(answer, _SyncCopy(answer, connection, on_close))


async def asend(request: httpx.Request, on_close: OnClose) -> httpx.Response:
    """Send `request` for real from async code and return its response, its body still streaming."""
    url, timeouts = request.url, request.extensions.get("timeout", {})
    stream = await httpcore.AnyIOBackend().connect_tcp(url.host, _port(url), timeout=timeouts.get("connect"))
    if url.scheme == "https":
        stream = await stream.start_tls(_tls(), server_hostname=url.host, timeout=timeouts.get("connect"))
    connection = httpcore.AsyncHTTP11Connection(origin=_origin(url), stream=stream)
    try:
        answer = await connection.handle_async_request(_core_request(request))
    except BaseException:
        await connection.aclose()
        raise
    return _response(answer, _AsyncCopy(answer, connection, on_close))


def _core_request(request: httpx.Request) -> httpcore.Request:
    url = request.url
    return httpcore.Request(
        method=request.method.encode("ascii"),
        url=httpcore.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path),
        headers=request.headers.raw,
        content=request.content,  # respx has read the body already.
        extensions={"timeout": request.extensions.get("timeout", {})},
    )


def _response(answer: httpcore.Response, stream: httpx.SyncByteStream | httpx.AsyncByteStream) -> httpx.Response:
    extensions = {key: answer.extensions[key] for key in ("http_version", "reason_phrase") if key in answer.extensions}
    response = httpx.Response(answer.status, headers=answer.headers, stream=stream, extensions=extensions)
    if isinstance(stream, (_SyncCopy, _AsyncCopy)):
        stream.response = response
    return response


class Copy:
    """A response body on its way to the caller, copied as it passes."""

    def __init__(self, answer: httpcore.Response, connection: Any, on_close: OnClose) -> None:
        self.answer = answer
        self.connection = connection
        self.on_close = on_close
        self.received = bytearray()
        self.response: httpx.Response | None = None
        self.closed = False

    def finish(self) -> None:
        """Hand over what was received (once), whether or not the body was read to its end."""
        if not self.closed and self.response is not None:
            self.closed = True
            self.on_close(self.response, bytes(self.received))


class _SyncCopy(Copy, httpx.SyncByteStream):
    def __iter__(self) -> Iterator[bytes]:
        for piece in self.answer.iter_stream():
            self.received += piece
            yield piece

    def close(self) -> None:
        try:
            self.answer.close()
            self.connection.close()
        finally:
            self.finish()


class _AsyncCopy(Copy, httpx.AsyncByteStream):
    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for piece in self.answer.aiter_stream():
            self.received += piece
            yield piece

    async def aclose(self) -> None:
        try:
            await self.answer.aclose()
            await self.connection.aclose()
        finally:
            self.finish()


def _origin(url: httpx.URL) -> httpcore.Origin:
    return httpcore.Origin(scheme=url.raw_scheme, host=url.raw_host, port=_port(url))


def _port(url: httpx.URL) -> int:
    return url.port or (443 if url.scheme == "https" else 80)


def _tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    try:
        import certifi  # What httpx trusts; the system store otherwise.
    except ImportError:  # pragma: no cover - certifi comes with httpx
        return context
    context.load_verify_locations(certifi.where())
    return context


__all__ = ["Copy", "OnClose", "asend", "send"]
