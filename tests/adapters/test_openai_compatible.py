from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import httpx
import openai
import pytest

import llmrelay
from llmrelay import errors
from llmrelay._envelope import Usage
from llmrelay._types import Message, NativeCall, RawResponse, Request
from llmrelay.adapters import ProviderOptions, adapter_class
from llmrelay.adapters.openai_compatible import OpenAICompatibleAdapter
from llmrelay.testing import mock_http

from .openai_bodies import (
    CEREBRAS_TOOL_CALL,
    CLOCK,
    FAKE_KEY,
    FLIGHT,
    GEMINI_3_COMPAT_SIGNED,
    GEMINI_COMPAT_NO_ID,
    GEMINI_COMPAT_URL,
    HOME_HEADERS,
    SIGNATURE,
    SIGNED_ELSEWHERE,
    SIGNED_STEP,
    SIGNED_STEP_CALLS_WIRE,
    USER,
    AnswerCase,
    BodyCase,
    ErrorCase,
    Flavour,
    assert_no_key,
    assert_only_given_headers,
    body_cases,
    check_error,
    clean_environment,
    run,
    sent,
    serve,
    signed_wire,
    without_body,
)

BASE_URL = "http://localhost:11434/v1"
URL = f"{BASE_URL}/chat/completions"
MODEL = "qwen3:8b"
HELLO = Request(MODEL, (Message("user", "Hello"),), "text")
TEXT = {"model": MODEL, "choices": [{"message": {"role": "assistant", "content": "Hi."}, "finish_reason": "stop"}]}


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clean_environment(monkeypatch)


