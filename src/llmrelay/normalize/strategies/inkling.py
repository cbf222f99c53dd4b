"""Inkling's typed blocks: thinking, text and tool calls, each opened by a special token of its kind.

Every block starts with its kind's token, optionally after `<|message_model|>` and a name, and
ends with `<|end_message|>` (or `<|content_model_end_sampling|>`); blocks come in any order
(vLLM's `vllm/parser/inkling.py`, behind `inkling_tool_parser.py`)::

    <|content_thinking|>The user wants Paris.<|end_message|>
    <|message_model|><|content_text|>Let me check.<|end_message|>
    <|message_model|><|content_invoke_tool_json|>{"name": "get_weather", "args": {"city": "Paris"}}<|end_message|>

Thinking blocks are reasoning; text blocks, and the raw tool text and tool error blocks the engine
shows as text, are content; each JSON tool block is one call, its arguments under `args`. The
words between `<|message_model|>` and the kind's token are the message's metadata, not content.
"""

from __future__ import annotations

import re

from .._budget import MAX_CALLS, too_many_calls
from .._calls import read_json_calls
from .._text import join_pieces
from .._types import CallReading, Parsed

_HEADER = "<|message_model|>"
_THINKING, _TOOL = "<|content_thinking|>", "<|content_invoke_tool_json|>"
_ENDS = ("<|end_message|>", "<|content_model_end_sampling|>")
_TOKEN = re.compile(
    r"(<\|message_model\|>|<\|end_message\|>"
    r"|<\|content_(?:text|thinking|invoke_tool_json|invoke_tool_text|tool_error|model_end_sampling)\|>)"
)


class InklingBlocks:
    """`<|content_invoke_tool_json|>{…}<|end_message|>` and Inkling's other typed blocks."""

    name = "inkling"
    markers = ("<|content_",)

    def detect(self, text: str) -> bool:
        """Cheap check: a block-kind token may occur."""
        return "<|content_" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when the tokens are only named in prose."""
        parts = _TOKEN.split(text)  # text, token, text, token, …, text
        kept, thoughts = [parts[0]], []
        readings: list[CallReading] = []
        for index in range(1, len(parts), 2):
            token, after = parts[index], parts[index + 1]
            if token == _TOOL:
                if len(readings) >= MAX_CALLS:
                    readings.append(too_many_calls())
                    break
                readings.extend(read_json_calls(after.strip(), f"after {_TOOL}") if after.strip() else [])
            elif token == _THINKING:
                thoughts.append(after.strip())
            elif token != _HEADER:  # The text after a header is the message's name, not content.
                kept.append(after)
        if not (readings or thoughts or any(end in text for end in _ENDS)):
            return None
        parsed = Parsed.from_readings(readings, text=join_pieces(kept))
        parsed.reasoning = "\n\n".join(t for t in thoughts if t) if thoughts else None
        return parsed
