"""The Gemini adapter, through the real `google-genai` SDK, with HTTP answered by `mock_http()`.

Every test reads what reached the wire (the JSON body the SDK sent) or serves a real answer body
(`gemini_bodies`, from the shared conformance recordings and users' reports) and checks what came
back. google-genai 3.x sends through httpx2, 1.x through httpx: the same tests run on both.
"""

from __future__ import annotations

import asyncio
import base64
import importlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

genai = pytest.importorskip("google.genai")

from google.genai import errors as genai_errors  # noqa: E402 - after the skip: these import the SDK

import llmrelay  # noqa: E402
from llmrelay import errors  # noqa: E402
from llmrelay._envelope import ToolCall, Usage  # noqa: E402
from llmrelay._instructions import envelope_schema, instructions  # noqa: E402
from llmrelay._tools import Tool  # noqa: E402
from llmrelay._types import Message, NamedTool, NativeCall, RawResponse, Request, ToolChoice  # noqa: E402
from llmrelay.adapters import Adapter, ProviderOptions, adapter_class  # noqa: E402
from llmrelay.adapters.gemini import GeminiAdapter  # noqa: E402
from llmrelay.capabilities import CapabilityLearner  # noqa: E402
from llmrelay.testing import mock_http  # noqa: E402

from . import gemini_bodies as bodies  # noqa: E402

MODEL = "gemini-2.5-flash"
HOST = "https://generativelanguage.googleapis.com"
URL = f"{HOST}/v1beta/models/{MODEL}:generateContent"
KEY = "AIzaSyFAKE-key-that-must-never-be-shown-0"
WEATHER = Tool(
    "get_weather",
    "Current weather in a city",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
SENTINEL = "skip_thought_signature_validator"


def make_request(
    *messages: Message,
    model: str = MODEL,
    mode: Any = "native_tools",
    tools: tuple[Tool, ...] = (WEATHER,),
    tool_choice: ToolChoice | None = None,
    params: Mapping[str, Any] | None = None,
) -> Request:
    return Request(
        model=model,
        messages=messages or (Message("user", "Weather in Paris?"),),
        mode=mode,
        tools=tools,
        tool_choice=tool_choice,
        params=params or {},
        response_schema=envelope_schema(tools) if mode == "json_schema" else None,
    )


def call(adapter: GeminiAdapter, request: Request, use_async: bool) -> RawResponse:
    return asyncio.run(adapter.asend(request)) if use_async else adapter.send(request)


def url(model: str) -> str:
    return f"{HOST}/v1beta/models/{model}:generateContent"


def sent_body(request: Request, *, use_async: bool = False, adapter: GeminiAdapter | None = None) -> dict[str, Any]:
    """The JSON body the SDK put on the wire for `request`."""
    with mock_http() as router:
        router.post(url(request.model)).respond(200, json=bodies.MAX_TOKENS)
        call(adapter or GeminiAdapter(ProviderOptions(api_key=KEY)), request, use_async)
        body: dict[str, Any] = json.loads(router.calls[0].request.content)
    return body


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "parts": [{"text": text}]}


def schema_of(declaration: Mapping[str, Any]) -> Any:
    # google-genai 1.x and 3.x both write the field name in snake case (the API reads either);
    # accept the camel-case spelling too, should a later SDK switch.
    return declaration.get("parameters_json_schema", declaration.get("parametersJsonSchema"))


# --- what each mode sends ------------------------------------------------------------------------


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_native_tools_sends_declarations_with_their_full_json_schema(use_async: bool) -> None:
    body = sent_body(
        make_request(Message("system", "Be brief."), Message("user", "Weather in Paris?")), use_async=use_async
    )
    assert body["contents"] == [user("Weather in Paris?")]
    assert body["systemInstruction"] == {"parts": [{"text": "Be brief."}]}
    [declaration] = body["tools"][0]["functionDeclarations"]
    assert (declaration["name"], declaration["description"]) == ("get_weather", "Current weather in a city")
    assert schema_of(declaration) == WEATHER.parameters
    assert "parameters" not in declaration  # Not the OpenAPI subset: the schema as the tool gave it.
    assert "toolConfig" not in body  # No tool_choice: Gemini's default (AUTO).


def test_a_tool_without_description_sends_none() -> None:
    body = sent_body(make_request(tools=(Tool("ping"),)))
    [declaration] = body["tools"][0]["functionDeclarations"]
    assert declaration.keys() - {"parameters_json_schema", "parametersJsonSchema"} == {"name"}
    assert schema_of(declaration) == {"type": "object", "properties": {}}


def test_native_tools_mode_without_tools_sends_neither_tools_nor_tool_config() -> None:
    body = sent_body(make_request(tools=(), tool_choice="required"))
    assert "tools" not in body
    assert "toolConfig" not in body


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        ("auto", {"mode": "AUTO"}),
        ("none", {"mode": "NONE"}),
        ("required", {"mode": "ANY"}),
        (NamedTool("get_weather"), {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}),
    ],
    ids=["auto", "none", "required", "named"],
)
def test_tool_choice(choice: ToolChoice, expected: dict[str, Any]) -> None:
    body = sent_body(make_request(tool_choice=choice))
    assert body["toolConfig"] == {"functionCallingConfig": expected}


