"""JSON schemas as each provider accepts them: one pure function per target.

The user's schema (a pydantic model's, a function's, a dict) is what answers are validated
against; these functions only change the copy that is *sent*. Each keeps what its target
understands and moves what it does not into the description, so the model still reads it.

- `for_openai_strict`: OpenAI Structured Outputs with `"strict": true` (also Groq's strict
  models). Every object lists all its properties in `required` and has `additionalProperties:
  false`; a property that was optional becomes nullable instead (`strip_added_nulls` removes the
  nulls that brings back before validation). `$ref` may not have siblings, so one that has is
  inlined; `default` is refused ("'default' is not permitted"). Learned from
  platform.openai.com/docs/guides/structured-outputs and the openai SDK's `lib/_pydantic.py`.
- `for_anthropic`: Anthropic structured outputs (`output_config.format`). Objects get
  `additionalProperties: false`; numeric and string-length constraints, `minItems` above 1 and
  unknown string formats are refused, so they go to the description. Learned from
  docs.claude.com/en/docs/build-with-claude/structured-outputs and the anthropic SDK's
  `lib/_parse/_transform.py`.
- `for_gemini`: Gemini's `responseJsonSchema` / `parametersJsonSchema`, which take JSON Schema
  (not the older OpenAPI `Schema` subset) but only some keywords: `oneOf` is read as `anyOf`,
  `const` as a one-value `enum`, a one-item `allOf` is inlined, and the rest is described.
  Learned from ai.google.dev/gemini-api/docs/structured-output.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

JsonObject = dict[str, Any]

_OPENAI_UNSUPPORTED = frozenset(
    {"default", "examples", "minLength", "maxLength", "minProperties", "maxProperties", "uniqueItems"}
)
"""Keywords OpenAI's strict mode refuses; said in the description instead."""

_ANTHROPIC_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)
_ANTHROPIC_KEEP = frozenset(
    {"type", "description", "title", "enum", "const", "properties", "required", "items", "anyOf", "allOf"}
    | {"$ref", "$defs", "additionalProperties", "format", "minItems"}
)

