"""Every Python sample in README.md and docs/ runs, so the docs cannot show code that does not work.

The samples of one page run in order in one namespace, as a reader would type them. A block whose
first line starts with `>>>` is a doctest: its printed output is checked too. Two HTML comments,
invisible on the rendered page, prepare or skip the next ```python block:

- `<!-- setup` ... `-->`: Python run before the block (e.g. the HTTP answer a call will get);
- `<!-- not-run: <reason> -->`: the block is not run; the reason is required.

Each page runs offline in a temporary directory, with fake API keys and one `mock_http()` router
(`router` in the namespace) that answers only the routes a setup declared. `openai_answer(...)`
builds an OpenAI Chat Completions answer for such a route; `ROOT` is the repository.
"""

from __future__ import annotations

import doctest
import json
import re
import sys
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

import llmrelay._pipeline.setup
import llmrelay.adapters
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md") if "hooks" not in p.parts)]
FAKE_KEYS = {
    "OPENAI_API_KEY": "sk-docs-test",
    "ANTHROPIC_API_KEY": "sk-ant-docs-test",
    "GEMINI_API_KEY": "docs-test",
    "GROQ_API_KEY": "gsk-docs-test",
    "OPENROUTER_API_KEY": "sk-or-docs-test",
}


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    language: str
    code: str
    line: int
    """The line of the first code line, in the page (1-based)."""
    setup: str | None = None
    """Hidden code from a `<!-- setup` comment just before the block."""
    setup_line: int = 0
    not_run: str | None = None
    """The reason given in a `<!-- not-run: reason -->` comment just before the block."""


def blocks(text: str, where: str) -> list[Block]:
    """The fenced code blocks of a markdown page, each with the directives just before it."""
    lines = text.splitlines()
    found: list[Block] = []
    setup: tuple[str, int] | None = None
    not_run: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("<!-- setup"):
            end = next((j for j in range(i, len(lines)) if lines[j].strip().endswith("-->")), None)
            if end is None or end == i:
                raise ValueError(f"{where}:{i + 1}: a setup comment must end with '-->' on a later line")
            setup = ("\n".join(lines[i + 1 : end]), i + 2)
            i = end + 1
            continue
        if stripped.startswith("<!-- not-run:"):
            not_run = stripped.removeprefix("<!-- not-run:").removesuffix("-->").strip()
            if not not_run:
                raise ValueError(f"{where}:{i + 1}: not-run needs a reason")
            i += 1
            continue
        fence = stripped[: len(stripped) - len(stripped.lstrip("`~"))]
        if len(fence) >= 3 and fence == fence[0] * len(fence):
            indent = len(line) - len(line.lstrip())
            language = stripped[len(fence) :].strip().split(" ")[0].lower()
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == fence), None)
            if end is None:
                raise ValueError(f"{where}:{i + 1}: unclosed code block")
            code = "\n".join(body[indent:] for body in lines[i + 1 : end])
            if (setup or not_run) and language != "python":
                raise ValueError(f"{where}:{i + 1}: a setup or not-run comment must come just before a python block")
            setup_code, setup_line = setup or (None, 0)
            found.append(Block(language, code, i + 2, setup_code, setup_line, not_run))
            setup, not_run = None, None
            i = end + 1
            continue
        if (setup or not_run) and stripped:
            raise ValueError(f"{where}:{i + 1}: a setup or not-run comment must come just before a python block")
        i += 1
    if setup or not_run:
        raise ValueError(f"{where}: a setup or not-run comment at the end of the page has no block to apply to")
    return found


def openai_answer(content: str | None = None, calls: Sequence[tuple[str, dict[str, Any]]] = ()) -> httpx.Response:
    """A Chat Completions answer from gpt-4o-mini: text, or tool calls (ids call_1, call_2…)."""
    tool_calls = [
        {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        for n, (name, args) in enumerate(calls, 1)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    body = {
        "id": "chatcmpl-docs",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": 40, "completion_tokens": 10, "total_tokens": 50},
    }
    return httpx.Response(200, json=body)


def openai_stream(text: str, calls: Sequence[tuple[str, dict[str, Any]]] = ()) -> httpx.Response:
    """The same answer as `openai_answer`, streamed: Chat Completions SSE chunks word by word, then [DONE]."""
    deltas: list[dict[str, Any]] = [{"content": word} for word in re.split(r"(?<= )", text) if word]
    for n, (name, args) in enumerate(calls):
        function = {"name": name, "arguments": json.dumps(args)}
        deltas.append({"tool_calls": [{"index": n, "id": f"call_{n + 1}", "type": "function", "function": function}]})
    choices = [{"index": 0, "delta": delta} for delta in deltas]
    choices.append({"index": 0, "delta": {}, "finish_reason": "tool_calls" if calls else "stop"})
    events = [
        {"id": "chatcmpl-docs", "object": "chat.completion.chunk", "model": "gpt-4o-mini", "choices": [c]}
        for c in choices
    ]
    body = "".join(f"data: {json.dumps(event)}\n\n" for event in events) + "data: [DONE]\n\n"
    return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})


