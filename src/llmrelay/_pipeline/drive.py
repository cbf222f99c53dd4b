"""Driving a flow: the one loop that makes a flow's calls and feeds it the answers or the errors.

A `Flow` (see `flow`) yields each provider call it needs and is sent the answer, or has the
call's `ProviderError` thrown into it. `answer` / `aanswer` make calls until one succeeds or the
flow ends; every entry point uses them: `drive` / `adrive` (complete, the tool loop) until the
flow's end, the streaming drivers until a stream opens. (httpx drives its auth flows this way.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from .._envelope import Completion
from .._types import RawResponse
from ..errors import ProviderError
from .flow import Call, Flow

_R = TypeVar("_R")


def answer(flow: Flow, call: Call, send: Callable[[Call], _R]) -> tuple[Call, _R] | Completion:
    """Make `call`, and each call the flow asks for instead when one fails, until one succeeds.

    Returns the call that succeeded and what `send` gave, or the flow's `Completion` when it
    ended on a failure. A failure the flow does not handle propagates.
    """
    while True:
        try:
            return call, send(call)
        except ProviderError as error:
            try:
                call = flow.throw(error)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]


async def aanswer(flow: Flow, call: Call, send: Callable[[Call], Awaitable[_R]]) -> tuple[Call, _R] | Completion:
    """`answer` with an async `send`."""
    while True:
        try:
            return call, await send(call)
        except ProviderError as error:
            try:
                call = flow.throw(error)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]


def drive(flow: Flow, send: Callable[[Call], RawResponse]) -> Completion:
    """Run a flow to its `Completion`, making each call with `send`."""
    call = next(flow)
    while not isinstance(made := answer(flow, call, send), Completion):
        try:
            call = flow.send(made[1])
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
    return made


async def adrive(flow: Flow, send: Callable[[Call], Awaitable[RawResponse]]) -> Completion:
    """`drive` with an async `send`."""
    call = next(flow)
    while not isinstance(made := await aanswer(flow, call, send), Completion):
        try:
            call = flow.send(made[1])
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
    return made
