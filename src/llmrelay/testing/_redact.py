"""Take secrets out of recorded interactions before anything is written or shown.

The defaults cover how the providers' SDKs send keys: the `Authorization`, `x-api-key`,
`x-goog-api-key` and `api-key` headers, cookies, and a `key=` query parameter (Gemini's REST
form), and beyond them every header and query parameter whose name says it holds a credential
(a part of it is `token`, `key`, `secret`, `auth`, `password`, `session`, `cookie`...:
`X-Proxy-Token`, `api_key=`, `access_token=`). Each value taken out of a request is also taken
out wherever else it appears, in that interaction and every later one: a key a gateway echoes in
its answer, in a URL, in a body. Bodies are redacted in the form they are written in, gzip
included, and before a binary body is base64-encoded into the file. Users add their own rules
with `Redaction`; they extend the defaults, never replace them.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, urlencode, urlsplit, urlunsplit

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

_CREDENTIAL_WORDS = frozenset(
    {"auth", "authorization", "token", "key", "apikey", "secret", "password", "passwd", "credential",
     "credentials", "cookie", "session", "signature", "sig"}
)  # fmt: skip
_NAME_PARTS = re.compile(r"[A-Za-z][a-z]*|[0-9]+")
_MIN_SECRET = 8
"""Shorter values (a local server's placeholder "x") are redacted where they are, not searched for elsewhere."""


def is_credential_name(name: str) -> bool:
    """Whether a header or query parameter's name says it carries a credential.

    Split into words (`X-Proxy-Token`, `api_key`, `apiKey`, `accessToken`): one of them is a
    credential word. `x-ratelimit-remaining-tokens` is not (`tokens` counts, it is no token).
    """
    words = [word.lower() for word in _NAME_PARTS.findall(name)]
    return any(word in _CREDENTIAL_WORDS for word in words) or "".join(words) in _CREDENTIAL_WORDS


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
        self._secrets: list[str] = []
        self._learn(rules.secrets, minimum=1)
        self._hook = rules.hook

    def interaction(self, item: Interaction) -> Interaction | None:
        """The interaction with every rule applied; None if the user's hook dropped it."""
        request = self.request(item.request)  # First: it learns the credentials the request carried.
        response = item.response
        self._learn(self._credentials(response.headers))
        response = replace(response, headers=self._header_values(response.headers), body=self._body(response.body))
        redacted = Interaction(request, response)
        return self._hook(redacted) if self._hook is not None else redacted

    def request(self, request: RecordedRequest) -> RecordedRequest:
        """The request with its URL, headers and body redacted (the hook is not applied).

        The values of its credential headers and query parameters become secrets taken out
        everywhere from now on (the key in use, whichever header or parameter carried it).
        """
        self._learn(self._credentials(request.headers))
        self._learn(value for name, value in _query(request.uri) if self._is_param(name))
        body = None if request.body is None else self._body(request.body)
        return RecordedRequest(request.method, self._uri(request.uri), self._header_values(request.headers), body)

    def text(self, text: str) -> str:
        """Any text (an error message, say) with the literal secrets taken out."""
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text

    def _is_header(self, name: str) -> bool:
        return name.lower() in self._headers or is_credential_name(name)

    def _is_param(self, name: str) -> bool:
        return name in self._params or is_credential_name(name)

    def _credentials(self, headers: Headers) -> Iterable[str]:
        for name, values in headers.items():
            if self._is_header(name):
                for value in values:
                    yield value
                    yield value.rpartition(" ")[2]  # "Bearer <key>": the key alone too.

    def _learn(self, values: Iterable[str], *, minimum: int = _MIN_SECRET) -> None:
        """Add `values` and the forms they take in URLs and JSON, longest first (so none is left half-replaced)."""
        known = set(self._secrets)
        for value in values:
            if len(value) >= minimum and value != REDACTED:
                known.update(form for form in _forms(value) if form)
        self._secrets = sorted(known, key=len, reverse=True)

    def _uri(self, uri: str) -> str:
        parts = urlsplit(uri)
        if parts.query:
            pairs = _query(uri)
            if any(self._is_param(name) for name, _ in pairs):
                query = urlencode([(name, REDACTED if self._is_param(name) else value) for name, value in pairs])
                uri = urlunsplit(parts._replace(query=query))
        return self.text(uri)

    def _header_values(self, headers: Headers) -> Headers:
        return {
            name: [REDACTED] * len(values) if self._is_header(name) else [self.text(v) for v in values]
            for name, values in headers.items()
        }

    def _body(self, body: bytes) -> bytes:
        if body[:2] == b"\x1f\x8b":  # Written gzip-compressed: redacted inside, then compressed again.
            try:
                inner = gzip.decompress(body)
            except (OSError, EOFError, zlib.error):  # Not gzip after all: redacted as bytes below.
                pass
            else:
                redacted = self._body(inner)
                return body if redacted == inner else gzip.compress(redacted, mtime=0)
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


def _query(uri: str) -> list[tuple[str, str]]:
    return parse_qsl(urlsplit(uri).query, keep_blank_values=True)


def _forms(secret: str) -> set[str]:
    """A secret as it may be written: as is, percent-encoded in a URL, escaped in JSON (a `/` also as its escape)."""
    escaped = json.dumps(secret)[1:-1]
    return {secret, quote(secret, safe=""), quote_plus(secret), escaped, escaped.replace("/", "\\/")}


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


__all__ = ["DEFAULT_HEADERS", "DEFAULT_QUERY_PARAMS", "REDACTED", "Redaction", "Redactor", "is_credential_name"]
