"""OpenAI's Chat Completions API, through the official openai SDK (2.x on httpx, 3.x on httpx2).

The request and answer shapes are in `_openai_compat`. OpenAI's own rules:

- `max_tokens` is sent as `max_completion_tokens`: o-series and gpt-5 models refuse `max_tokens`
  ("Unsupported parameter: 'max_tokens' ... Use 'max_completion_tokens' instead"), and every
  current chat model accepts `max_completion_tokens`.
- System turns keep the role "system" (o1-mini refuses "developer"; newer models map "system"
  to "developer" themselves).
- json_schema is strict structured output: `{"type": "json_schema", "json_schema": {"name",
  "schema", "strict": true}}`; llmrelay's envelope schema follows the strict rules.
- The key comes from `api_key` or, read by the SDK, `OPENAI_API_KEY`; `OPENAI_BASE_URL` too.
- A call's thought signature (`extra_content.google.thought_signature`) goes back only when this
  adapter received it, i.e. when `base_url` is Gemini's OpenAI-compatible endpoint: OpenAI itself
  sends none, so it is never sent a signature another provider made. For Gemini's endpoint prefer
  `openai-compatible:`, which sends back every signature, also across processes.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from ..errors import MissingDependencyError
from ._openai_compat import ChatCompletionsAdapter

try:
    import openai
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(package="openai", extra="openai", needed_for="for the 'openai' provider") from exc


class OpenAIAdapter(ChatCompletionsAdapter):
    """OpenAI: `openai:gpt-4o-mini`, `openai:o3-mini`, ..."""

    provider: ClassVar[str] = "openai"
    sdk: ClassVar[ModuleType] = openai
    client_classes: ClassVar[tuple[type[Any], type[Any]]] = (openai.OpenAI, openai.AsyncOpenAI)
    api_key_env: ClassVar[str] = "OPENAI_API_KEY"
    base_url_env: ClassVar[str | None] = "OPENAI_BASE_URL"
    max_tokens_field: ClassVar[str] = "max_completion_tokens"
    stream_usage: ClassVar[bool] = True  # OpenAI sends a stream's usage only when asked.
