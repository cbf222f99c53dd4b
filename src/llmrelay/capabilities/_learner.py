"""`CapabilityLearner`: remember what a model rejected, and stop asking for it for a while.

The database says what a model should support; the provider sometimes disagrees (a new snapshot,
an OpenRouter route, a local server started without its tool parser). When a request fails with,
say, a 400 on `response_format`, the fallback layer records it here (`classify_rejection()` reads
the feature out of the error), and `apply()` switches that feature off in later lookups until the
fact expires. Expiry matters: providers add features, and a one-off error must not stick forever.

Optional persistence keeps the facts across processes, in a small JSON file:

```json
{"version": 1, "facts": [{"provider": "groq", "model": "llama-3.3-70b-versatile",
  "feature": "json_schema", "reason": "This model does not support response format `json_schema`.",
  "learned_at": 1795500000.0}]}
```

`learned_at` is wall-clock time (`time.time()`), so the age of a fact survives a restart; the
`clock` given to the learner (monotonic by default) measures expiry within the process. The file
is rewritten atomically (a temporary file, then `os.replace`) on every new fact. Several processes
sharing one file do not lock it: the last writer wins, and a lost fact is simply learned again.
A file that cannot be read or understood is ignored and logged (logger `llmrelay.capabilities`),
not raised and not warned: it is a cache, and losing it costs one failed request per fact.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast, get_args

from ._capabilities import Capabilities, Feature

if TYPE_CHECKING:
    from pathlib import Path


def _warn(message: str, *args: object) -> None:
    import logging  # Only when something goes wrong: logging costs ~3 ms at import.

    logging.getLogger("llmrelay.capabilities").warning(message, *args)


FEATURES: frozenset[str] = frozenset(get_args(Feature))

_IMPLIED: Mapping[str, tuple[str, ...]] = {
    # Without the tool API there are no parallel tool calls either.
    "native_tools": ("parallel_tool_calls",),
    # Where both exist, schema-constrained output is JSON mode plus a schema (OpenAI, Groq,
    # Gemini, local servers): "JSON mode is not enabled" rules out both. Anthropic has schemas
    # without JSON mode, but it is never asked for json_object, so never learns this.
    "json_object": ("json_schema",),
}

_FILE_VERSION = 1


@dataclass(frozen=True)
class _Fact:
    reason: str
    learned_at: float
    """Wall-clock time, for the file."""
    expires: float
    """In the learner's own clock."""


