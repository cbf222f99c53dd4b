"""Issue 14: a two-step tool loop with reasoning on, against each provider's mocked API.

The first answer reasons and calls a tool; the loop runs it and asks again. The second request's
body is asserted field by field: the reasoning knob as the provider names it, and the provider's
reasoning artifacts sent back in the shape its docs require (Anthropic thinking and
redacted_thinking blocks with their signatures before the tool_use; Gemini's thought signature on
the call; OpenRouter's reasoning_details on the assistant turn). The answers are in the shapes of
the providers' current docs.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

pytest.importorskip("anthropic")
pytest.importorskip("google.genai")
pytest.importorskip("openai")
pytest.importorskip("groq")

import llmrelay
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

QUESTION = [{"role": "user", "content": "Weather in Paris?"}]
SIGNATURE = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"
REDACTED = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"
WEATHER_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


def two_steps(model: str, url: str, answers: list[dict[str, Any]], **options: Any) -> tuple[Any, list[dict[str, Any]]]:
    """Run the loop against two mocked answers; the run and both request bodies."""
    client = llmrelay.Client(model, api_key="FAKE-key-0123456789", learner=CapabilityLearner(), **options)
    with mock_http() as router:
        router.post(url).mock(side_effect=[httpx.Response(200, json=answer) for answer in answers])
        result = client.run(QUESTION, tools=[get_weather])
        bodies = [json.loads(call.request.content) for call in router.calls]
    assert len(bodies) == 2, "one tool step, then the answer"
    return result, bodies


# --- Anthropic (docs.claude.com/en/docs/build-with-claude/extended-thinking, tool use) ----------

ANTHROPIC_URL = "https://api.anthropic.com/v1/messages"
THINKING_BLOCK = {
    "type": "thinking",
    "thinking": "The user wants Paris weather; call the tool.",
    "signature": SIGNATURE,
}
REDACTED_BLOCK = {"type": "redacted_thinking", "data": REDACTED}
TOOL_USE = {
    "type": "tool_use",
    "id": "toolu_01A09q90qw90lq917835lq9",
    "name": "get_weather",
    "input": {"city": "Paris"},
}


def anthropic_answer(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": content,
        "stop_reason": stop,
        "usage": {"input_tokens": 50, "output_tokens": 90},
    }


def test_anthropic_sends_thinking_blocks_back_before_the_tool_use() -> None:
    answers = [
        anthropic_answer([THINKING_BLOCK, REDACTED_BLOCK, TOOL_USE], "tool_use"),
        anthropic_answer([{"type": "text", "text": "Sunny in Paris."}], "end_turn"),
    ]
    result, (first, second) = two_steps(
        "anthropic:claude-sonnet-4-6", ANTHROPIC_URL, answers, reasoning={"budget_tokens": 2048}
    )
    assert first["thinking"] == second["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert second["max_tokens"] == 2048 + 4096  # Above the budget, as Anthropic requires.
    assert second["messages"] == [
        {"role": "user", "content": "Weather in Paris?"},  # Plain text goes as a string.
        {"role": "assistant", "content": [THINKING_BLOCK, REDACTED_BLOCK, TOOL_USE]},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": TOOL_USE["id"], "content": "sunny in Paris"}],
        },
    ]
    assert [tool["name"] for tool in second["tools"]] == ["get_weather"]
    assert result.steps[0].completion.reasoning == THINKING_BLOCK["thinking"]
    assert result.steps[0].completion.content == ""  # Reasoning never part of the content.
    assert result.content == "Sunny in Paris."


# --- Gemini (ai.google.dev/gemini-api/docs/thinking, /thought-signatures) ----------------------

GEMINI_URL = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
GEMINI_SIGNATURE = "Q2lRQjBlMmE1NzRkLTk5ZmQtNDY3Mi05YjQ2LWEyMzM4ZGE3YzQ1Yw=="


def camel(fields: dict[str, Any]) -> dict[str, Any]:
    return {key.split("_")[0] + "".join(w.title() for w in key.split("_")[1:]): value for key, value in fields.items()}


def gemini_answer(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "usageMetadata": {
            "promptTokenCount": 40,
            "candidatesTokenCount": 10,
            "thoughtsTokenCount": 30,
            "cachedContentTokenCount": 8,
            "totalTokenCount": 80,
        },
        "modelVersion": "gemini-2.5-flash",
        "responseId": "resp-1",
    }


def test_gemini_sends_the_thought_signature_back_on_the_call_and_asks_for_thoughts() -> None:
    call = {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": GEMINI_SIGNATURE}
    answers = [
        gemini_answer([{"text": "I should look it up.", "thought": True}, call]),
        gemini_answer([{"text": "Sunny in Paris."}]),
    ]
    result, (_, second) = two_steps("gemini:gemini-2.5-flash", GEMINI_URL, answers, reasoning="low")
    # google-genai 3.x writes the nested config in snake case, 1.x in camel case; the API reads either.
    assert camel(second["generationConfig"]["thinkingConfig"]) == {"thinkingBudget": 1024, "includeThoughts": True}
    made = result.steps[0].completion.tool_calls[0]
    assert second["contents"][1] == {
        "role": "model",
        "parts": [
            {
                "functionCall": {"id": made.id, "name": "get_weather", "args": {"city": "Paris"}},
                "thoughtSignature": GEMINI_SIGNATURE,
            }
        ],
    }  # The thought text itself is not sent back: Gemini needs only the signature.
    assert second["contents"][2]["parts"][0]["functionResponse"]["response"] == {"output": "sunny in Paris"}
    first_answer = result.steps[0].completion
    assert (first_answer.reasoning, first_answer.content) == ("I should look it up.", "")
    assert (first_answer.usage.reasoning_tokens, first_answer.usage.cached_input_tokens) == (30, 8)


# --- OpenRouter (openrouter.ai/docs/use-cases/reasoning-tokens, "Preserving reasoning blocks") --

OPENROUTER_URL = "https://openrouter.ai/api/v1/chat/completions"
DETAILS = [
    {
        "type": "reasoning.text",
        "text": "Call the weather tool.",
        "signature": SIGNATURE,
        "format": "anthropic-claude-v1",
        "index": 0,
    },
    {"type": "reasoning.encrypted", "data": REDACTED, "format": "anthropic-claude-v1", "index": 1},
]
CHAT_CALL = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}


def chat_answer(message: dict[str, Any], finish: str, **usage: Any) -> dict[str, Any]:
    return {
        "id": "gen-1",
        "model": "anthropic/claude-sonnet-4.5",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}],
        "usage": {"prompt_tokens": 20, "completion_tokens": 30, "total_tokens": 50, **usage},
    }


def test_openrouter_sends_reasoning_details_back_on_the_assistant_turn() -> None:
    first_message = {
        "content": None,
        "reasoning": "Call the weather tool.",
        "reasoning_details": DETAILS,
        "tool_calls": [CHAT_CALL],
    }
    answers = [chat_answer(first_message, "tool_calls"), chat_answer({"content": "Sunny."}, "stop")]
    result, (_, second) = two_steps(
        "openrouter:anthropic/claude-sonnet-4.5", OPENROUTER_URL, answers, reasoning={"budget_tokens": 2000}
    )
    assert second["reasoning"] == {"max_tokens": 2000}
    assert second["messages"][1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
        ],
        "reasoning_details": DETAILS,
    }
    assert second["messages"][2] == {"role": "tool", "tool_call_id": "call_1", "content": "sunny in Paris"}
    assert result.steps[0].completion.reasoning == "Call the weather tool."


# --- Groq (console.groq.com/docs/reasoning) and OpenAI Chat Completions (/docs/guides/reasoning) --

GROQ_URL = "https://api.groq.com/openai/v1/chat/completions"
OPENAI_URL = "https://api.openai.com/v1/chat/completions"


@pytest.mark.parametrize(
    ("model", "url", "reasoning", "fields"),
    [
        ("groq:openai/gpt-oss-120b", GROQ_URL, "high", {"reasoning_effort": "high", "include_reasoning": True}),
        (
            "groq:qwen/qwen3-32b",
            GROQ_URL,
            "medium",
            {"reasoning_effort": "default", "reasoning_format": "parsed"},
        ),
        ("openai:gpt-5-mini", OPENAI_URL, {"budget_tokens": 3000}, {"reasoning_effort": "medium"}),
        ("openai:o4-mini", OPENAI_URL, "low", {"reasoning_effort": "low"}),
    ],
    ids=["groq gpt-oss", "groq qwen3", "openai budget as effort", "openai effort"],
)
def test_chat_completions_reasoning_knob_and_no_reasoning_sent_back(
    model: str, url: str, reasoning: Any, fields: dict[str, Any]
) -> None:
    first_message = {"content": None, "reasoning": "Look it up.", "tool_calls": [CHAT_CALL]}
    answers = [
        chat_answer(first_message, "tool_calls", completion_tokens_details={"reasoning_tokens": 12}),
        chat_answer({"content": "Sunny."}, "stop"),
    ]
    result, (_, second) = two_steps(model, url, answers, reasoning=reasoning)
    assert {key: second.get(key) for key in fields} == fields
    assert "reasoning" not in second
    assert second["messages"][1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
        ],
    }  # Reasoning text is never sent back on Chat Completions.
    first_answer = result.steps[0].completion
    assert (first_answer.reasoning, first_answer.usage.reasoning_tokens) == ("Look it up.", 12)


# --- DeepSeek (api-docs.deepseek.com/guides/thinking_mode: "Tool Calls") --------------------------

DEEPSEEK_URL = "https://api.deepseek.com/chat/completions"


def test_deepseek_sends_reasoning_content_back_on_a_turn_that_called_tools() -> None:
    first_message = {"content": "", "reasoning_content": "Need the weather tool.", "tool_calls": [CHAT_CALL]}
    answers = [chat_answer(first_message, "tool_calls"), chat_answer({"content": "Sunny."}, "stop")]
    result, (_, second) = two_steps("deepseek:deepseek-chat", DEEPSEEK_URL, answers, reasoning="high")
    assert (second["thinking"], second["reasoning_effort"]) == ({"type": "enabled"}, "high")
    assert second["messages"][1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
        ],
        "reasoning_content": "Need the weather tool.",
    }  # Without it DeepSeek answers 400 in thinking mode.
    assert result.steps[0].completion.reasoning == "Need the weather tool."


# --- across providers ----------------------------------------------------------------------------


def test_artifacts_never_cross_to_another_provider() -> None:
    thinking = anthropic_answer([THINKING_BLOCK, TOOL_USE], "tool_use")
    with mock_http() as router:
        router.post(ANTHROPIC_URL).respond(200, json=thinking)
        router.post(OPENAI_URL).respond(200, json=chat_answer({"content": "Sunny."}, "stop"))
        claude = llmrelay.Client("anthropic:claude-sonnet-4-6", api_key="k", reasoning="low")
        first = claude.complete(QUESTION, tools=[get_weather])
        result = {"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": "sunny"}
        llmrelay.Client("openai:gpt-4o", api_key="k").complete([*QUESTION, first, result], tools=[get_weather])
        sent = json.loads(router.calls[1].request.content)
    assert first.artifacts and first.reasoning
    assert sent["messages"][1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": TOOL_USE["id"],
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            }
        ],
    }  # No thinking, no signature, no reasoning text: they were Claude's.
