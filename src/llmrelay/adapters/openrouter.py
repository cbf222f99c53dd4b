"""OpenRouter, one OpenAI-style API in front of many model hosts, through the openai SDK.

The request and answer shapes are in `_openai_compat`. OpenRouter's own rules
(openrouter.ai/docs: api-reference, provider-routing, errors):

- The endpoint is `https://openrouter.ai/api/v1`; the key comes from `api_key` or
  `OPENROUTER_API_KEY`; never from `OPENAI_API_KEY`, which the openai SDK would otherwise read,
  and no `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID` / `OPENAI_CUSTOM_HEADERS` headers are sent.
- A host that does not support a parameter has it dropped, silently. With tools or
  `response_format` the request sets `"provider": {"require_parameters": true}`, so only hosts
  that support them are chosen, and a model with none fails (and the mode is learned) instead.
- An error can come inside a 200: `{"error": {"code": 502, "message": "...", "metadata":
  {"raw": "<the host's own message>"}}}`. It is raised as the error its `code` names.
- The answer may start with blank lines (sent to keep the connection open); it is still JSON.
- Reasoning comes in `message.reasoning` and `reasoning_details`, never part of the text.
- The request id is the generation id (`"id": "gen-..."`), which OpenRouter's support and
  `/api/v1/generation` look up.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from .._effort import Reasoning
from .._replay import replay_key
from .._types import Request
from ..errors import MissingDependencyError
from ._openai_compat import ChatCompletionsAdapter, env_key, forget_openai_environment

try:
    import openai
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(package="openai", extra="openai", needed_for="for the 'openrouter' provider") from exc

BASE_URL = "https://openrouter.ai/api/v1"


class OpenRouterAdapter(ChatCompletionsAdapter):
    """OpenRouter: `openrouter:meta-llama/llama-3.3-70b-instruct`, `openrouter:openai/gpt-4o`, ..."""

    provider: ClassVar[str] = "openrouter"
    sdk: ClassVar[ModuleType] = openai
    client_classes: ClassVar[tuple[type[Any], type[Any]]] = (openai.OpenAI, openai.AsyncOpenAI)
    api_key_env: ClassVar[str] = "OPENROUTER_API_KEY"

    def api_key(self) -> str | None:
        """`api_key`, else `OPENROUTER_API_KEY`; no key at all is an `AuthenticationError`."""
        key = self.options.api_key or env_key(self.api_key_env) or replay_key(self.api_key_env)
        if key is None:
            raise self._no_key()
        return key

    def base_url(self) -> str:
        """OpenRouter's endpoint, unless another was given."""
        return self.options.base_url or BASE_URL

    def build_body(self, request: Request) -> dict[str, Any]:
        """The request body; routing restricted to hosts that honour tools and response_format."""
        body = super().build_body(request)
        if "tools" in body or "response_format" in body:
            routing = body.get("provider")
            body["provider"] = {"require_parameters": True, **(routing if isinstance(routing, Mapping) else {})}
        return body

    def reasoning_fields(self, reasoning: Reasoning, model: str) -> dict[str, Any]:
        """OpenRouter's `reasoning`: an effort, or `max_tokens` for a budget, or `enabled: false`.

        openrouter.ai/docs/use-cases/reasoning-tokens; OpenRouter maps it to each host's own knob.
        """
        if not reasoning.enabled:
            return {"reasoning": {"enabled": False}}
        if reasoning.budget_tokens is not None:
            return {"reasoning": {"max_tokens": reasoning.budget_tokens}}
        return {"reasoning": {"effort": reasoning.level}}

    def request_id(self, headers: Mapping[str, str], body: Any) -> str | None:
        """The `x-request-id` header when sent, else the generation id."""
        generation = body.get("id") if isinstance(body, Mapping) else None
        return headers.get("x-request-id") or (generation if isinstance(generation, str) else None)

    def configure(self, client: Any) -> None:
        """No OpenAI organization or project ids, nor `OPENAI_CUSTOM_HEADERS`, are sent to this host."""
        forget_openai_environment(client, self.options.headers)
