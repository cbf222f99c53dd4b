"""A deadline every socket operation of a sync call obeys, whatever the SDK's own timeouts say.

An SDK's `timeout` bounds each socket read: a server sending one byte every half second keeps a
call alive forever. The client sets the moment the current attempt must end (`bounded(at)`, a
context variable, so threads and concurrent calls each have their own), and the adapters put
`bound_sockets` on the sync httpx / httpx2 clients they build: every connect, read and write of
those clients is then given at most the time left, and fails with the HTTP library's own timeout
error once none is left, which the adapter maps to `ProviderTimeoutError` as any timeout.

Async calls need none of this: the client bounds them with asyncio's own timeouts.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

_T = TypeVar("_T")
_E = TypeVar("_E")

_DEADLINE: ContextVar[float | None] = ContextVar("llmrelay_deadline", default=None)
"""`time.monotonic()` at which the current attempt must be over; None: no deadline."""


@contextmanager
def bounded(at: float | None) -> Iterator[None]:
    """Within this block, the sockets of bounded clients give up at `at` (`time.monotonic()` seconds)."""
    token = _DEADLINE.set(at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def next_within(chunks: Iterator[_T], at: float, end: _E) -> _T | _E:
    """`next(chunks, end)`, its sockets bounded by `at`: `bounded` without a context manager per chunk."""
    token = _DEADLINE.set(at)
    try:
        return next(chunks, end)
    finally:
        _DEADLINE.reset(token)


def bound_sockets(http_client: Any) -> None:
    """Make a sync httpx or httpx2 client's sockets obey the deadline (no-op for a client built otherwise).

    The network backend of the client's connection pool is wrapped, before any connection is made.
    A client with a transport of its own (a proxy mount, a mock) is left as it is.
    """
    pool = getattr(getattr(http_client, "_transport", None), "_pool", None)
    backend = getattr(pool, "_network_backend", None)
    if backend is None or isinstance(backend, _Backend):
        return
    library = importlib.import_module(type(backend).__module__.partition(".")[0])  # httpcore or httpcore2
    pool._network_backend = _Backend(backend, library)  # type: ignore[union-attr]


def _left(timeout: float | None, error: type[Exception]) -> float | None:
    """The timeout for one socket operation: the SDK's, cut to the time the deadline leaves."""
    at = _DEADLINE.get()
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise error("the deadline of the answer passed")
    return left if timeout is None else min(timeout, left)


class _Backend:
    """An httpcore network backend whose streams obey the deadline."""

    def __init__(self, inner: Any, library: Any) -> None:
        self._inner = inner
        self._library = library

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> _Stream:
        timeout = _left(timeout, self._library.ConnectTimeout)
        return _Stream(self._inner.connect_tcp(host, port, timeout, local_address, socket_options), self._library)

    def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> _Stream:
        timeout = _left(timeout, self._library.ConnectTimeout)
        return _Stream(self._inner.connect_unix_socket(path, timeout, socket_options), self._library)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _Stream:
    """A network stream whose every read and write is given at most the time the deadline leaves."""

    def __init__(self, inner: Any, library: Any) -> None:
        self._inner = inner
        self._library = library

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(timeout, self._library.ReadTimeout))  # type: ignore[no-any-return]

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _left(timeout, self._library.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> _Stream:
        timeout = _left(timeout, self._library.ConnectTimeout)
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, timeout), self._library)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)
