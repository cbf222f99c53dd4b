"""The normalizer: any text a model emits -> one canonical `Completion`.

`parse_response` tries a registry of small strategies, one per family of output formats, from
most specific to least specific. Users add their own with `register_strategy`.
"""

from ._calls import call_from_parts, interpret_json, read_call
from ._lenient_json import LenientJSONError, TruncatedJSONError, loads_lenient
from ._parse import DEFAULT_MAX_CHARS, parse_response
from ._registry import register_strategy, registered_strategies, reset_strategies, unregister_strategy
from ._text import cut_spans
from ._types import Candidate, Parsed, Strategy

__all__ = [
    "DEFAULT_MAX_CHARS",
    "Candidate",
    "LenientJSONError",
    "Parsed",
    "Strategy",
    "TruncatedJSONError",
    "call_from_parts",
    "cut_spans",
    "interpret_json",
    "loads_lenient",
    "parse_response",
    "read_call",
    "register_strategy",
    "registered_strategies",
    "reset_strategies",
    "unregister_strategy",
]
