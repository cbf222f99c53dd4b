"""`client.run` end to end through the real adapters and SDKs, HTTP mocked (`mock_http`).

Step 1 is a recorded answer making parallel tool calls; step 2's request must carry every call
back in the provider's shape and, right after it, every result paired with its call's id (for
Gemini, which sends no ids, the ids llmrelay made up, and the tool's name). Step 2's answer is a
recorded final text.
"""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from llmrelay import AsyncClient, Client, RetryPolicy, RunResult, errors
from llmrelay.adapters import ProviderOptions
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

from .adapters import anthropic_bodies, gemini_bodies
from .adapters.openai_bodies import OPENAI_TEXT, OPENAI_TOOL_CALL


def _openai_parallel_calls() -> dict[str, Any]:
    """The recorded tool call, with a second one beside it (the documented parallel shape)."""
    body = copy.deepcopy(OPENAI_TOOL_CALL)
    second = {"id": "call_Rz2ePq8XwVb4NkT1sYd7LmQa", "type": "function"}
    second["function"] = {"name": "get_weather", "arguments": '{"location":"Osaka"}'}
    body["choices"][0]["message"]["tool_calls"].append(second)
    return body


def weather(location: str) -> dict[str, Any]:
    """Weather for a place."""
    return {"location": location, "temp_c": 21}


def retrieve_entity_info(name: str) -> dict[str, Any]:
    """Facts about a family member."""
    return {"name": name, "age": len(name) * 10}


def get_current_temperature(city: str) -> str:
    """The temperature in a city."""
    return f"{city}: 18C"


weather.__name__ = "get_weather"


