"""OpenAI Responses API requests (`POST /v1/responses`): the body for each mode, and the input items.

What each mode sends (besides `model` and `input`):

```
native_tools  "tools": [{"type": "function", "name": "get_weather", "description": "...",
                         "parameters": {...}, "strict": false}],
              "tool_choice": "auto" | "none" | "required" | {"type": "function", "name": "get_weather"}
json_schema   "text": {"format": {"type": "json_schema", "name": "envelope", "schema": {...}, "strict": true}}
json_object   "text": {"format": {"type": "json_object"}}
text          nothing more
```

Input items: the leading system turns become `instructions`; other turns are messages
`{"role": "user" | "assistant" | "system", "content": "..."}`; an assistant's calls are
`{"type": "function_call", "call_id", "name", "arguments"}` items and a tool result is
`{"type": "function_call_output", "call_id", "output"}`, paired by `call_id`.

An assistant turn that was a Responses `Completion` carries its output items as an `Artifact`.
They go back as they came (reasoning items with their `encrypted_content`, messages and calls with
their item ids), because a reasoning item is refused without "its required following item"
(recorded: `pydantic-ai-reasoning-error-400-then-text`). If the turn was edited since (its text or
calls differ from the items'), the items are left out and the turn is sent as it now reads.

Function tools are sent with `"strict": false`: the Responses API makes them strict by default,
which refuses most schemas users write (every property required, no open objects). The shapes
are the openai SDK's `types/responses/response_input_item_param.py` and `tool_param.py`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .._content import Part, TextPart
from .._effort import take_reasoning
from .._envelope import Artifact
from .._instructions import prepare_messages, response_schema
from .._tools import Tool
from .._types import Message, NamedTool, Request, ToolChoice
from ..errors import ConfigError
from ._openai_messages import call_id, with_json_word
from ._schemas import for_openai_strict

ARTIFACT_KIND = "response"
"""The kind of the `Artifact` that holds a response's id and output items."""
_REPLAYED = ("reasoning", "message", "function_call")
"""Output items that can go back in `input`; provider-run tools' items are not kept."""
_ENCRYPTED = "reasoning.encrypted_content"
_RENAMED_PARAMS = {"max_tokens": "max_output_tokens", "max_completion_tokens": "max_output_tokens"}


def request_body(request: Request, *, provider: str) -> dict[str, Any]:
    """The Responses body for `request` in its mode; `provider` picks the artifacts sent back."""
    messages = prepare_messages(request)
    mode_fields: dict[str, Any] = {}
    if request.mode == "native_tools":
        mode_fields = _tool_fields(request.tools, request.tool_choice)
    elif request.mode == "json_schema":
        schema = for_openai_strict(response_schema(request))
        text_format = {"type": "json_schema", "name": request.schema_name, "schema": schema, "strict": True}
        mode_fields = {"text": {"format": text_format}}
    elif request.mode == "json_object":
        # Refused unless the input says "json", as on Chat Completions.
        messages = with_json_word(messages)
        mode_fields = {"text": {"format": {"type": "json_object"}}}
    instructions, rest = _split_instructions(messages)
    body: dict[str, Any] = {"model": request.model, "input": input_items(rest, provider)}
    if instructions:
        body["instructions"] = instructions
    return {**body, **_params(request.params, has_tools="tools" in mode_fields), **mode_fields}


def _split_instructions(messages: Sequence[Message]) -> tuple[str, Sequence[Message]]:
    """The leading system turns as one `instructions` text, and the turns after them."""
    count = 0
    while count < len(messages) and messages[count].role == "system":
        count += 1
    return "\n\n".join(m.content for m in messages[:count] if m.content), messages[count:]


def input_items(messages: Sequence[Message], provider: str) -> list[dict[str, Any]]:
    """The conversation as Responses input items."""
    items: list[dict[str, Any]] = []
    for message in messages:
        items += _items(message, provider)
    return items


def _items(message: Message, provider: str) -> list[dict[str, Any]]:
    if message.media and message.role != "user":
        raise ConfigError(
            f"{provider}: only user turns carry images or documents here; send the tool's image in a user turn"
        )
    if message.role == "tool":
        return [{"type": "function_call_output", "call_id": call_id(message.tool_call_id), "output": message.content}]
    if message.role == "user" and message.parts:
        return [{"role": "user", "content": [input_part(part) for part in message.parts]}]
    if message.role != "assistant":
        return [{"role": message.role, "content": message.content}]
    if (kept := replayed_items(message, provider)) is not None:
        return kept
    items: list[dict[str, Any]] = [{"role": "assistant", "content": message.content}] if message.content else []
    return items + [function_call(call.name, call.arguments, call.id) for call in message.tool_calls]


