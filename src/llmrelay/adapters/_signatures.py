"""Signatures an adapter received with tool calls, kept so they can go back where they came from.

Gemini 3 signs a step's first function call (`thoughtSignature` in its own API,
`tool_calls[].extra_content.google.thought_signature` on its OpenAI-compatible endpoint) and answers
400 when the call comes back unsigned. A signature travels on `ToolCall.signature`; this memory is
for calls that come back without it (a conversation rebuilt from dicts), and lets an adapter tell
a signature its own host made from one another provider made.
"""

from __future__ import annotations

import threading

KEPT = 4096
"""How many calls' signatures an adapter remembers: enough for any live conversation."""


class SignatureMemory:
    """The signatures of an adapter's latest calls, by call id; the oldest is forgotten past `size`."""

    def __init__(self, size: int = KEPT) -> None:
        self._size = size
        self._by_id: dict[str, str] = {}
        self._lock = threading.Lock()  # One adapter serves every thread of a client.

    def keep(self, call_id: str | None, signature: str | None) -> None:
        """Remember `signature` for the call `call_id` (nothing when either is missing)."""
        if not call_id or not signature:
            return
        with self._lock:
            self._by_id.pop(call_id, None)  # Kept again: now the newest.
            self._by_id[call_id] = signature
            if len(self._by_id) > self._size:
                del self._by_id[next(iter(self._by_id))]

    def recall(self, call_id: str | None) -> str | None:
        """The signature received with the call `call_id`, if it is still remembered."""
        return self._by_id.get(call_id) if call_id else None
