"""CapabilityLearner: learns, stops choosing the mode, forgets after the TTL, persists."""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path

import pytest

from llmrelay.capabilities import Capabilities, CapabilityLearner, lookup, modes

GROQ_NO_SCHEMA = "This model does not support response format `json_schema`."
EVERYTHING = Capabilities(native_tools=True, parallel_tool_calls=True, json_schema=True, json_object=True)


class FakeClock:
    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def learner(clock: FakeClock) -> CapabilityLearner:
    return CapabilityLearner(ttl=60, clock=clock)


def test_learns_and_stops_choosing_the_mode(learner: CapabilityLearner) -> None:
    caps = lookup("openai", "gpt-4o")
    assert modes(caps)[1] == "json_schema"
    learner.record_rejection("openai", "gpt-4o", "json_schema", "400: json_schema not supported")
    learned = learner.apply("openai", "gpt-4o", caps)
    assert modes(learned) == ("native_tools", "json_object", "text")
    assert learned.sources["json_schema"] == "learned: 400: json_schema not supported"
    assert learned.sources["native_tools"] == "models.toml: openai '*'"


def test_facts_are_per_model_and_case_insensitive(learner: CapabilityLearner) -> None:
    learner.record_rejection("Groq", "Llama-3.3-70b-versatile", "json_schema", GROQ_NO_SCHEMA)
    assert learner.apply("groq", "llama-3.3-70b-versatile", EVERYTHING).json_schema is False
    assert learner.apply("groq", "llama-3.1-8b-instant", EVERYTHING).json_schema is True
    assert learner.apply("openrouter", "llama-3.3-70b-versatile", EVERYTHING).json_schema is True
    assert learner.learned("GROQ", "llama-3.3-70B-versatile") == {"json_schema": GROQ_NO_SCHEMA}


@pytest.mark.parametrize(
    ("feature", "off", "source_of_implied"),
    [
        ("native_tools", {"native_tools", "parallel_tool_calls"}, "learned: native_tools rejected: why"),
        ("json_object", {"json_object", "json_schema"}, "learned: json_object rejected: why"),
        ("json_schema", {"json_schema"}, None),
        ("parallel_tool_calls", {"parallel_tool_calls"}, None),
    ],
)
def test_what_each_rejection_switches_off(
    learner: CapabilityLearner, feature: str, off: set[str], source_of_implied: str | None
) -> None:
    learner.record_rejection("p", "m", feature, "why")  # type: ignore[arg-type]
    caps = learner.apply("p", "m", EVERYTHING)
    mode_facts = ("native_tools", "parallel_tool_calls", "json_schema", "json_object")
    assert {name for name in mode_facts if not getattr(caps, name)} == off
    assert caps.sources[feature] == "learned: why"
    for name in off - {feature}:
        assert caps.sources[name] == source_of_implied


def test_facts_already_off_keep_their_source(learner: CapabilityLearner) -> None:
    caps = lookup("anthropic", "claude-3-5-sonnet-latest")  # json_object is off in the database
    learner.record_rejection("anthropic", "claude-3-5-sonnet-latest", "json_object", "why")
    assert (
        learner.apply("anthropic", "claude-3-5-sonnet-latest", caps).sources["json_object"]
        == "models.toml: anthropic '*'"
    )


def test_nothing_learned_leaves_caps_alone(learner: CapabilityLearner) -> None:
    caps = lookup("openai", "gpt-4o")
    assert learner.apply("openai", "gpt-4o", caps) is caps


def test_forgets_after_the_ttl(learner: CapabilityLearner, clock: FakeClock) -> None:
    learner.record_rejection("p", "m", "json_schema", "why")
    clock.now += 59.9
    assert learner.apply("p", "m", EVERYTHING).json_schema is False
    clock.now += 0.1
    assert learner.apply("p", "m", EVERYTHING).json_schema is True
    assert learner.learned("p", "m") == {}


def test_recording_again_restarts_the_ttl(learner: CapabilityLearner, clock: FakeClock) -> None:
    learner.record_rejection("p", "m", "json_schema", "first")
    clock.now += 50
    learner.record_rejection("p", "m", "json_schema", "second")
    clock.now += 50
    assert learner.learned("p", "m") == {"json_schema": "second"}


def test_clear_forgets_everything(learner: CapabilityLearner) -> None:
    learner.record_rejection("p", "m", "json_schema", "why")
    learner.clear()
    assert learner.learned("p", "m") == {}


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown feature 'tools'"):
        CapabilityLearner().record_rejection("p", "m", "tools", "why")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ttl must be positive"):
        CapabilityLearner(ttl=0)


