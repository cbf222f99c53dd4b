"""Take secrets out of recorded interactions before anything is written or shown.

The defaults cover how the providers' SDKs send keys: the `Authorization`, `x-api-key`,
`x-goog-api-key` and `api-key` headers, cookies, and a `key=` query parameter (Gemini's REST
form). Users add their own rules with `Redaction`; they extend the defaults, never replace them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ._vcr import Headers, Interaction, RecordedRequest

REDACTED = "REDACTED"
"""What a secret is replaced with."""

DEFAULT_HEADERS = (
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "x-goog-api-key",
    "api-key",
    "cookie",
    "set-cookie",
)
"""Headers whose values are always redacted, in requests and responses (names are case-insensitive)."""

DEFAULT_QUERY_PARAMS = ("key",)
"""Query parameters whose values are always redacted."""

Hook = Callable[[Interaction], "Interaction | None"]
"""A user rule: returns the interaction to keep (changed or not), or None to keep nothing of it."""


@dataclass(frozen=True)
class Redaction:
    """Extra rules for taking secrets out of a cassette, added to the defaults.

    Example:
        `Redaction(headers=["x-org-id"], body_fields=["metadata.user_id"], secrets=[os.environ["MY_KEY"]])`
    """

    headers: Sequence[str] = ()
    """More header names whose values are replaced (requests and responses; case-insensitive)."""
    query_params: Sequence[str] = ()
    """More query parameters whose values are replaced."""
    body_fields: Sequence[str] = ()
    """Fields of JSON bodies (requests and responses) whose values are replaced: dotted paths from
    the top (`"user"`, `"metadata.user_id"`); a path through a list applies to each of its items."""
    secrets: Sequence[str] = ()
    """Literal values replaced wherever they appear: URL, headers and bodies."""
    hook: Hook | None = None
    """Called last on each interaction: return it changed, or None to record nothing of it."""


class Redactor:
    """Applies the default rules and one `Redaction` to interactions and requests."""

    def __init__(self, rules: Redaction | None = None) -> None:
        rules = rules or Redaction()
        self._headers = frozenset(name.lower() for name in (*DEFAULT_HEADERS, *rules.headers))
        self._params = frozenset((*DEFAULT_QUERY_PARAMS, *rules.query_params))
        self._fields = [field.split(".") for field in rules.body_fields]
        self._secrets = [secret for secret in rules.secrets if secret]
        self._hook = rules.hook

    def interaction(self, item: Interaction) -> Interaction | None:
        """The interaction with every rule applied; None if the user's hook dropped it."""
        response = item.response
        response = replace(response, headers=self._header_values(response.headers), body=self._body(response.body))
        redacted = Interaction(self.request(item.request), response)
        return self._hook(redacted) if self._hook is not None else redacted

    def request(self, request: RecordedRequest) -> RecordedRequest:
        """The request with its URL, headers and body redacted (the hook is not applied)."""
        body = None if request.body is None else self._body(request.body)
        return RecordedRequest(request.method, self._uri(request.uri), self._header_values(request.headers), body)

    def text(self, text: str) -> str:
        """Any text (an error message, say) with the literal secrets taken out."""
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text

    def _uri(self, uri: str) -> str:
        parts = urlsplit(uri)
        if parts.query:
            pairs = parse_qsl(parts.query, keep_blank_values=True)
            if any(name in self._params for name, _ in pairs):
                query = urlencode([(name, REDACTED if name in self._params else value) for name, value in pairs])
                uri = urlunsplit(parts._replace(query=query))
        return self.text(uri)

    def _header_values(self, headers: Headers) -> Headers:
        return {
            name: [REDACTED] * len(values) if name.lower() in self._headers else [self.text(v) for v in values]
            for name, values in headers.items()
        }

    def _body(self, body: bytes) -> bytes:
        if self._fields:
            body = self._json_fields(body)
        for secret in self._secrets:
            body = body.replace(secret.encode(), REDACTED.encode())
        return body

    def _json_fields(self, body: bytes) -> bytes:
        try:
            data = json.loads(body)
        except ValueError:  # Not JSON (an event stream, a form): the literal secrets still apply.
            return body
        changed = False
        for path in self._fields:
            changed |= _blank(data, path)
        return json.dumps(data).encode() if changed else body


def _blank(node: Any, path: list[str]) -> bool:
    """Replace the value at `path` under `node`; True if anything was replaced."""
    if isinstance(node, list):
        return any([_blank(item, path) for item in node])  # A list: every item (no short-circuit).
    if not isinstance(node, dict) or path[0] not in node:
        return False
    if len(path) == 1:
        node[path[0]] = REDACTED
        return True
    return _blank(node[path[0]], path[1:])


__all__ = ["DEFAULT_HEADERS", "DEFAULT_QUERY_PARAMS", "REDACTED", "Redaction", "Redactor"]
