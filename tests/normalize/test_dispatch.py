"""The fast paths of `parse_response` give exactly what asking every strategy in turn gives.

Three shortcuts (issue 13, parse_response speed): strategies whose declared markers a text does
not hold are not asked (`_dispatch`); tagged JSON answers whose blocks are all clean JSON are
read in one pass (`_tags._read_clean_answer`); the clean JSON envelope goes straight to its
`Completion` (`_clean_envelope`). Each is checked against the general path it replaces, on
every table case of the normalizer's tests and on generated text (hypothesis).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmrelay import Completion, parse_response
from llmrelay.normalize import Parsed, Strategy, _dispatch, _parse, _tags
from llmrelay.normalize._budget import MAX_TAGS
from llmrelay.normalize._clean_envelope import read_envelope
from llmrelay.normalize._dispatch import declared_markers, first_reading, plan_for
from llmrelay.normalize._parse import read_capped
from llmrelay.normalize._tags import parse_tagged_json
from llmrelay.normalize.strategies import DEFAULT_STRATEGIES, HermesToolCall, JsonDocument, ToolCallMarker

from .test_incremental import table_cases
from .test_properties import FRAGMENTS

TEXTS = sorted({case.text for case in table_cases()})
# Fragments of every format, and the markers themselves, glued at random: text that is often
# almost a call, with markers where no strategy expects them.
MARKERS = sorted({m for s in DEFAULT_STRATEGIES for m in declared_markers(s) or ()})
glued = st.lists(st.one_of(st.sampled_from(FRAGMENTS + MARKERS), st.text(max_size=4)), max_size=30).map("".join)
SETTINGS = settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)


def every_strategy_asked(text: str, strategies: Sequence[Strategy]) -> tuple[str, Parsed] | None:
    """The reading before the markers: each strategy asked in turn, the first that reads wins."""
    for strategy in strategies:
        parsed = strategy.parse(text) if strategy.detect(text) else None
        if parsed is not None:
            return strategy.name, parsed
    return None


def named(found: tuple[Strategy, Parsed] | None) -> tuple[str, Parsed] | None:
    return None if found is None else (found[0].name, found[1])


# --- Markers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "strategy", [s for s in DEFAULT_STRATEGIES if declared_markers(s) is not None], ids=lambda s: s.name
)
def test_markers_are_what_detect_needs(strategy: Strategy) -> None:
    """A built-in strategy's `detect` accepts no table text that holds none of its markers."""
    markers = declared_markers(strategy) or frozenset()
    accepted = [text for text in TEXTS if strategy.detect(text)]
    assert [text for text in accepted if not any(m in text for m in markers)] == []


@SETTINGS
@given(text=glued)
def test_markers_hold_on_generated_text(text: str) -> None:
    for strategy in DEFAULT_STRATEGIES:
        markers = declared_markers(strategy)
        if markers is not None and strategy.detect(text):
            assert any(m in text for m in markers), (strategy.name, text)


@pytest.mark.parametrize("text", TEXTS)
def test_same_reading_on_every_table_case(text: str) -> None:
    assert named(first_reading(text, DEFAULT_STRATEGIES, [])) == every_strategy_asked(text, DEFAULT_STRATEGIES)


@SETTINGS
@given(text=st.one_of(glued, st.sampled_from(TEXTS).map(lambda t: f"Sure.\n{t}\n>>>")))
def test_same_reading_on_generated_text(text: str) -> None:
    assert named(first_reading(text, DEFAULT_STRATEGIES, [])) == every_strategy_asked(text, DEFAULT_STRATEGIES)


@SETTINGS
@given(text=glued, window=st.integers(1, 40))
def test_tags_found_a_window_at_a_time_are_all_there_are(text: str, window: int) -> None:
    """Scanned in windows (hostile text holds 200k tags), the tags found are those of one scan."""
    plan = plan_for(DEFAULT_STRATEGIES)
    expected = plan.markers_in(text)
    with mock.patch.object(_dispatch, "_WINDOW", window):
        assert plan.markers_in(text) == expected


class OwnMarkers:
    """A user strategy that declares its markers, as a built-in does."""

    name = "own"
    markers = ("@@call",)

    def detect(self, text: str) -> bool:
        return "@@call" in text

    def parse(self, text: str) -> Parsed | None:
        return Parsed(text="own")


