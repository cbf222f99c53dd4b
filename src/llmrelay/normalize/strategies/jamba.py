"""AI21 Jamba's `<tool_calls>` block: a JSON array of calls between two special tokens.

```
<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>
```

The shape is the one vLLM's `tool_parsers/jamba_tool_parser.py` reads (`<tool_calls>(.*?)</tool_calls>`,
then `json.loads` of an array of `{"name", "arguments"}` objects) and the Jamba 1.5 chat template
writes. Read here like every tagged-JSON format (see `_tags.parse_tagged_json`): several blocks,
a single object instead of an array, a missing final `</tool_calls>`, lenient JSON.
"""

from __future__ import annotations

from .._tags import parse_tagged_json
from .._types import Parsed


class JambaToolCalls:
    """`<tool_calls>[…]</tool_calls>` (AI21 Jamba)."""

    name = "jamba"
    markers = ("<tool_calls>",)

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return "<tool_calls>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds JSON."""
        return parse_tagged_json(text, "<tool_calls>", "</tool_calls>")
