"""The providers' wire formats, for the loopback server: scripted replies as the real APIs send them.

OpenAI Chat Completions (JSON, and `data:` chunks ended by `data: [DONE]`), Anthropic Messages
(JSON, and `event:`/`data:` pairs from `message_start` to `message_stop`) and Gemini
generateContent (JSON; `streamGenerateContent?alt=sse` as `data:` events, and without `alt=sse`
as one JSON array). Shapes follow the providers' API references and the recordings in the
conformance set; ids and token counts are made up but stable.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Api = str
"""`openai`, `anthropic` or `gemini`: the wire format a request is answered in."""


@dataclass(frozen=True)
class Reply:
    """One scripted answer: text and/or tool calls, or an error status with the provider's error body."""

    text: str = ""
    """What the model says (streamed word by word)."""
    tool_calls: Sequence[tuple[str, Mapping[str, Any]]] = ()
    """Function calls: (name, arguments), in order."""
    status: int = 200
    """The HTTP status; 400 and above answer with the provider's error body and `error` as message."""
    error: str = "scripted error"
    """The error message, when `status` is an error."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Extra response headers (`retry-after`, say)."""
    drip: float = 0.0
    """Seconds between bytes: the body is sent one byte at a time, as a broken or hostile server
    would (a stream's first event is sent whole, then the rest drips). 0: sent at once."""


@dataclass(frozen=True)
class Call:
    """What is needed to answer one request: the reply, the model, a stable id, the prompt size."""

    reply: Reply
    model: str
    serial: int
    prompt_tokens: int
    include_usage: bool = False

    @property
    def words(self) -> list[str]:
        return re.findall(r"\s*\S+\s*", self.reply.text) or ([self.reply.text] if self.reply.text else [])

    @property
    def output_tokens(self) -> int:
        return len(self.words) + 8 * len(self.reply.tool_calls)


def json_body(api: Api, call: Call) -> dict[str, Any]:
    """The non-streaming answer."""
    return {"openai": _openai, "anthropic": _anthropic, "gemini": _gemini}[api](call)


def events(api: Api, call: Call) -> Iterator[bytes]:
    """The streaming answer, one server-sent event at a time."""
    if api == "openai":
        for chunk in _openai_chunks(call):
            yield b"data: " + _dumps(chunk) + b"\n\n"
        yield b"data: [DONE]\n\n"
    elif api == "anthropic":
        for name, data in _anthropic_events(call):
            yield f"event: {name}\ndata: ".encode() + _dumps(data) + b"\n\n"
    else:
        for chunk in gemini_chunks(call):
            yield b"data: " + _dumps(chunk) + b"\r\n\r\n"


def error_body(api: Api, status: int, message: str) -> dict[str, Any]:
    """The provider's error answer for `status`."""
    kind = _ERROR_KINDS.get(status, ("api_error", "api_error", "INTERNAL"))
    if api == "openai":
        return {"error": {"message": message, "type": kind[0], "param": None, "code": None}}
    if api == "anthropic":
        return {"type": "error", "error": {"type": kind[1], "message": message}}
    return {"error": {"code": status, "message": message, "status": kind[2]}}


_ERROR_KINDS = {
    400: ("invalid_request_error", "invalid_request_error", "INVALID_ARGUMENT"),
    401: ("invalid_request_error", "authentication_error", "UNAUTHENTICATED"),
    403: ("invalid_request_error", "permission_error", "PERMISSION_DENIED"),
    404: ("invalid_request_error", "not_found_error", "NOT_FOUND"),
    429: ("rate_limit_exceeded", "rate_limit_error", "RESOURCE_EXHAUSTED"),
    503: ("server_error", "overloaded_error", "UNAVAILABLE"),
    529: ("server_error", "overloaded_error", "UNAVAILABLE"),
}


