"""Replaying a cassette needs no API key (issue 13): with CI=true and no key set, replay works.

Recording, or no cassette at all, still needs one: a request that could go out without a key
fails as it always did.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import llmrelay
from llmrelay import _demo
from llmrelay.testing import cassette

KEYS = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GROQ_API_KEY",
    "OPENROUTER_API_KEY",
)
NATIVE = [scenario for scenario in _demo.SCENARIOS if scenario.name.startswith("native_")]


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in KEYS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CI", "true")  # Replay only: the record-mode default under CI.


def keyless(scenario: _demo.Scenario) -> llmrelay.Client:
    return llmrelay.Client(scenario.model, retry=llmrelay.RetryPolicy(max_attempts=1))


@pytest.mark.parametrize("scenario", NATIVE, ids=lambda s: s.name)
def test_a_cassette_replays_without_an_api_key(scenario: _demo.Scenario) -> None:
    with cassette(_demo.CASSETTES / f"{scenario.name}.yaml"):
        result = keyless(scenario).complete(_demo.QUESTION, tools=[_demo.get_weather])
    assert [call.name for call in result.tool_calls] == ["get_weather"]


@pytest.mark.parametrize("scenario", NATIVE, ids=lambda s: s.name)
def test_recording_still_needs_a_key(scenario: _demo.Scenario, tmp_path: Path) -> None:
    with cassette(tmp_path / "new.yaml", "once"), pytest.raises(llmrelay.AuthenticationError, match="no API key"):
        keyless(scenario).complete(_demo.QUESTION, tools=[_demo.get_weather])


def test_without_a_cassette_no_key_is_an_error() -> None:
    with pytest.raises(llmrelay.AuthenticationError, match="no API key"):
        keyless(NATIVE[0]).complete(_demo.QUESTION)
