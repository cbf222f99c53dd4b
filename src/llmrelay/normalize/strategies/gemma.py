"""Gemma's calls: `call:NAME{key:value,…}` between special tokens (FunctionGemma and Gemma 4).

Gemma 4 writes each call between `<|tool_call>` and `<tool_call|>`, calls back to back, with
bare keys and strings between `<|"|>` delimiters; numbers, booleans, null, lists and nested
objects are written bare (vLLM's `gemma4_tool_parser.py`, the Gemma 4 chat template)::

    <|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>

FunctionGemma (`google/functiongemma-270m-it`) writes the same shape between
`<start_function_call>` and `<end_function_call>`, every value between `<escape>` tokens;
vLLM decodes a value as JSON when it is JSON (`<escape>3<escape>` is 3), and so does this reader::

    <start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>

Strings are taken as written (they may hold `{`, `,` or `:`), then the rest is read as lenient
JSON (bare keys are one of the things it reads). Gemma 4's reasoning channel
(`<|channel>thought…<channel|>`) is reasoning (see `_reasoning`). A call whose close token is
missing runs to the end of the answer; one that cannot be read is rejected on its own.
"""

from __future__ import annotations

import json
import re

from ..._envelope import RejectedCall, RejectionKind
from .._budget import TagBudget
from .._calls import call_from_parts, decode_json, is_tool_name
from .._tags import json_or_text, tag_blocks, to_parsed
from .._types import CallReading, Parsed

# (open token, close token, string delimiter, whether a string value is decoded as JSON)
_DIALECTS = (
    ("<|tool_call>", "<tool_call|>", '<|"|>', False),
    ("<start_function_call>", "<end_function_call>", "<escape>", True),
)
_HEAD = re.compile(r"\s*call:([\w.-]{1,128})\s*")
_TRAILING_POINT = re.compile(r"(?<![\w.])(-?[0-9]+)\.(?![\w.])")  # A number outside strings ending in a point.


class GemmaFunctionCall:
    """`<|tool_call>call:f{a:<|"|>x<|"|>}<tool_call|>` (Gemma 4) and FunctionGemma's `<start_function_call>`."""

    name = "gemma"
    markers = ("<|tool_call>", "<start_function_call>")

    def detect(self, text: str) -> bool:
        """Cheap check: one of the open tokens occurs."""
        return "<|tool_call>" in text or "<start_function_call>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every call of the dialect the answer uses; None when there is none."""
        for open_tag, close_tag, delimiter, decode_strings in _DIALECTS:
            if open_tag not in text:
                continue
            spans: list[tuple[int, int]] = []
            readings: list[CallReading] = []
            budget = TagBudget()
            for block in tag_blocks(text, open_tag, close_tag, "c", budget):
                head = _HEAD.match(text, block.body_start, block.body_end)
                if head is None:
                    continue
                body = text[head.end() : block.body_end].strip()
                readings.append(_read_call(head.group(1), body, delimiter, decode_strings, block.closed))
                spans.append((block.start, block.end))
            if readings:
                return to_parsed(text, spans, readings, budget)
        return None


def _read_call(name: str, body: str, delimiter: str, decode_strings: bool, closed: bool) -> CallReading:
    """One call's `{…}` arguments, strings taken as written, the rest as lenient JSON."""
    if not is_tool_name(name):
        return RejectedCall(None, body, f"not a valid tool name: {name!r}", "malformed")
    pieces = body.split(delimiter)
    if len(pieces) % 2 == 0:  # A string never closed.
        kind: RejectionKind = "malformed" if closed else "truncated"
        return RejectedCall(name, body, f"tool call '{name}': a string value is not closed", kind)
    for index in range(1, len(pieces), 2):  # Each string becomes a JSON string literal.
        pieces[index] = json.dumps(pieces[index], ensure_ascii=False)
    for index in range(0, len(pieces), 2):  # `108.`, as vLLM's reader takes it: 108.0.
        if "." in pieces[index]:
            pieces[index] = _TRAILING_POINT.sub(r"\1.0", pieces[index])
    value = decode_json("".join(pieces) or "{}", f"in the arguments of '{name}'")
    if isinstance(value, RejectedCall):
        return RejectedCall(name, body, value.reason, value.kind if not closed else "malformed")
    if decode_strings and isinstance(value, dict):
        value = {key: json_or_text(item) if isinstance(item, str) else item for key, item in value.items()}
    return call_from_parts(name, value)
