"""Gemini on Google Cloud's Vertex AI, through google-genai with `vertexai=True`.

```python
llmrelay.Client("vertex:gemini-2.5-flash", provider_options={"project": "my-project", "location": "europe-west4"})
```

The request and the answer are `gemini:`'s (this adapter is a `GeminiAdapter`); what differs is how
the API is reached:

- Project: `provider_options["project"]`, else `GOOGLE_CLOUD_PROJECT`; location:
  `provider_options["location"]`, else `GOOGLE_CLOUD_LOCATION`, else `global` (the endpoint
  Google recommends for Gemini 2.5 and later, `aiplatform.googleapis.com`).
- Credentials: `provider_options["credentials"]` (any `google.auth.credentials.Credentials`, e.g.
  a service account's), else Application Default Credentials (`gcloud auth application-default
  login`, or the metadata server on Google Cloud). The token is fetched and refreshed by
  google-auth only when it is missing or expired. `api_key=` instead uses Vertex AI express mode
  (no project).
- The API version is v1; streams go to `.../v1/projects/<p>/locations/<l>/publishers/google/models/
  <model>:streamGenerateContent?alt=sse` with the bearer token.
- Errors have Google's shape on both APIs (`{"error": {"code", "message", "status"}}`) and map the
  same way, with provider `vertex`; a 401/403 is an expired or unauthorized credential.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from ..errors import ConfigError, MissingDependencyError
from .gemini import GeminiAdapter

try:
    from google import genai
    from google.genai import types
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(package="google-genai", extra="vertex") from exc

PROJECT_ENV = "GOOGLE_CLOUD_PROJECT"
LOCATION_ENV = "GOOGLE_CLOUD_LOCATION"
DEFAULT_LOCATION = "global"


class VertexAdapter(GeminiAdapter):
    """Gemini on Vertex AI: `vertex:gemini-2.5-flash`, `vertex:gemini-2.5-pro`, ..."""

    provider: ClassVar[str] = "vertex"

    def _secret(self) -> str | None:
        return self.options.api_key

    def _sdk_locked(self) -> genai.Client:
        if self._client is None:
            self._client = genai.Client(vertexai=True, http_options=self._http(), **self._where())
        return self._client

    def _where(self) -> dict[str, Any]:
        """Project, location and credentials (or the express-mode key), from the options or the environment."""
        if self.options.api_key:
            return {"api_key": self.options.api_key}
        extra = self.options.extra
        project = extra.get("project") or os.environ.get(PROJECT_ENV)
        if not project:
            raise ConfigError(
                "the vertex provider needs a Google Cloud project: "
                f'provider_options={{"project": ...}} or {PROJECT_ENV}'
            )
        location = extra.get("location") or os.environ.get(LOCATION_ENV) or DEFAULT_LOCATION
        return {"project": project, "location": location, "credentials": extra.get("credentials")}

    def _endpoint(self) -> str:
        """Vertex AI's endpoint for the location (global: `aiplatform.googleapis.com`), unless `base_url=`."""
        if self.options.base_url:
            return self.options.base_url
        location = self._where().get("location") or DEFAULT_LOCATION
        prefix = "" if location == DEFAULT_LOCATION else f"{location}-"
        return f"https://{prefix}aiplatform.googleapis.com"

    def _http(self) -> types.HttpOptions:
        return super()._http().model_copy(update={"api_version": "v1"})

    def _stream_request(self, request: Any) -> tuple[str, dict[str, Any], dict[str, str], str]:
        from ._gemini_stream import request_body

        api = self._sdk()._api_client  # The SDK's resolved endpoint, project and token (refreshed when due).
        contents, config = self._request(request)
        if api.api_key:
            headers, secret = {"x-goog-api-key": api.api_key}, api.api_key
            path = f"publishers/google/models/{request.model}"
        else:
            secret = api._access_token()
            headers = {"authorization": f"Bearer {secret}"}
            path = f"projects/{api.project}/locations/{api.location}/publishers/google/models/{request.model}"
        url = f"{str(api._http_options.base_url).rstrip('/')}/v1/{path}:streamGenerateContent?alt=sse"
        return url, request_body(contents, config), {**headers, **self.options.headers}, secret
