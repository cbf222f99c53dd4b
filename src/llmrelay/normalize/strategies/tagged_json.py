"""JSON calls between a model's own open and close tags: LongCat and InternLM2.

LongCat-Flash writes one call object per `<longcat_tool_call>` block, blocks back to back
(SGLang's `longcat_detector.py`, vLLM's `longcat_tool_parser.py`)::

    <longcat_tool_call>
    {"name": "get_weather", "arguments": {"city": "Paris"}}
    </longcat_tool_call>

InternLM2 / InternLM2.5 write an action to the `plugin` recipient (vLLM's
`internlm2_tool_parser.py`, LMDeploy's InternLM2 parser), arguments under `parameters`::

    Let me check.<|action_start|><|plugin|>
    {"name": "get_weather", "parameters": {"city": "Paris"}}<|action_end|>

Read like every tagged-JSON format (see `_tags.parse_tagged_json`): several blocks, a missing
close tag, lenient JSON, one unreadable block never hiding the others.
"""

from __future__ import annotations

from .._tags import parse_tagged_json
from .._types import Parsed


class LongCatToolCall:
    """`<longcat_tool_call>{…}</longcat_tool_call>` blocks (Meituan LongCat)."""

    name = "longcat"

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return "<longcat_tool_call>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds JSON."""
        return parse_tagged_json(text, "<longcat_tool_call>", "</longcat_tool_call>")


class InternLmAction:
    """`<|action_start|><|plugin|>{…}<|action_end|>` (InternLM2 and InternLM2.5)."""

    name = "internlm"

    def detect(self, text: str) -> bool:
        """Cheap check: the plugin action opener occurs."""
        return "<|action_start|><|plugin|>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every action; None when no action holds JSON."""
        return parse_tagged_json(text, "<|action_start|><|plugin|>", "<|action_end|>")
