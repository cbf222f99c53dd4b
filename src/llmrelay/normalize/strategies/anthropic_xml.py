"""Stub for the AnthropicInvoke strategy: not written yet."""

from __future__ import annotations

from .._types import Parsed


class AnthropicInvoke:
    """Not written yet: recognises nothing."""

    name = "anthropic_xml"

    def detect(self, text: str) -> bool:
        """Return False: this stub recognises nothing."""
        return False

    def parse(self, text: str) -> Parsed | None:
        """Return None: this stub recognises nothing."""
        return None
