"""GigaChat 3's calls: a JSON call after `function call<|role_sep|>`, in a message of its own.

GigaChat 3 ends its text message with `<|message_sep|>` and starts a `function call` message
holding one JSON call (SGLang's `gigachat3_detector.py`, vLLM's `gigachat3_tool_parser.py`)::

    Let me check the weather.<|message_sep|>

    function call<|role_sep|>
    {"name": "get_weather", "arguments": {"city": "Paris"}}</s>

The inline spelling `<|function_call|>{…}` is read too. The text before the separator is
content; the separators, the `function call` header and the end token `</s>` are markup and
never stay in it. The call ends where its JSON ends; JSON cut off is a truncated call.
"""

from __future__ import annotations

import re

from .._calls import read_json_calls
from .._scan import json_prefix
from .._tokens import read_token_sections
from .._types import CallReading, Parsed

_OPENERS = ("function call<|role_sep|>", "<|function_call|>")
_TOKEN = re.compile(r"(function call<\|role_sep\|>|<\|function_call\|>|<\|message_sep\|>|</s>)")


class GigaChatFunctionCall:
    """`function call<|role_sep|>{…}` after `<|message_sep|>` (GigaChat 3)."""

    name = "gigachat"
    markers = ("<|role_sep|>", "<|function_call|>")

    def detect(self, text: str) -> bool:
        """Cheap check: one of the call headers occurs."""
        return any(opener in text for opener in _OPENERS)

    def parse(self, text: str) -> Parsed | None:
        """Read the call after each header; None when no header is followed by JSON."""
        return read_token_sections(text, _TOKEN, _OPENERS, _read_call, starts="{[")


def _read_call(_token: str, after: str, _following: str) -> tuple[list[CallReading], str] | None:
    """The call in the JSON a header is followed by, and the text after it."""
    found = json_prefix(after)
    return None if found is None else (read_json_calls(found[0], "after the function call header"), found[1])
