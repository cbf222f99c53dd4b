"""Claude-style `<invoke>` markup, written as text instead of through the tool API.

```
<function_calls>
<invoke name="search_web">
<parameter name="query">weather today</parameter>
<parameter name="num_results">5</parameter>
</invoke>
</function_calls>
```

This is the format of Anthropic's tool-use system prompt ("String and scalar parameters should
be specified as is, while lists and objects should use JSON format"), so a value is decoded as
JSON when it is JSON (`5`, `true`, `{"a": 1}`) and kept as the string it is otherwise; only the
newlines models put around a value are stripped, never spaces. Tags may carry any namespace
prefix (`<foo:invoke>`), `name=` takes either quote, and the `<function_calls>` wrapper is
optional.

Two models write the same markup with their own rule for values (see `_value`), each read by a
strategy of its own so the answer says which it was: MiniMax-M2 wraps its invokes in
`<minimax:tool_call>` (vLLM's `minimax_m2_tool_parser.py`) and keeps values as text; DeepSeek
V3.2 prefixes every tag with `｜DSML｜` (`<｜DSML｜function_calls>`, vLLM's
`deepseekv32_tool_parser.py`) and says with `string="true|false"` whether a value is text or JSON
(DeepSeek V4, SGLang's `deepseekv4_detector.py`, wraps them in `<｜DSML｜tool_calls>` and may write
an invoke's arguments as one JSON object instead). GigaChat 3.5 writes DSML's markup under
`｜GCML｜` in a `<｜GCML｜tool_calls>` wrapper (vLLM's `gigachat35_tool_parser.py`), a value without
the flag being text::

    <｜DSML｜function_calls>
    <｜DSML｜invoke name="get_weather">
    <｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>
    <｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>
    </｜DSML｜invoke>
    </｜DSML｜function_calls>

Also read: the legacy prompt format of anthropics/anthropic-tools (`prompt_constructors.py`),
whose stop sequence was `</function_calls>`, so the close tag is usually missing:

```
<function_calls>
<invoke>
<tool_name>get_weather</tool_name>
<parameters>
<location>San Francisco, CA</location>
</parameters>
</invoke>
```
"""

from __future__ import annotations

import re
from typing import Any

from ..._envelope import RejectedCall, RejectionKind
from .._budget import TagBudget
from .._calls import call_from_parts, is_tool_name, named
from .._tags import NextOccurrence, json_or_text, parse_tagged_json, to_parsed
from .._text import join_pieces
from .._types import CallReading, Parsed, TextArguments

