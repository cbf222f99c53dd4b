"""The shape of the package: no import cycles in `src/`, and the facade above the pipeline.

Imports are read with `ast`, so imports inside functions count too; those under
`if TYPE_CHECKING:` do not (they never run). An edge is an import as written: importing
`llmrelay.adapters.x` also runs the package `__init__`s above it, which is not counted (every
module would otherwise depend on `llmrelay/__init__.py`, the re-exporting facade).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "llmrelay"


def module_name(path: Path) -> str:
    """The dotted name of a source file (`llmrelay/x/__init__.py` is `llmrelay.x`)."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


class _Imports(ast.NodeVisitor):
    """The llmrelay modules one module imports, wherever the import is written (TYPE_CHECKING aside)."""

    def __init__(self, module: str, is_package: bool, known: set[str]) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.known = known
        self.found: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = self._absolute(node)
        for alias in node.names:
            # `from . import x` may name a submodule; otherwise it is an attribute of `base`.
            self._add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in self.known else base)

    def _absolute(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = self.package.split(".")
        base = ".".join(parts[: len(parts) - node.level + 1])
        return f"{base}.{node.module}" if node.module else base

    def _add(self, name: str) -> None:
        while name and name not in self.known:  # `a.b.c` where only `a.b` is a module of ours.
            name = name.rpartition(".")[0]
        if name:
            self.found.add(name)


def import_graph() -> dict[str, set[str]]:
    """Every llmrelay module -> the llmrelay modules it imports."""
    files = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    known = set(files)
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        visitor = _Imports(module, path.name == "__init__.py", known)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        graph[module] = visitor.found - {module}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as the list of its modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


@pytest.mark.parametrize(
    ("graph", "has_cycle"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, False),
        ({"a": {"b"}, "b": {"a"}}, True),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, True),
        ({"a": {"a.b"}, "a.b": set()}, False),
    ],
)
def test_find_cycle_finds_cycles(graph: dict[str, set[str]], has_cycle: bool) -> None:
    assert (find_cycle(graph) is not None) is has_cycle


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from ._flow import Flow", {"llmrelay._flow"}),
        ("def f():\n    from ._flow import Flow", {"llmrelay._flow"}),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ._flow import Flow", set()),
        ("import llmrelay.errors", {"llmrelay.errors"}),
        ("from .adapters import Adapter", {"llmrelay.adapters"}),
        ("import json", set()),
    ],
)
def test_imports_are_read_from_source(source: str, expected: set[str]) -> None:
    visitor = _Imports(
        "llmrelay._client", False, {"llmrelay", "llmrelay._flow", "llmrelay.errors", "llmrelay.adapters"}
    )
    visitor.visit(ast.parse(source))
    assert visitor.found == expected


def test_no_import_cycles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_pipeline_never_imports_the_facade() -> None:
    graph = import_graph()
    pipeline = [name for name in graph if name.startswith("llmrelay._pipeline")]
    assert pipeline, "the pipeline package is missing"
    offenders = {name: graph[name] & {"llmrelay._client", "llmrelay"} for name in pipeline}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_one_place_drives_a_flow() -> None:
    """Throwing a call's error into a flow is the drivers' job only (`_pipeline/drive.py`)."""
    throwing = sorted(
        module_name(path)
        for path in PACKAGE.rglob("*.py")
        if any(
            isinstance(node, ast.Attribute) and node.attr == "throw"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    )
    assert throwing == ["llmrelay._pipeline.drive"]


@pytest.mark.parametrize("client", ["Client", "AsyncClient"])
def test_help_on_a_client_shows_no_internals(client: str) -> None:
    import pydoc

    import llmrelay

    cls = getattr(llmrelay, client)
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    assert "<function" not in text  # A default shown as `<function problems at 0x...>`.
    public = {name for name in dir(cls) if not name.startswith("_")}
    assert public & {"flow", "send", "learn", "adapter_for", "supported_modes", "run_stream", "clock"} == set()
    assert {"complete", "stream", "run", "from_config"} <= public
    # The signature first, then what the constructor's arguments mean, then the methods (issue 13).
    assert text.splitlines()[3].startswith(f" |  {client}(model: 'str', *, api_key:")
    if client == "Client":
        assert text.index("    max_repairs: how many times") < text.index("Methods defined here")
    else:
        assert "its arguments: see `Client`" in text


@pytest.mark.parametrize("name", ["run", "arun"])
def test_no_two_module_level_functions_share_the_name_run(name: str) -> None:
    defining = [
        module_name(path)
        for path in PACKAGE.rglob("*.py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
    ]
    assert defining == []  # `run` is `Client.run` only.


def test_the_tool_loop_reads_its_tools_once_not_once_per_step(monkeypatch: pytest.MonkeyPatch) -> None:
    import llmrelay._pipeline.setup as setup
    import llmrelay._tool_loop.loop as loop
    from llmrelay import Client
    from llmrelay.adapters import NativeCall, RawResponse
    from llmrelay.capabilities import CapabilityLearner
    from llmrelay.testing import FakeAdapter

    counted: dict[str, int] = {"loop": 0, "setup": 0}
    for name, module in (("loop", loop), ("setup", setup)):

        def counting(tools: Any, _name: str = name, _real: Any = module.to_tools) -> Any:
            counted[_name] += 1
            return _real(tools)

        monkeypatch.setattr(module, "to_tools", counting)

    def get_weather(city: str) -> str:
        """Weather for a city."""
        return "sunny"

    calls = (NativeCall("get_weather", '{"city": "Paris"}', "c1"),)
    fake = FakeAdapter([RawResponse("fake", "m", "", calls, "tool_calls"), "Sunny in Paris."])
    client = Client("openai:gpt-4o-mini", api_key="k", adapter=fake, learner=CapabilityLearner())
    result = client.run("Weather in Paris?", tools=[get_weather])
    assert (len(result.steps), counted) == (2, {"loop": 1, "setup": 0})


def test_the_modes_are_written_once() -> None:
    """`Mode` in `_envelope.py` lists them; everything else reads `MODES` (or `Mode`)."""
    from llmrelay._envelope import MODES

    def lists_every_mode(node: ast.AST) -> bool:
        elements = getattr(node, "elts", None) if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else None
        if isinstance(node, ast.Subscript):  # Literal[...]
            elements = getattr(node.slice, "elts", None)
        values = {e.value for e in elements or () if isinstance(e, ast.Constant)}
        return set(MODES) <= values

    writing = sorted(
        module_name(path)
        for path in PACKAGE.rglob("*.py")
        if any(lists_every_mode(node) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    )
    assert writing == ["llmrelay._envelope"]
