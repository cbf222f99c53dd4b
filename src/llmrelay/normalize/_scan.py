"""Find balanced `{…}` and `[…]` regions in prose, in linear time: `iter_json_spans`.

    I'll look that up. {"name": "search", "arguments": {"q": "a } in a string"}} Done.
                       ^ span start                                          ^ span end

Only double-quoted strings are strings: braces inside them do not count. Quotes outside any
region are prose, and so are apostrophes everywhere ("don't" opens nothing), which means a
single-quoted `{'a': '}'}` is cut at the quoted brace; the lenient loader then reports it.

Why not the obvious loop (seed 001's `_find_balanced_json`: from every `{`, walk forward until
the depth returns to zero)? On a megabyte of `{` that is 10^12 steps. Here one left-to-right
pass keeps a stack of open brackets, so each character is looked at a constant number of times:

- regexes jump from one run of brackets to the next (strings are skipped inside the regex), so
  Python code runs once per *run* (`{{[`), not per character; a long region that is valid
  JSON is measured by the C scanner of `json`, one item at a time (`_leading_items`);
- a region that never closes (a stray `{` in prose) does not hide the regions inside it: they
  are yielded at the end of the text, or once `max_candidates` of them are waiting;
- a closer of the wrong kind (`{"a": [1}`) ends the attempt: the regions closed inside it are
  yielded and the scan starts afresh after that closer.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator

__all__ = ["find_balanced_end", "iter_json_spans", "json_prefix"]

Span = tuple[int, int]


def possessive(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern)`, its `*+` possessive where Python has them (3.11+), plain `*` on 3.10."""
    return re.compile(pattern if sys.version_info >= (3, 11) else pattern.replace("*+", "*"), flags)


_OPENER = re.compile(r"[{\[]")
# Possessive quantifiers (`*+`): what each one stops at can only be matched by what follows, so
# giving text back could never help; and the regex engine then keeps no backtracking state per
# repetition, which on 200k strings in a row cost ~70 bytes of memory per input character.
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
# From inside a region: skip text, whole strings and opening brackets, stop at the next run of
# closers. The openers skipped are listed only when closers need them (_OPENER_RUNS), so a
# region that never closes costs no Python work per bracket. An unclosed quote (the group
# `(")`) means no later quote can close either: the scan goes on with the _NO_STRINGS patterns.
# The `\Z` alternatives keep a match from failing, so none is retried from later positions.
_INSIDE = possessive(rf'[^"}}\]]*+(?:{_STRING}[^"}}\]]*+)*+(?:([}}\]]+)|(")|\Z)', re.DOTALL)
_INSIDE_NO_STRINGS = possessive(r"[^}\]]*+(?:([}\]]+)|\Z)")
_OPENER_RUNS = possessive(rf'[^"{{\[]*+(?:{_STRING}[^"{{\[]*+)*+(?:([{{\[]+)|\Z)', re.DOTALL)
_OPENER_RUNS_NO_STRINGS = possessive(r"[^{\[]*+(?:([{\[]+)|\Z)")
_CLOSE, _QUOTE = 1, 2
_CLOSER_FOR = str.maketrans("{[", "}]")
_CLOSER_FOR_OPENER = {"{": "}", "[": "]"}
_DECODER = json.JSONDecoder(strict=False)
_SCAN_ONCE = _DECODER.scan_once  # type: ignore[attr-defined]  # the C scanner: one value at a position
_BLANK = re.compile(r"[ \t\n\r]*")
_BLANKS = (" ", "\t", "\n", "\r")
# A region still open after this many runs of closers may be long valid JSON: try the C decoder.
_DECODE_AFTER = 64
# `nested=True` looks this many levels inside each region.
_NESTED_LEVELS = 3


def iter_json_spans(text: str, start: int = 0, *, max_candidates: int = 1000, nested: bool = False) -> Iterator[Span]:
    """Yield `(start, end)` of each balanced `{…}` / `[…]` region in `text`, in order.

    Regions do not overlap: one inside another is not yielded (unless `nested`). The regions
    are balanced, not necessarily valid JSON; parse them with `loads_lenient`.

    Args:
        text: the text to search.
        start: where to start searching.
        max_candidates: yield at most this many spans, and make at most this many attempts
            (an attempt starts at an opener outside any region; a failed one such as `{]`
            counts too). A bracket that never closes is given up once this many regions wait
            inside it. So text made of thousands of tiny regions (`{}{}{}…`) costs little.
        nested: also yield, right after each region, the regions inside it, down to three
            levels (so a region comes before the regions it contains). For callers that look
            inside a region only when it does not parse: skip the spans that start before the
            end of the last region read. Each level costs at most one more pass over the text,
            for the scan and for the caller's parsing alike, so the total work stays linear.
    """
    remaining = max_candidates
    for span in _spans(text, start, len(text), max_candidates, _NESTED_LEVELS if nested else 0):
        if remaining <= 0:
            return
        remaining -= 1
        yield span


