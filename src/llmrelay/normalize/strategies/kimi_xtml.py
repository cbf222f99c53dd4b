"""Kimi K3's XTML channels: reasoning, the reply and the calls, each an element of special tokens.

K3 writes every part of its answer as an element `<|open|>NAME ATTRS<|sep|>…<|close|>NAME<|sep|>`
(vLLM's `kimi_k3_tool_parser.py`, SGLang's `kimik3_detector.py`)::

    <|open|>think<|sep|>The user wants Paris.<|close|>think<|sep|>
    <|open|>response<|sep|>Let me check.<|close|>response<|sep|>
    <|open|>tools<|sep|>
    <|open|>call tool="get_weather" index="1"<|sep|>
    <|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|>
    <|open|>argument key="days" type="integer"<|sep|>3<|close|>argument<|sep|>
    <|close|>call<|sep|>
    <|close|>tools<|sep|><|close|>message<|sep|>

The `think` channel is reasoning; the `response` channel, unwrapped, is the content; each `call`
in the `tools` channel is a call. An argument's value is the raw text up to its close marker:
`type="string"` keeps it as written, any other type is JSON when it parses and the text
otherwise (as both engines read it). Attribute values undo the template's `&quot;`/`&amp;`.

The engines drop a call without its `tool` attribute or its close marker; here it is rejected
(malformed, or truncated when the answer ended inside it), so nothing is lost. The serving prompt
often ends with `<|open|>response<|sep|>`, so the answer may hold only the close marker: an
answer that starts with the open marker, ends with a close marker, or holds a call is K3's, and
every XTML marker is removed from its content. The same markers quoted mid-prose are text.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall, RejectionKind
from .._budget import MAX_CALLS, too_many_calls
from .._calls import is_tool_name
from .._tags import json_or_text
from .._text import join_pieces
from .._types import CallReading, Parsed, TextArguments

_TOKEN = re.compile(
    r"(<\|open\|>(?:think|response|tools|message[^<]*)<\|sep\|>"  # elements without a body of calls
    r"|<\|open\|>(?:call|argument)\s[^<]*<\|sep\|>"  # elements with attributes
    r"|<\|close\|>(?:think|response|tools|message|call|argument)<\|sep\|>|<\|end_of_msg\|>)"
)
_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
_THINK, _THINK_END = "<|open|>think<|sep|>", "<|close|>think<|sep|>"
_RESPONSE = "<|open|>response<|sep|>"
_TOOLS, _TOOLS_END = "<|open|>tools<|sep|>", "<|close|>tools<|sep|>"
_CALL, _CALL_END = "<|open|>call", "<|close|>call<|sep|>"
_ARGUMENT, _ARGUMENT_END = "<|open|>argument", "<|close|>argument<|sep|>"
# What an answer whose `<|open|>response<|sep|>` was in the prompt ends with.
_ENDINGS = ("<|close|>response<|sep|>", "<|close|>message<|sep|>", "<|end_of_msg|>", _TOOLS_END)


class KimiK3Xtml:
    """`<|open|>tools<|sep|><|open|>call tool="…"<|sep|>…` and the other XTML channels (Kimi K3)."""

    name = "kimi_k3"
    markers = ("<|sep|>", "<|end_of_msg|>")

    def detect(self, text: str) -> bool:
        """Cheap check: the separator token occurs."""
        return "<|sep|>" in text or "<|end_of_msg|>" in text

    def parse(self, text: str) -> Parsed | None:
        """Read the channels; None when the markers are only quoted in prose."""
        parts = _TOKEN.split(text)  # text, token, text, token, …, text
        kept, thoughts = [parts[0]], []
        readings: list[CallReading] = []
        in_tools, shell, index = False, False, 1
        while index < len(parts):
            token = parts[index]
            if token.startswith(_CALL):
                if len(readings) >= MAX_CALLS:
                    readings.append(too_many_calls())
                    break
                reading, index = _read_call(parts, index)
                readings.append(reading)
            elif token == _THINK:
                end = _next(parts, index, (_THINK_END,))
                thoughts.append("".join(parts[index + 1 : end]).strip())
                index = end
            elif token == _TOOLS:  # The channel, when calls (or its close) follow; else a mention.
                following = parts[index + 2] if index + 2 < len(parts) else ""
                in_tools = not parts[index + 1].strip() and (following == _TOOLS_END or following.startswith(_CALL))
                shell = shell or (in_tools and following == _TOOLS_END)
            elif token == _TOOLS_END:
                in_tools = False
            if index < len(parts) and not in_tools:
                kept.append(parts[index + 1])  # The text after a marker; inside the tools channel, only layout.
            index += 2
        if not (readings or thoughts or shell or _framed(text)):
            return None
        parsed = Parsed.from_readings(readings, text=join_pieces(kept))
        parsed.reasoning = "\n\n".join(t for t in thoughts if t) if thoughts else None
        return parsed


def _framed(text: str) -> bool:
    """Whether the answer is framed as a K3 message: opened by the response marker, or closed by one."""
    stripped = text.strip()
    return stripped.startswith(_RESPONSE) or stripped.endswith(_ENDINGS)


def _next(parts: list[str], index: int, targets: tuple[str, ...]) -> int:
    """The index of the first token after `index` that is one of `targets`, or `len(parts)`."""
    position = index + 2
    while position < len(parts) and parts[position] not in targets:
        position += 2
    return position


def _read_call(parts: list[str], index: int) -> tuple[CallReading, int]:
    """The call opened by the token at `index`, and the index of the last token it spans."""
    name = _attributes(parts[index]).get("tool", "")
    arguments = TextArguments()
    position = index + 2
    while position < len(parts):
        token = parts[position]
        if token == _CALL_END:
            return _call(name, arguments), position
        if not token.startswith(_ARGUMENT):  # The call ended without its close marker.
            return _rejected(name, arguments, f"the call has no {_CALL_END}", "malformed"), position - 2
        attributes, end = _attributes(token), _next(parts, position, (_ARGUMENT_END, _CALL_END))
        if end == len(parts):
            return _rejected(name, arguments, "the answer ended inside an argument", "truncated"), end
        if parts[end] == _CALL_END:
            return _rejected(name, arguments, f"an argument has no {_ARGUMENT_END}", "malformed"), end
        if "key" not in attributes:
            return _rejected(name, arguments, "an argument has no key", "malformed"), _next(parts, end, (_CALL_END,))
        written = "".join(parts[position + 1 : end])
        typed = attributes.get("type", "string") != "string"
        arguments.add(attributes["key"], written, json_or_text(written) if typed else written)
        position = end + 2
    return _rejected(name, arguments, f"the answer ended before {_CALL_END}", "truncated"), len(parts)


def _attributes(token: str) -> dict[str, str]:
    """The `key="value"` attributes of an open marker, with the template's escaping undone."""
    return {key: value.replace("&quot;", '"').replace("&amp;", "&") for key, value in _ATTRIBUTE.findall(token)}


def _call(name: str, arguments: TextArguments) -> CallReading:
    if not is_tool_name(name):
        return _rejected(name, arguments, f"not a valid tool name: {name!r}", "malformed")
    return arguments.candidate(name)


def _rejected(name: str, arguments: TextArguments, problem: str, kind: RejectionKind) -> RejectedCall:
    reason = f"tool call '{name}': {problem}" if name else f"a call with no tool attribute: {problem}"
    return RejectedCall(name or None, dict(arguments), reason, kind)
