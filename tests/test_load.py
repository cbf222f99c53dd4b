"""Many requests at once through one client: they really overlap, answers never mix, nothing leaks.

Two kinds of check, and what each can honestly show:

- Through `mock_http` (respx, no sockets): 1000 concurrent `AsyncClient.complete` calls and 100
  concurrent streams, each held at a barrier inside the mocked transport until all of them are in
  flight at once (so the concurrency is proven, not assumed). Checked after: every answer is the
  one to its own question, no asyncio task is left, no file descriptor is left open, and memory
  neither peaks past a per-request bound nor grows from one round to the next.
- Through `WireServer` (a real HTTP server on loopback): the sockets this process holds. The SDKs
  keep idle connections in a pool for reuse, so "no leak" means the count is bounded by that pool
  and does not grow with the number of requests, nor after streams the caller broke out of.

And sharing: one `Client` used by many threads, one `AsyncClient` by many tasks; the adapters are
built once per provider (when the client is made), and the capability learner stays consistent.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import threading
import time
import tracemalloc
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

import httpx
import pytest

from llmrelay import AsyncClient, Client, StreamEnd, TextDelta, errors
from llmrelay._types import RawResponse, Request
from llmrelay.adapters import ProviderOptions, register_adapter
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import FakeAdapter, mock_http
from llmrelay.testing._wire_server import Reply, WireServer

URL = "https://api.openai.com/v1/chat/completions"
MODEL = "openai:gpt-4o-mini"


def question(request: httpx.Request) -> str:
    return str(json.loads(request.content)["messages"][-1]["content"])


def answer_to(text: str) -> str:
    return f"Answer to {text}."


def chat_body(text: str) -> dict[str, Any]:
    message = {"role": "assistant", "content": text}
    usage = {"prompt_tokens": 5, "completion_tokens": 4, "total_tokens": 9}
    choice = {"index": 0, "finish_reason": "stop", "message": message}
    return {
        "id": "c-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [choice],
        "usage": usage,
    }


def chat_stream(text: str) -> bytes:
    """`text` streamed in three pieces, as Chat Completions sends it."""
    cut = len(text) // 3
    chunks = [{"content": text[:cut]}, {"content": text[cut : 2 * cut]}, {"content": text[2 * cut :]}]
    events = [{"id": "c-1", "model": "gpt-4o-mini", "choices": [{"index": 0, "delta": d}]} for d in chunks]
    events.append(
        {"id": "c-1", "model": "gpt-4o-mini", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    )
    return ("".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n").encode()


class Barrier:
    """Holds each mocked request until `size` are in flight at once; counts the most ever in flight."""

    def __init__(self, size: int, timeout: float = 20.0) -> None:
        self.size, self.timeout = size, timeout
        self.in_flight = self.most = 0
        self._all_in: asyncio.Event | None = None

    async def wait(self) -> None:
        if self._all_in is None:
            self._all_in = asyncio.Event()
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        if self.in_flight == self.size:
            self._all_in.set()
        try:
            await asyncio.wait_for(self._all_in.wait(), self.timeout)
        finally:
            self.in_flight -= 1
        if self.in_flight == 0:
            self._all_in = None  # The next round waits for its own.


def echo(barrier: Barrier, *, stream: bool = False) -> Callable[[httpx.Request], Awaitable[httpx.Response]]:
    """A mocked endpoint answering each question with its own answer, once everyone is in flight."""

    async def answer(request: httpx.Request) -> httpx.Response:
        text = answer_to(question(request))
        await barrier.wait()
        if stream:
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=chat_stream(text))
        return httpx.Response(200, json=chat_body(text))

    return answer


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def open_sockets() -> int:
    """Sockets this process holds (client and loopback-server ends alike)."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}").startswith("socket:")
        except OSError:  # Closed while listing.
            pass
    return count


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts file descriptors in /proc")


def async_client(**options: Any) -> AsyncClient:
    settings: dict[str, Any] = {"api_key": "test-key", "learner": CapabilityLearner(), **options}
    return AsyncClient(MODEL, **settings)


# --- 1000 requests, 100 streams at once ----------------------------------------------------------


async def complete_all(client: AsyncClient, questions: list[str]) -> list[str]:
    results = await asyncio.gather(*(client.complete(q) for q in questions))
    return [result.content for result in results]


async def stream_all(client: AsyncClient, questions: list[str]) -> list[tuple[str, str]]:
    async def one(text: str) -> tuple[str, str]:
        shown, final = "", ""
        async for event in client.stream(text):
            if isinstance(event, TextDelta):
                shown += event.text
            elif isinstance(event, StreamEnd):
                final = event.completion.content
        return shown, final

    return list(await asyncio.gather(*(one(q) for q in questions)))