@dataclass
class Conversation:
    id: str
    messages: tuple[Message, ...]
    contents: list[dict[str, Any]]
    system: dict[str, Any] | None = None
    model: str = MODEL


def fc(name: str, args: dict[str, Any], call_id: str | None = None, signature: str | None = None) -> dict[str, Any]:
    part: dict[str, Any] = {"functionCall": {"name": name, "args": args}}
    if call_id is not None:
        part["functionCall"]["id"] = call_id
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def fr(name: str, response: dict[str, Any], call_id: str | None = None) -> dict[str, Any]:
    part: dict[str, Any] = {"functionResponse": {"name": name, "response": response}}
    if call_id is not None:
        part["functionResponse"]["id"] = call_id
    return part


PARIS = ToolCall("get_weather", {"city": "Paris"}, "call_9pQ2mXbYt7LwKd3Rz8VnHs1a")  # An OpenAI id.
LONDON = ToolCall("get_weather", {"city": "London"}, "toolu_01A09q90qw90lq917835lq9")  # An Anthropic id.

CONVERSATIONS = [
    Conversation(
        "two calls, their results in one turn, then the user again",
        (
            Message("system", "You are terse."),
            Message("user", "Weather in Paris and London?"),
            Message("assistant", "Checking both.", (PARIS, LONDON)),
            Message("tool", "18C and sunny", tool_call_id=PARIS.id, name="get_weather"),
            Message("tool", '{"temp_c": 12, "sky": "rain"}', tool_call_id=LONDON.id, name="get_weather"),
            Message("assistant", "Paris 18C, London 12C."),
            Message("user", "Thanks!"),
        ),
        [
            user("Weather in Paris and London?"),
            {
                "role": "model",
                "parts": [
                    {"text": "Checking both."},
                    fc("get_weather", {"city": "Paris"}, PARIS.id),
                    fc("get_weather", {"city": "London"}, LONDON.id),
                ],
            },
            {
                "role": "user",
                "parts": [
                    fr("get_weather", {"output": "18C and sunny"}, PARIS.id),
                    fr("get_weather", {"temp_c": 12, "sky": "rain"}, LONDON.id),
                ],
            },
            {"role": "model", "parts": [{"text": "Paris 18C, London 12C."}]},
            user("Thanks!"),
        ],
        system={"parts": [{"text": "You are terse."}]},
    ),
    Conversation(
        "a result without a name gets the name of the call with its id",
        (
            Message("user", "Weather in Paris?"),
            Message("assistant", "", (PARIS,)),
            Message("tool", "18C", tool_call_id=PARIS.id),
        ),
        [
            user("Weather in Paris?"),
            {"role": "model", "parts": [fc("get_weather", {"city": "Paris"}, PARIS.id)]},
            {"role": "user", "parts": [fr("get_weather", {"output": "18C"}, PARIS.id)]},
        ],
    ),
    Conversation(
        "calls without ids are sent without ids, matched by name and order",
        (
            Message("user", "Weather in Paris?"),
            Message("assistant", "", (ToolCall("get_weather", {"city": "Paris"}),)),
            Message("tool", "[18, 19]", name="get_weather"),
        ),
        [
            user("Weather in Paris?"),
            {"role": "model", "parts": [fc("get_weather", {"city": "Paris"})]},
            {"role": "user", "parts": [fr("get_weather", {"output": "[18, 19]"})]},  # Not an object: wrapped.
        ],
    ),
    Conversation(
        "empty turns are left out and system turns join systemInstruction",
        (
            Message("system", "First rule."),
            Message("user", "Hi"),
            Message("assistant", ""),
            Message("system", "Second rule."),
            Message("user", "Hello?"),
        ),
        [user("Hi"), user("Hello?")],
        system={"parts": [{"text": "First rule."}, {"text": "Second rule."}]},
    ),
    Conversation(
        "Gemma takes no system instruction: it opens the first user turn",
        (Message("system", "Be brief."), Message("system", "Use metric units."), Message("user", "Weather?")),
        [{"role": "user", "parts": [{"text": "Be brief.\n\nUse metric units."}, {"text": "Weather?"}]}],
        model="gemma-3-27b-it",
    ),
]


@pytest.mark.parametrize("case", CONVERSATIONS, ids=lambda case: case.id)
def test_conversation(case: Conversation) -> None:
    body = sent_body(make_request(*case.messages, model=case.model))
    assert body["contents"] == case.contents
    assert body.get("systemInstruction") == case.system


def test_a_result_naming_no_tool_and_answering_no_known_call_is_a_config_error() -> None:
    request = make_request(Message("user", "Hi"), Message("tool", "18C", tool_call_id="call_unknown"))
    with mock_http() as router, pytest.raises(errors.ConfigError, match="call_unknown"):
        GeminiAdapter(ProviderOptions(api_key=KEY)).send(request)
    assert not router.calls


