"""Tables of (model output -> expected envelope) cases, and one function that checks a case."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from llmrelay import Completion, parse_response

Call = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Case:
    """One model output and the envelope `parse_response` must make of it.

    `content` defaults to "" for outputs with calls. Use `plain()` for outputs with no call,
    whose content must come back as the input, unchanged.
    """

    id: str
    text: str
    calls: Sequence[Call] = ()
    content: str = ""
    format: str | None = None
    rejected: Sequence[str] = ()
    """Expected `RejectedCall.kind`s, in order."""
    ids: Sequence[str | None] | None = None
    """Expected call ids, when the case checks them."""
    needs_more_work: bool | str | None = "default"
    """"default": True when calls are expected, else None."""
    tools: Sequence[Any] | None = None
    strict: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    reasoning: str | None = None
    """Expected `Completion.reasoning` (issue 16: never part of `content`)."""


def plain(id: str, text: str, *, format: str | None = None, **kwargs: Any) -> Case:
    """A case with no tool call: content must be the input unchanged."""
    return Case(id, text, content=text, format=format, **kwargs)


def summarize(result: Completion) -> dict[str, Any]:
    return {
        "calls": [(c.name, c.arguments) for c in result.tool_calls],
        "content": result.content,
        "format": result.format,
        "rejected": [r.kind for r in result.rejected],
    }


def check(case: Case) -> Completion:
    """Run `parse_response` on the case and compare the envelope field by field."""
    result = parse_response(case.text, tools=case.tools, strict=case.strict)
    expected = {
        "calls": [(name, args) for name, args in case.calls],
        "content": case.content,
        "format": case.format,
        "rejected": list(case.rejected),
    }
    assert summarize(result) == expected, [r.reason for r in result.rejected]
    assert result.raw == case.text
    assert result.reasoning == case.reasoning
    assert result.warnings == []
    if case.ids is not None:
        assert [c.id for c in result.tool_calls] == list(case.ids)
    more = bool(case.calls) or None if case.needs_more_work == "default" else case.needs_more_work
    assert result.needs_more_work == more
    return result
