"""The typed events `Client.stream` yields, in the order a user sees them.

A stream is text deltas and tool-call events as they arrive, then one `StreamEnd` carrying the
same `Completion` that `complete()` would have returned. Concatenating every `TextDelta.text`
gives exactly `StreamEnd.completion.content`: markup is never shown and then taken back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from ._envelope import Completion, RejectedCall, ToolCall


@dataclass(frozen=True)
class TextDelta:
    """A piece of the text for the user, with any tool-call markup already removed."""

    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of the model's reasoning, never part of the text for the user.

    Concatenated, they are the final `Completion.reasoning` (when the answer has any).
    """

    text: str


@dataclass(frozen=True)
class ToolCallStarted:
    """The model began a tool call: its name (and id, when the provider gives one) are known."""

    index: int
    """The call's position among this answer's calls, from 0."""
    name: str
    id: str | None = None


@dataclass(frozen=True)
class ToolCallDelta:
    """More of a call's arguments arrived."""

    index: int
    delta: str
    """The new piece of the arguments' JSON text."""
    arguments_text: str
    """All of the arguments' JSON text received so far."""
    partial_arguments: dict[str, Any] | None
    """What can be read of the arguments so far (unfinished values left out); None before the
    first key is readable."""


@dataclass(frozen=True)
class ToolCallComplete:
    """A call is complete and was checked against the tools: exactly one of `call`, `rejected` is set."""

    index: int
    call: ToolCall | None = None
    """The accepted call, arguments validated."""
    rejected: RejectedCall | None = None
    """The call, refused, with the reason."""


@dataclass(frozen=True)
class StreamEnd:
    """The last event: the whole answer, as `complete()` returns it."""

    completion: Completion


StreamEvent: TypeAlias = TextDelta | ReasoningDelta | ToolCallStarted | ToolCallDelta | ToolCallComplete | StreamEnd
"""Everything `Client.stream` may yield."""