def test_an_id_gemini_might_refuse_is_mapped_the_same_way_on_the_call_and_its_result() -> None:
    odd = ToolCall("get_weather", {"city": "Paris"}, "call with spaces/and+slashes=")
    body = sent_body(
        make_request(
            Message("user", "Hi"), Message("assistant", "", (odd,)), Message("tool", "18C", tool_call_id=odd.id)
        )
    )
    call_id = body["contents"][1]["parts"][0]["functionCall"]["id"]
    assert call_id == body["contents"][2]["parts"][0]["functionResponse"]["id"]
    assert call_id != odd.id
    assert call_id.replace("_", "").isalnum()


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"max_tokens": 256}, {"maxOutputTokens": 256}),
        ({"max_output_tokens": 64}, {"maxOutputTokens": 64}),
        ({"stop": "END"}, {"stopSequences": ["END"]}),
        ({"stop": ["END", "STOP"]}, {"stopSequences": ["END", "STOP"]}),
        (
            {"temperature": 0.2, "top_p": 0.9, "top_k": 40, "seed": 7},
            {"temperature": 0.2, "topP": 0.9, "topK": 40, "seed": 7},
        ),
    ],
    ids=["max_tokens", "max_output_tokens", "stop string", "stop list", "sampling"],
)
def test_params(params: dict[str, Any], expected: dict[str, Any]) -> None:
    body = sent_body(make_request(params=params))
    assert body["generationConfig"] == expected


def test_any_generation_config_field_passes_through() -> None:
    body = sent_body(make_request(params={"thinking_config": {"thinking_budget": 0}}))
    # google-genai 3.x writes the nested field as given, 1.x in camel case; the API reads either.
    assert body["generationConfig"]["thinkingConfig"] in ({"thinking_budget": 0}, {"thinkingBudget": 0})


def test_a_parameter_gemini_does_not_take_is_a_config_error_before_any_request() -> None:
    with mock_http() as router, pytest.raises(errors.ConfigError, match="frequency_penalty_typo"):
        GeminiAdapter(ProviderOptions(api_key=KEY)).send(make_request(params={"frequency_penalty_typo": 1}))
    assert not router.calls


TOOL_TURNS = (
    Message("system", "You are terse."),
    Message("user", "Weather in Paris?"),
    Message("assistant", "", (PARIS,)),
    Message("tool", "18C", tool_call_id=PARIS.id, name="get_weather"),
)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_json_schema_sends_the_envelope_as_response_json_schema(use_async: bool) -> None:
    body = sent_body(make_request(*TOOL_TURNS, mode="json_schema"), use_async=use_async)
    assert body["generationConfig"] == {
        "responseMimeType": "application/json",
        "responseJsonSchema": envelope_schema((WEATHER,)),
    }
    assert "tools" not in body
    assert "toolConfig" not in body
    [system] = body["systemInstruction"]["parts"]
    assert system["text"] == "You are terse.\n\n" + instructions("json_schema", (WEATHER,), None)
    # The earlier call and its result, as text: these modes have no tool roles.
    assert [content["role"] for content in body["contents"]] == ["user", "model", "user"]
    assert all(part.keys() == {"text"} for content in body["contents"] for part in content["parts"])
    assert json.loads(body["contents"][1]["parts"][0]["text"])["toolCalls"] == [
        {"name": "get_weather", "arguments": {"city": "Paris"}}
    ]


def test_json_object_asks_for_json_without_a_schema() -> None:
    body = sent_body(make_request(*TOOL_TURNS, mode="json_object", tool_choice="required"))
    assert body["generationConfig"] == {"responseMimeType": "application/json"}
    assert "tools" not in body
    assert "toolConfig" not in body
    assert body["systemInstruction"]["parts"][0]["text"].endswith("You must call at least one tool in this reply.")


def test_text_mode_sends_the_instructions_and_no_tools() -> None:
    body = sent_body(make_request(*TOOL_TURNS, mode="text"))
    assert "generationConfig" not in body or "responseMimeType" not in body["generationConfig"]
    assert "tools" not in body
    assert body["systemInstruction"]["parts"][0]["text"].startswith("You are terse.\n\nYou can call tools.")
    assert body["contents"][2]["parts"][0]["text"].startswith("Result of tool get_weather")


def test_text_mode_without_tools_sends_the_conversation_as_it_is() -> None:
    body = sent_body(make_request(Message("user", "Hi"), mode="text", tools=()))
    assert body["contents"] == [user("Hi")]
    assert "systemInstruction" not in body


# --- thought signatures ----------------------------------------------------------------------------


