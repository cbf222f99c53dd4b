"""Shared material for the Chat Completions adapter tests (openai, groq, openrouter, openai-compatible).

- `body_cases()`: one table of requests, one per mode and tool_choice form, with the exact body
  each must send; every provider's test runs it with that provider's differences.
- Real answers and errors, copied unchanged from the recordings in the shared conformance set
  (`../shared/conformance/cassettes/<provider>/`, recorded by pydantic-ai and crewAI against the
  real APIs; each is named above its constant). Where the set has no recording (an OpenAI 401,
  Groq 401/429, unsupported-feature 400s, local servers' errors), the body is the provider's
  documented shape with the message the provider really sends, as quoted in
  `llmrelay/capabilities/_rejections.py` and in public bug reports.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from llmrelay import errors
from llmrelay._envelope import ToolCall
from llmrelay._instructions import envelope_schema, instructions
from llmrelay._tools import Tool
from llmrelay._types import Message, NamedTool, RawResponse, Request
from llmrelay.adapters import Adapter

FAKE_KEY = "sk-fake-0123456789abcdefghijklmnopqrstuvwxyz"
"""An API key shaped like a real one; no error message or repr may contain any of it."""

WEATHER = Tool(
    "get_weather",
    "Current weather for a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
CLOCK = Tool("get_time")  # No description, no parameters: the emptiest tool there is.
FLIGHT = Tool(
    "check_flight",
    "Status of a flight.",
    {"type": "object", "properties": {"flight": {"type": "string"}}, "required": ["flight"]},
)

WEATHER_WIRE = {
    "type": "function",
    "function": {"name": "get_weather", "description": "Current weather for a city.", "parameters": WEATHER.parameters},
}
CLOCK_WIRE = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}

USER = Message("user", "Weather in Paris?")
SYSTEM = Message("system", "Be brief.")

ANTHROPIC_ID = "toolu_01A09q90qw90lq917835lq9"
LONG_ID = "projects/demo/locations/eu/calls/" + "x" * 30
"""Longer than OpenAI's 40 characters, with a character it refuses: must be mapped."""
LONG_ID_MAPPED = "call_" + hashlib.sha256(LONG_ID.encode()).hexdigest()[:35]

CONVERSATION = (
    SYSTEM,
    USER,
    Message(
        "assistant",
        "Checking both.",
        (ToolCall("get_weather", {"city": "Paris"}, ANTHROPIC_ID), ToolCall("get_weather", {"city": "Nice"}, LONG_ID)),
    ),
    Message("tool", "18C", tool_call_id=ANTHROPIC_ID, name="get_weather"),
    Message("tool", "21C", tool_call_id=LONG_ID, name="get_weather"),
    Message("assistant", "", (ToolCall("get_time", {}, "call_1"),)),
    Message("tool", "12:00", tool_call_id="call_1", name="get_time"),
)
CONVERSATION_WIRE = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Weather in Paris?"},
    {
        "role": "assistant",
        "content": "Checking both.",
        "tool_calls": [
            {
                "id": ANTHROPIC_ID,
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            },
            {
                "id": LONG_ID_MAPPED,
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Nice"}'},
            },
        ],
    },
    {"role": "tool", "tool_call_id": ANTHROPIC_ID, "content": "18C"},
    {"role": "tool", "tool_call_id": LONG_ID_MAPPED, "content": "21C"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "12:00"},
]


SIGNATURE = "CiQBcsjafA2E0Tl8ZpVmWw0e4OZp8mrVGCS7ccR0sC2G3jIZqE8KYgFyyNp8"
"""A thought signature as Gemini writes one (base64, opaque); made up, real ones are longer."""
SIGNED_ELSEWHERE = (
    Message("assistant", "", (ToolCall("get_time", {}, "gemini_call_1", SIGNATURE),)),
    Message("tool", "12:00", tool_call_id="gemini_call_1", name="get_time"),
)
"""A call Gemini signed, read by another adapter (native Gemini, another process)."""


