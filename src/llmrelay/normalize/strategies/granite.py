"""IBM Granite's tool-call token: `<|tool_call|>` then a JSON array of calls.

Granite 3.x writes one special token, then every call in one JSON array (shape learned from
vLLM's `granite_tool_parser.py`)::

    <|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]

Granite 20B FunctionCalling writes `<function_call>` before each call object instead (vLLM's
`granite_20b_fc_tool_parser.py`); a closing `</function_call>` is tolerated::

    <function_call> {"name": "get_weather", "arguments": {"city": "Paris"}} <function_call> {...}

The JSON ends where its brackets balance; prose before and after it is content. The
`<|end_of_text|>` token is removed, and so is the `</|tool_call|>` closer that Phi-4 writes in
llama.cpp's Phi-4 support (PR #12288, `<|tool_call|>{…}</|tool_call|>`). A marker followed by
prose rather than JSON is a mention, not a call. Granite 3.1's `<tool_call>` (no bars, no
closing tag) is `HermesToolCall`'s.
"""

from __future__ import annotations

import re

from .._calls import read_json_calls
from .._scan import json_prefix
from .._tokens import read_token_sections
from .._types import CallReading, Parsed

_OPENERS = ("<|tool_call|>", "<function_call>")
_TOKEN = re.compile(r"(<\|tool_call\|>|<(?:/\||\|/)tool_call\|>|</?function_call>|<\|end_of_text\|>)")


class GraniteToolCall:
    """`<|tool_call|>[…]` (Granite 3.x) and `<function_call> {…}` (Granite 20B FC)."""

    name = "granite"
    markers = _OPENERS

    def detect(self, text: str) -> bool:
        """Cheap check: one of the two markers occurs."""
        return "<|tool_call|>" in text or "<function_call>" in text  # _OPENERS, without a generator.

    def parse(self, text: str) -> Parsed | None:
        """Read the JSON after each marker; None when no marker is followed by JSON."""
        # After the JSON's closing tag, the end token, or a mere mention: content.
        return read_token_sections(text, _TOKEN, _OPENERS, _read_after, starts="{[")


def _read_after(token: str, after: str, _following: str) -> tuple[list[CallReading], str] | None:
    """The calls in the JSON after a marker, and the prose after it; None when no JSON follows."""
    found = json_prefix(after)
    return None if found is None else (read_json_calls(found[0], f"after {token}"), found[1])
