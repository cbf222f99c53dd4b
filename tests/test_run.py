"""`client.run`, the tool loop, driven by a scripted provider (`FakeAdapter`).

The loop's decisions: which calls run (only tools given with a function, with validated
arguments), what goes back to the model (results, errors, refusals), when it stops, how async
tools run, and that a fault between steps never runs a tool twice.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import inspect
import sys
import threading
from collections.abc import Callable
from typing import Any

import pydantic
import pytest

import llmrelay
from llmrelay import AsyncClient, Client, Message, ToolCall, Usage, errors
from llmrelay._tool_loop.execute import encode
from llmrelay._types import NativeCall, RawResponse
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import FakeAdapter

STEP_USAGE = Usage(10, 5, 15)  # What FakeAdapter reports for each answer.


def answer(*calls: NativeCall, text: str = "") -> RawResponse:
    """A native answer making `calls` (several: parallel calls)."""
    return RawResponse("fake", "gpt-4o-mini", text, calls, "tool_calls", STEP_USAGE)


def call(name: str, arguments: str, call_id: str) -> NativeCall:
    return NativeCall(name, arguments, call_id)


def client(fake: FakeAdapter, cls: type[Any] = Client, **options: Any) -> Any:
    return cls("openai:gpt-4o-mini", api_key="k", adapter=fake, learner=CapabilityLearner(), **options)


class Calls:
    """Records what each tool was called with."""

    def __init__(self) -> None:
        self.made: list[tuple[str, dict[str, Any]]] = []

    def weather(self) -> Callable[..., dict[str, Any]]:
        def get_weather(city: str) -> dict[str, Any]:
            """Weather for a city."""
            self.made.append(("get_weather", {"city": city}))
            if city == "Atlantis":
                raise ValueError("no such city: Atlantis")
            return {"city": city, "temp_c": 21}

        return get_weather


# --- one run, end to end --------------------------------------------------------------------


def test_a_run_runs_the_call_feeds_the_result_back_and_stops_when_the_model_is_done() -> None:
    calls = Calls()
    fake = FakeAdapter([answer(call("get_weather", '{"city": "Paris"}', "call_1")), "It is 21C in Paris."])

    result = client(fake).run("Weather in Paris?", tools=[calls.weather()])

    assert calls.made == [("get_weather", {"city": "Paris"})]
    assert (result.stop_reason, result.content, result.pending_calls) == ("done", "It is 21C in Paris.", [])
    asked = ToolCall("get_weather", {"city": "Paris"}, "call_1")
    assert result.messages == [
        Message("user", "Weather in Paris?"),
        Message("assistant", "", (asked,)),
        Message("tool", '{"city": "Paris", "temp_c": 21}', tool_call_id="call_1", name="get_weather"),
        Message("assistant", "It is 21C in Paris."),
    ]
    assert list(fake.requests[1].messages) == result.messages[:3]  # The second step saw the result.
    assert fake.requests[1].tools == fake.requests[0].tools
    [first, last] = result.steps
    assert [(e.call, e.value, e.error, e.ran) for e in first.executions] == [
        (asked, {"city": "Paris", "temp_c": 21}, None, True)
    ]
    assert (last.completion, last.executions) == (result.completion, [])
    assert result.usage == STEP_USAGE + STEP_USAGE


def test_usage_sums_every_step_including_each_steps_repairs() -> None:
    fake = FakeAdapter(
        [
            answer(call("get_weather", '{"town": "Paris"}', "bad")),  # Invalid: repaired within step 1.
            answer(call("get_weather", '{"city": "Paris"}', "call_1")),
            RawResponse("fake", "gpt-4o-mini", "Sunny.", finish_reason="stop", usage=Usage(100, 7, 107)),
        ]
    )
    result = client(fake).run("Weather?", tools=[Calls().weather()])
    assert [len(step.completion.attempts) for step in result.steps] == [2, 1]
    assert result.usage == Usage(120, 17, 137)


def test_parameters_and_tool_choice_go_to_every_step() -> None:
    fake = FakeAdapter([answer(call("get_weather", '{"city": "Oslo"}', "c")), "Cold."])
    client(fake).run("Weather?", tools=[Calls().weather()], tool_choice="auto", temperature=0)
    assert [(r.params, r.tool_choice) for r in fake.requests] == [({"temperature": 0}, "auto")] * 2


def test_run_has_the_same_signature_on_both_clients() -> None:
    assert inspect.signature(Client.run) == inspect.signature(AsyncClient.run)


# --- what runs, with what -------------------------------------------------------------------


class Party(pydantic.BaseModel):
    name: str
    size: int


def test_a_function_gets_its_arguments_as_its_signature_types_them() -> None:
    received: list[dict[str, Any]] = []

    def book(day: datetime.date, party: Party, note: str = "none") -> str:
        """Book a table."""
        received.append({"day": day, "party": party, "note": note})
        return "booked"

    arguments = '{"day": "2026-12-01", "party": {"name": "Ann", "size": "4"}}'
    fake = FakeAdapter([answer(call("book", arguments, "c")), "Done."])
    client(fake).run("Book for Ann, 4 people, Dec 1st.", tools=[book])
    assert received == [{"day": datetime.date(2026, 12, 1), "party": Party(name="Ann", size=4), "note": "none"}]
    assert isinstance(received[0]["party"], Party)


@pytest.mark.parametrize(
    ("case", "native", "reason"),
    [
        ("unknown tool", call("delete_everything", "{}", "c1"), "unknown tool 'delete_everything'"),
        ("invalid arguments", call("get_weather", '{"city": ["Paris"]}', "c1"), "invalid arguments for tool"),
        ("unreadable arguments", call("get_weather", '{"city": "Par', "c1"), "get_weather"),
    ],
)
def test_a_call_still_rejected_after_repairs_never_runs_and_the_model_is_told(
    case: str, native: NativeCall, reason: str
) -> None:
    calls = Calls()
    fake = FakeAdapter([answer(native), "Sorry, I cannot."])

    # One mode, no repairs: the answer is returned with its rejection (else the plan falls back).
    result = client(fake, max_repairs=0).run("Weather?", tools=[calls.weather()], mode="native_tools")

    assert calls.made == []
    [refused] = result.steps[0].executions
    assert (refused.ran, refused.call.id, refused.call.name) == (False, "c1", native.name)
    assert reason in (refused.error or "") and refused.output.startswith("Error: not run: ")
    assistant, tool_result = fake.requests[1].messages[1:]
    assert assistant.tool_calls == (refused.call,)  # The call as made, answered under its own id.
    assert (tool_result.role, tool_result.tool_call_id, tool_result.content) == ("tool", "c1", refused.output)
    assert result.stop_reason == "done"


def test_without_tools_a_call_the_model_writes_anyway_is_not_run_and_the_model_is_told() -> None:
    fake = FakeAdapter(['<tool_call>{"name": "shell", "arguments": {"cmd": "rm -rf /"}}</tool_call>', "Understood."])

    result = client(fake).run("Clean up my disk.")

    [refused] = result.steps[0].executions
    assert (refused.ran, refused.error) == (False, "there is no tool named 'shell'")
    assert fake.requests[1].messages[-1] == Message(
        "tool", refused.output, tool_call_id=refused.call.id, name="shell", is_error=True
    )  # Issue 14: a refused call goes back flagged as an error.
    assert (result.stop_reason, result.content) == ("done", "Understood.")


def test_a_tool_given_without_a_function_is_not_run_but_returned_pending() -> None:
    calls = Calls()
    ask_human = {"name": "ask_human", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}
    both = answer(call("get_weather", '{"city": "Paris"}', "w"), call("ask_human", '{"q": "Umbrella?"}', "h"))
    fake = FakeAdapter([both, "Take an umbrella."])

    result = client(fake).run("Should I take an umbrella?", tools=[calls.weather(), ask_human])

    assert calls.made == [("get_weather", {"city": "Paris"})]  # The function tool of the step still ran.
    assert (result.stop_reason, result.pending_calls) == (
        "pending_calls",
        [ToolCall("ask_human", {"q": "Umbrella?"}, "h")],
    )
    assert [m.tool_call_id for m in result.messages if m.role == "tool"] == ["w"]
    assert len(fake.requests) == 1

    answered = [*result.messages, Message("tool", "yes", tool_call_id="h", name="ask_human")]
    resumed = client(fake).run(answered, tools=[calls.weather(), ask_human])
    assert (resumed.stop_reason, resumed.content, len(calls.made)) == ("done", "Take an umbrella.", 1)


# --- tool errors ----------------------------------------------------------------------------


def test_a_tool_exception_goes_back_to_the_model_as_an_error_result() -> None:
    fake = FakeAdapter([answer(call("get_weather", '{"city": "Atlantis"}', "c")), "That city does not exist."])
    result = client(fake).run("Weather in Atlantis?", tools=[Calls().weather()])
    [failed] = result.steps[0].executions
    assert (failed.error, failed.output, failed.value) == (
        "ValueError: no such city: Atlantis",
        "Error: ValueError: no such city: Atlantis",
        None,
    )
    assert isinstance(failed.exception, ValueError)
    assert fake.requests[1].messages[-1] == Message(
        "tool", failed.output, tool_call_id="c", name="get_weather", is_error=True
    )  # Issue 14: flagged, for the providers that have a flag.
    assert result.stop_reason == "done"


def test_raise_tool_errors_raises_once_the_steps_other_calls_have_run() -> None:
    calls = Calls()
    fake = FakeAdapter(
        [answer(call("get_weather", '{"city": "Atlantis"}', "a"), call("get_weather", '{"city": "Rome"}', "r"))]
    )
    with pytest.raises(ValueError, match="no such city") as caught:
        client(fake).run("Weather?", tools=[calls.weather()], raise_tool_errors=True)
    assert calls.made == [("get_weather", {"city": "Atlantis"}), ("get_weather", {"city": "Rome"})]
    assert len(fake.requests) == 1
    if sys.version_info >= (3, 11):
        assert "tool 'get_weather' (call a) in step 1 of client.run" in caught.value.__notes__[0]


@pytest.mark.parametrize(
    ("value", "output"),
    [
        ("21C, sunny", "21C, sunny"),  # A string goes as it is, not JSON-quoted.
        ({"temp": 21, "sky": "sunny"}, '{"temp": 21, "sky": "sunny"}'),
        ([1, 2.5, None, True], "[1, 2.5, null, true]"),
        (None, "null"),
        (Party(name="Zoë", size=2), '{"name": "Zoë", "size": 2}'),
        ({"when": datetime.date(2026, 1, 2)}, '{"when": "2026-01-02"}'),
        (dataclasses.make_dataclass("Point", ["x", "y"])(1, 2), '{"x": 1, "y": 2}'),
    ],
    ids=["str", "dict", "list", "none", "pydantic", "date", "dataclass"],
)
def test_a_result_goes_back_as_a_string_or_as_json(value: Any, output: str) -> None:
    assert encode(value) == output


# --- async tools ----------------------------------------------------------------------------


def meeting(count: int) -> tuple[Callable[..., Any], list[str]]:
    """An async tool that only returns once `count` calls are inside it at the same time."""
    inside: list[str] = []
    everyone: dict[str, asyncio.Event] = {}

    async def wait_for_others(name: str) -> str:
        """Wait in the meeting room."""
        event = everyone.setdefault("event", asyncio.Event())
        inside.append(name)
        if len(inside) == count:
            event.set()
        await asyncio.wait_for(event.wait(), timeout=5)  # One call at a time would wait here forever.
        return f"{name} met everyone"

    return wait_for_others, inside


def two_meeting_calls() -> RawResponse:
    return answer(call("wait_for_others", '{"name": "ann"}', "a"), call("wait_for_others", '{"name": "bob"}', "b"))


async def test_async_client_runs_a_steps_async_calls_concurrently() -> None:
    tool, _ = meeting(2)
    result = await client(FakeAdapter([two_meeting_calls(), "Met."]), AsyncClient).run("Meet.", tools=[tool])
    assert [e.output for e in result.steps[0].executions] == ["ann met everyone", "bob met everyone"]


def test_sync_client_runs_a_steps_async_calls_concurrently_on_a_loop_of_its_own() -> None:
    tool, _ = meeting(2)
    result = client(FakeAdapter([two_meeting_calls(), "Met."])).run("Meet.", tools=[tool])
    assert [e.output for e in result.steps[0].executions] == ["ann met everyone", "bob met everyone"]


async def test_async_client_runs_sync_tools_in_threads_concurrently() -> None:
    barrier = threading.Barrier(2, timeout=5)  # Broken (an error) unless both calls wait at once.
    threads: set[str] = set()

    def wait_at_barrier(name: str) -> str:
        """Wait for the other caller."""
        threads.add(threading.current_thread().name)
        barrier.wait()
        return name

    both = answer(call("wait_at_barrier", '{"name": "ann"}', "a"), call("wait_at_barrier", '{"name": "bob"}', "b"))
    result = await client(FakeAdapter([both, "Done."]), AsyncClient).run("Go.", tools=[wait_at_barrier])
    assert [(e.output, e.error) for e in result.steps[0].executions] == [("ann", None), ("bob", None)]
    assert threading.current_thread().name not in threads


async def test_sync_client_refuses_async_tools_inside_a_running_loop_before_any_request() -> None:
    tool, _ = meeting(1)
    fake = FakeAdapter(["never sent"])
    with pytest.raises(errors.ConfigError, match=r"async tool\(s\) wait_for_others .* use AsyncClient.run"):
        client(fake).run("Meet.", tools=[tool])
    assert fake.requests == []


async def test_sync_client_runs_sync_tools_inside_a_running_loop() -> None:
    fake = FakeAdapter([answer(call("get_weather", '{"city": "Oslo"}', "c")), "Cold."])
    assert client(fake).run("Weather?", tools=[Calls().weather()]).content == "Cold."


# --- when the loop stops ---------------------------------------------------------------------


def test_max_steps_returns_after_that_many_answers_with_their_calls_run() -> None:
    calls = Calls()
    fake = FakeAdapter([answer(call("get_weather", f'{{"city": "C{n}"}}', f"c{n}")) for n in range(3)])

    result = client(fake).run("Weather everywhere?", tools=[calls.weather()], max_steps=3)

    assert (result.stop_reason, len(result.steps), len(fake.requests), len(calls.made)) == ("max_steps", 3, 3, 3)
    assert result.messages[-1] == Message("tool", '{"city": "C2", "temp_c": 21}', tool_call_id="c2", name="get_weather")
    fake.add("Done at last.")
    resumed = client(fake).run(result.messages, tools=[calls.weather()])  # A complete transcript: it goes on.
    assert (resumed.stop_reason, resumed.content, len(calls.made)) == ("done", "Done at last.", 3)


@pytest.mark.parametrize("max_steps", [0, -1])
def test_max_steps_below_one_is_a_config_error(max_steps: int) -> None:
    with pytest.raises(errors.ConfigError, match="max_steps must be at least 1"):
        client(FakeAdapter()).run("Hi", tools=[Calls().weather()], max_steps=max_steps)


def test_an_answer_saying_no_more_work_stops_once_its_calls_have_run() -> None:
    sent: list[str] = []

    def notify(text: str) -> str:
        """Send a notification."""
        sent.append(text)
        return "sent"

    envelope = (
        '{"toolCalls": [{"name": "notify", "arguments": {"text": "hi"}}], "content": "Sent.", "needsMoreWork": false}'
    )
    fake = FakeAdapter([envelope])
    result = client(fake).run("Say hi.", tools=[notify], mode="text")
    assert (sent, result.stop_reason, result.content, len(fake.requests)) == (["hi"], "done", "Sent.", 1)


# --- strict: an example in prose is never a call ----------------------------------------------


def delete_file_tool() -> tuple[Callable[..., str], list[str]]:
    deleted: list[str] = []

    def delete_file(path: str) -> str:
        """Delete a file."""
        deleted.append(path)
        return "deleted"

    return delete_file, deleted


EXAMPLES = [
    'To delete a file, I would send {"name": "delete_file", "arguments": {"path": "/etc/hosts"}} and it is gone.',
    'Here is how a call looks:\n```json\n{"name": "delete_file", "arguments": {"path": "/etc/hosts"}}\n```\nShall I?',
]


@pytest.mark.parametrize("text", EXAMPLES, ids=["inline", "fenced"])
def test_a_call_quoted_as_an_example_in_prose_is_never_run(text: str) -> None:
    delete_file, deleted = delete_file_tool()
    # Read leniently (complete()'s default), this text is a call: only the loop's strictness stops it.
    assert [c.name for c in llmrelay.parse_response(text, tools=[delete_file]).tool_calls] == ["delete_file"]
    fake = FakeAdapter([text])

    result = client(fake).run("How do I delete a file with your tools?", tools=[delete_file], mode="text")

    assert deleted == []
    assert (result.stop_reason, result.content, len(fake.requests)) == ("done", text, 1)  # And no repair asked.
    assert result.messages[-1] == Message("assistant", text)


def test_a_real_call_in_text_mode_runs_and_is_given_an_id_to_pair_its_result() -> None:
    delete_file, deleted = delete_file_tool()
    fake = FakeAdapter(['<tool_call>{"name": "delete_file", "arguments": {"path": "/tmp/x"}}</tool_call>', "Gone."])

    result = client(fake).run("Delete /tmp/x.", tools=[delete_file], mode="text")

    assert deleted == ["/tmp/x"]
    [made] = result.steps[0].completion.tool_calls
    assert made.id and result.messages[1].tool_calls == (made,)
    assert result.messages[2] == Message("tool", "deleted", tool_call_id=made.id, name="delete_file")


# --- a fault between steps never runs a tool twice ------------------------------------------


def test_a_transient_fault_on_step_two_is_retried_without_running_step_ones_tools_again() -> None:
    calls = Calls()
    fault = errors.ServerError("internal error", provider="openai", model="gpt-4o-mini", status=500)
    fake = FakeAdapter([answer(call("get_weather", '{"city": "Paris"}', "c")), fault, "Sunny."])

    result = client(fake).run("Weather?", tools=[calls.weather()])

    assert calls.made == [("get_weather", {"city": "Paris"})]
    assert [a.outcome for a in result.steps[1].completion.attempts] == ["retry", "ok"]
    assert fake.requests[1] == fake.requests[2]  # The retry resent the same transcript.
    assert result.content == "Sunny."


async def test_a_failure_mid_run_carries_the_run_so_far_and_resuming_runs_no_tool_twice() -> None:
    calls = Calls()
    denied = errors.AuthenticationError("invalid key", provider="openai", model="gpt-4o-mini", status=401)
    fake = FakeAdapter([answer(call("get_weather", '{"city": "Paris"}', "c")), denied])

    with pytest.raises(errors.AuthenticationError) as caught:
        await client(fake, AsyncClient).run("Weather?", tools=[calls.weather()])

    partial = caught.value.partial_run
    assert partial is not None and partial.stop_reason == "error"
    assert partial.messages[-1] == Message(
        "tool", '{"city": "Paris", "temp_c": 21}', tool_call_id="c", name="get_weather"
    )
    fake.add("Sunny.")
    resumed = await client(fake, AsyncClient).run(partial.messages, tools=[calls.weather()])
    assert (resumed.content, calls.made) == ("Sunny.", [("get_weather", {"city": "Paris"})])


def test_a_failure_on_the_first_request_has_no_partial_run() -> None:
    denied = errors.AuthenticationError("invalid key", provider="openai", status=401)
    with pytest.raises(errors.AuthenticationError) as caught:
        client(FakeAdapter([denied])).run("Weather?", tools=[Calls().weather()])
    assert caught.value.partial_run is None