def signed_wire(signature: str | None) -> list[dict[str, Any]]:
    """`SIGNED_ELSEWHERE` on the wire, with `signature` in Gemini's `extra_content`, or without."""
    call: dict[str, Any] = {"id": "gemini_call_1", "type": "function"}
    call["function"] = {"name": "get_time", "arguments": "{}"}
    if signature is not None:
        call["extra_content"] = {"google": {"thought_signature": signature}}
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "gemini_call_1", "content": "12:00"},
    ]


@dataclass(frozen=True)
class BodyCase:
    """A request, and the whole JSON body it must send."""

    id: str
    request: Request
    body: dict[str, Any]


@dataclass(frozen=True)
class Flavour:
    """How one provider's body differs from the common one."""

    model: str
    max_tokens: str = "max_tokens"
    strict: bool = True
    routing: dict[str, Any] = field(default_factory=dict)
    """Fields added when tools or response_format are sent (OpenRouter's `provider`)."""
    sends_signatures: bool = False
    """Every signature a call carries goes back (openai-compatible), not only those this host made."""


def body_cases(flavour: Flavour) -> list[BodyCase]:
    """Every mode, every tool_choice form, a multi-turn conversation and params, for one provider."""
    model = flavour.model

    def case(id: str, request: Request, **fields: Any) -> BodyCase:
        routed = flavour.routing if "tools" in fields or "response_format" in fields else {}
        return BodyCase(id, request, {"model": model, **fields, **routed})

    def told(mode: str, choice: Any = None) -> list[dict[str, Any]]:
        text = "Be brief.\n\n" + instructions(mode, (WEATHER,), choice)  # type: ignore[arg-type]
        return [{"role": "system", "content": text}, {"role": "user", "content": "Weather in Paris?"}]

    hello = [{"role": "user", "content": "Weather in Paris?"}]
    schema = envelope_schema((WEATHER,))
    native = {"tools": [WEATHER_WIRE, CLOCK_WIRE]}
    return [
        case("text", Request(model, (USER,), "text"), messages=hello),
        case(
            "text with tools: tools described in the system turn, none sent",
            Request(model, (SYSTEM, USER), "text", (WEATHER,), "required"),
            messages=told("text", "required"),
        ),
        case(
            "json_object",
            Request(model, (SYSTEM, USER), "json_object", (WEATHER,)),
            messages=told("json_object"),
            response_format={"type": "json_object"},
        ),
        case(
            "json_object without the word json: a hint is added, as JSON mode requires",
            Request(model, (USER,), "json_object"),
            messages=[{"role": "system", "content": "Answer with a JSON object."}, *hello],
            response_format={"type": "json_object"},
        ),
        case(
            "json_object with json already asked for: messages unchanged",
            Request(model, (Message("user", "Reply in json."),), "json_object"),
            messages=[{"role": "user", "content": "Reply in json."}],
            response_format={"type": "json_object"},
        ),
        case(
            "json_schema",
            Request(model, (SYSTEM, USER), "json_schema", (WEATHER,), response_schema=schema, schema_name="envelope"),
            messages=told("json_schema"),
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "envelope", "schema": schema, "strict": flavour.strict},
            },
        ),
        case(
            "json_schema without a schema: the envelope's",
            Request(model, (USER,), "json_schema", schema_name="answer"),
            messages=hello,
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": envelope_schema(()), "strict": flavour.strict},
            },
        ),
        case(
            "native tools, default choice",
            Request(model, (USER,), "native_tools", (WEATHER, CLOCK)),
            messages=hello,
            **native,
        ),
        *[
            case(
                f"native tools, tool_choice {label}",
                Request(model, (USER,), "native_tools", (WEATHER, CLOCK), choice),
                messages=hello,
                **native,
                tool_choice=wire,
            )
            for label, choice, wire in [
                ("auto", "auto", "auto"),
                ("none", "none", "none"),
                ("required", "required", "required"),
                ("named", NamedTool("get_weather"), {"type": "function", "function": {"name": "get_weather"}}),
            ]
        ],
        case(
            "native mode without tools: neither tools nor tool_choice",
            Request(model, (USER,), "native_tools", tool_choice="required", params={"parallel_tool_calls": False}),
            messages=hello,
        ),
        case(
            "a conversation with calls and results: ids kept or mapped, the same on both sides",
            Request(model, CONVERSATION, "native_tools", (WEATHER, CLOCK)),
            messages=CONVERSATION_WIRE,
            **native,
        ),
        case(
            "a call Gemini signed, read elsewhere: its signature goes back only where every signature does",
            Request(model, (USER, *SIGNED_ELSEWHERE), "native_tools", (CLOCK,)),
            messages=[*hello, *signed_wire(SIGNATURE if flavour.sends_signatures else None)],
            tools=[CLOCK_WIRE],
        ),
        case(
            "params pass through; max_tokens under the provider's name",
            Request(model, (USER,), "text", params={"temperature": 0.2, "max_tokens": 50, "stop": ["\n"], "seed": 7}),
            messages=hello,
            temperature=0.2,
            stop=["\n"],
            seed=7,
            **{flavour.max_tokens: 50},
        ),
        case(
            "parallel_tool_calls kept with tools",
            Request(model, (USER,), "native_tools", (WEATHER,), params={"parallel_tool_calls": False}),
            messages=hello,
            tools=[WEATHER_WIRE],
            parallel_tool_calls=False,
        ),
        case(
            "a param never overrides the mode",
            Request(model, (USER,), "json_object", params={"response_format": {"type": "text"}, "top_p": 0.5}),
            messages=[{"role": "system", "content": "Answer with a JSON object."}, *hello],
            top_p=0.5,
            response_format={"type": "json_object"},
        ),
    ]


