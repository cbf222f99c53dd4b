"""JSON calls between a model's own open and close tags: LongCat, InternLM2, Apertus and Pangu.

LongCat-Flash writes one call object per `<longcat_tool_call>` block, blocks back to back
(SGLang's `longcat_detector.py`, vLLM's `longcat_tool_parser.py`)::

    <longcat_tool_call>
    {"name": "get_weather", "arguments": {"city": "Paris"}}
    </longcat_tool_call>

InternLM2 / InternLM2.5 and Intern-S1 write an action to the `plugin` recipient (vLLM's
`internlm2_tool_parser.py` and `intern_s1_tool_parser.py`, LMDeploy's InternLM2 parser),
arguments under `parameters` (Intern-S1 may put blank space between the two tokens)::

    Let me check.<|action_start|><|plugin|>
    {"name": "get_weather", "parameters": {"city": "Paris"}}<|action_end|>

Apertus (2509) writes a list of single-key objects, the key the tool's name and its value the
arguments (SGLang's `apertus2509_detector.py`, vLLM's `apertus_tool_parser.py`)::

    <|tools_prefix|>[{"get_weather": {"city": "Paris"}}, {"get_time": {}}]<|tools_suffix|>

Pangu (vLLM's `pangu_tool_parser.py`, `openpangu_v2_tool_parser.py`) writes a JSON list of calls
between `<|tool_call_start|>` and `<|tool_call_end|>` (LFM2's tokens, read by `Lfm2ToolCalls`) or,
in checkpoints without those tokens, between `[unused11]` and `[unused12]`::

    [unused11][{"name": "get_weather", "arguments": {"city": "Paris"}}][unused12]

Read like every tagged-JSON format (see `_tags.parse_tagged_json`): several blocks, a missing
close tag, lenient JSON, one unreadable block never hiding the others.
"""

from __future__ import annotations

import re
from typing import Any

from ..._envelope import RejectedCall
from .._budget import TagBudget
from .._calls import call_from_parts, is_tool_name
from .._tags import parse_tagged_json, read_json_block, tag_blocks, to_parsed
from .._types import CallReading, Parsed

_APERTUS_OPEN, _APERTUS_CLOSE = "<|tools_prefix|>", "<|tools_suffix|>"
_ACTION = "<|action_start|><|plugin|>"
_SPACED_ACTION = re.compile(r"<\|action_start\|>\s+<\|plugin\|>")  # Intern-S1 may put a newline between.


class LongCatToolCall:
    """`<longcat_tool_call>{…}</longcat_tool_call>` blocks (Meituan LongCat)."""

    name = "longcat"
    markers = ("<longcat_tool_call>",)

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return "<longcat_tool_call>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds JSON."""
        return parse_tagged_json(text, "<longcat_tool_call>", "</longcat_tool_call>")


class InternLmAction:
    """`<|action_start|><|plugin|>{…}<|action_end|>` (InternLM2 and InternLM2.5)."""

    name = "internlm"
    markers = ("<|action_start|>",)

    def detect(self, text: str) -> bool:
        """Cheap check: the plugin action opener occurs, maybe with blank space inside."""
        return _ACTION in text or ("<|plugin|>" in text and "<|action_start|>" in text)

    def parse(self, text: str) -> Parsed | None:
        """Read every action; None when no action holds JSON."""
        if _ACTION not in text or "<|action_start|>\n" in text or "<|action_start|> " in text:
            text = _SPACED_ACTION.sub(_ACTION, text)  # Markup only: the content around is unchanged.
        return parse_tagged_json(text, _ACTION, "<|action_end|>")


class PanguToolCall:
    """`[unused11][…][unused12]` (Huawei Pangu checkpoints without named tool tokens)."""

    name = "pangu"
    markers = ("[unused11]",)

    def detect(self, text: str) -> bool:
        """Cheap check: the open token occurs."""
        return "[unused11]" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds JSON."""
        return parse_tagged_json(text, "[unused11]", "[unused12]")


class ApertusTools:
    """`<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>` (Swiss AI Apertus)."""

    name = "apertus"
    markers = (_APERTUS_OPEN,)

    def detect(self, text: str) -> bool:
        """Cheap check: the open token occurs."""
        return _APERTUS_OPEN in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds JSON."""
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        budget = TagBudget()
        where = f"after {_APERTUS_OPEN}"
        for block in tag_blocks(text, _APERTUS_OPEN, _APERTUS_CLOSE, r"\[{", budget):
            found = read_json_block(text, block, _apertus_calls, where)
            if found is not None:
                readings.extend(found[0])
                spans.append((block.start, found[1]))
        return to_parsed(text, spans, readings, budget) if readings else None


def _apertus_calls(values: list[Any]) -> list[CallReading]:
    """Single-key objects `{"NAME": arguments}`, alone or in lists."""
    items = [item for value in values for item in (value if isinstance(value, list) else [value])]
    return [_apertus_call(item) for item in items]


def _apertus_call(item: Any) -> CallReading:
    if isinstance(item, dict) and len(item) == 1:
        name, arguments = next(iter(item.items()))
        if is_tool_name(name):
            return call_from_parts(name, arguments)
    reason = f'an item after {_APERTUS_OPEN} is not one {{"NAME": arguments}} object'
    return RejectedCall(None, item, reason, "malformed")
