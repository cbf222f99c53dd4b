"""The schema each provider is sent: one table per target, and the rules checked on real schemas."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal

import pydantic
import pytest
from jsonschema.validators import validator_for

from llmrelay._instructions import envelope_schema
from llmrelay._tools import to_tool
from llmrelay.adapters._schemas import for_anthropic, for_gemini, for_openai_strict, strip_added_nulls

from .test_tools import TOOL_CASES, TreeNode


@dataclass(frozen=True)
class Case:
    id: str
    schema: dict[str, Any]
    expected: dict[str, Any]


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties, **extra}
    if required is not None:
        schema["required"] = required
    return schema


OPENAI_STRICT = [
    Case(
        "all required, no extras",
        obj({"a": {"type": "string"}}, ["a"]),
        obj({"a": {"type": "string"}}, ["a"], additionalProperties=False),
    ),
    Case(
        "optional becomes required and nullable; default described",
        obj({"a": {"type": "string"}, "n": {"type": "integer", "default": 3}}, ["a"]),
        obj(
            {"a": {"type": "string"}, "n": {"type": ["integer", "null"], "description": "{default: 3}"}},
            ["a", "n"],
            additionalProperties=False,
        ),
    ),
    Case(
        "Optional[...] already nullable: unchanged; its None default dropped without a word",
        obj({"o": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}}),
        obj(
            {"o": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
            ["o"],
            additionalProperties=False,
        ),
    ),
    Case(
        "optional enum: anyOf with null",
        obj({"u": {"enum": ["c", "f"], "type": "string"}}),
        obj(
            {"u": {"anyOf": [{"enum": ["c", "f"], "type": "string"}, {"type": "null"}]}},
            ["u"],
            additionalProperties=False,
        ),
    ),
    Case(
        "$ref with a sibling is inlined; $defs made strict",
        {
            **obj({"p": {"$ref": "#/$defs/P", "description": "where"}}, ["p"]),
            "$defs": {"P": obj({"x": {"type": "number"}})},
        },
        {
            **obj(
                {"p": obj({"x": {"type": ["number", "null"]}}, ["x"], additionalProperties=False, description="where")},
                ["p"],
                additionalProperties=False,
            ),
            "$defs": {"P": obj({"x": {"type": ["number", "null"]}}, ["x"], additionalProperties=False)},
        },
    ),
    Case(
        "bare $ref kept; optional one made nullable",
        {**obj({"p": {"$ref": "#/$defs/P"}}), "$defs": {"P": obj({"x": {"type": "number"}}, ["x"])}},
        {
            **obj({"p": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}}, ["p"], additionalProperties=False),
            "$defs": {"P": obj({"x": {"type": "number"}}, ["x"], additionalProperties=False)},
        },
    ),
    Case(
        "arrays: items made strict; string lengths described",
        obj({"l": {"type": "array", "items": obj({"s": {"type": "string", "maxLength": 5}}, ["s"])}}, ["l"]),
        obj(
            {
                "l": {
                    "type": "array",
                    "items": obj(
                        {"s": {"type": "string", "description": "{maxLength: 5}"}}, ["s"], additionalProperties=False
                    ),
                }
            },
            ["l"],
            additionalProperties=False,
        ),
    ),
    Case(
        "single allOf merged",
        obj({"a": {"allOf": [{"type": "integer"}], "description": "n"}}, ["a"]),
        obj({"a": {"type": "integer", "description": "n"}}, ["a"], additionalProperties=False),
    ),
]

ANTHROPIC = [
    Case(
        "objects closed; numeric bounds described",
        obj({"n": {"type": "integer", "minimum": 1, "maximum": 9}}, ["n"]),
        obj({"n": {"type": "integer", "description": "{minimum: 1, maximum: 9}"}}, ["n"], additionalProperties=False),
    ),
    Case(
        "known string format kept, unknown described",
        obj({"d": {"type": "string", "format": "date"}, "c": {"type": "string", "format": "color"}}),
        obj(
            {"d": {"type": "string", "format": "date"}, "c": {"type": "string", "description": '{format: "color"}'}},
            additionalProperties=False,
        ),
    ),
    Case(
        "minItems 1 kept, 2 described; oneOf read as anyOf",
        obj({"l": {"type": "array", "minItems": 2, "items": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}),
        obj(
            {
                "l": {
                    "type": "array",
                    "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    "description": "{minItems: 2}",
                }
            },
            additionalProperties=False,
        ),
    ),
    Case(
        "optional stays optional (not strict-required)",
        obj({"a": {"type": "string"}, "b": {"type": "string"}}, ["a"]),
        obj({"a": {"type": "string"}, "b": {"type": "string"}}, ["a"], additionalProperties=False),
    ),
]

GEMINI = [
    Case(
        "oneOf read as anyOf, const as enum",
        obj({"v": {"oneOf": [{"type": "string"}, {"const": 3}]}}),
        obj({"v": {"anyOf": [{"type": "string"}, {"enum": [3]}]}}),
    ),
    Case(
        "keywords Gemini does not read are described; $defs and $ref kept",
        {
            **obj({"p": {"$ref": "#/$defs/P"}}),
            "$defs": {"P": obj({"s": {"type": "string", "pattern": "^a", "default": "a"}})},
        },
        {
            **obj({"p": {"$ref": "#/$defs/P"}}),
            "$defs": {"P": obj({"s": {"type": "string", "description": '{pattern: "^a", default: "a"}'}})},
        },
    ),
    Case(
        "supported constraints and additionalProperties kept",
        obj(
            {"l": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "number", "minimum": 0}}},
            additionalProperties=False,
        ),
        obj(
            {"l": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "number", "minimum": 0}}},
            additionalProperties=False,
        ),
    ),
]


@pytest.mark.parametrize(
    ("convert", "case"),
    [(for_openai_strict, c) for c in OPENAI_STRICT]
    + [(for_anthropic, c) for c in ANTHROPIC]
    + [(for_gemini, c) for c in GEMINI],
    ids=lambda v: v.id if isinstance(v, Case) else v.__name__,
)
def test_schema_for_provider(convert: Callable[[dict[str, Any]], dict[str, Any]], case: Case) -> None:
    before = repr(case.schema)
    assert convert(case.schema) == case.expected
    assert repr(case.schema) == before  # Pure: the user's schema is never changed.


# --- the rules, checked on the schemas llmrelay really sends ------------------------------------


class Unit(str, Enum):
    C = "c"
    F = "f"


class Place(pydantic.BaseModel):
    """A place."""

    name: str
    country: str | None = None


class Forecast(pydantic.BaseModel):
    """A forecast."""

    place: Place
    unit: Unit = Unit.C
    days: list[float] = pydantic.Field(description="One temperature per day", min_length=1)
    kind: Literal["rain", "sun"] = "sun"
    note: str = pydantic.Field(default="", max_length=200)


def _schemas() -> list[tuple[str, dict[str, Any]]]:
    tools = [(case.id, dict(to_tool(case.function).parameters)) for case in TOOL_CASES]
    models = [
        ("pydantic model", dict(to_tool(Forecast).parameters)),
        ("recursive model", dict(to_tool(TreeNode).parameters)),
    ]
    return [*tools, *models, ("envelope", envelope_schema(()))]


def _nodes(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        yield schema
        for value in schema.values():
            yield from _nodes(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _nodes(item)


@pytest.mark.parametrize(("name", "schema"), _schemas(), ids=[name for name, _ in _schemas()])
def test_openai_strict_rules_hold(name: str, schema: dict[str, Any]) -> None:
    sent = for_openai_strict(schema)
    validator_for(sent).check_schema(sent)
    for node in _nodes(sent):
        if isinstance(node.get("properties"), dict) and node.get("type") == "object":
            assert node["additionalProperties"] is False
            assert node["required"] == list(node["properties"])
        if "$ref" in node:
            assert list(node) == ["$ref"], f"$ref with siblings: {node}"
        assert "default" not in node


@pytest.mark.parametrize(("name", "schema"), _schemas(), ids=[name for name, _ in _schemas()])
def test_anthropic_and_gemini_schemas_stay_valid(name: str, schema: dict[str, Any]) -> None:
    for sent in (for_anthropic(schema), for_gemini(schema)):
        validator_for(sent).check_schema(sent)
    for node in _nodes(for_anthropic(schema)):
        assert not {"minimum", "maximum", "maxLength", "minLength"} & set(node)
        if node.get("type") == "object":
            assert node["additionalProperties"] is False
    for node in _nodes(for_gemini(schema)):
        assert not {"oneOf", "const", "default", "maxLength", "minLength", "pattern"} & set(node)


NULLS = [
    (
        "null for an optional non-nullable field is dropped",
        {"name": "x", "place": {"name": "p"}, "unit": None},
        {"name": "x", "place": {"name": "p"}},
    ),
    (
        "null for a nullable field is kept",
        {"place": {"name": "p", "country": None}},
        {"place": {"name": "p", "country": None}},
    ),
    ("nested through $ref and arrays", {"places": [{"name": "p", "zone": None}]}, {"places": [{"name": "p"}]}),
    ("null for a required field is kept (validation will say so)", {"name": None}, {"name": None}),
]


@pytest.mark.parametrize(("label", "value", "expected"), NULLS, ids=[row[0] for row in NULLS])
def test_strip_added_nulls(label: str, value: dict[str, Any], expected: dict[str, Any]) -> None:
    place = obj(
        {
            "name": {"type": "string"},
            "country": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "zone": {"type": "string"},
        },
        ["name"],
    )
    schema = {
        **obj(
            {
                "name": {"type": "string"},
                "place": {"$ref": "#/$defs/Place"},
                "places": {"type": "array", "items": {"$ref": "#/$defs/Place"}},
                "unit": {"type": "string", "default": "c"},
            },
            ["name"],
        ),
        "$defs": {"Place": place},
    }
    assert strip_added_nulls(value, schema) == expected
