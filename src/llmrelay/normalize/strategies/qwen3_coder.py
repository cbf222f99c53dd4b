"""Qwen3-Coder's XML calls: `<function=NAME>` with one `<parameter=NAME>` element per argument.

```
<tool_call>
<function=get_weather>
<parameter=city>
Paris
</parameter>
<parameter=days>
3
</parameter>
</function>
</tool_call>
```

The shape is the one Qwen3-Coder's chat template writes and vLLM's
`tool_parsers/qwen3coder_tool_parser.py` reads: the `<tool_call>` wrapper is optional, one
newline after `<parameter=…>` and one before `</parameter>` are padding, and a missing
`</parameter>` or `</function>` is tolerated (the next tag, or the end of the answer, ends it).
vLLM converts values with the tool's schema; for a tool it does not know, it keeps the string
as written (`3` stays "3"; only `null` is None), and so does this reader: with `tools`, the
schema decides (`"3"` becomes 3 for an integer). A `<function=NAME>` whose body is JSON is the
Llama 3.1 / Functionary v3.1 format, left to `Functionary`.

Seed-OSS writes the same functions inside `<seed:tool_call>` (vLLM's `seed_oss_tool_parser.py`,
llama.cpp's Seed-OSS parser), read by `SeedOssXml`; an empty `<seed:tool_call></seed:tool_call>`
shell is markup too, never content.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall
from .._budget import TagBudget
from .._calls import is_tool_name
from .._tags import NextOccurrence, opened_before, to_parsed, widen
from .._text import join_pieces, skip_space
from .._types import CallReading, Parsed, TextArguments

_FUNCTION = "<function="
_PARAMETER = "<parameter="
# vLLM refuses names with template or markup characters (an unrendered `{{ name }}` is no call).
_FUNCTION_HEAD = re.compile(r"<function=([^\s<>{}\"'=]{1,128})>")
_PARAMETER_HEAD = re.compile(r"<parameter=([^<>\n]{1,128})>")
# A tag cut off before its `>`: the rest of the answer is a name in progress.
_CUT_NAME = re.compile(r"[^<>\n]{0,128}\Z")
# What may end a function body whose `</function>` is missing.
_BODY_ENDS = ("</tool_call>", "<tool_call>", _FUNCTION)
# A `</parameter>` that closes the value: the next thing is markup or the end, as vLLM checks. A
# value may hold the literal text `</parameter>` (code about this very format) followed by more.
_EMPTY_SEED_CALL = re.compile(r"<seed:tool_call>\s*</seed:tool_call>")
_PARAMETER_CLOSE = re.compile(r"</parameter>(?=\s*(?:<parameter=|</function>|</tool_call>|<function=|<tool_call>|\Z))")


class _Finders:
    """The searches over the whole text, each asked at increasing positions, and the tag budget."""

    def __init__(self, text: str) -> None:
        self.functions = NextOccurrence(text, _FUNCTION)
        self.function_closes = NextOccurrence(text, "</function>")
        self.parameters = NextOccurrence(text, _PARAMETER)
        self.parameter_closes = NextOccurrence(text, "</parameter>")
        self.structural_closes = NextOccurrence(text, _PARAMETER_CLOSE)
        self.tool_call_opens = NextOccurrence(text, "<tool_call>")
        self.tool_call_closes = NextOccurrence(text, "</tool_call>")
        self.budget = TagBudget()


class Qwen3CoderXml:
    """`<function=…><parameter=…>…</parameter></function>`, in or out of `<tool_call>`."""

    name = "qwen3_coder"
    markers = (_FUNCTION,)
    wrapper = ("<tool_call>", "</tool_call>")
    """The tags a function may sit in."""

    def detect(self, text: str) -> bool:
        """Cheap check: a `<function=` tag occurs."""
        return _FUNCTION in text

    def parse(self, text: str) -> Parsed | None:
        """Read every function; None when no function has parameter-style markup."""
        finders = _Finders(text)
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        position = 0
        while (found := finders.functions.find(position)) is not None and finders.budget.take():
            start, position = found
            head = _FUNCTION_HEAD.match(text, start)
            if head is None:
                if _CUT_NAME.match(text, position) is not None and self._wrapped(text, start):
                    readings.append(RejectedCall(None, text[start:], "the function name was cut off", "truncated"))
                    spans.append(widen(text, start, len(text), *self.wrapper))
                continue
            if not _is_attempt(text, head, self._wrapped(text, start)):
                continue
            reading, end = _read_function(text, head.group(1), head.end(), finders)
            if finders.budget.exhausted:
                break  # This function was left unread, with the rest.
            readings.append(reading)
            spans.append(widen(text, start, end, *self.wrapper))
            position = max(position, end)
        return to_parsed(text, spans, readings, finders.budget) if spans else None

    def _wrapped(self, text: str, start: int) -> bool:
        return opened_before(text, start, self.wrapper[0]) != start


class SeedOssXml(Qwen3CoderXml):
    """Seed-OSS's `<seed:tool_call><function=…><parameter=…>` blocks (Qwen3-Coder's markup, its own wrapper)."""

    name = "seed_oss"
    markers = ("<seed:tool_call>",)
    wrapper = ("<seed:tool_call>", "</seed:tool_call>")

    def detect(self, text: str) -> bool:
        """Cheap check: Seed-OSS's wrapper occurs."""
        return self.wrapper[0] in text

    def parse(self, text: str) -> Parsed | None:
        """Read every function; empty wrappers are markup too. None when there is neither."""
        parsed = super().parse(text) if _FUNCTION in text else None
        if parsed is None:
            content = _EMPTY_SEED_CALL.sub("", text)
            return None if content == text else Parsed(text=join_pieces([content]))
        parsed.text = join_pieces([_EMPTY_SEED_CALL.sub("\n", parsed.text)])
        return parsed


