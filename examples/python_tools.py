"""Tools from Python functions and pydantic models, and what llmrelay does with invalid arguments.

    python examples/python_tools.py

Runs offline: the answers are replayed from cassettes/repair.yaml, where the model first calls
get_weather with days="three" and, once llmrelay sends back what was wrong, corrects itself.
"""

import dataclasses
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

import llmrelay
from llmrelay.testing import cassette

HERE = Path(__file__).parent


def get_weather(city: str, days: int = 1) -> str:
    """Weather forecast for a city.

    Args:
        city: The city name.
        days: How many days to forecast.
    """
    return f"{city}: sunny, 21°C"


class BookTable(BaseModel):
    """Book a table at a restaurant."""

    restaurant: str = Field(description="The restaurant's name.")
    people: int = Field(ge=1, le=12, description="How many people.")
    time: Literal["lunch", "dinner"] = "dinner"


# A function's signature and docstring, and a model's fields, become JSON schemas.
for tool in (llmrelay.to_tool(get_weather), llmrelay.to_tool(BookTable)):
    print(f"{tool.name}: {tool.description}\n  {tool.parameters}")
# A tool can be renamed, its schema kept.
reserve = dataclasses.replace(llmrelay.to_tool(BookTable), name="reserve")
print("renamed:", reserve.name)

# The recording is the demo's (one tool offered, not two): match on the endpoint, not the body.
with cassette(HERE / "cassettes" / "repair.yaml", "none", match_on=("method", "path")):
    client = llmrelay.Client("openai:gpt-4o-mini")
    resp = client.complete(
        [{"role": "user", "content": "What will the weather be in Paris for the next 3 days?"}],
        tools=[get_weather, BookTable],
    )

for number, attempt in enumerate(resp.attempts, 1):
    print(f"attempt {number}: {attempt.outcome}  {(attempt.reason or '')[:110]}")
print("tool_calls:", resp.tool_calls)
assert [a.outcome for a in resp.attempts] == ["repair", "ok"]
assert resp.tool_calls[0].arguments == {"city": "Paris", "days": 3}