class CapabilityLearner:
    """What models rejected at runtime, each fact kept for `ttl` seconds.

    Thread-safe: one learner is shared by every request of a client.

    Args:
        ttl: how long a learned fact holds, in seconds (default one day).
        clock: the time source for expiry; inject a fake one in tests.
        path: a JSON file to read at start and rewrite on each new fact; None keeps facts in memory.
        wall_clock: the time written to and read from the file.
    """

    def __init__(
        self,
        ttl: float = 24 * 3600,
        clock: Callable[[], float] = time.monotonic,
        path: Path | None = None,
        *,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        if ttl <= 0:
            raise ValueError(f"ttl must be positive, got {ttl!r}")
        self._ttl, self._clock, self._wall_clock, self._path = ttl, clock, wall_clock, path
        self._lock = threading.Lock()
        self._facts: dict[tuple[str, str, Feature], _Fact] = {}
        if path is not None:
            self._load(path)

    def record_rejection(self, provider: str, model: str, feature: Feature, reason: str) -> None:
        """Remember that `model` on `provider` rejected `feature`, because of `reason`."""
        if feature not in FEATURES:
            raise ValueError(f"unknown feature {feature!r}; expected one of {sorted(FEATURES)}")
        fact = _Fact(reason, self._wall_clock(), self._clock() + self._ttl)
        with self._lock:
            self._facts[_key(provider, model, feature)] = fact
            self._save()

    def learned(self, provider: str, model: str) -> dict[Feature, str]:
        """The unexpired facts about one model: rejected feature -> reason. Expired facts are forgotten."""
        provider, model = provider.lower(), model.lower()
        with self._lock:
            self._forget_expired()
            return {f: fact.reason for (p, m, f), fact in self._facts.items() if (p, m) == (provider, model)}

    def apply(self, provider: str, model: str, caps: Capabilities) -> Capabilities:
        """`caps` with every learned rejection switched off, each sourced `"learned: <reason>"`."""
        changes: dict[str, Any] = {}
        sources = dict(caps.sources)
        for feature, reason in self.learned(provider, model).items():
            implied = [(name, f"learned: {feature} rejected: {reason}") for name in _IMPLIED.get(feature, ())]
            for name, source in [(feature, f"learned: {reason}"), *implied]:
                if getattr(caps, name) and name not in changes:
                    changes[name] = False
                    sources[name] = source
        return replace(caps, **changes, sources=sources) if changes else caps

    def clear(self) -> None:
        """Forget everything learned (and empty the file, if there is one)."""
        with self._lock:
            self._facts.clear()
            self._save()

    def _forget_expired(self) -> None:
        now = self._clock()
        for key in [k for k, fact in self._facts.items() if fact.expires <= now]:
            del self._facts[key]

    # --- persistence ------------------------------------------------------------------------

    def _load(self, path: Path) -> None:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except OSError as exc:
            _warn("ignoring learned capabilities in %s: %s", path, exc)
            return
        try:
            rows = _read_document(text)
        except (ValueError, TypeError, KeyError) as exc:
            _warn("ignoring learned capabilities in %s: not a version %d file (%s)", path, _FILE_VERSION, exc)
            return
        wall, now = self._wall_clock(), self._clock()
        for (provider, model, feature), reason, learned_at in rows:
            age = max(0.0, wall - learned_at)  # a time in the future (clock skew) counts as now
            if age < self._ttl:
                self._facts[_key(provider, model, feature)] = _Fact(reason, learned_at, now + self._ttl - age)

    def _save(self) -> None:
        """Rewrite the file atomically; the caller holds the lock."""
        if self._path is None:
            return
        self._forget_expired()
        facts = [
            {"provider": p, "model": m, "feature": f, "reason": fact.reason, "learned_at": fact.learned_at}
            for (p, m, f), fact in self._facts.items()
        ]
        try:
            _write_atomically(self._path, {"version": _FILE_VERSION, "facts": facts})
        except OSError as exc:
            _warn("could not save learned capabilities to %s: %s", self._path, exc)


def _key(provider: str, model: str, feature: Feature) -> tuple[str, str, Feature]:
    return provider.lower(), model.lower(), feature


def _read_document(text: str) -> list[tuple[tuple[str, str, Feature], str, float]]:
    """The rows of a learner file; raises ValueError, TypeError or KeyError when it is not one."""
    import json  # only when there is a file

    document = json.loads(text)
    if not isinstance(document, dict) or document.get("version") != _FILE_VERSION:
        raise ValueError("no version marker")
    return [_read_row(row) for row in document["facts"]]


def _read_row(row: Any) -> tuple[tuple[str, str, Feature], str, float]:
    provider, model, feature, reason = (row[k] for k in ("provider", "model", "feature", "reason"))
    learned_at = row["learned_at"]
    if not all(isinstance(v, str) for v in (provider, model, feature, reason)) or feature not in FEATURES:
        raise ValueError(f"bad fact {row!r}")
    if isinstance(learned_at, bool) or not isinstance(learned_at, (int, float)):
        raise TypeError(f"bad learned_at in {row!r}")
    return (provider, model, cast(Feature, feature)), reason, float(learned_at)


def _write_atomically(path: Path, document: object) -> None:
    import json
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    # Same directory, so os.replace is a rename within one file system: readers see the old file
    # or the new one, never half of one.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=1)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
