"""Quickstart: one call with a tool, and the canonical answer.

    python examples/quickstart.py

Runs offline: the answer is replayed from cassettes/native_openai.yaml (see the note at its top).
Against the real API, set OPENAI_API_KEY and remove the `with cassette(...)` line.
"""

from pathlib import Path

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


with cassette(HERE / "cassettes" / "native_openai.yaml", "none"):
    client = llmrelay.Client("openai:gpt-4o-mini")
    resp = client.complete(
        [{"role": "user", "content": "What will the weather be in Paris for the next 3 days?"}],
        tools=[get_weather],
    )

print("content:        ", repr(resp.content))
print("tool_calls:     ", resp.tool_calls)
print("needs_more_work:", resp.needs_more_work)
print("mode / finish:  ", resp.mode, "/", resp.finish_reason)
print("usage:          ", resp.usage)
assert resp.tool_calls[0].arguments == {"city": "Paris", "days": 3}
