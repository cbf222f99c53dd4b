from __future__ import annotations

import functools
import os
import socket
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

import llmrelay._pipeline.setup
from llmrelay import RetryPolicy
from llmrelay.normalize import reset_strategies

llmrelay._pipeline.setup._load()  # What the first client loads, loaded now: tests patch those names.

LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
"""Where tests may connect: the loopback server the recording tests start (testing/_wire_server.py)."""


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never reach the network: opening a socket to anything but loopback is an error."""
    connect, create_connection = socket.socket.connect, socket.create_connection

    def checked(address: object) -> None:
        host = address[0] if isinstance(address, tuple) else address
        if host not in LOOPBACK:
            raise RuntimeError(f"tests must not open network connections (to {address!r})")

    def guarded_connect(self: socket.socket, address: object) -> None:
        checked(address)
        return connect(self, address)  # type: ignore[arg-type]

    def guarded_create_connection(address: object, *args: object, **kwargs: object) -> socket.socket:
        checked(address)
        return create_connection(address, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "create_connection", guarded_create_connection)


@pytest.fixture(autouse=True)
def _instant_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clients built without a retry policy retry at once: tests never really sleep.

    Tests about waiting pass their own `RetryPolicy(sleep=...)` and see the waits it was asked for.
    """

    async def no_async_sleep(seconds: float) -> None:
        return None

    instant = functools.partial(RetryPolicy, sleep=lambda seconds: None, async_sleep=no_async_sleep)
    monkeypatch.setattr(llmrelay._pipeline.setup, "RetryPolicy", instant)


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
