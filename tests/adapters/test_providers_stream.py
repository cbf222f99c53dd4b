"""Every adapter's stream, through the real SDKs and `mock_http`: answers, cut-off streams, dropped connections.

Each provider's body below is written the way that provider streams (event names, field names and
framing as in the conformance recordings), with `<<CUT>>` marking where the tests cut it: after a
text, one complete call, and half of a second call. Served whole, it gives the full answer; cut
there (body ends, or the connection drops), the stream ends with `StreamInterrupted` holding the
text and the complete call, the unfinished call rejected as truncated; cut there or inside the next
event, with retries allowed, it is still one request: what was shown is never asked again.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

import llmrelay
from llmrelay import (
    Completion,
    ProviderConnectionError,
    RetryPolicy,
    StreamEnd,
    StreamEvent,
    StreamInterrupted,
    TextDelta,
    ToolCall,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStarted,
)
from llmrelay.testing import mock_http

pytestmark = pytest.mark.filterwarnings(r"ignore:The model '[^']+' is deprecated:DeprecationWarning")


def get_weather(city: str, days: int = 1) -> str:
    """The forecast for a city."""
    return ""


def sse(*events: Any, done: str = "") -> str:
    return "".join(f"data: {json.dumps(e)}\n\n" if not isinstance(e, str) else e for e in events) + done


def chat_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "gen-1", "model": "m-1", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def chat_call(index: int, *, id: str | None = None, name: str | None = None, arguments: str = "") -> dict[str, Any]:
    function: dict[str, Any] = {"arguments": arguments}
    if name:
        function["name"] = name
    call: dict[str, Any] = {"index": index, "function": function, "type": "function"}
    if id:
        call["id"] = id
    return chat_chunk({"tool_calls": [call]})


CHAT_BODY = (
    sse(
        chat_chunk({"role": "assistant", "content": "Checking "}),
        ": OPENROUTER PROCESSING\n\n",  # A comment line: skipped.
        chat_chunk({"content": "the weather."}),
        chat_call(0, id="call_a", name="get_weather", arguments=""),
        chat_call(0, arguments='{"city": "Pa'),
        chat_call(0, arguments='ris"}'),
        chat_call(1, id="call_b", name="get_weather", arguments='{"city": '),
    )
    + "<<CUT>>"
    + sse(
        chat_call(1, arguments='"Rome", "days": 2}'),
        chat_chunk({}, finish="tool_calls"),
        {"id": "gen-1", "model": "m-1", "choices": [], "usage": {"prompt_tokens": 20, "completion_tokens": 9}},
        done="data: [DONE]\n\n",
    )
)


def anthropic_event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n"


ANTHROPIC_BODY = (
    anthropic_event("message_start", {"message": {"id": "msg_1", "model": "claude-x", "usage": {"input_tokens": 20}}})
    + anthropic_event("content_block_start", {"index": 0, "content_block": {"type": "text", "text": ""}})
    + 'event: ping\ndata: {"type": "ping"}\n\n'
    + anthropic_event("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": "Checking "}})
    + anthropic_event("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": "the weather."}})
    + anthropic_event("content_block_stop", {"index": 0})
    + anthropic_event(
        "content_block_start",
        {"index": 1, "content_block": {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {}}},
    )
    + anthropic_event(
        "content_block_delta", {"index": 1, "delta": {"type": "input_json_delta", "partial_json": '{"city": "Pa'}}
    )
    + anthropic_event(
        "content_block_delta", {"index": 1, "delta": {"type": "input_json_delta", "partial_json": 'ris"}'}}
    )
    + anthropic_event("content_block_stop", {"index": 1})
    + anthropic_event(
        "content_block_start",
        {"index": 2, "content_block": {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {}}},
    )
    + anthropic_event(
        "content_block_delta", {"index": 2, "delta": {"type": "input_json_delta", "partial_json": '{"city": '}}
    )
    + "<<CUT>>"
    + anthropic_event(
        "content_block_delta",
        {"index": 2, "delta": {"type": "input_json_delta", "partial_json": '"Rome", "days": 2}'}},
    )
    + anthropic_event("content_block_stop", {"index": 2})
    + anthropic_event("message_delta", {"delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}})
    + anthropic_event("message_stop", {})
)


def gemini_object(parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return {
        "candidates": [candidate],
        "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 9, "totalTokenCount": 29},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "resp-1",
    }


_GEMINI_OBJECTS = [
    gemini_object([{"text": "Checking "}]),
    gemini_object([{"text": "thinking...", "thought": True}, {"text": "the weather."}]),
    gemini_object([{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]),
]
_GEMINI_LAST = json.dumps(
    gemini_object([{"functionCall": {"name": "get_weather", "args": {"city": "Rome", "days": 2}}}], finish="STOP")
)
GEMINI_SSE = sse(*_GEMINI_OBJECTS) + f"data: {_GEMINI_LAST[:40]}<<CUT>>{_GEMINI_LAST[40:]}\n\n"
GEMINI_ARRAY = (
    "[" + ",\n".join(json.dumps(o, indent=2) for o in _GEMINI_OBJECTS) + ",\n" + _GEMINI_LAST[:40]
) + f"<<CUT>>{_GEMINI_LAST[40:]}\n]"


def responses_event(name: str, **data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n"


def responses_call(position: int, call_id: str, arguments: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": f"fc_{position}",
        "call_id": call_id,
        "name": "get_weather",
        "arguments": arguments,
    }


_RESPONSES_OUTPUT = [
    {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA-opaque"},
    {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "Checking the weather."}],
    },
    responses_call(2, "call_a", '{"city": "Paris"}'),
    responses_call(3, "call_b", '{"city": "Rome", "days": 2}'),
]
RESPONSES_BODY = (
    responses_event("response.created", response={"id": "resp_1", "status": "in_progress", "output": []})
    + responses_event("response.output_item.added", output_index=0, item=_RESPONSES_OUTPUT[0])
    + responses_event("response.output_item.done", output_index=0, item=_RESPONSES_OUTPUT[0])
    + responses_event("response.output_item.added", output_index=1, item={"type": "message", "content": []})
    + responses_event("response.output_text.delta", output_index=1, content_index=0, delta="Checking ")
    + responses_event("response.output_text.delta", output_index=1, content_index=0, delta="the weather.")
    + responses_event("response.output_item.done", output_index=1, item=_RESPONSES_OUTPUT[1])
    + responses_event("response.output_item.added", output_index=2, item=responses_call(2, "call_a", ""))
    + responses_event("response.function_call_arguments.delta", output_index=2, delta='{"city": "Pa')
    + responses_event("response.function_call_arguments.delta", output_index=2, delta='ris"}')
    + responses_event("response.output_item.done", output_index=2, item=_RESPONSES_OUTPUT[2])
    + responses_event("response.output_item.added", output_index=3, item=responses_call(3, "call_b", ""))
    + responses_event("response.function_call_arguments.delta", output_index=3, delta='{"city": ')
    + "<<CUT>>"
    + responses_event("response.function_call_arguments.delta", output_index=3, delta='"Rome", "days": 2}')
    + responses_event("response.output_item.done", output_index=3, item=_RESPONSES_OUTPUT[3])
    + responses_event(
        "response.completed",
        response={
            "id": "resp_1",
            "status": "completed",
            "model": "gpt-5-x",
            "output": _RESPONSES_OUTPUT,
            "usage": {"input_tokens": 20, "output_tokens": 9, "total_tokens": 29},
        },
    )
)


@dataclass(frozen=True)
class Provider:
    id: str
    model: str
    url: str
    body: str
    options: dict[str, Any]
    cut_call_seen: bool = True
    """Whether the half-sent second call was seen at all (Gemini sends calls whole: it was not)."""

    def full(self) -> bytes:
        return self.body.replace("<<CUT>>", "").encode()

    def cut(self) -> bytes:
        return self.body.split("<<CUT>>")[0].encode()


PROVIDERS = [
    Provider("openai", "openai:gpt-4o-mini", "https://api.openai.com/v1/chat/completions", CHAT_BODY, {}),
    Provider("groq", "groq:llama-3.3-70b-versatile", "https://api.groq.com/openai/v1/chat/completions", CHAT_BODY, {}),
    Provider(
        "openrouter", "openrouter:meta-llama/llama-3.3", "https://openrouter.ai/api/v1/chat/completions", CHAT_BODY, {}
    ),
    Provider(
        "openai-compatible",
        "openai-compatible:llama3.1",
        "http://localhost:11434/v1/chat/completions",
        CHAT_BODY,
        {"base_url": "http://localhost:11434/v1"},
    ),
    Provider("anthropic", "anthropic:claude-sonnet-4-5", "https://api.anthropic.com/v1/messages", ANTHROPIC_BODY, {}),
    Provider(
        "gemini-sse",
        "gemini:gemini-2.5-flash",
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        GEMINI_SSE,
        {},
        cut_call_seen=False,
    ),
    Provider(
        "gemini-json-array",
        "gemini:gemini-2.5-flash",
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        GEMINI_ARRAY,
        {},
        cut_call_seen=False,
    ),
    Provider("openai-responses", "openai-responses:gpt-5", "https://api.openai.com/v1/responses", RESPONSES_BODY, {}),
]
PARAMS = [pytest.param(p, id=p.id) for p in PROVIDERS]
CALLS = [ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_weather", {"city": "Rome", "days": 2})]


class Body(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body sent in small pieces, optionally ending with a dropped connection."""

    def __init__(self, data: bytes, *, size: int = 7, drop: bool = False) -> None:
        self.data, self.size, self.drop = data, size, drop

    def __iter__(self) -> Iterator[bytes]:
        for start in range(0, len(self.data), self.size):
            yield self.data[start : start + self.size]
        if self.drop:
            raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self:
            yield piece


