"""gpt-oss's harmony messages: channels, and calls addressed to a recipient.

A harmony answer is a run of messages, `<|start|>{header}<|message|>{body}` ended by `<|end|>`,
`<|call|>` or `<|return|>` (shape from openai/harmony `docs/format.md`; read as SGLang's
`harmony_parser.py` / `gpt_oss_detector.py` and llama.cpp's gpt-oss parser read it)::

    <|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary
    to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>

- The first `<|start|>assistant` is usually in the prompt, so the answer may begin at
  `<|channel|>`, or with the role section's rest (` to=functions.get_weather<|channel|>…`).
- The recipient `to=…` may sit in the role section or after the channel; `<|constrain|>json` is
  optional. A message with a recipient is a call: `functions.get_weather` calls `get_weather`;
  built-in tools keep their recipient as the name (`browser.search`, `python`), and a `code`
  message (`to=python code<|message|>print(1)`) becomes `{"code": "print(1)"}`.
- Content is what the user should see: `final` messages, plain text around the messages, and
  `commentary` messages without a recipient written before the first call (the preambles gpt-oss
  writes for the user, which vLLM also shows). A recipient-less `commentary` after a call is the
  model talking between its calls: reasoning, not content.
- `analysis` messages are the chain of thought, which OpenAI says not to show to users: they go
  to `Completion.reasoning`, never to the content.

A message whose stop token is missing ends at the next header or the end of the text. An answer
without any call is read when it has a message header (`<|channel|>final`, not quoted in
backticks): its `final` text and the plain text around it are the content, the markup removed.
"""

from __future__ import annotations

import re

from ..._envelope import RejectedCall
from .._budget import MAX_CALLS, too_many_calls
from .._calls import call_from_parts, is_tool_name
from .._text import join_pieces
from .._tokens import split_windowed
from .._types import CallReading, Parsed

_TOKEN = re.compile(r"(<\|(?:start|channel|constrain|message|end|call|return)\|>)")
_STOPS = frozenset({"<|end|>", "<|call|>", "<|return|>"})
_IN_BODY = frozenset({"<|message|>", "<|constrain|>"})  # In a body, these are text: a header or a stop ends it.
_RECIPIENT = re.compile(r"(?:^|\s)to=([^\s<]+)")
# What is left of the role section when `<|start|>assistant` was in the prompt.
# A message header written as harmony, not quoted in prose (a backtick before it).
_HEADER = re.compile(r"(?<!`)<\|channel\|>(?:analysis|final|commentary)\b")
_ROLE_REST = re.compile(r"\s*(?:assistant)?\s*to=[^\s<]+\s*")


class Harmony:
    """gpt-oss harmony messages: calls to recipients, final and preamble text as content."""

    name = "harmony"
    markers = ("<|message|>",)

    def detect(self, text: str) -> bool:
        """Cheap check: a message token, and a recipient or a channel, occur."""
        return "<|message|>" in text and ("to=" in text or "<|channel|>" in text)

    def parse(self, text: str) -> Parsed | None:
        """Read the messages in order; None when no message is addressed to a recipient."""
        # Header sections are plain locals, a body a position: hostile inputs are 100k empty messages.
        before, tokens = split_windowed(text, _TOKEN)  # A split of the whole text is 10x its size here.
        position = len(before)  # where the token being read starts
        kept = [before]  # the text parts that are content
        thoughts: list[str] = []  # the analysis messages, and the commentary between calls
        readings: list[CallReading] = []
        role, channel, constrain, body = "", "", "", -1  # the message being read; body -1: in its header
        for token, after in tokens:
            at, position = position, position + len(token) + len(after)
            if body >= 0:
                if token in _IN_BODY:
                    continue  # Not a header here: part of the body.
                _file(role, channel, constrain, text[body:at], (kept, thoughts), readings)
                role, channel, constrain, body = "", "", "", -1
                if len(readings) > MAX_CALLS:
                    break
            if token in _STOPS:
                role, channel, constrain = "", "", ""  # A header that never reached its message is dropped.
                kept.append(after)
            elif token == "<|start|>":
                role, channel, constrain = after, "", ""
            elif token == "<|channel|>":
                role, channel = role or _take_role_rest(kept), after
            elif token == "<|constrain|>":
                constrain = after
            else:
                body = at + len(token)
        if body >= 0:
            _file(role, channel, constrain, text[body:], (kept, thoughts), readings)
        if not readings and _HEADER.search(text) is None:
            return None  # Tokens in prose: text about harmony, not harmony.
        parsed = Parsed.from_readings(readings, text=join_pieces(kept))
        parsed.reasoning = join_pieces(thoughts) or None
        return parsed


def _take_role_rest(kept: list[str]) -> str:
    """The ` to=functions.f` written before a `<|channel|>`, taken out of the content, or ""."""
    if kept and "to=" in kept[-1] and _ROLE_REST.fullmatch(kept[-1]):  # Empty once a rest was taken.
        return kept.pop()
    return ""


def _file(
    role: str, channel: str, constrain: str, body: str, texts: tuple[list[str], list[str]], readings: list[CallReading]
) -> None:
    """File a complete message as a call, as content (`texts[0]`), or as reasoning (`texts[1]`)."""
    kept, thoughts = texts
    if "to=" not in role and "to=" not in channel and role.strip() in ("", "assistant"):
        # The fast path, no recipient: the chain of thought, talk between calls, or content.
        between_calls = readings and channel.lstrip().startswith("commentary")
        (thoughts if between_calls or channel.lstrip().startswith("analysis") else kept).append(body)
        return
    match = _RECIPIENT.search(f"{role} {channel}")
    recipient = match.group(1) if match else None
    role_name = next((word for word in role.split() if not word.startswith("to=")), "assistant")
    if role_name != "assistant" or recipient == "assistant":
        return  # A tool's reply or another role's message: neither a call nor content.
    if recipient is None:
        kept.append(body)
    elif len(readings) >= MAX_CALLS:
        readings.append(too_many_calls())
    else:
        readings.append(_call(recipient, _content_type(channel, constrain), body))


def _content_type(channel: str, constrain: str) -> str:
    """`json` or `code`: from `<|constrain|>`, else the header's word after the recipient."""
    words = [word for word in channel.split()[1:] if not word.startswith("to=")]
    return (constrain.strip() or (words[0] if words else "")).lower()


def _call(recipient: str, content_type: str, body: str) -> CallReading:
    name = recipient.removeprefix("functions.")
    if not is_tool_name(name):
        return RejectedCall(None, body, f"the harmony recipient {recipient!r} is not a tool name", "malformed")
    if content_type == "code":  # gpt-oss's python tool takes the code itself as its message.
        return call_from_parts(name, {"code": body.strip()})
    return call_from_parts(name, body.strip())