class NoMarkers:
    """A user strategy of the Strategy protocol, declaring nothing: always asked."""

    name = "no_markers"

    def detect(self, text: str) -> bool:
        return text.startswith("!")

    def parse(self, text: str) -> Parsed | None:
        return Parsed(text="mine")


class LooserHermes(HermesToolCall):
    """A user's subclass that accepts more than its parent's markers: their markers are not its own."""

    name = "looser_hermes"

    def detect(self, text: str) -> bool:
        return "<call>" in text

    def parse(self, text: str) -> Parsed | None:
        return Parsed(text="looser")


class InstanceMarkers:
    name = "instance"

    def __init__(self) -> None:
        self.markers = ["<x>", "<y>"]

    def detect(self, text: str) -> bool:
        return "<x>" in text or "<y>" in text

    def parse(self, text: str) -> Parsed | None:
        return None


class BadMarkers(NoMarkers):
    name = "bad"
    markers = ("", 3)


@pytest.mark.parametrize(
    ("strategy", "expected"),
    [
        (HermesToolCall(), frozenset({"<tool_call>"})),
        (ToolCallMarker("CALL_TOOL"), frozenset({"CALL_TOOL"})),  # a property: the configured marker
        (OwnMarkers(), frozenset({"@@call"})),
        (NoMarkers(), None),
        (LooserHermes(), None),  # detect overridden below the class that declared the markers
        (InstanceMarkers(), frozenset({"<x>", "<y>"})),
        (BadMarkers(), None),  # not strings, or empty: declares nothing usable
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, frozenset | type(None)) else "",
)
def test_declared_markers(strategy: Strategy, expected: frozenset[str] | None) -> None:
    assert declared_markers(strategy) == expected


@pytest.mark.parametrize(
    ("text", "format"),
    [
        ("!hello", "no_markers"),  # no marker at all in the text: still asked
        ("see <call>", "looser_hermes"),  # the subclass is asked though <tool_call> is absent
        ("an @@call here", "own"),
        ("@@CALL", None),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call>', "looser_hermes"),
    ],
)
def test_user_strategies_keep_working(text: str, format: str | None) -> None:
    strategies = [NoMarkers(), LooserHermes(), OwnMarkers(), *DEFAULT_STRATEGIES]
    if format == "looser_hermes" and "<call>" not in text:
        format = "hermes"  # LooserHermes does not read <tool_call>: the built-in after it does.
    assert parse_response(text, strategies=strategies).format == format


# --- Clean tagged answers ----------------------------------------------------------------

names = st.sampled_from(["f", "get_weather", "bad name", "", "x" * 129, 5])
values = st.one_of(st.integers(), st.text(max_size=8), st.sampled_from(["</tool_call>", "<tool_call>", "<"]))
items = st.dictionaries(st.sampled_from(["name", "arguments", "id", "extra"]), st.one_of(names, values), max_size=3)
calls = st.one_of(
    st.builds(lambda n, a: {"name": n, "arguments": a}, names, st.dictionaries(st.text(max_size=3), values)),
    items,
)
bodies = st.one_of(
    calls.map(json.dumps), st.lists(calls, max_size=2).map(json.dumps), st.sampled_from(["get_time", "{", ""])
)
blank = st.sampled_from(["", "\n", " ", "\n\n", "\t", "\u00a0"])
TAGS = [
    ("<tool_call>", "</tool_call>"),
    ("<tool_calls>", "</tool_calls>"),
    ("<|action_start|><|plugin|>", "<|action_end|>"),
]


@st.composite
def tagged(draw: st.DrawFn) -> tuple[str, str, str]:
    open_tag, close_tag = draw(st.sampled_from(TAGS))
    blocks = draw(
        st.lists(
            st.tuples(
                blank, bodies, blank, st.sampled_from([close_tag, close_tag, ""]), st.sampled_from(["", "\n", "ok"])
            ),
            min_size=1,
            max_size=4,
        )
    )
    text = draw(st.sampled_from(["", "Sure.\n", close_tag])) + "".join(
        open_tag + a + body + b + close + after for a, body, b, close, after in blocks
    )
    return text, open_tag, close_tag


