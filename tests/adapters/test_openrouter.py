from __future__ import annotations

from typing import Any

import openai
import pytest

import llmrelay
from llmrelay import errors
from llmrelay._envelope import Artifact, ToolCall, Usage
from llmrelay._types import Message, NativeCall, RawResponse, Request
from llmrelay.adapters import ProviderOptions, adapter_class
from llmrelay.adapters.openrouter import OpenRouterAdapter
from llmrelay.testing import mock_http

from .openai_bodies import (
    FAKE_KEY,
    HOME_HEADERS,
    OPENROUTER_200_ERROR,
    OPENROUTER_401,
    OPENROUTER_404_TOOLS,
    OPENROUTER_429,
    OPENROUTER_JSON_TEXT,
    OPENROUTER_LEADING_WHITESPACE,
    OPENROUTER_TOOL_CALL,
    WEATHER,
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
    without_body,
)

URL = "https://openrouter.ai/api/v1/chat/completions"
MODEL = "meta-llama/llama-3.3-70b-instruct"
HELLO = Request(MODEL, (Message("user", "Hello"),), "text")
REQUIRE = {"provider": {"require_parameters": True}}


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clean_environment(monkeypatch)


@pytest.fixture(params=["sync", "async"])
def how(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def adapter(**options: Any) -> OpenRouterAdapter:
    return OpenRouterAdapter(ProviderOptions(**{"api_key": FAKE_KEY, **options}))


def test_registered_under_its_provider_id() -> None:
    assert adapter_class("openrouter") is OpenRouterAdapter


# --- what is sent ------------------------------------------------------------------------------


# With tools or response_format, only hosts that honour them may serve the request.
@pytest.mark.parametrize("case", body_cases(Flavour(MODEL, routing=REQUIRE)), ids=lambda c: c.id)
def test_request_body(case: BodyCase, how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=OPENROUTER_JSON_TEXT)
        run(adapter(), case.request, how)
        assert sent(router) == case.body


def test_routing_preferences_given_as_a_param_are_kept() -> None:
    routing = {"order": ["Groq", "Together"], "allow_fallbacks": False}
    request = Request(MODEL, HELLO.messages, "native_tools", (WEATHER,), params={"provider": routing})
    with mock_http() as router:
        router.post(URL).respond(200, json=OPENROUTER_TOOL_CALL)
        adapter().send(request)
        assert sent(router)["provider"] == {"require_parameters": True, **routing}


def test_a_routing_choice_of_the_user_wins() -> None:
    request = Request(MODEL, HELLO.messages, "json_object", params={"provider": {"require_parameters": False}})
    with mock_http() as router:
        router.post(URL).respond(200, json=OPENROUTER_JSON_TEXT)
        adapter().send(request)
        assert sent(router)["provider"] == {"require_parameters": False}


def test_the_key_comes_from_openrouter_api_key_never_openai_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-an-openai-key-that-must-stay-home")
    monkeypatch.setenv("OPENROUTER_API_KEY", FAKE_KEY)
    with mock_http() as router:
        route = router.post(URL).respond(200, json=OPENROUTER_JSON_TEXT)
        OpenRouterAdapter(ProviderOptions()).send(HELLO)
        assert route.calls[0].request.headers["authorization"] == f"Bearer {FAKE_KEY}"


def test_no_openrouter_key_is_an_authentication_error_even_with_an_openai_key(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-an-openai-key-that-must-stay-home")
    with mock_http() as router, pytest.raises(errors.AuthenticationError, match="OPENROUTER_API_KEY"):
        run(OpenRouterAdapter(ProviderOptions()), HELLO, how)
    assert not router.calls


def test_no_openai_account_ids_are_sent(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    monkeypatch.setenv("OPENAI_ORG_ID", "org-home")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj_home")
    with mock_http() as router:
        route = router.post(URL).respond(200, json=OPENROUTER_JSON_TEXT)
        run(adapter(), HELLO, how)
        headers = route.calls[0].request.headers
    assert "openai-organization" not in headers
    assert "openai-project" not in headers


def test_no_openai_custom_headers_are_sent(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", HOME_HEADERS)  # openai 3 would send these to any host.
    with mock_http() as router:
        route = router.post(URL).respond(200, json=OPENROUTER_JSON_TEXT)
        run(adapter(api_key=FAKE_KEY, headers={"X-Team": "mine"}), HELLO, how)
        assert_only_given_headers(route.calls[0].request.headers)


def test_another_endpoint_can_be_given() -> None:
    with mock_http() as router:
        router.post("https://gateway.example/openrouter/v1/chat/completions").respond(200, json=OPENROUTER_JSON_TEXT)
        assert adapter(base_url="https://gateway.example/openrouter/v1").send(HELLO).text


# --- what comes back ---------------------------------------------------------------------------

ANSWERS = [
    AnswerCase(
        "a tool call with Mistral's short id; the generation id as request id",
        OPENROUTER_TOOL_CALL,
        RawResponse(
            "openrouter",
            "mistralai/mistral-small",
            "",
            (NativeCall("divide", '{"numerator": 123, "denominator": 456, "on_inf": "infinity"}', "3sniiMddS"),),
            "tool_calls",
            Usage(134, 43, 177),
            "gen-1762047030-dJUcJW4ildNGqK4UV6iJ",
        ),
    ),
    AnswerCase(
        "JSON as text; reasoning null",
        OPENROUTER_JSON_TEXT,
        RawResponse(
            "openrouter",
            "meta-llama/llama-3.2-3b-instruct",
            '{"name": "Alice Llama", "age": 30}',
            (),
            "stop",
            Usage(66, 15, 81),
            "gen-1747060315-OPtdU6KfuRgwaoevmhlh",
        ),
    ),
    AnswerCase(
        "reasoning apart from the text, details kept for the next turn (issue 14)",
        {
            "id": "gen-1",
            "model": "anthropic/claude-sonnet-4.5",
            "choices": [
                {
                    "finish_reason": "stop",
                    "message": {
                        "role": "assistant",
                        "content": "Hello!",
                        "reasoning": "The user greets me.",
                        "reasoning_details": [{"type": "reasoning.text", "text": "The user greets me."}],
                    },
                }
            ],
        },
        RawResponse(
            "openrouter",
            "anthropic/claude-sonnet-4.5",
            "Hello!",
            (),
            "stop",
            Usage(),
            "gen-1",
            artifacts=(
                Artifact(
                    "openrouter", "reasoning_details", ({"type": "reasoning.text", "text": "The user greets me."},)
                ),
            ),
            reasoning="The user greets me.",
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


def test_an_answer_after_blank_lines_and_without_finish_reason(how: str) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, text=OPENROUTER_LEADING_WHITESPACE, headers={"content-type": "application/json"})
        response = run(adapter(), Request("deepseek/deepseek-r1", HELLO.messages, "text"), how)
    assert response.text.startswith("The capital of France is **Paris**.")
    assert response.text.endswith("for centuries. \U0001f1eb\U0001f1f7")
    assert (response.finish_reason, response.usage, response.model) == (
        None,
        Usage(10, 261, 271),
        "deepseek/deepseek-r1",
    )


# --- errors ------------------------------------------------------------------------------------

ERRORS = [
    ErrorCase("401", 401, OPENROUTER_401, errors.AuthenticationError, code="401"),
    ErrorCase(
        "402, out of credits",
        402,
        {"error": {"message": "Insufficient credits", "code": 402}},
        errors.PermissionDeniedError,
        code="402",
    ),
    ErrorCase(
        "404, no host supports tools",
        404,
        OPENROUTER_404_TOOLS,
        errors.UnsupportedFeatureError,
        code="404",
        feature="native_tools",
    ),
    ErrorCase("429, upstream rate limit", 429, OPENROUTER_429, errors.RateLimitError, code="429"),
    ErrorCase(
        "502", 502, {"error": {"message": "Provider returned error", "code": 502}}, errors.ServerError, code="502"
    ),
]


@pytest.mark.parametrize("case", ERRORS, ids=lambda c: c.id)
def test_error(case: ErrorCase, how: str) -> None:
    with mock_http() as router:
        serve(router.post(URL), case)
        with pytest.raises(errors.ProviderError) as info:
            run(adapter(), HELLO, how)
        assert len(router.calls) == 1  # The SDK's own retries are off.
    check_error(info.value, case, provider="openrouter", model=MODEL, cause=openai.APIStatusError)


def test_the_hosts_own_words_are_in_the_message() -> None:
    with mock_http() as router:
        router.post(URL).respond(429, json=OPENROUTER_429)
        with pytest.raises(errors.RateLimitError) as info:
            adapter().send(HELLO)
    assert info.value.message.startswith("Provider returned error: google/gemini-2.0-flash-exp:free is temporarily")
    assert info.value.body == OPENROUTER_429


@pytest.mark.parametrize(
    ("body", "error", "status"),
    [
        (OPENROUTER_200_ERROR, errors.ServerError, 502),
        (OPENROUTER_429, errors.RateLimitError, 429),
        ({"error": {"message": "Upstream error", "code": "upstream_failed"}}, errors.ServerError, None),
    ],
    ids=["502 in a 200", "429 in a 200", "no status in a 200"],
)
def test_an_error_inside_a_200_is_raised_as_the_error_it_describes(
    body: dict[str, Any], error: type[errors.ProviderError], status: int | None, how: str
) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=body, headers={"x-request-id": "req_1"})
        with pytest.raises(errors.ProviderError) as info:
            run(adapter(), HELLO, how)
    assert type(info.value) is error
    assert (info.value.status, info.value.body, info.value.request_id) == (status, body, "req_1")
    assert info.value.__cause__ is None  # The SDK saw a success: there is no SDK error.


def test_the_adapter_repr_hides_the_key() -> None:
    assert_no_key(repr(adapter()))


# --- end to end, through llmrelay.Client ---------------------------------------------------------

DIVIDE_TOOL = {
    "name": "divide",
    "parameters": {
        "type": "object",
        "properties": {
            "numerator": {"type": "number"},
            "denominator": {"type": "number"},
            "on_inf": {"type": "string"},
        },
        "required": ["numerator", "denominator"],
    },
}


def test_client_reads_a_native_call_and_sends_routing() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=OPENROUTER_TOOL_CALL)
        result = llmrelay.Client("openrouter:mistralai/mistral-small", api_key=FAKE_KEY).complete(
            "What is 123 / 456?", tools=[DIVIDE_TOOL]
        )
        body = sent(router)
    assert body["provider"] == {"require_parameters": True}
    assert result.tool_calls == [
        ToolCall("divide", {"numerator": 123, "denominator": 456, "on_inf": "infinity"}, "3sniiMddS")
    ]
    assert (result.content, result.finish_reason, result.usage) == ("", "tool_calls", Usage(134, 43, 177))


async def test_async_client_reads_an_answer_after_blank_lines() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, text=OPENROUTER_LEADING_WHITESPACE, headers={"content-type": "application/json"})
        result = await llmrelay.AsyncClient("openrouter:deepseek/deepseek-r1", api_key=FAKE_KEY).complete(
            "What is the capital of France?"
        )
    assert result.content.startswith("The capital of France is **Paris**.")
    assert (result.tool_calls, result.mode, result.usage) == ([], "text", Usage(10, 261, 271))
    assert (result.finish_reason, result.provider_finish_reason) == (None, None)  # None was sent.


def test_client_raises_an_error_sent_inside_a_200() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=OPENROUTER_429)
        with pytest.raises(errors.RateLimitError, match="temporarily rate-limited upstream"):
            llmrelay.Client("openrouter:google/gemini-2.0-flash-exp:free", api_key=FAKE_KEY).complete("A joke?")
