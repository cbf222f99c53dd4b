"""The Anthropic adapter: Claude through the Messages API (`POST /v1/messages`) and the `anthropic` SDK.

What each mode sends (besides `model`, `max_tokens` and `messages`):

- native_tools: `tools` as `{"name", "description", "input_schema"}` and `tool_choice` as
  `{"type": "auto"}`, `{"type": "any"}` (required), `{"type": "tool", "name": ...}` or
  `{"type": "none"}`. Assistant calls travel as `tool_use` blocks and their results as
  `tool_result` blocks in a user turn, all results of one turn in one message.
- json_schema: structured outputs, `output_config: {"format": {"type": "json_schema", "schema":
  <the envelope>}}` (generally available, no beta header; the older beta `output_format` field is
  deprecated), with the instructions of `prepare_messages`. Only some models accept it: see
  `capabilities/models.toml`. Learned from platform.claude.com/docs/en/build-with-claude/structured-outputs
  and pydantic-ai's recording (conformance cassette `anthropic/pydantic-ai-structured-strict.yaml`).
- json_object: Anthropic has no JSON mode, so this is the text path. No assistant prefill of "{":
  Claude 4.6 and later models answer a prefill with a 400 ("This model does not support assistant
  message prefill"), and the normalizer reads the envelope with or without one.
- text: `prepare_messages(request)`, no tools.

System turns go to the top-level `system` parameter (joined by blank lines, wherever they were);
consecutive turns of one role are merged, because the API wants user and assistant to alternate.

`max_tokens` is required by Anthropic: without one in `request.params`, `DEFAULT_MAX_TOKENS` (4096,
what pydantic-ai sends too) is used. OpenAI's names `max_completion_tokens` and `stop` are accepted
for `max_tokens` and `stop_sequences`. Every other parameter, and `output_config`, is sent through
the SDK's `extra_body`, so fields newer than the installed SDK (anthropic 0.x included) still reach
the API unchanged.

Reasoning: `reasoning=` becomes `thinking: {"type": "enabled", "budget_tokens": N}` (an effort
through `_effort.EFFORT_BUDGETS`). Anthropic wants `max_tokens` above the budget: without one given,
the budget plus `DEFAULT_MAX_TOKENS` is sent; a smaller one given is a `ConfigError`, and so is a
forced `tool_choice` (Anthropic allows only auto and none while thinking). The answer's `thinking`
text is `Completion.reasoning`; its `thinking` and `redacted_thinking` blocks, signatures included,
are kept as one `Artifact` and sent back first in that assistant turn, as the API requires in a
tool loop. Signatures are valid on Anthropic's API, Bedrock and Vertex AI alike
(docs.claude.com/en/docs/build-with-claude/extended-thinking), so the artifact's provider is
"anthropic" on all three.

Usage: Anthropic's `input_tokens` leaves out cached prompt tokens; llmrelay's `input_tokens` adds
`cache_creation_input_tokens` and `cache_read_input_tokens` back, so it is the whole prompt as on
the other providers.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .._effort import take_reasoning
from .._instructions import prepare_messages, response_schema
from .._messages import new_call_id, portable_id
from .._replay import replay_key
from .._text import decode_body
from .._tools import Tool
from .._types import Message, NamedTool, NativeCall, RawResponse, Request, ToolChoice
from ..errors import AuthenticationError, ConfigError, MissingDependencyError, ProviderError, ServerError
from . import ProviderOptions
from ._anthropic_content import content_block, is_blank, mark_cache_breakpoints, think
from ._deadline import bound_sockets
from ._errors import redact, scrubbed, status_error, transport_error
from ._origin import endpoint_host, guard_sdk_client
from ._schemas import for_anthropic
from ._wire import ANTHROPIC_FAMILY, THINKING, THINKING_BLOCKS, anthropic_usage, refusal_explanation, thinking_artifacts

if TYPE_CHECKING:
    from ._contract import Chunk

try:
    import anthropic
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(
        package="anthropic", extra="anthropic", needed_for="for the 'anthropic' provider"
    ) from exc

PROVIDER = "anthropic"
DEFAULT_MAX_TOKENS = 4096
"""Sent when the request gives no `max_tokens` (Anthropic requires one)."""

_ID_PATTERN = re.compile(r"[a-zA-Z0-9_-]+")
"""What the API accepts as a `tool_use` id (it answers 400 to anything else)."""
_ID_MAX_LENGTH = 64
_TYPED = ("model", "max_tokens", "messages", "system", "tools", "tool_choice")
"""Body fields every supported SDK version takes as keyword arguments; the rest go in `extra_body`."""
_RENAMED = {"max_completion_tokens": "max_tokens", "stop": "stop_sequences"}


def build_body(request: Request) -> dict[str, Any]:
    """The JSON body of the Messages API call for `request`, in its mode."""
    native = request.mode == "native_tools"
    system, messages = convert_messages(request.messages if native else prepare_messages(request))
    reasoning, params = take_reasoning(request.params)
    body: dict[str, Any] = {"model": request.model, "messages": messages, **_params(params)}
    body.setdefault("max_tokens", DEFAULT_MAX_TOKENS)
    if reasoning is not None and reasoning.enabled:
        think(body, reasoning, DEFAULT_MAX_TOKENS, given_max_tokens="max_tokens" in _params(params))
    if system:
        body["system"] = system
    if native and request.tools:
        body["tools"] = [_tool(tool) for tool in request.tools]
        if request.tool_choice is not None:
            body["tool_choice"] = _tool_choice(request.tool_choice)
    if "thinking" in body and request.tool_choice not in (None, "auto", "none") and "tool_choice" in body:
        raise ConfigError(
            "anthropic: extended thinking allows only tool_choice 'auto' or 'none' (a forced tool is "
            "refused while thinking); pass tool_choice='auto', or reasoning=None"
        )
    if request.cache:
        mark_cache_breakpoints(body)
    if request.mode == "json_schema":
        schema = for_anthropic(response_schema(request))
        # Keep what the caller put in output_config (e.g. `effort`) beside the format.
        body["output_config"] = {**body.get("output_config", {}), "format": {"type": "json_schema", "schema": schema}}
    return body


def _params(params: Mapping[str, Any]) -> dict[str, Any]:
    converted = {_RENAMED.get(name, name): value for name, value in params.items()}
    if isinstance(converted.get("stop_sequences"), str):
        converted["stop_sequences"] = [converted["stop_sequences"]]
    return converted


def _tool(tool: Tool) -> dict[str, Any]:
    converted: dict[str, Any] = {"name": tool.name, "input_schema": dict(tool.parameters)}
    if tool.description:
        converted["description"] = tool.description
    return converted


def _tool_choice(choice: ToolChoice) -> dict[str, str]:
    if isinstance(choice, NamedTool):
        return {"type": "tool", "name": choice.name}
    return {"type": {"auto": "auto", "required": "any", "none": "none"}[choice]}


def convert_messages(messages: tuple[Message, ...]) -> tuple[str, list[dict[str, Any]]]:
    """The `system` text and the alternating `messages` list for a conversation.

    Turns with nothing to send are left out (the API refuses empty content), then consecutive
    turns of one role are merged: several tool results become one user message, as the API wants.
    """
    system = "\n\n".join(m.content for m in messages if m.role == "system" and m.content)
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system" or not (blocks := _blocks(message)):
            continue
        role = "assistant" if message.role == "assistant" else "user"
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    for turn in turns:
        content = turn["content"]
        if len(content) == 1 and content[0]["type"] == "text":
            # One text block goes as a plain string, which the API reads the same: the SDK's
            # request transform then walks a third fewer nodes (issue 13, call overhead).
            turn["content"] = content[0]["text"]
        else:  # In a user turn the tool results must come before any text.
            content.sort(key=lambda block: block["type"] != "tool_result")
    return system, turns


def _blocks(message: Message) -> list[dict[str, Any]]:
    if message.role == "tool":
        result: dict[str, Any] = {"type": "tool_result", "tool_use_id": _id(message.tool_call_id)}
        if message.parts:
            result["content"] = [content_block(part) for part in message.parts]
        elif message.content:
            result["content"] = message.content
        if message.is_error:
            result["is_error"] = True
        return [result]
    blocks: list[dict[str, Any]] = [
        dict(block)
        for artifact in message.artifacts
        if artifact.provider == ANTHROPIC_FAMILY and artifact.kind == THINKING
        for block in artifact.data
    ]  # First: the API wants the thinking that preceded a tool_use back before it.
    if message.parts:
        blocks += [content_block(part) for part in message.parts if not is_blank(part)]
    elif message.content.strip():  # The API refuses text blocks that are empty or only whitespace.
        blocks.append({"type": "text", "text": message.content})
    for call in message.tool_calls if message.role == "assistant" else ():
        blocks.append({"type": "tool_use", "id": _id(call.id), "name": call.name, "input": call.arguments})
    return blocks


def _id(call_id: str | None) -> str:
    return portable_id(call_id, pattern=_ID_PATTERN, max_length=_ID_MAX_LENGTH, prefix="toolu_")


def to_raw_response(
    body: Mapping[str, Any], *, model: str, request_id: str | None = None, provider: str = PROVIDER
) -> RawResponse:
    """A decoded Messages API answer as a `RawResponse`.

    Text blocks are joined; thinking is the reasoning, and its blocks (with their signatures) the
    artifact sent back next turn; the blocks of tools Anthropic runs itself (`server_tool_use` and
    their results) are left out.
    """
    texts: list[str] = []
    thoughts: list[str] = []
    thinking: list[Mapping[str, Any]] = []
    calls: list[NativeCall] = []
    for block in body.get("content") or ():
        if block.get("type") == "text":
            texts.append(block.get("text") or "")
        elif block.get("type") in THINKING_BLOCKS:
            thinking.append(block)
            thoughts.append(block.get("thinking") or "")
        elif block.get("type") == "tool_use":
            calls.append(NativeCall(block["name"], block.get("input"), block.get("id") or new_call_id()))
    return RawResponse(
        provider=provider,
        model=body.get("model") or model,
        text="".join(texts),
        reasoning="\n\n".join(thought for thought in thoughts if thought),
        native_calls=tuple(calls),
        finish_reason=body.get("stop_reason"),
        refusal=None if "".join(texts).strip() else refusal_explanation(body),  # The model's words first.
        usage=anthropic_usage(body.get("usage")),
        request_id=request_id,
        body=dict(body),
        artifacts=thinking_artifacts(thinking),
    )


def to_error(
    exc: anthropic.APIError, *, model: str, api_key: str | None = None, provider: str = PROVIDER
) -> ProviderError:
    """The llmrelay error for an SDK error; the caller raises it `from exc`.

    The API key, if the message happened to contain it, is masked, here and in `exc` (see `scrubbed`).
    """
    scrubbed(exc, api_key)
    if not isinstance(exc, anthropic.APIStatusError):
        timeout = isinstance(exc, anthropic.APITimeoutError)
        return transport_error(exc, timeout=timeout, provider=provider, model=model, secret=api_key)
    body, headers = exc.body, exc.response.headers
    error = body.get("error") if isinstance(body, Mapping) else None
    error = error if isinstance(error, Mapping) else {}
    in_body = body.get("request_id") if isinstance(body, Mapping) else None
    return status_error(
        str(error.get("message") or exc.message),
        status=exc.status_code,
        provider=provider,
        model=model,
        headers=headers,
        body=body,
        request_id=headers.get("request-id") or in_body,
        code=error.get("type") if isinstance(error.get("type"), str) else None,
        secret=api_key,
    )


class AnthropicAdapter:
    """Claude through the official `anthropic` SDK, with its own retries off."""

    provider: ClassVar[str] = PROVIDER
    client_classes: ClassVar[tuple[type[Any], type[Any]]] = (anthropic.Anthropic, anthropic.AsyncAnthropic)
    """The SDK's (sync, async) clients: Anthropic's API, or Claude on Bedrock or Vertex AI."""

    def __init__(self, options: ProviderOptions) -> None:
        self.options = options
        self._client: Any = None
        self._async_client: Any = None
        self._lock = threading.Lock()  # One SDK client (one connection pool) per kind, whichever threads ask.
        self._secret: str | None = options.api_key
        """The key in use, wherever it came from (`api_key`, or the SDK's ANTHROPIC_API_KEY / _AUTH_TOKEN)."""

    def __repr__(self) -> str:
        return f"AnthropicAdapter({self.options!r})"

    @property
    def host(self) -> str | None:
        """The host requests go to (recorded on each `Attempt`): `base_url`, ANTHROPIC_BASE_URL, or Anthropic's."""
        return endpoint_host(self.options.base_url, "ANTHROPIC_BASE_URL", "https://api.anthropic.com")

    def send(self, request: Request) -> RawResponse:
        """Make the call and return Claude's answer, or raise a `ProviderError`."""
        client = self._sync_sdk()
        typed, extra = _split(build_body(request))
        with self._errors(request.model):
            response = client.messages.with_raw_response.create(**typed, extra_body=extra)
        return _answer(response.http_response, request.model, self._secret, self.provider)

    async def asend(self, request: Request) -> RawResponse:
        """The same, without blocking the event loop."""
        async_client = self._async_sdk()
        typed, extra = _split(build_body(request))
        with self._errors(request.model):
            response = await async_client.messages.with_raw_response.create(**typed, extra_body=extra)
        return _answer(response.http_response, request.model, self._secret, self.provider)

    def stream(self, request: Request) -> Iterator[Chunk]:
        """Make the call as a stream and yield its chunks (see `_anthropic_stream`), or raise a `ProviderError`."""
        from ._anthropic_stream import AnthropicStreamReader
        from ._stream_io import chunks

        client = self._sync_sdk()
        typed, extra = _split(build_body(request))
        with self._errors(request.model):
            with client.messages.with_streaming_response.create(**typed, stream=True, extra_body=extra) as raw:
                http = raw.http_response
                reader = AnthropicStreamReader(request.model, http.headers, self._secret)
                reader.provider = self.provider
                yield from chunks(http.iter_bytes(), reader, secret=self._secret, limit=self.options.max_stream_bytes)

    async def astream(self, request: Request) -> AsyncIterator[Chunk]:
        """The same, without blocking the event loop."""
        from ._anthropic_stream import AnthropicStreamReader
        from ._stream_io import achunks

        async_client = self._async_sdk()
        typed, extra = _split(build_body(request))
        with self._errors(request.model):
            async with async_client.messages.with_streaming_response.create(
                **typed, stream=True, extra_body=extra
            ) as raw:
                http = raw.http_response
                reader = AnthropicStreamReader(request.model, http.headers, self._secret)
                reader.provider = self.provider
                async for chunk in achunks(
                    http.aiter_bytes(), reader, secret=self._secret, limit=self.options.max_stream_bytes
                ):
                    yield chunk

    def _sync_sdk(self) -> Any:
        with self._lock:
            if self._client is None:
                self._client = self._keep_secret(self._checked(self.client_classes[0](**self._client_options())))
                bound_sockets(getattr(self._client, "_client", None))
                guard_sdk_client(self._client, self.options.headers, is_async=False)
            return self._client

    def _async_sdk(self) -> Any:
        with self._lock:
            if self._async_client is None:
                self._async_client = self._keep_secret(self._checked(self.client_classes[1](**self._client_options())))
                guard_sdk_client(self._async_client, self.options.headers, is_async=True)
            return self._async_client

    def _keep_secret(self, client: _Client) -> _Client:
        # Bedrock's and Vertex AI's clients sign or fetch tokens per request: they may have neither.
        self._secret = getattr(client, "api_key", None) or getattr(client, "auth_token", None) or self._secret
        return client

    def close(self) -> None:
        """Close the sync SDK client's connections (an async one's need `aclose`)."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    async def aclose(self) -> None:
        """Close every SDK client's connections."""
        self.close()
        with self._lock:
            client, self._async_client = self._async_client, None
        if client is not None:
            await client.close()

    def _client_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"max_retries": 0}  # Retries live in llmrelay's RetryPolicy.
        api_key = self.options.api_key or replay_key("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")
        if api_key is not None:
            options["api_key"] = api_key  # Else the SDK reads ANTHROPIC_API_KEY.
        if self.options.base_url is not None:
            options["base_url"] = self.options.base_url
        if self.options.timeout is not None:
            options["timeout"] = self.options.timeout
        if self.options.headers:
            options["default_headers"] = dict(self.options.headers)
        return options

    def _checked(self, client: Any) -> Any:
        """The new SDK client, if it found credentials (hook: Bedrock and Vertex find theirs when signing)."""
        return _checked(client)

    @contextmanager
    def _errors(self, model: str) -> Iterator[None]:
        try:
            yield
        except anthropic.APIError as exc:
            raise to_error(exc, model=model, api_key=self._secret, provider=self.provider) from exc
        except ValueError as exc:
            # The SDK refuses, before sending, a non-streaming call that may run past 10 minutes.
            if "Streaming is" not in str(exc):
                raise
            raise ConfigError(
                f"anthropic:{model}: max_tokens is too large for a non-streaming call; "
                "lower it, or set a timeout on the client to allow the long wait"
            ) from exc


