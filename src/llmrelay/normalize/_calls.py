"""Read tool calls out of decoded JSON values, whatever shape and field names the model used.

Strategies find *where* a call is written (a tag, a special token, a fence, the whole output);
this module decides *what* a decoded JSON value means: an envelope, one call, a list of calls,
an OpenAI/Gemini/Anthropic wire object, seed 003's action contract, or just data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, TypeGuard

from .._envelope import ModelError, RejectedCall
from ._lenient_json import LenientJSONError, TruncatedJSONError, loads_lenient
from ._salvage import array_items, read_items
from ._text import join_pieces
from ._types import CallReading, Candidate, Parsed

# Field-name variants seen in the wild, in order of preference.
_NAME_KEYS = ("name", "tool_name", "tool", "function_name", "function", "recipient_name")
_ARG_KEYS = ("arguments", "parameters", "params", "args", "input", "argument")
_ID_KEYS = ("id", "call_id", "tool_call_id")
# Keys that may sit beside a call without making it something else.
_NEUTRAL_KEYS = frozenset({"type", "index", *_ID_KEYS})
# A `type` value that says "this object is a call".
_CALL_TYPES = frozenset({"function", "tool_call", "tool_use", "function_call", "action", "tool"})
# Keys of a tool *definition* or a JSON schema: an object with these is never a call.
_DEFINITION_KEYS = frozenset({"description", "input_schema", "properties", "required", "strict"})
# A name with spaces or punctuation is prose or data, not a tool ("Alice Smith").
_TOOL_NAME = re.compile(r"[A-Za-z0-9_][\w.\-:/]{0,127}", re.ASCII)
ENVELOPE_CALL_KEYS = ("toolCalls", "tool_calls", "calls", "function_calls")
"""Keys of an envelope's list of calls, in order of preference."""
ENVELOPE_MORE_KEYS = ("needsMoreWork", "needs_more_work")
"""Keys of an envelope's "needs more work" flag."""
# Keys that wrap a call object: `{"function_call": {...}}`.
_WRAPPER_KEYS = ("function_call", "functionCall", "tool_call", "toolCall")


def is_tool_name(value: object) -> TypeGuard[str]:
    """Whether a value can be a tool name (a short identifier-like string)."""
    if not isinstance(value, str):
        return False
    # `isidentifier` is the cheap test that settles the usual case ("get_weather").
    return (value.isidentifier() and len(value) <= 128) or _TOOL_NAME.fullmatch(value) is not None


def decode_arguments(value: object) -> dict[str, Any]:
    """Turn an arguments value into a dict: dicts pass, JSON strings are decoded, None is `{}`.

    Raises:
        LenientJSONError: a string that is not JSON (`TruncatedJSONError` when it was cut off).
        TypeError: a value that is not an object.
    """
    if value is None:
        return {}
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, str):
        if not value.strip():
            return {}
        decoded = loads_lenient(value)
        if isinstance(decoded, str) and decoded.lstrip().startswith("{"):
            decoded = loads_lenient(decoded)  # Encoded twice: '"{\\"a\\": 1}"'.
        if decoded is None:
            return {}
        if isinstance(decoded, Mapping):
            return dict(decoded)
        raise TypeError(f"arguments must be a JSON object, got {type(decoded).__name__}")
    raise TypeError(f"arguments must be a JSON object, got {type(value).__name__}")


def call_from_parts(
    name: str, raw_arguments: object, *, call_id: str | None = None, explicit: bool = True
) -> CallReading:
    """Build a call from a name and arguments in any encoding, or a rejection saying why not."""
    try:
        arguments = decode_arguments(raw_arguments)
    except TruncatedJSONError as exc:
        return RejectedCall(
            name, raw_arguments, f"tool call '{name}': arguments were cut off ({exc})", "truncated", call_id
        )
    except (LenientJSONError, TypeError) as exc:
        return RejectedCall(
            name, raw_arguments, f"tool call '{name}': arguments are not a JSON object ({exc})", "malformed", call_id
        )
    return Candidate(name, arguments, call_id, explicit)


def named(rejection: RejectedCall, name: str) -> RejectedCall:
    """The same rejection, for the call named `name`."""
    reason = f"tool call '{name}': {rejection.reason}" if name else rejection.reason
    return RejectedCall(name or None, rejection.arguments, reason, rejection.kind, rejection.id)


