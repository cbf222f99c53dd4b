from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any, Literal

import pydantic
import pytest

from llmrelay import ConfigError, Tool, to_tool

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    "required": ["city"],
}


class Unit(str, Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


def get_weather(city: str, days: int = 1, unit: Unit = Unit.CELSIUS, tags: list[str] | None = None) -> str:
    """Get the weather forecast for a city.

    Args:
        city: The city name, e.g. "Paris".
        days: How many days to forecast,
            counting today.
        unit: Temperature unit.
        tags: Optional labels.

    Returns:
        A short forecast.
    """
    return f"{city}: sunny"


def search(query: str, *, limit: int = 5) -> list[str]:
    """Search the web.

    :param query: what to look for
    :param limit: how many results
    """
    return []


class Address(pydantic.BaseModel):
    street: str
    city: str


class CreateContact(pydantic.BaseModel):
    """Create a contact in the address book."""

    name: str = pydantic.Field(description="Full name")
    kind: Literal["person", "company"] = "person"
    address: Address | None = None


def test_from_json_schema_dict() -> None:
    tool = to_tool({"name": "get_weather", "description": "Weather.", "parameters": WEATHER_SCHEMA})
    assert tool == Tool("get_weather", "Weather.", WEATHER_SCHEMA)


def test_from_openai_style_dict() -> None:
    spec = {"type": "function", "function": {"name": "get_weather", "description": "W", "parameters": WEATHER_SCHEMA}}
    assert to_tool(spec) == Tool("get_weather", "W", WEATHER_SCHEMA)


def test_from_anthropic_style_dict() -> None:
    assert to_tool({"name": "get_weather", "input_schema": WEATHER_SCHEMA}).parameters == WEATHER_SCHEMA


def test_dict_without_parameters_takes_no_arguments() -> None:
    assert to_tool({"name": "now"}).parameters == {"type": "object", "properties": {}}


def test_from_typed_function_with_google_docstring() -> None:
    tool = to_tool(get_weather)
    assert tool.name == "get_weather"
    assert tool.description == "Get the weather forecast for a city."
    assert tool.function is get_weather
    props: dict[str, Any] = dict(tool.parameters["properties"])
    assert tool.parameters["required"] == ["city"]
    assert props["city"] == {"type": "string", "description": 'The city name, e.g. "Paris".'}
    assert props["days"] == {
        "type": "integer",
        "default": 1,
        "description": "How many days to forecast, counting today.",
    }
    assert tool.parameters["$defs"]["Unit"]["enum"] == ["celsius", "fahrenheit"]
    assert props["tags"]["anyOf"] == [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]


def test_from_function_with_sphinx_docstring_and_keyword_only() -> None:
    tool = to_tool(search)
    assert tool.description == "Search the web."
    assert tool.parameters["properties"]["query"]["description"] == "what to look for"
    assert tool.parameters["properties"]["limit"] == {
        "type": "integer",
        "default": 5,
        "description": "how many results",
    }


def test_from_pydantic_model() -> None:
    tool = to_tool(CreateContact)
    assert (tool.name, tool.description, tool.model) == (
        "CreateContact",
        "Create a contact in the address book.",
        CreateContact,
    )
    assert tool.parameters["required"] == ["name"]
    assert tool.parameters["properties"]["kind"] == {
        "enum": ["person", "company"],
        "type": "string",
        "default": "person",
    }
    assert "title" not in tool.parameters and "title" not in tool.parameters["properties"]["name"]


def test_a_tool_passes_through() -> None:
    tool = Tool("x")
    assert to_tool(tool) is tool


@pytest.mark.parametrize(
    "bad",
    [{"description": "no name"}, {"name": ""}, {"name": "f", "parameters": "not a schema"}, 42, "get_weather"],
    ids=["no-name", "empty-name", "bad-parameters", "int", "str"],
)
def test_bad_tool_definitions_raise_config_error(bad: Any) -> None:
    with pytest.raises(ConfigError):
        to_tool(bad)


def test_an_invalid_parameters_schema_is_a_config_error_when_calls_are_checked() -> None:
    from llmrelay import parse_response

    bad = {"name": "f", "parameters": {"type": "OBJECT"}}  # Gemini's OpenAPI spelling, not JSON schema
    with pytest.raises(ConfigError, match="tool 'f': parameters is not a valid JSON schema"):
        parse_response('{"name": "f", "arguments": {}}', tools=[bad])


def test_validators_are_built_once_per_schema() -> None:
    """A dict tool becomes a new Tool on every call; its checked validator must not be rebuilt each time."""
    from llmrelay._tools import _validator

    schema = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}
    first = to_tool({"name": "search", "parameters": schema}).validator
    again = to_tool({"name": "search", "parameters": dict(schema)}).validator
    assert first is again and _validator.cache_info().hits >= 1


def test_a_function_or_model_is_read_once() -> None:
    """Issue 13: every `complete(tools=[f])` built a pydantic model from `f` (milliseconds)."""

    def lookup(city: str) -> str:
        """Look it up."""
        return city

    class Query(pydantic.BaseModel):
        text: str

    assert to_tool(lookup) is to_tool(lookup)
    assert to_tool(Query) is to_tool(Query)

    def lookup_again(city: str) -> str:
        return city

    assert to_tool(lookup_again) is not to_tool(lookup)


