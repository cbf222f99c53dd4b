"""The adapter contract: what an adapter is given, what it returns, and what a streaming one yields.

```
ProviderOptions  ->  Adapter(options)          built once per provider by the client
Request          ->  adapter.send / asend      ->  RawResponse (the provider's answer, unparsed)
Request          ->  adapter.stream / astream  ->  chunks (StreamingAdapter, optional)
                     adapter.close / aclose    (Closable / AsyncClosable, optional)
```

A streamed answer is a sequence of provider-neutral chunks; the pipeline assembles them into the
`RawResponse` that `send` would have returned, so both are read the same way:

```
ReasoningPiece("The user wants…")                       the model's reasoning, apart from the text
TextPiece("Hel") TextPiece("lo")                       text, in order
CallPiece(0, id="call_1", name="f") CallPiece(0, arguments='{"a"') CallPiece(0, arguments=': 1}')
CallEnd(0)                                              the provider said call 0 is whole (optional)
Finish(reason="tool_calls", usage=..., model=..., request_id=..., artifacts=...)   facts, merged
```
"""

from __future__ import annotations

import math
import re
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeAlias, runtime_checkable

from .._defaults import DEFAULT_MAX_STREAM_BYTES as DEFAULT_MAX_STREAM_BYTES
from .._envelope import Artifact, Usage
from .._types import RawResponse, Request
from ..errors import ConfigError

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,15}")
_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
"""RFC 9110's `token`: what a header's name may be made of."""
_HEADER_VALUE = re.compile(r"[\t\x20-\x7e]*")
"""Visible ASCII, spaces and tabs: no line break (header injection), no byte the HTTP stacks refuse."""


@dataclass(frozen=True, repr=False)
class ProviderOptions:
    """How to reach a provider: credentials, endpoint, timeout, extra headers."""

    api_key: str | None = None
    """The API key; None means the provider's usual environment variable."""
    base_url: str | None = None
    """Another endpoint (a proxy, or an OpenAI-compatible server)."""
    timeout: float | None = None
    """Seconds to wait for an answer; None keeps the SDK's default."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Extra HTTP headers sent with every request."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Options only one provider reads (Azure's `api_version`, Vertex's `project`...): see its adapter."""
    max_stream_bytes: int = DEFAULT_MAX_STREAM_BYTES
    """A streamed answer may be this many bytes long; past it the stream ends with `ResponseTooLarge`."""

    def __post_init__(self) -> None:
        """Refuse, now, what would otherwise fail on every request (and be retried as a connection error).

        Messages name the setting, never its value: a key pasted in the wrong place must not be logged.
        """
        if self.base_url is not None:
            _check_base_url(self.base_url)
        if isinstance(self.timeout, (int, float)) and not (math.isfinite(self.timeout) and self.timeout > 0):
            raise ConfigError(f"timeout must be a number of seconds > 0, got {self.timeout!r}")
        for name, value in self.headers.items():
            _check_header(name, value)
        if isinstance(self.max_stream_bytes, bool) or not isinstance(self.max_stream_bytes, int):
            raise ConfigError("max_stream_bytes must be a whole number of bytes")
        if self.max_stream_bytes < 1:
            raise ConfigError(f"max_stream_bytes must be >= 1, got {self.max_stream_bytes}")

    def __repr__(self) -> str:
        key = "None" if self.api_key is None else "'***'"  # Never show the key, not even part of it.
        return (
            f"ProviderOptions(api_key={key}, base_url={self.base_url!r}, timeout={self.timeout!r}, "
            f"headers={sorted(self.headers)!r}, max_stream_bytes={self.max_stream_bytes!r}, "
            f"extra={sorted(self.extra)!r})"  # Names only: a token may be there.
        )


def _check_base_url(base_url: object) -> None:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(base_url) if isinstance(base_url, str) else None
        host = parts.hostname if parts is not None else None
    except ValueError:  # An unclosed "[" of an IPv6 host, say.
        parts, host = None, None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not host:
        # Only the scheme is shown, and only a short one: the rest may hold credentials.
        shown = parts.scheme if parts is not None and _SCHEME.fullmatch(parts.scheme) else ""
        got = f"a {shown}: URL" if shown and shown.lower() not in ("http", "https") else "no http(s)://host"
        raise ConfigError(
            f"base_url must be an http:// or https:// URL with a host (https://example.com/v1), got {got}"
        )


