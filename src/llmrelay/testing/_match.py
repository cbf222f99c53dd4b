"""Which recorded interaction answers a request: matchers, and the closest ones when none does.

Matcher names follow VCR.py's: `method`, `uri` (scheme, host, port, path and query together),
`scheme`, `host`, `port`, `path`, `query` (order of parameters ignored) and `body`. Bodies match
as JSON when both are JSON (key order and spacing ignored, `ignore_body_fields` left out), and
byte for byte otherwise.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ..errors import ConfigError
from ._vcr import RecordedRequest

DEFAULT_MATCH_ON = ("method", "uri", "body")
"""Match on the method, the whole URL and the body; repeated requests take the recorded ones in order.

The body is the prompt: a request whose messages, tools or parameters changed must not get the
answer recorded for other ones (VCR.py's default, method and URI only, would serve it silently).
Bodies compare as JSON; `ignore_body_fields` leaves out what legitimately varies (a seed, an id),
and `match_on=("method", "path")` opts out."""

_PORTS = {"http": 80, "https": 443}


def _port(request: RecordedRequest) -> object:
    parts = urlsplit(request.uri)
    return parts.port or _PORTS.get(parts.scheme)


def _query(request: RecordedRequest) -> object:
    return sorted(parse_qsl(urlsplit(request.uri).query, keep_blank_values=True))


_URL_PARTS: dict[str, Callable[[RecordedRequest], object]] = {
    "scheme": lambda r: urlsplit(r.uri).scheme.lower(),
    "host": lambda r: (urlsplit(r.uri).hostname or "").lower(),
    "port": _port,
    "path": lambda r: urlsplit(r.uri).path or "/",
    "query": _query,
}
MATCHERS = ("method", "uri", *_URL_PARTS, "body")
"""Every matcher name `match_on` accepts."""


@dataclass(frozen=True)
class Matcher:
    """Decides whether a recorded request answers a live one (both already redacted)."""

    match_on: tuple[str, ...] = DEFAULT_MATCH_ON
    ignore_body_fields: tuple[str, ...] = ()

    @classmethod
    def of(cls, match_on: Sequence[str], ignore_body_fields: Sequence[str]) -> Matcher:
        """A matcher, after checking the names (a typo must not silently match everything)."""
        unknown = [name for name in match_on if name not in MATCHERS]
        if unknown or not match_on:
            raise ConfigError(f"match_on: unknown matcher(s) {unknown}; choose from {list(MATCHERS)}")
        return cls(tuple(match_on), tuple(ignore_body_fields))

    def differences(self, live: RecordedRequest, recorded: RecordedRequest) -> list[str]:
        """The names of the matchers that fail; empty when `recorded` answers `live`."""
        return [name for name in self.match_on if not self._same(name, live, recorded)]

    def _same(self, name: str, live: RecordedRequest, recorded: RecordedRequest) -> bool:
        if name == "method":
            return live.method.upper() == recorded.method.upper()
        if name == "uri":
            return all(part(live) == part(recorded) for part in _URL_PARTS.values())
        if name == "body":
            return self._body(live.body) == self._body(recorded.body)
        return _URL_PARTS[name](live) == _URL_PARTS[name](recorded)

    def _body(self, body: bytes | None) -> object:
        if not body:
            return b""
        try:
            data = json.loads(body)
        except ValueError:
            return body
        for field in self.ignore_body_fields:
            _drop(data, field.split("."))
        return ("json", data)

    def body_difference(self, live: RecordedRequest, recorded: RecordedRequest) -> str | None:
        """Where two bodies first differ, as the `body` matcher sees them: a JSON path, or None."""
        mine, theirs = self._body(live.body), self._body(recorded.body)
        if mine == theirs:
            return None
        if isinstance(mine, tuple) and isinstance(theirs, tuple):
            return first_difference(mine[1], theirs[1]) or "the JSON body"
        if not live.body or not recorded.body:
            return "the body (none sent)" if not live.body else "the body (none recorded)"
        return "the body (not JSON: compared byte for byte)"


def first_difference(live: Any, recorded: Any, path: str = "") -> str | None:
    """The dotted path of the first place two decoded JSON values differ (`messages[0].content`); None if equal."""
    if isinstance(live, dict) and isinstance(recorded, dict):
        for key in sorted({*live, *recorded}, key=str):
            if key not in live or key not in recorded:
                return f"{path}.{key}".lstrip(".") + (" (only recorded)" if key not in live else " (not recorded)")
            if (inner := first_difference(live[key], recorded[key], f"{path}.{key}")) is not None:
                return inner
        return None
    if isinstance(live, list) and isinstance(recorded, list):
        for index, (mine, theirs) in enumerate(zip(live, recorded, strict=False)):
            if (inner := first_difference(mine, theirs, f"{path}[{index}]")) is not None:
                return inner
        return None if len(live) == len(recorded) else f"{path.lstrip('.') or 'the body'} (length)"
    return None if live == recorded else path.lstrip(".") or "the body"


def _drop(node: Any, path: list[str]) -> None:
    if isinstance(node, list):
        for item in node:
            _drop(item, path)
    elif isinstance(node, dict) and path[0] in node:
        if len(path) == 1:
            del node[path[0]]
        else:
            _drop(node[path[0]], path[1:])


def closest(
    matcher: Matcher, live: RecordedRequest, recorded: Sequence[RecordedRequest], limit: int = 3
) -> list[tuple[int, list[str]]]:
    """The positions of the recorded requests most like `live`, with what differs, best first."""
    target = f"{live.method} {live.uri}"

    def distance(position: int) -> tuple[int, float]:
        text = f"{recorded[position].method} {recorded[position].uri}"
        similarity = difflib.SequenceMatcher(None, target, text).ratio()
        return len(matcher.differences(live, recorded[position])), -similarity

    ranked = sorted(range(len(recorded)), key=distance)[:limit]
    return [(position, matcher.differences(live, recorded[position])) for position in ranked]


__all__ = ["DEFAULT_MATCH_ON", "MATCHERS", "Matcher", "closest"]
