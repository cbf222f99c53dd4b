"""The README's benchmark figures are the scripts' own output, never typed by hand (issue 13).

Each script in benchmarks/ declares its tables (`tables()`: the columns and the label of every
row) and, with --write, saves what it measured in benchmarks/results/<script>.md and copies that
into the README between its markers. These tests do not time anything: they check that each
results file has exactly the tables its script declares now, that the README shows each file
unchanged, and that the README's benchmark section has no table of its own.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
SCRIPTS = [
    "call_overhead",
    "lenient_json_speed",
    "load",
    "parse_speed",
    "reliability_sim",
    "stream_overhead",
    "stream_parse_speed",
]


def load(name: str) -> ModuleType:
    """A benchmark script as a module, as `python benchmarks/<name>.py` would import it (nothing runs)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built.
    spec.loader.exec_module(module)
    return module


results = load("_results")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def benchmarks_section() -> str:
    match = re.search(r"^## Benchmarks\n(.*?)(?=^## |\Z)", README, re.MULTILINE | re.DOTALL)
    assert match is not None
    return match.group(1)


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_results_file_has_the_tables_the_script_declares(script: str) -> None:
    declared = [(table.columns, table.labels) for table in load(script).tables()]
    written = results.parse_tables((results.RESULTS / f"{script}.md").read_text(encoding="utf-8"))
    assert written == declared, f"re-run: python benchmarks/{script}.py --write"


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_readme_shows_the_results_file_unchanged(script: str) -> None:
    written = (results.RESULTS / f"{script}.md").read_text(encoding="utf-8")
    assert results.readme_block(script, README) == written


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_results_file_says_when_where_and_with_what_it_was_measured(script: str) -> None:
    head = (results.RESULTS / f"{script}.md").read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert f"python benchmarks/{script}.py --write" in head
    assert re.search(
        r"Measured \d{4}-\d\d-\d\d on .+ CPUs?( \(load average [\d.]+\))?, Python 3\.\d+\.\d+; llmrelay ", head
    ), head


def test_every_script_with_tables_has_its_results_and_its_block() -> None:
    with_tables = sorted(p.stem for p in BENCHMARKS.glob("[!_]*.py") if "\ndef tables(" in p.read_text())
    assert with_tables == SCRIPTS
    assert sorted(p.stem for p in results.RESULTS.glob("*.md")) == SCRIPTS
    assert sorted(re.findall(r"<!-- results: (\w+) -->", benchmarks_section())) == SCRIPTS


def test_the_benchmarks_section_has_no_table_typed_by_hand() -> None:
    outside = re.sub(r"<!-- results: (\w+) -->.*?<!-- /results: \1 -->", "", benchmarks_section(), flags=re.DOTALL)
    assert not re.search(r"^\|", outside, re.MULTILINE)


def test_a_table_reads_back_as_written() -> None:
    table = results.Table(["input", "time"], ["a"], "Title:")
    table.fill("a", "1 ms")
    assert results.parse_tables(table.markdown()) == [(["input", "time"], ["a"])]
    with pytest.raises(KeyError):
        table.fill("not declared", "2 ms")