def _check_header(name: object, value: object) -> None:
    if not isinstance(name, str) or not _HEADER_NAME.fullmatch(name):
        raise ConfigError("headers: a header name may hold only letters, digits and !#$%&'*+-.^_`|~")
    if not isinstance(value, str) or not _HEADER_VALUE.fullmatch(value):
        raise ConfigError(
            f"headers[{name!r}]: the value must be a string of visible ASCII characters, spaces and tabs "
            "(no line break, control character or non-ASCII text)"
        )


@runtime_checkable
class Adapter(Protocol):
    """Turn one `Request` into one provider call.

    Implementations take a `ProviderOptions` in `__init__`. A `Protocol`, so a user's adapter
    needs to inherit nothing; register it with `register_adapter`.
    """

    provider: ClassVar[str]

    def send(self, request: Request) -> RawResponse:
        """Make the call and return the provider's answer, or raise a `ProviderError`."""
        ...

    async def asend(self, request: Request) -> RawResponse:
        """The same, without blocking the event loop."""
        ...


@runtime_checkable
class StreamingAdapter(Protocol):
    """An adapter that can also stream: `stream` / `astream` yield the `Chunk`s of one answer.

    An adapter without them is still streamed: its whole answer (from `send`) becomes the chunks.
    """

    def stream(self, request: Request) -> Iterator[Chunk]:
        """Make the call as a stream; raise a `ProviderError` (at any point) when it fails."""
        ...

    def astream(self, request: Request) -> AsyncIterator[Chunk]:
        """The same, without blocking the event loop."""
        ...


@runtime_checkable
class Closable(Protocol):
    """An adapter that holds connections: `Client.close` calls its `close`."""

    def close(self) -> None:
        """Release the connections the adapter opened (it may open new ones if used again)."""
        ...


@runtime_checkable
class AsyncClosable(Protocol):
    """An adapter with async connections to release: `AsyncClient.aclose` awaits its `aclose`."""

    async def aclose(self) -> None:
        """Release the connections the adapter opened, without blocking the event loop."""
        ...


# --- what a streaming adapter yields ------------------------------------------------------------


@dataclass(frozen=True)
class TextPiece:
    """More of the answer's text."""

    text: str


@dataclass(frozen=True)
class ReasoningPiece:
    """More of the model's reasoning (Anthropic thinking, Gemini thoughts, `reasoning` fields), never text."""

    text: str


@dataclass(frozen=True)
class CallPiece:
    """Part of a native tool call: the first piece of a call usually has its id and name."""

    index: int
    """The call's position among the answer's native calls, from 0."""
    id: str | None = None
    name: str | None = None
    arguments: str = ""
    """More of the arguments' JSON text."""
    signature: str | None = None
    """Gemini's thought signature, when the provider sent one with the call."""


@dataclass(frozen=True)
class CallEnd:
    """The provider said a call is complete (Anthropic's content_block_stop; Gemini sends calls whole)."""

    index: int


@dataclass(frozen=True)
class Finish:
    """Facts about the whole answer; several may come, and a later non-empty value wins."""

    reason: str | None = None
    """The provider's own finish/stop reason."""
    usage: Usage | None = None
    model: str | None = None
    request_id: str | None = None
    artifacts: tuple[Artifact, ...] = ()
    """What the provider needs back on the next turn (see `llmrelay.Artifact`)."""
    refused: bool = False
    """The answer's text is the model's refusal (OpenAI streams it in `refusal` deltas)."""
    refusal: str | None = None
    """The provider's own words on a refusal, apart from the text (Anthropic's `stop_details`); the
    model's text, when it wrote some, is the refusal rather than these."""


Chunk: TypeAlias = TextPiece | ReasoningPiece | CallPiece | CallEnd | Finish
"""Everything a streaming adapter yields."""
