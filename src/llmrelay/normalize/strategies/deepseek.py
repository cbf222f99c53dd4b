r"""DeepSeek V3 / R1 / V3.1 tool-call tokens (fullwidth bars `｜` and `▁` separators).

DeepSeek V3 and R1 name the call type, then the function, then fence its JSON arguments (shape
learned from vLLM's `deepseekv3_tool_parser.py` and llama.cpp's R1 parser in `common/chat.cpp`)::

    Let me look.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
    ```json
    {"city": "Paris"}
    ```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>

DeepSeek V3.1 drops the type and the fence (vLLM's `deepseekv31_tool_parser.py`)::

    <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>…

Variants tolerated, as llama.cpp's `common/chat.cpp` does for R1 distills: the opener spelled
`<｜tool_calls_begin｜>`, `<｜tool calls begin｜>`, `<｜tool\_calls\_begin｜>` or `<｜tool▁calls｜>`; a call
without its `<｜tool▁call▁begin｜>`; and ASCII bars (`<|tool▁calls▁begin|>`) as some servers leak
them. ASCII tokens spelled exactly like Kimi's (`<|tool_call_begin|>`) are left to
`SpecialTokenSections` unless a DeepSeek-only token is present too.

Text around the section is content; R1's `<think>…</think>` is reasoning, taken out before any
strategy reads the answer (see `_reasoning`). A call whose end tokens are missing runs to the end of the text.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..._envelope import RejectedCall
from .._budget import MAX_CALLS, too_many_calls
from .._calls import call_from_parts, is_tool_name, read_json_calls
from .._text import join_pieces
from .._types import CallReading, Parsed

_SEPARATOR = r"(?:[▁_ ]|\\_)"
_TOKEN = re.compile(
    rf"(<[｜|]tool{_SEPARATOR}(?:calls?{_SEPARATOR}(?:begin|end)|sep|calls)[｜|]>"
    rf"|<[｜|]end{_SEPARATOR}of{_SEPARATOR}sentence[｜|]>)"
)
# Tokens only DeepSeek writes: Kimi K2 spells `<|tool_call_begin|>` and `<|tool_call_end|>` the same.
_DEEPSEEK_ONLY = ("｜", "▁", "<|tool_sep|>", "<|tool_calls_begin|>", "<|tool_calls_end|>", "<|tool_calls|>")


class DeepSeekTokens:
    """DeepSeek's `<｜tool▁call▁begin｜>…<｜tool▁sep｜>…<｜tool▁call▁end｜>` calls (V3, R1, V3.1)."""

    name = "deepseek"
    markers = ("｜", "▁", "<|tool_")

    def detect(self, text: str) -> bool:
        """Cheap check: a DeepSeek-only character or token occurs."""
        # The three characters first: one C-level search each, then the tokens only if one may be there.
        if "｜" in text or "▁" in text:
            return True
        return "<|tool_" in text and any(marker in text for marker in _DEEPSEEK_ONLY)

    def parse(self, text: str) -> Parsed | None:
        """Read every call; None when no call was attempted with DeepSeek's own tokens."""
        # One C-speed split, then a loop that does next to nothing for a token that opens no
        # call: hostile inputs are hundreds of thousands of tokens.
        parts = _TOKEN.split(text)  # text, token, text, token, …, text: token k is parts[2k + 1]
        kinds = [_kind(token) for token in parts[1::2]]
        if not any(deepseek_only for _, deepseek_only in kinds):
            return None
        kept: list[str] = []  # the text parts that are content
        readings: list[CallReading] = []
        last = k = 0  # last: the first text part not yet kept or read
        while k < len(kinds):
            kind = kinds[k][0]
            # V3/R1 calls open with call-begin; R1 distills may drop it and start at `function<sep>`.
            opens = kind == "call_begin" or (kind == "sep" and parts[2 * k].strip() == "function")
            if not opens or (kind == "call_begin" and not parts[2 * k + 2] and _kind_at(kinds, k + 1) != "sep"):
                k += 1
                continue
            first = 2 * k + 2 if kind == "call_begin" else 2 * k
            after = _next_boundary(kinds, k + 1)
            closed = _kind_at(kinds, after) == "call_end"
            reading = _read_call(parts[first : 2 * after + 1 : 2], closed=closed)
            if reading is None:
                k += 1
                continue
            kept.extend(parts[last : first if kind == "sep" else first - 1 : 2])
            if len(readings) >= MAX_CALLS:
                readings.append(too_many_calls())
                last = len(parts)
                break
            readings.extend(reading)
            last, k = 2 * after + 2, (after + 1 if closed else after)
        kept.extend(parts[last::2])
        if not readings:
            return None
        return Parsed.from_readings(readings, text=join_pieces(kept))


@lru_cache(maxsize=256)
def _kind(token: str) -> tuple[str, bool]:
    """What a token means (`calls_begin`, `call_begin`, `sep`, …), and whether only DeepSeek writes it."""
    words = re.sub(r"[<>｜|]|\\_|[▁_ ]", " ", token).split()
    kind = "_".join(words[1:]) if words[0] == "tool" else "end_of_sentence"
    kind = {"calls": "calls_begin"}.get(kind, kind)
    return kind, any(marker in token for marker in _DEEPSEEK_ONLY) or kind in ("sep", "calls_begin", "calls_end")


def _kind_at(kinds: list[tuple[str, bool]], k: int) -> str:
    return kinds[k][0] if k < len(kinds) else "end_of_text"


def _next_boundary(kinds: list[tuple[str, bool]], k: int) -> int:
    """The first token from `k` on that ends a call: any token but a separator."""
    while k < len(kinds) and kinds[k][0] == "sep":
        k += 1
    return k


def _read_call(pieces: list[str], *, closed: bool) -> list[CallReading] | None:
    """Read one call from its text pieces (split at `<｜tool▁sep｜>`); None for a mere mention."""
    if len(pieces) == 1:
        body = pieces[0].strip()
        if body.startswith("{"):
            return read_json_calls(body, "in the DeepSeek tool call")  # Some fine-tunes write a whole call.
        if not closed:
            return None  # "the <｜tool▁call▁begin｜> token starts a call" is prose.
        return [RejectedCall(None, body, "a DeepSeek tool call without <｜tool▁sep｜> and no JSON call", "malformed")]
    left, right = pieces[0].strip(), "".join(pieces[1:])
    if left == "function" and not right.lstrip().startswith("{"):
        left, right = _split_v3(right)  # V3/R1: `function<sep>NAME\n```json …```; else V3.1: NAME<sep>{…}
    if not is_tool_name(left):
        return [RejectedCall(None, right, f"no tool name in the DeepSeek tool call ({left[:80]!r})", "malformed")]
    return [call_from_parts(left, _unfence(right))]


def _split_v3(text: str) -> tuple[str, str]:
    """Split V3's `NAME` line from the (still fenced) JSON arguments on the lines after it."""
    name, newline, rest = text.lstrip().partition("\n")
    if not newline:  # All on one line: the arguments start at the first brace or fence.
        cut = min((i for i in (name.find("{"), name.find("`")) if i != -1), default=len(name))
        name, rest = name[:cut], name[cut:]
    return name.strip(), rest


def _unfence(arguments: str) -> str:
    """Remove the markdown fence V3 wraps its arguments in (either end may be missing)."""
    text = arguments.strip()
    if text.startswith("```"):
        info, newline, body = text[3:].partition("\n")
        text = body if newline else info.removeprefix("json")
    return text.removesuffix("```").strip()
