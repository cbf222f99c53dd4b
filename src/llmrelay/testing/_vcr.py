"""Read VCR.py cassettes (the YAML files vcrpy and pytest-recording write) into plain data.

A cassette is a mapping with a list of request/response pairs, in recorded order:

```yaml
version: 1                                  # optional: a missing version means 1
interactions:
- request:
    method: POST
    uri: https://api.openai.com/v1/chat/completions
    headers: {content-type: [application/json]}
    body: '{"model": "gpt-4o-mini", "messages": [...]}'
  response:
    status: {code: 200, message: OK}
    headers: {Content-Type: [application/json]}
    body: {string: '{"id": "chatcmpl-1", "choices": [...]}'}
```

Bodies are stored in three ways, all read here (see the conformance README, and VCR.py's
`vcr/serializers/compat.py` and pydantic-ai's `tests/json_body_serializer.py` for the writers):

1. text: `body: {string: ...}` for responses, `body: ...` for requests;
2. bytes: `string: !!binary H4sI...` (base64 in YAML), often gzip-compressed exactly as the
   server sent it, with the response headers still saying `Content-Encoding: gzip`;
3. pydantic-ai's `parsed_body: {...}`: a JSON body stored as a YAML mapping, turned back into
   JSON text here with `json.dumps`; its newer `body: {type: json, content: {...}}` likewise (and
   `{type: text, content: ...}` as text).

Choices made for callers (a test replaying, a matcher comparing, a report printing):

- Response bodies are given decoded: gzip and deflate are decompressed and `Content-Encoding`
  is removed, so `body` is what the server meant whatever HTTP stack serves it. A body whose
  header says gzip but whose bytes are not gzip was already decoded by its writer (the header is
  dropped). Other encodings (br, zstd) are kept as recorded, header included.
- Headers describe the body as read: a recorded `Content-Length` is never trusted (it may count
  the compressed bytes, or a body re-serialized from `parsed_body`); it is recomputed, and
  `Transfer-Encoding` is dropped since the body is whole. Everything else stays as recorded.
- Only a safe loader is used (libyaml's `CSafeLoader` when PyYAML has it, several times faster on
  large bodies, else the pure-Python one): it builds nothing but plain data (`!!binary` gives
  bytes). Very deep nesting is refused (libyaml's depth limit, or Python's recursion limit;
  tests/testing/test_vcr.py feeds it 100k levels). Malformed or hostile input raises `CassetteError`, including
  aliases that expand far beyond the file's size (a "billion laughs") or refer to themselves.
"""

from __future__ import annotations

import datetime
import json
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CassetteError

try:
    import yaml
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from ..errors import MissingDependencyError

    raise MissingDependencyError(
        package="pyyaml", extra="testing", needed_for="to read and write cassettes (llmrelay.testing)"
    ) from exc

Headers = dict[str, list[str]]
"""Header name (as recorded) to its values, in order."""

MAX_BODY_BYTES = 64 * 1024 * 1024
"""Largest body a compressed recording may expand to: a guard against decompression bombs."""

_FRAMING = frozenset({"content-length", "transfer-encoding"})
_GZIP_MAGIC = b"\x1f\x8b"


class _Invalid(Exception):
    """Internal: what is wrong and where; `parse_cassette` adds the file name."""


@dataclass(frozen=True)
class RecordedRequest:
    """The request of one interaction, as recorded."""

    method: str
    """The HTTP method, upper-case."""
    uri: str
    """The full URL, query string included."""
    headers: Headers
    """The recorded headers (writers drop or redact some; pydantic-ai lower-cases them)."""
    body: bytes | None
    """The request body, or None when none was recorded."""

    def header(self, name: str) -> str | None:
        """The first value of a header, whatever the case of its name; None when absent."""
        return _first(self.headers, name)


@dataclass(frozen=True)
class RecordedResponse:
    """The response of one interaction, ready to be served again."""

    status: int
    """The HTTP status code."""
    reason: str
    """The reason phrase ("OK", "Not Found"); empty when none was recorded."""
    headers: Headers
    """The recorded headers, corrected to describe `body` (see the module docstring)."""
    body: bytes
    """The body as the server meant it (decompressed); `b""` when empty."""

    def header(self, name: str) -> str | None:
        """The first value of a header, whatever the case of its name; None when absent."""
        return _first(self.headers, name)


@dataclass(frozen=True)
class Interaction:
    """One recorded request and the response it got."""

    request: RecordedRequest
    """What was sent."""
    response: RecordedResponse
    """What came back."""


@dataclass(frozen=True)
class Recording:
    """The contents of a cassette file: its interactions in the order they happened."""

    interactions: list[Interaction]
    """Every interaction, in recorded order."""


def load_cassette(path: str | os.PathLike[str]) -> Recording:
    """Read a VCR.py YAML cassette file.

    Raises:
        CassetteError: the file cannot be read, or is not a cassette (the message says where).
    """
    try:
        text = Path(path).read_bytes()
    except OSError as exc:
        raise CassetteError(f"{os.fspath(path)}: cannot read the cassette: {exc.strerror or exc}") from exc
    return parse_cassette(text, source=os.fspath(path))


