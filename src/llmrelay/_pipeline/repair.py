"""Validate-and-repair: what counts as a broken answer, and how the model is asked to fix it.

An answer needs repair when calls were rejected (unknown tool, invalid or unreadable
arguments; not a call only quoted in prose, which strict mode rejects as `embedded`), when
Gemini reports MALFORMED_FUNCTION_CALL, when a tool was required but none was called, or
when the reply announces a call it never makes ("I'll search for that now.").
A call cut off at the token limit is *not* repaired as if it were complete: it is reported as
truncated (and the client may retry with a larger budget).

The correction is written for the model: it names the tool, the argument, what was wrong and
what the schema expects, in the shape the mode allows — tool-result errors after the model's own
calls in native mode, a user message otherwise.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace

from .._envelope import Completion, RejectedCall, ToolCall
from .._messages import new_call_id
from .._tools import Tool
from .._types import Message, NamedTool, Request

RepairTrigger = Callable[[Completion, Request], "list[str]"]
"""Given an answer and the request, the problems that call for a repair (empty: none)."""

# "I'll search for that now." / "Let me look that up:" — an announced action, with no call after it.
_ANNOUNCES = re.compile(
    r"\b(?:I'll|I will|I'm going to|I am going to|Let me|I need to|I'm calling|I am calling)\b[^.!?\n]{0,120}"
    r"\b(?:search|look|check|call|use|run|fetch|get|query|find|retrieve|read|open|calculate)\w*\b[^.!?\n]{0,80}"
    r"(?:[.…:]|\.\.\.)?\s*$",
    re.IGNORECASE,
)


def problems(result: Completion, request: Request) -> list[str]:
    """What is wrong with this answer, one sentence per problem (the default repair trigger)."""
    # A call cut off at the token limit is reported, not repaired; one the model left unfinished
    # on its own (a normal stop) is as broken as any other.
    cut_off = is_truncated(result)
    found = [_describe_rejection(r, request.tools) for r in result.rejected if _needs_repair(r, cut_off)]
    if result.provider_finish_reason == "MALFORMED_FUNCTION_CALL":
        found.append(
            "Your function call was malformed and could not be read. Call the function again, with valid JSON."
        )
    if not result.tool_calls and not found and request.tools:
        found.extend(_missing_call(result, request))
    return found


def _needs_repair(rejected: RejectedCall, cut_off: bool) -> bool:
    # An `embedded` call (strict mode) was only quoted in prose: asking the model to "make it a
    # real call" is exactly how an example would turn into an action, so it is left as text. An
    # `in_reasoning` call was the model thinking aloud (issue 16): the answer decides, not it.
    if rejected.kind in ("embedded", "in_reasoning"):
        return False
    return rejected.kind != "truncated" or not cut_off


def is_truncated(result: Completion) -> bool:
    """The answer stopped at the token limit (its last call, if any, is incomplete)."""
    return result.finish_reason == "length"


def _missing_call(result: Completion, request: Request) -> list[str]:
    if request.tool_choice == "required":
        return ["You must call at least one of the tools in this reply, and you called none."]
    if isinstance(request.tool_choice, NamedTool):
        return [f"You must call the tool '{request.tool_choice.name}' in this reply, and you called none."]
    if request.tool_choice != "none" and result.finish_reason == "stop" and _ANNOUNCES.search(result.content.strip()):
        return ["You said you would use a tool, but your reply contains no tool call. Make the call now."]
    return []


def _describe_rejection(rejected: RejectedCall, tools: tuple[Tool, ...]) -> str:
    by_name = {tool.name: tool for tool in tools}
    if rejected.kind == "unknown_tool":
        available = ", ".join(sorted(by_name)) or "none"
        return f"There is no tool named '{rejected.name}'. The tools you can call are: {available}."
    if rejected.kind == "invalid_arguments" and rejected.name in by_name:
        schema = json.dumps(by_name[rejected.name].parameters, sort_keys=True)
        details = "; ".join(rejected.errors) or rejected.reason
        return f"The call to '{rejected.name}' has invalid arguments: {details}. Its arguments must follow: {schema}"
    if rejected.kind == "not_allowed":
        return f"You called '{rejected.name}', but no tool may be called in this reply. Answer in text only."
    if rejected.kind == "truncated":
        return f"A tool call was left unfinished: {rejected.reason}. Write the complete call."
    return f"A tool call could not be read: {rejected.reason}. Write it again as valid JSON."


def repair_request(request: Request, result: Completion, found: list[str]) -> Request:
    """The same request, with the model's answer and the corrections appended to the conversation."""
    correction = "Your previous reply had problems:\n" + "\n".join(f"- {problem}" for problem in found)
    if request.mode == "native_tools" and (result.tool_calls or result.rejected):
        turns = _tool_result_errors(result, correction)
    else:
        again = (
            "Reply again, in full, with every tool call you want to make (valid this time)."
            if request.tools
            else "Reply again, in full, corrected."
        )
        turns = [Message("assistant", result.raw), Message("user", f"{correction}\n{again}")]
    return replace(request, messages=(*request.messages, *turns))


def _tool_result_errors(result: Completion, correction: str) -> list[Message]:
    """The model's calls as it made them, each answered by a tool-result error (native tools)."""
    made = [*result.tool_calls, *(_as_call(r) for r in result.rejected)]
    assistant = Message("assistant", result.content, tuple(made))
    refused = "Not run: this reply had invalid calls. Send all your calls again, corrected.\n" + correction
    results = [Message("tool", refused, tool_call_id=call.id, name=call.name) for call in made]
    return [assistant, *results]


def _as_call(rejected: RejectedCall) -> ToolCall:
    arguments = rejected.arguments if isinstance(rejected.arguments, dict) else {}
    return ToolCall(rejected.name or "unknown", arguments, rejected.id or new_call_id())
