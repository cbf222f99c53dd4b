"""The pytest plugin (entry point `pytest11`): fixture, marker, file naming, option, messages."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

pytest_plugins = ["pytester"]

URL = "https://api.example.com/v1/chat/completions"


def recorded(path: Path, *answers: str) -> None:
    items = [
        {
            "request": {"method": "POST", "uri": URL, "headers": {}, "body": None},
            "response": {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"string": answer}},
        }
        for answer in answers
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump({"interactions": items, "version": 1}))


@pytest.fixture(autouse=True)
def _quiet_session(monkeypatch: pytest.MonkeyPatch, pytester: pytest.Pytester) -> None:
    """Inner sessions run outside CI, and without pytest-asyncio's warning about its unset option."""
    monkeypatch.delenv("CI", raising=False)
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")


def test_the_plugin_is_registered_by_its_entry_point(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(["*--llmrelay-record-mode=*", "*llmrelay_cassette_dir*"])
    pytester.runpytest("--markers").stdout.fnmatch_lines(["@pytest.mark.cassette(path=None, **options):*"])


def test_the_marker_replays_a_cassette_named_after_the_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_weather="""
        import httpx, pytest

        @pytest.mark.cassette
        def test_paris():
            assert httpx.post(URL).text == "sunny"

        class TestLyon:
            @pytest.mark.cassette
            @pytest.mark.parametrize("city", ["Lyon", "Saint Étienne"])
            def test_city(self, city):
                assert httpx.post(URL).text == city
        """.replace("URL", repr(URL))
    )
    folder = pytester.path / "cassettes" / "test_weather"
    recorded(folder / "test_paris.yaml", "sunny")
    recorded(folder / "TestLyon.test_city-Lyon.yaml", "Lyon")
    recorded(folder / "TestLyon.test_city-Saint-xc9tienne.yaml", "Saint Étienne")  # pytest's id: "Saint \\xc9tienne"
    pytester.runpytest("--llmrelay-record-mode=none").assert_outcomes(passed=3)


def test_the_fixture_gives_the_active_cassette_and_the_marker_its_path_and_options(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_fixture="""
        import httpx, pytest

        def test_default(cassette):
            assert httpx.post(URL).text == "one"
            assert cassette.play_count == 1
            assert cassette.path.relative_to(cassette.path.parents[2]).as_posix() == "cassettes/test_fixture/test_default.yaml"
            assert cassette.record_mode == "once"

        @pytest.mark.cassette("shared/any.yaml", match_on=["method", "path"], record_mode="none")
        def test_marked(cassette):
            assert httpx.post("https://elsewhere.example/v1/chat/completions?x=1").text == "two"
            assert cassette.record_mode == "none"
        """.replace("URL", repr(URL))
    )
    recorded(pytester.path / "cassettes" / "test_fixture" / "test_default.yaml", "one")
    recorded(pytester.path / "shared" / "any.yaml", "two")
    pytester.runpytest().assert_outcomes(passed=2)


MISSING = """
import pytest

@pytest.mark.cassette
def test_needs_a_recording():
    pass
"""


@pytest.mark.parametrize("how", ["option", "ci"])
def test_a_missing_cassette_in_replay_only_says_how_to_record(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    pytester.makepyfile(test_missing=MISSING)
    if how == "ci":
        monkeypatch.setenv("CI", "true")
    result = pytester.runpytest(*(["--llmrelay-record-mode=none"] if how == "option" else []))
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*no cassette for test_missing.py::test_needs_a_recording at *test_needs_a_recording.yaml (record mode 'none': replay only).",
            "*pytest --llmrelay-record-mode=once 'test_missing.py::test_needs_a_recording'",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_the_option_records_then_replays_and_wins_over_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_record="""
        import httpx, pytest
        from llmrelay.testing._wire_server import Reply, WireServer

        @pytest.mark.cassette(record_mode="none", match_on=["method", "path"])  # The port changes each run.
        def test_live():
            with WireServer(script=[Reply("recorded")]) as server:
                url = server.base_url_for("openai") + "/chat/completions"
                answer = httpx.post(url, json={"model": "m"}, headers={"authorization": "Bearer sk-plugin"})
            assert answer.json()["choices"][0]["message"]["content"] == "recorded"
        """
    )
    pytester.runpytest("--llmrelay-record-mode=once").assert_outcomes(passed=1)
    written = pytester.path / "cassettes" / "test_record" / "test_live.yaml"
    assert "sk-plugin" not in written.read_text()
    assert "recorded" in written.read_text()
    # Replay only, the server long gone: the file answers (the marker's mode this time).
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_an_unrecorded_request_fails_the_test_with_the_closest_recordings(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_unmatched="""
        import httpx, pytest

        @pytest.mark.cassette
        def test_other_path():
            httpx.post("https://api.example.com/v1/embeddings")
        """
    )
    recorded(pytester.path / "cassettes" / "test_unmatched" / "test_other_path.yaml", "x")
    result = pytester.runpytest("--llmrelay-record-mode=none")
    result.assert_outcomes(failed=1, errors=1)  # The call fails; teardown reports the cassette's account.
    result.stdout.fnmatch_lines(
        [
            "*no recorded interaction answers this request (record_mode 'none'):",
            "*POST https://api.example.com/v1/embeddings",
            "*#0 POST https://api.example.com/v1/chat/completions  [[]differs in uri]",
        ]
    )


def test_unplayed_interactions_fail_a_passing_test_only(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_unplayed="""
        import pytest

        @pytest.mark.cassette
        def test_passes():
            pass

        @pytest.mark.cassette
        def test_fails():
            assert False, "the test's own failure"
        """
    )
    for name in ("test_passes", "test_fails"):
        recorded(pytester.path / "cassettes" / "test_unplayed" / f"{name}.yaml", "x")
    result = pytester.runpytest("--llmrelay-record-mode=none")
    result.assert_outcomes(passed=1, failed=1, errors=1)
    result.stdout.fnmatch_lines(["*ERROR at teardown of test_passes*", "*1 recorded interaction(s) never requested*"])
    assert "teardown of test_fails" not in result.stdout.str()


def test_the_plugin_loads_without_the_testing_extra(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_plain="""
        import pytest

        def test_plain():
            pass

        @pytest.mark.cassette
        def test_with_cassette():
            pass
        """
    )
    # respx and PyYAML made unimportable before pytest (and so the plugin) loads; respx's own pytest
    # plugin would be missing too, so entry points are off and the plugin is named by hand.
    script = textwrap.dedent(
        """
        import sys
        sys.modules["respx"] = sys.modules["yaml"] = None
        import pytest
        raise SystemExit(pytest.main(["-q", "-p", "llmrelay.testing.pytest_plugin", "test_plain.py"]))
        """
    )
    (pytester.path / "tox.ini").unlink()  # It names pytest-asyncio's option, and that plugin is off here.
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=pytester.path, env=env, capture_output=True, text=True, timeout=120
    )
    assert "1 passed, 1 error in" in done.stdout, done.stdout + done.stderr
    assert 'pip install "llmrelay[testing]"' in done.stdout
