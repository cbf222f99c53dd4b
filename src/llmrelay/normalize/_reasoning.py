"""Reasoning written as text: the thinking blocks an answer starts with, kept apart from its content.

Reasoning models write their chain of thought before the answer, between tags::

    <think>The user wants the weather; I need get_weather.</think>
    <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>

The tags are DeepSeek R1's, Qwen3's, GLM's, MiniMax's and xLAM's `<think>`, Seed-OSS's
`<seed:think>`, Command R7B / Command A's `<|START_THINKING|>`, Kimi VL's `◁think▷`, Gemma 4's
`<|channel>thought` channel, Kimi K3's `<|open|>think<|sep|>` channel, K2 Horizon's
`<ifm|think>` (and its `_fast`, `_faster` efforts), MiniMax M3's `<mm:think>`, Inkling's
`<|content_thinking|>` block, PLaMo 3's `<|plamo:begin_think:plamo|>`, Solar Open 2's
`<|think:start|>`, Magistral's `[THINK]`, Apertus' `<|inner_prefix|>` and the `<thinking>` of
Claude-style prompts. As the engines'
reasoning parsers read them (vLLM's and SGLang's `deepseek_r1`/`qwen3`/`seed_oss` parsers,
llama.cpp's `common/chat.cpp`), only blocks at the start of the answer count, one after
another; a block never closed is reasoning to the end of the answer (the model ran out of
tokens while thinking). The same tags later in an answer are text the model wrote about them,
and stay in the content. One exception: when the prompt opened the block (DeepSeek R1, Qwen3
thinking, GLM, MiniMax), the answer starts inside it and only the close tag is written; the
text before the first close tag is then the reasoning (see `reasoning_before_lone_close`).

Hunyuan wraps the answer after its reasoning in `<answer>…</answer>`, ERNIE 4.5 in
`<response>…</response>`: those wrappers are removed. ServiceNow's Apriel thinkers start with
`Here are my reasoning steps:` and write their answer between `[BEGIN FINAL RESPONSE]` and
`[END FINAL RESPONSE]` (vLLM's and llama.cpp's Apriel readers): the markers are removed too.

Calls written inside reasoning are the model thinking aloud, never a request: `reasoning_calls`
reports them as rejected with kind `in_reasoning`, so they are not lost either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from .._envelope import RejectedCall
from ._dispatch import first_reading
from ._text import skip_space
from ._turn_end import turn_end_tail
from ._types import Strategy

APRIEL_REASONING = "Here are my reasoning steps:"
"""How ServiceNow's Apriel thinkers start their reasoning (their answer follows `[BEGIN FINAL RESPONSE]`)."""
_BLOCKS = {
    "<think>": "</think>",
    "<seed:think>": "</seed:think>",
    "<|START_THINKING|>": "<|END_THINKING|>",
    "◁think▷": "◁/think▷",
    "<thinking>": "</thinking>",
    "<|channel>thought": "<channel|>",
    "<|open|>think<|sep|>": "<|close|>think<|sep|>",
    "<mm:think>": "</mm:think>",  # MiniMax M3.
    "<|content_thinking|>": "<|end_message|>",  # Inkling.
    "<ifm|think>": "</ifm|think>",  # K2 Horizon: one opener per reasoning effort.
    "<ifm|think_fast>": "</ifm|think_fast>",
    "<ifm|think_faster>": "</ifm|think_faster>",
    "<|plamo:begin_think:plamo|>": "<|plamo:end_think:plamo|>",
    "<|think:start|>": "<|think:end|>",
    "[THINK]": "[/THINK]",  # Magistral (llama.cpp's MAGISTRAL format, vLLM's mistral reasoning parser).
    "<|inner_prefix|>": "<|inner_suffix|>",  # Apertus (llama.cpp's APERTUS format).
    APRIEL_REASONING: "[BEGIN FINAL RESPONSE]",
}
# K2 Horizon opens with its reasoning effort's tag but may close with another effort's (llama.cpp
# accepts all three close tags): any of them ends the block.
_IFM_CLOSERS = ("</ifm|think>", "</ifm|think_fast>", "</ifm|think_faster>")
_CLOSERS = {opener: _IFM_CLOSERS if opener.startswith("<ifm|") else (closer,) for opener, closer in _BLOCKS.items()}
REASONING_STARTS = frozenset(opener[0] for opener in _BLOCKS)
"""The characters a reasoning block starts with (after blank space)."""
_MAX_BLOCKS = 64  # Blocks read one by one; models write one or a few, hostile text 200k.
_OPENER = re.compile("|".join(map(re.escape, _BLOCKS)))
# The close tags that end a block opened in the prompt (see `reasoning_before_lone_close`);
# Apriel's and Gemma 4's markers are not among them (their templates do not open the block).
_ORPHANS = (
    "</think>",
    "</seed:think>",
    "<|END_THINKING|>",
    "◁/think▷",
    "</thinking>",
    "<|plamo:end_think:plamo|>",
    "<|think:end|>",
    "</mm:think>",  # MiniMax M3.
    "<|close|>think<|sep|>",  # Kimi K3's think channel.
)
_ORPHAN = re.compile("|".join(map(re.escape, _ORPHANS)))
_ORPHAN_HINTS = (
    "think>",
    "thinking>",
    "THINKING|>",
    "/think▷",
    "end_think",
    "think:end",
    "think<|sep|>",
)  # One is in each orphan close tag.
_QUOTES = frozenset("`'\"")
# Wrappers around the answer after the reasoning: Hunyuan's and ERNIE 4.5's.
_ANSWER_WRAPPERS = (("<answer>", "</answer>"), ("<response>", "</response>"))
_ANSWER_ENDS = ("<|end|>", "[END FINAL RESPONSE]")  # Apriel's end of answer, and its end token.


