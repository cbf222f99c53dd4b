r"""MeetKai Functionary's two call formats, and Llama 3.1's custom-tool format.

Functionary v3.2: each segment starts with `>>>` and a recipient line; `all` is text for the user,
any other recipient is a function and the segment its JSON arguments:

```
>>>all
Let me check both.>>>get_weather
{"city": "Paris"}>>>get_time
{"tz": "UTC"}
```

Functionary v3.1 and Llama 3.1's custom tools (Meta's prompt format): one
`<function=NAME>{JSON arguments}</function>` per call:

```
<function=get_weather>{"city": "Paris"}</function>
```

The shapes are the ones llama.cpp's `common/chat.cpp` reads (`common_chat_parse_functionary_v3_2`:
`>>>(\w+\n\{|python\n|all\n)`, the `python` tool taking raw code, the first recipient line
written without `>>>` because the prompt ends with it; `common_chat_parse_functionary_v3_1_llama_3_1`:
`<function=(\w+)>` JSON `</function>`). llama.cpp's Hermes parser also reads
`<function name="NAME">`, written by some Qwen and Hermes fine-tunes, so that spelling counts too.
`<function=NAME>` followed by `<parameter=…>` markup is Qwen3-Coder's, ordered before this strategy.
"""

from __future__ import annotations

import re
from typing import Any

from ..._envelope import RejectedCall
from .._budget import TagBudget
from .._calls import call_from_parts, named
from .._tags import NextOccurrence, TagBlock, read_json_block, to_parsed, widen
from .._text import skip_space
from .._types import CallReading, Parsed

_RECIPIENT = re.compile(r">>>([A-Za-z_]\w{0,127})[ \t]*\n")
# The first recipient line, written without `>>>` (the prompt ended with it).
_FIRST_RECIPIENT = re.compile(r"\s*([A-Za-z_]\w{0,127})[ \t]*\n")
# Arguments are a JSON object, or (rarely) that object encoded in a JSON string.
_OPENERS = '{["'
_FUNCTION_TAG = re.compile(
    r"""<function(?:=([A-Za-z_][\w.\-]{0,127})|\s+name\s*=\s*["']([A-Za-z_][\w.\-]{0,127})["'])\s*>"""
)


class Functionary:
    """`>>>name` lines before JSON (v3.2) or `<function=name>{…}</function>` tags (v3.1, Llama 3.1)."""

    name = "functionary"
    markers = (">>>", "<function")

    def detect(self, text: str) -> bool:
        """Cheap check: a `>>>` recipient or a `<function` tag occurs."""
        return ">>>" in text or "<function" in text

    def parse(self, text: str) -> Parsed | None:
        """Read the v3.2 segments if there are any, else the v3.1 tags; None when there is no call."""
        return _parse_segments(text) or _parse_tags(text)


def _parse_segments(text: str) -> Parsed | None:
    """Functionary v3.2: the markup is each `>>>recipient` line and each call's arguments."""
    recipients = NextOccurrence(text, _RECIPIENT)
    if recipients.find(0) is None:
        return None
    spans: list[tuple[int, int]] = []
    readings: list[CallReading] = []
    head = _first_head(text) or _next_head(text, recipients, 0)
    calls, budget = False, TagBudget()
    while head is not None and budget.take():
        start, body_start, name = head
        following = _next_head(text, recipients, body_start)
        segment_end = following[0] if following is not None else len(text)
        if name == "all":
            spans.append((start, body_start))  # The recipient line only: the rest is content.
        else:
            found = _read_segment(text, name, body_start, segment_end)
            if found is not None:
                calls = True
                readings.extend(found[0])
                spans.append((start, found[1]))
        head = following
    return to_parsed(text, spans, readings, budget) if calls else None


def _first_head(text: str) -> tuple[int, int, str] | None:
    """A recipient line at the very start, without `>>>`: `all`, `python`, or a name and JSON."""
    match = _FIRST_RECIPIENT.match(text)
    if match is None:
        return None
    name, after = match.group(1), skip_space(text, match.end())
    if name in ("all", "python") or text.startswith(("{", "["), after):
        return 0, match.end(), name
    return None


def _next_head(text: str, recipients: NextOccurrence, position: int) -> tuple[int, int, str] | None:
    found = recipients.find(position)
    if found is None:
        return None
    match = _RECIPIENT.match(text, found[0])
    return (found[0], found[1], match.group(1)) if match is not None else None


def _read_segment(text: str, name: str, start: int, end: int) -> tuple[list[CallReading], int] | None:
    """One function segment: JSON arguments, or raw code for the `python` tool."""
    first = skip_space(text, start, end)
    if first < end and text[first] in _OPENERS:
        return _read_arguments(text, name, TagBlock(start, start, end, end, closed=False))
    if name == "python" and first < end:
        return [call_from_parts(name, {"code": text[start:end].strip()})], end
    return None  # A recipient line followed by prose is not a call.


def _read_arguments(text: str, name: str, block: TagBlock) -> tuple[list[CallReading], int] | None:
    """A block whose body is the JSON arguments of `name`."""

    def interpret(values: list[Any]) -> list[CallReading]:
        if len(values) != 1:
            reason = f"expected one JSON arguments object, found {len(values)} JSON values"
            return [RejectedCall(None, values, reason, "malformed")]
        return [call_from_parts(name, values[0])]

    found = read_json_block(text, block, interpret, "of the arguments", _OPENERS)
    if found is None:
        return None
    readings = [named(r, name) if isinstance(r, RejectedCall) and r.name is None else r for r in found[0]]
    return readings, found[1]


def _parse_tags(text: str) -> Parsed | None:
    """Functionary v3.1 / Llama 3.1: `<function=name>` JSON `</function>`."""
    tags, closes = NextOccurrence(text, _FUNCTION_TAG), NextOccurrence(text, "</function>")
    spans: list[tuple[int, int]] = []
    readings: list[CallReading] = []
    position, budget = 0, TagBudget()
    while (found := tags.find(position)) is not None and budget.take():
        tag = _FUNCTION_TAG.match(text, found[0])  # `find` matched this very pattern here.
        block = _tag_block(found, tags.find(found[1]), closes.find(found[1]), len(text))
        result = _read_tag_body(text, tag.group(1) or tag.group(2), block) if tag is not None else None
        position = block.end
        if result is not None:
            readings.extend(result[0])
            spans.append(widen(text, block.start, result[1], "<tool_call>", "</tool_call>"))
    return to_parsed(text, spans, readings, budget) if spans else None


def _tag_block(
    tag: tuple[int, int], next_tag: tuple[int, int] | None, close: tuple[int, int] | None, text_end: int
) -> TagBlock:
    """The block a `<function…>` tag opens: to its `</function>`, else to the next tag or the end."""
    limit = next_tag[0] if next_tag is not None else text_end
    if close is not None and close[0] < limit:
        return TagBlock(tag[0], tag[1], close[0], close[1], closed=True)
    return TagBlock(tag[0], tag[1], limit, limit, closed=False)


def _read_tag_body(text: str, name: str, block: TagBlock) -> tuple[list[CallReading], int] | None:
    """JSON arguments, or nothing at all between a closed pair of tags."""
    if block.closed and skip_space(text, block.body_start, block.body_end) == block.body_end:
        return [call_from_parts(name, {})], block.end
    return _read_arguments(text, name, block)
