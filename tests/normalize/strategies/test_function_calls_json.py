"""A JSON array of calls inside `<function_calls>` tags (seed 000, format 2)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

X = "function_calls_json"
LIST_DIR = '<function_calls>[{"name": "list_dir", "arguments": {"path": "."}}]</function_calls>'

CASES = [
    Case("single call (seed 000)", LIST_DIR, [("list_dir", {"path": "."})], format=X),
    Case(
        "several calls in one array, on their own lines",
        '<function_calls>\n[{"name": "a", "arguments": {}},\n {"name": "b", "arguments": {"x": 1}}]\n</function_calls>',
        [("a", {}), ("b", {"x": 1})],
        format=X,
    ),
    Case(
        "prose before, between and after two blocks",
        f"I will list it.\n{LIST_DIR}\nthen\n{LIST_DIR.replace('.', '/tmp')}\nDone.",
        [("list_dir", {"path": "."}), ("list_dir", {"path": "/tmp"})],
        content="I will list it.\nthen\nDone.",
        format=X,
    ),
    Case(
        "a single object instead of an array",
        '<function_calls>{"name": "list_dir", "arguments": {"path": "."}}</function_calls>',
        [("list_dir", {"path": "."})],
        format=X,
    ),
    Case(
        "arguments as a JSON-encoded string, and an id",
        '<function_calls>[{"id": "c1", "name": "list_dir", "arguments": "{\\"path\\": \\".\\"}"}]</function_calls>',
        [("list_dir", {"path": "."})],
        ids=["c1"],
        format=X,
    ),
    Case(
        "the close tag is missing (a stop sequence)",
        'Listing.\n<function_calls>\n[{"name": "list_dir", "arguments": {"path": "."}}]\n',
        [("list_dir", {"path": "."})],
        content="Listing.",
        format=X,
    ),
    Case(
        "unreadable JSON is malformed",
        "<function_calls>[{name: list_dir, arguments: .}]</function_calls>",
        rejected=["malformed"],
        format=X,
    ),
    Case(
        "an array item that is not a call is malformed, the others are read",
        '<function_calls>[{"name": "a", "arguments": {}}, 42]</function_calls>',
        [("a", {})],
        rejected=["malformed"],
        format=X,
    ),
    Case(
        "cut off mid-array is truncated",
        '<function_calls>[{"name": "list_dir", "arguments": {"path": "/ho',
        rejected=["truncated"],
        format=X,
    ),
    plain("the tag mentioned in prose", "Put the calls between <function_calls> and </function_calls>."),
    plain("prose inside the tags is not JSON", "<function_calls>none needed</function_calls>"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_function_calls_json(case: Case) -> None:
    check(case)


def test_200k_unclosed_open_tags_is_linear() -> None:
    text = "<function_calls>" * 200_000
    started = time.perf_counter()
    result = parse_response(text)
    elapsed = time.perf_counter() - started
    assert (result.tool_calls, result.content) == ([], text)
    assert elapsed < NO_BLOWUP_SECONDS
