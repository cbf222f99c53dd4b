"""Compact unquoted keys (`{a:1,b:2}`): quoted by str methods and read in pieces, as `_KEY` would read them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmrelay.normalize import LenientJSONError, _lenient_keys, loads_lenient

CASES = [
    ("{a:1,b:2}", True, {"a": 1, "b": 2}),
    ("{a:{b:[1],c:true},d:null}", True, {"a": {"b": [1], "c": True}, "d": None}),
    ("{$ref:1,_x-y:2,k9:3}", True, {"$ref": 1, "_x-y": 2, "k9": 3}),
    ("{a:1,a:2,b:3}", True, {"a": 2, "b": 3}),  # a repeated key keeps its place and its last value
    ("{a:True,b:None}", True, {"a": True, "b": None}),  # Python literals, replaced first
    ('{a:"x"}', False, {"a": "x"}),  # a string: the `_KEY` way
    ("{a:1, b:2}", False, {"a": 1, "b": 2}),  # a space before a key
    ("{a:[1,2]}", False, {"a": [1, 2]}),  # a comma followed by no key
    ("{1a:2}", False, None),  # not an identifier: refused either way
    ("{a:1}}", True, None),
    ("{a:1,b:}", True, None),
]


@pytest.mark.parametrize(("text", "compact", "expected"), CASES)
def test_compact_keys(text: str, compact: bool, expected: Any) -> None:
    assert _lenient_keys.compact(text.replace("True", "true").replace("None", "null")) is compact
    if expected is None:
        with pytest.raises(LenientJSONError):
            loads_lenient(text)
    else:
        assert loads_lenient(text) == expected


def _outcome(text: str) -> tuple[str, Any]:
    try:
        value = loads_lenient(text)
    except LenientJSONError as exc:
        return str(exc), None
    return "ok", (value, list(value) if isinstance(value, dict) else None)


_KEYS = st.sampled_from(["a", "b", "k1", "$r", "_-", "True", "1"])
_VALUES = st.sampled_from(["1", "true", "None", "[]", "[1]", "{}", "x", "}", "]", "["])


@st.composite
def _compact_objects(draw: st.DrawFn) -> str:
    members = draw(st.lists(st.tuples(_KEYS, _VALUES | st.builds("{{{}:{}}}".format, _KEYS, _VALUES)), max_size=30))
    text = "{" + ",".join(f"{key}:{value}" for key, value in members) + "}"
    return text + draw(st.sampled_from(["", "}", ",a:1}", " "]))


@settings(max_examples=800, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_compact_objects())
def test_pieces_and_str_methods_read_as_the_key_regex(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny pieces, against the `_KEY` regex on the whole text: the same value, key order and errors."""
    with monkeypatch.context() as patched:
        patched.setattr(_lenient_keys, "PIECE", 1)
        in_pieces = _outcome(text)
        patched.setattr(_lenient_keys, "compact", lambda _: False)
        assert _outcome(text) == in_pieces
