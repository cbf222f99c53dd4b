"""`iter_json_spans`, `find_balanced_end` and `json_prefix`: tables, a brute-force reference, and speed."""

from __future__ import annotations

import itertools
import json
import time
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmrelay.normalize._scan import find_balanced_end, iter_json_spans, json_prefix
from tests.conftest import NO_BLOWUP_SECONDS

Span = tuple[int, int]


def found(text: str, **kwargs: object) -> list[str]:
    return [text[a:b] for a, b in iter_json_spans(text, **kwargs)]  # type: ignore[arg-type]


SPANS: list[tuple[str, str, list[str]]] = [
    (
        "one object in prose",
        'I\'ll search. {"name": "s", "arguments": {"q": 1}} Done.',
        ['{"name": "s", "arguments": {"q": 1}}'],
    ),
    ("braces in strings do not count", 'x {"q": "a } ] { ["} y', ['{"q": "a } ] { ["}']),
    ("escaped quote in a string", r'{"q": "say \"}\""} z', [r'{"q": "say \"}\""}']),
    ("apostrophes are prose", "don't {\"a\": 1} won't", ['{"a": 1}']),
    ("quotes outside regions are prose", 'He said "use {x}" ok', ["{x}"]),
    ("an array", "calls: [1, [2, 3]] end", ["[1, [2, 3]]"]),
    ("several, in order", '{"a": 1} and [2] then {"b": {}}', ['{"a": 1}', "[2]", '{"b": {}}']),
    ("adjacent", "{}{}[]", ["{}", "{}", "[]"]),
    ("no brackets", "plain prose, nothing else", []),
    ("stray opener hides nothing", 'a { stray {"a": 1} and [2] more', ['{"a": 1}', "[2]"]),
    ("stray closers are skipped", '}}] {"a": 1} ]]', ['{"a": 1}']),
    ("wrong closer ends the attempt", 'x {"a": [1}, then {"b": 2}', ['{"b": 2}']),
    ("wrong closer keeps what closed", '{"a": {"b": 1} ]  {"c": 2}', ['{"b": 1}', '{"c": 2}']),
    ("missing final brace", '{"a": {"b": {"c": 1}}', ['{"b": {"c": 1}}']),
    ("single quotes are not strings", "{'a': '}'} x", ["{'a': '}"]),
    ("unclosed quote: quotes stop counting", 'x {"a": "oops} {"b": 1} [2]', ['{"a": "oops} {"b": 1}', "[2]"]),
    ("long valid JSON", "x " + json.dumps([{"a": [i]} for i in range(100)]) + " y", None),
]


@pytest.mark.parametrize(("text", "expected"), [pytest.param(t, e, id=i) for i, t, e in SPANS])
def test_spans(text: str, expected: list[str] | None) -> None:
    assert found(text) == (expected if expected is not None else [text[2:-2]])


NESTED: list[tuple[str, list[str]]] = [
    (
        '{"a": {"b": [1, {"c": 2}]}} {"d": 3}',
        ['{"a": {"b": [1, {"c": 2}]}}', '{"b": [1, {"c": 2}]}', '[1, {"c": 2}]', '{"c": 2}', '{"d": 3}'],
    ),
    ("{{{{{1}}}}}", ["{{{{{1}}}}}", "{{{{1}}}}", "{{{1}}}", "{{1}}"]),  # three levels inside, no more
    ("[[1], [2]] [", ["[[1], [2]]", "[1]", "[2]"]),
]


@pytest.mark.parametrize(("text", "expected"), NESTED)
def test_nested_spans_come_after_their_region(text: str, expected: list[str]) -> None:
    assert found(text, nested=True) == expected


def test_nested_lets_a_caller_look_inside_only_what_does_not_parse() -> None:
    text = 'Example: {not json {"name": "f"}} and {"name": "g", "x": {"y": 1}}'
    read, end = [], -1
    for start, stop in iter_json_spans(text, nested=True):
        if start < end:
            continue  # inside a region already read
        try:
            read.append(json.loads(text[start:stop]))
        except ValueError:
            continue
        end = stop
    assert read == [{"name": "f"}, {"name": "g", "x": {"y": 1}}]


