"""OpenAI's Responses API (`POST /v1/responses`), through the openai SDK's `responses` resource.

`openai-responses:gpt-5` (also in config profiles, like any provider id). The same key
(`OPENAI_API_KEY`), SDK and error shapes as `openai:`; the request body is built in
`_responses_messages`, the stream read in `_responses_stream`. What comes back:

```
{"id": "resp_...", "status": "completed" | "incomplete" | "failed", "model": "gpt-5-2025-08-07",
 "output": [{"type": "reasoning", "id": "rs_...", "summary": [...], "encrypted_content": "..."},
            {"type": "message", "content": [{"type": "output_text", "text": "..."}]},
            {"type": "function_call", "call_id": "call_...", "name": "f", "arguments": "{...}"}],
 "incomplete_details": {"reason": "max_output_tokens"} | null,
 "usage": {"input_tokens", "input_tokens_details": {"cached_tokens"}, "output_tokens",
           "output_tokens_details": {"reasoning_tokens"}, "total_tokens"}}
```

- Content is the `output_text` parts of the `message` items, in order; a `refusal` part is the
  content when there is no text, and the finish reason is then `refusal` (`content_filter`).
- `function_call` items are the native calls; their `call_id` (not the item's `id`) is the
  call's id, which the `function_call_output` of the next turn quotes.
- The API has no finish reason; one is derived from `status`, as the conformance set does:
  `completed` is `tool_calls` with calls, else `stop`; `incomplete` is `length` when
  `incomplete_details.reason` is `max_output_tokens`, else that reason (`content_filter`).
  A `failed` response (its `error` set) is raised as the error its code names.
- Reasoning items are kept on the `Completion` as an `Artifact` (with the response id and the
  items they precede) and go back when that Completion is passed in `messages`. With
  `store=False` the adapter asks for `include: ["reasoning.encrypted_content"]`, so they can go
  back without server-side state. `previous_response_id=` is passed through as given: the
  artifact's `data["id"]` is the id to quote, and only the new turns need sending.
- `max_tokens` is sent as `max_output_tokens`; `reasoning_effort` as `reasoning.effort`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from .._types import RawResponse, Request
from ..errors import MissingDependencyError, ProviderError
from ._openai_compat import ChatCompletionsAdapter
from ._responses_answer import failure, raw_response
from ._responses_messages import request_body

if TYPE_CHECKING:
    from ._stream_io import Reader

try:
    import openai
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(package="openai", extra="openai") from exc


class OpenAIResponsesAdapter(ChatCompletionsAdapter):
    """OpenAI's Responses API: `openai-responses:gpt-5`, `openai-responses:gpt-4o-mini`, ..."""

    provider: ClassVar[str] = "openai-responses"
    sdk: ClassVar[ModuleType] = openai
    client_classes: ClassVar[tuple[type[Any], type[Any]]] = (openai.OpenAI, openai.AsyncOpenAI)
    api_key_env: ClassVar[str] = "OPENAI_API_KEY"

    def build_body(self, request: Request) -> dict[str, Any]:
        """The Responses body for `request`."""
        return request_body(request, provider=self.provider)

    def endpoint(self, client: Any) -> Any:
        """The SDK's `responses` resource."""
        return client.responses

    def create_arguments(self, body: dict[str, Any]) -> dict[str, Any]:
        """The model as a keyword; the rest as the body says it (`extra_body`), whatever the SDK's version."""
        return {"model": body["model"], "extra_body": {k: v for k, v in body.items() if k != "model"}}

    def stream_body(self, request: Request) -> dict[str, Any]:
        """The body of a stream: usage always comes in `response.completed`."""
        return {**self.build_body(request), "stream": True}

    def read_answer(self, body: Mapping[str, Any], headers: Mapping[str, str], model: str) -> RawResponse:
        """A decoded response as a `RawResponse`; a failed one as its error."""
        request_id = self.request_id(headers, body)
        if (error := failure(body)) is not None:
            raise self.failed(error, body, headers, model)
        return raw_response(self.provider, body, model=model, request_id=request_id)

    def stream_reader(self, model: str, headers: Mapping[str, str]) -> Reader:
        """The reader of Responses stream events."""
        from ._responses_stream import ResponsesStreamReader

        return ResponsesStreamReader(self, model, headers)

    def failed(self, error: Mapping[str, Any], body: Any, headers: Mapping[str, str], model: str) -> ProviderError:
        """The error of a failed response or of an `error` stream event.

        It has no HTTP status: a `ServerError`, unless its code is a rate limit.
        """
        status = 429 if error.get("code") == "rate_limit_exceeded" else None
        return self._status_error(
            status, {"error": dict(error), **(body if isinstance(body, Mapping) else {})}, headers, model
        )
