"""One provider answer (`RawResponse`) -> one `Completion`.

Native tool calls come first, in the order the provider sent them; the text then goes through
the normalizer, so calls written in it (Claude's XML in content, an envelope in json modes, an
open model's special tokens) are read too. Every call is checked against the tools.
"""

from __future__ import annotations

from dataclasses import replace

from .._envelope import DEFAULT_MAX_TOOL_CALLS, Completion, FinishReason, Mode, RejectedCall, ToolCall, new_completion
from .._tools import Tool
from .._types import RawResponse, ToolChoice
from ..normalize import call_from_parts
from ..normalize._budget import over_cap
from ..normalize._parse import accept_calls, read_capped
from ..normalize._types import Candidate

# The providers' own finish reasons, by what they mean. Anything else is "other".
_FINISH: dict[str, FinishReason] = {
    **dict.fromkeys(("stop", "end_turn", "stop_sequence", "STOP", "eos", "eos_token"), "stop"),
    **dict.fromkeys(("tool_calls", "tool_use", "function_call"), "tool_calls"),
    **dict.fromkeys(("length", "max_tokens", "MAX_TOKENS", "model_context_window_exceeded"), "length"),
    **dict.fromkeys(
        (
            "content_filter",
            "refusal",
            "SAFETY",
            "RECITATION",
            "BLOCKLIST",
            "PROHIBITED_CONTENT",
            "SPII",
            "IMAGE_SAFETY",
            "IMAGE_PROHIBITED_CONTENT",
            "IMAGE_RECITATION",
        ),
        "content_filter",
    ),
}


# Gemini's finish reasons for a call its API could not read (the call is not in the answer).
_CALL_NOT_READ = frozenset({"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"})
_UNREAD_CALL = (
    "the model tried to call a tool, but the provider could not read the call and left it out "
    "(see provider_finish_reason); a repair asks the model again when max_repairs allows"
)


def normalize_finish(provider_reason: str | None, *, has_calls: bool) -> FinishReason | None:
    """The provider's finish reason in llmrelay's vocabulary.

    A normal stop with tool calls is `tool_calls` (Gemini says STOP when it calls functions, and
    a text-mode model stops normally after writing its calls).
    """
    if provider_reason is None:
        return "tool_calls" if has_calls else None
    reason = _FINISH.get(provider_reason, "other")
    return "tool_calls" if reason == "stop" and has_calls else reason


def to_completion(
    raw: RawResponse,
    *,
    tools: tuple[Tool, ...],
    mode: Mode,
    strict: bool,
    tool_choice: ToolChoice | None = None,
    max_calls: int = DEFAULT_MAX_TOOL_CALLS,
) -> Completion:
    """Build the envelope for one answer: native calls, then calls read from the text.

    Every call is checked against `tools` (the request's, also for an answer asked without
    them); at most `max_calls` are read, native and text together (one rejection counts the
    rest); with `tool_choice="none"` every call is `not_allowed`. The trace and the summed usage
    of the whole request are added by the flow (`flow._finish`).
    """
    by_name = {tool.name: tool for tool in tools} if tools else None
    native_accepted, native_rejected, native_dropped = _native_calls(raw, by_name, max_calls)
    room = max(max_calls - len(native_accepted), 0)  # One cap for the answer: the text has what is left.
    if raw.text:
        text, text_dropped = read_capped(raw.text, list(tools) if tools else None, strict=strict, max_calls=room)
    else:  # Only native calls (or nothing): no text to read, so no strategy to try on it.
        text, text_dropped = new_completion("", [], None, [], "", None, None, []), 0
    calls = native_accepted + text.tool_calls
    rejected = native_rejected + text.rejected
    if native_dropped + text_dropped:
        rejected.append(over_cap(native_dropped + text_dropped, max_calls))
    refusal = refusal_of(raw)
    needs_more_work = True if native_accepted else text.needs_more_work
    if tool_choice == "none" and calls:
        calls, rejected, needs_more_work = [], [*map(not_allowed, calls), *rejected], False
    return Completion(
        content=text.content,
        tool_calls=calls,
        needs_more_work=needs_more_work,
        rejected=rejected,
        raw=raw.text,
        format="native" if raw.native_calls else text.format,
        error=text.error,
        warnings=[*text.warnings, _UNREAD_CALL] if raw.finish_reason in _CALL_NOT_READ else text.warnings,
        mode=mode,
        provider=raw.provider,
        model=raw.model,
        finish_reason="content_filter" if refusal else normalize_finish(raw.finish_reason, has_calls=bool(calls)),
        provider_finish_reason=raw.finish_reason,
        refusal=refusal,
        usage=raw.usage,
        reasoning=_reasoning(raw.reasoning, text.reasoning),
        artifacts=raw.artifacts,
    )


def _reasoning(from_api: str, from_text: str | None) -> str | None:
    """The answer's reasoning: the API's (issue 14), then what the text held (`<think>`, issue 16)."""
    if from_api and from_text:
        return f"{from_api}\n\n{from_text}"
    return from_api or from_text


def not_allowed(call: ToolCall) -> RejectedCall:
    """A call made although the request said `tool_choice="none"`: reported, never run."""
    reason = f"tool call '{call.name}' was made although tool_choice was 'none': no tool may be called"
    return RejectedCall(call.name, call.arguments, reason, "not_allowed", call.id)


def refusal_of(raw: RawResponse) -> str | None:
    """The refusal in an answer: the provider's refusal text, or a stop reason that means one.

    Anthropic's `refusal` and Gemini's safety stops come with the text said so far (often none):
    that text, else the stop reason in words.
    """
    if raw.refusal:
        return raw.refusal
    if raw.finish_reason is None or _FINISH.get(raw.finish_reason) != "content_filter":
        return None
    return raw.text.strip() or f"the provider stopped the answer ({raw.finish_reason})"


def _native_calls(
    raw: RawResponse, tools: dict[str, Tool] | None, max_calls: int
) -> tuple[list[ToolCall], list[RejectedCall], int]:
    """The answer's native calls, checked; past `max_calls` they are only counted (the third value)."""
    candidates: list[Candidate] = []
    rejected: list[RejectedCall] = []
    for native in raw.native_calls[:max_calls]:
        reading = call_from_parts(native.name, native.arguments, call_id=native.id)
        if isinstance(reading, Candidate):
            candidates.append(reading)
        else:
            rejected.append(reading)
    accepted, invalid = accept_calls(candidates, tools, strict=False)
    signatures = {native.id: native.signature for native in raw.native_calls[:max_calls] if native.signature}
    if signatures:
        accepted = [replace(call, signature=signatures.get(call.id or "")) for call in accepted]
    return accepted, rejected + invalid, max(len(raw.native_calls) - max_calls, 0)