def _is_attempt(text: str, head: re.Match[str], wrapped: bool) -> bool:
    """Parameter markup, an empty body, or anything inside `<tool_call>` but JSON."""
    first = skip_space(text, head.end())
    if text.startswith(("{", "[", '"'), first):
        return False  # `<function=name>{…}`: Functionary / Llama 3.1.
    return wrapped or first == len(text) or text.startswith((_PARAMETER, "</function>", "</tool_call>"), first)


def _read_function(text: str, name: str, position: int, finders: _Finders) -> tuple[CallReading, int]:
    """Read the parameters from `position` on: the call (or why not), and where its markup ends."""
    arguments = TextArguments()
    while True:
        position = skip_space(text, position)
        if text.startswith("</function>", position):
            return _call(name, arguments), position + len("</function>")
        if position == len(text) or text.startswith(_BODY_ENDS, position):
            return _call(name, arguments), position  # `</function>` missing: tolerated, as vLLM does.
        head = _PARAMETER_HEAD.match(text, position) if text.startswith(_PARAMETER, position) else None
        if not finders.budget.take():
            return _call(name, arguments), position
        if head is None:
            return _unreadable(text, name, arguments, position, finders)
        value_start = head.end()
        value_end, position = _value_extent(text, value_start, finders)
        written = _unpad(text[value_start:value_end])
        arguments.add(head.group(1).strip(), written, None if written.strip().lower() == "null" else written)


def _value_extent(text: str, start: int, finders: _Finders) -> tuple[int, int]:
    """Where a value ends, and where reading goes on: its `</parameter>`, else the next tag.

    A `</parameter>` followed by markup wins over one followed by more text (the value quoting
    the tag); when neither comes before the next tag, a missing close is tolerated.
    """
    others = [
        finder.find(start)
        for finder in (
            finders.parameters,
            finders.function_closes,
            finders.functions,
            finders.tool_call_opens,
            finders.tool_call_closes,
        )
    ]
    end = min((found[0] for found in others if found is not None), default=len(text))
    for close in (finders.structural_closes.find(start), finders.parameter_closes.find(start)):
        if close is not None and close[0] <= end:
            return close
    return end, end


def _unreadable(
    text: str, name: str, arguments: TextArguments, position: int, finders: _Finders
) -> tuple[CallReading, int]:
    """Text in a function body that is not a parameter: a cut-off tag, prose, or malformed markup.

    Prose after the parameters of a function that is never closed is the answer's text; the same
    text before this function's `</function>` is malformed markup.
    """
    if text.startswith(_PARAMETER, position) and _CUT_NAME.match(text, position + len(_PARAMETER)):
        reason = f"tool call '{name}': a <parameter= tag was cut off"
        return RejectedCall(name, arguments, reason, "truncated"), len(text)
    close = finders.function_closes.find(position)
    following = [finder.find(position) for finder in (finders.functions, finders.tool_call_opens)]
    limit = min((found[0] for found in following if found is not None), default=len(text))
    if close is None or close[0] > limit:
        return _call(name, arguments), position
    end = close[1]
    shown = text[position : position + 40]
    reason = f"tool call '{name}': expected <parameter=NAME> or </function>, found {shown!r}"
    return RejectedCall(name, arguments, reason, "malformed"), end


def _call(name: str, arguments: TextArguments) -> CallReading:
    if not is_tool_name(name):
        return RejectedCall(name, dict(arguments), f"not a valid tool name: {name!r}", "malformed")
    return arguments.candidate(name)


def _unpad(raw: str) -> str:
    """One newline of padding on each side is the template's, not the value's."""
    raw = raw[1:] if raw.startswith("\n") else raw
    return raw[:-1] if raw.endswith("\n") else raw
