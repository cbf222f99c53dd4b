"""An app's own tests, replaying a cassette: copy this file next to your tests and adapt it.

    python -m pytest examples/test_my_app.py

The `cassette` marker and fixture come from llmrelay's pytest plugin (installed with llmrelay;
the cassettes need the `testing` extra). A marker's path is relative to the test file. In CI
(`CI` set) cassettes only replay; elsewhere a missing one is recorded on the first run
(`--llmrelay-record-mode=once|new_episodes|all|none` chooses).
"""

import pytest

import llmrelay
from llmrelay.testing import Cassette


def get_weather(city: str, days: int = 1) -> str:
    """Weather forecast for a city.

    Args:
        city: The city name.
        days: How many days to forecast.
    """
    return f"{city}: sunny, 21°C"


def plan_trip(client: llmrelay.Client, city: str) -> list[llmrelay.ToolCall]:
    """The app's code under test: asks the model which tools to call."""
    resp = client.complete(
        [{"role": "user", "content": f"What will the weather be in {city} for the next 3 days?"}],
        tools=[get_weather],
    )
    return resp.tool_calls


@pytest.fixture
def client() -> llmrelay.Client:  # A replay needs no API key.
    return llmrelay.Client("openai:gpt-4o-mini")


@pytest.mark.cassette("cassettes/native_openai.yaml")
def test_plan_trip_asks_for_the_weather(client: llmrelay.Client, cassette: Cassette) -> None:
    calls = plan_trip(client, "Paris")
    assert [(c.name, c.arguments) for c in calls] == [("get_weather", {"city": "Paris", "days": 3})]
    assert cassette.play_count == 1


@pytest.mark.cassette("cassettes/repair.yaml")
def test_invalid_arguments_are_repaired_before_the_app_sees_them(client: llmrelay.Client) -> None:
    calls = plan_trip(client, "Paris")
    assert calls[0].arguments["days"] == 3  # the model's first answer said "three"
