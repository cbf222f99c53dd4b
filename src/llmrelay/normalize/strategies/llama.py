"""Meta Llama's tool calls: `<|python_tag|>` (3.1 to 3.3), `<|python_start|>` (4), `;`-joined JSON.

Llama 3.1 / 3.2 / 3.3 (shapes from Meta's llama-models `llama3/api/chat_format.py`, vLLM's
`llama_tool_parser.py` and llama.cpp's Llama 3.x parser in `common/chat.cpp`)::

    <|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>
    <|python_tag|>{"name": "a", "parameters": {}}; {"name": "b", "parameters": {}}
    <|python_tag|>brave_search.call(query="weather in Paris")<|eom_id|>
    <|python_tag|>import math
    print(math.pi)<|eom_id|>

JSON calls are separated by `;`. A built-in tool is called as `NAME.call(key=value, …)`: the
name is NAME and the keyword arguments are the arguments. Anything else after the tag is code
for the built-in `code_interpreter` (`{"code": …}`, as Meta's reference decoder reads it) when
`<|eom_id|>` ends it, or when it runs to the end of the answer and is Python code.

Llama 4 writes pythonic calls between its own tokens (vLLM's `llama4_pythonic_tool_parser.py`)::

    <|python_start|>[get_weather(city="Paris"), get_time()]<|python_end|>

Without any tag, Llama's JSON calls joined by `;` are read when they are the whole answer (one
call alone is `JsonDocument`'s). Pythonic calls are read with Python's `ast`, never evaluated:
argument values must be literals. `<|eom_id|>` and `<|eot_id|>` (Llama 4: `<|eom|>`, `<|eot|>`)
are removed from the content.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from ..._envelope import RejectedCall, RejectionKind
from .._budget import MAX_CALLS, too_many_calls
from .._calls import is_tool_name, read_json_calls
from .._scan import find_balanced_end
from .._text import skip_space
from .._tokens import read_token_sections
from .._types import CallReading, Candidate, Parsed
from .pythonic import literal_value

_TAG, _START, _END = "<|python_tag|>", "<|python_start|>", "<|python_end|>"
_TOKEN = re.compile(r"(<\|python_(?:tag|start|end)\|>|<\|eo[mt](?:_id)?\|>)")
_END_OF_MESSAGE = ("<|eom_id|>", "<|eom|>")
# How the text after a tag starts: `brave_search.call(`, `[get_weather(`, `get_weather(`, `[{`.
_BUILTIN_CALL = re.compile(r"\s*[A-Za-z_]\w*\s*\.\s*call\s*\(")
_CALL_LIST = re.compile(r"\s*\[\s*[A-Za-z_][\w.]*\s*\(")
_CALL = re.compile(r"\s*[A-Za-z_][\w.]*\s*\(")
_JSON_LIST = re.compile(r"\s*\[\s*\{")
# The messages of a SyntaxError for source that stops before its end.
_CUT_OFF = ("was never closed", "unterminated", "unexpected EOF")
# Where JSON calls are written, for the reasons of rejections.
_WHERE = "in a Llama tool call"


class LlamaPythonTag:
    """Llama's `<|python_tag|>` and `<|python_start|>` calls, and whole-answer `;`-joined JSON."""

    name = "llama"
    markers = ("<|python_", ";")

    def detect(self, text: str) -> bool:
        """Cheap check: a Llama tag, or an answer that starts with `{` and has a `;`."""
        return "<|python_" in text or (text.lstrip()[:1] == "{" and ";" in text)

    def parse(self, text: str) -> Parsed | None:
        """Read the calls after each tag, else the whole answer as `;`-joined JSON calls."""
        if "<|python_" in text:
            return _parse_tags(text)
        if not _starts_json_sequence(text):
            return None  # One JSON value is JsonDocument's; `;`-joined values that are no calls are data.
        readings, rest = _json_sequence(text)
        return Parsed.from_readings(readings, text=rest.strip())


