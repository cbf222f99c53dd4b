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
    assert "raw" not in envelope  # The input, not echoed back (issue 13: only what is set is printed).


def test_parse_stdin_strict(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('Example: {"name": "f", "arguments": {}} is how.'))
    code, out, _ = run(capsys, "parse", "--strict")
    envelope = json.loads(out)
    assert (code, "tool_calls" in envelope, [r["kind"] for r in envelope["rejected"]]) == (0, False, ["embedded"])


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


TOOLS = [
    {"name": "get_time", "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}
]


@pytest.mark.parametrize(
    ("answer", "tools", "printed"),
    [
        ("Hello.", None, {"content": "Hello."}),
        ("", None, {}),
        (
            'Sure. <tool_call>{"name": "get_time", "arguments": {"tz": "UTC"}}</tool_call>',
            TOOLS,
            {
                "content": "Sure.",
                "tool_calls": [{"name": "get_time", "arguments": {"tz": "UTC"}}],
                "format": "hermes",
                "needs_more_work": True,
            },
        ),
        (
            '<tool_call>{"id": "c1", "name": "get_time", "arguments": {}}</tool_call>',
            None,
            {
                "tool_calls": [{"name": "get_time", "arguments": {}, "id": "c1"}],
                "format": "hermes",
                "needs_more_work": True,
            },
        ),
        (
            '<think>Which zone?</think><tool_call>{"name": "get_time", "arguments": {}}</tool_call>',
            TOOLS,
            {
                "rejected": [
                    {
                        "name": "get_time",
                        "reason": "invalid arguments for tool 'get_time': missing required argument 'tz'",
                        "kind": "invalid_arguments",
                        "errors": ["missing required argument 'tz'"],
                    }
                ],
                "reasoning": "Which zone?",
                "format": "hermes",
            },
        ),
    ],
    ids=["text", "empty", "a call", "a call with an id", "rejected, with reasoning"],
)
def test_parse_prints_only_what_is_set_in_a_fixed_order(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    answer: str,
    tools: list[dict[str, object]] | None,
    printed: dict[str, object],
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(answer))
    tools_file = tmp_path / "tools.json"
    tools_file.write_text(json.dumps(tools))
    code, out, _ = run(capsys, "parse", *(["--tools", str(tools_file)] if tools else []))
    assert code == 0
    assert out == json.dumps(printed, indent=2, ensure_ascii=False) + "\n"  # The order too: content first.
