"""NVIDIA Nemotron's `<TOOLCALL>` block: a JSON array of calls between two tags.

```
<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</TOOLCALL>
```

The shape is the one the Llama-Nemotron and Nemotron Nano chat templates teach and vLLM's
`nemotron_json_tool_parser.py` reads (`<TOOLCALL>(.*?)</TOOLCALL>`, then a JSON list of
`{"name", "arguments"}`). Read like every tagged-JSON format (see `_tags.parse_tagged_json`):
several blocks, a single object instead of an array, a missing close tag, lenient JSON.
"""

from __future__ import annotations

from .._tags import parse_tagged_json
from .._types import Parsed


class NemotronToolCall:
    """`<TOOLCALL>[…]</TOOLCALL>` (NVIDIA Nemotron)."""

    name = "nemotron"
    markers = ("<TOOLCALL>",)

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return "<TOOLCALL>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds JSON."""
        return parse_tagged_json(text, "<TOOLCALL>", "</TOOLCALL>")
