"""A deadline that holds (issue 12): `timeout=` bounds a whole attempt, `deadline=` a whole request.

A server on loopback drips its answer one byte at a time: each socket read is quick, so an SDK's
read timeout never fires. Through every provider's real adapter and SDK, sync and async,
`complete()` and `stream()` still end near `timeout=`; `deadline=` ends the request, retries
included; retry waits (Retry-After included) never pass it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

import llmrelay
from llmrelay import (
    AllAttemptsFailed,
    ConfigError,
    DeadlineExceeded,
    ProviderTimeoutError,
    RateLimitError,
    RetryPolicy,
    StreamInterrupted,
    TextDelta,
)
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import FakeAdapter
from llmrelay.testing._wire_server import Reply, WireServer

MODELS = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-sonnet-4-6",
    "gemini": "gemini-2.5-flash",
    "groq": "llama-3.3-70b-versatile",
    "openrouter": "meta-llama/llama-3.3-70b-instruct",
    "openai-compatible": "llama3.2",
}
DRIP = Reply("The answer is a long sentence that is sent one byte at a time.", drip=0.05)
"""About 200 bytes at 20 per second: ten seconds, were it read to the end."""
TIMEOUT = 0.4
LATE = 2.0
"""Far below the drip's ten seconds, far above the timeout: the bound held."""


def make(provider: str, server: WireServer, *, is_async: bool = False, **options: Any) -> Any:
    options = {"timeout": TIMEOUT, "retry": RetryPolicy(max_attempts=1), **options}
    cls = llmrelay.AsyncClient if is_async else llmrelay.Client
    return cls(
        f"{provider}:{MODELS[provider]}",
        api_key="k",
        base_url=server.base_url_for(provider),
        learner=CapabilityLearner(),
        **options,
    )


def complete(client: Any, is_async: bool) -> Any:
    if is_async:
        return asyncio.run(client.complete("Hello?"))
    return client.complete("Hello?")


def stream(client: Any, is_async: bool) -> Any:
    if not is_async:
        return list(client.stream("Hello?"))

    async def collect() -> list[Any]:
        return [event async for event in client.stream("Hello?")]

    return asyncio.run(collect())


ENTRIES: dict[str, Callable[[Any, bool], Any]] = {"complete": complete, "stream": stream}


def timed(call: Callable[[], Any]) -> tuple[BaseException, float]:
    started = time.monotonic()
    with pytest.raises(llmrelay.ProviderError) as caught:
        call()
    return caught.value, time.monotonic() - started


def timeout_of(error: BaseException) -> BaseException:
    """The timeout itself: a stream cut after its first event carries it as its cause."""
    if isinstance(error, StreamInterrupted):
        assert error.partial is not None
        assert error.__cause__ is not None
        return error.__cause__
    return error


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("entry", list(ENTRIES))
@pytest.mark.parametrize("provider", list(MODELS))
def test_a_dripping_server_is_cut_off_at_the_attempt_timeout(provider: str, entry: str, is_async: bool) -> None:
    with WireServer([DRIP]) as server:
        client = make(provider, server, is_async=is_async)
        error, took = timed(lambda: ENTRIES[entry](client, is_async))
    cause = timeout_of(error)
    assert type(cause) is ProviderTimeoutError
    assert f"within timeout={TIMEOUT:g}s" in str(cause)
    assert TIMEOUT * 0.9 <= took < LATE


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("provider", list(MODELS))
def test_a_stream_cut_after_its_first_event_keeps_what_came(provider: str, is_async: bool) -> None:
    """The first event comes at once, the rest drips: `StreamInterrupted`, with the text so far."""
    reply = Reply("First. " + "then the rest, dripping " * 20, drip=0.05)
    with WireServer([reply]) as server:
        client = make(provider, server, is_async=is_async)
        seen: list[str] = []

        async def collect() -> None:
            async for event in client.stream("Hello?"):
                if isinstance(event, TextDelta):
                    seen.append(event.text)

        def run() -> None:
            if is_async:
                asyncio.run(collect())
            else:
                seen.extend(e.text for e in client.stream("Hello?") if isinstance(e, TextDelta))

        error, took = timed(run)
    assert took < LATE
    if seen:  # Some providers' first event carries no text: then the timeout comes before any event.
        assert isinstance(error, StreamInterrupted) and error.partial.content.startswith("".join(seen))
    assert isinstance(timeout_of(error), ProviderTimeoutError)


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("entry", list(ENTRIES))
def test_the_deadline_ends_the_request_retries_included(entry: str, is_async: bool) -> None:
    """Each attempt times out at 0.4 s and is retried; the request's deadline (0.6 s) cuts the second."""
    retry = RetryPolicy(max_attempts=5, initial_delay=0, jitter=0)
    with WireServer([DRIP] * 5) as server:
        client = make("openai", server, is_async=is_async, retry=retry, deadline=0.6)
        error, took = timed(lambda: ENTRIES[entry](client, is_async))
        tries = len(server.requests)
    assert isinstance(error, DeadlineExceeded), error
    assert "deadline=0.6s" in str(error)
    assert tries == 2
    assert 0.55 <= took < LATE


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_the_deadline_holds_with_no_timeout_given(is_async: bool) -> None:
    """Gemini's stream client has no timeout of its own: the deadline still ends the stream."""
    with WireServer([DRIP]) as server:
        client = make("gemini", server, is_async=is_async, timeout=None, deadline=0.5)
        error, took = timed(lambda: stream(client, is_async))
    assert isinstance(timeout_of(error), DeadlineExceeded)
    assert took < LATE