def _dumps(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def _arguments(arguments: Mapping[str, Any]) -> str:
    return json.dumps(dict(arguments))


def _pieces(text: str, size: int = 12) -> list[str]:
    """Tool arguments arrive in small pieces, as the providers send them."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


# --- OpenAI Chat Completions -------------------------------------------------------------------------


def _openai_usage(call: Call) -> dict[str, int]:
    out = call.output_tokens
    return {"prompt_tokens": call.prompt_tokens, "completion_tokens": out, "total_tokens": call.prompt_tokens + out}


def _openai_finish(call: Call) -> str:
    return "tool_calls" if call.reply.tool_calls else "stop"


def _openai_head(call: Call, kind: str) -> dict[str, Any]:
    return {"id": f"chatcmpl-wire{call.serial:04d}", "object": kind, "created": 1767225600, "model": call.model}


def _openai_call(call: Call, index: int, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    function = {"name": name, "arguments": _arguments(arguments)}
    return {"id": f"call_wire{call.serial:04d}_{index}", "type": "function", "function": function}


def _openai(call: Call) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": call.reply.text or None, "refusal": None}
    if call.reply.tool_calls:
        message["tool_calls"] = [
            _openai_call(call, i, name, arguments) for i, (name, arguments) in enumerate(call.reply.tool_calls)
        ]
    choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": _openai_finish(call)}
    return {**_openai_head(call, "chat.completion"), "choices": [choice], "usage": _openai_usage(call)}


def _openai_chunks(call: Call) -> Iterator[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return {**_openai_head(call, "chat.completion.chunk"), "choices": [choice]}

    yield chunk({"role": "assistant", "content": ""})
    for word in call.words:
        yield chunk({"content": word})
    for i, (name, arguments) in enumerate(call.reply.tool_calls):
        start = {"index": i, "id": f"call_wire{call.serial:04d}_{i}", "type": "function"}
        yield chunk({"tool_calls": [{**start, "function": {"name": name, "arguments": ""}}]})
        for piece in _pieces(_arguments(arguments)):
            yield chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
    yield chunk({}, _openai_finish(call))
    if call.include_usage:
        yield {**_openai_head(call, "chat.completion.chunk"), "choices": [], "usage": _openai_usage(call)}


# --- Anthropic Messages ------------------------------------------------------------------------------


def _anthropic_blocks(call: Call) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = [{"type": "text", "text": call.reply.text}] if call.reply.text else []
    blocks += [
        {"type": "tool_use", "id": f"toolu_wire{call.serial:04d}_{i}", "name": name, "input": dict(arguments)}
        for i, (name, arguments) in enumerate(call.reply.tool_calls)
    ]
    return blocks


def _anthropic_message(call: Call, content: list[dict[str, Any]], stop: str | None, out: int) -> dict[str, Any]:
    return {
        "id": f"msg_wire{call.serial:04d}",
        "type": "message",
        "role": "assistant",
        "model": call.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": call.prompt_tokens, "output_tokens": out},
    }


def _anthropic_stop(call: Call) -> str:
    return "tool_use" if call.reply.tool_calls else "end_turn"


def _anthropic(call: Call) -> dict[str, Any]:
    return _anthropic_message(call, _anthropic_blocks(call), _anthropic_stop(call), call.output_tokens)


def _anthropic_events(call: Call) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "message_start", {"type": "message_start", "message": _anthropic_message(call, [], None, 1)}
    yield "ping", {"type": "ping"}
    for index, block in enumerate(_anthropic_blocks(call)):
        start: dict[str, Any]
        deltas: list[dict[str, Any]]
        if block["type"] == "text":
            start, deltas = {"type": "text", "text": ""}, [{"type": "text_delta", "text": w} for w in call.words]
        else:
            start = {**block, "input": {}}
            pieces = _pieces(json.dumps(block["input"])) if block["input"] else [""]  # No input: one empty piece.
            deltas = [{"type": "input_json_delta", "partial_json": p} for p in pieces]
        yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
        for piece in deltas:
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": piece}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    delta: dict[str, Any] = {"stop_reason": _anthropic_stop(call), "stop_sequence": None}
    yield "message_delta", {"type": "message_delta", "delta": delta, "usage": {"output_tokens": call.output_tokens}}
    yield "message_stop", {"type": "message_stop"}


# --- Gemini generateContent --------------------------------------------------------------------------


def _gemini_response(call: Call, parts: list[dict[str, Any]], last: bool) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    response: dict[str, Any] = {"candidates": [candidate], "modelVersion": call.model}
    if last:
        candidate["finishReason"] = "STOP"  # Gemini says STOP when it calls functions too.
    usage = {"promptTokenCount": call.prompt_tokens, "totalTokenCount": call.prompt_tokens + call.output_tokens}
    response["usageMetadata"] = {**usage, "candidatesTokenCount": call.output_tokens} if last else usage
    response["responseId"] = f"wire{call.serial:04d}"
    return response


def _gemini_calls(call: Call) -> list[dict[str, Any]]:
    return [{"functionCall": {"name": name, "args": dict(args)}} for name, args in call.reply.tool_calls]


def _gemini(call: Call) -> dict[str, Any]:
    parts = ([{"text": call.reply.text}] if call.reply.text else []) + _gemini_calls(call)
    return _gemini_response(call, parts, last=True)


def gemini_chunks(call: Call) -> list[dict[str, Any]]:
    """The streamed GenerateContentResponse objects: text word by word, function calls whole, at the end."""
    parts = [[{"text": word}] for word in call.words]
    if call.reply.tool_calls:
        parts.append(_gemini_calls(call))
    parts = parts or [[{"text": ""}]]
    return [_gemini_response(call, part, last=i == len(parts) - 1) for i, part in enumerate(parts)]


__all__ = ["Api", "Call", "Reply", "error_body", "events", "gemini_chunks", "json_body"]