@SETTINGS
@given(case=tagged(), bare_names=st.booleans())
def test_clean_tagged_answer_reads_as_the_general_reader(case: tuple[str, str, str], bare_names: bool) -> None:
    text, open_tag, close_tag = case
    fast = parse_tagged_json(text, open_tag, close_tag, bare_names=bare_names)
    with mock.patch.object(_tags, "_read_clean_answer", return_value=None):
        assert fast == parse_tagged_json(text, open_tag, close_tag, bare_names=bare_names)


@pytest.mark.parametrize(
    "after",
    ["", "<tool_call>", '<tool_call>{"name": "f", "arguments": {}}</tool_call>', "<tool_call> and prose"],
    ids=["exactly the budget", "an open tag", "one block more", "a mention"],
)
def test_clean_tagged_answer_past_the_tag_budget(after: str) -> None:
    """Past `MAX_TAGS` blocks the rest is prose, with a rejection when a block starts there (as `tag_blocks`)."""
    text = '<tool_call>{"name": "f", "arguments": {}}</tool_call>\n' * MAX_TAGS + after
    fast = parse_tagged_json(text, "<tool_call>", "</tool_call>", bare_names=True)
    with mock.patch.object(_tags, "_read_clean_answer", return_value=None):
        assert fast == parse_tagged_json(text, "<tool_call>", "</tool_call>", bare_names=True)
    assert fast is not None and len(fast.calls) == MAX_TAGS


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        ('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>', True),
        ('A.\n<tool_call>{"name": "f", "arguments": {}}</tool_call>\nB.<tool_call> [] </tool_call>', True),
        ('<tool_call>{"name": "f", "arguments": {"s": "</tool_call>"}}</tool_call>', False),  # close tag in a string
        ('<tool_call>{"name": "f", "arguments": {}}', False),  # unclosed
        ('<tool_call>{"name": "f", "arguments": {}}}</tool_call>', False),  # Qwen2.5's extra brace
        ("<tool_call>get_time</tool_call>", False),  # a bare name
        ("no tag at all", False),
    ],
)
def test_which_tagged_answers_are_clean(text: str, clean: bool) -> None:
    found = _tags._read_clean_answer(text, "<tool_call>", "</tool_call>", r"\[{A-Za-z_", "in <tool_call>")
    assert (found is not None) == clean


# --- The clean envelope --------------------------------------------------------------------

flags = st.sampled_from([True, False, "true", "False", None, 1])
contents = st.sampled_from(["Checking.", "", None, 3, "<tool_call>{}</tool_call>"])
envelopes = st.fixed_dictionaries(
    {},
    optional={
        "toolCalls": st.one_of(st.lists(calls, max_size=3), st.just("none")),
        "content": contents,
        "needsMoreWork": flags,
        "tool_calls": st.lists(calls, max_size=1),
        "id": st.just("x"),
    },
)
around = st.sampled_from(["", " ", "\n", "\u00a0", "x", "}"])


def general(text: str, **kwargs: Any) -> Completion:
    """`parse_response` without the clean envelope's shortcut."""
    with mock.patch.object(_parse, "read_envelope", return_value=None):
        return parse_response(text, **kwargs)


@SETTINGS
@given(envelope=envelopes, after=around, max_calls=st.sampled_from([64, 1, 0]))
def test_clean_envelope_reads_as_the_general_path(envelope: dict[str, Any], after: str, max_calls: int) -> None:
    text = json.dumps(envelope) + after
    assert parse_response(text, max_calls=max_calls) == general(text, max_calls=max_calls)


@pytest.mark.parametrize(
    ("envelope", "clean"),
    [
        ({"toolCalls": [{"name": "f", "arguments": {"a": 1}}], "needsMoreWork": True}, True),
        ({"toolCalls": [{"id": "call_1", "name": "f", "arguments": {}}], "content": "Hi."}, True),
        ({"toolCalls": [], "needsMoreWork": "false"}, True),
        ({"toolCalls": [{"name": "f", "arguments": {}}] * 3}, True),  # over max_calls (2 here): one dropped
        ({"toolCalls": [{"name": "f", "arguments": {}, "id": ""}]}, False),  # an empty id
        ({"toolCalls": [{"name": "get weather", "arguments": {}}]}, False),  # not an identifier
        ({"toolCalls": [{"name": "f", "arguments": "{}"}]}, False),  # arguments as a JSON string
        ({"toolCalls": [], "id": "x"}, False),  # another key
        ({"tool_calls": []}, False),  # the snake_case envelope
    ],
)
def test_which_envelopes_are_clean(envelope: dict[str, Any], clean: bool) -> None:
    """A clean envelope gives its Completion; any other, JsonDocument's reading (decoded once)."""
    text = json.dumps(envelope)
    read = read_envelope(text, JsonDocument(), 2)
    assert isinstance(read, tuple) == clean
    if isinstance(read, tuple):
        assert read == read_capped(text, strict=False, max_calls=2)
    else:
        assert read == JsonDocument().parse(text)


