"""`Client.stream` / `AsyncClient.stream`: the pipeline's rules, the pieces it is made of, and the text property."""

from __future__ import annotations

import inspect
import json
import re
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import llmrelay
from llmrelay import (
    NotFoundError,
    RateLimitError,
    RetryPolicy,
    StreamEnd,
    StreamEvent,
    StreamInterrupted,
    TextDelta,
    ToolCall,
    ToolCallComplete,
)
from llmrelay._envelope import Usage
from llmrelay._pipeline.assemble import Assembler
from llmrelay._tools import to_tool
from llmrelay._types import NativeCall, RawResponse
from llmrelay.adapters import CallEnd, CallPiece, Finish, TextPiece
from llmrelay.adapters._sse import EventDecoder, ServerEvent
from llmrelay.testing import FakeAdapter, mock_http

URL = "https://api.openai.com/v1/chat/completions"


def get_weather(city: str) -> str:
    """The forecast for a city."""
    return ""


def final(events: list[StreamEvent]) -> llmrelay.Completion:
    assert isinstance(events[-1], StreamEnd) and sum(isinstance(e, StreamEnd) for e in events) == 1
    return events[-1].completion


def shown_text(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


# --- partial arguments ---------------------------------------------------------------------------


def test_partial_arguments_are_read_again_often_enough_and_never_quadratically(monkeypatch: pytest.MonkeyPatch) -> None:
    from llmrelay.normalize._growing_json import GrowingObject
    from llmrelay.normalize._partial_json import GrowingArguments

    reads: list[int] = []  # The length of each text decoded (a pass over the arguments so far).
    real = GrowingObject._decode
    monkeypatch.setattr(GrowingObject, "_decode", staticmethod(lambda text: reads.append(len(text)) or real(text)))
    arguments = json.dumps({"path": "notes.txt", "text": "x" * 200_000, "mode": "w"})
    partial = GrowingArguments()
    seen = [partial.read(arguments[:end]) for end in range(4, len(arguments) + 1, 4)]
    assert sum(reads) < 8 * len(arguments), "the text was read again far too often"
    assert seen[0] is None and all(not v or "notes.txt".startswith(v["path"]) for v in seen), "older readings stay true"
    assert seen[-1] is not None and len(seen[-1].get("text", "")) > 150_000, "and are never far behind"
    short = GrowingArguments()  # Short arguments are read on every delta.
    assert [short.read(t) for t in ('{"city": "Pa', '{"city": "Paris", "days": 3}')] == [
        {"city": "Pa"},
        {"city": "Paris", "days": 3},
    ]


# --- the event decoder -----------------------------------------------------------------------------

DECODED = [
    ("data: a\n\n", [ServerEvent(None, "a")]),
    ("data: a\r\n\r\n", [ServerEvent(None, "a")]),
    ("data: a\r\rdata:b\r\r", [ServerEvent(None, "a"), ServerEvent(None, "b")]),
    ("event: error\ndata: {}\n\n", [ServerEvent("error", "{}")]),
    ("data: one\ndata: two\n\n", [ServerEvent(None, "one\ntwo")]),
    (": OPENROUTER PROCESSING\n\ndata: x\n\n", [ServerEvent(None, "x")]),
    ("\n\n\ndata: x\n\n", [ServerEvent(None, "x")]),
    ("data: whole line, no blank line after it\n", [ServerEvent(None, "whole line, no blank line after it")]),
    ("data: {cut off mid-li", []),
    (
        '[{"a": "]}"},\n{"b": [1, {"c": 2}]}]',
        [ServerEvent(None, '{"a": "]}"}'), ServerEvent(None, '{"b": [1, {"c": 2}]}')],
    ),
    ('[{"a": 1}, {"b"', [ServerEvent(None, '{"a": 1}')]),
    # Issue 12: the decoder was rewritten to scan each piece once; these pin the edges it must keep.
    ('[{"a": "\\"}", "b": "\\\\"}]', [ServerEvent(None, '{"a": "\\"}", "b": "\\\\"}')]),
    ("data: a\r\n\ndata: b\n\r\n", [ServerEvent(None, "a"), ServerEvent(None, "b")]),
    ("data: a\n\n\n\n\r\n\r\r\ndata: b\n\n", [ServerEvent(None, "a"), ServerEvent(None, "b")]),
    ("  \n\r\n \ndata: x\n\n", [ServerEvent(None, "x")]),
    ("\n\n  data: ignored\ndata: kept\n\n", [ServerEvent(None, "kept")]),
    ("\r\n\r\n\n[{}]", [ServerEvent(None, "{}")]),
    ("data: a\n:c1\r\n:c2\r: c3\n\n:c4\ndata: b\n:c5\n\n", [ServerEvent(None, "a"), ServerEvent(None, "b")]),
    (":only\n:comments\r\n\n", []),
    ("data: a\n:c\ndata: b\n\n", [ServerEvent(None, "a\nb")]),  # A comment between data lines.
    # Issue 13: runs of plain `data: ` lines are read in bulk; these pin what that path must keep.
    (
        "data: a\n\ndata: b\ndata: c\n\ndata: d\n\n",
        [ServerEvent(None, "a"), ServerEvent(None, "b\nc"), ServerEvent(None, "d")],
    ),
    (
        "data: \n\ndata: \ndata: \n\ndata: x\n\n",
        [ServerEvent(None, ""), ServerEvent(None, "\n"), ServerEvent(None, "x")],
    ),
    ("data:x\n\ndata:  y\ndata\n\n", [ServerEvent(None, "x"), ServerEvent(None, " y\n")]),  # No space; no colon.
    (
        "data:a\n\ndata:b\ndata:\n\ndata:data: c\n\n",
        [ServerEvent(None, "a"), ServerEvent(None, "b\n"), ServerEvent(None, "data: c")],
    ),
    ("data:a\ndata: b\ndata:  c\n\n", [ServerEvent(None, "a\nb\n c")]),  # With and without the space.
    ("event: e\ndata: a\n\ndata: b\n\n", [ServerEvent("e", "a"), ServerEvent(None, "b")]),
    ("data: a\nevent: e\n\ndata: b\n\n", [ServerEvent("e", "a"), ServerEvent(None, "b")]),
    ("data: a\ndata: data: b\n\n", [ServerEvent(None, "a\ndata: b")]),
    ("data: a\x00b\n\ndata: c\n\n", [ServerEvent(None, "a\x00b"), ServerEvent(None, "c")]),
    ("id: 7\nretry: 10\ndata: a\n\nid\n\n", [ServerEvent(None, "a")]),  # Fields we do not use.
    ("event: e\n\ndata: a\n\n", [ServerEvent(None, "a")]),  # No data: no event, and its type is gone.
    ("\ufeffdata: a\n\n", [ServerEvent(None, "a")]),  # A byte order mark opens the stream.
    ("\ufeff[{}]", [ServerEvent(None, "{}")]),
    ("data: \ufeffa\n\n", [ServerEvent(None, "\ufeffa")]),  # Only at the very start.
    ("data: a\ndata: b", []),  # The last line cut off: the event is not whole.
    ("data: a\r\ndata: b\r\n", [ServerEvent(None, "a\nb")]),  # The last event without its blank line.
]


@pytest.mark.parametrize(("body", "expected"), DECODED, ids=[repr(b[:30]) for b, _ in DECODED])
@pytest.mark.parametrize("size", [1, 2, 5, 1000])
def test_event_decoder_reads_sse_and_json_arrays_however_split(
    body: str, expected: list[ServerEvent], size: int
) -> None:
    data = body.encode()
    decoder = EventDecoder()
    events = [event for start in range(0, len(data), size) for event in decoder.feed(data[start : start + size])]
    assert events + decoder.end() == expected


PIECES = [  # An event begun in one piece and ended in the next, at the edges of the bulk path.
    ([b"event: e\n", b"data: a\n\ndata: b\n\n"], [ServerEvent("e", "a"), ServerEvent(None, "b")]),
    ([b"data: a\n", b"data: b\n\ndata: c\n\n"], [ServerEvent(None, "a\nb"), ServerEvent(None, "c")]),
    ([b"data: a\n", b"\n\ndata: c\n\n"], [ServerEvent(None, "a"), ServerEvent(None, "c")]),
    ([b"data: a\r", b"\ndata: b\r\n\r", b"\n"], [ServerEvent(None, "a\nb")]),
    ([b"data: a\ndat", b"a: b\n\n"], [ServerEvent(None, "a\nb")]),
    ([b"data: a\n: c\n", b"data: b\n\n"], [ServerEvent(None, "a\nb")]),
    ([b"\xef\xbb", b"\xbfdata: a\n\n"], [ServerEvent(None, "a")]),  # A byte order mark split in two.
]


@pytest.mark.parametrize(("pieces", "expected"), PIECES)
def test_event_decoder_joins_events_across_pieces(pieces: list[bytes], expected: list[ServerEvent]) -> None:
    decoder = EventDecoder()
    assert [e for piece in pieces for e in decoder.feed(piece)] + decoder.end() == expected


def whatwg_events(body: str) -> list[ServerEvent]:
    """The events of a whole SSE body, read line by line as the WHATWG text says (the reference)."""
    *lines, cut = re.split("\r\n|\r|\n", body.removeprefix("\ufeff"))
    # The last event counts without its blank line (llmrelay's choice), unless its last line is cut.
    events, event, data = [], None, []
    for line in [*lines, ""] if not cut else lines:
        if not line:
            events += [ServerEvent(event, "\n".join(data))] if data else []
            event, data = None, []
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            data += [value] if name == "data" else []
            event = value if name == "event" else event
    return events


SSE_PART = st.sampled_from(
    ["data: ", "data:", "data", "event: e", ": c", "id: 1", "x", " ", "\n", "\r", "\r\n", "\x00"]
)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(SSE_PART, max_size=30), cuts=st.lists(st.integers(min_value=1, max_value=200), max_size=6))
def test_event_decoder_reads_sse_as_the_whatwg_text_says_however_split(parts: list[str], cuts: list[int]) -> None:
    body = "\ufeffdata: x\n" + "".join(parts)  # Opens as SSE, never as a JSON array.
    data = body.encode()
    positions = sorted({c % len(data) for c in cuts} - {0})
    decoder = EventDecoder()
    events = [e for a, b in zip([0, *positions], [*positions, len(data)], strict=True) for e in decoder.feed(data[a:b])]
    assert events + decoder.end() == whatwg_events(body)


