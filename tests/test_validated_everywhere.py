"""Every path that builds a `Completion` checks its calls against the request's tools (issue 12).

One hostile answer (a call to a tool that does not exist, and a call whose arguments the schema
forbids) is sent down every path: complete, stream and run, sync and async, in each mode, after
a repair, after a fallback, and as the text-only last resort (`degraded`). On every one the two
calls end in `rejected` and the tool never runs. Then `tool_choice="none"` and the cap on calls
read per answer, on the same paths.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from llmrelay import AsyncClient, Client, Completion, RetryPolicy, StreamEnd, ToolCallComplete, UnsupportedFeatureError
from llmrelay._envelope import Mode
from llmrelay._types import NativeCall, RawResponse
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import FakeAdapter

RAN: list[dict[str, Any]] = []


def get_weather(city: str, days: int = 1) -> str:
    """Weather for a city."""
    RAN.append({"city": city, "days": days})
    return "sunny"


@pytest.fixture(autouse=True)
def _nothing_ran_yet() -> None:
    RAN.clear()


BAD_CALLS = [("rm_rf", {"path": "/"}), ("get_weather", {"city": "Paris", "days": "all of them"})]
"""An unknown tool, and a known one with arguments its schema forbids."""


def hostile(mode: Mode, calls: list[tuple[str, dict[str, Any]]] = BAD_CALLS) -> RawResponse:
    """An answer making `calls` in the shape the mode answers in."""
    if mode == "native_tools":
        natives = tuple(NativeCall(name, json.dumps(args), f"call_{i}") for i, (name, args) in enumerate(calls))
        return RawResponse("fake", "m", native_calls=natives, finish_reason="tool_calls")
    if mode in ("json_schema", "json_object"):
        envelope = {"content": "", "toolCalls": [{"name": n, "arguments": a} for n, a in calls], "needsMoreWork": True}
        return RawResponse("fake", "m", text=json.dumps(envelope), finish_reason="stop")
    tags = "".join(f"<tool_call>{json.dumps({'name': n, 'arguments': a})}</tool_call>" for n, a in calls)
    return RawResponse("fake", "m", text=tags, finish_reason="stop")


def refused(mode: Mode) -> UnsupportedFeatureError:
    return UnsupportedFeatureError("no", feature=mode, provider="fake", model="m", status=400)


@dataclass(frozen=True)
class Path:
    id: str
    script: list[Any]
    options: dict[str, Any]


MODES: list[Mode] = ["native_tools", "json_schema", "json_object", "text"]
PATHS = [
    *(Path(f"mode {mode}", [hostile(mode)], {"mode": mode, "max_repairs": 0}) for mode in MODES),
    Path(
        "after a repair", [hostile("native_tools"), hostile("native_tools")], {"mode": "native_tools", "max_repairs": 1}
    ),
    Path(
        "after a fallback",
        [refused("native_tools"), hostile("json_schema")],
        {"modes": ["native_tools", "json_schema"], "max_repairs": 0},
    ),
    Path("degraded", [refused("native_tools"), hostile("text")], {"mode": "native_tools"}),
]


def client_for(path: Path, *, is_async: bool = False, **extra: Any) -> Any:
    cls = AsyncClient if is_async else Client
    options = {"retry": RetryPolicy(max_attempts=1), "learner": CapabilityLearner(), **path.options, **extra}
    return cls("openai:gpt-4o-mini", adapter=FakeAdapter(path.script), **options)


def complete(path: Path, is_async: bool, **kwargs: Any) -> Completion:
    client = client_for(path, is_async=is_async)
    if is_async:
        return asyncio.run(client.complete("Weather?", tools=[get_weather], **kwargs))  # type: ignore[no-any-return]
    return client.complete("Weather?", tools=[get_weather], **kwargs)  # type: ignore[no-any-return]


def stream(path: Path, is_async: bool, **kwargs: Any) -> Completion:
    events = stream_events(client_for(path, is_async=is_async), is_async, **kwargs)
    shown = [event.call for event in events if isinstance(event, ToolCallComplete) and event.call is not None]
    end = events[-1]
    assert isinstance(end, StreamEnd)
    assert [call.name for call in shown] == [call.name for call in end.completion.tool_calls]
    return end.completion


def stream_events(client: Any, is_async: bool, **kwargs: Any) -> list[Any]:
    if not is_async:
        return list(client.stream("Weather?", tools=[get_weather], **kwargs))

    async def collect() -> list[Any]:
        return [event async for event in client.stream("Weather?", tools=[get_weather], **kwargs)]

    return asyncio.run(collect())


def run(path: Path, is_async: bool, **kwargs: Any) -> Completion:
    client = client_for(path, is_async=is_async)
    client._given.add("Nothing to do.")  # The loop's second step: the model gives up.
    if is_async:
        result = asyncio.run(client.run("Weather?", tools=[get_weather], **kwargs))
    else:
        result = client.run("Weather?", tools=[get_weather], **kwargs)
    assert sum(execution.ran for step in result.steps for execution in step.executions) == len(RAN)
    return result.steps[0].completion  # type: ignore[no-any-return]


ENTRIES: dict[str, Callable[..., Completion]] = {"complete": complete, "stream": stream, "run": run}


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("entry", list(ENTRIES))
@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_no_path_accepts_an_unknown_tool_or_invalid_arguments(path: Path, entry: str, is_async: bool) -> None:
    if entry == "stream" and path.id == "after a repair":
        pytest.skip("streams are never repaired")
    result = ENTRIES[entry](path, is_async)
    assert result.tool_calls == []
    assert sorted((r.name, r.kind) for r in result.rejected) == [
        ("get_weather", "invalid_arguments"),
        ("rm_rf", "unknown_tool"),
    ]
    assert RAN == []


def test_the_degraded_answer_is_still_flagged_and_checked() -> None:
    degraded = PATHS[-1]
    result = complete(degraded, False)
    assert result.degraded and [a.outcome for a in result.attempts] == ["error", "degraded"]


# --- tool_choice="none" -----------------------------------------------------------------------------

GOOD_CALL = [("get_weather", {"city": "Paris"})]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("entry", list(ENTRIES))
@pytest.mark.parametrize("mode", MODES)
def test_a_call_made_despite_tool_choice_none_is_reported_never_run(mode: Mode, entry: str, is_async: bool) -> None:
    path = Path(mode, [hostile(mode, GOOD_CALL)], {"mode": mode, "max_repairs": 0})
    result = ENTRIES[entry](path, is_async, tool_choice="none")
    assert result.tool_calls == [] and result.needs_more_work is False
    assert [(r.name, r.kind, r.arguments) for r in result.rejected] == [
        ("get_weather", "not_allowed", {"city": "Paris"})
    ]
    assert RAN == []


def test_the_repair_for_a_call_not_allowed_asks_for_text() -> None:
    path = Path("native", [hostile("native_tools", GOOD_CALL), "It is sunny."], {"mode": "native_tools"})
    client = client_for(path)
    result = client.complete("Weather?", tools=[get_weather], tool_choice="none")
    assert (result.content, result.rejected) == ("It is sunny.", [])
    assert "no tool may be called in this reply" in client._given.requests[1].messages[-1].content


# --- the cap on calls read per answer ---------------------------------------------------------------


def many(mode: Mode, count: int) -> RawResponse:
    return hostile(mode, [("get_weather", {"city": f"c{i}"}) for i in range(count)])


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("entry", list(ENTRIES))
@pytest.mark.parametrize("mode", MODES)
def test_calls_past_the_cap_are_counted_in_one_rejection_and_never_run(mode: Mode, entry: str, is_async: bool) -> None:
    path = Path(mode, [many(mode, 300)], {"mode": mode, "max_repairs": 0, "max_tool_calls": 100})
    result = ENTRIES[entry](path, is_async)
    assert [call.arguments["city"] for call in result.tool_calls] == [f"c{i}" for i in range(100)]
    assert [r.kind for r in result.rejected] == ["malformed"]
    assert "200 more tool call(s) than max_tool_calls=100" in result.rejected[0].reason
    assert len(RAN) == (100 if entry == "run" else 0)


@pytest.mark.parametrize("mode", MODES)
def test_the_default_cap_is_128(mode: Mode) -> None:
    path = Path(mode, [many(mode, 2_000)], {"mode": mode, "max_repairs": 0})
    result = complete(path, False)
    assert len(result.tool_calls) == 128
    assert "1872 more tool call(s) than max_tool_calls=128" in result.rejected[-1].reason


def test_native_and_text_calls_share_one_cap() -> None:
    natives = many("native_tools", 3).native_calls
    text = many("text", 3).text
    answer = RawResponse("fake", "m", text=text, native_calls=natives)
    path = Path("both", [answer], {"mode": "native_tools", "max_repairs": 0})
    result = client_for(path, max_tool_calls=4).complete("Weather?", tools=[get_weather])
    assert [c.arguments["city"] for c in result.tool_calls] == ["c0", "c1", "c2", "c0"]
    assert "2 more tool call(s) than max_tool_calls=4" in result.rejected[-1].reason


def test_the_stream_shows_calls_past_the_cap_as_rejected() -> None:
    path = Path("native", [many("native_tools", 5)], {"mode": "native_tools", "max_tool_calls": 3})
    events = stream_events(client_for(path), False)
    complete_events = [event for event in events if isinstance(event, ToolCallComplete)]
    assert [event.call is not None for event in complete_events] == [True, True, True, False, False]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "128"])
def test_the_cap_must_be_a_positive_whole_number(bad: object) -> None:
    from llmrelay import ConfigError

    with pytest.raises(ConfigError, match="max_tool_calls"):
        Client("openai:gpt-4o-mini", adapter=FakeAdapter(), max_tool_calls=bad)  # type: ignore[arg-type]


def test_run_executes_at_most_the_cap_of_100_000_native_calls() -> None:
    """Issue 12: `run()` executed 100,000 native calls of one answer; now 128, and one rejection says the rest."""
    path = Path("flood", [many("native_tools", 100_000)], {"mode": "native_tools", "max_repairs": 0})
    first = run(path, False)
    assert len(RAN) == 128
    assert "99872 more tool call(s) than max_tool_calls=128" in first.rejected[-1].reason