def signature_bytes(text: str) -> bytes:
    return base64.urlsafe_b64decode(text.replace("+", "-").replace("/", "_"))


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_a_calls_thought_signature_goes_back_with_it(use_async: bool) -> None:
    adapter = GeminiAdapter(ProviderOptions(api_key=KEY))
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.THOUGHT_THEN_CALL)
        [native] = call(adapter, make_request(), use_async).native_calls
    answered = ToolCall(native.name, dict(native.arguments or {}), native.id)
    body = sent_body(
        make_request(
            Message("user", "Add 15 and 27"),
            Message("assistant", "", (answered,)),
            Message("tool", "42", tool_call_id=native.id, name="add_numbers"),
        ),
        adapter=adapter,
        use_async=use_async,
    )
    [part] = body["contents"][1]["parts"]
    recorded = bodies.THOUGHT_THEN_CALL["candidates"][0]["content"]["parts"][1]["thoughtSignature"]
    # The SDK decodes the base64 it receives and re-encodes it URL-safe: the same bytes.
    assert signature_bytes(part["thoughtSignature"]) == signature_bytes(recorded)
    assert part["functionCall"]["id"] == native.id


def test_a_signature_on_the_tool_call_goes_back_from_a_fresh_adapter() -> None:
    """The signature travels on ToolCall.signature, so another client or process can send it back."""
    recorded = bodies.THOUGHT_THEN_CALL["candidates"][0]["content"]["parts"][1]["thoughtSignature"]
    signed = ToolCall("add_numbers", {"a": 15, "b": 27}, "call_x", signature=recorded)
    body = sent_body(
        make_request(Message("user", "Add"), Message("assistant", "", (signed,)), model="gemini-3-flash-preview")
    )
    [part] = body["contents"][1]["parts"]
    assert signature_bytes(part["thoughtSignature"]) == signature_bytes(recorded)


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("gemini-3-flash-preview", [SENTINEL, None]),
        ("gemini-flash-latest", [SENTINEL, None]),
        ("gemini-2.5-flash", [None, None]),
        ("gemma-3-27b-it", [None, None]),
    ],
)
def test_calls_gemini_never_signed_get_the_documented_sentinel_on_gemini_3(model: str, expected: list[Any]) -> None:
    # Only the first call of a step carries a signature, as in Gemini's own parallel answers.
    request = make_request(Message("user", "Weather?"), Message("assistant", "", (PARIS, LONDON)), model=model)
    parts = sent_body(request)["contents"][1]["parts"]
    assert [part.get("thoughtSignature") for part in parts] == expected


# --- what comes back -----------------------------------------------------------------------------


@dataclass
class Answer:
    id: str
    body: dict[str, Any]
    text: str
    calls: list[tuple[str, dict[str, Any]]]
    finish: str | None
    usage: Usage
    model: str
    request_id: str | None
    ids: list[str | None] = field(default_factory=list)
    """Call ids expected as Gemini sent them; an empty list means made up by us."""


GEMINI_3_CALL_WITH_ID = {  # The shape ai.google.dev/gemini-api/docs/function-calling shows for Gemini 3.
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {"id": "8f2b1c0d", "name": "get_weather", "args": {"city": "Paris"}},
                        "thoughtSignature": "Et0BCtoBAXLI2nwMB4mo",
                    }
                ],
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "usageMetadata": {"promptTokenCount": 60, "candidatesTokenCount": 16, "totalTokenCount": 76},
    "modelVersion": "gemini-3-flash-preview",
    "responseId": "6XJFadi3PJOx-sAPgJ3S6Qs",
}
PROMPT_BLOCKED = {  # No candidate at all: the documented promptFeedback shape.
    "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
    "usageMetadata": {"promptTokenCount": 12, "totalTokenCount": 12},
    "modelVersion": "gemini-2.5-flash",
    "responseId": "blockedResponse01",
}
MALFORMED_CALL = {
    "candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL", "index": 0}],
    "usageMetadata": {"promptTokenCount": 40, "totalTokenCount": 40},
    "modelVersion": "gemini-2.0-flash",
    "responseId": "malformed01",
}