@pytest.mark.parametrize(
    "body",
    [
        b"data: " + b"x" * 8_000_000 + b"\n\n",  # One 8 MB line: 18 s for 16 MB before issue 12.
        b"\n" * 8_000_000 + b"data: x\n\n",  # 8 MB of blank lines first: seconds before.
        b'[{"text": "' + b"x" * 8_000_000 + b'"}]',  # One huge JSON array item.
    ],
    ids=["one data line", "blank lines", "json array item"],
)
def test_event_decoder_is_linear_on_hostile_bodies(body: bytes) -> None:
    decoder = EventDecoder()
    started = time.perf_counter()
    events = [e for start in range(0, len(body), 1024) for e in decoder.feed(body[start : start + 1024])]
    events += decoder.end()
    assert len(events) == 1
    # Linear runs in about 0.2 s; re-splitting the text so far on each piece took over 10 s.
    assert time.perf_counter() - started < 3


def test_a_json_array_knows_when_it_is_closed() -> None:
    decoder = EventDecoder()
    decoder.feed(b'[{"a": 1}')
    assert decoder.is_json and not decoder.closed
    decoder.feed(b"\n]")
    assert decoder.closed


def test_utf8_split_inside_a_character_is_kept_whole() -> None:
    data = "data: café ☕\n\n".encode()
    decoder = EventDecoder()
    events = [e for i in range(len(data)) for e in decoder.feed(data[i : i + 1])]
    assert events == [ServerEvent(None, "café ☕")]


