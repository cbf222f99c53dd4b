"""`Client.stream`: the answer as typed events while it arrives, then the same `Completion` as `complete()`.

```
adapter.stream(request)  ->  chunks (TextPiece, CallPiece, CallEnd, Finish; see `llmrelay.adapters`)
  StreamState            ->  events: text through the text parser, native calls as they grow
  Assembler              ->  the RawResponse `send` would give  ->  `respond.to_completion`
```

Decisions (also in the README's "Streaming" section):

- Retries and fallbacks happen only before the first event is yielded. Opening the stream and
  reading it up to its first event is one call of the retry policy, and a failure there moves
  down the same plan as `complete()` (fallback models, modes, the text-only last resort). Once the
  user has seen an event, a failure ends the stream with `StreamInterrupted`, which carries
  everything received so far as a partial `Completion`; nothing is asked again.
- No repair rounds, and no second request when the answer hits the token limit: the user has
  already seen the answer, and a repaired one would not be what was shown. Calls that fail
  validation are in `StreamEnd.completion.rejected` (and were shown as `ToolCallComplete` with
  `rejected` set); the trace marks the attempt `exhausted`, with the problems, where
  `complete()` would have asked for a repair.
- Text, in every mode, goes through the text parser: native answers may carry calls in their text
  too (Claude's XML, an open model's special tokens), and the text deltas must add up to the final
  content. Native calls are shown as they arrive: `ToolCallStarted`, `ToolCallDelta`s, then
  `ToolCallComplete` as soon as the call is whole (the next call began, the provider closed it, or
  the answer ended). The text before the first call is shown before it: its last word when the
  call starts, and when the text parser must hold text back to the end (markup may start in it),
  the calls' events wait for it.
- Only choice 0 of a Chat Completions stream counts (candidate 0 of Gemini's): `n>1` is not
  supported, the other choices' chunks are left out.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from .._envelope import DEFAULT_MAX_TOOL_CALLS, Attempt, Completion, RejectedCall, ToolCall, Usage
from .._events import (
    ReasoningDelta,
    StreamEnd,
    StreamEvent,
    TextDelta,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStarted,
)
from .._tools import Tool
from .._types import NativeCall, RawResponse, Request
from ..adapters import Adapter, CallEnd, CallPiece, Chunk, Finish, ReasoningPiece, StreamingAdapter, TextPiece
from ..errors import ProviderError, StreamInterrupted
from ..normalize._partial_json import GrowingArguments
from .assemble import Assembler
from .deadline import request_end
from .drive import aanswer, answer
from .flow import Call, Flow, Policy, record_retry
from .respond import not_allowed, to_completion

if TYPE_CHECKING:
    from .setup import Pipeline


class TextParser(Protocol):
    """Reads the answer's text as it grows: the events to show, and at the end the text's `Completion`.

    The contract: the `TextDelta`s of `feed` and `finish` add up to the final `content`, and the
    final `Completion` is `parse_response(all the text, tools, strict)`.
    """

    def feed(self, text: str) -> list[StreamEvent]:
        """The events the new text makes certain."""
        ...

    def boundary(self) -> list[StreamEvent] | None:
        """The held-back text a native call's start makes certain; None when some must wait for `finish`."""
        ...

    def finish(self) -> tuple[list[StreamEvent], Completion]:
        """The remaining events, and the text's reading as `parse_response` gives it."""
        ...


def text_parser(tools: list[Tool] | None, strict: bool, request: Request | None = None) -> TextParser:
    """The parser for a stream's text: the incremental normalizer (markup never shown, calls read whole).

    In json_schema and json_object modes the answer is llmrelay's envelope (one JSON document,
    the provider guarantees it): its content and calls are then read as they arrive.
    """
    from ..normalize._incremental import IncrementalParser

    envelope = request is not None and request.schema_name == "envelope"
    json_mode = envelope and request is not None and request.mode in ("json_schema", "json_object")
    return IncrementalParser(tools, strict=strict, json_mode=json_mode)


# --- one streamed answer -----------------------------------------------------------------------