@pytest.mark.parametrize("text", ["{", '{"toolCalls": []} x', '{"toolCalls": []}\u00a0', '{"a": NaN'])
def test_not_one_strict_json_object_is_left_to_the_general_path(text: str) -> None:
    assert read_envelope(text, JsonDocument(), 64) is None


# --- The clean envelope in a code fence ------------------------------------------------------

openings = st.sampled_from(["```json\n", "```\n", "``` JSON ", "```python\n", " \n```json\n", "x ```json\n"])
closings = st.sampled_from(["\n```", "```\n\n", "\n```<|im_end|>", "\n``` x", "\n```\n```", ""])
bodies = st.one_of(
    envelopes.map(json.dumps),
    envelopes.map(lambda envelope: json.dumps(envelope).replace('"', "'")),  # read leniently
    envelopes.map(lambda envelope: json.dumps(envelope) + " x"),
    st.sampled_from(['{"toolCalls": 5}', '{"toolCalls": [}', '{"toolCalls": []} </think>']),
)


def general_fenced(text: str, **kwargs: Any) -> Completion:
    """`parse_response` without the fenced envelope's shortcut."""
    with mock.patch.object(_parse, "_read_fenced_envelope", return_value=None):
        return parse_response(text, **kwargs)


@SETTINGS
@given(opening=openings, body=bodies, closing=closings, max_calls=st.sampled_from([64, 1, 0]))
def test_fenced_envelope_reads_as_the_general_path(opening: str, body: str, closing: str, max_calls: int) -> None:
    text = opening + body + closing
    assert parse_response(text, max_calls=max_calls) == general_fenced(text, max_calls=max_calls)


@pytest.mark.parametrize(
    ("text", "taken"),
    [
        ('```json\n{"toolCalls": [{"name": "f", "arguments": {}}]}\n```', True),
        ('\n```\n{"toolCalls": [], "content": "Hi."}\n```\n', True),
        ('```json\n{"toolCalls": [{"name": "f", "arguments": {}, "type": "function"}]}\n```', True),
        ("```json\n{\"toolCalls\": [], 'content': 'Hi.'}\n```", True),  # not strict JSON: FencedJson reads it
        ('```json\n{"toolCalls": []}\n```\nDone.', False),  # prose after the fence
        ('```json\n{"toolCalls": []}', False),  # unclosed
        ('```python\n{"toolCalls": []}\n```', False),  # not a JSON fence
        ('```json\n{"name": "f", "arguments": {}}\n```', False),  # a bare call, not an envelope
    ],
)
def test_which_fenced_answers_take_the_shortcut(text: str, taken: bool) -> None:
    plan = plan_for(DEFAULT_STRATEGIES)
    read = _parse._read_fenced_envelope(text, text, plan, 64, [])
    assert (read is not None) == taken
    if read is not None:
        assert read[0] == general_fenced(text)


@pytest.mark.parametrize(
    ("strategies", "tools", "strict"),
    [
        ([NoMarkers(), *DEFAULT_STRATEGIES], None, False),  # a user's strategy is asked first
        (DEFAULT_STRATEGIES[1:], None, False),  # no JsonDocument
        (DEFAULT_STRATEGIES, [{"name": "f"}], False),  # tools: calls are checked against them
        (DEFAULT_STRATEGIES, None, True),
    ],
)
def test_no_shortcut_where_it_would_not_be_the_answer(
    strategies: Sequence[Strategy], tools: list[Any] | None, strict: bool
) -> None:
    text = json.dumps({"toolCalls": [{"name": "f", "arguments": {}}]})
    with mock.patch.object(_parse, "read_envelope", side_effect=AssertionError("taken")):
        parse_response(text, tools=tools, strict=strict, strategies=strategies)
