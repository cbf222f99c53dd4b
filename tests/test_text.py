"""Issue 12: one rule for unencodable text (`_text`): lone surrogates become U+FFFD, with a warning."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import llmrelay
from llmrelay._text import clean, decode_body
from llmrelay._types import Message, NativeCall, RawResponse
from llmrelay.testing import mock_http

CLEAN = [
    ("plain", "plain", 0),
    ("a\ud800b", "a\ufffdb", 1),
    ("\udfff\ud800", "\ufffd\ufffd", 2),
    ({"k\udc00": ["x", "\ud801"]}, {"k\ufffd": ["x", "\ufffd"]}, 2),
    (("\ud800",), ("\ufffd",), 1),
    (3, 3, 0),
    ("😀 é", "😀 é", 0),  # A real pair is one character in Python: untouched.
]


@pytest.mark.parametrize(("value", "expected", "count"), CLEAN)
def test_clean(value: Any, expected: Any, count: int, recwarn: pytest.WarningsRecorder) -> None:
    assert clean(value, "here") == expected
    assert [str(w.message) for w in recwarn] == (
        [f"here: {count} lone surrogate(s) (text no encoder accepts) replaced with U+FFFD"] if count else []
    )
    if not count:
        assert clean(value, "here") is value, "nothing copied when nothing changed"


def test_decode_body() -> None:
    assert decode_body("café".encode(), "x") == "café"
    with pytest.warns(UnicodeWarning, match="invalid UTF-8"):
        assert decode_body(b"caf\xe9", "x") == "caf\ufffd"


def test_text_enters_clean_through_messages_and_answers() -> None:
    with pytest.warns(UnicodeWarning):
        assert Message("user", "hi \ud800").content == "hi \ufffd"
    with pytest.warns(UnicodeWarning):
        raw = RawResponse("openai", "m", "\ud800", (NativeCall("f", {"a": "\udc00"}),))
    assert (raw.text, raw.native_calls[0].arguments) == ("\ufffd", {"a": "\ufffd"})


def lookup(city: str) -> str:
    """Look a city up."""
    return f"{city}: found"


def test_run_with_a_lone_surrogate_in_the_answer_sends_the_next_request() -> None:
    """Before: the tool ran, then the next request raised a bare UnicodeEncodeError (no partial_run)."""
    call = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": '{"city": "Par\\ud800is"}'}}
    first = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Looking \\ud800", "tool_calls": [call]},
             "finish_reason": "tool_calls"}]}  # fmt: skip
    second = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Done."}, "finish_reason": "stop"}]}
    bodies = [json.dumps(first).replace("\\\\ud800", "\\ud800"), json.dumps(second)]
    sent: list[bytes] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request.content)
        return httpx.Response(200, text=bodies[len(sent) - 1], headers={"content-type": "application/json"})

    client = llmrelay.Client("openai:gpt-4o-mini", api_key="test-key-123456")
    with mock_http() as router, pytest.warns(UnicodeWarning):
        router.post("https://api.openai.com/v1/chat/completions").mock(side_effect=answer)
        result = client.run("Find Paris", tools=[lookup])
    assert result.content == "Done."
    assert len(sent) == 2
    assert "Par\ufffdis: found" in sent[1].decode("utf-8")  # The tool got the cleaned argument, and it went back.