def read_call(obj: object, *, explicit: bool, require_arguments: bool = False) -> CallReading | None:
    """Read one call object in any of the known shapes, or None if `obj` is not call-shaped.

    Args:
        obj: a decoded JSON value.
        explicit: whether it came from an explicit tool-call construct (see `Candidate.explicit`).
            Outside one (a JSON object found in prose) extra keys make the object data, not a call.
        require_arguments: whether a generic `name` key needs an arguments key beside it. A bare
            `{"name": "Alice"}` is data; `{"tool_name": "get_time"}` is still a call.
    """
    if not isinstance(obj, dict):
        return None
    if len(obj) == 2 and type(arguments := obj.get("arguments")) is dict and is_tool_name(name := obj.get("name")):
        return Candidate(name, arguments, None, explicit)  # The canonical shape, read without the search below.
    if _DEFINITION_KEYS.intersection(obj):
        return None
    for wrapper in _WRAPPER_KEYS:
        inner = obj.get(wrapper)
        if isinstance(inner, dict) and len(obj) == 1:
            return read_call(inner, explicit=explicit)
    function = obj.get("function")
    if isinstance(function, dict):
        # OpenAI wire shape: {"id", "type": "function", "function": {"name", "arguments": "<json>"}}.
        if set(obj) - _NEUTRAL_KEYS - {"function"} or _DEFINITION_KEYS.intersection(function):
            return None
        name = function.get("name")
        if not is_tool_name(name):
            return None
        raw_arguments = next((function[k] for k in _ARG_KEYS if k in function), None)
        return call_from_parts(str(name), raw_arguments, call_id=_read_id(obj), explicit=explicit)
    return _read_flat_call(obj, explicit=explicit, require_arguments=require_arguments)


def _read_flat_call(obj: dict[str, Any], *, explicit: bool, require_arguments: bool) -> CallReading | None:
    call_type = obj.get("type")
    if call_type is not None and call_type not in _CALL_TYPES:
        return None
    # Seed 003: `"type": "action"` is the explicit discriminator of a call, wherever it is written.
    explicit = explicit or call_type == "action"
    name_key = next((k for k in _NAME_KEYS if is_tool_name(obj.get(k))), None)
    if name_key is None:
        return None
    arg_key = next((k for k in _ARG_KEYS if k in obj), None)
    if arg_key is None and name_key == "name" and require_arguments and call_type is None:
        return None
    extras = set(obj) - _NEUTRAL_KEYS - {name_key} - ({arg_key} if arg_key else set())
    if extras and not explicit:
        return None
    if arg_key == "parameters" and _looks_like_schema(obj[arg_key]):
        return None
    raw_arguments = obj[arg_key] if arg_key else None
    return call_from_parts(obj[name_key], raw_arguments, call_id=_read_id(obj), explicit=explicit)


def _looks_like_schema(value: object) -> bool:
    return isinstance(value, dict) and value.get("type") == "object" and "properties" in value


def _read_id(obj: dict[str, Any]) -> str | None:
    for key in _ID_KEYS:
        value = obj.get(key)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
    return None


def decode_json(body: str, where: str) -> object:
    """`body` decoded leniently, or the `RejectedCall` that says why it cannot be.

    Args:
        body: JSON written where the format puts a call.
        where: where it was written, as words that follow "the JSON" in a reason: "after
            [TOOL_CALLS]", "in the action block".
    """
    try:
        return loads_lenient(body)
    except TruncatedJSONError as exc:
        return RejectedCall(None, body, f"the JSON {where} was cut off before its end ({exc})", "truncated")
    except (LenientJSONError, RecursionError) as exc:
        return RejectedCall(None, body, f"the text {where} is not readable JSON ({exc})", "malformed")


def calls_in(value: object, where: str) -> list[CallReading]:
    """The calls in a decoded call object, or in an array of them; an item that is none is malformed.

    `where` is as for `decode_json`. The value was written where the format puts calls, so it
    is read as explicit, and a value that is not a call is reported rather than ignored. An
    array's items share one reason, without a preview: a hostile array holds 500k of them.
    """
    if isinstance(value, list):
        reason = f"an item of the JSON array {where} is not a tool call (no tool name)"
        return [read_call(item, explicit=True) or RejectedCall(None, item, reason, "malformed") for item in value]
    reading = read_call(value, explicit=True)
    if reading is None:
        reason = f"the JSON {where} is not a tool call (no tool name): {_preview(value)}"
        reading = RejectedCall(None, value, reason, "malformed")
    return [reading]


