"""Hermes-style `<tool_call>` blocks holding JSON: Hermes 2 Pro/3, Qwen2.5/Qwen3 and their fine-tunes.

```
Let me check.
<tool_call>
{"name": "get_weather", "arguments": {"city": "Paris"}}
</tool_call>
```

The shape is the one the Hermes-2-Pro and Qwen2.5/Qwen3 chat templates teach
(`{"name": <function-name>, "arguments": <args-json-object>}` on a line of its own) and
that vLLM's `tool_parsers/hermes_tool_parser.py` reads (`<tool_call>(.*?)</tool_call>|<tool_call>(.*)`:
the last block may lack its `</tool_call>`). Also read: several blocks, a JSON array of calls or
several JSON objects in one block, the extra closing brace Qwen2.5 sometimes adds, and GLM's
no-argument call, a bare name (`<tool_call>get_time</tool_call>`).

Step-Audio 2 writes the call's type, its name and its JSON arguments on three lines in the same
tags (vLLM's `step_audio_2_tool_parser.py`)::

    <tool_call>function
    get_weather
    {"city": "Shanghai"}</tool_call>

Bodies written in Qwen3-Coder's `<function=…>` or GLM's `<arg_key>` markup are read by the
strategies ordered before this one; here they are simply not JSON, so not a call attempt.
"""

from __future__ import annotations

from ..._envelope import RejectedCall
from .._calls import call_from_parts, is_tool_name
from .._tags import TagBlock, parse_tagged_json
from .._types import CallReading, Parsed

_STEP_AUDIO_TYPE = "function"


class HermesToolCall:
    """`<tool_call>{"name": …, "arguments": …}</tool_call>` blocks (Hermes, Qwen and their fine-tunes)."""

    name = "hermes"
    markers = ("<tool_call>",)

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return "<tool_call>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds a call attempt."""
        return parse_tagged_json(text, "<tool_call>", "</tool_call>", bare_names=True, other=_read_typed_call)


def _read_typed_call(text: str, block: TagBlock) -> tuple[list[CallReading], int] | None:
    """Step-Audio 2's body: the call's type, its name and its JSON arguments, one per line."""
    lines = text[block.body_start : block.body_end].strip().split("\n", 2)
    if len(lines) < 2 or lines[0].strip() != _STEP_AUDIO_TYPE or not is_tool_name(name := lines[1].strip()):
        return None
    arguments = lines[2].strip() if len(lines) == 3 else ""
    if not block.closed and block.body_end == len(text):
        return [
            RejectedCall(name, arguments, f"tool call '{name}' was cut off before </tool_call>", "truncated")
        ], block.end
    return [call_from_parts(name, arguments or "{}")], block.end
