"""llmrelay: call any LLM with tools and get one canonical answer, whatever format the model used."""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from ._client import AsyncClient, Client
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
from ._tools import Tool, to_tool
from ._types import Message, NamedTool
from .errors import (
    AllAttemptsFailed,
    AuthenticationError,
    BadRequestError,
    ConfigError,
    ContentFilterError,
    DeadlineExceeded,
    LLMRelayError,
    MissingDependencyError,
    NormalizationError,
    NotFoundError,
    OutputValidationError,
    OverloadedError,
    PermissionDeniedError,
    ProviderConnectionError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
    ResponseTooLarge,
    ServerError,
    StreamInterrupted,
    TransientError,
    UnknownProviderError,
    UnsupportedFeatureError,
)

__version__ = "0.1.0"

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

# Loaded on first use, to keep `import llmrelay` light: the config reader, the normalizer
# (its regexes and strategies) until a first answer is read, and the tool loop.
_LAZY_FROM = {
    "Config": "_config",
    "ProviderConfig": "_config",
    "RunResult": "_tool_loop.loop",
    "RunStep": "_tool_loop.loop",
    "StopReason": "_tool_loop.loop",
    "ToolExecution": "_tool_loop.execute",
    "load_config": "_config",
    "Strategy": "normalize",
    "parse_response": "normalize",
    "register_strategy": "normalize",
    "unregister_strategy": "normalize",
}
_LAZY = set(_LAZY_FROM)


def __getattr__(name: str) -> object:
    if name in _LAZY_FROM:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY_FROM[name]}", __name__), name)
        if name not in ("Strategy", "StopReason"):  # A Protocol, a Literal; the others say `llmrelay.`.
            value.__module__ = "llmrelay"
        globals()[name] = value
        return value
    raise AttributeError(f"module 'llmrelay' has no attribute {name!r}")


if _TYPE_CHECKING:
    from ._config import Config, ProviderConfig, load_config
    from ._tool_loop.execute import ToolExecution
    from ._tool_loop.loop import RunResult, RunStep, StopReason
    from .normalize import Strategy, parse_response, register_strategy, unregister_strategy

# Tracebacks and reprs say `llmrelay.ToolCall`, not `llmrelay._envelope.ToolCall`.
for _name in set(__all__) - _LAZY:
    _obj = globals()[_name]
    if hasattr(_obj, "__module__") and not isinstance(_obj, str):
        try:
            _obj.__module__ = "llmrelay"
        except (AttributeError, TypeError):
            pass