def test_the_read_cache_is_bounded() -> None:
    from llmrelay._tools import _READ, _READ_MAX

    for number in range(_READ_MAX + 50):
        exec(f"def made_{number}(x: int) -> int:\n    return x", namespace := {})
        to_tool(namespace[f"made_{number}"])
    assert len(_READ) <= _READ_MAX


# --- tools from Python: one row per kind of signature or docstring -----------------------------


def numpy_style(city: str, days: int = 3) -> str:
    """Forecast the weather.

    Parameters
    ----------
    city : str
        The city name,
        in English.
    days : int, optional
        How many days.

    Returns
    -------
    str
        The forecast.
    """
    return city


def sphinx_with_types(city: str, days: int = 3) -> str:
    """Forecast the weather.

    :param city: The city name.
    :type city: str
    :param int days: How many days.
    :returns: The forecast.
    """
    return city


async def async_lookup(query: str, exact: bool = False) -> list[str]:
    """Look a term up (async).

    Args:
        query: What to look up.
        exact: Match the whole term only.
    """
    return []


class Priority(int, Enum):
    LOW = 1
    HIGH = 2


def literals_and_enums(mode: Literal["fast", "slow"], priority: Priority = Priority.LOW) -> None:
    """Pick a mode."""


class Point(pydantic.BaseModel):
    x: float
    y: float


def nested_optional_lists(points: list[Point], label: str | None = None, tags: list[str] = []) -> None:  # noqa: B006
    """Draw points."""


@dataclasses.dataclass(frozen=True)
class ToolCase:
    id: str
    function: Any
    description: str
    properties: dict[str, Any]
    required: list[str]


TOOL_CASES = [
    ToolCase(
        "numpy docstring",
        numpy_style,
        "Forecast the weather.",
        {
            "city": {"type": "string", "description": "The city name, in English."},
            "days": {"type": "integer", "default": 3, "description": "How many days."},
        },
        ["city"],
    ),
    ToolCase(
        "sphinx docstring with :type: lines",
        sphinx_with_types,
        "Forecast the weather.",
        {
            "city": {"type": "string", "description": "The city name."},
            "days": {"type": "integer", "default": 3, "description": "How many days."},
        },
        ["city"],
    ),
    ToolCase(
        "async function, google docstring",
        async_lookup,
        "Look a term up (async).",
        {
            "query": {"type": "string", "description": "What to look up."},
            "exact": {"type": "boolean", "default": False, "description": "Match the whole term only."},
        },
        ["query"],
    ),
    ToolCase(
        "Literal and int Enum",
        literals_and_enums,
        "Pick a mode.",
        {"mode": {"enum": ["fast", "slow"], "type": "string"}, "priority": {"$ref": "#/$defs/Priority", "default": 1}},
        ["mode"],
    ),
    ToolCase(
        "nested model in a list, Optional, list default",
        nested_optional_lists,
        "Draw points.",
        {
            "points": {"type": "array", "items": {"$ref": "#/$defs/Point"}},
            "label": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "tags": {"type": "array", "items": {"type": "string"}, "default": []},
        },
        ["points"],
    ),
]


@pytest.mark.parametrize("case", TOOL_CASES, ids=lambda c: c.id)
def test_tools_from_functions(case: ToolCase) -> None:
    tool = to_tool(case.function)
    assert (tool.name, tool.description) == (case.function.__name__, case.description)
    assert dict(tool.parameters["properties"]) == case.properties
    assert tool.parameters.get("required", []) == case.required
    assert tool.parameters["additionalProperties"] is False  # extra=forbid: the function takes no others.
    assert tool.function is case.function


def test_enum_and_nested_definitions() -> None:
    assert to_tool(literals_and_enums).parameters["$defs"]["Priority"] == {"enum": [1, 2], "type": "integer"}
    point = to_tool(nested_optional_lists).parameters["$defs"]["Point"]
    assert point == {
        "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
        "required": ["x", "y"],
        "type": "object",
    }


@pytest.mark.parametrize(
    ("arguments", "errors"),
    [
        ({"points": [{"x": 1, "y": 2}]}, []),
        ({"points": [{"x": 1}], "label": None}, ["missing required argument 'points[0].y'"]),
        ({"points": [], "colour": "red"}, ["unexpected argument 'colour'"]),
    ],
    ids=["valid", "nested-missing", "extra"],
)
def test_function_tools_validate_nested_arguments(arguments: dict[str, Any], errors: list[str]) -> None:
    from llmrelay._validation import check_arguments

    assert check_arguments(to_tool(nested_optional_lists), arguments)[1] == errors


class TreeNode(pydantic.BaseModel):
    """A node of a tree."""

    name: str
    children: list[TreeNode] = []


def test_a_recursive_model_has_its_object_at_the_root() -> None:
    parameters = to_tool(TreeNode).parameters
    assert parameters["type"] == "object" and "$ref" not in parameters
    assert parameters["properties"]["children"]["items"] == {"$ref": "#/$defs/TreeNode"}
    assert parameters["$defs"]["TreeNode"]["required"] == ["name"]
