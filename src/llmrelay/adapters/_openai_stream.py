r"""Chat Completions streams (OpenAI, Groq, OpenRouter, local servers) as chunks.

```
data: {"id": "chatcmpl-1", "model": "gpt-4o-mini", "choices": [{"index": 0, "delta": {"content": "Hel"}}]}
data: {"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "call_1", "function": {"name": "f"}}]}}]}
data: {"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"a\": 1}"}}]}}]}
data: {"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}
data: {"choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 5, "total_tokens": 14}}
data: [DONE]
```

Usage comes in a last chunk with no choices (OpenAI, with `stream_options.include_usage`), in
every chunk's `usage` (OpenRouter), or in `x_groq.usage` (Groq). Errors after the 200: Groq sends
`event: error` with `{"error": {..., "status_code": 400}}`; OpenRouter puts an `error` object, its
`code` an HTTP status, into an ordinary chunk. Reasoning fields are not text. Only choice 0
counts (`n>1` is not supported: the other choices' chunks are left out), and a legacy
`function_call` delta is read as call 0. The answer is whole when `[DONE]` or a finish reason
came.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ._contract import CallPiece, Chunk, Finish, ReasoningPiece, TextPiece
from ._sse import EventDecoder, ServerEvent
from ._stream_io import decode
from ._wire import (
    chat_artifacts,
    chat_usage,
    first_choice,
    merge_details,
    message_reasoning,
    message_text,
    status_in_error,
    thought_signature,
)

if TYPE_CHECKING:
    from ._openai_compat import ChatCompletionsAdapter


class ChatStreamReader:
    """Reads one Chat Completions stream for `adapter`."""

    def __init__(self, adapter: ChatCompletionsAdapter, model: str, headers: Mapping[str, str]) -> None:
        self.adapter = adapter
        self.provider = adapter.provider
        self.model = model
        self.headers = headers
        self.done = False
        self.finished = False
        self.request_id: str | None = None
        self.details: list[dict[str, Any]] = []  # OpenRouter's reasoning_details so far
        self.thought = ""  # DeepSeek's reasoning_content so far
        self.called = False
        self.refused = False
        self.slots: dict[int, tuple[int, str | None]] = {}  # A wire index -> its call's index here, and id.
        self.calls = 0  # Calls seen so far.

    def read(self, event: ServerEvent) -> list[Chunk]:
        """The chunks of one event; the provider's error when it is one."""
        if event.data.strip() == "[DONE]":
            self.done = True
            return []
        body = decode(event, self)
        if not isinstance(body, Mapping):
            return []
        error = body.get("error")
        if isinstance(error, Mapping) or event.event == "error":
            raise self._error(body, error if isinstance(error, Mapping) else {})
        chunks: list[Chunk] = []
        choice = first_choice(body.get("choices"))  # With n>1, the other choices' chunks are left out.
        delta = choice.get("delta")
        if isinstance(delta, Mapping):
            if reasoning := message_reasoning(delta):
                chunks.append(ReasoningPiece(reasoning))
            if text := message_text(delta):
                chunks.append(TextPiece(text))
                if not self.refused and text == delta.get("refusal"):
                    self.refused = True  # As `send` reads it: the refusal is the text, and says so.
                    chunks.append(Finish(refused=True))
            chunks += self._renumbered(_call_pieces(delta.get("tool_calls")))
            if isinstance(delta.get("reasoning_content"), str):
                self.thought += delta["reasoning_content"]
            self.called = self.called or bool(delta.get("tool_calls"))
            if delta.get("reasoning_details"):
                merge_details(self.details, delta["reasoning_details"])
            if delta.get("reasoning_details") or (self.called and self.thought):
                message = {"reasoning_content": self.thought, "tool_calls": self.called}
                chunks.append(Finish(artifacts=chat_artifacts(self.provider, message, self.details)))
            chunks += _legacy_call_piece(delta.get("function_call"))
        if (finish := self._finish(body, choice)) is not None:
            chunks.append(finish)
        return chunks

    def complete(self, decoder: EventDecoder) -> bool:
        """`[DONE]` or a finish reason arrived."""
        return self.done or self.finished

    def _renumbered(self, pieces: list[CallPiece]) -> list[CallPiece]:
        """The call pieces numbered by call: another call's id under a wire index used before is a new call.

        Gemini's OpenAI-compatible endpoint sends no `index` (each chunk's first call is then 0)
        or 0 for every call; the ids tell its calls apart. A piece without an id goes on the
        call its wire index last named.
        """
        renumbered: list[CallPiece] = []
        for piece in pieces:
            slot = self.slots.get(piece.index)
            if slot is None or (piece.id is not None and slot[1] is not None and piece.id != slot[1]):
                slot = (self.calls, piece.id)
                self.calls += 1
            elif slot[1] is None:
                slot = (slot[0], piece.id)
            self.slots[piece.index] = slot
            renumbered.append(piece if slot[0] == piece.index else replace(piece, index=slot[0]))
        return renumbered

    def _finish(self, body: Mapping[str, Any], choice: Mapping[str, Any]) -> Finish | None:
        reason = choice.get("finish_reason")
        self.finished = self.finished or bool(reason)
        x_groq = body.get("x_groq")
        usage = body.get("usage") or (x_groq.get("usage") if isinstance(x_groq, Mapping) else None)
        model = body.get("model")
        if self.request_id is None:
            self.request_id = self.adapter.request_id(self.headers, body)
            request_id = self.request_id
        else:
            request_id = None
        if not (reason or usage or model or request_id):
            return None
        return Finish(
            reason if isinstance(reason, str) and reason else None,
            chat_usage(usage) if isinstance(usage, Mapping) else None,
            model if isinstance(model, str) and model else None,
            request_id,
        )

    def _error(self, body: Mapping[str, Any], error: Mapping[str, Any]) -> Exception:
        status = error.get("status_code")
        status = status if isinstance(status, int) else status_in_error(error)
        return self.adapter._status_error(status, body, self.headers, self.model)


def _call_pieces(tool_calls: Any) -> list[CallPiece]:
    pieces: list[CallPiece] = []
    for position, call in enumerate(tool_calls if isinstance(tool_calls, list) else ()):
        if not isinstance(call, Mapping):
            continue
        function = call.get("function")
        function = function if isinstance(function, Mapping) else {}
        index = call.get("index")
        arguments = function.get("arguments")
        pieces.append(
            CallPiece(
                index if isinstance(index, int) else position,
                str(call["id"]) if call.get("id") else None,  # Gemini's compatible endpoint sends "".
                str(function["name"]) if function.get("name") else None,
                _arguments_text(arguments),
                thought_signature(call),
            )
        )
    return pieces


def _legacy_call_piece(function_call: Any) -> list[Chunk]:
    """The legacy `function_call` delta (no `tool_calls`) as call 0: its id is made up on assembly."""
    if not isinstance(function_call, Mapping):
        return []
    name = function_call.get("name")
    return [CallPiece(0, None, str(name) if name else None, _arguments_text(function_call.get("arguments")))]


def _arguments_text(arguments: Any) -> str:
    if isinstance(arguments, str):
        return arguments
    # Some local servers send the arguments as an object, whole, instead of JSON text.
    return json.dumps(arguments) if isinstance(arguments, Mapping) else ""
