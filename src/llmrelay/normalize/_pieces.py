"""Text that arrives in small pieces, kept in blocks: `Pieces`.

A streamed answer comes a token at a time, a few characters each. Kept as a list of those
strings, a megabyte costs some 13 MB (a `str` object is about 50 bytes before its first
character). `Pieces` joins every `BLOCK` pieces into one string as they arrive, so the text
held costs about its own size; each character is copied into its block, and once more by each
`text()` that comes after it (the callers ask for the whole text a bounded number of times).
"""

from __future__ import annotations


class Pieces:
    """Text received a piece at a time: `append` each piece, `text()` for all of it."""

    BLOCK = 256
    """Pieces joined into one block at a time."""

    __slots__ = ("_blocks", "_recent")

    def __init__(self) -> None:
        self._blocks: list[str] = []
        self._recent: list[str] = []

    def append(self, piece: str) -> None:
        """Add the next piece."""
        recent = self._recent
        recent.append(piece)
        if len(recent) >= self.BLOCK:
            self._blocks.append("".join(recent))
            recent.clear()

    def text(self) -> str:
        """All the text so far, joined (and kept joined: asking again costs no second copy)."""
        if self._recent:
            self._blocks.append("".join(self._recent))
            self._recent.clear()
        if len(self._blocks) > 1:
            self._blocks[:] = ["".join(self._blocks)]
        return self._blocks[0] if self._blocks else ""

    def take(self) -> str:
        """All the text so far, which is then forgotten: the next piece starts a new text."""
        text = self.text()
        self._blocks.clear()
        return text

    def blank(self) -> bool:
        """Whether the text so far is empty or only blank space (without joining it)."""
        return all(not piece or piece.isspace() for piece in (*self._blocks, *self._recent))
