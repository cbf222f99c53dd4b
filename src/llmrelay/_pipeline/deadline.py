"""How long a request may take: each attempt (`timeout=`), and the whole request (`deadline=`).

An SDK's timeout bounds each socket read, so a server dripping its answer a byte at a time is
never cut off. Here the bound is on the whole answer, connect to last byte, streams included:

- `timeout=` (per provider; default `DEFAULT_TIMEOUT`): one attempt, one call to the provider.
  Past it the attempt fails with `ProviderTimeoutError`, retried and fallen back from as any.
- `deadline=` (per client; default `DEFAULT_DEADLINE`): one `complete()` / `stream()` / `run()`
  step, its retries, repairs and fallbacks included. Past it, `DeadlineExceeded`: nothing more
  is tried, and no retry waits past it.

Sync calls are bounded at the sockets (`adapters._deadline`: every read and write is given the
time left), async ones by asyncio's timeouts; a stream is checked between its chunks too.
"""

from __future__ import annotations

import sys
import time
from collections.abc import AsyncIterator, Awaitable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from .._defaults import DEFAULT_DEADLINE as DEFAULT_DEADLINE
from ..adapters._deadline import bounded, next_within
from ..errors import ConfigError, DeadlineExceeded, ProviderTimeoutError, TransientError

_T = TypeVar("_T")

DEFAULT_TIMEOUT = 600.0
"""Seconds one attempt may take, connect to last byte, when no `timeout=` is given (the OpenAI and
Anthropic SDKs' default read timeout, now a bound on the whole answer)."""


def checked_seconds(name: str, value: float | None) -> float | None:
    """`value` if it is a positive, finite number of seconds (or None); else a `ConfigError`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        raise ConfigError(f"{name} must be a positive, finite number of seconds, or None")
    return float(value)


def request_end(deadline: float | None) -> float | None:
    """The moment (`time.monotonic()`) by which a request starting now must be over."""
    return None if deadline is None else time.monotonic() + deadline


class AttemptClock:
    """The time one attempt has: `timeout` from now, and never past the request's end.

    Raises `DeadlineExceeded` when built after the request's end: no attempt starts then.
    """

    def __init__(
        self, *, timeout: float, ends: float | None, deadline: float | None, provider: str, model: str
    ) -> None:
        self.provider, self.model = provider, model
        self.timeout, self.deadline = timeout, deadline
        now = time.monotonic()
        self.total = ends is not None and ends <= now + timeout
        """The request's deadline, not the attempt's timeout, is what ends this attempt."""
        self.at = ends if ends is not None and self.total else now + timeout
        if self.at <= now:
            raise self.error()

    def error(self) -> ProviderTimeoutError:
        """The error an attempt ends with when its time is up."""
        if self.total:
            return DeadlineExceeded(
                f"no answer within deadline={self.deadline:g}s (retries, repairs and fallbacks included)",
                provider=self.provider,
                model=self.model,
            )
        return ProviderTimeoutError(
            f"no complete answer within timeout={self.timeout:g}s (connect to last byte)",
            provider=self.provider,
            model=self.model,
        )

    def passed(self) -> bool:
        """Whether the attempt's time is up."""
        return time.monotonic() >= self.at

    def _raise_if_up(self, error: TransientError) -> None:
        """A transient failure after the time was up (the sockets' timeout, a drop) is the clock's error."""
        if self.passed() and not isinstance(error, DeadlineExceeded):
            raise self.error() from error

    @contextmanager
    def sync(self) -> Iterator[None]:
        """Sockets of the block obey the clock; a transient failure once it ran out is the clock's error."""
        with bounded(self.at):
            try:
                yield
            except TransientError as error:
                self._raise_if_up(error)
                raise

    def chunks(self, inner: Iterator[_T]) -> Iterator[_T]:
        """A stream's chunks, each read within the clock; the stream is closed however it ends."""
        try:
            while True:
                try:
                    chunk = next_within(inner, self.at, _END)
                except TransientError as error:
                    self._raise_if_up(error)
                    raise
                if chunk is _END:
                    return
                if time.monotonic() >= self.at:
                    raise self.error()
                yield chunk  # type: ignore[misc]
        finally:
            close = getattr(inner, "close", None)
            if close is not None:
                close()

    async def wait(self, awaitable: Awaitable[_T]) -> _T:
        """`await awaitable`, given the time left and no more."""
        import asyncio  # Here, not at the top: a sync client never loads asyncio (~15 ms with ssl).

        left = self.at - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            if sys.version_info >= (3, 11):
                async with asyncio.timeout(left):  # No task per call, unlike wait_for.
                    return await awaitable
            return await asyncio.wait_for(awaitable, left)  # pragma: no cover - Python 3.10
        except (TimeoutError, asyncio.TimeoutError):
            _discard(awaitable)
            raise self.error() from None
        except TransientError as error:
            self._raise_if_up(error)
            raise

    async def achunks(self, inner: AsyncIterator[_T]) -> AsyncIterator[_T]:
        """`chunks` for an async stream.

        One timer for the whole stream, not one per chunk (asyncio.timeout costs ~10 us a chunk):
        when it fires while a chunk is awaited, that await is cancelled; when it fires while the
        consumer has the chunk, the next read fails at once.
        """
        import asyncio

        loop = asyncio.get_running_loop()
        reading: list[asyncio.Task[object]] = []  # The task awaiting a chunk, while it does.
        fired = False

        def expire() -> None:
            nonlocal fired
            fired = True
            for task in reading:
                task.cancel()

        timer = loop.call_at(loop.time() + (self.at - time.monotonic()), expire)
        try:
            while True:
                if fired or self.passed():
                    raise self.error()
                task = asyncio.current_task()
                if task is not None:
                    reading.append(task)
                try:
                    chunk = await inner.__anext__()
                except StopAsyncIteration:
                    return
                except asyncio.CancelledError:
                    if not fired:
                        raise
                    if task is not None and sys.version_info >= (3, 11):
                        task.uncancel()  # Our cancellation, turned into our error: no one else's count.
                    raise self.error() from None
                except TransientError as error:
                    self._raise_if_up(error)
                    raise
                finally:
                    reading.clear()
                yield chunk
        finally:
            timer.cancel()
            close = getattr(inner, "aclose", None)
            if close is not None:
                await close()


_END = object()


def _discard(awaitable: Awaitable[object]) -> None:
    """Close an awaitable that will never be awaited (so Python does not warn that it was not)."""
    close = getattr(awaitable, "close", None)
    if close is not None:
        close()
