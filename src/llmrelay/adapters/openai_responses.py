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

from .._envelope import Artifact, Usage
from .._types import NativeCall, RawResponse, Request
from ..errors import MissingDependencyError, ProviderError
from ._openai_compat import ChatCompletionsAdapter
from ._responses_messages import ARTIFACT_KIND, output_text, request_body

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
        return self._status_error(status, {"error": dict(error), **_mapping(body)}, headers, model)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def failure(response: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The `error` of a response whose status is `failed` (or that carries one)."""
    error = response.get("error")
    return error if isinstance(error, Mapping) else None


def raw_response(provider: str, body: Mapping[str, Any], *, model: str, request_id: str | None) -> RawResponse:
    """A decoded Responses answer as a `RawResponse` (see the module docstring)."""
    items = [item for item in body.get("output") or () if isinstance(item, Mapping)]
    calls = tuple(native_call(item) for item in items if item.get("type") == "function_call")
    reported = body.get("model")
    return RawResponse(
        provider=provider,
        model=reported if isinstance(reported, str) and reported else model,
        text="".join(output_text(item) for item in items if item.get("type") == "message"),
        reasoning="\n\n".join(summary_text(item) for item in items if item.get("type") == "reasoning").strip(),
        native_calls=calls,
        finish_reason=finish_reason(body, items, has_calls=bool(calls)),
        usage=responses_usage(body.get("usage")),
        request_id=request_id,
        body=body,
        artifacts=artifacts(provider, body.get("id"), items),
    )


def summary_text(item: Mapping[str, Any]) -> str:
    """A reasoning item's summary text (asked for with `reasoning.summary`; the raw reasoning is never sent)."""
    parts = [p.get("text") for p in item.get("summary") or () if isinstance(p, Mapping)]
    return "\n\n".join(text for text in parts if isinstance(text, str) and text)


def native_call(item: Mapping[str, Any]) -> NativeCall:
    """A `function_call` item as a native call; its `call_id` is the id the result must quote."""
    identifier = item.get("call_id") or item.get("id")
    return NativeCall(str(item.get("name") or ""), item.get("arguments"), str(identifier) if identifier else None)


def finish_reason(response: Mapping[str, Any], items: list[Mapping[str, Any]], *, has_calls: bool) -> str | None:
    """A finish reason from the response's `status` (the API has none of its own)."""
    status = response.get("status")
    if status == "incomplete":
        reason = _mapping(response.get("incomplete_details")).get("reason")
        return "length" if reason in (None, "max_output_tokens") else str(reason)
    if status != "completed":
        return None  # failed, cancelled, queued, in_progress: not a finished answer.
    if has_calls:
        return "tool_calls"
    return "refusal" if _refused(items) else "stop"


def _refused(items: list[Mapping[str, Any]]) -> bool:
    parts = [p for item in items if item.get("type") == "message" for p in item.get("content") or ()]
    kinds = {p.get("type") for p in parts if isinstance(p, Mapping)}
    return "refusal" in kinds and "output_text" not in kinds


def responses_usage(usage: Any) -> Usage:
    """input/output/total tokens, with the cached input and reasoning output tokens."""
    if not isinstance(usage, Mapping):
        return Usage()
    prompt, output = int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0)
    cached = _mapping(usage.get("input_tokens_details")).get("cached_tokens")
    reasoning = _mapping(usage.get("output_tokens_details")).get("reasoning_tokens")
    total = int(usage.get("total_tokens") or prompt + output)
    return Usage(prompt, output, total, int(cached or 0), int(reasoning or 0))


def artifacts(provider: str, response_id: Any, items: list[Mapping[str, Any]]) -> tuple[Artifact, ...]:
    """The response's id, and its output items when it reasoned: what the next turn sends back."""
    reasoned = any(item.get("type") == "reasoning" for item in items)
    if not reasoned and not isinstance(response_id, str):
        return ()
    data = {"id": response_id if isinstance(response_id, str) else None, "items": list(items) if reasoned else []}
    return (Artifact(provider, ARTIFACT_KIND, data),)
