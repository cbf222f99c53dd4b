"""Client settings from a TOML file: named profiles, read by `Client.from_config`.

```toml
# llmrelay.toml: top-level settings are every profile's defaults
default_profile = "openai"
max_repairs = 2

[retry]
max_attempts = 3

[providers.openai]
api_key_env = "OPENAI_API_KEY_PROD"   # the NAME of a variable: keys are never written here

[aliases]
fast = "groq:llama-3.3-70b-versatile"

[profiles.openai]
model = "openai:gpt-4o-mini"
fallback_models = ["fast"]

[profiles.local]
model = "openai-compatible:qwen3:8b"
providers.openai-compatible.base_url = "http://localhost:11434/v1"
```

What wins: the keyword arguments of `from_config`, then `LLMRELAY_MODEL` (the model only), then
the profile (`profile=`, else `LLMRELAY_PROFILE`, else `default_profile`, else none), then the
top-level settings. Tables merge key by key; any other value is replaced whole. Every profile is
checked when the file is loaded (`_config_checks`), and each error names the file, the dotted key
and what is wrong.
docs/configuration.md has the full reference.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ._config_checks import TOP_LEVEL, Key, check_table, known, model_ref, shown
from ._envelope import DEFAULT_MAX_TOOL_CALLS, Mode
from ._pipeline.deadline import DEFAULT_DEADLINE
from ._pipeline.retry import RetryPolicy
from .adapters import ProviderOptions
from .errors import ConfigError

logger = logging.getLogger("llmrelay")
CONFIG_FILE = "llmrelay.toml"
PYPROJECT = "pyproject.toml"
PROFILE_ENV = "LLMRELAY_PROFILE"
MODEL_ENV = "LLMRELAY_MODEL"


@dataclass(frozen=True, repr=False)
class ProviderConfig:
    """How to reach one provider, as the file says. Holds the name of the key's variable, never a key."""

    base_url: str | None = None
    """Another endpoint (a proxy, or an OpenAI-compatible server)."""
    api_key_env: str | None = None
    """The environment variable holding the key; None: the provider's usual one."""
    timeout: float | None = None
    """Seconds to wait for an answer; None keeps the SDK's default."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Extra HTTP headers (only their names are shown by `repr`)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Options only this provider reads (`provider_options`: Azure's `api_version`, a Vertex AI project)."""

    def __repr__(self) -> str:
        return (
            f"ProviderConfig(base_url={self.base_url!r}, api_key_env={self.api_key_env!r}, "
            f"timeout={self.timeout!r}, headers={sorted(self.headers)!r}, options={sorted(self.options)!r})"
        )


