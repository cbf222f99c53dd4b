"""`Assembler`: a streamed answer's chunks back into the `RawResponse` that `send` would have returned.

So a streamed answer is read by the same `respond.to_completion` as any other. The chunk types
are the adapter contract's (`llmrelay.adapters`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .._envelope import Usage
from .._messages import new_call_id
from .._types import NativeCall, RawResponse
from ..adapters import CallPiece, Chunk, Finish, ReasoningPiece, TextPiece


@dataclass
class _Call:
    id: str | None = None
    name: str | None = None
    arguments: list[str] = field(default_factory=list)
    signature: str | None = None


class Assembler:
    """Collects chunks into the `RawResponse` the non-streaming call would have given."""

    def __init__(self, provider: str, model: str) -> None:
        self.provider = provider
        self.texts: list[str] = []
        self.reasoning: list[str] = []
        self.calls: dict[int, _Call] = {}
        self.finish = Finish(model=model)

    def add(self, chunk: Chunk) -> None:
        """Take one chunk into the answer."""
        if isinstance(chunk, TextPiece):
            self.texts.append(chunk.text)
        elif isinstance(chunk, ReasoningPiece):
            self.reasoning.append(chunk.text)
        elif isinstance(chunk, CallPiece):
            call = self.calls.setdefault(chunk.index, _Call())
            # Some OpenAI-compatible servers repeat the id and name on every piece: keep the first.
            call.id = call.id or chunk.id
            call.name = call.name or chunk.name
            call.signature = call.signature or chunk.signature
            call.arguments.append(chunk.arguments)
        elif isinstance(chunk, Finish):
            old = self.finish
            self.finish = Finish(
                chunk.reason or old.reason,
                chunk.usage or old.usage,
                chunk.model or old.model,
                chunk.request_id or old.request_id,
                chunk.artifacts or old.artifacts,
                chunk.refused or old.refused,
                chunk.refusal or old.refusal,
            )

    @property
    def text(self) -> str:
        """All text so far."""
        return "".join(self.texts)

    def arguments(self, index: int) -> str:
        """The arguments' JSON text of call `index` so far."""
        return "".join(self.calls[index].arguments)

    def native_call(self, index: int) -> NativeCall:
        """Call `index` as the adapter's `send` would have read it; an id is made up when none came."""
        call = self.calls[index]
        call.id = call.id or new_call_id()  # Once: the event, the answer and the next turn share it.
        return NativeCall(call.name or "", self.arguments(index), call.id, call.signature)

    def raw(self, indexes: list[int] | None = None) -> RawResponse:
        """The answer so far; `indexes` picks the calls to include (default: all, in order)."""
        chosen = sorted(self.calls) if indexes is None else indexes
        return RawResponse(
            provider=self.provider,
            model=self.finish.model or "",
            text=self.text,
            reasoning="".join(self.reasoning),
            native_calls=tuple(self.native_call(index) for index in chosen),
            finish_reason=self.finish.reason,
            usage=self.finish.usage or Usage(),
            request_id=self.finish.request_id,
            artifacts=self.finish.artifacts,
            refusal=(self.text or None) if self.finish.refused else self._words_on_refusal(),
        )

    def _words_on_refusal(self) -> str | None:
        """The provider's words on a refusal, when the model wrote none (see `respond.refusal_of`)."""
        return None if self.text.strip() else self.finish.refusal
