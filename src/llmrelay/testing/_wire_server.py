"""A small HTTP server on loopback that answers like the providers' APIs, for recording cassettes.

```python
with WireServer(script=[Reply(tool_calls=[("get_weather", {"city": "Paris"})]), Reply("Sunny.")]) as server:
    client = llmrelay.Client("openai:gpt-4o-mini", base_url=server.base_url_for("openai"), api_key="k")
```

Each request takes the next scripted `Reply` (whatever the provider), answered in the wire format
its path asks for: `.../chat/completions` (OpenAI, Groq, OpenRouter, compatible servers),
`.../v1/messages` (Anthropic), `...:generateContent` / `...:streamGenerateContent` (Gemini).
`"stream": true` in the body (or Gemini's streaming path) gets a chunked stream, one event per
chunk. What every request carried is kept in `requests`. Stdlib only; one thread per connection.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ._wire_formats import Api, Call, Reply, error_body, events, gemini_chunks, json_body

_BASE_PATHS = {
    "openai": "/v1",
    "openai-compatible": "/v1",
    "openrouter": "/api/v1",
    "groq": "",  # The groq SDK adds /openai/v1 itself.
    "anthropic": "",  # The SDK adds /v1/messages.
    "gemini": "",  # The SDK adds /v1beta/models/<model>:generateContent.
}


@dataclass(frozen=True)
class ReceivedRequest:
    """One request the server received."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    """Header names lower-cased (the last value of a repeated header)."""
    body: bytes

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)


class WireServer:
    """A loopback HTTP server answering scripted replies in the OpenAI, Anthropic and Gemini wire formats.

    Args:
        script: The replies, one per request, in order. When it runs out, requests get a 400 error
            saying so (in the provider's format).
        gzip: Compress answers for clients that accept it, as the real APIs do.
    """

    def __init__(self, script: Sequence[Reply] = (), *, gzip: bool = False) -> None:
        self.script = list(script)
        self.gzip = gzip
        self.requests: list[ReceivedRequest] = []
        """Every request received, in order."""
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._url: str | None = None

    @property
    def url(self) -> str:
        """`http://127.0.0.1:<port>`: the server's root (still given once stopped, to replay what was recorded)."""
        if self._url is None:
            raise RuntimeError("the WireServer has not started: use it in a `with` block")
        return self._url

    def base_url_for(self, provider: str) -> str:
        """The `base_url` to give llmrelay's adapter for `provider` so that its SDK calls this server."""
        if provider not in _BASE_PATHS:
            raise ValueError(f"unknown provider {provider!r}; one of {sorted(_BASE_PATHS)}")
        return self.url + _BASE_PATHS[provider]

    def __enter__(self) -> WireServer:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        host, port = self._server.server_address[:2]
        self._url = f"http://{host!s}:{port}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="llmrelay-wire-server", daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def _next(self, request: ReceivedRequest) -> tuple[int, Reply | None]:
        with self._lock:
            self.requests.append(request)
            serial = len(self.requests)
            return serial, (self.script[serial - 1] if serial <= len(self.script) else None)


def _api(path: str) -> Api | None:
    if path.endswith("/chat/completions"):
        return "openai"
    if path.endswith("/messages"):
        return "anthropic"
    if ":generateContent" in path or ":streamGenerateContent" in path:
        return "gemini"
    return None


def _handler_for(server: WireServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        wire = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # Keep-alive, and chunked streams as the real APIs send them.
    wire: WireServer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests read `WireServer.requests` instead."""

    def do_POST(self) -> None:
        """Answer one API call with the next scripted reply."""
        parts = urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        headers = {name.lower(): value for name, value in self.headers.items()}
        received = ReceivedRequest("POST", parts.path, parse_qs(parts.query), headers, body)
        serial, reply = self.wire._next(received)
        api = _api(parts.path)
        if api is None:
            self._send_json(404, {"error": {"message": f"no such endpoint: {parts.path}"}})
            return
        if reply is None:
            message = f"WireServer: no scripted reply left for request {serial} ({len(self.wire.script)} scripted)"
            self._send_json(400, error_body(api, 400, message))
            return
        payload = _json_or_empty(body)
        if reply.status >= 400:
            self._send_json(reply.status, error_body(api, reply.status, reply.error), reply.headers)
            return
        call = Call(reply, _model(api, parts.path, payload), serial, max(1, len(body) // 4), _include_usage(payload))
        if api == "gemini" and ":streamGenerateContent" in parts.path:
            if "sse" in parse_qs(parts.query).get("alt", []):
                self._send_stream(events(api, call), reply.headers, reply.drip)
            else:  # Without alt=sse Gemini streams one JSON array, written as it goes.
                self._send_json(200, gemini_chunks(call), reply.headers, reply.drip)
        elif payload.get("stream") is True:
            self._send_stream(events(api, call), reply.headers, reply.drip)
        else:
            self._send_json(200, json_body(api, call), reply.headers, reply.drip)

    def _send_json(self, status: int, data: Any, extra: Any = None, drip: float = 0.0) -> None:
        content = json.dumps(data, indent=1).encode()
        encoded = self.wire.gzip and "gzip" in self.headers.get("accept-encoding", "")
        if encoded:
            content = gzip.compress(content, mtime=0)
        self.send_response(status)
        self.send_header("content-type", "application/json")
        if encoded:
            self.send_header("content-encoding", "gzip")
        self.send_header("content-length", str(len(content)))
        self._extra_headers(extra)
        self.end_headers()
        self._write(content, drip)

    def _send_stream(self, chunks: Iterable[bytes], extra: Any = None, drip: float = 0.0) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self._extra_headers(extra)
        self.end_headers()
        for index, chunk in enumerate(_chunked(chunks)):
            self._write(chunk, drip if index else 0.0)

    def _write(self, content: bytes, drip: float) -> None:
        """Send `content`, one byte every `drip` seconds when asked to (until the client hangs up)."""
        if not drip:
            self.wfile.write(content)
            self.wfile.flush()
            return
        try:
            for offset in range(len(content)):
                self.wfile.write(content[offset : offset + 1])
                self.wfile.flush()
                time.sleep(drip)
        except OSError:  # The client gave up: what a deadline is for.
            self.close_connection = True

    def _extra_headers(self, extra: Any) -> None:
        for name, value in (extra or {}).items():
            self.send_header(name, value)


def _chunked(events: Iterable[bytes]) -> Iterator[bytes]:
    for event in events:
        yield f"{len(event):x}\r\n".encode() + event + b"\r\n"
    yield b"0\r\n\r\n"


def _json_or_empty(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _model(api: Api, path: str, payload: dict[str, Any]) -> str:
    if api == "gemini":
        return path.rsplit("/models/", 1)[-1].split(":", 1)[0]
    return str(payload.get("model") or "unknown-model")


def _include_usage(payload: dict[str, Any]) -> bool:
    options = payload.get("stream_options")
    return isinstance(options, dict) and options.get("include_usage") is True


__all__ = ["ReceivedRequest", "Reply", "WireServer"]
