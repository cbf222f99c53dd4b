"""Properties of config loading (`load_config`) on generated TOML files.

Whatever the file holds, loading it gives a `Config` or raises a `ConfigError` that names the file:
never another exception. The documents are built from the settings llmrelay knows (and near misses),
with values of every TOML type, so most of them get past the parser into the checks.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from llmrelay._config import MODEL_ENV, PROFILE_ENV, Config, client_arguments, load_config
from llmrelay.errors import ConfigError


@pytest.fixture(autouse=True)
def _no_profile_from_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PROFILE_ENV, raising=False)
    monkeypatch.delenv(MODEL_ENV, raising=False)


# --- writing TOML ---------------------------------------------------------------------------------------


def toml_string(text: str) -> str:
    # JSON's escapes are TOML's, except that TOML also wants DEL escaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, (int, datetime.date, datetime.time)):
        return str(value).replace(" ", "T")
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return "{" + ", ".join(f"{toml_string(key)} = {toml_value(item)}" for key, item in value.items()) + "}"


def toml_document(document: dict[str, Any]) -> str:
    """The document as top-level `key = value` lines (tables inline)."""
    return "".join(f"{toml_string(key)} = {toml_value(value)}\n" for key, value in document.items())


# --- generated documents ----------------------------------------------------------------------------------

SETTINGS = ["model", "fallback_models", "mode", "modes", "max_repairs", "max_steps", "max_tokens_on_length"]
SETTINGS += ["strict", "params", "retry", "providers", "aliases", "capabilities"]
NEAR = ["default_profile", "profiles", "max_attempts", "base_url", "api_key_env", "api_key", "timeout", "headers"]
NEAR += ["initial_delay", "jitter", "openai", "gemini", "groq", "openai-compatible", "native_tools", "context_window"]
NEAR += ["modell", "Model", "", " ", "a.b", "provider:model"]
PROVIDERS = ["openai", "anthropic", "gemini", "groq", "openrouter", "openai-compatible", "nope"]
MODELS = [f"{provider}:{name}" for provider in PROVIDERS for name in ("m", "qwen3:8b")]
WORDS = [*MODELS, "fast", "native_tools", "json_schema", "text", "OPENAI_API_KEY", "sk-abc123", "http://h/v1", ""]

keys = st.sampled_from(SETTINGS + NEAR + PROVIDERS) | st.text(max_size=8)
scalars = (
    st.sampled_from(WORDS)
    | st.text(max_size=12)
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats()
    | st.dates()
    | st.datetimes()
    | st.times()
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=4),
    max_leaves=20,
)
documents = st.dictionaries(keys, values, max_size=6)

# Documents that are mostly right: each setting's value is usually one it accepts, sometimes anything.
KNOWN = ["openai", "anthropic", "gemini", "groq", "openrouter", "openai-compatible"]
GOOD_MODELS = st.sampled_from([f"{provider}:m" for provider in KNOWN] + ["openai-compatible:qwen3:8b", "fast"])
MODES = st.sampled_from(["native_tools", "json_schema", "json_object", "text"])
FACTS = ["native_tools", "parallel_tool_calls", "json_schema", "json_object", "emits_xml_tool_calls"]
provider_settings = st.fixed_dictionaries(
    {},
    optional={
        "base_url": st.just("http://localhost:11434/v1"),
        "api_key_env": st.sampled_from(["MY_KEY", "OPENAI_API_KEY"]),
        "timeout": st.floats(0.1, 600),
        "headers": st.dictionaries(
            st.sampled_from(["X-Title", "HTTP-Referer", "X-Api-Key"] + ["X-Title"] * 5), st.text(max_size=5)
        ),
    },
)
facts = st.fixed_dictionaries(
    {}, optional={**{fact: st.booleans() for fact in FACTS}, "context_window": st.integers(1, 2_000_000)}
)
retry = st.fixed_dictionaries(
    {},
    optional={
        "max_attempts": st.integers(1, 6),
        **{name: st.floats(0, 100) for name in ("initial_delay", "max_delay", "jitter", "max_retry_after")},
        "total_timeout": st.floats(0, 600),
    },
)
ACCEPTED = {
    "model": GOOD_MODELS,
    "fallback_models": st.lists(GOOD_MODELS, max_size=3),
    "mode": MODES,
    "modes": st.lists(MODES, min_size=1, max_size=4, unique=True),
    "max_repairs": st.integers(0, 5),
    "max_steps": st.integers(1, 12),
    "max_tokens_on_length": st.integers(1, 100_000),
    "strict": st.booleans(),
    "params": st.dictionaries(st.sampled_from(["temperature", "max_tokens", "seed", "top_p"]), scalars, max_size=3),
    "retry": retry,
    "providers": st.dictionaries(st.sampled_from(KNOWN), provider_settings, max_size=2),
    "aliases": st.dictionaries(st.sampled_from(["fast", "big"]), GOOD_MODELS.filter(lambda m: m != "fast"), max_size=2),
    "capabilities": st.dictionaries(
        st.sampled_from(KNOWN), st.dictionaries(st.sampled_from(["gpt-*", "m", "*", "qwen?:*"]), facts), max_size=2
    ),
}


def usually(accepted: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """What the setting accepts, and one time in ten anything at all."""
    return st.sampled_from([accepted] * 9 + [values]).flatmap(lambda chosen: chosen)


layers = st.fixed_dictionaries({}, optional={key: usually(accepted) for key, accepted in ACCEPTED.items()})
PROFILE_NAMES = st.sampled_from(["openai", "local", "fast", "nope"])
mostly_right = st.builds(
    lambda top, profiles, default: {**top, "profiles": profiles, **({"default_profile": default} if default else {})},
    st.builds(lambda layer: {"model": "groq:m", "aliases": {"fast": "openai:m"}, **layer}, layers),
    st.dictionaries(PROFILE_NAMES, layers, max_size=3),
    st.none() | PROFILE_NAMES,
)


def loaded(text: str, profile: str | None = None) -> Config | None:
    """The config the file gives, or None when it is refused with a `ConfigError` naming the file."""
    with file_holding(text) as path:
        try:
            config = load_config(path, profile=profile)
        except ConfigError as error:
            assert str(error).startswith(str(path)), error
            event("refused", "not TOML" if "not valid TOML" in str(error) else "a setting")
            return None
    event("loaded")
    try:  # What Client.from_config does with it next.
        client_arguments(config, {})
    except ConfigError:
        pass
    return config


@contextmanager
def file_holding(text: str) -> Iterator[Path]:
    """A fresh config file holding `text`, removed afterwards (hypothesis runs many in one test)."""
    handle, name = tempfile.mkstemp(suffix="-llmrelay.toml")
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(text)
    try:
        yield Path(name)
    finally:
        os.unlink(name)


@given(documents, st.sampled_from([None, "fast", "openai", "nope"]))
def test_a_generated_config_loads_or_says_what_is_wrong(document: dict[str, Any], profile: str | None) -> None:
    loaded(toml_document(document), profile)


@given(documents.map(lambda d: {"profiles": {"openai": d, "local": {"model": "openai-compatible:qwen3:8b"}}}))
def test_a_generated_profile_loads_or_says_what_is_wrong(document: dict[str, Any]) -> None:
    loaded(toml_document(document), "openai")


@given(mostly_right, st.sampled_from([None, "openai", "local"]))
def test_a_mostly_right_config_loads_or_says_what_is_wrong(document: dict[str, Any], profile: str | None) -> None:
    loaded(toml_document(document), profile)


@given(st.text(max_size=200))
def test_any_text_loads_or_says_what_is_wrong(text: str) -> None:
    loaded(text)


@given(documents, st.data())
def test_a_damaged_config_loads_or_says_what_is_wrong(document: dict[str, Any], data: st.DataObject) -> None:
    text = toml_document(document)
    cut = data.draw(st.integers(0, len(text)))
    loaded(text[:cut] + data.draw(st.sampled_from(["", "[", "]", "=", '"', "\n[profiles.x]\n", "\x00"])) + text[cut:])