def client(provider: Provider, **options: Any) -> llmrelay.Client:
    settings = {"api_key": "test-key-123456", "retry": RetryPolicy(max_attempts=1), **provider.options, **options}
    return llmrelay.Client(provider.model, **settings)


def served(provider: Provider, body: Body) -> Any:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=body)

    return answer


def collect(provider: Provider, body: Body) -> tuple[list[StreamEvent], list[httpx.Request]]:
    events: list[StreamEvent] = []
    with mock_http() as router:
        route = router.post(provider.url).mock(side_effect=served(provider, body))
        try:
            for event in client(provider).stream("Weather in Paris and Rome?", tools=[get_weather]):
                events.append(event)
        finally:
            requests = [call.request for call in route.calls]
    return events, requests


def names(calls: list[ToolCall]) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, c.arguments) for c in calls]


@pytest.mark.parametrize("provider", PARAMS)
def test_a_whole_stream_gives_the_answer_complete_would(provider: Provider) -> None:
    events, requests = collect(provider, Body(provider.full()))
    end = events[-1]
    assert isinstance(end, StreamEnd)
    result = end.completion
    assert result.content == "Checking the weather."
    assert names(result.tool_calls) == names(CALLS)
    assert result.finish_reason == "tool_calls" and result.needs_more_work is True
    assert result.usage.input_tokens == 20 and result.usage.output_tokens == 9
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == result.content
    completed = [e.call for e in events if isinstance(e, ToolCallComplete)]
    assert completed == result.tool_calls, "the calls shown are the calls returned, ids included"
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    assert [(e.index, e.name, e.id) for e in started] == [(i, c.name, c.id) for i, c in enumerate(result.tool_calls)]
    assert len(requests) == 1


