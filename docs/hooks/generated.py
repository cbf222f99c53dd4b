"""MkDocs hook: the parts of the docs generated from the code and its tests, so they cannot drift.

A page asks for a generated part with a marker on a line of its own:

- `<!-- generated: capabilities -->`: the capability table, from `src/llmrelay/capabilities/models.toml`;
- `<!-- generated: formats -->`: one section per registered parsing strategy, in the order they are
  tried, with an example input taken from that strategy's own test table (under `tests/normalize/`)
  and the envelope `parse_response` gives for it, computed at build time;
- `<!-- generated: content -->` and `<!-- generated: reasoning -->`: reasoning, images and PDFs per
  model (the capability data), and what `reasoning=` becomes per provider (the adapters' own code);
- `<!-- generated: readme-benchmarks -->`: the README's benchmark section, the one place the
  measured figures are written.

Plain functions, no MkDocs import: `tests/test_docs_generated.py` runs them too.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
_MARKER = re.compile(r"^<!-- generated: ([\w-]+) -->$", re.MULTILINE)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs event: replace each generated-part marker of a page with the part."""
    return expand(markdown)


def expand(markdown: str) -> str:
    """The page with every marker replaced; an unknown marker is an error, not an empty section."""

    def generate(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise ValueError(f"unknown generated part {name!r} (known: {', '.join(sorted(GENERATORS))})")
        return GENERATORS[name]()

    return _MARKER.sub(generate, markdown)


# --- the capability table ---------------------------------------------------------------------

_FLAGS = ("native_tools", "parallel_tool_calls", "json_schema", "json_object")
_HINTS = {"emits_xml_tool_calls": "XML", "emits_special_tokens": "tokens"}


def capability_rows() -> Iterator[tuple[str, list[str], dict[str, Any]]]:
    """Each `[[model]]` entry of the database as (provider, patterns, the facts its models get).

    A model gets its provider's default entry (pattern "*") with the most specific matching entry
    on top, so an entry's models have the default's facts overridden by the entry's own.
    """
    from llmrelay.capabilities._lookup import _toml_loads, parse_database

    path = ROOT / "src" / "llmrelay" / "capabilities" / "models.toml"
    document = _toml_loads(path.read_text(encoding="utf-8"))
    parse_database(document, origin="models.toml")  # An invalid database fails the build, with the library's message.
    rows = document["model"]
    defaults = {provider: _facts(row) for row in rows if row["pattern"] == "*" for provider in _providers(row)}
    for row in rows:
        patterns = [row["pattern"]] if isinstance(row["pattern"], str) else list(row["pattern"])
        for provider in _providers(row):
            yield provider, patterns, _facts(row) if patterns == ["*"] else {**defaults[provider], **_facts(row)}


def _providers(row: Mapping[str, Any]) -> list[str]:
    provider = row["provider"]
    return [provider] if isinstance(provider, str) else list(provider)


def _facts(row: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key not in ("provider", "pattern")}


def capability_table() -> str:
    """The database as one table per provider, the provider default first."""
    from llmrelay.capabilities import Capabilities, modes

    columns = ["models", "tools", "parallel calls", "json_schema", "json_object", "in text, may emit", "context"]
    header = "| " + " | ".join([*columns, "modes, best first"]) + " |\n|---|:-:|:-:|:-:|:-:|---|--:|---|"
    sections: dict[str, list[str]] = {}
    for provider, patterns, facts in capability_rows():
        caps = Capabilities(**facts)
        models = "any other model" if patterns == ["*"] else ", ".join(f"`{p}`" for p in patterns)
        flags = ["✓" if getattr(caps, flag) else "–" for flag in _FLAGS]
        hints = ", ".join(label for name, label in _HINTS.items() if getattr(caps, name)) or "–"
        context = f"{caps.context_window:,}" if caps.context_window else "?"
        cells = [models, *flags, hints, context, ", ".join(modes(caps))]
        sections.setdefault(provider, []).append("| " + " | ".join(cells) + " |")
    # Providers with the same table (OpenAI's two APIs) share one section.
    merged: dict[tuple[str, ...], list[str]] = {}
    for provider, rows in sections.items():
        merged.setdefault(tuple(rows), []).append(provider)
    return "\n\n".join(f"### {', '.join(names)}\n\n{header}\n" + "\n".join(rows) for rows, names in merged.items())


# --- the providers table ------------------------------------------------------------------------


def providers_table() -> str:
    """Every built-in provider: what it reaches, its extra, its credentials, its modes, its quirks.

    The modes are those of the provider's default capability entry (pattern `*`), and "more by
    model" says that entries for particular models give them more.
    """
    from llmrelay.adapters import _BUILTIN
    from llmrelay.adapters._catalog import CATALOG
    from llmrelay.capabilities import Capabilities, modes

    if missing := sorted(set(_BUILTIN) - set(CATALOG)):
        raise ValueError(f"providers without a row in adapters/_catalog.py: {missing}")
    defaults: dict[str, tuple[str, ...]] = {}
    best: dict[str, set[str]] = {}
    for provider, patterns, facts in capability_rows():
        if patterns == ["*"]:
            defaults[provider] = modes(Capabilities(**facts))
        best.setdefault(provider, set()).update(modes(Capabilities(**facts)))
    lines = ["| provider id | what it is | extra | credentials | modes | quirks |", "|---|---|---|---|---|---|"]
    for provider in _BUILTIN:
        row, default = CATALOG[provider], defaults[provider]
        shown = ", ".join(default) + (" (more by model)" if best[provider] - set(default) else "")
        lines.append(f"| `{provider}` | {row.what} | `llmrelay[{row.extra}]` | {row.keys} | {shown} | {row.quirks} |")
    return "\n".join(lines)


# --- the content page (issue 14) ---------------------------------------------------------------


def content_table() -> str:
    """Reasoning, image and PDF input, and inline size limits, from the capability data.

    One row per database entry that differs from its provider's default in these facts; providers
    that share an entry share its row.
    """
    from llmrelay.capabilities import Capabilities

    def cells(caps: Capabilities) -> tuple[str, ...]:
        marks = ["?" if v is None else "✓" if v else "–" for v in (caps.reasoning, caps.vision, caps.pdf_input)]
        sizes = [f"{v:,} B" if v else "?" for v in (caps.max_image_bytes, caps.max_pdf_bytes)]
        return (*marks, *sizes)

    entries = [(provider, patterns, cells(Capabilities(**facts))) for provider, patterns, facts in capability_rows()]
    defaults = {provider: row for provider, patterns, row in entries if patterns == ["*"]}
    rows: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for provider, patterns, row in entries:
        if patterns != ["*"] and row == defaults.get(provider):
            continue  # Its models are the default row's in these facts.
        models = "any other model" if patterns == ["*"] else ", ".join(f"`{p}`" for p in patterns)
        rows.setdefault((models, row), []).append(f"`{provider}`")
    lines = [
        "| provider | models | reasoning | images | PDFs | inline image | inline PDF |",
        "|---|---|:-:|:-:|:-:|--:|--:|",
    ]
    lines += [f"| {', '.join(names)} | {models} | " + " | ".join(row) + " |" for (models, row), names in rows.items()]
    return "\n".join(lines)


KNOB_VALUES: tuple[Any, ...] = ("low", "high", {"budget_tokens": 2000}, False)


def reasoning_table() -> str:
    """What each `reasoning=` value becomes in each provider's request, computed with the adapters' own code."""
    columns = " | ".join(f"`reasoning={value!r}`" for value in KNOB_VALUES)
    lines = [f"| provider (model) | {columns} |", "|---|" + "---|" * len(KNOB_VALUES)]
    for label, fields in _knob_mappers():
        cells = [_fields_text(fields(value)) for value in KNOB_VALUES]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _knob_mappers() -> list[tuple[str, Callable[[Any], dict[str, Any]]]]:
    from llmrelay._effort import read_reasoning
    from llmrelay._types import Message, Request
    from llmrelay.adapters import ProviderOptions, adapter_class
    from llmrelay.adapters._responses_messages import request_body as responses_body

    def chat(provider: str, model: str) -> Callable[[Any], dict[str, Any]]:
        adapter: Any = adapter_class(provider)(ProviderOptions(api_key="k"))  # type: ignore[call-arg]
        return lambda value: adapter.reasoning_fields(read_reasoning(value), model)

    def anthropic(value: Any) -> dict[str, Any]:
        from llmrelay.adapters.anthropic import build_body

        body = build_body(Request("claude-sonnet-4-6", (Message("user", "hi"),), "text", params={"reasoning": value}))
        return {key: body[key] for key in ("thinking", "max_tokens") if key in body and "thinking" in body}

    def gemini(value: Any) -> dict[str, Any]:
        from llmrelay.adapters.gemini import _thinking_config

        config = _thinking_config(read_reasoning(value)).model_dump(exclude_none=True)
        return {"thinkingConfig": {_camel(key): item for key, item in config.items()}}

    def responses(value: Any) -> dict[str, Any]:
        body = responses_body(
            Request("gpt-5", (Message("user", "hi"),), "text", params={"reasoning": value}), provider="x"
        )
        return {"reasoning": body["reasoning"]} if "reasoning" in body else {}

    return [
        ("`openai` (Chat Completions), `azure`, OpenAI-compatible servers", chat("openai", "o4-mini")),
        ("`openai-responses`, `azure-responses`", responses),
        ("`anthropic`, `bedrock`, `anthropic-vertex`", anthropic),
        ("`gemini`, `vertex`", gemini),
        ("`groq` (`openai/gpt-oss-*`)", chat("groq", "openai/gpt-oss-120b")),
        ("`groq` (`qwen/qwen3-*`)", chat("groq", "qwen/qwen3-32b")),
        ("`openrouter`", chat("openrouter", "anthropic/claude-sonnet-4.5")),
        ("`deepseek`", chat("deepseek", "deepseek-chat")),
    ]


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(word.title() for word in rest)


def _fields_text(fields: dict[str, Any]) -> str:
    return f"`{json.dumps(fields)}`" if fields else "nothing sent"


# --- the formats page ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """One strategy's example: a case from a test table, and where it was found."""

    strategy: Any
    case: Any
    """A `tests.normalize.cases.Case`."""
    source: str
    """The test file, relative to the repository root."""
    cases: int
    """How many cases of this format that file's tables hold."""


def _test_cases() -> dict[str, list[Any]]:
    """Every `Case` in the tables of tests/normalize/, by test file (relative path), in table order."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # The tables import each other as the `tests` package.
    from tests.normalize.cases import Case

    found: dict[str, list[Any]] = {}
    for path in sorted((ROOT / "tests" / "normalize").rglob("test_*.py")):
        module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
        tables = [value for value in vars(module).values() if isinstance(value, (list, tuple))]
        cases = [case for table in tables for case in table if isinstance(case, Case)]
        found[path.relative_to(ROOT).as_posix()] = cases
    # A file that only gathers other files' cases (the streaming tests replay every table) is
    # not where a case comes from.
    gatherers = []
    for file, cases in found.items():
        others = [other for name, other in found.items() if name != file]
        elsewhere = {id(case) for other in others for case in other}
        if cases and all(id(case) in elsewhere for case in cases) and len(cases) > max(map(len, others), default=0):
            gatherers.append(file)
    for file in gatherers:
        del found[file]
    return found


def examples() -> list[Example]:
    """One example per registered strategy, in the order `parse_response` tries them.

    The example comes from the strategy's own test file (`test_<its module>.py`) when that file has
    a case of its format, else from any other table under tests/normalize/. A case with calls, read
    without tools and not in strict mode, is preferred; else any case of the format.

    Raises:
        LookupError: a registered strategy has no case in any table (add one to its test table).
    """
    from llmrelay.normalize import registered_strategies

    tables = _test_cases()
    chosen = []
    for strategy in registered_strategies():
        own = f"tests/normalize/strategies/test_{type(strategy).__module__.rsplit('.', 1)[-1]}.py"
        files = sorted(tables, key=lambda f: f != own)  # Its own file first, then the others in order.
        for file in files:
            of_format = [c for c in tables[file] if c.format == strategy.name]
            if of_format:
                plain = [c for c in of_format if c.calls and not c.rejected and c.tools is None and not c.strict]
                chosen.append(Example(strategy, (plain or of_format)[0], file, len(of_format)))
                break
        else:
            raise LookupError(f"strategy {strategy.name!r} has no case in the test tables under tests/normalize/")
    return chosen


def envelope(text: str, **options: Any) -> dict[str, Any]:
    """What `parse_response` makes of `text`: the envelope's fields, empty ones left out."""
    from llmrelay import parse_response

    result = parse_response(text, **options)
    shown: dict[str, Any] = {
        "content": result.content,
        "tool_calls": [{"name": c.name, "arguments": c.arguments, "id": c.id} for c in result.tool_calls],
        "needs_more_work": result.needs_more_work,
        "format": result.format,
    }
    if result.reasoning is not None:
        shown["reasoning"] = result.reasoning
    if result.rejected:
        shown["rejected"] = [{"name": r.name, "kind": r.kind, "reason": r.reason} for r in result.rejected]
    if result.error:
        shown["error"] = {"code": result.error.code, "message": result.error.message}
    if result.warnings:
        shown["warnings"] = result.warnings
    return shown


def formats_page() -> str:
    """A summary table of the strategies, then a section per strategy with its example."""
    chosen = examples()
    summary = ["| # | strategy | reads |", "|--:|---|---|"]
    summary += [
        f"| {i} | [`{e.strategy.name}`](#{_anchor(e.strategy.name)}) | {_about(e)} |" for i, e in enumerate(chosen, 1)
    ]
    return "\n".join(summary) + "\n\n" + "\n\n".join(_section(example) for example in chosen)


def _section(example: Example) -> str:
    case, name = example.case, example.strategy.name
    options = {"tools": case.tools, "strict": case.strict}
    result = envelope(case.text, **options)
    if result["format"] != name:  # The docs would claim a format the strategy does not give.
        raise AssertionError(f"{example.source}: case {case.id!r} is read as {result['format']!r}, not {name!r}")
    called = " with `tools`" if case.tools else ""
    called += ", `strict=True`" if case.strict else ""
    return "\n".join(
        [
            f"## `{name}`",
            "",
            _about(example),
            "",
            f'The model wrote (case "{case.id}", one of {example.cases} in `{example.source}`):',
            "",
            _fenced(case.text, "text"),
            "",
            f"`parse_response(text{called})` gives:",
            "",
            _fenced(_pretty(result), "json"),
        ]
    )


def _pretty(envelope: dict[str, Any]) -> str:
    """JSON with one line per field, and one per list item: readable, yet still valid JSON."""

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in envelope.items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"    {dumps(item)}" for item in value)
            lines.append(f"  {dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {dumps(key)}: {dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def _about(example: Example) -> str:
    """The first line of the strategy's docstring: what it reads."""
    doc = (type(example.strategy).__doc__ or "").strip().splitlines()
    return doc[0] if doc else ""  # Pipes inside `code` do not split a table row here.


def _anchor(name: str) -> str:
    return name.lower()


def _fenced(text: str, language: str) -> str:
    """A fenced block longer than any run of backticks in the text, so the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


# --- the benchmark figures ---------------------------------------------------------------------


def readme_benchmarks() -> str:
    """The README's `## Benchmarks` section, up to the next `## ` heading, without its title."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Benchmarks\n(.*?)(?=^## |\Z)", readme, re.MULTILINE | re.DOTALL)
    if match is None:
        raise LookupError("README.md has no '## Benchmarks' section")
    return match.group(1).strip()


GENERATORS: dict[str, Callable[[], str]] = {
    "capabilities": capability_table,
    "providers": providers_table,
    "formats": formats_page,
    "readme-benchmarks": readme_benchmarks,
    "content": content_table,
    "reasoning": reasoning_table,
}
