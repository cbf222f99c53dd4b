"""How fast `loads_lenient` and `iter_json_spans` are, next to `json.loads`, on clean and hostile input.

Run: python benchmarks/lenient_json_speed.py [--check] [--write]

1. Clean JSON: `json.loads` and `loads_lenient` on the same text (the fast path is one json.loads).
2. Hostile input: `loads_lenient` and `iter_json_spans` on each. Target: under 100 ms per MB,
   and under 10x the input in memory (the tracemalloc peak of `loads_lenient`, the value it
   returns included, measured in a separate run: tracing slows the code).
3. If the json-repair package happens to be installed, it runs on the same inputs, each in a
   subprocess killed after 10 s, for comparison ("timeout" when killed; "same" / "differs"
   compares its answer with ours, "error" when ours is an error and its is not).

Timings are the best of several repeats (the least disturbed by the rest of the machine). With
--check the script exits 1 when a target is missed; with --write it writes its tables to
benchmarks/results/lenient_json_speed.md and the README.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import timeit
from collections.abc import Callable
from typing import Any

from _results import Table, peak_memory, verdict, write_results

from llmrelay.normalize import LenientJSONError, loads_lenient
from llmrelay.normalize._scan import iter_json_spans

MB = 1 << 20
TIMEOUT = 10.0
_RUN_JSON_REPAIR = """
import json, sys, time
import json_repair
text = open(sys.argv[1], encoding="utf-8").read()
started = time.perf_counter()
value = json_repair.loads(text)
print(time.perf_counter() - started)
print(json.dumps(value))
"""


def best_of(function: Callable[[], object], repeat: int = 5) -> float:
    """Milliseconds per call: the best of `repeat` single calls."""
    return min(timeit.repeat(function, number=1, repeat=repeat)) * 1000


def envelope(text_size: int) -> str:
    call = {"name": "write_file", "arguments": {"path": "notes.txt", "text": "x" * text_size}}
    return json.dumps({"toolCalls": [call], "content": "Writing it.", "needsMoreWork": True})


def dense_json(size: int) -> str:
    item = {"id": 1, "name": "item", "tags": ["a", "b"], "ok": True, "note": None, "q": 'say "hi"'}
    return json.dumps([item] * (size // len(json.dumps(item))))


def dense_single_quoted(size: int) -> str:
    item = {"id": 1, "name": "item", "tags": ["a", "b"], "ok": True, "note": None, "q": 'say "hi"'}
    return "[" + ", ".join([repr(item)] * (size // (len(repr(item)) + 2))) + "]"


def dense_items(size: int, item: str) -> str:
    """A JSON-like array of `item` repeated, about `size` characters: dense tokens for the general way."""
    return "[" + ", ".join([item] * (size // (len(item) + 2))) + "]"


_VALUE = {"id": 1, "name": "item", "tags": ["a", "b"], "ok": True, "note": None, "q": 'say "hi"'}
_ITEM, _PY_ITEM = json.dumps(_VALUE), repr(_VALUE)


CLEAN = {
    "5 MB envelope, one long string": envelope(5 * MB),
    "1 MB of small objects": dense_json(MB),
}
HOSTILE = {
    "1 MB of {": "{" * MB,
    "1 MB of [": "[" * MB,
    "1 MB envelope missing its last }": envelope(MB)[:-1],
    "1 MB single-quoted JSON (Python repr)": dense_single_quoted(MB),
    "1 MB of }{": "}{" * (MB // 2),
    "{} 500k times": "{}" * (MB // 2),
    "deeply nested, balanced": "{" * (MB // 2) + "}" * (MB // 2),
    "unbalanced junk": "{a}b]c[d{e}}f{" * (MB // 14),
    "wrong closers {]": "{]" * (MB // 2),
    "a stray [ then {} 500k times": "[" + "{}" * (MB // 2),
    'openers between strings {"a"': '{"a"' * (MB // 4),
    "1 MB of apostrophes": "'" * MB,
    "1 MB of bad escapes": '["' + "\\x" * (MB // 2) + '"]',
    "1 MB of unquoted keys": "{" + ",".join(f"k{i}:1" for i in range(MB // 8)) + "}",
    "1 MB of smart-quoted strings": "[" + "“a”," * (MB // 4) + "]",
    "1 MB of line comments": "//\n" * (MB // 3) + "1",
    # Issue 13: a token every 2.5 characters, nested past any parser's depth.
    "`{'a':` nested 200k deep": "{'a':" * (MB // 5),
    # Issue 12: dense tokens the quick way leaves to the general way (comments, quotes of several kinds).
    "1 MB dense JSON, a // comment after each item": dense_items(MB, _ITEM + " // note\n"),
    "1 MB dense JSON, a /* */ comment after each item": dense_items(MB, _ITEM + " /* note */"),
    "1 MB Python repr, a # comment after each item": dense_items(MB, _PY_ITEM + " # note\n"),
    "1 MB dense, single and double quotes mixed": dense_items(MB, _ITEM.replace('"name"', "'name'")),
    "1 MB dense, smart and straight quotes mixed": dense_items(MB, _ITEM.replace('"name"', "“name”")),
    "1 MB of `1//` lines (a comment every 6 characters)": dense_items(MB, "1//\n"),
    "1 MB of `'a',\"b\"` (a string every 4 characters)": dense_items(MB, "'a',\"b\""),
    # Comment marks inside strings next to comments: blanked around the strings.
    "1 MB dense JSON holding `//` and `#`, a // comment after each item": dense_items(
        MB, _ITEM.replace("item", "http://x/#y") + " // note\n"
    ),
    "1 MB Python repr holding `#`, a # comment after each item": dense_items(
        MB, _PY_ITEM.replace("item", "#1") + " # note\n"
    ),
}


def lenient_outcome(text: str) -> tuple[str, Any]:
    try:
        return "ok", loads_lenient(text)
    except LenientJSONError as exc:
        return type(exc).__name__, None


def json_repair_on(text: str, ours: tuple[str, Any]) -> str:
    """Time json_repair in a subprocess that is killed after TIMEOUT seconds."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as file:
        file.write(text)
    try:
        done = subprocess.run(
            [sys.executable, "-c", _RUN_JSON_REPAIR, file.name], capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return f"timeout (> {TIMEOUT:.0f} s)"
    finally:
        os.unlink(file.name)
    if done.returncode:
        return "crashed: " + (done.stderr.strip().splitlines() or ["?"])[-1][:40]
    seconds, _, answer = done.stdout.partition("\n")
    theirs = json.loads(answer)
    verdict = "error" if ours[0] != "ok" else ("same" if theirs == ours[1] else "differs")
    return f"{float(seconds) * 1000:9.1f} ms  {verdict}"


def tables() -> list[Table]:
    clean = Table(
        ["clean input", "size", "json.loads", "loads_lenient", "ratio"],
        list(CLEAN),
        "Clean JSON (the fast path is one json.loads):",
    )
    columns = ["hostile input", "size", "loads_lenient, per MB", "peak memory / input", "outcome"]
    columns += ["iter_json_spans, per MB", "json_repair"]
    hostile = Table(columns, list(HOSTILE), "Hostile input (target: under 100 ms per MB and 10x the input in memory):")
    return [clean, hostile]


def main() -> int:
    clean, hostile = done = tables()
    for name, text in CLEAN.items():
        strict = best_of(lambda text=text: json.loads(text))
        lenient = best_of(lambda text=text: loads_lenient(text))
        cells = (f"{len(text) / MB:.2f} MB", f"{strict:.1f} ms", f"{lenient:.1f} ms", f"{lenient / strict:.2f}x")
        clean.fill(name, *cells)
    for name, text in HOSTILE.items():
        size = len(text) / MB
        lenient = best_of(lambda text=text: lenient_outcome(text))
        outcome = lenient_outcome(text)
        memory = peak_memory(lambda text=text: lenient_outcome(text)) / len(text.encode())
        spans = best_of(lambda text=text: sum(1 for _ in iter_json_spans(text)))
        cells = [f"{size:.2f} MB", f"{lenient / size:.1f} ms", f"{memory:.1f}x", outcome[0], f"{spans / size:.1f} ms"]
        have_json_repair = importlib.util.find_spec("json_repair") is not None
        cells.append(json_repair_on(text, outcome).strip() if have_json_repair else "not installed")
        hostile.fill(name, *cells, missed=max(lenient, spans) / size > 100 or memory > 10)
        print(f"{name}: {', '.join(cells)}", flush=True)
    print("\n\n".join([clean.markdown(), hostile.markdown(), verdict(done)]))
    if "--write" in sys.argv[1:]:
        write_results("lenient_json_speed", "python benchmarks/lenient_json_speed.py", done)
    return 1 if "--check" in sys.argv[1:] and hostile.missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
