"""The whole answer is one JSON value: an envelope, a call, a list of calls, or data.

Covers the clean envelope (`{"toolCalls": [...], "content": "...", "needsMoreWork": true}` and
snake_case `tool_calls`/`needs_more_work`), a bare call (`{"name": ..., "arguments": ...}`, Llama
3.x JSON `{"name": ..., "parameters": ...}`, seed 001's `tool_name`/`parameters`), seed 003's
`{"type": "action", "tool", "args"}` and `{"type": "error", ...}`, xLAM's JSON array of calls,
llama.cpp's `{"tool_call": {...}}`, Gemini `functionCall` parts, the legacy OpenAI
`{"function_call": {...}}` and the OpenAI wire shape with JSON-encoded `arguments`. What each
shape means lives in `_calls.interpret_json`; this module only decides the text is one JSON value.
"""

from __future__ import annotations

from ..._envelope import RejectedCall
from .._calls import content_only_envelope, interpret_json
from .._envelope_reader import read_cut_envelope
from .._lenient_json import LenientJSONError, TruncatedJSONError, loads_lenient, loads_strict
from .._scan import find_balanced_end
from .._types import Parsed

_OPENERS = ("{", "[")


class JsonDocument:
    """The answer is exactly one valid JSON value (the fast path: one `json.loads`)."""

    name = "json_document"

    def detect(self, text: str) -> bool:
        """Cheap check: the stripped text starts with `{` or `[`."""
        return text[:1] in _OPENERS or text.lstrip()[:1] in _OPENERS  # Stripping copies: only when needed.

    def parse(self, text: str) -> Parsed | None:
        """Decode strictly; a JSON answer that is not tool-shaped is data, kept as plain text.

        An envelope cut short (a token limit) is read here too, before any strategy can take
        markup quoted in its content for a call: see `read_cut_envelope`.
        """
        try:
            value = loads_strict(text)
        except (ValueError, RecursionError):
            return read_cut_envelope(text) if text.lstrip()[:1] == "{" else None
        return self.read_value(value, text)

    def read_value(self, value: object, text: str) -> Parsed:
        """The reading of `text`, decoded to `value`: an envelope, a call, or a data answer."""
        parsed = interpret_json(value, explicit=True) or content_only_envelope(value)
        # Valid JSON that is not tool-shaped is a data answer: claim it so that no later, looser
        # strategy goes looking for calls inside its strings.
        return parsed if parsed is not None else Parsed(text=text)


class LenientJsonDocument:
    """The answer is one JSON value written the way models get it wrong (see `loads_lenient`)."""

    name = "lenient_json_document"

    def detect(self, text: str) -> bool:
        """Cheap check: the stripped text starts with `{` or `[`."""
        return text.lstrip()[:1] in _OPENERS

    def parse(self, text: str) -> Parsed | None:
        """Decode leniently; a truncated envelope or call is reported, not guessed at."""
        try:
            value = loads_lenient(text)
        except TruncatedJSONError as exc:
            if not _looks_tool_shaped(text):
                return None
            reason = f"the answer is a JSON tool call cut off before its end ({exc})"
            return Parsed(text=text, rejected=[RejectedCall(None, text, reason, "truncated")])
        except LenientJSONError as exc:
            if not _is_call_attempt(text) or _several_values(text):
                return None  # Not one broken call: left to the looser strategies (several objects, data).
            reason = f"the answer is a JSON tool call, but not readable JSON ({exc})"
            return Parsed(text=text, rejected=[RejectedCall(None, text, reason, "malformed")])
        return interpret_json(value, explicit=True) or content_only_envelope(value)


def _looks_tool_shaped(text: str) -> bool:
    head = text[:2000]
    return any(key in head for key in ('"toolCalls"', '"tool_calls"', '"name"', '"tool_name"', '"function"', "'name'"))


def _is_call_attempt(text: str) -> bool:
    """Unreadable JSON that still clearly meant to call a tool: an envelope, or a name with arguments.

    Narrower than `_looks_tool_shaped`: broken *data* with a "name" key must not trigger a repair.
    """
    head = text[:2000]
    if '"toolCalls"' in head or '"tool_calls"' in head:
        return True
    has_name = any(key in head for key in ('"name"', '"tool_name"', "'name'", "'tool_name'"))
    return has_name and any(key in head for key in ('"arguments"', '"parameters"', "'arguments'", "'parameters'"))


def _several_values(text: str) -> bool:
    """Whether text follows the first balanced value: then this is not one broken document."""
    start = len(text) - len(text.lstrip())
    end = find_balanced_end(text, start)
    return end is not None and bool(text[end:].strip())
