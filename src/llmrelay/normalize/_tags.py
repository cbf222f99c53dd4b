"""Tag markup read in linear time, shared by the tag-based strategies.

A tag-based format writes each call between an open and a close tag (`<tool_call>…</tool_call>`,
`<invoke …>…</invoke>`, `<function=…>…</function>`), and models often stop before the close
tag. Finding blocks with an `open(.*?)close` regex from every open tag is quadratic on hostile
text (200k unclosed `<tool_call>`); here every search goes forward from where the last one
stopped (`NextOccurrence`), and a close tag not found once is never searched for again.

Also here: the JSON-in-tags reader of Hermes, Jamba and `<function_calls>` (`parse_tagged_json`,
`read_json_block`, which Functionary uses for its arguments), and the way Claude XML,
Qwen3-Coder and GLM decode an argument written as text (`json_or_text`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, NamedTuple

from .._envelope import RejectedCall
from ._budget import TagBudget
from ._calls import calls_in, decode_json, is_tool_name
from ._clean_tags import block_starts
from ._clean_tags import read_clean_answer as _read_clean_answer
from ._repeats import BlockReading, RepeatedBlocks
from ._salvage import array_items, read_items
from ._text import cut_spans, skip_space
from ._types import CallReading, Candidate, Parsed

_DECODER = json.JSONDecoder()
# What `_DECODER.raw_decode` calls, without its wrapper: (value, end), or StopIteration.
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
Interpret = Callable[[list[Any]], list[CallReading]]
"""What decoded JSON values mean, as calls (or rejections)."""


class NextOccurrence:
    """Where `target` next occurs at or after a position (and before `end`), in linear total time.

    Positions asked for must never decrease. A search that found nothing is remembered, so 200k
    unclosed open tags cost one search for the close tag, not 200k searches to the end.
    """

    def __init__(self, text: str, target: str | re.Pattern[str], end: int | None = None) -> None:
        self._text = text
        self._target = target
        self._end = len(text) if end is None else end
        self._found: tuple[int, int] | None = (-1, -1)  # (-1, -1): nothing searched yet.

    def find(self, position: int) -> tuple[int, int] | None:
        """Return `(start, end)` of the first occurrence at or after `position`, or None."""
        found = self._found
        if found is None or found[0] >= position:
            return found
        if isinstance(self._target, str):
            start = self._text.find(self._target, position, self._end)
            self._found = None if start == -1 else (start, start + len(self._target))
        else:
            match = self._target.search(self._text, position, self._end)
            self._found = None if match is None else match.span()
        return self._found


class TagBlock(NamedTuple):
    """One `open…close` block of a text, as offsets.

    A named tuple rather than a frozen dataclass: a Hermes answer of 2 KB calls makes one per
    500 characters, and a tuple is several times cheaper to make.
    """

    start: int
    """Offset of the open tag."""
    body_start: int
    """Offset just past the open tag."""
    body_end: int
    """Offset of the close tag; for an unclosed block, of the next open tag or the text's end."""
    end: int
    """Offset just past the close tag (`body_end` when unclosed)."""
    closed: bool
    """Whether the close tag was there."""


def tag_blocks(text: str, open_tag: str, close_tag: str, first: str, budget: TagBudget) -> Iterator[TagBlock]:
    """Yield the blocks of `text`, in order, found in linear time (as many as `budget` allows).

    A block without its close tag runs to the next open tag, or to the end of the text (the
    model stopped at its stop token before writing the close tag).

    Args:
        text: the answer.
        open_tag: e.g. `<tool_call>`.
        close_tag: e.g. `</tool_call>`.
        first: the body of a regex character class (for `{` and `[`, say): only blocks whose
            body starts, after blank space, with such a character are yielded. The others are
            skipped by the regex scan itself, so prose full of empty tags costs no Python work.
        budget: the tags this reading may still examine.
    """
    candidates = NextOccurrence(text, block_starts(open_tag, first))
    opens, closes = NextOccurrence(text, open_tag), NextOccurrence(text, close_tag)
    position = 0
    while (found := candidates.find(position)) is not None and budget.take():
        start, body_start = found[0], found[0] + len(open_tag)
        next_open = opens.find(body_start)
        limit = next_open[0] if next_open is not None else len(text)
        close = closes.find(body_start)
        if close is not None and close[0] < limit:
            block = TagBlock(start, body_start, close[0], close[1], closed=True)
        else:
            block = TagBlock(start, body_start, limit, limit, closed=False)
        yield block
        position = block.end


