"""The Anthropic adapter, through the real `anthropic` SDK, with HTTP answered by `mock_http()`.

Every test reads what reached the wire (the JSON body the SDK sent) or serves a real answer
body (`anthropic_bodies`, from the shared conformance recordings) and checks what came back.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

anthropic = pytest.importorskip("anthropic")

import llmrelay  # noqa: E402 - after the skip: these import the SDK
from llmrelay import errors  # noqa: E402
from llmrelay._envelope import Artifact, ToolCall, Usage  # noqa: E402
from llmrelay._instructions import envelope_schema  # noqa: E402
from llmrelay._tools import Tool  # noqa: E402
from llmrelay._types import Message, NamedTool, NativeCall, RawResponse, Request, ToolChoice  # noqa: E402
from llmrelay.adapters import Adapter, ProviderOptions, adapter_class  # noqa: E402
from llmrelay.adapters.anthropic import DEFAULT_MAX_TOKENS, AnthropicAdapter  # noqa: E402
from llmrelay.capabilities import CapabilityLearner  # noqa: E402
from llmrelay.testing import mock_http  # noqa: E402

from . import anthropic_bodies as bodies  # noqa: E402

URL = "https://api.anthropic.com/v1/messages"
KEY = "sk-ant-api03-FAKE-KEY-that-must-never-be-shown"
MODEL = "claude-sonnet-4-6"
WEATHER = Tool(
    "get_weather",
    "Current weather in a city",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
ID_RULE = re.compile(r"[a-zA-Z0-9_-]+")


def make_request(
    *messages: Message,
    mode: Any = "native_tools",
    tools: tuple[Tool, ...] = (WEATHER,),
    tool_choice: ToolChoice | None = None,
    params: Mapping[str, Any] | None = None,
) -> Request:
    return Request(
        model=MODEL,
        messages=messages or (Message("user", "Weather in Paris?"),),
        mode=mode,
        tools=tools,
        tool_choice=tool_choice,
        params=params or {},
        response_schema=envelope_schema(tools) if mode == "json_schema" else None,
    )


def call(adapter: AnthropicAdapter, request: Request, use_async: bool) -> RawResponse:
    return asyncio.run(adapter.asend(request)) if use_async else adapter.send(request)


def sent_body(request: Request, *, use_async: bool = False) -> dict[str, Any]:
    """The JSON body the SDK put on the wire for `request`."""
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        call(AnthropicAdapter(ProviderOptions(api_key=KEY)), request, use_async)
        body: dict[str, Any] = json.loads(router.calls[0].request.content)
    return body


def text(content: str) -> dict[str, Any]:
    return {"type": "text", "text": content}


# --- what each mode sends ------------------------------------------------------------------------


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_native_tools_sends_tools_system_and_the_default_max_tokens(use_async: bool) -> None:
    request = make_request(Message("system", "Be brief."), Message("user", "Weather in Paris?"))
    assert sent_body(request, use_async=use_async) == {
        "model": MODEL,
        "max_tokens": DEFAULT_MAX_TOKENS,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "tools": [
            {
                "name": "get_weather",
                "description": "Current weather in a city",
                "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            }
        ],
    }


def test_a_tool_without_description_sends_none() -> None:
    body = sent_body(make_request(tools=(Tool("ping"),)))
    assert body["tools"] == [{"name": "ping", "input_schema": {"type": "object", "properties": {}}}]


def test_native_tools_mode_without_tools_sends_neither_tools_nor_tool_choice() -> None:
    body = sent_body(make_request(tools=(), tool_choice="required"))
    assert "tools" not in body
    assert "tool_choice" not in body


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        ("auto", {"type": "auto"}),
        ("required", {"type": "any"}),
        ("none", {"type": "none"}),
        (NamedTool("get_weather"), {"type": "tool", "name": "get_weather"}),
    ],
    ids=["auto", "required", "none", "named"],
)
def test_tool_choice(choice: ToolChoice, expected: dict[str, str]) -> None:
    body = sent_body(make_request(tool_choice=choice))
    assert body["tool_choice"] == expected
    assert [tool["name"] for tool in body["tools"]] == ["get_weather"]  # "none" still sends the tools


def test_no_tool_choice_leaves_the_providers_default() -> None:
    assert "tool_choice" not in sent_body(make_request())


# --- conversations -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Conversation:
    id: str
    messages: tuple[Message, ...]
    expected: list[dict[str, Any]]
    system: str | None = None


PARIS = ToolCall("get_weather", {"city": "Paris"}, "toolu_01A")
LYON = ToolCall("get_weather", {"city": "Lyon"}, "toolu_01B")
USE_PARIS = {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris"}}
USE_LYON = {"type": "tool_use", "id": "toolu_01B", "name": "get_weather", "input": {"city": "Lyon"}}


def result(call_id: str, content: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": content}


CONVERSATIONS = [
    Conversation(
        "parallel calls, then both results in one user turn",
        (
            Message("system", "Be brief."),
            Message("user", "Paris and Lyon?"),
            Message("assistant", "Checking both.", (PARIS, LYON)),
            Message("tool", "18C", tool_call_id="toolu_01A", name="get_weather"),
            Message("tool", "21C", tool_call_id="toolu_01B", name="get_weather"),
        ),
        [
            {"role": "user", "content": "Paris and Lyon?"},
            {"role": "assistant", "content": [text("Checking both."), USE_PARIS, USE_LYON]},
            {"role": "user", "content": [result("toolu_01A", "18C"), result("toolu_01B", "21C")]},
        ],
        system="Be brief.",
    ),
    Conversation(
        "a call without text, its result, and the final answer",
        (
            Message("user", "Paris?"),
            Message("assistant", "", (PARIS,)),
            Message("tool", "18C", tool_call_id="toolu_01A"),
            Message("assistant", "18C in Paris."),
            Message("user", "Thanks"),
        ),
        [
            {"role": "user", "content": "Paris?"},
            {"role": "assistant", "content": [USE_PARIS]},
            {"role": "user", "content": [result("toolu_01A", "18C")]},
            {"role": "assistant", "content": "18C in Paris."},
            {"role": "user", "content": "Thanks"},
        ],
    ),
    Conversation(
        "user text after the results joins their turn",
        (
            Message("user", "Paris?"),
            Message("assistant", "", (PARIS,)),
            Message("tool", "18C", tool_call_id="toolu_01A"),
            Message("user", "And tomorrow?"),
        ),
        [
            {"role": "user", "content": "Paris?"},
            {"role": "assistant", "content": [USE_PARIS]},
            {"role": "user", "content": [result("toolu_01A", "18C"), text("And tomorrow?")]},
        ],
    ),
    Conversation(
        "results go before text even when the text came first",
        (
            Message("user", "Paris?"),
            Message("assistant", "", (PARIS,)),
            Message("user", "Hurry."),
            Message("tool", "18C", tool_call_id="toolu_01A"),
        ),
        [
            {"role": "user", "content": "Paris?"},
            {"role": "assistant", "content": [USE_PARIS]},
            {"role": "user", "content": [result("toolu_01A", "18C"), text("Hurry.")]},
        ],
    ),
    Conversation(
        "system turns anywhere are joined into system",
        (Message("system", "One."), Message("user", "Hi"), Message("system", "Two.")),
        [{"role": "user", "content": "Hi"}],
        system="One.\n\nTwo.",
    ),
    Conversation(
        "consecutive user turns are merged",
        (Message("user", "Hi"), Message("user", "Paris?")),
        [{"role": "user", "content": [text("Hi"), text("Paris?")]}],
    ),
    Conversation(
        "empty and blank turns are left out, then their neighbours merge",
        (Message("user", "Hi"), Message("assistant", "  \n"), Message("user", "Paris?")),
        [{"role": "user", "content": [text("Hi"), text("Paris?")]}],
    ),
    Conversation(
        "an empty tool result sends no content",
        (
            Message("user", "Ping"),
            Message("assistant", "", (ToolCall("ping", {}, "toolu_9"),)),
            Message("tool", "", tool_call_id="toolu_9"),
        ),
        [
            {"role": "user", "content": "Ping"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_9", "name": "ping", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_9"}]},
        ],
    ),
]


@pytest.mark.parametrize("case", CONVERSATIONS, ids=lambda case: case.id)
def test_conversation(case: Conversation) -> None:
    body = sent_body(make_request(*case.messages))
    assert body["messages"] == case.expected
    assert body.get("system") == case.system


@pytest.mark.parametrize(
    "foreign_id",
    ["functions.get_weather:0", "call 1", "x" * 100, "call_abc123"],
    ids=["kimi", "space", "too long", "openai"],
)
def test_call_ids_from_other_providers_fit_anthropic_rules_and_stay_paired(foreign_id: str) -> None:
    messages = (
        Message("user", "Paris?"),
        Message("assistant", "", (ToolCall("get_weather", {"city": "Paris"}, foreign_id),)),
        Message("tool", "18C", tool_call_id=foreign_id),
    )
    body = sent_body(make_request(*messages))
    use_id = body["messages"][1]["content"][0]["id"]
    assert body["messages"][2]["content"][0]["tool_use_id"] == use_id
    assert ID_RULE.fullmatch(use_id)
    assert len(use_id) <= 64
    assert (use_id == foreign_id) == bool(ID_RULE.fullmatch(foreign_id) and len(foreign_id) <= 64)


# --- parameters ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, {"max_tokens": 4096}),
        ({"max_tokens": 100}, {"max_tokens": 100}),
        ({"max_completion_tokens": 50}, {"max_tokens": 50}),
        ({"stop": "END"}, {"stop_sequences": ["END"]}),
        ({"stop": ["a", "b"]}, {"stop_sequences": ["a", "b"]}),
        (
            {"temperature": 0.2, "top_k": 5, "metadata": {"user_id": "u1"}},
            {"temperature": 0.2, "top_k": 5, "metadata": {"user_id": "u1"}},
        ),
        (
            {"thinking": {"type": "enabled", "budget_tokens": 1024}},
            {"thinking": {"type": "enabled", "budget_tokens": 1024}},
        ),
    ],
    ids=[
        "default max_tokens",
        "max_tokens",
        "OpenAI max_completion_tokens",
        "stop string",
        "stop list",
        "passed through",
        "thinking",
    ],
)
def test_params(params: dict[str, Any], expected: dict[str, Any]) -> None:
    body = sent_body(make_request(params=params))
    assert {name: body.get(name) for name in expected} == expected
    assert "stop" not in body
    assert "max_completion_tokens" not in body


@pytest.mark.skipif(
    not hasattr(anthropic.Anthropic, "_calculate_nonstreaming_timeout"), reason="this SDK does not check max_tokens"
)
def test_a_max_tokens_the_sdk_would_refuse_without_streaming_is_a_config_error() -> None:
    adapter = AnthropicAdapter(ProviderOptions(api_key=KEY))
    with mock_http() as router, pytest.raises(errors.ConfigError, match="max_tokens"):
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        adapter.send(make_request(params={"max_tokens": 64_000}))
    assert not router.calls


def test_with_a_timeout_set_a_large_max_tokens_is_sent() -> None:
    adapter = AnthropicAdapter(ProviderOptions(api_key=KEY, timeout=1200))
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        adapter.send(make_request(params={"max_tokens": 64_000}))
        assert json.loads(router.calls[0].request.content)["max_tokens"] == 64_000


# --- json_schema, json_object, text --------------------------------------------------------------

TOOL_TURNS = (
    Message("user", "Paris?"),
    Message("assistant", "", (PARIS,)),
    Message("tool", "18C", tool_call_id="toolu_01A", name="get_weather"),
)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_json_schema_sends_the_envelope_as_output_config_format(use_async: bool) -> None:
    request = make_request(*TOOL_TURNS, mode="json_schema", tool_choice="required")
    body = sent_body(request, use_async=use_async)
    assert body["output_config"] == {"format": {"type": "json_schema", "schema": request.response_schema}}
    assert body["output_config"]["format"]["schema"]["properties"]["toolCalls"]["items"]["properties"]["name"] == {
        "type": "string",
        "enum": ["get_weather"],
    }
    assert "tools" not in body
    assert "tool_choice" not in body
    assert "get_weather" in body["system"]
    assert "You must call at least one tool" in body["system"]
    # Tool turns are written as text: no tool_use or tool_result blocks without tools.
    # (each turn one text: sent as a plain string)
    assert [type(message["content"]) for message in body["messages"]] == [str, str, str]
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "user"]
    assert json.loads(body["messages"][1]["content"])["toolCalls"] == [
        {"name": "get_weather", "arguments": {"city": "Paris"}}
    ]


def test_json_schema_keeps_the_callers_output_config() -> None:
    body = sent_body(make_request(mode="json_schema", params={"output_config": {"effort": "low"}}))
    assert body["output_config"]["effort"] == "low"
    assert body["output_config"]["format"]["type"] == "json_schema"


def test_json_object_is_the_text_path_without_prefill() -> None:
    body = sent_body(make_request(*TOOL_TURNS, mode="json_object"))
    assert "output_config" not in body
    assert "tools" not in body
    assert "Reply with exactly one JSON object" in body["system"]
    assert body["messages"][-1]["role"] == "user"  # Claude 4.6+ refuses an assistant prefill


def test_text_mode_sends_the_instructions_and_no_tools() -> None:
    body = sent_body(make_request(Message("system", "Be brief."), Message("user", "Paris?"), mode="text"))
    assert body["system"].startswith("Be brief.\n\nYou can call tools.")
    assert body["messages"] == [{"role": "user", "content": "Paris?"}]
    assert "tools" not in body
    assert "output_config" not in body


def test_text_mode_without_tools_sends_the_conversation_as_it_is() -> None:
    body = sent_body(make_request(Message("user", "Hello"), mode="text", tools=()))
    assert body == {"model": MODEL, "max_tokens": 4096, "messages": [{"role": "user", "content": "Hello"}]}


# --- answers -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    id: str
    body: dict[str, Any]
    text: str
    finish_reason: str
    usage: Usage
    calls: tuple[NativeCall, ...] = ()
    model: str = field(default="")
    reasoning: str = ""
    artifacts: tuple[Artifact, ...] = ()


def entity(name: str, call_id: str) -> NativeCall:
    return NativeCall("retrieve_entity_info", {"name": name}, call_id)


# Derived from TOOL_USE, in the shape Anthropic documents for prompt caching and server tools.
CACHED = {
    **bodies.TOOL_USE,
    "usage": {**bodies.TOOL_USE["usage"], "cache_creation_input_tokens": 100, "cache_read_input_tokens": 1000},
}
SERVER_TOOL = {
    **bodies.TOOL_USE,
    "content": [
        {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "Tokyo weather"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []},
        {"type": "text", "text": "Sunny."},
    ],
    "stop_reason": "end_turn",
}

ANSWERS = [
    Answer(
        "structured output (pydantic-ai)",
        bodies.STRUCTURED,
        '{"city":"London","country":"United Kingdom","population":9002488}',
        "end_turn",
        Usage(196, 19, 215),
        model="claude-sonnet-4-5-20250929",
    ),
    Answer(
        "text and four parallel calls (pydantic-ai)",
        bodies.PARALLEL_TOOL_USE,
        "I'll help you find out who is the youngest by retrieving information about each family member. "
        "I'll retrieve their entity information to compare their ages.",
        "tool_use",
        Usage(423, 202, 625),
        (
            entity("Alice", "toolu_0167cfEnoQaPviGdVXA95zcu"),
            entity("Bob", "toolu_01EEe2V5HD1Ac4rKiUR4HD2T"),
            entity("Charlie", "toolu_01XFyAjstT3966qvRynZyVPo"),
            entity("Daisy", "toolu_013mnQZbgtK2oe3Mo3XKJsx3"),
        ),
        model="claude-haiku-4-5-20251001",
    ),
    Answer(
        "one call, no text (crewAI)",
        bodies.TOOL_USE,
        "",
        "tool_use",
        Usage(620, 55, 675),
        (NativeCall("get_weather", {"location": "Tokyo, Japan"}, "toolu_01AoUFM2koNLsFscK6xjnLPo"),),
        model="claude-sonnet-4-5-20250929",
    ),
    Answer(
        "thinking is the reasoning, its block the artifact (crewAI)",
        bodies.THINKING,
        bodies.THINKING["content"][1]["text"],
        "end_turn",
        Usage(43, 199, 242),
        model="claude-sonnet-4-5-20250929",
        reasoning=bodies.THINKING["content"][0]["thinking"],
        artifacts=(Artifact("anthropic", "thinking", (bodies.THINKING["content"][0],)),),
    ),
    Answer(
        "cut off at max_tokens (crewAI)",
        bodies.MAX_TOKENS,
        "# The Last Song of Vaelthys",
        "max_tokens",
        Usage(16, 10, 26),
        model="claude-sonnet-4-20250514",
    ),
    Answer(
        "cached prompt tokens count as input, reads and writes apart (issue 14)",
        CACHED,
        "",
        "tool_use",
        Usage(1720, 55, 1775, cached_input_tokens=1000, cache_write_input_tokens=100),
        (NativeCall("get_weather", {"location": "Tokyo, Japan"}, "toolu_01AoUFM2koNLsFscK6xjnLPo"),),
        model="claude-sonnet-4-5-20250929",
    ),
    Answer(
        "server tools are not calls for the client",
        SERVER_TOOL,
        "Sunny.",
        "end_turn",
        Usage(620, 55, 675),
        model="claude-sonnet-4-5-20250929",
    ),
]


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("case", ANSWERS, ids=lambda case: case.id)
def test_answer(case: Answer, use_async: bool) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=case.body, headers={"request-id": "req_011CTestAnswer"})
        raw = call(AnthropicAdapter(ProviderOptions(api_key=KEY)), make_request(), use_async)
    assert raw == RawResponse(
        provider="anthropic",
        model=case.model,
        text=case.text,
        native_calls=case.calls,
        finish_reason=case.finish_reason,
        usage=case.usage,
        request_id="req_011CTestAnswer",
        body=case.body,
        artifacts=case.artifacts,
        reasoning=case.reasoning,
    )


# --- errors --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Failure:
    id: str
    status: int
    body: Any
    error: type[errors.ProviderError]
    code: str | None
    headers: dict[str, str] = field(default_factory=dict)
    retry_after: float | None = None
    feature: str | None = None


def rejected(message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}


FAILURES = [
    Failure(
        "400 unsupported effort level (recorded)",
        400,
        bodies.ERROR_400_EFFORT,
        errors.BadRequestError,
        "invalid_request_error",
    ),
    # Bedrock's answer for a model without structured outputs (vercel/ai#14773), and Azure's (agno#6842).
    Failure(
        "400 output_config.format not permitted",
        400,
        rejected("output_config.format: Extra inputs are not permitted"),
        errors.UnsupportedFeatureError,
        "invalid_request_error",
        feature="json_schema",
    ),
    Failure(
        "400 no structured outputs",
        400,
        rejected("Model 'claude-sonnet-4-6' does not support structured outputs."),
        errors.UnsupportedFeatureError,
        "invalid_request_error",
        feature="json_schema",
    ),
    Failure("401", 401, bodies.ERROR_401, errors.AuthenticationError, "authentication_error"),
    Failure("403", 403, bodies.ERROR_403, errors.PermissionDeniedError, "permission_error"),
    Failure(
        "404 unknown model (recorded)", 404, bodies.ERROR_404_UNKNOWN_MODEL, errors.NotFoundError, "not_found_error"
    ),
    Failure("413", 413, bodies.ERROR_413, errors.BadRequestError, "request_too_large"),
    Failure(
        "429 seconds", 429, bodies.ERROR_429, errors.RateLimitError, "rate_limit_error", {"retry-after": "20"}, 20.0
    ),
    Failure(
        "429 milliseconds win",
        429,
        bodies.ERROR_429,
        errors.RateLimitError,
        "rate_limit_error",
        {"retry-after": "20", "retry-after-ms": "1500"},
        1.5,
    ),
    Failure(
        "429 HTTP date in the past",
        429,
        bodies.ERROR_429,
        errors.RateLimitError,
        "rate_limit_error",
        {"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"},
        0.0,
    ),
    Failure("500", 500, bodies.ERROR_500, errors.ServerError, "api_error"),
    Failure(
        "529 overloaded", 529, bodies.ERROR_529, errors.OverloadedError, "overloaded_error", {"retry-after": "3"}, 3.0
    ),
    Failure("503 from a proxy, not JSON", 503, "upstream connect error", errors.OverloadedError, None),
]


def respond(router: Any, failure: Failure) -> Any:
    headers = {"request-id": "req_011CTestFailure", **failure.headers}
    if isinstance(failure.body, str):
        return router.post(URL).respond(failure.status, text=failure.body, headers=headers)
    return router.post(URL).respond(failure.status, json=failure.body, headers=headers)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("case", FAILURES, ids=lambda case: case.id)
def test_error(case: Failure, use_async: bool) -> None:
    adapter = AnthropicAdapter(ProviderOptions(api_key=KEY))
    with mock_http() as router:
        route = respond(router, case)
        with pytest.raises(errors.ProviderError) as caught:
            call(adapter, make_request(), use_async)
        assert route.call_count == 1  # The SDK's own retries are off.
    error = caught.value
    assert type(error) is case.error
    assert (error.provider, error.model, error.status) == ("anthropic", MODEL, case.status)
    assert error.request_id == "req_011CTestFailure"
    assert error.code == case.code
    assert error.retry_after == case.retry_after
    assert getattr(error, "feature", None) == case.feature
    assert error.body == case.body
    assert error.headers["request-id"] == "req_011CTestFailure"
    assert isinstance(error.__cause__, anthropic.APIStatusError)
    if isinstance(case.body, dict):
        assert case.body["error"]["message"] in str(error)
    assert KEY not in str(error) + repr(error) + repr(adapter)


def test_the_request_id_in_the_body_is_used_without_the_header() -> None:
    with mock_http() as router:
        router.post(URL).respond(404, json=bodies.ERROR_404_UNKNOWN_MODEL)
        with pytest.raises(errors.NotFoundError) as caught:
            AnthropicAdapter(ProviderOptions(api_key=KEY)).send(make_request())
    assert caught.value.request_id == "req_011CdufXo8Y2LVfY2veyuQWG"


def test_a_key_echoed_in_an_error_message_is_masked() -> None:
    with mock_http() as router:
        router.post(URL).respond(
            401, json={"type": "error", "error": {"type": "authentication_error", "message": f"bad key {KEY}"}}
        )
        with pytest.raises(errors.AuthenticationError) as caught:
            AnthropicAdapter(ProviderOptions(api_key=KEY)).send(make_request())
    assert KEY not in str(caught.value)
    assert "bad key ***" in str(caught.value)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_an_answer_that_is_not_json_is_a_server_error(use_async: bool) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, text="<html>Bad gateway</html>", headers={"request-id": "req_1"})
        with pytest.raises(errors.ServerError) as caught:
            call(AnthropicAdapter(ProviderOptions(api_key=KEY)), make_request(), use_async)
    assert (caught.value.status, caught.value.request_id) == (200, "req_1")
    assert caught.value.body == "<html>Bad gateway</html>"


def sdk_httpx() -> Any:
    """The HTTP library the installed SDK sends with: httpx2 for anthropic 2.x, httpx before."""
    return importlib.import_module("httpx2" if hasattr(anthropic._base_client, "httpx2") else "httpx")


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize(
    ("failure", "expected"),
    [("ReadTimeout", errors.ProviderTimeoutError), ("ConnectError", errors.ProviderConnectionError)],
)
def test_no_answer(failure: str, expected: type[errors.ProviderError], use_async: bool) -> None:
    with mock_http() as router:
        route = router.post(URL).mock(side_effect=getattr(sdk_httpx(), failure)("no answer"))
        with pytest.raises(expected) as caught:
            call(AnthropicAdapter(ProviderOptions(api_key=KEY)), make_request(), use_async)
        assert route.call_count == 1
    assert caught.value.status is None
    assert isinstance(caught.value.__cause__, anthropic.APIConnectionError)


# --- options and credentials ---------------------------------------------------------------------


@pytest.fixture
def no_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """No key in the environment, and no SDK profile to find one in."""
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_PROFILE", "ANTHROPIC_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))


@pytest.mark.usefixtures("no_credentials")
@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_without_a_key_the_error_names_the_variable(use_async: bool) -> None:
    with mock_http() as router, pytest.raises(errors.AuthenticationError, match="ANTHROPIC_API_KEY"):
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        call(AnthropicAdapter(ProviderOptions()), make_request(), use_async)
    assert not router.calls


@pytest.mark.usefixtures("no_credentials")
def test_the_key_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        AnthropicAdapter(ProviderOptions()).send(make_request())
        sent = router.calls[0].request.headers
        # anthropic 2.x sends the key as a bearer token, 0.x as x-api-key.
        assert KEY in (sent.get("x-api-key"), sent.get("authorization", "").removeprefix("Bearer "))


def test_base_url_and_headers_are_used() -> None:
    options = ProviderOptions(api_key=KEY, base_url="https://proxy.example.com/anthropic", headers={"X-Team": "search"})
    with mock_http() as router:
        router.post("https://proxy.example.com/anthropic/v1/messages").respond(200, json=bodies.MAX_TOKENS)
        AnthropicAdapter(options).send(make_request())
        assert router.calls[0].request.headers["x-team"] == "search"


def test_one_sdk_client_serves_every_call() -> None:
    adapter = AnthropicAdapter(ProviderOptions(api_key=KEY))
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        adapter.send(make_request())
        first = adapter._client
        adapter.send(make_request())
        assert adapter._client is first
        assert len(router.calls) == 2


def test_the_adapter_is_registered_and_keeps_the_key_out_of_its_repr() -> None:
    adapter = adapter_class("anthropic")(ProviderOptions(api_key=KEY))  # type: ignore[call-arg]
    assert isinstance(adapter, AnthropicAdapter)
    assert isinstance(adapter, Adapter)
    assert adapter.provider == "anthropic"
    assert KEY not in repr(adapter)


# --- end to end, through llmrelay.Client ---------------------------------------------------------

TOKYO_TOOL = {
    "name": "get_weather",
    "description": "Get the current weather in a given location",
    "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]},
}
TOKYO = [{"role": "user", "content": "What is the weather in Tokyo? Use the get_weather tool."}]


def client(**options: Any) -> llmrelay.Client:
    return llmrelay.Client(f"anthropic:{MODEL}", api_key=KEY, learner=CapabilityLearner(), **options)


def test_client_native_call_then_its_result_round_trips() -> None:
    with mock_http() as router:
        route = router.post(URL)
        route.side_effect = [
            httpx.Response(200, json=bodies.TOOL_USE),  # respx serves httpx responses to either stack
            httpx.Response(200, json=bodies.TOOL_RESULT_ANSWER),
        ]
        first = client().complete(TOKYO, tools=[TOKYO_TOOL])
        call_id = "toolu_01AoUFM2koNLsFscK6xjnLPo"
        assert first.tool_calls == [ToolCall("get_weather", {"location": "Tokyo, Japan"}, call_id)]
        assert (first.content, first.needs_more_work, first.mode) == ("", True, "native_tools")
        assert (first.finish_reason, first.provider_finish_reason) == ("tool_calls", "tool_use")
        assert (first.provider, first.model, first.usage) == (
            "anthropic",
            "claude-sonnet-4-5-20250929",
            Usage(620, 55, 675),
        )

        answered = {"role": "tool", "tool_call_id": call_id, "content": "Sunny, 72F"}
        second = client().complete([*TOKYO, first, answered], tools=[TOKYO_TOOL])
        sent = json.loads(router.calls[1].request.content)
    assert sent["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": call_id, "name": "get_weather", "input": {"location": "Tokyo, Japan"}}
            ],
        },
        {"role": "user", "content": [result(call_id, "Sunny, 72F")]},
    ]
    assert second.content == "The weather in Tokyo is currently sunny and 72°F (approximately 22°C)."
    assert (second.tool_calls, second.finish_reason, second.needs_more_work) == ([], "stop", None)


async def test_async_client_reads_parallel_calls() -> None:
    entity_tool = {
        "name": "retrieve_entity_info",
        "parameters": {"type": "object", "properties": {"name": {"type": "string"}}},
    }
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.PARALLEL_TOOL_USE)
        answer = await llmrelay.AsyncClient(f"anthropic:{MODEL}", api_key=KEY).complete(
            "Who is youngest?", tools=[entity_tool]
        )
    assert [call.arguments["name"] for call in answer.tool_calls] == ["Alice", "Bob", "Charlie", "Daisy"]
    assert answer.content.startswith("I'll help you find out")
    assert answer.finish_reason == "tool_calls"


def test_client_json_schema_reads_the_envelope() -> None:
    envelope = {
        "content": "Checking.",
        "toolCalls": [{"name": "get_weather", "arguments": '{"location": "Tokyo"}'}],
        "needsMoreWork": True,
    }
    answer_body = {**bodies.STRUCTURED, "content": [{"type": "text", "text": json.dumps(envelope)}]}
    with mock_http() as router:
        router.post(URL).respond(200, json=answer_body)
        answer = client(mode="json_schema").complete(TOKYO, tools=[TOKYO_TOOL])
        sent = json.loads(router.calls[0].request.content)
    assert sent["output_config"]["format"]["type"] == "json_schema"
    assert answer.tool_calls == [ToolCall("get_weather", {"location": "Tokyo"})]
    assert (answer.content, answer.needs_more_work, answer.mode) == ("Checking.", True, "json_schema")


def test_client_reads_claude_xml_written_in_text_mode() -> None:
    xml = (
        'Let me check.\n<function_calls>\n<invoke name="get_weather">\n'
        '<parameter name="location">Tokyo</parameter>\n</invoke>\n</function_calls>'
    )
    with mock_http() as router:
        router.post(URL).respond(
            200, json={**bodies.MAX_TOKENS, "content": [{"type": "text", "text": xml}], "stop_reason": "end_turn"}
        )
        answer = client(mode="text").complete(TOKYO, tools=[TOKYO_TOOL])
    assert [(call.name, call.arguments) for call in answer.tool_calls] == [("get_weather", {"location": "Tokyo"})]
    assert answer.content == "Let me check."
    assert answer.finish_reason == "tool_calls"


def test_client_raises_the_mapped_error() -> None:
    with mock_http() as router:
        router.post(URL).respond(404, json=bodies.ERROR_404_UNKNOWN_MODEL)
        with pytest.raises(errors.NotFoundError, match="claude-sonet-4-5"):
            client().complete("hello")
