"""Check a call against its tool: known name, arguments valid against the schema.

Before validating, values are coerced to the schema's declared type where no information is lost
("5" -> 5 for an integer, 12345 -> "12345" for a string, "true" -> True for a boolean, a JSON
string holding an array or object -> that array or object). Anything else is left for the
validator to reject with a precise message.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from ._tools import Tool

_INTEGER = re.compile(r"[+-]?\d{1,40}")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def check_arguments(tool: Tool, arguments: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Coerce `arguments` losslessly to `tool`'s schema and validate them.

    Returns:
        The (possibly coerced) arguments, and one message per violation, each naming the argument
        and saying what the schema expects. An empty list means the call is valid.
    """
    coerced = coerce(arguments, tool.parameters, tool.parameters)
    if not isinstance(coerced, dict):  # The root schema cannot change a dict into something else.
        coerced = arguments
    if tool.model is not None:
        return coerced, _pydantic_errors(tool.model, coerced)
    errors = sorted(tool.validator.iter_errors(coerced), key=lambda e: [str(p) for p in e.absolute_path])
    return coerced, [_describe(error) for error in errors]


def _pydantic_errors(model: type[Any], arguments: dict[str, Any]) -> list[str]:
    """Validate with the tool's pydantic model; one message per error, naming the argument."""
    from pydantic import ValidationError  # Imported only when such a tool is checked.

    try:
        model.model_validate(arguments)
    except ValidationError as exc:
        return [_describe_pydantic(error) for error in exc.errors(include_url=False)]
    return []


def _describe_pydantic(error: Any) -> str:
    path = _path(list(error["loc"]))
    if error["type"] == "missing":
        return f"missing required argument '{path}'"
    if error["type"] == "extra_forbidden":
        return f"unexpected argument '{path}'"
    shown = repr(error.get("input"))
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return f"argument '{path or '<root>'}': {error['msg']} (got {shown})"


def _describe(error: Any) -> str:
    path = _path(list(error.absolute_path))
    if error.validator == "required":
        missing = re.match(r"'([^']*)'", error.message)
        name = missing.group(1) if missing else error.message
        where = f"'{path}.{name}'" if path else f"'{name}'"
        return f"missing required argument {where}"
    if error.validator == "additionalProperties" and not path:
        return f"unexpected argument(s): {error.message}"
    expected = error.schema.get("type") if isinstance(error.schema, Mapping) else None
    hint = f" (schema expects {expected})" if expected and error.validator != "type" else ""
    return f"argument '{path or '<root>'}': {error.message}{hint}"


def _path(parts: list[Any]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def coerce(value: Any, schema: Any, root: Any) -> Any:
    """Return `value` converted to what `schema` declares, when that loses nothing."""
    schema = _resolve(schema, root)
    if not isinstance(schema, Mapping):
        return value
    for combinator in ("anyOf", "oneOf"):
        if isinstance(schema.get(combinator), list):
            return _coerce_union(value, schema[combinator], root)
    declared = schema.get("type")
    types = [declared] if isinstance(declared, str) else list(declared or [])
    if types and not any(_is_type(value, t) for t in types):
        value = next((c for t in types if (c := _convert(value, t)) is not _NO), value)
    if isinstance(value, dict) and isinstance(schema.get("properties"), Mapping):
        props = schema["properties"]
        return {k: coerce(v, props[k], root) if k in props else v for k, v in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [coerce(item, schema["items"], root) for item in value]
    return value


def _coerce_union(value: Any, branches: list[Any], root: Any) -> Any:
    resolved = [_resolve(b, root) for b in branches]
    declared = [b.get("type") for b in resolved if isinstance(b, Mapping)]
    if any(isinstance(t, str) and _is_type(value, t) for t in declared):
        matching = next(b for b in resolved if isinstance(b, Mapping) and _is_type(value, b.get("type")))
        return coerce(value, matching, root)
    for branch in resolved:
        converted = coerce(value, branch, root)
        if converted is not value and converted != value:
            return converted
    return value


def _resolve(schema: Any, root: Any) -> Any:
    """Follow a local `$ref` such as `#/$defs/Address` (pydantic writes these for nested models)."""
    seen = 0
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and seen < 32:
        ref: str = schema["$ref"]
        if not ref.startswith("#/"):
            return schema
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part) if isinstance(target, Mapping) else None
        if target is None:
            return schema
        schema, seen = target, seen + 1
    return schema


def _is_type(value: Any, json_type: Any) -> bool:
    if not isinstance(json_type, str) or json_type not in _JSON_TYPES:
        return True
    if isinstance(value, bool) and json_type in ("integer", "number"):
        return False
    if json_type == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _JSON_TYPES[json_type])


class _Missing:
    pass


_NO: Any = _Missing()


def _convert(value: Any, json_type: str) -> Any:
    """Convert `value` to `json_type` if no information is lost, else return `_NO`."""
    if json_type == "integer":
        if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
            return int(value)
    elif json_type == "number":
        if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
            number = float(value)
            if math.isfinite(number):
                return int(value) if _INTEGER.fullmatch(value.strip()) else number
    elif json_type == "string":
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            return str(value)
    elif json_type == "boolean":
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
    elif json_type in ("array", "object") and isinstance(value, str):
        try:
            decoded = json.loads(value)
        except ValueError:
            return _NO
        if _is_type(decoded, json_type):
            return decoded
    return _NO