@dataclass(frozen=True)
class Config:
    """One profile of a config file, resolved: what `Client.from_config` builds a client from."""

    path: Path
    """The file read."""
    profile: str | None
    """The profile chosen; None when only the top-level settings apply."""
    profiles: tuple[str, ...]
    """Every profile the file defines."""
    model: str
    """The model, "provider:model-name", aliases resolved and `LLMRELAY_MODEL` applied."""
    fallback_models: tuple[str, ...] = ()
    """Models to escalate to, in order, aliases resolved."""
    mode: Mode | None = None
    """Always use this output mode."""
    modes: tuple[Mode, ...] | None = None
    """The modes allowed, in the order to try them; None: all the model supports."""
    max_repairs: int = 2
    """How many times a broken answer is sent back for correction."""
    max_steps: int = 8
    """At most this many (model, mode) steps per request."""
    max_tokens_on_length: int | None = None
    """Ask once more with this `max_tokens` when an answer is cut off."""
    max_requests: int = 6
    """The most requests one `complete()` sends in all (repairs and fallbacks included)."""
    strict: bool = False
    """Accept only explicit tool-call constructs in text answers."""
    max_tool_calls: int = DEFAULT_MAX_TOOL_CALLS
    """The most calls read from one answer; one rejection counts those past it."""
    deadline: float = DEFAULT_DEADLINE
    """Seconds one complete() / stream() / run() step may take, retries, repairs and fallbacks included."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """Default generation parameters (temperature, max_tokens…)."""
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    """The transient-retry policy."""
    providers: Mapping[str, ProviderConfig] = field(default_factory=dict)
    """Connection settings by provider id."""
    aliases: Mapping[str, str] = field(default_factory=dict)
    """Short names for "provider:model-name"."""
    capabilities: Mapping[str, Mapping[str, Mapping[str, object]]] = field(default_factory=dict)
    """Capability overrides: `{provider: {model pattern: {fact: value}}}`."""

    def provider_options(self, provider: str, *, read_key: bool = True) -> ProviderOptions:
        """How to reach `provider`, with the key read from the variable `api_key_env` names.

        Without `api_key_env` the key is left to the provider's usual variable (the SDK reads it).

        Raises:
            ConfigError: `api_key_env` names a variable that is not set.
        """
        settings = self.providers.get(provider, ProviderConfig())
        key = None
        if read_key and settings.api_key_env is not None:
            key = os.environ.get(settings.api_key_env) or None
            if key is None:
                (_root(self.path) / "providers" / provider / "api_key_env").fail(
                    f"the environment variable {settings.api_key_env} is not set"
                )
        return ProviderOptions(key, settings.base_url, settings.timeout, dict(settings.headers), dict(settings.options))


def load_config(path: str | os.PathLike[str] | None = None, profile: str | None = None) -> Config:
    """Read and check a config file, and resolve one of its profiles.

    Args:
        path: the file; default: the first `llmrelay.toml`, or `pyproject.toml` with a
            `[tool.llmrelay]` table, in the current directory or a parent, up to the project root
            (the nearest directory holding `pyproject.toml` or `.git`) or the user's home,
            whichever comes first; with neither above it, the current directory only. A file
            further up is never read: whoever can write there could send the key elsewhere
            (`base_url`). The file read is logged (debug level, logger "llmrelay").
        profile: the profile to use; default: `LLMRELAY_PROFILE`, else the file's `default_profile`,
            else the top-level settings alone.

    Raises:
        ConfigError: no file, invalid TOML, or a setting that is wrong (the message names the
            file, the dotted key and what is wrong).
    """
    path_read, document, root = _locate(path)
    top = check_table(document, root, TOP_LEVEL)
    file = _File(path_read, root, top, profiles=top.pop("profiles", {}))
    default = top.pop("default_profile", None)
    if default is not None and default not in file.profiles:
        (root / "default_profile").fail(f"unknown profile {shown(default)}{known(file.profiles, 'profiles')}")
    for name in file.profiles:  # A mistake in any profile fails now, not when someone picks that one.
        _resolve(file, name, model_env=None)
    return _resolve(file, _choose(profile, default, file.profiles, root), os.environ.get(MODEL_ENV) or None)


def client_arguments(config: Config, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of `Client(...)` for `config`; those in `overrides` win.

    `model` and `fallback_models` given as overrides may use the file's aliases. Keys are read
    from the environment only for the providers of the plan.
    """
    model = config.model
    if "model" in overrides:
        model = _resolve_ref(overrides["model"], config.aliases, Key(f"{config.path}: from_config(model=...)"))
    fallbacks = config.fallback_models
    if "fallback_models" in overrides:
        at = Key(f"{config.path}: from_config(fallback_models=...)")
        fallbacks = tuple(_resolve_ref(ref, config.aliases, at) for ref in overrides["fallback_models"])
    plan = [_split(model), *map(_split, fallbacks)]
    primary = config.provider_options(plan[0][0], read_key="api_key" not in overrides)
    # The model's own provider is set up by the arguments below; "providers" is for the others.
    fallback_providers = [] if "providers" in overrides else [p for p, _ in plan if p != plan[0][0]]
    others = {provider: config.provider_options(provider) for provider in fallback_providers}
    arguments: dict[str, Any] = {
        "api_key": primary.api_key,
        "base_url": primary.base_url,
        "timeout": primary.timeout,
        "headers": dict(primary.headers),
        "provider_options": dict(primary.extra),
        "providers": others,
        "mode": config.mode,
        "modes": config.modes,
        "params": dict(config.params),
        "max_repairs": config.max_repairs,
        "max_steps": config.max_steps,
        "max_tokens_on_length": config.max_tokens_on_length,
        "max_requests": config.max_requests,
        "retry": config.retry,
        "strict": config.strict,
        "max_tool_calls": config.max_tool_calls,
        "deadline": config.deadline,
        "capabilities": {
            provider: {p: dict(f) for p, f in patterns.items()} for provider, patterns in config.capabilities.items()
        },
    }
    return {**arguments, **overrides, "model": model, "fallback_models": list(fallbacks)}


