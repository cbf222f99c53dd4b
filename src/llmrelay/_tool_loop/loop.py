"""The tool loop behind `client.run`: ask the model, run the tools it calls, feed the results back.

Each step is one `complete()` (with its own retries, repairs and fallbacks), then the step's
calls run and their results join the transcript. Tools run only after a step's answer is
complete and each call runs once: a model request that is retried or falls back is sent again
with the transcript as it stands, so tools that already ran are never run again.

`ToolLoop` keeps the bookkeeping (what to run, the transcript, when to stop) once for both
clients; `run_tools` and `arun_tools` only differ in how they wait for the model and the tools.
They are given what they need: a function that completes one step (the client's, with the
loop's own policy, `loop_policy`), not the client.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from .._envelope import Completion, ToolCall, Usage
from .._messages import new_call_id, to_messages
from .._pipeline.repair import RepairTrigger
from .._tools import Tool, ToolLike, check_tool_names, to_tools
from .._types import Message, Request
from ..errors import ConfigError, LLMRelayError
from .execute import Job, ToolExecution, aexecute, execute, is_async, not_run, refused

if TYPE_CHECKING:
    from .._pipeline.flow import Policy
    from .._pipeline.setup import Messages

StopReason = Literal["done", "max_steps", "pending_calls", "error"]
"""Why `client.run` stopped.

- `done`: the model's answer made no tool call (or said it needed no more work).
- `max_steps`: the model was asked `max_steps` times and still called tools (those calls ran).
- `pending_calls`: the model called tools that have no Python function; they are in
  `RunResult.pending_calls`, for the caller to answer.
- `error`: only on `error.partial_run`, when a model request failed mid-run.
"""

CompleteStep = Callable[[list[Message], tuple[Tool, ...]], Completion]
"""One step's `complete()`: the transcript so far and the tools, to the model's answer."""
ACompleteStep = Callable[[list[Message], tuple[Tool, ...]], Awaitable[Completion]]
"""`CompleteStep` for `AsyncClient`."""


@dataclass(frozen=True)
class RunStep:
    """One step of a run: the model's answer, and the calls of it that were answered."""

    completion: Completion
    """The answer, as `complete()` returned it (calls without an id were given one)."""
    executions: list[ToolExecution] = field(default_factory=list)
    """The calls answered, in the model's order: those run, then those refused (`ran=False`)."""


@dataclass(frozen=True)
class RunResult:
    """What `client.run` returns: the final answer, the whole transcript, and every step."""

    completion: Completion
    """The last answer (when the run is `done`: the model's reply to the user)."""
    messages: list[Message]
    """The transcript: the messages given, then each answer and its tool results. Ready to pass
    to `complete()` or `run()` again (after answering `pending_calls`, if any)."""
    steps: list[RunStep]
    """Each model answer, with the tool calls run for it."""
    usage: Usage
    """Tokens used, summed over every step (each step's own retries and repairs included)."""
    stop_reason: StopReason
    """Why the run stopped (see `StopReason`)."""
    pending_calls: list[ToolCall] = field(default_factory=list)
    """Calls to tools without a Python function, not run: answer them with `Message("tool", ...,
    tool_call_id=call.id, name=call.name)` before continuing the conversation."""

    @property
    def content(self) -> str:
        """The last answer's text."""
        return self.completion.content


@dataclass(frozen=True)
class _Turn:
    """One answer, each of its calls sorted by what happens to it."""

    completion: Completion
    slots: list[Job | ToolExecution | None]
    """One per accepted call: the job that runs it, its refusal, or None (pending: no function)."""
    rejected: list[ToolExecution]
    """The calls rejected after repairs, answered with why."""

    @property
    def jobs(self) -> list[Job]:
        return [slot for slot in self.slots if isinstance(slot, Job)]

    @property
    def pending(self) -> list[ToolCall]:
        return [call for call, slot in zip(self.completion.tool_calls, self.slots, strict=True) if slot is None]


