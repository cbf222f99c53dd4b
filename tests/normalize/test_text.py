"""Content made of the prose around markup: `cut_spans` and `join_pieces` join it alike."""

from __future__ import annotations

import pytest

from llmrelay.normalize._text import cut_spans, join_pieces

# (id, pieces, content)
PIECES: list[tuple[str, list[str], str]] = [
    ("nothing", [], ""),
    ("trimmed where cut", ["Let me check.\n", "\nDone."], "Let me check.\nDone."),
    ("blank pieces dropped", ["a", "  \n ", "", "b"], "a\nb"),
    ("inner newlines kept", [" line 1\n\nline 2 "], "line 1\n\nline 2"),
]


@pytest.mark.parametrize(("pieces", "content"), [(p, c) for _, p, c in PIECES], ids=[i for i, _, _ in PIECES])
def test_join_pieces(pieces: list[str], content: str) -> None:
    assert join_pieces(pieces) == content


def test_cut_spans_joins_the_pieces_between_spans() -> None:
    text = "Let me check.\n<tool_call>{}</tool_call>\n  \n<tool_call>{}</tool_call>\nDone."
    first, second = text.index("<tool_call>"), text.rindex("<tool_call>")
    spans = [(first, text.index("\n", first)), (second, text.rindex("\n"))]
    assert cut_spans(text, spans) == "Let me check.\nDone."
    assert cut_spans(text, spans) == join_pieces(
        [text[: spans[0][0]], text[spans[0][1] : spans[1][0]], text[spans[1][1] :]]
    )