# --- assembly ------------------------------------------------------------------------------------------


def test_the_assembler_gives_the_raw_response_send_would() -> None:
    assembler = Assembler("openai", "asked-model")
    for chunk in [
        Finish(model="gpt-4o-mini-2024", request_id="req_1"),
        TextPiece("Hel"),
        CallPiece(0, "call_1", "f", '{"a"'),
        TextPiece("lo"),
        CallPiece(0, "call_1", "f", ": 1}"),  # A server repeating id and name: kept once.
        CallPiece(1, None, "g", ""),
        CallEnd(1),
        Finish(reason="tool_calls"),
        Finish(usage=Usage(3, 4, 7)),
    ]:
        assembler.add(chunk)
    raw = assembler.raw()
    assert (raw.text, raw.finish_reason, raw.model, raw.request_id, raw.usage) == (
        "Hello",
        "tool_calls",
        "gpt-4o-mini-2024",
        "req_1",
        Usage(3, 4, 7),
    )
    assert raw.native_calls[0] == NativeCall("f", '{"a": 1}', "call_1")
    made_up = raw.native_calls[1].id
    assert made_up and assembler.raw().native_calls[1].id == made_up, "a made-up id stays the same"


def test_text_streams_before_the_end_and_markup_is_never_shown() -> None:
    from llmrelay._pipeline.stream import text_parser

    parser = text_parser([to_tool(get_weather)], False)
    text = 'Let me check the weather for you. <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
    early = [event for piece in (text[:12], text[12:40], text[40:]) for event in parser.feed(piece)]
    events, result = parser.finish()
    assert shown_text(early) == "Let me check the weather for you."  # Before the end of the answer.
    assert shown_text(early + events) == result.content == "Let me check the weather for you."
    assert [e.call for e in early + events if isinstance(e, ToolCallComplete)] == result.tool_calls