class StreamState:
    """One streamed answer: turns chunks into events, and gives the answer (whole or partial) at the end."""

    def __init__(
        self, provider: str, request: Request, *, strict: bool, max_calls: int = DEFAULT_MAX_TOOL_CALLS
    ) -> None:
        self.request = request
        self.strict = strict
        self.max_calls = max_calls
        self._shown = 0  # Calls shown as accepted so far (the cap counts them).
        self.assembler = Assembler(provider, request.model)
        self.by_name = {tool.name: tool for tool in request.tools} if request.tools else None
        self.parser = text_parser(list(request.tools) or None, strict, request)
        self._next = 0  # The next event index to hand out.
        self._native: dict[int, int] = {}  # native call index -> event index
        self._parsed: dict[int, int] = {}  # text parser's call index -> event index
        self._open: list[int] = []  # native calls started, not complete
        self._done: list[int] = []  # native calls complete
        self._partial: dict[int, GrowingArguments] = {}  # native call index -> its arguments so far
        self._held: list[StreamEvent] | None = None
        """Native call events kept until `finish`: text before the first call was still held back."""

    def feed(self, chunk: Chunk) -> list[StreamEvent]:
        """The events one chunk makes certain."""
        self.assembler.add(chunk)
        if isinstance(chunk, TextPiece):
            return self._from_parser(self.parser.feed(chunk.text))
        if isinstance(chunk, ReasoningPiece):
            return [ReasoningDelta(chunk.text)] if chunk.text else []
        if isinstance(chunk, CallPiece):
            return self._after_text(self._call_piece(chunk))
        if isinstance(chunk, CallEnd):
            return self._after_text(self._complete([chunk.index]))
        return []

    def _after_text(self, events: list[StreamEvent]) -> list[StreamEvent]:
        """Native call events, shown only after the text that preceded the call."""
        if self._held is not None:
            self._held += events
            return []
        return events

    def finish(self) -> tuple[list[StreamEvent], RawResponse]:
        """The last events (open calls completed, the parser's remainder), and the whole answer."""
        events = self._after_text(self._complete(list(self._open)))
        parsed = self._from_parser(self.parser.finish()[0])
        if self._held is not None:  # The text held back came before the calls.
            texts = [event for event in parsed if isinstance(event, TextDelta)]
            parsed = texts + self._held + [event for event in parsed if not isinstance(event, TextDelta)]
        return events + parsed, self.assembler.raw()

    def interrupted(self, error: ProviderError, call: Call, trace: list[Attempt]) -> StreamInterrupted:
        """The error that ends a stream cut off after events were shown, with everything received."""
        raw = self.assembler.raw(self._done)
        result = to_completion(
            raw,
            tools=self.request.tools,
            mode=self.request.mode,
            strict=self.strict,
            tool_choice=self.request.tool_choice,
            max_calls=self.max_calls,
        )
        cut = [self._cut_off(index) for index in sorted(self._native) if index not in self._done]
        failed = Attempt(
            provider=call.step.provider,
            model=call.step.model,
            mode=call.step.mode,
            outcome="error",
            reason=f"stream interrupted: {error}",
            host=call.step.host,
        )
        attempts = [*trace, replace(failed, usage=raw.usage)]
        received = replace(
            result,
            rejected=[*result.rejected, *cut],
            attempts=attempts,
            usage=sum((attempt.usage for attempt in attempts), Usage()),
        )
        return StreamInterrupted.after(error, received)

    def _call_piece(self, piece: CallPiece) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        if piece.index not in self._native:
            if not self._native:  # The first call ends the text before it: show that text first.
                before = self.parser.boundary()
                if before is None:
                    self._held = []
                events += self._from_parser(before or [])
            # Calls arrive one after another: a new one means the ones before it are whole.
            events += self._complete([index for index in self._open if index < piece.index])
            self._native[piece.index] = self._new_index()
            self._open.append(piece.index)
            call = self.assembler.native_call(piece.index)
            events.append(ToolCallStarted(self._native[piece.index], call.name, call.id))
        if piece.arguments and piece.index in self._open:
            text = self.assembler.arguments(piece.index)
            partial = self._partial.setdefault(piece.index, GrowingArguments()).read(text)
            events.append(ToolCallDelta(self._native[piece.index], piece.arguments, text, partial))
        return events

    def _complete(self, indexes: Iterable[int]) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        for index in indexes:
            if index not in self._open:
                continue
            self._open.remove(index)
            self._done.append(index)
            accepted = self._allowed(checked(self.assembler.native_call(index), self.by_name))
            if isinstance(accepted, ToolCall):
                events.append(ToolCallComplete(self._native[index], call=accepted))
            else:
                events.append(ToolCallComplete(self._native[index], rejected=accepted))
        return events

    def _allowed(self, call: ToolCall | RejectedCall) -> ToolCall | RejectedCall:
        """A valid call as the answer will hold it: refused when no call is allowed, or past the cap.

        So no `ToolCallComplete` shows a call that the final `Completion` does not accept.
        """
        if isinstance(call, RejectedCall):
            return call
        if self.request.tool_choice == "none":
            return not_allowed(call)
        if self._shown >= self.max_calls:
            reason = f"tool call '{call.name}' is past max_tool_calls={self.max_calls} in one answer: dropped"
            return RejectedCall(call.name, call.arguments, reason, "malformed", call.id)
        self._shown += 1
        return call

    def _from_parser(self, events: list[StreamEvent]) -> list[StreamEvent]:
        """The parser's events, its call indexes moved to this answer's numbering."""
        moved: list[StreamEvent] = []
        for event in events:
            if isinstance(event, (ToolCallStarted, ToolCallDelta, ToolCallComplete)):
                if event.index not in self._parsed:
                    self._parsed[event.index] = self._new_index()
                event = replace(event, index=self._parsed[event.index])
                if isinstance(event, ToolCallComplete) and event.call is not None:
                    if isinstance(allowed := self._allowed(event.call), RejectedCall):
                        event = replace(event, call=None, rejected=allowed)
            if not (isinstance(event, TextDelta) and not event.text):
                moved.append(event)
        return moved

    def _new_index(self) -> int:
        self._next += 1
        return self._next - 1

    def _cut_off(self, index: int) -> RejectedCall:
        call = self.assembler.native_call(index)
        reason = f"the stream was cut off before tool call '{call.name}' was complete"
        return RejectedCall(
            name=call.name or None, arguments=call.arguments, reason=reason, kind="truncated", id=call.id
        )