_GEMINI_KEEP = frozenset(
    {"type", "title", "description", "enum", "format", "properties", "required", "additionalProperties"}
    | {"items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "$ref", "$defs"}
    | {"$id", "$anchor", "propertyOrdering"}
)

_NESTED_MAPS = ("properties", "$defs", "definitions")
_NESTED_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def for_openai_strict(schema: Mapping[str, Any]) -> JsonObject:
    """The schema as OpenAI's strict mode requires it (see the module docstring)."""
    root = copy.deepcopy(dict(schema))
    return _openai_node(root, root)


def _openai_node(node: JsonObject, root: JsonObject) -> JsonObject:
    if "$ref" in node and len(node) > 1:
        # "$ref cannot have keywords {'description'}": inline the definition under the siblings.
        resolved = _resolve(root, node.pop("$ref"))
        node = {**copy.deepcopy(resolved), **node}
    if len(node.get("allOf", ())) == 1:
        node = {**node.pop("allOf")[0], **node}
    node = _describe_unsupported(node, lambda key: key in _OPENAI_UNSUPPORTED)
    _recurse(node, lambda child: _openai_node(child, root))
    properties = node.get("properties")
    if node.get("type") == "object" or isinstance(properties, dict):
        properties = properties if isinstance(properties, dict) else {}
        required = set(node.get("required", ()))
        node["properties"] = {key: value if key in required else _nullable(value) for key, value in properties.items()}
        node["required"] = list(properties)
        node["additionalProperties"] = False
    return node


def _nullable(node: JsonObject) -> JsonObject:
    """`node` that also accepts null: how strict mode says a property may be left out."""
    if _accepts_null(node):
        return node
    kind = node.get("type")
    if isinstance(kind, str) and "enum" not in node and "const" not in node:
        return {**node, "type": [kind, "null"]}
    return {"anyOf": [node, {"type": "null"}]}


def _accepts_null(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(isinstance(v, Mapping) and _accepts_null(v) for v in node.get("anyOf", ()))


def for_anthropic(schema: Mapping[str, Any]) -> JsonObject:
    """The schema as Anthropic's structured outputs accept it (see the module docstring)."""
    return _anthropic_node(copy.deepcopy(dict(schema)))


def _anthropic_node(node: JsonObject) -> JsonObject:
    if "oneOf" in node and "anyOf" not in node:
        node["anyOf"] = node.pop("oneOf")
    node = _describe_unsupported(node, lambda key: not _anthropic_keeps(key, node))
    _recurse(node, _anthropic_node)
    if node.get("type") == "object" or isinstance(node.get("properties"), dict):
        node["additionalProperties"] = False
    return node


def _anthropic_keeps(key: str, node: Mapping[str, Any]) -> bool:
    if key == "format":
        return node["format"] in _ANTHROPIC_FORMATS
    if key == "minItems":
        return node["minItems"] in (0, 1)
    return key in _ANTHROPIC_KEEP


def for_gemini(schema: Mapping[str, Any]) -> JsonObject:
    """The schema as Gemini's `responseJsonSchema` and `parametersJsonSchema` read it."""
    return _gemini_node(copy.deepcopy(dict(schema)))


def _gemini_node(node: JsonObject) -> JsonObject:
    if "oneOf" in node and "anyOf" not in node:
        node["anyOf"] = node.pop("oneOf")
    if "const" in node and "enum" not in node:
        node["enum"] = [node.pop("const")]
    if len(node.get("allOf", ())) == 1:
        node = {**node.pop("allOf")[0], **node}
    node = _describe_unsupported(node, lambda key: key not in _GEMINI_KEEP)
    _recurse(node, _gemini_node)
    return node


def _recurse(node: JsonObject, convert: Any) -> None:
    """Apply `convert` to every subschema of `node`, in place."""
    for key in _NESTED_MAPS:
        if isinstance(node.get(key), dict):
            node[key] = {name: convert(child) for name, child in node[key].items() if isinstance(child, dict)}
    for key in _NESTED_LISTS:
        if isinstance(node.get(key), list):
            node[key] = [convert(child) if isinstance(child, dict) else child for child in node[key]]
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            node[key] = convert(node[key])


def _describe_unsupported(node: JsonObject, unsupported: Any) -> JsonObject:
    """`node` without the keywords its target refuses; they are written into the description."""
    dropped = {key: node[key] for key in list(node) if unsupported(key) and key not in _NESTED_MAPS}
    if dropped.get("default", 0) is None:
        del dropped["default"]  # An Optional field's None: nullable says it already; not worth a word.
        node = {key: value for key, value in node.items() if key != "default"}
    if not dropped:
        return node
    kept = {key: value for key, value in node.items() if key not in dropped}
    said = ", ".join(f"{key}: {json.dumps(value, default=str)}" for key, value in dropped.items())
    kept["description"] = f"{kept['description']}\n\n{{{said}}}" if kept.get("description") else f"{{{said}}}"
    return kept


def _resolve(root: Mapping[str, Any], ref: str) -> JsonObject:
    if not ref.startswith("#/"):
        raise ValueError(f"only local $ref are supported, got {ref!r}")
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part]
    return dict(node)


def strip_added_nulls(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any] | None = None) -> Any:
    """`value` without the nulls `for_openai_strict` made possible but the original schema refuses.

    Strict mode makes every optional property nullable, so a model says "left out" with null. A
    null for a property that is optional and not nullable in `schema` (the user's) is dropped, so
    the default applies, as if the model had left the key out. Anything else is kept as it is.
    """
    root = schema if root is None else root
    if "$ref" in schema:
        schema = {**_resolve(root, schema["$ref"]), **{k: v for k, v in schema.items() if k != "$ref"}}
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [strip_added_nulls(item, schema["items"], root) for item in value]
    if not isinstance(value, dict):
        return value
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return value
    required = set(schema.get("required", ()))
    out = {}
    for key, item in value.items():
        child = properties.get(key)
        if not isinstance(child, Mapping):
            out[key] = item
        elif item is None and key not in required and not _accepts_null(_deref(child, root)):
            continue
        else:
            out[key] = strip_added_nulls(item, child, root)
    return out


def _deref(node: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    return _resolve(root, node["$ref"]) if "$ref" in node else node
