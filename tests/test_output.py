"""Structured output: `complete(..., output=Model)`, per provider and per mode, through real adapters.

Answers are the providers' real shapes: the json_schema ones are those of the shared conformance
recordings (openai/crewai-structured-json-schema, anthropic/pydantic-ai-structured-strict,
gemini/pydantic-ai-structured, groq/pydantic-ai-structured), with this test's city.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pydantic
import pytest

from llmrelay import AsyncClient, Client, ConfigError, NamedTool, OutputValidationError, UnsupportedFeatureError
from llmrelay._envelope import Mode
from llmrelay._types import NativeCall
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import FakeAdapter, mock_http


class CityLocation(pydantic.BaseModel):
    """A city and its country."""

    city: str
    country: str
    population: int | None = None


MEXICO = CityLocation(city="Mexico City", country="Mexico")
ORIGINAL = {
    "properties": {
        "city": {"type": "string"},
        "country": {"type": "string"},
        "population": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
    },
    "required": ["city", "country"],
    "type": "object",
}
"""What the user's model says, the schema answers are validated against."""
DESCRIBED = {**ORIGINAL, "description": "A city and its country."}
NO_DEFAULT = {
    **DESCRIBED,
    "properties": {**ORIGINAL["properties"], "population": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
}
OPENAI_STRICT = {**NO_DEFAULT, "required": ["city", "country", "population"], "additionalProperties": False}
ANTHROPIC_SCHEMA = {**NO_DEFAULT, "additionalProperties": False}
GEMINI_SCHEMA = NO_DEFAULT
GEMINI_PARAMETERS = {key: value for key, value in NO_DEFAULT.items() if key != "description"}
TOOL_DESCRIPTION = (
    "A city and its country.\n\nGive your final answer: call this once, with the answer, when you are done."
)
ASK = "What is the largest city in Mexico?"
GOOD = '{"city":"Mexico City","country":"Mexico"}'
GOOD_ARGS = {"city": "Mexico City", "country": "Mexico"}


# --- each provider's URL and answers ---------------------------------------------------------


def chat_text(text: str, model: str) -> dict[str, Any]:
    message = {"role": "assistant", "content": text, "refusal": None}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1764020764,
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 94, "completion_tokens": 11, "total_tokens": 105},
    }


def chat_call(name: str, arguments: dict[str, Any], model: str) -> dict[str, Any]:
    call = {"id": "call_1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
    body = chat_text("", model)
    body["choices"][0].update(
        message={"role": "assistant", "content": None, "tool_calls": [call]}, finish_reason="tool_calls"
    )
    return body


def anthropic_text(text: str, model: str) -> dict[str, Any]:
    return {
        "id": "msg_01Hfgh959WDWjL5jkM2FQXTL",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 196, "output_tokens": 19},
    }


def anthropic_call(name: str, arguments: dict[str, Any], model: str) -> dict[str, Any]:
    body = anthropic_text("", model)
    body.update(
        content=[{"type": "tool_use", "id": "toolu_01", "name": name, "input": arguments}], stop_reason="tool_use"
    )
    return body


def gemini_parts(parts: list[dict[str, Any]], model: str) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"parts": parts, "role": "model"}, "finishReason": "STOP"}],
        "modelVersion": model,
        "usageMetadata": {"candidatesTokenCount": 20, "promptTokenCount": 8, "totalTokenCount": 28},
    }


def gemini_text(text: str, model: str) -> dict[str, Any]:
    return gemini_parts([{"text": text}], model)


def gemini_call(name: str, arguments: dict[str, Any], model: str) -> dict[str, Any]:
    return gemini_parts([{"functionCall": {"name": name, "args": arguments}}], model)


@dataclass(frozen=True)
class Provider:
    model: str
    url: str
    text: Callable[[str, str], dict[str, Any]]
    call: Callable[[str, dict[str, Any], str], dict[str, Any]]
    base_url: str | None = None

    @property
    def name(self) -> str:
        return self.model.partition(":")[0]

    def client(self, **options: Any) -> Client:
        options.setdefault("learner", CapabilityLearner())
        return Client(self.model, api_key="test-key-0123456789", base_url=self.base_url, **options)

    def answer(self, mode: Mode, *, good: bool = True) -> dict[str, Any]:
        """This provider's answer in `mode`: the output, or (not good) one missing `country`."""
        arguments = GOOD_ARGS if good else {"city": "Mexico City"}
        model = self.model.partition(":")[2]
        if mode == "native_tools":
            return self.call("final_result", arguments, model)
        if mode == "text":
            envelope = {
                "content": "",
                "toolCalls": [{"name": "final_result", "arguments": arguments}],
                "needsMoreWork": False,
            }
            return self.text(json.dumps(envelope), model)
        return self.text(json.dumps(arguments, separators=(",", ":")), model)


