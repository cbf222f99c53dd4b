"""Upstage Solar Open 2: a name line, then `<|tool_arg:…|>` name/value pairs, between special tokens.

```
<|tool_call:start|>get_weather
<|tool_arg:start|>city<|tool_arg:value|>Seoul<|tool_arg:end|>
<|tool_arg:start|>days<|tool_arg:value|>3<|tool_arg:end|>
<|tool_call:end|>
```

As vLLM's `solar_open2_tool_parser.py` reads it: the name is the rest of the start token's line;
a value runs to `<|tool_arg:end|>`, or to the next argument when the model dropped that token;
a call ends at `<|tool_call:end|>`, or where the next call starts. Values are text: without a
schema they stay strings (`"3"`), as vLLM keeps them for an unknown tool; with one, the schema
decides. The first of two values for one name wins. A call never ended is cut off: rejected as
`truncated`, never read. Its reasoning, `<|think:start|>…<|think:end|>`, is `_reasoning`'s.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall
from .._budget import TagBudget
from .._calls import is_tool_name
from .._tags import tag_blocks, to_parsed
from .._types import CallReading, Parsed, TextArguments

_START, _END = "<|tool_call:start|>", "<|tool_call:end|>"
_ARG, _VALUE, _ARG_END = "<|tool_arg:start|>", "<|tool_arg:value|>", "<|tool_arg:end|>"
# One argument: its name, then its value up to its end token, the next argument, or the block's end.
# Neither part runs past the next argument's start, so a scan stays linear on hostile text.
_NOT_ARG = r"(?:(?!" + re.escape(_ARG) + r").)"
_PAIR = re.compile(
    rf"{re.escape(_ARG)}({_NOT_ARG}*?){re.escape(_VALUE)}({_NOT_ARG}*?)(?:{re.escape(_ARG_END)}|(?={re.escape(_ARG)})|\Z)",
    re.DOTALL,
)


class SolarOpenToolCall:
    """`<|tool_call:start|>NAME` and `<|tool_arg:…|>` pairs (Solar Open 2)."""

    name = "solar_open"
    markers = (_START,)

    def detect(self, text: str) -> bool:
        """Cheap check: the start token occurs."""
        return _START in text

    def parse(self, text: str) -> Parsed | None:
        """Read every call; None when no start token is followed by a name."""
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        budget = TagBudget()
        for block in tag_blocks(text, _START, _END, r"^<\s", budget):
            body = text[block.body_start : block.body_end]
            newline = body.find("\n")
            name = body[: newline if newline != -1 else len(body)].strip()
            if not is_tool_name(name):
                continue  # The token in prose, or no name: not a call.
            if not block.closed and block.body_end == len(text):
                readings.append(RejectedCall(name, body, f"tool call '{name}' was cut off before its end", "truncated"))
            else:
                readings.append(_arguments(body[len(name) :]).candidate(name))
            spans.append((block.start, block.end))
        return to_parsed(text, spans, readings, budget) if readings else None


def _arguments(body: str) -> TextArguments:
    """The name/value pairs of one call, each value as written (the first one of a name wins)."""
    arguments = TextArguments()
    for pair in _PAIR.finditer(body):
        key = pair.group(1).strip()
        if key and key not in arguments:
            arguments.add(key, pair.group(2), pair.group(2))
    return arguments
