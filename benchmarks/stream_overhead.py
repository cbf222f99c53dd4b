"""What llmrelay adds to a streamed answer: `Client.stream` against iterating the raw SDK's stream.

Run: python benchmarks/stream_overhead.py [--check] [--write]

For OpenAI, Anthropic and Gemini, a text answer (200 words) and a tool call whose arguments
(under 1 KB) arrive in 200 pieces of 4 characters, served as server-sent events through respx
(no network). The raw SDK's stream is iterated to its end (its event objects built, nothing else);
llmrelay's stream is iterated the same way (its events, the arguments read as they grow, the
final Completion). Target: every provider and stream kind within 1.2x of the raw SDK.

The two are iterated in turn, each stream timed; the table gives the medians of 150 streams of
each and the median of the ratios within each pair (a busy machine slows both alike). With
--check the script exits 1 when a target is missed; with --write it writes its table to
benchmarks/results/stream_overhead.md and the README.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import httpx
from _results import Table, median, paired, report, write_results

import llmrelay
from llmrelay.testing import mock_http

CALLS = 150
WORDS = [f"word{i % 10} " for i in range(200)]
ARGUMENTS = json.dumps({"path": "notes/today.txt", "text": "A line of text, with a comma. " * 26})
PIECES = [ARGUMENTS[i : i + 4] for i in range(0, len(ARGUMENTS), 4)]
WEATHER: dict[str, Any] = {
    "name": "write_file",
    "description": "Write a file.",
    "parameters": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "text": {"type": "string"}},
        "required": ["path", "text"],
    },
}
MESSAGES = [{"role": "user", "content": "Write my notes."}]
GEMINI_URL = "https://generativelanguage.googleapis.com/"


def sse(events: Iterator[tuple[str | None, dict[str, Any]]], done: bool = False) -> bytes:
    lines = [(f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n" for name, data in events]
    return ("".join(lines) + ("data: [DONE]\n\n" if done else "")).encode()


def openai_body(tool: bool) -> bytes:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> tuple[None, dict[str, Any]]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return None, {"id": "c-1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [choice]}

    def chunks() -> Iterator[tuple[None, dict[str, Any]]]:
        yield chunk({"role": "assistant", "content": ""})
        if not tool:
            yield from (chunk({"content": word}) for word in WORDS)
        else:
            start = {
                "index": 0,
                "id": "call_1",
                "type": "function",
                "function": {"name": "write_file", "arguments": ""},
            }
            yield chunk({"tool_calls": [start]})
            yield from (chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in PIECES)
        yield chunk({}, "tool_calls" if tool else "stop")

    return sse(chunks(), done=True)


def anthropic_body(tool: bool) -> bytes:
    def events() -> Iterator[tuple[str, dict[str, Any]]]:
        message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": []}
        usage = {"input_tokens": 10, "output_tokens": 1}
        yield "message_start", {"type": "message_start", "message": {**message, "usage": usage}}
        if tool:
            block = {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}
            deltas = [{"type": "input_json_delta", "partial_json": p} for p in PIECES]
        else:
            block = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": word} for word in WORDS]
        yield "content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}
        for delta in deltas:
            yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": 0}
        stop = {"stop_reason": "tool_use" if tool else "end_turn", "stop_sequence": None}
        yield "message_delta", {"type": "message_delta", "delta": stop, "usage": {"output_tokens": 200}}
        yield "message_stop", {"type": "message_stop"}

    return sse(events())


def gemini_body(tool: bool) -> bytes:
    def response(parts: list[dict[str, Any]], last: bool) -> tuple[None, dict[str, Any]]:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        if last:
            candidate["finishReason"] = "STOP"
        return None, {"candidates": [candidate], "modelVersion": "gemini-2.5-flash"}

    if tool:  # Gemini sends a call whole, in one chunk.
        call = {"functionCall": {"name": "write_file", "args": json.loads(ARGUMENTS)}}
        return sse(iter([response([{"text": "Writing."}], False), response([call], True)]))
    return sse(response([{"text": word}], i == len(WORDS) - 1) for i, word in enumerate(WORDS))


def raw_stream(provider: str, tool: bool) -> Callable[[], object]:
    """Iterate the SDK's own stream to its end."""
    if provider == "openai":
        import openai

        client = openai.OpenAI(api_key="sk-bench", max_retries=0)
        tools = [{"type": "function", "function": WEATHER}] if tool else openai.NOT_GIVEN
        return lambda: sum(
            1
            for _ in client.chat.completions.create(
                model="gpt-4o-mini",
                messages=MESSAGES,  # type: ignore[arg-type]
                tools=tools,  # type: ignore[arg-type]
                stream=True,
            )
        )
    if provider == "anthropic":
        import anthropic

        ant = anthropic.Anthropic(api_key="sk-ant-bench", max_retries=0)
        spec = [{"name": "write_file", "description": "Write a file.", "input_schema": WEATHER["parameters"]}]
        kwargs: dict[str, Any] = {"tools": spec} if tool else {}
        return lambda: sum(
            1
            for _ in ant.messages.create(
                model="claude-sonnet-4-6",
                max_tokens=4096,
                messages=MESSAGES,  # type: ignore[arg-type]
                stream=True,
                **kwargs,
            )
        )
    from google import genai
    from google.genai import types

    gem = genai.Client(api_key="bench")
    config = types.GenerateContentConfig(tools=[types.Tool(function_declarations=[WEATHER])]) if tool else None  # type: ignore[list-item]
    return lambda: sum(
        1 for _ in gem.models.generate_content_stream(model="gemini-2.5-flash", contents="Write.", config=config)
    )


