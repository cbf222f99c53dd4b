"""Stub for the Phi4Functools strategy: not written yet."""

from __future__ import annotations

from .._types import Parsed


class Phi4Functools:
    """Not written yet: recognises nothing."""

    name = "phi4"

    def detect(self, text: str) -> bool:
        """Return False: this stub recognises nothing."""
        return False

    def parse(self, text: str) -> Parsed | None:
        """Return None: this stub recognises nothing."""
        return None
