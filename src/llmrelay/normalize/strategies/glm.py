"""GLM-4.5/4.6/4.7 calls: the name, then `<arg_key>`/`<arg_value>` pairs, inside `<tool_call>`.

```
<tool_call>get_weather
<arg_key>city</arg_key>
<arg_value>Paris</arg_value>
<arg_key>days</arg_key>
<arg_value>3</arg_value>
</tool_call>
```

The shape is the one the GLM-4.5 chat template writes (strings as they are, other values as
JSON) and vLLM's `tool_parsers/glm4_moe_tool_parser.py` reads: the name runs to the first
newline or `<arg_key>` (GLM-4.7 writes no newline). Hunyuan 3 (vLLM's `hy_v3_tool_parser.py`)
writes the same pairs, the name ended by `<tool_sep>`, the calls wrapped in `<tool_calls>`.
vLLM decodes values with the tool's schema; without it, a value is JSON when it parses and the
string itself otherwise. A block holding only
a name is a call without arguments; one holding JSON is Hermes', left to `HermesToolCall`.
"""

from __future__ import annotations

from ..._envelope import RejectedCall, RejectionKind
from .._budget import TagBudget
from .._calls import is_tool_name, named
from .._tags import TagBlock, json_or_text, tag_blocks, to_parsed, widen
from .._text import skip_space
from .._types import CallReading, Candidate, Parsed, TextArguments

_KEY, _KEY_END = "<arg_key>", "</arg_key>"
_VALUE, _VALUE_END = "<arg_value>", "</arg_value>"
_SEP = "<tool_sep>"  # Hunyuan 3 (HY-V3) ends the name with it, and wraps its calls in <tool_calls>.


class Glm45ArgKeys:
    """`<tool_call>NAME<arg_key>…</arg_key><arg_value>…</arg_value></tool_call>` (GLM-4.5 and later)."""

    name = "glm"
    markers = (_KEY,)

    def detect(self, text: str) -> bool:
        """Cheap check: an `<arg_key>` tag occurs."""
        return _KEY in text

    def parse(self, text: str) -> Parsed | None:
        """Read every GLM block; None when no `<tool_call>` block holds `<arg_key>` pairs."""
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        has_pairs, budget = False, TagBudget()
        for block in tag_blocks(text, "<tool_call>", "</tool_call>", "A-Za-z_", budget):
            if text.find(_KEY, block.body_start, block.body_end) != -1:
                reading = _read_block(text, block, budget)
                if budget.exhausted:
                    break  # This block was left unread, with the rest.
                has_pairs = True
                readings.append(reading)
            elif block.closed and is_tool_name(name := text[block.body_start : block.body_end].strip()):
                readings.append(Candidate(name, {}))
            else:
                continue
            spans.append(widen(text, block.start, block.end, "<tool_calls>", "</tool_calls>"))
        return to_parsed(text, spans, readings, budget) if has_pairs else None


def _read_block(text: str, block: TagBlock, budget: TagBudget) -> CallReading:
    """One call: the name up to the first newline or `<arg_key>`, then the pairs."""
    first_key = text.find(_KEY, block.body_start, block.body_end)
    newline = text.find("\n", block.body_start, first_key)
    name = text[block.body_start : newline if newline != -1 else first_key].strip().removesuffix(_SEP).rstrip()
    arguments = _read_pairs(text, first_key, block, budget)
    if isinstance(arguments, RejectedCall):
        return named(arguments, name)
    if not is_tool_name(name):
        return RejectedCall(name or None, dict(arguments), f"not a valid tool name: {name!r}", "malformed")
    return arguments.candidate(name)


def _read_pairs(text: str, position: int, block: TagBlock, budget: TagBudget) -> TextArguments | RejectedCall:
    """The `<arg_key>`/`<arg_value>` pairs from `position` to the end of the block."""
    end = block.body_end
    cut_kind: RejectionKind = "malformed" if block.closed or end < len(text) else "truncated"
    arguments = TextArguments()
    while (key_start := text.find(_KEY, position, end)) != -1:
        if not budget.take():
            return arguments  # The caller stops reading: the budget is spent.
        key_end = text.find(_KEY_END, key_start, end)
        if key_end == -1:
            return RejectedCall(None, arguments, "an <arg_key> is not closed", cut_kind)
        key = text[key_start + len(_KEY) : key_end].strip()
        value_start = skip_space(text, key_end + len(_KEY_END), end)
        if not text.startswith(_VALUE, value_start):
            kind: RejectionKind = cut_kind if value_start == end else "malformed"
            return RejectedCall(None, arguments, f"argument '{key}' has no <arg_value>", kind)
        value_start += len(_VALUE)
        value_end = text.find(_VALUE_END, value_start, end)
        if value_end == -1:
            return RejectedCall(
                None, {**arguments, key: text[value_start:end]}, f"the value of '{key}' is not closed", cut_kind
            )
        written = text[value_start:value_end].strip("\r\n")
        arguments.add(key, written, json_or_text(written))
        position = value_end + len(_VALUE_END)
    return arguments
