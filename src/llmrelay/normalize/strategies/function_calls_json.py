"""A JSON array of calls wrapped in `<function_calls>` tags (seed 000's format 2).

```
I will list that directory.
<function_calls>
[{"name": "list_dir", "arguments": {"path": "."}}]
</function_calls>
```

Seen from Llama variants and Groq-served models prompted with Claude-style instructions (seed
000, appendix A). No inference server defines it; it is read like every tagged-JSON format (see
`_tags.parse_tagged_json`): an array or a single object, several blocks, a missing final close
tag, lenient JSON. `<function_calls>` holding `<invoke>` markup is `AnthropicInvoke`'s, ordered
before this strategy; here such a body is not JSON, so not an attempt.
"""

from __future__ import annotations

from .._tags import parse_tagged_json
from .._types import Parsed


class XmlFunctionCalls:
    """`<function_calls>[…]</function_calls>`: JSON calls inside XML-style tags."""

    name = "function_calls_json"
    markers = ("<function_calls>",)

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return "<function_calls>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds JSON."""
        return parse_tagged_json(text, "<function_calls>", "</function_calls>")