@pytest.mark.parametrize("held", [False, True], ids=["prose", "prose-with-a-brace"])
@pytest.mark.parametrize("size", [3, 7, 1000])
@pytest.mark.parametrize("provider", PARAMS)
def test_the_text_before_a_call_is_shown_before_the_call(provider: Provider, size: int, held: bool) -> None:
    # Issue 13: the last word came after ToolCallComplete. A brace holds the text back to the end:
    # the calls' events then wait for it.
    body = provider.full().replace(b"the weather.", b"the {weather}." if held else b"the weather.")
    events, _ = collect(provider, Body(body, size=size))
    kinds = [type(e).__name__ for e in events]
    last_text = max(i for i, kind in enumerate(kinds) if kind == "TextDelta")
    assert last_text < kinds.index("ToolCallStarted")
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == events[-1].completion.content  # type: ignore[union-attr]


@pytest.mark.parametrize("provider", [p for p in PARAMS if p.values[0].cut_call_seen])
def test_argument_deltas_grow_and_each_call_completes_before_the_next_starts(provider: Provider) -> None:
    events, _ = collect(provider, Body(provider.full(), size=3))
    deltas = [e for e in events if isinstance(e, ToolCallDelta) and e.index == 1]
    assert "".join(d.delta for d in deltas) == deltas[-1].arguments_text == '{"city": "Rome", "days": 2}'
    assert deltas[-1].partial_arguments == {"city": "Rome", "days": 2}
    kinds = [
        (type(e).__name__, getattr(e, "index", None)) for e in events if not isinstance(e, (TextDelta, ToolCallDelta))
    ]
    assert kinds.index(("ToolCallComplete", 0)) < kinds.index(("ToolCallStarted", 1))