@needs_proc
async def test_a_thousand_concurrent_completes_are_all_in_flight_at_once_and_leave_nothing_behind() -> None:
    size = 1000
    barrier = Barrier(size)
    questions = [f"question {i}" for i in range(size)]
    with mock_http() as router:
        router.post(URL).mock(side_effect=echo(barrier))
        client = async_client()
        barrier.size = 10
        await complete_all(client, questions[:10])  # Warm up: SDK client, imports, caches.
        barrier.size = size
        tasks, fds = asyncio.all_tasks(), open_fds()

        answers = await complete_all(client, questions)

        assert barrier.most == size, "every request was in flight at the same time"
        assert answers == [answer_to(q) for q in questions], "each answer is its own question's"
        assert asyncio.all_tasks() == tasks
        assert open_fds() == fds
        assert len(router.calls) == size + 10


@needs_proc
async def test_a_hundred_concurrent_streams_are_all_open_at_once_and_leave_nothing_behind() -> None:
    size = 100
    barrier = Barrier(size)
    questions = [f"question {i}" for i in range(size)]
    with mock_http() as router:
        router.post(URL).mock(side_effect=echo(barrier, stream=True))
        client = async_client()
        barrier.size = 5
        await stream_all(client, questions[:5])
        barrier.size = size
        tasks, fds = asyncio.all_tasks(), open_fds()

        streamed = await stream_all(client, questions)

        assert barrier.most == size
        assert streamed == [(answer_to(q), answer_to(q)) for q in questions], "text shown == final content, per stream"
        assert asyncio.all_tasks() == tasks
        assert open_fds() == fds


async def test_memory_is_bounded_per_request_and_does_not_grow_across_rounds() -> None:
    size, rounds = 100, 4
    barrier = Barrier(size)
    questions = [f"question {i}" for i in range(size)]
    with mock_http() as router:
        router.post(URL).mock(side_effect=echo(barrier))
        client = async_client()
        await complete_all(client, questions)  # Warm up outside the measure.
        router.reset()
        gc.collect()
        tracemalloc.start()
        try:
            after: list[int] = []
            peaks: list[int] = []
            for round in range(rounds):
                tracemalloc.reset_peak()
                start = tracemalloc.get_traced_memory()[0]
                await complete_all(client, [f"{q} of round {round}" for q in questions])  # New text: no cache hits.
                router.reset()  # respx keeps every call (router and route): the test's record, not the client's.
                gc.collect()
                peaks.append(tracemalloc.get_traced_memory()[1] - start)
                after.append(held_outside_the_mock())
        finally:
            tracemalloc.stop()
    # While in flight, each request holds its request, response and parse state: about 35 KB measured.
    assert max(peaks) / size < 100_000, f"peak per request in flight: {max(peaks) / size:.0f} bytes"
    # Afterwards nothing is kept per request (the smallest leaked object, an empty dict, is 64 bytes;
    # a response several KB). Round 1 still fills caches (compiled regexes and the like): measured
    # from round 2 on, under 30 bytes a request, the noise of tracemalloc's own bookkeeping.
    growth = after[-1] - after[1]
    assert growth / (size * (rounds - 2)) < 100, f"memory held after each round: {after}"


def held_outside_the_mock() -> int:
    """Bytes traced now, minus what respx allocated (its route matching caches strings per request)."""
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, "*/respx/*"), tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    return sum(stat.size for stat in snapshot.statistics("filename"))


# --- real sockets: the connections held stay bounded --------------------------------------------


def settled_sockets(timeout: float = 3.0) -> int:
    """The socket count once it stops changing (the server closes its ends a moment after the client)."""
    deadline, last = time.monotonic() + timeout, -1
    while time.monotonic() < deadline:
        now = open_sockets()
        if now == last:
            return now
        last = now
        time.sleep(0.05)
    return last


@needs_proc
async def test_connections_stay_bounded_by_concurrency_and_broken_off_streams_release_theirs() -> None:
    """4 rounds of 20 requests at once: a leaked connection per request would be 80 and more."""
    size = 20
    with WireServer([Reply("Hi there.")] * (size * 4)) as server:
        client = async_client(base_url=server.base_url_for("openai"))
        before = settled_sockets()
        held = []
        for _ in range(2):
            await complete_all(client, ["Hello?"] * size)
            held.append(settled_sockets() - before)

        async def break_off() -> None:
            async for event in client.stream("Hello?"):
                if isinstance(event, TextDelta):
                    break  # The rest of the body is never read: its connection must not stay checked out.

        await asyncio.gather(*(break_off() for _ in range(size)))
        await complete_all(client, ["Hello?"] * size)
        held.append(settled_sockets() - before)
        await client.aclose()
        assert settled_sockets() <= before

    # The pool keeps at most one connection per request that was in flight at once, two ends each
    # (client and server both live in this process); never one per request made.
    assert all(0 < count <= 2 * size for count in held), held
    assert len(server.requests) == size * 4


# --- sharing a client between threads and tasks -------------------------------------------------


