from __future__ import annotations

import functools
import os
import socket
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

import llmrelay._client
from llmrelay import RetryPolicy
from llmrelay.normalize import reset_strategies


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never reach the network: opening a socket to anything is an error."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise RuntimeError("tests must not open network connections")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture(autouse=True)
def _instant_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clients built without a retry policy retry at once: tests never really sleep.

    Tests about waiting pass their own `RetryPolicy(sleep=...)` and see the waits it was asked for.
    """

    async def no_async_sleep(seconds: float) -> None:
        return None

    instant = functools.partial(RetryPolicy, sleep=lambda seconds: None, async_sleep=no_async_sleep)
    monkeypatch.setattr(llmrelay._client, "RetryPolicy", instant)


@pytest.fixture(autouse=True)
def _builtin_strategies() -> Iterator[None]:
    """A test that registers a strategy does not leak it into the next test."""
    reset_strategies()
    yield
    reset_strategies()


NO_BLOWUP_SECONDS = 5.0
"""The bound for the 'linear on hostile input' tests: they guard against quadratic blowups, not speed.

Linear code takes milliseconds on their inputs and a quadratic scan takes minutes, so a bound this
generous never flakes on a busy machine and still catches the bug. Speed itself is measured in
benchmarks/ (parse_speed.py, lenient_json_speed.py), not asserted here.
"""


# Hypothesis: the CI run stays short; `scripts/fuzz.py` runs the same properties under the "fuzz"
# profile, for as long as it is given. No deadline in either: a busy machine must not fail a test.
settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("LLMRELAY_FUZZ_EXAMPLES", "5000")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
