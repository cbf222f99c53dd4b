"""MuseGlimmer: messages addressed by recipient, its calls as `<atem:invoke>` markup.

```
 to=self<|message|>The user wants the weather.<|eom|>
<|start|>assistant to=weather.get_weather<|message|><atem:function_calls>
<atem:invoke name="weather.get_weather">
<atem:parameter name="city">Paris</atem:parameter>
</atem:invoke>
</atem:function_calls><|eom|>
<|start|>assistant to=user<|message|>It is sunny.<|eot|>
```

As vLLM's `muse_glimmer_tool_parser.py` reads it: each message starts with a header ending in
`<|message|>` (the first one of a turn without `<|start|>assistant`, which the prompt wrote) and
ends at `<|eom|>`, `<|eot|>` or the next header. A message to `self` is reasoning; to `user`, or
to no one, content; to anything else, a call: only there are invokes read, so one quoted in the
reasoning or the answer is never run. Values are JSON when they are JSON, else the text (the
model's `x-parser: json` with non-JSON allowed), as in Claude-style invokes. ATEM markup with no
header at all is read by `AnthropicInvoke`.
"""

from __future__ import annotations

import re

from .._budget import TagBudget
from .._text import join_pieces, skip_space
from .._types import CallReading, Parsed
from .anthropic_xml import read_invokes

_MESSAGE = "<|message|>"
# A header is read back from its `<|message|>` with string operations over a bounded stretch:
# a regex searched forward from every character would cost quadratic time on hostile text.
_RECIPIENT = re.compile(r"[A-Za-z0-9_.\-]{1,128}")
_END = re.compile(r"<\|eom\|>|<\|eot\|>")
_NOT_CALLS = (None, "self", "user")


class MuseGlimmerMessages:
    """` to=RECIPIENT<|message|>…<|eom|>` messages, calls as `<atem:invoke>` (MuseGlimmer)."""

    name = "muse_glimmer"
    markers = (_MESSAGE,)

    def detect(self, text: str) -> bool:
        """Cheap check: a message token and a recipient, and none of harmony's channels."""
        return _MESSAGE in text and "to=" in text and "<|channel|>" not in text

    def parse(self, text: str) -> Parsed | None:
        """Split the answer into messages and read each by its recipient; None without a recipient."""
        headers = _headers(text)
        if not any(recipient is not None for _, _, recipient in headers):
            return None
        content = [text[: headers[0][0]]]
        thoughts: list[str] = []
        readings: list[CallReading] = []
        for number, (_, body_start, recipient) in enumerate(headers):
            limit = headers[number + 1][0] if number + 1 < len(headers) else len(text)
            end = _END.search(text, body_start, limit)
            body = text[body_start : end.start() if end else limit]
            if recipient == "self":
                thoughts.append(body)
            elif recipient in _NOT_CALLS:
                content.append(body)
            elif (parsed := read_invokes(body)) is not None:
                readings.extend([*parsed.calls, *parsed.rejected])
            content.append(text[end.end() : limit] if end else "")  # Between messages: kept, never lost.
        parsed = Parsed.from_readings(readings, text=join_pieces(content))
        parsed.reasoning = join_pieces(thoughts) if thoughts else None
        return parsed


def _headers(text: str) -> list[tuple[int, int, str | None]]:
    """Each message header: where it starts, where its body starts, and its recipient (or None).

    A header starts the answer or is opened by `<|start|>`: `to=self<|message|>` in a sentence is
    text about the format. Past `MAX_TAGS` message tokens, the rest is one message's body.
    """
    headers: list[tuple[int, int, str | None]] = []
    first = skip_space(text, 0)
    position, budget = 0, TagBudget()
    while (token := text.find(_MESSAGE, position)) != -1 and budget.take():
        position = token + len(_MESSAGE)
        recipient, start = None, token
        to = text.rfind("to=", max(0, token - 131), token)
        if to != -1 and _RECIPIENT.fullmatch(text, to + 3, token):
            recipient, start = text[to + 3 : token], to
        start, opened = _opened_at(text, start)
        if opened or start <= first:  # Else `to=self<|message|>` in a sentence: prose.
            headers.append((start, position, recipient))
    return headers


def _opened_at(text: str, position: int) -> tuple[int, bool]:
    """Where a header ending at `position` starts, and whether `<|start|>assistant` opened it."""
    start = _before_blank(text, position, " \t")
    if start < 9 or not text.startswith("assistant", start - 9):
        return start, False
    opener = _before_blank(text, start - 9, None) - 9
    return (opener, True) if opener >= 0 and text.startswith("<|start|>", opener) else (start, False)


def _before_blank(text: str, position: int, blank: str | None) -> int:
    """`position` moved back over at most 8 blank characters (`blank`: which ones; None: any)."""
    base = max(0, position - 8)
    return base + len(text[base:position].rstrip(blank))
