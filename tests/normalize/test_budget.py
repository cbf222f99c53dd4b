"""The per-answer bounds: past them, the rest of a hostile answer is one rejection, not read."""

from __future__ import annotations

import pytest

from llmrelay.normalize import parse_response
from llmrelay.normalize._budget import MAX_CALLS, MAX_TAGS

UNCAPPED = 1_000_000
"""A `max_calls` above the strategies' own reading bounds, so those are what is tested."""

CALL = '{"name": "f", "arguments": {}}'
MORE = MAX_CALLS + 5

# (format, an answer with more calls than MAX_CALLS)
TOKEN_FORMATS = [
    ("granite", f"<|tool_call|>{CALL}" * MORE),
    ("mistral", f"[TOOL_CALLS]{CALL}" * MORE),
    ("deepseek", "<｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜>" * MORE),
    ("special_tokens", f"<|tool_call_begin|>{CALL}<|tool_call_end|>" * MORE),
    ("llama", f"<|python_tag|>{CALL}" * MORE),
    ("llama", "<|python_tag|>" + "; ".join([CALL] * MORE)),
    ("phi4", f"functools[{CALL}] " * MORE),
    ("command_r", f"<|START_ACTION|>[{CALL}]<|END_ACTION|>" * MORE),
    ("command_r", f"Action: [{CALL}]\n" * MORE),
    ("harmony", "<|start|>assistant to=functions.f<|channel|>commentary<|message|>{}<|call|>" * MORE),
]


@pytest.mark.parametrize(("format", "text"), TOKEN_FORMATS, ids=[f for f, _ in TOKEN_FORMATS])
def test_calls_past_the_bound_are_one_rejection(format: str, text: str) -> None:
    result = parse_response(text, max_calls=UNCAPPED)  # The strategies' own bound, not the cap.
    assert result.format == format
    assert len(result.tool_calls) == MAX_CALLS
    assert [r.kind for r in result.rejected] == ["malformed"]
    assert f"more than {MAX_CALLS} tool calls" in result.rejected[0].reason


def test_tags_past_the_bound_are_one_rejection() -> None:
    result = parse_response(f"<tool_call>{CALL}</tool_call>" * (MAX_TAGS + 5), max_calls=UNCAPPED)
    assert len(result.tool_calls) == MAX_TAGS
    assert [r.kind for r in result.rejected] == ["malformed"]
    assert f"more than {MAX_TAGS} tool-call tags" in result.rejected[0].reason
