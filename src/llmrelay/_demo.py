"""`llmrelay demo`: replay the shipped cassettes through the real Client and print what came back.

The cassettes (package data in `_demo_cassettes/`, made by `scripts/make_demo_cassettes.py`)
hold the HTTP answers; everything else runs for real: the provider SDKs, llmrelay's adapters,
normalizer, repairs, retries and fallbacks. No network and no API key are needed.

The scenarios (which model is asked what, with which client settings) are defined here once, and
the recording script drives the same ones, so the requests the demo makes are the recorded ones.
"""

from __future__ import annotations

import base64
import shutil
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

from ._content import Image

if TYPE_CHECKING:
    from ._client import Client
    from ._envelope import Attempt, Completion, Mode

CASSETTES = Path(__file__).parent / "_demo_cassettes"
"""Where the demo's cassettes ship (package data)."""

QUESTION = [{"role": "user", "content": "What will the weather be in Paris for the next 3 days?"}]
"""The one request every scenario sends."""

PUBLIC_ROOTS: Mapping[str, str] = {
    "openai": "https://api.openai.com",
    "anthropic": "https://api.anthropic.com",
    "gemini": "https://generativelanguage.googleapis.com",
    "groq": "https://api.groq.com",
    "openrouter": "https://openrouter.ai",
}
"""Each provider's public address: the recording hook writes it in place of the loopback one."""

Section = Literal["providers", "text", "repair", "fallback", "image"]

# An 8x8 red PNG: small enough to show in the cassette, a real image all the same.
RED_SQUARE = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mP4z8CAFTEMLQkAKP8/wc53yE8AAAAASUVORK5CYII="
)
IMAGE_QUESTION = [{"role": "user", "content": ["What is in this picture?", Image.from_bytes(RED_SQUARE, "image/png")]}]
"""The image scenario's request: text and an inline PNG, in the OpenAI shape."""


def get_weather(city: str, days: int = 1) -> str:
    """Weather forecast for a city.

    Args:
        city: The city name.
        days: How many days to forecast.
    """
    return f"{city}: sunny, 21°C" + (f" for {days} days" if days > 1 else "")


@dataclass(frozen=True)
class Scenario:
    """One request of the demo: its cassette, the model asked, and the client's settings."""

    name: str
    """The cassette's file name, without `.yaml`."""
    section: Section
    """Where the report shows it."""
    title: str
    """What it shows, in a few words."""
    model: str
    """The model asked first, "provider:model"."""
    base_url: str | None = None
    """The endpoint, for a server of one's own (OpenAI-compatible); None: the provider's public API."""
    mode: Mode | None = None
    """A forced output mode (text, for open models asked to write their calls in their reply)."""
    fallback_models: tuple[str, ...] = ()
    """Models to fall back to, in order."""
    image: bool = False
    """Send `IMAGE_QUESTION` (no tools) instead of the weather question."""

    @property
    def providers(self) -> list[str]:
        """The providers the scenario may call, in order, without repeats."""
        names = [model.split(":", 1)[0] for model in (self.model, *self.fallback_models)]
        return list(dict.fromkeys(names))


_VLLM = "http://localhost:8000/v1"
_OLLAMA = "http://localhost:11434/v1"

SCENARIOS: tuple[Scenario, ...] = (
    Scenario("native_openai", "providers", "OpenAI, native tool API", "openai:gpt-4o-mini"),
    Scenario("native_anthropic", "providers", "Anthropic, native tool API", "anthropic:claude-sonnet-4-6"),
    Scenario("native_gemini", "providers", "Gemini, native tool API", "gemini:gemini-2.5-flash"),
    Scenario("native_groq", "providers", "Groq, native tool API", "groq:llama-3.3-70b-versatile"),
    Scenario(
        "text_hermes",
        "text",
        "Hermes <tool_call> XML (vLLM)",
        "openai-compatible:NousResearch/Hermes-3-Llama-3.1-8B",
        base_url=_VLLM,
        mode="text",
    ),
    Scenario(
        "text_claude_xml",
        "text",
        "Claude-style <function_calls> XML (Ollama)",
        "openai-compatible:qwen2.5:7b",
        base_url=_OLLAMA,
        mode="text",
    ),
    Scenario(
        "text_llama_tokens",
        "text",
        "Llama 3.1 special tokens <|python_tag|> (Ollama)",
        "openai-compatible:llama3.1:8b",
        base_url=_OLLAMA,
        mode="text",
    ),
    Scenario(
        "text_malformed_json",
        "text",
        "Malformed JSON: single quotes, trailing commas (vLLM)",
        "openai-compatible:mistralai/Mistral-7B-Instruct-v0.3",
        base_url=_VLLM,
        mode="text",
    ),
    Scenario("repair", "repair", "A repair round: invalid arguments sent back", "openai:gpt-4o-mini"),
    Scenario(
        "fallback",
        "fallback",
        "A fallback: Anthropic overloaded, OpenAI answers",
        "anthropic:claude-sonnet-4-6",
        fallback_models=("openai:gpt-4o-mini",),
    ),
    Scenario("image", "image", "An image in: an Anthropic image block", "anthropic:claude-sonnet-4-6", image=True),
)
"""Every scenario, in the order the report shows them."""


