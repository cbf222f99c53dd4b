"""What a parsing strategy receives and returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .._envelope import ModelError, RejectedCall


# Candidate and Parsed are built on every answer, so they use slots rather than frozen=True
# (five times cheaper to construct). Treat them as immutable all the same.
@dataclass(slots=True)
class Candidate:
    """A call read from the text, before it is checked against the tools."""

    name: str
    """The tool name as written."""
    arguments: dict[str, Any]
    """The decoded arguments."""
    id: str | None = None
    """The call id the model wrote, if any."""
    explicit: bool = True
    """True when the call sat in an explicit tool-call construct (markup, marker, envelope, or the
    whole output); False for a tool-shaped JSON object found inside prose. Strict mode accepts
    only explicit calls."""
    texts: dict[str, str] | None = None
    """For formats that write each argument as text (Claude XML, Qwen3-Coder, GLM): the text as
    written. A value that looked like JSON was decoded (`5` -> 5); when the tool's schema says
    the argument is a string, this text is used instead, so `{"a": 1}` or `1.50` stay as written."""


CallReading = Candidate | RejectedCall
"""What reading one call attempt gives: the call, or the reason it could not be read."""


class TextArguments(dict[str, Any]):
    """Arguments read one text value at a time: the decoded values, and each value's text."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: dict[str, str] = {}

    def add(self, key: str, text: str, value: Any) -> None:
        """Record an argument: `value` decoded from `text`."""
        self[key] = value
        self.texts[key] = text

    def candidate(self, name: str) -> Candidate:
        """The call, with plain-dict arguments and the texts kept beside them."""
        return Candidate(name, dict(self), texts=self.texts)


@dataclass(slots=True)
class Parsed:
    """What a strategy read from the text."""

    calls: list[Candidate] = field(default_factory=list)
    """Calls found, in the order written."""
    text: str = ""
    """The text for the user: the input with this format's markup removed."""
    needs_more_work: bool | None = None
    """Only when the answer stated it explicitly (an envelope's `needsMoreWork`)."""
    rejected: list[RejectedCall] = field(default_factory=list)
    """Calls this strategy found but could not read (malformed or truncated)."""
    error: ModelError | None = None
    """An error the model reported deliberately."""
    strict_text: str | None = None
    """The content to use in strict mode, when it differs from `text`: the same answer with the
    non-explicit calls (tool-shaped JSON quoted in prose) left in place, since strict mode does
    not take them for calls."""
    reasoning: str | None = None
    """The model's reasoning, for formats that carry it in their own markup (harmony's `analysis`
    channel): neither content nor calls."""

    @property
    def found_anything(self) -> bool:
        """Whether this reading is about tools at all: calls, rejections, an error or a stated flag."""
        return bool(self.calls or self.rejected or self.error or self.needs_more_work is not None)

    @classmethod
    def from_readings(cls, readings: Sequence[CallReading], *, text: str) -> Parsed:
        """The reading of an answer: its calls and rejections, each in the order written, and its content."""
        return cls(
            calls=[r for r in readings if isinstance(r, Candidate)],
            text=text,
            rejected=[r for r in readings if isinstance(r, RejectedCall)],
        )

    @classmethod
    def combine(cls, readings: Sequence[Parsed], *, text: str, strict_text: str | None = None) -> Parsed:
        """Merge the readings of several blocks of one answer, in order, under one content."""
        return cls(
            calls=[c for p in readings for c in p.calls],
            text=text,
            needs_more_work=next((p.needs_more_work for p in readings if p.needs_more_work is not None), None),
            rejected=[r for p in readings for r in p.rejected],
            error=next((p.error for p in readings if p.error is not None), None),
            strict_text=strict_text,
        )


@runtime_checkable
class Strategy(Protocol):
    """One family of output formats.

    `detect` is a cheap check (a substring or a short regex) that says whether `parse` is worth
    running. `parse` returns None when the text is not in this format after all, so the next
    strategy can try. Both are pure: text in, data out, no I/O and no global state.

    Optionally, `markers`: a tuple of strings of which at least one occurs in every text `detect`
    accepts. A strategy that declares them is not asked about a text that holds none (see
    `_dispatch`); one that does not is always asked.
    """

    name: str

    def detect(self, text: str) -> bool:
        """Return True when the text may be in this format."""
        ...

    def parse(self, text: str) -> Parsed | None:
        """Read the calls and the remaining text, or return None if this is not the format."""
        ...
