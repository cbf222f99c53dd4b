"""Config files: TOML snippets -> resolved settings, or -> the exact ConfigError; and one app run
against every provider by changing only the profile."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import llmrelay
from llmrelay import AsyncClient, Client, ConfigError, RetryPolicy
from llmrelay._config import Config, ProviderConfig, client_arguments, load_config
from llmrelay.adapters import ProviderOptions, known_providers
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

FAKE_KEY = "sk-config-FAKE-0123456789-must-never-be-shown"
KEY_VARIABLES = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GROQ_API_KEY",
    "GROQ_BASE_URL",
    "OPENROUTER_API_KEY",
    "OPENAI_COMPATIBLE_API_KEY",
    "LLMRELAY_PROFILE",
    "LLMRELAY_MODEL",
)
PROVIDERS = ", ".join(known_providers())


@pytest.fixture(autouse=True)
def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test runs in its own repository (the `.git` stops the search) with no keys set."""
    for name in KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(text: str, name: str = "llmrelay.toml", directory: Path | None = None) -> Path:
    path = (directory or Path.cwd()) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- TOML -> resolved settings --------------------------------------------------------------


@dataclass(frozen=True)
class Resolves:
    id: str
    toml: str
    expected: dict[str, Any]
    """Fields of the `Config` and their values; the others are not looked at."""
    profile: str | None = None
    env: dict[str, str] = field(default_factory=dict)


MODEL = 'model = "openai:gpt-4o-mini"\n'

RESOLVES = [
    Resolves(
        "top-level settings alone, the client's defaults elsewhere",
        MODEL,
        {
            "profile": None,
            "profiles": (),
            "model": "openai:gpt-4o-mini",
            "fallback_models": (),
            "mode": None,
            "modes": None,
            "max_repairs": 2,
            "max_steps": 8,
            "max_tokens_on_length": None,
            "strict": False,
            "params": {},
            "retry": RetryPolicy(),
            "providers": {},
            "aliases": {},
            "capabilities": {},
        },
    ),
    Resolves(
        "every setting",
        """
        model = "anthropic:claude-sonnet-4-5"
        fallback_models = ["openai:gpt-4o-mini", "groq:llama-3.3-70b-versatile"]
        mode = "json_schema"
        modes = ["json_schema", "text"]
        max_repairs = 0
        max_steps = 3
        max_tokens_on_length = 8192
        strict = true
        params = { temperature = 0.2, max_tokens = 1024 }
        retry = { max_attempts = 2, initial_delay = 0, max_delay = 5, jitter = 0.25, max_retry_after = 10, total_timeout = 30.5 }
        [providers.anthropic]
        base_url = "https://proxy.example/anthropic"
        api_key_env = "ANTHROPIC_KEY_PROD"
        timeout = 20
        headers = { "X-Team" = "search" }
        [capabilities.anthropic."claude-*"]
        emits_xml_tool_calls = true
        context_window = 200000
        """,
        {
            "model": "anthropic:claude-sonnet-4-5",
            "fallback_models": ("openai:gpt-4o-mini", "groq:llama-3.3-70b-versatile"),
            "mode": "json_schema",
            "modes": ("json_schema", "text"),
            "max_repairs": 0,
            "max_steps": 3,
            "max_tokens_on_length": 8192,
            "strict": True,
            "params": {"temperature": 0.2, "max_tokens": 1024},
            "retry": RetryPolicy(2, 0.0, 5.0, 0.25, 10.0, 30.5),
            "providers": {
                "anthropic": ProviderConfig(
                    "https://proxy.example/anthropic", "ANTHROPIC_KEY_PROD", 20.0, {"X-Team": "search"}
                )
            },
            "capabilities": {"anthropic": {"claude-*": {"emits_xml_tool_calls": True, "context_window": 200000}}},
        },
    ),
    Resolves(
        "a profile inherits the top level and overrides what it sets",
        """
        max_repairs = 1
        max_steps = 4
        [profiles.fast]
        model = "groq:llama-3.3-70b-versatile"
        max_steps = 2
        """,
        {"profile": "fast", "model": "groq:llama-3.3-70b-versatile", "max_repairs": 1, "max_steps": 2},
        profile="fast",
    ),
    Resolves(
        "tables merge key by key, at every depth",
        """
        model = "openai:gpt-4o-mini"
        params = { temperature = 0, max_tokens = 500, extra_body = { a = 1 } }
        retry = { max_attempts = 3 }
        providers.openai = { timeout = 30, headers = { "X-A" = "1" } }
        [profiles.p]
        params = { max_tokens = 100, extra_body = { b = 2 } }
        retry = { initial_delay = 0 }
        providers.openai = { base_url = "https://proxy.example/v1", headers = { "X-B" = "2" } }
        """,
        {
            "params": {"temperature": 0, "max_tokens": 100, "extra_body": {"a": 1, "b": 2}},
            "retry": RetryPolicy(max_attempts=3, initial_delay=0.0),
            "providers": {"openai": ProviderConfig("https://proxy.example/v1", None, 30.0, {"X-A": "1", "X-B": "2"})},
        },
        profile="p",
    ),
    Resolves(
        "arrays are replaced, not merged",
        """
        model = "openai:gpt-4o-mini"
        fallback_models = ["groq:llama-3.3-70b-versatile"]
        modes = ["native_tools", "text"]
        [profiles.alone]
        fallback_models = []
        modes = ["text"]
        """,
        {"fallback_models": (), "modes": ("text",)},
        profile="alone",
    ),
    Resolves(
        "default_profile is used when nothing else picks one",
        'default_profile = "b"\n[profiles.a]\nmodel = "openai:gpt-4o"\n[profiles.b]\nmodel = "openai:gpt-4o-mini"\n',
        {"profile": "b", "profiles": ("a", "b"), "model": "openai:gpt-4o-mini"},
    ),
    Resolves(
        "LLMRELAY_PROFILE wins over default_profile",
        'default_profile = "b"\n[profiles.a]\nmodel = "openai:gpt-4o"\n[profiles.b]\nmodel = "openai:gpt-4o-mini"\n',
        {"profile": "a", "model": "openai:gpt-4o"},
        env={"LLMRELAY_PROFILE": "a"},
    ),
    Resolves(
        "profile= wins over LLMRELAY_PROFILE",
        '[profiles.a]\nmodel = "openai:gpt-4o"\n[profiles.b]\nmodel = "openai:gpt-4o-mini"\n',
        {"profile": "b", "model": "openai:gpt-4o-mini"},
        profile="b",
        env={"LLMRELAY_PROFILE": "a"},
    ),
    Resolves(
        "without a profile, the top-level settings alone",
        MODEL + '[profiles.a]\nmodel = "openai:gpt-4o"\n',
        {"profile": None, "profiles": ("a",), "model": "openai:gpt-4o-mini"},
    ),
    Resolves(
        "LLMRELAY_MODEL replaces the profile's model, and only the model",
        'fallback_models = ["openai:gpt-4o"]\n[profiles.a]\nmodel = "openai:gpt-4o-mini"\n',
        {"model": "gemini:gemini-2.5-flash", "fallback_models": ("openai:gpt-4o",)},
        profile="a",
        env={"LLMRELAY_MODEL": "gemini:gemini-2.5-flash"},
    ),
    Resolves(
        "aliases in model, fallback_models and LLMRELAY_MODEL",
        """
        model = "smart"
        fallback_models = ["fast", "openai:gpt-4o-mini"]
        [aliases]
        fast = "groq:llama-3.3-70b-versatile"
        smart = "anthropic:claude-sonnet-4-5"
        local = "openai-compatible:qwen3:8b"
        """,
        {
            "model": "openai-compatible:qwen3:8b",
            "fallback_models": ("groq:llama-3.3-70b-versatile", "openai:gpt-4o-mini"),
            "aliases": {
                "fast": "groq:llama-3.3-70b-versatile",
                "smart": "anthropic:claude-sonnet-4-5",
                "local": "openai-compatible:qwen3:8b",
            },
        },
        env={"LLMRELAY_MODEL": "local"},
    ),
    Resolves(
        "a profile's alias is seen by the top-level model",
        'model = "main"\n[profiles.a.aliases]\nmain = "openai:gpt-4o"\n[profiles.b.aliases]\nmain = "gemini:gemini-2.5-flash"\n',
        {"model": "gemini:gemini-2.5-flash"},
        profile="b",
    ),
    Resolves(
        "a model name may contain colons (Ollama's tags)",
        'model = "openai-compatible:llama3.1:8b"\n',
        {"model": "openai-compatible:llama3.1:8b"},
    ),
]


