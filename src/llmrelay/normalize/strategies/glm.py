"""GLM-4.5/4.6/4.7 calls: the name, then `<arg_key>`/`<arg_value>` pairs, inside `<tool_call>`.

```
<tool_call>get_weather
<arg_key>city</arg_key>
<arg_value>Paris</arg_value>
<arg_key>days</arg_key>
<arg_value>3</arg_value>
</tool_call>
```

The shape is the one the GLM-4.5 chat template writes (strings as they are, other values as
JSON) and vLLM's `tool_parsers/glm4_moe_tool_parser.py` reads: the name runs to the first
newline or `<arg_key>` (GLM-4.7 writes no newline). Hunyuan 3 (vLLM's `hy_v3_tool_parser.py`)
writes the same pairs, the name ended by `<tool_sep>`, the calls wrapped in `<tool_calls>`;
iQuest Coder V2 wraps them in `<iquestcoder_tool_call>`, iQuest Q1 in `<iquest_tool_call>`.
Spark3 and HyperCLOVA X SEED Think write GLM's markup as it is. vLLM decodes values with the
tool's schema; without it, a value is JSON when it parses and the string itself otherwise (as
vLLM's GLM, iQuest Coder V2 and HyperCLOVA X readers do; its Spark3 reader keeps the string). A
block holding only a name is a call without arguments; one holding JSON is Hermes', left to
`HermesToolCall`. A value that writes the call's own tags (`<arg_value>… </tool_call> …</arg_value>`)
is read to its `</arg_value>`, as Ollama's GLM reader reads it.

K2 Horizon writes the same pairs in its IFM tags (vLLM's `k2_horizon_tool_parser.py`), each value
optionally typed, inside `<ifm|tool_calls>`; its `json` variant writes one JSON call per block::

    <ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>days</ifm|arg_key>
    <ifm|arg_type>integer</ifm|arg_type><ifm|arg_value>3</ifm|arg_value></ifm|tool_call></ifm|tool_calls>

Without a schema vLLM keeps an untyped IFM value as the text; a typed one is read as its type says
(here: `string` and `any` the text, any other type JSON when it parses).

Hunyuan HY-V4 (vLLM's `hy_v4_tool_parser.py`) writes Hunyuan 3's markup without `<tool_sep>`; a
checkpoint may add its own suffix to every structural tag (`<tool_call:6124c78e>`,
`<think:6124c78e>`). Unsuffixed, the markup is GLM's and read with GLM's rule; suffixed, it is
HY-V4's own, whose parser keeps a value as the text when no schema says otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..._envelope import RejectedCall, RejectionKind
from .._budget import TagBudget
from .._calls import calls_in, is_tool_name, named
from .._tags import NextOccurrence, TagBlock, json_or_text, read_json_block, tag_blocks, to_parsed, widen
from .._text import skip_space
from .._types import CallReading, Candidate, Parsed, TextArguments


@dataclass(frozen=True)
class _Tags:
    """The tags of one spelling of the markup, and how it decodes a value written as text."""

    call: str
    call_end: str
    wrapper: str
    wrapper_end: str
    key: str
    key_end: str
    value: str
    value_end: str
    decode: Callable[[str, str | None], Any]
    """The value of an argument, from its text and its written type (None when untyped)."""
    type: str | None = None
    type_end: str | None = None


def _glm_value(written: str, _type: str | None) -> Any:
    return json_or_text(written)


def _ifm_value(written: str, declared: str | None) -> Any:
    """K2 Horizon: untyped, `string` and `any` values are the text; other types are JSON when it parses."""
    base = (declared or "string").split("[", 1)[0].strip().lower()
    return written if base in ("string", "str", "any") else json_or_text(written)


_GLM = _Tags(
    "<tool_call>", "</tool_call>", "<tool_calls>", "</tool_calls>",
    "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", _glm_value,
)  # fmt: skip
_IFM = _Tags(
    "<ifm|tool_call>", "</ifm|tool_call>", "<ifm|tool_calls>", "</ifm|tool_calls>",
    "<ifm|arg_key>", "</ifm|arg_key>", "<ifm|arg_value>", "</ifm|arg_value>", _ifm_value,
    "<ifm|arg_type>", "</ifm|arg_type>",
)  # fmt: skip
_IQUEST_CODER_V2 = replace(_GLM, call="<iquestcoder_tool_call>", call_end="</iquestcoder_tool_call>")
_IQUEST_Q1 = replace(_GLM, call="<iquest_tool_call>", call_end="</iquest_tool_call>")
_SEP = "<tool_sep>"  # Hunyuan 3 (HY-V3) ends the name with it, and wraps its calls in <tool_calls>.


class Glm45ArgKeys:
    """`<tool_call>NAME<arg_key>…</arg_key><arg_value>…</arg_value></tool_call>` (GLM-4.5 and later)."""

    name = "glm"
    _tags = _GLM
    markers: tuple[str, ...] = (_GLM.key,)

    def detect(self, text: str) -> bool:
        """Cheap check: an `<arg_key>` tag occurs."""
        return self._tags.key in text

    def parse(self, text: str) -> Parsed | None:
        """Read every block; None when no call block holds `<arg_key>` pairs."""
        return self._read(text, self._tags)

    def _read(self, text: str, tags: _Tags) -> Parsed | None:
        spans: list[tuple[int, int]] = []
        readings: list[CallReading] = []
        has_pairs, budget, read_to = False, TagBudget(), 0
        value_ends, call_ends = NextOccurrence(text, tags.value_end), NextOccurrence(text, tags.call_end)
        for block in tag_blocks(text, tags.call, tags.call_end, self._first, budget):
            if block.start < read_to:
                continue  # Inside a value that held the tags (see `_through_values`).
            if text.find(tags.key, block.body_start, block.body_end) != -1:
                block = _through_values(text, block, tags, value_ends, call_ends)
                read_to = block.end
                reading = _read_block(text, block, budget, tags)
                if budget.exhausted:
                    break  # This block was left unread, with the rest.
                has_pairs = True
                readings.append(reading)
                end = block.end
            elif (found := self._read_other(text, block)) is not None:
                has_pairs = has_pairs or self._own_tags
                readings.extend(found[0])
                end = found[1]
            else:
                continue
            spans.append(widen(text, block.start, end, tags.wrapper, tags.wrapper_end))
        return to_parsed(text, spans, readings, budget) if has_pairs else None

    _first = "A-Za-z_"
    _own_tags = False  # `<tool_call>` is Hermes' too: only blocks with pairs make this reading GLM's.

    def _read_other(self, text: str, block: TagBlock) -> tuple[list[CallReading], int] | None:
        """A block without pairs: a bare name is a call without arguments (JSON is Hermes')."""
        if block.closed and is_tool_name(name := text[block.body_start : block.body_end].strip()):
            return [Candidate(name, {})], block.end
        return None


class IQuestCoderV2ArgKeys(Glm45ArgKeys):
    """The same pairs in `<iquestcoder_tool_call>` blocks (iQuest Coder V2, vLLM's `iquest_coder_v2_tool_parser.py`)."""

    name = "iquest_coder_v2"
    markers = (_IQUEST_CODER_V2.call,)
    _tags = _IQUEST_CODER_V2
    _own_tags = True  # No other strategy reads these tags: a bare name is a call without arguments.

    def detect(self, text: str) -> bool:
        """Cheap check: the open tag occurs (a call without arguments has no key tag)."""
        return self._tags.call in text


class IQuestQ1ArgKeys(IQuestCoderV2ArgKeys):
    """The same pairs in `<iquest_tool_call>` blocks (iQuest Q1, SGLang's `iquest_q1_detector.py`)."""

    name = "iquest_q1"
    markers = (_IQUEST_Q1.call,)
    _tags = _IQUEST_Q1


class K2HorizonIfm(Glm45ArgKeys):
    """`<ifm|tool_call>NAME<ifm|arg_key>…` pairs, or one JSON call per block (K2 Horizon)."""

    name = "k2_horizon"
    markers = (_IFM.call,)
    _tags = _IFM
    _first = "A-Za-z_{"
    _own_tags = True  # No other strategy reads these tags: a bare name or JSON is a call.

    def detect(self, text: str) -> bool:
        """Cheap check: the IFM call tag occurs."""
        return self._tags.call in text

    def _read_other(self, text: str, block: TagBlock) -> tuple[list[CallReading], int] | None:
        where = f"in {self._tags.call}"
        json_call = read_json_block(text, block, lambda values: [r for v in values for r in calls_in(v, where)], where)
        return json_call or super()._read_other(text, block)


_SUFFIX = re.compile(r"<(?:tool_call|arg_key|think)(:[^\s<>]{1,64})>")


class HunyuanV4Suffixed(Glm45ArgKeys):
    """GLM's pairs in tags with a checkpoint's suffix, `<tool_call:6124c78e>` (Hunyuan HY-V4)."""

    name = "hy_v4"
    markers = ("<tool_call:", "<arg_key:", "<think:")
    _own_tags = True

    def detect(self, text: str) -> bool:
        """Cheap check: a suffixed call, key or reasoning tag may occur."""
        return "<tool_call:" in text or "<arg_key:" in text or "<think:" in text

    def parse(self, text: str) -> Parsed | None:
        """Read the leading reasoning block and every call; None without suffixed markup."""
        if (found := _SUFFIX.search(text)) is None:
            return None
        suffix = found.group(1)
        reasoning, answer = _suffixed_thought(text, suffix)
        parsed = self._read(answer, _suffixed_tags(suffix))
        if parsed is None:
            if reasoning is None:
                return None
            parsed = Parsed(text=answer.strip())
        parsed.reasoning = reasoning
        return parsed


def _suffixed_tags(suffix: str) -> _Tags:
    """HY-V4's tags for one checkpoint; without a schema its parser keeps values as the text."""
    return _Tags(
        f"<tool_call{suffix}>", f"</tool_call{suffix}>", f"<tool_calls{suffix}>", f"</tool_calls{suffix}>",
        f"<arg_key{suffix}>", f"</arg_key{suffix}>", f"<arg_value{suffix}>", f"</arg_value{suffix}>",
        lambda written, _type: written,
    )  # fmt: skip


def _suffixed_thought(text: str, suffix: str) -> tuple[str | None, str]:
    """The `<think:SUFFIX>` block the answer starts with (to the end when unclosed), and the rest."""
    opener, closer = f"<think{suffix}>", f"</think{suffix}>"
    start = skip_space(text, 0)
    if not text.startswith(opener, start):
        return None, text
    body = start + len(opener)
    end = text.find(closer, body)
    if end == -1:
        return text[body:].strip(), ""
    return text[body:end].strip(), text[end + len(closer) :]


def _through_values(
    text: str, block: TagBlock, tags: _Tags, value_ends: NextOccurrence, call_ends: NextOccurrence
) -> TagBlock:
    """The block, read on to its real end when a value holds the call's own tags.

    `<arg_value>Wrap it in <tool_call> and </tool_call>.</arg_value></tool_call>`: the block found
    ends inside the value. When its last value is not closed in it, and its `</arg_value>` comes
    later with no `<arg_key>` before it (another call's pairs), the block ends at the close tag
    after that `</arg_value>`, as Ollama's GLM reader reads it. With no `</arg_value>` yet (an
    answer still streaming) and no other pairs after it, the value runs to the end of the text.
    """
    while (opened := text.rfind(tags.value, block.body_start, block.body_end)) != -1:
        if text.find(tags.value_end, opened, block.body_end) != -1:
            break  # Every value is closed inside the block.
        value_end = value_ends.find(block.body_end)
        if value_end is None:  # Not closed yet (a stream): the value runs on, unless other pairs follow.
            if text.find(tags.key, block.body_end) == -1:
                block = TagBlock(block.start, block.body_start, len(text), len(text), closed=False)
            break
        if text.find(tags.key, block.body_end, value_end[0]) != -1:
            break
        close = call_ends.find(value_end[1])
        if close is None:
            break
        block = TagBlock(block.start, block.body_start, close[0], close[1], closed=True)
    return block


def _read_block(text: str, block: TagBlock, budget: TagBudget, tags: _Tags) -> CallReading:
    """One call: the name up to the first newline or key tag, then the pairs."""
    first_key = text.find(tags.key, block.body_start, block.body_end)
    newline = text.find("\n", block.body_start, first_key)
    name = text[block.body_start : newline if newline != -1 else first_key].strip().removesuffix(_SEP).rstrip()
    arguments = _read_pairs(text, first_key, block, budget, tags)
    if isinstance(arguments, RejectedCall):
        return named(arguments, name)
    if not is_tool_name(name):
        return RejectedCall(name or None, dict(arguments), f"not a valid tool name: {name!r}", "malformed")
    return arguments.candidate(name)


def _read_pairs(
    text: str, position: int, block: TagBlock, budget: TagBudget, tags: _Tags
) -> TextArguments | RejectedCall:
    """The key/value pairs from `position` to the end of the block."""
    end = block.body_end
    cut_kind: RejectionKind = "malformed" if block.closed or end < len(text) else "truncated"
    arguments = TextArguments()
    while (key_start := text.find(tags.key, position, end)) != -1:
        if not budget.take():
            return arguments  # The caller stops reading: the budget is spent.
        key_end = text.find(tags.key_end, key_start, end)
        if key_end == -1:
            return RejectedCall(None, arguments, f"an {tags.key} is not closed", cut_kind)
        key = text[key_start + len(tags.key) : key_end].strip()
        value_start = skip_space(text, key_end + len(tags.key_end), end)
        declared, value_start = _read_type(text, value_start, end, tags)
        if not text.startswith(tags.value, value_start):
            kind: RejectionKind = cut_kind if value_start == end else "malformed"
            return RejectedCall(None, arguments, f"argument '{key}' has no {tags.value}", kind)
        value_start += len(tags.value)
        value_end = text.find(tags.value_end, value_start, end)
        if value_end == -1:
            return RejectedCall(
                None, {**arguments, key: text[value_start:end]}, f"the value of '{key}' is not closed", cut_kind
            )
        written = text[value_start:value_end].strip("\r\n")
        arguments.add(key, written, tags.decode(written, declared))
        position = value_end + len(tags.value_end)
    return arguments


def _read_type(text: str, position: int, end: int, tags: _Tags) -> tuple[str | None, int]:
    """The type written before a value (K2 Horizon's typed variant), and where the value tag starts."""
    if tags.type is None or tags.type_end is None or not text.startswith(tags.type, position):
        return None, position
    type_end = text.find(tags.type_end, position, end)
    if type_end == -1:
        return None, position  # Read as a value tag that is missing.
    return text[position + len(tags.type) : type_end].strip(), skip_space(text, type_end + len(tags.type_end), end)
