from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from llmrelay import Attempt, Completion, ModelError, RejectedCall, ToolCall, Usage
from llmrelay._envelope import ANSWER_FIELDS, new_completion, new_tool_call, with_trace


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
        "refusal",
        "usage",
        "attempts",
        "degraded",
        "output",
        "reasoning",
        "artifacts",
    ]
    assert new_completion(*values).output is None  # Appended last, defaulting to None: positional calls keep working.
    assert new_completion(*values).reasoning is None  # Issue 16: appended after output, for the same reason.


def test_a_completion_built_from_the_answer_fields_alone_behaves_like_a_full_one() -> None:
    # new_completion stores only the answer's 8 fields; the client's keep their class defaults.
    built = new_completion("hi", [ToolCall("f", {}, None)], True, [], "raw", "fmt", None, [])
    full = Completion("hi", [ToolCall("f", {}, None)], True, [], "raw", "fmt", None, [])
    assert built == full
    assert repr(built) == repr(full)
    assert dataclasses.asdict(built) == dataclasses.asdict(full)
    assert pickle.loads(pickle.dumps(built)) == full
    assert copy.deepcopy(built) == full
    assert (built.mode, built.usage, built.attempts, built.degraded) == (None, full.usage, [], False)
    assert built.attempts is not new_completion("", [], None, [], "", None, None, []).attempts
    replaced = dataclasses.replace(built, mode="text", provider="openai")
    assert (replaced.mode, replaced.provider, replaced.content) == ("text", "openai", "hi")


def test_the_fields_the_fast_builder_leaves_out_have_defaults_and_one_factory() -> None:
    later = dataclasses.fields(Completion)[ANSWER_FIELDS:]
    assert all(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING for f in later)
    assert [f.name for f in later if f.default_factory is not dataclasses.MISSING] == ["attempts"]


@pytest.mark.parametrize(
    ("built", "expected"),
    [
        (new_tool_call("f", {"a": 1}), ToolCall("f", {"a": 1})),
        (new_tool_call("f", {}, "id1"), ToolCall("f", {}, "id1")),
        (new_completion("", [], None, [], "", None, None, []), Completion("")),
    ],
)
def test_fast_builders_store_what_init_stores(built: object, expected: object) -> None:
    assert vars(built).keys() <= vars(expected).keys()
    assert {name: getattr(built, name) for name in vars(expected)} == vars(expected)


_TRACE = [Attempt("openai", "m", "text", "ok", usage=Usage(1, 2, 3))]


@pytest.mark.parametrize(
    "answer",
    [
        new_completion("hi", [ToolCall("f", {}, "c1")], True, [], "raw", "fmt", None, ["w"]),
        Completion("hi", mode="text", provider="openai", reasoning="r", degraded=True),
        Completion(""),
    ],
    ids=["fast-built", "full", "empty"],
)
def test_with_trace_is_replace_without_init(answer: Completion) -> None:
    # with_trace gives every complete() answer its trace; it must be what replace() gives.
    expected = dataclasses.replace(answer, attempts=list(_TRACE), usage=Usage(1, 2, 3))
    traced = with_trace(answer, list(_TRACE), Usage(1, 2, 3))
    assert traced == expected
    assert repr(traced) == repr(expected)
    assert pickle.loads(pickle.dumps(traced)) == expected
    assert answer.attempts == [] and traced is not answer  # A copy: the answer given is unchanged.
    with pytest.raises(dataclasses.FrozenInstanceError):
        traced.content = "x"  # type: ignore[misc]


def test_results_are_frozen() -> None:
    result = new_completion("", [], None, [], "", None, None, [])
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.content = "x"  # type: ignore[misc]