def checked(native: NativeCall, tools: dict[str, Tool] | None) -> ToolCall | RejectedCall:
    """One native call, read and validated exactly as `respond` reads the calls of a whole answer."""
    from ..normalize import call_from_parts
    from ..normalize._parse import accept_calls
    from ..normalize._types import Candidate

    reading = call_from_parts(native.name, native.arguments, call_id=native.id)
    if not isinstance(reading, Candidate):
        return reading
    accepted, rejected = accept_calls([reading], tools, strict=False)
    if not accepted:
        return rejected[0]
    return replace(accepted[0], signature=native.signature) if native.signature else accepted[0]


def chunks_of(raw: RawResponse) -> list[Chunk]:
    """A whole answer as chunks: how an adapter without `stream` is streamed."""
    pieces: list[Chunk] = [ReasoningPiece(raw.reasoning)] if raw.reasoning else []
    pieces += [TextPiece(raw.text)] if raw.text else []
    for index, call in enumerate(raw.native_calls):
        arguments = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments or {})
        pieces += [CallPiece(index, call.id, call.name, arguments, call.signature), CallEnd(index)]
    return [
        *pieces,
        Finish(raw.finish_reason, raw.usage, raw.model, raw.request_id, raw.artifacts, raw.refusal is not None),
    ]


# --- the client's side -------------------------------------------------------------------------


def stream_policy(pipeline: Pipeline) -> Policy:
    """The flow's policy for a stream: no repair rounds and no longer retry after the answer was shown."""
    return Policy(
        max_repairs=0,
        strict=pipeline.strict,
        trigger=_nothing_to_repair,
        max_tokens_on_length=None,
        learn=pipeline._learn,
        max_calls=pipeline.max_tool_calls,
        max_requests=pipeline.max_requests,
    )


def _nothing_to_repair(result: Completion, request: Request) -> list[str]:
    return []  # What the trigger finds is put in the trace by `_unrepaired`, never asked to be fixed.


@dataclass
class _Opened:
    """A stream read up to its first events (or to its end)."""

    state: StreamState
    events: list[StreamEvent]
    rest: Any = None
    """The chunk iterator still to read; None when the answer is complete."""
    raw: RawResponse | None = None


def stream_events(pipeline: Pipeline, flow: Flow, trace: list[Attempt]) -> Iterator[StreamEvent]:
    """Drive one request's flow, streaming each call; see the module docstring for the rules."""
    ends = request_end(pipeline.deadline)  # From the first `next()`: when the request is made.
    made = answer(flow, next(flow), partial(_open_with_retry, pipeline, trace, ends))
    if isinstance(made, Completion):  # pragma: no cover - the stream policy never ends a flow this way
        yield StreamEnd(made)
        return
    call, opened = made
    state, rest = opened.state, opened.rest
    try:
        yield from opened.events
        raw = opened.raw
        if rest is not None:
            for chunk in rest:
                yield from state.feed(chunk)
            events, raw = state.finish()
            yield from events
    except ProviderError as error:
        raise state.interrupted(error, call, trace) from error
    finally:
        if rest is not None:
            _close(rest)
    assert raw is not None
    yield StreamEnd(_result(pipeline, flow, raw, call.request))


