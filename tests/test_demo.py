"""`llmrelay demo`: the shipped cassettes are the recorder's output, and the demo replays them offline."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from llmrelay import _demo

ROOT = Path(__file__).parent.parent
SCRIPT = ROOT / "scripts" / "make_demo_cassettes.py"

# Run in a fresh interpreter with no API key and every socket connection refused: the demo must
# need neither the network nor a key.
GUARDED_DEMO = """
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("the demo tried to open a connection")
socket.socket.connect = refuse
socket.create_connection = refuse
from llmrelay._cli import main
sys.exit(main(["demo", "--width", "100"]))
"""
KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "GROQ_API_KEY", "OPENROUTER_API_KEY")


def _previous_sdk_majors() -> bool:
    import anthropic
    import openai

    return int(openai.__version__.split(".")[0]) < 3 or int(anthropic.__version__.split(".")[0]) < 2


# The cassettes are made with the current SDK majors. The previous ones (which CI also runs) speak
# the same API with other headers (anthropic-version, x-api-key instead of Authorization), so
# their recordings differ by design; the replays below still pass on them.
@pytest.mark.skipif(
    _previous_sdk_majors(), reason="cassettes are made with openai 3 / anthropic 2; older SDKs send other headers"
)
def test_the_shipped_cassettes_are_exactly_what_the_script_records(tmp_path: Path) -> None:
    script = runpy.run_path(str(SCRIPT))
    assert script["main"](["--out", str(tmp_path), "--examples-out", str(tmp_path / "examples")]) == 0
    for name in script["EXAMPLES_USE"]:
        made = (tmp_path / "examples" / f"{name}.yaml").read_text(encoding="utf-8")
        assert (ROOT / "examples" / "cassettes" / f"{name}.yaml").read_text(encoding="utf-8") == made
    shipped = sorted(p.name for p in _demo.CASSETTES.glob("*.yaml"))
    assert shipped == sorted(f"{s.name}.yaml" for s in _demo.SCENARIOS)
    assert sorted(p.name for p in tmp_path.glob("*.yaml")) == shipped
    for name in shipped:
        made = (tmp_path / name).read_text(encoding="utf-8")
        assert (_demo.CASSETTES / name).read_text(encoding="utf-8") == made, (
            f"{name} differs from what scripts/make_demo_cassettes.py records: remake, never edit by hand"
        )


@pytest.mark.parametrize("scenario", _demo.SCENARIOS, ids=lambda s: s.name)
def test_each_cassette_starts_with_a_note_saying_how_it_was_made(scenario: _demo.Scenario) -> None:
    text = (_demo.CASSETTES / f"{scenario.name}.yaml").read_text(encoding="utf-8")
    header = text.split("interactions:", 1)[0]
    assert header.startswith(f"# llmrelay demo cassette '{scenario.name}'")
    for fact in ("scripts/make_demo_cassettes.py", "WireServer", "never edited by hand", "out of reach"):
        assert fact in header
    assert "demo-key" not in text


WEATHER = [("get_weather", {"city": "Paris", "days": 3})]
# scenario -> (provider, model, content, calls, format, outcomes of the attempts)
EXPECTED = {
    "native_openai": ("openai", "gpt-4o-mini", "", WEATHER, "native", ["ok"]),
    "native_anthropic": (
        "anthropic",
        "claude-sonnet-4-6",
        "I'll look up the 3-day forecast for Paris.",
        WEATHER,
        "native",
        ["ok"],
    ),
    "native_gemini": ("gemini", "gemini-2.5-flash", "", WEATHER, "native", ["ok"]),
    "native_groq": ("groq", "llama-3.3-70b-versatile", "", WEATHER, "native", ["ok"]),
    "text_hermes": (
        "openai-compatible",
        "NousResearch/Hermes-3-Llama-3.1-8B",
        "I'll check the forecast.",
        WEATHER,
        "hermes",
        ["ok"],
    ),
    "text_claude_xml": (
        "openai-compatible",
        "qwen2.5:7b",
        "Let me check the weather.",
        WEATHER,
        "anthropic_xml",
        ["ok"],
    ),
    "text_llama_tokens": ("openai-compatible", "llama3.1:8b", "", WEATHER, "llama", ["ok"]),
    "text_malformed_json": (
        "openai-compatible",
        "mistralai/Mistral-7B-Instruct-v0.3",
        "Sure! Here is the call:",
        WEATHER,
        "embedded_json",
        ["ok"],
    ),
    "repair": ("openai", "gpt-4o-mini", "", WEATHER, "native", ["repair", "ok"]),
    "fallback": ("openai", "gpt-4o-mini", "", WEATHER, "native", ["retry", "error", "ok"]),
    "image": ("anthropic", "claude-sonnet-4-6", "A small red square on its own.", [], None, ["ok"]),
}


@pytest.mark.parametrize("scenario", _demo.SCENARIOS, ids=lambda s: s.name)
def test_each_scenario_replays_to_the_same_envelope(scenario: _demo.Scenario) -> None:
    result = _demo.replay(scenario)
    provider, model, content, calls, form, outcomes = EXPECTED[scenario.name]
    assert (result.provider, result.model, result.content) == (provider, model, content)
    assert [(c.name, c.arguments) for c in result.tool_calls] == calls
    assert (result.needs_more_work, result.rejected) == (bool(calls) or None, [])
    assert result.format == form
    assert [a.outcome for a in result.attempts] == outcomes
    if scenario.section == "text":
        assert result.mode == "text" and "get_weather" in result.raw
    if scenario.name == "repair":
        assert "'three'" in str(result.attempts[0].reason)
    if scenario.name == "fallback":
        assert [a.provider for a in result.attempts] == ["anthropic", "anthropic", "openai"]
        assert "529" in str(result.attempts[1].reason)


def test_llmrelay_demo_runs_with_no_key_and_no_network() -> None:
    env = {k: v for k, v in os.environ.items() if k not in KEYS and k != "CI"}
    done = subprocess.run(
        [sys.executable, "-c", GUARDED_DEMO], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    sections = [
        "1. The same request, four providers, one envelope",
        "2. Open models writing their tool calls in text",
        "3. A repair round",
        "4. A fallback",
    ]
    assert [out.find(s) >= 0 for s in sections] == [True] * 4
    assert [out.find(s) for s in sections] == sorted(out.find(s) for s in sections)
    for provider in ("openai", "anthropic", "gemini", "groq"):
        assert f"\n{provider} " in out and "get_weather(city='Paris', days=3)" in out
    for form in ("format=hermes", "format=anthropic_xml", "format=llama", "format=embedded_json"):
        assert form in out
    assert "<|python_tag|>" in out and "<tool_call>" in out
    assert "[native_tools] repair - The call to 'get_weather' has invalid arguments" in out
    assert "anthropic:claude-sonnet-4-6 [native_tools] retry - OverloadedError" in out
    assert "3. openai:gpt-4o-mini [native_tools] ok" in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_a_missing_cassette_is_reported_not_fetched(tmp_path: Path) -> None:
    import io

    out = io.StringIO()
    assert _demo.run_demo(out, folder=tmp_path, width=80) == 1
    assert "MissingCassetteError" in out.getvalue()


EXAMPLES = ROOT / "examples"


@pytest.mark.parametrize("script", ["quickstart.py", "swap_providers.py", "python_tools.py"])
def test_each_example_runs_offline(script: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in KEYS}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script)], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "get_weather" in done.stdout and "'days': 3" in done.stdout


def test_the_example_test_file_passes_as_an_app_would_run_it() -> None:
    env = {k: v for k, v in os.environ.items() if k not in KEYS}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "examples/test_my_app.py",
        ],
        capture_output=True,
        text=True,
        env={**env, "CI": "1"},
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