@dataclass(frozen=True)
class Provider:
    model: str
    url: str
    calls: dict[str, Any]
    final: dict[str, Any]
    tool: Callable[..., Any]
    final_text: str

    def step_two_pairs(self, body: dict[str, Any]) -> tuple[list[tuple[str, str, Any]], list[tuple[str, str, Any]]]:
        """(id, name, arguments) of the calls sent back, and (id, name, result) of the results after them."""
        if self.model.startswith("openai:"):
            assistant, *results = body["messages"][1:]
            calls = [
                (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
                for c in assistant["tool_calls"]
            ]
            names = {c[0]: c[1] for c in calls}
            return calls, [(r["tool_call_id"], names[r["tool_call_id"]], json.loads(r["content"])) for r in results]
        if self.model.startswith("anthropic:"):
            assistant, user = body["messages"][1:]
            uses = [b for b in assistant["content"] if b["type"] == "tool_use"]
            names = {b["id"]: b["name"] for b in uses}
            results = [(b["tool_use_id"], names[b["tool_use_id"]], json.loads(b["content"])) for b in user["content"]]
            return [(b["id"], b["name"], b["input"]) for b in uses], results
        model_turn, user_turn = body["contents"][1:]
        calls = [
            (p["functionCall"]["id"], p["functionCall"]["name"], p["functionCall"]["args"]) for p in model_turn["parts"]
        ]
        responses = [p["functionResponse"] for p in user_turn["parts"]]
        return calls, [(r["id"], r["name"], r["response"]) for r in responses]


PROVIDERS = {
    "openai": Provider(
        "openai:gpt-4.1",
        "https://api.openai.com/v1/chat/completions",
        _openai_parallel_calls(),
        OPENAI_TEXT,
        weather,
        OPENAI_TEXT["choices"][0]["message"]["content"],
    ),
    "anthropic": Provider(
        "anthropic:claude-haiku-4-5",
        "https://api.anthropic.com/v1/messages",
        anthropic_bodies.PARALLEL_TOOL_USE,
        anthropic_bodies.TOOL_RESULT_ANSWER,
        retrieve_entity_info,
        anthropic_bodies.TOOL_RESULT_ANSWER["content"][0]["text"],
    ),
    "gemini": Provider(
        "gemini:gemini-2.5-flash",
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
        gemini_bodies.PARALLEL_CALLS,
        gemini_bodies.FINAL_ANSWER,
        get_current_temperature,
        "The sum of 15 and 27 is 42.",
    ),
}


def expected_result(provider: Provider, arguments: dict[str, Any]) -> Any:
    value = provider.tool(**arguments)
    return value if isinstance(value, dict) else {"output": value}  # Gemini wraps a text result.


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("name", list(PROVIDERS))
async def test_step_two_sends_every_call_back_with_its_result_paired(name: str, use_async: bool) -> None:
    provider = PROVIDERS[name]
    options: dict[str, Any] = {"api_key": "test-key-0123456789", "learner": CapabilityLearner(), "max_repairs": 0}
    with mock_http() as router:
        route = router.post(provider.url)
        route.side_effect = [httpx.Response(200, json=provider.calls), httpx.Response(200, json=provider.final)]
        ask = [{"role": "user", "content": "Go."}]
        if use_async:
            result: RunResult = await AsyncClient(provider.model, **options).run(ask, tools=[provider.tool])
        else:
            result = Client(provider.model, **options).run(ask, tools=[provider.tool])

    assert (result.stop_reason, result.content, len(route.calls)) == ("done", provider.final_text, 2)
    step_two = json.loads(route.calls[1].request.content)
    calls, results = provider.step_two_pairs(step_two)
    made = result.steps[0].completion.tool_calls
    assert len(made) >= 2 and [(name, args) for _, name, args in calls] == [(c.name, c.arguments) for c in made]
    assert len({call_id for call_id, _, _ in calls}) == len(calls)  # Distinct ids, even where Gemini sent none.
    assert [(call_id, name) for call_id, name, _ in results] == [(call_id, name) for call_id, name, _ in calls]
    assert [r for _, _, r in results] == [expected_result(provider, args) for _, _, args in calls]
    assert [t.tool_call_id for t in result.messages if t.role == "tool"] == [c.id for c in made]


def test_a_fallback_on_step_two_sends_step_ones_results_on_and_runs_no_tool_again() -> None:
    """Step 2 on OpenAI keeps failing (5xx, retries spent): it falls back to Anthropic with the transcript."""
    ran: list[str] = []

    def get_weather(location: str) -> str:
        """Weather for a place."""
        ran.append(location)
        return "sunny, 22C"

    overloaded = {"error": {"message": "The server is overloaded.", "type": "server_error", "code": None}}
    with mock_http() as router:
        openai_route = router.post(PROVIDERS["openai"].url)
        openai_route.side_effect = [httpx.Response(200, json=OPENAI_TOOL_CALL)] + [
            httpx.Response(503, json=overloaded)
        ] * 8
        anthropic_route = router.post(PROVIDERS["anthropic"].url).respond(200, json=anthropic_bodies.TOOL_RESULT_ANSWER)
        client = Client(
            "openai:gpt-4.1",
            api_key="test-key-0123456789",
            providers={"anthropic": ProviderOptions(api_key="test-key-0123456789")},
            fallback_models=["anthropic:claude-sonnet-4-6"],
            learner=CapabilityLearner(),
        )
        result = client.run("Weather in Tokyo?", tools=[get_weather])

    assert ran == ["Tokyo"]
    assert result.content == anthropic_bodies.TOOL_RESULT_ANSWER["content"][0]["text"]
    assert result.steps[1].completion.provider == "anthropic"
    [call_id] = [c["id"] for c in OPENAI_TOOL_CALL["choices"][0]["message"]["tool_calls"]]
    assistant, user = json.loads(anthropic_route.calls[0].request.content)["messages"][1:]
    assert [(b["type"], b["id"], b["input"]) for b in assistant["content"]] == [
        ("tool_use", call_id, {"location": "Tokyo"})
    ]
    assert user["content"] == [{"type": "tool_result", "tool_use_id": call_id, "content": "sunny, 22C"}]


# --- a fault between steps never runs a tool twice, whatever the fault --------------------------


def _http() -> Any:
    """The HTTP library the installed openai SDK sends with (httpx2 from openai 3, httpx before)."""
    uses_httpx2 = hasattr(importlib.import_module("openai._base_client"), "httpx2")
    return importlib.import_module("httpx2" if uses_httpx2 else "httpx")


_OVERLOADED = {"error": {"message": "The server is overloaded.", "type": "server_error", "code": None}}
_RATE_LIMITED = {
    "error": {"message": "Rate limit reached for requests", "type": "requests", "code": "rate_limit_exceeded"}
}
FAULTS: dict[str, tuple[Callable[[], Any], type[errors.ProviderError]]] = {
    "429": (lambda: httpx.Response(429, json=_RATE_LIMITED), errors.RateLimitError),
    "503": (lambda: httpx.Response(503, json=_OVERLOADED), errors.OverloadedError),
    "timeout": (lambda: _http().ReadTimeout("timed out"), errors.ProviderTimeoutError),
    "connection-reset": (
        lambda: _http().ReadError("[Errno 104] Connection reset by peer"),
        errors.ProviderConnectionError,
    ),
    "malformed-body": (
        lambda: httpx.Response(
            200, text='{"id": "chatcmpl-1", "choices": [{"mess', headers={"content-type": "application/json"}
        ),
        errors.ServerError,
    ),
}


async def _run(use_async: bool, messages: Any, tool: Callable[..., Any], retry: RetryPolicy) -> RunResult:
    options: dict[str, Any] = {"api_key": "test-key-0123456789", "learner": CapabilityLearner(), "retry": retry}
    if use_async:
        return await AsyncClient(PROVIDERS["openai"].model, **options).run(messages, tools=[tool])
    return Client(PROVIDERS["openai"].model, **options).run(messages, tools=[tool])


def _counting() -> tuple[Callable[..., dict[str, Any]], list[str]]:
    ran: list[str] = []

    def get_weather(location: str) -> dict[str, Any]:
        """Weather for a place."""
        ran.append(location)
        return weather(location)

    return get_weather, ran


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_fault_on_step_two_is_retried_and_step_ones_tools_never_run_again(fault: str, use_async: bool) -> None:
    make, error = FAULTS[fault]
    tool, ran = _counting()
    retry = RetryPolicy(max_attempts=3, sleep=lambda s: None, async_sleep=_no_wait)
    provider = PROVIDERS["openai"]
    with mock_http() as router:
        route = router.post(provider.url)
        route.side_effect = [httpx.Response(200, json=provider.calls), make(), httpx.Response(200, json=provider.final)]
        result = await _run(use_async, "Weather in Tokyo and Osaka?", tool, retry)

    assert ran == ["Tokyo", "Osaka"], "each call of step 1 ran once"
    assert (result.stop_reason, result.content, len(route.calls)) == ("done", provider.final_text, 3)
    step_two = result.steps[1].completion.attempts
    assert [a.outcome for a in step_two] == ["retry", "ok"] and error.__name__ in (step_two[0].reason or "")
    assert route.calls[1].request.content == route.calls[2].request.content, "the retry resent the same transcript"


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_fault_that_outlasts_the_retries_keeps_the_run_so_far_and_resuming_runs_no_tool_twice(
    fault: str, use_async: bool
) -> None:
    make, error = FAULTS[fault]
    tool, ran = _counting()
    retry = RetryPolicy(max_attempts=2, sleep=lambda s: None, async_sleep=_no_wait)
    provider = PROVIDERS["openai"]
    with mock_http() as router:
        route = router.post(provider.url)
        route.side_effect = [httpx.Response(200, json=provider.calls), make(), make()]
        with pytest.raises(error) as caught:
            await _run(use_async, "Weather in Tokyo and Osaka?", tool, retry)
        assert len(route.calls) == 3  # Step 1, then step 2 and its one retry: nothing more.

        partial = caught.value.partial_run
        assert partial is not None and partial.stop_reason == "error"
        assert [(m.role, m.tool_call_id) for m in partial.messages[2:]] == [
            ("tool", c.id) for c in partial.steps[0].completion.tool_calls
        ]
        route.side_effect = [httpx.Response(200, json=provider.final)]
        resumed = await _run(use_async, partial.messages, tool, retry)

    assert ran == ["Tokyo", "Osaka"], "resuming from the run so far ran no tool again"
    assert resumed.content == provider.final_text


async def _no_wait(seconds: float) -> None:
    return None
