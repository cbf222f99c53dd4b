"""Provider adapters: one module per provider, one contract.

An adapter translates: it builds the provider's request for the chosen mode from a `Request`,
calls the official SDK (its own retries turned off: retrying is the client's job), maps the SDK's
exceptions to `llmrelay.errors`, and returns a `RawResponse`. It does no parsing of text, no
retries and no fallback.

Adapters are found by import path, so `import llmrelay` loads no SDK: a provider's module (and
its SDK) is imported the first time that provider is used.
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, runtime_checkable

from .._instructions import prepare_messages
from .._types import NativeCall, RawResponse, Request
from ..errors import ConfigError, UnknownProviderError

_BUILTIN: dict[str, str] = {
    "openai": "llmrelay.adapters.openai:OpenAIAdapter",
    "anthropic": "llmrelay.adapters.anthropic:AnthropicAdapter",
    "gemini": "llmrelay.adapters.gemini:GeminiAdapter",
    "groq": "llmrelay.adapters.groq:GroqAdapter",
    "openrouter": "llmrelay.adapters.openrouter:OpenRouterAdapter",
    "openai-compatible": "llmrelay.adapters.openai_compatible:OpenAICompatibleAdapter",
}
_registered: dict[str, type[Adapter] | str] = {}

DEFAULT_MAX_STREAM_BYTES = 64 * 1024 * 1024
"""A streamed answer may be this long (64 MiB); past it, reading stops with `ResponseTooLarge`."""
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
            f"headers={sorted(self.headers)!r}, max_stream_bytes={self.max_stream_bytes!r})"
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


def register_adapter(provider: str, adapter: type[Adapter] | str) -> None:
    """Make `provider` usable in "provider:model" strings: a class, or "module:Class" to import lazily."""
    _registered[provider] = adapter


def adapter_class(provider: str) -> type[Adapter]:
    """The adapter class for a provider id, importing its module on first use.

    Raises:
        UnknownProviderError: no adapter is known by that name.
        MissingDependencyError: the provider's SDK is not installed (raised by its module).
    """
    target = _registered.get(provider) or _BUILTIN.get(provider)
    if target is None:
        known = ", ".join(sorted({*_BUILTIN, *_registered}))
        raise UnknownProviderError(f"unknown provider {provider!r} (known: {known})")
    if isinstance(target, str):
        module, _, attribute = target.partition(":")
        cls: type[Adapter] = getattr(importlib.import_module(module), attribute)
        return cls
    return target


def known_providers() -> list[str]:
    """Every provider id that can be used, built in or registered."""
    return sorted({*_BUILTIN, *_registered})


# What an adapter of your own needs: the contract, its request and answer types, and the messages
# as a non-native mode sends them (instructions added, tool turns as text).
__all__ = [
    "DEFAULT_MAX_STREAM_BYTES",
    "Adapter",
    "NativeCall",
    "ProviderOptions",
    "RawResponse",
    "Request",
    "adapter_class",
    "known_providers",
    "prepare_messages",
    "register_adapter",
]
