"""A Python list of calls as the whole answer: Llama 3.2/3.3 and Llama 4, ToolACE, and others.

```
[get_weather(city="Paris", days=3), get_time(tz="UTC")]
```

The shape is the one the Llama 3.2 chat template asks for (`[func_name1(param_name1=value1,
param_name2=value2...), func_name2(params)]`) and vLLM's `tool_parsers/pythonic_tool_parser.py`
reads: the whole output is parsed with Python's `ast`, it must be a list of calls, and each
argument must be a keyword with a literal value. Nothing is ever evaluated: each value goes
through `ast.literal_eval`, after mapping JSON's `true`/`false`/`null`, which models also write
(a set becomes a list). What models get wrong is put right once, as the engines' LFM2 readers do:
raw newlines or NUL bytes inside a string, zero-padded integers (`07`), quotes of a string's own
kind left unescaped inside it (`cmd='sed -n '1,9p' f'`, read when only one end makes it Python). One element that still
cannot be read is rejected alone; the others are read. Dotted names (`module.func`) are kept
as written. Llama 4's `<|python_start|>` wrapper is a special token, read by `LlamaPythonTag`
before this strategy.

Prose that merely contains such a list is not this format: only a whole answer is read.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

from ..._envelope import RejectedCall, RejectionKind
from .._calls import is_tool_name
from .._types import CallReading, Candidate, Parsed

_HEAD = re.compile(r"\[\s*[A-Za-z_][\w.]*\s*\(")
# `ast` needs about a microsecond per node, so the Python code around string literals is bounded;
# a long string literal (a file's content) is one node and costs nothing.
_MAX_CODE = 20_000
# A string literal, up to its closing quote or the end of its line: always matches, so a scan
# never retries from inside an unterminated string (linear time).
_STRING = re.compile(r""""[^"\\\n]*(?:\\.[^"\\\n]*)*"?|'[^'\\\n]*(?:\\.[^'\\\n]*)*'?""")
_QUOTE = re.compile("[\"']")
# A string literal through its first unescaped closing quote, and one quote or escape at a time.
_STRINGS = {q: re.compile(rf"{q}(?:[^{q}\\]|\\.)*{q}", re.DOTALL) for q in "'\""}
_UNESCAPED = {q: re.compile(rf"\\.|{q}", re.DOTALL) for q in "'\""}
_AFTER_VALUE = re.compile(r"\s*[,)\]}:]")
_MAX_REQUOTED = 20_000  # Each attempt parses the whole call list: bounded so the cost stays linear.
_MAX_ENDS_TRIED = 8
_JSON_NAMES = {"true": True, "false": False, "null": None}
# A string literal (raw newlines allowed: that is what is put right), or the zeros of a
# zero-padded integer outside strings (`month=07`). See `_recover`.
_RECOVERABLE = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(?<![\w.])0+(?=[1-9][0-9]*(?![\w.]))""", re.DOTALL)


class PythonicCalls:
    """`[f(a=1), g(b="x")]`: the answer is a Python list of calls with keyword arguments."""

    name = "pythonic"

    def detect(self, text: str) -> bool:
        """Cheap check: the answer starts with `[`."""
        return text.lstrip()[:1] == "["

    def parse(self, text: str) -> Parsed | None:
        """Parse the whole answer with `ast`; None unless it is (or starts as) a list of calls."""
        readings = read_call_list(text.strip())
        return None if readings is None else Parsed.from_readings(readings, text="")  # All of it is the list.


def _parse_list(source: str) -> Parsed | None:
    """`source` parsed with `ast` as a list of calls; None unless it is (or starts as) one."""
    if _HEAD.match(source) is None:
        return None
    if len(source) > _MAX_CODE and len(_STRING.sub("", source)) > _MAX_CODE:
        reason = f"the call list has more than {_MAX_CODE} characters of code outside string literals"
        return _rejected(source, reason, "malformed")
    try:
        tree = _parse_python(source)
    except SyntaxError as exc:
        if _cut_off(exc) and not source.endswith("]"):  # A list the model closed was not cut off.
            if _closes_before_end(source):  # Prose after the list, with an apostrophe: not this format.
                return None
            return _rejected(source, f"the call list was cut off before its end ({exc.msg})", "truncated")
        return _rejected(source, f"not valid Python ({exc.msg})", "malformed") if source.endswith("]") else None
    except (ValueError, RecursionError, MemoryError) as exc:  # Null bytes, or nesting too deep.
        return _rejected(source, f"not readable Python ({type(exc).__name__})", "malformed")
    if not isinstance(tree.body, ast.List):
        return None
    readings = [_read_element(index, element) for index, element in enumerate(tree.body.elts, 1)]
    return Parsed.from_readings(readings, text="")


def _parse_python(source: str) -> ast.Expression:
    """`source` parsed as a Python expression, or after what models get wrong is put right.

    First as written; then with `_recover`'s fixes; then with a string whose own quotes were left
    unescaped inside it closed where only one end works (`_requoted`).

    Raises:
        SyntaxError, ValueError: as `ast.parse`, for the source as written.
    """
    try:
        return ast.parse(source, mode="eval")
    except (SyntaxError, ValueError):
        recovered = _RECOVERABLE.sub(_recover, source)
        if recovered != source:
            try:
                return ast.parse(recovered, mode="eval")
            except (SyntaxError, ValueError):
                pass
        if (requoted := _requoted(recovered)) is not None:
            return requoted
        raise


def _recover(match: re.Match[str]) -> str:
    """One piece of what models get wrong in Python, put right (as SGLang's and vLLM's LFM2 readers do).

    Raw control characters inside a string literal (a multi-line shell command, a NUL byte) are
    escaped, so the string keeps its exact value; a zero-padded integer (`07`) loses its zeros.
    """
    string = match.group(1)
    if string is None:
        return ""  # The zeros before a zero-padded integer.
    return string.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t").replace("\x00", "\\x00")


def _requoted(source: str) -> ast.Expression | None:
    """`source` read with its first broken string literal closed at the one quote that makes it Python.

    Models writing shell commands nest quotes of the string's own kind without escaping them
    (`command='sed -n '1,9p' f.py'`). A string is broken when the first quote that could end it
    is not followed by what follows a value (`,` `)` `]` `}` `:`). Each later quote that is so
    followed is tried as its end, the quotes inside escaped: when exactly one attempt is valid
    Python, the value is the text as written (as vLLM's LFM2 reader recovers it). None when no
    string is broken, or when the reading is ambiguous (never guessed).
    """
    if len(source) > _MAX_REQUOTED:
        return None
    position = 0
    while (opening := _QUOTE.search(source, position)) is not None:
        string = _STRINGS[opening.group()].match(source, opening.start())
        if string is None:
            return None  # Never closed: cut off, not nested.
        if _AFTER_VALUE.match(source, string.end()) is not None:
            position = string.end()
            continue
        return _only_valid_end(source, opening.group(), opening.end())
    return None


def _only_valid_end(source: str, quote: str, start: int) -> ast.Expression | None:
    """`source` read with the string opened before `start` closed at the only `quote` that makes it Python."""
    quotes = [found.start() for found in _UNESCAPED[quote].finditer(source, start) if found.group() == quote]
    valid = []
    for end in [end for end in quotes if _AFTER_VALUE.match(source, end + 1)][:_MAX_ENDS_TRIED]:
        inner = [index for index in quotes if index < end]
        pieces = [source[a + 1 : b] for a, b in zip([start - 1, *inner], [*inner, end], strict=True)]
        attempt = source[:start] + ("\\" + quote).join(pieces) + source[end:]
        try:
            valid.append(ast.parse(_RECOVERABLE.sub(_recover, attempt), mode="eval"))
        except (SyntaxError, ValueError):
            continue
    return valid[0] if len(valid) == 1 else None


def read_call_list(source: str) -> list[CallReading] | None:
    """The calls of `source`, a Python list of calls (`[f(a=1), g()]`); None when it is not one.

    One call that is not valid Python does not hide the others: when the list as a whole does
    not parse, each top-level element is read on its own (the way SGLang's LFM2 reader salvages
    a block), and only the unreadable ones are rejected.
    """
    parsed = _parse_list(source)
    if parsed is None:
        return None
    closed = source.rstrip().endswith("]")  # A list read to its end: an unterminated string is a typo.
    if parsed.calls or len(parsed.rejected) != 1 or not closed or len(source) > _MAX_CODE:
        return [*parsed.calls, *parsed.rejected]
    body = source.strip()[1:-1]
    # Brackets alone, when a broken quote hides the commas from the string-aware split.
    elements = max(split_elements(body), split_elements(body, strings=False), key=len)
    return [read_one_call(element) for element in elements] if len(elements) > 1 else [*parsed.rejected]


def read_one_call(source: str, *, complete: bool = True) -> CallReading:
    """One call written as Python (`f(a=1)`): the call, or why it cannot be read.

    `complete`: the text around the call went on past it, so an unclosed string or bracket is a
    malformed call, not one cut off.
    """
    parsed = _parse_list(f"[{source}]")
    if parsed is None:
        return RejectedCall(None, source, f"not a Python function call: {source[:80]!r}", "malformed")
    readings: list[CallReading] = [*parsed.calls, *parsed.rejected]
    if len(readings) != 1:
        return RejectedCall(None, source, f"not one Python function call: {source[:80]!r}", "malformed")
    reading = readings[0]
    if complete and isinstance(reading, RejectedCall) and reading.kind == "truncated":
        return RejectedCall(
            None, source, reading.reason.replace("was cut off before its end", "is not valid Python"), "malformed"
        )
    return reading


def split_elements(source: str, *, strings: bool = True) -> list[str]:
    """The top-level, comma-separated elements of a list's body.

    Brackets are respected, and so are string literals unless `strings` is False.
    """
    elements: list[str] = []
    depth, start, position = 0, 0, 0
    while position < len(source):
        char = source[position]
        if strings and char in "\"'":
            string = _STRING.match(source, position)
            position = string.end() if string is not None else position + 1
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            elements.append(source[start:position].strip())
            start = position + 1
        position += 1
    elements.append(source[start:].strip())
    return [element for element in elements if element]


def _closes_before_end(source: str) -> bool:
    """Whether the list `source` starts with closes before its end (string literals skipped).

    `[f(a='x')] Here's why` is a list and prose, whose apostrophe Python reads as a string
    never closed: the list was not cut off.
    """
    depth, position = 0, 0
    while (found := _BRACKET_OR_QUOTE.search(source, position)) is not None:
        char = found.group()
        if char in "\"'":
            string = _STRING.match(source, found.start())
            assert string is not None  # `_STRING` matches at any quote.
            if not string.group().endswith(char) or string.end() - string.start() < 2:
                return False  # A string in the list never closed: cut off.
            position = string.end()
            continue
        depth += 1 if char in "([{" else -1
        position = found.end()
        if depth == 0:
            return bool(source[position:].strip())
    return False


_BRACKET_OR_QUOTE = re.compile(r"[\[\](){}\"']")


def _cut_off(error: SyntaxError) -> bool:
    """Whether Python ran out of input (a bracket or string never closed), not into a typo."""
    message = error.msg or ""
    return "was never closed" in message or message.startswith(("unterminated", "unexpected EOF"))


def _rejected(source: str, reason: str, kind: RejectionKind) -> Parsed:
    return Parsed(rejected=[RejectedCall(None, source, reason, kind)])


def _read_element(index: int, node: ast.expr) -> CallReading:
    """One element of the list: a call with keyword arguments, or why it is not one.

    A rejection carries the arguments read before the problem (`ast.get_source_segment` would
    give the text, but it takes quadratic time on a long line).
    """
    if not isinstance(node, ast.Call):
        return RejectedCall(None, None, f"element {index} is not a function call", "malformed")
    name = _dotted_name(node.func)
    if name is None or not is_tool_name(name):
        return RejectedCall(None, None, f"element {index} does not call a tool by name", "malformed")
    arguments: dict[str, Any] = {}
    if node.args:
        reason = f"tool call '{name}': positional arguments have no parameter names; use name=value"
        return RejectedCall(name, arguments, reason, "malformed")
    for keyword in node.keywords:
        if keyword.arg is None:
            return RejectedCall(name, arguments, f"tool call '{name}': **kwargs cannot be read", "malformed")
        try:
            arguments[keyword.arg] = literal_value(keyword.value)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            reason = f"tool call '{name}': argument '{keyword.arg}' is not a literal value"
            return RejectedCall(name, arguments, reason, "malformed")
    return Candidate(name, arguments)


def _dotted_name(node: ast.expr) -> str | None:
    """`f` or `module.f`; None for anything else (a call result, a subscript)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


class _JsonNames(ast.NodeTransformer):
    """`true`, `false` and `null` become the constants they mean, and a set a list.

    Models write JSON's literals in Python calls; JSON has no sets, so the items are kept in the
    order written.
    """

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in _JSON_NAMES:
            return ast.copy_location(ast.Constant(_JSON_NAMES[node.id]), node)
        return node

    def visit_Set(self, node: ast.Set) -> ast.expr:
        return ast.copy_location(ast.List([self.visit(item) for item in node.elts], ast.Load()), node)


def literal_value(node: ast.expr) -> Any:
    """The value of a literal expression, as JSON data; never evaluates anything else.

    Raises:
        ValueError, TypeError, SyntaxError, RecursionError, MemoryError: not a literal, or a
            value JSON cannot hold (bytes, `1e999`).
    """
    if type(node) is ast.Constant:  # The usual argument (a string, a number): no tree to walk.
        return _as_json(node.value)
    return _as_json(ast.literal_eval(_JsonNames().visit(node)))


def _as_json(value: Any) -> Any:
    """Tuples become lists; values JSON cannot hold (sets, bytes, complex numbers, `1e999`) are refused."""
    if isinstance(value, float) and not math.isfinite(value):
        raise TypeError(f"{value} is not a JSON number")  # `1e999` overflows to inf; JSON has no inf.
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_as_json(item) for item in value]
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return {key: _as_json(item) for key, item in value.items()}
    raise TypeError(f"{type(value).__name__} is not a JSON value")
