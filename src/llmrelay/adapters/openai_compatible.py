"""Any server that speaks OpenAI's Chat Completions: Ollama, vLLM, LM Studio, llama.cpp, Together...

The request and answer shapes are in `_openai_compat`; this adapter adds only the connection:

```python
llmrelay.Client("openai-compatible:llama3.1", base_url="http://localhost:11434/v1")   # Ollama
llmrelay.Client("openai-compatible:Qwen/Qwen3-8B", base_url="http://localhost:8000/v1")  # vLLM
```

- `base_url` is required: there is no default server.
- The key is optional: `api_key`, else `OPENAI_COMPATIBLE_API_KEY`, else a placeholder. Local
  servers accept any key but the openai SDK insists on one, and `OPENAI_API_KEY` is never used,
  so an OpenAI key is not sent to another host (nor `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID`, nor
  the headers of `OPENAI_CUSTOM_HEADERS`).
- `max_tokens` keeps its name: it is what these servers implement (vLLM, Ollama and llama.cpp
  read `max_tokens`; not all read `max_completion_tokens`).
- What they answer varies; the reader copes with content as a list of text parts, calls
  without ids (Gemini's compatible endpoint sends `"id": ""`), and errors in other shapes
  (`{"error": "..."}` from Ollama, a top-level `message` from vLLM).
- Thought signatures: Gemini's endpoint (`https://generativelanguage.googleapis.com/v1beta/openai/`)
  signs Gemini 3's calls in `tool_calls[].extra_content.google.thought_signature` and refuses them
  back unsigned. The signature is read into `NativeCall.signature`, and every call that carries
  one (`ToolCall.signature`, whichever adapter read it) sends it back in the same place. Only
  calls Gemini made carry one, so another server sees the field only in a conversation Gemini
  took part in.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from .._envelope import ToolCall
from ..errors import ConfigError, MissingDependencyError
from . import ProviderOptions
from ._openai_compat import ChatCompletionsAdapter, env_key, forget_openai_environment

try:
    import openai
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(
        package="openai", extra="openai", needed_for="for the 'openai-compatible' provider"
    ) from exc

PLACEHOLDER_KEY = "not-needed"
"""Sent when no key is configured: the SDK requires one, local servers ignore it."""


class OpenAICompatibleAdapter(ChatCompletionsAdapter):
    """A server at `base_url` with OpenAI's Chat Completions API."""

    provider: ClassVar[str] = "openai-compatible"
    sdk: ClassVar[ModuleType] = openai
    client_classes: ClassVar[tuple[type[Any], type[Any]]] = (openai.OpenAI, openai.AsyncOpenAI)
    api_key_env: ClassVar[str] = "OPENAI_COMPATIBLE_API_KEY"

    def __init__(self, options: ProviderOptions) -> None:
        self.options = options
        if not self.base_url():
            raise ConfigError(
                f"the {self.provider} provider needs base_url, the server's OpenAI-style endpoint "
                '(e.g. base_url="http://localhost:11434/v1" for Ollama)'
            )
        super().__init__(options)

    def api_key(self) -> str:
        """`api_key`, else `OPENAI_COMPATIBLE_API_KEY`, else the placeholder."""
        return self.options.api_key or env_key(self.api_key_env) or PLACEHOLDER_KEY

    def signature(self, call: ToolCall) -> str | None:
        """Every signature a call carries goes back: the server may be Gemini's endpoint, which needs it."""
        return call.signature or super().signature(call)

    def configure(self, client: Any) -> None:
        """No OpenAI organization or project ids, nor `OPENAI_CUSTOM_HEADERS`, are sent to this host."""
        forget_openai_environment(client, self.options.headers)
