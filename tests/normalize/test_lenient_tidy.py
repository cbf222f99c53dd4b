"""The tidy way (issue 12): comments blanked and quotes made `"` by whole-text passes, read as the general way reads them."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from llmrelay.normalize import LenientJSONError, _lenient_quick, _lenient_tidy, loads_lenient

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11), reason="the tidy way needs possessive quantifiers")

NOT_THIS_WAY = _lenient_quick.NOT_THIS_WAY

# (text, what the tidy way gives: a value, or NOT_THIS_WAY when it leaves the text to the general way)
CASES = [
    ("[1, // one\n 2 /* two */, 3 # three\n]", [1, 2, 3]),
    ("[1//\n, 1//\n]", [1, 1]),
    ('{"a": 1, /* c */ "b": 2, // d\n}', {"a": 1, "b": 2}),  # a trailing comma after a comment
    ("{'a': 'say \"hi\"'} # a Python repr\n", {"a": 'say "hi"'}),
    ("{a: 'x', b: True} // keys, literals\n", {"a": "x", "b": True}),
    ('{"a": \'b\', “c”: ‘d’, „e”: "f"}', {"a": "b", "c": "d", "e": "f"}),  # quotes of several kinds
    ('["a", \'b\', "c \\"q\\" \\u00e9\\n"]', ["a", "b", 'c "q" é\n']),  # escapes JSON has in "…"
    ("[\"a/b\", 'c'] // a slash in a string\n", ["a/b", "c"]),
    ("[\"a//b\", '#'] // c\n", ["a//b", "#"]),  # comment marks in strings: blanked around the strings
    ('["a" /* "//" */, 2]', ["a", 2]),
    ("{a /* c */ : 1}", NOT_THIS_WAY),  # a colon after a comment: the key stays unquoted
    ("['a' // c\n, 'b']", NOT_THIS_WAY),  # a quote before a comment: closed by the comment
    ("[1] /* not closed", NOT_THIS_WAY),
    ("['it's', \"b\"]", NOT_THIS_WAY),  # an apostrophe: quotes cannot be swapped by one pass
    ("[\"a\", 'b\\n', “\\u00e9”]", ["a", "b\n", "é"]),  # escapes JSON has, in strings of any kind
    ("[\"a\", 'b\\'c']", NOT_THIS_WAY),  # an escape JSON lacks: the general way reads it
    ("[\"a//b\", 'c#d']", ["a//b", "c#d"]),  # comment marks in strings, and no comment
    ("[\"a\", 'b']", ["a", "b"]),
    ("[1, 2]", NOT_THIS_WAY),  # nothing to tidy: the quick way has read it
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_tidied(text: str, expected: Any) -> None:
    if expected is NOT_THIS_WAY:
        assert _lenient_tidy.tidied(text) is NOT_THIS_WAY
    else:
        assert _lenient_tidy.tidied(text) == loads_lenient(text) == expected


# Junk after text the tidy way reads: it says where, as the general way would (the property test
# below compares them), without the general way's work.
JUNK = [
    ("[1, // c\n 2] x", "unexpected word 'x' at line 2 column 5 (char 13)"),
    ("['a', /* c */ \"b\"] 2", "Extra data at line 1 column 20 (char 19)"),
    ('["a//b", 1 2] // c\n', "Expecting ',' delimiter at line 1 column 12 (char 11)"),
    # A Python dict's repr: quotes swapped and literals replaced to find where it stops.
    ("[{'a': True, 'q': 'say \"hi\"'} # c\n, None] x", "unexpected word 'x' at line 2 column 9 (char 42)"),
]


@pytest.mark.parametrize(("text", "message"), JUNK)
def test_junk_is_said_where_it_is(text: str, message: str) -> None:
    with pytest.raises(_lenient_tidy.Junk):
        _lenient_tidy.tidied(text)
    with pytest.raises(LenientJSONError, match=message.replace("(", r"\(").replace(")", r"\)")):
        loads_lenient(text)


def outcome_and_where(text: str) -> tuple[str, object]:
    try:
        return "ok", repr(loads_lenient(text))
    except LenientJSONError as exc:
        return str(exc), exc.pos


_PIECES = st.sampled_from(
    [*"{}[],: \n'\"“”„‘’‚/*#\\x1", "True", "null", "a:", "key", '"a"', "'b'", "“c”", "‘d’", "„e”", "'it's'",
     '"x/y"', '"a//b"', "'#'", "// c\n", "/* c */", "# c\n", "/* ' */", '// "\n', "/**/", "//", '"\\""',
     '"\\n"', '"\\x"', "'\\''", '"\\u00e9"', "'a\\nb'", "‘\\t’", "'say \"hi\"'", "’", ", ]", " // c\n:", "'a' // c\n"]
)  # fmt: skip
_ITEMS = st.sampled_from(
    ['"a"', "'b'", "“c”", "‘d’", "1", "True", "{k: 'v'}", '{"k": “v”}', "[]", "'it's'", '"\\"q\\""', '"a//b"', "'#'",
     '"\n"', "'/*'", '"*/"', '"a/b"']
)  # fmt: skip
_COMMENTS = st.sampled_from(["", " // c\n", " /* c */", " # c\n", " // 'x\n", ' /* "y */'])
_ARRAYS = st.lists(st.tuples(_ITEMS, _COMMENTS).map("".join), max_size=8).map(
    lambda items: "[" + ", ".join(items) + "]"
)


@settings(max_examples=3000, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=st.lists(_PIECES, max_size=24).map("".join) | _ARRAYS)
@example(text='["a//b", "c", "\n"]')  # `//` in a string: blanked to the line's end, it would read as ["a \n"]
@example(text="{a // x\n: 1}")  # a line comment must not end early to let a colon follow it
@example(text="1/* c */#")  # one token to the general way, unclosed as it does not end with `*/`
@example(text="['a' /* c */ 'b']")  # a quote closed by a comment: once it is a space, an apostrophe
@example(text='{"": /* c */ null /* c */ , ]')  # a comma the general way drops before junk: it stops further on
@example(text="{'A':null: 2}")  # a literal the general way quotes as a key before junk: it stops further on
@example(text="// c\nTrue-: 2")  # junk inside a word the general way quotes as a key
@example(text="{// c\n{'it's'/'")  # a quote a slash follows closes the string
def test_the_tidy_way_reads_as_the_general_way(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """In tiny blocks too (comments blanked a few characters at a time)."""
    tidy = outcome_and_where(text)
    with monkeypatch.context() as patched:
        patched.setattr(_lenient_tidy, "BLOCK", 1)
        assert outcome_and_where(text) == tidy
        patched.setattr(_lenient_tidy, "BLOCK", 1 << 20)
        patched.setattr(_lenient_tidy, "tidied", lambda _: NOT_THIS_WAY)
        assert outcome_and_where(text) == tidy
