"""The shared JSON call reader the markup strategies use: `read_json_calls`."""

from __future__ import annotations

from typing import Any

import pytest

from llmrelay._envelope import RejectedCall
from llmrelay.normalize._calls import read_json_calls
from llmrelay.normalize._types import Candidate, Parsed

WHERE = "after [MARK]"

# (id, body, what is read: ("call", name) or (kind, name) of each reading, in order)
READINGS: list[tuple[str, str, list[tuple[str, Any]]]] = [
    ("one call object", '{"name": "f", "arguments": {"a": 1}}', [("call", "f")]),
    ("an array of calls", '[{"name": "f", "arguments": {}}, {"name": "g"}]', [("call", "f"), ("call", "g")]),
    ("field-name variants", '{"tool_name": "f", "parameters": {"a": 1}}', [("call", "f")]),
    ("lenient JSON", "{'name': 'f', 'arguments': {'a': 1},}", [("call", "f")]),
    ("cut off mid-JSON", '{"name": "f", "arguments": {"a": "x', [("truncated", None)]),
    ("not JSON at all", "{name f}", [("malformed", None)]),
    ("an object without a tool name", '{"city": "Paris"}', [("malformed", None)]),
    (
        "an array item without a tool name, between calls",
        '[{"name": "f"}, 42, {"name": "g"}]',
        [("call", "f"), ("malformed", None), ("call", "g")],
    ),
    ("arguments cut off inside their JSON string", '{"name": "f", "arguments": "{\\"a\\": "}', [("truncated", "f")]),
    ("an empty array reads nothing", "[]", []),
]


def summarize(readings: list[Candidate | RejectedCall]) -> list[tuple[str, Any]]:
    return [("call", r.name) if isinstance(r, Candidate) else (r.kind, r.name) for r in readings]


@pytest.mark.parametrize(("body", "expected"), [(b, e) for _, b, e in READINGS], ids=[i for i, _, _ in READINGS])
def test_read_json_calls(body: str, expected: list[tuple[str, Any]]) -> None:
    assert summarize(read_json_calls(body, WHERE)) == expected


@pytest.mark.parametrize("body", ['{"a": "x', "{name f}", '{"city": "Paris"}', "[1]"])
def test_a_rejection_names_where_the_json_was(body: str) -> None:
    (rejection,) = read_json_calls(body, WHERE)
    assert isinstance(rejection, RejectedCall)
    assert WHERE in rejection.reason


def test_an_object_that_is_no_call_is_shown_in_the_reason() -> None:
    (rejection,) = read_json_calls('{"city": "Paris"}', WHERE)
    assert isinstance(rejection, RejectedCall)
    assert rejection.arguments == {"city": "Paris"}
    assert '{"city": "Paris"}' in rejection.reason


def test_parsed_from_readings_sorts_calls_from_rejections_in_order() -> None:
    readings = read_json_calls('[{"name": "f"}, 1, {"name": "g"}, 2]', WHERE)
    parsed = Parsed.from_readings(readings, text="prose")
    assert [c.name for c in parsed.calls] == ["f", "g"]
    assert [r.arguments for r in parsed.rejected] == [1, 2]
    assert parsed.text == "prose"