def input_part(part: Part) -> dict[str, Any]:
    """A content part as a Responses input part: `input_text`, `input_image` or `input_file`."""
    if isinstance(part, TextPart):
        return {"type": "input_text", "text": part.text}
    if part.kind == "image":
        image: dict[str, Any] = {"type": "input_image", "image_url": part.data_url}
        return {**image, "detail": part.detail} if part.detail else image
    if part.url is not None:
        return {"type": "input_file", "file_url": part.url}
    return {"type": "input_file", "file_data": part.data_url, "filename": part.filename or "document.pdf"}


def function_call(name: str, arguments: Mapping[str, Any], identifier: str | None) -> dict[str, Any]:
    """One call the model made, as an input item."""
    encoded = json.dumps(arguments, ensure_ascii=False)
    return {"type": "function_call", "call_id": call_id(identifier), "name": name, "arguments": encoded}


def replayed_items(message: Message, provider: str) -> list[dict[str, Any]] | None:
    """The output items the turn came from, when it still reads as they do; None otherwise."""
    items = next((a.data.get("items") for a in message.artifacts if _is_ours(a, provider)), None)
    if not isinstance(items, list):
        return None
    kept = [dict(item) for item in items if isinstance(item, Mapping) and item.get("type") in _REPLAYED]
    if not any(item["type"] == "reasoning" for item in kept):
        return None  # Nothing the turn's own text and calls do not say.
    text = "".join(output_text(item) for item in kept if item["type"] == "message")
    calls = [item.get("call_id") for item in kept if item["type"] == "function_call"]
    if text != message.content or calls != [call_id(call.id) for call in message.tool_calls]:
        return None  # Edited: its reasoning would be refused without the items that followed it.
    return kept


def _is_ours(artifact: Artifact, provider: str) -> bool:
    return artifact.provider == provider and artifact.kind == ARTIFACT_KIND and isinstance(artifact.data, Mapping)


def output_text(item: Mapping[str, Any]) -> str:
    """The text of an output `message` item: its `output_text` parts, else its refusal."""
    parts = [part for part in item.get("content") or () if isinstance(part, Mapping)]
    text = "".join(str(p.get("text") or "") for p in parts if p.get("type") == "output_text")
    return text or "".join(str(p.get("refusal") or "") for p in parts if p.get("type") == "refusal")


def _tool_fields(tools: tuple[Tool, ...], choice: ToolChoice | None) -> dict[str, Any]:
    if not tools:
        return {}
    fields: dict[str, Any] = {"tools": [responses_tool(tool) for tool in tools]}
    if choice is not None:
        fields["tool_choice"] = {"type": "function", "name": choice.name} if isinstance(choice, NamedTool) else choice
    return fields


def responses_tool(tool: Tool) -> dict[str, Any]:
    """One function tool; the description is left out when empty."""
    definition: dict[str, Any] = {"type": "function", "name": tool.name}
    if tool.description:
        definition["description"] = tool.description
    return {**definition, "parameters": dict(tool.parameters), "strict": False}


def _params(params: Mapping[str, Any], *, has_tools: bool) -> dict[str, Any]:
    """The parameters under their Responses names.

    `max_tokens` is `max_output_tokens`; `reasoning_effort` is `reasoning.effort`. With
    `store=False` the reasoning items come back encrypted (`include`), so they can be sent back.
    """
    reasoning, rest = take_reasoning(params)
    out: dict[str, Any] = {}
    if reasoning is not None and reasoning.enabled:  # Off cannot be asked: nothing is sent.
        out["reasoning"] = {"effort": reasoning.level, "summary": "auto"}  # The summary is the reasoning text.
    for key, value in rest.items():
        out.setdefault(_RENAMED_PARAMS.get(key, key), value)
    if "reasoning_effort" in out:
        out["reasoning"] = {"effort": out.pop("reasoning_effort"), **out.get("reasoning", {})}
    if out.get("store") is False:
        include = list(out.get("include") or ())
        out["include"] = include if _ENCRYPTED in include else [*include, _ENCRYPTED]
    if not has_tools:
        out.pop("parallel_tool_calls", None)  # Refused without tools, as on Chat Completions.
    return out
