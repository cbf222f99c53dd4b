"""Credentials go only to the origin they were given for: request hooks for httpx and httpx2 clients.

google-genai follows redirects (`follow_redirects=True`) and httpx, on a redirect to another
origin, drops `Authorization` but keeps every other header: Gemini's `x-goog-api-key` went with a
307 to whichever host it named. These hooks run before each request a client sends, redirects
included, and take the credential headers off any request whose origin (scheme, host, port) is
not the configured endpoint's, as browsers and the OpenAI and Anthropic SDKs do.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
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


def keep_credentials_at(url: str) -> Callable[[Any], None]:
    """A request hook (sync clients) taking credential headers off requests to any other origin than `url`'s."""
    allowed = origin_of(url)

    def hook(request: Any) -> None:
        if _request_origin(request) != allowed:
            for name in CREDENTIAL_HEADERS:
                request.headers.pop(name, None)

    return hook


def akeep_credentials_at(url: str) -> Callable[[Any], Awaitable[None]]:
    """The same hook for async clients (httpx awaits them)."""
    hook = keep_credentials_at(url)

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


def client_arguments(url: str, *, is_async: bool) -> dict[str, Any]:
    """The httpx / httpx2 client arguments that install the hook."""
    hook = akeep_credentials_at(url) if is_async else keep_credentials_at(url)
    return {"event_hooks": {"request": [hook]}}
