"""The Responses API adapter (`openai-responses:`): request bodies, answers, errors, reasoning round trips.

Answers are written in the shapes of the conformance recordings (`responses/cassettes/openai-responses/`)
and the openai SDK's `types/responses/`; the recordings themselves replay in tests/conformance/.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx
import openai
import pytest

import llmrelay
from llmrelay import errors
from llmrelay._envelope import Artifact, ToolCall, Usage
from llmrelay._instructions import envelope_schema
from llmrelay._types import Message, NamedTool, NativeCall, RawResponse, Request
from llmrelay.adapters import ProviderOptions, adapter_class
from llmrelay.adapters._schemas import for_openai_strict
from llmrelay.adapters.openai_responses import OpenAIResponsesAdapter
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

from .openai_bodies import FAKE_KEY, LONG_ID, LONG_ID_MAPPED, WEATHER, assert_no_key, clean_environment, run, sent

URL = "https://api.openai.com/v1/responses"
USER_TURN = {"role": "user", "content": "Weather in Paris?"}
USER = Message("user", "Weather in Paris?")
WEATHER_WIRE = {
    "type": "function",
    "name": "get_weather",
    "description": WEATHER.description,
    "parameters": dict(WEATHER.parameters),
    "strict": False,
}


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clean_environment(monkeypatch)


@pytest.fixture(params=["sync", "async"])
def how(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def adapter() -> OpenAIResponsesAdapter:
    return OpenAIResponsesAdapter(ProviderOptions(api_key=FAKE_KEY))


def test_registered_under_its_provider_id_with_openai_capabilities() -> None:
    assert adapter_class("openai-responses") is OpenAIResponsesAdapter
    caps = llmrelay.capabilities.lookup("openai-responses", "gpt-5")
    assert (caps.native_tools, caps.json_schema, caps.json_object, caps.parallel_tool_calls) == (True,) * 4


# --- what is sent --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BodyCase:
    id: str
    request: Request
    expected: dict[str, Any]


REASONED = Artifact(
    "openai-responses",
    "response",
    {
        "id": "resp_1",
        "items": [
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA-opaque"},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{}"},
        ],
    },
)
CALLED = Message("assistant", "", (ToolCall("get_weather", {"city": "Paris"}, "call_1"),))
RESULT = Message("tool", "18C", tool_call_id="call_1", name="get_weather")
RESULT_ITEM = {"type": "function_call_output", "call_id": "call_1", "output": "18C"}
CALL_ITEM = {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'}

BODY_CASES = [
    BodyCase(
        "text: the leading system turn is the instructions",
        Request("gpt-5", (Message("system", "Be brief."), USER), "text", params={"max_tokens": 50}),
        {"model": "gpt-5", "instructions": "Be brief.", "input": [{"role": "user", "content": USER.content}],
         "max_output_tokens": 50},
    ),
    BodyCase(
        "native tools: function tools, not strict; a named tool_choice; parallel calls kept",
        Request("gpt-5", (USER,), "native_tools", (WEATHER,), NamedTool("get_weather"), {"parallel_tool_calls": False}),
        {"model": "gpt-5", "input": [{"role": "user", "content": USER.content}], "parallel_tool_calls": False,
         "tools": [WEATHER_WIRE], "tool_choice": {"type": "function", "name": "get_weather"}},
    ),
    BodyCase(
        "native tools: calls and results paired by call_id; a too-long id mapped the same way in both",
        Request(
            "gpt-5",
            (USER, Message("assistant", "Let me look.", (ToolCall("get_weather", {"city": "Paris"}, LONG_ID),)),
             Message("tool", "18C", tool_call_id=LONG_ID), Message("system", "Use Celsius.")),
            "native_tools",
            (WEATHER,),
            "required",
        ),
        {"model": "gpt-5",
         "input": [{"role": "user", "content": USER.content}, {"role": "assistant", "content": "Let me look."},
                   {**CALL_ITEM, "call_id": LONG_ID_MAPPED},
                   {"type": "function_call_output", "call_id": LONG_ID_MAPPED, "output": "18C"},
                   {"role": "system", "content": "Use Celsius."}],
         "tools": [WEATHER_WIRE], "tool_choice": "required"},
    ),
    BodyCase(
        "json_schema: the envelope, strict, in text.format; parallel_tool_calls dropped without tools",
        Request("gpt-5", (USER,), "json_schema", params={"parallel_tool_calls": True}),
        {"model": "gpt-5", "input": [{"role": "user", "content": USER.content}],
         "text": {"format": {"type": "json_schema", "name": "envelope", "schema": for_openai_strict(envelope_schema(())),
                             "strict": True}}},
    ),
    BodyCase(
        "json_object: the word json added, text.format json_object",
        Request("gpt-5", (USER,), "json_object"),
        {"model": "gpt-5", "instructions": "Answer with a JSON object.", "input": [{"role": "user", "content": USER.content}],
         "text": {"format": {"type": "json_object"}}},
    ),
    BodyCase(
        "store=False asks for encrypted reasoning; reasoning_effort is reasoning.effort",
        Request("gpt-5", (USER,), "text", params={"store": False, "reasoning_effort": "low"}),
        {"model": "gpt-5", "input": [{"role": "user", "content": USER.content}], "store": False,
         "include": ["reasoning.encrypted_content"], "reasoning": {"effort": "low"}},
    ),
    BodyCase(
        "previous_response_id passes through",
        Request("gpt-5", (USER,), "text", params={"previous_response_id": "resp_1"}),
        {"model": "gpt-5", "input": [{"role": "user", "content": USER.content}], "previous_response_id": "resp_1"},
    ),
    BodyCase(
        "a turn with its reasoning artifact goes back as its output items, in their order",
        Request("gpt-5", (USER, Message("assistant", "", CALLED.tool_calls, artifacts=(REASONED,)), RESULT),
                "native_tools", (WEATHER,)),
        {"model": "gpt-5", "input": [{"role": "user", "content": USER.content}, *REASONED.data["items"], RESULT_ITEM],
         "tools": [WEATHER_WIRE]},
    ),
    BodyCase(
        "an edited turn leaves its reasoning out (it would be refused without the items that followed it)",
        Request("gpt-5", (USER, Message("assistant", "edited", CALLED.tool_calls, artifacts=(REASONED,)), RESULT),
                "native_tools", (WEATHER,)),
        {"model": "gpt-5", "input": [{"role": "user", "content": USER.content}, {"role": "assistant", "content": "edited"},
                                     CALL_ITEM, RESULT_ITEM], "tools": [WEATHER_WIRE]},
    ),
    BodyCase(
        "another provider's artifact is never sent",
        Request("gpt-5", (USER, Message("assistant", "", CALLED.tool_calls,
                                        artifacts=(Artifact("azure", "response", REASONED.data),)), RESULT),
                "native_tools", (WEATHER,)),
        {"model": "gpt-5", "input": [{"role": "user", "content": USER.content}, CALL_ITEM, RESULT_ITEM],
         "tools": [WEATHER_WIRE]},
    ),
]  # fmt: skip


@pytest.mark.parametrize("case", BODY_CASES, ids=lambda c: c.id)
def test_request_body(case: BodyCase, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=TEXT_ANSWER)
        run(adapter(), case.request, how)
        assert sent(router) == case.expected


# --- what comes back -----------------------------------------------------------------------------------


def message(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": list(parts)}


def response(*output: dict[str, Any], status: str = "completed", **fields: Any) -> dict[str, Any]:
    usage = {"input_tokens": 40, "input_tokens_details": {"cached_tokens": 32}, "output_tokens": 18,
             "output_tokens_details": {"reasoning_tokens": 10}, "total_tokens": 58}  # fmt: skip
    return {"id": "resp_1", "object": "response", "model": "gpt-5-2025-08-07", "status": status,
            "output": list(output), "usage": usage, "error": None, "incomplete_details": None, **fields}  # fmt: skip


TEXT = {"type": "output_text", "text": "The capital of France is Paris.", "annotations": []}
TEXT_ANSWER = response(message(TEXT))
CALL = {"type": "function_call", "id": "fc_1", "call_id": "call_YfwR", "name": "get_weather",
        "arguments": '{"city":"Paris"}', "status": "completed"}  # fmt: skip
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA-opaque"}
USAGE = Usage(40, 18, 58, cached_input_tokens=32, reasoning_tokens=10)


@dataclass(frozen=True)
class AnswerCase:
    id: str
    body: dict[str, Any]
    text: str
    calls: tuple[NativeCall, ...]
    finish: str | None
    artifacts: tuple[Artifact, ...] = field(
        default=(Artifact("openai-responses", "response", {"id": "resp_1", "items": []}),)
    )


ANSWER_CASES = [
    AnswerCase("text", TEXT_ANSWER, TEXT["text"], (), "stop"),
    AnswerCase(
        "reasoning, then two calls: the call_id is the id; the items kept for the next turn",
        response(REASONING, CALL, {**CALL, "id": "fc_2", "call_id": "call_2"}),
        "",
        (NativeCall("get_weather", '{"city":"Paris"}', "call_YfwR"), NativeCall("get_weather", '{"city":"Paris"}', "call_2")),
        "tool_calls",
        (Artifact("openai-responses", "response",
                  {"id": "resp_1", "items": [REASONING, CALL, {**CALL, "id": "fc_2", "call_id": "call_2"}]}),),
    ),
    AnswerCase(
        "incomplete at max_output_tokens: length, the text so far kept",
        response(message({**TEXT, "text": "The capital"}), status="incomplete",
                 incomplete_details={"reason": "max_output_tokens"}),
        "The capital",
        (),
        "length",
    ),
    AnswerCase(
        "incomplete by the content filter",
        response(status="incomplete", incomplete_details={"reason": "content_filter"}), "", (), "content_filter",
    ),
    AnswerCase(
        "a refusal is the content, and the finish says so",
        response(message({"type": "refusal", "refusal": "I can't help with that."})),
        "I can't help with that.",
        (),
        "refusal",
    ),
]  # fmt: skip


@pytest.mark.parametrize("case", ANSWER_CASES, ids=lambda c: c.id)
def test_answer(case: AnswerCase, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=case.body, headers={"x-request-id": "req_1"})
        raw = run(adapter(), Request("gpt-5", (USER,), "native_tools", (WEATHER,)), how)
    expected = RawResponse(
        "openai-responses", "gpt-5-2025-08-07", case.text, case.calls, case.finish, USAGE, "req_1", case.body,
        case.artifacts,
    )  # fmt: skip
    assert raw == expected


FINISHES = [("stop", "stop"), ("tool_calls", "tool_calls"), ("length", "length"), ("content_filter", "content_filter"),
            ("refusal", "content_filter")]  # fmt: skip


@pytest.mark.parametrize(("case", "normalized"), [(c, n) for c in ANSWER_CASES for f, n in FINISHES if c.finish == f])
def test_completion_finish_reason_and_usage(case: AnswerCase, normalized: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=case.body)
        client = llmrelay.Client("openai-responses:gpt-5", api_key=FAKE_KEY, max_repairs=0, learner=CapabilityLearner())
        result = client.complete("Weather in Paris?", tools=[WEATHER])
    assert (result.finish_reason, result.provider_finish_reason, result.usage) == (normalized, case.finish, USAGE)
    assert result.artifacts == case.artifacts


# --- errors --------------------------------------------------------------------------------------------

ERROR_CASES = [
    (400, {"error": {"message": "The requested model 'gpt-5.2-proo' does not exist.", "type": "invalid_request_error",
                     "param": "model", "code": "model_not_found"}}, errors.BadRequestError, "model_not_found"),
    (401, {"error": {"message": f"Incorrect API key provided: {FAKE_KEY}.", "type": "invalid_request_error",
                     "code": "invalid_api_key"}}, errors.AuthenticationError, "invalid_api_key"),
    (429, {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}},
     errors.RateLimitError, "rate_limit_exceeded"),
    (200, response(status="failed", error={"code": "server_error", "message": "The model failed."}),
     errors.ServerError, "server_error"),
]  # fmt: skip


@pytest.mark.parametrize(("status", "body", "error", "code"), ERROR_CASES, ids=lambda v: str(v)[:30])
def test_errors(status: int, body: dict[str, Any], error: type[errors.ProviderError], code: str, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(status, json=body, headers={"x-request-id": "req_9"})
        with pytest.raises(errors.ProviderError) as caught:
            run(adapter(), Request("gpt-5", (USER,), "text"), how)
    assert type(caught.value) is error
    assert (caught.value.provider, caught.value.code, caught.value.request_id) == ("openai-responses", code, "req_9")
    assert_no_key(caught.value, repr(caught.value), caught.value.body)
    assert isinstance(caught.value.__cause__, openai.APIStatusError) or status == 200


def test_sdk_retries_are_off() -> None:
    with mock_http() as router:
        route = router.post(URL).respond(503, json={"error": {"message": "busy", "type": "server_error"}})
        with pytest.raises(errors.OverloadedError):
            adapter().send(Request("gpt-5", (USER,), "text"))
    assert route.call_count == 1


# --- reasoning across turns, through the client --------------------------------------------------------


def test_a_tool_loop_sends_the_reasoning_back_before_its_call() -> None:
    """The second request holds the reasoning item (encrypted) and the call it preceded, then the result."""
    first = response(REASONING, CALL)
    with mock_http() as router:
        router.post(URL).mock(side_effect=[httpx.Response(200, json=first), httpx.Response(200, json=TEXT_ANSWER)])
        client = llmrelay.Client("openai-responses:gpt-5", api_key=FAKE_KEY, learner=CapabilityLearner())
        called = client.complete([USER_TURN], tools=[WEATHER], store=False)
        (call,) = called.tool_calls
        tool_turn = {"role": "tool", "tool_call_id": call.id, "content": "18C"}
        final = client.complete([USER_TURN, called, tool_turn], tools=[WEATHER], store=False)
        second = sent(router, 1)
    assert final.content == TEXT["text"]
    assert second["input"] == [
        {"role": "user", "content": "Weather in Paris?"},
        REASONING,
        CALL,
        {"type": "function_call_output", "call_id": "call_YfwR", "output": "18C"},
    ]
    assert second["include"] == ["reasoning.encrypted_content"]


def test_reasoning_never_crosses_to_another_provider() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=response(REASONING, CALL))
        chat = router.post("https://api.openai.com/v1/chat/completions").respond(
            200, json={"choices": [{"message": {"content": "18C"}, "finish_reason": "stop"}]}
        )
        called = llmrelay.Client("openai-responses:gpt-5", api_key=FAKE_KEY).complete([USER_TURN], tools=[WEATHER])
        tool_turn = {"role": "tool", "tool_call_id": "call_YfwR", "content": "18C"}
        llmrelay.Client("openai:gpt-4o", api_key=FAKE_KEY).complete([USER_TURN, called, tool_turn], tools=[WEATHER])
        assert chat.called
        assert "gAAA-opaque" not in json.dumps(sent(router, 1))


# --- streams (the shared cut-off and dropped-connection cases are in test_providers_stream) -------------


def event(name: str, **data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n"


def streamed(body: str) -> tuple[list[llmrelay.StreamEvent], llmrelay.Completion | errors.ProviderError]:
    events: list[llmrelay.StreamEvent] = []
    with mock_http() as router:
        router.post(URL).respond(200, text=body, headers={"content-type": "text/event-stream"})
        client = llmrelay.Client(
            "openai-responses:gpt-5", api_key=FAKE_KEY, learner=CapabilityLearner(), max_plan_steps=1
        )
        try:
            events += client.stream([USER_TURN], tools=[WEATHER])
        except errors.ProviderError as exc:
            return events, exc
    end = events[-1]
    assert isinstance(end, llmrelay.StreamEnd)
    return events, end.completion


INCOMPLETE = response(message({**TEXT, "text": "The cap"}), status="incomplete",
                      incomplete_details={"reason": "max_output_tokens"})  # fmt: skip
STREAM_CASES = [
    (
        "incomplete: the text so far, finish length",
        event("response.output_text.delta", output_index=0, delta="The cap")
        + event("response.incomplete", response=INCOMPLETE),
        ("The cap", [], "length"),
    ),
    (
        "a refusal streams as the content",
        event("response.refusal.delta", output_index=0, delta="I can't help.")
        + event("response.completed", response=response(message({"type": "refusal", "refusal": "I can't help."}))),
        ("I can't help.", [], "refusal"),
    ),
    (
        "a call whose arguments come only in output_item.done",
        event("response.output_item.added", output_index=0, item={**CALL, "arguments": ""})
        + event("response.output_item.done", output_index=0, item=CALL)
        + event("response.completed", response=response(CALL)),
        ("", [ToolCall("get_weather", {"city": "Paris"}, "call_YfwR")], "tool_calls"),
    ),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in STREAM_CASES], ids=[c[0] for c in STREAM_CASES])
def test_stream_answers(body: str, expected: tuple[str, list[ToolCall], str]) -> None:
    events, result = streamed(body)
    assert isinstance(result, llmrelay.Completion)
    assert (result.content, result.tool_calls, result.provider_finish_reason) == expected
    assert "".join(e.text for e in events if isinstance(e, llmrelay.TextDelta)) == expected[0]


ERROR_EVENTS = [
    ("an error event", event("error", code="server_error", message="The server had an error.", param=None)),
    ("a failed response", event("response.failed", response=response(
        status="failed", error={"code": "server_error", "message": "The server had an error."}))),
]  # fmt: skip


@pytest.mark.parametrize("body", [c[1] for c in ERROR_EVENTS], ids=[c[0] for c in ERROR_EVENTS])
def test_stream_errors_are_typed(body: str) -> None:
    _, result = streamed(body)
    assert isinstance(result, errors.ServerError)
    assert (result.provider, result.code, result.message) == (
        "openai-responses",
        "server_error",
        "The server had an error.",
    )


def test_a_stream_without_its_end_event_is_a_connection_error() -> None:
    _, result = streamed(event("response.output_text.delta", output_index=0, delta="Hi"))
    assert isinstance(result, errors.ProviderConnectionError | llmrelay.StreamInterrupted)
