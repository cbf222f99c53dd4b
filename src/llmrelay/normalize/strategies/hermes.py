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

llama.cpp's Hermes 2 Pro reader (`common/chat.cpp`) also takes the same JSON call in a markdown
fence (```` ```xml ```` or ```` ```json ````) around the block, and in other tags fine-tunes
write instead of `<tool_call>`: `<tool>`, `<json>`, `<JSON>`, `<xml>`, `<response>`
(`HermesWrappedJson`). A fence left empty once the block is read is markup too.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall
from .._calls import call_from_parts, is_tool_name
from .._tags import TagBlock, parse_tagged_json
from .._types import CallReading, Parsed

_STEP_AUDIO_TYPE = "function"
# The tags llama.cpp's Hermes 2 Pro reader accepts in place of <tool_call>, with their close tags.
_WRAPPERS: tuple[tuple[str, str], ...] = (
    ("<tool>", "</tool>"),
    ("<json>", "</json>"),
    ("<JSON>", "</JSON>"),
    ("<xml>", "</xml>"),
    ("<response>", "</response>"),
)
# A markdown fence with nothing left in it once the call inside was read.
_EMPTY_FENCE = re.compile(r"```(?:xml|json)?[ \t]*\n\s*```")


class HermesToolCall:
    """`<tool_call>{"name": …, "arguments": …}</tool_call>` blocks (Hermes, Qwen and their fine-tunes)."""

    name = "hermes"
    markers = ("<tool_call>",)

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return "<tool_call>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds a call attempt."""
        parsed = parse_tagged_json(text, "<tool_call>", "</tool_call>", bare_names=True, other=_read_typed_call)
        return _without_empty_fences(parsed)


class HermesWrappedJson:
    """Hermes' JSON call in the tags fine-tunes write instead: `<tool>`, `<json>`, `<xml>`, `<response>`.

    Those tags are common words, and `<json>` or `<response>` may hold data: only a block holding
    a call makes the answer this format (a block of data stays text, as in llama.cpp).
    """

    name = "hermes_wrapped"
    markers = tuple(open_tag for open_tag, _ in _WRAPPERS)

    def detect(self, text: str) -> bool:
        """Cheap check: one of the tags occurs."""
        return any(open_tag in text for open_tag, _ in _WRAPPERS)

    def parse(self, text: str) -> Parsed | None:
        """Read the blocks of the first of the tags that holds a call; None when none does."""
        for open_tag, close_tag in _WRAPPERS:
            if open_tag in text and (parsed := parse_tagged_json(text, open_tag, close_tag)) and parsed.calls:
                return _without_empty_fences(parsed)
        return None


def _without_empty_fences(parsed: Parsed | None) -> Parsed | None:
    """`parsed` without the markdown fences its calls were written in (```` ```xml ```` left empty)."""
    if parsed is not None and "```" in parsed.text:
        parsed.text = _EMPTY_FENCE.sub("", parsed.text).strip()
    return parsed


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
