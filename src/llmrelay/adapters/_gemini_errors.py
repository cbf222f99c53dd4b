"""Gemini's errors as llmrelay errors: `to_error(exc, model=..., secret=...)`.

google-genai raises `APIError` (`ClientError` for 4xx, `ServerError` for 5xx) with `code` (the
HTTP status), `status` (Google's canonical code: INVALID_ARGUMENT, RESOURCE_EXHAUSTED, ...),
`message`, `details` (the whole decoded body) and `response` (the HTTP response). Timeouts and
connection failures come through unwrapped, as the exceptions of whichever HTTP library sent the
request. The status table, Retry-After headers and key redaction are those of every adapter
(`_errors`); Gemini's quirks, with the bodies the tests replay (`tests/adapters/gemini_bodies.py`):

- A wrong key is 400 INVALID_ARGUMENT, "API key not valid. Please pass a valid API key.", with an
  ErrorInfo detail `"reason": "API_KEY_INVALID"`. It becomes an `AuthenticationError` (status 400
  kept): the fix is the key, and a mode fallback or the capability learner must not see it as a
  refused feature.
- A 429 names its wait in a RetryInfo detail (`"retryDelay": "45s"`), not in a header; a
  `retry-after` header, should a proxy add one, wins.
- No request-id header is sent; one is read if a proxy adds `x-request-id`.

Imported by `gemini.py` after its guarded SDK import.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from typing import Any

from google.genai import errors as genai_errors

from ..errors import AuthenticationError, ProviderError, ServerError
from ._errors import redact, scrubbed, seconds, status_error, transport_error

PROVIDER = "gemini"


def to_error(exc: Exception, *, model: str, secret: str | None, provider: str = PROVIDER) -> ProviderError | None:
    """Our error for an SDK or transport exception; None for anything else (a bug: let it show).

    `exc` itself is scrubbed of the key too: it stays the `__cause__`, which a traceback prints.
    `provider` is "vertex" when the same API is reached through Vertex AI.
    """
    scrubbed(exc, secret)
    if isinstance(exc, genai_errors.APIError):
        return _status_error(exc, model, secret, provider)
    timeouts, connections = _transport_errors()
    if isinstance(exc, (*timeouts, *connections)):
        timeout = isinstance(exc, timeouts)  # Checked first: httpx's TimeoutException is a TransportError too.
        return transport_error(exc, timeout=timeout, provider=provider, model=model, secret=secret)
    if isinstance(exc, genai_errors.UnknownApiResponseError):  # A 200 whose body is not JSON.
        return ServerError(redact(str(exc), secret)[:500], provider=provider, model=model, status=200)
    return None


def lower(headers: Any) -> dict[str, str]:
    """Headers as a plain dict with lower-case names (httpx, httpx2 and aiohttp all differ)."""
    return {str(key).lower(): str(value) for key, value in (headers or {}).items()}


def _status_error(exc: genai_errors.APIError, model: str, secret: str | None, provider: str) -> ProviderError:
    status = exc.code if isinstance(exc.code, int) else None
    message = str(exc.message or exc.status or f"HTTP {status}")
    headers = lower(getattr(exc.response, "headers", None))
    return status_error(
        message,
        status=status,
        provider=provider,
        model=model,
        headers=headers,
        body=exc.details,
        request_id=headers.get("x-request-id"),
        code=exc.status,
        secret=secret,
        wait=_retry_delay(exc.details),
        cls=AuthenticationError if status == 400 and _bad_key(message, exc.details) else None,
    )


def _bad_key(message: str, body: Any) -> bool:
    reasons = {detail.get("reason") for detail in _error_details(body)}
    return "API_KEY_INVALID" in reasons or "api key not valid" in message.lower()


def _error_details(body: Any) -> list[Mapping[str, Any]]:
    error = body.get("error") if isinstance(body, Mapping) else None
    details = error.get("details") if isinstance(error, Mapping) else None
    return [item for item in details if isinstance(item, Mapping)] if isinstance(details, list) else []


def _retry_delay(body: Any) -> float | None:
    """The wait a RetryInfo detail names ("retryDelay": "40s"): Gemini's 429s send no Retry-After."""
    for detail in _error_details(body):
        delay = detail.get("retryDelay")
        if str(detail.get("@type", "")).endswith("google.rpc.RetryInfo") and isinstance(delay, str):
            return seconds(delay.removesuffix("s"))
    return None


def _transport_errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """Timeout and connection exception classes of whichever HTTP stacks the SDK has loaded.

    Which one google-genai sends with depends on its version (httpx2 from 3.x, httpx before) and
    on what is installed (aiohttp for async calls when present), so all that are loaded count.
    """
    timeouts: list[type[BaseException]] = [TimeoutError, asyncio.TimeoutError]  # Distinct before 3.11.
    connections: list[type[BaseException]] = []
    for name in ("httpx", "httpx2"):
        if (module := sys.modules.get(name)) is not None:
            timeouts.append(module.TimeoutException)
            connections.append(module.TransportError)  # TimeoutException is one too: checked first.
    if (aiohttp := sys.modules.get("aiohttp")) is not None:
        connections.append(aiohttp.ClientConnectionError)
    return tuple(timeouts), tuple(connections)