def split_reasoning(text: str) -> tuple[str | None, str]:
    """The reasoning blocks `text` starts with, joined, and the answer after them.

    Returns `(None, text)` unchanged when the answer does not start with a reasoning block.
    """
    position = skip_space(text, 0)
    if position == len(text) or text[position] not in REASONING_STARTS:
        return reasoning_before_lone_close(text)
    thoughts: list[str] = []
    # Each block's close tag is searched from its own body on, so many blocks cost linear time.
    while (found := _OPENER.match(text, position)) is not None:
        body, closer = found.end(), _BLOCKS[found.group()]
        if len(thoughts) >= _MAX_BLOCKS:  # Hostile: the run up to this tag's last close is one thought.
            body, close = position, text.rfind(closer, body)
        else:
            close, closer = _first_close(text, _CLOSERS[found.group()], body)
        if close == -1 and found.group() == APRIEL_REASONING:
            break  # Words any answer may start with: reasoning only once its end marker came.
        if close == -1:  # Never closed: the model stopped while thinking.
            thoughts.append(text[body:].strip())
            position = len(text)
            break
        thoughts.append(text[body:close].strip())
        position = skip_space(text, close + len(closer))
    if not thoughts:
        return reasoning_before_lone_close(text)
    return "\n\n".join(t for t in thoughts if t), _unwrap_answer(text[position:])


def _first_close(text: str, closers: tuple[str, ...], start: int) -> tuple[int, str]:
    """Where the first of `closers` occurs in `text` from `start`, and which one (-1 when none does)."""
    if len(closers) == 1:
        return text.find(closers[0], start), closers[0]
    found = [(at, closer) for closer in closers if (at := text.find(closer, start)) != -1]
    return min(found) if found else (-1, closers[0])


def reasoning_before_lone_close(text: str) -> tuple[str | None, str]:
    """The reasoning before a close tag whose open tag was in the prompt, and the answer after it.

    DeepSeek R1, Qwen3's thinking models, GLM and MiniMax end their prompt with `<think>`: the
    answer starts inside the block and only `</think>` is written (vLLM's Qwen3 and DeepSeek R1
    reasoning parsers read the text before it as reasoning). A close tag counts when nothing
    before it opens a block and it is not quoted (`` `</think>` `` in prose about the tag).
    """
    if not _may_close_reasoning(text):
        return None, text  # The common case, a few scans in C.
    found = _ORPHAN.search(text)
    if found is None or _OPENER.search(text, 0, found.start()) is not None:
        return None, text
    if text.lstrip()[:1] in ("{", "[") and _is_json(text):
        return None, text  # A JSON answer whose string names the tag: `json_document` reads it whole.
    if text[found.start() - 1 : found.start()] in _QUOTES or text[found.end() : found.end() + 1] in _QUOTES:
        return None, text
    return text[: found.start()].strip(), _unwrap_answer(text[skip_space(text, found.end()) :])


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):  # Nested past the recursion limit: not a JSON answer we read.
        return False
    return True


def _may_close_reasoning(text: str) -> bool:
    """Whether `text` may hold a lone close tag of reasoning (a cheap check before the search)."""
    # Every orphan close tag holds `hink` or `HINK`. A one-character test is a memchr (some forty
    # times faster than a search for a longer string), so the usual answer pays two of those.
    if not ("k" in text and "hink" in text) and not ("K" in text and "HINK" in text):
        return False
    return any(hint in text for hint in _ORPHAN_HINTS)


