"""`loads_lenient`: what is repaired, what is refused, what is truncated, and how fast."""

from __future__ import annotations

import json
import math
import re
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from llmrelay.normalize import LenientJSONError, TruncatedJSONError, _lenient_general, _lenient_quick, loads_lenient
from tests.conftest import NO_BLOWUP_SECONDS


def same(a: object, b: object) -> bool:
    """Equal and of the same types all the way down (`True == 1` and `1 == 1.0` in Python)."""
    return repr(a) == repr(b)


REPAIRED: list[tuple[str, str, Any]] = [
    # Single quotes (seed 001's first example, and Python dict reprs).
    ("single quotes", "{'tool_name': 'search', 'parameters': {}}", {"tool_name": "search", "parameters": {}}),
    ("escaped apostrophe", r"{'q': 'it\'s'}", {"q": "it's"}),
    ("double quote inside", """{'q': 'say "hi"'}""", {"q": 'say "hi"'}),
    ("escaped double quote inside", r"""{'q': 'say \"hi\"'}""", {"q": 'say "hi"'}),
    ("apostrophe inside", "{'q': 'don't stop'}", {"q": "don't stop"}),
    ("apostrophe before space", "{'q': 'the students' books'}", {"q": "the students' books"}),
    ("Python repr, mixed quotes", """{'a': "don't", 'b': 'x'}""", {"a": "don't", "b": "x"}),
    ("escaped backslash before quote", r"['a\\', 'b']", ["a\\", "b"]),
    ("empty single-quoted", "{'': ''}", {"": ""}),
    ("single-quoted unicode", "{'city': 'Zürich 🏔'}", {"city": "Zürich 🏔"}),
    ("single-quoted escapes", r"['a\nb', 'tab\t', '\u00e9']", ["a\nb", "tab\t", "é"]),
    ("braces inside single quotes", "{'a': '{not: json}, [x]'}", {"a": "{not: json}, [x]"}),
    # Trailing commas.
    ("trailing comma, array", "[1, 2, 3,]", [1, 2, 3]),
    ("trailing comma, object", '{"a": 1, "b": 2,}', {"a": 1, "b": 2}),
    ("trailing commas, nested", '{"a": [1, {"b": 2,},], }', {"a": [1, {"b": 2}]}),
    ("trailing comma, newline", '{\n  "a": 1,\n}\n', {"a": 1}),
    ("trailing comma, then comment", "[1, 2, // two\n]", [1, 2]),
    ("comma in a string kept", '{"a": "x,]", "b": 1,}', {"a": "x,]", "b": 1}),
    # Python literals.
    ("Python literals", '{"ok": True, "no": False, "v": None}', {"ok": True, "no": False, "v": None}),
    ("literals in strings kept", "{'a': 'True', 'b': True, 'c': 'None'}", {"a": "True", "b": True, "c": "None"}),
    ("literal as a key", "{None: 1, True: 2}", {"None": 1, "True": 2}),
    # Unquoted keys.
    ("unquoted keys", '{name: "f", arguments: {q: 1}}', {"name": "f", "arguments": {"q": 1}}),
    (
        "unquoted key shapes",
        '{$ref: 1, _x: 2, a1: 3, content-type: "t"}',
        {"$ref": 1, "_x": 2, "a1": 3, "content-type": "t"},
    ),
    ("unquoted key before newline colon", "{a\n: 1}", {"a": 1}),
    (
        "unquoted and single quotes",
        "{name: 'f', arguments: {city: 'Paris'}}",
        {"name": "f", "arguments": {"city": "Paris"}},
    ),
    # Raw control characters inside strings (seed 001's second example).
    ("raw newline", '{"content": "Line 1\nLine 2"}', {"content": "Line 1\nLine 2"}),
    ("raw tab and CR", '{"a": "x\ty\r\n"}', {"a": "x\ty\r\n"}),
    ("raw control character", '{"a": "\x01\x1f"}', {"a": "\x01\x1f"}),
    ("raw newline, single-quoted", "{'code': 'def f():\n    return 1'}", {"code": "def f():\n    return 1"}),
    # Comments.
    ("line comment", '{"a": 1 // the answer\n}', {"a": 1}),
    ("block comment", '{"a": /* why */ 1}', {"a": 1}),
    ("hash comment", '# the call\n{"a": 1}  # done', {"a": 1}),
    ("comment with quotes and braces", '[1, /* it\'s {"x"} */ 2]', [1, 2]),
    ("comments back to back", "// a\n// b\n[1] # c\n# d", [1]),
    ("slashes in a string kept", '{"url": "https://x.io/a#b", "c": 1,}', {"url": "https://x.io/a#b", "c": 1}),
    ("comment between key and colon", '{"a" /* k */ : 1}', {"a": 1}),
    # Smart quotes as delimiters.
    ("smart double quotes", "{“name”: “f”, “arguments”: {}}", {"name": "f", "arguments": {}}),
    ("smart single quotes", "{‘name’: ‘f’}", {"name": "f"}),
    ("straight quote inside smart", '{“q”: “say "hi"”}', {"q": 'say "hi"'}),
    ("smart quotes inside a string kept", '{"q": "“quoted” ‘x’",}', {"q": "“quoted” ‘x’"}),
    ("smart apostrophe inside", "{‘q’: ‘don’t’}", {"q": "don’t"}),
    # Only smart double quotes (read by swapping them for `"`, issue 12), then with more to repair.
    ("smart quotes around text with an apostrophe", "[“don't”, “a // b”, “c # d”]", ["don't", "a // b", "c # d"]),
    ("smart quotes and a raw newline", "{“a”: “line\nnext”}", {"a": "line\nnext"}),
    ("smart quotes and a trailing comma", "{“a”: [“x”, “y”,],}", {"a": ["x", "y"]}),
    ("smart quotes and Python literals", "{“a”: True, “b”: None}", {"a": True, "b": None}),
    ("smart quotes and smart single quotes", "{“a”: ‘x’}", {"a": "x"}),
    # Escapes JSON lacks.
    ("Windows path", r'{"path": "C:\Users\me"}', {"path": r"C:\Users\me"}),
    ("escaped apostrophe in double quotes", r'{"s": "don\'t"}', {"s": "don't"}),
    ("bad unicode escape", r'{"s": "\u12"}', {"s": r"\u12"}),
    ("good escapes kept", '{"s": "\\u00e9\\n\\"\\\\\\/", "t": \'x\'}', {"s": 'é\n"\\/', "t": "x"}),
    ("regex in a string", r"{'pattern': '\d+\.\d*'}", {"pattern": r"\d+\.\d*"}),
    # Issue 13: escapes are rewritten by str methods (every backslash doubled, JSON's undoubled).
    ("bad and good escapes mixed", r'{"s": "\x\u00e9\q\n\u12\\\/\"\u00E9x"}', {"s": '\\xé\\q\n\\u12\\/"éx'}),
    ("bad escape before a hex escape", r"['\\\u0041\z\u0041']", ["\\A\\zA"]),
    # One missing final closer.
    ("missing final brace", '{"name": "f", "arguments": {"a": 1}', {"name": "f", "arguments": {"a": 1}}),
    ("missing final bracket", '[{"name": "f"}, {"name": "g"}', [{"name": "f"}, {"name": "g"}]),
    ("missing closer, whitespace after", '{"a": [1, 2]\n\n', {"a": [1, 2]}),
    ("missing closer, comment after", '{"a": 1 // end', {"a": 1}),
    ("missing closer, single quotes", "{'name': 'f', 'arguments': {'a': 1}", {"name": "f", "arguments": {"a": 1}}),
    # Whitespace JSON does not have.
    ("byte order mark", '\ufeff{"a": 1}', {"a": 1}),
    ("no-break spaces", '{"a":\u00a01,\u2003"b": 2}', {"a": 1, "b": 2}),
    ("surrounding whitespace", ' \n\t{"a": 1,}\n ', {"a": 1}),
    # Scalars.
    ("scalar with a comment", "42 // the answer", 42),
    ("single-quoted scalar", "'just a string'", "just a string"),
    # Everything at once.
    (
        "combined",
        "// call\n{name: 'f', ‘arguments’: {'a': True, \"b\": [1, 2,], /* c */ 'c': None,}",
        {"name": "f", "arguments": {"a": True, "b": [1, 2], "c": None}},
    ),
]


