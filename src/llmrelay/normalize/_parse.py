"""`parse_response`: any text a model wrote -> one `Completion`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from itertools import takewhile
from typing import Any

from .._envelope import Completion, RejectedCall, ToolCall, new_completion, new_tool_call
from .._tools import Tool, ToolLike, to_tools
from .._validation import check_arguments
from ._budget import DEFAULT_MAX_TOOL_CALLS, over_cap, within_cap
from ._clean_envelope import SCAN, clean_completion, read_envelope
from ._dispatch import Plan, ask, asked, first_of, first_reading, plan_for
from ._reasoning import (
    REASONING_STARTS,
    join_reasoning,
    reasoning_before_lone_close,
    reasoning_calls,
    split_reasoning,
)
from ._registry import registered_strategies
from ._text import without_empty_fences
from ._turn_end import without_turn_end
from ._types import Candidate, Parsed, Strategy

DEFAULT_MAX_CHARS = 10_000_000
"""Inputs longer than this are not searched for tool calls (see `parse_response`)."""


def parse_response(
    text: str,
    tools: Sequence[ToolLike] | None = None,
    *,
    strict: bool = False,
    max_chars: int = DEFAULT_MAX_CHARS,
    strategies: Sequence[Strategy] | None = None,
    max_calls: int = DEFAULT_MAX_TOOL_CALLS,
) -> Completion:
    """Read a model's answer into the canonical envelope, whatever format it used.

    Never raises on a `str`. The strategies are tried in order, most specific first, and the
    first that recognises its format wins. With `tools`, a call to an unknown tool or with
    arguments that fail the tool's schema goes to `rejected` with the reason, never to
    `tool_calls`. With `strict=True`, only calls in an explicit tool-call construct count: a
    tool-shaped JSON object inside prose is rejected as `embedded`.

    Args:
        text: the model's answer.
        tools: the tools offered to the model (anything `to_tool` accepts).
        strict: accept only explicit tool-call constructs (seed 003's safety contract).
        max_chars: inputs longer than this are returned as plain text, unsearched, with a warning.
        strategies: the strategies to try instead of the registered ones.
        max_calls: at most this many calls are kept (and as many rejections); one more rejection
            says how many were dropped past it.

    Raises:
        ConfigError: only for `tools` that are not valid tools (never because of the text).
    """
    result, dropped = read_capped(
        text, tools, strict=strict, max_chars=max_chars, strategies=strategies, max_calls=max_calls
    )
    if dropped:
        result.rejected.append(over_cap(dropped, max_calls))
    return result


def read_capped(
    text: str,
    tools: Sequence[ToolLike] | None = None,
    *,
    strict: bool,
    max_chars: int = DEFAULT_MAX_CHARS,
    strategies: Sequence[Strategy] | None = None,
    max_calls: int,
) -> tuple[Completion, int]:
    """`parse_response`, with how many calls and rejections the cap dropped instead of the rejection saying so.

    For a caller that adds calls of its own to the answer (native calls) and counts them once.
    """
    if len(text) > max_chars:
        warning = f"input is {len(text)} characters, over max_chars={max_chars}: not searched for tool calls"
        return Completion(content=text, raw=text, warnings=[warning]), 0
    if strategies is None:
        strategies = registered_strategies()
    found: tuple[Strategy, Parsed] | None = None
    # The envelope json_schema mode gives, decoded once and a clean one read straight into its
    # Completion, when `JsonDocument` is asked first (its reading is then the answer's).
    if tools is None and not strict and text.find('"toolCalls"', 0, 64) != -1 and text[:1] == "{":
        first = plan_for(strategies).json_first
        if first is not None and (read := read_envelope(text, first, max_calls if max_calls > 0 else 0)) is not None:
            if isinstance(read, Parsed):
                found = first, read
            else:
                return read
    answer, thought = text, None
    if found is None:  # A JSON document has neither end-of-turn tokens nor reasoning around it.
        answer = without_turn_end(text)
        if answer[:1] in REASONING_STARTS or answer[:1].isspace():
            thought, answer = split_reasoning(answer)
        else:  # Most answers: a few one-character scans say there is no lone `</think>` either.
            thought, answer = reasoning_before_lone_close(answer)
    warnings: list[str] = []
    if found is None and thought is None and tools is None and not strict and answer[:3] == "```":
        # Most of what json mode gives in a code fence: a clean envelope, read as the one above.
        read = _read_fenced_envelope(answer, text, plan_for(strategies), max_calls, warnings)
        if read is not None:
            return read
    if found is None:
        found = first_reading(answer, strategies, warnings)
    reading, dropped = _read_answer(answer, text, tools, strict, strategies, max_calls, found, warnings)
    if thought is not None:
        return _with_reasoning(thought, reading, text, strategies), dropped
    return reading, dropped


def _read_fenced_envelope(
    text: str, raw: str, plan: Plan, max_calls: int, warnings: list[str]
) -> tuple[Completion, int] | None:
    """An answer that is one JSON fence around an envelope, read as the general path reads it, decoded once.

    The strategies before `FencedJson` are asked first, as `first_reading` asks them; when none
    reads the text, a clean envelope (see `read_envelope`) goes straight to its `Completion`, and
    any other body to `FencedJson`. None when `text` is not such a fence: the general path reads
    it. `raw` is the whole answer (`text` is without end-of-turn tokens).
    """
    fenced = plan.fenced_json
    body = fenced.whole_body(text) if fenced is not None else None
    if fenced is None or body is None or body[:1] != "{" or body.find('"toolCalls"', 0, 64) == -1:
        return None
    order = asked(text, plan)  # The fence's marker is in the text: `fenced` is in `order`.
    found = first_of(takewhile(lambda strategy: strategy is not fenced, order), text, warnings)
    if found is None:
        try:
            value, end = SCAN(body, 0)
        except (StopIteration, ValueError, RecursionError):
            value, end = None, -1  # Not strict JSON: `FencedJson` reads it leniently.
        if end != len(body):  # The body is stripped: anything after the value is more than blank space.
            parsed = ask(fenced, text, warnings)
        else:
            clean = clean_completion(value, raw, fenced.name, max(max_calls, 0), warnings)
            # A fence that says nothing about tools (no call, no flag) is not `FencedJson`'s.
            if clean is not None and (clean[0].needs_more_work is not None or clean[1]):
                return clean
            parsed = fenced.read_whole(value)
        found = (fenced, parsed) if parsed is not None else first_of(order, text, warnings)
    return _read_answer(text, raw, None, False, plan.strategies, max_calls, found, warnings)


def _read_answer(
    text: str,
    raw: str,
    tools: Sequence[ToolLike] | None,
    strict: bool,
    strategies: Sequence[Strategy],
    max_calls: int,
    found: tuple[Strategy, Parsed] | None,
    warnings: list[str],
) -> tuple[Completion, int]:
    """The answer after its reasoning, read by the first strategy that recognises it (`raw`: the whole input).

    `found` is a reading already made (the clean envelope's), when there is one; `warnings`, what
    was said while making it.
    """
    if found is None:
        return new_completion(text, [], None, [], raw, None, None, warnings), 0
    strategy, parsed = found
    # The cap comes before validation: the calls past it are never checked, only counted.
    candidates, rejected, dropped = within_cap(parsed.calls, parsed.rejected, max(max_calls, 0))
    if tools is None and not strict:  # The common case, kept short: every call read is accepted.
        accepted = []
        for call in candidates:  # A loop, not a comprehension: cheaper for the usual one or two calls.
            accepted.append(new_tool_call(call.name, call.arguments, call.id))
    else:
        accepted, invalid = accept_calls(candidates, to_tools(tools) if tools is not None else None, strict)
        rejected = [*rejected, *invalid]
    needs_more_work = parsed.needs_more_work
    if needs_more_work is None and accepted:
        needs_more_work = True
    content = parsed.text
    if parsed.calls or parsed.rejected:  # A fence the calls were cut out of is left empty.
        content = without_empty_fences(content)
    if strict and parsed.strict_text is not None and any(not c.explicit for c in candidates):
        content = parsed.strict_text
    completion = new_completion(
        content, accepted, needs_more_work, rejected, raw, strategy.name, parsed.error, warnings
    )
    if parsed.reasoning is not None:
        completion = replace(completion, reasoning=parsed.reasoning)
    return completion, dropped


def _with_reasoning(thought: str, answer: Completion, text: str, strategies: Sequence[Strategy]) -> Completion:
    """The reading of the answer after the reasoning blocks, with the reasoning and what it called."""
    in_reasoning = reasoning_calls(thought, strategies)
    return replace(
        answer,
        raw=text,
        reasoning=join_reasoning(thought, answer.reasoning),
        rejected=[*answer.rejected, *in_reasoning],
    )


def accept_calls(
    candidates: list[Candidate], tools: dict[str, Tool] | None, strict: bool
) -> tuple[list[ToolCall], list[RejectedCall]]:
    """Split calls into accepted and rejected: embedded (strict), unknown tool, invalid arguments."""
    accepted: list[ToolCall] = []
    rejected: list[RejectedCall] = []
    for call in candidates:
        if strict and not call.explicit:
            reason = f"tool call '{call.name}' was only a tool-shaped JSON object inside prose (strict mode)"
            rejected.append(RejectedCall(call.name, call.arguments, reason, "embedded", call.id))
        elif tools is None:
            accepted.append(ToolCall(call.name, call.arguments, call.id))
        elif (tool := tools.get(call.name)) is None:
            known = ", ".join(sorted(tools)) or "none"
            reason = f"unknown tool '{call.name}' (available tools: {known})"
            rejected.append(RejectedCall(call.name, call.arguments, reason, "unknown_tool", call.id))
        else:
            arguments, errors = check_arguments(tool, _as_written_where_strings(call, tool))
            if errors and (inner := _wrapped_arguments(call.arguments, tool)) is not None:
                unwrapped, inner_errors = check_arguments(tool, inner)
                if not inner_errors:
                    arguments, errors = unwrapped, inner_errors
            if errors:
                reason = f"invalid arguments for tool '{call.name}': " + "; ".join(errors)
                rejected.append(
                    RejectedCall(call.name, call.arguments, reason, "invalid_arguments", call.id, tuple(errors))
                )
            else:
                accepted.append(ToolCall(call.name, arguments, call.id))
    return accepted, rejected


def _wrapped_arguments(arguments: dict[str, Any], tool: Tool) -> dict[str, Any] | None:
    """The arguments a model wrapped in one more object (`{"arguments": {...}}`), when the schema has no such key.

    DeepSeek's DSML calls write a lone `arguments` or `input` parameter holding the JSON of the
    real ones (vLLM's DSML parser unwraps it). Used only for arguments that fail the schema as
    written, and kept only when the unwrapped ones pass it.
    """
    if len(arguments) != 1:
        return None
    ((key, value),) = arguments.items()
    properties = tool.parameters.get("properties")
    if key not in _WRAPPERS or not isinstance(properties, dict) or not properties or key in properties:
        return None
    if isinstance(value, str) and value.lstrip()[:1] == "{":
        try:
            value = json.loads(value)
        except ValueError:
            return None
    return value if isinstance(value, dict) else None


_WRAPPERS = frozenset({"arguments", "input", "parameters", "args"})


def _as_written_where_strings(call: Candidate, tool: Tool) -> dict[str, Any]:
    """The arguments, with the written text kept for string-typed ones (see `Candidate.texts`)."""
    if not call.texts:
        return call.arguments
    properties = tool.parameters.get("properties")
    if not isinstance(properties, dict):
        return call.arguments
    arguments = dict(call.arguments)
    for key, text in call.texts.items():
        declared = properties.get(key, {}).get("type") if isinstance(properties.get(key), dict) else None
        types = [declared] if isinstance(declared, str) else declared or []
        if "string" in types and not isinstance(arguments.get(key), str):
            arguments[key] = text
    return arguments