def find_balanced_end(text: str, start: int) -> int | None:
    """The end (exclusive) of the region opened at `text[start]`, or None if it never closes.

    `text[start]` must be `{` or `[`; for anything else the answer is None. A closer of the
    wrong kind before the end counts as never closing. The cost is linear in what is scanned:
    the region, or the rest of the text when the region never closes.
    """
    if text[start : start + 1] not in ("{", "["):
        return None
    return _scan_group(text, start, len(text), 0, True)[2]


def json_prefix(text: str) -> tuple[str, str] | None:
    """Split `text` into the object or array it starts with (after blank space) and the rest.

    None when `text` does not start with `{` or `[`. The JSON ends where its brackets balance
    (`find_balanced_end`); when they never do (the answer was cut off), it runs to the end.
    """
    start = len(text) - len(text.lstrip())
    if text[start : start + 1] not in ("{", "["):
        return None
    end = find_balanced_end(text, start) or len(text)
    return text[start:end], text[end:]


def _spans(text: str, pos: int, end: int, budget: int, levels: int) -> Iterator[Span]:
    """Maximal balanced regions in `text[pos:end]`, each followed by its inner ones if `levels`."""
    for span in _maximal(text, pos, end, budget):
        yield span
        if levels:
            yield from _spans(text, span[0] + 1, span[1] - 1, budget, levels - 1)


def _maximal(text: str, pos: int, end: int, budget: int) -> Iterator[Span]:
    strings = True  # once a quote never closes, no later one can: see _INSIDE
    for _ in range(budget):  # each attempt, found or failed, is one of the candidates
        match = _OPENER.search(text, pos, end)
        if match is None:
            return
        regions, pos, _, strings = _scan_group(text, match.start(), end, budget, strings)
        yield from regions


def _scan_group(
    text: str, start: int, end: int, budget: int, strings: bool
) -> tuple[list[Span], int, int | None, bool]:
    """Scan from the opener at `start` until its brackets close or the attempt ends.

    Returns the closed regions not inside one another, where to search on, where the opener's
    own region ends (None if it did not close), and whether quotes still open strings. One
    function with local variables, not a class, because this loop is the scanner's hot path.
    """
    stack: list[list[int]] = []  # runs of open brackets: [position, how many still open]
    skipped: list[tuple[int, int, bool]] = []  # stretches with openers not yet listed in `stack`
    regions: list[Span] = []
    pattern = _INSIDE if strings else _INSIDE_NO_STRINGS
    pos = start
    closer_runs = 0
    while True:
        match = pattern.match(text, pos, end)
        if match is None:  # cannot happen: each pattern matches the empty string before \Z
            return regions, end, None, strings
        kind = match.lastindex
        if match.start() < match.start(kind or 0):
            skipped.append((match.start(), match.start(kind or 0), strings))
        pos = match.end()
        if kind is None:
            return regions, end, None, strings  # the end: brackets still open stay unclosed
        if kind == _QUOTE:
            pattern, strings = _INSIDE_NO_STRINGS, False
            continue
        if skipped:
            stack.extend(_opener_runs(text, skipped))
            skipped.clear()
        closer_runs += 1
        if closer_runs == _DECODE_AFTER and stack and stack[0][0] == start:
            items, resume, decoded_end = _leading_items(text, start, end)
            if decoded_end is not None:  # a long region of valid JSON: measured in C
                return [(start, decoded_end)], decoded_end, decoded_end, strings
            if resume > pos:  # its first items are valid JSON: read on from the first that is not
                regions, stack, pos = items, [[start, 1]], resume
                continue
        at = match.start(kind)
        closers = match.group(kind)
        done = 0
        while done < len(closers) and stack:
            run_at, open_count = top = stack[-1]
            count = min(open_count, len(closers) - done)
            wanted = text[run_at + open_count - count : run_at + open_count][::-1].translate(_CLOSER_FOR)
            matched = _common_prefix(wanted, closers[done : done + count])
            if matched:
                top[1] -= matched
                if not top[1]:
                    stack.pop()
                region_start = run_at + open_count - matched
                while regions and regions[-1][0] >= region_start:
                    regions.pop()  # inside the region just closed
                regions.append((region_start, at + done + matched))
                done += matched
            if matched < count:  # a closer of the wrong kind: this attempt is over
                return regions, at + done + 1, None, strings
        if not stack:  # the opener's region closed; any closers left over are stray
            closed_at = regions[-1][1] if regions and regions[-1][0] == start else None
            return regions, at + done, closed_at, strings
        if len(regions) >= budget > 0:  # too many regions wait on unclosed brackets
            return regions, pos, None, strings


