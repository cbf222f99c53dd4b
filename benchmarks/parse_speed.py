"""How fast `parse_response` is, next to `json.loads`, and on hostile input.

Run: python benchmarks/parse_speed.py [--check]

1. A clean envelope, at three sizes, timed against `json.loads` on the same text in the same run.
   Target: within 2x of json.loads.
2. Adversarial inputs. Target: every one under 100 ms per MB.

Timings are the best of several repeats (the least disturbed by the rest of the machine).
With --check the script exits 1 when a target is missed.
"""

from __future__ import annotations

import json
import sys
import timeit
from collections.abc import Callable

from llmrelay import parse_response

MB = 1_000_000


def best_of(function: Callable[[], object], *, number: int, repeat: int = 7) -> float:
    """Seconds per call: the best of `repeat` runs of `number` calls."""
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def envelope(calls: int, content_words: int) -> str:
    call = {"name": "get_weather", "arguments": {"city": "Paris", "days": 3, "units": "metric"}}
    return json.dumps({"toolCalls": [call] * calls, "content": "Checking. " * content_words, "needsMoreWork": True})


def clean_envelopes() -> list[tuple[str, float, float]]:
    sizes = {
        "seed 000 envelope (1 call)": json.dumps(
            {"toolCalls": [{"name": "read_file", "arguments": {"path": "config.json"}}], "needsMoreWork": True}
        ),
        "envelope, 2 calls + a paragraph": envelope(2, 60),
        "envelope, 20 calls + a page": envelope(20, 600),
    }
    rows = []
    for label, text in sizes.items():
        assert parse_response(text).tool_calls, label
        number = max(200, 200_000 // max(len(text), 100))
        rows.append(
            (
                f"{label} [{len(text)} B]",
                best_of(lambda text=text: json.loads(text), number=number),
                best_of(lambda text=text: parse_response(text), number=number),
            )
        )
    return rows


def adversarial_inputs() -> dict[str, str]:
    call = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
    return {
        "1 MB of {": "{" * MB,
        "1 MB of [": "[" * MB,
        "200k unclosed <tool_call>": "<tool_call>" * 200_000,
        "1 MB of ``` fences": "```" * (MB // 3),
        "1 MB of ```json fences, unclosed": "```json\n{\n" * (MB // 10),
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
        "1 MB thinking, a call inside": "<think>" + "hmm " * (MB // 4) + f"<tool_call>{call}</tool_call></think>",
        "200k LFM2 <|tool_call_start|>[f(": "<|tool_call_start|>[f(" * 50_000,
        "100k OLMo 3 <function_calls> lines": "<function_calls>\nf(a=1\n" * 50_000,
        "200k <TOOLCALL>[{": "<TOOLCALL>[{" * 80_000,
        "100k GigaChat headers": "function call<|role_sep|>\n{" * 40_000,
        "50k DSML invokes, unclosed": '<｜DSML｜invoke name="f"><｜DSML｜parameter name="a" string="true">' * 15_000,
        "100k <seed:tool_call> shells": "<seed:tool_call>\n" * 60_000,
        "100k <steptml:invoke, unclosed": '<steptml:invoke name="f"><steptml:parameter name="a">' * 20_000,
        "100k <longcat_tool_call>{": "<longcat_tool_call>{" * 50_000,
        "100k harmony final messages": "<|channel|>final<|message|>x<|end|>" * 30_000,
        "200k Apriel markers": "Here are my reasoning steps:\n[BEGIN FINAL RESPONSE]" * 20_000,
        "100k Gemma 4 calls, strings unclosed": '<|tool_call>call:f{a:<|"|>' * 40_000,
        "100k MiniCPM5 functions, unclosed": '<function name="f"><param name="a">' * 30_000,
        "1 MB call array, one item broken (the scan is _scan's)": "[TOOL_CALLS]["
        + f"{call}, " * 18_000
        + '{"name": "f", "arguments": @}]',
    }


def main() -> int:
    check = "--check" in sys.argv[1:]
    missed = []
    print("Clean envelope: parse_response vs json.loads (target: within 2x)\n")
    print(f"{'input':52} {'json.loads':>12} {'parse_response':>15} {'ratio':>7}")
    for label, loads, parse in clean_envelopes():
        ratio = parse / loads
        print(f"{label:52} {loads * 1e6:10.2f}µs {parse * 1e6:13.2f}µs {ratio:6.2f}x")
        if ratio > 2:
            missed.append(label)
    print("\nAdversarial input (target: under 100 ms per MB)\n")
    print(f"{'input':40} {'size':>9} {'time':>10} {'per MB':>10}  result")
    for label, text in adversarial_inputs().items():
        result = parse_response(text)
        seconds = best_of(lambda text=text: parse_response(text), number=1, repeat=3)
        megabytes = len(text.encode()) / MB
        per_mb = seconds * 1000 / megabytes
        outcome = f"{len(result.tool_calls)} calls, {len(result.rejected)} rejected"
        print(f"{label:40} {megabytes:7.2f}MB {seconds * 1000:8.1f}ms {per_mb:8.1f}ms  {outcome}")
        if per_mb > 100:
            missed.append(label)
    print("\nall targets met" if not missed else f"\ntargets missed: {', '.join(missed)}")
    return 1 if check and missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
