"""MiniCPM5's XML calls: `<function name="…">` with one `<param name="…">` element per argument.

```
Let me check.
<function name="get_weather"><param name="city">Paris</param><param name="days">3</param></function>
```

The shape is the one MiniCPM5's chat template writes and vLLM's `minicpm5xml_tool_parser.py`
and SGLang's `minicpm5_detector.py` read: calls may sit between pieces of text, a value may be
wrapped in `<![CDATA[…]]>`, and values are decoded as Claude-style XML's are (JSON when it is
JSON, else the text; with `tools`, the schema decides). A function never closed runs to the next
function or the end of the answer; one that cannot be read is rejected on its own.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall
from .._budget import TagBudget
from .._calls import is_tool_name
from .._tags import NextOccurrence, json_or_text, to_parsed
from .._types import CallReading, Parsed, TextArguments

_FUNCTION = re.compile(r"""<function\s+name=["']([^"'<>]{1,128})["'][^<>]*>""")
_PARAM = re.compile(r"""<param\s+name=["']([^"'<>]{1,128})["'][^<>]*>""")
_CDATA = re.compile(r"\A\s*<!\[CDATA\[(.*)\]\]>\s*\Z", re.DOTALL)


class MiniCpmXml:
    """`<function name="…"><param name="…">…</param></function>` (MiniCPM5)."""

    name = "minicpm"
    markers = ("<function ",)

    def detect(self, text: str) -> bool:
        """Cheap check: a `<function name=` tag may occur."""
        return "<function " in text

    def parse(self, text: str) -> Parsed | None:
        """Read every function; None when there is none."""
        functions, closes = NextOccurrence(text, _FUNCTION), NextOccurrence(text, "</function>")
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        budget = TagBudget()
        position = 0
        while (found := functions.find(position)) is not None and budget.take():
            head = _FUNCTION.match(text, found[0])
            assert head is not None  # `functions` found this very tag.
            following = functions.find(found[1])
            limit = following[0] if following is not None else len(text)
            close = closes.find(found[1])
            closed = close is not None and close[0] <= limit
            body_end, end = (close[0], close[1]) if close is not None and closed else (limit, limit)
            arguments = _read_params(text, found[1], body_end, budget)
            if arguments is None:
                position = found[1]
                continue  # `<function name=…>` without params in an unclosed body: prose.
            readings.append(
                arguments.candidate(head.group(1)) if is_tool_name(head.group(1)) else _bad(head, arguments)
            )
            spans.append((found[0], end))
            position = end
        return to_parsed(text, spans, readings, budget) if readings else None


def _read_params(text: str, start: int, end: int, budget: TagBudget) -> TextArguments | None:
    """The `<param>` values between `start` and `end`; None when this is not a MiniCPM call."""
    arguments = TextArguments()
    position = start
    while (param := _PARAM.search(text, position, end)) is not None and budget.take():
        close = text.find("</param>", param.end(), end)
        value_end = close if close != -1 else end
        written = text[param.end() : value_end]
        cdata = _CDATA.match(written)
        written = cdata.group(1) if cdata else written.strip()
        arguments.add(param.group(1), written, written if cdata else json_or_text(written))
        position = value_end + len("</param>") if close != -1 else end
    if arguments:
        return arguments
    # No params: a call without arguments only when the body is empty and closed (a JSON body
    # is Functionary's `<function name="…">{…}</function>`).
    return arguments if text.startswith("</function>", end) and not text[start:end].strip() else None


def _bad(head: re.Match[str], arguments: TextArguments) -> CallReading:
    return RejectedCall(head.group(1), dict(arguments), f"not a valid tool name: {head.group(1)!r}", "malformed")