def _unwrap_answer(rest: str) -> str:
    """The answer without the wrapper around all of it (`<answer>…</answer>`, `<response>…</response>`)."""
    stripped = rest.strip()
    for end in _ANSWER_ENDS:
        stripped = stripped.removesuffix(end).rstrip()
    for opener, closer in _ANSWER_WRAPPERS:
        if stripped.startswith(opener) and (stripped.endswith(closer) or closer not in stripped):
            return stripped[len(opener) :].removesuffix(closer).strip()
    return stripped if len(stripped) != len(rest.strip()) else rest


def reasoning_calls(reasoning: str, strategies: Sequence[Strategy]) -> list[RejectedCall]:
    """The calls written in explicit markup inside `reasoning`, each rejected as `in_reasoning`.

    A tool-shaped JSON object in the thinking prose is not reported: reasoning discusses calls.
    """
    # A broken (user) strategy is skipped silently: its warning comes from the answer's own reading.
    found = first_reading(reasoning, strategies, None)
    if found is not None:
        parsed = found[1]
        return [
            RejectedCall(
                call.name,
                call.arguments,
                f"tool call '{call.name}' was written inside the model's reasoning, not in its answer",
                "in_reasoning",
                call.id,
            )
            for call in parsed.calls
            if call.explicit
        ]
    return []


def join_reasoning(*parts: str | None) -> str | None:
    """The reasoning of an answer from its pieces (blocks before it, a format's own channel).

    None when there was no reasoning at all; `""` when there were only empty blocks (Qwen3 with
    thinking switched off writes an empty `<think></think>`): markup was removed, nothing thought.
    """
    if all(part is None for part in parts):
        return None
    return "\n\n".join(part for part in parts if part)


_MAX_HELD = 4096
"""Blank space held back at most while streaming reasoning: past it, the rest waits for the end."""


class ReasoningStream:
    """The reasoning block a streamed answer starts with, told as it arrives (see `ReasoningDelta`).

    What it tells is always a prefix of the completion's `reasoning`: blank space is held back
    until text follows it (the block is trimmed), and so is what may be the start of the close
    tag. Only the first block streams; the rest of the reasoning comes when the answer ends.
    """

    def __init__(self) -> None:
        self._head: str | None = ""
        """The answer's start while it may still be an open tag; None once decided."""
        self._closer: tuple[str, ...] | None = None
        """The close tags of the block being streamed; None when not (or no longer) streaming."""
        self._held = ""
        """Text not told yet: blank space, or what may be the start of the close tag."""
        self._started = False
        """Whether text was told (leading blank space is not part of the reasoning)."""

    @property
    def active(self) -> bool:
        """Whether more of the answer may still be told (undecided start, or inside the block)."""
        return self._head is not None or self._closer is not None

    def feed(self, chunk: str) -> str:
        """The reasoning that `chunk` made certain ("" when none)."""
        if self._head is not None:
            return self._open(self._head + chunk)
        return self._body(chunk) if self._closer is not None else ""

    def _open(self, head: str) -> str:
        """Decide from the answer's start whether it opens a reasoning block."""
        stripped = head.lstrip()
        found = _OPENER.match(stripped)
        if found is None:
            if stripped and not any(opener.startswith(stripped) for opener in _BLOCKS):
                self._head = None  # Not a reasoning block: nothing to stream.
            else:
                self._head = head
            return ""
        self._head = None
        if found.group() == APRIEL_REASONING:
            return ""  # Reasoning only once its end marker comes (see `split_reasoning`): told at the end.
        self._closer = _CLOSERS[found.group()]
        return self._body(stripped[found.end() :])

    def _body(self, chunk: str) -> str:
        assert self._closer is not None
        text = self._held + chunk
        close, _ = _first_close(text, self._closer, 0)
        if close != -1:
            self._closer = None
            return self._tell(text[:close].rstrip(), "")
        # A close tag may be arriving, or end-of-turn tokens (the answer may end inside the block).
        arriving = max(*(_partial(text, closer) for closer in self._closer), turn_end_tail(text))
        safe = text[: len(text) - arriving].rstrip()
        if len(text) - len(safe) > _MAX_HELD:
            self._closer = None  # A long run of blank space: the rest waits for the end.
            return ""
        return self._tell(safe, text[len(safe) :])

    def _tell(self, text: str, held: str) -> str:
        """Tell `text` (trimmed at the block's start) and hold `held` back."""
        self._held = held
        if not self._started:
            text = text.lstrip()
            self._started = bool(text)
        return text


def _partial(text: str, tag: str) -> int:
    """The length of the longest end of `text` that is the start of `tag` (the tag still arriving)."""
    for length in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:length]):
            return length
    return 0
