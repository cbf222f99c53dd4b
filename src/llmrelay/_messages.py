"""Turn what users pass as messages into llmrelay's `Message`s, and make call ids portable.

Accepted: `Message`; a `Completion` (the assistant turn it was); or a dict in the familiar
OpenAI chat shape (`{"role", "content"}`, an assistant's `tool_calls`, a tool result's
`tool_call_id`), with content as a string or a list of text parts. A call id made by one provider
is carried to another unchanged when that provider accepts it, and mapped to a stable id it does
accept when not (`portable_id`), so a conversation can move between providers mid-way.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ._content import Part, read_parts, text_of
from ._envelope import Completion, ToolCall
from ._types import Message, Role
from .errors import ConfigError

MessageLike = Message | Completion | Mapping[str, Any]

_ROLES: dict[str, Role] = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "assistant": "assistant",
    "model": "assistant",
    "tool": "tool",
    "function": "tool",
}


def to_messages(messages: Iterable[MessageLike] | MessageLike) -> tuple[Message, ...]:
    """Convert a conversation (or one message) to `Message`s.

    Tool results without a `name` get the name of the call they answer, looked up by id in the
    earlier assistant turns (Gemini needs it).

    Raises:
        ConfigError: a message that cannot be read, naming its position and what is wrong.
    """
    if isinstance(messages, (Mapping, Message, Completion)):
        messages = [messages]  # One message where a list was expected.
    converted: list[Message] = []
    names_by_id: dict[str, str] = {}
    for index, message in enumerate(messages):
        try:
            item = _to_message(message)
        except (TypeError, ValueError, KeyError) as exc:
            raise ConfigError(f"message {index}: {exc}") from exc
        for call in item.tool_calls:
            if call.id:
                names_by_id[call.id] = call.name
        if item.role == "tool" and item.name is None and item.tool_call_id in names_by_id:
            item = replace(item, name=names_by_id[item.tool_call_id])
        converted.append(item)
    return tuple(converted)


def _to_message(message: MessageLike) -> Message:
    if isinstance(message, Message):
        return message
    if isinstance(message, Completion):
        return Message("assistant", message.content, tuple(message.tool_calls), artifacts=message.artifacts)
    if not isinstance(message, Mapping):
        hint = " (a list of strings? write [{'role': 'user', 'content': '...'}])" if isinstance(message, str) else ""
        raise TypeError(f"expected a dict, Message or Completion, got {type(message).__name__}{hint}")
    role = _ROLES.get(str(message.get("role")))
    if role is None:
        raise ValueError(f"unknown role {message.get('role')!r} (expected system, user, assistant or tool)")
    content, parts = _content(message.get("content"))
    if role == "tool":
        call_id, name = message.get("tool_call_id") or message.get("id"), message.get("name")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"a tool result's name must be text, got {type(name).__name__}")
        if not call_id and not (message.get("role") == "function" and name):
            raise ValueError(
                "a tool result needs the 'tool_call_id' of the call it answers: "
                "{'role': 'tool', 'tool_call_id': call.id, 'content': ...}"
            )
        call = str(call_id) if call_id else None
        return Message(
            "tool", content, tool_call_id=call, name=name, parts=parts, is_error=bool(message.get("is_error"))
        )
    calls = tuple(_tool_call(call) for call in message.get("tool_calls") or ())
    return Message(role, content, calls, parts=parts)


def _content(content: Any) -> tuple[str, tuple[Part, ...]]:
    """The text of a message's content, and its parts when it has images or documents."""
    if not isinstance(content, list) or all(_is_text(part) for part in content):
        return _content_text(content), ()
    parts = read_parts(content)
    return text_of(parts), parts


def _is_text(part: Any) -> bool:
    return isinstance(part, str) or (isinstance(part, Mapping) and part.get("type", "text") in ("text", "input_text"))


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(_part_text(part) for part in content)
    return json.dumps(content, ensure_ascii=False)  # A tool result given as data.


def _part_text(part: Any) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, Mapping) and isinstance(part.get("text"), str):
        return str(part["text"])
    raise ValueError(f"content parts must be text, got {part!r}")


def _tool_call(call: Any) -> ToolCall:
    from .normalize._calls import decode_arguments  # The normalizer loads on first use.

    if isinstance(call, ToolCall):
        return call
    if not isinstance(call, Mapping):
        raise TypeError(f"a tool call must be a dict or ToolCall, got {type(call).__name__}")
    nested = call.get("function")
    function: Mapping[str, Any] = nested if isinstance(nested, Mapping) else call
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"tool call without a name: {dict(call)!r}")
    arguments = function.get("arguments", function.get("args", function.get("input")))
    call_id, signature = call.get("id"), call.get("signature") or _google_signature(call)
    return ToolCall(
        name,
        decode_arguments(arguments),
        str(call_id) if call_id else None,
        signature if isinstance(signature, str) else None,
    )


def _google_signature(call: Mapping[str, Any]) -> Any:
    """Gemini's signature on a call in the OpenAI wire shape (`extra_content.google.thought_signature`)."""
    extra = call.get("extra_content")
    google = extra.get("google") if isinstance(extra, Mapping) else None
    return google.get("thought_signature") if isinstance(google, Mapping) else None


def portable_id(call_id: str | None, *, pattern: re.Pattern[str], max_length: int, prefix: str = "call_") -> str:
    """`call_id` if it fits a provider's rules, else a stable id derived from it that does.

    The same input always maps to the same output, so an assistant turn's call ids and the tool
    results that answer them stay paired without any state. A missing id gets a fresh one.
    """
    if call_id is None:
        return f"{prefix}{os.urandom(12).hex()}"
    if len(call_id) <= max_length and pattern.fullmatch(call_id):
        return call_id
    import hashlib  # Rarely needed: only for ids a provider would refuse.

    digest = hashlib.sha256(call_id.encode()).hexdigest()
    return f"{prefix}{digest}"[:max_length]


def new_call_id() -> str:
    """A fresh id for a call the provider sent without one (Gemini, text-format calls)."""
    return f"call_{os.urandom(12).hex()}"
