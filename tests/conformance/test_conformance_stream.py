"""Replay every recorded streaming interaction through `Client.stream` / `AsyncClient.stream`.

The replay machinery is `test_conformance`'s (one interaction per call, matched on method, host
and path); here each recorded body is served in small pieces, as a network delivers it, and the
answer is read as events. For each interaction:

- an answer: the events add up to the final envelope (text deltas to its content, completed calls
  to its calls), and the envelope holds the recorded content, calls and finish reason;
- an error answer (status >= 400): the llmrelay error that fits it;
- an error inside a 200 stream (Groq's `event: error`, OpenRouter's `error` chunk): a
  `ProviderError` with the provider's words, or `StreamInterrupted` when events were already shown.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import httpx
import pytest

import llmrelay
from llmrelay import (
    AuthenticationError,
    BadRequestError,
    Completion,
    ProviderError,
    StreamEnd,
    StreamEvent,
    StreamInterrupted,
    TextDelta,
    ToolCallComplete,
)
from llmrelay.testing import mock_http
from llmrelay.testing._vcr import Interaction

from .test_conformance import (
    API_KEY,
    MESSAGES,
    MISSING,
    OTHER_SET,
    RECORDINGS,
    Replay,
    Replayer,
    Setup,
    Target,
    check_answer,
    check_error,
    expected_cassettes,
    recorded,
)

TARGETS = [t for t in RECORDINGS if t.expected["streaming"]]
PARAMS = [pytest.param(t, id=t.id) for t in TARGETS] or [pytest.param(None, marks=pytest.mark.skip(reason=MISSING))]
pytestmark = pytest.mark.filterwarnings(r"ignore:The model '[^']+' is deprecated:DeprecationWarning")
REPLAYED: set[str] = set()


class PieceReplayer(Replayer):
    """`Replayer` that serves each body in pieces of 1 to 64 bytes (seeded: the same every run)."""

    def __call__(self, request: httpx.Request) -> httpx.Response:
        response = super().__call__(request)
        body = response.content
        headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() != "content-length"]
        return httpx.Response(response.status_code, headers=headers, stream=Pieces(body, seed=len(body)))


class Pieces(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body delivered in pieces of 1 to 64 bytes, to sync and async clients alike."""

    def __init__(self, body: bytes, *, seed: int) -> None:
        self.body = body
        self.seed = seed

    def __iter__(self) -> Iterator[bytes]:
        chooser = random.Random(self.seed)
        position = 0
        while position < len(self.body):
            size = chooser.randint(1, 64)
            yield self.body[position : position + size]
            position += size

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self:
            yield piece


@dataclass
class Streamed:
    """What one streamed replay gave: its events, and the final answer or the error."""

    events: list[StreamEvent]
    result: Completion | ProviderError


def setup_for(target: Target) -> Setup:
    setup = Setup.of(target)
    return Setup(
        setup.target,
        setup.interaction,
        setup.provider,
        setup.model,
        setup.mode,
        setup.tools,
        setup.options,
        PieceReplayer([setup.interaction]),
    )


def stream(target: Target) -> tuple[Setup, Streamed]:
    setup = setup_for(target)
    events: list[StreamEvent] = []
    result: Completion | ProviderError
    with mock_http() as router:
        setup.replayer.install(router)
        client = llmrelay.Client(setup.model_string, **setup.options)
        try:
            for event in client.stream(MESSAGES, tools=setup.tools or None, mode=setup.mode):
                events.append(event)
            result = final(events)
        except ProviderError as error:
            result = error
    setup.replayer.check_done()
    REPLAYED.add(target.id)
    return setup, Streamed(events, result)


async def astream(target: Target) -> tuple[Setup, Streamed]:
    setup = setup_for(target)
    events: list[StreamEvent] = []
    result: Completion | ProviderError
    with mock_http() as router:
        setup.replayer.install(router)
        client = llmrelay.AsyncClient(setup.model_string, **setup.options)
        try:
            async for event in client.stream(MESSAGES, tools=setup.tools or None, mode=setup.mode):
                events.append(event)
            result = final(events)
        except ProviderError as error:
            result = error
    setup.replayer.check_done()
    return setup, Streamed(events, result)


def final(events: list[StreamEvent]) -> Completion:
    ends = [event for event in events if isinstance(event, StreamEnd)]
    assert len(ends) == 1 and events[-1] is ends[0], "exactly one StreamEnd, last"
    return ends[0].completion