def test_one_client_shared_by_threads_answers_each_thread_its_own_question() -> None:
    threads, rounds = 16, 10
    gate = threading.Barrier(threads, timeout=10)

    def answer(request: httpx.Request) -> httpx.Response:
        gate.wait()  # Every thread's request is in flight before any is answered.
        return httpx.Response(200, json=chat_body(answer_to(question(request))))

    with mock_http() as router:
        router.post(URL).mock(side_effect=answer)
        client = Client(MODEL, api_key="test-key", learner=CapabilityLearner())

        def ask(worker: int) -> list[tuple[str, str]]:
            asked = [f"question {worker}-{i}" for i in range(rounds)]
            return [(q, client.complete(q).content) for q in asked]

        with ThreadPoolExecutor(threads) as pool:
            answered = [pair for pairs in pool.map(ask, range(threads)) for pair in pairs]

    assert len(answered) == threads * rounds
    assert all(content == answer_to(q) for q, content in answered)


def test_a_shared_fake_adapter_plays_each_scripted_answer_exactly_once() -> None:
    threads, rounds = 8, 25
    script = [f"answer {i}" for i in range(threads * rounds)]
    fake = FakeAdapter(script)
    client = Client(MODEL, adapter=fake, learner=CapabilityLearner())
    with ThreadPoolExecutor(threads) as pool:
        got = list(pool.map(lambda i: client.complete(f"q{i}").content, range(threads * rounds)))
    assert sorted(got) == sorted(script), "none lost, none played twice"
    assert sorted(r.messages[-1].content for r in fake.requests) == sorted(f"q{i}" for i in range(len(script)))


class Counted:
    """An adapter that counts how many were built (slowly, to widen any race), answering "ok"."""

    provider: ClassVar[str] = "counted"
    built: ClassVar[int] = 0
    lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, options: ProviderOptions) -> None:
        time.sleep(0.02)
        with Counted.lock:
            Counted.built += 1

    def send(self, request: Request) -> RawResponse:
        return RawResponse("counted", request.model, "ok", finish_reason="stop")

    async def asend(self, request: Request) -> RawResponse:
        return self.send(request)


@pytest.fixture
def counted() -> Iterator[type[Counted]]:
    Counted.built = 0
    register_adapter("counted", Counted)
    yield Counted
    from llmrelay import adapters

    adapters._registered.pop("counted", None)


def test_adapters_are_built_once_per_provider_however_many_threads_ask(counted: type[Counted]) -> None:
    client = Client(MODEL, api_key="test-key", fallback_models=["counted:backup"], learner=CapabilityLearner())
    assert counted.built == 1  # Built with the client: the plan's providers fail early, not mid-request.
    with ThreadPoolExecutor(16) as pool:
        adapters = set(pool.map(lambda _: id(client._adapter_for("counted")), range(64)))
    assert (counted.built, len(adapters)) == (1, 1)

    late = Client(MODEL, api_key="test-key", learner=CapabilityLearner())
    with ThreadPoolExecutor(16) as pool:  # A provider outside the plan, first asked for by 16 threads at once.
        adapters = set(pool.map(lambda _: id(late._adapter_for("counted")), range(16)))
    assert (counted.built, len(adapters)) == (2, 1)


class RefusesTools:
    """A provider whose model refuses the tool API (as a 400 would say), and answers every other mode."""

    provider: ClassVar[str] = "openai"

    def __init__(self) -> None:
        self.modes: list[str] = []
        self.lock = threading.Lock()

    def send(self, request: Request) -> RawResponse:
        with self.lock:
            self.modes.append(request.mode)
        time.sleep(0.001)
        if request.mode == "native_tools":
            raise errors.UnsupportedFeatureError("tools are not supported", feature="native_tools", provider="openai")
        return RawResponse("openai", request.model, "No call needed.", finish_reason="stop")

    async def asend(self, request: Request) -> RawResponse:
        return self.send(request)


def test_what_one_thread_learns_every_thread_uses_and_the_learner_stays_consistent() -> None:
    def get_weather(city: str) -> str:
        """Weather for a city."""
        return "sunny"

    adapter, learner = RefusesTools(), CapabilityLearner()
    client = Client(MODEL, adapter=adapter, learner=learner)
    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(lambda _: client.complete("Weather?", tools=[get_weather]), range(64)))

    assert {r.content for r in results} == {"No call needed."}
    refused = adapter.modes.count("native_tools")
    assert 1 <= refused <= 16, "at most each thread's first request asked before the refusal was learned"
    assert list(learner.learned("openai", "gpt-4o-mini")) == ["native_tools"]
    adapter.modes.clear()
    client.complete("Weather?", tools=[get_weather])
    assert adapter.modes == ["json_schema"], "learned: the tool API is not asked again"


async def test_one_async_client_shared_by_tasks_answers_each_its_own_question() -> None:
    """Tasks interleave at every await: state of one request must never be another's."""
    tasks = 200
    barrier = Barrier(tasks)
    with mock_http() as router:
        router.post(URL).mock(side_effect=echo(barrier))
        client = async_client()
        asked = [f"question {i}" for i in range(tasks)]
        results = await asyncio.gather(*(client.complete(q, temperature=i / tasks) for i, q in enumerate(asked)))
        sent = {question(call.request): json.loads(call.request.content)["temperature"] for call in router.calls}
    assert [r.content for r in results] == [answer_to(q) for q in asked]
    assert sent == {q: i / tasks for i, q in enumerate(asked)}, "each request carried its own parameters"
