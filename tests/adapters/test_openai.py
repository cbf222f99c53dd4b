from __future__ import annotations

import json
from typing import Any

import httpx
import openai
import pytest

import llmrelay
from llmrelay import errors
from llmrelay._envelope import ToolCall, Usage
from llmrelay._types import Message, NativeCall, RawResponse, Request
from llmrelay.adapters import ProviderOptions, adapter_class
from llmrelay.adapters.openai import OpenAIAdapter
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

from .openai_bodies import (
    CLOCK,
    FAKE_KEY,
    FLIGHT,
    GEMINI_3_COMPAT_SIGNED,
    GEMINI_COMPAT_URL,
    OPENAI_400_DEVELOPER,
    OPENAI_400_JSON_SCHEMA,
    OPENAI_400_STOP,
    OPENAI_400_STOP_REQUEST_ID,
    OPENAI_401,
    OPENAI_404,
    OPENAI_404_TOOLS,
    OPENAI_JSON_SCHEMA,
    OPENAI_JSON_SCHEMA_REQUEST_ID,
    OPENAI_LENGTH,
    OPENAI_TEXT,
    OPENAI_TOOL_CALL,
    SIGNATURE,
    SIGNED_ELSEWHERE,
    SIGNED_STEP,
    SIGNED_STEP_CALLS_WIRE,
    AnswerCase,
    BodyCase,
    ErrorCase,
    Flavour,
    assert_no_key,
    body_cases,
    check_error,
    clean_environment,
    error_body,
    run,
    sent,
    serve,
    signed_wire,
    without_body,
)

URL = "https://api.openai.com/v1/chat/completions"
HELLO = Request("gpt-4o-mini", (Message("user", "Hello"),), "text")


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clean_environment(monkeypatch)


@pytest.fixture(params=["sync", "async"])
def how(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def adapter(**options: Any) -> OpenAIAdapter:
    return OpenAIAdapter(ProviderOptions(**{"api_key": FAKE_KEY, **options}))


def test_registered_under_its_provider_id() -> None:
    assert adapter_class("openai") is OpenAIAdapter


# --- what is sent ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case", body_cases(Flavour("gpt-4o-mini", max_tokens="max_completion_tokens")), ids=lambda c: c.id
)
def test_request_body(case: BodyCase, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=OPENAI_TEXT)
        run(adapter(), case.request, how)
        assert sent(router) == case.body


def test_max_completion_tokens_given_explicitly_wins() -> None:
    request = Request("o3-mini", HELLO.messages, "text", params={"max_tokens": 10, "max_completion_tokens": 99})
    with mock_http() as router:
        router.post(URL).respond(200, json=OPENAI_TEXT)
        adapter().send(request)
        assert "max_tokens" not in sent(router)
        assert sent(router)["max_completion_tokens"] == 99


def test_connection_options_reach_the_request() -> None:
    with mock_http() as router:
        route = router.post("https://proxy.example/v1/chat/completions").respond(200, json=OPENAI_TEXT)
        adapter(base_url="https://proxy.example/v1", headers={"X-Team": "search"}, timeout=12.5).send(HELLO)
        request = route.calls[0].request
    assert request.headers["authorization"] == f"Bearer {FAKE_KEY}"
    assert request.headers["x-team"] == "search"
    assert request.headers["x-stainless-read-timeout"] == "12.5"


def test_the_key_comes_from_openai_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    with mock_http() as router:
        route = router.post(URL).respond(200, json=OPENAI_TEXT)
        OpenAIAdapter(ProviderOptions()).send(HELLO)
        assert route.calls[0].request.headers["authorization"] == f"Bearer {FAKE_KEY}"


def test_openai_account_ids_from_the_environment_are_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_ORG_ID", "org-home")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj_home")
    with mock_http() as router:
        route = router.post(URL).respond(200, json=OPENAI_TEXT)
        adapter().send(HELLO)
        headers = route.calls[0].request.headers
    assert (headers["openai-organization"], headers["openai-project"]) == ("org-home", "proj_home")


@pytest.mark.skipif(int(openai.__version__.split(".")[0]) < 3, reason="openai 2 does not read OPENAI_CUSTOM_HEADERS")
def test_openai_custom_headers_from_the_environment_are_sent_to_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    # The other side of the OpenRouter and openai-compatible tests: the SDK does read them.
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", "X-OpenAI-Team: home")
    with mock_http() as router:
        route = router.post(URL).respond(200, json=OPENAI_TEXT)
        adapter().send(HELLO)
    assert route.calls[0].request.headers["x-openai-team"] == "home"