ANSWERS = [
    Answer(
        "Gemini 3 text, its thinking counted as output",
        bodies.TEXT_GEMINI_3,
        "Hello! How can I help you today?",
        [],
        "STOP",
        Usage(3, 213, 216, reasoning_tokens=204),
        "gemini-3-pro-preview",
        "kTgtafe4Fabn_uMPzdzJkAM",
    ),
    Answer(
        "a thought then a call: the thought is not text",
        bodies.THOUGHT_THEN_CALL,
        "",
        [("add_numbers", {"a": 15, "b": 27})],
        "STOP",
        Usage(104, 69, 173, reasoning_tokens=47),
        "gemini-2.5-flash",
        "MpgPapmwO_vN-sAPvrWJmA0",
    ),
    Answer(
        "structured output after a thought",
        bodies.STRUCTURED,
        '{"operation":"addition","result":42,"explanation":"The sum of 15 and 27 is 42."}',
        [],
        "STOP",
        Usage(321, 159, 480, reasoning_tokens=131),
        "gemini-2.5-flash",
        "NZgPasDuKf2VjMcPwc6D4Ak",
    ),
    Answer(
        "cut off at max tokens",
        bodies.MAX_TOKENS,
        "The capital of France is",
        [],
        "MAX_TOKENS",
        Usage(15, 5, 20),
        "gemini-2.5-flash",
        "R5MoavWNNp_8qtsP2fWD2A0",
    ),
    Answer(
        "a call without arguments",
        bodies.CALL_WITHOUT_ARGS,
        "",
        [("bar", {})],
        "STOP",
        Usage(21, 1, 22),
        "gemini-2.0-flash",
        "LFteaOOfMaPG1PIPi5qVEA",
    ),
    Answer(
        "parallel calls",
        bodies.PARALLEL_CALLS,
        "",
        [("get_current_temperature", {"city": "Paris"}), ("get_current_temperature", {"city": "London"})],
        "STOP",
        Usage(37, 14, 51),
        "gemini-2.0-flash",
        "h99baZTLOoSShMIPgYaAgQw",
    ),
    Answer(
        "a Gemini 3 call keeps its id",
        GEMINI_3_CALL_WITH_ID,
        "",
        [("get_weather", {"city": "Paris"})],
        "STOP",
        Usage(60, 16, 76),
        "gemini-3-flash-preview",
        "6XJFadi3PJOx-sAPgJ3S6Qs",
        ids=["8f2b1c0d"],
    ),
    Answer(
        "a blocked prompt reports its block reason",
        PROMPT_BLOCKED,
        "",
        [],
        "PROHIBITED_CONTENT",
        Usage(12, 0, 12),
        "gemini-2.5-flash",
        "blockedResponse01",
    ),
    Answer(
        "a malformed call ends the answer with nothing in it",
        MALFORMED_CALL,
        "",
        [],
        "MALFORMED_FUNCTION_CALL",
        Usage(40, 0, 40),
        "gemini-2.0-flash",
        "malformed01",
    ),
]


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("case", ANSWERS, ids=lambda case: case.id)
def test_answer(case: Answer, use_async: bool) -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=case.body)
        raw = call(GeminiAdapter(ProviderOptions(api_key=KEY)), make_request(), use_async)
    assert raw.provider == "gemini"
    assert raw.text == case.text
    assert [(c.name, c.arguments) for c in raw.native_calls] == case.calls
    assert (raw.finish_reason, raw.usage, raw.model, raw.request_id) == (
        case.finish,
        case.usage,
        case.model,
        case.request_id,
    )
    ids = [c.id for c in raw.native_calls]
    if case.ids:
        assert ids == case.ids
    else:
        assert all(i and i.startswith("call_") for i in ids) and len(set(ids)) == len(ids)
    assert raw.body == case.body  # The JSON exactly as it came, fields the SDK does not model included.
    candidates = case.body.get("candidates") or [{}]
    parts = candidates[0].get("content", {}).get("parts", [])
    assert raw.reasoning == "".join(p["text"] for p in parts if p.get("thought"))  # Issue 14: thoughts are reasoning.


def test_an_answer_that_is_not_json_is_a_server_error() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, text="<html>proxy login</html>")
        with pytest.raises(errors.ServerError, match="not JSON"):
            GeminiAdapter(ProviderOptions(api_key=KEY)).send(make_request())


def test_a_request_id_header_wins_over_the_response_id() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.MAX_TOKENS, headers={"X-Request-Id": "proxy-req-1"})
        raw = GeminiAdapter(ProviderOptions(api_key=KEY)).send(make_request())
    assert raw.request_id == "proxy-req-1"


def test_native_calls_carry_arguments_as_a_dict() -> None:
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.THOUGHT_THEN_CALL)
        [native] = GeminiAdapter(ProviderOptions(api_key=KEY)).send(make_request()).native_calls
    recorded = bodies.THOUGHT_THEN_CALL["candidates"][0]["content"]["parts"][1]["thoughtSignature"]
    assert native == NativeCall("add_numbers", {"a": 15, "b": 27}, native.id, recorded)


# --- errors --------------------------------------------------------------------------------------


@dataclass
class Failure:
    id: str
    status: int
    body: Any
    error: type[errors.ProviderError]
    code: str | None
    headers: dict[str, str] = field(default_factory=dict)
    retry_after: float | None = None
    feature: str | None = None


ERROR_504 = {  # Google's wording for a request that ran out of server time.
    "error": {
        "code": 504,
        "message": "Deadline expired before operation could complete.",
        "status": "DEADLINE_EXCEEDED",
    }
}

