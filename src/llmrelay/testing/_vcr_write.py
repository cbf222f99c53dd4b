"""Write interactions as a VCR.py YAML cassette (version 1), the format `_vcr` reads.

What vcrpy and pytest-recording write, so they replay llmrelay's cassettes: each interaction is
`request: {method, uri, headers, body}` and `response: {status: {code, message}, headers,
body: {string}}`, headers as lists of values. Bodies that are UTF-8 are written as text (event
streams as readable blocks); other bytes as `!!binary`. Bodies are stored decoded: the recorder
has already removed a gzip `Content-Encoding` (as vcrpy's `decode_compressed_response` does).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from ._vcr import Headers, Interaction

# libyaml's emitter when PyYAML was built with it: the same text (checked on every shipped
# cassette), 30-40x faster on a large base64 body (benchmarks/cassette_media.py).
_SafeDumper: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_SafeDumper):  # type: ignore[valid-type,misc]
    """The safe dumper, writing multi-line text as `|` blocks where YAML allows it."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # PyYAML falls back to a quoted style itself when a block cannot hold the text exactly.
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def dump_cassette(interactions: Sequence[Interaction], note: str | None = None) -> str:
    """The YAML text of a cassette holding `interactions`, in order.

    `note` (how the cassette was made, say) is written first as `#` comment lines, which every
    YAML reader skips: vcrpy and llmrelay load the file as if it were not there.
    """
    data = {"interactions": [_interaction(item) for item in interactions], "version": 1}
    return _comment(note) + yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)


def write_cassette(path: str | os.PathLike[str], interactions: Sequence[Interaction], note: str | None = None) -> None:
    """Write the cassette file (its folder created if needed), replacing it whole; `note` as in `dump_cassette`."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(dump_cassette(interactions, note), encoding="utf-8")
    partial.replace(target)  # A run killed while writing leaves the previous file intact.


def _comment(note: str | None) -> str:
    if not note:
        return ""
    # Every line of the note becomes a comment line, so no text in it can end the comment early.
    return "".join(f"# {line}".rstrip() + "\n" for line in note.strip("\n").splitlines())


def _interaction(item: Interaction) -> dict[str, Any]:
    request, response = item.request, item.response
    return {
        "request": {
            "method": request.method,
            "uri": request.uri,
            "headers": _headers(request.headers),
            "body": _body(request.body),
        },
        "response": {
            "status": {"code": response.status, "message": response.reason},
            "headers": _headers(response.headers),
            "body": {"string": _body(response.body) or ""},
        },
    }


def _headers(headers: Headers) -> dict[str, list[str]]:
    return {name: list(values) for name, values in headers.items()}


def _body(body: bytes | None) -> str | bytes | None:
    if not body:
        return None
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body


__all__ = ["dump_cassette", "write_cassette"]
