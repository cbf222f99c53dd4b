"""The `llmrelay` command line.

`llmrelay parse [FILE]` shows what llmrelay makes of a model's output; `llmrelay demo` replays the
shipped cassettes through the real client, offline, and prints a report.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ._envelope import Completion


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    handler: Any = args.handler
    try:
        return int(handler(args))
    except BrokenPipeError:  # `llmrelay demo | head`: the reader left; not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # No second error at exit.
        return 0


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="llmrelay", description="Call any LLM with tools; one canonical answer.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    parse = commands.add_parser(
        "parse",
        help="print the envelope llmrelay reads from a model's output",
        description="Read a model's raw output (FILE, or stdin) and print the normalized envelope as JSON.",
    )
    parse.add_argument("file", nargs="?", type=Path, help="a file holding the model's output (default: stdin)")
    parse.add_argument("--tools", type=Path, help="a JSON file with a list of tool definitions to validate against")
    parse.add_argument("--strict", action="store_true", help="accept only explicit tool-call constructs")
    parse.set_defaults(handler=_parse_command)
    demo = commands.add_parser(
        "demo",
        help="replay recorded answers from four providers and open models, offline, and show the envelope",
        description="Offline, with no API key: the same request answered by OpenAI, Anthropic, Gemini, Groq and "
        "open models writing tool calls in text, plus a repair round and a fallback, replayed from the "
        "cassettes shipped with llmrelay through the real client.",
    )
    demo.add_argument("--width", type=int, help="wrap the report to this many columns (default: the terminal's)")
    demo.set_defaults(handler=_demo_command)
    return parser


_DEMO_NEEDS = {"openai": "openai", "anthropic": "anthropic", "google.genai": "google-genai", "groq": "groq"}
_DEMO_NEEDS |= {"respx": "respx", "yaml": "pyyaml"}
"""What the demo imports (module: package): every provider SDK, and the cassette player."""


def _demo_command(args: argparse.Namespace) -> int:
    from .errors import MissingDependencyError

    missing = [package for module, package in _DEMO_NEEDS.items() if not _importable(module)]
    if missing:  # One line saying what to install, not one error per scenario.
        print(
            f'llmrelay demo needs {", ".join(missing)} (not installed): pip install "llmrelay[demo]"', file=sys.stderr
        )
        return 1
    try:
        from . import _demo

        return _demo.run_demo(sys.stdout, width=args.width)
    except MissingDependencyError as exc:  # The demo replays through the provider SDKs and respx.
        print(f"llmrelay demo: {exc}", file=sys.stderr)
        return 1


def _importable(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # A parent package missing ("google" for google.genai).
        return False


def _parse_command(args: argparse.Namespace) -> int:
    from .errors import ConfigError
    from .normalize import parse_response

    try:
        text = args.file.read_text(encoding="utf-8") if args.file else sys.stdin.read()
        tools = _load_tools(args.tools) if args.tools else None
        result = parse_response(text, tools=tools, strict=args.strict)
    except (OSError, ValueError, ConfigError) as exc:
        print(f"llmrelay parse: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(envelope_as_dict(result), indent=2, ensure_ascii=False))
    return 0


def _load_tools(path: Path) -> list[Any]:
    try:
        tools = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: not valid JSON: {exc}") from exc
    if isinstance(tools, dict):
        tools = [tools]
    if not isinstance(tools, list):
        raise ValueError(f"{path}: expected a JSON list of tool definitions")
    from ._tools import to_tools
    from .errors import ConfigError

    try:
        return list(to_tools(tools).values())
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from exc


_SHOWN = ("content", "tool_calls", "rejected", "error", "warnings", "reasoning", "format", "needs_more_work")
"""What `llmrelay parse` prints, in this order: what the normalizer reads from an answer (the
client's fields, `mode`, `usage`, `attempts`…, are never set by it, and `raw` is the input)."""


def envelope_as_dict(result: Completion) -> dict[str, Any]:
    """The envelope as JSON-ready data, as `llmrelay parse` prints it: only the fields that are set.

    Empty and None fields are left out (an answer of plain text prints `{"content": ...}` alone);
    a call keeps its `arguments` even when `{}`, and its `id` when it has one.
    """
    shown: dict[str, Any] = {}
    for name in _SHOWN:
        value = getattr(result, name)
        if name == "tool_calls":
            value = [{"name": c.name, "arguments": c.arguments, **_set({"id": c.id})} for c in value]
        elif name in ("rejected", "error"):
            value = [_set(dataclasses.asdict(r)) for r in value] if name == "rejected" else _set_object(value)
        if value not in (None, "", [], {}):
            shown[name] = value
    return shown


def _set(fields: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if value not in (None, "", [], (), {})}


def _set_object(value: Any) -> dict[str, Any] | None:
    return None if value is None else _set(dataclasses.asdict(value))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
