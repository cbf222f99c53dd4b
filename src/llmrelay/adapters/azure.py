"""Azure OpenAI, through the openai SDK's `AzureOpenAI` / `AsyncAzureOpenAI`.

```python
llmrelay.Client(
    "azure:prod-chat",                                   # the deployment's name
    base_url="https://my-resource.openai.azure.com",     # the endpoint (else AZURE_OPENAI_ENDPOINT)
    provider_options={"api_version": "2024-10-21", "model": "gpt-4o"},
)
llmrelay.Client("azure-responses:prod-reasoner", ...)    # the Responses API on Azure
```

- `azure:<deployment>` sends Chat Completions to `/openai/deployments/<deployment>/chat/completions`;
  `azure-responses:<deployment>` sends the Responses API to `/openai/responses` with the
  deployment as `model` (the shapes are `openai:`'s and `openai-responses:`'s).
- The endpoint is `base_url=`, else `AZURE_OPENAI_ENDPOINT`; the API version is
  `provider_options["api_version"]`, else `OPENAI_API_VERSION`, else a GA version (2024-10-21;
  2025-04-01-preview for the Responses API, which needs a preview).
- Credentials: `api_key=`, else `AZURE_OPENAI_API_KEY`, else a Microsoft Entra ID token provider
  (`provider_options["azure_ad_token_provider"]`: a callable returning a bearer token, e.g.
  `azure.identity.get_bearer_token_provider(...)`; async clients may pass an async one). Without
  any, an `AuthenticationError` before any request.
- A deployment has any name: `provider_options["model"]` names the model behind it, so the
  capability database (OpenAI's rows) is read for that model. Without it, the deployment's name is
  looked up (a deployment named after its model needs no hint).
- Content filtering: a prompt the filter refuses is a 400 whose `error.code` is `content_filter`,
  raised as `ContentFilterError` (the verdicts in `body`); an answer the filter cut ends with
  finish `content_filter`; a stream may start with a chunk with no choices and only
  `prompt_filter_results`, which carries nothing to show.
- The request id is `x-request-id`, else Azure API Management's `apim-request-id`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from ..errors import AuthenticationError, ConfigError, ContentFilterError, MissingDependencyError, ProviderError
from ._errors import status_error
from ._openai_compat import ChatCompletionsAdapter, env_key, forget_openai_environment
from .openai_responses import OpenAIResponsesAdapter

try:
    import openai
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(package="openai", extra="openai") from exc

ENDPOINT_ENV = "AZURE_OPENAI_ENDPOINT"
VERSION_ENV = "OPENAI_API_VERSION"


class AzureConnection(ChatCompletionsAdapter):
    """What both Azure adapters share: the client, its credentials, the capability hint, filter errors."""

    sdk: ClassVar[ModuleType] = openai
    client_classes: ClassVar[tuple[type[Any], type[Any]]] = (openai.AzureOpenAI, openai.AsyncAzureOpenAI)
    api_key_env: ClassVar[str] = "AZURE_OPENAI_API_KEY"
    default_api_version: ClassVar[str] = "2024-10-21"
    base_url_version: ClassVar[str | None] = None  # The endpoint is the resource's; the SDK adds the path.

    def client_options(self) -> dict[str, Any]:
        """Endpoint, API version and one credential: the key, or the Entra token provider."""
        extra = self.options.extra
        endpoint = self.options.base_url or env_key(ENDPOINT_ENV)
        if not endpoint:
            raise ConfigError(
                f'the {self.provider} provider needs its endpoint: base_url="https://<resource>.openai.azure.com" '
                f"or {ENDPOINT_ENV}"
            )
        # The shared options (no retries, timeout, headers), the endpoint in Azure's own argument.
        options = {k: v for k, v in super().client_options().items() if k not in ("api_key", "base_url")}
        options["azure_endpoint"] = endpoint
        options["api_version"] = extra.get("api_version") or os.environ.get(VERSION_ENV) or self.default_api_version
        if (key := self.options.api_key or env_key(self.api_key_env)) is not None:
            options["api_key"] = key
        elif (provider := extra.get("azure_ad_token_provider")) is not None:
            options["azure_ad_token_provider"] = provider
        else:
            raise self._no_key()
        return options

    def configure(self, client: Any) -> None:
        """No OpenAI organization or project ids (read from the environment for OpenAI) go to Azure."""
        forget_openai_environment(client, self.options.headers)

    def _no_key(self) -> AuthenticationError:
        return AuthenticationError(
            f"no credentials: pass api_key=..., set {self.api_key_env}, or give "
            'provider_options={"azure_ad_token_provider": ...}',
            provider=self.provider,
        )

    def capability_model(self, deployment: str) -> str:
        """The model behind the deployment, as `provider_options["model"]` names it."""
        hint = self.options.extra.get("model")
        return hint if isinstance(hint, str) and hint else deployment

    def request_id(self, headers: Mapping[str, str], body: Any) -> str | None:
        """`x-request-id`, else `apim-request-id`."""
        return headers.get("x-request-id") or headers.get("apim-request-id")

    def _status_error(self, status: int | None, body: Any, headers: Mapping[str, str], model: str) -> ProviderError:
        error = super()._status_error(status, body, headers, model)
        if error.code != "content_filter":
            return error
        return status_error(
            error.message,
            status=status,
            provider=self.provider,
            model=model,
            headers=headers,
            body=body,
            request_id=error.request_id,
            code=error.code,
            secret=self._secret,
            cls=ContentFilterError,
        )


class AzureOpenAIAdapter(AzureConnection):
    """Azure OpenAI's Chat Completions: `azure:<deployment>`."""

    provider: ClassVar[str] = "azure"
    max_tokens_field: ClassVar[str] = "max_completion_tokens"  # As OpenAI's: o-series deployments refuse max_tokens.
    stream_usage: ClassVar[bool] = True


class AzureResponsesAdapter(AzureConnection, OpenAIResponsesAdapter):
    """Azure OpenAI's Responses API: `azure-responses:<deployment>`."""

    provider: ClassVar[str] = "azure-responses"
    default_api_version: ClassVar[str] = "2025-04-01-preview"