PROVIDERS = [
    Provider("openai:gpt-4o", "https://api.openai.com/v1/chat/completions", chat_text, chat_call),
    Provider("anthropic:claude-sonnet-4-6", "https://api.anthropic.com/v1/messages", anthropic_text, anthropic_call),
    Provider(
        "gemini:gemini-2.5-flash",
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
        gemini_text,
        gemini_call,
    ),
    Provider("groq:openai/gpt-oss-120b", "https://api.groq.com/openai/v1/chat/completions", chat_text, chat_call),
    Provider("openrouter:openai/gpt-4o", "https://openrouter.ai/api/v1/chat/completions", chat_text, chat_call),
    Provider(
        "openai-compatible:qwen3:8b",
        "http://localhost:11434/v1/chat/completions",
        chat_text,
        chat_call,
        base_url="http://localhost:11434/v1",
    ),
]
MODES: list[Mode] = ["json_schema", "native_tools", "json_object", "text"]


# --- what each provider must be sent, per mode ------------------------------------------------


def system_text(provider: str, body: dict[str, Any]) -> str:
    """The instructions the body carries, wherever the provider puts them."""
    if provider == "anthropic":
        return str(body.get("system", ""))
    if provider == "gemini":
        return " ".join(part["text"] for part in body.get("systemInstruction", {}).get("parts", []))
    return " ".join(m["content"] for m in body["messages"] if m["role"] == "system")


def output_fields(provider: str, body: dict[str, Any]) -> dict[str, Any]:
    """The fields of the body that ask for the output (schema, tools, tool choice)."""
    if provider == "anthropic":
        keys = ("tools", "tool_choice", "output_config")
        return {key: body[key] for key in keys if key in body}
    if provider == "gemini":
        config = {k: v for k, v in body.get("generationConfig", {}).items() if k.startswith("response")}
        tools = {key: body[key] for key in ("tools", "toolConfig") if key in body}
        return {**tools, **({"generationConfig": config} if config else {})}
    keys = ("tools", "tool_choice", "response_format")
    return {key: body[key] for key in keys if key in body}


def chat_expected(mode: Mode, *, strict: bool = True) -> dict[str, Any]:
    if mode == "json_schema":
        schema = OPENAI_STRICT if strict else DESCRIBED
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "CityLocation", "schema": schema, "strict": strict},
            }
        }
    if mode == "native_tools":
        function = {"name": "final_result", "description": TOOL_DESCRIPTION, "parameters": ORIGINAL}
        return {
            "tools": [{"type": "function", "function": function}],
            "tool_choice": {"type": "function", "function": {"name": "final_result"}},
        }
    return {"response_format": {"type": "json_object"}} if mode == "json_object" else {}


EXPECTED: dict[str, Callable[[Mode], dict[str, Any]]] = {
    "openai": chat_expected,
    "openrouter": chat_expected,
    "openai-compatible": chat_expected,
    # Groq: gpt-oss models have strict mode; the schema then follows OpenAI's strict rules.
    "groq": chat_expected,
    "anthropic": lambda mode: {
        "json_schema": {"output_config": {"format": {"type": "json_schema", "schema": ANTHROPIC_SCHEMA}}},
        "native_tools": {
            "tools": [{"name": "final_result", "input_schema": ORIGINAL, "description": TOOL_DESCRIPTION}],
            "tool_choice": {"type": "tool", "name": "final_result"},
        },
    }.get(mode, {}),
    "gemini": lambda mode: {
        "json_schema": {
            "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": GEMINI_SCHEMA}
        },
        "native_tools": {
            "tools": [
                {
                    "functionDeclarations": [
                        {
                            "name": "final_result",
                            "description": TOOL_DESCRIPTION,
                            "parameters_json_schema": GEMINI_PARAMETERS,  # The SDK writes this key so.
                        }
                    ]
                }
            ],
            "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["final_result"]}},
        },
        "json_object": {"generationConfig": {"responseMimeType": "application/json"}},
    }.get(mode, {}),
}


def sent(route: Any, index: int = -1) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(route.calls[index].request.content)
    return body


CASES = [(p, mode) for p in PROVIDERS for mode in MODES]