# A namespace prefix, e.g. `minimax:`, DeepSeek V3.2's `｜DSML｜` (V4.1 writes a space after it:
# `<｜DSML｜ invoke`) or GigaChat 3.5's `｜GCML｜`; bounded so scans stay linear.
_PREFIX = r"(?:[A-Za-z_][\w.-]{0,31}:|｜DSML｜ ?|｜GCML｜)?"
# DeepSeek V4.1's wrapper, `<｜DSML｜ calls>` (SGLang's `deepseekv41_detector.py`): `calls` alone is
# a wrapper only there.
_WRAPPERS = r"function_calls|tool_calls?|(?<=｜DSML｜ )calls"
# The wrappers whose values are text unless a `string="false"` says otherwise.
_TEXT_WRAPPERS = ("minimax:", "｜GCML｜")
# The tags that delimit calls: wrappers and `<invoke …>`. `[^<>]*` stops at the next tag, so a
# match attempt never runs past the next `<`.
_TAG = re.compile(rf"<(/?)({_PREFIX})({_WRAPPERS}|invoke)\b([^<>]*)>")
_INVOKE_OPEN = re.compile(rf"<{_PREFIX}invoke\b")
_INVOKE_CLOSE = re.compile(rf"</{_PREFIX}invoke\s*>")
_WRAPPER_CLOSE = re.compile(rf"</{_PREFIX}(?:{_WRAPPERS})\s*>")
_PARAM_OPEN = re.compile(rf"<{_PREFIX}parameter\b([^<>]*)>")
_PARAM_CLOSE = re.compile(rf"</{_PREFIX}parameter\s*>")
_STRING_ATTR = re.compile(r"""\bstring\s*=\s*["']?(true|false)""")
_DOTS_OPEN = "<dots_function_call>"
_DOTS_TAGS = re.compile(r"</?dots_function_call>")
# Step3's DeepSeek-style tokens around its invokes, and the call type written between two of them.
_STEP3_TOKENS = re.compile(r"<｜tool_calls?_(?:begin|end)｜>(?:\s*function\s*<｜tool_sep｜>)?|<｜tool_sep｜>")
_NAME_ATTR = re.compile(r"""\bname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_LEGACY_CHILD = re.compile(r"<([A-Za-z_][\w.-]{0,63})>")
_NEWLINES = "\r\n"


class _Finders:
    """The searches over the whole text, each asked at increasing positions, and the tag budget."""

    def __init__(self, text: str) -> None:
        self.invoke_open = NextOccurrence(text, _INVOKE_OPEN)
        self.invoke_close = NextOccurrence(text, _INVOKE_CLOSE)
        self.wrapper_close = NextOccurrence(text, _WRAPPER_CLOSE)
        self.budget = TagBudget()


class AnthropicInvoke:
    """`<invoke name="…"><parameter name="…">…</parameter></invoke>`, in or out of `<function_calls>`."""

    name = "anthropic_xml"
    markers: tuple[str, ...] = ("invoke",)

    def detect(self, text: str) -> bool:
        """Cheap check: an `invoke` tag may occur."""
        return "invoke" in text and "<" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every invoke, dropping the wrappers around them; None when there is none."""
        return read_invokes(text)


class DeepSeekDsml(AnthropicInvoke):
    """DeepSeek V3.2's DSML: `<｜DSML｜invoke name="…">` with `<｜DSML｜parameter … string="…">` values.

    DeepSeek V4.1 writes the same tags with a space after `｜DSML｜` (`<｜DSML｜ invoke`), in a
    `<｜DSML｜ calls>` wrapper.
    """

    name = "deepseek_dsml"
    markers = ("｜DSML｜invoke", "｜DSML｜ invoke")

    def detect(self, text: str) -> bool:
        """Cheap check: a DSML tag may occur."""
        return "｜DSML｜invoke" in text or "｜DSML｜ invoke" in text


class GigaChat35Gcml(AnthropicInvoke):
    """GigaChat 3.5's GCML: DSML's markup under `｜GCML｜`, a value text unless `string="false"`."""

    name = "gigachat35"
    markers = ("｜GCML｜invoke",)

    def detect(self, text: str) -> bool:
        """Cheap check: a GCML invoke may occur."""
        return "｜GCML｜invoke" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every invoke (vLLM's `gigachat35_tool_parser.py`); the end token `</s>` is markup."""
        parsed = read_invokes(text, as_text=True)
        if parsed is not None:
            parsed.text = parsed.text.removesuffix("</s>").rstrip()
        return parsed


class MiniMaxXml(AnthropicInvoke):
    """MiniMax-M2's `<minimax:tool_call>` holding `<invoke name="…">` calls, values kept as text."""

    name = "minimax_m2"
    markers = ("<minimax:tool_call>",)

    def detect(self, text: str) -> bool:
        """Cheap check: MiniMax's wrapper occurs."""
        return "<minimax:tool_call>" in text


class Step3Xml(AnthropicInvoke):
    """Step3's `<steptml:invoke>` calls inside DeepSeek-style `<｜tool_call_begin｜>` tokens."""

    name = "step3"
    markers = ("<steptml:invoke",)

    def detect(self, text: str) -> bool:
        """Cheap check: a StepTML invoke occurs."""
        return "<steptml:invoke" in text

    def parse(self, text: str) -> Parsed | None:
        """Read every invoke, values as text (vLLM's `step3_tool_parser.py`); the tokens are markup."""
        parsed = read_invokes(text, as_text=True)
        if parsed is not None:
            parsed.text = join_pieces(_STEP3_TOKENS.split(parsed.text))
        return parsed


class DotsXml(AnthropicInvoke):
    """dots.llm's `<dots_function_call>` blocks: `<invoke>` calls (values as text) or one JSON call."""

    name = "dots"
    markers = (_DOTS_OPEN,)

    def detect(self, text: str) -> bool:
        """Cheap check: the dots wrapper occurs."""
        return _DOTS_OPEN in text

    def parse(self, text: str) -> Parsed | None:
        """Read the invokes, values as text (SGLang's `dots_detector.py`), else the JSON calls."""
        parsed = read_invokes(text, as_text=True)
        if parsed is None:
            return parse_tagged_json(text, _DOTS_OPEN, "</dots_function_call>")
        parsed.text = join_pieces(_DOTS_TAGS.split(parsed.text))
        return parsed


def read_invokes(text: str, *, as_text: bool = False) -> Parsed | None:
    """Every invoke of `text`, with its wrappers as markup; None when there is none.

    `as_text`: values are the text written until a wrapper says otherwise (see `_value`).
    """
    finders = _Finders(text)
    spans: list[tuple[int, int]] = []
    readings: list[CallReading] = []
    previous: tuple[str, int, int] | None = None  # The tag just before: ("open" | "call", start, end).
    wrapped = False  # Inside a wrapper: an invoke there is a call attempt even without a name.
    position = 0
    while (tag := _TAG.search(text, position)) is not None and finders.budget.take():
        position = tag.end()
        closing, kind = tag.group(1) == "/", tag.group(3)
        if kind != "invoke":
            if closing and previous and previous[0] == "call" and _blank(text, previous[2], tag.start()):
                spans[-1] = (spans[-1][0], tag.end())
            previous = None if closing else ("open", tag.start(), tag.end())
            as_text = not closing and tag.group(2) in _TEXT_WRAPPERS
            wrapped = not closing
            continue
        found = None if closing else _read_invoke(text, tag, finders, as_text=as_text, wrapped=wrapped)
        if finders.budget.exhausted:
            break  # This invoke was left unread, with the rest.
        if found is None:
            previous = None
            continue
        start = tag.start()
        if previous and previous[0] == "open" and _blank(text, previous[2], start):
            start = previous[1]
        readings.append(found[0])
        spans.append((start, found[1]))
        previous = ("call", start, found[1])
        position = max(position, found[1])
    return to_parsed(text, spans, readings, finders.budget) if spans else None


def _blank(text: str, start: int, end: int) -> bool:
    return start <= end and (start == end or text[start:end].isspace())


def _read_invoke(
    text: str, tag: re.Match[str], finders: _Finders, *, as_text: bool, wrapped: bool
) -> tuple[CallReading, int] | None:
    """Read one invoke: the call (or why not), and where its markup ends; None if not a call."""
    body_start = tag.end()
    ends = (finders.invoke_open.find(body_start), finders.wrapper_close.find(body_start))
    limit = min((found[0] for found in ends if found is not None), default=len(text))
    close = finders.invoke_close.find(body_start)
    closed = close is not None and close[0] < limit
    body_end, end = (close[0], close[1]) if close is not None and closed else (limit, limit)
    cut_off = not closed and body_end == len(text)  # The answer stopped inside this invoke.
    name_attr = _NAME_ATTR.search(tag.group(4))
    if name_attr is not None:
        name = next(group for group in name_attr.groups() if group is not None)
        result = _read_parameters(text, body_start, body_end, finders.budget, cut_off=cut_off, as_text=as_text)
    else:
        legacy = _read_legacy(text, body_start, body_end, finders.budget, cut_off=cut_off)
        if legacy is None and wrapped and closed:
            reason = "an <invoke> without a name= attribute"
            return RejectedCall(None, text[body_start:body_end], reason, "malformed"), end
        if legacy is None:
            return None  # `<invoke>` mentioned in prose.
        name, result = legacy
    if isinstance(result, RejectedCall):
        return named(result, name), end
    arguments, complete_at = result
    if not closed and complete_at is not None:
        end = complete_at  # Prose after the last complete parameter of an unclosed invoke stays content.
    if not is_tool_name(name):
        return RejectedCall(name or None, arguments, f"invoke has no valid tool name: {name!r}", "malformed"), end
    if not arguments and (body := text[body_start:body_end].strip()).startswith("{"):
        return call_from_parts(name, body), end  # DeepSeek V4 may write the arguments as one JSON object.
    return arguments.candidate(name), end


def _read_parameters(
    text: str, start: int, end: int, budget: TagBudget, *, cut_off: bool, as_text: bool
) -> tuple[TextArguments, int | None] | RejectedCall:
    """The `<parameter name=…>` values between `start` and `end`, and where the last one closed.

    A missing `</parameter>` is tolerated when another tag follows (it ends the value), but not
    when the answer stopped inside the value: that call was cut off. A value is decoded as
    `_value` says (`as_text`: MiniMax's wrapper, whose values stay text).
    """
    opens, closes = NextOccurrence(text, _PARAM_OPEN, end), NextOccurrence(text, _PARAM_CLOSE, end)
    arguments = TextArguments()
    complete_at: int | None = start
    position = start
    while (found := opens.find(position)) is not None and budget.take():
        tag = _PARAM_OPEN.match(text, found[0], end)
        name_attr = _NAME_ATTR.search(tag.group(1)) if tag is not None else None
        if tag is None or name_attr is None:
            return RejectedCall(None, text[start:end], "a <parameter> tag has no name= attribute", "malformed")
        name = next(group for group in name_attr.groups() if group is not None)
        close, next_open = closes.find(found[1]), opens.find(found[1])
        value_end = min(at[0] for at in (close, next_open, (end, end)) if at is not None)
        if close is not None and close[0] == value_end:
            position = complete_at = close[1]
        elif cut_off and next_open is None:
            reason = f"parameter '{name}' was cut off before its </parameter>"
            return RejectedCall(None, {**arguments, name: text[found[1] : end]}, reason, "truncated")
        else:
            position, complete_at = value_end, None  # A missing </parameter>: the next tag ends the value.
        written = text[found[1] : value_end].strip(_NEWLINES)
        arguments.add(name, written, _value(written, tag.group(1), as_text))
    return arguments, complete_at


def _value(written: str, attributes: str, as_text: bool) -> Any:
    """An argument written as text, decoded as its format's reference parser decodes it.

    DSML says for each value: `string="true"` is the text itself, `string="false"` is JSON
    (vLLM's `deepseekv32_tool_parser.py`). Inside MiniMax's wrapper, values stay text, as vLLM's
    `minimax_m2_tool_parser.py` keeps them for a tool it does not know. Elsewhere (Claude-style
    XML) seed 000's rule: JSON when it is JSON, else the text. With a tool's schema, the schema
    decides, whatever the format (see `Candidate.texts`).
    """
    flag = _STRING_ATTR.search(attributes) if attributes else None
    if flag is not None:
        return written if flag.group(1) == "true" else json_or_text(written)
    return written if as_text else json_or_text(written)


def _read_legacy(
    text: str, start: int, end: int, budget: TagBudget, *, cut_off: bool
) -> tuple[str, tuple[TextArguments, int | None] | RejectedCall] | None:
    """anthropic-tools' `<invoke><tool_name>…</tool_name><parameters>…</parameters></invoke>`."""
    name_start = text.find("<tool_name>", start, end)
    if name_start == -1:
        return None
    name_end = text.find("</tool_name>", name_start, end)
    if name_end == -1:
        kind: RejectionKind = "truncated" if cut_off else "malformed"
        return "", RejectedCall(None, text[start:end], "the <tool_name> tag is not closed", kind)
    name = text[name_start + len("<tool_name>") : name_end].strip()
    params_start = text.find("<parameters>", name_end, end)
    if params_start == -1:
        return name, (TextArguments(), name_end + len("</tool_name>"))
    params_close = text.find("</parameters>", params_start, end)
    params_end = end if params_close == -1 else params_close
    cut_off = cut_off and params_close == -1
    result = _read_children(text, params_start + len("<parameters>"), params_end, budget, cut_off=cut_off)
    if params_close != -1 and not isinstance(result, RejectedCall):
        result = (result[0], params_close + len("</parameters>"))
    return name, result


def _read_children(
    text: str, start: int, end: int, budget: TagBudget, *, cut_off: bool
) -> tuple[TextArguments, int] | RejectedCall:
    """`<key>value</key>` elements, one per argument."""
    arguments = TextArguments()
    position = start
    while (tag := _LEGACY_CHILD.search(text, position, end)) is not None and budget.take():
        key = tag.group(1)
        close = text.find(f"</{key}>", tag.end(), end)
        if close == -1:
            kind: RejectionKind = "truncated" if cut_off else "malformed"
            partial = {**arguments, key: text[tag.end() : end]}
            return RejectedCall(None, partial, f"parameter <{key}> is not closed", kind)
        written = text[tag.end() : close].strip(_NEWLINES)
        arguments.add(key, written, json_or_text(written))
        position = close + len(key) + 3
    return arguments, position