def widen(text: str, start: int, end: int, open_tag: str, close_tag: str) -> tuple[int, int]:
    """Grow the span `(start, end)` over an `open_tag … close_tag` wrapper around it, if any.

    Only blank space may separate the wrapper from the span. The look back is bounded, so many
    spans cost linear time; a wrapper further away than that stays in the content.
    """
    after = skip_space(text, end)
    if text.startswith(close_tag, after):
        end = after + len(close_tag)
    return opened_before(text, start, open_tag), end


def opened_before(text: str, start: int, open_tag: str) -> int:
    """The offset of an `open_tag` just before `start` (blank space between), else `start`."""
    before = text.rfind(open_tag, max(0, start - len(open_tag) - 256), start)
    if before != -1 and skip_space(text, before + len(open_tag), start) == start:
        return before
    return start


def to_parsed(
    text: str, spans: list[tuple[int, int]], readings: list[CallReading], budget: TagBudget | None = None
) -> Parsed:
    """The reading of an answer whose markup sits at `spans` (and a rejection if tags were left unread)."""
    parsed = Parsed.from_readings(readings, text=cut_spans(text, spans))
    if budget is not None and budget.exhausted:
        parsed.rejected.append(budget.rejection())
    return parsed


def json_or_text(value: str) -> Any:
    """`value` decoded as JSON when it is JSON (`5`, `true`, `[1, 2]`), else `value` unchanged.

    How an argument written as text is read in Claude XML, Qwen3-Coder and GLM, whose prompts
    and templates write strings as they are and other values as JSON.
    """
    candidate = value.strip()
    if candidate[:1] in ('"', "{", "[", "-", "t", "f", "n") or candidate[:1].isdigit():
        try:
            return json.loads(candidate, parse_constant=_refuse)
        except (ValueError, RecursionError):
            pass
    return value


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN and Infinity: keep the text as written.


def _json_readings(values: list[Any], where: str) -> list[CallReading]:
    """The calls in decoded JSON values: call objects, or arrays of them (see `calls_in`)."""
    if len(values) == 1:  # The usual block: one call object or one array.
        return calls_in(values[0], where)
    return [reading for value in values for reading in calls_in(value, where)]


BlockReader = Callable[[str, TagBlock], tuple[list[CallReading], int] | None]
"""Reads a block that is not JSON: its calls and where its markup ends, or None when it holds none."""


def parse_tagged_json(
    text: str, open_tag: str, close_tag: str, *, bare_names: bool = False, other: BlockReader | None = None
) -> Parsed | None:
    """Read calls written as JSON inside `open_tag…close_tag` blocks; None when there are none.

    Args:
        text: the answer.
        open_tag: e.g. `<tool_call>`.
        close_tag: e.g. `</tool_call>`.
        bare_names: whether a closed block holding only a tool name is a call without arguments.
        other: reads a block whose body starts with a letter and is no bare name (another
            format's body in the same tags); needs `bare_names`. Its reading may depend on the
            block's body, whether it is closed and whether it ends the text, nothing else: a
            body written again is not read again (`RepeatedBlocks`).
    """
    where = f"in {open_tag}"
    first_chars = r"\[{A-Za-z_" if bare_names else r"\[{"
    clean = _read_clean_answer(text, open_tag, close_tag, first_chars, where)
    if clean is not None:
        return clean
    spans: list[tuple[int, int]] = []
    readings: list[CallReading] = []
    budget = TagBudget()
    interpret = partial(_json_readings, where=where)

    def read_other(block: TagBlock) -> BlockReading:
        found = read_json_block(text, block, interpret, where)
        if found is None and bare_names:
            found = _read_bare_name(text, block)
        if found is None and other is not None:
            found = other(text, block)
        return found

    repeated = RepeatedBlocks(text, read_other)
    for block in tag_blocks(text, open_tag, close_tag, first_chars, budget):
        found = _read_clean_block(text, block, where) or repeated.read(block)
        if found is not None:
            readings.extend(found[0])
            spans.append((block.start, found[1]))
    return to_parsed(text, spans, readings, budget) if readings else None


