"""What a streaming adapter yields: provider-neutral pieces of one answer, and their assembly.

Each adapter's `stream(request)` turns its provider's events into these chunks; `Assembler` turns
the chunks back into the `RawResponse` that `send(request)` would have returned, so a streamed
answer is read by the same `_respond.to_completion` as any other.

```
TextPiece("Hel") TextPiece("lo")                       text, in order (reasoning left out)
CallPiece(0, id="call_1", name="f") CallPiece(0, arguments='{"a"') CallPiece(0, arguments=': 1}')
CallEnd(0)                                              the provider said call 0 is whole (optional)
Finish(reason="tool_calls", usage=..., model=..., request_id=...)   facts about the answer, merged
```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from ._envelope import Artifact, Usage
from ._messages import new_call_id
from ._types import NativeCall, RawResponse


@dataclass(frozen=True)
class TextPiece:
    """More of the answer's text."""

    text: str


@dataclass(frozen=True)
class CallPiece:
    """Part of a native tool call: the first piece of a call usually has its id and name."""

    index: int
    """The call's position among the answer's native calls, from 0."""
    id: str | None = None
    name: str | None = None
    arguments: str = ""
    """More of the arguments' JSON text."""
    signature: str | None = None
    """Gemini's thought signature, when the provider sent one with the call."""


@dataclass(frozen=True)
class CallEnd:
    """The provider said a call is complete (Anthropic's content_block_stop; Gemini sends calls whole)."""

    index: int


@dataclass(frozen=True)
class Finish:
    """Facts about the whole answer; several may come, and a later non-empty value wins."""

    reason: str | None = None
    """The provider's own finish/stop reason."""
    usage: Usage | None = None
    model: str | None = None
    request_id: str | None = None
    artifacts: tuple[Artifact, ...] = ()
    """What the provider needs back on the next turn (see `Artifact`)."""


Chunk: TypeAlias = TextPiece | CallPiece | CallEnd | Finish
"""Everything a streaming adapter yields."""


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
        self.calls: dict[int, _Call] = {}
        self.finish = Finish(model=model)

    def add(self, chunk: Chunk) -> None:
        """Take one chunk into the answer."""
        if isinstance(chunk, TextPiece):
            self.texts.append(chunk.text)
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
            native_calls=tuple(self.native_call(index) for index in chosen),
            finish_reason=self.finish.reason,
            usage=self.finish.usage or Usage(),
            request_id=self.finish.request_id,
            artifacts=self.finish.artifacts,
        )