def parse_cassette(text: str | bytes, *, source: str = "<cassette>") -> Recording:
    """Read a VCR.py YAML cassette from its text; `source` names it in error messages.

    Raises:
        CassetteError: not YAML, not a cassette, or a part is missing or of the wrong type.
    """
    try:
        data = _safe_yaml(text)
        _check_expansion(data, budget=2 * len(text) + 64)
        return _cassette(data)
    except _Invalid as exc:
        raise CassetteError(f"{source}: {exc}") from None


# libyaml's parser when PyYAML was built with it: the same data, several times faster on large bodies.
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _safe_yaml(text: str | bytes) -> object:
    try:
        return yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as exc:  # Also the refusal of tags such as !!python/object.
        if "maximum nesting depth" in str(exc):  # libyaml's limit, said as the Python parser's is.
            raise _Invalid("not a YAML cassette: nested too deeply") from exc
        raise _Invalid(f"not a YAML cassette: {exc}") from exc
    except RecursionError as exc:
        raise _Invalid("not a YAML cassette: nested too deeply") from exc


def _check_expansion(data: object, budget: int) -> None:
    """Refuse data with more nodes than the text could hold without aliases.

    YAML aliases share one object between many places, so a small file can stand for a huge (or
    self-referencing) document, and anything that walks it (`json.dumps` of a `parsed_body`)
    would run out of time or memory. A real cassette has fewer nodes than characters.
    """
    stack = [data]
    while stack:
        node = stack.pop()
        budget -= 1
        if budget < 0:
            raise _Invalid("YAML aliases expand far beyond the file's size (or refer to themselves)")
        if isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _cassette(data: object) -> Recording:
    if isinstance(data, list):
        raise _Invalid("a list at the top: a cassette from VCR.py before 1.0 (re-record it)")
    part = _mapping(data, "the top level")
    version = part.get("version", 1)
    if version != 1 or isinstance(version, bool):
        raise _Invalid(f"unsupported cassette version {version!r} (only version 1 exists)")
    items = part.get("interactions")
    if not isinstance(items, list):
        raise _Invalid("'interactions' must be a list of request/response pairs")
    return Recording([_interaction(item, f"interactions[{i}]") for i, item in enumerate(items)])


def _interaction(data: object, where: str) -> Interaction:
    part = _mapping(data, where)
    return Interaction(
        _request(part.get("request"), f"{where}.request"), _response(part.get("response"), f"{where}.response")
    )


def _request(data: object, where: str) -> RecordedRequest:
    part = _mapping(data, where)
    body = _body(part, where)
    headers = _framed(_headers(part.get("headers"), f"{where}.headers"), body)
    return RecordedRequest(_text(part, "method", where).upper(), _text(part, "uri", where), headers, body)


def _response(data: object, where: str) -> RecordedResponse:
    part = _mapping(data, where)
    status, reason = _status(part.get("status"), f"{where}.status")
    if "body" not in part and "parsed_body" not in part:
        raise _Invalid(f"{where}: no 'body' or 'parsed_body'")
    headers, body = _decoded(_headers(part.get("headers"), f"{where}.headers"), _body(part, where) or b"", where)
    return RecordedResponse(status, reason, _framed(headers, body), body)


def _body(part: dict[Any, Any], where: str) -> bytes | None:
    """The body in any of the three storage styles, as bytes (None when there is none)."""
    if "parsed_body" in part:
        return _json_text(part["parsed_body"], f"{where}.parsed_body")
    body = part.get("body")
    if isinstance(body, dict) and "type" in body and "content" in body and "string" not in body:
        return _typed_body(body, f"{where}.body")
    if isinstance(body, dict):  # Responses keep the body under `string`.
        if "string" not in body:
            raise _Invalid(f"{where}.body: a mapping without 'string' (nor 'type' and 'content')")
        body = body["string"]
    if body is None or isinstance(body, bytes):
        return body
    if isinstance(body, str):
        try:
            return body.encode("utf-8")
        except UnicodeEncodeError as exc:  # A lone surrogate from a "\ud800" escape.
            raise _Invalid(f"{where}.body: not encodable as UTF-8: {exc.reason}") from exc
    raise _Invalid(f"{where}.body: expected text or !!binary, got {type(body).__name__}")


def _typed_body(body: dict[Any, Any], where: str) -> bytes | None:
    """pydantic-ai's newer style, `{type: json, content: {...}}` or `{type: text, content: "..."}`."""
    kind, content = body["type"], body["content"]
    if kind == "json":
        return _json_text(content, f"{where}.content")
    if kind == "text" and (content is None or isinstance(content, str)):
        return _body({"body": content}, where)
    raise _Invalid(f"{where}: a body of type {kind!r} holding {type(content).__name__} (expected json, or text)")