@pytest.mark.parametrize(
    ("text", "start", "expected"),
    [
        ('{"a": [1, {"b": "}"}]} tail', 0, 22),
        ('TOOL_CALL {"a": 1}', 10, 18),
        ("[1, [2]]", 4, 7),
        ('{"a": [1}', 0, None),  # wrong closer
        ('{"a": 1', 0, None),  # never closes
        ("x{}", 0, None),  # not an opener
        ("{}", 5, None),  # past the end
        ("{'a': '}'}", 0, 8),  # single quotes are not strings
    ],
)
def test_find_balanced_end(text: str, start: int, expected: int | None) -> None:
    assert find_balanced_end(text, start) == expected


PREFIXES: list[tuple[str, tuple[str, str] | None]] = [
    ('{"a": 1} then prose', ('{"a": 1}', " then prose")),
    (" \n [1, [2]]</s>", ("[1, [2]]", "</s>")),
    ('{"a": "}"}{"b": 2}', ('{"a": "}"}', '{"b": 2}')),
    ('{"a": [1, 2', ('{"a": [1, 2', "")),  # Cut off: the JSON runs to the end.
    ("prose {}", None),
    ("", None),
    ("   ", None),
]


@pytest.mark.parametrize(("text", "expected"), PREFIXES)
def test_json_prefix(text: str, expected: tuple[str, str] | None) -> None:
    assert json_prefix(text) == expected


def test_max_candidates_bounds_the_spans() -> None:
    assert len(list(iter_json_spans("{}" * 5000, max_candidates=10))) == 10
    assert len(list(iter_json_spans("{}" * 5000))) == 1000


def test_start() -> None:
    text = '{"a": 1} {"b": 2}'
    assert list(iter_json_spans(text, 1)) == [(9, 17)]


# --- The same answers as a brute-force reference -----------------------------------------

CLOSER = {"{": "}", "[": "]"}


def _string_end(text: str, quote: int, end: int) -> int | None:
    i = quote + 1
    while i < end:
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    return None


def reference(text: str, pos: int = 0, end: int | None = None) -> tuple[list[Span], dict[int, int | None]]:
    """One character at a time: the maximal regions, and where each attempt's opener closes."""
    end = len(text) if end is None else end
    spans: list[Span] = []
    closes: dict[int, int | None] = {}
    strings = True
    while True:
        while pos < end and text[pos] not in "{[":
            pos += 1
        if pos >= end:
            return spans, closes
        opener, stack, regions, pos = pos, [], [], pos
        closes[opener] = None
        while pos < end:
            char = text[pos]
            if char == '"' and strings:
                after = _string_end(text, pos, end)
                if after is None:
                    strings = False
                    pos += 1
                else:
                    pos = after
            elif char in "{[":
                stack.append(pos)
                pos += 1
            elif char in "}]":
                if CLOSER[text[stack[-1]]] != char:
                    pos += 1
                    break
                start = stack.pop()
                while regions and regions[-1][0] >= start:
                    regions.pop()
                regions.append((start, pos + 1))
                pos += 1
                if not stack:
                    closes[opener] = pos
                    break
            else:
                pos += 1
        spans += regions


def reference_nested(text: str, pos: int, end: int, levels: int) -> list[Span]:
    out: list[Span] = []
    for start, stop in reference(text, pos, end)[0]:
        out.append((start, stop))
        if levels:
            out += reference_nested(text, start + 1, stop - 1, levels - 1)
    return out


bracketish = st.text(st.sampled_from(list("{}[]\"\\ a:,'")), max_size=60)
with_json = st.builds(
    lambda a, v, b: a + json.dumps(v) + b,
    bracketish,
    st.recursive(
        st.integers() | st.text("{}[]\"'\\ ", max_size=3),
        lambda c: st.lists(c) | st.dictionaries(st.text(max_size=3), c),
    ),
    bracketish,
)


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@given(bracketish | with_json)
def test_same_as_the_reference(text: str) -> None:
    assert list(iter_json_spans(text, max_candidates=10**9)) == reference(text)[0]
    assert list(iter_json_spans(text, max_candidates=10**9, nested=True)) == reference_nested(text, 0, len(text), 3)
    for opener, closes_at in reference(text)[1].items():
        assert find_balanced_end(text, opener) == closes_at


