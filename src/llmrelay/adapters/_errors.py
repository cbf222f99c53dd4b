"""Error answers as llmrelay errors, the same way for every adapter.

Each adapter takes the message, the code and the request id out of its SDK's exception (their
shapes differ); `status_error` then picks the class and fills in the rest. One status table:

```
400 413 422  BadRequestError, or UnsupportedFeatureError when `classify_rejection` names a feature
401          AuthenticationError
402 403      PermissionDeniedError     402: OpenRouter's "Insufficient credits": the key is fine, this use is not
404          NotFoundError
408          ProviderTimeoutError
409          ServerError               providers document 409 as "retry" (Google's ABORTED)
429          RateLimitError
498 503 529  OverloadedError           498: Groq's flex tier at capacity; 529: Anthropic; 503: Google's UNAVAILABLE
other 4xx    BadRequestError           the request must change before it can succeed
other 5xx    ServerError               and so is an error with no status (an error inside a 200)
```

`classify_rejection` is asked whatever the status: it knows which statuses a refused feature comes
with (400 and 422, OpenAI's and OpenRouter's 404 "not supported", llama.cpp's 500 without `--jinja`).

The wait comes from `retry-after-ms` (OpenAI, Anthropic) or `retry-after`, in seconds or as an HTTP
date. No API key survives into a message or a body: the adapter's own key is replaced, and so is
anything shaped like a key, since providers echo keys, masked or not ("Incorrect API key provided:
sk-abc***wxyz"), and a proxy may quote another one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

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

_BY_STATUS: dict[int, type[ProviderError]] = {
    401: AuthenticationError,
    402: PermissionDeniedError,
    403: PermissionDeniedError,
    404: NotFoundError,
    408: ProviderTimeoutError,
    409: ServerError,
    429: RateLimitError,
    498: OverloadedError,
    503: OverloadedError,
    529: OverloadedError,
}

_KEY_SHAPED = re.compile(r"\b(?:sk|gsk)[-_][\w*.\-]{3,}|AIza[0-9A-Za-z_\-]{30,}")
"""OpenAI `sk-` / `sk-proj-`, Anthropic `sk-ant-`, OpenRouter `sk-or-`, Groq `gsk_` and Google `AIza`
keys, whole or masked. One character class after a fixed prefix: linear time on any text."""
_MIN_SECRET = 8
"""Shorter "keys" are placeholders (a local server's "x"): replacing them would garble the message."""


def error_class(status: int | None) -> type[ProviderError]:
    """The llmrelay error class for an HTTP status (before any feature is recognized)."""
    if status is None:
        return ServerError
    return _BY_STATUS.get(status) or (BadRequestError if 400 <= status < 500 else ServerError)


def status_error(
    message: str,
    *,
    status: int | None,
    provider: str,
    model: str | None,
    headers: Mapping[str, str],
    body: Any = None,
    request_id: str | None = None,
    code: str | None = None,
    secret: str | None = None,
    wait: float | None = None,
    cls: type[ProviderError] | None = None,
) -> ProviderError:
    """The llmrelay error for an error answer, `secret` and key-shaped text taken out of message and body.

    `wait` is a wait the body named (Gemini's RetryInfo), used when no header names one. `cls` is
    the class when the provider's own signs decide it rather than the status (Gemini answers a
    wrong key with 400 INVALID_ARGUMENT).
    """
    message = redact(message, secret)
    after = retry_after(headers)
    details: dict[str, Any] = {
        "provider": provider,
        "model": model,
        "status": status,
        "request_id": request_id,
        "body": redacted(body, secret),
        "headers": dict(headers),
        "retry_after": wait if after is None else after,
        "code": code,
    }
    if cls is None and status is not None and (feature := classify_rejection(status, message)) is not None:
        return UnsupportedFeatureError(message, feature=feature, **details)
    return (cls or error_class(status))(message, **details)


def transport_error(
    exc: BaseException, *, timeout: bool, provider: str, model: str | None, secret: str | None
) -> ProviderError:
    """No answer came: a timeout, or a connection that failed or dropped.

    The SDKs' own words are generic ("Connection error."): what the HTTP library said ("[Errno 104]
    Connection reset by peer", "Server disconnected without sending a response.") is added to them.
    """
    cls = ProviderTimeoutError if timeout else ProviderConnectionError
    scrubbed(exc, secret)
    message = str(exc) or type(exc).__name__
    if (cause := _first_cause(exc)) is not None and str(cause) not in message:
        message = f"{message} ({type(cause).__name__}: {cause})"
    host = _host(exc)
    local = not timeout and host is not None and _is_loopback(host)
    if local and _refused(exc):
        # Nothing listens on that port of this machine: a retry a second later finds the same.
        message = f"nothing is listening at {host} (connection refused): is the local server running, on that port?"
        error = cls(redact(message, secret), provider=provider, model=model)
        error.retryable = False
        return error
    if host is not None:
        message = f"{message} (host {host})"  # Which endpoint: a wrong base_url shows here.
        if local:
            message += ": is the local server running, and listening on that port?"
    return cls(redact(message, secret), provider=provider, model=model)


_LOOPBACK = frozenset({"localhost", "::1", "[::1]", "0.0.0.0"})


def _is_loopback(host: str) -> bool:
    """Whether `host` ("name:port", "[::1]:port") is this machine: localhost, 127.0.0.0/8 or ::1."""
    for name in (host, host.rpartition(":")[0]):  # With its port, or without.
        if name in _LOOPBACK or (name.startswith("127.") and name.replace(".", "").isdigit()):
            return True
    return False


def _refused(exc: BaseException) -> bool:
    """Whether the connection was refused (the OS's ECONNREFUSED, somewhere under the SDK's error)."""
    seen: set[int] = set()
    inner: BaseException | None = exc
    while inner is not None and id(inner) not in seen:
        if isinstance(inner, ConnectionRefusedError):
            return True
        seen.add(id(inner))
        inner = inner.__cause__ or inner.__context__
    return False


def _host(exc: BaseException) -> str | None:
    """The host (and port) of the request that failed, from the SDK's or the HTTP library's exception."""
    seen: set[int] = set()
    inner: BaseException | None = exc
    while inner is not None and id(inner) not in seen:
        seen.add(id(inner))
        try:
            url = getattr(getattr(inner, "request", None), "url", None)
        except RuntimeError:  # httpx: "The .request property has not been set."
            url = None
        host = getattr(url, "host", None)
        if isinstance(host, str) and host:
            port = getattr(url, "port", None)
            return f"{host}:{port}" if isinstance(port, int) else host
        inner = inner.__cause__ or inner.__context__
    return None


def _first_cause(exc: BaseException) -> BaseException | None:
    """The closest exception `exc` was raised from that says something (the HTTP library's, under an SDK's)."""
    seen = {id(exc)}
    inner = exc.__cause__ or exc.__context__
    while inner is not None and id(inner) not in seen:  # A chain can loop back on itself.
        if str(inner):
            return inner
        seen.add(id(inner))
        inner = inner.__cause__ or inner.__context__
    return None


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait, from `retry-after-ms` or `retry-after` (seconds or an HTTP date); None if unsaid."""
    if (milliseconds := seconds(headers.get("retry-after-ms"))) is not None:
        return milliseconds / 1000
    value = headers.get("retry-after")
    if not value:
        return None
    if (after := seconds(value)) is not None:
        return after
    return _until(value)


def seconds(value: str | None) -> float | None:
    """A wait written as a number ("20", "1.5"), never negative; None when it is not a finite number."""
    try:
        number = float(value) if value else math.nan
    except ValueError:
        return None
    return max(number, 0.0) if math.isfinite(number) else None


def _until(date: str) -> float | None:
    from datetime import datetime, timezone  # Only an HTTP-date Retry-After needs them (~10 ms to import).
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(date)
    except (TypeError, ValueError):
        return None
    when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)  # HTTP dates are GMT.
    return max((when - datetime.now(timezone.utc)).total_seconds(), 0.0)


_SCRUBBED = ("message", "body", "details")
"""Attributes where the SDKs keep an error's text and decoded body (openai/groq/anthropic, google-genai)."""


def scrubbed(exc: BaseException, secret: str | None) -> BaseException:
    """`exc` and every exception it was raised from, with `redact` applied to their text, in place.

    Adapters raise our errors `from` the SDK's; a traceback (`logger.exception`) prints that cause
    and its chain too, and a gateway may echo the key in a 401 body, so the chain is scrubbed the
    way our own error is. What is useful stays: type, status, request id, the redacted text.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:  # A chain can loop back on itself.
        seen.add(id(current))
        current.args = tuple(redacted(arg, secret) for arg in current.args)
        for name in _SCRUBBED:
            value = getattr(current, name, None)
            if isinstance(value, (str, Mapping, list)):
                try:
                    setattr(current, name, redacted(value, secret))
                except AttributeError:  # A read-only property: its text is in `args` too.
                    pass
        current = current.__cause__ or current.__context__
    return exc


def redact(text: str, secret: str | None) -> str:
    """`text` with the API key, and anything shaped like a key, replaced by `***`."""
    if secret and len(secret) >= _MIN_SECRET:
        text = text.replace(secret, "***")
    return _KEY_SHAPED.sub("***", text)


def redacted(value: Any, secret: str | None) -> Any:
    """A decoded JSON body with `redact` applied to every string in it."""
    if isinstance(value, str):
        return redact(value, secret)
    if isinstance(value, Mapping):
        return {key: redacted(item, secret) for key, item in value.items()}
    if isinstance(value, list):
        return [redacted(item, secret) for item in value]
    return value
