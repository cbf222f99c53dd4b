"""HyperCLOVA X SEED Think 14B: a JSON call list in an assistant message addressed to the tools.

The 14B model ends its reasoning turn and opens a message whose role line says where it goes
(vLLM's `hyperclovax_seed_think_14b_tool_parser.py` and its reasoning parser)::

    /think
    The user wants Seoul's weather.<|im_end|>
    <|im_start|>assistant -> tool/function_call
    [{"name": "get_weather", "arguments": {"city": "Seoul"}}]<|im_end|>

Without reasoning, the answer starts at ` -> tool/function_call` (the prompt ended with
`<|im_start|>assistant`). The calls are a JSON list, arguments under `arguments` or
`parameters`. Of the messages before the role line, the first is the reasoning when it opened
with `/think`; the others are content, the turn markers between them removed (the larger SEED Think models write GLM's
markup, read by `Glm45ArgKeys`).
"""

from __future__ import annotations

import re

from .._calls import read_json_calls
from .._text import join_pieces
from .._types import Parsed

_ROLE = "-> tool/function_call"
# What may precede the role line, read back from it over a bounded window (a regex searched
# forward from every blank would cost quadratic time on a long run of them).
_BEFORE_ROLE = re.compile(r"(?:<\|im_end\|>\s{0,8})?(?:<\|im_start\|>assistant)?[ \t]{0,8}\Z")
_AFTER_ROLE = re.compile(r"[ \t]*\n")
_ENDS = re.compile(r"<\|im_end\|>|<\|stop\|>|<\|endofturn\|>")
_THINK = "/think\n"
_TURN = re.compile(r"<\|im_end\|>\s*<\|im_start\|>assistant\s*")


class HyperClovaXFunctionCall:
    """`assistant -> tool/function_call` then a JSON call list (HyperCLOVA X SEED Think 14B)."""

    name = "hyperclovax"
    markers = (_ROLE,)

    def detect(self, text: str) -> bool:
        """Cheap check: the tool role line occurs."""
        return _ROLE in text

    def parse(self, text: str) -> Parsed | None:
        """Read the call list after the first role line; None when no JSON list or object follows it."""
        role = text.find(_ROLE)
        line_end = _AFTER_ROLE.match(text, role + len(_ROLE)) if role != -1 else None
        if line_end is None or text[line_end.end() :].lstrip()[:1] not in ("[", "{"):
            return None
        window = max(0, role - 64)
        before = _BEFORE_ROLE.search(text[window:role])
        header_start = window + before.start() if before is not None else role
        body = line_end.end()
        end = _ENDS.search(text, body)
        readings = read_json_calls(text[body : end.start() if end else len(text)].strip(), f"after {_ROLE}")
        turns = _TURN.split(text[:header_start])  # The messages before the tools' one.
        reasoning = None
        if turns[0].lstrip().startswith(_THINK):
            reasoning = turns.pop(0).lstrip()[len(_THINK) :].strip()
        parsed = Parsed.from_readings(readings, text=join_pieces([*turns, text[end.end() :] if end else ""]))
        parsed.reasoning = reasoning
        return parsed
