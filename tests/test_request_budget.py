"""One bound on the requests a `complete()` sends, and unmet requirements said in the user's terms (issue 13).

Before: a model that never calls a required tool took 12 requests (24 with a fallback model) and
came back empty without an error; `output=` took 12 and named the internal `final_result` tool.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import BaseModel

from llmrelay import Client, ConfigError, MissingToolCallError, OutputValidationError, RetryPolicy
from llmrelay._pipeline.flow import DEFAULT_MAX_REQUESTS
from llmrelay._types import NativeCall
from llmrelay.testing import FakeAdapter

NEVER = ["I would rather not."] * 40  # A model that never complies.


def get_weather(city: str) -> str:
    """The forecast for a city."""
    return "sunny"


class Forecast(BaseModel):
    """A forecast."""

    city: str
    sky: str


@dataclass(frozen=True)
class Case:
    id: str
    options: dict[str, Any]
    call: dict[str, Any]
    requests: int
    error: type[Exception] | None
    says: tuple[str, ...] = ()
    never_says: tuple[str, ...] = ("final_result",)
    script: list[Any] = field(default_factory=lambda: list(NEVER))


CASES = [
    Case(
        "required call never made: the default bound, then an error naming the tools",
        {},
        {"tools": [get_weather], "tool_choice": "required"},
        DEFAULT_MAX_REQUESTS,
        MissingToolCallError,
        ("tool_choice='required' (get_weather)", f"{DEFAULT_MAX_REQUESTS} requests"),
    ),
    Case(
        "a named tool never called",
        {"max_repairs": 0},
        {"tools": [get_weather], "tool_choice": "get_weather"},
        4,  # One request per mode, no repairs.
        MissingToolCallError,
        ("tool_choice='get_weather'",),
    ),
    Case(
        "with a fallback model: still one bound for the whole request",
        {"fallback_models": ["openai:gpt-4o"]},
        {"tools": [get_weather], "tool_choice": "required"},
        DEFAULT_MAX_REQUESTS,
        MissingToolCallError,
    ),
    Case(
        "output= never given: the bound, then an error naming the user's model",
        {},
        {"output": Forecast},
        DEFAULT_MAX_REQUESTS,
        OutputValidationError,
        ("no valid Forecast", "never gave a Forecast"),
    ),
    Case(
        "output= with tools never given",
        {"max_requests": 3},
        {"output": Forecast, "tools": [get_weather]},
        3,
        OutputValidationError,
        ("Forecast",),
    ),
    Case(
        "max_requests=1: one request",
        {"max_requests": 1},
        {"tools": [get_weather], "tool_choice": "required"},
        1,
        MissingToolCallError,
    ),
    Case(
        "a required call made after one repair: no error",
        {},
        {"tools": [get_weather], "tool_choice": "required"},
        2,
        None,
        script=["Let me see.", NativeCall("get_weather", {"city": "Paris"}, "c1")],
    ),
    Case("no requirement: one answer, accepted", {}, {"tools": [get_weather]}, 1, None),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_requests_are_bounded_and_unmet_requirements_raise(case: Case) -> None:
    fake = FakeAdapter(case.script)
    client = Client("openai:gpt-4o-mini", adapter=fake, **case.options)
    if case.error is None:
        client.complete("Weather in Paris?", **case.call)
        assert len(fake.requests) == case.requests
        return
    with pytest.raises(case.error) as caught:
        client.complete("Weather in Paris?", **case.call)
    assert len(fake.requests) == case.requests
    message = str(caught.value)
    assert all(text in message for text in case.says), message
    assert not any(text in message for text in case.never_says), message
    completion = caught.value.completion  # type: ignore[attr-defined]
    assert completion is not None and len(completion.attempts) == case.requests


def test_transient_retries_are_the_retry_policys_not_the_budget() -> None:
    from llmrelay import RateLimitError

    fake = FakeAdapter([RateLimitError("slow down", provider="openai"), "Sunny."])
    client = Client("openai:gpt-4o-mini", adapter=fake, max_requests=1, retry=RetryPolicy(sleep=lambda _: None))
    assert client.complete("Weather in Paris?").content == "Sunny."


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3"])
def test_max_requests_must_be_a_whole_number_of_at_least_one(bad: object) -> None:
    with pytest.raises(ConfigError, match="max_requests"):
        Client("openai:gpt-4o-mini", adapter=FakeAdapter(), max_requests=bad)  # type: ignore[arg-type]
