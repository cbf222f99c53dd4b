r"""Anthropic Messages streams as chunks.

```
event: message_start        {"message": {"id", "model", "usage": {"input_tokens": 598, ...}}}
event: content_block_start  {"index": 1, "content_block": {"type": "tool_use", "id", "name", "input": {}}}
event: content_block_delta  {"index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"a\""}}
event: content_block_stop   {"index": 1}
event: message_delta        {"delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 92}}
event: message_stop
```

Text comes in `text_delta`s, reasoning in `thinking_delta`s (as `ReasoningPiece`s); a thinking
block's `signature_delta` and a `redacted_thinking` block's data are kept, and each block, once
stopped, goes into the answer's artifact (`Finish.artifacts`), as `send` reads it. The blocks of
tools Anthropic runs itself (`server_tool_use`, their results) are left out. A tool with no input may
send one empty `partial_json`: its arguments are `{}`. `message_delta`'s usage adds to
`message_start`'s (newer API versions repeat the input counts there). An `error` event
(`{"error": {"type": "overloaded_error", ...}}`) is raised as the error its type names. The answer
is whole when `message_stop` came.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..errors import ProviderError
from ._contract import CallEnd, CallPiece, Chunk, Finish, ReasoningPiece, TextPiece
from ._errors import status_error
from ._sse import EventDecoder, ServerEvent
from ._stream_io import decode
from ._wire import THINKING_BLOCKS, anthropic_usage, refusal_explanation, thinking_artifacts

_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}
"""The HTTP status each of Anthropic's error types comes with (docs.claude.com/en/api/errors)."""


class AnthropicStreamReader:
    """Reads one Messages stream."""

    provider = "anthropic"

    def __init__(self, model: str, headers: Mapping[str, str], api_key: str | None) -> None:
        self.model = model
        self.headers = headers
        self.api_key = api_key
        self.stopped = False
        self._usage: dict[str, Any] = {}
        self._calls: dict[int, int] = {}  # content block index -> call index
        self._thinking: dict[int, dict[str, Any]] = {}  # content block index -> the block so far

    def read(self, event: ServerEvent) -> list[Chunk]:
        """The chunks of one event; the provider's error when it is one."""
        body = decode(event, self)
        if not isinstance(body, Mapping):
            return []
        kind = body.get("type") or event.event
        if kind == "error":
            raise self._error(body)
        if kind == "message_start":
            message = _mapping(body.get("message"))
            return [self._finish(message.get("usage"), model=message.get("model"), reason=message.get("stop_reason"))]
        if kind == "content_block_start":
            return self._block_start(body.get("index"), _mapping(body.get("content_block")))
        if kind == "content_block_delta":
            return self._delta(body.get("index"), _mapping(body.get("delta")))
        if kind == "content_block_stop" and body.get("index") in self._calls:
            return [CallEnd(self._calls[body["index"]])]
        if kind == "content_block_stop" and body.get("index") in self._thinking:
            return [Finish(artifacts=thinking_artifacts(list(self._thinking.values())))]
        if kind == "message_delta":
            delta = _mapping(body.get("delta"))
            finish = self._finish(body.get("usage"), reason=delta.get("stop_reason"))
            return [replace(finish, refusal=refusal_explanation(delta))]
        if kind == "message_stop":
            self.stopped = True
        return []

    def complete(self, decoder: EventDecoder) -> bool:
        """`message_stop` arrived."""
        return self.stopped

    def _block_start(self, index: Any, block: Mapping[str, Any]) -> list[Chunk]:
        if block.get("type") == "text":
            return [TextPiece(block["text"])] if isinstance(block.get("text"), str) and block["text"] else []
        if block.get("type") in THINKING_BLOCKS:
            self._thinking[index] = dict(block)
            thought = block.get("thinking")
            return [ReasoningPiece(thought)] if isinstance(thought, str) and thought else []
        if block.get("type") != "tool_use":
            return []
        call = self._calls[index] = len(self._calls)
        given = block.get("input")
        # The input is `{}` here and arrives in deltas; a proxy may send it whole instead.
        arguments = json.dumps(given) if isinstance(given, Mapping) and given else ""
        return [CallPiece(call, str(block.get("id") or "") or None, str(block.get("name") or ""), arguments)]

    def _delta(self, index: Any, delta: Mapping[str, Any]) -> list[Chunk]:
        if delta.get("type") == "text_delta" and isinstance(delta.get("text"), str):
            return [TextPiece(delta["text"])]
        if delta.get("type") in ("thinking_delta", "signature_delta") and index in self._thinking:
            return self._thinking_delta(self._thinking[index], delta)
        if delta.get("type") == "input_json_delta" and index in self._calls:
            partial = delta.get("partial_json")
            return [CallPiece(self._calls[index], arguments=partial if isinstance(partial, str) else "")]
        return []

    def _thinking_delta(self, block: dict[str, Any], delta: Mapping[str, Any]) -> list[Chunk]:
        field = "thinking" if delta.get("type") == "thinking_delta" else "signature"
        piece = delta.get(field)
        if not isinstance(piece, str):
            return []
        block[field] = (block.get(field) or "") + piece
        return [ReasoningPiece(piece)] if field == "thinking" and piece else []

    def _finish(self, usage: Any, *, model: Any = None, reason: Any = None) -> Finish:
        if isinstance(usage, Mapping):
            self._usage.update({key: value for key, value in usage.items() if value is not None})
        return Finish(
            reason if isinstance(reason, str) else None,
            anthropic_usage(self._usage) if self._usage else None,
            model if isinstance(model, str) else None,
            self.headers.get("request-id"),
        )

    def _error(self, body: Mapping[str, Any]) -> ProviderError:
        error = _mapping(body.get("error"))
        kind = error.get("type")
        return status_error(
            str(error.get("message") or kind or "error event"),
            status=_STATUS.get(kind) if isinstance(kind, str) else None,
            provider=self.provider,
            model=self.model,
            headers=self.headers,
            body=dict(body),
            request_id=self.headers.get("request-id") or _text(body.get("request_id")),
            code=kind if isinstance(kind, str) else None,
            secret=self.api_key,
        )


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
