"""Swapping providers through llmrelay.toml: the same code, another profile.

    python examples/swap_providers.py                 # every profile below, in turn
    LLMRELAY_PROFILE=claude python app.py             # how an app picks one without code changes

Runs offline: each provider's answer is replayed from cassettes/ (see the note at the top of each).
"""

import os
from pathlib import Path

import llmrelay
from llmrelay.testing import cassette

HERE = Path(__file__).parent
for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GROQ_API_KEY", "GEMINI_API_KEY"):
    os.environ.setdefault(key, "offline-replay")  # llmrelay.toml names these variables; the replay needs no real key


def get_weather(city: str, days: int = 1) -> str:
    """Weather forecast for a city.

    Args:
        city: The city name.
        days: How many days to forecast.
    """
    return f"{city}: sunny, 21°C"


QUESTION = [{"role": "user", "content": "What will the weather be in Paris for the next 3 days?"}]

for profile, recording in [("openai", "native_openai"), ("claude", "native_anthropic"), ("gemini", "native_gemini")]:
    client = llmrelay.Client.from_config(HERE / "llmrelay.toml", profile=profile)
    # The profiles add parameters (temperature...) the demo's recordings were made without.
    with cassette(HERE / "cassettes" / f"{recording}.yaml", "none", match_on=("method", "path")):
        resp = client.complete(QUESTION, tools=[get_weather])
    calls = ", ".join(f"{c.name}({c.arguments})" for c in resp.tool_calls)
    print(f"{profile:>7}: {resp.provider}:{resp.model}  content={resp.content!r}  tool_calls=[{calls}]")
    assert [(c.name, c.arguments) for c in resp.tool_calls] == [("get_weather", {"city": "Paris", "days": 3})]
