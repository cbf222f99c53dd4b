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

from .._instructions import prepare_messages
from .._types import NativeCall, RawResponse, Request
from ..errors import UnknownProviderError
from ._contract import (
    DEFAULT_MAX_STREAM_BYTES,
    Adapter,
    AsyncClosable,
    CallEnd,
    CallPiece,
    Chunk,
    Closable,
    Finish,
    ProviderOptions,
    ReasoningPiece,
    StreamingAdapter,
    TextPiece,
)
from ._presets import PRESETS

_BUILTIN: dict[str, str] = {
    "openai": "llmrelay.adapters.openai:OpenAIAdapter",
    "openai-responses": "llmrelay.adapters.openai_responses:OpenAIResponsesAdapter",
    "anthropic": "llmrelay.adapters.anthropic:AnthropicAdapter",
    "gemini": "llmrelay.adapters.gemini:GeminiAdapter",
    "groq": "llmrelay.adapters.groq:GroqAdapter",
    "openrouter": "llmrelay.adapters.openrouter:OpenRouterAdapter",
    "openai-compatible": "llmrelay.adapters.openai_compatible:OpenAICompatibleAdapter",
    "azure": "llmrelay.adapters.azure:AzureOpenAIAdapter",
    "azure-responses": "llmrelay.adapters.azure:AzureResponsesAdapter",
    "vertex": "llmrelay.adapters.vertex:VertexAdapter",
    "bedrock": "llmrelay.adapters.bedrock:BedrockAdapter",
    "anthropic-vertex": "llmrelay.adapters.anthropic_vertex:AnthropicVertexAdapter",
}
_BUILTIN.update({provider: f"llmrelay.adapters.presets:{provider}" for provider in PRESETS})
_registered: dict[str, type[Adapter] | str] = {}


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
        raise UnknownProviderError(f"unknown provider {provider!r}{did_you_mean(provider)} (known: {known})")
    if isinstance(target, str):
        module, _, attribute = target.partition(":")
        cls: type[Adapter] = getattr(importlib.import_module(module), attribute)
        return cls
    return target


_LOCAL_SERVERS = {"llamacpp": "http://localhost:8080/v1", "llamaserver": "http://localhost:8080/v1"}
"""Local servers users name as a provider that have no preset of their own (`ollama:`, `vllm:` and
`lmstudio:` do): each speaks Chat Completions at this usual address."""
_OTHER_NAMES = {"google": "gemini", "claude": "anthropic", "gpt": "openai", "chatgpt": "openai"}


def did_you_mean(provider: str) -> str:
    """A hint for a provider name llmrelay does not know: the close one, or how to reach a local server."""
    import difflib

    name = provider.lower().replace(".", "").replace("-", "").replace("_", "")
    if name in _LOCAL_SERVERS:
        return (
            f": {provider} serves the OpenAI API; use Client('openai-compatible:<model>', "
            f"base_url={_LOCAL_SERVERS[name]!r})"
        )
    close = difflib.get_close_matches(provider.lower(), known_providers(), n=1, cutoff=0.6)
    suggestion = _OTHER_NAMES.get(name) or (close[0] if close else None)
    return f"; did you mean {suggestion!r}?" if suggestion else ""


def known_providers() -> list[str]:
    """Every provider id that can be used, built in or registered."""
    return sorted({*_BUILTIN, *_registered})


# What an adapter of your own needs: the contract (`_contract`), its request and answer types, the
# chunks a streaming adapter yields, and the messages as a non-native mode sends them
# (instructions added, tool turns as text).
__all__ = [
    "DEFAULT_MAX_STREAM_BYTES",
    "Adapter",
    "AsyncClosable",
    "CallEnd",
    "CallPiece",
    "Chunk",
    "Closable",
    "Finish",
    "NativeCall",
    "ProviderOptions",
    "RawResponse",
    "ReasoningPiece",
    "Request",
    "StreamingAdapter",
    "TextPiece",
    "adapter_class",
    "known_providers",
    "prepare_messages",
    "register_adapter",
]