def _json_text(value: object, where: str) -> bytes:
    # The same call pydantic-ai's serializer uses to turn it back, so bodies read alike.
    try:
        return json.dumps(value).encode("utf-8")
    except (TypeError, ValueError) as exc:  # A YAML date or !!binary inside, say.
        raise _Invalid(f"{where}: not JSON data: {exc}") from exc


def _decoded(headers: Headers, body: bytes, where: str) -> tuple[Headers, bytes]:
    """Decompress a gzip or deflate body and drop the header that announced it."""
    encoding = (_first(headers, "content-encoding") or "").strip().lower()
    if encoding not in ("gzip", "x-gzip", "deflate"):
        return headers, body
    kept = {name: values for name, values in headers.items() if name.lower() != "content-encoding"}
    if encoding == "deflate":
        return kept, _inflate(body, where)
    # No gzip magic: the writer had already decoded the body and left the header behind.
    return kept, _gunzip(body, where) if body.startswith(_GZIP_MAGIC) else body


def _gunzip(data: bytes, where: str) -> bytes:
    """Decompress every gzip member (servers may send several, one after another)."""
    out = bytearray()
    while data.startswith(_GZIP_MAGIC):
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out += _bounded(member, data, len(out), where)
        except zlib.error as exc:
            raise _Invalid(f"{where}.body: not valid gzip data: {exc}") from exc
        if not member.eof:
            raise _Invalid(f"{where}.body: the gzip data is cut short")
        data = member.unused_data
    return bytes(out)


def _inflate(data: bytes, where: str) -> bytes:
    try:
        return _bounded(zlib.decompressobj(zlib.MAX_WBITS), data, 0, where)
    except zlib.error:
        pass  # "deflate" is meant to be zlib-wrapped, but some servers send the raw stream.
    try:
        return _bounded(zlib.decompressobj(-zlib.MAX_WBITS), data, 0, where)
    except zlib.error as exc:
        raise _Invalid(f"{where}.body: not valid deflate data: {exc}") from exc


def _bounded(decompressor: Any, data: bytes, produced: int, where: str) -> bytes:
    """Decompress, refusing to produce more than `MAX_BODY_BYTES` in all (zlib.error passes)."""
    room = MAX_BODY_BYTES - produced
    chunk: bytes = decompressor.decompress(data, room + 1)
    if len(chunk) > room:
        raise _Invalid(f"{where}.body: expands beyond {MAX_BODY_BYTES} bytes")
    return chunk


def _framed(headers: Headers, body: bytes | None) -> Headers:
    """The headers with Content-Length computed from `body`, and Transfer-Encoding dropped."""
    kept = {name: values for name, values in headers.items() if name.lower() not in _FRAMING}
    if body is not None:
        kept["Content-Length"] = [str(len(body))]
    return kept


def _headers(data: object, where: str) -> Headers:
    if data is None:
        return {}
    part = _mapping(data, where)
    headers: Headers = {}
    for name, values in part.items():
        if not isinstance(name, str):
            raise _Invalid(f"{where}: header name {name!r} is not text")
        headers[name] = [_header_value(value, f"{where}.{name}") for value in _as_list(values)]
    return headers


def _header_value(value: object, where: str) -> str:
    # Unquoted numbers load as int, and dates (`openai-version: 2020-10-01`) as dates: VCR.py's
    # writer quotes them, pydantic-ai's newer one does not.
    if isinstance(value, str) or (isinstance(value, int | float) and not isinstance(value, bool)):
        return str(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    raise _Invalid(f"{where}: expected text, got {type(value).__name__}")


def _status(data: object, where: str) -> tuple[int, str]:
    """`{code: 200, message: OK}` as VCR.py writes it (a bare code is accepted too)."""
    code, reason = (data.get("code"), data.get("message")) if isinstance(data, dict) else (data, "")
    if not isinstance(code, int) or isinstance(code, bool) or not 100 <= code <= 599:
        raise _Invalid(f"{where}: expected an HTTP status code, got {code!r}")
    if reason is not None and not isinstance(reason, str):
        raise _Invalid(f"{where}.message: expected text, got {type(reason).__name__}")
    return code, reason or ""


def _mapping(data: object, where: str) -> dict[Any, Any]:
    if not isinstance(data, dict):
        what = "nothing" if data is None else type(data).__name__
        raise _Invalid(f"{where}: expected a mapping, got {what}")
    return data


def _text(part: dict[Any, Any], key: str, where: str) -> str:
    value = part.get(key)
    if not isinstance(value, str) or not value:
        raise _Invalid(f"{where}: '{key}' is missing or not text")
    return value


def _as_list(values: object) -> list[object]:
    return list(values) if isinstance(values, list) else [values]


def _first(headers: Headers, name: str) -> str | None:
    wanted = name.lower()
    return next((values[0] for key, values in headers.items() if key.lower() == wanted and values), None)


__all__ = [
    "MAX_BODY_BYTES",
    "CassetteError",
    "Headers",
    "Interaction",
    "RecordedRequest",
    "RecordedResponse",
    "Recording",
    "load_cassette",
    "parse_cassette",
]
