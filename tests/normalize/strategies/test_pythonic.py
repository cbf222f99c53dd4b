"""A Python list of calls as the whole answer (Llama 3.2/4, ToolACE)."""

from __future__ import annotations

import time

import pytest

from llmrelay.normalize import parse_response
from llmrelay.normalize.strategies import PythonicCalls
from tests.conftest import NO_BLOWUP_SECONDS

from ..cases import Case, check, plain

P = "pythonic"

CASES = [
    Case("single call", '[get_weather(city="Paris")]', [("get_weather", {"city": "Paris"})], format=P),
    Case(
        "several calls, single quotes, blank space around",
        "\n [get_weather(city='Paris', days=3), get_time(tz='UTC')] \n",
        [("get_weather", {"city": "Paris", "days": 3}), ("get_time", {"tz": "UTC"})],
        format=P,
    ),
    Case(
        "literal values: list, dict, tuple, None, negative number; JSON's true/null too",
        "[f(ids=[1, 2], opts={'a': True, 'b': None}, pair=(1, 2), n=-5, on=true, nothing=null)]",
        [("f", {"ids": [1, 2], "opts": {"a": True, "b": None}, "pair": [1, 2], "n": -5, "on": True, "nothing": None})],
        format=P,
    ),
    Case(
        "a dotted name is kept as written",
        '[weather.get(city="Paris")]',
        [("weather.get", {"city": "Paris"})],
        format=P,
    ),
    Case(
        "a JSON string is a string argument, kept as written",
        """[f(data='{"a": 1}')]""",
        [("f", {"data": '{"a": 1}'})],
        format=P,
    ),
    Case(
        "positional arguments are malformed",
        '[get_weather("Paris")]',
        rejected=["malformed"],
        format=P,
    ),
    Case(
        "a non-literal value is malformed and never evaluated",
        '[get_weather(city=__import__("os").getcwd())]',
        rejected=["malformed"],
        format=P,
    ),
    # Issue 16: a set is a list in the order written, as the engines' LFM2 readers read it.
    Case("a set becomes a list, in the order written", "[f(x={2, 1})]", [("f", {"x": [2, 1]})], format=P),
    # Issue 12: a single constant is read without walking a tree; what JSON cannot hold is still refused.
    *(
        Case(f"a constant JSON cannot hold: {value}", f"[f(x={value})]", rejected=["malformed"], format=P)
        for value in ("1j", "b'x'", "...", "1e999")
    ),
    Case(
        "constants: a string, a float, True, None",
        "[f(a='x', b=1.5, c=True, d=None)]",
        [("f", {"a": "x", "b": 1.5, "c": True, "d": None})],
        format=P,
    ),
    Case(
        "an element that is not a call is malformed, the calls are read",
        "[f(x=1), 5]",
        [("f", {"x": 1})],
        rejected=["malformed"],
        format=P,
    ),
    Case(
        "cut off inside a string is truncated",
        '[get_weather(city="Par',
        rejected=["truncated"],
        format=P,
    ),
    Case(
        "cut off after a call is truncated",
        '[get_weather(city="Paris"), get_time(',
        rejected=["truncated"],
        format=P,
    ),
    Case(
        "invalid Python shaped as a call list is malformed",
        "[get_weather(city=)]",
        rejected=["malformed"],
        format=P,
    ),
    plain("prose containing a call list is not this format", 'Sure: [get_weather(city="Paris")]'),
    plain("a call list followed by prose is not this format", '[get_weather(city="Paris")] is what I would run.'),
    # SGLang's Pythonic `text_after_tool_call`: the apostrophe after the list is no string cut off.
    plain("a call list followed by prose with an apostrophe", "[get_weather(location='Tokyo')] Here's the forecast:"),
    plain("a call list, then a line with an apostrophe", "[get_weather(location='Tokyo')]\nIt's sunny there."),
    plain("a bracketed note is not a call", "[Note(s): see below] The answer is 42."),
    plain("a markdown link is not a call", "[get_weather](https://example.com/docs)"),
    Case(
        "a string holding its own kind of quote unescaped (read when one end only is Python)",
        """[note(text="she said "yes" twice", tag='a')]""",
        [("note", {"text": 'she said "yes" twice', "tag": "a"})],
        format=P,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_pythonic(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ("[f(x=" + "[" * 100_000, "malformed"),  # Too much code outside strings to give to `ast`.
        ("[f(x=" + "[" * 150 + "]" * 150 + ")]", "call"),
        ("[f(x=" + "(" * 300 + "1" + ")" * 300 + ")]", "malformed"),  # Python's parser nests 200 deep.
        ("[f(x=" + "-" * 5_000 + "1)]", "malformed"),  # RecursionError while building the tree.
        ("[f(x=" + "-" * 100_000 + "1)]", "malformed"),
        ("[f(x='\x00')]", "call"),  # Python refuses null bytes in source: escaped inside a string (issue 16).
        ("[f(x=1)\x00]", "malformed"),  # Outside a string, nothing to escape.
        ("[f(x=1)]\x00", None),
    ],
    ids=[
        "unclosed",
        "150 levels",
        "300 parentheses",
        "5k unary minus",
        "100k unary minus",
        "null in a string",
        "null in code",
        "null after",
    ],
)
def test_deep_or_odd_input_never_raises(text: str, outcome: str | None) -> None:
    parsed = PythonicCalls().parse(text)
    if outcome is None:
        assert parsed is None
    else:
        assert parsed is not None
        assert ["call"] * len(parsed.calls) + [r.kind for r in parsed.rejected] == [outcome]


def test_a_long_string_argument_is_fast() -> None:
    text = '[write_file(path="a.txt", content="' + "x" * 5_000_000 + '")]'
    started = time.perf_counter()
    result = parse_response(text)
    assert len(result.tool_calls[0].arguments["content"]) == 5_000_000
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS


def test_many_small_tokens_are_refused_quickly() -> None:
    # `ast` needs about a microsecond per node: a megabyte of `a,` would take seconds.
    text = "[f(" + "a," * 500_000 + ")]"
    started = time.perf_counter()
    result = parse_response(text)
    assert [r.kind for r in result.rejected] == ["malformed"]
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS
