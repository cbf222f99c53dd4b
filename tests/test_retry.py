"""RetryPolicy: what is retried, how long it waits, and when it stops."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from llmrelay import (
    AuthenticationError,
    BadRequestError,
    OverloadedError,
    ProviderConnectionError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
    RetryPolicy,
    ServerError,
)


def failing(errors: list[ProviderError], result: str = "ok") -> tuple[Callable[[], str], list[int]]:
    calls: list[int] = []

    def function() -> str:
        calls.append(1)
        if len(calls) <= len(errors):
            raise errors[len(calls) - 1]
        return result

    return function, calls


def error(cls: type[ProviderError], retry_after: float | None = None) -> ProviderError:
    return cls("boom", provider="test", status=None, retry_after=retry_after)


@pytest.mark.parametrize(
    "cls", [RateLimitError, OverloadedError, ProviderTimeoutError, ProviderConnectionError, ServerError]
)
def test_transient_errors_are_retried(cls: type[ProviderError]) -> None:
    waits: list[float] = []
    function, calls = failing([error(cls), error(cls)])
    assert RetryPolicy(sleep=waits.append, jitter=0).call(function) == "ok"
    assert (len(calls), waits) == (3, [0.5, 1.0])


@pytest.mark.parametrize("cls", [AuthenticationError, BadRequestError, ProviderError])
def test_other_errors_are_raised_at_once(cls: type[ProviderError]) -> None:
    waits: list[float] = []
    function, calls = failing([error(cls)])
    with pytest.raises(cls):
        RetryPolicy(sleep=waits.append).call(function)
    assert (len(calls), waits) == (1, [])


def test_attempts_are_bounded_and_the_last_error_is_raised() -> None:
    function, calls = failing([error(ServerError)] * 10)
    with pytest.raises(ServerError):
        RetryPolicy(max_attempts=3, sleep=lambda _: None).call(function)
    assert len(calls) == 3


def test_retry_after_is_honoured_and_capped() -> None:
    waits: list[float] = []
    function, _ = failing([error(RateLimitError, retry_after=7), error(RateLimitError, retry_after=500)])
    RetryPolicy(sleep=waits.append, max_retry_after=60).call(function)
    assert waits == [7, 60]


def test_backoff_is_exponential_capped_and_jittered() -> None:
    policy = RetryPolicy(initial_delay=1, max_delay=5, jitter=0.25)
    delays = [policy.delay(n, error(ServerError)) for n in range(1, 6)]
    for delay, base in zip(delays, [1, 2, 4, 5, 5], strict=True):
        assert base <= delay <= base + 0.25


def test_total_time_is_bounded() -> None:
    clock = [0.0]

    def sleep(seconds: float) -> None:
        clock[0] += seconds

    function, calls = failing([error(ServerError)] * 10)
    policy = RetryPolicy(max_attempts=10, initial_delay=10, jitter=0, total_timeout=25, sleep=sleep)
    with pytest.raises(ServerError), pytest.MonkeyPatch.context() as patch:
        patch.setattr("time.monotonic", lambda: clock[0])
        policy.call(function)
    assert len(calls) < 10


def test_one_attempt_turns_retrying_off() -> None:
    function, calls = failing([error(ServerError)])
    with pytest.raises(ServerError):
        RetryPolicy(max_attempts=1).call(function)
    assert len(calls) == 1


def test_each_retry_is_reported() -> None:
    seen: list[tuple[str, float]] = []
    function, _ = failing([error(RateLimitError, retry_after=2)])
    RetryPolicy(sleep=lambda _: None).call(function, on_retry=lambda e, wait: seen.append((type(e).__name__, wait)))
    assert seen == [("RateLimitError", 2)]


async def test_async_retries_use_the_async_sleep() -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    attempts: list[int] = []

    async def function() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise error(OverloadedError, retry_after=1)
        return "ok"

    assert await RetryPolicy(async_sleep=sleep).acall(function) == "ok"
    assert waits == [1, 1]


def test_a_call_that_succeeds_builds_no_retry_machinery(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 13: a tenacity retry object (~2.6 KB) was built for every call; now only after a failure.
    import tenacity

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("tenacity used on a call that did not fail")

    monkeypatch.setattr(tenacity, "Retrying", refuse)
    monkeypatch.setattr(tenacity, "AsyncRetrying", refuse)

    async def answer() -> str:
        return "ok"

    assert RetryPolicy().call(lambda: "ok") == "ok"
    assert asyncio.run(RetryPolicy().acall(answer)) == "ok"
