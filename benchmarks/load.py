"""Throughput and memory under load: many concurrent requests and streams through one `AsyncClient`.

Run: python benchmarks/load.py [--requests 5000] [--streams 1000] [--concurrency 500] [--write]

HTTP is mocked (`mock_http`, respx: no sockets), each answer held back by a small async delay so
that requests really overlap (the most in flight at once is reported). Measured, for the raw
`openai.AsyncOpenAI` SDK and for `llmrelay.AsyncClient.complete` / `.stream` in the same run:
requests per second, the traced memory peak per request in flight (tracemalloc, which itself
slows the run: throughput is measured in a separate pass without it), and the memory still held
after the traced pass (respx's own allocations left out; the raw SDK's row shows what the SDK and
the mock keep, e.g. caches, so llmrelay's cost is the difference between rows; the per-round
no-growth check is tests/test_load.py's). The numbers are this machine's; compare rows, not runs on other machines.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from _results import Table, report, write_results

import llmrelay
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

URL = "https://api.openai.com/v1/chat/completions"
DELAY = 0.005


class InFlight:
    """Counts requests inside the mocked server, and the most at once."""

    def __init__(self) -> None:
        self.now = self.most = 0

    async def hold(self) -> None:
        self.now += 1
        self.most = max(self.most, self.now)
        await asyncio.sleep(DELAY)
        self.now -= 1


def body(text: str) -> dict[str, Any]:
    message = {"role": "assistant", "content": text}
    choice = {"index": 0, "finish_reason": "stop", "message": message}
    usage = {"prompt_tokens": 5, "completion_tokens": 4, "total_tokens": 9}
    return {
        "id": "c-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [choice],
        "usage": usage,
    }


def stream_body(text: str) -> bytes:
    words = text.split(" ")
    deltas = [{"content": w + (" " if i < len(words) - 1 else "")} for i, w in enumerate(words)]
    events = [{"id": "c-1", "model": "gpt-4o-mini", "choices": [{"index": 0, "delta": d}]} for d in deltas]
    events.append(
        {"id": "c-1", "model": "gpt-4o-mini", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    )
    return ("".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n").encode()


def endpoint(flight: InFlight) -> Callable[[httpx.Request], Awaitable[httpx.Response]]:
    async def answer(request: httpx.Request) -> httpx.Response:
        payload = json.loads(request.content)
        text = f"The answer to {payload['messages'][-1]['content']} is forty-two."
        await flight.hold()
        if payload.get("stream"):
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=stream_body(text))
        return httpx.Response(200, json=body(text))

    return answer


async def bounded(count: int, concurrency: int, one: Callable[[int], Awaitable[str]]) -> list[str]:
    gate = asyncio.Semaphore(concurrency)

    async def run(i: int) -> str:
        async with gate:
            return await one(i)

    return list(await asyncio.gather(*(run(i) for i in range(count))))


def workloads(requests: int, streams: int) -> dict[str, tuple[int, Callable[[], Callable[[int], Awaitable[str]]]]]:
    def raw_sdk() -> Callable[[int], Awaitable[str]]:
        import openai

        sdk = openai.AsyncOpenAI(api_key="test-key", max_retries=0)

        async def one(i: int) -> str:
            answer = await sdk.chat.completions.create(
                model="gpt-4o-mini", messages=[{"role": "user", "content": f"question {i}"}]
            )
            return answer.choices[0].message.content or ""

        return one

    def complete() -> Callable[[int], Awaitable[str]]:
        client = llmrelay.AsyncClient("openai:gpt-4o-mini", api_key="test-key", learner=CapabilityLearner())

        async def one(i: int) -> str:
            return (await client.complete(f"question {i}")).content

        return one

    def stream() -> Callable[[int], Awaitable[str]]:
        client = llmrelay.AsyncClient("openai:gpt-4o-mini", api_key="test-key", learner=CapabilityLearner())

        async def one(i: int) -> str:
            text = ""
            async for event in client.stream(f"question {i}"):
                if isinstance(event, llmrelay.TextDelta):
                    text += event.text
            return text

        return one

    return {
        "raw openai SDK": (requests, raw_sdk),
        "llmrelay complete": (requests, complete),
        "llmrelay stream": (streams, stream),
    }


WORKLOADS = ("raw openai SDK", "llmrelay complete", "llmrelay stream")


def tables() -> list[Table]:
    columns = [
        "workload",
        "requests",
        "throughput",
        "most in flight",
        "peak memory per request in flight",
        "held after",
    ]
    title = f"Many requests at once through `AsyncClient`, mocked answers delayed {DELAY * 1000:.0f} ms:"
    return [Table(columns, list(WORKLOADS), title)]


async def measure(
    table: Table, name: str, count: int, make: Callable[[], Callable[[int], Awaitable[str]]], concurrency: int
) -> None:
    flight = InFlight()
    with mock_http() as router:
        router.post(URL).mock(side_effect=endpoint(flight))
        one = make()
        await bounded(min(count, 50), concurrency, one)  # Warm up: imports, SDK client, caches.
        router.reset()
        started = time.perf_counter()
        answers = await bounded(count, concurrency, one)
        elapsed = time.perf_counter() - started
        assert all(a == f"The answer to question {i} is forty-two." for i, a in enumerate(answers)), name
        router.reset()  # respx records every call: its memory, not the client's.

        gc.collect()
        tracemalloc.start()
        before, start = outside_respx(), tracemalloc.get_traced_memory()[0]
        await bounded(count, concurrency, one)
        router.reset()
        gc.collect()
        peak, held = tracemalloc.get_traced_memory()[1] - start, outside_respx() - before
        tracemalloc.stop()
    in_flight = min(count, concurrency)
    per_request, kept = peak / in_flight / 1024, held / 1024
    cells = (f"{count}", f"{count / elapsed:.0f} req/s", f"{flight.most}", f"{per_request:.1f} KB", f"{kept:.1f} KB")
    table.fill(name, *cells)
    print(f"{name}: " + ", ".join(cells), flush=True)


def outside_respx() -> int:
    """Bytes traced now, minus respx's (its route matching keeps strings per request: the mock's, not ours)."""
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, "*/respx/*"), tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    return sum(stat.size for stat in snapshot.statistics("filename"))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=500)
    parser.add_argument("--write", action="store_true", help="write the table where the README shows it")
    args = parser.parse_args()
    done = tables()
    for name, (count, make) in workloads(args.requests, args.streams).items():
        await measure(done[0], name, count, make, args.concurrency)
    print(report(done))
    if args.write:
        write_results("load", "python benchmarks/load.py", done)


if __name__ == "__main__":
    asyncio.run(main())