# --- running requests --------------------------------------------------------------------------


def run(adapter: Adapter, request: Request, how: str) -> RawResponse:
    """`send`, or `asend` in a fresh event loop."""
    if how == "sync":
        return adapter.send(request)
    return asyncio.run(adapter.asend(request))


def sent(router: Any, index: int = 0) -> dict[str, Any]:
    """The JSON body of the `index`-th request the router saw."""
    body: dict[str, Any] = json.loads(router.calls[index].request.content)
    return body


def without_body(response: RawResponse) -> RawResponse:
    """The response with `body` cleared, to compare everything else at once."""
    return dataclasses.replace(response, body=None)


HOME_HEADERS = "X-OpenAI-Team: home\nAuthorization: Bearer sk-home-token-that-must-stay-home"
"""`OPENAI_CUSTOM_HEADERS` as openai 3 reads it, one header a line: meant for OpenAI only."""


def assert_only_given_headers(headers: Any) -> None:
    """What `HOME_HEADERS` set is absent; the key and the header given (`X-Team: mine`) are sent."""
    assert "x-openai-team" not in headers
    assert headers["authorization"] == f"Bearer {FAKE_KEY}"
    assert headers["x-team"] == "mine"


def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Environment variables the SDKs read must not leak from the machine into a test."""
    for name in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_ORG_ID",
        "OPENAI_PROJECT_ID",
        "OPENAI_CUSTOM_HEADERS",
        "OPENAI_ADMIN_KEY",
        "GROQ_API_KEY",
        "GROQ_BASE_URL",
        "OPENROUTER_API_KEY",
        "OPENAI_COMPATIBLE_API_KEY",
    ):
        monkeypatch.delenv(name, raising=False)


def assert_no_key(*texts: object) -> None:
    """No text shows the fake key, nor any recognisable part of it."""
    for text in map(str, texts):
        assert FAKE_KEY not in text
        assert FAKE_KEY[:12] not in text
        assert FAKE_KEY[-8:] not in text


@dataclass(frozen=True)
class AnswerCase:
    """A real answer, and the `RawResponse` it must give (its `body` aside)."""

    id: str
    body: dict[str, Any]
    expected: RawResponse
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ErrorCase:
    """An error answer, and the llmrelay error it must raise."""

    id: str
    status: int
    body: Any
    error: type[errors.ProviderError]
    headers: dict[str, str] = field(default_factory=dict)
    code: str | None = "invalid_request_error"  # The error's type, when it has no code.
    retry_after: float | None = None
    feature: str | None = None
    request_id: str | None = "req_abc123"
    """What the error's `request_id` must be; the route sends it as `x-request-id`."""


