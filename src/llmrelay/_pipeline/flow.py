"""The conversation behind one `complete()`: repairs and fallbacks, written once for sync and async.

`request_flow` is a generator: it yields each provider call to make (`Call`) and is sent the
answer, or has the call's `ProviderError` thrown into it. `drive` makes the calls (through the
retry policy, with the adapter's `send` or `asend`); everything else — checking the answer,
asking for repairs, moving down the fallback plan, the trace — happens here, once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .._defaults import DEFAULT_MAX_REQUESTS as DEFAULT_MAX_REQUESTS
from .._envelope import DEFAULT_MAX_TOOL_CALLS, Attempt, Completion, Outcome, Usage, with_trace
from .._types import NamedTool, RawResponse, Request
from ..errors import AllAttemptsFailed, DeadlineExceeded, MissingToolCallError, ProviderError
from .plan import Step, model_is_unusable, should_fall_back
from .repair import RepairTrigger, is_truncated, repair_request
from .respond import to_completion

if TYPE_CHECKING:
    from .output import OutputSpec


@dataclass(frozen=True)
class Call:
    """One provider call the flow needs made."""

    step: Step
    request: Request
    read_as: Request | None = None
    """The request the answer is checked against, when not the one sent: the degraded last resort
    is sent without tools, and its answer still read against the tools of the request."""

    @property
    def reading(self) -> Request:
        """The request the answer is read against."""
        return self.read_as or self.request


@dataclass(frozen=True)
class Policy:
    """The budgets and decisions of one request's flow."""

    max_repairs: int
    """Repair rounds per step (0: none)."""
    strict: bool
    """Accept only explicit tool-call constructs in text."""
    trigger: RepairTrigger
    """What counts as a broken answer (`repair.problems` by default)."""
    max_tokens_on_length: int | None
    """When set, an answer cut off at the token limit is asked again once with this budget."""
    learn: Callable[[Step, ProviderError], None]
    """Told of every failed call (the capability learner listens)."""
    output: OutputSpec | None = None
    """The `output=` asked for: read from each answer, and its errors sent back for repair."""
    max_requests: int = DEFAULT_MAX_REQUESTS
    """The most requests the flow sends in all: repairs, fallback steps, the larger-budget retry
    and the text-only last resort count; a transient failure's retries (`RetryPolicy`) do not."""
    max_calls: int = DEFAULT_MAX_TOOL_CALLS
    """Calls read per answer, at most (`Client(max_tool_calls=)`); the rest is counted in one rejection."""

    def read(self, raw: RawResponse, request: Request) -> Completion:
        """One answer as a `Completion`, its calls checked against the request's tools and tool_choice."""
        return to_completion(
            raw,
            tools=request.tools,
            mode=request.mode,
            strict=self.strict,
            tool_choice=request.tool_choice,
            max_calls=self.max_calls,
        )


Flow = Generator[Call, RawResponse, Completion]


@dataclass
class _Done:
    result: Completion
    accepted: bool
    problems: list[str] = field(default_factory=list)


@dataclass
class _Budget:
    """The requests one flow may still send."""

    left: int

    def spend(self) -> None:
        self.left -= 1


def request_flow(plan: list[Step], build: Callable[[Step], Request], policy: Policy, trace: list[Attempt]) -> Flow:
    """The flow of one request: try the plan's steps in order until one gives an acceptable answer.

    Returns the first accepted answer; else the last answer whose repairs ran out (it says what
    was rejected); else, when every step failed and tools were asked for, a text-only answer
    without tools from the first model still usable, flagged `degraded`. Raises an error that
    must not be fallen back from as soon as it comes; when everything failed, the one error, or
    `AllAttemptsFailed` holding them all.
    """
    errors: list[ProviderError] = []
    partial: _Done | None = None
    unusable: set[tuple[str, str]] = set()
    budget = _Budget(max(policy.max_requests, 1))
    for step in plan:
        if (step.provider, step.model) in unusable:
            continue
        if budget.left <= 0:
            break
        try:
            done = yield from _step(step, build(step), policy, trace, budget)
        except ProviderError as error:
            if not should_fall_back(error):
                raise
            errors.append(error)
            if model_is_unusable(error):
                unusable.add((step.provider, step.model))
            continue
        if done.accepted:
            return _finish(done.result, trace)
        partial = done
    if partial is not None:
        if policy.output is not None and partial.result.output is None:
            raise policy.output.failure(_finish(partial.result, trace), partial.problems)
        return _unmet_or_finished(partial.result, build(plan[0]), trace)
    usable = [step for step in plan if (step.provider, step.model) not in unusable]
    # Without tools no output can come: an output request is not degraded.
    if usable and build(plan[0]).tools and policy.output is None and budget.left > 0:
        return (yield from _degrade(usable[0], build, policy, trace, errors))
    raise _all_failed(errors, trace)