def _starts_json_sequence(text: str) -> bool:
    """Whether the answer starts with a JSON call followed by `;`."""
    start = skip_space(text, 0)
    end = find_balanced_end(text, start)
    if end is None or not text.startswith(";", skip_space(text, end)):
        return False
    first = read_json_calls(text[start:end], _WHERE)
    return len(first) == 1 and (isinstance(first[0], Candidate) or first[0].name is not None)


def _parse_tags(text: str) -> Parsed | None:
    # After an end token, or prose after a mention of a tag: content.
    return read_token_sections(text, _TOKEN, (_TAG, _START), _read_body)


def _read_body(token: str, body: str, next_token: str) -> tuple[list[CallReading], str] | None:
    """The calls in the text after one tag and the prose after them; None for a mere mention."""
    if not body.strip():
        return None  # A tag followed by blank space only.
    if body.lstrip().startswith("{") or _JSON_LIST.match(body):
        return _json_sequence(body)
    if _CALL_LIST.match(body) or _BUILTIN_CALL.match(body):
        return _pythonic_calls(body), ""
    if token == _START:  # Llama 4 writes calls only; a bare `f(a=1)` is one too.
        return (_pythonic_calls(body), "") if _CALL.match(body) or next_token == _END else None
    if next_token in _END_OF_MESSAGE or (not next_token and _is_code(body)):
        return [Candidate("code_interpreter", {"code": body.strip()})], ""
    return None


def _is_code(body: str) -> bool:
    """Whether the text after a final `<|python_tag|>` is Python statements, not a word or prose."""
    try:
        module = ast.parse(body.strip())
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    trivial = (ast.Name, ast.Constant)
    return any(not (isinstance(node, ast.Expr) and isinstance(node.value, trivial)) for node in module.body)


def _json_sequence(body: str) -> tuple[list[CallReading], str]:
    """JSON calls joined by `;`: their readings, and the text after them."""
    readings: list[CallReading] = []
    position, count = skip_space(body, 0), 0
    while body[position : position + 1] in ("{", "["):
        if count == MAX_CALLS:
            return [*readings, too_many_calls()], ""
        end = find_balanced_end(body, position) or len(body)  # Unbalanced: it runs to the end.
        readings.extend(read_json_calls(body[position:end], _WHERE))
        count += 1
        position = skip_space(body, end)
        if not body.startswith(";", position):
            break
        position = skip_space(body, position + 1)
    return readings, body[position:]


def _pythonic_calls(source: str) -> list[CallReading]:
    """`[f(a=1), g()]`, `f(a=1)` or `brave_search.call(query="x")`, read with `ast`, never run."""
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        kind: RejectionKind = "truncated" if any(s in str(exc.msg) for s in _CUT_OFF) else "malformed"
        return [RejectedCall(None, source, f"the Python call is not readable ({exc.msg})", kind)]
    except (ValueError, RecursionError, MemoryError) as exc:
        return [RejectedCall(None, source, f"the Python call is not readable ({exc!r})", "malformed")]
    nodes = tree.body.elts if isinstance(tree.body, (ast.List, ast.Tuple)) else [tree.body]
    return [_pythonic_call(node, source) for node in nodes]


def _pythonic_call(node: ast.expr, source: str) -> CallReading:
    name = _function_name(node.func) if isinstance(node, ast.Call) else None
    if not isinstance(node, ast.Call) or name is None:
        return RejectedCall(None, source, "not a function call with a tool name", "malformed")
    if node.args or any(keyword.arg is None for keyword in node.keywords):
        return RejectedCall(name, source, f"tool call '{name}': arguments must be given by keyword", "malformed")
    arguments: dict[str, Any] = {}
    for keyword in node.keywords:
        try:
            arguments[str(keyword.arg)] = literal_value(keyword.value)  # As the bare list reads them.
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            reason = f"tool call '{name}': argument '{keyword.arg}' is not a literal value"
            return RejectedCall(name, source, reason, "malformed")
    return Candidate(name, arguments)


def _function_name(func: ast.expr) -> str | None:
    """`get_weather` -> "get_weather"; `brave_search.call` -> "brave_search"; `a.b` -> "a.b"."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        owner = _function_name(func.value)
        name = owner if func.attr == "call" else f"{owner}.{func.attr}" if owner else None
        return name if is_tool_name(name) else None
    return None