def serve(route: Any, case: ErrorCase) -> None:
    """Make `route` answer with the case's status, body (JSON, or text) and headers."""
    headers = {"x-request-id": "req_abc123", **case.headers}
    if isinstance(case.body, str):
        route.respond(case.status, text=case.body, headers=headers)
    else:
        route.respond(case.status, json=case.body, headers=headers)


def check_error(
    exc: errors.ProviderError, case: ErrorCase, *, provider: str, model: str, cause: type[Exception]
) -> None:
    """Everything an error must carry, and nothing of the key."""
    assert type(exc) is case.error
    assert (exc.provider, exc.model, exc.status, exc.request_id) == (provider, model, case.status, case.request_id)
    assert (exc.code, exc.retry_after) == (case.code, case.retry_after)
    assert getattr(exc, "feature", None) == case.feature
    assert isinstance(exc.__cause__, cause)
    assert_no_key(exc, repr(exc), exc.body)


def error_body(message: str, **fields: Any) -> dict[str, Any]:
    """OpenAI's documented error shape."""
    return {"error": {"message": message, "type": "invalid_request_error", "param": None, **fields}}


# --- real answers: openai ----------------------------------------------------------------------

# openai/pydantic-ai-text-instructions.yaml, interaction 0
OPENAI_TEXT: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "stop",
            "index": 0,
            "logprobs": None,
            "message": {
                "annotations": [],
                "content": "The capital of France is Paris.",
                "refusal": None,
                "role": "assistant",
            },
        }
    ],
    "created": 1744043456,
    "id": "chatcmpl-BJjf61mLb9z5H45ClJzbx0UWKwjo1",
    "model": "gpt-4o-2024-08-06",
    "object": "chat.completion",
    "service_tier": "default",
    "system_fingerprint": "fp_898ac29719",
    "usage": {
        "completion_tokens": 8,
        "completion_tokens_details": {
            "accepted_prediction_tokens": 0,
            "audio_tokens": 0,
            "reasoning_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
        "prompt_tokens": 24,
        "prompt_tokens_details": {"audio_tokens": 0, "cached_tokens": 0},
        "total_tokens": 32,
    },
}

# openai/crewai-tool-calls-two-turns.yaml, interaction 0
OPENAI_TOOL_CALL: dict[str, Any] = {
    "id": "chatcmpl-D7mVx3s1dI2SICWePwHVeWCDct2QG",
    "object": "chat.completion",
    "created": 1770747157,
    "model": "gpt-4.1-2025-04-14",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_x9KzZUT3UYazEUJiRmE0PvaU",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"location":"Tokyo"}'},
                    }
                ],
                "refusal": None,
                "annotations": [],
            },
            "logprobs": None,
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {
        "prompt_tokens": 1187,
        "completion_tokens": 14,
        "total_tokens": 1201,
        "prompt_tokens_details": {"cached_tokens": 1152, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    },
    "service_tier": "default",
    "system_fingerprint": "fp_8b22347a3e",
}

# openai/crewai-structured-json-schema.yaml, interaction 0 (x-request-id as recorded)
OPENAI_JSON_SCHEMA: dict[str, Any] = {
    "id": "chatcmpl-CfYfk9BEay0f7mJW58zsI2Pknson4",
    "object": "chat.completion",
    "created": 1764020764,
    "model": "gpt-4o-2024-08-06",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": '{"answer":"Paris","confidence":0.99}',
                "refusal": None,
                "annotations": [],
            },
            "logprobs": None,
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 94, "completion_tokens": 11, "total_tokens": 105},
    "service_tier": "default",
    "system_fingerprint": "fp_c98e05ca17",
}
OPENAI_JSON_SCHEMA_REQUEST_ID = "req_765510cb1e614ed6a83e665bf7c5a07b"

