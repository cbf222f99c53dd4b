"""The loop every streaming adapter shares: body bytes -> events -> chunks, failures as llmrelay errors.

An adapter gives a `Reader` for its provider's events; `chunks` / `achunks` feed it the body as it
arrives and check, at the end, that the provider said the answer was complete: a body that simply
stops (a proxy cut it, the server died) is a `ProviderConnectionError`, never a short answer.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, Protocol

from ..errors import ProviderConnectionError, ProviderError, ServerError
from ._contract import Chunk
from ._sse import EventDecoder, ServerEvent, read_failure


class Reader(Protocol):
    """Turns one provider's stream events into chunks."""

    provider: str
    model: str

    def read(self, event: ServerEvent) -> list[Chunk]:
        """The chunks one event carries; raises the provider's error when the event is one."""
        ...

    def complete(self, decoder: EventDecoder) -> bool:
        """Whether the provider said the answer is whole (its end event, a finish reason, a closed array)."""
        ...


def chunks(body: Iterable[bytes], reader: Reader, *, secret: str | None) -> Iterator[Chunk]:
    """The chunks of a streamed body read from `body` (the HTTP response's byte iterator)."""
    decoder = EventDecoder()
    try:
        for data in body:
            for event in decoder.feed(data):
                yield from reader.read(event)
    except Exception as exc:
        raise _failure(exc, reader, secret) from exc
    for event in decoder.end():
        yield from reader.read(event)
    _check_complete(reader, decoder)


async def achunks(body: AsyncIterable[bytes], reader: Reader, *, secret: str | None) -> AsyncIterator[Chunk]:
    """`chunks` for an async body."""
    decoder = EventDecoder()
    try:
        async for data in body:
            for event in decoder.feed(data):
                for chunk in reader.read(event):
                    yield chunk
    except Exception as exc:
        raise _failure(exc, reader, secret) from exc
    for event in decoder.end():
        for chunk in reader.read(event):
            yield chunk
    _check_complete(reader, decoder)


def _failure(exc: Exception, reader: Reader, secret: str | None) -> Exception:
    if isinstance(exc, ProviderError):
        return exc
    return read_failure(exc, provider=reader.provider, model=reader.model, secret=secret) or exc


def _check_complete(reader: Reader, decoder: EventDecoder) -> None:
    if not reader.complete(decoder):
        raise ProviderConnectionError(
            "the stream ended before the answer was complete (no end event)",
            provider=reader.provider,
            model=reader.model,
        )


def decode(event: ServerEvent, reader: Reader) -> Any:
    """The event's JSON data; a `ServerError` when it is not JSON."""
    try:
        return json.loads(event.data)
    except ValueError as exc:
        raise ServerError(
            f"a stream event is not JSON: {event.data[:200]!r}", provider=reader.provider, model=reader.model
        ) from exc