def relay_stream(provider: str, tool: bool) -> Callable[[], object]:
    """Iterate llmrelay's stream to its end (the last event holds the Completion)."""
    model = {"openai": "openai:gpt-4o-mini", "anthropic": "anthropic:claude-sonnet-4-6"}.get(
        provider, "gemini:gemini-2.5-flash"
    )
    client = llmrelay.Client(model, api_key="bench-key")
    tools = [WEATHER] if tool else None
    return lambda: sum(1 for _ in client.stream(MESSAGES, tools=tools))


def serve(router: Any, provider: str, tool: bool) -> None:
    body = {"openai": openai_body, "anthropic": anthropic_body, "gemini": gemini_body}[provider](tool)
    headers = {"content-type": "text/event-stream"}
    url = {"openai": "https://api.openai.com/v1/chat/completions", "anthropic": "https://api.anthropic.com/v1/messages"}
    route = router.post(url[provider]) if provider in url else router.post(url__startswith=GEMINI_URL)
    route.mock(side_effect=lambda request: httpx.Response(200, headers=headers, content=body))


PROVIDERS = ("openai", "anthropic", "gemini")
NAMES = {"openai": "OpenAI", "anthropic": "Anthropic", "gemini": "Gemini"}


def label(provider: str, tool: bool) -> str:
    kind = f"tool call, {len(PIECES)} pieces" if tool else f"text, {len(WORDS)} words"
    return f"{NAMES[provider]}, {kind}"


def tables() -> list[Table]:
    labels = [label(provider, tool) for provider in PROVIDERS for tool in (False, True)]
    title = "Streams (target: within 1.2x of iterating the raw SDK's stream):"
    return [Table(["stream", "raw SDK", "llmrelay", "ratio"], labels, title)]


def measure(table: Table) -> None:
    for provider in PROVIDERS:
        for tool in (False, True):
            with mock_http() as router:
                serve(router, provider, tool)
                raw, relay = raw_stream(provider, tool), relay_stream(provider, tool)
                raw(), relay()  # Warm up: lazy imports and client construction are not per-stream costs.
                raws, relays = paired(raw, relay, CALLS)
            ratio = median([r / s for r, s in zip(relays, raws, strict=True)])
            cells = (f"{median(raws) * 1e6:.0f} µs", f"{median(relays) * 1e6:.0f} µs", f"{ratio:.2f}x")
            table.fill(label(provider, tool), *cells, missed=ratio > 1.2)


def main() -> int:
    done = tables()
    measure(done[0])
    print(report(done))
    if "--write" in sys.argv[1:]:
        write_results("stream_overhead", "python benchmarks/stream_overhead.py", done)
    return 1 if "--check" in sys.argv[1:] and any(t.missed for t in done) else 0


if __name__ == "__main__":
    raise SystemExit(main())