@pytest.mark.parametrize(("text", "expected"), [pytest.param(t, e, id=i) for i, t, e in REPAIRED])
def test_repaired(text: str, expected: Any) -> None:
    with pytest.raises(ValueError):
        json.loads(text)  # each row really needs the repair path
    assert same(loads_lenient(text), expected)


def test_numbers_are_not_mangled() -> None:
    text = "[0, -1, 1.5, -2.5e-3, 1E10, 12345678901234567890, -Infinity, 1e400,]"
    assert same(loads_lenient(text), json.loads(text.replace(",]", "]")))
    assert math.isnan(loads_lenient("[NaN,]")[0])


STRICT_JSON = [
    ('{"a": "don\'t", "b": "it\'s // not a comment"}', {"a": "don't", "b": "it's // not a comment"}),
    ('"{\\"a\\": 1}"', '{"a": 1}'),  # a JSON-encoded string stays a string
    ('{"s": "\\ud83d\\ude00 \\u00e9"}', {"s": "😀 é"}),
    ("[1.0, 1, true, 1e2]", [1.0, 1, True, 100.0]),
]


@pytest.mark.parametrize(("text", "expected"), STRICT_JSON)
def test_strict_json_unchanged(text: str, expected: Any) -> None:
    assert same(loads_lenient(text), expected)


