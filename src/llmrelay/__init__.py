"""llmrelay: call any LLM with tools and get one canonical answer, whatever format the model used."""

from ._envelope import Completion, ModelError, RejectedCall, RejectionKind, ToolCall
from ._tools import Tool, to_tool
from .errors import ConfigError, LLMRelayError, NormalizationError
from .normalize import Strategy, parse_response, register_strategy, unregister_strategy

__version__ = "0.1.0"

__all__ = [
    "Completion",
    "ConfigError",
    "LLMRelayError",
    "ModelError",
    "NormalizationError",
    "RejectedCall",
    "RejectionKind",
    "Strategy",
    "Tool",
    "ToolCall",
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
