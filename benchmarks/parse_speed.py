"""How fast `parse_response` is, next to `json.loads`, and on hostile input, whole and streamed.

Run: python benchmarks/parse_speed.py [--check] [--write]

1. Clean answers, timed against `json.loads` on the same JSON in the same run (for a fence, the
   JSON inside it; for Hermes blocks, the same calls as one JSON array), batches of the two in
   turn: the medians, and the median of the ratios within each pair. Target: a clean envelope
   within 2x of json.loads, a fenced or tagged one within 3x.
2. Adversarial inputs. Target: every one under 100 ms per MB, and under 10x the input's size in
   extra memory (the tracemalloc peak, measured in a separate run: tracing slows the code).
3. The hostile shapes streamed through `IncrementalParser` (256-character chunks, text mode and
   json mode), beside a megabyte of prose: the per-chunk cost of any stream, hostile or not.
   Target: under 100 ms per MB and under 10x the input in memory.

The other timings are the best of several repeats (the least disturbed by the machine). With
--check the script exits 1 when a target is missed; with --write it writes its tables to
benchmarks/results/parse_speed.md and the README.
"""

from __future__ import annotations

import json
import sys
import timeit
from collections.abc import Callable

from _results import Table, median, paired, peak_memory, verdict, write_results

from llmrelay import parse_response
from llmrelay.normalize._incremental import IncrementalParser

MB = 1_000_000
CHUNK = 256


def best_of(function: Callable[[], object], *, number: int, repeat: int = 7) -> float:
    """Seconds per call: the best of `repeat` runs of `number` calls."""
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def batch(function: Callable[[str], object], argument: str, number: int) -> Callable[[], object]:
    """`function(argument)` called `number` times."""
    return lambda: [function(argument) for _ in range(number)]


def envelope(calls: int, content_words: int, ids: bool = False) -> str:
    call = {"name": "get_weather", "arguments": {"city": "Paris", "days": 3, "units": "metric"}}
    items = [{"id": f"call_{i:024d}", **call} if ids else call for i in range(calls)]
    return json.dumps({"toolCalls": items, "content": "Checking. " * content_words, "needsMoreWork": True})


def hermes_blocks(size: int) -> tuple[str, str]:
    """About `size` characters of Hermes blocks (a 2 KB call each), and the same calls as one JSON array."""
    call = json.dumps({"name": "write_file", "arguments": {"path": "notes.txt", "text": "x" * 2000}})
    count = size // (len(call) + 27)
    return f"<tool_call>\n{call}\n</tool_call>\n" * count, "[" + ",".join([call] * count) + "]"


def clean_answers() -> dict[str, tuple[str, str, float]]:
    """label -> (the answer, the JSON json.loads is timed on, the target ratio)."""
    seed = json.dumps(
        {"toolCalls": [{"name": "read_file", "arguments": {"path": "config.json"}}], "needsMoreWork": True}
    )
    ids, plain = envelope(12, 40, ids=True), envelope(16, 40)
    hermes, array = hermes_blocks(MB)
    answers = {
        "seed 000 envelope (1 call)": (seed, seed, 2.0),
        "envelope, 2 calls + a paragraph": (envelope(2, 60), envelope(2, 60), 2.0),
        "envelope, 20 calls + a page": (envelope(20, 600), envelope(20, 600), 2.0),
        "envelope, 12 calls with ids": (ids, ids, 2.0),
        "envelope in a json code fence": ("```json\n" + plain + "\n```", plain, 3.0),
        "Hermes blocks, 2 KB calls": (hermes, array, 3.0),
    }
    return {f"{label} ({size(text)})": value for label, value in answers.items() for text in [value[0]]}


def size(text: str) -> str:
    length = len(text.encode())
    return (
        f"{length / MB:.2f} MB" if length >= MB // 2 else f"{length / 1000:.1f} KB" if length >= 1000 else f"{length} B"
    )