def test_thread_safe(tmp_path: Path) -> None:
    learner = CapabilityLearner(path=tmp_path / "learned.json")

    def record(n: int) -> None:
        for i in range(20):
            learner.record_rejection("p", f"m{n}-{i}", "json_schema", "why")

    threads = [threading.Thread(target=record, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(learner.learned("p", f"m{n}-{i}") for n in range(8) for i in range(20))
    assert len(json.loads((tmp_path / "learned.json").read_text())["facts"]) == 160


# --- persistence -------------------------------------------------------------------------------


def test_persists_and_reloads(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "learned.json"  # the folder is created
    first = CapabilityLearner(ttl=60, clock=FakeClock(5), path=path, wall_clock=FakeClock(1_000))
    first.record_rejection("groq", "llama-3.3-70b-versatile", "json_schema", GROQ_NO_SCHEMA)
    document = json.loads(path.read_text())
    assert document == {
        "version": 1,
        "facts": [
            {
                "provider": "groq",
                "model": "llama-3.3-70b-versatile",
                "feature": "json_schema",
                "reason": GROQ_NO_SCHEMA,
                "learned_at": 1_000,
            }
        ],
    }
    # Another process, 50 wall-clock seconds later, with an unrelated monotonic clock.
    clock = FakeClock(9_999)
    second = CapabilityLearner(ttl=60, clock=clock, path=path, wall_clock=FakeClock(1_050))
    assert second.learned("groq", "llama-3.3-70b-versatile") == {"json_schema": GROQ_NO_SCHEMA}
    clock.now += 10  # the fact's remaining 10 seconds
    assert second.learned("groq", "llama-3.3-70b-versatile") == {}


def test_expired_facts_in_the_file_are_not_loaded(tmp_path: Path) -> None:
    path = tmp_path / "learned.json"
    CapabilityLearner(ttl=60, path=path, wall_clock=FakeClock(1_000)).record_rejection("p", "m", "json_schema", "why")
    assert CapabilityLearner(ttl=60, path=path, wall_clock=FakeClock(1_060)).learned("p", "m") == {}
    assert CapabilityLearner(ttl=61, path=path, wall_clock=FakeClock(1_060)).learned("p", "m") == {"json_schema": "why"}


def test_clear_empties_the_file(tmp_path: Path) -> None:
    path = tmp_path / "learned.json"
    learner = CapabilityLearner(path=path)
    learner.record_rejection("p", "m", "json_schema", "why")
    learner.clear()
    assert json.loads(path.read_text())["facts"] == []


def test_missing_file_is_silent(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    CapabilityLearner(path=tmp_path / "absent.json")
    assert caplog.records == []


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "[]",
        '{"facts": []}',
        '{"version": 2, "facts": []}',
        '{"version": 1}',
        '{"version": 1, "facts": [{"provider": "p"}]}',
        '{"version": 1, "facts": [{"provider": "p", "model": "m", "feature": "tools", "reason": "r", '
        '"learned_at": 1}]}',
        '{"version": 1, "facts": [{"provider": "p", "model": "m", "feature": "json_schema", "reason": "r", '
        '"learned_at": "yesterday"}]}',
        '{"version": 1, "facts": [1]}',
    ],
)
def test_bad_file_is_ignored_and_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture, content: str) -> None:
    path = tmp_path / "learned.json"
    path.write_text(content)
    with caplog.at_level(logging.WARNING, logger="llmrelay.capabilities"):
        learner = CapabilityLearner(path=path)
    assert learner.learned("p", "m") == {}
    (record,) = caplog.records
    assert record.getMessage().startswith(f"ignoring learned capabilities in {path}: not a version 1 file")
    learner.record_rejection("p", "m", "json_schema", "why")  # and the next fact replaces it
    assert json.loads(path.read_text())["facts"][0]["model"] == "m"


def test_failed_write_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "learned.json"
    learner = CapabilityLearner(path=path)
    learner.record_rejection("p", "old", "json_schema", "why")
    before = path.read_text()

    def fail(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with caplog.at_level(logging.WARNING, logger="llmrelay.capabilities"):
        learner.record_rejection("p", "new", "json_schema", "why")
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["learned.json"]
    assert "could not save learned capabilities" in caplog.text
    assert learner.learned("p", "new") == {"json_schema": "why"}  # still known in memory


def test_unwritable_path_still_learns_in_memory(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    learner = CapabilityLearner(path=blocker / "learned.json")  # a folder that cannot exist
    with caplog.at_level(logging.WARNING, logger="llmrelay.capabilities"):
        learner.record_rejection("p", "m", "json_schema", "why")
    assert learner.learned("p", "m") == {"json_schema": "why"}
    assert "could not save learned capabilities" in caplog.text