REFUSED: list[tuple[str, str]] = [
    ("prose", "Hello! How can I help you today?"),
    ("not json at all", "{not json at all"),
    ("brace in prose", "I think {x} is fine"),
    ("python code", "def f(x):\n    return x"),
    ("python call", 'print("hi")'),
    ("keyword call", "search(query='x')"),
    ("leading junk", 'Here: {"a": 1}'),
    ("leading word", 'json {"a": 1}'),
    ("trailing junk", '{"a": 1} and that is it'),
    ("trailing closer", '{"a": 1}}'),
    ("two values", '{"a": 1} {"b": 2}'),
    ("missing comma", '{"a": 1 "b": 2}'),
    ("missing comma between strings", '["a" "b"]'),
    ("bare quote in a double-quoted string", '{"code": "print("hi")"}'),
    ("missing colon", '{"a" 1}'),
    ("mismatched closer", '{"a": [1, 2}'),
    ("mismatched closer, array", "[1, 2}"),
    ("unquoted value", '{"a": hello}'),
    ("literal-like word", '{"a": [Nonesuch]}'),
    ("double comma", "[1,,2]"),
    ("leading comma", "[,1]"),
    ("empty", ""),
    ("only whitespace", "  \n "),
    ("only a comment", "// nothing here"),
    ("control character outside strings", '{"a": 1\x00}'),
    ("unclosed comment", '{"a": 1} /* and then'),
    ("apostrophe in prose braces", "{I don't know}"),
    ("single quote then junk", "{'a': 'x'y}"),
    ("tuple", "(1, 2)"),
    ("number then junk", "12abc"),
]


@pytest.mark.parametrize("text", [pytest.param(t, id=i) for i, t in REFUSED])
def test_refused(text: str) -> None:
    with pytest.raises(LenientJSONError) as info:
        loads_lenient(text)
    assert not isinstance(info.value, TruncatedJSONError)


TRUNCATED: list[tuple[str, str]] = [
    ("envelope cut in a call", '{"toolCalls": [{"name": "test"'),
    ("two closers missing", '{"a": [1, 2'),
    ("three closers missing", '{"a": {"b": {"c": 1'),
    ("inside a string", '{"a": "b'),
    ("inside a string after an escape", '{"a": "b\\'),
    ("inside an escaped quote", '["a\\"'),
    ("inside a single-quoted string", "{'a': 'bc"),
    ("inside a single-quoted string, escaped quote", "['a\\'"),
    ("inside a smart-quoted string", "{“a”: “bc"),
    ("after a colon", '{"a":'),
    ("after a comma", '{"a": 1,'),
    ("after a key", '{"a"'),
    ("only an opener", "{"),
    ("only a bracket", "["),
    ("inside a literal", '{"a": tr'),
    ("inside a Python literal", "[Tru"),
    ("single quotes, two missing", "{'name': 'f', 'arguments': {'x': 1"),
    ("string at top level", '"abc'),
]


@pytest.mark.parametrize("text", [pytest.param(t, id=i) for i, t in TRUNCATED])
def test_truncated(text: str) -> None:
    with pytest.raises(TruncatedJSONError):
        loads_lenient(text)


@pytest.mark.parametrize(
    ("text", "pos", "words"),
    [
        ('{"a": 1 "b": 2}', 8, "Expecting ',' delimiter"),
        ("{'a': 1,\n \"b\" 2}", 14, "Expecting ':' delimiter"),
        ("{'a': 1,\n 'b' 2}", 10, "unterminated string"),  # 'b' 2} reads as one string: b' 2}
        ('{"a": [1, 2]} junk', 14, "unexpected word 'junk'"),
        ('{\n  "a": nope\n}', 9, "unexpected word 'nope'"),
        ('{"a": "b', 6, "ends inside a string"),
        ("", 0, "no JSON value"),
    ],
)
def test_errors_say_what_and_where(text: str, pos: int, words: str) -> None:
    with pytest.raises(LenientJSONError) as info:
        loads_lenient(text)
    assert info.value.pos == pos
    assert words in str(info.value)
    line = text.count("\n", 0, pos) + 1
    assert f"line {line} column {pos - (text.rfind(chr(10), 0, pos) + 1) + 1} (char {pos})" in str(info.value)


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    for text in ("[" * 100_000 + "]" * 100_000, "[" * 100_000, "{'a': " * 50_000 + "1" + "}" * 50_000):
        with pytest.raises(LenientJSONError):
            loads_lenient(text)


