"""Checking a config file's settings, one value at a time, for `_config`.

Each setting has a check (`_SETTINGS`, `TOP_LEVEL`): it returns the value as `_config` uses it, or
raises the `ConfigError` that names the file, the dotted key (`Key`) and what is wrong, e.g.
`llmrelay.toml: profiles.local.retry.max_atempts: unknown key; did you mean 'max_attempts'?`.
Strings are never echoed in a message, and a literal API key anywhere is refused.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from ._envelope import Mode
from .adapters import ProviderOptions, known_providers
from .adapters._errors import redact
from .capabilities._capabilities import FACTS, MODES, SIZE_FACTS
from .errors import ConfigError

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key"})
_NO_KEYS = "API keys are never written in the file: put the key in an environment variable and set {} to its name"


# --- where a value is, and what is wrong with it ----------------------------------------------


@dataclass(frozen=True)
class Key:
    """Where a value is: the file and the dotted key inside it, as every error names them."""

    file: str
    parts: tuple[str | int, ...] = ()
    """Table keys, and positions in arrays."""

    def __truediv__(self, part: str | int) -> Key:
        return Key(self.file, (*self.parts, part))

    def __str__(self) -> str:
        text = ""
        for part in self.parts:  # Keys TOML cannot write bare are quoted; positions read `modes[1]`.
            if isinstance(part, int):
                text += f"[{part}]"
            else:
                text += ("." if text else "") + (part if _BARE_KEY.fullmatch(part) else _quoted(part))
        return text

    def fail(self, problem: str) -> NoReturn:
        """Raise the `ConfigError` for this key."""
        where = f"{self.file}: {self}" if self.parts else self.file
        raise ConfigError(f"{where}: {problem}")


def _quoted(key: str) -> str:
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _show(value: object) -> str:
    """A value as an error shows it: numbers and booleans as written, anything else by kind only.

    Strings are never echoed, so a key pasted in the wrong place does not end up in a log.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    kinds = {str: "a string", list: "an array", dict: "a table"}
    return next((name for kind, name in kinds.items() if isinstance(value, kind)), "a date or time")


_IDENTIFIER = re.compile(r"[\w.:/@+-]{1,64}")
"""What may be echoed of a string: a short name (a model, a mode, a profile), never a pasted key."""


def shown(value: object) -> str:
    """A value as an error may echo it: a short identifier quoted, else by kind; a key-shaped one never.

    Model names, modes and profile names are short identifiers; a long run of characters, or one
    shaped like an API key, is said to be "a string" only.
    """
    if isinstance(value, str) and _IDENTIFIER.fullmatch(value) and redact(value, None) == value and len(value) <= 64:
        return repr(value)
    return _show(value)


def known(names: Mapping[str, object] | Sequence[str], what: str) -> str:
    """The names an error may suggest, as the end of its message."""
    return f" (known {what}: {', '.join(sorted(names))})" if names else f" (the file defines no {what})"


def _unknown_key(at: Key, allowed: Sequence[str]) -> NoReturn:
    from difflib import get_close_matches  # only when there is a mistake to explain

    close = get_close_matches(str(at.parts[-1]), allowed, n=1)
    at.fail(
        f"unknown key; did you mean {close[0]!r}?" if close else f"unknown key; expected one of {', '.join(allowed)}"
    )


# --- checking the file, one value at a time ---------------------------------------------------

_Check = Callable[[Any, Key], Any]


def _table(value: object, at: Key) -> dict[str, Any]:
    if not isinstance(value, dict):
        at.fail(f"must be a table, got {_show(value)}")
    return value


def check_table(value: object, at: Key, schema: Mapping[str, _Check]) -> dict[str, Any]:
    """Each key of a table checked by its schema entry; unknown keys and literal API keys refused."""
    checked: dict[str, Any] = {}
    for key, item in _table(value, at).items():
        if key == "api_key":
            provider = str(at.parts[-1]) if at.parts[-2:-1] == ("providers",) else "<provider>"
            (at / key).fail(_NO_KEYS.format(f"providers.{provider}.api_key_env"))
        if key not in schema:
            _unknown_key(at / key, list(schema))
        checked[key] = schema[key](item, at / key)
    return checked


def _string(value: object, at: Key) -> str:
    if not isinstance(value, str) or not value:
        at.fail(f"must be a non-empty string, got {'an empty string' if value == '' else _show(value)}")
    return value


def _boolean(value: object, at: Key) -> bool:
    if not isinstance(value, bool):
        at.fail(f"must be true or false, got {_show(value)}")
    return value


def _integer(minimum: int) -> _Check:
    def check(value: object, at: Key) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            at.fail(f"must be an integer >= {minimum}, got {_show(value)}")
        return value

    return check


def _number(minimum: float, *, above: bool = False) -> _Check:
    expected = f"a number {'>' if above else '>='} {minimum:g}"

    def check(value: object, at: Key) -> float:
        number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        if number is None or not math.isfinite(number) or number < minimum or (above and number == minimum):
            at.fail(f"must be {expected}, got {_show(value)}")
        return number

    return check


def _mode(value: object, at: Key) -> Mode:
    if value not in MODES:
        at.fail(f"must be one of {', '.join(MODES)}, got {shown(value)}")
    return value


def _array(item: _Check, *, distinct: bool = False) -> _Check:
    def check(value: object, at: Key) -> tuple[Any, ...]:
        if not isinstance(value, list):
            at.fail(f"must be an array, got {_show(value)}")
        items = tuple(item(v, at / i) for i, v in enumerate(value))
        if distinct and len(set(items)) < len(items):
            at.fail("lists a value more than once")
        return items

    return check


