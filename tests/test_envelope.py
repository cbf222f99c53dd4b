from __future__ import annotations

import dataclasses

import pytest

from llmrelay import Completion, ModelError, RejectedCall, ToolCall
from llmrelay._envelope import new_completion, new_tool_call


def test_fast_builders_match_the_dataclass_constructors() -> None:
    call = ToolCall("f", {"a": 1}, "id1")
    assert new_tool_call("f", {"a": 1}, "id1") == call
    values = (
        "hi",
        [call],
        True,
        [RejectedCall("g", {}, "why", "unknown_tool")],
        "raw",
        "fmt",
        ModelError("c", "m"),
        ["w"],
    )
    assert new_completion(*values) == Completion(*values)
    assert [f.name for f in dataclasses.fields(Completion)] == [
        "content",
        "tool_calls",
        "needs_more_work",
        "rejected",
        "raw",
        "format",
        "error",
        "warnings",
        "mode",
        "provider",
        "model",
        "finish_reason",
        "provider_finish_reason",
        "usage",
        "attempts",
        "degraded",
        "output",
    ]
    assert new_completion(*values).output is None  # Appended last, defaulting to None: positional calls keep working.


def test_results_are_frozen() -> None:
    result = new_completion("", [], None, [], "", None, None, [])
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.content = "x"  # type: ignore[misc]
