"""How fast `IncrementalParser` reads a streamed answer, next to one `parse_response` of the whole text.

Run: python benchmarks/stream_parse_speed.py [--check] [--write]

Each answer (1 MB, and the same kind of answer at 2 MB; the envelopes also in json mode, where
their content and calls are decoded as they arrive) is fed in chunks of 4 characters (streamed
tokens are a few characters each) and of 64, then finished. One `parse_response` of the whole
text is shown beside it: that is a scan in C, so the stream's cost is mostly Python's per-chunk
call overhead. Target: linear (the 2 MB stream within 2.5x of the 1 MB one: a re-parse of the
text so far on every chunk would make it 4x, and take minutes). The cost per chunk is shown for
reference: a few µs, against the milliseconds a provider takes to send a chunk.

Timings are the best of a few repeats. With --check the script exits 1 when a target is missed;
with --write it writes its table to benchmarks/results/stream_parse_speed.md and the README.
"""

from __future__ import annotations

import json
import sys
import timeit
from collections.abc import Callable

from _results import Table, peak_memory, report, write_results

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


def tables() -> list[Table]:
    columns = ["answer", "size", "parse_response", "4-char chunks", "µs per chunk", "64-char chunks", "x2 size"]
    title = "Streamed answer vs one parse_response (target: twice the text within 2.5x the time):"
    sse_columns = ["body", "size", "time", "ms per MB", "peak memory", "x input"]
    sse_title = f"Stream decoding (EventDecoder), {SSE_SIZE // MB} MB bodies in 1 KB pieces (target: < 100 ms per MB):"
    return [Table(columns, list(answers(1000)), title), Table(sse_columns, list(SSE_BODIES), sse_title)]


def main() -> int:
    done = tables()
    for (label, (text, json_mode)), (bigger, _) in zip(answers().items(), answers(2 * MB).values(), strict=True):
        whole = best_of(lambda text=text: parse_response(text))
        small = best_of(lambda text=text, json_mode=json_mode: stream(text, 4, json_mode))
        large = best_of(lambda text=text, json_mode=json_mode: stream(text, 64, json_mode))
        doubled = best_of(lambda bigger=bigger, json_mode=json_mode: stream(bigger, 4, json_mode))
        per_chunk = small * 1e6 / (len(text) / 4)
        growth = doubled / small
        cells = (f"{len(text.encode()) / MB:.2f} MB", f"{whole * 1000:.1f} ms", f"{small * 1000:.1f} ms")
        cells += (f"{per_chunk:.2f}", f"{large * 1000:.1f} ms", f"{growth:.2f}x")
        done[0].fill(label, *cells, missed=growth > 2.5)
        print(f"{label}: {', '.join(cells)}", flush=True)
    sse_rows(done[1])
    print(report(done))
    if "--write" in sys.argv[1:]:
        write_results("stream_parse_speed", "python benchmarks/stream_parse_speed.py", done)
    return 1 if "--check" in sys.argv[1:] and (done[0].missed or done[1].missed) else 0


SSE_SIZE = 16 * MB
SSE_BODIES: dict[str, Callable[[int], bytes]] = {
    "one data: line": lambda size: b"data: " + b"x" * size + b"\n\n",
    "blank lines, then an event": lambda size: b"\n" * size + b"data: {}\n\n",
    "an event, then blank lines": lambda size: b"data: {}\n" + b"\r\n" * (size // 2),
    "one JSON array item (Gemini)": lambda size: b'[{"text": "' + b"x" * size + b'"}]',
    "keep-alive comments (: lines)": lambda size: b"data: {}\n" + b":\n" * (size // 2) + b"\n",
    # Issue 13: a Python step per line or per event is what costs here.
    "8-byte data: lines (one event)": lambda size: b"data: x\n" * (size // 8) + b"\n",
    "8-byte events (data:x, blank line)": lambda size: b"data:x\n\n" * (size // 8),
    "9-byte events (data: x, blank line)": lambda size: b"data: x\n\n" * (size // 9),
}


def decode(body: bytes, piece: int) -> None:
    decoder = EventDecoder()
    for start in range(0, len(body), piece):
        decoder.feed(body[start : start + piece])
    decoder.end()


def sse_rows(table: Table, size: int = SSE_SIZE, piece: int = 1024) -> None:
    """The stream decoder on hostile bodies, 1 KB pieces (target: under 100 ms per MB, linear)."""
    for label, make in SSE_BODIES.items():
        body = make(size)
        seconds = best_of(lambda body=body: decode(body, piece), repeat=3)
        peak = peak_memory(lambda body=body: decode(body, piece))
        per_mb = seconds * 1000 / (len(body) / MB)
        cells = (f"{len(body) / MB:.0f} MB", f"{seconds * 1000:.0f} ms", f"{per_mb:.1f}")
        cells += (f"{peak / MB:.1f} MB", f"{peak / len(body):.1f}x")
        table.fill(label, *cells, missed=per_mb > 100)
        print(f"SSE {label}: {', '.join(cells)}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
