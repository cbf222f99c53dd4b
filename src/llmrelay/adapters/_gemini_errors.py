"""Gemini's errors as llmrelay errors: `to_error(exc, model=..., secret=...)`.

google-genai raises `APIError` (`ClientError` for 4xx, `ServerError` for 5xx) with `code` (the
HTTP status), `status` (Google's canonical code: INVALID_ARGUMENT, RESOURCE_EXHAUSTED, ...),
`message`, `details` (the whole decoded body) and `response` (the HTTP response). Timeouts and
connection failures come through unwrapped, as the exceptions of whichever HTTP library sent the
request. Gemini's quirks, with the bodies the tests replay (`tests/adapters/gemini_bodies.py`):

- A wrong key is 400 INVALID_ARGUMENT, "API key not valid. Please pass a valid API key.", with an
  ErrorInfo detail `"reason": "API_KEY_INVALID"`. It becomes an `AuthenticationError` (status 400
  kept): the fix is the key, and a mode fallback or the capability learner must not see it as a
  refused feature.
- A 429 names its wait in a RetryInfo detail (`"retryDelay": "45s"`), not in a header.
- No request-id header is sent; one is read if a proxy adds `x-request-id`.

Imported by `gemini.py` after its guarded SDK import.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Mapping
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

from google.genai import errors as genai_errors

from ..capabilities import classify_rejection
from ..errors import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderConnectionError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
    ServerError,
    UnsupportedFeatureError,
)

PROVIDER = "gemini"
_BY_STATUS: dict[int, type[ProviderError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    408: ProviderTimeoutError,
    409: ServerError,  # ABORTED: "retry the transaction".
    422: BadRequestError,
    429: RateLimitError,
    503: OverloadedError,  # UNAVAILABLE: "The model is overloaded. Please try again later."
    529: OverloadedError,
}
_KEY_LIKE = re.compile(r"AIza[0-9A-Za-z_\-]{30,}")
"""Google API keys, should an error ever quote one (a Help link with `?key=`, say)."""


def to_error(exc: Exception, *, model: str, secret: str | None) -> ProviderError | None:
    """Our error for an SDK or transport exception; None for anything else (a bug: let it show)."""
    if isinstance(exc, genai_errors.APIError):
        return _status_error(exc, model, secret)
    timeouts, connections = _transport_errors()
    if isinstance(exc, timeouts):
        return ProviderTimeoutError(redact(str(exc) or "timed out", secret), provider=PROVIDER, model=model)
    if isinstance(exc, connections):
        return ProviderConnectionError(redact(str(exc) or type(exc).__name__, secret), provider=PROVIDER, model=model)
    if isinstance(exc, genai_errors.UnknownApiResponseError):  # A 200 whose body is not JSON.
        return ServerError(redact(str(exc), secret)[:500], provider=PROVIDER, model=model, status=200)
    return None


def lower(headers: Any) -> dict[str, str]:
    """Headers as a plain dict with lower-case names (httpx, httpx2 and aiohttp all differ)."""
    return {str(key).lower(): str(value) for key, value in (headers or {}).items()}


def _status_error(exc: genai_errors.APIError, model: str, secret: str | None) -> ProviderError:
    status = exc.code if isinstance(exc.code, int) else None
    body = _redacted(exc.details, secret)
    message = redact(str(exc.message or exc.status or f"HTTP {status}"), secret)
    headers = lower(getattr(exc.response, "headers", None))
    details: dict[str, Any] = {
        "provider": PROVIDER,
        "model": model,
        "status": status,
        "request_id": headers.get("x-request-id"),
        "body": body,
        "headers": headers,
        "retry_after": _retry_after(headers, body),
        "code": exc.status,
    }
    if status == 400 and _bad_key(message, body):
        return AuthenticationError(message, **details)
    if status in (400, 422) and (feature := classify_rejection(status, message)) is not None:
        return UnsupportedFeatureError(message, feature=feature, **details)
    default = ServerError if status is not None and status >= 500 else ProviderError
    return _BY_STATUS.get(status or 0, default)(message, **details)


def _bad_key(message: str, body: Any) -> bool:
    reasons = {detail.get("reason") for detail in _error_details(body)}
    return "API_KEY_INVALID" in reasons or "api key not valid" in message.lower()


def _error_details(body: Any) -> list[Mapping[str, Any]]:
    error = body.get("error") if isinstance(body, Mapping) else None
    details = error.get("details") if isinstance(error, Mapping) else None
    return [item for item in details if isinstance(item, Mapping)] if isinstance(details, list) else []


def _retry_after(headers: Mapping[str, str], body: Any) -> float | None:
    """From `retry-after-ms` / `retry-after` if sent, else the RetryInfo detail ("retryDelay": "40s")."""
    if (milliseconds := _number(headers.get("retry-after-ms"))) is not None:
        return max(milliseconds / 1000, 0.0)
    if value := headers.get("retry-after"):
        return _seconds_until(value)
    for detail in _error_details(body):
        delay = detail.get("retryDelay")
        if str(detail.get("@type", "")).endswith("google.rpc.RetryInfo") and isinstance(delay, str):
            return _number(delay.removesuffix("s"))
    return None


def _seconds_until(value: str) -> float | None:
    if (seconds := _number(value)) is not None:
        return max(seconds, 0.0)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
    return max((when - datetime.now(timezone.utc)).total_seconds(), 0.0)


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value else None
    except ValueError:
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


def redact(text: str, secret: str | None) -> str:
    """`text` with the API key, and anything shaped like a Google key, taken out."""
    if secret and len(secret) >= 8:
        text = text.replace(secret, "***")
    return _KEY_LIKE.sub("***", text)


def _redacted(value: Any, secret: str | None) -> Any:
    if isinstance(value, str):
        return redact(value, secret)
    if isinstance(value, Mapping):
        return {key: _redacted(item, secret) for key, item in value.items()}
    if isinstance(value, list):
        return [_redacted(item, secret) for item in value]
    return value
