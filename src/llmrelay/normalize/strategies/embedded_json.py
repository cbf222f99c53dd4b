"""A tool-shaped JSON object somewhere in prose: the last resort.

```
I will help you with that.

{"toolCalls": [{"name": "search", "arguments": {"q": "test"}}], "needsMoreWork": true}
```

Every balanced `{…}` region is read leniently and kept only if `_calls.interpret_json` says it is
tool-shaped; data objects stay in the content untouched. JSON inside code fences of another
language (```python) is code, not a call. A bare call object amid prose is marked non-explicit so
strict mode rejects it as an example; when nothing but separators surrounds the objects, they
are the whole answer (Llama's `{…}; {…}`, seed 001's one-object-per-line) and count as explicit.
"""

from __future__ import annotations

import dataclasses
import re

from .._calls import interpret_json, may_be_tool_shaped
from .._fences import iter_fences
from .._lenient_json import LenientJSONError, loads_lenient
from .._scan import iter_json_spans
from .._text import content_around, cut_spans
from .._types import Parsed

# What may stand between call objects that are, together, the whole answer.
_SEPARATORS = re.compile(r"[\s;,]*")


class EmbeddedJson:
    """Tool-shaped JSON objects found anywhere in the text."""

    name = "embedded_json"

    def detect(self, text: str) -> bool:
        """Cheap check: there is an opening brace."""
        return "{" in text

    def parse(self, text: str) -> Parsed | None:
        """Read the tool-shaped objects in order; None when there are none."""
        code = [(f.start, f.end) for f in iter_fences(text) if not f.is_json]
        found: list[tuple[tuple[int, int], Parsed]] = []
        for start, end in iter_json_spans(text):
            if text[start] != "{" or any(a <= start < b for a, b in code) or not may_be_tool_shaped(text, start, end):
                continue
            parsed = _read_object(text[start:end])
            if parsed is not None:
                found.append(((start, end), parsed))
        if not found:
            return None
        prose = cut_spans(text, [span for span, _ in found])
        whole = _SEPARATORS.fullmatch(prose) is not None
        readings = [
            dataclasses.replace(p, calls=[dataclasses.replace(c, explicit=c.explicit or whole) for c in p.calls])
            for _, p in found
        ]
        if whole:
            return Parsed.combine(readings, text="\n".join(p.text for p in readings if p.text))
        return Parsed.combine(
            readings, text=content_around(text, found), strict_text=content_around(text, found, keep_examples=True)
        )


def _read_object(candidate: str) -> Parsed | None:
    try:
        value = loads_lenient(candidate)
    except LenientJSONError:
        return None
    parsed = interpret_json(value, explicit=False)
    if parsed is None or not parsed.found_anything:
        return None
    return parsed