@pytest.mark.parametrize("drop", [False, True], ids=["body-ends", "connection-drops"])
@pytest.mark.parametrize("provider", PARAMS)
def test_a_stream_cut_off_after_events_ends_with_everything_received(provider: Provider, drop: bool) -> None:
    with pytest.raises(StreamInterrupted) as caught:
        collect(provider, Body(provider.cut(), drop=drop))
    error = caught.value
    assert isinstance(error.__cause__, ProviderConnectionError)
    assert error.provider == provider.model.split(":")[0]
    partial = error.partial
    assert isinstance(partial, Completion)
    assert partial.content == "Checking the weather." and "Checking" in partial.raw
    assert names(partial.tool_calls) == names(CALLS[:1])
    if provider.cut_call_seen:
        assert [(r.name, r.kind, r.arguments) for r in partial.rejected] == [("get_weather", "truncated", '{"city": ')]
    else:
        assert partial.rejected == []
    assert partial.attempts[-1].outcome == "error" and "interrupted" in (partial.attempts[-1].reason or "")


@pytest.mark.parametrize("provider", PARAMS)
def test_a_stream_cut_before_any_event_is_retried(provider: Provider) -> None:
    """Nothing was shown yet: the cut stream is a transient failure, retried like any other."""
    bodies = iter([Body(provider.full()[:12], drop=True), Body(provider.full())])
    with mock_http() as router:
        route = router.post(provider.url).mock(
            side_effect=lambda request: httpx.Response(
                200, headers={"content-type": "text/event-stream"}, stream=next(bodies)
            )
        )
        retry = RetryPolicy(max_attempts=2, sleep=lambda seconds: None)
        events = list(client(provider, retry=retry).stream("Weather?", tools=[get_weather]))
    assert route.call_count == 2
    end = events[-1]
    assert isinstance(end, StreamEnd)
    assert [a.outcome for a in end.completion.attempts] == ["retry", "ok"]


@pytest.mark.parametrize("provider", PARAMS)
async def test_async_streams_the_same_events(provider: Provider) -> None:
    events: list[StreamEvent] = []
    with mock_http() as router:
        router.post(provider.url).mock(side_effect=served(provider, Body(provider.full())))
        async_client = llmrelay.AsyncClient(
            provider.model, api_key="test-key-123456", retry=RetryPolicy(max_attempts=1), **provider.options
        )
        async for event in async_client.stream("Weather in Paris and Rome?", tools=[get_weather]):
            events.append(event)
    sync_events, _ = collect(provider, Body(provider.full()))
    assert [type(e) for e in events] == [type(e) for e in sync_events]
    end = events[-1]
    assert isinstance(end, StreamEnd)
    assert names(end.completion.tool_calls) == names(CALLS)


@pytest.mark.parametrize("provider", PARAMS)
async def test_async_cut_off_stream_keeps_what_was_received(provider: Provider) -> None:
    with mock_http() as router:
        router.post(provider.url).mock(side_effect=served(provider, Body(provider.cut(), drop=True)))
        async_client = llmrelay.AsyncClient(
            provider.model, api_key="test-key-123456", retry=RetryPolicy(max_attempts=1), **provider.options
        )
        with pytest.raises(StreamInterrupted) as caught:
            async for _ in async_client.stream("Weather?", tools=[get_weather]):
                pass
    assert names(caught.value.partial.tool_calls) == names(CALLS[:1])