def test_no_key_anywhere_is_an_authentication_error_naming_the_variable(how: str) -> None:
    with mock_http() as router, pytest.raises(errors.AuthenticationError, match="OPENAI_API_KEY") as info:
        run(OpenAIAdapter(ProviderOptions()), HELLO, how)
    assert info.value.provider == "openai"
    assert not router.calls


# --- what comes back ---------------------------------------------------------------------------


ANSWERS = [
    AnswerCase(
        "text",
        OPENAI_TEXT,
        RawResponse("openai", "gpt-4o-2024-08-06", "The capital of France is Paris.", (), "stop", Usage(24, 8, 32)),
    ),
    AnswerCase(
        "a tool call: arguments as sent, id kept, content null",
        OPENAI_TOOL_CALL,
        RawResponse(
            "openai",
            "gpt-4.1-2025-04-14",
            "",
            (NativeCall("get_weather", '{"location":"Tokyo"}', "call_x9KzZUT3UYazEUJiRmE0PvaU"),),
            "tool_calls",
            Usage(1187, 14, 1201, cached_input_tokens=1152),
        ),
    ),
    AnswerCase(
        "json_schema answer, with the request id header",
        OPENAI_JSON_SCHEMA,
        RawResponse(
            "openai",
            "gpt-4o-2024-08-06",
            '{"answer":"Paris","confidence":0.99}',
            (),
            "stop",
            Usage(94, 11, 105),
            OPENAI_JSON_SCHEMA_REQUEST_ID,
        ),
        {"x-request-id": OPENAI_JSON_SCHEMA_REQUEST_ID},
    ),
    AnswerCase(
        "cut off by max tokens",
        OPENAI_LENGTH,
        RawResponse(
            "openai",
            "gpt-4o-mini-2024-07-18",
            "**Title: The Last Ember of Eldoria**\n\n",
            (),
            "length",
            Usage(16, 10, 26),
        ),
    ),
    AnswerCase(
        "a refusal is the text when there is no content",
        {
            "model": "gpt-4o-2024-08-06",
            "choices": [{"message": {"content": None, "refusal": "I can't help with that."}, "finish_reason": "stop"}],
        },
        RawResponse(
            "openai", "gpt-4o-2024-08-06", "I can't help with that.", (), "stop", refusal="I can't help with that."
        ),
    ),
]


@pytest.mark.parametrize("case", ANSWERS, ids=lambda c: c.id)
def test_answer(case: AnswerCase, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=case.body, headers=case.headers)
        response = run(adapter(), HELLO, how)
    assert without_body(response) == case.expected
    assert response.body == case.body


# --- errors ------------------------------------------------------------------------------------


ERRORS = [
    ErrorCase("400, unsupported parameter", 400, OPENAI_400_STOP, errors.BadRequestError, code="unsupported_parameter"),
    ErrorCase("400, developer role", 400, OPENAI_400_DEVELOPER, errors.BadRequestError, code="unsupported_value"),
    ErrorCase(
        "400, json_schema refused: a feature",
        400,
        OPENAI_400_JSON_SCHEMA,
        errors.UnsupportedFeatureError,
        feature="json_schema",
    ),
    ErrorCase("401, the key echoed masked", 401, OPENAI_401, errors.AuthenticationError, code="invalid_api_key"),
    ErrorCase("403", 403, error_body("You are not allowed to sample from this model"), errors.PermissionDeniedError),
    ErrorCase("404, unknown model", 404, OPENAI_404, errors.NotFoundError, code="model_not_found"),
    ErrorCase(
        "404, tools refused: a feature", 404, OPENAI_404_TOOLS, errors.UnsupportedFeatureError, feature="native_tools"
    ),
    ErrorCase("408", 408, error_body("Request timed out"), errors.ProviderTimeoutError),
    ErrorCase("409", 409, error_body("Conflict"), errors.ServerError),
    ErrorCase("422", 422, error_body("Unprocessable"), errors.BadRequestError),
    ErrorCase(
        "429, retry-after-ms",
        429,
        error_body("Rate limit reached for gpt-4o-mini", code="rate_limit_exceeded"),
        errors.RateLimitError,
        {"retry-after-ms": "1500"},
        code="rate_limit_exceeded",
        retry_after=1.5,
    ),
    ErrorCase(
        "429, retry-after in seconds",
        429,
        error_body("You exceeded your current quota", code="insufficient_quota"),
        errors.RateLimitError,
        {"retry-after": "20"},
        code="insufficient_quota",
        retry_after=20.0,
    ),
    ErrorCase(
        "429, retry-after as an HTTP date in the past",
        429,
        error_body("slow down"),
        errors.RateLimitError,
        {"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"},
        retry_after=0.0,
    ),
    ErrorCase("500", 500, error_body("The server had an error"), errors.ServerError),
    ErrorCase("502, not JSON", 502, "<html>Bad gateway</html>", errors.ServerError, code=None),
    ErrorCase("503", 503, error_body("The engine is currently overloaded"), errors.OverloadedError),
    ErrorCase("529", 529, error_body("Overloaded"), errors.OverloadedError),
]


