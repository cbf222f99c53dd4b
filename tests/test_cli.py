from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from llmrelay._cli import main

EXAMPLES = Path(__file__).parent.parent / "examples" / "outputs"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_parse_file_with_tools(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "parse", str(EXAMPLES / "mixed_formats.txt"), "--tools", str(EXAMPLES / "tools.json"))
    envelope = json.loads(out)
    assert code == 0
    assert envelope["content"] == "I'll look up the weather in both cities."
    assert [(c["name"], c["arguments"]) for c in envelope["tool_calls"]] == [
        ("get_weather", {"city": "Paris", "days": 3}),
        ("get_weather", {"city": "Tokyo", "days": 2}),
    ]
    assert envelope["format"] == "anthropic_xml"
    assert envelope["raw"] == (EXAMPLES / "mixed_formats.txt").read_text()


def test_parse_stdin_strict(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('Example: {"name": "f", "arguments": {}} is how.'))
    code, out, _ = run(capsys, "parse", "--strict")
    envelope = json.loads(out)
    assert (code, envelope["tool_calls"], [r["kind"] for r in envelope["rejected"]]) == (0, [], ["embedded"])


def test_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "parse", str(tmp_path / "nope.txt"))
    assert (code, out) == (1, "")
    assert err.startswith("llmrelay parse: ") and "nope.txt" in err


def test_bad_tools_file_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text('[{"description": "no name"}]')
    code, _, err = run(capsys, "parse", str(EXAMPLES / "mixed_formats.txt"), "--tools", str(tools))
    assert code == 1 and "no 'name'" in err


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 2 and "parse" in out
