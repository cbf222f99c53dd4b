"""Responses API answers as `RawResponse`s: text, calls, a finish reason, usage, the reasoning artifact.

Read by `openai_responses` (a whole answer) and `_responses_stream` (the `response` of the final
event); the shapes are in `openai_responses`' docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._envelope import Artifact, Usage
from .._types import NativeCall, RawResponse
from ._responses_messages import ARTIFACT_KIND, output_text


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