# --- the pipeline, with a scripted provider -----------------------------------------------------------


def test_an_adapter_without_stream_is_streamed_from_its_whole_answer() -> None:
    text = 'Sure. <tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
    fake = FakeAdapter([text])
    client = llmrelay.Client("openai:gpt-4o-mini", adapter=fake, mode="text")
    events = list(client.stream("Weather in Oslo?", tools=[get_weather]))
    result = final(events)
    same = llmrelay.Client("openai:gpt-4o-mini", adapter=FakeAdapter([text]), mode="text").complete(
        "Weather in Oslo?", tools=[get_weather]
    )
    assert (result.content, result.tool_calls, result.format) == (same.content, same.tool_calls, same.format)
    assert shown_text(events) == result.content == "Sure."
    assert [e.call for e in events if isinstance(e, ToolCallComplete)] == [ToolCall("get_weather", {"city": "Oslo"})]


def test_reasoning_streams_apart_from_the_text_and_ends_on_the_completion() -> None:
    # Issue 16: a <think> block is told as ReasoningDelta events, never as text.
    text = '<think>Oslo, one call.</think>Sure. <tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
    client = llmrelay.Client("openai:gpt-4o-mini", adapter=FakeAdapter([text]), mode="text")
    events = list(client.stream("Weather in Oslo?", tools=[get_weather]))
    result = final(events)
    told = "".join(e.text for e in events if isinstance(e, llmrelay.ReasoningDelta))
    assert told == result.reasoning == "Oslo, one call."
    assert shown_text(events) == result.content == "Sure."
    assert [e.call for e in events if isinstance(e, ToolCallComplete)] == [ToolCall("get_weather", {"city": "Oslo"})]


def test_invalid_calls_are_not_repaired_after_a_stream_and_the_trace_says_so() -> None:
    fake = FakeAdapter([NativeCall("get_weather", '{"town": "Oslo"}', "call_1"), "never asked"])
    client = llmrelay.Client("openai:gpt-4o-mini", adapter=fake)
    events = list(client.stream("Weather?", tools=[get_weather]))
    result = final(events)
    assert len(fake.requests) == 1, "no repair round: the answer was already shown"
    assert result.tool_calls == [] and [r.kind for r in result.rejected] == ["invalid_arguments"]
    assert [e.rejected for e in events if isinstance(e, ToolCallComplete)] == result.rejected
    (attempt,) = result.attempts
    assert attempt.outcome == "exhausted" and "not repaired: the answer was streamed" in (attempt.reason or "")


def test_failures_before_the_first_event_fall_back_like_complete() -> None:
    fake = FakeAdapter([NotFoundError("no such model", provider="fake", status=404), "Hello from the fallback."])
    client = llmrelay.Client(
        "openai:gone-model", adapter=fake, fallback_models=["openai:gpt-4o-mini"], retry=RetryPolicy(max_attempts=1)
    )
    result = final(list(client.stream("Hi")))
    assert result.content == "Hello from the fallback."
    assert [(a.model, a.outcome) for a in result.attempts] == [("gone-model", "error"), ("gpt-4o-mini", "ok")]


def test_arguments_are_checked_when_stream_is_called() -> None:
    client = llmrelay.Client("openai:gpt-4o-mini", adapter=FakeAdapter())
    with pytest.raises(llmrelay.ConfigError):
        client.stream("Hi", mode="telepathy")  # type: ignore[arg-type]


def test_stream_signatures_match_between_sync_and_async() -> None:
    sync = inspect.signature(llmrelay.Client.stream).parameters
    asynchronous = inspect.signature(llmrelay.AsyncClient.stream).parameters
    assert sync == asynchronous
    # Everything complete() takes except output= (structured output is not streamed).
    assert list(sync) == [p for p in inspect.signature(llmrelay.Client.complete).parameters if p != "output"]


