"""Whether a cassette is replaying: then a provider needs no API key (the answers are recorded).

A replaying cassette (`llmrelay.testing.cassette`, record mode `none`, or `once` with the file
there) marks the process while it is active; an adapter that finds no key then gives its SDK a
placeholder instead of failing, since no request leaves the process. A cassette that may record
never marks it: a live request without a key must fail as it would without the cassette.
"""

from __future__ import annotations

import os
import threading

REPLAY_KEY = "replay-without-a-key"
"""The key an adapter uses in replay when none is set (the recorder redacts real ones anyway)."""

_lock = threading.Lock()
_replaying = 0  # Active replaying cassettes (respx patches the process, so this is process-wide).


def enter_replay() -> None:
    """A replaying cassette became active."""
    global _replaying
    with _lock:
        _replaying += 1


def leave_replay() -> None:
    """A replaying cassette ended."""
    global _replaying
    with _lock:
        _replaying -= 1


def replay_key(*env_names: str) -> str | None:
    """The placeholder key when a cassette replays and none of `env_names` is set; else None."""
    if _replaying <= 0 or any(os.environ.get(name) for name in env_names):
        return None
    return REPLAY_KEY