@pytest.mark.parametrize(("provider", "mode"), CASES, ids=[f"{p.name}-{m}" for p, m in CASES])
def test_output_per_provider_and_mode(provider: Provider, mode: Mode) -> None:
    with mock_http() as router:
        route = router.post(provider.url).respond(200, json=provider.answer(mode))
        resp = provider.client(mode=mode).complete(ASK, output=CityLocation)

    assert resp.output == MEXICO and isinstance(resp.output, CityLocation)
    assert (resp.mode, resp.tool_calls, resp.needs_more_work, resp.rejected) == (mode, [], False, [])
    body = sent(route)
    assert output_fields(provider.name, body) == EXPECTED[provider.name](mode)
    instructions = system_text(provider.name, body)
    if mode == "json_object":
        assert json.dumps(ORIGINAL, sort_keys=True) in instructions  # The schema is in the prompt.
    if mode == "text":
        assert "final_result" in instructions and "toolCalls" in instructions  # The envelope, with the tool.


@pytest.mark.parametrize("provider", PROVIDERS, ids=lambda p: p.name)
def test_a_repair_round_sends_pydantic_errors_back(provider: Provider) -> None:
    with mock_http() as router:
        route = router.post(provider.url)
        route.side_effect = [
            _response(provider.answer("json_schema", good=False)),
            _response(provider.answer("json_schema")),
        ]
        resp = provider.client(mode="json_schema").complete(ASK, output=CityLocation)

    assert resp.output == MEXICO
    assert [a.outcome for a in resp.attempts] == ["repair", "ok"]
    assert "missing required argument 'country'" in (resp.attempts[0].reason or "")
    retried = json.dumps(sent(route, 1))
    assert "missing required argument 'country'" in retried  # The model is told what was wrong,
    assert '\\"city\\":\\"Mexico City\\"' in retried  # after its own answer.


@pytest.mark.parametrize("provider", PROVIDERS, ids=lambda p: p.name)
def test_a_tool_output_repair_and_final_failure(provider: Provider) -> None:
    bad = provider.answer("native_tools", good=False)
    with mock_http() as router:
        route = router.post(provider.url)
        route.side_effect = [_response(bad), _response(bad)]
        with pytest.raises(OutputValidationError) as caught:
            provider.client(mode="native_tools", max_repairs=1).complete(ASK, output=CityLocation)

    error = caught.value
    assert error.errors == ["missing required argument 'country'"]
    assert [a.outcome for a in error.attempts] == ["repair", "exhausted"]
    assert error.completion is not None and error.completion.output is None
    assert "CityLocation" in str(error) and "country" in str(error)
    assert len(route.calls) == 2


def test_the_final_failure_keeps_the_raw_text() -> None:
    last = '{"city": "Mexico City", "country": {"name": "Mexico"}}'
    fake = FakeAdapter(["Mexico City, in Mexico.", last])
    client = Client("openai:gpt-4o", adapter=fake, mode="json_object", max_repairs=1)
    with pytest.raises(OutputValidationError) as caught:
        client.complete(ASK, output=CityLocation)
    assert caught.value.raw == last
    assert caught.value.errors == ["argument 'country': Input should be a valid string (got {'name': 'Mexico'})"]
    assert "not valid JSON" in (caught.value.attempts[0].reason or "")


# --- the mode chosen, and falling back --------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "overrides", "tools", "first"),
    [
        ("openai:gpt-4o", {}, False, "json_schema"),
        ("openai:gpt-4o", {"openai": {"gpt-4o": {"json_schema": False}}}, False, "native_tools"),
        ("openai:gpt-4o", {"openai": {"gpt-4o": {"json_schema": False, "native_tools": False}}}, False, "json_object"),
        ("openrouter:vendor/unknown", {}, False, "text"),
        ("openai:gpt-4o", {}, True, "native_tools"),  # With tools, tools first.
    ],
    ids=["schema", "tool", "json-object", "text", "with-tools"],
)
def test_the_best_mode_the_model_supports(model: str, overrides: Any, tools: bool, first: Mode) -> None:
    fake = FakeAdapter(["x"] * 20)
    client = Client(model, adapter=fake, capabilities=overrides, learner=CapabilityLearner(), max_repairs=0)
    with pytest.raises(OutputValidationError):
        client.complete(ASK, tools=[lookup] if tools else None, output=CityLocation)
    assert fake.requests[0].mode == first


def test_a_refused_response_format_falls_back_to_the_tool() -> None:
    refused = UnsupportedFeatureError(
        "response_format json_schema is not supported", feature="json_schema", provider="openai"
    )
    fake = FakeAdapter([refused, NativeCall("final_result", GOOD_ARGS, "call_1")])
    resp = Client("openai:gpt-4o", adapter=fake, learner=CapabilityLearner()).complete(ASK, output=CityLocation)
    assert resp.output == MEXICO
    assert [(a.mode, a.outcome) for a in resp.attempts] == [("json_schema", "error"), ("native_tools", "ok")]


# --- output together with tools ---------------------------------------------------------------


def lookup(city: str) -> str:
    """Look up facts about a city."""
    return "21 million people"