class ToolLoop:
    """The state of one run: the transcript, the steps, and the decisions between them."""

    def __init__(self, messages: Messages, tools: Sequence[ToolLike] | None, max_steps: int) -> None:
        if max_steps < 1:
            raise ConfigError(f"max_steps must be at least 1 (the model answers in the loop), got {max_steps}")
        self.tools = to_tools(tools)
        self.tool_list = tuple(self.tools.values())
        check_tool_names(self.tool_list)
        given = [{"role": "user", "content": messages}] if isinstance(messages, str) else messages
        self.messages: list[Message] = list(to_messages(given))
        self.steps: list[RunStep] = []
        self.pending: list[ToolCall] = []
        self.max_steps = max_steps

    def read(self, completion: Completion) -> _Turn:
        """Sort the answer's calls: to run, pending (no function), refused (not a tool given, or rejected)."""
        calls = [call if call.id else replace(call, id=new_call_id()) for call in completion.tool_calls]
        if calls != completion.tool_calls:
            completion = replace(completion, tool_calls=calls)
        slots: list[Job | ToolExecution | None] = []
        for call in calls:
            tool = self.tools.get(call.name)
            if tool is None:  # Calls go unchecked when no tools are given; none may run.
                slots.append(not_run(call, f"there is no tool named '{call.name}'"))
            else:
                slots.append(None if tool.function is None else Job(call, tool, tool.function))
        # An `embedded` call was only quoted in prose, an `in_reasoning` one thought aloud: not
        # calls, so nothing to answer.
        rejected = [refused(r) for r in completion.rejected if r.kind not in ("embedded", "in_reasoning")]
        return _Turn(completion, slots, rejected)

    def record(self, turn: _Turn, executions: list[ToolExecution]) -> StopReason | None:
        """Add the answer and its tool results to the transcript; why the loop stops, if it does."""
        ran = iter(executions)
        answered = [next(ran) if isinstance(slot, Job) else slot for slot in turn.slots if slot is not None]
        answered += turn.rejected
        self.steps.append(RunStep(turn.completion, answered))
        calls = (*turn.completion.tool_calls, *(execution.call for execution in turn.rejected))
        # The artifacts go back with the turn: Claude's thinking must precede its tool_use next time.
        self.messages.append(Message("assistant", turn.completion.content, calls, artifacts=turn.completion.artifacts))
        self.messages.extend(
            Message("tool", e.output, tool_call_id=e.call.id, name=e.call.name, is_error=e.error is not None)
            for e in answered
        )
        self.pending = turn.pending
        if self.pending:
            return "pending_calls"
        if not calls or turn.completion.needs_more_work is False:
            return "done"
        return "max_steps" if len(self.steps) >= self.max_steps else None

    def result(self, reason: StopReason) -> RunResult:
        """The run so far."""
        usage = sum((step.completion.usage for step in self.steps), Usage())
        last = self.steps[-1].completion
        return RunResult(last, list(self.messages), list(self.steps), usage, reason, list(self.pending))

    def interrupted(self, error: LLMRelayError) -> None:
        """Put the run so far on an error that stops it, when tools ran: resuming must not run them again."""
        if self.steps:
            error.partial_run = self.result("error")

    def check_tool_errors(self, executions: list[ToolExecution]) -> None:
        """Raise the first exception a tool raised (for `raise_tool_errors=True`)."""
        for execution in executions:
            if execution.exception is not None:
                if sys.version_info >= (3, 11):
                    execution.exception.add_note(
                        f"raised by tool {execution.call.name!r} (call {execution.call.id}) "
                        f"in step {len(self.steps) + 1} of client.run"
                    )
                raise execution.exception


def run_tools(complete: CompleteStep, loop: ToolLoop, *, raise_tool_errors: bool) -> RunResult:
    """`Client.run`: the loop, waiting for the model and the tools in this thread."""
    check_no_running_loop(loop.tool_list)
    while True:
        try:
            completion = complete(loop.messages, loop.tool_list)
        except LLMRelayError as error:
            loop.interrupted(error)
            raise
        turn = loop.read(completion)
        executions = execute(turn.jobs)
        if raise_tool_errors:
            loop.check_tool_errors(executions)
        if (reason := loop.record(turn, executions)) is not None:
            return loop.result(reason)


async def arun_tools(complete: ACompleteStep, loop: ToolLoop, *, raise_tool_errors: bool) -> RunResult:
    """`AsyncClient.run`: the same loop, with a step's calls run concurrently."""
    while True:
        try:
            completion = await complete(loop.messages, loop.tool_list)
        except LLMRelayError as error:
            loop.interrupted(error)
            raise
        turn = loop.read(completion)
        executions = await aexecute(turn.jobs)
        if raise_tool_errors:
            loop.check_tool_errors(executions)
        if (reason := loop.record(turn, executions)) is not None:
            return loop.result(reason)


def loop_policy(policy: Policy) -> Policy:
    """The policy of the loop's requests: strict parsing, and an example quoted in prose is no broken answer.

    Strict parsing rejects a tool-shaped object inside prose as `embedded`; the client's repair
    trigger would ask the model to "make it a real call", which is how an example turns into an
    action, so the loop's trigger does not count those.
    """
    return replace(policy, strict=True, trigger=_examples_are_not_broken(policy.trigger))


def _examples_are_not_broken(trigger: RepairTrigger) -> RepairTrigger:
    def check(result: Completion, request: Request) -> list[str]:
        if any(r.kind == "embedded" for r in result.rejected):
            result = replace(result, rejected=[r for r in result.rejected if r.kind != "embedded"])
        return trigger(result, request)

    return check


def check_no_running_loop(tools: tuple[Tool, ...]) -> None:
    """Async tools need an event loop of their own under `Client.run`: refuse before any step runs."""
    names = [tool.name for tool in tools if tool.function is not None and is_async(tool.function)]
    if not names:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise ConfigError(
        f"Client.run cannot run the async tool(s) {', '.join(names)} inside a running event loop: "
        "use AsyncClient.run (await client.run(...)) there"
    )
