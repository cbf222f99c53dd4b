"""Groq's OpenAI-style Chat Completions API, through the official groq SDK (on httpx).

The request and answer shapes are in `_openai_compat`. Groq's own rules (console.groq.com/docs):

- Strict structured outputs (`"strict": true`, constrained decoding) exist only on the models
  Groq lists for it, `openai/gpt-oss-20b` and `openai/gpt-oss-120b`; other models with
  Structured Outputs get `"strict": false`, Groq's documented default (best effort).
- A tool call the model writes that does not fit the tool's schema is answered with a 400,
  `{"error": {"code": "tool_use_failed", "failed_generation": "<the model's raw text>", ...}}`.
  The whole body is kept on the error: `exc.body["error"]["failed_generation"]`.
- Reasoning models send `message.reasoning`, never part of the text.
- 498 means the flex tier is at capacity: an `OverloadedError`, worth retrying.
- The request id is the `x-request-id` header, or `x_groq.id` in the body.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from .._effort import Reasoning
from .._types import Request
from ..errors import MissingDependencyError
from ._openai_compat import ChatCompletionsAdapter

try:
    import groq
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(package="groq", extra="groq", needed_for="for the 'groq' provider") from exc

_STRICT_MODELS = ("openai/gpt-oss-20b", "openai/gpt-oss-120b")
"""Groq's list of models with `strict: true` (console.groq.com/docs/structured-outputs)."""


class GroqAdapter(ChatCompletionsAdapter):
    """Groq: `groq:llama-3.3-70b-versatile`, `groq:openai/gpt-oss-120b`, ..."""

    provider: ClassVar[str] = "groq"
    sdk: ClassVar[ModuleType] = groq
    client_classes: ClassVar[tuple[type[Any], type[Any]]] = (groq.Groq, groq.AsyncGroq)
    api_key_env: ClassVar[str] = "GROQ_API_KEY"
    base_url_env: ClassVar[str | None] = "GROQ_BASE_URL"
    default_base_url: ClassVar[str] = "https://api.groq.com"
    base_url_version: ClassVar[str | None] = None  # The SDK adds /openai/v1 to the host itself.

    def build_body(self, request: Request) -> dict[str, Any]:
        """The request body; strict schemas only where Groq supports them."""
        return self.chat_body(request, strict=request.model.lower().startswith(_STRICT_MODELS))

    def reasoning_fields(self, reasoning: Reasoning, model: str) -> dict[str, Any]:
        """gpt-oss: an effort and `include_reasoning`; Qwen 3: on ("default") or off ("none"), parsed apart.

        console.groq.com/docs/reasoning: gpt-oss takes low/medium/high and refuses `reasoning_format`;
        Qwen 3 takes only "none" or "default". Other models get nothing.
        """
        name = model.lower()
        if name.startswith("openai/gpt-oss"):
            return {"reasoning_effort": reasoning.level, "include_reasoning": True} if reasoning.enabled else {}
        if "qwen3" in name:
            if not reasoning.enabled:
                return {"reasoning_effort": "none"}
            return {"reasoning_effort": "default", "reasoning_format": "parsed"}
        return {}

    def request_id(self, headers: Mapping[str, str], body: Any) -> str | None:
        """The `x-request-id` header, else the `x_groq.id` Groq puts in the body."""
        x_groq = body.get("x_groq") if isinstance(body, Mapping) else None
        in_body = x_groq.get("id") if isinstance(x_groq, Mapping) else None
        return headers.get("x-request-id") or (in_body if isinstance(in_body, str) else None)