async def astream_events(pipeline: Pipeline, flow: Flow, trace: list[Attempt]) -> AsyncIterator[StreamEvent]:
    """`stream_events` for `AsyncClient`."""
    ends = request_end(pipeline.deadline)
    made = await aanswer(flow, next(flow), partial(_aopen_with_retry, pipeline, trace, ends))
    if isinstance(made, Completion):  # pragma: no cover - see `stream_events`
        yield StreamEnd(made)
        return
    call, opened = made
    state, rest = opened.state, opened.rest
    try:
        for event in opened.events:
            yield event
        raw = opened.raw
        if rest is not None:
            async for chunk in rest:
                for event in state.feed(chunk):
                    yield event
            events, raw = state.finish()
            for event in events:
                yield event
    except ProviderError as error:
        raise state.interrupted(error, call, trace) from error
    finally:
        if rest is not None:
            await _aclose(rest)
    assert raw is not None
    yield StreamEnd(_result(pipeline, flow, raw, call.request))


def _open_with_retry(pipeline: Pipeline, trace: list[Attempt], ends: float | None, call: Call) -> _Opened:
    """Open the call's stream through the retry policy (sync)."""
    opening = partial(_open, pipeline._adapter_for(call.step.provider), call, pipeline, ends)
    return pipeline.retry.call(opening, on_retry=partial(record_retry, trace, call.step), ends=ends)


async def _aopen_with_retry(pipeline: Pipeline, trace: list[Attempt], ends: float | None, call: Call) -> _Opened:
    """Open the call's stream through the retry policy (async)."""
    opening = partial(_aopen, pipeline._adapter_for(call.step.provider), call, pipeline, ends)
    return await pipeline.retry.acall(opening, on_retry=partial(record_retry, trace, call.step), ends=ends)


def _close(chunks: Iterator[Chunk]) -> None:
    """Stop a chunk generator early: its `with` blocks release the HTTP connection."""
    close = getattr(chunks, "close", None)
    if close is not None:
        close()


async def _aclose(chunks: AsyncIterator[Chunk]) -> None:
    close = getattr(chunks, "aclose", None)
    if close is not None:
        await close()


def _open(adapter: Adapter, call: Call, pipeline: Pipeline, ends: float | None) -> _Opened:
    """Start the stream and read it until it has something to show (one try of the retry policy).

    The attempt's clock bounds the whole stream, to its last chunk, not only this opening.
    """
    request, clock = call.request, pipeline._clock(call, ends)
    state = StreamState(adapter.provider, call.reading, strict=pipeline.strict, max_calls=pipeline.max_tool_calls)
    if not isinstance(adapter, StreamingAdapter):
        with clock.sync():
            return _whole(state, chunks_of(adapter.send(request)))
    rest = clock.chunks(adapter.stream(request))
    try:
        for chunk in rest:
            if events := state.feed(chunk):
                return _Opened(state, events, rest)
    except BaseException:
        _close(rest)
        raise
    events, raw = state.finish()
    return _Opened(state, events, raw=raw)


async def _aopen(adapter: Adapter, call: Call, pipeline: Pipeline, ends: float | None) -> _Opened:
    request, clock = call.request, pipeline._clock(call, ends)
    state = StreamState(adapter.provider, call.reading, strict=pipeline.strict, max_calls=pipeline.max_tool_calls)
    if not isinstance(adapter, StreamingAdapter):
        return _whole(state, chunks_of(await clock.wait(adapter.asend(request))))
    rest = clock.achunks(adapter.astream(request))
    try:
        async for chunk in rest:
            if events := state.feed(chunk):
                return _Opened(state, events, rest)
    except BaseException:
        await _aclose(rest)
        raise
    events, raw = state.finish()
    return _Opened(state, events, raw=raw)


def _whole(state: StreamState, chunks: list[Chunk]) -> _Opened:
    events = [event for chunk in chunks for event in state.feed(chunk)]
    more, raw = state.finish()
    return _Opened(state, events + more, raw=raw)


def _result(pipeline: Pipeline, flow: Flow, raw: RawResponse, request: Request) -> Completion:
    """The flow's answer for the streamed `raw`, its last attempt saying what was not repaired."""
    try:
        flow.send(raw)
    except StopIteration as stop:
        return _unrepaired(stop.value, pipeline, request)
    raise AssertionError("the stream policy accepts every answer")  # pragma: no cover


def _unrepaired(result: Completion, pipeline: Pipeline, request: Request) -> Completion:
    found = pipeline.repair_trigger(result, request)
    if not found or not result.attempts or result.attempts[-1].outcome != "ok":
        return result
    reason = "; ".join(found) + " (not repaired: the answer was streamed)"
    last = replace(result.attempts[-1], outcome="exhausted", reason=reason)
    return replace(result, attempts=[*result.attempts[:-1], last])