# --- the pipeline over HTTP: retries before the first event, none after -------------------------------


def chat_sse(text_pieces: list[str], *, done: bool = True) -> bytes:
    chunks = [{"model": "gpt-4o-mini", "choices": [{"index": 0, "delta": {"content": t}}]} for t in text_pieces]
    chunks.append({"model": "gpt-4o-mini", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks)
    return (body + ("data: [DONE]\n\n" if done else "")).encode()


def call_sse() -> bytes:
    call = {"index": 0, "id": "call_1", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"'}}
    chunk = {"model": "gpt-4o-mini", "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}
    return f"data: {json.dumps(chunk)}\n\n".encode()


class Pieces(httpx.SyncByteStream, httpx.AsyncByteStream):
    def __init__(self, parts: list[bytes], *, drop: bool = False) -> None:
        self.parts, self.drop = parts, drop

    def __iter__(self) -> Iterator[bytes]:
        yield from self.parts
        if self.drop:
            raise httpx.ReadError("connection reset by peer")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for part in self:
            yield part


def streaming(parts: list[bytes], *, drop: bool = False) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Pieces(parts, drop=drop))


def no_wait() -> RetryPolicy:
    return RetryPolicy(max_attempts=3, sleep=lambda seconds: None)


def test_a_429_before_the_stream_is_retried() -> None:
    with mock_http() as router:
        route = router.post(URL).mock(
            side_effect=[httpx.Response(429, json={"error": {"message": "slow down"}}), streaming([chat_sse(["Hi"])])]
        )
        result = final(list(llmrelay.Client("openai:gpt-4o-mini", api_key="sk-test", retry=no_wait()).stream("Hi")))
    assert route.call_count == 2
    assert result.content == "Hi" and [a.outcome for a in result.attempts] == ["retry", "ok"]


def test_after_the_first_event_a_failure_is_never_retried() -> None:
    with mock_http() as router:
        route = router.post(URL).mock(side_effect=[streaming([call_sse()], drop=True), streaming([chat_sse(["no"])])])
        client = llmrelay.Client("openai:gpt-4o-mini", api_key="sk-test", retry=no_wait())
        seen: list[StreamEvent] = []
        with pytest.raises(StreamInterrupted) as caught:
            for event in client.stream("Weather?", tools=[get_weather]):
                seen.append(event)
    assert route.call_count == 1
    assert [type(e).__name__ for e in seen] == ["ToolCallStarted", "ToolCallDelta"]
    error = caught.value
    assert isinstance(error, llmrelay.ProviderError) and not isinstance(error, llmrelay.TransientError)
    assert [(r.name, r.kind) for r in error.partial.rejected] == [("get_weather", "truncated")]
    assert "connection reset" in str(error)


def test_a_rate_limit_inside_the_stream_before_any_event_is_retried() -> None:
    """OpenRouter reports a host's 429 inside a 200 stream; nothing was shown, so it is retried."""
    error_chunk = b'data: {"error": {"code": 429, "message": "Rate limit exceeded upstream"}}\n\n'
    with mock_http() as router:
        router.post(URL).mock(side_effect=[streaming([error_chunk]), streaming([chat_sse(["ok"])])])
        result = final(list(llmrelay.Client("openai:gpt-4o-mini", api_key="sk-test", retry=no_wait()).stream("Hi")))
    assert result.content == "ok"
    assert RateLimitError.__name__ in (result.attempts[0].reason or "")


def test_breaking_out_of_a_stream_closes_it() -> None:
    closed: list[bool] = []

    class Watched(Pieces):
        def close(self) -> None:
            closed.append(True)

    with mock_http() as router:
        router.post(URL).mock(return_value=httpx.Response(200, stream=Watched([call_sse(), chat_sse(["x"])])))
        events = llmrelay.Client("openai:gpt-4o-mini", api_key="sk-test").stream("Weather?", tools=[get_weather])
        next(iter(events))
        events.close()  # type: ignore[attr-defined]
    assert closed == [True]


async def test_async_stream_retries_before_and_not_after() -> None:
    with mock_http() as router:
        route = router.post(URL).mock(
            side_effect=[httpx.Response(503), streaming([call_sse()], drop=True), streaming([chat_sse(["no"])])]
        )
        client = llmrelay.AsyncClient(
            "openai:gpt-4o-mini", api_key="sk-test", retry=RetryPolicy(max_attempts=3, async_sleep=_no_sleep)
        )
        with pytest.raises(StreamInterrupted) as caught:
            async for _ in client.stream("Weather?", tools=[get_weather]):
                pass
    assert route.call_count == 2
    assert [a.outcome for a in caught.value.partial.attempts] == ["retry", "error"]


async def _no_sleep(seconds: float) -> None:
    return None


# --- the property: text deltas add up to the content, however the network splits the body ------------

# Text with markup a model may write: every split point of tags, fences and JSON gets tried.
TOKEN = st.sampled_from([*"ab <>/{}\"':\n\\é☕", "<tool_call>", "</tool_call>", "```json", '{"name": "get_weather"'])
TEXT = st.lists(TOKEN, max_size=12).map("".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pieces=st.lists(TEXT, min_size=1, max_size=6), cuts=st.lists(st.integers(min_value=1, max_value=4000), max_size=8)
)
def test_text_deltas_add_up_to_the_content_however_the_body_is_split(pieces: list[str], cuts: list[int]) -> None:
    body = chat_sse(pieces)
    positions = sorted({c % len(body) for c in cuts} - {0})
    parts = [body[a:b] for a, b in zip([0, *positions], [*positions, len(body)], strict=True)]
    with mock_http() as router:
        router.post(URL).mock(return_value=streaming(parts))
        client = llmrelay.Client("openai:gpt-4o-mini", api_key="sk-test", mode="text")
        events = list(client.stream("Hi", tools=[get_weather]))
    result = final(events)
    assert shown_text(events) == result.content
    assert result.raw == "".join(pieces)
    whole = llmrelay.parse_response("".join(pieces), tools=[get_weather])
    assert (result.content, result.tool_calls) == (whole.content, whole.tool_calls)


def test_raw_response_of_a_stream_keeps_what_send_keeps() -> None:
    raw = RawResponse("openai", "m", text="t", native_calls=(NativeCall("f", "{}", "c1"),), finish_reason="stop")
    from llmrelay._pipeline.stream import chunks_of

    assembler = Assembler("openai", "m")
    for chunk in chunks_of(raw):
        assembler.add(chunk)
    assert assembler.raw() == raw


@pytest.mark.parametrize("mode", ["json_schema", "json_object"])
def test_in_json_modes_the_envelope_streams_its_content_and_calls_as_they_arrive(mode: str) -> None:
    envelope = '{"content": "Checking the weather in Oslo.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}], "needs_more_work": true}'
    pieces = [envelope[i : i + 9] for i in range(0, len(envelope), 9)]
    sent: list[int] = []

    class Counted(Pieces):
        def __iter__(self) -> Iterator[bytes]:
            for n, part in enumerate(self.parts):
                sent.append(n)
                yield part

    with mock_http() as router:
        events = chat_sse(pieces).split(b"\n\n")  # One network piece per SSE event.
        router.post(URL).mock(return_value=httpx.Response(200, stream=Counted([e + b"\n\n" for e in events if e])))
        client = llmrelay.Client("openai:gpt-4o-mini", api_key="sk-test", mode=mode)  # type: ignore[arg-type]
        when = [(type(event).__name__, len(sent)) for event in client.stream("Weather in Oslo?", tools=[get_weather])]
    text_at = [n for name, n in when if name == "TextDelta"]
    complete_at = [n for name, n in when if name == "ToolCallComplete"]
    assert text_at and text_at[0] < len(pieces) // 2, "the content streams while the answer arrives"
    assert complete_at and complete_at[0] < len(pieces), "the call completes before the answer ends"
    assert when[-1] == ("StreamEnd", len(pieces) + 2)  # Every piece, the finish chunk and [DONE] were read.


async def test_structured_output_is_refused_by_stream_not_sent_to_the_provider() -> None:
    class Weather(pydantic.BaseModel):
        city: str

    fake = FakeAdapter(["unused"])
    with pytest.raises(llmrelay.ConfigError, match="does not take output="):
        llmrelay.Client("openai:gpt-4o-mini", adapter=fake).stream("Weather?", output=Weather)
    with pytest.raises(llmrelay.ConfigError, match="does not take output="):
        llmrelay.AsyncClient("openai:gpt-4o-mini", adapter=fake).stream("Weather?", output=Weather)
    assert fake.requests == []
