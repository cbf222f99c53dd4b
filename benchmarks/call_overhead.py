"""What llmrelay adds to a provider call, and to interpreter start-up.

Run: python benchmarks/call_overhead.py [--check] [--write]

1. The same request with one tool, answered by the same mocked HTTP response (respx, no network),
   made N times through the raw SDK and through `llmrelay.Client.complete`, for OpenAI (Chat
   Completions and the Responses API) and Anthropic. Target: overhead under 10% of the raw call,
   or under 150 µs, whichever is larger.
   The two are called in turn, each call timed: the table gives the raw call's median and the
   median of the differences within each pair (a busy machine slows both of a pair alike; the
   medians of the two series alone can land on different load levels).
2. `python -c "import llmrelay"` and `from llmrelay import Client` (what a user imports to make a
   call: the client and its pipeline) against `python -c pass`, alternating, medians, with
   bytecode (see `start_up`). Target for both: under 60 ms more.

With --check the script exits 1 when a target is missed; with --write it writes its tables to
benchmarks/results/call_overhead.md and the README.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from _results import Table, median, paired, verdict, write_results

import llmrelay
from llmrelay.testing import mock_http

CALLS = 3000
WEATHER: dict[str, Any] = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
MESSAGES = [{"role": "user", "content": "Weather in Paris?"}]

OPENAI_ANSWER = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "gpt-4o-mini-2024-07-18",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                    }
                ],
            },
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60},
}
ANTHROPIC_ANSWER = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-6-20250929",
    "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 50, "output_tokens": 10},
}


RESPONSES_ANSWER = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "model": "gpt-5-2025-08-07",
    "output": [
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city": "Paris"}',
        }
    ],
    "usage": {"input_tokens": 50, "output_tokens": 10, "total_tokens": 60},
}


def openai_pair() -> tuple[Callable[[], object], Callable[[], object]]:
    import openai

    raw = openai.OpenAI(api_key="sk-bench", max_retries=0)
    tool = {"type": "function", "function": WEATHER}
    client = llmrelay.Client("openai:gpt-4o-mini", api_key="sk-bench")

    def sdk() -> object:
        return raw.chat.completions.create(model="gpt-4o-mini", messages=MESSAGES, tools=[tool])  # type: ignore[arg-type, list-item]

    return sdk, lambda: client.complete(MESSAGES, tools=[WEATHER])


def responses_pair() -> tuple[Callable[[], object], Callable[[], object]]:
    import openai

    raw = openai.OpenAI(api_key="sk-bench", max_retries=0)
    tool = {"type": "function", **WEATHER, "strict": False}
    client = llmrelay.Client("openai-responses:gpt-5", api_key="sk-bench")

    def sdk() -> object:
        return raw.responses.create(model="gpt-5", input=MESSAGES, tools=[tool])  # type: ignore[arg-type, list-item]

    return sdk, lambda: client.complete(MESSAGES, tools=[WEATHER])


def anthropic_pair() -> tuple[Callable[[], object], Callable[[], object]]:
    import anthropic

    raw = anthropic.Anthropic(api_key="sk-ant-bench", max_retries=0)
    tool = {"name": WEATHER["name"], "description": WEATHER["description"], "input_schema": WEATHER["parameters"]}
    client = llmrelay.Client("anthropic:claude-sonnet-4-6", api_key="sk-ant-bench")

    def sdk() -> object:
        return raw.messages.create(model="claude-sonnet-4-6", max_tokens=4096, messages=MESSAGES, tools=[tool])  # type: ignore[arg-type, list-item]

    return sdk, lambda: client.complete(MESSAGES, tools=[WEATHER])


LABELS = {
    "OpenAI, 1 tool call": openai_pair,
    "OpenAI Responses, 1 call": responses_pair,
    "Anthropic, 1 tool call": anthropic_pair,
}
START_UP = {"`import llmrelay`": "import llmrelay", "`from llmrelay import Client`": "from llmrelay import Client"}


def tables() -> list[Table]:
    calls = Table(
        ["request", "raw SDK", "llmrelay's overhead", "share"],
        list(LABELS),
        f"Per call, {CALLS} calls of each in turn through respx: the raw call's median, and the median of"
        " the differences within each pair (target: under 10% or 150 µs):",
    )
    start_up = Table(
        ["python -c", "time", "over `python -c pass`"],
        list(START_UP),
        "Start-up, medians of 15 fresh interpreters, with bytecode (target: under 60 ms more):",
    )
    return [calls, start_up]


def call_overhead(table: Table) -> None:
    with mock_http() as router:
        router.post("https://api.openai.com/v1/chat/completions").respond(200, json=OPENAI_ANSWER)
        router.post("https://api.anthropic.com/v1/messages").respond(200, json=ANTHROPIC_ANSWER)
        router.post("https://api.openai.com/v1/responses").respond(200, json=RESPONSES_ANSWER)
        for label, make in LABELS.items():
            sdk, relay = make()
            relay(), sdk()  # Warm up: lazy imports and client construction are not per-call costs.
            sdks, relays = paired(sdk, relay, CALLS)
            raw, overhead = median(sdks), median([r - s for r, s in zip(relays, sdks, strict=True)])
            cells = (f"{raw * 1e6:.0f} µs", f"{overhead * 1e6:+.0f} µs", f"{overhead / raw:+.1%}")
            table.fill(label, *cells, missed=overhead > max(0.10 * raw, 150e-6))


def start_up(table: Table, runs: int = 15) -> None:
    """Median wall times of fresh interpreters, each code run in turn so that load affects all alike.

    With bytecode, as an installed package runs (pip compiles it): a `PYTHONDONTWRITEBYTECODE`
    environment would otherwise compile every module of the package from source on each start
    (~80 ms of it), which no user's import pays. The bytecode goes to a cache of its own, filled
    by one run of each code before the timed ones, so nothing is written in the source tree.
    """
    codes = ["pass", *START_UP.values()]
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        times: dict[str, list[float]] = {code: [] for code in codes}
        for run in range(runs + 1):
            for code in codes:
                started = time.perf_counter()
                subprocess.run([sys.executable, "-c", code], check=True, env=environment)
                if run:  # The first run fills the bytecode cache.
                    times[code].append(time.perf_counter() - started)
    bare = median(times["pass"])
    for label, code in START_UP.items():
        extra = median(times[code]) - bare
        table.fill(label, f"{median(times[code]) * 1000:.1f} ms", f"+{extra * 1000:.1f} ms", missed=extra > 0.060)


def main() -> int:
    done = tables()
    call_overhead(done[0])
    start_up(done[1])
    print("\n\n".join([*(t.markdown() for t in done), verdict(done)]))
    if "--write" in sys.argv[1:]:
        write_results("call_overhead", "python benchmarks/call_overhead.py", done)
    return 1 if "--check" in sys.argv[1:] and any(t.missed for t in done) else 0


if __name__ == "__main__":
    raise SystemExit(main())