def _modes(value: object, at: Key) -> tuple[Mode, ...]:
    modes: tuple[Mode, ...] = _array(_mode, distinct=True)(value, at)
    if not modes:
        at.fail("must list at least one mode")
    return modes


def _provider_id(provider: str, at: Key) -> None:
    if provider not in known_providers():
        at.fail(f"unknown provider {shown(provider)}{known(known_providers(), 'providers')}")


def _params(value: object, at: Key) -> dict[str, Any]:
    params = _table(value, at)
    if "api_key" in params:
        (at / "api_key").fail(_NO_KEYS.format("providers.<provider>.api_key_env"))
    _finite(params, at)
    return params


def _finite(value: object, at: Key) -> None:
    """Refuse `nan` and `inf` anywhere in a table (TOML writes them; JSON, and so every API, cannot)."""
    if isinstance(value, float) and not math.isfinite(value):
        at.fail(f"must be a finite number, got {_show(value)}")
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        _finite(item, at / key)


def _env_name(value: object, at: Key) -> str:
    if not isinstance(value, str) or not _ENV_NAME.fullmatch(value):
        at.fail("must be the name of an environment variable (letters, digits and _), not the key itself")
    return value


def _headers(value: object, at: Key) -> dict[str, str]:
    headers = _table(value, at)
    for name, header in headers.items():
        if name.lower() in _CREDENTIAL_HEADERS:
            (at / name).fail(_NO_KEYS.format("providers.<provider>.api_key_env") + " (or pass headers= in code)")
        if not isinstance(header, str):
            (at / name).fail(f"must be a string, got {_show(header)}")
    return headers


def _base_url(value: object, at: Key) -> str:
    url = _string(value, at)
    try:
        ProviderOptions(base_url=url)
    except ConfigError as exc:
        at.fail(str(exc).removeprefix("base_url "))
    return url


_SECRET_OPTIONS = frozenset({"aws_secret_key", "aws_session_token", "access_token", "azure_ad_token", "api_key"})
"""Provider options that are credentials: never in a file (their variables or chains are read instead)."""


def _options(value: object, at: Key) -> dict[str, Any]:
    """`providers.<id>.options`: plain values only one provider reads (Azure's api_version, a project)."""
    options = _table(value, at)
    for name, option in options.items():
        if name in _SECRET_OPTIONS:
            (at / name).fail(_NO_KEYS.format("the provider's own variables (see docs/providers.md)"))
        if not isinstance(option, (str, int, float, bool)):
            (at / name).fail(f"must be a string, a number or true/false, got {_show(option)}")
    return options


_PROVIDER: dict[str, _Check] = {
    "base_url": _base_url,
    "api_key_env": _env_name,
    "timeout": _number(0, above=True),
    "headers": _headers,
    "options": _options,
}
_RETRY: dict[str, _Check] = {
    "max_attempts": _integer(1),
    **dict.fromkeys(("initial_delay", "max_delay", "jitter", "max_retry_after", "total_timeout"), _number(0)),
}


def _providers(value: object, at: Key) -> dict[str, dict[str, Any]]:
    checked = {}
    for provider, settings in _table(value, at).items():
        _provider_id(provider, at / provider)
        checked[provider] = check_table(settings, at / provider, _PROVIDER)
    return checked


def model_ref(value: object, at: Key) -> str:
    """A "provider:model-name" whose provider is known, or (without a colon) an alias's name."""
    ref = _string(value, at)
    provider, colon, name = ref.partition(":")
    if colon and (not provider or not name):
        at.fail(f"must be 'provider:model-name' or an alias, got {shown(ref)}")
    if colon:
        _provider_id(provider, at)
    return ref


def _aliases(value: object, at: Key) -> dict[str, str]:
    aliases = {}
    for name, target in _table(value, at).items():
        if ":" in name:
            (at / name).fail("an alias's name cannot contain ':' (it would read as 'provider:model-name')")
        if ":" not in model_ref(target, at / name):
            (at / name).fail(f"must be 'provider:model-name' (an alias cannot name another alias), got {shown(target)}")
        aliases[name] = target
    return aliases


def _capabilities(value: object, at: Key) -> dict[str, dict[str, dict[str, object]]]:
    checked: dict[str, dict[str, dict[str, object]]] = {}
    for provider, patterns in _table(value, at).items():
        _provider_id(provider, at / provider)
        checked[provider] = {p: _facts(f, at / provider / p) for p, f in _table(patterns, at / provider).items()}
    return checked


def _facts(value: object, at: Key) -> dict[str, object]:
    # fnmatch would read brackets as a character class; a model name never needs one.
    if any(bracket in str(at.parts[-1]) for bracket in "[]"):
        at.fail("a model pattern may use * and ? only, not brackets")
    schema = {fact: _integer(1) if fact in SIZE_FACTS else _boolean for fact in FACTS}
    return check_table(value, at, schema)


_SETTINGS: dict[str, _Check] = {
    "model": model_ref,
    "fallback_models": _array(model_ref),
    "mode": _mode,
    "modes": _modes,
    "max_repairs": _integer(0),
    "max_steps": _integer(1),
    "max_tokens_on_length": _integer(1),
    "max_requests": _integer(1),
    "strict": _boolean,
    "max_tool_calls": _integer(1),
    "deadline": _number(0, above=True),
    "params": _params,
    "retry": lambda value, at: check_table(value, at, _RETRY),
    "providers": _providers,
    "aliases": _aliases,
    "capabilities": _capabilities,
}


def _profiles(value: object, at: Key) -> dict[str, dict[str, Any]]:
    return {name: check_table(layer, at / name, _SETTINGS) for name, layer in _table(value, at).items()}


TOP_LEVEL: dict[str, _Check] = {"default_profile": _string, "profiles": _profiles, **_SETTINGS}
