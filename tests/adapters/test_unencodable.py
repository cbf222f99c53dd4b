"""Issue 12: text no encoder accepts, from every provider, read whole or streamed: one rule, U+FFFD and a warning."""

from __future__ import annotations

import contextlib
import json

import httpx
import pytest

import llmrelay
from llmrelay.testing import mock_http
from tests.adapters.test_no_secret import PROVIDERS, Provider

pytestmark = pytest.mark.filterwarnings(r"ignore:The model '[^']+' is deprecated:DeprecationWarning")


def answer(provider: str, text: str) -> bytes:
    """A whole answer saying `text` (the JSON written by hand, so invalid bytes can be put in)."""
    if provider == "anthropic":
        shape = {"id": "m", "model": "c", "role": "assistant", "content": [{"type": "text", "text": "@"}],
                 "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 1}}  # fmt: skip
    elif provider == "gemini":
        shape = {"candidates": [{"content": {"role": "model", "parts": [{"text": "@"}]}, "finishReason": "STOP"}]}
    else:
        shape = {"id": "c", "model": "m", "choices": [{"index": 0, "message": {"role": "assistant", "content": "@"},
                 "finish_reason": "stop"}]}  # fmt: skip
    return json.dumps(shape).encode().replace(b'"@"', b'"' + text.encode("utf-8", "surrogateescape") + b'"')


def streamed(provider: str, text: str) -> bytes:
    """A streamed answer saying `text` in one event."""
    inner = b'"' + text.encode("utf-8", "surrogateescape") + b'"'
    if provider == "anthropic":
        events = [
            (
                "message_start",
                {
                    "type": "message_start",
                    "message": {
                        "id": "m",
                        "model": "c",
                        "content": [],
                        "usage": {"input_tokens": 1, "output_tokens": 0},
                    },
                },
            ),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "@"}},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        body = b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)
    elif provider == "gemini":
        chunk = {"candidates": [{"content": {"role": "model", "parts": [{"text": "@"}]}, "finishReason": "STOP"}]}
        body = f"data: {json.dumps(chunk)}\n\n".encode()
    else:
        first = {"id": "c", "model": "m", "choices": [{"index": 0, "delta": {"content": "@"}, "finish_reason": None}]}
        last = {"id": "c", "model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        body = f"data: {json.dumps(first)}\n\ndata: {json.dumps(last)}\n\ndata: [DONE]\n\n".encode()
    return body.replace(b'"@"', inner)


TEXTS = {
    "invalid utf-8": ("caf\udce9 ok", "caf\ufffd ok"),  # The byte 0xE9 alone, as a latin-1 page would send it.
    "lone surrogate escape": ("\\ud800 ok", "\ufffd ok"),  # JSON's "\ud800": valid JSON, no valid text.
}


@pytest.mark.parametrize("streaming", [False, True], ids=["complete", "stream"])
@pytest.mark.parametrize("case", list(TEXTS))
@pytest.mark.parametrize("provider", [pytest.param(p, id=p.id) for p in PROVIDERS])
def test_unencodable_text_becomes_the_replacement_character_everywhere(
    provider: Provider, case: str, streaming: bool
) -> None:
    sent, expected = TEXTS[case]
    name = provider.model.split(":")[0]
    body = streamed(name, sent) if streaming else answer(name, sent)
    kind = "text/event-stream" if streaming else "application/json"
    options = {"base_url": provider.base_url} if provider.base_url else {}
    client = llmrelay.Client(
        provider.model, api_key="test-key-123456", retry=llmrelay.RetryPolicy(max_attempts=1), **options
    )
    # google-genai decodes a whole answer itself (invalid bytes replaced, silently) before llmrelay sees it.
    sdk_decodes = name == "gemini" and case == "invalid utf-8" and not streaming
    warned = contextlib.nullcontext() if sdk_decodes else pytest.warns(UnicodeWarning, match="U\\+FFFD")
    with mock_http() as router, warned:
        router.route(url__startswith=provider.url).mock(
            return_value=httpx.Response(200, content=body, headers={"content-type": kind})
        )
        if streaming:
            *_, end = client.stream("Hi")
            result = end.completion  # type: ignore[attr-defined]
        else:
            result = client.complete("Hi")
    assert result.content == expected
    result.content.encode("utf-8")  # What the next request does with it.