# openai/crewai-text-max-tokens-length.yaml, interaction 0
OPENAI_LENGTH: dict[str, Any] = {
    "id": "chatcmpl-ChrU8RBawYyEMyrvlZTsV90yo7uCl",
    "object": "chat.completion",
    "created": 1764569736,
    "model": "gpt-4o-mini-2024-07-18",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": "**Title: The Last Ember of Eldoria**\n\n",
                "refusal": None,
                "annotations": [],
            },
            "logprobs": None,
            "finish_reason": "length",
        }
    ],
    "usage": {"prompt_tokens": 16, "completion_tokens": 10, "total_tokens": 26},
    "service_tier": "default",
    "system_fingerprint": "fp_b547601dbd",
}

# openai/crewai-error-400-then-text.yaml, interaction 0 (x-request-id as recorded)
OPENAI_400_STOP: dict[str, Any] = {
    "error": {
        "message": "Unsupported parameter: 'stop' is not supported with this model.",
        "type": "invalid_request_error",
        "param": "stop",
        "code": "unsupported_parameter",
    }
}
OPENAI_400_STOP_REQUEST_ID = "req_7be4715c3ee32aa406eacb68c7cc966e"

# openai/pydantic-ai-error-400-developer-role.yaml, interaction 0
OPENAI_400_DEVELOPER: dict[str, Any] = {
    "error": {
        "code": "unsupported_value",
        "message": "Unsupported value: 'messages[0].role' does not support 'developer' with this model.",
        "param": "messages[0].role",
        "type": "invalid_request_error",
    }
}

# openai/crewai-error-404-unknown-model.yaml, interaction 0
OPENAI_404: dict[str, Any] = {
    "error": {
        "message": "The model `non-existent-model` does not exist or you do not have access to it.",
        "type": "invalid_request_error",
        "param": None,
        "code": "model_not_found",
    }
}

# Not recorded: OpenAI's 401 echoes the key, masked but for its last four characters.
OPENAI_401 = error_body(
    f"Incorrect API key provided: {FAKE_KEY[:3]}****************************{FAKE_KEY[-4:]}. You can find your "
    "API key at https://platform.openai.com/account/api-keys.",
    code="invalid_api_key",
)
# Not recorded: the messages of _rejections.py.
OPENAI_400_JSON_SCHEMA = error_body(
    "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
    param="response_format",
    code=None,
)
OPENAI_404_TOOLS = error_body(
    "tools is not supported in this model. For a list of supported models, refer to "
    "https://platform.openai.com/docs/guides/function-calling#models-supporting-function-calling.",
    code=None,
)


# --- real answers: groq ------------------------------------------------------------------------

# groq/pydantic-ai-text-instructions.yaml, interaction 0
GROQ_TEXT: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "stop",
            "index": 0,
            "logprobs": None,
            "message": {"content": "The capital of France is Paris.", "role": "assistant"},
        }
    ],
    "created": 1744043573,
    "id": "chatcmpl-7586b6a9-fb4b-4ec7-86a0-59f0a77844cf",
    "model": "llama-3.3-70b-versatile",
    "object": "chat.completion",
    "system_fingerprint": "fp_72a5dc99ee",
    "usage": {
        "completion_time": 0.029090909,
        "completion_tokens": 8,
        "prompt_time": 0.002665957,
        "prompt_tokens": 48,
        "queue_time": 0.100731848,
        "total_time": 0.031756866,
        "total_tokens": 56,
    },
    "usage_breakdown": {"models": None},
    "x_groq": {"id": "req_01jr8hj0hzeq9b86xqb5dn7wqs"},
}

# groq/pydantic-ai-structured.yaml, interaction 0
GROQ_STRUCTURED_WITH_REASONING: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "stop",
            "index": 0,
            "logprobs": None,
            "message": {
                "content": '{"city":"Mexico City","country":"Mexico"}',
                "reasoning": 'The user asks: "What is the largest city in Mexico?" The system expects a JSON object '
                "conforming to CityLocation schema: properties city (string) and country (string), required both. "
                'Provide largest city in Mexico: Mexico City. So output JSON: {"city":"Mexico City","country":'
                '"Mexico"} in compact format, no extra text.',
                "role": "assistant",
            },
        }
    ],
    "created": 1756843265,
    "id": "chatcmpl-92437948-262c-49fe-87d1-774e54201105",
    "model": "openai/gpt-oss-120b",
    "object": "chat.completion",
    "service_tier": "on_demand",
    "system_fingerprint": "fp_213abb2467",
    "usage": {
        "completion_time": 0.186978247,
        "completion_tokens": 94,
        "prompt_time": 0.008149307,
        "prompt_tokens": 178,
        "queue_time": 1.095749809,
        "total_time": 0.195127554,
        "total_tokens": 272,
    },
    "usage_breakdown": None,
    "x_groq": {"id": "req_01k4609j8zemga5d9erfnwbfma"},
}