@pytest.mark.parametrize("case", ERRORS, ids=lambda c: c.id)
def test_error(case: ErrorCase, how: str) -> None:
    with mock_http() as router:
        serve(router.post(URL), case)
        with pytest.raises(errors.ProviderError) as info:
            run(adapter(), Request("gpt-4o-mini", HELLO.messages, "json_schema"), how)
        assert len(router.calls) == 1  # The SDK's own retries are off.
    check_error(info.value, case, provider="openai", model="gpt-4o-mini", cause=openai.APIStatusError)
    assert_no_key(adapter())


def test_the_whole_error_body_is_kept_and_its_message_used() -> None:
    with mock_http() as router:
        router.post(URL).respond(400, json=OPENAI_400_STOP, headers={"x-request-id": OPENAI_400_STOP_REQUEST_ID})
        with pytest.raises(errors.BadRequestError) as info:
            adapter().send(HELLO)
    assert info.value.body == OPENAI_400_STOP
    assert info.value.message == "Unsupported parameter: 'stop' is not supported with this model."
    assert info.value.request_id == OPENAI_400_STOP_REQUEST_ID
    assert info.value.headers["x-request-id"] == OPENAI_400_STOP_REQUEST_ID


def test_a_key_echoed_in_full_is_redacted() -> None:
    with mock_http() as router:
        router.post(URL).respond(401, json=error_body(f"Incorrect API key provided: {FAKE_KEY}."))
        with pytest.raises(errors.AuthenticationError) as info:
            adapter().send(HELLO)
    assert_no_key(info.value, repr(info.value), info.value.body)
    assert "Incorrect API key provided" in str(info.value)


@pytest.mark.parametrize(
    ("failure", "error"),
    [(httpx.ConnectTimeout, errors.ProviderTimeoutError), (httpx.ConnectError, errors.ProviderConnectionError)],
)
def test_no_answer(failure: type[Exception], error: type[errors.ProviderError], how: str) -> None:
    with mock_http() as router:
        router.post(URL).mock(side_effect=failure)
        with pytest.raises(error) as info:
            run(adapter(), HELLO, how)
        assert len(router.calls) == 1
    assert info.value.status is None
    assert isinstance(info.value.__cause__, openai.APIConnectionError)


def test_a_signature_goes_back_only_to_the_host_that_made_it(how: str) -> None:
    gemini = adapter(base_url=GEMINI_COMPAT_URL)  # The openai provider pointed at Gemini's endpoint.
    conversation = (*SIGNED_STEP, *SIGNED_ELSEWHERE)
    with mock_http() as router:
        router.post(f"{GEMINI_COMPAT_URL}chat/completions").respond(200, json=GEMINI_3_COMPAT_SIGNED)
        answer = run(gemini, Request("gemini-3-pro-preview", SIGNED_STEP[:1], "native_tools", (FLIGHT,)), how)
        run(gemini, Request("gemini-3-pro-preview", conversation, "native_tools", (FLIGHT, CLOCK)), how)
        messages = sent(router, 1)["messages"]
    assert [call.signature for call in answer.native_calls] == [SIGNATURE, None]
    assert messages[1]["tool_calls"] == SIGNED_STEP_CALLS_WIRE  # This host signed it: it goes back.
    assert messages[4:] == signed_wire(None)  # Signed by Gemini, but not received here: left out.


def test_the_adapter_repr_hides_the_key() -> None:
    assert_no_key(repr(adapter()))
    assert "***" in repr(adapter())


# --- end to end, through llmrelay.Client ---------------------------------------------------------

WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Current weather for a location.",
    "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]},
}
TOKYO = [{"role": "user", "content": "What is the weather in Tokyo?"}]
CALL_ID = "call_x9KzZUT3UYazEUJiRmE0PvaU"


