from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import groq
import httpx
import pytest

import llmrelay
from llmrelay import errors
from llmrelay._envelope import ToolCall, Usage
from llmrelay._instructions import envelope_schema
from llmrelay._types import Message, NativeCall, RawResponse, Request
from llmrelay.adapters import ProviderOptions, adapter_class
from llmrelay.adapters.groq import GroqAdapter
from llmrelay.testing import mock_http

from .openai_bodies import (
    FAKE_KEY,
    GROQ_400_JSON_SCHEMA,
    GROQ_400_TOOL_USE_FAILED,
    GROQ_401,
    GROQ_404,
    GROQ_429,
    GROQ_498,
    GROQ_STRUCTURED_WITH_REASONING,
    GROQ_TEXT,
    GROQ_TOOL_CALL_WITH_REASONING,
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
    without_body,
)

URL = "https://api.groq.com/openai/v1/chat/completions"
MODEL = "llama-3.3-70b-versatile"
HELLO = Request(MODEL, (Message("user", "Hello"),), "text")


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clean_environment(monkeypatch)


@pytest.fixture(params=["sync", "async"])
def how(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def adapter(**options: Any) -> GroqAdapter:
    return GroqAdapter(ProviderOptions(**{"api_key": FAKE_KEY, **options}))


def test_registered_under_its_provider_id() -> None:
    assert adapter_class("groq") is GroqAdapter


# --- what is sent ------------------------------------------------------------------------------


# llama-3.3 is not on Groq's strict list: its schemas go best-effort (strict false).
@pytest.mark.parametrize("case", body_cases(Flavour(MODEL, strict=False)), ids=lambda c: c.id)
def test_request_body(case: BodyCase, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=GROQ_TEXT)
        run(adapter(), case.request, how)
        assert sent(router) == case.body


@pytest.mark.parametrize(
    ("model", "strict"),
    [
        ("openai/gpt-oss-120b", True),
        ("openai/gpt-oss-20b", True),
        ("moonshotai/kimi-k2-instruct-0905", False),
        ("meta-llama/llama-4-scout-17b-16e-instruct", False),
    ],
)
def test_strict_schemas_only_on_the_models_groq_lists(model: str, strict: bool) -> None:
    request = Request(model, HELLO.messages, "json_schema", response_schema=envelope_schema(()))
    with mock_http() as router:
        router.post(URL).respond(200, json=GROQ_STRUCTURED_WITH_REASONING)
        adapter().send(request)
        assert sent(router)["response_format"]["json_schema"]["strict"] is strict


def test_the_key_comes_from_groq_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROQ_API_KEY", FAKE_KEY)
    with mock_http() as router:
        route = router.post(URL).respond(200, json=GROQ_TEXT)
        GroqAdapter(ProviderOptions()).send(HELLO)
        assert route.calls[0].request.headers["authorization"] == f"Bearer {FAKE_KEY}"


def test_no_key_anywhere_is_an_authentication_error_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)  # Another provider's key is never used.
    with mock_http() as router, pytest.raises(errors.AuthenticationError, match="GROQ_API_KEY"):
        run(GroqAdapter(ProviderOptions()), HELLO, how)
    assert not router.calls


# --- what comes back ---------------------------------------------------------------------------

ANSWERS = [
    AnswerCase(
        "text; the request id from x_groq",
        GROQ_TEXT,
        RawResponse(
            "groq",
            "llama-3.3-70b-versatile",
            "The capital of France is Paris.",
            (),
            "stop",
            Usage(48, 8, 56),
            "req_01jr8hj0hzeq9b86xqb5dn7wqs",
        ),
    ),
    AnswerCase(
        "structured output; reasoning left out of the text",
        GROQ_STRUCTURED_WITH_REASONING,
        RawResponse(
            "groq",
            "openai/gpt-oss-120b",
            '{"city":"Mexico City","country":"Mexico"}',
            (),
            "stop",
            Usage(178, 94, 272),
            "x-request-id-1",
        ),
        {"x-request-id": "x-request-id-1"},
    ),
    AnswerCase(
        "a tool call with reasoning and no content",
        GROQ_TOOL_CALL_WITH_REASONING,
        RawResponse(
            "groq",
            "openai/gpt-oss-120b",
            "",
            (NativeCall("get_something_by_name", '{"name":"test"}', "fc_311ba17b-89f9-48d3-8fd9-7e74a1264855"),),
            "tool_calls",
            Usage(301, 52, 353, reasoning_tokens=22),
            "req_01khrvt0x4e8cs577wtgjk872s",
        ),
    ),
]


@pytest.mark.parametrize("case", ANSWERS, ids=lambda c: c.id)
def test_answer(case: AnswerCase, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=case.body, headers=case.headers)
        response = run(adapter(), HELLO, how)
    message = case.body["choices"][0]["message"] if case.body.get("choices") else {}
    expected = replace(case.expected, reasoning=message.get("reasoning") or "")  # Issue 14: kept, apart from the text.
    assert without_body(response) == expected
    assert response.body == case.body


def test_a_tool_call_continues_the_conversation_with_groqs_id() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=GROQ_TOOL_CALL_WITH_REASONING)
        call = adapter().send(HELLO).native_calls[0]
        assert call.id is not None
        follow_up = Request(
            MODEL,
            (
                Message("user", "Look it up."),
                Message("assistant", "", (ToolCall(call.name, {"name": "test"}, call.id),)),
                Message("tool", "Something with name: test", tool_call_id=call.id),
            ),
            "native_tools",
        )
        adapter().send(follow_up)
        messages = sent(router, 1)["messages"]
    assert (
        messages[1]["tool_calls"][0]["id"] == messages[2]["tool_call_id"] == "fc_311ba17b-89f9-48d3-8fd9-7e74a1264855"
    )


