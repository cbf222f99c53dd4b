"""Placeholder: replaced by the real lenient loader."""

from __future__ import annotations

import json
from typing import Any


class LenientJSONError(ValueError):
    """The text could not be read as JSON, even leniently."""


class TruncatedJSONError(LenientJSONError):
    """The text is JSON that stops before its end (more than one closer missing, or mid-string)."""


def loads_lenient(text: str) -> Any:
    """Parse JSON as models write it; raise `LenientJSONError` when it cannot be read."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise LenientJSONError(str(exc)) from exc
