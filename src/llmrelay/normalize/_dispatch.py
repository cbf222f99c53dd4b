"""Ask the strategies in order, skipping those whose markers the text does not hold.

Most formats are recognised by a fixed string (`<tool_call>`, `[TOOL_CALLS]`, a fence), and
each strategy's `detect` scans the whole text for its own: on a 1 MB answer, some twenty full
scans before the strategy that matches. A strategy may declare `markers` instead: strings of
which at least one occurs in every text its `detect` accepts. The markers of all strategies
are looked for together, in a few scans, and a strategy none of whose markers occur is not
asked: its `detect` would have said no. Every other strategy is asked exactly as before, in the
same order, so the first that reads the text is the same one (a strategy that declares nothing
is always asked).

How the markers are looked for, cheapest first:

- Markers that start with `<` (the tags and special tokens of most formats): one search for
  `<`, and when it occurs, a regex of all of them matched at each `<` (`memchr` goes from one
  to the next); past a few thousand `<`, a regex scan of the rest for the tags not yet found.
- Any other marker: its two rarest characters (`A` and `:` in `Action:`), each one `in` of a
  single character, which `memchr` answers some forty times faster than a scan for a longer
  string. When both occur the marker may: it is looked for only once a strategy needs it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ._types import Parsed, Strategy

# Characters by how common they are in answers (prose and JSON), most common first; a marker's
# anchors are its characters furthest down this list (any character not in it is rarer still).
_COMMON = " etaoinsrhldcumfpgwybvkxjqz\n\"',.:_{}0123456789-[]()TAISOCMWHBNLPDRFEGYUVKJQXZ"


class Plan:
    """The strategies to ask, in order, with the markers each declared (None: always asked)."""

    def __init__(self, strategies: Sequence[Strategy]) -> None:
        from .strategies.fenced_json import FencedJson  # Deferred: strategies import this package.
        from .strategies.json_document import JsonDocument

        self.strategies = tuple(strategies)
        self.steps = tuple((s, declared_markers(s)) for s in self.strategies)
        first = self.strategies[0] if self.strategies else None
        self.json_first = first if type(first) is JsonDocument else None
        """The built-in `JsonDocument`, when it is asked first (see `_clean_envelope`)."""
        self.fenced_json = next((s for s in self.strategies if type(s) is FencedJson), None)
        """The built-in `FencedJson`, when it is one of the strategies (see `_parse._read_fenced_envelope`)."""
        # The strategies before the first with markers are asked before any marker is looked
        # for: a whole-JSON answer, read by the first strategy, costs no scan for markers.
        lead = next((i for i, (_, declared) in enumerate(self.steps) if declared is not None), len(self.steps))
        self.head = self.strategies[:lead]
        self._tail = self.steps[lead:]
        self._asked: dict[frozenset[str], tuple[tuple[Strategy, frozenset[str] | None], ...]] = {}
        markers = {marker for _, declared in self.steps if declared for marker in declared}
        # A tag marker holds no other `<`: an occurrence can then never start inside the match
        # of another one, so one scan of non-overlapping matches finds every tag marker there is.
        tags = sorted((m for m in markers if m[0] == "<" and "<" not in m[1:]), key=len, reverse=True)
        # At each `<` the longest marker matches; the shorter ones written there are inside it
        # (`_within`). The tags as a trie: text full of `<` costs one test per character after
        # each `<`, not one per tag.
        self._tags = re.compile("<" + _trie_pattern([tag[1:] for tag in tags])) if tags else None
        self._within = {tag: frozenset(m for m in tags if m in tag) for tag in tags}
        self._tag_list = tags
        self._others: dict[frozenset[str], re.Pattern[str] | None] = {}
        self._longest_tag = len(tags[0]) if tags else 0
        anchored: dict[tuple[str, str], list[str]] = {}
        for marker in sorted(markers.difference(tags)):
            anchored.setdefault(_anchors(marker), []).append(marker)
        self._anchored = tuple((rare, other, frozenset(found)) for (rare, other), found in anchored.items())

    def markers_in(self, text: str) -> dict[str, bool | None]:
        """The markers that may occur in `text`: True when one does, None when it may.

        Tag markers, and markers of one character, are found for certain. Another marker may
        occur when its two anchors do: `occurs` settles it, only if a strategy needs to know.
        """
        found: dict[str, bool | None] = {}
        for rare, other, markers in self._anchored:
            if rare in text and other in text:
                for marker in markers:
                    found[marker] = True if marker == rare else None
        if self._tags is not None and "<" in text:
            for tag in self._tags_in(text, self._tags):
                found.update(dict.fromkeys(self._within[tag], True))
        return found

    def _tags_in(self, text: str, tags: re.Pattern[str]) -> set[str]:
        """The tag markers in `text`: at each `<`, while they are few; then a window at a time.

        `str.find` goes from one `<` to the next with `memchr`, several times faster than the
        regex scan, which tests every character: a megabyte of Hermes blocks or of prose holds
        a few hundred `<` at most. Hostile text holds 200k of them: past `_TAG_VISITS`, the rest
        is scanned by a regex of the tags not found yet (`_other_tags`), whose `findall` lists
        only those. Windows overlap by a tag's length: a tag cut at a window's end is whole in
        the next one (and what the cut window matched is the start of that tag, a marker all
        the same).
        """
        found: set[str] = set()
        find, match = text.find, tags.match
        position = find("<")
        for _ in range(_TAG_VISITS):
            if position == -1:
                return found
            if (tag := match(text, position)) is not None:
                found.add(tag.group())
            position = find("<", position + 1)  # A tag holds no other `<`: the next one is after it.
        step, overlap = _WINDOW, self._longest_tag
        others = self._other_tags(found) if position != -1 else None
        for start in range(position, len(text), step):
            if others is None:
                break
            if new := others.findall(text, max(start - overlap, position), start + step):
                found.update(new)
                others = self._other_tags(found)
        return found

    def _other_tags(self, found: set[str]) -> re.Pattern[str] | None:
        """A regex of the tags not in `found` nor written inside one of them; None when none is left.

        Where the longest tag written is one already known, none of these matches (the shorter
        tags written there are inside it), so a scan finds exactly the tags a full scan would
        add; hostile text repeating a few tags 200k times is scanned without listing them
        again. Kept per set of tags known: compiling the trie takes a millisecond.
        """
        known = frozenset(marker for tag in found for marker in self._within[tag])
        if not known:
            return self._tags
        if known in self._others:
            return self._others[known]
        left = [tag[1:] for tag in self._tag_list if tag not in known]
        others = re.compile("<" + _trie_pattern(left)) if left else None
        if len(self._others) < _MAX_KEPT:
            self._others[known] = others
        return others

    def tail_for(self, found: dict[str, bool | None]) -> tuple[tuple[Strategy, frozenset[str] | None], ...]:
        """The strategies after `head` that may read a text holding the markers `found`, in order.

        Kept per set of markers found (answers hold few distinct ones), so the loop over the
        strategies touches only those to ask: a short answer costs less than one scan per strategy.
        """
        key = frozenset(found)
        tail = self._asked.get(key)
        if tail is None:
            tail = tuple(step for step in self._tail if step[1] is None or not step[1].isdisjoint(key))
            if len(self._asked) < _MAX_KEPT:
                self._asked[key] = tail
        return tail


_MAX_KEPT = 256  # Sets of markers found whose strategies to ask are kept, per plan.
_WINDOW = 1 << 18  # Characters scanned for tags at a time (see `Plan._tags_in`).
_TAG_VISITS = 2048  # `<` visited one by one before the regex scans the rest (see `Plan._tags_in`).


def occurs(markers: frozenset[str], found: dict[str, bool | None], text: str) -> bool:
    """Whether one of `markers` occurs in `text`, settling in `found` those that only may."""
    maybe = []
    for marker in markers:
        state = found.get(marker, False)
        if state:
            return True
        if state is None:
            maybe.append(marker)
    for marker in maybe:  # A full scan each: only once no marker is known to be there.
        state = found[marker] = _search(marker)(text)
        if state:
            return True
    return False


def _trie_pattern(words: Sequence[str]) -> str:
    """A regex matching the longest of `words` that starts where it is tried (their prefixes shared).

    Branches of a trie start with distinct characters, so at most one goes on; a word that ends
    where longer ones go on makes the rest optional (greedy: the longer one when it is there).
    """
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # A word ends here.
    return _node_pattern(trie)


def _node_pattern(node: dict[str, Any]) -> str:
    branches = [re.escape(char) + _node_pattern(child) for char, child in sorted(node.items()) if char]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body


def declared_markers(strategy: Strategy) -> frozenset[str] | None:
    """The markers `strategy` declares for its `detect`, or None when it declares none it can keep.

    Markers declared above the class that defines `detect` are not trusted: a subclass that
    overrides `detect` (a user's, often) may accept texts without its parent's markers.
    """
    markers = getattr(strategy, "markers", None)
    if not isinstance(markers, tuple | list | frozenset | set) or not markers:
        return None
    if not all(isinstance(m, str) and m for m in markers):
        return None
    if "markers" not in getattr(strategy, "__dict__", {}):  # An instance's own markers are its own.
        mro = type(strategy).__mro__
        owner = next((c for c in mro if "markers" in vars(c)), None)
        detector = next((c for c in mro if "detect" in vars(c)), None)
        if owner is None or detector is None or mro.index(owner) > mro.index(detector):
            return None
    return frozenset(markers)


@functools.cache
def _search(marker: str) -> Callable[[str], bool]:
    """How to look for `marker` in a text: `str.find`, or for a short one, from its first character on.

    `str.find` skips ahead by the length of the string it looks for: three characters (`>>>`)
    at a time. A short marker is looked for at each occurrence of its first character instead,
    found with `memchr` (a third faster on markup with a `>` every 1000 characters), and past
    `_VISITS` of them by a regex, which tests every character in C.
    """
    if len(marker) > 5:
        return lambda text: text.find(marker) != -1
    pattern, head = re.compile(re.escape(marker)), marker[0]

    def search(text: str) -> bool:
        find, position = text.find, text.find(head)
        for _ in range(_VISITS):
            if position == -1:
                return False
            if text.startswith(marker, position):
                return True
            position = find(head, position + 1)
        return pattern.search(text, position) is not None

    return search


_VISITS = 4096  # Occurrences of a short marker's first character visited one by one, at most.


def _anchors(marker: str) -> tuple[str, str]:
    """The two characters of `marker` least likely to occur in an answer (see `_COMMON`), rarest first.

    Both must occur for the marker to: two `memchr`s, and "Checking" (a `k`, no `v`) does not
    send `invoke` to a full scan. A marker of one distinct character gives it twice.
    """
    rarity = sorted(set(marker), key=lambda c: (_COMMON.find(c) if c in _COMMON else len(_COMMON), c), reverse=True)
    return rarity[0], rarity[min(1, len(rarity) - 1)]


_last_plan: Plan | None = None


def plan_for(strategies: Sequence[Strategy]) -> Plan:
    """The plan for these strategies: the last one made when they are the same objects."""
    global _last_plan
    plan = _last_plan
    if plan is not None and (
        strategies is plan.strategies  # The registered strategies, as a rule.
        or (
            len(strategies) == len(plan.strategies)
            and all(a is b for a, b in zip(strategies, plan.strategies, strict=True))
        )
    ):
        return plan
    plan = _last_plan = Plan(strategies)
    return plan


def first_reading(
    text: str, strategies: Sequence[Strategy], warnings: list[str] | None
) -> tuple[Strategy, Parsed] | None:
    """The first strategy, in order, that reads `text`, and its reading; None when none does.

    A strategy that raises is skipped: with `warnings`, a warning says so. A broken (possibly
    user) strategy must not break `parse_response`'s contract of never raising on a `str`.
    """
    plan = _last_plan
    if plan is None or strategies is not plan.strategies:
        plan = plan_for(strategies)
    # `first_of(asked(text, plan), ...)`, written out: the generator costs a tenth of a short answer.
    for strategy in plan.head:
        if (parsed := ask(strategy, text, warnings)) is not None:
            return strategy, parsed
    found = plan.markers_in(text)
    for strategy, markers in plan.tail_for(found):
        if markers is not None and not occurs(markers, found, text):
            continue
        if (parsed := ask(strategy, text, warnings)) is not None:
            return strategy, parsed
    return None


def asked(text: str, plan: Plan) -> Iterator[Strategy]:
    """The strategies `first_reading` asks about `text`, in order: those whose markers may occur in it.

    Lazy: the markers are looked for only once `plan.head` has been asked.
    """
    yield from plan.head
    found = plan.markers_in(text)
    for strategy, markers in plan.tail_for(found):
        if markers is None or occurs(markers, found, text):
            yield strategy


def first_of(order: Iterable[Strategy], text: str, warnings: list[str] | None) -> tuple[Strategy, Parsed] | None:
    """The first of `order` that reads `text`, and its reading (see `first_reading`)."""
    for strategy in order:
        if (parsed := ask(strategy, text, warnings)) is not None:
            return strategy, parsed
    return None


def ask(strategy: Strategy, text: str, warnings: list[str] | None) -> Parsed | None:
    """The strategy's reading of `text`, or None: not its format, or it raised (with a warning)."""
    try:
        return strategy.parse(text) if strategy.detect(text) else None
    except Exception as exc:
        if warnings is not None:
            warnings.append(f"strategy {strategy.name!r} failed and was skipped: {exc!r}")
        return None
