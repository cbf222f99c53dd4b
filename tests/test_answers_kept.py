"""Answers that were read wrong or lost (issue 13): n>1 streams, the legacy `function_call` shape.

Each provider's answer is served by `mock_http` through the real SDK and adapter, whole and
streamed, and must give the same `Completion`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel

import llmrelay
from llmrelay import RetryPolicy, StreamEnd, TextDelta, ToolCallComplete
from llmrelay.testing import mock_http

OPENAI_URL = "https://api.openai.com/v1/chat/completions"
GEMINI_STREAM_URL = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent"


def get_weather(city: str) -> str:
    """The forecast for a city."""
    return ""


def client(model: str = "openai:gpt-4o-mini") -> llmrelay.Client:
    return llmrelay.Client(model, api_key="test-key-123456", retry=RetryPolicy(max_attempts=1))


def sse(*events: Any) -> bytes:
    return "".join(f"data: {json.dumps(event)}\n\n" for event in events).encode() + b"data: [DONE]\n\n"


def streamed(url: str, body: bytes, model: str = "openai:gpt-4o-mini", **kwargs: Any) -> list[Any]:
    with mock_http() as router:
        router.post(url__startswith=url).respond(200, headers={"content-type": "text/event-stream"}, content=body)
        return list(client(model).stream("Weather in Paris?", **kwargs))


def chunk(index: int, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "c1", "model": "gpt-4o-mini", "choices": [{"index": index, "delta": delta, "finish_reason": finish}]}


# --- n>1: only choice 0 counts ----------------------------------------------------------------

# Two choices' chunks interleaved, as OpenAI streams `n=2`.
TWO_CHOICES = sse(
    chunk(0, {"role": "assistant", "content": ""}),
    chunk(1, {"role": "assistant", "content": ""}),
    chunk(0, {"content": "I'm"}),
    chunk(1, {"content": "I'm"}),
    chunk(0, {"content": " unable"}),
    chunk(1, {"content": " sorry"}),
    chunk(1, {}, finish="stop"),
    chunk(0, {"content": " to help."}),
    chunk(0, {}, finish="stop"),
)


def test_a_stream_with_two_choices_gives_choice_0_only() -> None:
    events = streamed(OPENAI_URL, TWO_CHOICES, n=2)
    text = "".join(event.text for event in events if isinstance(event, TextDelta))
    assert text == "I'm unable to help."
    assert events[-1].completion.content == "I'm unable to help."


def test_a_gemini_stream_with_two_candidates_gives_candidate_0_only() -> None:
    def candidate(index: int, text: str, finish: str | None = None) -> dict[str, Any]:
        found: dict[str, Any] = {"index": index, "content": {"role": "model", "parts": [{"text": text}]}}
        return {"candidates": [found | ({"finishReason": finish} if finish else {})], "modelVersion": "g"}

    body = "".join(
        f"data: {json.dumps(o)}\n\n"
        for o in [
            candidate(0, "Sunny"),
            candidate(1, "Rainy"),
            candidate(0, " today.", "STOP"),
            candidate(1, "!", "STOP"),
        ]
    ).encode()
    events = streamed(GEMINI_STREAM_URL, body, model="gemini:gemini-2.5-flash", candidate_count=2)
    assert events[-1].completion.content == "Sunny today."


# --- the legacy function_call shape --------------------------------------------------------------

LEGACY_ANSWER = {
    "id": "c1",
    "model": "llama3",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            },
            "finish_reason": "function_call",
        }
    ],
}
LEGACY_STREAM = sse(
    chunk(0, {"role": "assistant", "function_call": {"name": "get_weather", "arguments": ""}}),
    chunk(0, {"function_call": {"arguments": '{"city": '}}),
    chunk(0, {"function_call": {"arguments": '"Paris"}'}}),
    chunk(0, {}, finish="function_call"),
)


def test_a_legacy_function_call_is_read_as_a_call() -> None:
    with mock_http() as router:
        router.post(OPENAI_URL).respond(200, json=LEGACY_ANSWER)
        result = client().complete("Weather in Paris?", tools=[get_weather])
    assert [(c.name, c.arguments) for c in result.tool_calls] == [("get_weather", {"city": "Paris"})]
    assert result.tool_calls[0].id  # Made up: the legacy shape has none.
    assert result.finish_reason == "tool_calls"
    assert result.rejected == []


def test_a_streamed_legacy_function_call_is_read_as_a_call() -> None:
    events = streamed(OPENAI_URL, LEGACY_STREAM, tools=[get_weather])
    completes = [event for event in events if isinstance(event, ToolCallComplete)]
    assert [(e.call.name, e.call.arguments) for e in completes if e.call] == [("get_weather", {"city": "Paris"})]
    end = events[-1]
    assert isinstance(end, StreamEnd)
    assert [(c.name, c.arguments) for c in end.completion.tool_calls] == [("get_weather", {"city": "Paris"})]
    assert end.completion.tool_calls[0].id == completes[0].call.id  # type: ignore[union-attr]


def test_tool_calls_win_over_a_legacy_function_call_beside_them() -> None:
    answer = json.loads(json.dumps(LEGACY_ANSWER))
    message = answer["choices"][0]["message"]
    message["tool_calls"] = [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'}}
    ]
    with mock_http() as router:
        router.post(OPENAI_URL).respond(200, json=answer)
        result = client().complete("Weather?", tools=[get_weather])
    assert [(c.id, c.arguments) for c in result.tool_calls] == [("call_1", {"city": "Rome"})]


# --- refusals: an answer, never repaired ---------------------------------------------------------


class Weather(BaseModel):
    """A forecast."""

    city: str
    sky: str


@dataclass(frozen=True)
class Refusal:
    id: str
    model: str
    url: str
    body: dict[str, Any]
    refusal: str


REFUSALS = [
    Refusal(
        "openai refusal field, content null",
        "openai:gpt-4o-mini",
        OPENAI_URL,
        {
            "model": "gpt-4o-mini",
            "choices": [
                {
                    "index": 0,
                    "message": {"content": None, "refusal": "I'm sorry, I can't help."},
                    "finish_reason": "stop",
                }
            ],
        },
        "I'm sorry, I can't help.",
    ),
    Refusal(
        "anthropic stop_reason refusal",
        "anthropic:claude-sonnet-4-6",
        "https://api.anthropic.com/v1/messages",
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-6",
            "content": [{"type": "text", "text": "I can't help with that."}],
            "stop_reason": "refusal",
            "usage": {"input_tokens": 10, "output_tokens": 5},
        },
        "I can't help with that.",
    ),
    Refusal(
        "anthropic refusal with no text: the provider's explanation",
        "anthropic:claude-sonnet-4-6",
        "https://api.anthropic.com/v1/messages",
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-6",
            "content": [],
            "stop_reason": "refusal",
            "stop_details": {"type": "refusal", "category": "cyber", "explanation": "This request was blocked."},
            "usage": {"input_tokens": 10, "output_tokens": 0},
        },
        "This request was blocked.",
    ),
    Refusal(
        "gemini safety stop, no text",
        "gemini:gemini-2.5-flash",
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
        {"candidates": [{"index": 0, "finishReason": "SAFETY"}], "modelVersion": "gemini-2.5-flash"},
        "the provider stopped the answer (SAFETY)",
    ),
]


@pytest.mark.parametrize("case", REFUSALS, ids=lambda c: c.id)
def test_a_refusal_to_an_output_request_raises_refusal_error_after_one_request(case: Refusal) -> None:
    with mock_http() as router:
        route = router.post(case.url).respond(200, json=case.body)
        with pytest.raises(llmrelay.RefusalError) as info:
            client(case.model).complete("Weather in Paris?", output=Weather)
    assert route.call_count == 1  # No repair: a refusal is an answer.
    assert info.value.refusal == case.refusal
    assert "refused to give a Weather" in str(info.value)
    assert isinstance(info.value, llmrelay.OutputValidationError)
    assert info.value.completion is not None and info.value.completion.refusal == case.refusal


@pytest.mark.parametrize("case", REFUSALS, ids=lambda c: c.id)
def test_a_refusal_is_on_the_completion_and_not_repaired(case: Refusal) -> None:
    with mock_http() as router:
        route = router.post(case.url).respond(200, json=case.body)
        result = client(case.model).complete("Weather in Paris?", tools=[get_weather], tool_choice="required")
    assert route.call_count == 1
    assert (result.refusal, result.finish_reason) == (case.refusal, "content_filter")
    assert [a.outcome for a in result.attempts] == ["ok"]


def test_an_answer_without_refusal_has_none() -> None:
    body = {"model": "m", "choices": [{"index": 0, "message": {"content": "Sunny."}, "finish_reason": "stop"}]}
    with mock_http() as router:
        router.post(OPENAI_URL).respond(200, json=body)
        result = client().complete("Weather in Paris?")
    assert (result.refusal, result.finish_reason) == (None, "stop")


REFUSAL_STREAM = sse(
    chunk(0, {"role": "assistant", "content": None, "refusal": ""}),
    chunk(0, {"refusal": "I'm sorry,"}),
    chunk(0, {"refusal": " I can't help."}),
    chunk(0, {}, finish="stop"),
)


def test_a_streamed_refusal_is_on_the_completion() -> None:
    events = streamed(OPENAI_URL, REFUSAL_STREAM)
    end = events[-1]
    assert isinstance(end, StreamEnd)
    assert (end.completion.refusal, end.completion.finish_reason) == ("I'm sorry, I can't help.", "content_filter")
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "I'm sorry, I can't help."


@pytest.mark.parametrize(
    ("text", "refusal"),
    [("I can't.", "I can't."), ("", "This request was blocked.")],
    ids=["the model's words", "no text: the provider's explanation"],
)
def test_a_streamed_anthropic_refusal_is_on_the_completion(text: str, refusal: str) -> None:
    def event(name: str, data: dict[str, Any]) -> str:
        return f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n"

    details = {"type": "refusal", "category": "cyber", "explanation": "This request was blocked."}
    body = (
        event("message_start", {"message": {"id": "m", "model": "claude-sonnet-4-6", "usage": {"input_tokens": 3}}})
        + event("content_block_start", {"index": 0, "content_block": {"type": "text", "text": ""}})
        + event("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": text}})
        + event("content_block_stop", {"index": 0})
        + event("message_delta", {"delta": {"stop_reason": "refusal", "stop_details": details}, "usage": {}})
        + event("message_stop", {})
    ).encode()
    events = streamed("https://api.anthropic.com/v1/messages", body, model="anthropic:claude-sonnet-4-6")
    assert events[-1].completion.refusal == refusal


# --- a 200 that is not an answer is not an empty success (session 3, a new user's first hour) --------


@pytest.mark.parametrize("body", [{}, {"status": "ok"}, {"choices": []}, {"choices": None}], ids=repr)
@pytest.mark.parametrize("model", ["openai:gpt-4o-mini", "openai-compatible:m", "groq:llama-3.3-70b-versatile"])
def test_a_200_without_choices_is_a_server_error_not_an_empty_answer(body: dict[str, Any], model: str) -> None:
    with mock_http() as router:
        router.post(url__regex=r".*/chat/completions$").respond(200, json=body)
        extra = {"base_url": "http://localhost:1/v1"} if model.startswith("openai-compatible") else {}
        with pytest.raises(llmrelay.ServerError, match="no choices") as caught:
            llmrelay.Client(model, api_key="test-key-123456", retry=RetryPolicy(max_attempts=1), **extra).complete("Hi")
    assert caught.value.body is not None
