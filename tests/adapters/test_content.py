"""Issue 14: images and documents, the reasoning knob's mapping and limits, reasoning in streams.

Request bodies are asserted field by field through mocked HTTP, for each adapter's wire shape.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("anthropic")
pytest.importorskip("google.genai")
pytest.importorskip("openai")
pytest.importorskip("groq")

import llmrelay
from llmrelay import errors
from llmrelay._effort import Reasoning, read_reasoning
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
PDF = base64.b64encode(b"%PDF-1.7 fake").decode()
IMAGE = {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "low"}}
IMAGE_URL = {"type": "image_url", "image_url": {"url": "https://example.com/cat.jpg"}}
DOCUMENT = {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{PDF}", "filename": "report.pdf"}}
ASK = [{"role": "user", "content": ["What is this?", IMAGE, IMAGE_URL, DOCUMENT]}]

URLS = {
    "anthropic": "https://api.anthropic.com/v1/messages",
    "gemini": "https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent",
    "openai": "https://api.openai.com/v1/chat/completions",
    "openai-responses": "https://api.openai.com/v1/responses",
    "openrouter": "https://openrouter.ai/api/v1/chat/completions",
    "groq": "https://api.groq.com/openai/v1/chat/completions",
}
ANSWERS: dict[str, dict[str, Any]] = {
    "anthropic": {"id": "m", "model": "claude", "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"},
    "gemini": {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]},
    "openai": {"id": "c", "model": "m", "choices": [{"message": {"content": "ok"}, "finish_reason": "stop"}]},
    "openai-responses": {
        "id": "resp_1",
        "status": "completed",
        "model": "gpt-5",
        "output": [{"type": "message", "content": [{"type": "output_text", "text": "ok"}]}],
    },
}
ANSWERS["openrouter"] = ANSWERS["groq"] = ANSWERS["openai"]


def snap() -> str:
    """Take a photo."""
    return ""


def sent(model: str, messages: Any, tools: list[Any] | None = None, **options: Any) -> dict[str, Any]:
    """The body `complete` sends for `model`, answered "ok"."""
    provider, _, name = model.partition(":")
    client = llmrelay.Client(model, api_key="FAKE-key-0123456789", learner=CapabilityLearner(), **options)
    with mock_http() as router:
        router.post(URLS[provider].format(model=name)).respond(200, json=ANSWERS[provider])
        client.complete(messages, tools=tools)
        return json.loads(router.calls[0].request.content)  # type: ignore[no-any-return]


# --- images and documents, per adapter ---------------------------------------------------------


def test_anthropic_image_and_document_blocks() -> None:
    body = sent("anthropic:claude-sonnet-4-6", ASK)
    assert body["messages"][0]["content"] == [
        {"type": "text", "text": "What is this?"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.jpg"}},
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": PDF},
            "title": "report.pdf",
        },
    ]


def test_gemini_inline_data_and_file_data() -> None:
    body = sent("gemini:gemini-2.5-flash", ASK)
    # google-genai writes some nested keys in snake case, some in camel case; the API reads either.
    assert [keys_folded(part) for part in body["contents"][0]["parts"]] == [
        {"text": "What is this?"},
        {"inlinedata": {"mimetype": "image/png", "data": PNG}},
        {"filedata": {"fileuri": "https://example.com/cat.jpg", "mimetype": "image/jpeg"}},
        {"inlinedata": {"mimetype": "application/pdf", "data": PDF}},
    ]


def keys_folded(value: Any) -> Any:
    """`value` with every key lower-cased and without underscores."""
    if isinstance(value, dict):
        return {key.replace("_", "").lower(): keys_folded(item) for key, item in value.items()}
    return value


@pytest.mark.parametrize("model", ["openai:gpt-4o", "openrouter:openai/gpt-4o"])
def test_chat_completions_parts_as_users_wrote_them(model: str) -> None:
    body = sent(model, ASK)
    assert body["messages"][0] == {
        "role": "user",
        "content": [{"type": "text", "text": "What is this?"}, IMAGE, IMAGE_URL, DOCUMENT],
    }


def test_responses_input_parts() -> None:
    body = sent("openai-responses:gpt-5", ASK)
    assert body["input"][0] == {
        "role": "user",
        "content": [
            {"type": "input_text", "text": "What is this?"},
            {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "low"},
            {"type": "input_image", "image_url": "https://example.com/cat.jpg"},
            {"type": "input_file", "file_data": f"data:application/pdf;base64,{PDF}", "filename": "report.pdf"},
        ],
    }


def test_a_text_mode_still_sends_the_image_natively() -> None:
    # The mode is about the answer's format, not the input.
    body = sent("openai:gpt-4o", [{"role": "user", "content": ["Describe", IMAGE]}], mode="text")
    assert body["messages"][-1]["content"][1] == IMAGE


# --- tool results with images, and errors flagged ---------------------------------------------

CALL = {"id": "toolu_1", "type": "function", "function": {"name": "snap", "arguments": "{}"}}
TURNS = [
    {"role": "user", "content": "Take a photo"},
    {"role": "assistant", "content": "", "tool_calls": [CALL]},
]


def test_anthropic_tool_result_with_an_image_and_an_error_flag() -> None:
    results = [
        {"role": "tool", "tool_call_id": "toolu_1", "content": ["Here:", IMAGE]},
    ]
    body = sent("anthropic:claude-sonnet-4-6", [*TURNS, *results], tools=[snap])
    assert body["messages"][2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": [
                {"type": "text", "text": "Here:"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            ],
        }
    ]
    failed = sent(
        "anthropic:claude-sonnet-4-6", [*TURNS, {**results[0], "content": "boom", "is_error": True}], tools=[snap]
    )
    assert failed["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "boom", "is_error": True}
    ]


def test_a_tool_run_that_raised_goes_back_flagged_as_an_error() -> None:
    def broken_snap() -> str:
        """Take a photo."""
        raise RuntimeError("camera offline")

    tool_use = {"type": "tool_use", "id": "toolu_1", "name": "broken_snap", "input": {}}
    first = {**ANSWERS["anthropic"], "content": [tool_use], "stop_reason": "tool_use"}
    client = llmrelay.Client("anthropic:claude-sonnet-4-6", api_key="k", learner=CapabilityLearner())
    with mock_http() as router:
        router.post(URLS["anthropic"]).mock(
            side_effect=[httpx.Response(200, json=first), httpx.Response(200, json=ANSWERS["anthropic"])]
        )
        client.run("Take a photo", tools=[broken_snap])
        second = json.loads(router.calls[1].request.content)
    [result] = second["messages"][2]["content"]
    assert (result["type"], result.get("is_error")) == ("tool_result", True)
    assert "camera offline" in result["content"]


def test_chat_completions_refuse_an_image_in_a_tool_result_before_sending() -> None:
    messages = [*TURNS, {"role": "tool", "tool_call_id": "toolu_1", "content": ["Here:", IMAGE]}]
    with pytest.raises(errors.ConfigError, match="tool result cannot carry images"):
        sent("openai:gpt-4o", messages, tools=[snap])


# --- capability checks before sending ----------------------------------------------------------


def test_an_image_for_a_model_without_vision_is_refused_before_sending() -> None:
    client = llmrelay.Client("groq:llama-3.3-70b-versatile", api_key="k", learner=CapabilityLearner())
    with mock_http() as router:
        with pytest.raises(errors.UnsupportedFeatureError, match="cannot take an image input") as caught:
            client.complete(ASK[:1])
        assert not router.calls
    assert caught.value.feature == "vision"


def test_an_image_skips_to_a_fallback_model_that_has_vision_and_the_trace_says_so() -> None:
    client = llmrelay.Client(
        "groq:llama-3.3-70b-versatile",
        api_key="k",
        fallback_models=["groq:meta-llama/llama-4-scout-17b-16e-instruct"],
        learner=CapabilityLearner(),
    )
    with mock_http() as router:
        router.post(URLS["groq"]).respond(200, json=ANSWERS["groq"])
        answer = client.complete([{"role": "user", "content": ["What?", IMAGE]}])
        body = json.loads(router.calls[0].request.content)
    assert body["model"] == "meta-llama/llama-4-scout-17b-16e-instruct"
    skipped = [a for a in answer.attempts if a.outcome == "skipped"]
    assert [(a.model, a.reason) for a in skipped] == [
        ("llama-3.3-70b-versatile", "cannot take an image input (capability vision: false)")
    ]


def test_reasoning_for_a_model_that_cannot_reason_is_refused_before_sending() -> None:
    client = llmrelay.Client("openai:gpt-4o", api_key="k", learner=CapabilityLearner())
    with mock_http() as router:
        with pytest.raises(errors.UnsupportedFeatureError, match="reasoning=") as caught:
            client.complete("hi", reasoning="high")
        assert not router.calls
    assert caught.value.feature == "reasoning"
    assert sent("openai:gpt-4o", "hi", reasoning=False).get("reasoning_effort") is None  # Off: nothing to refuse.


# --- the reasoning knob --------------------------------------------------------------------------

KNOB = [
    ("low", Reasoning(effort="low"), 1024, "low"),
    ("high", Reasoning(effort="high"), 24576, "high"),
    (True, Reasoning(effort="medium"), 8192, "medium"),
    ({"budget_tokens": 500}, Reasoning(budget_tokens=500), 500, "low"),
    ({"budget_tokens": 10_000}, Reasoning(budget_tokens=10_000), 10_000, "high"),
]


@pytest.mark.parametrize(("value", "read", "budget", "level"), KNOB, ids=[repr(k[0]) for k in KNOB])
def test_read_reasoning(value: Any, read: Reasoning, budget: int, level: str) -> None:
    assert read_reasoning(value) == read
    assert (read.budget, read.level) == (budget, level)


@pytest.mark.parametrize("value", ["max", {"budget_tokens": 0}, {"budget": 10}, 3, {"budget_tokens": True}])
def test_a_bad_reasoning_value_is_a_config_error_before_any_call(value: Any) -> None:
    with pytest.raises(errors.ConfigError, match="reasoning must be"):
        llmrelay.Client("anthropic:claude-sonnet-4-6", api_key="k", reasoning=value)


@pytest.mark.parametrize(
    ("model", "reasoning", "fields"),
    [
        ("anthropic:claude-sonnet-4-6", "low", {"thinking": {"type": "enabled", "budget_tokens": 1024}}),
        ("anthropic:claude-sonnet-4-6", False, {"thinking": None}),
        ("openrouter:anthropic/claude-sonnet-4.5", "high", {"reasoning": {"effort": "high"}}),
        ("openrouter:anthropic/claude-sonnet-4.5", False, {"reasoning": {"enabled": False}}),
        ("groq:qwen/qwen3-32b", False, {"reasoning_effort": "none"}),
        ("openai-responses:gpt-5", "low", {"reasoning": {"effort": "low", "summary": "auto"}}),
    ],
)
def test_the_knob_per_provider(model: str, reasoning: Any, fields: dict[str, Any]) -> None:
    body = sent(model, "hi", reasoning=reasoning)
    assert {key: body.get(key) for key in fields} == fields


def test_gemini_reasoning_off_is_a_zero_budget() -> None:
    config = sent("gemini:gemini-2.5-flash", "hi", reasoning=False)["generationConfig"]["thinkingConfig"]
    assert config in ({"thinkingBudget": 0}, {"thinking_budget": 0})


def test_anthropic_thinking_limits_are_explained_not_sent() -> None:
    with pytest.raises(errors.ConfigError, match=r"max_tokens \(2000\) must be above the thinking budget \(8192\)"):
        sent("anthropic:claude-sonnet-4-6", "hi", reasoning="medium", params={"max_tokens": 2000})

    def f(x: int) -> int:
        """F."""
        return x

    client = llmrelay.Client("anthropic:claude-sonnet-4-6", api_key="k", reasoning="low", learner=CapabilityLearner())
    with pytest.raises(errors.ConfigError, match="only tool_choice 'auto' or 'none'"):
        client.complete("hi", tools=[f], tool_choice="required")


# --- reasoning in streams ------------------------------------------------------------------------


def anthropic_stream(*events: dict[str, Any]) -> str:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)


def test_anthropic_stream_reasoning_deltas_and_the_thinking_block_for_next_turn() -> None:
    start = {"type": "message_start", "message": {"id": "m", "model": "claude", "usage": {"input_tokens": 5}}}
    body = anthropic_stream(
        start,
        {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me "}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "think."}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "c2ln"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Hi."}},
        {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}},
        {"type": "message_stop"},
    )
    client = llmrelay.Client("anthropic:claude-sonnet-4-6", api_key="k", learner=CapabilityLearner())
    with mock_http() as router:
        router.post(URLS["anthropic"]).respond(200, text=body, headers={"content-type": "text/event-stream"})
        events = list(client.stream("hi", reasoning="low"))
    reasoning = [e.text for e in events if isinstance(e, llmrelay.ReasoningDelta)]
    texts = [e.text for e in events if isinstance(e, llmrelay.TextDelta)]
    assert (reasoning, texts) == (["Let me ", "think."], ["Hi."])
    final = events[-1].completion  # type: ignore[union-attr]
    assert (final.content, final.reasoning) == ("Hi.", "Let me think.")
    [artifact] = final.artifacts
    assert artifact.data == ({"type": "thinking", "thinking": "Let me think.", "signature": "c2ln"},)


def test_chat_stream_reasoning_never_leaks_into_text() -> None:
    chunks = [
        {"id": "g", "model": "m", "choices": [{"index": 0, "delta": {"reasoning": "Hmm."}}]},
        {"id": "g", "model": "m", "choices": [{"index": 0, "delta": {"reasoning_content": " Ok."}}]},
        {"id": "g", "model": "m", "choices": [{"index": 0, "delta": {"content": "Hi."}, "finish_reason": "stop"}]},
    ]
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    client = llmrelay.Client("groq:openai/gpt-oss-120b", api_key="k", learner=CapabilityLearner())
    with mock_http() as router:
        router.post(URLS["groq"]).respond(200, text=body, headers={"content-type": "text/event-stream"})
        events = list(client.stream("hi"))
    assert [type(e).__name__ for e in events[:3]] == ["ReasoningDelta", "ReasoningDelta", "TextDelta"]
    assert events[-1].completion.reasoning == "Hmm. Ok."  # type: ignore[union-attr]
    assert events[-1].completion.content == "Hi."  # type: ignore[union-attr]


# --- helpers --------------------------------------------------------------------------------------


def test_image_and_document_helpers(tmp_path: Path) -> None:
    png, pdf = tmp_path / "cat.png", tmp_path / "report.pdf"
    png.write_bytes(b"\x89PNG\r\n\x1a\nfake")
    pdf.write_bytes(b"%PDF-1.7 fake")
    assert llmrelay.Image.from_path(png, detail="low") == IMAGE
    assert llmrelay.Image.from_url("https://example.com/cat.jpg") == IMAGE_URL
    assert llmrelay.Document.from_path(pdf) == DOCUMENT
    assert llmrelay.Document.from_url("https://example.com/a.pdf") == {
        "type": "file",
        "file": {"url": "https://example.com/a.pdf"},
    }


# --- prompt caching ------------------------------------------------------------------------------

EPHEMERAL = {"type": "ephemeral"}


def test_anthropic_cache_breakpoints_on_tools_system_and_the_conversations_prefix() -> None:
    conversation = [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Take a photo"},
        {"role": "assistant", "content": "", "tool_calls": [CALL]},
        {"role": "tool", "tool_call_id": "toolu_1", "content": "done"},
        {"role": "assistant", "content": "Taken."},
        {"role": "user", "content": "Another"},
    ]
    body = sent("anthropic:claude-sonnet-4-6", conversation, tools=[snap], cache=True)
    assert body["tools"][-1]["cache_control"] == EPHEMERAL
    assert body["system"] == [{"type": "text", "text": "You are terse.", "cache_control": EPHEMERAL}]
    marked = [
        (index, block["type"])
        for index, turn in enumerate(body["messages"])
        for block in turn["content"]
        if "cache_control" in block
    ]
    assert marked == [(2, "tool_result"), (4, "text")]  # The previous user turn, and the last one.
    assert json.dumps(body).count('"cache_control"') == 4  # Anthropic's limit.


@pytest.mark.parametrize("model", ["openai:gpt-4o", "gemini:gemini-2.5-flash", "groq:llama-3.3-70b-versatile"])
def test_cache_is_a_no_op_where_caching_is_automatic(model: str) -> None:
    body = sent(model, "hi", cache=True)
    assert "cache" not in json.dumps(body).replace("cachedContent", "")


def test_cache_per_call_overrides_the_client() -> None:
    client = llmrelay.Client("anthropic:claude-sonnet-4-6", api_key="k", cache=True, learner=CapabilityLearner())
    with mock_http() as router:
        router.post(URLS["anthropic"]).respond(200, json=ANSWERS["anthropic"])
        client.complete([{"role": "system", "content": "S"}, {"role": "user", "content": "hi"}], cache=False)
        body = json.loads(router.calls[0].request.content)
    assert "cache_control" not in json.dumps(body)


# --- size and type checks before sending ----------------------------------------------------------


def test_an_inline_image_over_the_providers_limit_is_refused_before_sending() -> None:
    big = base64.b64encode(b"\0" * 4_000_001).decode()  # Groq takes base64 images up to 4 MB.
    client = llmrelay.Client("groq:meta-llama/llama-4-scout-17b-16e-instruct", api_key="k", learner=CapabilityLearner())
    messages = [{"role": "user", "content": ["What?", llmrelay.Image.from_url(f"data:image/png;base64,{big}")]}]
    with mock_http() as router:
        with pytest.raises(errors.UnsupportedFeatureError, match=r"no inline file this large.*max_image_bytes"):
            client.complete(messages)
        assert not router.calls


@pytest.mark.parametrize(
    ("part", "words"),
    [
        ({"type": "image_url", "image_url": {"url": "data:image/bmp;base64,AAAA"}}, "'image/bmp' is not accepted"),
        ({"type": "file", "file": {"file_data": "data:text/csv;base64,AAAA"}}, "'text/csv' is not accepted"),
    ],
    ids=["bmp image", "csv document"],
)
def test_a_type_no_provider_takes_is_a_config_error(part: dict[str, Any], words: str) -> None:
    with pytest.raises(errors.ConfigError, match=words):
        llmrelay.Client("openai:gpt-4o", api_key="k").complete([{"role": "user", "content": ["x", part]}])


@pytest.mark.parametrize(("data", "size"), [("", 0), ("AA==", 1), ("AAA=", 2), ("AAAA", 3), (PNG, 12)])
def test_the_size_of_inline_data_is_read_without_decoding(data: str, size: int) -> None:
    from llmrelay._content import MediaPart

    assert MediaPart("image", "image/png", data=data).size == size == len(base64.b64decode(data))


def test_a_streamed_deepseek_tool_turn_keeps_its_reasoning_content_for_the_next_request() -> None:
    call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "snap", "arguments": "{}"}}
    chunks = [
        {"id": "g", "model": "m", "choices": [{"index": 0, "delta": {"reasoning_content": "Use "}}]},
        {"id": "g", "model": "m", "choices": [{"index": 0, "delta": {"reasoning_content": "snap."}}]},
        {
            "id": "g",
            "model": "m",
            "choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": "tool_calls"}],
        },
    ]
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    client = llmrelay.Client("deepseek:deepseek-chat", api_key="k", learner=CapabilityLearner())
    with mock_http() as router:
        router.post("https://api.deepseek.com/chat/completions").respond(
            200, text=body, headers={"content-type": "text/event-stream"}
        )
        final = list(client.stream("Take a photo", tools=[snap]))[-1].completion  # type: ignore[union-attr]
    assert final.reasoning == "Use snap."
    assert [(a.provider, a.kind, a.data) for a in final.artifacts] == [("deepseek", "reasoning_content", "Use snap.")]


def test_reasoning_and_cache_from_a_config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "llmrelay.toml").write_text(
        'model = "anthropic:claude-sonnet-4-6"\n[params]\nreasoning = "low"\ncache = true\n', encoding="utf-8"
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    client = llmrelay.Client.from_config(str(tmp_path / "llmrelay.toml"), learner=CapabilityLearner())
    with mock_http() as router:
        router.post(URLS["anthropic"]).respond(200, json=ANSWERS["anthropic"])
        client.complete([{"role": "system", "content": "S"}, {"role": "user", "content": "hi"}])
        body = json.loads(router.calls[0].request.content)
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert body["system"] == [{"type": "text", "text": "S", "cache_control": EPHEMERAL}]