@pytest.fixture
def page_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A clean, offline place for one page's samples; returns the namespace they share."""
    monkeypatch.chdir(tmp_path)
    # CI: the samples show a developer machine (record mode "once" by default, not "none").
    for name in ("LLMRELAY_PROFILE", "LLMRELAY_MODEL", "OPENAI_BASE_URL", "GOOGLE_API_KEY", "CI"):
        monkeypatch.delenv(name, raising=False)
    for name, value in FAKE_KEYS.items():
        monkeypatch.setenv(name, value)
    # What a sample registers or teaches stays in its page (strategies are reset by conftest).
    monkeypatch.setattr(llmrelay._pipeline.setup, "_shared_learner", CapabilityLearner())
    monkeypatch.setattr(llmrelay.adapters, "_registered", dict(llmrelay.adapters._registered))
    module = types.ModuleType("docs_sample")  # Samples define classes: they need a real module.
    monkeypatch.setitem(sys.modules, module.__name__, module)
    with mock_http() as router:
        module.__dict__.update(router=router, openai_answer=openai_answer, openai_stream=openai_stream, ROOT=ROOT)
        yield module.__dict__


def run_python(block: Block, namespace: dict[str, Any], page: Path) -> None:
    if block.setup:
        exec(compile("\n" * (block.setup_line - 1) + block.setup, str(page), "exec"), namespace)
    if block.code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(block.code, namespace, page.name, str(page), block.line - 1)
        report: list[str] = []
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, out=report.append, clear_globs=False)
        namespace.update(test.globs)  # DocTest works on a copy; later blocks see what it defined.
        assert not runner.failures, "".join(report)
    else:
        exec(compile("\n" * (block.line - 1) + block.code, str(page), "exec"), namespace)


def included(code: str) -> str:
    """The block with each `--8<-- "path"` line (a file included by pymdownx.snippets) replaced by the file."""
    return re.sub(r'^--8<-- "([^"]+)"$', lambda m: (ROOT / m.group(1)).read_text(encoding="utf-8"), code, flags=re.M)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_python_sample_runs(page: Path, page_environment: dict[str, Any]) -> None:
    for block in blocks(page.read_text(encoding="utf-8"), str(page)):
        if block.language == "python" and block.not_run is None:
            if "except*" in block.code and sys.version_info < (3, 11):
                continue  # Documented as Python 3.11+ syntax.
            run_python(block, page_environment, page)
        elif block.language == "toml":
            tomllib.loads(included(block.code))  # Config samples are at least valid TOML.


def test_samples_are_found_and_few_are_skipped() -> None:
    """The runner sees the samples (a parsing slip would make every test above pass vacuously)."""
    all_blocks = [b for page in PAGES for b in blocks(page.read_text(encoding="utf-8"), str(page))]
    python = [b for b in all_blocks if b.language == "python"]
    skipped = [b for b in python if b.not_run]
    assert len(python) >= 20
    assert len(skipped) <= 3, [b.not_run for b in skipped]


BLOCK_CASES = [
    ("a plain block", "text\n```python\nx = 1\n```\n", [("python", "x = 1", None, None)]),
    ("an indented block", "- item\n\n    ```python\n    x = 1\n    ```\n", [("python", "x = 1", None, None)]),
    (
        "a setup before the block",
        "<!-- setup\nx = 1\n-->\n```python\ny = x\n```\n",
        [("python", "y = x", "x = 1", None)],
    ),
    (
        "a not-run block with its reason",
        "<!-- not-run: needs an API key -->\n```python\ncall()\n```\n",
        [("python", "call()", None, "needs an API key")],
    ),
    (
        "a longer fence holding a shorter one",
        "````md\n```python\nx\n```\n````\n",
        [("md", "```python\nx\n```", None, None)],
    ),
    ("other languages are kept", "```toml\na = 1\n```\n", [("toml", "a = 1", None, None)]),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in BLOCK_CASES], ids=[c[0] for c in BLOCK_CASES])
def test_blocks(text: str, expected: list[tuple[str, str, str | None, str | None]]) -> None:
    assert [(b.language, b.code, b.setup, b.not_run) for b in blocks(text, "page.md")] == expected


@pytest.mark.parametrize(
    "text",
    [
        "<!-- not-run: -->\n```python\nx\n```\n",
        "<!-- not-run: reason -->\n```bash\nx\n```\n",
        "<!-- setup\nx = 1\n-->\nSome prose.\n```python\nx\n```\n",
        "<!-- setup\nx = 1\n-->\n",
        "```python\nx = 1\n",
    ],
    ids=["no reason", "before another language", "prose in between", "nothing after", "unclosed"],
)
def test_misplaced_directives_are_errors(text: str) -> None:
    with pytest.raises(ValueError):
        blocks(text, "page.md")