FAILURES = [
    Failure("400 bad key", 400, bodies.ERROR_400_BAD_KEY, errors.AuthenticationError, "INVALID_ARGUMENT"),
    Failure(
        "400 no function calling",
        400,
        bodies.ERROR_400_NO_TOOLS,
        errors.UnsupportedFeatureError,
        "INVALID_ARGUMENT",
        feature="native_tools",
    ),
    Failure(
        "400 no JSON mode",
        400,
        bodies.ERROR_400_NO_JSON_MODE,
        errors.UnsupportedFeatureError,
        "INVALID_ARGUMENT",
        feature="json_object",
    ),
    Failure("400 location", 400, bodies.ERROR_400_LOCATION, errors.BadRequestError, "FAILED_PRECONDITION"),
    Failure("403 leaked key", 403, bodies.ERROR_403_LEAKED_KEY, errors.PermissionDeniedError, "PERMISSION_DENIED"),
    Failure("404 unknown model", 404, bodies.ERROR_404_MODEL, errors.NotFoundError, "NOT_FOUND"),
    Failure("429 busy", 429, bodies.ERROR_429, errors.RateLimitError, "RESOURCE_EXHAUSTED"),
    Failure(
        "429 quota with RetryInfo",
        429,
        bodies.ERROR_429_QUOTA,
        errors.RateLimitError,
        "RESOURCE_EXHAUSTED",
        retry_after=45.0,
    ),
    Failure(
        "429 retry-after header first",
        429,
        bodies.ERROR_429_QUOTA,
        errors.RateLimitError,
        "RESOURCE_EXHAUSTED",
        {"retry-after": "7"},
        7.0,
    ),
    Failure(
        "429 retry-after-ms",
        429,
        bodies.ERROR_429,
        errors.RateLimitError,
        "RESOURCE_EXHAUSTED",
        {"retry-after-ms": "1500"},
        1.5,
    ),
    Failure(
        "429 retry-after date in the past",
        429,
        bodies.ERROR_429,
        errors.RateLimitError,
        "RESOURCE_EXHAUSTED",
        {"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"},
        0.0,
    ),
    Failure("500", 500, bodies.ERROR_500, errors.ServerError, "INTERNAL"),
    Failure("503 overloaded", 503, bodies.ERROR_503, errors.OverloadedError, "UNAVAILABLE"),
    Failure("504 deadline", 504, ERROR_504, errors.ServerError, "DEADLINE_EXCEEDED"),
    Failure("502 from a proxy, not JSON", 502, "upstream connect error", errors.ServerError, "Bad Gateway"),
]


def respond(router: Any, failure: Failure, target: str = URL) -> Any:
    headers = {"x-request-id": "req-test-failure", **failure.headers}
    if isinstance(failure.body, str):
        return router.post(target).respond(failure.status, text=failure.body, headers=headers)
    return router.post(target).respond(failure.status, json=failure.body, headers=headers)


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("case", FAILURES, ids=lambda case: case.id)
def test_error(case: Failure, use_async: bool) -> None:
    adapter = GeminiAdapter(ProviderOptions(api_key=KEY))
    with mock_http() as router:
        route = respond(router, case)
        with pytest.raises(errors.ProviderError) as caught:
            call(adapter, make_request(), use_async)
        assert route.call_count == 1  # The SDK's own retries are off.
    error = caught.value
    assert type(error) is case.error
    assert (error.provider, error.model, error.status) == ("gemini", MODEL, case.status)
    assert error.request_id == "req-test-failure"
    assert error.code == case.code
    assert error.retry_after == case.retry_after
    assert getattr(error, "feature", None) == case.feature
    assert error.headers["x-request-id"] == "req-test-failure"
    assert isinstance(error.__cause__, genai_errors.APIError)
    if isinstance(case.body, dict):
        assert error.body == case.body
        assert case.body["error"]["message"] in str(error)
    else:
        assert case.body in str(error)
    assert KEY not in str(error) + repr(error) + repr(adapter)


def test_a_key_echoed_in_an_error_is_masked_in_the_message_and_the_body() -> None:
    body = {"error": {"code": 400, "message": f"API key not valid: {KEY}", "status": "INVALID_ARGUMENT"}}
    other_key = "AIzaSyD-test_0123456789abcdefghijklmnop"  # Not ours, shaped like one.
    body["error"]["details"] = [{"links": [{"url": f"https://ai.google.dev/x?key={other_key}"}]}]
    with mock_http() as router:
        router.post(URL).respond(400, json=body)
        with pytest.raises(errors.AuthenticationError) as caught:
            GeminiAdapter(ProviderOptions(api_key=KEY)).send(make_request())
    assert "API key not valid: ***" in str(caught.value)
    assert KEY not in json.dumps(caught.value.body)
    assert other_key not in json.dumps(caught.value.body)


def sdk_httpx() -> Any:
    """The HTTP library the installed SDK sends with: httpx2 for google-genai 3.x, httpx before."""
    major = int(genai.__version__.split(".")[0])
    return importlib.import_module("httpx2" if major >= 3 else "httpx")


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize(
    ("failure", "expected"),
    [("ReadTimeout", errors.ProviderTimeoutError), ("ConnectError", errors.ProviderConnectionError)],
)
def test_no_answer(failure: str, expected: type[errors.ProviderError], use_async: bool) -> None:
    exception = getattr(sdk_httpx(), failure)("no answer")
    with mock_http() as router:
        route = router.post(URL).mock(side_effect=exception)
        with pytest.raises(expected) as caught:
            call(GeminiAdapter(ProviderOptions(api_key=KEY)), make_request(), use_async)
        assert route.call_count == 1  # Not retried by the SDK, though it counts these as transient.
    assert caught.value.status is None
    assert isinstance(caught.value.__cause__, type(exception))


