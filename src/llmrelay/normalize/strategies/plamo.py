"""PLaMo 3 (Preferred Networks): each call's name and JSON arguments between `<|plamo:…|>` tags.

```
<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|>
<|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|>
<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"city": "Tokyo"}
<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>
```

As vLLM's `plamo3_tool_parser.py` reads it (its reasoning, `<|plamo:begin_think:plamo|>`, is
`_reasoning`'s; its end of turn, `<|plamo:tag|>`, `_turn_end`'s). vLLM drops every call when one
tag is out of place; here each request is read on its own, blank space between tags is allowed,
and a request that cannot be read is rejected alone.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall, RejectionKind
from .._budget import TagBudget
from .._calls import call_from_parts, is_tool_name
from .._tags import tag_blocks, to_parsed, widen
from .._types import CallReading, Parsed

_REQUESTS = ("<|plamo:begin_tool_requests:plamo|>", "<|plamo:end_tool_requests:plamo|>")
_REQUEST = ("<|plamo:begin_tool_request:plamo|>", "<|plamo:end_tool_request:plamo|>")
_NAME = re.compile(r"\s*<\|plamo:begin_tool_name:plamo\|>(.*?)<\|plamo:end_tool_name:plamo\|>\s*", re.DOTALL)
# The arguments' open tag, with the JSON constraint the template writes after it.
_ARGUMENTS = re.compile(r"<\|plamo:begin_tool_arguments:plamo\|>(?:<\|plamo:constrain\|>json<\|plamo:msg\|>)?")
_ARGUMENTS_END = "<|plamo:end_tool_arguments:plamo|>"


class PlamoToolRequests:
    """`<|plamo:begin_tool_request:plamo|>` name and JSON arguments (PLaMo 3)."""

    name = "plamo"
    markers = (_REQUEST[0],)

    def detect(self, text: str) -> bool:
        """Cheap check: a request's open tag occurs."""
        return _REQUEST[0] in text

    def parse(self, text: str) -> Parsed | None:
        """Read every request; None when there is none."""
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        budget = TagBudget()
        for block in tag_blocks(text, *_REQUEST, "<", budget):
            readings.append(_read_request(text[block.body_start : block.body_end], block.closed))
            spans.append(widen(text, block.start, block.end, *_REQUESTS))
        return to_parsed(text, spans, readings, budget) if readings else None


def _read_request(body: str, closed: bool) -> CallReading:
    """One request: the name between its tags, then the JSON arguments between theirs."""
    name = _NAME.match(body)
    if name is None or not is_tool_name(name.group(1).strip()):
        kind: RejectionKind = "malformed" if closed or name is not None else "truncated"
        return RejectedCall(None, body, "a PLaMo tool request without a valid tool name", kind)
    tool = name.group(1).strip()
    arguments = _ARGUMENTS.match(body, name.end())
    if arguments is None:
        return RejectedCall(tool, body, f"tool call '{tool}': no <|plamo:begin_tool_arguments:plamo|>", "malformed")
    end = body.find(_ARGUMENTS_END, arguments.end())
    if end == -1 and closed:
        return RejectedCall(tool, body, f"tool call '{tool}': its arguments are not closed", "malformed")
    return call_from_parts(tool, body[arguments.end() : end if end != -1 else len(body)].strip() or "{}")
