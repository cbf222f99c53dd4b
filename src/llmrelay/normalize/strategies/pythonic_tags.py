"""Python-style calls inside tags: LFM2's `<|tool_call_start|>` list and OLMo 3's `<function_calls>` lines.

LFM2 / LFM2.5 (Liquid AI) write a Python list of calls between two special tokens, or the same
list as JSON (SGLang's `lfm2_detector.py`, vLLM's `lfm2_tool_parser.py`, the LFM2 chat template)::

    Let me check.<|tool_call_start|>[get_weather(city="Paris"), get_time(tz="UTC")]<|tool_call_end|>

OLMo 3 writes one call per line inside `<function_calls>` (vLLM's `olmo3_tool_parser.py`, which
joins the lines into one list), with JSON's `true`/`false`/`null` as values::

    <function_calls>
    get_weather(city="Paris")
    get_time(tz="UTC")
    </function_calls>

Values are read with `ast`, never evaluated (see `PythonicCalls`). One call that cannot be read
is rejected on its own; the calls beside it are kept. A block whose close tag is missing runs to
the end of the answer (the model stopped at the close token). A `<function_calls>` block holding
JSON or `<invoke>` markup belongs to the strategies ordered before this one.
"""

from __future__ import annotations

from functools import partial

from .._budget import TagBudget
from .._calls import read_json_calls
from .._repeats import BlockReading, RepeatedBlocks
from .._tags import TagBlock, tag_blocks, to_parsed
from .._types import CallReading, Parsed
from .pythonic import read_call_list, read_one_call

_LFM2_OPEN, _LFM2_CLOSE = "<|tool_call_start|>", "<|tool_call_end|>"
_OLMO_OPEN, _OLMO_CLOSE = "<function_calls>", "</function_calls>"


class Lfm2ToolCalls:
    """`<|tool_call_start|>[f(a=1)]<|tool_call_end|>`: LFM2's Python (or JSON) call list."""

    name = "lfm2"
    markers = (_LFM2_OPEN,)

    def detect(self, text: str) -> bool:
        """Cheap check: LFM2's open token occurs."""
        return _LFM2_OPEN in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no block holds a call list."""
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        budget = TagBudget()
        repeated = RepeatedBlocks(text, partial(_read_lfm2_block, text))
        for block in tag_blocks(text, _LFM2_OPEN, _LFM2_CLOSE, r"\[{A-Za-z_", budget):
            found = repeated.read(block)
            if found is not None:
                readings.extend(found[0])
                spans.append((block.start, found[1]))
        return to_parsed(text, spans, readings, budget) if spans else None


def _read_lfm2_block(text: str, block: TagBlock) -> BlockReading:
    """One LFM2 block: its Python (or JSON) call list; None when it holds none."""
    body = text[block.body_start : block.body_end].strip()
    if block.closed and not body.strip("[] \n"):
        return [], block.end  # `[]`: the model called nothing; markup all the same.
    if body.startswith(("{", "[{", "[ {", "[\n{")):
        found: list[CallReading] | None = read_json_calls(body, f"in {_LFM2_OPEN}")
    else:
        found = read_call_list(body if body.startswith("[") else f"[{body}]")
    return None if found is None else (found, block.end)


class Olmo3FunctionCalls:
    """`<function_calls>` holding one Python call per line (OLMo 3)."""

    name = "olmo3"
    markers = (_OLMO_OPEN,)

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs."""
        return _OLMO_OPEN in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block whose lines are calls; None when there is none."""
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        budget = TagBudget()
        for block in tag_blocks(text, _OLMO_OPEN, _OLMO_CLOSE, "A-Za-z_", budget):
            lines = [line.strip() for line in text[block.body_start : block.body_end].splitlines()]
            lines = [line for line in lines if line]
            if not lines or "(" not in lines[0]:
                continue  # Prose after the tag: not a call attempt.
            end = block.end
            if len(lines) > 1 and not block.closed:
                lines = _leading_calls(lines)
                end = block.body_start  # Prose after the calls stays content.
                for line in lines:
                    end = text.index(line, end) + len(line)
            last = len(lines) - 1
            readings.extend(read_one_call(line, complete=block.closed or i < last) for i, line in enumerate(lines))
            spans.append((block.start, end))
        return to_parsed(text, spans, readings, budget) if readings else None


def _leading_calls(lines: list[str]) -> list[str]:
    """In a block never closed, the lines that look like calls (prose may follow the last one)."""
    kept = []
    for line in lines:
        if "(" not in line or not line.endswith(")"):
            break
        kept.append(line)
    return kept or lines[:1]
