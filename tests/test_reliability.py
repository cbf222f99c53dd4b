"""Repair, fallback and retry through the client, with a scripted provider (no HTTP).

Each test scripts what the model (or the provider) does, then checks the answer, the requests
actually sent, and the trace of attempts.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest

import llmrelay
from llmrelay import (
    AllAttemptsFailed,
    AuthenticationError,
    BadRequestError,
    Client,
    NotFoundError,
    RateLimitError,
    RetryPolicy,
    ServerError,
    UnsupportedFeatureError,
)
from llmrelay._types import NativeCall, RawResponse, Request
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import FakeAdapter

WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
        "required": ["city"],
    },
}
ASK = [{"role": "user", "content": "Weather in Paris?"}]
GOOD = NativeCall("get_weather", '{"city": "Paris"}', "call_ok")
NO_WAIT = RetryPolicy(sleep=lambda _: None, jitter=0)


def make(script: list[Any], **options: Any) -> tuple[Client, FakeAdapter]:
    fake = FakeAdapter(script)
    options.setdefault("retry", NO_WAIT)
    return Client("openai:gpt-4o-mini", adapter=fake, learner=CapabilityLearner(), **options), fake


def outcomes(result: llmrelay.Completion) -> list[tuple[str, str]]:
    return [(a.mode, a.outcome) for a in result.attempts]


def error(cls: type[llmrelay.ProviderError], **kwargs: Any) -> llmrelay.ProviderError:
    return cls("failed", provider="fake", **kwargs)


# --- repair ---------------------------------------------------------------------------------------


def test_invalid_arguments_are_repaired_with_tool_result_errors() -> None:
    c, fake = make([NativeCall("get_weather", '{"city": "Paris", "days": 0}', "call_1"), GOOD])
    result = c.complete(ASK, tools=[WEATHER])
    assert [(t.name, t.arguments) for t in result.tool_calls] == [("get_weather", {"city": "Paris"})]
    assert outcomes(result) == [("native_tools", "repair"), ("native_tools", "ok")]
    assert result.usage == llmrelay.Usage(20, 10, 30)  # Summed over both attempts.
    assistant, tool_result = fake.requests[1].messages[-2:]
    assert [(c.name, c.arguments, c.id) for c in assistant.tool_calls] == [
        ("get_weather", {"city": "Paris", "days": 0}, "call_1")
    ]
    assert (tool_result.role, tool_result.tool_call_id) == ("tool", "call_1")
    assert "argument 'days': 0 is less than the minimum of 1" in tool_result.content
    assert '"minimum": 1' in tool_result.content  # What the schema expects.


def test_unknown_tool_repair_lists_the_tools() -> None:
    c, fake = make([NativeCall("get_forecast", '{"city": "Paris"}', "c1"), GOOD])
    c.complete(ASK, tools=[WEATHER])
    assert (
        "There is no tool named 'get_forecast'. The tools you can call are: get_weather."
        in fake.requests[1].messages[-1].content
    )


def test_text_mode_repair_is_a_user_correction() -> None:
    broken = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": "three"}}</tool_call>'
    fixed = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}</tool_call>'
    c, fake = make([broken, fixed], mode="text")
    result = c.complete(ASK, tools=[WEATHER])
    assert [t.arguments for t in result.tool_calls] == [{"city": "Paris", "days": 3}]
    assistant, correction = fake.requests[1].messages[-2:]
    assert (assistant.role, assistant.content) == ("assistant", broken)
    assert correction.role == "user" and "'three' is not of type 'integer'" in correction.content


@pytest.mark.parametrize(
    ("answer", "options", "expected_problem"),
    [
        (RawResponse("fake", "m", finish_reason="MALFORMED_FUNCTION_CALL"), {}, "malformed"),
        ("Paris is lovely.", {"tool_choice": "required"}, "must call at least one"),
        ("Paris is lovely.", {"tool_choice": "get_weather"}, "must call the tool 'get_weather'"),
        ("I'll check the weather in Paris for you now.", {}, "no tool call"),
        ("Let me look that up:", {}, "no tool call"),
    ],
    ids=["gemini malformed call", "required but prose", "named but prose", "announced call", "announced with colon"],
)
def test_other_repair_triggers(answer: Any, options: dict[str, Any], expected_problem: str) -> None:
    c, fake = make([answer, GOOD])
    result = c.complete(ASK, tools=[WEATHER], **options)
    assert [t.name for t in result.tool_calls] == ["get_weather"]
    assert result.attempts[0].outcome == "repair" and expected_problem in str(result.attempts[0].reason)
    assert len(fake.requests) == 2


@pytest.mark.parametrize("reason", ["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "STOP"])
def test_a_call_the_provider_could_not_read_is_said_when_no_repair_is_left(reason: str) -> None:
    c, _ = make([RawResponse("fake", "m", finish_reason=reason)] * 12, max_repairs=0)
    result = c.complete(ASK, tools=[WEATHER])
    assert result.tool_calls == [] and result.provider_finish_reason == reason
    assert any("could not read the call" in w for w in result.warnings) == (reason != "STOP")


@pytest.mark.parametrize(
    "answer", ["The weather in Paris is sunny, 21C.", "I'll need the city name first. Which city?", "Done."]
)
def test_plain_answers_are_not_repaired(answer: str) -> None:
    c, fake = make([answer])
    assert c.complete(ASK, tools=[WEATHER]).content == answer
    assert len(fake.requests) == 1


def test_max_repairs_bounds_the_rounds_then_the_plan_moves_on() -> None:
    bad = NativeCall("get_weather", "{}", "c")
    c, _ = make(
        [
            bad,
            bad,
            bad,
            '{"content": "", "toolCalls": [{"name": "get_weather", "arguments": "{\\"city\\": \\"Rome\\"}"}], "needsMoreWork": true}',
        ]
    )
    result = c.complete(ASK, tools=[WEATHER])
    assert outcomes(result) == [
        ("native_tools", "repair"),
        ("native_tools", "repair"),
        ("native_tools", "exhausted"),
        ("json_schema", "ok"),
    ]
    assert [t.arguments for t in result.tool_calls] == [{"city": "Rome"}]


def test_zero_repairs_and_one_mode_returns_what_was_valid_and_why_not() -> None:
    c, fake = make(
        [RawResponse("fake", "m", native_calls=(GOOD, NativeCall("nope", "{}", "x")))],
        max_repairs=0,
        modes=["native_tools"],
    )
    result = c.complete(ASK, tools=[WEATHER])
    assert [t.name for t in result.tool_calls] == ["get_weather"]
    assert [(r.name, r.kind) for r in result.rejected] == [("nope", "unknown_tool")]
    assert outcomes(result) == [("native_tools", "exhausted")] and len(fake.requests) == 1


def test_a_truncated_call_is_reported_not_repaired() -> None:
    cut = RawResponse(
        "fake", "m", text='<tool_call>{"name": "get_weather", "arguments": {"city": "Par', finish_reason="length"
    )
    c, fake = make([cut], mode="text")
    result = c.complete(ASK, tools=[WEATHER])
    assert (result.finish_reason, [r.kind for r in result.rejected]) == ("length", ["truncated"])
    assert outcomes(result) == [("text", "truncated")] and len(fake.requests) == 1


def test_a_truncated_answer_is_asked_again_with_a_larger_budget_when_configured() -> None:
    cut = RawResponse("fake", "m", text="<tool_call>{", finish_reason="length")
    c, fake = make([cut, GOOD], max_tokens_on_length=8000)
    result = c.complete(ASK, tools=[WEATHER], max_tokens=100)
    assert [t.name for t in result.tool_calls] == ["get_weather"]
    assert [r.params["max_tokens"] for r in fake.requests] == [100, 8000]
    assert outcomes(result) == [("native_tools", "truncated"), ("native_tools", "ok")]


# --- retry ----------------------------------------------------------------------------------------


def test_transient_errors_are_retried_without_using_repairs_or_fallbacks() -> None:
    c, fake = make(
        [error(RateLimitError, status=429), error(ServerError, status=503), NativeCall("get_weather", "{}", "c"), GOOD]
    )
    result = c.complete(ASK, tools=[WEATHER])
    assert [t.name for t in result.tool_calls] == ["get_weather"]
    assert outcomes(result) == [
        ("native_tools", "retry"),
        ("native_tools", "retry"),
        ("native_tools", "repair"),
        ("native_tools", "ok"),
    ]
    assert {r.mode for r in fake.requests} == {"native_tools"} and len(fake.requests) == 4


def test_retry_after_is_waited_for() -> None:
    waits: list[float] = []
    c, _ = make([error(RateLimitError, status=429, retry_after=3.0), GOOD], retry=RetryPolicy(sleep=waits.append))
    c.complete(ASK, tools=[WEATHER])
    assert waits == [3.0]


# --- fallback -------------------------------------------------------------------------------------


def test_a_refused_mode_falls_back_to_the_next_mode() -> None:
    refused = error(UnsupportedFeatureError, feature="native_tools", status=400)
    c, _ = make(
        [
            refused,
            json.dumps(
                {
                    "content": "",
                    "toolCalls": [{"name": "get_weather", "arguments": '{"city": "Oslo"}'}],
                    "needsMoreWork": True,
                }
            ),
        ]
    )
    result = c.complete(ASK, tools=[WEATHER])
    assert outcomes(result) == [("native_tools", "error"), ("json_schema", "ok")]
    assert result.mode == "json_schema" and result.degraded is False


def test_persistent_server_errors_escalate_to_the_next_model() -> None:
    policy = RetryPolicy(max_attempts=2, sleep=lambda _: None)
    c, fake = make([error(ServerError, status=500)] * 2 + [GOOD], fallback_models=["openai:gpt-4o"], retry=policy)
    result = c.complete(ASK, tools=[WEATHER])
    assert [r.model for r in fake.requests] == ["gpt-4o-mini", "gpt-4o-mini", "gpt-4o"]
    assert [(a.model, a.outcome) for a in result.attempts] == [
        ("gpt-4o-mini", "retry"),
        ("gpt-4o-mini", "error"),
        ("gpt-4o", "ok"),
    ]


def test_an_unknown_model_escalates_to_the_next_model_without_trying_its_other_modes() -> None:
    c, fake = make([error(NotFoundError, status=404), GOOD], fallback_models=["openai:gpt-4o"])
    c.complete(ASK, tools=[WEATHER])
    assert [(r.model, r.mode) for r in fake.requests] == [("gpt-4o-mini", "native_tools"), ("gpt-4o", "native_tools")]


@pytest.mark.parametrize(
    "failure",
    [
        error(AuthenticationError, status=401),
        error(BadRequestError, status=400),
        error(llmrelay.PermissionDeniedError, status=403),
    ],
    ids=["auth", "bad request", "permission"],
)
def test_mistakes_the_user_must_fix_are_raised_at_once(failure: llmrelay.ProviderError) -> None:
    c, fake = make([failure], fallback_models=["openai:gpt-4o"])
    with pytest.raises(type(failure)):
        c.complete(ASK, tools=[WEATHER])
    assert len(fake.requests) == 1


def test_when_every_step_fails_the_answer_degrades_to_text_only() -> None:
    refused = [
        error(UnsupportedFeatureError, feature=f, status=400) for f in ("native_tools", "json_schema", "json_object")
    ]
    c, fake = make([*refused, "Paris: sunny."], modes=["native_tools", "json_schema", "json_object"])
    result = c.complete(ASK, tools=[WEATHER])
    assert (result.content, result.degraded, result.tool_calls) == ("Paris: sunny.", True, [])
    assert fake.requests[-1].tools == () and fake.requests[-1].mode == "text"
    assert outcomes(result) == [
        ("native_tools", "error"),
        ("json_schema", "error"),
        ("json_object", "error"),
        ("text", "degraded"),
    ]


def test_when_even_the_degraded_answer_fails_all_errors_are_raised_together() -> None:
    refused = error(UnsupportedFeatureError, feature="native_tools", status=400)
    c, _ = make([refused, error(ServerError, status=500)], retry=RetryPolicy(max_attempts=1), modes=["native_tools"])
    with pytest.raises(AllAttemptsFailed) as caught:
        c.complete(ASK, tools=[WEATHER])
    assert [type(e) for e in caught.value.exceptions] == [UnsupportedFeatureError, ServerError]
    assert [(a.mode, a.outcome) for a in caught.value.attempts] == [("native_tools", "error"), ("text", "error")]


def test_an_unusable_model_with_nothing_to_fall_back_to_raises_its_own_error() -> None:
    c, fake = make([error(NotFoundError, status=404)])
    with pytest.raises(NotFoundError):
        c.complete(ASK, tools=[WEATHER])
    assert len(fake.requests) == 1  # No pointless text-only retry on a model that does not exist.


def test_without_tools_there_is_nothing_to_degrade_to() -> None:
    c, fake = make([error(ServerError, status=500)], retry=RetryPolicy(max_attempts=1))
    with pytest.raises(ServerError):
        c.complete("Hello")
    assert len(fake.requests) == 1


def test_the_fallback_budget_is_separate_and_bounded() -> None:
    refused = error(UnsupportedFeatureError, feature="native_tools", status=400)
    c, fake = make([refused, "Paris: sunny."], max_plan_steps=1)
    result = c.complete(ASK, tools=[WEATHER])
    assert result.degraded and [r.mode for r in fake.requests] == ["native_tools", "text"]


@pytest.mark.parametrize(("given", "budget"), [({"max_steps": 1}, 1), ({"max_steps": 3}, 3)])
def test_the_old_name_of_the_fallback_budget_still_works_and_warns(given: dict[str, int], budget: int) -> None:
    with pytest.warns(DeprecationWarning, match="max_plan_steps"):
        c, _ = make(["Hi."], **given)
    assert c.max_plan_steps == budget


def test_the_new_name_of_the_fallback_budget_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c, _ = make(["Hi."], max_plan_steps=2)
    assert c.max_plan_steps == 2


# --- async ----------------------------------------------------------------------------------------


async def test_async_client_repairs_retries_and_falls_back_the_same_way() -> None:
    fake = FakeAdapter([error(RateLimitError, status=429), NativeCall("get_weather", "{}", "c"), GOOD])
    c = llmrelay.AsyncClient(
        "openai:gpt-4o-mini", adapter=fake, learner=CapabilityLearner(), retry=RetryPolicy(async_sleep=_no_sleep)
    )
    result = await c.complete(ASK, tools=[WEATHER])
    assert [a.outcome for a in result.attempts] == ["retry", "repair", "ok"]


async def _no_sleep(_: float) -> None:
    return None


def test_a_call_complete_before_the_envelope_stopped_is_taken_without_repair() -> None:
    # Only the envelope's `]}` are missing: the call itself closed, as it would have streamed.
    stopped = '{"content": "On it.", "toolCalls": [{"name": "get_weather", "arguments": {"city": "Paris"}}'
    c, fake = make([stopped], mode="text")
    result = c.complete(ASK, tools=[WEATHER])
    assert [t.arguments for t in result.tool_calls] == [{"city": "Paris"}]
    assert (result.content, result.rejected, len(fake.requests)) == ("On it.", [], 1)


def test_a_custom_repair_trigger() -> None:
    def never(result: llmrelay.Completion, request: Request) -> list[str]:
        return []

    c, fake = make([NativeCall("get_weather", "{}", "c")], repair_trigger=never, modes=["native_tools"])
    assert [r.kind for r in c.complete(ASK, tools=[WEATHER]).rejected] == ["invalid_arguments"]
    assert len(fake.requests) == 1


@pytest.mark.parametrize(
    "broken",
    [
        '{"content": "" "toolCalls": [{"name": "get_weather", "arguments": {"city": "Paris"}}], "needsMoreWork": true}',
        '{"content": "", "toolCalls": [{"name": "get_weather", "arguments": {"city": "Par',
    ],
    ids=["missing comma", "stopped inside its call"],
)
def test_an_unreadable_or_unfinished_call_the_model_stopped_on_is_repaired(broken: str) -> None:
    fixed = (
        '{"content": "", "toolCalls": [{"name": "get_weather", "arguments": {"city": "Paris"}}], "needsMoreWork": true}'
    )
    c, _ = make([broken, fixed], mode="text")
    result = c.complete(ASK, tools=[WEATHER])
    assert [t.arguments for t in result.tool_calls] == [{"city": "Paris"}]
    assert outcomes(result) == [("text", "repair"), ("text", "ok")]