def _opener_runs(text: str, stretches: list[tuple[int, int, bool]]) -> list[list[int]]:
    """The runs of opening brackets in stretches skipped over, outside strings, in order."""
    runs = []
    for start, stop, strings in stretches:
        pattern = _OPENER_RUNS if strings else _OPENER_RUNS_NO_STRINGS
        runs += [[m.start(1), m.end(1) - m.start(1)] for m in pattern.finditer(text, start, stop) if m.lastindex]
    return runs


def _leading_items(text: str, start: int, end: int) -> tuple[list[Span], int, int | None]:
    """The leading items of the array or object at `start` that are valid JSON, read by the C scanner.

    Returns the regions among them (the items that are arrays or objects), where reading
    resumes (at the first item that is not valid JSON, or after the last one), and where the
    region ends when all of it is valid JSON (None otherwise). One item broken near the end of
    a megabyte-long array then costs one C call per item, not a Python step per run of
    brackets; and only one item's value is held at a time, not the whole array's.

    Read in growing slices, never the whole text: the error the scanner raises counts the
    lines before its position, which from deep in a long text costs O(position).
    """
    size = 4096
    while True:
        stop = min(start + size, end)
        regions, resume, failed_at = _valid_items(text[start:stop], start)
        if failed_at is None:
            return regions, start + resume, start + resume + 1
        if failed_at < stop - start - 8 or stop >= end:  # an item is broken (not cut by the slice)
            return regions, start + resume, None
        size *= 4


def _valid_items(chunk: str, offset: int) -> tuple[list[Span], int, int | None]:
    """`_leading_items` in `chunk`, which starts with the opener at `offset` in the text.

    The regions are positions in the text; where reading resumes and failed (None: the region
    closed) are positions in `chunk`.
    """
    regions: list[Span] = []
    resume = pos = _skip_blank(chunk, 1)
    is_object = chunk[0] == "{"
    while True:
        try:
            if is_object:  # a key, a colon, then the value
                if chunk[pos] != '"' or chunk[(pos := _skip_blank(chunk, _SCAN_ONCE(chunk, pos)[1]))] != ":":
                    return regions, resume, _closed_or(chunk, resume, pos)
                pos = _skip_blank(chunk, pos + 1)
            value_end = _SCAN_ONCE(chunk, pos)[1]
        except StopIteration as exc:
            return regions, resume, _closed_or(chunk, resume, exc.value)
        except json.JSONDecodeError as exc:
            return regions, resume, len(chunk) if exc.msg.startswith("Unterminated string") else exc.pos
        except IndexError:
            return regions, resume, len(chunk)
        except (ValueError, RecursionError):
            return regions, resume, pos
        if chunk[pos] in "{[":
            regions.append((offset + pos, offset + value_end))
        resume = value_end if chunk.startswith(",", value_end) else _skip_blank(chunk, value_end)
        if resume >= len(chunk) or chunk[resume] != ",":
            return regions, resume, _closed_or(chunk, resume, resume)
        usual = chunk.startswith(", ", resume) and not chunk.startswith(_BLANKS, resume + 2)  # then no more to skip
        pos = resume + 2 if usual else _skip_blank(chunk, resume + 1)


def _closed_or(chunk: str, resume: int, failed_at: int) -> int | None:
    """None when the region closes at `resume` (after its last item, or empty): else where reading failed."""
    return None if chunk.startswith(_CLOSER_FOR_OPENER[chunk[0]], resume) else failed_at


def _skip_blank(text: str, pos: int) -> int:
    """Where the blank space at `pos` ends."""
    return _BLANK.match(text, pos).end()  # type: ignore[union-attr]  # `*` always matches


def _common_prefix(a: str, b: str) -> int:
    if a == b:
        return len(a)
    return next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
