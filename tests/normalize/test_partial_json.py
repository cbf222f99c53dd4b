"""`read_partial`: what is certain of a JSON object whose text is still arriving."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmrelay.normalize._growing_json import GrowingObject
from llmrelay.normalize._partial_json import read_partial

# (text so far, what can be read of it)
CASES: list[tuple[str, dict[str, Any] | None]] = [
    ("", None),
    ("   ", None),
    ("{", None),
    ('{"ci', None),
    ('{"city"', None),
    ('{"city": ', None),
    ('{"city": "', {"city": ""}),
    ('{"city": "Par', {"city": "Par"}),
    ('{"city": "Paris"', {"city": "Paris"}),
    ('{"city": "Paris", "da', {"city": "Paris"}),
    ('{"city": "Paris", "days": 1', {"city": "Paris"}),  # 1 may become 12.
    ('{"city": "Paris", "days": 12,', {"city": "Paris", "days": 12}),
    ('{"days": -', None),
    ('{"t": 1.', None),
    ('{"t": 2.5e', None),
    ('{"t": 2.5e3}', {"t": 2500.0}),
    ('{"ok": tr', None),
    ('{"ok": true', {"ok": True}),
    ('{"ok": false, "x": nul', {"ok": False}),
    ('{"ok": null}', {"ok": None}),
    ("{}", {}),
    (" {} ", {}),
    ('{"a": {"b": [1, 2, {"c": "d', {"a": {"b": [1, 2, {"c": "d"}]}}),
    ('{"a": [1, 2', {"a": [1]}),
    ('{"a": []', {"a": []}),
    ('{"a": {', {"a": {}}),
    # Escapes, cut anywhere: a half-written escape is left out until it is whole.
    ('{"s": "line\\', {"s": "line"}),
    ('{"s": "line\\n', {"s": "line\n"}),
    ('{"s": "caf\\u00', {"s": "caf"}),
    ('{"s": "caf\\u00e9', {"s": "café"}),
    ('{"s": "a\\\\', {"s": "a\\"}),
    ('{"s": "a\\\\u00', {"s": "a\\u00"}),
    ('{"s": "\\ud83d', {"s": ""}),  # Half of a surrogate pair: wait for the other half.
    ('{"s": "\\ud83d\\ude00', {"s": "\U0001f600"}),
    ('{"s": "say \\"hi\\"', {"s": 'say "hi"'}),
    ('{"s": "tab\tinside"}', {"s": "tab\tinside"}),
    # Not the start of one object.
    ("[1, 2]", None),
    ('"text"', None),
    ("hello", None),
    ('{"a": 1}}', None),
    ('{"a" 1}', None),
    ('{"a": 1 2}', None),
    ('{"a": "\\x"}', None),
    ("{a: 1}", None),
    ('{"a": @}', None),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_read_partial(text: str, expected: dict[str, Any] | None) -> None:
    assert read_partial(text) == expected


def test_deep_nesting_is_unreadable_not_a_crash() -> None:
    assert read_partial('{"a": ' + "[" * 100_000) is None


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)


def is_part_of(partial: Any, whole: Any) -> bool:
    """Whether `partial` is what a prefix of `whole`'s text could show: nothing that is not in `whole`."""
    if isinstance(whole, dict):
        return isinstance(partial, dict) and all(k in whole and is_part_of(v, whole[k]) for k, v in partial.items())
    if isinstance(whole, list):
        return isinstance(partial, list) and len(partial) <= len(whole) and all(map(is_part_of, partial, whole))
    if isinstance(whole, str):
        return isinstance(partial, str) and whole.startswith(partial)
    return partial == whole


@settings(max_examples=200, deadline=None)
@given(arguments=st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5), ascii_only=st.booleans())
def test_every_prefix_shows_only_what_the_whole_says(arguments: dict[str, Any], ascii_only: bool) -> None:
    """Every prefix of a real object's text reads as part of it, and the whole text as all of it."""
    text = json.dumps(arguments, ensure_ascii=ascii_only)
    for end in range(len(text)):
        partial = read_partial(text[:end])
        assert partial is None or is_part_of(partial, arguments), text[:end]
    assert read_partial(text) == arguments


# --- the growing reader: read_partial's reading, from the new text only (issue 13) ----------------


def growing_readings(text: str, step: int) -> list[tuple[str, dict[str, Any] | None]]:
    """Each prefix `GrowingObject` was given (every `step` characters), with its reading."""
    reader = GrowingObject()
    return [(text[:end], reader.read(text[:end])) for end in [*range(0, len(text), step), len(text)]]


@pytest.mark.parametrize("step", [1, 3, 7])
@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_the_growing_reader_reads_every_prefix_as_read_partial(text: str, expected: object, step: int) -> None:
    for prefix, reading in growing_readings(text, step):
        assert reading == read_partial(prefix), prefix


@settings(max_examples=150, deadline=None)
@given(
    arguments=st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5),
    ascii_only=st.booleans(),
    step=st.integers(1, 9),
    noise=st.sampled_from(["", " ", "\n  "]),
)
def test_the_growing_reader_agrees_with_read_partial_on_real_objects(
    arguments: dict[str, Any], ascii_only: bool, step: int, noise: str
) -> None:
    text = json.dumps(arguments, ensure_ascii=ascii_only, separators=("," + noise, ":" + noise))
    for prefix, reading in growing_readings(text, step):
        assert reading == read_partial(prefix), prefix


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet='{}[]":,\\ u0123456789abcdeftrulnsx-.E\n\ud83d', max_size=40), step=st.integers(1, 5))
def test_the_growing_reader_agrees_with_read_partial_on_any_text(text: str, step: int) -> None:
    for prefix, reading in growing_readings('{"a": ' + text, step):
        assert reading == read_partial(prefix), prefix


def test_the_growing_reader_starts_again_on_a_text_that_does_not_extend_the_last() -> None:
    reader = GrowingObject()
    assert reader.read('{"a": "x') == {"a": "x"}
    assert reader.read('{"b": 1,') == {"b": 1}


def test_the_growing_reader_refuses_deep_nesting() -> None:
    reader = GrowingObject()
    text = '{"a": ' + "[" * 1000
    assert [reader.read(text[:end]) for end in (7, 300, len(text))] == [{"a": []}, None, None]
