from __future__ import annotations

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
