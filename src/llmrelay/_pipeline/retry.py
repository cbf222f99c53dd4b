"""`RetryPolicy`: the one place transient failures are retried.

Only `TransientError`s are retried (429, 408, 409, 5xx, Anthropic's 529, timeouts, dropped
connections); every other error is raised at once. Waits grow exponentially with jitter, a
provider's Retry-After is honoured (capped), and both the number of attempts and the total time
are bounded. The SDKs' own retries are off (each adapter sets `max_retries=0`), so retries never
multiply. Built on tenacity, imported only when a call is made.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import DeadlineExceeded, TransientError

if TYPE_CHECKING:
    from tenacity import RetryCallState

_T = TypeVar("_T")


async def _asyncio_sleep(seconds: float) -> None:
    import asyncio  # Only for AsyncClient: asyncio (with ssl) costs ~15 ms at import.

    await asyncio.sleep(seconds)


@dataclass(frozen=True)
class RetryPolicy:
    """How transient failures are retried. `RetryPolicy(max_attempts=1)` turns retrying off."""

    max_attempts: int = 4
    """Tries per provider call, the first included."""
    initial_delay: float = 0.5
    """Seconds before the first retry; doubled for each one after."""
    max_delay: float = 30.0
    """The longest wait between two tries (before jitter)."""
    jitter: float = 0.5
    """Up to this many seconds of random extra wait, so clients do not retry in lockstep."""
    max_retry_after: float = 60.0
    """A provider's Retry-After longer than this is cut to it."""
    total_timeout: float = 120.0
    """No retry starts later than this many seconds after the first try (its wait included)."""
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False, compare=False)
    """How to wait (tests inject a recorder so they run instantly)."""
    async_sleep: Callable[[float], Awaitable[None]] = field(default=_asyncio_sleep, repr=False, compare=False)
    """How to wait in `AsyncClient`."""

    def delay(self, retry_number: int, error: BaseException | None) -> float:
        """Seconds to wait before retry number `retry_number` (1 for the first retry)."""
        retry_after: float | None = error.retry_after if isinstance(error, TransientError) else None
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after)
        import random  # Here: only a retry needs it (it loads hashlib's sha512 at import).

        backoff = min(self.initial_delay * 2.0 ** (retry_number - 1), self.max_delay)
        return backoff + random.uniform(0, self.jitter)

    def call(
        self,
        function: Callable[[], _T],
        on_retry: Callable[[BaseException, float], None] | None = None,
        *,
        ends: float | None = None,
    ) -> _T:
        """Call `function`, retrying transient failures; `on_retry(error, wait)` is told of each.

        No retry starts, and no wait lasts, past `ends` (a `time.monotonic()` moment, the
        request's deadline): when the wait would, the last failure is raised instead.
        """
        try:
            return function()  # The usual case: one try, and no retry machinery built for it.
        except TransientError as error:
            first = error
        from tenacity import Retrying

        retrying = Retrying(**self._tenacity_options(on_retry, ends), sleep=self.sleep)
        return retrying(_failing_first(first, function))

    async def acall(
        self,
        function: Callable[[], Awaitable[_T]],
        on_retry: Callable[[BaseException, float], None] | None = None,
        *,
        ends: float | None = None,
    ) -> _T:
        """`call` for coroutines."""
        try:
            return await function()
        except TransientError as error:
            first = error
        from tenacity import AsyncRetrying

        retrying = AsyncRetrying(**self._tenacity_options(on_retry, ends), sleep=self.async_sleep)
        pending = [first]

        async def again() -> _T:  # As `_failing_first`: tenacity needs a coroutine function here.
            if pending:
                raise pending.pop()
            return await function()

        return await retrying(again)

    def _tenacity_options(
        self, on_retry: Callable[[BaseException, float], None] | None, ends: float | None
    ) -> dict[str, Any]:
        from tenacity import retry_if_exception, stop_after_attempt, stop_before_delay

        def wait(state: RetryCallState) -> float:
            error = state.outcome.exception() if state.outcome else None
            return self.delay(state.attempt_number, error)

        def before_sleep(state: RetryCallState) -> None:
            if on_retry is not None and state.outcome is not None and state.next_action is not None:
                error = state.outcome.exception()
                if error is not None:
                    on_retry(error, state.next_action.sleep)

        # stop_before_delay counts the wait ahead too: no retry *starts* past total_timeout.
        limits = stop_after_attempt(max(self.max_attempts, 1)) | stop_before_delay(self.total_timeout)

        def stop(state: RetryCallState) -> bool:
            # Nor does a wait end past the request's deadline (`ends`): the failure is raised instead.
            return bool(limits(state)) or (ends is not None and time.monotonic() + state.upcoming_sleep >= ends)

        return {
            "stop": stop,
            "wait": wait,
            "retry": retry_if_exception(_retryable),
            "before_sleep": before_sleep,
            "reraise": True,
        }


def _retryable(error: BaseException) -> bool:
    # A passed deadline is transient by nature (a timeout), but retrying cannot beat it.
    return isinstance(error, TransientError) and error.retryable and not isinstance(error, DeadlineExceeded)


def _failing_first(error: TransientError, function: Callable[[], _T]) -> Callable[[], _T]:
    """`function`, whose first call raises the failure the first try already had.

    The first try runs outside tenacity (building its retry state costs memory on every call);
    after a failure tenacity takes over, and this replays that failure as its attempt 1, so the
    attempts, waits and `on_retry` reports are those of one tenacity loop.
    """
    pending: list[TransientError] = [error]

    def again() -> _T:
        if pending:
            raise pending.pop()
        return function()

    return again
