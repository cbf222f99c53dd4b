"""Run the model's tool calls: arguments validated into the function's types, results encoded for the model.

A call reaches this module only once it has been accepted (known tool, arguments valid against
its schema). For a tool made from a function, the arguments are validated once more by the
tool's pydantic model so the function receives its declared types (a parameter typed as a
pydantic model gets an instance, a `datetime` a datetime). What the function returns goes back
to the model as text: a string as it is, anything else as JSON. What it raises goes back as an
error result; `loop` decides whether to raise it instead.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._envelope import RejectedCall, ToolCall
from .._messages import new_call_id
from .._tools import Tool


@dataclass(frozen=True)
class ToolExecution:
    """One tool call of a `client.run` step, and what was fed back to the model for it."""

    call: ToolCall
    """The call as the model made it (a call that came without an id was given one)."""
    output: str
    """The tool result sent to the model: the return value (a string as is, anything else as
    JSON), or `"Error: <type>: <message>"`, or why the call was not run."""
    value: Any = None
    """What the function returned, before encoding (None when it raised or did not run)."""
    error: str | None = None
    """`"<ExceptionType>: <message>"` when the tool raised; why the call was refused when it did not run."""
    exception: Exception | None = field(default=None, compare=False, repr=False)
    """The exception the tool raised, if any."""
    duration: float = 0.0
    """Seconds the tool took (for a sync tool under `AsyncClient.run`, including the wait for a thread)."""
    ran: bool = True
    """False for a call refused before running: an unknown tool, or arguments still invalid after repairs."""


@dataclass(frozen=True)
class Job:
    """A call to run, with the tool that runs it."""

    call: ToolCall
    tool: Tool
    function: Callable[..., Any]


def is_async(function: Callable[..., Any]) -> bool:
    """Whether calling `function` gives a coroutine (an `async def`, or an object whose `__call__` is one)."""
    while isinstance(function, functools.partial):
        function = function.func
    if inspect.iscoroutinefunction(function):
        return True
    return not inspect.isroutine(function) and inspect.iscoroutinefunction(type(function).__call__)


def execute(jobs: list[Job]) -> list[ToolExecution]:
    """Run a step's calls from sync code: sync tools in order, then async tools together on one event loop.

    Results are in the order of `jobs`. The caller makes sure no event loop is running when any
    tool is async (`asyncio.run` cannot start inside one).
    """
    results: dict[int, ToolExecution] = {}
    waiting: list[tuple[int, Job]] = []
    for index, job in enumerate(jobs):
        if is_async(job.function):
            waiting.append((index, job))
        else:
            results[index] = _run_sync(job)
    if waiting:
        done = asyncio.run(_gather([job for _, job in waiting], in_thread=False))
        results.update((index, execution) for (index, _), execution in zip(waiting, done, strict=True))
    return [results[index] for index in range(len(jobs))]


async def aexecute(jobs: list[Job]) -> list[ToolExecution]:
    """Run a step's calls concurrently: async tools on this loop, sync ones each in a thread."""
    return await _gather(jobs, in_thread=True)


async def _gather(jobs: list[Job], *, in_thread: bool) -> list[ToolExecution]:
    return list(await asyncio.gather(*(_run_async(job, in_thread=in_thread) for job in jobs)))


def _run_sync(job: Job) -> ToolExecution:
    started = time.perf_counter()
    try:
        value = job.function(**arguments(job.tool, job.call))
        return _succeeded(job.call, value, started)
    except Exception as exc:  # The model is told; `raise_tool_errors` decides whether it is raised.
        return _failed(job.call, exc, started)


async def _run_async(job: Job, *, in_thread: bool) -> ToolExecution:
    started = time.perf_counter()
    try:
        kwargs = arguments(job.tool, job.call)
        if is_async(job.function):
            value = await job.function(**kwargs)
        elif in_thread:
            value = await asyncio.to_thread(job.function, **kwargs)
        else:
            value = job.function(**kwargs)
        return _succeeded(job.call, value, started)
    except Exception as exc:
        return _failed(job.call, exc, started)


def arguments(tool: Tool, call: ToolCall) -> dict[str, Any]:
    """The keyword arguments to call the tool's function with.

    With the tool's pydantic model, each argument is what the model validated it into; only
    those the call gave are passed, so the function's own defaults apply to the rest.
    """
    if tool.model is None:
        return dict(call.arguments)
    instance = tool.model.model_validate(call.arguments)
    return {name: getattr(instance, name) for name in instance.model_fields_set}


def encode(value: Any) -> str:
    """A tool's return value as the text the model reads: a string as is, anything else as JSON."""
    if isinstance(value, str):
        return value
    from pydantic_core import to_jsonable_python  # pydantic models, dataclasses, dates, sets…

    return json.dumps(to_jsonable_python(value, fallback=str), ensure_ascii=False)


def refused(rejected: RejectedCall) -> ToolExecution:
    """A call rejected after repairs, answered with why it was not run (so the model knows it did not happen)."""
    arguments = rejected.arguments if isinstance(rejected.arguments, dict) else {}
    return not_run(ToolCall(rejected.name or "unknown", arguments, rejected.id or new_call_id()), rejected.reason)


def not_run(call: ToolCall, reason: str) -> ToolExecution:
    """The answer to a call that is not run."""
    return ToolExecution(call, f"Error: not run: {reason}", error=reason, ran=False)


def _succeeded(call: ToolCall, value: Any, started: float) -> ToolExecution:
    output = encode(value)  # Inside the caller's try: a result that cannot be encoded is the tool's error.
    return ToolExecution(call, output, value, duration=time.perf_counter() - started)


def _failed(call: ToolCall, exc: Exception, started: float) -> ToolExecution:
    error = f"{type(exc).__name__}: {exc}"
    return ToolExecution(call, f"Error: {error}", None, error, exc, time.perf_counter() - started)
