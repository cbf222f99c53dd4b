"""How much of one answer the strategies read, and the rejection that reports the rest.

No model writes a thousand calls in one answer: text that does is hostile, and reading every
call in it would take seconds. Past a bound, the rest of the answer is not read; one rejection
says so, so nothing is dropped silently.
"""

from __future__ import annotations

from typing import TypeVar

from .._envelope import DEFAULT_MAX_TOOL_CALLS as DEFAULT_MAX_TOOL_CALLS
from .._envelope import RejectedCall

_T = TypeVar("_T")

MAX_CALLS = 1_000
"""Calls read per answer, at most, by the strategies that split an answer at special tokens."""

MAX_TAGS = 2_000
"""Tags read per answer, at most, by the tag-based strategies: call tags and argument tags
together. The bound keeps the Python work on hostile text (200k tags) small and fixed; finding
the tags is left to C-level scans (`str.find`, regex search)."""


def unread_rest(limit: int, what: str) -> RejectedCall:
    """The rejection that says the rest of an answer holding more than `limit` `what` was not read."""
    reason = f"more than {limit} {what} in one answer: the rest of the answer was not read"
    return RejectedCall(None, None, reason, "malformed")


def too_many_calls() -> RejectedCall:
    """The rejection added after `MAX_CALLS` readings, when the answer holds more."""
    return unread_rest(MAX_CALLS, "tool calls")


def over_cap(dropped: int, cap: int) -> RejectedCall:
    """The one rejection that stands for the `dropped` calls of an answer past the cap of `cap` calls."""
    reason = f"{dropped} more tool call(s) than max_tool_calls={cap} in one answer: dropped, not read"
    return RejectedCall(None, None, reason, "malformed")


def within_cap(calls: list[_T], rejected: list[RejectedCall], cap: int) -> tuple[list[_T], list[RejectedCall], int]:
    """At most `cap` calls and `cap` rejections, and how many were dropped (for `over_cap`)."""
    dropped = max(len(calls) - cap, 0) + max(len(rejected) - cap, 0)
    if not dropped:
        return calls, rejected, 0
    return calls[:cap], rejected[:cap], dropped


class TagBudget:
    """How many more tags one reading of an answer may examine (see `MAX_TAGS`)."""

    def __init__(self, limit: int = MAX_TAGS) -> None:
        self.limit = limit
        self.left = limit
        self.exhausted = False
        """Whether a tag was left unread for want of budget."""

    def take(self) -> bool:
        """Use one tag; False, and `exhausted` set, once the budget is spent."""
        if self.left == 0:
            self.exhausted = True
            return False
        self.left -= 1
        return True

    def rejection(self) -> RejectedCall:
        """The rejection that says the rest of the answer was not read."""
        return unread_rest(self.limit, "tool-call tags")