@pytest.mark.parametrize("case", RESOLVES, ids=lambda c: c.id)
def test_resolves(case: Resolves, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in case.env.items():
        monkeypatch.setenv(name, value)
    write(inspect.cleandoc(case.toml))
    config = load_config(profile=case.profile)
    assert {name: getattr(config, name) for name in case.expected} == case.expected


# --- TOML -> the exact error ----------------------------------------------------------------


@dataclass(frozen=True)
class Fails:
    id: str
    toml: str
    message: str
    """The whole message; `{file}` stands for the file's path."""
    profile: str | None = None
    env: dict[str, str] = field(default_factory=dict)


NO_KEYS = "API keys are never written in the file: put the key in an environment variable and set {} to its name"
MODES = "must be one of native_tools, json_schema, json_object, text"

FAILS = [
    # Unknown keys, with a suggestion when one is close.
    Fails("a misspelt key", MODEL + "max_repair = 1", "{file}: max_repair: unknown key; did you mean 'max_repairs'?"),
    Fails(
        "an unknown key in a profile",
        MODEL + "[profiles.fast]\nfalback_models = []",
        "{file}: profiles.fast.falback_models: unknown key; did you mean 'fallback_models'?",
    ),
    Fails(
        "an unknown retry setting",
        MODEL + "[retry]\nbackoff = 2",
        "{file}: retry.backoff: unknown key; expected one of max_attempts, initial_delay, max_delay, jitter, "
        "max_retry_after, total_timeout",
    ),
    Fails(
        "an unknown provider setting",
        MODEL + "[providers.openai]\nbase-url = 'x'",
        "{file}: providers.openai.base-url: unknown key; did you mean 'base_url'?",
    ),
    Fails(
        "an unknown capability",
        MODEL + '[capabilities.openai."gpt-4o*"]\nnative_tool = true',
        "{file}: capabilities.openai.\"gpt-4o*\".native_tool: unknown key; did you mean 'native_tools'?",
    ),
    Fails(
        "default_profile inside a profile",
        MODEL + "[profiles.a]\ndefault_profile = 'a'",
        "{file}: profiles.a.default_profile: unknown key; expected one of model, fallback_models, mode, modes, "
        "max_repairs, max_steps, max_tokens_on_length, max_requests, strict, max_tool_calls, deadline, params, retry, "
        "providers, aliases, capabilities",
    ),
    # Wrong types, and numbers out of range.
    Fails(
        "a negative count",
        MODEL + "[profiles.fast]\nmax_repairs = -1",
        "{file}: profiles.fast.max_repairs: must be an integer >= 0, got -1",
    ),
    Fails(
        "a count written as a string",
        MODEL + 'max_steps = "3"',
        "{file}: max_steps: must be an integer >= 1, got a string",
    ),
    Fails(
        "a boolean for a count", MODEL + "max_repairs = true", "{file}: max_repairs: must be an integer >= 0, got true"
    ),
    Fails("a float for a count", MODEL + "max_repairs = 1.5", "{file}: max_repairs: must be an integer >= 0, got 1.5"),
    Fails("no steps at all", MODEL + "max_steps = 0", "{file}: max_steps: must be an integer >= 1, got 0"),
    Fails(
        "a zero token budget",
        MODEL + "max_tokens_on_length = 0",
        "{file}: max_tokens_on_length: must be an integer >= 1, got 0",
    ),
    Fails("strict as a number", MODEL + "strict = 1", "{file}: strict: must be true or false, got 1"),
    Fails(
        "no attempts", MODEL + "[retry]\nmax_attempts = 0", "{file}: retry.max_attempts: must be an integer >= 1, got 0"
    ),
    Fails(
        "a negative delay",
        MODEL + "[retry]\ninitial_delay = -0.5",
        "{file}: retry.initial_delay: must be a number >= 0, got -0.5",
    ),
    Fails(
        "a delay as a string",
        MODEL + "retry.max_delay = '5s'",
        "{file}: retry.max_delay: must be a number >= 0, got a string",
    ),
    Fails("retry not a table", MODEL + "retry = 3", "{file}: retry: must be a table, got 3"),
    Fails(
        "a zero timeout",
        MODEL + "providers.openai.timeout = 0",
        "{file}: providers.openai.timeout: must be a number > 0, got 0",
    ),
    Fails("a date", MODEL + "max_steps = 2024-01-01", "{file}: max_steps: must be an integer >= 1, got a date or time"),
    Fails("params not a table", MODEL + "params = [1]", "{file}: params: must be a table, got an array"),
    Fails(
        "an empty base_url",
        MODEL + "providers.openai.base_url = ''",
        "{file}: providers.openai.base_url: must be a non-empty string, got an empty string",
    ),
    Fails(
        "a header that is a number",
        MODEL + "providers.openai.headers = { X-Retries = 3 }",
        "{file}: providers.openai.headers.X-Retries: must be a string, got 3",
    ),
    # Modes.
    Fails("a bad mode", MODEL + 'mode = "tools"', f"{{file}}: mode: {MODES}, got 'tools'"),
    Fails("a bad mode in the list", MODEL + 'modes = ["text", "xml"]', f"{{file}}: modes[1]: {MODES}, got 'xml'"),
    Fails("no modes", MODEL + "modes = []", "{file}: modes: must list at least one mode"),
    Fails("a mode twice", MODEL + 'modes = ["text", "text"]', "{file}: modes: lists a value more than once"),
    Fails("modes not an array", MODEL + 'modes = "text"', "{file}: modes: must be an array, got a string"),
    # Profiles.
    Fails(
        "an unknown profile=",
        MODEL + "[profiles.fast]",
        "{file}: unknown profile 'slow' (from profile=) (known profiles: fast)",
        profile="slow",
    ),
    Fails(
        "an unknown LLMRELAY_PROFILE",
        MODEL + "[profiles.fast]\n[profiles.cheap]",
        "{file}: unknown profile 'slow' (from LLMRELAY_PROFILE) (known profiles: cheap, fast)",
        env={"LLMRELAY_PROFILE": "slow"},
    ),
    Fails(
        "a profile asked of a file with none",
        MODEL,
        "{file}: unknown profile 'fast' (from profile=) (the file defines no profiles)",
        profile="fast",
    ),
    Fails(
        "an unknown default_profile",
        MODEL + 'default_profile = "fats"\n[profiles.fast]',
        "{file}: default_profile: unknown profile 'fats' (known profiles: fast)",
    ),
    Fails("profiles not a table", MODEL + "profiles = 3", "{file}: profiles: must be a table, got 3"),
    Fails(
        "a profile not a table",
        MODEL + '[profiles]\nfast = "groq"',
        "{file}: profiles.fast: must be a table, got a string",
    ),
    Fails(
        "a mistake in a profile nobody picked",
        MODEL + '[profiles.a]\nmodel = "openai:gpt-4o"\n[profiles.b]\nmodel = "fast"',
        "{file}: profiles.b.model: 'fast' is neither 'provider:model-name' nor an alias (the file defines no aliases)",
        profile="a",
    ),
    # Models, providers and aliases.
    Fails(
        "no model",
        "max_repairs = 1",
        "{file}: no model: set `model` at the top level, or the LLMRELAY_MODEL environment variable",
    ),
    Fails(
        "no model in the profile",
        "[profiles.fast]\nmax_repairs = 1",
        "{file}: no model: set `model` in [profiles.fast] or at the top level, or the LLMRELAY_MODEL environment variable",
    ),
    Fails(
        "an unknown provider in model",
        'model = "opneai:gpt-4o"',
        f"{{file}}: model: unknown provider 'opneai' (known providers: {PROVIDERS})",
    ),
    Fails(
        "a model without its name",
        'model = "openai:"',
        "{file}: model: must be 'provider:model-name' or an alias, got 'openai:'",
    ),
    Fails(
        "an unknown alias",
        'model = "fast"\naliases.quick = "groq:x"',
        "{file}: model: 'fast' is neither 'provider:model-name' nor an alias (known aliases: quick)",
    ),
    Fails(
        "an unknown alias among the fallbacks",
        MODEL + 'fallback_models = ["openai:gpt-4o", "fast"]',
        "{file}: fallback_models[1]: 'fast' is neither 'provider:model-name' nor an alias (the file defines no aliases)",
    ),
    Fails(
        "an unknown provider among a profile's fallbacks",
        MODEL + '[profiles.p]\nfallback_models = ["grok:grok-4"]',
        f"{{file}}: profiles.p.fallback_models[0]: unknown provider 'grok' (known providers: {PROVIDERS})",
    ),
    Fails(
        "an alias of an alias",
        MODEL + '[aliases]\nfast = "quick"\nquick = "groq:x"',
        "{file}: aliases.fast: must be 'provider:model-name' (an alias cannot name another alias), got 'quick'",
    ),
    Fails(
        "an alias to an unknown provider",
        MODEL + '[aliases]\nfast = "grok:x"',
        f"{{file}}: aliases.fast: unknown provider 'grok' (known providers: {PROVIDERS})",
    ),
    Fails(
        "an alias named like a model",
        MODEL + '[aliases]\n"openai:fast" = "groq:x"',
        "{file}: aliases.\"openai:fast\": an alias's name cannot contain ':' (it would read as 'provider:model-name')",
    ),
    Fails(
        "an unknown provider table",
        MODEL + "[providers.opneai]\ntimeout = 5",
        f"{{file}}: providers.opneai: unknown provider 'opneai' (known providers: {PROVIDERS})",
    ),
    Fails(
        "a bad LLMRELAY_MODEL",
        MODEL + 'aliases.fast = "groq:x"',
        "{file}: LLMRELAY_MODEL (environment): 'fsat' is neither 'provider:model-name' nor an alias (known aliases: fast)",
        env={"LLMRELAY_MODEL": "fsat"},
    ),
    # Capabilities.
    Fails(
        "capabilities of an unknown provider",
        MODEL + '[capabilities.opneai."*"]\njson_schema = true',
        f"{{file}}: capabilities.opneai: unknown provider 'opneai' (known providers: {PROVIDERS})",
    ),
    Fails(
        "a capability as a string",
        MODEL + '[capabilities.groq."llama*"]\njson_schema = "yes"',
        '{file}: capabilities.groq."llama*".json_schema: must be true or false, got a string',
    ),
    Fails(
        "a zero context window",
        MODEL + '[capabilities.groq."llama*"]\ncontext_window = 0',
        '{file}: capabilities.groq."llama*".context_window: must be an integer >= 1, got 0',
    ),
    Fails(
        "a pattern with brackets",
        MODEL + '[capabilities.groq."llama-[34]*"]\njson_schema = true',
        '{file}: capabilities.groq."llama-[34]*": a model pattern may use * and ? only, not brackets',
    ),
    # Keys are never written in the file; what looks like one is not echoed.
    Fails(
        "a key at the top level",
        MODEL + f'api_key = "{FAKE_KEY}"',
        "{file}: api_key: " + NO_KEYS.format("providers.<provider>.api_key_env"),
    ),
    Fails(
        "a key in a provider table",
        MODEL + f'[providers.groq]\napi_key = "{FAKE_KEY}"',
        "{file}: providers.groq.api_key: " + NO_KEYS.format("providers.groq.api_key_env"),
    ),
    Fails(
        "a key in a profile",
        MODEL + f'[profiles.p]\napi_key = "{FAKE_KEY}"',
        "{file}: profiles.p.api_key: " + NO_KEYS.format("providers.<provider>.api_key_env"),
    ),
    Fails(
        "a key in params",
        MODEL + f'params.api_key = "{FAKE_KEY}"',
        "{file}: params.api_key: " + NO_KEYS.format("providers.<provider>.api_key_env"),
    ),
    Fails(
        "a key in a header",
        MODEL + f'providers.openai.headers.Authorization = "Bearer {FAKE_KEY}"',
        "{file}: providers.openai.headers.Authorization: "
        + NO_KEYS.format("providers.<provider>.api_key_env")
        + " (or pass headers= in code)",
    ),
    Fails(
        "a key where its variable's name belongs",
        MODEL + f'providers.openai.api_key_env = "{FAKE_KEY}"',
        "{file}: providers.openai.api_key_env: must be the name of an environment variable (letters, digits and _), not the key itself",
    ),
    Fails(
        "a key where a number belongs",
        MODEL + f'providers.openai.timeout = "{FAKE_KEY}"',
        "{file}: providers.openai.timeout: must be a number > 0, got a string",
    ),
]


@pytest.mark.parametrize("case", FAILS, ids=lambda c: c.id)
def test_fails_at_load(case: Fails, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in case.env.items():
        monkeypatch.setenv(name, value)
    path = write(case.toml)
    with pytest.raises(ConfigError) as error:
        load_config(profile=case.profile)
    assert str(error.value) == case.message.format(file=path)
    assert FAKE_KEY not in str(error.value) and FAKE_KEY not in repr(error.value)


def test_invalid_toml_names_the_file_and_the_place() -> None:
    path = write(MODEL + "max_repairs = \n")
    with pytest.raises(ConfigError, match=r"^(.*): not valid TOML: .*line 2") as error:
        load_config()
    assert str(error.value).startswith(f"{path}: not valid TOML: ")


def test_pyproject_errors_name_the_tool_table() -> None:
    path = write(
        '[project]\nname = "app"\n[tool.llmrelay]\nmodel = "openai:gpt-4o"\n[tool.llmrelay.profiles.fast]\nmax_repairs = -2\n',
        "pyproject.toml",
    )
    with pytest.raises(ConfigError) as error:
        load_config()
    assert str(error.value) == f"{path}: tool.llmrelay.profiles.fast.max_repairs: must be an integer >= 0, got -2"


# --- where the file is found --------------------------------------------------------------------


def test_found_in_a_parent_directory(_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(MODEL)
    monkeypatch.chdir(write("", "src/app/x.py").parent)
    assert load_config().path == path


def test_llmrelay_toml_beats_pyproject_in_the_same_directory() -> None:
    write('[tool.llmrelay]\nmodel = "groq:x"\n', "pyproject.toml")
    path = write(MODEL)
    config = load_config()
    assert (config.path, config.model) == (path, "openai:gpt-4o-mini")


def test_pyproject_with_the_table_is_read(_project: Path) -> None:
    path = write(
        '[project]\nname = "app"\n\n[tool.llmrelay]\nmodel = "groq:llama-3.3-70b-versatile"\n', "pyproject.toml"
    )
    config = load_config()
    assert (config.path, config.model) == (path, "groq:llama-3.3-70b-versatile")


def test_a_pyproject_without_the_table_ends_the_search(_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12: a pyproject.toml marks the project root; a file above it is not this project's."""
    write(MODEL)
    package = write('[project]\nname = "sub"\n', "packages/sub/pyproject.toml").parent
    monkeypatch.chdir(package)
    with pytest.raises(ConfigError, match=r"up to .*packages/sub;"):
        load_config()


def test_the_search_stops_at_the_repository_root(_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(MODEL)  # Above the inner repository: someone else's file.
    inner = _project / "vendor" / "tool"
    (inner / ".git").mkdir(parents=True)
    monkeypatch.chdir(inner)
    with pytest.raises(ConfigError) as error:
        load_config()
    assert str(error.value) == (
        f"no llmrelay.toml, nor a pyproject.toml with a [tool.llmrelay] table, in {inner} or its parents up to "
        f"{inner}; write one, or pass path="
    )


def test_an_explicit_path_wins_over_the_search(_project: Path) -> None:
    write(MODEL)
    other = write('model = "gemini:gemini-2.5-flash"\n', "deploy/staging.toml")
    assert load_config(other).model == "gemini:gemini-2.5-flash"
    assert Client.from_config(str(other), learner=CapabilityLearner()).provider == "gemini"


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("missing.toml", None, "no such file"),
        ("pyproject.toml", '[project]\nname = "app"\n', "no [tool.llmrelay] table"),
        ("pyproject.toml", "[tool]\nllmrelay = 3\n", "tool.llmrelay: must be a table, got 3"),
    ],
)
def test_explicit_path_problems(name: str, text: str | None, problem: str) -> None:
    path = write(text, name) if text is not None else Path(name)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == f"{path}: {problem}"


def test_a_directory_is_not_a_file(_project: Path) -> None:
    with pytest.raises(ConfigError, match=r": not a file$"):
        load_config(_project)


# --- the Config value -------------------------------------------------------------------------


def test_config_is_frozen() -> None:
    write(MODEL + 'params = { temperature = 0 }\nproviders.openai.headers = { "X-A" = "1" }\n')
    config = load_config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.model = "openai:gpt-4o"  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.params["temperature"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        config.providers["openai"].headers["X-A"] = "2"  # type: ignore[index]


def test_config_defaults_are_the_clients() -> None:
    """A setting the file leaves out means what leaving it out of `Client(...)` means."""
    constructor = inspect.signature(Client.__init__).parameters
    plain = [f for f in dataclasses.fields(Config) if f.default is not dataclasses.MISSING]
    defaults = {f.name: f.default for f in plain}
    renamed = {"max_steps": "max_plan_steps"}  # The file's key keeps the constructor's old name.
    assert defaults == {name: constructor[renamed.get(name, name)].default for name in defaults}
    assert set(defaults) == {
        "fallback_models",
        "mode",
        "modes",
        "max_repairs",
        "max_steps",
        "max_tokens_on_length",
        "max_requests",
        "strict",
        "max_tool_calls",
        "deadline",
    }
    assert RetryPolicy() == Config(Path("x"), None, (), "openai:x").retry


def test_loading_reads_no_provider_sdk_and_import_reads_no_toml() -> None:
    code = (
        "import sys, json, llmrelay, llmrelay._config as c; before = 'tomllib' in sys.modules; "
        "c.load_config('llmrelay.toml'); print(json.dumps([before, sorted(sys.modules)]))"
    )
    write('model = "anthropic:claude-sonnet-4-5"\n')
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    tomllib_before, loaded = json.loads(out)
    assert tomllib_before is False
    assert {"openai", "anthropic", "google.genai", "groq", "httpx", "httpx2", "pydantic"}.isdisjoint(loaded)


def test_the_documented_example_loads_every_profile() -> None:
    example = Path(__file__).parents[1] / "examples" / "llmrelay.toml"
    config = load_config(example)
    assert (config.profile, config.model, config.fallback_models) == (
        "openai",
        "openai:gpt-4o-mini",
        ("groq:llama-3.3-70b-versatile",),
    )
    local = load_config(example, profile="local")
    assert (local.model, local.modes, local.retry.max_attempts, local.retry.max_delay) == (
        "openai-compatible:qwen3:8b",
        ("native_tools", "text"),
        1,
        30.0,
    )
    assert local.params == {"temperature": 0, "max_tokens": 2048}
    assert [load_config(example, profile=name).profile for name in config.profiles] == list(config.profiles)


# --- from a Config to a client ----------------------------------------------------------------

SETUP = """
default_profile = "main"
max_repairs = 1
params = { temperature = 0 }
retry = { max_attempts = 2, initial_delay = 0 }

[providers.openai]
api_key_env = "APP_OPENAI_KEY"
timeout = 15
headers = { "X-App" = "weather" }

[providers.groq]
api_key_env = "APP_GROQ_KEY"

[providers.anthropic]
api_key_env = "APP_ANTHROPIC_KEY"   # not set: no profile below uses anthropic

[aliases]
fast = "groq:llama-3.3-70b-versatile"

[capabilities.groq."llama-3.3*"]
json_schema = true

[capabilities.openai."*"]
json_object = false

[profiles.main]
model = "openai:gpt-4o-mini"
fallback_models = ["fast"]
modes = ["native_tools", "json_object", "text"]

[profiles.local]
model = "openai-compatible:qwen3:8b"
providers.openai-compatible.base_url = "http://localhost:11434/v1"
capabilities.openai-compatible."qwen3*".native_tools = true
"""


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APP_OPENAI_KEY", FAKE_KEY)
    monkeypatch.setenv("APP_GROQ_KEY", FAKE_KEY + "-groq")


def test_client_arguments(keys: None) -> None:
    write(SETUP)
    arguments = client_arguments(load_config(), {})
    assert arguments == {
        "model": "openai:gpt-4o-mini",
        "fallback_models": ["groq:llama-3.3-70b-versatile"],
        "api_key": FAKE_KEY,
        "base_url": None,
        "timeout": 15.0,
        "headers": {"X-App": "weather"},
        "provider_options": {},
        "providers": {"groq": ProviderOptions(api_key=FAKE_KEY + "-groq")},
        "mode": None,
        "modes": ("native_tools", "json_object", "text"),
        "params": {"temperature": 0},
        "max_repairs": 1,
        "max_steps": 8,
        "max_tokens_on_length": None,
        "max_requests": 6,
        "retry": RetryPolicy(max_attempts=2, initial_delay=0.0),
        "strict": False,
        "max_tool_calls": 128,
        "deadline": 900.0,
        # The groq overrides, for the one groq model of the plan; openai's "*" for gpt-4o-mini.
        "capabilities": {"openai": {"*": {"json_object": False}}, "groq": {"llama-3.3*": {"json_schema": True}}},
    }


def test_from_config_builds_the_client(keys: None) -> None:
    write(SETUP)
    client = Client.from_config(learner=CapabilityLearner())
    assert (client.provider, client.model, client.fallback_models) == (
        "openai",
        "gpt-4o-mini",
        [("groq", "llama-3.3-70b-versatile")],
    )
    assert (client.max_repairs, client.params, client.retry.max_attempts) == (1, {"temperature": 0}, 2)
    # The capability overrides reach the plan: no json_object for gpt-4o-mini, json_schema for llama.
    assert client._supported_modes("openai", "gpt-4o-mini") == ("native_tools", "text")
    assert client._supported_modes("groq", "llama-3.3-70b-versatile") == ("native_tools", "json_object", "text")
    assert "json_schema" in llmrelay.capabilities.modes(
        llmrelay.capabilities.lookup("groq", "llama-3.3-70b-versatile", client._overrides["groq"])
    )


def test_the_caps_and_the_deadline_come_from_the_file(keys: None) -> None:
    write('model = "openai:gpt-4o-mini"\nmax_tool_calls = 7\ndeadline = 1.5\n[profiles.p]\ndeadline = 30\n')
    client = Client.from_config(learner=CapabilityLearner())
    assert (client.max_tool_calls, client.deadline) == (7, 1.5)
    assert Client.from_config(profile="p", learner=CapabilityLearner()).deadline == 30.0


@pytest.mark.parametrize("line", ["max_tool_calls = 0", "deadline = 0", "deadline = -1", 'deadline = "1"'])
def test_bad_caps_and_deadlines_fail_at_load(keys: None, line: str) -> None:
    write(f'model = "openai:gpt-4o-mini"\n{line}\n')
    with pytest.raises(ConfigError, match=line.split()[0]):
        Client.from_config(learner=CapabilityLearner())


def test_async_client_from_config(keys: None) -> None:
    write(SETUP)
    client = AsyncClient.from_config(profile="local", learner=CapabilityLearner())
    assert isinstance(client, AsyncClient)
    assert (client.provider, client.model) == ("openai-compatible", "qwen3:8b")
    assert client._supported_modes("openai-compatible", "qwen3:8b")[0] == "native_tools"
    assert client._options["openai-compatible"] == ProviderOptions(base_url="http://localhost:11434/v1")


def test_keyword_arguments_win_and_may_use_aliases(keys: None) -> None:
    write(SETUP)
    client = Client.from_config(
        model="fast", fallback_models=[], max_repairs=0, api_key="sk-explicit", learner=CapabilityLearner()
    )
    assert (client.provider, client.model, client.fallback_models, client.max_repairs) == (
        "groq",
        "llama-3.3-70b-versatile",
        [],
        0,
    )
    assert client._options["groq"].api_key == "sk-explicit"


def test_a_bad_alias_as_a_keyword_argument(keys: None) -> None:
    path = write(SETUP)
    with pytest.raises(ConfigError) as error:
        Client.from_config(model="fsat")
    assert str(error.value) == (
        f"{path}: from_config(model=...): 'fsat' is neither 'provider:model-name' nor an alias (known aliases: fast)"
    )


def test_a_named_key_variable_must_be_set_when_the_client_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(SETUP)
    monkeypatch.setenv("APP_OPENAI_KEY", FAKE_KEY)
    load_config()  # Loading needs no key: a config can be checked where no key is.
    with pytest.raises(ConfigError) as error:
        Client.from_config()  # The groq fallback's APP_GROQ_KEY is not set.
    assert str(error.value) == f"{path}: providers.groq.api_key_env: the environment variable APP_GROQ_KEY is not set"
    assert FAKE_KEY not in str(error.value)


def test_keys_are_read_only_for_the_providers_of_the_plan(keys: None) -> None:
    write(SETUP)  # APP_ANTHROPIC_KEY is not set, and no error says so.
    assert "anthropic" not in Client.from_config()._options


def test_without_api_key_env_the_sdk_reads_its_usual_variable() -> None:
    write(MODEL)
    assert client_arguments(load_config(), {})["api_key"] is None


def test_same_model_name_on_two_providers_keeps_each_providers_overrides() -> None:
    write(
        'model = "openai-compatible:llama-3.3-70b-versatile"\nfallback_models = ["groq:llama-3.3-70b-versatile"]\n'
        'providers.openai-compatible.base_url = "http://localhost:8000/v1"\n'
        '[capabilities.openai-compatible."llama*"]\njson_object = true\n'
    )
    client = Client.from_config(learner=CapabilityLearner())
    assert "json_object" in client._supported_modes("openai-compatible", "llama-3.3-70b-versatile")
    assert client._overrides.get("groq") is None  # The other provider's entry is untouched.


def test_an_explicit_api_key_needs_no_variable_even_for_a_fallback_of_the_same_provider() -> None:
    write(SETUP)  # APP_OPENAI_KEY is not set.
    client = Client.from_config(fallback_models=["openai:gpt-4o"], api_key="sk-explicit")
    assert client.fallback_models == [("openai", "gpt-4o")]
    assert client._options == {"openai": ProviderOptions("sk-explicit", None, 15.0, {"X-App": "weather"})}


def test_a_missing_key_variable_in_pyproject_names_the_tool_table() -> None:
    path = write('[tool.llmrelay]\nmodel = "groq:x"\nproviders.groq.api_key_env = "APP_GROQ_KEY"\n', "pyproject.toml")
    with pytest.raises(ConfigError) as error:
        Client.from_config()
    assert str(error.value) == (
        f"{path}: tool.llmrelay.providers.groq.api_key_env: the environment variable APP_GROQ_KEY is not set"
    )


# --- keys are never shown ------------------------------------------------------------------------


def test_no_key_in_any_repr_or_message(keys: None, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GROQ_API_KEY", "OPENROUTER_API_KEY"):
        monkeypatch.setenv(name, FAKE_KEY)
    path = write(SETUP)
    config = load_config()
    client = Client.from_config(learner=CapabilityLearner())
    async_client = AsyncClient.from_config(learner=CapabilityLearner())
    shown = [repr(config), str(config), repr(client), str(client), repr(async_client), str(async_client)]
    shown += [repr(client._options), repr(config.providers)]
    for case in FAILS:  # Every error, with the key in the environment and, in some, in the file.
        path.write_text(case.toml)
        with monkeypatch.context() as env:
            for name, value in case.env.items():
                env.setenv(name, value)
            with pytest.raises(ConfigError) as error:
                load_config(profile=case.profile)
        shown += [str(error.value), repr(error.value)]
    for text in shown:
        assert FAKE_KEY not in text and FAKE_KEY[:16] not in text and FAKE_KEY[-12:] not in text


# --- one app, every provider: only the profile changes ------------------------------------------------

from tests.adapters import anthropic_bodies, gemini_bodies, openai_bodies  # noqa: E402 - the swap test's answers

SWAP = """
# One weather app, six providers: switching is choosing a profile.
default_profile = "openai"
max_repairs = 1

[providers.openai]
api_key_env = "WEATHER_OPENAI_KEY"
[providers.anthropic]
api_key_env = "WEATHER_ANTHROPIC_KEY"
[providers.gemini]
api_key_env = "WEATHER_GEMINI_KEY"
[providers.groq]
api_key_env = "WEATHER_GROQ_KEY"
[providers.openrouter]
api_key_env = "WEATHER_OPENROUTER_KEY"
headers = { "X-Title" = "weather-app" }
[providers.openai-compatible]
base_url = "http://localhost:11434/v1"

# Ollama serves qwen3 with tool calling; the database cannot know what a local server runs.
[capabilities.openai-compatible."qwen3*"]
native_tools = true

[profiles.openai]
model = "openai:gpt-4o-mini"
[profiles.anthropic]
model = "anthropic:claude-sonnet-4-6"
[profiles.gemini]
model = "gemini:gemini-2.5-flash"
[profiles.groq]
model = "groq:llama-3.3-70b-versatile"
[profiles.openrouter]
model = "openrouter:mistralai/mistral-small"
[profiles.local]
model = "openai-compatible:qwen3:8b"
"""
PARIS = {"city": "Paris"}


def get_weather(city: str) -> str:
    """Current weather for a city."""
    return f"Sunny in {city}"


def app(client: Client) -> llmrelay.Completion:
    return client.complete("Weather in Paris?", tools=[get_weather])


async def async_app(client: AsyncClient) -> llmrelay.Completion:
    return await client.complete("Weather in Paris?", tools=[get_weather])


def chat_completion(recorded: dict[str, Any]) -> dict[str, Any]:
    """A recorded Chat Completions tool-call answer, calling get_weather for Paris instead."""
    answer = copy.deepcopy(recorded)
    [call] = answer["choices"][0]["message"]["tool_calls"]
    call["function"] = {"name": "get_weather", "arguments": json.dumps(PARIS)}
    return answer


def anthropic_message(recorded: dict[str, Any]) -> dict[str, Any]:
    answer = copy.deepcopy(recorded)
    [block] = answer["content"]
    block.update(name="get_weather", input=PARIS)
    return answer


def gemini_response(recorded: dict[str, Any]) -> dict[str, Any]:
    answer = copy.deepcopy(recorded)
    *_thought, part = answer["candidates"][0]["content"]["parts"]
    part["functionCall"] = {"name": "get_weather", "args": PARIS}
    return answer


@dataclass(frozen=True)
class Provider:
    profile: str
    url: str
    answer: dict[str, Any]
    """A real answer of that provider (tests/adapters/*_bodies.py, from the conformance cassettes)."""
    keyed: bool = True
    """Whether the profile names a key variable (a local server needs no key)."""


SWAPS = [
    Provider("openai", "https://api.openai.com/v1/chat/completions", chat_completion(openai_bodies.OPENAI_TOOL_CALL)),
    Provider("anthropic", "https://api.anthropic.com/v1/messages", anthropic_message(anthropic_bodies.TOOL_USE)),
    Provider(
        "gemini",
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
        gemini_response(gemini_bodies.THOUGHT_THEN_CALL),
    ),
    Provider(
        "groq",
        "https://api.groq.com/openai/v1/chat/completions",
        chat_completion(openai_bodies.GROQ_TOOL_CALL_WITH_REASONING),
    ),
    Provider(
        "openrouter",
        "https://openrouter.ai/api/v1/chat/completions",
        chat_completion(openai_bodies.OPENROUTER_TOOL_CALL),
    ),
    Provider(
        "local",
        "http://localhost:11434/v1/chat/completions",
        chat_completion(openai_bodies.CEREBRAS_TOOL_CALL),
        keyed=False,
    ),
]
SAME_ENVELOPE = ("", [("get_weather", PARIS)], True, "tool_calls", "native_tools")


@pytest.fixture
def weather_app(monkeypatch: pytest.MonkeyPatch) -> None:
    write(SWAP)
    for provider in ("OPENAI", "ANTHROPIC", "GEMINI", "GROQ", "OPENROUTER"):
        monkeypatch.setenv(f"WEATHER_{provider}_KEY", f"{FAKE_KEY}-{provider.lower()}")


def envelope(answer: llmrelay.Completion) -> tuple[Any, ...]:
    calls = [(call.name, call.arguments) for call in answer.tool_calls]
    assert all(call.id for call in answer.tool_calls)
    return answer.content, calls, answer.needs_more_work, answer.finish_reason, answer.mode


def check_request(router: Any, provider: Provider) -> None:
    """One request, to that provider, carrying the key its api_key_env names and the tool."""
    [call] = router.calls
    request = call.request
    assert str(request.url).split("?")[0] == provider.url
    if provider.keyed:  # In the provider's own header (the SDKs differ: authorization, x-api-key…).
        assert any(f"{FAKE_KEY}-{provider.profile}" in value for value in request.headers.values())
    assert "get_weather" in request.content.decode()


@pytest.mark.parametrize("provider", SWAPS, ids=lambda p: p.profile)
def test_the_same_app_on_every_provider_by_profile(
    provider: Provider, weather_app: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LLMRELAY_PROFILE", provider.profile)  # The only change between runs.
    with mock_http() as router:
        for other in SWAPS:
            router.post(other.url).respond(200, json=other.answer)
        answer = app(Client.from_config(learner=CapabilityLearner()))
        check_request(router, provider)
    assert envelope(answer) == SAME_ENVELOPE


@pytest.mark.parametrize("provider", SWAPS, ids=lambda p: p.profile)
async def test_the_same_async_app_on_every_provider_by_profile(provider: Provider, weather_app: None) -> None:
    with mock_http() as router:
        for other in SWAPS:
            router.post(other.url).respond(200, json=other.answer)
        answer = await async_app(AsyncClient.from_config(profile=provider.profile, learner=CapabilityLearner()))
        check_request(router, provider)
    assert envelope(answer) == SAME_ENVELOPE


def test_openrouter_gets_its_configured_header(weather_app: None) -> None:
    with mock_http() as router:
        router.post(SWAPS[4].url).respond(200, json=SWAPS[4].answer)
        app(Client.from_config(profile="openrouter", learner=CapabilityLearner()))
        assert router.calls[0].request.headers["x-title"] == "weather-app"


def test_provider_options_come_from_the_file_and_credentials_never_do(tmp_path: Path) -> None:
    """`providers.<id>.options` is `provider_options=` (Azure's api_version, a Vertex AI project), minus secrets."""
    path = tmp_path / "llmrelay.toml"
    path.write_text(
        'model = "azure:prod-chat"\n[providers.azure]\nbase_url = "https://r.openai.azure.com"\n'
        '[providers.azure.options]\napi_version = "2024-10-21"\nmodel = "gpt-4o"\n'
    )
    arguments = client_arguments(load_config(path), {})
    assert arguments["provider_options"] == {"api_version": "2024-10-21", "model": "gpt-4o"}
    path.write_text('model = "bedrock:anthropic.claude-x"\n[providers.bedrock.options]\naws_secret_key = "oops"\n')
    with pytest.raises(ConfigError, match=r"providers\.bedrock\.options\.aws_secret_key"):
        load_config(path)


# --- issue 12: where the file can come from, what messages echo, numbers ----------------------------

SEARCHES = [
    # (markers: directory -> what it holds, the directory the search starts in, the directories searched)
    ({"a": ".git"}, "a/b/c", ["a/b/c", "a/b", "a"]),
    ({"a": ".git", "a/b": "pyproject.toml"}, "a/b/c", ["a/b/c", "a/b"]),
    ({"a": "home"}, "a/b", ["a/b", "a"]),
    ({"a": ".git", "a/b": "home"}, "a/b/c", ["a/b/c", "a/b"]),  # Home first: the .git above is not looked at.
    ({}, "a/b", ["a/b"]),  # No project root, no home: the current directory only.
]


@pytest.mark.parametrize(("markers", "start", "expected"), SEARCHES)
def test_the_search_stops_at_the_project_root_or_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, markers: dict[str, str], start: str, expected: list[str]
) -> None:
    from llmrelay._config import search_path

    (tmp_path / ".git").rmdir()  # The fixture's repository: these cases make their own.
    home = tmp_path / "elsewhere"
    for directory, marker in markers.items():
        if marker == "home":
            home = tmp_path / directory
        else:
            write("", marker, tmp_path / directory)
    monkeypatch.setattr(Path, "home", lambda: home)
    (tmp_path / start).mkdir(parents=True, exist_ok=True)
    assert search_path(tmp_path / start) == [tmp_path / d for d in expected]


def test_a_file_above_home_is_never_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(MODEL, directory=tmp_path)  # A world-writable parent's file, say.
    home = tmp_path / "home" / "me"
    home.mkdir(parents=True)
    monkeypatch.setattr(Path, "home", lambda: home)
    monkeypatch.chdir(home)
    with pytest.raises(ConfigError, match=r"no llmrelay\.toml"):
        load_config()


def test_the_file_read_is_logged(_project: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = write(MODEL)
    with caplog.at_level("DEBUG", logger="llmrelay"):
        load_config()
    assert [r.getMessage() for r in caplog.records if r.name == "llmrelay"] == [
        f"llmrelay: reading the config file {path}"
    ]


PASTED = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"
NOT_ECHOED = [
    pytest.param(f'model = "{PASTED}"\n', {}, id="model"),
    pytest.param(f'model = "openai:x"\nmode = "{PASTED}"\n', {}, id="mode"),
    pytest.param(f'model = "fast"\n[aliases]\nfast = "{PASTED}"\n', {}, id="alias"),
    pytest.param('model = "openai:x"\n', {"LLMRELAY_MODEL": PASTED}, id="LLMRELAY_MODEL"),
    pytest.param('model = "openai:x"\n', {"LLMRELAY_PROFILE": PASTED}, id="LLMRELAY_PROFILE"),
    pytest.param(f'model = "{PASTED}:x"\n', {}, id="provider"),
    pytest.param('model = "openai:x"\n[providers.openai]\nbase_url = "file:///etc/passwd"\n', {}, id="base_url"),
    pytest.param('model = "gw-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"\n', {}, id="long"),
]


@pytest.mark.parametrize(("text", "env"), NOT_ECHOED)
def test_config_errors_never_echo_a_value_that_may_be_a_secret(
    _project: Path, monkeypatch: pytest.MonkeyPatch, text: str, env: dict[str, str]
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    write(text)
    with pytest.raises(ConfigError) as caught:
        load_config()
    message = str(caught.value)
    assert PASTED not in message and PASTED[:12] not in message and "0123456789abcdef" not in message
    assert "/etc/passwd" not in message


def test_short_identifiers_are_still_named(_project: Path) -> None:
    write('model = "openai:x"\nmode = "jason"\n')
    with pytest.raises(ConfigError, match="got 'jason'"):
        load_config()


@pytest.mark.parametrize(
    "setting",
    [
        "[retry]\ninitial_delay = nan",
        "[retry]\nmax_delay = inf",
        "[retry]\ntotal_timeout = -inf",
        "[retry]\njitter = -0.5",
        "[providers.openai]\ntimeout = nan",
        "[providers.openai]\ntimeout = inf",
        "[params]\ntemperature = nan",
        "[params.nested]\nvalues = [1.0, inf]",
    ],
)
def test_non_finite_or_negative_numbers_are_refused_at_load(_project: Path, setting: str) -> None:
    write(f'model = "openai:x"\n{setting}\n')
    with pytest.raises(ConfigError, match=r"must be a (finite )?number"):
        load_config()