# --- options and credentials ---------------------------------------------------------------------


@pytest.fixture
def no_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_ENTERPRISE"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("no_credentials")
@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_without_a_key_the_error_names_the_variable(use_async: bool) -> None:
    with mock_http() as router, pytest.raises(errors.AuthenticationError, match="GEMINI_API_KEY"):
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        call(GeminiAdapter(ProviderOptions()), make_request(), use_async)
    assert not router.calls


@pytest.mark.usefixtures("no_credentials")
@pytest.mark.parametrize("variable", ["GEMINI_API_KEY", "GOOGLE_API_KEY"])
def test_the_key_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, variable: str) -> None:
    monkeypatch.setenv(variable, KEY)
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        GeminiAdapter(ProviderOptions()).send(make_request())
        assert router.calls[0].request.headers["x-goog-api-key"] == KEY


@pytest.mark.usefixtures("no_credentials")
def test_the_vertex_switch_in_the_environment_does_not_leave_the_developer_api(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_GENAI_USE_VERTEXAI", "true")
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        GeminiAdapter(ProviderOptions(api_key=KEY)).send(make_request())
        assert len(router.calls) == 1


def test_base_url_headers_and_timeout_are_used() -> None:
    options = ProviderOptions(
        api_key=KEY, base_url="https://proxy.example.com/gemini/", headers={"X-Team": "search"}, timeout=12.5
    )
    with mock_http() as router:
        router.post(f"https://proxy.example.com/gemini/v1beta/models/{MODEL}:generateContent").respond(
            200, json=bodies.MAX_TOKENS
        )
        GeminiAdapter(options).send(make_request())
        sent = router.calls[0].request.headers
    assert sent["x-team"] == "search"
    assert sent["x-goog-api-key"] == KEY
    assert sent["x-server-timeout"] == "13"  # Seconds, rounded up by the SDK from our 12500 ms.


def test_the_timeout_is_given_to_the_sdk_in_milliseconds() -> None:
    adapter = GeminiAdapter(ProviderOptions(api_key=KEY, timeout=2.5))
    assert adapter._http().timeout == 2500
    assert adapter._http().retry_options == genai.types.HttpRetryOptions(attempts=1)


def test_one_sdk_client_serves_every_call() -> None:
    adapter = GeminiAdapter(ProviderOptions(api_key=KEY))
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        adapter.send(make_request())
        first = adapter._client
        asyncio.run(adapter.asend(make_request()))
        assert adapter._client is first
        assert len(router.calls) == 2


def test_the_adapter_is_registered_and_keeps_the_key_out_of_its_repr() -> None:
    adapter = adapter_class("gemini")(ProviderOptions(api_key=KEY))  # type: ignore[call-arg]
    assert isinstance(adapter, GeminiAdapter)
    assert isinstance(adapter, Adapter)
    assert adapter.provider == "gemini"
    assert KEY not in repr(adapter)


# --- end to end, through llmrelay.Client -----------------------------------------------------------


def add_numbers(a: int, b: int) -> int:
    """Add two numbers together and return the sum."""
    return a + b


def client(model: str = MODEL, **options: Any) -> llmrelay.Client:
    return llmrelay.Client(f"gemini:{model}", api_key=KEY, learner=CapabilityLearner(), **options)


def test_client_a_tool_call_then_its_result_then_the_answer() -> None:
    gemini = client()
    question = [{"role": "user", "content": "Calculate 15 + 27 using your add_numbers tool."}]
    with mock_http() as router:
        answers = [httpx.Response(200, json=bodies.THOUGHT_THEN_CALL), httpx.Response(200, json=bodies.FINAL_ANSWER)]
        router.post(URL).mock(side_effect=answers)
        first = gemini.complete(question, tools=[add_numbers])
        [call_made] = first.tool_calls
        result = {"role": "tool", "tool_call_id": call_made.id, "content": "42"}
        second = gemini.complete([*question, first, result], tools=[add_numbers])
        sent = json.loads(router.calls[1].request.content)
    assert (first.content, first.mode, first.provider, first.model) == ("", "native_tools", "gemini", MODEL)
    assert (call_made.name, call_made.arguments) == ("add_numbers", {"a": 15, "b": 27})
    assert first.needs_more_work is True
    assert (first.finish_reason, first.provider_finish_reason) == ("tool_calls", "STOP")
    assert first.usage == Usage(104, 69, 173, reasoning_tokens=47)
    assert first.reasoning and first.reasoning.startswith("Okay, here's my thought process")  # The thought part.
    # The second request carries the call (with its id and thought signature) and its result.
    [model_part] = sent["contents"][1]["parts"]
    assert model_part["functionCall"] == {"id": call_made.id, "name": "add_numbers", "args": {"a": 15, "b": 27}}
    assert "thoughtSignature" in model_part
    assert sent["contents"][2]["parts"] == [fr("add_numbers", {"output": "42"}, call_made.id)]
    assert (second.content, second.tool_calls, second.finish_reason) == ("The sum of 15 and 27 is 42.", [], "stop")


async def test_async_client_text_mode_cut_off() -> None:
    gemini = llmrelay.AsyncClient(f"gemini:{MODEL}", api_key=KEY, learner=CapabilityLearner())
    with mock_http() as router:
        router.post(URL).respond(200, json=bodies.MAX_TOKENS)
        answer = await gemini.complete("What is the capital of France?", max_tokens=5)
        sent = json.loads(router.calls[0].request.content)
    assert sent["generationConfig"] == {"maxOutputTokens": 5}
    assert (answer.content, answer.mode, answer.tool_calls) == ("The capital of France is", "text", [])
    assert (answer.finish_reason, answer.provider_finish_reason) == ("length", "MAX_TOKENS")
    assert answer.usage == Usage(15, 5, 20)


def test_client_json_schema_mode_reads_the_envelope() -> None:
    call_written = {"name": "add_numbers", "arguments": json.dumps({"a": 1, "b": 2})}  # As the schema asks.
    envelope = json.dumps({"content": "", "toolCalls": [call_written], "needsMoreWork": True})
    body = {
        **bodies.FINAL_ANSWER,
        "candidates": [{"content": {"parts": [{"text": envelope}], "role": "model"}, "finishReason": "STOP"}],
    }
    with mock_http() as router:
        router.post(URL).respond(200, json=body)
        answer = client().complete("Add 1 and 2", tools=[add_numbers], mode="json_schema")
        sent = json.loads(router.calls[0].request.content)
    assert sent["generationConfig"]["responseMimeType"] == "application/json"
    assert [(c.name, c.arguments) for c in answer.tool_calls] == [("add_numbers", {"a": 1, "b": 2})]
    assert (answer.content, answer.mode, answer.needs_more_work) == ("", "json_schema", True)


def test_client_rate_limit_surfaces_with_the_wait() -> None:
    waits: list[float] = []
    retry = llmrelay.RetryPolicy(max_attempts=2, jitter=0.0, sleep=waits.append)
    with mock_http() as router:
        route = router.post(URL).respond(429, json=bodies.ERROR_429_QUOTA)
        with pytest.raises(errors.RateLimitError) as caught:
            client(retry=retry).complete("Hi")
        assert route.call_count == 2  # The client's retry, not the SDK's.
    assert waits == [45.0]  # RetryInfo's retryDelay is the wait the client honoured.
    assert caught.value.retry_after == 45.0


# --- issue 12: the key never follows a redirect to another host ------------------------------------


@pytest.mark.parametrize("streamed", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
async def test_a_redirect_to_another_host_does_not_carry_the_key(use_async: bool, streamed: bool) -> None:
    import llmrelay
    from llmrelay.testing import mock_http

    with mock_http() as router:
        router.route(host="generativelanguage.googleapis.com").mock(
            return_value=httpx.Response(307, headers={"location": "https://collector.example/steal"})
        )
        stolen = router.route(host="collector.example").mock(return_value=httpx.Response(404, json={}))
        same = llmrelay.RetryPolicy(max_attempts=1)
        if use_async:
            client = llmrelay.AsyncClient("gemini:gemini-2.5-flash", api_key=KEY, retry=same)
            with pytest.raises(llmrelay.LLMRelayError):
                if streamed:
                    async for _ in client.stream("Hi"):
                        pass
                else:
                    await client.complete("Hi")
        else:
            sync = llmrelay.Client("gemini:gemini-2.5-flash", api_key=KEY, retry=same)
            with pytest.raises(llmrelay.LLMRelayError):
                if streamed:
                    list(sync.stream("Hi"))
                else:
                    sync.complete("Hi")
    for call in stolen.calls:
        assert "x-goog-api-key" not in call.request.headers and KEY not in str(call.request.headers)
    if not streamed:
        assert stolen.called, "the SDK followed the redirect (without the key)"


def test_replaying_a_recorded_redirect_to_another_host_never_sends_the_key(tmp_path: Any) -> None:
    """A cassette whose answer is a 307 elsewhere: the redirect is followed without the key, and not sent out."""
    import llmrelay
    from llmrelay.testing import cassette, mock_http
    from llmrelay.testing._vcr import Interaction, RecordedRequest, RecordedResponse
    from llmrelay.testing._vcr_write import dump_cassette

    uri = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
    redirect = RecordedResponse(307, "Temporary Redirect", {"location": ["https://collector.example/steal"]}, b"")
    path = tmp_path / "redirect.yaml"
    path.write_text(dump_cassette([Interaction(RecordedRequest("POST", uri, {}, None), redirect)]))
    with mock_http() as router, cassette(path, "none", match_on=("method", "uri")):
        stolen = router.route(host="collector.example").mock(return_value=httpx.Response(404, json={}))
        with pytest.raises(llmrelay.LLMRelayError):
            llmrelay.Client(
                "gemini:gemini-2.5-flash", api_key=KEY, retry=llmrelay.RetryPolicy(max_attempts=1)
            ).complete("Hi")
    assert stolen.called
    assert all("x-goog-api-key" not in call.request.headers for call in stolen.calls)
