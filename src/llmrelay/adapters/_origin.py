"""Credentials go only to the origin they were given for: request hooks for httpx and httpx2 clients.

google-genai follows redirects (`follow_redirects=True`) and httpx, on a redirect to another
origin, drops `Authorization` but keeps every other header: Gemini's `x-goog-api-key` went with a
307 to whichever host it named, and on every provider so did the headers given in `headers=`
(an `X-Proxy-Token`, say; the OpenAI, Anthropic and Groq SDKs drop only their own key). These
hooks run before each request a client sends, redirects included, and take the credential headers
and the user's own headers off any request whose origin (scheme, host, port) is not the
configured endpoint's.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

CREDENTIAL_HEADERS = ("x-goog-api-key", "authorization", "proxy-authorization", "x-api-key", "api-key")
_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int | None]


def origin_of(url: str) -> Origin:
    """The (scheme, host, port) of a URL, the port made explicit."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or _PORTS.get(scheme)


def _request_origin(request: Any) -> Origin:
    url = request.url
    scheme = str(url.scheme).lower()
    return scheme, str(url.host).lower(), url.port or _PORTS.get(scheme)


def keep_credentials_at(url: str, headers: Iterable[str] = ()) -> Callable[[Any], None]:
    """A request hook (sync clients) taking credential headers, and `headers`, off requests to another origin."""
    allowed = origin_of(url)
    names = {*CREDENTIAL_HEADERS, *(name.lower() for name in headers)}

    def hook(request: Any) -> None:
        if _request_origin(request) != allowed:
            for name in names:
                request.headers.pop(name, None)

    return hook


def akeep_credentials_at(url: str, headers: Iterable[str] = ()) -> Callable[[Any], Awaitable[None]]:
    """The same hook for async clients (httpx awaits them)."""
    hook = keep_credentials_at(url, headers)

    async def ahook(request: Any) -> None:
        hook(request)

    return ahook


def endpoint_host(base_url: str | None, env: str | None, default: str) -> str | None:
    """The host an SDK sends to: `base_url`, else the SDK's own environment variable, else its default.

    The SDKs read `OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `GROQ_BASE_URL` and
    `GOOGLE_GEMINI_BASE_URL` when no base URL is given: a variable set in the environment sends
    the key elsewhere silently, so the host actually used is put on each `Attempt`.
    """
    url = base_url or (os.environ.get(env) if env else None) or default
    return urlsplit(url).hostname


def client_arguments(url: str, headers: Iterable[str] = (), *, is_async: bool) -> dict[str, Any]:
    """The httpx / httpx2 client arguments that install the hook."""
    hook = akeep_credentials_at(url, headers) if is_async else keep_credentials_at(url, headers)
    return {"event_hooks": {"request": [hook]}}


def guard_sdk_client(client: Any, headers: Iterable[str], *, is_async: bool) -> None:
    """Install the hook on a Stainless SDK client (openai, anthropic, groq), for its resolved `base_url`.

    `_client` is private, but where openai 2 and 3, anthropic 0.x and 2.x and groq all keep the
    httpx or httpx2 client they send with; the redirect tests would see a rename.
    """
    client._client.event_hooks["request"].extend(
        client_arguments(str(client.base_url), headers, is_async=is_async)["event_hooks"]["request"]
    )