def test_the_request_asks_for_a_stream() -> None:
    """OpenAI is asked for usage too (it sends none in a stream otherwise); Gemini for SSE."""
    openai, anthropic, gemini = PROVIDERS[0], PROVIDERS[4], PROVIDERS[5]
    _, (request,) = collect(openai, Body(openai.full()))
    assert json.loads(request.content)["stream"] is True
    assert json.loads(request.content)["stream_options"] == {"include_usage": True}
    _, (request,) = collect(anthropic, Body(anthropic.full()))
    assert json.loads(request.content)["stream"] is True
    _, (request,) = collect(gemini, Body(gemini.full()))
    assert request.url.params["alt"] == "sse"
    assert request.headers["x-goog-api-key"] == "test-key-123456"
    body = json.loads(request.content)
    assert body["tools"][0]["functionDeclarations"][0]["name"] == "get_weather"
    assert body["contents"] == [{"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]}]
    assert "automaticFunctionCalling" not in body and "automaticFunctionCalling" not in body.get("generationConfig", {})


# --- a truncated stream: how many requests, which error, nothing received lost ---------------------

TRUNCATIONS = {
    "between-events": lambda provider: provider.cut(),
    "inside-an-event": lambda provider: provider.cut() + provider.body.split("<<CUT>>")[1][:25].encode(),
}


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("where", list(TRUNCATIONS))
@pytest.mark.parametrize("provider", PARAMS)
async def test_a_truncated_stream_is_sent_once_and_ends_with_everything_received(
    provider: Provider, where: str, use_async: bool
) -> None:
    """Retries are allowed, but the text was shown: one request, `StreamInterrupted`, the partial answer kept."""
    body = TRUNCATIONS[where](provider)
    retry = RetryPolicy(max_attempts=3, sleep=lambda seconds: None)
    with mock_http() as router:
        route = router.post(provider.url).mock(side_effect=served(provider, Body(body)))
        with pytest.raises(StreamInterrupted) as caught:
            if use_async:
                async_client = llmrelay.AsyncClient(
                    provider.model, api_key="test-key-123456", retry=retry, **provider.options
                )
                async for _ in async_client.stream("Weather?", tools=[get_weather]):
                    pass
            else:
                for _ in client(provider, retry=retry).stream("Weather?", tools=[get_weather]):
                    pass
        assert route.call_count == 1
    error = caught.value
    assert isinstance(error.__cause__, ProviderConnectionError), repr(error.__cause__)
    partial = error.partial
    assert partial.content == "Checking the weather." and "Checking" in partial.raw
    assert names(partial.tool_calls) == names(CALLS[:1])
    expected = [("get_weather", "truncated")] if provider.cut_call_seen else []
    assert [(r.name, r.kind) for r in partial.rejected] == expected
    assert [a.outcome for a in partial.attempts] == ["error"]


# --- issue 12: a cap on a streamed answer's size -------------------------------------------------


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("provider", PARAMS)
async def test_a_stream_past_max_stream_bytes_ends_with_what_was_read(provider: Provider, use_async: bool) -> None:
    """An endless answer stops at the cap: a typed error, the answer so far kept, one request only."""
    shown = len(provider.cut())
    body = Body(provider.cut() + provider.full() * 1000)  # Far past the cap if nothing stops it.
    options = {"max_stream_bytes": shown + 10, "retry": RetryPolicy(max_attempts=3, sleep=lambda seconds: None)}
    with mock_http() as router:
        route = router.post(provider.url).mock(side_effect=served(provider, body))
        with pytest.raises(StreamInterrupted) as caught:
            if use_async:
                settings = {"api_key": "test-key-123456", **provider.options, **options}
                async for _ in llmrelay.AsyncClient(provider.model, **settings).stream("Weather?", tools=[get_weather]):
                    pass
            else:
                for _ in client(provider, **options).stream("Weather?", tools=[get_weather]):
                    pass
    cause = caught.value.__cause__
    assert isinstance(cause, llmrelay.ResponseTooLarge)
    assert cause.limit == shown + 10 and shown + 10 < cause.received <= shown + 10 + body.size
    assert caught.value.partial.content == "Checking the weather."
    assert names(caught.value.partial.tool_calls) == names(CALLS[:1])
    assert route.call_count == 1, "a too-large answer is not asked for again"


def test_the_default_cap_is_documented_and_configurable() -> None:
    assert llmrelay.Client("openai:gpt-4o-mini", api_key="k")._options["openai"].max_stream_bytes == 64 * 1024 * 1024
    with pytest.raises(llmrelay.ConfigError, match="max_stream_bytes"):
        llmrelay.Client("openai:gpt-4o-mini", api_key="k", max_stream_bytes=0)