def make_client(scenario: Scenario, base_url_for: Callable[[str], str | None] | None = None) -> Client:
    """The client a scenario uses; `base_url_for(provider)` overrides each provider's endpoint (recording)."""
    from ._client import Client
    from ._pipeline.retry import RetryPolicy
    from .adapters import ProviderOptions

    def endpoint(provider: str) -> str | None:
        if base_url_for is not None:
            return base_url_for(provider)
        return scenario.base_url if provider == scenario.providers[0] else None

    # No waiting between retries: the answers are recorded (the trace still shows each retry).
    retry = RetryPolicy(max_attempts=2, initial_delay=0, max_delay=0, jitter=0)
    providers = {p: ProviderOptions(api_key="demo-key", base_url=endpoint(p)) for p in scenario.providers[1:]}
    return Client(
        scenario.model,
        api_key="demo-key",
        base_url=endpoint(scenario.providers[0]),
        mode=scenario.mode,
        fallback_models=scenario.fallback_models,
        providers=providers,
        retry=retry,
    )


def ask(scenario: Scenario, base_url_for: Callable[[str], str | None] | None = None) -> Completion:
    """Send the scenario's request: the demo's question with the get_weather tool (or the image, alone)."""
    client = make_client(scenario, base_url_for)
    if scenario.image:
        return client.complete(IMAGE_QUESTION)
    return client.complete(QUESTION, tools=[get_weather])


def replay(scenario: Scenario, folder: Path = CASSETTES) -> Completion:
    """Run the scenario against its cassette only (record mode `none`: nothing leaves the process)."""
    from .testing import cassette

    with cassette(folder / f"{scenario.name}.yaml", "none"):
        return ask(scenario)


# --- the report ----------------------------------------------------------------------------------


def run_demo(out: TextIO, folder: Path = CASSETTES, width: int | None = None) -> int:
    """Replay every scenario and write the report to `out`; returns the exit code."""
    from .errors import LLMRelayError

    width = max(60, min(width or shutil.get_terminal_size((100, 24)).columns, 120))
    results: dict[str, Completion] = {}
    failures = 0
    for scenario in SCENARIOS:
        try:
            results[scenario.name] = replay(scenario, folder)
        except LLMRelayError as exc:
            failures += 1
            out.write(f"! {scenario.name}: {type(exc).__name__}: {exc}\n")
    report = _Report(out, width)
    report.intro()
    report.providers([(s, results[s.name]) for s in SCENARIOS if s.section == "providers" and s.name in results])
    report.text_formats([(s, results[s.name]) for s in SCENARIOS if s.section == "text" and s.name in results])
    for number, section in ((3, "repair"), (4, "fallback")):
        for s in SCENARIOS:
            if s.section == section and s.name in results:
                report.traced(f"{number}. {s.title}", s, results[s.name])
    for s in SCENARIOS:
        if s.section == "image" and s.name in results:
            report.image(f"5. {s.title}", s, results[s.name])
    report.outro()
    return 1 if failures else 0


