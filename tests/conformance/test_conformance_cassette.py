"""Every conformance cassette, replayed whole with `llmrelay.testing.cassette` (the user's way).

Each file is one `cassette(path, "none", match_on=("method", "path"))`: its interactions are asked
for in recorded order, one call each, and every one must be played (the cassette fails on any
left over or unmatched). Non-streaming interactions go through `llmrelay.Client.complete` (and
`AsyncClient`), with the adapter pointed at the recorded host, and are checked against
`expected.json` with the checks of test_conformance.py.

Streaming interactions go through `Client.stream` (and `AsyncClient.stream`), the cassette
serving each body event by event, and are checked as test_conformance_stream.py checks them:
the text deltas add up to the content, the calls and finish reason are those recorded, errors
inside a 200 stream are typed.
"""

from __future__ import annotations

import pytest

import llmrelay
from llmrelay import Completion, StreamEvent
from llmrelay.errors import ProviderError
from llmrelay.testing import cassette

from .test_conformance import MESSAGES, MISSING, RECORDINGS, Replay, Setup, Target, check, expected_cassettes
from .test_conformance_stream import Streamed, final
from .test_conformance_stream import check as check_stream

FILES = sorted({t.file for t in RECORDINGS})
PARAMS = [pytest.param(f, id=f) for f in FILES] or [pytest.param(None, marks=pytest.mark.skip(reason=MISSING))]
MATCH_ON = ("method", "path")  # The conformance README's scheme: our adapters build their own bodies.
pytestmark = pytest.mark.filterwarnings(r"ignore:The model '[^']+' is deprecated:DeprecationWarning")
PLAYED: set[str] = set()
"""Ids (`file#index`) of the interactions replayed through a cassette in this session."""


def targets_of(file: str) -> list[Target]:
    return [t for t in RECORDINGS if t.file == file]


# --- streaming: through Client.stream, checked as test_conformance_stream checks them ---------------------


def stream(setup: Setup) -> None:
    events: list[StreamEvent] = []
    result: Completion | ProviderError
    try:
        client = llmrelay.Client(setup.model_string, **setup.options)
        for event in client.stream(MESSAGES, tools=setup.tools or None, mode=setup.mode):
            events.append(event)
        result = final(events)
    except ProviderError as error:
        result = error
    check_stream(setup.target, setup, Streamed(events, result))


async def astream(setup: Setup) -> None:
    events: list[StreamEvent] = []
    result: Completion | ProviderError
    try:
        client = llmrelay.AsyncClient(setup.model_string, **setup.options)
        async for event in client.stream(MESSAGES, tools=setup.tools or None, mode=setup.mode):
            events.append(event)
        result = final(events)
    except ProviderError as error:
        result = error
    check_stream(setup.target, setup, Streamed(events, result))


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
    with cassette(targets_of(file)[0].cassette, "none", match_on=MATCH_ON) as active:
        for target in targets_of(file):
            setup = Setup.of(target)
            if target.expected["streaming"]:
                stream(setup)
            else:
                check(target, complete(setup))
            PLAYED.add(target.id)
    assert active.play_count == len(targets_of(file))


@pytest.mark.parametrize("file", PARAMS)
async def test_replay_cassette_async(file: str) -> None:
    async with cassette(targets_of(file)[0].cassette, "none", match_on=MATCH_ON):
        for target in targets_of(file):
            setup = Setup.of(target)
            if target.expected["streaming"]:
                await astream(setup)
            else:
                check(target, await acomplete(setup))


def test_every_recorded_interaction_was_replayed_through_a_cassette(request: pytest.FixtureRequest) -> None:
    if not RECORDINGS:
        pytest.skip(MISSING)
    items = [item for item in request.session.items if isinstance(item, pytest.Function)]
    if {item.callspec.id for item in items if item.originalname == "test_replay_cassette"} != set(FILES):
        pytest.skip("only some cassettes were selected in this run; the count needs them all")
    everything = {f"{c['file']}#{i['index']}" for _, c in expected_cassettes() for i in c["interactions"]}
    print(f"\nconformance: replayed {len(PLAYED)} of {len(everything)} recorded interactions through cassettes")
    assert sorted(everything - PLAYED) == []
