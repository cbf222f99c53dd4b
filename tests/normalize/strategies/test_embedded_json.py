"""Tool-shaped JSON objects inside prose: the last resort."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

E = "embedded_json"
CALL = '{"name": "get_weather", "arguments": {"city": "Paris"}}'

CASES = [
    Case(
        "call after prose",
        f"Let me check.\n{CALL}",
        [("get_weather", {"city": "Paris"})],
        content="Let me check.",
        format=E,
    ),
    Case(
        "prose before, between and after",
        f"First {CALL} then {CALL.replace('Paris', 'Rome')} done.",
        [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome"})],
        content="First\nthen\ndone.",
        format=E,
    ),
    Case(
        "envelope in prose keeps its content and flag",
        'Okay. {"toolCalls": [], "content": "Nothing to do.", "needsMoreWork": false}',
        content="Okay.\nNothing to do.",
        format=E,
        needs_more_work=False,
    ),
    Case(
        "Llama semicolon-separated calls are read by the Llama strategy",
        '{"name": "a", "parameters": {}}; {"name": "b", "parameters": {"x": 1}}',
        [("a", {}), ("b", {"x": 1})],
        format="llama",
        strict=True,
    ),
    Case(
        "lenient JSON in prose",
        "Sure: {'name': 'f', 'arguments': {'on': True}} ok",
        [("f", {"on": True})],
        content="Sure:\nok",
        format=E,
    ),
    Case(
        "a data object beside a call stays in the content",
        f'Stats {{"rows": 2}} and {CALL}',
        [("get_weather", {"city": "Paris"})],
        content='Stats {"rows": 2} and',
        format=E,
    ),
    Case(
        "an unbalanced brace in prose before the call",
        f"Hmm :-{{ let me see. {CALL}",
        [("get_weather", {"city": "Paris"})],
        content="Hmm :-{ let me see.",
        format=E,
    ),
    Case(
        "strict: a quoted example is rejected and kept in the text",
        f"You could send {CALL} to the API.",
        content=f"You could send {CALL} to the API.",
        rejected=["embedded"],
        format=E,
        strict=True,
        needs_more_work=None,
    ),
    Case(
        "seed 003 error object in prose",
        'Sorry. {"type": "error", "code": "invalid_args", "message": "Bad path"}',
        content="Sorry.",
        format=E,
    ),
    plain("braces in prose", "Use {name} and {{double}} placeholders in the template {like this}."),
    plain("a data object in prose", 'The result was {"temperature": 21, "unit": "C"} today.'),
    plain("code in another language", "In Rust: `fn main() { let x = vec![1, 2]; }` and in C: `if (x) { y(); }`"),
    plain("JSON in a python fence", f"```python\nrequests.post(url, json={CALL})\n```"),
    plain("a definition shown to the user", 'Define it as {"name": "f", "description": "d", "parameters": {}}.'),
    Case(
        "objects separated only by newlines are the whole answer, explicit even in strict mode",
        '{"name": "a", "arguments": {}}\n{"name": "b", "arguments": {}}',
        [("a", {}), ("b", {})],
        format=E,
        strict=True,
    ),
    plain("truncated garbage", 'Result: {"name": "f", "arguments": {"a": [1, 2'),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_embedded_json(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    ["{" * 1_000_000, "[" * 1_000_000, "}{" * 500_000, "{}" * 500_000, "x" * 1_000_000 + CALL],
    ids=["open braces", "open brackets", "reversed", "empty objects", "call at the end of 1 MB"],
)
def test_hostile_prose_is_linear(text: str) -> None:
    started = time.perf_counter()
    parse_response(text)
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
