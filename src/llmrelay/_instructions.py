"""What llmrelay tells a model when tools are not passed through the provider's tool API.

In the json_schema, json_object and text modes the model sees the tools in its system prompt, is
asked to answer with llmrelay's envelope, and earlier tool calls and results in the conversation
are written out as text (those modes have no tool roles). The answer still goes through the
normalizer, which reads the envelope and whatever else the model writes instead.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._content import TextPart
from ._envelope import Mode
from ._tools import Tool
from ._types import Message, NamedTool, Request, ToolChoice


def envelope_schema(tools: tuple[Tool, ...]) -> dict[str, Any]:
    """The envelope as a strict JSON schema (OpenAI strict rules: all keys required, no extras).

    Arguments are a JSON-encoded string: a strict schema cannot leave an object open, and this
    keeps every tool's arguments expressible (the normalizer decodes the string).
    """
    name: dict[str, Any] = {"type": "string"}
    if tools:
        name["enum"] = [tool.name for tool in tools]
    call = {
        "type": "object",
        "properties": {
            "name": name,
            "arguments": {"type": "string", "description": "The arguments object, JSON-encoded."},
        },
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {
            "content": {"type": "string", "description": "Text for the user; may be empty."},
            "toolCalls": {"type": "array", "items": call},
            "needsMoreWork": {"type": "boolean", "description": "True when waiting for tool results."},
        },
        "required": ["content", "toolCalls", "needsMoreWork"],
        "additionalProperties": False,
    }


def default_response_schema(mode: Mode, tools: tuple[Tool, ...]) -> dict[str, Any] | None:
    """The schema a request in `mode` answers with unless it asks for its own (json_schema: the envelope).

    In the other modes none.
    The one place that decides it: the pipeline builds each step's request with it, structured
    output rebuilds it for its extra tool, and adapters read `response_schema(request)`.
    """
    return envelope_schema(tools) if mode == "json_schema" else None


def response_schema(request: Request) -> dict[str, Any] | Mapping[str, Any]:
    """The JSON schema a json_schema-mode request's answer must follow (its own, else the default)."""
    return request.response_schema or envelope_schema(request.tools)


def instructions(mode: Mode, tools: tuple[Tool, ...], tool_choice: ToolChoice | None) -> str:
    """The system-prompt text describing the envelope and the tools for a non-native mode."""
    arguments = '"<the arguments object, JSON-encoded as a string>"' if mode == "json_schema" else "{...}"
    lines = [
        "You can call tools. Reply with exactly one JSON object and nothing else, in this shape:",
        f'{{"content": "<text for the user, may be empty>", "toolCalls": [{{"name": "<tool name>", '
        f'"arguments": {arguments}}}], "needsMoreWork": <true if you called tools and need their results, '
        "else false>}",
        "Use an empty toolCalls list when you need no tool. Call only these tools, with arguments that "
        "follow their JSON schemas:",
    ]
    for tool in tools:
        description = f": {tool.description}" if tool.description else ""
        lines.append(f"- {tool.name}{description}\n  arguments schema: {json.dumps(tool.parameters, sort_keys=True)}")
    if choice := _choice_sentence(tool_choice):
        lines.append(choice)
    return "\n".join(lines)


def _choice_sentence(tool_choice: ToolChoice | None) -> str | None:
    if tool_choice == "required":
        return "You must call at least one tool in this reply."
    if tool_choice == "none":
        return "Do not call any tool in this reply."
    if isinstance(tool_choice, NamedTool):
        return f"You must call the tool {tool_choice.name!r} in this reply."
    return None


def prepare_messages(request: Request) -> tuple[Message, ...]:
    """The conversation as a non-native mode must send it: instructions added, tool turns as text.

    In native_tools mode the messages are returned unchanged. Without tools no instructions are
    added, but earlier tool turns are still written as text: a request without tools cannot
    carry tool-call turns on most providers.
    """
    if request.mode == "native_tools":
        return request.messages
    messages = [_as_text(message) for message in request.messages]
    if not request.tools:
        return tuple(messages)
    text = instructions(request.mode, request.tools, request.tool_choice)
    if messages and messages[0].role == "system":
        messages[0] = Message("system", f"{messages[0].content}\n\n{text}".strip())
    else:
        messages.insert(0, Message("system", text))
    return tuple(messages)


def _as_text(message: Message) -> Message:
    if message.role == "assistant" and message.tool_calls:
        calls = [{"name": c.name, "arguments": c.arguments} for c in message.tool_calls]
        envelope = {"content": message.content, "toolCalls": calls, "needsMoreWork": True}
        return Message("assistant", json.dumps(envelope, ensure_ascii=False))
    if message.role == "tool":
        call = f"(call {message.tool_call_id})" if message.tool_call_id else None
        label = " ".join(part for part in (message.name, call) if part)
        text = f"Result of tool {label}:\n{message.content}" if label else f"Tool result:\n{message.content}"
        # Images a tool returned go with its text: the mode is about the answer, not the input.
        return Message("user", text, parts=(TextPart(text), *message.media) if message.media else ())
    return message
