"""Gemini streams: `POST v1beta/models/{model}:streamGenerateContent?alt=sse`, read as chunks.

google-genai's `generate_content_stream` reads only SSE, and hands back its own models of each
answer (which drop fields it does not know). A server may answer a JSON array instead (Gemini
itself does without `alt=sse`: the conformance `llm-gemini-*` recordings), so this module sends
the request itself, with the body google-genai would send: the same `Content`s and
`GenerateContentConfig` the adapter builds for `send`, serialized by the SDK's models. Each
streamed object is a GenerateContentResponse:

```
{"candidates": [{"content": {"parts": [{"text": "Hel"}, {"functionCall": {"name", "args"}}]},
                 "finishReason": "STOP"}],
 "usageMetadata": {...}, "modelVersion": "gemini-2.5-flash", "responseId": "..."}
```

Calls come whole (one `CallPiece` with all the arguments, then `CallEnd`); parts marked
`"thought": true` are reasoning (`ReasoningPiece`), not text. The answer is whole when a finish
reason (or the array's `]`) came. Error answers are read into google-genai's `APIError` and
mapped by `_gemini_errors`, as for `send`; an `{"error": ...}` object inside the stream too.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Mapping
from typing import Any

from google.genai import errors as genai_errors
from google.genai import types

from .._messages import new_call_id
from ..errors import ProviderError
from ._contract import CallEnd, CallPiece, Chunk, Finish, ReasoningPiece, TextPiece
from ._gemini_errors import PROVIDER, lower, to_error
from ._signatures import SignatureMemory
from ._sse import EventDecoder, ServerEvent
from ._stream_io import decode
from ._wire import first_choice, gemini_usage

BASE_URL = "https://generativelanguage.googleapis.com/"
_TOP_LEVEL = ("systemInstruction", "tools", "toolConfig", "safetySettings", "cachedContent")
"""`GenerateContentConfig` fields that are request fields; every other one is a `generationConfig` field."""
_CLIENT_ONLY = ("httpOptions", "automaticFunctionCalling", "shouldReturnHttpResponse")
"""Fields google-genai reads itself and never sends."""


def request_body(contents: list[types.Content], config: types.GenerateContentConfig) -> dict[str, Any]:
    """The JSON body google-genai sends for these contents and config (camelCase, as the API documents)."""
    fields = config.model_dump(mode="json", by_alias=True, exclude_none=True)
    body: dict[str, Any] = {
        "contents": [content.model_dump(mode="json", by_alias=True, exclude_none=True) for content in contents]
    }
    body.update({name: fields.pop(name) for name in _TOP_LEVEL if name in fields})
    for name in _CLIENT_ONLY:
        fields.pop(name, None)
    if fields:
        body["generationConfig"] = fields
    return body


def stream_url(base_url: str | None, model: str) -> str:
    """Where the stream is asked for."""
    name = model if "/" in model else f"models/{model}"
    return f"{(base_url or BASE_URL).rstrip('/')}/v1beta/{name}:streamGenerateContent?alt=sse"


def http_module() -> Any:
    """The HTTP library google-genai itself uses: httpx2 where installed (google-genai 3.x), else httpx."""
    return importlib.import_module("httpx2" if importlib.util.find_spec("httpx2") else "httpx")


def status_failure(
    status: int, content: bytes, response: Any, *, model: str, secret: str | None, provider: str = PROVIDER
) -> ProviderError:
    """An error answer (status >= 400) as google-genai's `APIError` would be mapped."""
    try:
        body = json.loads(content)
    except ValueError:
        body = {"error": {"code": status, "message": content.decode("utf-8", "replace")[:500]}}
    error = to_error(genai_errors.APIError(status, body, response), model=model, secret=secret, provider=provider)
    assert error is not None  # An APIError always maps.
    return error


class GeminiStreamReader:
    """Reads one streamed GenerateContent answer."""

    provider = PROVIDER

    def __init__(self, model: str, headers: Any, signatures: SignatureMemory, secret: str | None) -> None:
        self.model = model
        self.headers = lower(headers)
        self.signatures = signatures
        self.secret = secret
        self.finished = False
        self._calls = 0

    def read(self, event: ServerEvent) -> list[Chunk]:
        """The chunks of one streamed answer object; the provider's error when it is one."""
        body = decode(event, self)
        if not isinstance(body, Mapping):
            return []
        if isinstance(error := body.get("error"), Mapping):
            status = error.get("code")
            raise to_error(
                genai_errors.APIError(status if isinstance(status, int) else 500, dict(body)),
                model=self.model,
                secret=self.secret,
                provider=self.provider,
            ) or ProviderError(str(error), provider=self.provider, model=self.model)
        candidate = first_choice(body.get("candidates"))  # With candidateCount>1, only candidate 0 counts.
        content = candidate.get("content")
        parts = content.get("parts") if isinstance(content, Mapping) else None
        chunks: list[Chunk] = []
        for part in parts if isinstance(parts, list) else ():
            if isinstance(part, Mapping):
                chunks += self._part(part)
        blocked = body.get("promptFeedback")
        reason = candidate.get("finishReason") or (blocked.get("blockReason") if isinstance(blocked, Mapping) else None)
        self.finished = self.finished or bool(reason)
        chunks.append(self._finish(body, reason))
        return chunks

    def complete(self, decoder: EventDecoder) -> bool:
        """A finish reason came, or the JSON array was closed."""
        return self.finished or (decoder.is_json and decoder.closed)

    def _part(self, part: Mapping[str, Any]) -> list[Chunk]:
        call = part.get("functionCall")
        if isinstance(call, Mapping):
            index, self._calls = self._calls, self._calls + 1
            call_id = str(call.get("id") or new_call_id())  # Gemini 2.x sends none.
            given = part.get("thoughtSignature")
            signature = given if isinstance(given, str) and given else None
            self.signatures.keep(call_id, signature)
            arguments = call.get("args")
            arguments_text = json.dumps(arguments if isinstance(arguments, Mapping) else {})
            return [CallPiece(index, call_id, str(call.get("name") or ""), arguments_text, signature), CallEnd(index)]
        text = part.get("text")
        if not isinstance(text, str) or not text:
            return []
        return [ReasoningPiece(text) if part.get("thought") else TextPiece(text)]

    def _finish(self, body: Mapping[str, Any], reason: Any) -> Finish:
        metadata = body.get("usageMetadata")
        model = body.get("modelVersion")
        response_id = body.get("responseId")
        return Finish(
            str(reason) if reason else None,
            gemini_usage(metadata) if isinstance(metadata, Mapping) else None,
            str(model) if model else None,
            self.headers.get("x-request-id") or (str(response_id) if response_id else None),
        )
