"""What llmrelay adds to a provider call, and to interpreter start-up.

Run: python benchmarks/call_overhead.py [--check]

1. The same request with one tool, answered by the same mocked HTTP response (respx, no network),
   made N times through the raw SDK and through `llmrelay.Client.complete`, for OpenAI (Chat
   Completions and the Responses API) and Anthropic. Target: overhead under 10% of the raw call,
   or under 150 µs, whichever is larger.
2. `python -c "import llmrelay"` against `python -c pass`. Target: under 60 ms more.

Timings are the best of several repeats. With --check the script exits 1 when a target is missed.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

import llmrelay
from llmrelay.testing import mock_http

CALLS = 300
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


def best_of(function: Callable[[], object], repeat: int = 5) -> float:
    """Seconds per call: the best of `repeat` runs of CALLS calls."""
    return min(timeit.repeat(function, number=CALLS, repeat=repeat)) / CALLS


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


def call_overhead() -> list[tuple[str, float, float]]:
    rows = []
    with mock_http() as router:
        router.post("https://api.openai.com/v1/chat/completions").respond(200, json=OPENAI_ANSWER)
        router.post("https://api.anthropic.com/v1/messages").respond(200, json=ANTHROPIC_ANSWER)
        router.post("https://api.openai.com/v1/responses").respond(200, json=RESPONSES_ANSWER)
        pairs = (
            ("OpenAI, 1 tool call", openai_pair),
            ("OpenAI Responses, 1 call", responses_pair),
            ("Anthropic, 1 tool call", anthropic_pair),
        )
        for label, make in pairs:
            sdk, relay = make()
            relay(), sdk()  # Warm up: lazy imports and client construction are not per-call costs.
            rows.append((label, best_of(sdk), best_of(relay)))
    return rows


def start_up(code: str, runs: int = 15) -> float:
    """Median wall time of `python -c code` in a fresh interpreter (median: start-up is noisy)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    check = "--check" in sys.argv[1:]
    missed = []
    print(f"Per call, best of 5 x {CALLS} calls through respx (target: overhead < 10% or < 150 µs)\n")
    print(f"{'request':26} {'raw SDK':>10} {'llmrelay':>10} {'overhead':>10} {'share':>7}")
    for label, sdk, relay in call_overhead():
        overhead = relay - sdk
        share = overhead / sdk
        print(f"{label:26} {sdk * 1e6:8.0f}µs {relay * 1e6:8.0f}µs {overhead * 1e6:8.0f}µs {share:6.1%}")
        if overhead > max(0.10 * sdk, 150e-6):
            missed.append(label)
    bare, relay_import = start_up("pass"), start_up("import llmrelay")
    print(
        f"\nimport llmrelay: {relay_import * 1000:.1f} ms vs python -c pass: {bare * 1000:.1f} ms "
        f"(+{(relay_import - bare) * 1000:.1f} ms; target < 60 ms)"
    )
    if relay_import - bare > 0.060:
        missed.append("import llmrelay")
    print("\nall targets met" if not missed else f"\ntargets missed: {', '.join(missed)}")
    return 1 if check and missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
