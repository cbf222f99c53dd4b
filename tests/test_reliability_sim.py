"""Smoke test of benchmarks/reliability_sim.py: ~30 conversations per behaviour, numbers computed.

The targets are not asserted here (the benchmark's --check does that on 1000 conversations):
these tests check that every number is counted from what happened, and that the counts agree
with each other and with what each scripted model is bound to do.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

CONVERSATIONS = 30


def _load() -> ModuleType:
    path = Path(__file__).parents[1] / "benchmarks" / "reliability_sim.py"
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))  # Its `_results` helper, as when the script runs.
    spec = importlib.util.spec_from_file_location("reliability_sim", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built.
    spec.loader.exec_module(module)
    return module


sim = _load()
BY_KEY = {behaviour.key: behaviour for behaviour in sim.BEHAVIOURS}


@pytest.fixture(scope="module")
def reports() -> dict[str, object]:
    return {b.key: sim.simulate(b, CONVERSATIONS, seed=4) for b in sim.BEHAVIOURS}


@pytest.mark.parametrize("key", list(BY_KEY))
def test_every_conversation_is_counted_once(key: str, reports: dict[str, object]) -> None:
    r = reports[key]
    raised = sum(n for reason, n in r.failures.items() if reason.startswith("raised"))
    assert r.conversations == CONVERSATIONS
    assert r.successes + sum(r.failures.values()) == CONVERSATIONS
    assert sum(r.answered_in.values()) == CONVERSATIONS - raised
    assert r.trace_mismatches == 0  # Requests counted by respx and by the trace agree.
    assert r.requests >= CONVERSATIONS
    assert r.success_rate == r.successes / CONVERSATIONS
    assert r.repairs_per_success == (r.repairs_in_successes / r.successes if r.successes else 0.0)
    assert r.seconds > 0


def test_a_compliant_model_takes_one_request_per_conversation(reports: dict[str, object]) -> None:
    r = reports["openai-compliant"]
    assert (r.requests, r.repairs, r.retries, r.fallbacks) == (CONVERSATIONS, 0, 0, 0)
    assert r.answered_in == Counter(native_tools=CONVERSATIONS)
    assert not r.events  # The right tool was offered every time.


def test_claude_answers_in_xml_about_a_third_of_the_time(reports: dict[str, object]) -> None:
    r = reports["claude-xml-third"]
    xml = sum(n for event, n in r.events.items() if event.startswith("XML in text"))
    assert 3 <= xml <= 20
    assert r.requests == CONVERSATIONS + r.repairs


def test_llama_repairs_are_requests_and_its_mistakes_are_recorded(reports: dict[str, object]) -> None:
    r = reports["llama-text"]
    malformed = sum(n for event, n in r.events.items() if event.startswith("malformed"))
    assert malformed > 0
    assert r.repairs > 0
    assert r.requests == CONVERSATIONS + r.repairs + r.retries
    assert set(r.answered_in) == {"text"}  # Text-only in the capability database: no other mode.


def test_a_learned_refusal_falls_back_once(reports: dict[str, object]) -> None:
    r = reports["json-schema-refused"]
    assert r.events == Counter({"json_schema refused": 1})
    assert (r.fallbacks, r.requests) == (1, CONVERSATIONS + 1)
    assert r.answered_in == Counter(json_object=CONVERSATIONS)


def test_a_forgotten_refusal_falls_back_every_time(reports: dict[str, object]) -> None:
    r = reports["json-schema-refused, new process each time"]
    assert r.events == Counter({"json_schema refused": CONVERSATIONS})
    assert (r.fallbacks, r.requests, r.fallback_rate) == (CONVERSATIONS, 2 * CONVERSATIONS, 1.0)


def test_every_transient_failure_is_a_retry_or_the_last_try(reports: dict[str, object]) -> None:
    r = reports["flaky-429-503"]
    raised = sum(n for reason, n in r.failures.items() if reason.startswith("raised"))
    assert sum(r.events.values()) == r.retries + 4 * raised  # RetryPolicy() tries 4 times.
    assert r.requests == CONVERSATIONS + r.retries + 3 * raised
    assert r.retries > 0 and r.slept > 0  # The waits were recorded, not slept.


def test_the_same_seed_gives_the_same_numbers() -> None:
    first, again = (sim.simulate(BY_KEY["llama-text"], CONVERSATIONS, seed=11) for _ in range(2))
    assert (first.successes, first.requests, first.repairs, first.events, first.failures) == (
        again.successes,
        again.requests,
        again.repairs,
        again.events,
        again.failures,
    )


def test_missed_names_each_target_missed() -> None:
    llama = sim.Report(BY_KEY["llama-text"], conversations=100, successes=90, repairs_in_successes=27)
    assert llama.missed() == [
        "llama-text: success 90.00% < 97.0% (issue 4)",
        "llama-text: repairs/call 0.300 > 0.2",
        "llama-text: retries/call 0.300 > 0.2",
    ]
    assert sim.Report(BY_KEY["openai-compliant"], conversations=100, successes=100).missed() == []


def test_fallback_is_a_target_unless_the_model_forces_it() -> None:
    free = sim.Report(BY_KEY["openai-compliant"], conversations=10, successes=10, fallbacks=1)
    forced = sim.Report(BY_KEY["json-schema-refused"], conversations=10, successes=10, fallbacks=10)
    assert free.missed() == ["openai-compliant: fallback 10.0% >= 5%"]
    assert forced.missed() == []


@pytest.mark.parametrize(("successes", "check", "code"), [(10, True, 0), (9, True, 1), (9, False, 0)])
def test_main_prints_the_table_and_exits_1_only_with_check_on_a_miss(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], successes: int, check: bool, code: int
) -> None:
    def simulate(behaviour: object, conversations: int, seed: int) -> object:
        return sim.Report(behaviour, conversations=conversations, successes=successes, requests=conversations)

    monkeypatch.setattr(sim, "simulate", simulate)
    assert sim.main(["--conversations", "10", *(["--check"] if check else [])]) == code
    out = capsys.readouterr().out
    assert all(f"\n{key}" in out for key in BY_KEY)  # One row per behaviour, and its details.
    assert "req/conv" in out
    assert ("targets missed" in out) == (successes < 10)
