"""Stub for the HermesToolCall strategy: not written yet."""

from __future__ import annotations

from .._types import Parsed


class HermesToolCall:
    """Not written yet: recognises nothing."""

    name = "hermes"

    def detect(self, text: str) -> bool:
        """Return False: this stub recognises nothing."""
        return False

    def parse(self, text: str) -> Parsed | None:
        """Return None: this stub recognises nothing."""
        return None