def read_json_calls(body: str, where: str) -> list[CallReading]:
    """The calls written as JSON in `body`: one call object or an array of them (see `calls_in`).

    JSON that cannot be read is one rejection: "truncated" when it stops before its end,
    "malformed" otherwise. `where` names the construct in the reasons (see `decode_json`).
    """
    value = decode_json(body, where)
    if not isinstance(value, RejectedCall):
        return calls_in(value, where)
    if value.kind == "malformed" and (items := array_items(body)) is not None:  # Issue 16: item by item.
        return read_items(items, lambda item: _item_calls(decode_json(item, where), where))
    return [value]


def _item_calls(value: object, where: str) -> list[CallReading]:
    """The call in one item of an array read item by item (see `_salvage`), or why there is none."""
    return [value] if isinstance(value, RejectedCall) else calls_in(value, where)


def interpret_json(value: object, *, explicit: bool, text: str = "") -> Parsed | None:
    """Say what a decoded JSON value means as a model answer, or None if it is only data.

    Args:
        value: the decoded JSON.
        explicit: whether the JSON was the model's whole answer (or in an explicit construct).
        text: prose that surrounded the JSON, kept as the answer's content.
    """
    if type(value) is dict:  # The usual answer (an envelope) first: this runs on every JSON answer.
        parsed = _interpret_envelope(value, explicit, text)
        if parsed is None:
            parsed = _interpret_gemini(value, explicit=explicit, text=text) or _interpret_error(value, text=text)
        if parsed is not None:
            return parsed
        reading = read_call(value, explicit=explicit, require_arguments=True)
        return None if reading is None else Parsed.from_readings([reading], text=text)
    if isinstance(value, list):
        return _interpret_list(value, explicit=explicit, text=text)
    if isinstance(value, dict):  # A dict subclass: read like any object.
        return interpret_json(dict(value), explicit=explicit, text=text)
    return None


def _signal_pattern() -> re.Pattern[str]:
    r"""A regex that finds, in the text of a JSON object, any key `interpret_json` reads it by.

    The keys, each as a substring of the text: a call's name and arguments (a bare `name` is not
    one, it needs arguments or a `type` beside it), the `type` of a call or an error, a wrapper,
    an envelope's, a Gemini response's. Only the keys that hold none of the others are searched
    for (`tool` stands for `tool_name` and `toolCalls`), and `\u`, an escape that may spell one.
    """
    keys = {
        *(k for k in _NAME_KEYS if k != "name"),
        *_ARG_KEYS,
        "type",
        *_WRAPPER_KEYS,
        *ENVELOPE_CALL_KEYS,
        *ENVELOPE_MORE_KEYS,
        "candidates",
        "parts",
    }
    shortest = sorted(k for k in keys if not any(other != k and other in k for other in keys))
    return re.compile("|".join([*map(re.escape, shortest), r"\\u"]))


_SIGNAL = _signal_pattern()


