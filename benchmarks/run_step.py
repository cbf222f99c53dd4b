"""What one step of `client.run` costs over one `complete()` that answers the same way (issue 13).

Run: python benchmarks/run_step.py [--steps 5] [--repeats 7]

A scripted adapter (no HTTP) answers with one native call on every step but the last; the same
client's `complete()` is timed on an answer with one native call. Target: a step costs what a
`complete()` costs, plus the tool (its arguments validated, the function called, the result
encoded: timed on its own). Medians of interleaved repeats; compare the rows, not machines.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import ClassVar

import llmrelay
from llmrelay._envelope import ToolCall, Usage
from llmrelay._tool_loop.execute import arguments, encode
from llmrelay._types import NativeCall, RawResponse, Request


def get_weather(city: str) -> str:
    """The forecast for a city."""
    return "sunny"


class Scripted:
    """Answers with a call to get_weather, and with text every `every` answers."""

    provider: ClassVar[str] = "openai"

    def __init__(self, every: int) -> None:
        self.answers, self.every = 0, every

    def send(self, request: Request) -> RawResponse:
        self.answers += 1
        if self.answers % self.every:
            call = NativeCall("get_weather", '{"city": "Paris"}', f"call_{self.answers}")
            return RawResponse("openai", "m", "", (call,), "tool_calls", Usage(5, 4, 9))
        return RawResponse("openai", "m", "Sunny.", (), "stop", Usage(5, 4, 9))

    async def asend(self, request: Request) -> RawResponse:
        return self.send(request)


def per_call(function: Callable[[], object], count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        function()
    return (time.perf_counter() - started) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--count", type=int, default=300)
    args = parser.parse_args()
    looping = llmrelay.Client("openai:gpt-4o-mini", adapter=Scripted(args.steps))
    single = llmrelay.Client("openai:gpt-4o-mini", adapter=Scripted(10**9))
    tool, call = llmrelay.to_tool(get_weather), ToolCall("get_weather", {"city": "Paris"}, "c1")

    def run() -> object:
        return looping.run("Weather in Paris?", tools=[get_weather], max_steps=args.steps)

    def complete() -> object:
        return single.complete("Weather in Paris?", tools=[get_weather])

    def the_tool() -> object:
        assert tool.function is not None
        return encode(tool.function(**arguments(tool, call)))

    rows: dict[str, list[float]] = {"run step": [], "complete": [], "tool": []}
    for function in (run, complete, the_tool):
        per_call(function, 50)  # Warm up: imports, caches.
    for _ in range(args.repeats):
        rows["run step"].append(per_call(run, args.count) / args.steps)
        rows["complete"].append(per_call(complete, args.count))
        rows["tool"].append(per_call(the_tool, args.count * 10))
    step, single_call, tool_cost = (statistics.median(rows[name]) for name in rows)
    print(f"run() step        {step:8.0f} us")
    print(f"complete()        {single_call:8.0f} us")
    print(f"the tool          {tool_cost:8.0f} us")
    print(f"step - complete   {step - single_call:8.0f} us  (target: about the tool's cost)")


if __name__ == "__main__":
    main()
