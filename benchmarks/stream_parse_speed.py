"""How fast `IncrementalParser` reads a streamed answer, next to one `parse_response` of the whole text.

Run: python benchmarks/stream_parse_speed.py [--check]

Each answer (1 MB, and the same kind of answer at 2 MB; the envelopes also in json mode, where
their content and calls are decoded as they arrive) is fed in chunks of 4 characters (streamed
tokens are a few characters each) and of 64, then finished. One `parse_response` of the whole
text is shown beside it: that is a scan in C, so the stream's cost is mostly Python's per-chunk
call overhead. Target: linear (the 2 MB stream within 2.5x of the 1 MB one: a re-parse of the
text so far on every chunk would make it 4x, and take minutes). The cost per chunk is shown for
reference: a few µs, against the milliseconds a provider takes to send a chunk.

Timings are the best of a few repeats. With --check the script exits 1 when a target is missed.
"""

from __future__ import annotations

import json
import sys
import timeit
import tracemalloc
from collections.abc import Callable

from llmrelay import parse_response
from llmrelay.adapters._sse import EventDecoder
from llmrelay.normalize._incremental import IncrementalParser

MB = 1_000_000
CALL = '{"name": "get_weather", "arguments": {"city": "Paris"}}'


def best_of(function: Callable[[], object], *, repeat: int = 3) -> float:
    """Seconds per call: the best of `repeat` single runs."""
    return min(timeit.repeat(function, number=1, repeat=repeat))


def answers(size: int = MB) -> dict[str, tuple[str, bool]]:
    """Each answer, and whether it is streamed in json mode."""
    plain = {
        "1 MB prose, one Hermes call at the end": "The weather is nice today. " * (size // 27)
        + f"<tool_call>{CALL}</tool_call>",
        "1 MB prose without blank space": "x" * size,
        "1 MB prose with < every line (held back)": "a < b and c > d\n" * (size // 16),
        "1 MB JSON envelope (held back)": json.dumps({"content": "Checking. " * (size // 10), "tool_calls": []}),
        "10k Hermes blocks": f"<tool_call>{CALL}</tool_call>\n" * (size // 70),
        # Issue 16: reasoning told as it arrives, and blank space that must wait.
        "1 MB <think> block, then a call (reasoning streams)": "<think>"
        + "I should check the weather. " * (size // 28)
        + f"</think><tool_call>{CALL}</tool_call>",
        "1 MB <think> block of blank space": "<think>x" + " " * size + "y</think>Done.",
    }
    big_arguments = json.dumps({"path": "notes.txt", "text": "A line, of text.\n" * (size // 18)})
    envelope = {
        "1 MB envelope, json mode (content streams)": {
            "content": 'Checking, "quoted" \u00e9. ' * (size // 28),
            "toolCalls": [{"name": "get_weather", "arguments": '{"city": "Paris"}'}] * 3,
            "needsMoreWork": True,
        },
        "1 MB of arguments in one call, json mode": {
            "content": "Writing it.",
            "toolCalls": [{"name": "write_file", "arguments": big_arguments}],
            "needsMoreWork": True,
        },
        "10k calls in one envelope, json mode": {
            "content": "",
            "toolCalls": [{"name": "get_weather", "arguments": {"city": "Paris"}}] * (size // 52),
            "needsMoreWork": True,
        },
    }
    return {
        **{label: (text, False) for label, text in plain.items()},
        **{label: (json.dumps(value, ensure_ascii=False), True) for label, value in envelope.items()},
    }


def stream(text: str, size: int, json_mode: bool = False) -> None:
    parser = IncrementalParser(json_mode=json_mode)
    for start in range(0, len(text), size):
        parser.feed(text[start : start + size])
    parser.finish()


def main() -> int:
    check = "--check" in sys.argv[1:]
    missed = []
    print("Streamed answer vs one parse_response (target: 2x the text within 2.5x the time)\n")
    print(f"{'answer':44} {'size':>7} {'parse':>8} {'4-char':>9} {'µs/chunk':>9} {'64-char':>8} {'x2 size':>8}")
    for (label, (text, json_mode)), (bigger, _) in zip(answers().items(), answers(2 * MB).values(), strict=True):
        whole = best_of(lambda text=text: parse_response(text))
        small = best_of(lambda text=text, json_mode=json_mode: stream(text, 4, json_mode))
        large = best_of(lambda text=text, json_mode=json_mode: stream(text, 64, json_mode))
        doubled = best_of(lambda bigger=bigger, json_mode=json_mode: stream(bigger, 4, json_mode))
        per_chunk = small * 1e6 / (len(text) / 4)
        growth = doubled / small
        print(
            f"{label:44} {len(text.encode()) / MB:5.2f}MB {whole * 1000:6.1f}ms {small * 1000:7.1f}ms"
            f" {per_chunk:9.2f} {large * 1000:6.1f}ms {growth:7.2f}x"
        )
        if growth > 2.5:
            missed.append(label)
    missed += sse_rows()
    print("\nall targets met" if not missed else f"\ntargets missed: {', '.join(missed)}")
    return 1 if check and missed else 0


SSE_BODIES: dict[str, Callable[[int], bytes]] = {
    "one data: line": lambda size: b"data: " + b"x" * size + b"\n\n",
    "blank lines, then an event": lambda size: b"\n" * size + b"data: {}\n\n",
    "an event, then blank lines": lambda size: b"data: {}\n" + b"\r\n" * (size // 2),
    "one JSON array item (Gemini)": lambda size: b'[{"text": "' + b"x" * size + b'"}]',
    "keep-alive comments (: lines)": lambda size: b"data: {}\n" + b":\n" * (size // 2) + b"\n",
}


def decode(body: bytes, piece: int) -> None:
    decoder = EventDecoder()
    for start in range(0, len(body), piece):
        decoder.feed(body[start : start + piece])
    decoder.end()


def peak_memory(function: Callable[[], object]) -> int:
    """The most bytes `function` held allocated at once (tracemalloc), beyond what it was given."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def sse_rows(size: int = 16 * MB, piece: int = 1024) -> list[str]:
    """The stream decoder on hostile bodies, 1 KB pieces (target: under 100 ms per MB, linear)."""
    print(f"\nStream decoding (EventDecoder), {size // MB} MB bodies in {piece}-byte pieces (target < 100 ms/MB)\n")
    print(f"{'body':44} {'time':>8} {'ms/MB':>7} {'peak memory':>12} {'x input':>8}")
    missed = []
    for label, make in SSE_BODIES.items():
        body = make(size)
        seconds = best_of(lambda body=body: decode(body, piece), repeat=3)
        peak = peak_memory(lambda body=body: decode(body, piece))
        per_mb = seconds * 1000 / (len(body) / MB)
        print(f"{label:44} {seconds * 1000:6.0f}ms {per_mb:7.1f} {peak / MB:9.1f} MB {peak / len(body):7.1f}x")
        if per_mb > 100:
            missed.append(f"SSE: {label}")
    return missed


if __name__ == "__main__":
    raise SystemExit(main())
