"""Meta's Code World Model (CWM): a command line inside `<tool: …>` blocks.

```
<tool: function>
terminal find . -name "*.py" | xargs grep -n "def bulk_create"
</tool>
```

As vLLM's `cwm_tool_parser.py` reads it: the label after `<tool:` is not the tool; the first
word of the body is the tool's name, and the rest of the body its input. Input that is a JSON
object is the arguments; any other input is one argument, `command`, the text as written
(blank lines kept, where vLLM drops them). Several blocks are several calls; the prose around
them stays content (vLLM keeps only the prose before the first block). A block cut off before
its `</tool>` is rejected as `truncated`, never run: a command cut short is another command.
"""

from __future__ import annotations

import json
import re

from ..._envelope import RejectedCall
from .._budget import TagBudget
from .._calls import is_tool_name
from .._tags import tag_blocks, to_parsed
from .._types import CallReading, Candidate, Parsed

_OPEN, _CLOSE = "<tool:", "</tool>"
# The label, and the end of the tag's line: the input starts on the next line (a tag in prose
# runs on with words, `<tool: function> and </tool>`).
_LABEL = re.compile(r"[ \t]*[^>\s]+[ \t]*>[ \t]*\r?\n")
_NAME = re.compile(r"\s*(\S+)[ \t]*")


class CwmToolBlock:
    """`<tool: LABEL>NAME input</tool>` (CWM)."""

    name = "cwm"
    markers = (_OPEN,)

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return _OPEN in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block with a label; None when there is none."""
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        budget = TagBudget()
        for block in tag_blocks(text, _OPEN, _CLOSE, r"^>\s", budget):
            label = _LABEL.match(text, block.body_start, block.body_end)
            if label is None:
                continue  # `<tool:` in prose, not a block.
            body = text[label.end() : block.body_end]
            if block.closed:
                readings.append(_read_call(body))
            else:  # A command cut short must never run: only its close tag says it is whole.
                readings.append(RejectedCall(None, body, "a <tool:> block was cut off before </tool>", "truncated"))
            spans.append((block.start, block.end))
        return to_parsed(text, spans, readings, budget) if readings else None


def _read_call(body: str) -> CallReading:
    """The call in a closed block's body: its first word, and the input after it."""
    name = _NAME.match(body)
    if name is None:
        return RejectedCall(None, body, "a <tool:> block holds no tool name", "malformed")
    if not is_tool_name(name.group(1)):
        return RejectedCall(name.group(1), body, f"not a valid tool name: {name.group(1)[:80]!r}", "malformed")
    given = body[name.end() :].lstrip("\r\n").rstrip()
    if given.startswith("{"):
        try:
            arguments = json.loads(given)
        except ValueError:
            pass
        else:
            if isinstance(arguments, dict):
                return Candidate(name.group(1), arguments)
    return Candidate(name.group(1), {"command": given})