@pytest.mark.parametrize("text", ["[" + "1" * 5000 + ",]", "{'a': " + "1" * 5000 + "}"])
def test_huge_integer_is_an_error_not_a_crash(text: str) -> None:
    with pytest.raises(LenientJSONError, match="digits"):
        loads_lenient(text)


# --- Properties --------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, st.sampled_from([None, 2]), st.booleans())
def test_valid_json_gives_what_json_loads_gives(value: Any, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert same(loads_lenient(text), json.loads(text))


_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_SMART = "“”„‘’‚"


class ModelStyle:
    """Writes a value the way a sloppy model might: quotes, commas, literals and comments vary."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def write(self, value: Any, *, trailing: bool = True) -> str:
        comment = self.draw(st.sampled_from(["", " /* c */ ", " // c\n", " # c\n", "\n", " "]))
        if isinstance(value, dict):
            items = [f"{self.key(k)}:{comment}{self.write(v)}" for k, v in value.items()]
            return "{" + self.join(items, comment, trailing) + "}"
        if isinstance(value, list):
            return "[" + self.join([self.write(v) for v in value], comment, trailing) + "]"
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, bool) or value is None:
            return self.draw(st.sampled_from([json.dumps(value), repr(value)]))
        return json.dumps(value)

    def join(self, items: list[str], comment: str, trailing: bool) -> str:
        comma = "," if items and trailing and self.draw(st.booleans()) else ""
        return ("," + comment).join(items) + comma + comment

    def key(self, key: str) -> str:
        if _IDENTIFIER.fullmatch(key) and self.draw(st.booleans()):
            return key
        return self.string(key)

    def string(self, text: str) -> str:
        style = self.draw(st.sampled_from(["double", "single", "smart"]))
        if style == "single":
            return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
        if style == "smart" and not any(q in text for q in _SMART):
            return "“" + json.dumps(text)[1:-1] + "”"
        return json.dumps(text)


@st.composite
def model_written(draw: st.DrawFn) -> tuple[Any, str]:
    value = draw(json_values)
    # The one missing final closer, after a complete last element (not after `[`, `{` or `,`).
    cut = isinstance(value, (list, dict)) and len(value) > 0 and draw(st.booleans())
    text = ModelStyle(draw).write(value, trailing=not cut)
    return value, text[:-1] if cut else text


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(model_written())
def test_model_written_json_reads_back(case: tuple[Any, str]) -> None:
    value, text = case
    assert same(loads_lenient(text), value)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(json_values.filter(lambda v: isinstance(v, (list, dict)) and len(v) > 0), st.data())
def test_cut_off_json_is_truncated(value: Any, data: st.DataObject) -> None:
    text = json.dumps({"toolCalls": [value]})  # ends with at least two closers
    cut = data.draw(st.integers(1, len(text) - 2))
    try:
        loads_lenient(text[:cut])
    except TruncatedJSONError:
        pass
    else:
        pytest.fail(f"{text[:cut]!r} read as complete")


_JSONISH = st.sampled_from(list("{}[]\"',:/*#\\ \n\ttrueTFNonelax01-.e“”‘’\x00\x01\ufeff\u00a0"))


@settings(max_examples=2000, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(_JSONISH, max_size=40) | st.text(max_size=40))
def test_only_lenient_json_errors_escape(text: str) -> None:
    try:
        loads_lenient(text)
    except LenientJSONError:
        pass


# --- Speed: generous bounds that only a quadratic (or worse) algorithm misses ---------------

MB = 1 << 20


def _dense_single_quoted() -> str:
    item = "{'id': 1, 'name': 'item', 'tags': ['a', 'b'], 'ok': True, 'note': None, 'q': 'say \"hi\"'}"
    return "[" + ", ".join([item] * (MB // len(item))) + "]"


HOSTILE = {
    "1 MB of {": "{" * MB,
    "1 MB of [": "[" * MB,
    "1 MB envelope missing its brace": json.dumps({"toolCalls": [{"name": "f", "arguments": {"t": "x" * MB}}]})[:-1],
    "1 MB of dense single-quoted JSON": _dense_single_quoted(),
    "1 MB of apostrophes": "'" * MB,
    "1 MB of 'a": "'a" * (MB // 2),
    "1 MB of bad escapes": '["' + "\\x" * (MB // 2) + '"]',
    "1 MB of comments": "//\n" * (MB // 3) + "1",
    "1 MB of unquoted keys": "{" + ",".join(f"k{i}:1" for i in range(MB // 8)) + "}",
    "1 MB of smart strings": "[" + "“a”," * (MB // 4) + "]",
    "1 MB of unclosed block comments": "/*" * (MB // 2),
}


@pytest.mark.parametrize("text", [pytest.param(t, id=i) for i, t in HOSTILE.items()])
def test_linear_time_on_hostile_input(text: str) -> None:
    started = time.perf_counter()
    try:
        loads_lenient(text)
    except LenientJSONError:
        pass
    assert time.perf_counter() - started < NO_BLOWUP_SECONDS


# --- The quick way (issue 13): strings of one kind of quote, repaired without splitting into tokens ---

_QUOTE_HEAVY = st.sampled_from(
    [*"{}[],: \n'\"“”‘’x-1", "True", "None", "false", "a:", "'a'", "“a”", "‘a’", ", ]", "don't", "\u00a0", "\\",
     "\\\\", "\\'", '\\"', "\\n", "\\x", "\\u00e9", "\\u12", "'a\\'b'", "\x02"]
)  # fmt: skip
# Elements whose strings hold what a repair looks for outside strings, next to repairs needed.
_ELEMENT = st.sampled_from(
    ["'True'", "True", "'a: b'", "'k-: 1'", "'x,]'", "'x, }'", "'don't'", "'it's', 'x'", "'\"q\"'", "None",
     "1", "[]", "{k: 1}", "{'k': 'v'}", "{'a: 1', b: 'c'}", "‘x’", "“y”", "'t' True", "[1,]",
     "'a\\nb'", "'c:\\\\d\\\\'", "'it\\'s'", "'say \\\"hi\\\"'", '"x\\y"', "'\\u00e9\\q'", "\\", "'\\'"]
)  # fmt: skip
_ELEMENTS = st.lists(_ELEMENT, max_size=5).map(lambda items: "[" + ", ".join(items) + "]")


def outcome(text: str) -> tuple[str, str]:
    try:
        return "ok", repr(loads_lenient(text))
    except LenientJSONError as exc:
        return type(exc).__name__, ""


@settings(max_examples=3000, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=st.lists(_QUOTE_HEAVY, max_size=24).map("".join) | _ELEMENTS | model_written().map(lambda case: case[1]))
def test_the_quick_way_reads_as_the_general_way(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = outcome(text)
    with monkeypatch.context() as patched:
        patched.setattr(_lenient_quick, "one_quote_kind", lambda *_: _lenient_quick.NOT_THIS_WAY)
        assert outcome(text) == quick


# --- The general way by blocks (issue 12): a text cut into blocks reads as the whole text ---


def outcome_and_where(text: str) -> tuple[str, object]:
    try:
        return "ok", repr(loads_lenient(text))
    except LenientJSONError as exc:
        return str(exc), exc.pos


_COMMENTED = st.sampled_from(["// c\n", "/* c */", "# c\n", "// 'x\n", '/* "y */', "/* \\ */"])
_MIXED_ELEMENTS = st.lists(_ELEMENT | _COMMENTED, max_size=12).map(lambda items: "[" + ", ".join(items) + "]")


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=st.lists(_QUOTE_HEAVY | _COMMENTED, max_size=30).map("".join) | _MIXED_ELEMENTS)
@example(text='[[1, /* c */ ], "x", ' + "1, " * 20 + "2]")  # a trailing comma before a comment at the cut
@example(text='[[1, /* c */\u00a0], "x", ' + "1, " * 20 + "2]")
@example(text="[1//\n, 1//\n, 1//\n, 1//\n, 1//\n, 1//\n, 1]")  # no string: cut before comments
def test_blocks_read_as_the_whole_text(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny blocks, tokens re-quoted one by one, against one block re-quoted in passes over all tokens."""
    with monkeypatch.context() as patched:
        patched.setattr(_lenient_quick, "one_quote_kind", lambda *_: _lenient_quick.NOT_THIS_WAY)
        patched.setattr(_lenient_general, "BLOCK", 1)
        in_blocks = outcome_and_where(text)
        patched.setattr(_lenient_general, "BLOCK", 1 << 20)
        patched.setattr(_lenient_general, "_FEW_TOKENS", 0)
        assert outcome_and_where(text) == in_blocks