_Client = TypeVar("_Client", anthropic.Anthropic, anthropic.AsyncAnthropic)


def _checked(client: _Client) -> _Client:
    """The client, if it found credentials; else our AuthenticationError naming the variable."""
    if client.api_key is None and client.auth_token is None and getattr(client, "credentials", None) is None:
        raise AuthenticationError(
            "no API key: pass api_key= or set the ANTHROPIC_API_KEY environment variable", provider=PROVIDER
        )
    return client


def _split(body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    typed = {name: body[name] for name in _TYPED if name in body}
    extra = {name: value for name, value in body.items() if name not in typed}
    return typed, extra or None


def _answer(http_response: Any, model: str, secret: str | None, provider: str = PROVIDER) -> RawResponse:
    """Read the answer's JSON ourselves rather than the SDK's parsed `Message`.

    An SDK older than a block type (thinking, server tools, ...) parses it into the wrong class, and
    reading the dict also skips a pydantic round trip. `http_response` is an httpx or httpx2
    `Response`, already read; both have `.json()` and `.headers`.
    """
    headers = http_response.headers
    try:
        body = json.loads(decode_body(http_response.content, "anthropic's answer"))  # Invalid UTF-8: see `_text`.
    except ValueError:  # Not JSON: a proxy's error page answered with 200, say.
        body = None
    if not isinstance(body, Mapping):
        raise ServerError(
            "the answer is not a JSON object",
            provider=provider,
            model=model,
            status=http_response.status_code,
            request_id=headers.get("request-id"),
            body=redact(http_response.text, secret),
            headers=dict(headers),
        )
    return to_raw_response(body, model=model, request_id=headers.get("request-id"), provider=provider)
