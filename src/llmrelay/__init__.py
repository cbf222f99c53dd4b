"""llmrelay: call any LLM with tools and get one canonical answer, whatever format the model used."""

from ._client import AsyncClient, Client
from ._envelope import Attempt, Completion, FinishReason, Mode, ModelError, RejectedCall, RejectionKind, ToolCall, Usage
from ._retry import RetryPolicy
from ._tools import Tool, to_tool
from ._types import Message, NamedTool
from .errors import (
    AllAttemptsFailed,
    AuthenticationError,
    BadRequestError,
    ConfigError,
    LLMRelayError,
    MissingDependencyError,
    NormalizationError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderConnectionError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
    ServerError,
    TransientError,
    UnknownProviderError,
    UnsupportedFeatureError,
)
from .normalize import Strategy, parse_response, register_strategy, unregister_strategy

__version__ = "0.1.0"

__all__ = [
    "AllAttemptsFailed",
    "AsyncClient",
    "Attempt",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "Completion",
    "ConfigError",
    "FinishReason",
    "LLMRelayError",
    "Message",
    "MissingDependencyError",
    "Mode",
    "ModelError",
    "NamedTool",
    "NormalizationError",
    "NotFoundError",
    "OverloadedError",
    "PermissionDeniedError",
    "ProviderConnectionError",
    "ProviderError",
    "ProviderTimeoutError",
    "RateLimitError",
    "RejectedCall",
    "RejectionKind",
    "RetryPolicy",
    "ServerError",
    "Strategy",
    "Tool",
    "ToolCall",
    "TransientError",
    "UnknownProviderError",
    "UnsupportedFeatureError",
    "Usage",
    "parse_response",
    "register_strategy",
    "to_tool",
    "unregister_strategy",
]

# Tracebacks and reprs say `llmrelay.ToolCall`, not `llmrelay._envelope.ToolCall`.
for _name in __all__:
    _obj = globals()[_name]
    if hasattr(_obj, "__module__") and not isinstance(_obj, str):
        try:
            _obj.__module__ = "llmrelay"
        except (AttributeError, TypeError):
            pass
