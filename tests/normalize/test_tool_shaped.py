"""`may_be_tool_shaped`: the text check that lets `embedded_json` skip decoding objects that are data.

It must never say no to an object `interpret_json` reads as a call, an envelope, a Gemini part
or an error: checked on a table, on every object of the normalizer's case tables, and on
generated objects built from every key the reader knows.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmrelay.normalize._calls import (
    _ARG_KEYS,
    _ID_KEYS,
    _NAME_KEYS,
    _WRAPPER_KEYS,
    ENVELOPE_CALL_KEYS,
    ENVELOPE_MORE_KEYS,
    interpret_json,
    may_be_tool_shaped,
)
from llmrelay.normalize._lenient_json import LenientJSONError, loads_lenient
from llmrelay.normalize._scan import iter_json_spans

from .test_incremental import table_cases

# (id, the text of an object, whether it may be tool-shaped)
SHAPES: list[tuple[str, str, bool]] = [
    ("the canonical call", '{"name": "f", "arguments": {}}', True),
    ("a bare name is data", '{"name": "Alice", "age": 3}', False),
    ("dense data items", '{"id": 1, "name": "item", "tags": ["a", "b"], "ok": true, "q": "say \\"hi\\""}', False),
    ("single-quoted data", "{'id': 1, 'name': 'item'}", False),
    ("a name key that needs no arguments", '{"tool_name": "get_time"}', True),
    ("a recipient name", '{"recipient_name": "functions.f"}', True),
    ("a name with a type", '{"type": "function", "name": "f"}', True),
    ("an error", '{"type": "error", "message": "no"}', True),
    ("a wrapper", '{"functionCall": {"name": "f"}}', True),
    ("an envelope flag alone", '{"needs_more_work": false}', True),
    ("an envelope", '{"toolCalls": [], "content": "x"}', True),
    ("a Gemini response", '{"candidates": [{"content": {"parts": []}}]}', True),
    ("a key spelled with an escape", '{"\\u0074ool_name": "f"}', True),
    ("other escapes spell no key", '{"path": "C:\\\\tmp\\n", "name": "x"}', False),
    ("an empty object", "{}", False),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in SHAPES], ids=[i for i, _, _ in SHAPES])
def test_may_be_tool_shaped(text: str, expected: bool) -> None:
    assert may_be_tool_shaped(text) is expected
    assert may_be_tool_shaped(f"prose {text} prose", 6, 6 + len(text)) is expected  # Only the span is read.


def read_as_tool_shaped(value: object) -> bool:
    """Whether `interpret_json` finds anything in `value`, read as explicit or not."""
    for explicit in (True, False):
        parsed = interpret_json(value, explicit=explicit)
        if parsed is not None and parsed.found_anything:
            return True
    return False


def test_no_object_of_the_case_tables_that_is_tool_shaped_is_skipped() -> None:
    checked = 0
    for case in table_cases():
        for start, end in iter_json_spans(case.text, nested=True):
            if case.text[start] != "{":
                continue
            try:
                value = loads_lenient(case.text[start:end])
            except LenientJSONError:
                continue
            if read_as_tool_shaped(value):
                checked += 1
                assert may_be_tool_shaped(case.text, start, end), (case.id, case.text[start:end])
    assert checked > 200  # The tables hold hundreds of calls and envelopes: the check ran on them.


# Every key the reader looks at, and keys it does not.
KEYS = sorted(
    {*_NAME_KEYS, *_ARG_KEYS, *_ID_KEYS, *_WRAPPER_KEYS, *ENVELOPE_CALL_KEYS, *ENVELOPE_MORE_KEYS}
    | {"type", "index", "candidates", "content", "parts", "text", "functionCall", "message", "code", "description"}
    | {"city", "q", "tags", "note"}
)
SCALARS = st.sampled_from(["f", "get_weather", "Alice Smith", "error", "function", "action", "true", "", 1, True, None])


def objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.sampled_from(KEYS), children, max_size=4)


VALUES = st.recursive(SCALARS, lambda children: objects(children) | st.lists(children, max_size=3), max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(value=objects(VALUES), escaped=st.booleans())
def test_an_object_skipped_is_never_tool_shaped(value: dict[str, Any], escaped: bool) -> None:
    text = json.dumps(value)
    if escaped:  # Keys spelled with escapes: `\u0074ype` is `type`.
        text = json.dumps({"".join(f"\\u{ord(c):04x}" for c in k): v for k, v in value.items()}).replace("\\\\", "\\")
    if not may_be_tool_shaped(text):
        assert not read_as_tool_shaped(json.loads(text))
