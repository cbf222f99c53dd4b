"""Users add their own format in a few lines (seed 002's skill-registered strategies)."""

from __future__ import annotations

import json
import re

import llmrelay
from llmrelay.normalize import Parsed, call_from_parts, cut_spans, registered_strategies


class RunModule:
    """`[RUN_MODULE] name {json args} [/RUN_MODULE]`: a skill's own delimiter format."""

    name = "run_module"
    _block = re.compile(r"\[RUN_MODULE\]\s*([\w.]+)\s*(\{.*?\})\s*\[/RUN_MODULE\]", re.DOTALL)

    def detect(self, text: str) -> bool:
        return "[RUN_MODULE]" in text

    def parse(self, text: str) -> Parsed | None:
        matches = list(self._block.finditer(text))
        if not matches:
            return None
        calls = [call_from_parts(m.group(1), m.group(2)) for m in matches]
        return Parsed(
            calls=[c for c in calls if isinstance(c, llmrelay.normalize.Candidate)],
            text=cut_spans(text, [m.span() for m in matches]),
        )


TEXT = 'Running it.\n[RUN_MODULE] fs.list {"path": "."} [/RUN_MODULE]'


def test_unknown_format_is_plain_text_before_registration() -> None:
    assert llmrelay.parse_response(TEXT).tool_calls == []


def test_registered_strategy_is_tried_first() -> None:
    llmrelay.register_strategy(RunModule())
    assert registered_strategies()[0].name == "run_module"
    result = llmrelay.parse_response(TEXT)
    assert [(c.name, c.arguments) for c in result.tool_calls] == [("fs.list", {"path": "."})]
    assert (result.content, result.format) == ("Running it.", "run_module")


def test_appended_strategy_runs_after_the_builtins() -> None:
    llmrelay.register_strategy(RunModule(), first=False)
    assert registered_strategies()[-1].name == "run_module"
    # A built-in format still wins over the appended one.
    both = '{"name": "g", "arguments": {}}'
    assert llmrelay.parse_response(both).format == "json_document"
    assert llmrelay.parse_response(TEXT).format == "run_module"


def test_unregister() -> None:
    llmrelay.register_strategy(RunModule())
    llmrelay.unregister_strategy("run_module")
    assert "run_module" not in [s.name for s in registered_strategies()]


def test_a_broken_strategy_is_skipped_with_a_warning() -> None:
    class Broken:
        name = "broken"

        def detect(self, text: str) -> bool:
            return True

        def parse(self, text: str) -> Parsed | None:
            raise ValueError("bug")

    llmrelay.register_strategy(Broken())
    result = llmrelay.parse_response(json.dumps({"name": "g", "arguments": {}}))
    assert [c.name for c in result.tool_calls] == ["g"]
    assert result.warnings == ["strategy 'broken' failed and was skipped: ValueError('bug')"]
