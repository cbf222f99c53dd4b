"""Record the cassettes of `llmrelay demo` (and of examples/) from llmrelay's loopback WireServer.

    python scripts/make_demo_cassettes.py            # rewrites src/llmrelay/_demo_cassettes/*.yaml
    python scripts/make_demo_cassettes.py --out DIR  # somewhere else (the test compares the two)

The examples replay some of the same cassettes, from their own copy in examples/cassettes/
(written by the same run, so an example's folder can be copied on its own).

For each scenario of `llmrelay._demo`, one `WireServer` per provider answers scripted replies in
that provider's wire format, and the real `llmrelay.Client` (provider SDKs, adapters, retries,
repairs, fallbacks) is driven against it inside `cassette(path, "all")`: the recorder writes what
went over the wire. The real APIs are out of reach from where these were made, so the answers are
scripted; their shapes follow the providers' documented wire formats (see
src/llmrelay/testing/_wire_formats.py).

The recording hook keeps the files the same from one run (and one machine) to the next: the
loopback address is written as the provider's public address (the demo's code then replays
unchanged), and the request headers that name the SDK, OS and Python versions, and the response's
Date and Server, are left out.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from llmrelay._demo import CASSETTES, PUBLIC_ROOTS, SCENARIOS, Scenario, ask
from llmrelay.testing import Redaction, cassette
from llmrelay.testing._vcr import Headers, Interaction
from llmrelay.testing._wire_server import Reply, WireServer

WEATHER = ("get_weather", {"city": "Paris", "days": 3})

REPLIES: Mapping[str, Mapping[str, Sequence[Reply]]] = {
    "native_openai": {"openai": [Reply(tool_calls=[WEATHER])]},
    "native_anthropic": {"anthropic": [Reply("I'll look up the 3-day forecast for Paris.", tool_calls=[WEATHER])]},
    "native_gemini": {"gemini": [Reply(tool_calls=[WEATHER])]},
    "native_groq": {"groq": [Reply(tool_calls=[WEATHER])]},
    "text_hermes": {
        "openai-compatible": [
            Reply(
                "I'll check the forecast.\n<tool_call>\n"
                '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>'
            )
        ]
    },
    "text_claude_xml": {
        "openai-compatible": [
            Reply(
                'Let me check the weather.\n\n<function_calls>\n<invoke name="get_weather">\n'
                '<parameter name="city">Paris</parameter>\n<parameter name="days">3</parameter>\n'
                "</invoke>\n</function_calls>"
            )
        ]
    },
    "text_llama_tokens": {
        "openai-compatible": [
            Reply('<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris", "days": 3}}<|eom_id|>')
        ]
    },
    "text_malformed_json": {
        "openai-compatible": [
            Reply("Sure! Here is the call:\n{'name': 'get_weather', 'arguments': {'city': 'Paris', 'days': 3,},}")
        ]
    },
    "repair": {
        "openai": [
            Reply(tool_calls=[("get_weather", {"city": "Paris", "days": "three"})]),
            Reply(tool_calls=[WEATHER]),
        ]
    },
    "fallback": {
        "anthropic": [Reply(status=529, error="Overloaded")] * 2,
        "openai": [Reply(tool_calls=[WEATHER])],
    },
    "image": {"anthropic": [Reply("A small red square on its own.")]},
}
"""What each scenario's servers answer, per provider, in order."""

EXAMPLE_CASSETTES = Path(__file__).resolve().parent.parent / "examples" / "cassettes"
EXAMPLES_USE = ("native_openai", "native_anthropic", "native_gemini", "repair")
"""The scenarios whose cassettes the examples replay."""

KEPT_REQUEST_HEADERS = frozenset(
    {"content-type", "accept", "anthropic-version", "authorization", "x-api-key", "x-goog-api-key"}
)
DROPPED_RESPONSE_HEADERS = frozenset({"date", "server"})