def _unmet_or_finished(result: Completion, request: Request, trace: list[Attempt]) -> Completion:
    """The last answer; or, when `tool_choice` required a call and none came in any form, the error saying so."""
    finished = _finish(result, trace)
    choice = request.tool_choice
    if result.tool_calls or result.rejected or not (choice == "required" or isinstance(choice, NamedTool)):
        return finished
    names = ", ".join(tool.name for tool in request.tools)
    asked = f"tool_choice={choice.name!r}" if isinstance(choice, NamedTool) else f"tool_choice='required' ({names})"
    message = f"{asked}: the model made no tool call in {_requests(trace)}"
    raise MissingToolCallError(message, completion=finished)


def _requests(trace: list[Attempt]) -> str:
    count = sum(attempt.outcome != "retry" for attempt in trace)
    return "1 request" if count == 1 else f"{count} requests"


def _step(
    step: Step, request: Request, policy: Policy, trace: list[Attempt], budget: _Budget
) -> Generator[Call, RawResponse, _Done]:
    """One (model, mode): the call, then up to `max_repairs` corrections, within the request budget."""
    repairs = 0
    longer_asked = False
    while True:
        started = time.monotonic()
        budget.spend()
        try:
            raw = yield Call(step, request)
        except ProviderError as error:
            trace.append(_attempt(step, "error", _reason(error), started))
            policy.learn(step, error)
            raise
        result = policy.read(raw, request)
        if result.refusal is not None:  # An answer, not a broken one: nothing to repair.
            trace.append(_attempt(step, "ok", f"refused: {result.refusal}", started, raw.usage))
            if policy.output is not None:
                raise policy.output.refused(_finish(result, trace))
            return _Done(result, accepted=True)
        if is_truncated(result) and policy.max_tokens_on_length and not longer_asked and budget.left > 0:
            trace.append(
                _attempt(
                    step,
                    "truncated",
                    "cut off at the token limit: asking again with a larger budget",
                    started,
                    raw.usage,
                )
            )
            request, longer_asked = _with_max_tokens(request, policy.max_tokens_on_length), True
            continue
        if policy.output is not None:
            result, found = policy.output.check(result, request, policy.trigger)
        else:
            found = policy.trigger(result, request)
        if not found:
            outcome: Outcome = "truncated" if is_truncated(result) else "ok"
            trace.append(_attempt(step, outcome, None, started, raw.usage))
            return _Done(result, accepted=True)
        if repairs >= policy.max_repairs or budget.left <= 0:
            trace.append(_attempt(step, "exhausted", "; ".join(found), started, raw.usage))
            return _Done(result, accepted=False, problems=found)
        trace.append(_attempt(step, "repair", "; ".join(found), started, raw.usage))
        request, repairs = repair_request(request, result, found), repairs + 1


def _degrade(
    first: Step,
    build: Callable[[Step], Request],
    policy: Policy,
    trace: list[Attempt],
    errors: list[ProviderError],
) -> Flow:
    """The last resort: a usable model, in text mode, without tools.

    Its answer is still read against the tools of the request: a call the model writes anyway is
    checked like any other (an unknown tool or invalid arguments end in `rejected`).
    """
    step = replace(first, mode="text")
    asked = build(step)
    request = replace(asked, tools=(), tool_choice=None, response_schema=None)
    started = time.monotonic()
    try:
        raw = yield Call(step, request, read_as=asked)
    except ProviderError as error:
        trace.append(_attempt(step, "error", _reason(error), started))
        if isinstance(error, DeadlineExceeded):  # The request's time is up: that is the answer.
            raise
        raise _all_failed([*errors, error], trace) from None
    trace.append(
        _attempt(step, "degraded", "every tool-capable step failed: answered without tools", started, raw.usage)
    )
    result = policy.read(raw, asked)  # The tools asked for, not the none this last call offered.
    return replace(_finish(result, trace), degraded=True)


def _all_failed(errors: list[ProviderError], trace: list[Attempt]) -> ProviderError | AllAttemptsFailed:
    """The error to raise when nothing worked: the only one as itself, several as a group."""
    if len(errors) == 1:
        return errors[0]
    return AllAttemptsFailed(f"all {len(errors)} steps of the plan failed", errors, trace)


def _finish(result: Completion, trace: list[Attempt]) -> Completion:
    """The answer, with the whole trace and the tokens of every attempt."""
    usages = [attempt.usage for attempt in trace]
    total = sum(usages[1:], usages[0]) if usages else Usage()  # One attempt, the usual case: no sum made.
    return with_trace(result, list(trace), total)


def record_retry(trace: list[Attempt], step: Step, error: BaseException, wait: float) -> None:
    """Put a transient failure that is about to be retried into the trace."""
    reason = f"{_reason(error)}; retrying in {wait:.2f}s"
    trace.append(
        Attempt(
            provider=step.provider, model=step.model, mode=step.mode, outcome="retry", reason=reason, host=step.host
        )
    )


def _attempt(step: Step, outcome: Outcome, reason: str | None, started: float, usage: Usage | None = None) -> Attempt:
    elapsed = time.monotonic() - started
    return Attempt(
        provider=step.provider,
        model=step.model,
        mode=step.mode,
        outcome=outcome,
        reason=reason,
        duration=elapsed,
        usage=usage or Usage(),
        host=step.host,
    )


def _reason(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _with_max_tokens(request: Request, budget: int) -> Request:
    return replace(request, params={**request.params, "max_tokens": budget})
