"""Claude on Google Cloud's Vertex AI, through the anthropic SDK's `AnthropicVertex` (extra `anthropic-vertex`).

```python
llmrelay.Client("anthropic-vertex:claude-sonnet-4-5@20250929",
                provider_options={"region": "us-east5", "project": "my-project"})
```

The request and the answer are `anthropic:`'s (this adapter is an `AnthropicAdapter`); the SDK
sends them to `<region>-aiplatform.googleapis.com/v1/projects/<p>/locations/<region>/publishers/
anthropic/models/<model>:rawPredict` (`:streamRawPredict` for streams, which are server-sent
events as on Anthropic's API); the SDK moves the model into the URL and adds `anthropic_version`.

- Region (required): `provider_options["region"]`, else `CLOUD_ML_REGION`.
- Project: `provider_options["project"]`, else `ANTHROPIC_VERTEX_PROJECT_ID`, else
  `GOOGLE_CLOUD_PROJECT`, else the credentials' own project.
- Credentials: `provider_options["credentials"]` (google-auth) or `provider_options["access_token"]`,
  else Application Default Credentials; the token is refreshed only when missing or expired.
- Errors have Anthropic's shape and map as `anthropic:`'s do, with provider `anthropic-vertex`.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from ..errors import ConfigError, MissingDependencyError
from .anthropic import AnthropicAdapter

try:
    import anthropic
    from anthropic.lib.vertex import _auth  # noqa: F401  (needs google-auth: the extra's)
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(package="anthropic[vertex]", extra="anthropic-vertex") from exc


class AnthropicVertexAdapter(AnthropicAdapter):
    """Claude on Vertex AI: `anthropic-vertex:claude-sonnet-4-5@20250929`, ..."""

    provider: ClassVar[str] = "anthropic-vertex"
    client_classes: ClassVar[tuple[type[Any], type[Any]]] = (anthropic.AnthropicVertex, anthropic.AsyncAnthropicVertex)

    def _client_options(self) -> dict[str, Any]:
        extra = self.options.extra
        region = extra.get("region") or os.environ.get("CLOUD_ML_REGION")
        if not region:
            raise ConfigError(
                "the anthropic-vertex provider needs a region: "
                'provider_options={"region": "us-east5"} or CLOUD_ML_REGION'
            )
        options = {name: value for name, value in super()._client_options().items() if name != "api_key"}
        options["region"] = region
        project = extra.get("project") or os.environ.get("ANTHROPIC_VERTEX_PROJECT_ID")
        if project := project or os.environ.get("GOOGLE_CLOUD_PROJECT"):
            options["project_id"] = project
        for name in ("credentials", "access_token"):
            if extra.get(name) is not None:
                options[name] = extra[name]
        return options

    def _checked(self, client: Any) -> Any:
        return client  # The token is fetched (or refreshed) when the first request is sent.
