"""The loop every streaming adapter shares: body bytes -> events -> chunks, failures as llmrelay errors.

An adapter gives a `Reader` for its provider's events; `chunks` / `achunks` feed it the body as it
arrives and check, at the end, that the provider said the answer was complete: a body that simply
stops (a proxy cut it, the server died) is a `ProviderConnectionError`, never a short answer.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, Protocol

from .._text import clean_json
from ..errors import ProviderConnectionError, ProviderError, ResponseTooLarge, ServerError
from ._contract import DEFAULT_MAX_STREAM_BYTES, Chunk
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


def chunks(
    body: Iterable[bytes], reader: Reader, *, secret: str | None, limit: int = DEFAULT_MAX_STREAM_BYTES
) -> Iterator[Chunk]:
    """The chunks of a streamed body read from `body` (the HTTP response's byte iterator).

    Past `limit` bytes reading stops with `ResponseTooLarge` (what was read is already yielded).
    """
    decoder = EventDecoder()
    try:
        for data in capped(body, reader, limit):
            for event in decoder.feed(data):
                yield from reader.read(event)
    except Exception as exc:
        raise _failure(exc, reader, secret) from exc
    for event in decoder.end():
        yield from reader.read(event)
    _check_complete(reader, decoder)


async def achunks(
    body: AsyncIterable[bytes], reader: Reader, *, secret: str | None, limit: int = DEFAULT_MAX_STREAM_BYTES
) -> AsyncIterator[Chunk]:
    """`chunks` for an async body."""
    decoder = EventDecoder()
    try:
        async for data in acapped(body, reader, limit):
            for event in decoder.feed(data):
                for chunk in reader.read(event):
                    yield chunk
    except Exception as exc:
        raise _failure(exc, reader, secret) from exc
    for event in decoder.end():
        for chunk in reader.read(event):
            yield chunk
    _check_complete(reader, decoder)


def capped(body: Iterable[bytes], reader: Reader, limit: int) -> Iterator[bytes]:
    """`body`'s pieces, until more than `limit` bytes came: then `ResponseTooLarge`."""
    received = 0
    for data in body:
        received = _counted(received, data, limit, reader)
        yield data


async def acapped(body: AsyncIterable[bytes], reader: Reader, limit: int) -> AsyncIterator[bytes]:
    """`capped` for an async body."""
    received = 0
    async for data in body:
        received = _counted(received, data, limit, reader)
        yield data


def _counted(received: int, data: bytes, limit: int, reader: Reader) -> int:
    """The bytes read so far with `data`; `ResponseTooLarge` once they pass `limit`."""
    received += len(data)
    if received > limit:
        raise ResponseTooLarge(provider=reader.provider, model=reader.model, limit=limit, received=received)
    return received


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
    """The event's JSON data (lone surrogates replaced, see `_text`); a `ServerError` when it is not JSON."""
    try:
        return clean_json(json.loads(event.data), event.data, f"{reader.provider}'s stream")
    except ValueError as exc:
        raise ServerError(
            f"a stream event is not JSON: {event.data[:200]!r}", provider=reader.provider, model=reader.model
        ) from exc