@pytest.fixture(params=["sync", "async"])
def how(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def adapter(**options: Any) -> OpenAICompatibleAdapter:
    return OpenAICompatibleAdapter(ProviderOptions(**{"base_url": BASE_URL, **options}))


def test_registered_under_its_provider_id() -> None:
    assert adapter_class("openai-compatible") is OpenAICompatibleAdapter


def test_base_url_is_required() -> None:
    with pytest.raises(errors.ConfigError, match="base_url"):
        OpenAICompatibleAdapter(ProviderOptions(api_key=FAKE_KEY))


# --- what is sent ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", body_cases(Flavour(MODEL, sends_signatures=True)), ids=lambda c: c.id)
def test_request_body(case: BodyCase, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=TEXT)
        run(adapter(), case.request, how)
        assert sent(router) == case.body


@pytest.mark.parametrize(
    ("api_key", "environment", "sent_key"),
    [
        (FAKE_KEY, {}, FAKE_KEY),
        (None, {"OPENAI_COMPATIBLE_API_KEY": FAKE_KEY}, FAKE_KEY),
        (None, {}, "not-needed"),
        # An OpenAI key is never sent to another host.
        (None, {"OPENAI_API_KEY": "sk-an-openai-key-that-must-stay-home"}, "not-needed"),
    ],
    ids=["given", "from OPENAI_COMPATIBLE_API_KEY", "placeholder", "never OPENAI_API_KEY"],
)
def test_the_key(
    api_key: str | None, environment: dict[str, str], sent_key: str, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with mock_http() as router:
        route = router.post(URL).respond(200, json=TEXT)
        run(adapter(api_key=api_key), HELLO, how)
        assert route.calls[0].request.headers["authorization"] == f"Bearer {sent_key}"


def test_no_openai_account_ids_are_sent(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    monkeypatch.setenv("OPENAI_ORG_ID", "org-home")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj_home")
    with mock_http() as router:
        route = router.post(URL).respond(200, json=TEXT)
        run(adapter(), HELLO, how)
        headers = route.calls[0].request.headers
    assert "openai-organization" not in headers
    assert "openai-project" not in headers


def test_no_openai_custom_headers_are_sent(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", HOME_HEADERS)  # openai 3 would send these to any host.
    with mock_http() as router:
        route = router.post(URL).respond(200, json=TEXT)
        run(adapter(api_key=FAKE_KEY, headers={"X-Team": "mine"}), HELLO, how)
        assert_only_given_headers(route.calls[0].request.headers)


# --- what comes back ---------------------------------------------------------------------------

ANSWERS = [
    AnswerCase(
        "Cerebras: a tool call with a short id",
        CEREBRAS_TOOL_CALL,
        RawResponse(
            "openai-compatible",
            "qwen-3-coder-480b",
            "",
            (NativeCall("final_result", '{"city": "Paris", "country": "France"}', "b8847f144"),),
            "tool_calls",
            Usage(364, 33, 397),
        ),
    ),
    AnswerCase(
        "content as a list of parts: text joined, thinking left out",
        {
            "model": "magistral-small",
            "choices": [
                {
                    "message": {
                        "role": "assistant",
                        "content": [
                            {"type": "thinking", "thinking": [{"type": "text", "text": "Easy."}]},
                            {"type": "text", "text": "The answer "},
                            {"type": "text", "text": "is 4."},
                        ],
                    },
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 9, "completion_tokens": 30},
        },
        RawResponse("openai-compatible", "magistral-small", "The answer is 4.", (), "stop", Usage(9, 30, 39)),
    ),
    AnswerCase(
        "vLLM: reasoning_content apart from the text; arguments as an object kept as sent",
        {
            "id": "chatcmpl-1",
            "model": "Qwen/Qwen3-8B",
            "choices": [
                {
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "reasoning_content": "I should call the tool.",
                        "tool_calls": [
                            {
                                "id": "chatcmpl-tool-9f",
                                "type": "function",
                                "function": {"name": "f", "arguments": {"a": 1}},
                            }
                        ],
                    },
                    "finish_reason": "tool_calls",
                }
            ],
        },
        RawResponse(
            "openai-compatible",
            "Qwen/Qwen3-8B",
            "",
            (NativeCall("f", {"a": 1}, "chatcmpl-tool-9f"),),
            "tool_calls",
            reasoning="I should call the tool.",
        ),
    ),
    AnswerCase(
        "Gemini 3 on its OpenAI-compatible endpoint: the signed first call keeps its thought signature",
        GEMINI_3_COMPAT_SIGNED,
        RawResponse(
            "openai-compatible",
            "gemini-3-pro-preview",
            "",
            (
                NativeCall("check_flight", '{"flight":"AA100"}', "function-call-1", SIGNATURE),
                NativeCall("check_flight", '{"flight":"AA200"}', "function-call-2"),
            ),
            "tool_calls",
            Usage(60, 40, 220),
        ),
    ),
    # No choices at all is a ServerError, not an empty answer: tests/test_answers_kept.py.
]


@pytest.mark.parametrize("case", ANSWERS, ids=lambda c: c.id)
def test_answer(case: AnswerCase, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=case.body, headers=case.headers)
        response = run(adapter(), HELLO, how)
    assert without_body(response) == case.expected
    assert response.body == case.body


def test_a_call_without_an_id_gets_one() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=GEMINI_COMPAT_NO_ID)
        first, second = adapter().send(HELLO), adapter().send(HELLO)
    call = first.native_calls[0]
    assert (call.name, call.arguments) == ("get_current_time", "{}")
    assert call.id is not None and call.id.startswith("call_")
    assert call.id != second.native_calls[0].id
    assert call.signature is None  # Gemini 2.5 signed the message, not the call; it checks no call's signature.
    assert first.usage == Usage(35, 12, 109)  # The total as reported: it counts thinking tokens.


def test_every_call_sends_back_its_signature_and_one_rebuilt_without_it_the_one_received(how: str) -> None:
    gemini = adapter(base_url=GEMINI_COMPAT_URL)
    rebuilt = tuple(  # As from dicts that dropped the signature: the call id is all there is.
        Message(m.role, m.content, tuple(replace(c, signature=None) for c in m.tool_calls), m.tool_call_id, m.name)
        for m in SIGNED_STEP
    )
    with mock_http() as router:
        router.post(f"{GEMINI_COMPAT_URL}chat/completions").respond(200, json=GEMINI_3_COMPAT_SIGNED)
        run(gemini, Request("gemini-3-pro-preview", SIGNED_STEP, "native_tools", (FLIGHT,)), how)
        run(gemini, Request("gemini-3-pro-preview", rebuilt, "native_tools", (FLIGHT,)), how)
        signed_by_the_caller, recalled = sent(router, 0), sent(router, 1)
    assert signed_by_the_caller["messages"][1]["tool_calls"] == SIGNED_STEP_CALLS_WIRE
    # The first answer's signature is remembered by call id; the second request gets it back.
    assert recalled["messages"][1]["tool_calls"] == SIGNED_STEP_CALLS_WIRE


def test_a_signature_is_not_made_up_for_a_call_that_never_had_one(how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=GEMINI_3_COMPAT_SIGNED)
        run(adapter(), Request(MODEL, (USER, *SIGNED_ELSEWHERE), "native_tools", (CLOCK,)), how)
        unsigned = replace(SIGNED_ELSEWHERE[0].tool_calls[0], signature=None)
        conversation = (USER, Message("assistant", "", (unsigned,)), SIGNED_ELSEWHERE[1])
        run(adapter(), Request(MODEL, conversation, "native_tools", (CLOCK,)), how)
        assert sent(router, 1)["messages"][1:] == signed_wire(None)


def test_an_answer_that_is_not_json_is_a_server_error() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, text="<html>captive portal</html>", headers={"content-type": "text/html"})
        with pytest.raises(errors.ServerError, match="not JSON"):
            adapter().send(HELLO)


# --- errors ------------------------------------------------------------------------------------

ERRORS = [
    ErrorCase(
        "Ollama: a model without tools",
        400,
        {"error": {"message": "registry.ollama.ai/library/gemma3:4b does not support tools", "type": "api_error"}},
        errors.UnsupportedFeatureError,
        code="api_error",
        feature="native_tools",
    ),
    ErrorCase(
        "Ollama: an error as a string",
        404,
        {"error": "model 'qwen3:8b' not found, try pulling it first"},
        errors.NotFoundError,
        code=None,
    ),
    ErrorCase(
        "vLLM: tool choice needs a server flag",
        400,
        {
            "object": "error",
            "message": '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
            "type": "BadRequestError",
            "param": None,
            "code": 400,
        },
        errors.UnsupportedFeatureError,
        code=None,
        feature="native_tools",
    ),
    ErrorCase(
        "llama.cpp: tools need --jinja, said with a 500",
        500,
        {"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}},
        errors.UnsupportedFeatureError,
        code="500",
        feature="native_tools",
    ),
    ErrorCase("a 503 in plain text", 503, "Service Unavailable", errors.OverloadedError, code=None),
    ErrorCase("an empty 500", 500, "", errors.ServerError, code=None),
]


@pytest.mark.parametrize("case", ERRORS, ids=lambda c: c.id)
def test_error(case: ErrorCase, how: str) -> None:
    with mock_http() as router:
        serve(router.post(URL), case)
        with pytest.raises(errors.ProviderError) as info:
            run(adapter(api_key=FAKE_KEY), HELLO, how)
        assert len(router.calls) == 1  # The SDK's own retries are off.
    check_error(info.value, case, provider="openai-compatible", model=MODEL, cause=openai.APIStatusError)
    assert info.value.message


def test_the_adapter_repr_hides_the_key() -> None:
    assert_no_key(repr(adapter(api_key=FAKE_KEY)))


# --- end to end, through llmrelay.Client ---------------------------------------------------------

TIME_TOOL = {"name": "get_current_time", "parameters": {"type": "object", "properties": {}}}


def test_client_gives_an_id_to_a_call_sent_without_one_and_pairs_the_result_with_it() -> None:
    ollama = llmrelay.Client(f"openai-compatible:{MODEL}", base_url=BASE_URL)
    with mock_http() as router:
        router.post(URL).side_effect = [
            httpx.Response(200, json=GEMINI_COMPAT_NO_ID),
            httpx.Response(200, json=TEXT),
        ]
        first = ollama.complete("What time is it?", tools=[TIME_TOOL])
        [call] = first.tool_calls
        assert (call.name, call.arguments, first.finish_reason) == ("get_current_time", {}, "tool_calls")
        assert call.id
        result = {"role": "tool", "tool_call_id": call.id, "content": "Noon"}
        second = ollama.complete([{"role": "user", "content": "What time is it?"}, first, result], tools=[TIME_TOOL])
        body = sent(router, 1)
    assert body["messages"][1]["tool_calls"][0]["id"] == body["messages"][2]["tool_call_id"] == call.id
    assert (second.content, second.finish_reason) == ("Hi.", "stop")


def test_client_sends_gemini_the_thought_signature_of_the_call_it_made() -> None:
    def gemini() -> llmrelay.Client:
        return llmrelay.Client(
            "openai-compatible:gemini-3-pro-preview", base_url=GEMINI_COMPAT_URL, api_key="AIza-x", mode="native_tools"
        )

    question = [{"role": "user", "content": "Are AA100 and AA200 on time?"}]
    flight = {"name": "check_flight", "description": "Status of a flight.", "parameters": FLIGHT.parameters}
    with mock_http() as router:
        router.post(f"{GEMINI_COMPAT_URL}chat/completions").side_effect = [
            httpx.Response(200, json=GEMINI_3_COMPAT_SIGNED),
            httpx.Response(200, json=TEXT),
        ]
        first = gemini().complete(question, tools=[flight])
        assert [call.signature for call in first.tool_calls] == [SIGNATURE, None]
        results = [{"role": "tool", "tool_call_id": call.id, "content": "on time"} for call in first.tool_calls]
        # Another client, as in another process: the signature travels on the Completion's calls.
        gemini().complete([*question, first, *results], tools=[flight])
        body = sent(router, 1)
    assert body["messages"][1]["tool_calls"] == SIGNED_STEP_CALLS_WIRE


async def test_async_client_reads_special_tokens_a_server_left_in_the_text() -> None:
    text = '<|python_tag|>{"name": "get_current_time", "parameters": {}}'
    answer = {"model": "llama3.1:8b", "choices": [{"message": {"content": text}, "finish_reason": "stop"}]}
    with mock_http() as router:
        router.post(URL).respond(200, json=answer)
        result = await llmrelay.AsyncClient("openai-compatible:llama3.1:8b", base_url=BASE_URL).complete(
            "What time is it?", tools=[TIME_TOOL]
        )
    assert [(c.name, c.arguments) for c in result.tool_calls] == [("get_current_time", {})]
    assert (result.content, result.mode, result.model) == ("", "native_tools", "llama3.1:8b")
    assert (result.finish_reason, result.provider_finish_reason) == ("tool_calls", "stop")


def test_client_without_base_url_is_a_config_error() -> None:
    with pytest.raises(errors.ConfigError, match="base_url"):
        llmrelay.Client(f"openai-compatible:{MODEL}")


def _delta_chunk(tool_calls: list[dict[str, Any]] | None, finish: str | None = None) -> str:
    delta = {"tool_calls": tool_calls} if tool_calls else {}
    chunk = {
        "id": "x",
        "object": "chat.completion.chunk",
        "model": MODEL,
        "choices": [{"delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(chunk)}\n\n"


def _call(id: str | None, arguments: str, index: int | None = None, name: str | None = "get_weather") -> dict[str, Any]:
    call: dict[str, Any] = {"function": {"arguments": arguments, **({"name": name} if name else {})}}
    if id is not None:
        call["id"] = id
    if index is not None:
        call["index"] = index
    return call


PARIS, ROME = '{"city": "Paris"}', '{"city": "Rome"}'


@pytest.mark.parametrize(
    ("deltas", "calls"),
    [
        pytest.param(
            [[_call("a", PARIS, 0)], [_call("b", ROME, 1)]],
            [("a", "Paris"), ("b", "Rome")],
            id="indexed, as OpenAI sends",
        ),
        # Gemini's OpenAI-compatible endpoint: no index, or 0 for every call; the ids tell them apart.
        pytest.param([[_call("a", PARIS)], [_call("b", ROME)]], [("a", "Paris"), ("b", "Rome")], id="no index"),
        pytest.param(
            [[_call("a", PARIS, 0)], [_call("b", ROME, 0)]], [("a", "Paris"), ("b", "Rome")], id="index 0 for all"
        ),
        pytest.param(
            [[_call("a", '{"city": ')], [_call(None, '"Paris"}', name=None)], [_call("b", ROME)]],
            [("a", "Paris"), ("b", "Rome")],
            id="no index, arguments split over pieces without an id",
        ),
        pytest.param(
            [[_call("a", '{"city": ', 0)], [_call("a", '"Paris"}', 0, name=None)]],
            [("a", "Paris")],
            id="the id repeated on each piece",
        ),
        pytest.param(
            [[_call("a", PARIS), _call("b", ROME)]],
            [("a", "Paris"), ("b", "Rome")],
            id="two calls in one chunk, no index",
        ),
    ],
)
def test_streamed_calls_are_told_apart_by_index_or_id(deltas: list[list[dict[str, Any]]], calls: list[Any]) -> None:
    body = "".join(_delta_chunk(d) for d in deltas) + _delta_chunk(None, "stop") + "data: [DONE]\n\n"
    client = llmrelay.Client(f"openai-compatible:{MODEL}", base_url=BASE_URL, api_key=FAKE_KEY)
    tool = {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
    with mock_http() as router:
        router.post(URL).respond(200, text=body, headers={"content-type": "text/event-stream"})
        stream = client.stream("Weather?", tools=[tool])
        events = list(stream)
    completion = events[-1].completion  # type: ignore[attr-defined]
    assert [(c.id, c.arguments["city"]) for c in completion.tool_calls] == calls
    assert completion.rejected == []
    assert completion.finish_reason == "tool_calls"  # Gemini says "stop" after its calls.
