"""Chat Completions requests: the body OpenAI, Groq, OpenRouter and local servers all read.

What each mode sends (besides `model` and `messages`):

```
native_tools  "tools": [{"type": "function", "function": {"name": "get_weather",
                         "description": "...", "parameters": {...}}}],
              "tool_choice": "auto" | "none" | "required" | {"type": "function", "function": {"name": "get_weather"}}
json_schema   "response_format": {"type": "json_schema",
                                  "json_schema": {"name": "envelope", "schema": {...}, "strict": true}}
json_object   "response_format": {"type": "json_object"}
text          nothing more
```

Messages: `{"role": "system" | "user", "content"}`; an assistant turn with calls is
`{"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function",
"function": {"name": "get_weather", "arguments": "<the arguments, JSON-encoded>"}}]}`; a tool result is
`{"role": "tool", "tool_call_id": "call_1", "content": "18C"}`. A call that carries a thought
signature back to Gemini's OpenAI-compatible endpoint has it in
`"extra_content": {"google": {"thought_signature": "<as received>"}}` beside its `function`
(ai.google.dev/gemini-api/docs/thought-signatures, the OpenAI compatibility section).

Shapes learned from the openai SDK's types (`types/chat/chat_completion_*_param.py`) and OpenAI's
API reference; the answers are read in `_openai_compat`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .._content import Part, TextPart
from .._envelope import ToolCall
from .._instructions import prepare_messages, response_schema
from .._messages import portable_id
from .._tools import Tool
from .._types import Message, NamedTool, Request, ToolChoice
from ..errors import ConfigError
from ._schemas import for_openai_strict
from ._wire import REASONING_CONTENT, REASONING_DETAILS

_CALL_ID = re.compile(r"[A-Za-z0-9_-]+")
_CALL_ID_MAX = 40
"""OpenAI rejects longer call ids ("string too long. Expected a string with maximum length 40")."""

Signer = Callable[[ToolCall], str | None]
"""The signature to send back with a call, if any (see `ChatCompletionsAdapter.signature`)."""

_JSON_HINT = "Answer with a JSON object."
"""JSON mode is refused unless the word "json" appears in the messages (OpenAI and Groq both)."""


def unsigned(call: ToolCall) -> str | None:
    """No signature goes back with the call: the default."""
    return None


def request_body(
    request: Request,
    *,
    max_tokens_field: str = "max_tokens",
    strict: bool = True,
    signature: Signer = unsigned,
    provider: str | None = None,
) -> dict[str, Any]:
    """The Chat Completions body for `request` in its mode.

    `request.params` pass through, but never override what the mode sets. `signature` says which
    signature, if any, goes back with each assistant tool call; `provider` which artifacts go back
    (OpenRouter's `reasoning_details`).
    """
    messages = prepare_messages(request)
    mode_fields: dict[str, Any] = {}
    if request.mode == "native_tools":
        mode_fields = _tool_fields(request.tools, request.tool_choice)
    elif request.mode == "json_schema":
        schema = response_schema(request)
        sent = for_openai_strict(schema) if strict else dict(schema)
        json_schema = {"name": request.schema_name, "schema": sent, "strict": strict}
        mode_fields = {"response_format": {"type": "json_schema", "json_schema": json_schema}}
    elif request.mode == "json_object":
        messages = with_json_word(messages)
        mode_fields = {"response_format": {"type": "json_object"}}
    params = _params(request.params, max_tokens_field, has_tools="tools" in mode_fields)
    chat = chat_messages(messages, signature, provider)
    return {"model": request.model, "messages": chat, **params, **mode_fields}


def chat_messages(
    messages: Sequence[Message], signature: Signer = unsigned, provider: str | None = None
) -> list[dict[str, Any]]:
    """Messages in the Chat Completions shape, call ids made acceptable to OpenAI."""
    return [_chat_message(message, signature, provider) for message in messages]


def _chat_message(message: Message, signature: Signer, provider: str | None) -> dict[str, Any]:
    if message.media and message.role != "user":
        where = "a tool result" if message.role == "tool" else f"a {message.role} turn"
        raise ConfigError(
            f"{provider or 'chat completions'}: {where} cannot carry images or documents on Chat "
            "Completions (only user turns can); send them in a user turn, or use a provider that takes "
            "them there (anthropic, gemini)"
        )
    if message.role == "user" and message.parts:
        return {"role": "user", "content": [chat_part(part) for part in message.parts]}
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": call_id(message.tool_call_id), "content": message.content}
    mine = {a.kind: a.data for a in message.artifacts if a.provider == provider}
    details = mine.get(REASONING_DETAILS)
    if message.role == "assistant" and (message.tool_calls or details):
        turn: dict[str, Any] = {"role": "assistant", "content": message.content or None}
        if message.tool_calls:
            turn["tool_calls"] = [_chat_call(call, signature(call)) for call in message.tool_calls]
        if details:
            turn["reasoning_details"] = [dict(item) for item in details]
        if REASONING_CONTENT in mine:
            turn["reasoning_content"] = mine[REASONING_CONTENT]
        return turn
    # "system", not "developer": older models refuse "developer" (o1-mini: 400 "does not support
    # 'developer'"), and every model that knows "developer" still takes "system".
    return {"role": message.role, "content": message.content}


def chat_part(part: Part) -> dict[str, Any]:
    """A content part in the Chat Completions shape (the shape llmrelay reads them in)."""
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    if part.kind == "image":
        image: dict[str, Any] = {"url": part.data_url}
        if part.detail:
            image["detail"] = part.detail
        return {"type": "image_url", "image_url": image}
    file: dict[str, Any] = {"file_data": part.data_url}
    if part.filename:
        file["filename"] = part.filename
    return {"type": "file", "file": file}


def _chat_call(call: ToolCall, signature: str | None) -> dict[str, Any]:
    arguments = json.dumps(call.arguments, ensure_ascii=False)
    chat_call: dict[str, Any] = {"id": call_id(call.id), "type": "function"}
    chat_call["function"] = {"name": call.name, "arguments": arguments}
    if signature:
        chat_call["extra_content"] = {"google": {"thought_signature": signature}}
    return chat_call


def call_id(value: str | None) -> str:
    """A call id OpenAI accepts: kept when it fits, else a stable one derived from it."""
    return portable_id(value, pattern=_CALL_ID, max_length=_CALL_ID_MAX)


def _tool_fields(tools: tuple[Tool, ...], choice: ToolChoice | None) -> dict[str, Any]:
    # tool_choice without tools is a 400 ("tool_choice is only allowed when tools are specified").
    if not tools:
        return {}
    fields: dict[str, Any] = {"tools": [chat_tool(tool) for tool in tools]}
    if choice is not None:
        fields["tool_choice"] = chat_tool_choice(choice)
    return fields


def chat_tool(tool: Tool) -> dict[str, Any]:
    """One tool definition; the description is left out when empty."""
    function: dict[str, Any] = {"name": tool.name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = dict(tool.parameters)
    return {"type": "function", "function": function}


def chat_tool_choice(choice: ToolChoice) -> str | dict[str, Any]:
    """`auto`, `none` and `required` are OpenAI's own words; one tool is named in an object."""
    if isinstance(choice, NamedTool):
        return {"type": "function", "function": {"name": choice.name}}
    return choice


def with_json_word(messages: tuple[Message, ...]) -> tuple[Message, ...]:
    """The messages, with a system line asking for JSON unless one already says "json"."""
    if any("json" in message.content.lower() for message in messages):
        return messages
    if messages and messages[0].role == "system":
        return (Message("system", f"{messages[0].content}\n\n{_JSON_HINT}".strip()), *messages[1:])
    return (Message("system", _JSON_HINT), *messages)


def _params(params: Mapping[str, Any], max_tokens_field: str, *, has_tools: bool) -> dict[str, Any]:
    out = dict(params)
    if max_tokens_field != "max_tokens" and "max_tokens" in out:
        value = out.pop("max_tokens")
        out.setdefault(max_tokens_field, value)
    if not has_tools:
        # Without tools OpenAI refuses it ("only allowed when 'tools' are specified").
        out.pop("parallel_tool_calls", None)
    return out
