"""`lookup()`: the shipped capability database (`models.toml`) plus config overrides.

The database is a list of entries, each naming a provider, one or more model-name patterns, and
the facts it sets:

```toml
[[model]]
provider = "openai"
pattern = "gpt-4o*"            # or a list: ["*llama-3.1*", "*llama3.1*"]
json_schema = true
context_window = 128_000
```

Patterns are shell-style globs (`*` any run of characters, `?` one character), matched against the
lower-cased model name. The file is read on the first lookup, not at import, and kept.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import Any

from ..errors import ConfigError
from ._capabilities import FACTS, SIZE_FACTS, Capabilities

_DATABASE = "models.toml"
_PROVIDER_DEFAULT = "*"
_WILDCARDS = "*?"


@dataclass(frozen=True)
class _Entry:
    """One pattern of one `[[model]]` table."""

    provider: str
    pattern: str
    facts: Mapping[str, object]
    order: int
    """Position in the file: among equally specific patterns, the later entry wins."""


def lookup(provider: str, model: str, overrides: Mapping[str, Mapping[str, object]] | None = None) -> Capabilities:
    """What `model` on `provider` can do, from the database and then config overrides.

    Each fact is decided in layers, each layer overriding the one before:

    1. all off, context window unknown (the conservative default);
    2. the provider's default entry, pattern `"*"`;
    3. the most specific other entry whose pattern matches the model. More literal characters
       (non-wildcards) is more specific; on a tie, fewer wildcards; then the later entry in the file;
    4. every matching pattern of `overrides` (`{pattern: {field: value}}`), least specific first.

    A provider the database does not know gets the conservative default (text mode only) rather
    than an error, so an adapter registered by a user works; overrides can then say what it can do.

    Raises:
        ConfigError: an override names an unknown field or gives a value of the wrong type.
    """
    name = model.lower()
    entries = _database().get(provider.lower())
    facts: dict[str, Any] = {}
    sources = dict.fromkeys(FACTS, "default" if entries else f"default: no database entry for provider {provider!r}")
    for entry in _from_database(entries or (), name):
        _apply(facts, sources, entry.facts, f"{_DATABASE}: {entry.provider} {entry.pattern!r}")
    for pattern, override in _from_config(overrides or {}, name):
        _apply(facts, sources, override, f"config: {pattern!r}")
    # The facts were type-checked by _check_facts (overrides) or parse_database (the file).
    return replace(Capabilities(sources=sources), **facts)


def _from_database(entries: Iterable[_Entry], model: str) -> list[_Entry]:
    """The provider default, then the single most specific matching entry."""
    chosen = [e for e in entries if e.pattern == _PROVIDER_DEFAULT]
    matching = [e for e in entries if e.pattern != _PROVIDER_DEFAULT and fnmatchcase(model, e.pattern)]
    if matching:
        chosen.append(max(matching, key=lambda e: (*specificity(e.pattern), e.order)))
    return chosen


def _from_config(overrides: Mapping[str, Mapping[str, object]], model: str) -> list[tuple[str, Mapping[str, object]]]:
    """Matching overrides, validated, least specific first."""
    matching: list[tuple[str, Mapping[str, object]]] = []
    for pattern, facts in overrides.items():
        where = f"capability override {pattern!r}"
        _check_pattern(pattern, where)
        if not isinstance(facts, Mapping):
            raise ConfigError(f"{where}: expected a table of capabilities, got {type(facts).__name__}")
        _check_facts(facts, where)
        if fnmatchcase(model, pattern.lower()):
            matching.append((pattern, facts))
    return sorted(matching, key=lambda item: specificity(item[0]))


def _apply(facts: dict[str, Any], sources: dict[str, str], new: Mapping[str, object], source: str) -> None:
    for name, value in new.items():
        facts[name] = value
        sources[name] = source


def specificity(pattern: str) -> tuple[int, int]:
    """How specific a pattern is: (literal characters, minus wildcards); larger is more specific.

    >>> specificity("gpt-4o*") > specificity("gpt-4*") > specificity("*")
    True
    """
    wildcards = sum(pattern.count(c) for c in _WILDCARDS)
    return len(pattern) - wildcards, -wildcards


# --- the database -------------------------------------------------------------------------


@functools.cache
def _database() -> Mapping[str, tuple[_Entry, ...]]:
    """The shipped `models.toml`, parsed and checked once, on first use."""
    from importlib.resources import files  # only needed on the first lookup

    text = files("llmrelay.capabilities").joinpath(_DATABASE).read_text(encoding="utf-8")
    return parse_database(_toml_loads(text), origin=_DATABASE)


def _toml_loads(text: str) -> dict[str, Any]:
    # tomllib joined the standard library in 3.11; tomli is the same parser for 3.10. Imported by
    # name so neither is loaded before the first lookup.
    name = "tomllib" if sys.version_info >= (3, 11) else "tomli"
    loads: Callable[[str], dict[str, Any]] = importlib.import_module(name).loads
    return loads(text)


def parse_database(document: Mapping[str, Any], origin: str) -> dict[str, tuple[_Entry, ...]]:
    """Check a parsed database document and index its entries by provider.

    Raises:
        ConfigError: an unknown key or field, a value of the wrong type, a provider without a
            `"*"` default, or the same pattern twice for one provider.
    """
    if extra := set(document) - {"model"}:
        raise ConfigError(f"{origin}: unknown top-level key(s) {sorted(extra)}; expected only [[model]] tables")
    by_provider: dict[str, list[_Entry]] = {}
    for index, row in enumerate(document.get("model", [])):
        for entry in _entries(row, order=index, where=f"{origin}: [[model]] #{index + 1}"):
            by_provider.setdefault(entry.provider, []).append(entry)
    for provider, entries in by_provider.items():
        _check_patterns_of(provider, entries, origin)
    return {provider: tuple(entries) for provider, entries in by_provider.items()}


def _entries(row: Any, order: int, where: str) -> list[_Entry]:
    if not isinstance(row, Mapping):
        raise ConfigError(f"{where}: expected a table")
    providers, patterns = row.get("provider"), row.get("pattern")
    if isinstance(providers, str):
        providers = [providers]  # A list: providers that serve the same models (OpenAI's APIs, Azure).
    if not isinstance(providers, list) or not providers or not all(isinstance(p, str) and p for p in providers):
        raise ConfigError(f"{where}: 'provider' must be a non-empty string or list of strings")
    if isinstance(patterns, str):
        patterns = [patterns]
    if not isinstance(patterns, list) or not patterns or not all(isinstance(p, str) for p in patterns):
        raise ConfigError(f"{where}: 'pattern' must be a string or a non-empty list of strings")
    facts = {k: v for k, v in row.items() if k not in ("provider", "pattern")}
    _check_facts(facts, where)
    for pattern in patterns:
        _check_pattern(pattern, where)
    return [_Entry(provider.lower(), p.lower(), facts, order) for provider in providers for p in patterns]


def _check_patterns_of(provider: str, entries: list[_Entry], origin: str) -> None:
    patterns = [e.pattern for e in entries]
    if _PROVIDER_DEFAULT not in patterns:
        raise ConfigError(f"{origin}: provider {provider!r} has no default entry (pattern '*')")
    if repeated := sorted({p for p in patterns if patterns.count(p) > 1}):
        raise ConfigError(f"{origin}: provider {provider!r} lists pattern(s) {repeated} more than once")


def _check_pattern(pattern: object, where: str) -> None:
    # fnmatch would read brackets as a character class; model names never need one, so a bracket
    # is more likely a typo than intent.
    if not isinstance(pattern, str) or not pattern or "[" in pattern or "]" in pattern:
        raise ConfigError(f"{where}: bad pattern {pattern!r}; use a non-empty glob with * and ? only")


def _check_facts(facts: Mapping[str, object], where: str) -> None:
    for name, value in facts.items():
        if name not in FACTS:
            raise ConfigError(f"{where}: unknown capability {name!r}; known: {', '.join(FACTS)}")
        if name in SIZE_FACTS:
            ok = value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0)
            expected = "a positive integer"
        else:
            ok, expected = isinstance(value, bool), "true or false"
        if not ok:
            raise ConfigError(f"{where}: capability {name!r} must be {expected}, got {value!r}")