def client(**options: Any) -> llmrelay.Client:
    return llmrelay.Client("openai:gpt-4o-mini", api_key=FAKE_KEY, learner=CapabilityLearner(), **options)


def test_client_native_call_then_its_result_round_trips() -> None:
    with mock_http() as router:
        router.post(URL).side_effect = [
            httpx.Response(200, json=OPENAI_TOOL_CALL),  # respx serves httpx responses to either stack
            httpx.Response(200, json=OPENAI_TEXT),
        ]
        first = client().complete(TOKYO, tools=[WEATHER_TOOL], tool_choice="get_weather")
        assert sent(router, 0)["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
        assert first.tool_calls == [ToolCall("get_weather", {"location": "Tokyo"}, CALL_ID)]
        assert (first.content, first.needs_more_work, first.mode) == ("", True, "native_tools")
        assert (first.finish_reason, first.provider_finish_reason) == ("tool_calls", "tool_calls")
        assert (first.provider, first.model, first.usage) == (
            "openai",
            "gpt-4.1-2025-04-14",
            Usage(1187, 14, 1201, cached_input_tokens=1152),
        )

        answered = {"role": "tool", "tool_call_id": CALL_ID, "content": "Sunny, 22C"}
        # No tool_choice now: a tool forced again would make this text answer one to repair.
        second = client().complete([*TOKYO, first, answered], tools=[WEATHER_TOOL])
        body = sent(router, 1)
    assert body["messages"][1:] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": CALL_ID,
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"location": "Tokyo"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": CALL_ID, "content": "Sunny, 22C"},
    ]
    assert "tool_choice" not in body
    assert (second.content, second.tool_calls, second.finish_reason) == ("The capital of France is Paris.", [], "stop")


async def test_async_client_json_schema_reads_the_envelope() -> None:
    envelope = {"content": "Checking.", "toolCalls": [{"name": "get_weather", "arguments": '{"location": "Tokyo"}'}]}
    answer = {
        **OPENAI_JSON_SCHEMA,
        "choices": [{"message": {"content": json.dumps(envelope)}, "finish_reason": "stop"}],
    }
    with mock_http() as router:
        router.post(URL).respond(200, json=answer)
        result = await llmrelay.AsyncClient("openai:gpt-4o-mini", api_key=FAKE_KEY, mode="json_schema").complete(
            TOKYO, tools=[WEATHER_TOOL]
        )
        body = sent(router)
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True
    assert "tools" not in body
    assert result.tool_calls == [ToolCall("get_weather", {"location": "Tokyo"})]
    assert (result.content, result.needs_more_work, result.mode) == ("Checking.", True, "json_schema")
    assert (result.finish_reason, result.usage) == ("tool_calls", Usage(94, 11, 105))


def test_client_reads_calls_written_as_text() -> None:
    text = 'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Tokyo"}}\n</tool_call>'
    answer = {**OPENAI_TEXT, "choices": [{"message": {"content": text}, "finish_reason": "stop"}]}
    with mock_http() as router:
        router.post(URL).respond(200, json=answer)
        result = client(mode="text").complete(TOKYO, tools=[WEATHER_TOOL])
    assert result.tool_calls == [ToolCall("get_weather", {"location": "Tokyo"})]
    assert (result.content, result.finish_reason, result.provider_finish_reason) == (
        "Let me check.",
        "tool_calls",
        "stop",
    )


def test_client_learns_a_refused_mode_and_stops_asking_for_it() -> None:
    learning = client()
    with mock_http() as router:
        router.post(URL).side_effect = [
            httpx.Response(404, json=OPENAI_404_TOOLS),
            httpx.Response(200, json=OPENAI_JSON_SCHEMA),
            httpx.Response(200, json=OPENAI_JSON_SCHEMA),
        ]
        first = learning.complete(TOKYO, tools=[WEATHER_TOOL])  # Refused: it falls back at once.
        assert "tools" in sent(router, 0)
        assert sent(router, 1)["response_format"]["type"] == "json_schema"
        refused, answered = first.attempts[:2]
        assert (refused.mode, refused.outcome, answered.mode) == ("native_tools", "error", "json_schema")
        assert "tools" in (refused.reason or "")
        learning.complete(TOKYO, tools=[WEATHER_TOOL])
        assert len(router.calls) == 3
        assert "tools" not in sent(router, 2)  # Learned: not asked again.
        assert sent(router, 2)["response_format"]["type"] == "json_schema"