def _read_clean_block(text: str, block: TagBlock, where: str) -> tuple[list[CallReading], int] | None:
    """The usual block, read fast: closed, its body one strict JSON value and blank space; else None.

    Decoded in place, without copying the body out or the general reader's lists: what
    `read_json_block` makes of such a block, at a third of its cost per block. Anything else
    (JSON running past the close tag, prose, several values, lenient JSON) is left to it.
    """
    if not block.closed:
        return None
    first = skip_space(text, block.body_start, block.body_end)
    if first == block.body_end or text[first] not in "{[":
        return None
    try:
        value, end = _SCAN(text, first)
    except (StopIteration, ValueError, RecursionError):
        return None
    if end > block.body_end or skip_space(text, end, block.body_end) != block.body_end:
        return None
    return calls_in(value, where), block.end


def read_json_block(
    text: str, block: TagBlock, interpret: Interpret, where: str, openers: str = "{["
) -> tuple[list[CallReading], int] | None:
    """Read a block whose body is JSON: the calls, and where the block's markup ends.

    Returns None when the body does not start with one of `openers` (not a JSON call attempt).
    In an unclosed block, prose after complete JSON stays content. `interpret` says what the
    decoded values mean (`_json_readings`: call objects, or arrays of them); `where` names the
    block in the reasons of rejections (see `decode_json`).
    """
    first = skip_space(text, block.body_start, block.body_end)
    if first == block.body_end or text[first] not in openers:
        return None
    body = text[first : block.body_end]
    values, stop = _decode_json_values(body, openers)
    rest = body[stop:].rstrip()
    if not values:
        return _read_lines(body.rstrip(), interpret, where), block.end
    if not rest or (block.closed and not rest.strip("}]")):
        return interpret(values), block.end  # Ignores the stray `}` Qwen2.5 sometimes adds.
    if not block.closed and rest[0] not in openers:
        return interpret(values), first + stop  # The block ended with its JSON.
    return interpret(values) + _read_lines(rest, interpret, where), block.end


def _decode_json_values(body: str, openers: str = "{[") -> tuple[list[Any], int]:
    """Decode strict JSON values, each starting with one of `openers`, one after another.

    Returns the values and the offset of the first character (after blank space) not decoded.
    """
    values: list[Any] = []
    position = skip_space(body, 0)
    while position < len(body) and body[position] in openers:
        try:
            value, position = _DECODER.raw_decode(body, position)
        except (ValueError, RecursionError):
            break
        values.append(value)
        position = _after_separator(body, skip_space(body, position), openers)
    return values, position


def _after_separator(body: str, position: int, openers: str) -> int:
    """Past one `,` between two values (`{…}, {…}`, as Nemotron and Qwen2.5-Coder write): else `position`.

    vLLM's Nemotron and Qwen2.5-Coder parsers wrap such a body in `[…]`: each object is a call.
    """
    if position < len(body) and body[position] == ",":
        after = skip_space(body, position + 1)
        if after < len(body) and body[after] in openers:
            return after
    return position


def _read_lenient(body: str, interpret: Interpret, where: str) -> list[CallReading]:
    """Read a JSON body the strict decoder refused: leniently, or as a rejection saying why not."""
    value = decode_json(body, where)
    if not isinstance(value, RejectedCall):
        return interpret([value])
    if value.kind == "malformed" and (items := array_items(body)) is not None:  # One bad item hides no other.
        return read_items(items, lambda item: _one_item(decode_json(item, where), interpret))
    return [value]


def _one_item(value: object, interpret: Interpret) -> list[CallReading]:
    return [value] if isinstance(value, RejectedCall) else interpret([value])


def _read_lines(body: str, interpret: Interpret, where: str) -> list[CallReading]:
    """Read a JSON body leniently; if it is unreadable as a whole, one JSON call per line.

    MiniMax-M1 writes one call object per line in `<tool_calls>`: a line that cannot be read is
    rejected on its own, and never hides the valid calls after it.
    """
    readings = _read_lenient(body, interpret, where)
    if len(readings) != 1 or not isinstance(readings[0], RejectedCall) or "\n" not in body:
        return readings
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    if len(lines) < 2 or any(line[0] not in "{[" for line in lines):
        return readings
    return [reading for line in lines for reading in _read_lenient(line, interpret, where)]


def _read_bare_name(text: str, block: TagBlock) -> tuple[list[CallReading], int] | None:
    """GLM's no-argument call, `<tool_call>get_time</tool_call>`; only a closed block counts."""
    if not block.closed:
        return None
    name = text[block.body_start : block.body_end].strip()
    return ([Candidate(name, {})], block.end) if is_tool_name(name) else None
