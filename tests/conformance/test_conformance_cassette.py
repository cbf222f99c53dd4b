"""Every conformance cassette, replayed whole with `llmrelay.testing.cassette` (the user's way).

Each file is one `cassette(path, "none", match_on=("method", "path"))`: its interactions are asked
for in recorded order, one call each, and every one must be played (the cassette fails on any
left over or unmatched). Non-streaming interactions go through `llmrelay.Client.complete` (and
`AsyncClient`), with the adapter pointed at the recorded host, and are checked against
`expected.json` with the checks of test_conformance.py.

Streaming interactions are replayed by `STREAM_REPLAY`. Until `Client.stream` lands it is
`stream_over_http`: the recorded request is sent with httpx, and the body must come back in
pieces (one per server-sent event) that join to exactly the recording. At merge, point
`STREAM_REPLAY` / `ASTREAM_REPLAY` at functions that call `client.stream(...)` and check the
assembled content, tool calls and finish reason against `target.expected`, as `check` does.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

import httpx
import pytest

import llmrelay
from llmrelay import Completion
from llmrelay.errors import ProviderError
from llmrelay.testing import cassette
from llmrelay.testing._cassette import pieces
from llmrelay.testing._vcr import Interaction

from .test_conformance import CONFORMANCE, MESSAGES, MISSING, RECORDINGS, Replay, Setup, Target, check

FILES = sorted({t.file for t in RECORDINGS})
PARAMS = [pytest.param(f, id=f) for f in FILES] or [pytest.param(None, marks=pytest.mark.skip(reason=MISSING))]
MATCH_ON = ("method", "path")  # The conformance README's scheme: our adapters build their own bodies.
pytestmark = pytest.mark.filterwarnings(r"ignore:The model '[^']+' is deprecated:DeprecationWarning")
PLAYED: set[str] = set()
"""Ids (`file#index`) of the interactions replayed through a cassette in this session."""


def targets_of(file: str) -> list[Target]:
    return [t for t in RECORDINGS if t.file == file]


# --- streaming: the hook to switch to Client.stream at merge -------------------------------------------


def check_pieces(interaction: Interaction, received: list[bytes], status: int) -> None:
    recorded = interaction.response
    assert status == recorded.status
    assert b"".join(received) == recorded.body, "the replayed body is the recording, byte for byte"
    assert received == pieces(recorded.body, recorded.header("content-type")), "served event by event"
    if "text/event-stream" in (recorded.header("content-type") or "") and recorded.body.count(b"data:") > 1:
        assert len(received) > 1


def stream_over_http(setup: Setup) -> None:
    """Replay a streaming interaction with httpx: the body arrives in pieces equal to the recording."""
    request = setup.interaction.request
    with httpx.stream(request.method, request.uri, content=request.body) as response:
        received = list(response.iter_raw())
    check_pieces(setup.interaction, received, response.status_code)


async def astream_over_http(setup: Setup) -> None:
    request = setup.interaction.request
    async with (
        httpx.AsyncClient() as client,
        client.stream(request.method, request.uri, content=request.body) as response,
    ):
        received = [piece async for piece in response.aiter_raw()]
    check_pieces(setup.interaction, received, response.status_code)


STREAM_REPLAY: Callable[[Setup], None] = stream_over_http
"""How a streaming interaction is replayed (MERGE: switch to one built on `Client.stream`)."""
ASTREAM_REPLAY: Callable[[Setup], Awaitable[None]] = astream_over_http
"""The same, async (MERGE: switch to one built on `AsyncClient.stream`)."""


# --- the replays -----------------------------------------------------------------------------------------


def complete(setup: Setup) -> Replay:
    result: Completion | ProviderError
    try:
        result = llmrelay.Client(setup.model_string, **setup.options).complete(
            MESSAGES, tools=setup.tools or None, mode=setup.mode
        )
    except ProviderError as error:
        result = error
    return Replay(setup.provider, setup.interaction, result)


async def acomplete(setup: Setup) -> Replay:
    result: Completion | ProviderError
    try:
        client = llmrelay.AsyncClient(setup.model_string, **setup.options)
        result = await client.complete(MESSAGES, tools=setup.tools or None, mode=setup.mode)
    except ProviderError as error:
        result = error
    return Replay(setup.provider, setup.interaction, result)


@pytest.mark.parametrize("file", PARAMS)
def test_replay_cassette(file: str) -> None:
    with cassette(CONFORMANCE / "cassettes" / file, "none", match_on=MATCH_ON) as active:
        for target in targets_of(file):
            setup = Setup.of(target)
            if target.expected["streaming"]:
                STREAM_REPLAY(setup)
            else:
                check(target, complete(setup))
            PLAYED.add(target.id)
    assert active.play_count == len(targets_of(file))


@pytest.mark.parametrize("file", PARAMS)
async def test_replay_cassette_async(file: str) -> None:
    async with cassette(CONFORMANCE / "cassettes" / file, "none", match_on=MATCH_ON):
        for target in targets_of(file):
            setup = Setup.of(target)
            if target.expected["streaming"]:
                await ASTREAM_REPLAY(setup)
            else:
                check(target, await acomplete(setup))


def test_every_recorded_interaction_was_replayed_through_a_cassette(request: pytest.FixtureRequest) -> None:
    if not RECORDINGS:
        pytest.skip(MISSING)
    items = [item for item in request.session.items if isinstance(item, pytest.Function)]
    if {item.callspec.id for item in items if item.originalname == "test_replay_cassette"} != set(FILES):
        pytest.skip("only some cassettes were selected in this run; the count needs them all")
    cassettes = json.loads((CONFORMANCE / "expected.json").read_text())["cassettes"]
    everything = {f"{c['file']}#{i['index']}" for c in cassettes for i in c["interactions"]}
    print(f"\nconformance: replayed {len(PLAYED)} of {len(everything)} recorded interactions through cassettes")
    assert sorted(everything - PLAYED) == []
