"""The adapter contract, as a user's own adapter sees it: registered, streamed natively, closed."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, ClassVar

import pytest

import llmrelay
from llmrelay import StreamEnd, TextDelta, ToolCall, ToolCallComplete, ToolCallStarted, Usage
from llmrelay.adapters import (
    Adapter,
    AsyncClosable,
    CallEnd,
    CallPiece,
    Chunk,
    Closable,
    Finish,
    ProviderOptions,
    RawResponse,
    Request,
    StreamingAdapter,
    TextPiece,
    register_adapter,
)
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import FakeAdapter

CHUNKS: list[Chunk] = [
    TextPiece("Checking "),
    TextPiece("the weather."),
    CallPiece(0, id="call_1", name="get_weather", arguments='{"city": '),
    CallPiece(0, arguments='"Paris"}'),
    CallEnd(0),
    Finish(reason="tool_calls", usage=Usage(10, 5, 15), model="streamer-v1"),
]


class Streamer:
    """A user's adapter with native streaming: it counts which of its methods ran."""

    provider: ClassVar[str] = "streamer"
    used: ClassVar[list[str]] = []

    def __init__(self, options: ProviderOptions) -> None:
        self.options = options

    def send(self, request: Request) -> RawResponse:
        self.used.append("send")
        raise AssertionError("a streaming adapter is streamed, not sent")

    async def asend(self, request: Request) -> RawResponse:
        return self.send(request)

    def stream(self, request: Request) -> Iterator[Chunk]:
        self.used.append("stream")
        yield from CHUNKS

    async def astream(self, request: Request) -> AsyncIterator[Chunk]:
        self.used.append("astream")
        for chunk in CHUNKS:
            yield chunk

    def close(self) -> None:
        self.used.append("close")

    async def aclose(self) -> None:
        self.used.append("aclose")


@pytest.fixture
def streamer() -> Iterator[type[Streamer]]:
    Streamer.used = []
    register_adapter("streamer", Streamer)
    yield Streamer
    from llmrelay import adapters

    adapters._registered.pop("streamer", None)


def get_weather(city: str) -> str:
    """Weather for a city."""
    return "sunny"


def client_options() -> dict[str, Any]:
    # Native tools for the user's provider, so the calls come as CallPieces.
    return {"capabilities": {"streamer": {"*": {"native_tools": True}}}, "learner": CapabilityLearner()}


def check(events: list[Any]) -> None:
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Checking the weather."
    assert [type(e) for e in events if isinstance(e, (ToolCallStarted, ToolCallComplete))] == [
        ToolCallStarted,
        ToolCallComplete,
    ]
    end = events[-1]
    assert isinstance(end, StreamEnd)
    assert end.completion.tool_calls == [ToolCall("get_weather", {"city": "Paris"}, "call_1")]
    assert (end.completion.usage.total_tokens, end.completion.mode) == (15, "native_tools")


@pytest.mark.parametrize(
    ("protocol", "expected"),
    [(Adapter, True), (StreamingAdapter, True), (Closable, True), (AsyncClosable, True)],
)
def test_a_users_adapter_follows_the_protocols_without_inheriting(protocol: type, expected: bool) -> None:
    assert isinstance(Streamer(ProviderOptions()), protocol) is expected


@pytest.mark.parametrize("protocol", [StreamingAdapter, Closable, AsyncClosable])
def test_an_adapter_with_send_only_is_none_of_the_optional_protocols(protocol: type) -> None:
    assert not isinstance(FakeAdapter(["Hi."]), protocol)


def test_a_registered_streaming_adapter_streams_through_client_stream(streamer: type[Streamer]) -> None:
    with llmrelay.Client("streamer:v1", **client_options()) as client:
        check(list(client.stream("Weather in Paris?", tools=[get_weather])))
    assert streamer.used == ["stream", "close"]


async def test_a_registered_streaming_adapter_streams_through_async_client_stream(streamer: type[Streamer]) -> None:
    async with llmrelay.AsyncClient("streamer:v1", **client_options()) as client:
        check([event async for event in client.stream("Weather in Paris?", tools=[get_weather])])
    assert streamer.used == ["astream", "aclose"]