def adversarial_inputs() -> dict[str, str]:
    call = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
    return {
        "1 MB of {": "{" * MB,
        "1 MB of [": "[" * MB,
        "200k unclosed <tool_call>": "<tool_call>" * 200_000,
        "1 MB of triple-backtick fences": "```" * (MB // 3),
        "1 MB of unclosed json code fences": "```json\n{\n" * (MB // 10),
        "1 MB prose, one call at the end": "The weather is nice today. " * (MB // 27) + call,
        "5 MB envelope, one long string": json.dumps({"toolCalls": [], "content": "x" * (5 * MB)}),
        "1 MB envelope missing its last brace": json.dumps({"toolCalls": [], "content": "y" * MB})[:-1],
        "10k small calls, Hermes blocks": f"<tool_call>{call}</tool_call>\n" * 10_000,
        "10k small calls, one envelope": json.dumps({"toolCalls": [json.loads(call)] * 10_000}),
        "1 MB of }{": "}{" * (MB // 2),
        "500k {} pairs": "{}" * 500_000,
        "1 MB single-quoted JSON call": "{'name': 'f', 'arguments': {'text': '" + "z" * MB + "'}}",
        "100k <invoke without close": '<invoke name="f"><parameter name="a">' * 20_000,
        "200k [TOOL_CALLS] tokens": "[TOOL_CALLS]" * 200_000,
        # Issue 16: the formats of round two, and reasoning blocks.
        "200k <think> never closed": "<think>" * 200_000,
        "200k empty <think></think> blocks": "<think></think>" * 200_000,
        "200k lone </think> close tags": "</think>" * 120_000,
        "1 MB prose, then a lone </think>": "hmm " * (MB // 4) + "</think>Sunny.",
        "250k </s> end tokens": "</s>" * 250_000,
        "1 MB thinking, a call inside": "<think>" + "hmm " * (MB // 4) + f"<tool_call>{call}</tool_call></think>",
        "200k LFM2 tool_call_start + [f(": "<|tool_call_start|>[f(" * 50_000,
        "1 MB LFM2 blocks, quotes nested unescaped": "<|tool_call_start|>[f(a='x'y')]<|tool_call_end|>" * 20_000,
        "100k OLMo 3 <function_calls> lines": "<function_calls>\nf(a=1\n" * 50_000,
        "200k <TOOLCALL>[{": "<TOOLCALL>[{" * 80_000,
        "100k GigaChat headers": "function call<|role_sep|>\n{" * 40_000,
        "50k DSML invokes, unclosed": '<｜DSML｜invoke name="f"><｜DSML｜parameter name="a" string="true">' * 15_000,
        "100k <seed:tool_call> shells": "<seed:tool_call>\n" * 60_000,
        "100k <steptml:invoke, unclosed": '<steptml:invoke name="f"><steptml:parameter name="a">' * 20_000,
        "100k <longcat_tool_call>{": "<longcat_tool_call>{" * 50_000,
        "100k harmony final messages": "<|channel|>final<|message|>x<|end|>" * 30_000,
        "70k harmony message tokens + to=f (one body)": "<|message|>to=f" * 70_000,
        "200k Apriel markers": "Here are my reasoning steps:\n[BEGIN FINAL RESPONSE]" * 20_000,
        "100k Gemma 4 calls, strings unclosed": '<|tool_call>call:f{a:<|"|>' * 40_000,
        "100k MiniCPM5 functions, unclosed": '<function name="f"><param name="a">' * 30_000,
        # Issue 16, round three (fmta).
        "15k Kimi K3 calls, an argument unclosed": '<|open|>call tool="f"<|sep|><|open|>argument key="a"<|sep|>'
        * 15_000,
        "60k MiniMax M3 argument tags, unclosed": "]<]minimax[>[<tool_call>" + "]<]minimax[>[<a>" * 60_000,
        "100k HY-V4 suffixed keys, unclosed": "<tool_call:9f>f<arg_key:9f>a" * 100_000,
        "30k GCML invokes, unclosed": '<｜GCML｜invoke name="f"><｜GCML｜parameter name="a">' * 30_000,
        "100k Pangu [unused11][{": "[unused11][{" * 100_000,
        "50k Inkling tool blocks, cut off": "<|content_invoke_tool_json|>{" * 50_000,
        "20k K2 Horizon typed pairs, unclosed": "<ifm|tool_call>f<ifm|arg_key>a</ifm|arg_key><ifm|arg_type>" * 20_000,
        # Issue 16, engines audit.
        "200k Qwen2.5-Coder <tools>[{, unclosed": "<tools>[{" * 80_000,
        "200k Magistral [THINK] openers": "[THINK]" * 200_000,
        "100k <json>{ wrappers, unclosed": "<json>{" * 100_000,
        "15k DSML V4.1 spaced invokes, unclosed": '<｜DSML｜ invoke name="f"><｜DSML｜ parameter name="a">' * 15_000,
        # Round three.
        "100k CWM <tool: blocks, unclosed": "<tool: function>\nterminal ls\n" * 30_000,
        "100k PLaMo 3 requests, names unclosed": "<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>f"
        * 15_000,
        "100k Solar Open 2 arguments, values unclosed": "<|tool_call:start|>f\n"
        + "<|tool_arg:start|>a<|tool_arg:value|>" * 25_000,
        "100k iQuest Coder V2 blocks, unclosed": "<iquestcoder_tool_call>f<arg_key>a</arg_key>" * 25_000,
        "1 MB of RWKV **Tool Call:** fences, unclosed": "**Tool Call:**\n```json\n{" * 40_000,
        "1 MB of blanks, then HyperCLOVA X's role line": " " * MB + "-> tool/function_call\n[{",
        "20k MuseGlimmer tool messages, invokes unclosed": '<|start|>assistant to=f<|message|><atem:invoke name="f">'
        * 20_000,
        "100k Step-Audio 2 <tool_call>function lines": "<tool_call>function\nf\n{" * 50_000,
        "100k Intern-S1 actions, spaced tokens": "<|action_start|>\n<|plugin|>\n{" * 30_000,
        "1 MB call array, one item broken (the scan is _scan's)": "[TOOL_CALLS]["
        + f"{call}, " * 18_000
        + '{"name": "f", "arguments": @}]',
        **hostile_shapes(),
    }


def hostile_shapes() -> dict[str, str]:
    """The shapes issue 12 found slow or memory-hungry, a megabyte each."""
    return {
        '`{"a":` nested 200k deep': '{"a":' * (MB // 5),
        '`{"content":` nested 90k deep': '{"content":' * (MB // 11),
        '`{"a":[` nested': '{"a":[' * (MB // 6),
        "runs of `//\\n`": "//\n" * (MB // 3),
        'runs of `{"`': '{"' * (MB // 2),
        "`{'a':` nested (lenient JSON, a token every 2.5 characters)": "{'a':" * (MB // 5),
        # Dense tokens the lenient loader's general way reads: comments, quotes of several kinds.
        "1 MB dense JSON, a // comment after each item": dense_items(ITEM + " // note\n"),
        "1 MB dense, single and double quotes mixed": dense_items(ITEM.replace('"name"', "'name'")),
    }


# Items of ~100 characters, whose value takes ~5x their text (json.loads builds items of 30 characters at ~9x).
ITEM = json.dumps({"id": 1, "name": "item", "tags": ["a", "b"], "ok": True, "note": None, "q": 'say "hi"'})


def dense_items(item: str) -> str:
    """A JSON-like array of `item` repeated, about a megabyte."""
    return "[" + ", ".join([item] * (MB // (len(item) + 2))) + "]"


def streamed_inputs() -> dict[str, str]:
    return {"1 MB of prose (reference)": "The weather is nice today. " * (MB // 27), **hostile_shapes()}


def stream(text: str, json_mode: bool) -> None:
    parser = IncrementalParser(json_mode=json_mode)
    for start in range(0, len(text), CHUNK):
        parser.feed(text[start : start + CHUNK])
    parser.finish()


def tables() -> list[Table]:
    clean = Table(
        ["answer", "json.loads", "parse_response", "ratio", "target"],
        list(clean_answers()),
        "Clean answers, against `json.loads` on the same JSON:",
    )
    adversarial = Table(
        ["adversarial input", "size", "time per MB", "peak memory / input", "result"],
        list(adversarial_inputs()),
        "Adversarial input (target: under 100 ms per MB and 10x the input in memory):",
    )
    streamed = Table(
        ["streamed input", "text mode, per MB", "json mode, per MB", "peak memory / input"],
        list(streamed_inputs()),
        f"The same hostile input streamed through `IncrementalParser` in {CHUNK}-character chunks:",
    )
    return [clean, adversarial, streamed]


def measure_clean(table: Table) -> None:
    for label, (text, baseline, target) in clean_answers().items():
        assert parse_response(text).tool_calls, label
        number = max(1, 20_000 // max(len(text), 100))
        loads, parse = paired(batch(json.loads, baseline, number), batch(parse_response, text, number), 300)
        ratio = median([p / s for s, p in zip(loads, parse, strict=True)])
        loads_us, parse_us = median(loads) * 1e6 / number, median(parse) * 1e6 / number
        cells = (f"{loads_us:.1f} µs", f"{parse_us:.1f} µs", f"{ratio:.2f}x", f"{target:.0f}x")
        table.fill(label, *cells, missed=ratio > target)


def measure_adversarial(table: Table) -> None:
    for label, text in adversarial_inputs().items():
        result = parse_response(text)
        seconds = best_of(lambda text=text: parse_response(text), number=1, repeat=3)
        megabytes = len(text.encode()) / MB
        memory = peak_memory(lambda text=text: parse_response(text)) / len(text.encode())
        outcome = f"{len(result.tool_calls)} calls, {len(result.rejected)} rejected"
        per_mb = seconds * 1000 / megabytes
        cells = (f"{megabytes:.2f} MB", f"{per_mb:.1f} ms", f"{memory:.1f}x", outcome)
        table.fill(label, *cells, missed=per_mb > 100 or memory > 10)


def measure_streamed(table: Table) -> None:
    for label, text in streamed_inputs().items():
        megabytes = len(text.encode()) / MB
        text_mode = best_of(lambda text=text: stream(text, False), number=1, repeat=3) * 1000 / megabytes
        json_mode = best_of(lambda text=text: stream(text, True), number=1, repeat=3) * 1000 / megabytes
        memory = max(peak_memory(lambda text=text, j=j: stream(text, j)) for j in (False, True)) / len(text.encode())
        cells = (f"{text_mode:.1f} ms", f"{json_mode:.1f} ms", f"{memory:.1f}x")
        table.fill(label, *cells, missed=max(text_mode, json_mode) > 100 or memory > 10)


def main() -> int:
    done = tables()
    for table, measure in zip(done, (measure_clean, measure_adversarial, measure_streamed), strict=True):
        measure(table)
        print(table.markdown() + "\n", flush=True)
    print(verdict(done))
    if "--write" in sys.argv[1:]:
        write_results("parse_speed", "python benchmarks/parse_speed.py", done)
    return 1 if "--check" in sys.argv[1:] and any(t.missed for t in done) else 0


if __name__ == "__main__":
    raise SystemExit(main())