class _Report:
    """Plain-text sections, wrapped to the terminal's width."""

    def __init__(self, out: TextIO, width: int) -> None:
        self.out = out
        self.width = width

    def line(self, text: str = "", indent: int = 0) -> None:
        if not text:
            self.out.write("\n")
            return
        pad = " " * indent
        for part in textwrap.wrap(text, self.width, initial_indent=pad, subsequent_indent=pad + "  ") or [pad]:
            self.out.write(part + "\n")

    def heading(self, text: str) -> None:
        self.out.write("\n" + text + "\n" + "=" * min(len(text), self.width) + "\n")

    def intro(self) -> None:
        self.line("llmrelay demo: one request, many providers and formats, one canonical answer.")
        self.line(
            "Offline: the HTTP answers come from the cassettes shipped with llmrelay (see the note at the top "
            f"of each file in {CASSETTES.name}/); the provider SDKs, adapters, normalizer, repairs and "
            "fallbacks all run for real."
        )
        self.line(f"Request: {QUESTION[0]['content']!r}, tools=[get_weather(city: str, days: int = 1)]", indent=0)

    def providers(self, rows: Sequence[tuple[Scenario, Completion]]) -> None:
        self.heading("1. The same request, four providers, one envelope")
        table = [("provider", "content", "tool_calls", "needs_more_work", "finish")]
        for _, result in rows:
            table.append(
                (
                    str(result.provider),
                    _short(result.content, 24) or '""',
                    "; ".join(_call(c) for c in result.tool_calls) or "[]",
                    str(result.needs_more_work),
                    str(result.finish_reason),
                )
            )
        self._table(table)
        self.line("Models: " + ", ".join(f"{r.provider}:{r.model}" for _, r in rows) + ".")
        ids = ", ".join(f"{r.provider}: {r.tool_calls[0].id}" for _, r in rows if r.tool_calls)
        self.line(f"Call ids as each provider gave them, made up where none is sent (Gemini): {ids}.")

    def text_formats(self, rows: Sequence[tuple[Scenario, Completion]]) -> None:
        self.heading("2. Open models writing their tool calls in text (mode=text)")
        for scenario, result in rows:
            self.line(f"- {scenario.title}: {scenario.model}")
            self.line("raw:", indent=4)
            for raw_line in _short(result.raw, 4 * self.width).splitlines():
                self.out.write(" " * 6 + _short(raw_line, self.width - 6) + "\n")
            self.line(
                f"-> format={result.format} content={result.content!r} "
                f"tool_calls=[{'; '.join(_call(c) for c in result.tool_calls)}] "
                f"needs_more_work={result.needs_more_work} rejected={len(result.rejected)}",
                indent=4,
            )

    def traced(self, heading: str, scenario: Scenario, result: Completion) -> None:
        self.heading(heading)
        self.line("attempts (the trace):")
        for number, attempt in enumerate(result.attempts, 1):
            self.line(_attempt(number, attempt), indent=2)
        self.line(
            f"result: {result.provider}:{result.model} tool_calls=[{'; '.join(_call(c) for c in result.tool_calls)}] "
            f"needs_more_work={result.needs_more_work} usage={result.usage.total_tokens} tokens over every attempt"
        )

    def image(self, heading: str, scenario: Scenario, result: Completion) -> None:
        self.heading(heading)
        self.line(
            f"Request: ['What is in this picture?', Image.from_bytes(<{len(RED_SQUARE)}-byte PNG>)] "
            f"to {scenario.model}; sent as a base64 image block (see the cassette)."
        )
        self.line(f"-> content={result.content!r} finish={result.finish_reason} attempts={len(result.attempts)}")

    def outro(self) -> None:
        self.line()
        self.line(
            "Same code against the real APIs: drop the cassette and set the provider's API key "
            "(OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, GROQ_API_KEY). More in examples/."
        )

    def _table(self, rows: Sequence[tuple[str, ...]]) -> None:
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        spare = self.width - sum(widths) - 2 * (len(widths) - 1)
        if spare < 0:  # Too narrow: the widest columns give way first.
            for index in sorted(range(len(widths)), key=lambda i: -widths[i]):
                cut = min(-spare, max(0, widths[index] - 12))
                widths[index] -= cut
                spare += cut
                if spare >= 0:
                    break
        for position, row in enumerate(rows):
            cells = [_short(cell, w).ljust(w) for cell, w in zip(row, widths, strict=True)]
            self.out.write("  ".join(cells).rstrip() + "\n")
            if position == 0:
                self.out.write("  ".join("-" * w for w in widths) + "\n")


def _attempt(number: int, attempt: Attempt) -> str:
    why = f" - {_short(attempt.reason, 240)}" if attempt.reason else ""
    return f"{number}. {attempt.provider}:{attempt.model} [{attempt.mode}] {attempt.outcome}{why}"


def _call(call: Any) -> str:
    arguments = ", ".join(f"{k}={v!r}" for k, v in call.arguments.items())
    return f"{call.name}({arguments})"


def _short(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


__all__ = [
    "CASSETTES",
    "IMAGE_QUESTION",
    "PUBLIC_ROOTS",
    "QUESTION",
    "SCENARIOS",
    "Scenario",
    "ask",
    "make_client",
    "replay",
    "run_demo",
]
