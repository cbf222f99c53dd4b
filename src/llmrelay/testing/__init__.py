"""Testing helpers for apps built on llmrelay (and for llmrelay's own tests).

Needs the `testing` extra: pip install "llmrelay[testing]".
"""

from typing import TYPE_CHECKING

from ._fake import FakeAdapter

if TYPE_CHECKING:
    from ._http import installed_stacks, mock_http


def __getattr__(name: str) -> object:
    # The HTTP helpers need respx (the `testing` extra); FakeAdapter needs nothing.
    if name in ("installed_stacks", "mock_http"):
        from . import _http

        return getattr(_http, name)
    raise AttributeError(f"module 'llmrelay.testing' has no attribute {name!r}")


__all__ = ["FakeAdapter", "installed_stacks", "mock_http"]
