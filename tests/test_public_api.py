from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

import llmrelay


def test_all_is_sorted_and_complete() -> None:
    """Everything public is in __all__ (subpackages such as llmrelay.errors are imported by path)."""
    public = {name for name in dir(llmrelay) if not name.startswith("_")} | llmrelay._LAZY
    submodules = {name for name in public if isinstance(getattr(llmrelay, name), types.ModuleType)}
    assert llmrelay.__all__ == sorted(llmrelay.__all__)
    assert public - submodules == set(llmrelay.__all__)


def test_public_classes_say_llmrelay_in_tracebacks() -> None:
    for name in ("Completion", "ToolCall", "RejectedCall", "Tool", "ConfigError"):
        assert getattr(llmrelay, name).__module__ == "llmrelay"


def test_import_is_light() -> None:
    """`import llmrelay` loads no provider SDK and none of the heavy libraries it uses lazily."""
    code = "import sys, json, llmrelay; print(json.dumps(sorted(sys.modules)))"
    loaded = set(
        json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    )
    heavy = {"openai", "anthropic", "google.genai", "groq", "httpx", "httpx2", "pydantic", "jsonschema", "yaml"}
    assert heavy.isdisjoint(loaded), heavy & loaded


def test_stream_events_and_their_error_are_public() -> None:
    names = {"StreamEnd", "StreamEvent", "StreamInterrupted", "TextDelta", "ToolCallComplete", "ToolCallDelta"}
    assert names | {"ToolCallStarted"} <= set(llmrelay.__all__)
    assert llmrelay.TextDelta.__module__ == llmrelay.StreamInterrupted.__module__ == "llmrelay"
    assert issubclass(llmrelay.StreamInterrupted, llmrelay.ProviderError)


def test_streaming_code_loads_only_when_a_stream_is_asked_for() -> None:
    code = "import sys, llmrelay; print(any(m.startswith('llmrelay._pipeline.stream') for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_import_loads_only_the_errors_module() -> None:
    """Issue 13: `import llmrelay` loads the errors and nothing else of llmrelay; the rest on first use."""
    code = "import sys, llmrelay; print(sorted(m for m in sys.modules if m.startswith('llmrelay')))"
    assert _run(code) == "['llmrelay', 'llmrelay.errors']"


_CLIENT_IMPORT = "from llmrelay import Client"
_CLIENT_MADE = _CLIENT_IMPORT + "; Client('openai-compatible:m', base_url='http://localhost:1/v1')"


@pytest.mark.parametrize(
    ("code", "loaded"),
    [
        # What a user imports to make a call loads the client's class and its defaults, nothing more.
        (
            _CLIENT_IMPORT,
            {"llmrelay", "llmrelay.errors", "llmrelay._client", "llmrelay._constructor", "llmrelay._defaults"},
        ),
        # The pipeline loads when a client is made (issue 13: `from llmrelay import Client` under 60 ms).
        (_CLIENT_MADE, {"llmrelay._pipeline.flow", "llmrelay.adapters", "llmrelay.capabilities", "dataclasses"}),
    ],
    ids=["import", "first client"],
)
def test_the_client_loads_its_pipeline_when_one_is_made(code: str, loaded: set[str]) -> None:
    modules = set(json.loads(_run(f"import sys, json; {code}; print(json.dumps(sorted(sys.modules)))")))
    pipeline = {"llmrelay._pipeline.flow", "llmrelay.adapters", "llmrelay.capabilities", "llmrelay._envelope"}
    assert loaded <= modules, loaded - modules
    if code == _CLIENT_IMPORT:
        assert {m for m in modules if m.startswith("llmrelay")} == loaded | {
            "llmrelay._pipeline",
            "llmrelay._pipeline.setup",
        }
        assert pipeline.isdisjoint(modules)
        assert {"asyncio", "dataclasses", "inspect"}.isdisjoint(modules)


def test_dir_lists_the_lazily_loaded_names_without_loading_them() -> None:
    """Issue 13: `dir(llmrelay)` (and so tab completion) shows every public name, loaded or not."""
    code = (
        "import sys, llmrelay; names = dir(llmrelay); "
        "print(set(llmrelay.__all__) <= set(names), names == sorted(names), 'llmrelay._client' in sys.modules)"
    )
    assert _run(code) == "True True False"


def test_names_loaded_on_first_use_say_llmrelay() -> None:
    code = "from llmrelay import Client, ToolCall, parse_response; print(Client.__module__, ToolCall.__module__)"
    assert _run(code) == "llmrelay llmrelay"
