"""One respx router that intercepts both HTTP stacks the provider SDKs use.

Current openai, anthropic and google-genai send through httpx2 (transport: httpcore2); groq and
the previous SDK majors send through httpx (httpcore). respx patches one transport library per
mocker, so `mock_http` registers the same router with each mocker whose library is installed:
routes added once answer every SDK, sync and async, and nothing reaches the network.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

try:
    import respx
    from respx.mocks import HTTPCoreMocker, Mocker
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from ..errors import MissingDependencyError

    raise MissingDependencyError(
        package="respx", extra="testing", needed_for="to mock HTTP (llmrelay.testing.mock_http)"
    ) from exc

if "httpcore2" not in Mocker.registry:

    class HTTPCore2Mocker(HTTPCoreMocker):
        """respx's httpcore mocker, pointed at httpcore2 (what pytest-httpx2 registers too)."""

        name = "httpcore2"
        targets = [  # noqa: RUF012 - the shape respx's Mocker declares
            "httpcore2._sync.connection.HTTPConnection",
            "httpcore2._sync.connection_pool.ConnectionPool",
            "httpcore2._sync.http_proxy.HTTPProxy",
            "httpcore2._async.connection.AsyncHTTPConnection",
            "httpcore2._async.connection_pool.AsyncConnectionPool",
            "httpcore2._async.http_proxy.AsyncHTTPProxy",
        ]


def installed_stacks() -> list[str]:
    """The transport libraries present: "httpcore" (httpx) and/or "httpcore2" (httpx2)."""
    return [name for name in ("httpcore", "httpcore2") if importlib.util.find_spec(name) is not None]


@contextmanager
def mock_http(*, assert_all_called: bool = False, **options: Any) -> Iterator[respx.MockRouter]:
    """A respx router active on every installed HTTP stack; unmatched requests raise.

    Routes are declared as with respx (`router.post(url).respond(json=...)`); `router.calls`
    records every request, whichever stack sent it, as an `httpx.Request`.
    """
    router = respx.MockRouter(using=installed_stacks()[0], assert_all_called=assert_all_called, **options)
    with on_every_stack(router):
        yield router


@contextmanager
def on_every_stack(router: respx.MockRouter) -> Iterator[respx.MockRouter]:
    """Activate `router` (built with `using=installed_stacks()[0]`) on every installed stack."""
    with ExitStack() as stack:
        stack.enter_context(router)
        for name in installed_stacks()[1:]:
            mocker = Mocker.registry[name]
            mocker.register(router)
            mocker.start()
            stack.callback(_stop, mocker, router)
        yield router


def _stop(mocker: type[Mocker], router: respx.MockRouter) -> None:
    mocker.unregister(router)
    mocker.stop()
