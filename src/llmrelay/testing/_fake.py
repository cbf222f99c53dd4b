"""`FakeAdapter`: a scripted provider, for testing code built on llmrelay without HTTP."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import ClassVar

from .._envelope import Usage
from .._types import NativeCall, RawResponse, Request
from ..adapters import ProviderOptions

Script = RawResponse | str | NativeCall | BaseException


class FakeAdapter:
    """Answers each request with the next scripted item, and records every request.

    A script item is a `RawResponse`; a string (the model's text); a `NativeCall` (one native
    tool call); or an exception, which is raised instead of answering.

    ```python
    fake = FakeAdapter(['<tool_call>{"name": "f", "arguments": {}}</tool_call>', "Done."])
    client = llmrelay.Client("openai:gpt-4o-mini", adapter=fake)
    ```
    """

    provider: ClassVar[str] = "fake"

    def __init__(self, script: Iterable[Script] = (), options: ProviderOptions | None = None) -> None:
        self.script: deque[Script] = deque(script)
        self.requests: list[Request] = []
        self.options = options or ProviderOptions()

    def add(self, *items: Script) -> None:
        """Append answers to the script."""
        self.script.extend(items)

    def send(self, request: Request) -> RawResponse:
        """Record the request and play the next item."""
        self.requests.append(request)
        if not self.script:
            raise AssertionError(f"FakeAdapter has no scripted answer left for request {len(self.requests)}")
        item = self.script.popleft()
        if isinstance(item, BaseException):
            raise item
        return _as_response(item, request)

    async def asend(self, request: Request) -> RawResponse:
        """The same, for `AsyncClient`."""
        return self.send(request)


def _as_response(item: RawResponse | str | NativeCall, request: Request) -> RawResponse:
    if isinstance(item, RawResponse):
        return item
    usage = Usage(10, 5, 15)
    if isinstance(item, NativeCall):
        return RawResponse("fake", request.model, native_calls=(item,), finish_reason="tool_calls", usage=usage)
    return RawResponse("fake", request.model, text=item, finish_reason="stop", usage=usage)
