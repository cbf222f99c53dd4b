"""Testing helpers for apps built on llmrelay (and for llmrelay's own tests).

Needs the `testing` extra: pip install "llmrelay[testing]".
"""

from typing import TYPE_CHECKING

from ._fake import FakeAdapter

if TYPE_CHECKING:
    from ._cassette import Cassette, RecordMode, cassette
    from ._http import installed_stacks, mock_http
    from ._redact import Redaction
    from ._vcr import Recording, load_cassette, parse_cassette

# The HTTP and cassette helpers need respx and pyyaml (the `testing` extra); FakeAdapter needs nothing.
_LAZY = {
    "installed_stacks": "_http",
    "mock_http": "_http",
    "Cassette": "_cassette",
    "RecordMode": "_cassette",
    "cassette": "_cassette",
    "Redaction": "_redact",
    "Recording": "_vcr",
    "load_cassette": "_vcr",
    "parse_cassette": "_vcr",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'llmrelay.testing' has no attribute {name!r}")


__all__ = [
    "Cassette",
    "FakeAdapter",
    "RecordMode",
    "Recording",
    "Redaction",
    "cassette",
    "installed_stacks",
    "load_cassette",
    "mock_http",
    "parse_cassette",
]