def test_long_valid_json_takes_the_decoder_path_and_agrees() -> None:
    value = [{"k": [i, {"s": '}]\\"{'}]} for i in range(500)]  # far more than 64 runs of closers
    text = "see " + json.dumps(value) + " and {'a': [1}"
    assert list(iter_json_spans(text)) == reference(text)[0] == [(4, 4 + len(json.dumps(value)))]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["[", "{"]), st.integers(60, 80), bracketish, bracketish)
def test_a_long_valid_start_then_anything_agrees_with_the_reference(
    opener: str, count: int, head: str, tail: str
) -> None:
    """Past 64 runs of closers the valid items are read by the C scanner (issue 13): same answers."""
    item = '{"k": [1, {"s": "}]\\"{"}], "n": null}'
    items = [f'"k{i}" : {item}' if opener == "{" else item for i in range(count)]
    text = head + opener + " " + ", ".join(items) + ",\n" + tail
    assert list(iter_json_spans(text, max_candidates=10**9)) == reference(text)[0]
    assert list(iter_json_spans(text, max_candidates=10**9, nested=True)) == reference_nested(text, 0, len(text), 3)
    for at, closes_at in reference(text)[1].items():
        assert find_balanced_end(text, at) == closes_at


@settings(max_examples=500)
@given(st.text(st.sampled_from(list('{}[]"\\ x')), max_size=80))
def test_spans_are_sorted_disjoint_and_balanced(text: str) -> None:
    spans = list(iter_json_spans(text))
    assert spans == sorted(spans)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    for start, stop in spans:
        assert find_balanced_end(text, start) == stop
        assert text[stop - 1] == CLOSER[text[start]]


# --- Speed: generous bounds that only a quadratic (or worse) algorithm misses ---------------

MB = 1 << 20
HOSTILE = {
    "1 MB of {": "{" * MB,
    "1 MB of [": "[" * MB,
    "1 MB of }{": "}{" * (MB // 2),
    "{} 500k times": "{}" * (MB // 2),
    "deeply nested, balanced": "{" * (MB // 2) + "}" * (MB // 2),
    "unbalanced junk": "{a}b]c[d{e}}f{" * (MB // 14),
    "wrong closers": "{]" * (MB // 2),
    "a stray [ then {} 500k times": "[" + "{}" * (MB // 2),
    "openers between strings": '{"a"' * (MB // 4),
    "escaped quotes": "{" + '"\\"' * (MB // 3),
    "prose with apostrophes and braces": "{ don't " * (MB // 8),
    "1 MB envelope in prose": "Sure. " + json.dumps({"toolCalls": [{"name": "f", "arguments": {"t": "x" * MB}}]}),
    "1 MB envelope missing its brace": "Sure. "
    + json.dumps({"toolCalls": [{"name": "f", "arguments": {"t": "x" * MB}}]})[:-1],
}


@pytest.mark.parametrize("text", [pytest.param(t, id=i) for i, t in HOSTILE.items()])
@pytest.mark.parametrize("nested", [False, True])
def test_linear_time_on_hostile_input(text: str, nested: bool) -> None:
    started = time.perf_counter()
    list(iter_json_spans(text, nested=nested))
    first = text.find("{")
    find_balanced_end(text, max(first, 0))
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS


def test_a_long_array_with_one_item_broken_is_read_an_item_at_a_time() -> None:
    """Its valid items are read by the C scanner one at a time (issue 12): not decoded whole, ~10x the input."""
    call = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
    text = "[" + f"{call}, " * 4000 + '{"name": "f", "arguments": @}]'
    tracemalloc.start()
    try:
        spans = list(iter_json_spans(text))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert spans == [(0, len(text))]  # balanced, though not valid JSON
    assert peak < 6 * len(text)
