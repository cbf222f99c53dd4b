"""Kimi K2's tool-call special tokens, and the generic `<|tool_call_begin|>` markers of the seeds.

Kimi K2 writes a section of calls, each headed `functions.NAME:IDX` (shape learned from vLLM's
`kimi_k2_tool_parser.py`, which also reads the header without its `functions.` namespace)::

    Let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0
    <|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>

The name is NAME; the whole header is kept as the call's id, because Kimi expects it back with
the tool's result. Seeds 000 and 004 use the same tokens with a JSON call, or only a name, inside::

    <|tool_calls_section_begin|><|tool_call_begin|>{"name": "test", "arguments": {}}<|tool_call_end|>...
    <|tool_call_begin|>read_file<|tool_call_end|>                   (no arguments: `{}`)

The section tokens are optional. A call whose `<|tool_call_end|>` is missing runs to the next
token or the end of the text. An unclosed `<|tool_call_begin|>` followed by prose is a mention of
the token, not a call. DeepSeek's look-alike tokens (fullwidth bars, `▁`) are `DeepSeekTokens`'.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall
from .._budget import MAX_CALLS, too_many_calls
from .._calls import call_from_parts, is_tool_name, read_json_calls
from .._text import join_pieces
from .._types import CallReading, Parsed

_SECTION_BEGIN = "<|tool_calls_section_begin|>"
_SECTION_END = "<|tool_calls_section_end|>"
_CALL_BEGIN = "<|tool_call_begin|>"
_CALL_END = "<|tool_call_end|>"
_ARGUMENTS = "<|tool_call_argument_begin|>"
# The tokens the answer is split at; the argument token lives inside a call's body.
_TOKEN = re.compile(r"(<\|tool_call(?:s_section_begin|s_section_end|_begin|_end)\|>)")


class SpecialTokenSections:
    """`<|tool_call_begin|>…<|tool_call_end|>` calls, optionally inside a calls section (Kimi K2)."""

    name = "special_tokens"
    markers = (_CALL_BEGIN,)

    def detect(self, text: str) -> bool:
        """Cheap check: the call-begin token occurs."""
        return _CALL_BEGIN in text

    def parse(self, text: str) -> Parsed | None:
        """Read every call between the tokens; None when no call was attempted."""
        # One C-speed split instead of a match object per token: hostile inputs repeat tokens.
        parts = _TOKEN.split(text)  # text, token, text, token, …, text
        kept = [parts[0]]  # the text parts that are content
        readings: list[CallReading] = []
        index, in_section = 1, False
        while index < len(parts):
            token, body = parts[index], parts[index + 1]
            index += 2
            if token != _CALL_BEGIN:
                in_section = token == _SECTION_BEGIN or (in_section and token != _SECTION_END)
                kept.append(body)
                continue
            closed = index < len(parts) and parts[index] == _CALL_END
            reading = _read_body(body, closed=closed, in_section=in_section) if body else None
            if reading is None:
                kept.append(body)  # A mention of the token: the prose after it stays.
                continue
            if len(readings) >= MAX_CALLS:
                readings.append(too_many_calls())
                break
            readings.extend(reading)
            if closed:  # The end token is read with the call; the text after it is prose again.
                kept.append(parts[index + 1])
                index += 2
        if not readings:
            return None
        return Parsed.from_readings(readings, text=join_pieces(kept))


def _read_body(body: str, *, closed: bool, in_section: bool) -> list[CallReading] | None:
    """Read one call's body, or None when it is prose around a mention of the tokens.

    A body with arguments or JSON is a call. A bare name is one when the tokens hug it
    (`<|tool_call_begin|>read_file<|tool_call_end|>`) or a calls section surrounds it; otherwise
    "put calls between <|tool_call_begin|> and <|tool_call_end|>" would call `and`.
    """
    if _ARGUMENTS in body:
        header, _, arguments = body.partition(_ARGUMENTS)
        return [_named_call(header.strip(), arguments.strip())]
    stripped = body.strip()
    if stripped.startswith(("{", "[")):
        return read_json_calls(stripped, f"after {_CALL_BEGIN}")  # Seed 000: a JSON call, or a list.
    if not closed or not (in_section or body == stripped):
        return None
    if is_tool_name(stripped):
        return [_named_call(stripped, "")]
    reason = f"the text between {_CALL_BEGIN} and {_CALL_END} is not a tool call"
    return [RejectedCall(None, body, reason, "malformed")]


def _named_call(header: str, arguments: str) -> CallReading:
    name = _name_in_header(header)
    if not is_tool_name(name):
        return RejectedCall(None, arguments, f"no tool name in the call header {header!r}", "malformed")
    # Kimi's `functions.NAME:IDX` header is its call id; a bare name carries none.
    call_id = header if header != name else None
    return call_from_parts(name, arguments, call_id=call_id)


def _name_in_header(header: str) -> str:
    """`functions.get_weather:0` -> `get_weather`; the namespace and the index are both optional."""
    name = header.removeprefix("functions.")
    base, colon, index = name.rpartition(":")
    return base if colon and index.isdigit() else name
