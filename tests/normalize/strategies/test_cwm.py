"""Meta CWM's `<tool: …>` blocks: the first word names the tool, the rest is its input (issue 16)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize.strategies import CwmToolBlock
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

C = "cwm"


def block(body: str, label: str = "function") -> str:
    return f"<tool: {label}>\n{body}\n</tool>"


CASES = [
    Case(
        "a shell command after the reasoning",
        "<think>Find the definition.</think>\n" + block('terminal grep -rn "def save" src/ | head -5'),
        [("terminal", {"command": 'grep -rn "def save" src/ | head -5'})],
        format=C,
        reasoning="Find the definition.",
    ),
    Case(
        "two blocks, prose before and after",
        "Listing, then counting.\n" + block("terminal ls -la") + "\n" + block("terminal wc -l *.py") + "\nBack soon.",
        [("terminal", {"command": "ls -la"}), ("terminal", {"command": "wc -l *.py"})],
        content="Listing, then counting.\nBack soon.",
        format=C,
    ),
    Case(
        "a JSON object after the name is the arguments",
        block('edit_file {"path": "app.py", "line": 12, "text": "pass"}'),
        [("edit_file", {"path": "app.py", "line": 12, "text": "pass"})],
        format=C,
    ),
    Case(
        "input on the following lines, kept as written",
        block("python\nimport sys\n\nprint(sys.version)"),
        [("python", {"command": "import sys\n\nprint(sys.version)"})],
        format=C,
    ),
    Case("a name alone: empty input", block("list_tools"), [("list_tools", {"command": ""})], format=C),
    Case(
        "JSON that is no object stays text",
        block('search ["a", "b"]', label="search"),
        [("search", {"command": '["a", "b"]'})],
        format=C,
    ),
    Case(
        "unicode in the command",
        block("terminal echo 'Grüße, 世界'"),
        [("terminal", {"command": "echo 'Grüße, 世界'"})],
        format=C,
    ),
    Case(
        "cut off before </tool>: never run",
        "Running it.\n<tool: function>\nterminal rm -rf build/ && make",
        content="Running it.",
        rejected=["truncated"],
        format=C,
    ),
    Case(
        "an empty block does not hide the next",
        "<tool: function>\n</tool>\n" + block("terminal pwd"),
        [("terminal", {"command": "pwd"})],
        rejected=["malformed"],
        format=C,
    ),
    plain("the tag named in prose", "CWM wraps each command in <tool: function> and </tool>."),
    plain("a tag with no label", "Write <tool:> then the command."),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_cwm(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("unit", ["<tool: f>\nterminal ls\n", "<tool:", "<tool: f>x</tool>"])
def test_hostile_repetition_is_linear(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    CwmToolBlock().parse(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