def check_events(streamed: Streamed) -> None:
    """The events shown are the final answer: its text, its calls, nothing taken back."""
    result = streamed.result
    assert isinstance(result, Completion)
    text = "".join(event.text for event in streamed.events if isinstance(event, TextDelta))
    assert text == result.content
    completed = [event for event in streamed.events if isinstance(event, ToolCallComplete)]
    assert [event.call for event in completed if event.call] == result.tool_calls
    assert [event.rejected for event in completed if event.rejected] == result.rejected


def check_stream_error(target: Target, setup: Setup, streamed: Streamed) -> None:
    expected = target.expected
    error = streamed.result
    assert isinstance(error, ProviderError), f"the stream carried an error, got {error!r}"
    assert error.provider == setup.provider
    assert expected["error"]["message"][:40] in error.message
    assert isinstance(error.__cause__ if isinstance(error, StreamInterrupted) else error, BadRequestError)
    if isinstance(error, StreamInterrupted):
        assert error.partial.content == expected["content"]
    for text in (str(error), repr(error)):
        assert API_KEY not in text


def check(target: Target, setup: Setup, streamed: Streamed) -> None:
    expected = target.expected
    if expected["status"] >= 400:
        error = streamed.result
        if "API key not valid" in expected["error"]["message"]:
            # Gemini's wrong key is a 400 the adapter reads as authentication (see test_conformance).
            assert isinstance(error, AuthenticationError) and error.status == 400
        else:
            check_error(target, Replay(setup.provider, setup.interaction, error))  # type: ignore[arg-type]
    elif expected["error"] is not None:
        check_stream_error(target, setup, streamed)
    else:
        check_events(streamed)
        check_answer(target, Replay(setup.provider, setup.interaction, streamed.result))


@pytest.mark.parametrize("target", PARAMS)
def test_stream_replay(target: Target) -> None:
    check(target, *stream(target))


@pytest.mark.parametrize("target", PARAMS)
async def test_stream_replay_async(target: Target) -> None:
    check(target, *await astream(target))


@recorded("anthropic/llm-anthropic-stream-thinking-tool-chain.yaml#0", "gemini/llm-gemini-gzip-stream-tools.yaml#0")
def test_a_call_without_arguments_streams_as_an_empty_object() -> None:
    """Anthropic sends a tool without input as one empty `partial_json`; Gemini as `"args": {}`."""
    for target_id in (
        "anthropic/llm-anthropic-stream-thinking-tool-chain.yaml#0",
        "gemini/llm-gemini-gzip-stream-tools.yaml#0",
    ):
        (target,) = [t for t in TARGETS if t.id == target_id]
        _, streamed = stream(target)
        assert isinstance(streamed.result, Completion)
        assert [c.arguments for c in streamed.result.tool_calls] == [{}]


def served(interaction: Interaction) -> bytes:
    return interaction.response.body


@pytest.mark.skipif(not TARGETS or OTHER_SET, reason=f"{MISSING}, or another set of recordings")
def test_the_recordings_hold_every_stream_shape() -> None:
    """Guard: the shapes this file must cover are in the recordings (if the folder changes, we notice)."""
    bodies = {t.id: served(Setup.of(t).interaction) for t in TARGETS}
    assert any(b.lstrip().startswith(b"[") for b in bodies.values()), "a Gemini JSON-array stream"
    assert any(b": OPENROUTER PROCESSING" in b for b in bodies.values()), "OpenRouter's comment lines"
    assert any(b"event: error" in b for b in bodies.values()), "Groq's error event after a 200"
    assert any(b'"partial_json":""' in b.replace(b" ", b"") for b in bodies.values()), "an empty Anthropic input"


def test_every_streaming_interaction_was_replayed(request: pytest.FixtureRequest) -> None:
    if not TARGETS:
        pytest.skip(MISSING)
    items = [item for item in request.session.items if isinstance(item, pytest.Function)]
    selected = {item.callspec.id for item in items if item.originalname == "test_stream_replay"}
    if selected != {t.id for t in TARGETS}:
        pytest.skip("only some replays were selected in this run; the count needs them all")
    expected_count = sum(i["streaming"] for _, c in expected_cassettes() for i in c["interactions"])
    assert len(REPLAYED) == expected_count == len(TARGETS)