# --- errors ------------------------------------------------------------------------------------

ERRORS = [
    ErrorCase(
        "400 tool_use_failed: a bad call, not a missing feature",
        400,
        GROQ_400_TOOL_USE_FAILED,
        errors.BadRequestError,
        code="tool_use_failed",
    ),
    ErrorCase(
        "400, json_schema refused: a feature",
        400,
        GROQ_400_JSON_SCHEMA,
        errors.UnsupportedFeatureError,
        feature="json_schema",
    ),
    ErrorCase("401", 401, GROQ_401, errors.AuthenticationError, code="invalid_api_key"),
    ErrorCase("403", 403, error_body("Forbidden"), errors.PermissionDeniedError),
    ErrorCase("404, unknown model", 404, GROQ_404, errors.NotFoundError, code="model_not_found"),
    ErrorCase("413", 413, error_body("Request Entity Too Large"), errors.BadRequestError),
    ErrorCase(
        "429 with retry-after",
        429,
        GROQ_429,
        errors.RateLimitError,
        {"retry-after": "6"},
        code="rate_limit_exceeded",
        retry_after=6.0,
    ),
    ErrorCase("498, flex tier at capacity", 498, GROQ_498, errors.OverloadedError, code="capacity_exceeded"),
    ErrorCase("500", 500, error_body("Internal Server Error"), errors.ServerError),
    ErrorCase("503", 503, error_body("Service Unavailable"), errors.OverloadedError),
]


@pytest.mark.parametrize("case", ERRORS, ids=lambda c: c.id)
def test_error(case: ErrorCase, how: str) -> None:
    with mock_http() as router:
        serve(router.post(URL), case)
        with pytest.raises(errors.ProviderError) as info:
            run(adapter(), HELLO, how)
        assert len(router.calls) == 1  # The SDK's own retries are off.
    check_error(info.value, case, provider="groq", model=MODEL, cause=groq.APIStatusError)


def test_tool_use_failed_keeps_the_models_raw_text_for_a_repair() -> None:
    with mock_http() as router:
        router.post(URL).respond(400, json=GROQ_400_TOOL_USE_FAILED)
        with pytest.raises(errors.BadRequestError) as info:
            adapter().send(HELLO)
    assert info.value.body["error"]["failed_generation"] == (
        '{"name": "get_something_by_name", "arguments": {\n  "foo": "bar"\n}}'
    )
    assert info.value.message.startswith("Tool call validation failed")


@pytest.mark.parametrize(
    ("failure", "error"),
    [(httpx.ReadTimeout, errors.ProviderTimeoutError), (httpx.ConnectError, errors.ProviderConnectionError)],
)
def test_no_answer(failure: type[Exception], error: type[errors.ProviderError], how: str) -> None:
    with mock_http() as router:
        router.post(URL).mock(side_effect=failure)
        with pytest.raises(error) as info:
            run(adapter(), HELLO, how)
        assert len(router.calls) == 1
    assert isinstance(info.value.__cause__, groq.APIConnectionError)


def test_the_adapter_repr_hides_the_key() -> None:
    assert_no_key(repr(adapter()))


# --- end to end, through llmrelay.Client ---------------------------------------------------------

LOOKUP_TOOL = {
    "name": "get_something_by_name",
    "parameters": {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
    },
}


def test_client_reads_a_call_that_came_with_reasoning() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=GROQ_TOOL_CALL_WITH_REASONING)
        result = llmrelay.Client("groq:openai/gpt-oss-120b", api_key=FAKE_KEY).complete(
            "Look up test.", tools=[LOOKUP_TOOL]
        )
    assert result.tool_calls == [
        ToolCall("get_something_by_name", {"name": "test"}, "fc_311ba17b-89f9-48d3-8fd9-7e74a1264855")
    ]
    assert (result.content, result.raw, result.needs_more_work) == ("", "", True)
    assert (result.finish_reason, result.usage, result.mode) == (
        "tool_calls",
        Usage(301, 52, 353, reasoning_tokens=22),
        "native_tools",
    )


async def test_async_client_raises_tool_use_failed_with_the_failed_generation() -> None:
    with mock_http() as router:
        router.post(URL).respond(400, json=GROQ_400_TOOL_USE_FAILED)
        with pytest.raises(errors.BadRequestError) as info:
            await llmrelay.AsyncClient("groq:openai/gpt-oss-120b", api_key=FAKE_KEY).complete(
                "Look up test.", tools=[LOOKUP_TOOL]
            )
    assert type(info.value) is errors.BadRequestError  # Not a refused feature: nothing is learned.
    assert info.value.code == "tool_use_failed"
    assert '"foo": "bar"' in info.value.body["error"]["failed_generation"]


def test_client_json_object_for_a_model_without_json_schema() -> None:
    envelope = {"content": "", "toolCalls": [{"name": "get_something_by_name", "arguments": {"name": "x"}}]}
    answer = {**GROQ_TEXT, "choices": [{"message": {"content": json.dumps(envelope)}, "finish_reason": "stop"}]}
    with mock_http() as router:
        router.post(URL).respond(200, json=answer)
        result = llmrelay.Client(f"groq:{MODEL}", api_key=FAKE_KEY, mode="json_object").complete(
            "Look up x.", tools=[LOOKUP_TOOL]
        )
        body = sent(router)
    assert body["response_format"] == {"type": "json_object"}
    assert "JSON" in body["messages"][0]["content"]
    assert result.tool_calls == [ToolCall("get_something_by_name", {"name": "x"})]
    assert (result.mode, result.finish_reason, result.usage) == ("json_object", "tool_calls", Usage(48, 8, 56))
