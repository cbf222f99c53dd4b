"""Mistral's `[TOOL_CALLS]` token, in the JSON-array and the `[ARGS]` spellings.

Tokenizers v2 to v7 (Mistral 7B v0.3, Mixtral 8x22B, Nemo) write one JSON array of calls, ids
included (shapes from mistral-common's `tokens/tokenizers/tools.py` and vLLM's
`mistral_tool_parser.py`)::

    Let me check.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "abc123xyz"}]</s>

Tokenizer v11 and later (Mistral Small 3.2, Magistral, Devstral) write the token before each
call, the name bare, and optionally its id::

    [TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}
    [TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}

vLLM also reads `[TOOL_CALLS]add{"a": 1}` (no `[ARGS]`), which some v11 checkpoints write. The
JSON ends where its brackets balance: text before the first token and after a call is content,
and `</s>` is removed. A token followed by prose is a mention, not a call; a bare name at the very
end (`[TOOL_CALLS]get_weather`) is a call cut off before its arguments.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall, RejectionKind
from .._calls import call_from_parts, is_tool_name, read_json_calls
from .._scan import json_prefix
from .._tokens import read_token_sections
from .._types import CallReading, Parsed

_MARKER = "[TOOL_CALLS]"
_TOKEN = re.compile(r"(\[TOOL_CALLS\]|</s>)")
# `[TOOL_CALLS]add{"a": 1}`: a name glued to its JSON arguments.
_GLUED = re.compile(r"([\w.\-]+)(?=\{)")


class MistralToolCalls:
    """`[TOOL_CALLS][{…}]` (tokenizers v2–v7) and `[TOOL_CALLS]name[ARGS]{…}` (v11+)."""

    name = "mistral"
    markers = (_MARKER,)

    def detect(self, text: str) -> bool:
        """Cheap check: the `[TOOL_CALLS]` token occurs."""
        return _MARKER in text

    def parse(self, text: str) -> Parsed | None:
        """Read the calls after each token; None when no token is followed by a call."""
        # After `</s>`, or a mention of the token: content.
        return read_token_sections(text, _TOKEN, (_MARKER,), _read_body)


def _read_body(_token: str, body: str, following: str) -> tuple[list[CallReading], str] | None:
    """The calls in the text after one token, and the prose after them; None for a mention."""
    at_end = not following  # No token after this text: the answer ends with it.
    if (found := json_prefix(body)) is not None:
        return read_json_calls(found[0], f"after {_MARKER}"), found[1]  # v2–v7: an array of calls.
    if "[ARGS]" in body or "[CALL_ID]" in body:
        return _read_v11(body, at_end=at_end)
    if glued := _GLUED.match(body):
        arguments, rest = _json_prefix(body[glued.end() :])
        return [call_from_parts(glued.group(1), arguments)], rest
    if at_end and is_tool_name(body.rstrip()):  # v11 stopped before its `[ARGS]`.
        reason = f"tool call '{body.strip()}' was cut off before its arguments"
        return [RejectedCall(body.strip(), None, reason, "truncated")], ""
    return None


def _read_v11(body: str, *, at_end: bool) -> tuple[list[CallReading], str]:
    head, has_arguments, arguments = body.partition("[ARGS]")
    name, _, call_id = (part.strip() for part in head.partition("[CALL_ID]"))
    if not is_tool_name(name):
        return [RejectedCall(None, body, f"no tool name before [ARGS] ({name[:80]!r})", "malformed")], ""
    if not has_arguments:
        kind: RejectionKind = "truncated" if at_end else "malformed"
        return [RejectedCall(name, None, f"tool call '{name}' has no [ARGS]", kind, call_id or None)], ""
    json_text, rest = _json_prefix(arguments)
    return [call_from_parts(name, json_text, call_id=call_id or None)], rest


def _json_prefix(text: str) -> tuple[str, str]:
    """Split `text` into the JSON value it starts with and the prose after it."""
    return json_prefix(text) or (text.strip(), "")  # Not JSON at all: the reader reports it.