# groq/pydantic-ai-tool-use-failed-400-then-tool.yaml, interaction 1
GROQ_TOOL_CALL_WITH_REASONING: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "tool_calls",
            "index": 0,
            "logprobs": None,
            "message": {
                "reasoning": 'We need to call with correct param: name field. Use some name, e.g., "test".',
                "role": "assistant",
                "tool_calls": [
                    {
                        "function": {"arguments": '{"name":"test"}', "name": "get_something_by_name"},
                        "id": "fc_311ba17b-89f9-48d3-8fd9-7e74a1264855",
                        "type": "function",
                    }
                ],
            },
        }
    ],
    "created": 1771434738,
    "id": "chatcmpl-b089cbdd-ca65-41a1-9409-639d476f87c0",
    "model": "openai/gpt-oss-120b",
    "object": "chat.completion",
    "service_tier": "on_demand",
    "system_fingerprint": "fp_699d877a58",
    "usage": {
        "completion_time": 0.110362968,
        "completion_tokens": 52,
        "completion_tokens_details": {"reasoning_tokens": 22},
        "prompt_time": 0.014400533,
        "prompt_tokens": 301,
        "queue_time": 0.005000903,
        "total_time": 0.124763501,
        "total_tokens": 353,
    },
    "usage_breakdown": None,
    "x_groq": {"id": "req_01khrvt0x4e8cs577wtgjk872s", "seed": 47864733},
}

# groq/pydantic-ai-tool-use-failed-400-then-tool.yaml, interaction 0
GROQ_400_TOOL_USE_FAILED: dict[str, Any] = {
    "error": {
        "code": "tool_use_failed",
        "failed_generation": '{"name": "get_something_by_name", "arguments": {\n  "foo": "bar"\n}}',
        "message": "Tool call validation failed: tool call validation failed: parameters for tool "
        "get_something_by_name did not match schema: errors: [missing properties: 'name', "
        "additionalProperties 'foo' not allowed]",
        "type": "invalid_request_error",
    }
}

# groq/pydantic-ai-error-404-unknown-model.yaml, interaction 0
GROQ_404: dict[str, Any] = {
    "error": {
        "code": "model_not_found",
        "message": "The model `non-existent` does not exist or you do not have access to it.",
        "type": "invalid_request_error",
    }
}

# Not recorded: Groq's documented shapes, with the messages Groq sends.
GROQ_401: dict[str, Any] = {
    "error": {"message": "Invalid API Key", "type": "invalid_request_error", "code": "invalid_api_key"}
}
GROQ_429: dict[str, Any] = {
    "error": {
        "message": "Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01hx` service tier "
        "`on_demand` on tokens per minute (TPM): Limit 12000, Used 11877, Requested 1270. Please try again in "
        "5.735s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing",
        "type": "tokens",
        "code": "rate_limit_exceeded",
    }
}
GROQ_400_JSON_SCHEMA: dict[str, Any] = {
    "error": {
        "message": "This model does not support response format `json_schema`. See supported models at "
        "https://console.groq.com/docs/structured-outputs#supported-models",
        "type": "invalid_request_error",
    }
}
GROQ_498: dict[str, Any] = {
    "error": {"message": "Flex tier capacity exceeded. Please try again later.", "type": "capacity_exceeded"}
}


# --- real answers: openrouter ------------------------------------------------------------------