# --- finding and reading the file --------------------------------------------------------------


def _locate(path: str | os.PathLike[str] | None) -> tuple[Path, dict[str, Any], Key]:
    """The file, its settings table, and the key of that table (`tool.llmrelay` in pyproject.toml)."""
    if path is not None:
        file = Path(path)
        if not file.is_file():
            Key(str(file)).fail("no such file" if not file.exists() else "not a file")
        return _settings_table(_logged(file), _read(file))
    directories = search_path(Path.cwd().resolve())
    for directory in directories:
        if (file := directory / CONFIG_FILE).is_file():
            return _settings_table(_logged(file), _read(file))
        if (file := directory / PYPROJECT).is_file() and "llmrelay" in (document := _read(file)).get("tool", {}):
            return _settings_table(_logged(file), document)
    raise ConfigError(
        f"no {CONFIG_FILE}, nor a {PYPROJECT} with a [tool.llmrelay] table, in {directories[0]} or its parents "
        f"up to {directories[-1]}; write one, or pass path="
    )


def search_path(start: Path) -> list[Path]:
    """The directories searched for a config file: `start` and its parents up to the project root or home.

    The project root is the nearest directory holding `pyproject.toml` or `.git`; the search stops
    there or at the user's home, whichever comes first. With neither above `start`, only `start`.
    """
    try:
        home: Path | None = Path.home().resolve()
    except (RuntimeError, KeyError):  # No home directory can be found (a bare container user).
        home = None
    directories: list[Path] = []
    for directory in (start, *start.parents):
        directories.append(directory)
        if directory == home or (directory / PYPROJECT).is_file() or (directory / ".git").exists():
            return directories
    return [start]


def _logged(file: Path) -> Path:
    logger.debug("llmrelay: reading the config file %s", file)
    return file


def _settings_table(file: Path, document: dict[str, Any]) -> tuple[Path, dict[str, Any], Key]:
    """The whole document, or its `[tool.llmrelay]` table in a pyproject.toml."""
    if file.name != PYPROJECT:
        return file, document, _root(file)
    tool = document.get("tool")
    if not isinstance(tool, dict) or "llmrelay" not in tool:
        Key(str(file)).fail("no [tool.llmrelay] table")
    return file, tool["llmrelay"], _root(file)


def _root(file: Path) -> Key:
    """The key of the settings table: the whole file, or `tool.llmrelay` in a pyproject.toml."""
    return Key(str(file), ("tool", "llmrelay") if file.name == PYPROJECT else ())


def _read(file: Path) -> dict[str, Any]:
    # tomllib joined the standard library in 3.11; tomli is the same parser for 3.10. Imported by
    # name, here, so `import llmrelay` loads neither.
    parser = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    try:
        document: dict[str, Any] = parser.loads(file.read_bytes().decode("utf-8"))
    except OSError as exc:
        Key(str(file)).fail(f"cannot be read: {exc.strerror}")
    except ValueError as exc:  # TOMLDecodeError and UnicodeDecodeError both are
        Key(str(file)).fail(f"not valid TOML: {exc}")
    return document


# --- choosing and resolving a profile -----------------------------------------------------------


