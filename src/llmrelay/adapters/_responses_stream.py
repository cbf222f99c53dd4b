r"""Responses API streams as chunks.

```
event: response.output_item.added
data: {"type": "response.output_item.added", "output_index": 1,
       "item": {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": ""}}
event: response.function_call_arguments.delta
data: {"type": "response.function_call_arguments.delta", "output_index": 1, "delta": "{\"a\""}
event: response.output_text.delta
data: {"type": "response.output_text.delta", "output_index": 0, "delta": "Hel"}
event: response.completed
data: {"type": "response.completed", "response": {"status": "completed", "output": [...], "usage": {...}}}
```

Every event names itself in `type` (no `[DONE]` line). Text comes in `response.output_text.delta`
(and a refusal in `response.refusal.delta`); a call starts with `response.output_item.added`,
grows with `response.function_call_arguments.delta` and is whole at `response.output_item.done`
(whose arguments are used when no delta came). The answer is whole at `response.completed` or
`response.incomplete`, whose `response` is read as `send` reads a whole answer (finish reason,
usage, reasoning artifact). `response.failed` and `error` events are raised as errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ._contract import CallEnd, CallPiece, Chunk, Finish, ReasoningPiece, TextPiece
from ._responses_answer import failure, raw_response
from ._sse import EventDecoder, ServerEvent
from ._stream_io import decode


class _Adapter(Protocol):
    """What the reader needs of its adapter (`OpenAIResponsesAdapter`)."""

    @property
    def provider(self) -> str: ...

    def request_id(self, headers: Mapping[str, str], body: Any) -> str | None: ...

    def failed(self, error: Mapping[str, Any], body: Any, headers: Mapping[str, str], model: str) -> Exception: ...


_TEXT = ("response.output_text.delta", "response.refusal.delta")
_END = ("response.completed", "response.incomplete")


class ResponsesStreamReader:
    """Reads one Responses stream for `adapter`."""

    def __init__(self, adapter: _Adapter, model: str, headers: Mapping[str, str]) -> None:
        self.adapter = adapter
        self.provider = adapter.provider
        self.model = model
        self.headers = headers
        self.done = False
        self.calls: dict[int, int] = {}  # output_index -> call index
        self.arguments: dict[int, bool] = {}  # call index -> some arguments arrived

    def read(self, event: ServerEvent) -> list[Chunk]:
        """The chunks of one event; the provider's error when it is one."""
        body = decode(event, self)
        if not isinstance(body, Mapping):
            return []
        kind = body.get("type") or event.event
        if kind in _TEXT:
            delta = body.get("delta")
            return [TextPiece(delta)] if isinstance(delta, str) and delta else []
        if kind == "response.reasoning_summary_text.delta":
            delta = body.get("delta")
            return [ReasoningPiece(delta)] if isinstance(delta, str) and delta else []
        if kind == "response.output_item.added":
            return self._started(body)
        if kind == "response.function_call_arguments.delta":
            return self._arguments(body)
        if kind == "response.output_item.done":
            return self._ended(body)
        if kind in _END:
            return self._finish(_mapping(body.get("response")))
        if kind in ("response.failed", "error"):
            raise self._error(body)
        return []

    def complete(self, decoder: EventDecoder) -> bool:
        """`response.completed` or `response.incomplete` arrived."""
        return self.done

    def _started(self, body: Mapping[str, Any]) -> list[Chunk]:
        item = _mapping(body.get("item"))
        if item.get("type") != "function_call":
            return []
        index = self.calls.setdefault(_position(body), len(self.calls))
        given = item.get("arguments")
        arguments = given if isinstance(given, str) else ""
        self.arguments[index] = bool(arguments)
        name = str(item["name"]) if item.get("name") else None
        return [CallPiece(index, str(item.get("call_id") or "") or None, name, arguments)]

    def _arguments(self, body: Mapping[str, Any]) -> list[Chunk]:
        index = self.calls.get(_position(body))
        delta = body.get("delta")
        if index is None or not isinstance(delta, str) or not delta:
            return []
        self.arguments[index] = True
        return [CallPiece(index, arguments=delta)]

    def _ended(self, body: Mapping[str, Any]) -> list[Chunk]:
        index = self.calls.get(_position(body))
        if index is None:
            return []
        item = _mapping(body.get("item"))
        whole = item.get("arguments")
        # No delta came (a server may send the arguments only whole): the item's are the call's.
        missing = [CallPiece(index, arguments=whole)] if isinstance(whole, str) and not self.arguments[index] else []
        return [*missing, CallEnd(index)]

    def _finish(self, response: Mapping[str, Any]) -> list[Chunk]:
        self.done = True
        request_id = self.adapter.request_id(self.headers, response)
        raw = raw_response(self.provider, response, model=self.model, request_id=request_id)
        has_calls = bool(self.calls)
        reason = raw.finish_reason
        if reason == "stop" and has_calls:
            reason = "tool_calls"  # The final `output` may leave calls out; the stream had them.
        return [Finish(reason, raw.usage, raw.model, raw.request_id, raw.artifacts)]

    def _error(self, body: Mapping[str, Any]) -> Exception:
        response = _mapping(body.get("response"))
        error = failure(response) or (body if body.get("type") == "error" else {})
        nested = _mapping(body.get("error"))
        return self.adapter.failed(nested or error, body, self.headers, self.model)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _position(body: Mapping[str, Any]) -> int:
    position = body.get("output_index")
    return position if isinstance(position, int) else -1
