"""Arguments against a tool's schema: lossless coercion first, then precise errors."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import pydantic
import pytest

from llmrelay import Tool, to_tool
from llmrelay._validation import check_arguments


@dataclass(frozen=True)
class Row:
    id: str
    schema: dict[str, Any]
    arguments: dict[str, Any]
    coerced: dict[str, Any]
    errors: tuple[str, ...] = ()


def obj(required: list[str] | None = None, **properties: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


INT, NUM, STR, BOOL = {"type": "integer"}, {"type": "number"}, {"type": "string"}, {"type": "boolean"}

ROWS = [
    Row("valid as is", obj(a=INT, b=STR), {"a": 1, "b": "x"}, {"a": 1, "b": "x"}),
    Row("digit string to integer", obj(a=INT), {"a": "5"}, {"a": 5}),
    Row("negative digit string to integer", obj(a=INT), {"a": "-12"}, {"a": -12}),
    Row("integral float is an integer", obj(a=INT), {"a": 5.0}, {"a": 5.0}),
    Row("number string to number", obj(a=NUM), {"a": "2.5"}, {"a": 2.5}),
    Row("integer string to number stays integral", obj(a=NUM), {"a": "7"}, {"a": 7}),
    Row("integer to string", obj(a=STR), {"a": 12345}, {"a": "12345"}),
    Row("float to string", obj(a=STR), {"a": 1.5}, {"a": "1.5"}),
    Row("true string to boolean", obj(a=BOOL), {"a": "true"}, {"a": True}),
    Row("False string to boolean", obj(a=BOOL), {"a": "False"}, {"a": False}),
    Row("JSON array string to array", obj(a={"type": "array", "items": INT}), {"a": '["1", 2]'}, {"a": [1, 2]}),
    Row("JSON object string to object", obj(a=obj(b=INT)), {"a": '{"b": "3"}'}, {"a": {"b": 3}}),
    Row(
        "nested coercion",
        obj(p=obj(q={"type": "array", "items": BOOL})),
        {"p": {"q": ["true", False]}},
        {"p": {"q": [True, False]}},
    ),
    Row("nullable integer via type list", obj(a={"type": ["integer", "null"]}), {"a": "4"}, {"a": 4}),
    Row("anyOf branch chosen by coercion", obj(a={"anyOf": [INT, {"type": "null"}]}), {"a": "9"}, {"a": 9}),
    Row("$ref followed", {"$defs": {"N": INT}, **obj(a={"$ref": "#/$defs/N"})}, {"a": "3"}, {"a": 3}),
    Row("unknown extra keys untouched", obj(a=INT), {"a": 1, "z": "5"}, {"a": 1, "z": "5"}),
    # Lossy conversions are refused; the validator then names the argument and the expected type.
    Row(
        "word to integer refused",
        obj(a=INT),
        {"a": "five"},
        {"a": "five"},
        ("argument 'a': 'five' is not of type 'integer'",),
    ),
    Row(
        "decimal string to integer refused",
        obj(a=INT),
        {"a": "5.5"},
        {"a": "5.5"},
        ("argument 'a': '5.5' is not of type 'integer'",),
    ),
    Row(
        "boolean is not an integer",
        obj(a=INT),
        {"a": True},
        {"a": True},
        ("argument 'a': True is not of type 'integer'",),
    ),
    Row(
        "yes is not a boolean",
        obj(a=BOOL),
        {"a": "yes"},
        {"a": "yes"},
        ("argument 'a': 'yes' is not of type 'boolean'",),
    ),
    Row(
        "boolean to string refused",
        obj(a=STR),
        {"a": True},
        {"a": True},
        ("argument 'a': True is not of type 'string'",),
    ),
    Row("missing required", obj(["city"], city=STR), {}, {}, ("missing required argument 'city'",)),
    Row(
        "missing nested required", obj(p=obj(["q"], q=STR)), {"p": {}}, {"p": {}}, ("missing required argument 'p.q'",)
    ),
    Row(
        "enum violation",
        obj(u={"type": "string", "enum": ["c", "f"]}),
        {"u": "k"},
        {"u": "k"},
        ("argument 'u': 'k' is not one of ['c', 'f'] (schema expects string)",),
    ),
    Row(
        "minimum violation",
        obj(d={"type": "integer", "minimum": 1}),
        {"d": "0"},
        {"d": 0},
        ("argument 'd': 0 is less than the minimum of 1 (schema expects integer)",),
    ),
    Row(
        "additional properties refused",
        {**obj(a=INT), "additionalProperties": False},
        {"a": 1, "b": 2},
        {"a": 1, "b": 2},
        ("unexpected argument(s): Additional properties are not allowed ('b' was unexpected)",),
    ),
    Row(
        "array item error names the index",
        obj(xs={"type": "array", "items": INT}),
        {"xs": [1, "x"]},
        {"xs": [1, "x"]},
        ("argument 'xs[1]': 'x' is not of type 'integer'",),
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_check_arguments(row: Row) -> None:
    coerced, errors = check_arguments(Tool("t", parameters=row.schema), row.arguments)
    assert (coerced, tuple(errors)) == (row.coerced, row.errors)


# Tools made from Python are validated with pydantic (after the same lossless coercion).
def forecast(city: str, days: int = 1, units: Literal["metric", "imperial"] = "metric") -> str:
    """Forecast."""
    return city


class Booking(pydantic.BaseModel):
    hotel: str
    nights: int = pydantic.Field(ge=1)


PYDANTIC_ROWS = [
    (forecast, {"city": "Paris", "days": "3"}, {"city": "Paris", "days": 3}, ()),
    (forecast, {"city": 75001}, {"city": "75001"}, ()),
    (forecast, {"days": 2}, {"days": 2}, ("missing required argument 'city'",)),
    (
        forecast,
        {"city": "Paris", "units": "kelvin"},
        {"city": "Paris", "units": "kelvin"},
        ("argument 'units': Input should be 'metric' or 'imperial' (got 'kelvin')",),
    ),
    (forecast, {"city": "Paris", "when": "today"}, {"city": "Paris", "when": "today"}, ("unexpected argument 'when'",)),
    (Booking, {"hotel": "Ritz", "nights": "2"}, {"hotel": "Ritz", "nights": 2}, ()),
    (
        Booking,
        {"hotel": "Ritz", "nights": 0},
        {"hotel": "Ritz", "nights": 0},
        ("argument 'nights': Input should be greater than or equal to 1 (got 0)",),
    ),
]


@pytest.mark.parametrize(("source", "arguments", "coerced", "errors"), PYDANTIC_ROWS)
def test_python_tools_are_validated_with_pydantic(
    source: Any, arguments: dict[str, Any], coerced: dict[str, Any], errors: tuple[str, ...]
) -> None:
    assert check_arguments(to_tool(source), arguments) == (coerced, list(errors))


WEATHER_TOOL = {"name": "get_weather", "parameters": obj(["city"], city={"type": "string"})}


@pytest.mark.parametrize(
    ("arguments", "accepted"),
    [
        ({"arguments": {"city": "Bern"}}, {"city": "Bern"}),  # DSML's wrapper (vLLM unwraps it)
        ({"input": '{"city": "Bern"}'}, {"city": "Bern"}),  # the JSON of the arguments, as text
        ({"parameters": {"city": "Bern"}}, {"city": "Bern"}),
        ({"arguments": {"town": "Bern"}}, None),  # unwrapped, it still fails the schema: rejected
        ({"arguments": "Bern"}, None),
        ({"arguments": {"city": "Bern"}, "extra": 1}, None),  # not a lone wrapper
    ],
)
def test_arguments_wrapped_in_one_more_object_are_unwrapped_only_when_that_passes(
    arguments: dict[str, Any], accepted: dict[str, Any] | None
) -> None:
    from llmrelay import parse_response

    call = {"name": "get_weather", "arguments": arguments}
    result = parse_response(json.dumps(call), tools=[WEATHER_TOOL])
    assert [c.arguments for c in result.tool_calls] == ([accepted] if accepted is not None else [])
    assert [r.kind for r in result.rejected] == ([] if accepted is not None else ["invalid_arguments"])


def test_a_schema_that_names_the_wrapper_key_is_read_as_written() -> None:
    from llmrelay import parse_response

    tool = {"name": "run", "parameters": obj(["input"], input={"type": "string"})}
    result = parse_response('{"name": "run", "arguments": {"input": "{\\"city\\": \\"Bern\\"}"}}', tools=[tool])
    assert [c.arguments for c in result.tool_calls] == [{"input": '{"city": "Bern"}'}]