def note_for(scenario: Scenario) -> str:
    """The note at the top of the scenario's cassette."""
    return (
        f"llmrelay demo cassette '{scenario.name}': {scenario.title}.\n"
        "Recorded by llmrelay's own recorder (cassette(path, 'all')) with scripts/make_demo_cassettes.py;\n"
        "never edited by hand. The real APIs were out of reach from where it was made: the answers come\n"
        "from llmrelay's loopback WireServer (llmrelay.testing._wire_server), scripted, in shapes that\n"
        "follow the providers' documented wire formats; ids and token counts are the server's own.\n"
        "The recording hook wrote the provider's public address in place of the loopback one and left\n"
        "out the volatile headers (SDK/OS/Python versions, Date, Server). Remake: see cassettes/README.md."
    )


def _root(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _headers(headers: Headers, keep: frozenset[str] | None = None, drop: frozenset[str] = frozenset()) -> Headers:
    # Lower-cased and sorted: httpx2 keeps the case an SDK wrote, httpx lower-cases, and the files
    # must be the same whichever SDK major (and so HTTP stack) recorded them.
    return {
        name.lower(): values
        for name, values in sorted(headers.items(), key=lambda item: item[0].lower())
        if (keep is None or name.lower() in keep) and name.lower() not in drop
    }


def _canonical_json(body: bytes | None) -> bytes | None:
    """A JSON body with sorted keys: SDK versions write the same request's fields in other orders."""
    if not body:
        return body
    try:
        value = json.loads(body)
    except ValueError:
        return body
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def stable(roots: Mapping[str, str]):  # type: ignore[no-untyped-def]
    """The recording hook: public addresses for loopback ones, and no volatile headers."""

    def hook(item: Interaction) -> Interaction:
        uri = item.request.uri
        for loopback, public in roots.items():
            if uri.startswith(loopback + "/"):
                uri = public + uri[len(loopback) :]
        request = dataclasses.replace(
            item.request,
            uri=uri,
            headers=_headers(item.request.headers, keep=KEPT_REQUEST_HEADERS),
            body=_canonical_json(item.request.body),
        )
        response = dataclasses.replace(
            item.response, headers=_headers(item.response.headers, drop=DROPPED_RESPONSE_HEADERS)
        )
        return Interaction(request, response)

    return hook


def record(scenario: Scenario, folder: Path) -> None:
    """Record one scenario's cassette into `folder`."""
    replies = REPLIES[scenario.name]
    servers = {provider: WireServer(script=replies.get(provider, ())) for provider in scenario.providers}
    for server in servers.values():
        server.__enter__()
    try:
        roots = {
            server.url: (_root(scenario.base_url) if provider == "openai-compatible" and scenario.base_url else None)
            or PUBLIC_ROOTS[provider]
            for provider, server in servers.items()
        }
        path = folder / f"{scenario.name}.yaml"
        with cassette(path, "all", redact=Redaction(hook=stable(roots)), note=note_for(scenario)):
            ask(scenario, base_url_for=lambda provider: servers[provider].base_url_for(provider))
    finally:
        for server in servers.values():
            server.__exit__(None, None, None)
    used = {provider: len(server.requests) for provider, server in servers.items()}
    expected = {provider: len(replies.get(provider, ())) for provider in servers}
    if used != expected:
        raise SystemExit(f"{scenario.name}: requests per provider {used}, scripted {expected}")


def main(argv: Sequence[str] | None = None) -> int:
    """Record every scenario; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=CASSETTES, help=f"where to write (default: {CASSETTES})")
    parser.add_argument(
        "--examples-out",
        type=Path,
        default=EXAMPLE_CASSETTES,
        help="the examples' copy (default: examples/cassettes)",
    )
    args = parser.parse_args(argv)
    for scenario in SCENARIOS:
        for folder in (args.out, args.examples_out) if scenario.name in EXAMPLES_USE else (args.out,):
            record(scenario, folder)
            print(f"recorded {folder / scenario.name}.yaml", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
