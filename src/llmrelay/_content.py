"""Content parts: the text, images and documents of a message, read from the OpenAI shape users write.

```
{"type": "text", "text": "What is in this picture?"}
{"type": "image_url", "image_url": {"url": "https://…" | "data:image/png;base64,…", "detail": "low"}}
{"type": "file", "file": {"file_data": "data:application/pdf;base64,…", "filename": "report.pdf"}}
```

`Image` and `Document` make these dicts from a path, bytes or a URL. A message's parts become
`TextPart`s and `MediaPart`s (`read_parts`); each adapter maps them to its own wire shape. Base64
data is kept as the text it came as: never decoded here (Gemini's SDK decodes it, once), so a large
image costs one string, not two copies.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

MediaKind = Literal["image", "document"]
IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")
"""The image types every provider with vision takes (OpenAI, Anthropic, Gemini, Groq)."""
DOCUMENT_TYPES = ("application/pdf",)
"""The document types sent as documents: PDF, the one every provider with document input reads."""


@dataclass(frozen=True)
class TextPart:
    """Text in a message with other parts."""

    text: str


@dataclass(frozen=True)
class MediaPart:
    """An image or a document, given inline (base64 `data`) or by `url`."""

    kind: MediaKind
    media_type: str
    """The MIME type (`image/png`, `application/pdf`); for a URL, guessed from its path when not given."""
    data: str | None = None
    """The bytes, base64-encoded (no `data:` prefix)."""
    url: str | None = None
    detail: str | None = None
    """OpenAI's image `detail` (`low`, `high`, `auto`), sent where the provider has it."""
    filename: str | None = None

    @property
    def size(self) -> int:
        """The decoded size in bytes of inline data (0 for a URL), computed without decoding."""
        if self.data is None:
            return 0
        return len(self.data) * 3 // 4 - self.data.endswith("=") - self.data.endswith("==")

    @property
    def data_url(self) -> str:
        """The part as a URL: its own, or a `data:` URL of its bytes."""
        return self.url if self.url is not None else f"data:{self.media_type};base64,{self.data}"


Part = TextPart | MediaPart


def read_parts(content: Sequence[Any]) -> tuple[Part, ...]:
    """A content list (strings and OpenAI-style part dicts) as parts.

    Raises:
        ValueError: a part that is not text, an image or a file, or one whose data cannot be read.
    """
    return tuple(_part(item) for item in content)


def _part(item: Any) -> Part:
    if isinstance(item, str):
        return TextPart(item)
    if not isinstance(item, Mapping):
        raise ValueError(f"a content part must be a string or a dict, got {type(item).__name__}")
    kind = item.get("type", "text")
    if kind in ("text", "input_text") and isinstance(item.get("text"), str):
        return TextPart(item["text"])
    if kind == "image_url":
        given = item.get("image_url")
        image: Mapping[str, Any] = given if isinstance(given, Mapping) else {"url": given}
        return _media("image", image.get("url"), detail=image.get("detail"))
    if kind == "file":
        given = item.get("file")
        file: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        return _media("document", file.get("file_data") or file.get("url"), filename=file.get("filename"))
    raise ValueError(
        f"unsupported content part {kind!r}: expected text, image_url or file (input_audio is not supported)"
    )


def _media(kind: MediaKind, url: Any, *, detail: Any = None, filename: Any = None) -> MediaPart:
    if not isinstance(url, str) or not url:
        raise ValueError(f"an {kind} part needs a URL or a data: URL")
    detail = detail if isinstance(detail, str) else None
    filename = filename if isinstance(filename, str) else None
    if url.startswith("data:"):
        header, comma, data = url.partition(",")
        if not comma or not header.endswith(";base64"):
            raise ValueError(f"a data: URL must be base64 ('data:<type>;base64,<data>'), got {url[:40]!r}…")
        part = MediaPart(kind, header[5:-7] or "?", data=data, detail=detail, filename=filename)
    else:
        guessed = _guess_type(url.split("?", 1)[0])
        default = "image/jpeg" if kind == "image" else "application/pdf"
        part = MediaPart(kind, guessed or default, url=url, detail=detail, filename=filename)
    accepted = IMAGE_TYPES if kind == "image" else DOCUMENT_TYPES
    if part.media_type not in accepted:
        raise ValueError(f"an {kind} of type {part.media_type!r} is not accepted: use {', '.join(accepted)}")
    return part


class Image:
    """Image content parts, in the OpenAI shape every adapter reads.

    ```python
    {"role": "user", "content": ["What is this?", llmrelay.Image.from_path("cat.png")]}
    ```
    """

    @staticmethod
    def from_url(url: str, *, detail: str | None = None) -> dict[str, Any]:
        """An image the provider fetches (or a `data:` URL)."""
        image: dict[str, Any] = {"url": url}
        if detail is not None:
            image["detail"] = detail
        return {"type": "image_url", "image_url": image}

    @staticmethod
    def from_bytes(data: bytes, media_type: str = "image/png", *, detail: str | None = None) -> dict[str, Any]:
        """An image sent inline."""
        return Image.from_url(_data_url(data, media_type), detail=detail)

    @staticmethod
    def from_path(path: str | os.PathLike[str], *, detail: str | None = None) -> dict[str, Any]:
        """An image file sent inline; its type from its name (`.png`, `.jpg`, `.webp`, `.gif`)."""
        return Image.from_bytes(_read(path), _guess(path, "image/png"), detail=detail)


class Document:
    """Document (PDF) content parts, in the OpenAI `file` shape every adapter reads."""

    @staticmethod
    def from_bytes(data: bytes, media_type: str = "application/pdf", *, filename: str | None = None) -> dict[str, Any]:
        """A document sent inline."""
        file: dict[str, Any] = {"file_data": _data_url(data, media_type)}
        if filename is not None:
            file["filename"] = filename
        return {"type": "file", "file": file}

    @staticmethod
    def from_path(path: str | os.PathLike[str]) -> dict[str, Any]:
        """A document file sent inline, named after the file."""
        name = os.path.basename(os.fspath(path))
        return Document.from_bytes(_read(path), _guess(path, "application/pdf"), filename=name)

    @staticmethod
    def from_url(url: str, *, filename: str | None = None) -> dict[str, Any]:
        """A document the provider fetches (Anthropic, Gemini; OpenRouter)."""
        file: dict[str, Any] = {"url": url}
        if filename is not None:
            file["filename"] = filename
        return {"type": "file", "file": file}


# base64 and mimetypes are imported where used: only messages with media need them, and
# mimetypes (with urllib.parse) is ~3 ms of `from llmrelay import Client` otherwise.


def _data_url(data: bytes, media_type: str) -> str:
    import base64

    return f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"


def _guess(path: str | os.PathLike[str], default: str) -> str:
    return _guess_type(os.fspath(path)) or default


def _guess_type(name: str) -> str | None:
    import mimetypes

    return mimetypes.guess_type(name)[0]


def _read(path: str | os.PathLike[str]) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def text_of(parts: Sequence[Part]) -> str:
    """The text of the parts, joined: what a text-only reader of the message sees."""
    return "".join(part.text for part in parts if isinstance(part, TextPart))


def media_of(parts: Sequence[Part]) -> list[MediaPart]:
    """The images and documents among the parts."""
    return [part for part in parts if isinstance(part, MediaPart)]