def may_be_tool_shaped(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether the JSON object written in `text[start:end]` may mean something to `interpret_json`.

    False when the text names none of the keys it reads an object by: the object is then data
    whatever its values, and decoding it (the costly part) can be skipped. One C-level search.
    """
    return _SIGNAL.search(text, start, len(text) if end is None else end) is not None


def _interpret_envelope(obj: dict[str, Any], explicit: bool, text: str) -> Parsed | None:
    # Plain loops and positional calls: this is most of the normalizer's cost on a clean envelope.
    calls_key = more_key = None
    for key in ENVELOPE_CALL_KEYS:
        if type(obj.get(key)) is list:
            calls_key = key
            break
    for key in ENVELOPE_MORE_KEYS:
        if key in obj:
            more_key = key
            break
    if calls_key is None:
        if more_key is None:
            return None
    elif more_key is None and not explicit and (calls_key == "calls" or calls_key == "function_calls"):
        return None  # Too generic a key to trust inside prose without the rest of the envelope.
    calls: list[Candidate] = []
    rejected: list[RejectedCall] = []
    if calls_key is not None:
        for item in obj[calls_key]:
            # The canonical call, `{"name": ..., "arguments": {...}}`, is what json_schema mode
            # produces every time: read inline (read_call's own first test, without the call).
            # With an `id` beside them too (the usual shape when a model copies the provider's).
            if type(item) is dict and 2 <= len(item) <= 3:
                name, arguments = item.get("name"), item.get("arguments")
                if type(arguments) is dict and type(name) is str and name.isidentifier() and len(name) <= 128:
                    if len(item) == 2:
                        calls.append(Candidate(name, arguments, None, True))
                        continue
                    call_id = item.get("id")
                    if type(call_id) is str and call_id:
                        calls.append(Candidate(name, arguments, call_id, True))
                        continue
            reading = read_envelope_item(item)
            if isinstance(reading, Candidate):
                calls.append(reading)
            else:
                rejected.append(reading)
    content = obj.get("content")
    if type(content) is not str:
        content = text.strip()
    elif text:
        content = join_pieces((text, content))
    stated = None if more_key is None else read_bool(obj[more_key])
    return Parsed(calls, content, stated, rejected)


def content_only_envelope(value: object) -> Parsed | None:
    """A whole answer `{"content": "..."}` (no calls, no flag): an envelope, read as its text.

    Only for a whole answer: a json-mode model that had nothing to call, or a cut envelope whose
    missing `}` was restored, means its content; a longer object is data. llama.cpp's generic
    tool format (`COMMON_CHAT_FORMAT_GENERIC`, for models without one of their own) answers
    `{"response": "..."}` when it calls nothing: that one key alone is read the same way.
    """
    if type(value) is not dict:
        return None
    if type(content := value.get("content")) is str and _CONTENT_ONLY.issuperset(value):
        return Parsed(text=content)
    if len(value) == 1 and type(response := value.get("response")) is str:
        return Parsed(text=response)
    return None


_CONTENT_ONLY = frozenset({"content", "toolCalls", "tool_calls"})


def read_envelope_item(item: object) -> CallReading:
    """One item of an envelope's calls array: the call, or why it is not one."""
    reading = read_call(item, explicit=True)
    return reading or RejectedCall(None, item, f"not a tool call: {_preview(item)}", "malformed")


def _interpret_gemini(obj: dict[str, Any], *, explicit: bool, text: str) -> Parsed | None:
    """A Gemini response, candidate content, or `parts` list written out as text."""
    candidates = obj.get("candidates")
    if isinstance(candidates, list) and candidates and isinstance(candidates[0], dict):
        obj = candidates[0].get("content") or {}
    parts = obj.get("parts") if isinstance(obj, dict) else None
    if not isinstance(parts, list) or not any(isinstance(p, dict) and "functionCall" in p for p in parts):
        return None
    return _interpret_parts(parts, explicit=explicit, text=text)


def _interpret_parts(parts: list[Any], *, explicit: bool, text: str) -> Parsed | None:
    readings: list[CallReading] = []
    texts = [text] if text else []
    for part in parts:
        if not isinstance(part, dict):
            return None
        if isinstance(part.get("text"), str) and not part.get("thought"):
            texts.append(part["text"])
        elif "functionCall" in part:
            reading = read_call(part["functionCall"], explicit=explicit)
            if reading is None:
                return None
            readings.append(reading)
    return Parsed.from_readings(readings, text=join_pieces(texts))


def _interpret_error(obj: dict[str, Any], *, text: str) -> Parsed | None:
    """Seed 003's `{"type": "error", "code": ..., "message": ...}`: reported, not a call."""
    if obj.get("type") != "error" or not isinstance(obj.get("message"), str):
        return None
    if set(obj) - {"type", "code", "message"}:
        return None
    code = obj.get("code")
    return Parsed(text=text, error=ModelError(code if isinstance(code, str) else None, obj["message"]))


def _interpret_list(items: list[Any], *, explicit: bool, text: str) -> Parsed | None:
    """A JSON array of calls (xLAM, Granite, `<function_calls>[…]`) or of Gemini parts."""
    if not items:
        return None
    if all(isinstance(p, dict) and ("functionCall" in p or "text" in p) for p in items):
        parsed = _interpret_parts(items, explicit=explicit, text=text)
        if parsed is not None and (parsed.calls or parsed.rejected):
            return parsed
    readings: list[CallReading] = []
    for item in items:
        reading = read_call(item, explicit=explicit, require_arguments=True)
        if reading is None:
            return None  # A list with anything but calls in it is data: no need to read the rest.
        readings.append(reading)
    return Parsed.from_readings(readings, text=text)


def read_bool(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def _preview(value: object, limit: int = 80) -> str:
    """The start of a decoded value, written as JSON again, for a reason."""
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # Not JSON data after all, or nested too deeply.
        shown = type(value).__name__
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."