def test_tools_first_then_the_output() -> None:
    provider = PROVIDERS[0]
    with mock_http() as router:
        route = router.post(provider.url)
        route.side_effect = [
            _response(chat_call("lookup", {"city": "Mexico City"}, "gpt-4o")),
            _response(chat_call("final_result", {**GOOD_ARGS, "population": 21_000_000}, "gpt-4o")),
        ]
        client = provider.client()
        first = client.complete(ASK, tools=[lookup], output=CityLocation)
        assert first.output is None and first.needs_more_work is True
        assert [(c.name, c.arguments) for c in first.tool_calls] == [("lookup", {"city": "Mexico City"})]
        history = [
            {"role": "user", "content": ASK},
            first,
            {"role": "tool", "tool_call_id": "call_1", "content": "21M"},
        ]
        second = client.complete(history, tools=[lookup], output=CityLocation)

    assert second.output == CityLocation(city="Mexico City", country="Mexico", population=21_000_000)
    assert (second.tool_calls, second.needs_more_work) == ([], False)
    body = sent(route, 0)
    assert [t["function"]["name"] for t in body["tools"]] == ["lookup", "final_result"]
    assert body["tool_choice"] == "required"  # A tool or the answer: never free text.


def test_tool_choice_none_cannot_give_an_output() -> None:
    client = Client("openai:gpt-4o", adapter=FakeAdapter(), mode="native_tools")
    with pytest.raises(ConfigError, match="tool_choice='none'"):
        client.complete(ASK, tools=[lookup], tool_choice="none", output=CityLocation)


def test_output_must_be_a_pydantic_model() -> None:
    with pytest.raises(ConfigError, match="pydantic model"):
        Client("openai:gpt-4o", adapter=FakeAdapter()).complete(ASK, output=dict)


@pytest.mark.parametrize(
    "answer",
    [
        '```json\n{"city": "Mexico City", "country": "Mexico"}\n```',  # A fenced object in JSON mode.
        '{"city": "Mexico City", "country": "Mexico"}',  # The object itself, not a final_result call.
    ],
    ids=["fenced", "bare-object-in-text-mode"],
)
def test_objects_written_in_the_text_are_read(answer: str) -> None:
    for mode in ("json_object", "text"):
        resp = Client("openai:gpt-4o", adapter=FakeAdapter([answer]), mode=mode).complete(ASK, output=CityLocation)
        assert resp.output == MEXICO


def test_strict_nulls_for_optional_fields_become_defaults() -> None:
    class Weather(pydantic.BaseModel):
        city: str
        unit: str = "celsius"

    fake = FakeAdapter(['{"city": "Paris", "unit": null}'])  # Strict mode made `unit` nullable.
    resp = Client("openai:gpt-4o", adapter=fake).complete(ASK, output=Weather)
    assert resp.output == Weather(city="Paris", unit="celsius")


def test_no_output_asked_means_output_none() -> None:
    resp = Client("openai:gpt-4o", adapter=FakeAdapter(["Hello"])).complete("Hi")
    assert resp.output is None


async def test_async_client_output() -> None:
    provider = PROVIDERS[2]  # Gemini
    with mock_http() as router:
        router.post(provider.url).respond(200, json=provider.answer("json_schema"))
        client = AsyncClient(provider.model, api_key="test-key-0123456789", learner=CapabilityLearner())
        resp = await client.complete(ASK, output=CityLocation)
    assert resp.output == MEXICO


def _response(body: dict[str, Any]) -> Any:
    import httpx

    return httpx.Response(200, json=body)


def test_a_model_that_never_calls_final_result_fails_saying_so() -> None:
    fake = FakeAdapter(["Mexico City.", "Mexico City, Mexico."])
    client = Client("openai:gpt-4o", adapter=fake, mode="native_tools", max_repairs=1)
    with pytest.raises(OutputValidationError) as caught:
        client.complete(ASK, output=CityLocation)
    # Issue 13: in the user's terms, never the internal final_result tool.
    assert caught.value.errors == ["the model never gave a CityLocation (it answered without the structured output)"]
    assert "final_result" not in str(caught.value)
    assert caught.value.raw == "Mexico City, Mexico."


def test_a_tool_the_caller_named_is_still_called_first() -> None:
    fake = FakeAdapter([NativeCall("lookup", {"city": "Mexico City"}, "call_1")])
    client = Client("openai:gpt-4o", adapter=fake, mode="native_tools")
    resp = client.complete(ASK, tools=[lookup], tool_choice="lookup", output=CityLocation)
    assert fake.requests[0].tool_choice == NamedTool("lookup")
    assert [t.name for t in fake.requests[0].tools] == ["lookup", "final_result"]
    assert (resp.output, resp.needs_more_work) == (None, True)
