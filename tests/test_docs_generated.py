"""The generated parts of the docs (docs/hooks/generated.py): they run, cover everything, and say what the code does."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from llmrelay.capabilities import Capabilities, lookup
from llmrelay.normalize import Parsed, register_strategy, registered_strategies

ROOT = Path(__file__).resolve().parents[1]


def load_hook() -> ModuleType:
    """The hook module, loaded from its file as MkDocs loads it."""
    spec = importlib.util.spec_from_file_location("llmrelay_docs_hook", ROOT / "docs" / "hooks" / "generated.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # Its dataclasses look their module up.
    spec.loader.exec_module(module)
    return module


hook = load_hook()


def sections(page: str) -> dict[str, str]:
    """The `## \\`name\\`` sections of the formats page, by strategy name."""
    parts = re.split(r"^## `(\w+)`\n", page, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def fenced_blocks(section: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced block, outermost first: a longer fence holds shorter ones."""
    return [(m.group(2), m.group(3)) for m in re.finditer(r"^(`{3,})(\w*)\n(.*?)\n\1$", section, re.M | re.S)]


def test_the_formats_page_has_a_section_for_every_registered_strategy_in_order() -> None:
    page = hook.formats_page()
    assert list(sections(page)) == [s.name for s in registered_strategies()]
    assert len(sections(page)) == 51  # Issue 16, round three: 49; engines audit: Qwen2.5-Coder, Hermes' other tags.


def test_each_format_section_shows_what_parse_response_gives_for_its_input() -> None:
    """Read back from the markdown: the input as shown gives the envelope as shown (fences and all)."""
    for name, section in sections(hook.formats_page()).items():
        (input_language, shown_input), (output_language, shown_output) = fenced_blocks(section)
        assert (input_language, output_language) == ("text", "json")
        envelope = json.loads(shown_output)
        assert envelope == hook.envelope(shown_input), name
        assert envelope["format"] == name


def test_examples_come_from_the_strategys_own_test_table_when_it_has_one() -> None:
    chosen = {e.strategy.name: e for e in hook.examples()}
    assert chosen["hermes"].source == "tests/normalize/strategies/test_hermes.py"
    assert chosen["tool_call_marker"].source == "tests/normalize/strategies/test_marker.py"
    # Two strategies share a module (json_document.py): each gets a case of its own format from it.
    assert chosen["lenient_json_document"].source == "tests/normalize/strategies/test_json_document.py"
    assert chosen["lenient_json_document"].case.format == "lenient_json_document"
    assert all(e.case.calls for e in chosen.values())


class Untested:
    """A strategy without a test table."""

    name = "untested"

    def detect(self, text: str) -> bool:
        return False

    def parse(self, text: str) -> Parsed | None:
        return None


def test_a_strategy_without_a_test_case_fails_the_build() -> None:
    register_strategy(Untested())  # Reset after the test by conftest.
    with pytest.raises(LookupError, match="'untested' has no case"):
        hook.formats_page()


def test_the_capability_table_lists_every_database_entry() -> None:
    table = hook.capability_table()
    database = tomllib.loads((ROOT / "src" / "llmrelay" / "capabilities" / "models.toml").read_text(encoding="utf-8"))
    rows = list(hook.capability_rows())
    providers = [
        [row["provider"]] if isinstance(row["provider"], str) else row["provider"] for row in database["model"]
    ]
    assert len(rows) == sum(len(listed) for listed in providers)
    headings = re.findall(r"^### (.*)$", table, re.MULTILINE)
    assert sorted(name for heading in headings for name in heading.split(", ")) == sorted({p for p, *_ in rows})
    for _provider, patterns, _facts in rows:
        if patterns != ["*"]:
            assert ", ".join(f"`{p}`" for p in patterns) in table


def test_the_capability_rows_agree_with_lookup() -> None:
    """For a model name each entry decides, lookup() gives the facts the table shows for that entry."""
    checked = 0
    rows = list(hook.capability_rows())
    for provider, patterns, facts in rows:
        for pattern in patterns:
            model = pattern.replace("*", "x").replace("?", "x")
            caps = lookup(provider, model)
            decided_by = {source for name, source in caps.sources.items() if name in facts}
            if decided_by <= {f"models.toml: {provider} {pattern!r}", f"models.toml: {provider} '*'"}:
                assert caps == Capabilities(**facts), (provider, pattern)
                checked += 1
    assert checked >= len(rows)  # At least one per entry, on average: the check is not vacuous.


def test_the_benchmark_figures_are_the_readmes() -> None:
    figures = hook.readme_benchmarks()
    assert "| answer | json.loads | parse_response | ratio | target |" in figures
    for script in re.findall(r"benchmarks/(\w+\.py)", figures):
        assert (ROOT / "benchmarks" / script).is_file(), script


def test_markers_are_expanded_and_unknown_ones_are_errors() -> None:
    assert "### openai" in hook.expand("Intro\n\n<!-- generated: capabilities -->\n")
    assert hook.expand("no marker here") == "no marker here"
    with pytest.raises(ValueError, match="unknown generated part 'nope'"):
        hook.expand("<!-- generated: nope -->")


def test_every_marker_in_the_docs_names_a_generator() -> None:
    used = {
        m
        for page in (ROOT / "docs").rglob("*.md")
        for m in re.findall(r"<!-- generated: ([\w-]+) -->", page.read_text())
    }
    assert used == set(hook.GENERATORS)


def test_the_providers_table_has_a_row_for_every_built_in_provider() -> None:
    from llmrelay.adapters import _BUILTIN

    table = hook.providers_table()
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(_BUILTIN)
    assert "| `ollama` |" in table and "(optional)" in table.split("| `ollama` |")[1].split("\n")[0]


def test_the_readme_provider_table_names_every_built_in_provider() -> None:
    from llmrelay.adapters import _BUILTIN

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("| model string |", 1)[1].split("\n\n", 1)[0]
    first_cells = re.findall(r"^\| ([^|]+)\|", table, re.MULTILINE)
    named = {provider for cell in first_cells for provider in re.findall(r"`([a-z-]+):", cell)}
    assert set(_BUILTIN) <= named
