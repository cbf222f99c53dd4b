"""The normalizer fed one chunk at a time: text deltas that are never taken back, then the calls.

`IncrementalParser` reads a streamed answer of a non-native mode (text, json_schema,
json_object) and says, after every chunk, what is now certain. Its guarantees, for every way
the same answer may be split into chunks:

1. `finish()` returns exactly `parse_response(full_text, tools, strict=strict)`.
2. The `TextDelta`s, concatenated, are exactly that completion's `content`: a delta is emitted
   only once no continuation of the answer can change it, so nothing is shown and taken back.
3. The `ToolCallComplete` events are the completion's `tool_calls`, then its `rejected`, in
   order, one each. An accepted call is shown as soon as its construct closes (see
   `_calls_closed_by`); the one exception, an answer mixing formats so that a later one changes
   the reading, is said in the completion's `warnings`.

How holding back works. Until the answer is complete, the normalizer's choice of strategy can
still change: markup written later (another tool-call format, a truncated envelope, a
tool-shaped `{…}` in the prose) decides whether earlier text is content, markup, or kept as
written. What is certain early is the plain prose an answer starts with: every strategy keeps
the prose before its first piece of markup, trimmed, at the head of the content, and an answer
without markup comes back unchanged. So prose streams word by word (a word once the space after it
arrived, since a trigger may still be forming in it) until the first *trigger*: a character or word
any built-in format's markup starts with (`<`, `>`, `{`, `◁`, a code fence, `[TOOL_CALLS`,
`Action:`, `functools`, `TOOL_CALL`, `to=`, `function call`, `**Tool Call:**`). From there on, text
waits for `finish()`, which emits the rest of the content and the calls not shown yet. The start of
an answer is held back where it could still be markup: leading blank space (a found call would trim
it), a JSON document (`{` or `[` first; with `json_mode=True` the envelope streams instead: see
`_envelope_stream`), a Functionary recipient line (`all`, or a name followed by JSON), Harmony's
`assistant to=…` header, GigaChat's `function call` header and Apriel's and HyperCLOVA X's reasoning markers. The
reasoning block an answer starts with is told as `ReasoningDelta`s (see `ReasoningStream`), never
as text. With a user-registered strategy, whose markup is unknown, nothing streams before
`finish()`.

Cost: each chunk is scanned once (with a few characters of overlap for triggers split across
chunks), so a long answer fed in small chunks costs linear time plus one `parse_response`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace

from .._envelope import Completion, ToolCall
from .._events import ReasoningDelta, StreamEvent, TextDelta, ToolCallComplete, ToolCallDelta, ToolCallStarted
from .._tools import ToolLike
from ._envelope_stream import EnvelopeStream
from ._parse import parse_response
from ._pieces import Pieces
from ._reasoning import APRIEL_REASONING, ReasoningStream
from ._registry import registered_strategies

# Where markup of a built-in format may start: after one, nothing is certain until the end.
# `<` covers every tag and special token, `>` Functionary's `>>>`, `{` tool-shaped JSON in prose.
_TRIGGER = re.compile(r"[<>{◁]|```|\[TOOL_CALLS|Action:|functools|TOOL_CALL|to=|function call|\*\*Tool Call:\*\*")
_OVERLAP = 13  # len("**Tool Call:**") - 1: a trigger split across chunks is still found.
# A last word that may be the start of a two-word trigger: held back until the next word came
# (GigaChat's `function call<|role_sep|>`, RWKV's `**Tool Call:**`).
_HELD_WORDS = ("function", "**Tool")
_SPACE = re.compile(r"\s")
# The first line of a Functionary v3.2 answer may be a recipient written without `>>>`.
_FIRST_LINE_NAME = re.compile(r"[A-Za-z_]\w*[ \t]*")
_REASONING_MARKERS = (APRIEL_REASONING, "/think\n")  # Unmarked reasoning starts (see `_head_verdict`).
_MAX_HEAD = 256  # A head undecided for this long is held back as a whole (the names are shorter).
# Where a whole tool-call construct has just closed, and the formats that close it so: only outer
# closers (an inner one, like `</invoke>` before `</function_calls>`, leaves the construct open).
_CLOSED_BY = {
    "</tool_call>": ("hermes", "qwen3_coder", "glm"),
    "</function_calls>": ("anthropic_xml", "function_calls_json", "olmo3"),
    "</tool_calls>": ("jamba", "glm"),
    "</｜DSML｜function_calls>": ("deepseek_dsml",),
    "</｜DSML｜tool_calls>": ("deepseek_dsml",),
    "</｜DSML｜ calls>": ("deepseek_dsml",),
    "</minimax:tool_call>": ("minimax_m2",),
    "</seed:tool_call>": ("seed_oss",),
    "<|tool_call_end|>": ("lfm2",),
    "</TOOLCALL>": ("nemotron",),
    "</tools>": ("qwen25_coder",),
    "<tool_call|>": ("gemma",),
    "<end_function_call>": ("gemma",),
    "</function>": ("minicpm",),
    "<|tools_suffix|>": ("apertus",),
    "</dots_function_call>": ("dots",),
    "</longcat_tool_call>": ("longcat",),
    "<|action_end|>": ("internlm",),
    "<｜tool_calls_end｜>": ("step3",),
    "<|tool_calls_section_end|>": ("special_tokens",),
    "<｜tool▁calls▁end｜>": ("deepseek",),
    "<|call|>": ("harmony",),
    "<|eom_id|>": ("llama",),
    "<|close|>tools<|sep|>": ("kimi_k3",),
    "</ifm|tool_calls>": ("k2_horizon",),
    "]<]minimax[>[</tool_call>": ("minimax_m3",),
    "</｜GCML｜tool_calls>": ("gigachat35",),
    "[unused12]": ("pangu",),
    "<|end_message|>": ("inkling",),
    "</tool>": ("cwm", "hermes_wrapped"),
    "</json>": ("hermes_wrapped",),
    "</JSON>": ("hermes_wrapped",),
    "</xml>": ("hermes_wrapped",),
    "</response>": ("hermes_wrapped",),
    "<|plamo:end_tool_request:plamo|>": ("plamo",),
    "<|tool_call:end|>": ("solar_open",),
    "</iquestcoder_tool_call>": ("iquest_coder_v2",),
    "</iquest_tool_call>": ("iquest_q1",),
    "<|im_end|>": ("hyperclovax",),
    "</atem:function_calls>": ("muse_glimmer",),
}
# HY-V4's closer carries its checkpoint's suffix (`</tool_calls:6124c78e>`): matched by shape.
_SUFFIXED_CLOSER = r"</tool_calls:[^\s<>]{1,16}>"
_CALL_CLOSER = re.compile("|".join([*map(re.escape, _CLOSED_BY), _SUFFIXED_CLOSER]))
# Longer than any closer (the suffixed one is at most 30): one split across chunks is still found.
_CLOSER_OVERLAP = max(32, *map(len, _CLOSED_BY))
# The closers without a `<`: a window holding neither `<` nor one of these holds no closer, which
# two `memchr`-fast scans say, where the regex tests each `[`/`]` (one per item of a JSON array).
_CLOSERS_WITHOUT_LT = tuple(closer for closer in _CLOSED_BY if "<" not in closer)
_MAX_EARLY_READINGS = 32
"""Calls read before the end, at most this many times a stream: each reading parses the text so
far, so the cost stays linear (a bounded number of passes), and the rest waits for `finish()`."""
_SHOWN_WAS_REASONING = (
    "the streamed events do not match this completion: the text shown while the answer arrived was the "
    "model's reasoning (its close tag came later, the open tag was in the prompt); the content follows it whole"
)
"""An answer that starts inside a reasoning block (`split_reasoning`'s orphan close tag) cannot be
told apart from prose until its `</think>` arrives: its first words stream as text, as every
answer's do. Then `finish()` tells the whole reasoning and the whole content, and says so."""
_CHANGED = (
    "the streamed events do not match this completion: a call shown while the answer arrived is not "
    "read the same from the whole answer (later text changed which format the answer is in)"
)


class IncrementalParser:
    """Turn a streamed answer into certain events, chunk by chunk, and the final `Completion`.

    Pure: no I/O. Feed every chunk in order with `feed`, then call `finish` once. See the module
    docstring for what is held back and why.

    Args:
        tools: the tools offered to the model (anything `to_tool` accepts), as for `parse_response`.
        strict: as for `parse_response`.
        json_mode: the answer is llmrelay's JSON envelope (json_schema and json_object modes):
            its content streams as it arrives and each call once its object closes (see
            `_envelope_stream`). An answer that does not start with `{` is read as any other.
    """

    def __init__(
        self, tools: Sequence[ToolLike] | None = None, *, strict: bool = False, json_mode: bool = False
    ) -> None:
        self._tools = tools
        self._strict = strict
        self._chunks = Pieces()
        self._emitted = Pieces()
        self._streaming = _only_builtin_strategies()
        """Whether prose may still stream: no trigger yet, and the answer's start is plain prose."""
        self._head: str | None = ""
        """The answer's start while undecided (see `_head_verdict`); None once decided."""
        self._pending: list[str] = []
        """The scanned text not yet emitted: blank space, then at most a word, unless a chunk lacked space."""
        self._tail = ""
        """The last few characters scanned, so a trigger split across chunks is found."""
        self._finished = False
        self._envelope: EnvelopeStream | None = None
        """The json-mode reader, once the answer started with `{` (see `_envelope_stream`)."""
        self._json_head: str | None = "" if json_mode and self._streaming else None
        """In json mode, the blank start of the answer, until its first character decides."""
        self._early_calls: list[ToolCall] = []
        """Calls already shown, read from the answer so far when one of them closed."""
        self._readings_left = _MAX_EARLY_READINGS if self._streaming else 0
        self._closer_tail = ""
        self._reasoning = ReasoningStream() if self._streaming else None
        """The reasoning block the answer may start with, told as `ReasoningDelta`s."""
        self._reasoning_told = 0
        """How many characters of reasoning were told."""

    def feed(self, chunk: str) -> list[StreamEvent]:
        """Add the next piece of the answer; return the events it made certain (maybe none)."""
        if self._finished:
            raise RuntimeError("IncrementalParser.feed() called after finish()")
        self._chunks.append(chunk)
        if self._envelope is not None:
            return self._envelope.feed(chunk)
        if self._json_head is not None:
            head = self._json_head + chunk
            if not head.strip():
                self._json_head = head
                return []
            self._json_head = None
            if head.lstrip()[0] == "{":
                self._envelope = EnvelopeStream(self._tools, self._strict)
                return self._envelope.feed(head)
            chunk = head  # Not an envelope after all: read as any answer, from its start.
        if self._reasoning is not None:
            return self._reasoning_events(chunk) + self._text_events(chunk) + self._calls_closed_by(chunk)
        return self._text_events(chunk) + self._calls_closed_by(chunk)

    def _reasoning_events(self, chunk: str) -> list[StreamEvent]:
        assert self._reasoning is not None
        told = self._reasoning.feed(chunk)
        if not self._reasoning.active:
            self._reasoning = None  # Nothing more to tell: later chunks skip it.
        if not told:
            return []
        self._reasoning_told += len(told)
        return [ReasoningDelta(told)]

    def _text_events(self, chunk: str) -> list[StreamEvent]:
        if not self._streaming or not chunk:
            return []
        if self._head is not None:
            head = self._head + chunk
            verdict = _head_verdict(head)
            if verdict is None and len(head) <= _MAX_HEAD:
                self._head = head
                return []
            self._head = None
            if not verdict:
                self._streaming = False
                return []
            chunk = head  # Scanned now, as one chunk: nothing of it was scanned yet.
        return self._scan(chunk)

    def boundary(self) -> list[StreamEvent] | None:
        """The text held back that a boundary the provider marked makes certain; None if some must wait.

        A native tool call beginning ends the text before it (the providers send text and calls as
        separate blocks or parts, so no markup spans the two): the last word, held back because it
        might still grow, is shown now, so the text comes before the call in the stream. None
        when text must still wait for `finish()` (after a trigger, or an undecided start).
        """
        if self._finished or self._chunks.blank():
            return []
        if self._envelope is not None or self._json_head is not None or not self._streaming or self._head is not None:
            return None
        pending = "".join(self._pending)
        word = pending.rstrip()
        if not word.strip():
            return []
        self._pending = [pending[len(word) :]]
        return self._emit(word)

    def finish(self) -> tuple[list[StreamEvent], Completion]:
        """End of the answer: the remaining events, and the completion `parse_response` gives."""
        if self._finished:
            raise RuntimeError("IncrementalParser.finish() called twice")
        self._finished = True
        completion = parse_response(self._chunks.text(), self._tools, strict=self._strict)
        if self._envelope is not None:
            return self._envelope.finish(completion)
        # Holding back makes what was emitted a prefix of the content (the tests check it on
        # every format's table of answers, split every way): the rest is what was held back.
        events: list[StreamEvent] = []
        if rest := (completion.reasoning or "")[self._reasoning_told :]:
            events.append(ReasoningDelta(rest))  # What was told is a prefix (see `ReasoningStream`).
        text_shown = self._emitted.text()
        if not completion.content.startswith(text_shown):  # It was reasoning (see `_SHOWN_WAS_REASONING`).
            completion = replace(completion, warnings=[*completion.warnings, _SHOWN_WAS_REASONING])
            text_shown = ""
        if rest := completion.content[len(text_shown) :]:
            events.append(TextDelta(rest))
        shown = len(self._early_calls)
        if completion.tool_calls[:shown] == self._early_calls:
            events.extend(_call_events(shown, completion.tool_calls[shown:]))
            first = len(completion.tool_calls)
        else:  # Rare (see `_calls_closed_by`): said in the warnings, and the final calls follow the shown ones.
            completion = replace(completion, warnings=[*completion.warnings, _CHANGED])
            events.extend(_call_events(shown, completion.tool_calls))
            first = shown + len(completion.tool_calls)
        events.extend(ToolCallComplete(first + i, rejected=r) for i, r in enumerate(completion.rejected))
        return events, completion

    def _calls_closed_by(self, chunk: str) -> list[StreamEvent]:
        """The calls that are complete now that `chunk` closed one: shown before the answer ends.

        When a closer arrives (`</tool_call>`, `<|call|>`, …) the answer so far is read as
        `parse_response` would read it, and its accepted calls not yet shown are shown. Later text
        could in principle still change the reading (a second, higher-priority format further on);
        then `finish()` notes it in the completion's `warnings`. Rejections wait for `finish()`.
        """
        window = self._closer_tail + chunk
        self._closer_tail = window[-_CLOSER_OVERLAP:]
        if self._readings_left <= 0 or not _may_hold_closer(window) or _CALL_CLOSER.search(window) is None:
            return []
        self._readings_left -= 1
        # Read up to the last closer only: text after it may be a call still being written, which
        # the normalizer would read as it stands (`<invoke name="f">` alone is a call without arguments).
        *_, last = _CALL_CLOSER.finditer(window)
        text = self._chunks.text()
        so_far = parse_response(text[: len(text) - len(window) + last.end()], self._tools, strict=self._strict)
        if so_far.format not in _CLOSED_BY.get(last.group(), ("hy_v4",)):
            return []  # The closer is not the one of the format that read the answer: not settled.
        shown = len(self._early_calls)
        if so_far.tool_calls[:shown] != self._early_calls:
            self._readings_left = 0  # The reading changed: show no more until the end.
            return []
        new = so_far.tool_calls[shown:]
        self._early_calls.extend(new)
        return _call_events(shown, new)

    def _scan(self, chunk: str) -> list[StreamEvent]:
        """Look for a trigger in the new text; emit the words before it, or all complete words."""
        self._pending.append(chunk)
        window = self._tail + chunk
        self._tail = window[-_OVERLAP:]
        trigger = _TRIGGER.search(window)
        if trigger is not None:
            self._streaming = False  # Markup may start here: the rest waits for finish().
            pending = "".join(self._pending)
            self._pending = []
            return self._emit(_complete_words(pending[: len(pending) - (len(window) - trigger.start())]))
        if _SPACE.search(chunk) is None:
            return []  # Still inside a word: nothing new is certain.
        pending = "".join(self._pending)
        words = _complete_words(pending)
        if held := next((w for w in _HELD_WORDS if words.endswith(w)), None):  # A two-word trigger may be starting.
            words = _complete_words(words[: -len(held)] + " ")
        self._pending = [pending[len(words) :]]
        return self._emit(words)

    def _emit(self, text: str) -> list[StreamEvent]:
        if not text:
            return []
        self._emitted.append(text)
        return [TextDelta(text)]


def _may_hold_closer(window: str) -> bool:
    """Whether `window` may hold a call closer (`_CALL_CLOSER` says for certain)."""
    if "<" in window:
        return True
    for closer in _CLOSERS_WITHOUT_LT:  # A loop, not `any()`: a generator costs more than the scans.
        if closer in window:
            return True
    return False


def _call_events(first: int, calls: Sequence[ToolCall]) -> list[StreamEvent]:
    """Started, the arguments, Complete: for each call, numbered from `first`."""
    events: list[StreamEvent] = []
    for index, call in enumerate(calls, first):
        arguments = json.dumps(call.arguments, ensure_ascii=False)
        events.append(ToolCallStarted(index, call.name, call.id))
        events.append(ToolCallDelta(index, arguments, arguments, call.arguments))
        events.append(ToolCallComplete(index, call=call))
    return events


def _complete_words(text: str) -> str:
    """The complete words of `text` (those followed by blank space), without the space after the last."""
    end = _last_space(text)
    return text[:end].rstrip() if end > 0 else ""


def _last_space(text: str) -> int:
    """The offset of the last blank character of `text`, or -1 (a loop over the last word only)."""
    for index in range(len(text) - 1, -1, -1):
        if text[index].isspace():
            return index
    return -1


def _head_verdict(head: str) -> bool | None:
    """Whether an answer starting with `head` may stream its prose: True, False, or None (undecided)."""
    if head[:1].isspace() or head[:1] in "{[":
        return False  # Trimmed if a call is found, or a JSON document: known only at the end.
    for marker in _REASONING_MARKERS:
        if marker.startswith(head[: len(marker)]):
            # Apriel's and HyperCLOVA X's reasoning start with these words: reasoning, not content.
            return None if len(head) < len(marker) else False
    name = _FIRST_LINE_NAME.match(head)
    if name is None:
        return True
    if name.end() == len(head):
        return None  # One word so far: a Functionary recipient line, or Harmony's `assistant`?
    word = name.group().strip()
    if word == "assistant":
        return False  # Harmony writes `assistant to=functions.f<|channel|>…`: not content.
    if word == "function":
        return False  # GigaChat's call message starts `function call<|role_sep|>`: not content.
    if head[name.end()] != "\n":
        return True
    after = head[name.end() + 1 :].lstrip()
    if not after:
        return None
    return not (word in ("all", "python") or after[0] in "{[")


def _only_builtin_strategies() -> bool:
    from .strategies import DEFAULT_STRATEGIES  # Deferred: strategies import this package.

    return registered_strategies() == DEFAULT_STRATEGIES