# openrouter/pydantic-ai-tool-call.yaml, interaction 0: Mistral's 9-character call id
OPENROUTER_TOOL_CALL: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "tool_calls",
            "index": 0,
            "logprobs": None,
            "message": {
                "content": "",
                "reasoning": None,
                "refusal": None,
                "role": "assistant",
                "tool_calls": [
                    {
                        "function": {
                            "arguments": '{"numerator": 123, "denominator": 456, "on_inf": "infinity"}',
                            "name": "divide",
                        },
                        "id": "3sniiMddS",
                        "index": 0,
                        "type": "function",
                    }
                ],
            },
            "native_finish_reason": "tool_calls",
        }
    ],
    "created": 1762047030,
    "id": "gen-1762047030-dJUcJW4ildNGqK4UV6iJ",
    "model": "mistralai/mistral-small",
    "object": "chat.completion",
    "provider": "Mistral",
    "usage": {"completion_tokens": 43, "prompt_tokens": 134, "total_tokens": 177},
}

# openrouter/crewai-prompted-json-text.yaml, interaction 0
OPENROUTER_JSON_TEXT: dict[str, Any] = {
    "id": "gen-1747060315-OPtdU6KfuRgwaoevmhlh",
    "provider": "Nebius",
    "model": "meta-llama/llama-3.2-3b-instruct",
    "object": "chat.completion",
    "created": 1747060315,
    "choices": [
        {
            "logprobs": None,
            "finish_reason": "stop",
            "native_finish_reason": "stop",
            "index": 0,
            "message": {
                "role": "assistant",
                "content": '{"name": "Alice Llama", "age": 30}',
                "refusal": None,
                "reasoning": None,
            },
        }
    ],
    "usage": {"prompt_tokens": 66, "completion_tokens": 15, "total_tokens": 81},
}

# openrouter/crewai-leading-whitespace-no-finish.yaml, interaction 0, byte for byte: 2,893
# characters of blank lines before the JSON, and no finish_reason at all.
OPENROUTER_LEADING_WHITESPACE = (
    "\n"
    + "         \n\n" * 262
    + "         \n"
    + '{"id":"gen-1738684300-YnD5WOSczQWsW0vQG78a","provider":"Nebius","model":"deepseek/deepseek-r1",'
    '"object":"chat.completion","created":1738684300,"choices":[{"logprobs":null,"index":0,"message":'
    '{"role":"assistant","content":"The capital of France is **Paris**. Known for its iconic landmarks such as '
    "the Eiffel Tower, Notre-Dame Cathedral, and the Louvre Museum, Paris has served as the political and "
    'cultural center of France for centuries. \U0001f1eb\U0001f1f7","refusal":null}}],"usage":'
    '{"prompt_tokens":10,"completion_tokens":261,"total_tokens":271}}'
)

# openrouter/crewai-error-401.yaml, interaction 0
OPENROUTER_401: dict[str, Any] = {"error": {"message": "No cookie auth credentials found", "code": 401}}

# openrouter/pydantic-ai-error-429-x3.yaml, interaction 0
OPENROUTER_429: dict[str, Any] = {
    "error": {
        "code": 429,
        "message": "Provider returned error",
        "metadata": {
            "provider_name": "Google",
            "raw": "google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream. Please retry shortly, "
            "or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations",
        },
    },
    "user_id": "user_2wT5ElBE4Es3R4QrNLpZiXICmQP",
}

# Not recorded: OpenRouter's documented error in a 200 (openrouter.ai/docs/api-reference/errors),
# and its 404 for a model with no tool-capable host (quoted in _rejections.py).
OPENROUTER_200_ERROR: dict[str, Any] = {
    "error": {
        "code": 502,
        "message": "Provider returned error",
        "metadata": {"provider_name": "Nebius", "raw": "upstream connect error or disconnect/reset before headers"},
    }
}
OPENROUTER_404_TOOLS: dict[str, Any] = {
    "error": {
        "message": "No endpoints found that support tool use. To learn more about provider routing, visit: "
        "https://openrouter.ai/docs/provider-routing",
        "code": 404,
    }
}


# --- real answers: openai-compatible servers ---------------------------------------------------

