"""`Pieces`, and what it is for: a stream of small chunks held in about the memory of its text."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable

import pytest

from llmrelay.normalize._incremental import IncrementalParser
from llmrelay.normalize._pieces import Pieces

# (id, the pieces appended, the text, whether it is blank)
APPENDED: list[tuple[str, list[str], str, bool]] = [
    ("nothing", [], "", True),
    ("empty pieces", ["", ""], "", True),
    ("blank pieces", [" ", "\n\t", ""], " \n\t", True),
    ("text after blank space", ["  ", "a", " b"], "  a b", False),
    ("over two blocks", list("ab" * (Pieces.BLOCK + 2)), "ab" * (Pieces.BLOCK + 2), False),
    ("blank blocks, then text", [" "] * Pieces.BLOCK + ["x"], " " * Pieces.BLOCK + "x", False),
]


@pytest.mark.parametrize(
    ("pieces", "text", "blank"), [(p, t, b) for _, p, t, b in APPENDED], ids=[i for i, *_ in APPENDED]
)
def test_pieces(pieces: list[str], text: str, blank: bool) -> None:
    kept = Pieces()
    for piece in pieces:
        kept.append(piece)
    assert kept.blank() is blank
    assert kept.text() == text
    assert kept.text() == text  # Asked again, once joined.
    kept.append("!")
    assert kept.text() == text + "!"
    assert kept.take() == text + "!"
    assert (kept.text(), kept.blank()) == ("", True)
    kept.append("?")
    assert kept.take() == "?"


def peak_per_character(run: Callable[[], object], size: int) -> float:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / size
    finally:
        tracemalloc.stop()


def stream(text: str, json_mode: bool) -> None:
    parser = IncrementalParser(json_mode=json_mode)
    for start in range(0, len(text), 4):  # Tokens of four characters, as providers send them.
        parser.feed(text[start : start + 4])
    parser.finish()


ENVELOPE = json.dumps({"content": "Checking, it is fine. " * 10_000, "toolCalls": [], "needsMoreWork": False})
ARGUMENTS = json.dumps(
    {"content": "", "toolCalls": [{"name": "write", "arguments": json.dumps({"text": "A line, of text.\n" * 12_000})}]}
)


@pytest.mark.parametrize(
    ("text", "json_mode"),
    [("The weather is nice today. " * 8_000, False), (ENVELOPE, True), (ARGUMENTS, True)],
    ids=["prose, text mode", "an envelope's content, json mode", "one call's arguments, json mode"],
)
def test_a_stream_of_small_chunks_holds_less_than_10x_its_text(text: str, json_mode: bool) -> None:
    # Each 4-character chunk kept as its own string cost ~13x the text per copy (up to 37x in all).
    assert peak_per_character(lambda: stream(text, json_mode), len(text)) < 10


def test_a_streamed_envelope_of_many_small_calls_keeps_little_per_call() -> None:
    # Every item, its reading and its call were kept to the end: 20,000 calls held 30x their text.
    text = json.dumps({"content": "", "toolCalls": [{"name": "get_weather", "arguments": {"city": "Paris"}}] * 3_000})
    parser = IncrementalParser(json_mode=True)

    def feed() -> None:
        for start in range(0, len(text), 4):
            parser.feed(text[start : start + 4])

    assert peak_per_character(feed, len(text)) < 4
    _, completion = parser.finish()
    assert len(completion.tool_calls) == 128 and completion.rejected[0].kind == "malformed"