def test_the_deadline_is_not_fallen_back_from() -> None:
    with WireServer([DRIP] * 3) as server:
        client = make("openai", server, modes=["native_tools", "json_schema", "text"], deadline=0.3, timeout=5)
        error, _ = timed(lambda: client.complete("Weather?", tools=[get_weather]))
        assert len(server.requests) == 1
    assert isinstance(error, DeadlineExceeded) and not isinstance(error, AllAttemptsFailed)


def get_weather(city: str) -> str:
    """Weather for a city."""
    return "sunny"


# --- waits never pass the deadline ---------------------------------------------------------------


def limited(retry_after: float) -> RateLimitError:
    return RateLimitError("slow down", provider="fake", model="m", status=429, retry_after=retry_after)


@pytest.mark.parametrize(
    ("retry_after", "deadline", "slept"),
    [
        (30.0, 1.0, []),  # The wait would pass the deadline: the 429 is raised at once.
        (0.01, 5.0, [0.01]),  # A wait within the deadline is waited.
        (30.0, None, [30.0]),  # No deadline: Retry-After as before (capped by max_retry_after).
    ],
)
def test_retry_waits_never_pass_the_deadline(retry_after: float, deadline: float | None, slept: list[float]) -> None:
    waits: list[float] = []
    retry = RetryPolicy(sleep=waits.append, jitter=0)
    fake = FakeAdapter([limited(retry_after), "Fine."])
    client = llmrelay.Client("openai:gpt-4o-mini", adapter=fake, retry=retry, deadline=deadline, mode="text")
    if slept:
        assert client.complete("Hi").content == "Fine."
    else:
        with pytest.raises(RateLimitError):
            client.complete("Hi")
    assert waits == slept


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_a_slow_adapter_of_any_kind_is_bounded_in_async(is_async: bool) -> None:
    """Async bounds every adapter, a user's own included (sync ones: through the built-in adapters' sockets)."""

    class Slow(FakeAdapter):
        async def asend(self, request: Any) -> Any:
            await asyncio.sleep(5)
            raise AssertionError("not cut off")

    client = llmrelay.AsyncClient("openai:gpt-4o-mini", adapter=Slow(), retry=RetryPolicy(max_attempts=1), deadline=0.3)
    error, took = timed(lambda: asyncio.run(client.complete("Hi")))
    assert isinstance(error, DeadlineExceeded) and took < LATE


@pytest.mark.parametrize("name", ["deadline", "timeout"])
@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "10", True])
def test_deadlines_must_be_positive_finite_seconds(name: str, bad: object) -> None:
    with pytest.raises(ConfigError, match=name):
        llmrelay.Client("openai:gpt-4o-mini", adapter=FakeAdapter(), **{name: bad})


def test_the_defaults() -> None:
    from llmrelay._pipeline.deadline import DEFAULT_DEADLINE, DEFAULT_TIMEOUT

    client = llmrelay.Client("openai:gpt-4o-mini", adapter=FakeAdapter())
    assert (client.deadline, DEFAULT_DEADLINE, DEFAULT_TIMEOUT) == (900.0, 900.0, 600.0)


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_each_step_of_run_has_the_deadline_and_the_run_so_far_is_kept(is_async: bool) -> None:
    """Step 1 calls a tool (quickly); step 2 drips: `DeadlineExceeded`, with `partial_run` (the tool ran once)."""
    call = Reply(tool_calls=[("get_weather", {"city": "Paris"})])
    with WireServer([call, DRIP]) as server:
        client = make("openai", server, is_async=is_async, timeout=5, deadline=0.5)

        def run() -> Any:
            result = client.run("Weather?", tools=[get_weather], mode="native_tools")
            return asyncio.run(result) if is_async else result

        error, took = timed(run)
    assert isinstance(error, DeadlineExceeded) and took < LATE
    assert error.partial_run is not None and len(error.partial_run.steps) == 1


def test_an_async_stream_of_any_adapter_is_cut_off_after_its_first_event() -> None:
    """One chunk, then silence: `StreamInterrupted` at the deadline, with the chunk, from any async adapter."""
    from llmrelay.adapters import Finish, TextPiece

    class Stalls(FakeAdapter):
        def stream(self, request: Any) -> Any:
            raise NotImplementedError

        async def astream(self, request: Any) -> Any:
            yield TextPiece("Hello, here is the answer.\n\n")
            await asyncio.sleep(5)
            yield Finish("stop")

    client = llmrelay.AsyncClient(
        "openai:gpt-4o-mini", adapter=Stalls(), retry=RetryPolicy(max_attempts=1), deadline=0.3
    )
    error, took = timed(lambda: stream(client, True))
    assert isinstance(error, StreamInterrupted) and isinstance(error.__cause__, DeadlineExceeded)
    assert error.partial.content.startswith("Hello, here is the answer.") and took < LATE