# openai-compatible/pydantic-ai-cerebras-text-then-tool.yaml, interaction 1
CEREBRAS_TOOL_CALL: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "tool_calls",
            "index": 0,
            "message": {
                "role": "assistant",
                "tool_calls": [
                    {
                        "function": {"arguments": '{"city": "Paris", "country": "France"}', "name": "final_result"},
                        "id": "b8847f144",
                        "type": "function",
                    }
                ],
            },
        }
    ],
    "created": 1756198143,
    "id": "chatcmpl-6659125c-6d06-402c-be3b-4640aa64ffa2",
    "model": "qwen-3-coder-480b",
    "object": "chat.completion",
    "system_fingerprint": "fp_4405be376d055dc5bff7",
    "usage": {
        "completion_tokens": 33,
        "prompt_tokens": 364,
        "prompt_tokens_details": {"cached_tokens": 0},
        "total_tokens": 397,
    },
}

# openai-compatible/pydantic-ai-gemini-compat-tool-call-without-id.yaml, interaction 0 (the
# thought signatures shortened): "id": "", and a total that counts thinking tokens.
GEMINI_COMPAT_NO_ID: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "tool_calls",
            "index": 0,
            "message": {
                "extra_content": {"google": {"thought": True, "thought_signature": "AVSoXO4AzAXs7GGvOY63fp8C"}},
                "role": "assistant",
                "thought_signature": "AVSoXO4AzAXs7GGvOY63fp8C",
                "tool_calls": [
                    {"function": {"arguments": "{}", "name": "get_current_time"}, "id": "", "type": "function"}
                ],
            },
        }
    ],
    "created": 1748902365,
    "id": "3SE-aKjdCcCEz7IPxpqjCA",
    "model": "gemini-2.5-pro-preview-05-06",
    "object": "chat.completion",
    "usage": {"completion_tokens": 12, "prompt_tokens": 35, "total_tokens": 109},
}

# The shape of the OpenAI-compatibility example in ai.google.dev/gemini-api/docs/thought-signatures
# (no recording in the conformance set): Gemini 3 signs the first call of a step, in the call's
# `extra_content`; the parallel call after it is unsigned.
GEMINI_3_COMPAT_SIGNED: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "tool_calls",
            "index": 0,
            "message": {
                "role": "assistant",
                "tool_calls": [
                    {
                        "extra_content": {"google": {"thought_signature": SIGNATURE}},
                        "function": {"arguments": '{"flight":"AA100"}', "name": "check_flight"},
                        "id": "function-call-1",
                        "type": "function",
                    },
                    {
                        "function": {"arguments": '{"flight":"AA200"}', "name": "check_flight"},
                        "id": "function-call-2",
                        "type": "function",
                    },
                ],
            },
        }
    ],
    "created": 1764000000,
    "id": "q5UoacfKBp-Oz7IP0dqg0Ak",
    "model": "gemini-3-pro-preview",
    "object": "chat.completion",
    "usage": {"completion_tokens": 40, "prompt_tokens": 60, "total_tokens": 220},
}
GEMINI_COMPAT_URL = "https://generativelanguage.googleapis.com/v1beta/openai/"
SIGNED_STEP = (
    Message("user", "Are AA100 and AA200 on time?"),
    Message(
        "assistant",
        "",
        (
            ToolCall("check_flight", {"flight": "AA100"}, "function-call-1", SIGNATURE),
            ToolCall("check_flight", {"flight": "AA200"}, "function-call-2"),
        ),
    ),
    Message("tool", "on time", tool_call_id="function-call-1", name="check_flight"),
    Message("tool", "delayed", tool_call_id="function-call-2", name="check_flight"),
)
"""`GEMINI_3_COMPAT_SIGNED` answered: the step sent back with its results."""
SIGNED_STEP_CALLS_WIRE = [
    {
        "id": "function-call-1",
        "type": "function",
        "function": {"name": "check_flight", "arguments": '{"flight": "AA100"}'},
        "extra_content": {"google": {"thought_signature": SIGNATURE}},
    },
    {
        "id": "function-call-2",
        "type": "function",
        "function": {"name": "check_flight", "arguments": '{"flight": "AA200"}'},
    },
]
