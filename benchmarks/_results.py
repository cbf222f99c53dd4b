"""The benchmarks' tables: printed, and written (with --write) where the README and the docs show them.

A script declares its tables up front (`Table`: the columns and the label of every row), fills
them with what it measured, prints them, and with --write saves them in
`benchmarks/results/<script>.md` with the date, the machine, Python and the package versions,
then copies that file into README.md between the markers `<!-- results: <script> -->` and
`<!-- /results: <script> -->` (the docs include the README's section). So no figure in the README
is typed by hand, and `tests/test_benchmark_results.py` checks that each results file has the
tables its script declares (the same columns and rows) and that the README holds it unchanged.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import os
import platform
import re
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
README = ROOT / "README.md"
PACKAGES = ("openai", "anthropic", "google-genai", "httpx", "httpx2", "respx")
_TABLE = re.compile(r"^\|(.+)\|\n\|[-| ]+\|\n((?:\|.*\|\n?)*)", re.MULTILINE)


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def peak_memory(function: Callable[[], object]) -> int:
    """The tracemalloc peak while `function` runs, in bytes (what it held at once, beyond its input)."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def paired(first: Callable[[], object], second: Callable[[], object], pairs: int) -> tuple[list[float], list[float]]:
    """Seconds per call of each function, called in turn `pairs` times, so that both see the same load.

    On a shared machine the load changes from one second to the next: timing a batch of one
    and then a batch of the other would compare two different machines.
    """
    clock = time.perf_counter
    firsts, seconds = [], []
    for _ in range(pairs):
        started = clock()
        first()
        middle = clock()
        second()
        firsts.append(middle - started)
        seconds.append(clock() - middle)
    return firsts, seconds


@dataclass
class Table:
    """One table of figures: its columns, and one row per label, in the order declared."""

    columns: list[str]
    labels: list[str]
    title: str = ""
    """A line shown above the table (what is measured, the target)."""
    cells: dict[str, list[str]] = field(default_factory=dict)
    missed: list[str] = field(default_factory=list)
    """The labels of the rows that missed their target."""

    def __post_init__(self) -> None:
        if piped := [label for label in self.labels if "|" in label]:  # It would split the Markdown row.
            raise ValueError(f"a row label may not hold '|': {piped}")

    def fill(self, label: str, *cells: str, missed: bool = False) -> None:
        if label not in self.labels:
            raise KeyError(f"{label!r} is not a row of this table (declare it in the script's tables())")
        if len(cells) != len(self.columns) - 1:
            raise ValueError(f"{label!r}: {len(cells)} cells for {len(self.columns) - 1} columns")
        self.cells[label] = list(cells)
        if missed:
            self.missed.append(label)

    def markdown(self) -> str:
        lines = [f"{self.title}\n"] if self.title else []
        lines.append("| " + " | ".join(self.columns) + " |")
        lines.append("|" + "---|" * len(self.columns))
        lines += ["| " + " | ".join([label, *self.cells[label]]) + " |" for label in self.labels if label in self.cells]
        return "\n".join(lines)


def environment() -> str:
    """Where and when the figures were measured."""
    versions = []
    for name in ("llmrelay", *PACKAGES):
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    cpus = os.cpu_count() or 0
    machine = f"{platform.system()} {platform.machine()}, {cpus} CPU{'s' if cpus != 1 else ''}"
    if hasattr(os, "getloadavg"):  # A busy machine shows in absolute times: say how busy.
        machine += f" (load average {os.getloadavg()[0]:.1f})"
    today = datetime.date.today().isoformat()
    return f"Measured {today} on {machine}, Python {platform.python_version()}; {', '.join(versions)}."


def verdict(tables: Sequence[Table]) -> str:
    """Whether every target was met, or which rows missed theirs."""
    missed = [label for t in tables for label in t.missed]
    return "all targets met" if not missed else f"targets missed: {'; '.join(missed)}"


def report(tables: Sequence[Table]) -> str:
    """The tables as printed and as written, and the targets missed."""
    return "\n\n".join([*(t.markdown() for t in tables), verdict(tables)])


def write_results(script: str, command: str, tables: Sequence[Table]) -> Path:
    """Save the tables in benchmarks/results/<script>.md and copy them into the README's block."""
    missing = [(t.title, label) for t in tables for label in t.labels if label not in t.cells]
    if missing:
        raise ValueError(f"rows not measured: {missing}")
    body = "\n\n".join(t.markdown() for t in tables)
    text = (
        f"<!-- Written by `{command} --write`: re-run it rather than edit. -->\n"
        f"`{command}` ({environment()})\n\n{body}\n"
    )
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{script}.md"
    path.write_text(text, encoding="utf-8")
    update_readme(script, text)
    print(f"\nwrote {path.relative_to(ROOT)} and its block in README.md", file=sys.stderr)
    return path


def readme_block(script: str, readme: str) -> str | None:
    """What the README holds between the markers of `script`, or None without markers."""
    match = re.search(rf"<!-- results: {script} -->\n(.*?)<!-- /results: {script} -->", readme, re.DOTALL)
    return match.group(1) if match else None


def update_readme(script: str, text: str) -> None:
    readme = README.read_text(encoding="utf-8")
    if readme_block(script, readme) is None:
        raise LookupError(f"README.md has no '<!-- results: {script} -->' block")
    start, end = f"<!-- results: {script} -->\n", f"<!-- /results: {script} -->"
    before, rest = readme.split(start, 1)
    README.write_text(before + start + text + end + rest.split(end, 1)[1], encoding="utf-8")


def parse_tables(markdown: str) -> list[tuple[list[str], list[str]]]:
    """Each markdown table of a text as (its columns, its first-column labels)."""
    tables = []
    for match in _TABLE.finditer(markdown):
        columns = [c.strip() for c in match.group(1).split("|")]
        labels = [row.split("|")[1].strip() for row in match.group(2).splitlines() if row.strip()]
        tables.append((columns, labels))
    return tables
