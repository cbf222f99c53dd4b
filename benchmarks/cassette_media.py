"""Cassettes with large base64 bodies (issue 14): redaction, writing and reading stay linear.

Run: python benchmarks/cassette_media.py [--check]

One interaction whose request carries an inline image of 64 KB, 1 MB and 8 MB of base64 (an
Anthropic Messages body), with a user `secrets` rule and a `body_fields` rule (both walk the body),
is redacted (`Redactor.interaction`), written (`dump_cassette`) and read back (`parse_cassette`).
The figure is microseconds per megabyte of body, the median of several repeats. Target:
linear, i.e. the 8 MB body costs at most 2x per megabyte what the 1 MB one does (the 64 KB body
fits in the CPU caches and is cheaper per megabyte). For reference, the last line writes the 1 MB
cassette with PyYAML's pure-Python emitter, which llmrelay used before libyaml's (same text).
"""

from __future__ import annotations

import base64
import json
import statistics
import sys
import time
from collections.abc import Callable

from llmrelay.testing import Redaction
from llmrelay.testing._redact import Redactor
from llmrelay.testing._vcr import Interaction, RecordedRequest, RecordedResponse, parse_cassette
from llmrelay.testing._vcr_write import dump_cassette

SIZES = (64_000, 1_000_000, 8_000_000)
"""Base64 characters of the inline image."""
REPEATS = 5
RULES = Redaction(secrets=["sk-ant-secret-value"], body_fields=["metadata.user_id"])


def interaction(size: int) -> Interaction:
    """An Anthropic request with one inline image of `size` base64 characters, and its answer."""
    data = base64.b64encode(b"\x89PNG" * (size * 3 // 16))[:size].decode()
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 64,
        "metadata": {"user_id": "u-1"},
        "messages": [{"role": "user", "content": [{"type": "text", "text": "What is this?"}, image]}],
    }
    request = RecordedRequest(
        "POST",
        "https://api.anthropic.com/v1/messages",
        {"x-api-key": ["sk-ant-secret-value"]},
        json.dumps(body).encode(),
    )
    answer = b'{"content": [{"type": "text", "text": "A picture."}], "stop_reason": "end_turn"}'
    return Interaction(request, RecordedResponse(200, "OK", {"content-type": ["application/json"]}, answer))


def timed(step: Callable[[], object]) -> float:
    """Median seconds of `step` over `REPEATS` runs."""
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(size: int) -> dict[str, float]:
    """Microseconds per MB of body for redact, write and read."""
    item = interaction(size)
    megabytes = len(item.request.body or b"") / 1_000_000
    redactor = Redactor(RULES)
    redacted = redactor.interaction(item)
    assert redacted is not None and b"sk-ant-secret-value" not in (redacted.request.body or b"")
    text = dump_cassette([redacted])
    steps = {
        "redact": lambda: redactor.interaction(item),
        "write": lambda: dump_cassette([redacted]),
        "read": lambda: parse_cassette(text),
    }
    return {name: timed(step) * 1e6 / megabytes for name, step in steps.items()}


def python_emitter_write(size: int) -> float:
    """Microseconds per MB to write the cassette with PyYAML's pure-Python emitter (the reference)."""
    import yaml

    from llmrelay.testing import _vcr_write

    item = interaction(size)
    megabytes = len(item.request.body or b"") / 1_000_000

    class PythonDumper(yaml.SafeDumper):
        pass

    PythonDumper.add_representer(str, _vcr_write._text)
    data = {"interactions": [_vcr_write._interaction(item)], "version": 1}
    seconds = timed(lambda: yaml.dump(data, Dumper=PythonDumper, sort_keys=False, allow_unicode=True, width=120))
    return seconds * 1e6 / megabytes


def main(argv: list[str]) -> int:
    """Print the table; with --check, exit 1 when a step is not linear."""
    rows = {size: measure(size) for size in SIZES}
    print(f"{'base64 chars':>13} | {'redact µs/MB':>12} | {'write µs/MB':>12} | {'read µs/MB':>12}")
    for size, row in rows.items():
        print(f"{size:>13,} | {row['redact']:>12,.0f} | {row['write']:>12,.0f} | {row['read']:>12,.0f}")
    ratios = {name: rows[SIZES[-1]][name] / rows[SIZES[1]][name] for name in rows[SIZES[1]]}
    print("8 MB / 1 MB per MB: " + ", ".join(f"{name} {ratio:.2f}x" for name, ratio in ratios.items()))
    print(f"pure-Python YAML write, 1 MB: {python_emitter_write(SIZES[1]):,.0f} µs/MB")
    slow = [name for name, ratio in ratios.items() if ratio > 2]
    if "--check" in argv and slow:
        print(f"not linear: {', '.join(slow)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
