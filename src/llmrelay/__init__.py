"""llmrelay: call any LLM with tools and get one canonical answer, whatever format the model used."""

from .errors import (
    AllAttemptsFailed,
    AuthenticationError,
    BadRequestError,
    ConfigError,
    ContentFilterError,
    DeadlineExceeded,
    LLMRelayError,
    MissingDependencyError,
    MissingToolCallError,
    NormalizationError,
    NotFoundError,
    OutputValidationError,
    OverloadedError,
    PermissionDeniedError,
    ProviderConnectionError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
    RefusalError,
    ResponseTooLarge,
    ServerError,
    StreamInterrupted,
    TransientError,
    UnknownProviderError,
    UnsupportedFeatureError,
)

__version__ = "0.1.0"
_TYPE_CHECKING = False  # Not `typing.TYPE_CHECKING`: `import llmrelay` does not load typing.

__all__ = [
    "AllAttemptsFailed",
    "Artifact",
    "AsyncClient",
    "Attempt",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "Completion",
    "Config",
    "ConfigError",
    "ContentFilterError",
    "DeadlineExceeded",
    "Document",
    "FinishReason",
    "Image",
    "LLMRelayError",
    "Message",
    "MissingDependencyError",
    "MissingToolCallError",
    "Mode",
    "ModelError",
    "NamedTool",
    "NormalizationError",
    "NotFoundError",
    "OutputValidationError",
    "OverloadedError",
    "PermissionDeniedError",
    "ProviderConfig",
    "ProviderConnectionError",
    "ProviderError",
    "ProviderTimeoutError",
    "RateLimitError",
    "ReasoningDelta",
    "RefusalError",
    "RejectedCall",
    "RejectionKind",
    "ResponseTooLarge",
    "RetryPolicy",
    "RunResult",
    "RunStep",
    "ServerError",
    "StopReason",
    "Strategy",
    "StreamEnd",
    "StreamEvent",
    "StreamInterrupted",
    "TextDelta",
    "Tool",
    "ToolCall",
    "ToolCallComplete",
    "ToolCallDelta",
    "ToolCallStarted",
    "ToolExecution",
    "TransientError",
    "UnknownProviderError",
    "UnsupportedFeatureError",
    "Usage",
    "load_config",
    "parse_response",
    "register_strategy",
    "to_tool",
    "unregister_strategy",
]

# Loaded on first use, to keep `import llmrelay` light: only the errors are read up front (they
# are small, and a traceback says `llmrelay.ConfigError` however early it is raised). The client's
# class loads on first use of `Client`, its pipeline (with the normalizer) when a client is made;
# `parse_response` loads the normalizer alone; the config reader and the tool loop when asked for.
_LAZY_FROM = {
    "Artifact": "_envelope",
    "Document": "_content",
    "Image": "_content",
    "AsyncClient": "_client",
    "Attempt": "_envelope",
    "Client": "_client",
    "Completion": "_envelope",
    "Config": "_config",
    "FinishReason": "_envelope",
    "Message": "_types",
    "Mode": "_envelope",
    "ModelError": "_envelope",
    "NamedTool": "_types",
    "ProviderConfig": "_config",
    "RejectedCall": "_envelope",
    "RejectionKind": "_envelope",
    "RetryPolicy": "_pipeline.retry",
    "RunResult": "_tool_loop.loop",
    "RunStep": "_tool_loop.loop",
    "StopReason": "_tool_loop.loop",
    "Strategy": "normalize",
    "ReasoningDelta": "_events",
    "StreamEnd": "_events",
    "StreamEvent": "_events",
    "TextDelta": "_events",
    "Tool": "_tools",
    "ToolCall": "_envelope",
    "ToolCallComplete": "_events",
    "ToolCallDelta": "_events",
    "ToolCallStarted": "_events",
    "ToolExecution": "_tool_loop.execute",
    "Usage": "_envelope",
    "load_config": "_config",
    "parse_response": "normalize",
    "register_strategy": "normalize",
    "to_tool": "_tools",
    "unregister_strategy": "normalize",
}
_LAZY = set(_LAZY_FROM)
_OWN_MODULE = {"Strategy", "StopReason"}  # A Protocol, a Literal: they keep the module they were defined in.


def __getattr__(name: str) -> object:
    if name in _LAZY_FROM:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY_FROM[name]}", __name__), name)
        if name not in _OWN_MODULE:
            _say_llmrelay(value)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'llmrelay' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, loaded or not (so `dir()` and tab completion see the lazy ones too)."""
    return sorted(set(globals()) | set(__all__))


def _say_llmrelay(value: object) -> None:
    """Make tracebacks and reprs say `llmrelay.ToolCall`, not `llmrelay._envelope.ToolCall`."""
    if hasattr(value, "__module__") and not isinstance(value, str):
        try:
            value.__module__ = "llmrelay"
        except (AttributeError, TypeError):
            pass


if _TYPE_CHECKING:
    from ._client import AsyncClient, Client
    from ._config import Config, ProviderConfig, load_config
    from ._content import Document, Image
    from ._envelope import (
        Artifact,
        Attempt,
        Completion,
        FinishReason,
        Mode,
        ModelError,
        RejectedCall,
        RejectionKind,
        ToolCall,
        Usage,
    )
    from ._events import (
        ReasoningDelta,
        StreamEnd,
        StreamEvent,
        TextDelta,
        ToolCallComplete,
        ToolCallDelta,
        ToolCallStarted,
    )
    from ._pipeline.retry import RetryPolicy
    from ._tool_loop.execute import ToolExecution
    from ._tool_loop.loop import RunResult, RunStep, StopReason
    from ._tools import Tool, to_tool
    from ._types import Message, NamedTool
    from .normalize import Strategy, parse_response, register_strategy, unregister_strategy

for _name in set(__all__) - _LAZY:
    _say_llmrelay(globals()[_name])