def _choose(argument: str | None, default: str | None, profiles: Mapping[str, object], root: Key) -> str | None:
    """The profile to use: the argument, else `LLMRELAY_PROFILE`, else `default_profile`, else none."""
    env = os.environ.get(PROFILE_ENV) or None
    if argument is not None:
        name, source = argument, " (from profile=)"
    elif env is not None:
        name, source = env, f" (from {PROFILE_ENV})"
    else:
        return default  # Checked when the file was read.
    if name not in profiles:
        root.fail(f"unknown profile {shown(name)}{source}{known(profiles, 'profiles')}")
    return name


def _merge(base: Mapping[str, Any], layer: Mapping[str, Any]) -> dict[str, Any]:
    """`layer` over `base`: tables merge key by key, at every depth; anything else is replaced."""
    merged = dict(base)
    for key, value in layer.items():
        below = merged.get(key)
        merged[key] = _merge(below, value) if isinstance(below, dict) and isinstance(value, dict) else value
    return merged


@dataclass(frozen=True)
class _File:
    """A checked file: its top-level settings and its profiles."""

    path: Path
    root: Key
    top: dict[str, Any]
    profiles: dict[str, dict[str, Any]]


_PLAIN = (
    "mode",
    "modes",
    "max_repairs",
    "max_steps",
    "max_tokens_on_length",
    "max_requests",
    "strict",
    "max_tool_calls",
    "deadline",
)


def _resolve(file: _File, name: str | None, model_env: str | None) -> Config:
    """The Config of one profile: its settings over the top-level ones, aliases resolved."""
    layer = file.profiles[name] if name is not None else {}
    settings = _merge(file.top, layer)

    def at(key: str) -> Key:  # Where a setting was written: in the profile, or at the top level.
        return file.root / "profiles" / name / key if name is not None and key in layer else file.root / key

    aliases: dict[str, str] = settings.get("aliases", {})
    if model_env is not None:
        model = _resolve_ref(model_env, aliases, Key(f"{file.path}: {MODEL_ENV} (environment)"))
    elif "model" in settings:
        model = _resolve_ref(settings["model"], aliases, at("model"))
    else:
        where = f"in [profiles.{name}] or " if name is not None else ""
        file.root.fail(f"no model: set `model` {where}at the top level, or the {MODEL_ENV} environment variable")
    fallbacks = settings.get("fallback_models", ())
    return Config(
        path=file.path,
        profile=name,
        profiles=tuple(file.profiles),
        model=model,
        fallback_models=tuple(_resolve_ref(ref, aliases, at("fallback_models") / i) for i, ref in enumerate(fallbacks)),
        params=MappingProxyType(settings.get("params", {})),
        retry=RetryPolicy(**settings.get("retry", {})),
        providers=MappingProxyType({p: _provider(s) for p, s in settings.get("providers", {}).items()}),
        aliases=MappingProxyType(aliases),
        capabilities=MappingProxyType(
            {
                p: MappingProxyType({k: MappingProxyType(f) for k, f in patterns.items()})
                for p, patterns in settings.get("capabilities", {}).items()
            }
        ),
        **{key: settings[key] for key in _PLAIN if key in settings},
    )


def _provider(settings: dict[str, Any]) -> ProviderConfig:
    tables = {name: MappingProxyType(settings.get(name, {})) for name in ("headers", "options")}
    return ProviderConfig(**{**settings, **tables})


def _resolve_ref(ref: object, aliases: Mapping[str, str], at: Key) -> str:
    """A model reference as "provider:model-name": itself, or the alias it names."""
    text = model_ref(ref, at)
    if ":" in text:
        return text
    if text not in aliases:
        at.fail(f"{shown(text)} is neither 'provider:model-name' nor an alias{known(aliases, 'aliases')}")
    return aliases[text]


# --- from a Config to a client's arguments ---------------------------------------------------


def _split(model: str) -> tuple[str, str]:
    provider, _, name = model.partition(":")
    return provider, name
