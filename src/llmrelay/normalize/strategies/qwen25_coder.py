"""Qwen2.5-Coder's `<tools>` block: JSON calls between two tags.

```
<tools>
{"name": "get_weather", "arguments": {"city": "Paris"}}
</tools>
```

The shape vLLM's `qwen2_5_coder_tool_parser.py` reads (Qwen2.5-Coder, taught it by few-shot
examples; plain Qwen2.5 writes Hermes' `<tool_call>`): one call object, an array of them, one
object per line, or objects separated by commas; a block left open at the end of the answer is
read to the end. Read like every tagged-JSON format (see `_tags.parse_tagged_json`), with one
difference: Hermes' system prompt lists the tool *definitions* in the same tags, so a block in
which no call can be read (a model echoing that list, or prose about it) is not this format and
stays text. A call cut off inside the block is still reported (`truncated`).
"""

from __future__ import annotations

from .._tags import parse_tagged_json
from .._types import Parsed


class Qwen25CoderTools:
    """`<tools>{…}</tools>` (Qwen2.5-Coder)."""

    name = "qwen25_coder"
    markers = ("<tools>",)

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return "<tools>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no call is read and none was cut off (an echoed tool list)."""
        parsed = parse_tagged_json(text, "<tools>", "</tools>")
        if parsed is None or parsed.calls or any(r.kind == "truncated" for r in parsed.rejected):
            return parsed
        return None
