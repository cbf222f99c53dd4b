"""Gemini: the Gemini Developer API (`v1beta/models/{model}:generateContent`) through google-genai.

What each mode sends (the JSON as the SDK writes it; the API reads snake or camel case):

```
native_tools  {"contents": [...], "systemInstruction": {"parts": [{"text": "..."}]},
               "tools": [{"functionDeclarations": [{"name", "description", "parameters_json_schema"}]}],
               "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["f"]}}}
json_schema   "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": {...}}
json_object   "generationConfig": {"responseMimeType": "application/json"}
text          neither; the instructions are in systemInstruction (Gemma: in the first user turn)
```

Tools keep their full JSON schema (`parametersJsonSchema`), not the OpenAPI subset of `parameters`;
it and `responseJsonSchema` go through `_schemas.for_gemini` (the keywords Gemini reads).
`max_tokens` is sent as `maxOutputTokens`, `stop` as `stopSequences`; every other param must be a
`GenerateContentConfig` field (temperature, top_p, seed, thinking_config, safety_settings...).

A conversation becomes `contents`: user turns are role "user"; an assistant turn is role "model"
with a text part and one `functionCall` part per call (`{"id", "name", "args"}`); the results that
follow are one role "user" turn of `functionResponse` parts (`{"id", "name", "response": {...}}`).
`response` must be an object: a result that is a JSON object is sent as it is, anything else as
`{"output": text}`, the key the API's FunctionResponse documentation names. Gemini 2.x answers
without call ids, so ids are made up (`new_call_id`) and sent back with the calls and results; the
API accepts ids it did not make (recorded: pydantic-ai's `pyd_ai_...` ids on gemini-2.0-flash,
llm-gemini's `call_...` ids on gemini-2.5-flash, both answered 200).

Thought signatures: Gemini 3 puts an opaque `thoughtSignature` on the first `functionCall` part of
a step and answers 400 when the call comes back without it. It travels on `ToolCall.signature`, so
a `Completion` sent back carries it; for calls that come back without it (rebuilt as dicts) the
adapter also remembers each signature by call id. A call with no signature at all (from another
provider, another process) gets the sentinel
`skip_thought_signature_validator` the thought-signatures guide documents for foreign history, on
Gemini 3 and later models only (ai.google.dev/gemini-api/docs/thought-signatures; the recorded
round trip is llm-gemini's `llm-gemini-gzip-stream-thought-signatures.yaml`).

The SDK's own retries are off: `HttpRetryOptions(attempts=1)` (google-genai retries 408, 429 and
5xx up to five times when `retry_options` comes without `attempts`, and async aiohttp connection
errors once when no `retry_options` is given). `HttpOptions.timeout` is in milliseconds. The API
version is pinned to v1beta, google-genai 1.x's default (3.4 defaults to v1). The answer is read
from its JSON as sent (`should_return_http_response`, google-genai 1.33+); errors are mapped in
`_gemini_errors`.
"""

from __future__ import annotations

import base64
import json
import os
import re
import threading
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .._content import MediaPart, Part, TextPart
from .._effort import Reasoning, take_reasoning
from .._instructions import prepare_messages
from .._messages import new_call_id, portable_id
from .._replay import replay_key
from .._types import Message, NamedTool, NativeCall, RawResponse, Request, ToolChoice
from ..errors import AuthenticationError, ConfigError, MissingDependencyError, ProviderError, ServerError
from . import ProviderOptions
from ._schemas import for_gemini

if TYPE_CHECKING:
    from ._contract import Chunk

try:
    import pydantic
    from google import genai
    from google.genai import types
except ImportError as exc:
    raise MissingDependencyError(
        package="google-genai", extra="gemini", needed_for="for the 'gemini' provider"
    ) from exc

from ._deadline import bound_sockets
from ._errors import redact
from ._gemini_errors import PROVIDER as _PROVIDER
from ._gemini_errors import lower, to_error
from ._signatures import SignatureMemory
from ._wire import gemini_usage

_ENV_KEYS = ("GOOGLE_API_KEY", "GEMINI_API_KEY")  # The SDK's order: GOOGLE_API_KEY wins.
_ID = re.compile(r"[A-Za-z0-9_.:\-]+")
"""Ids sent back as they came when they look like this; Gemini documents no rule, we keep ids tame."""
_FOREIGN_SIGNATURE = base64.urlsafe_b64decode("skip_thought_signature_validator")
"""Bytes the SDK writes as the documented sentinel string (it base64-encodes `thought_signature`)."""
_RENAMED = {"max_tokens": "max_output_tokens", "max_completion_tokens": "max_output_tokens", "stop": "stop_sequences"}
_CHOICE_MODES = {
    "auto": types.FunctionCallingConfigMode.AUTO,
    "none": types.FunctionCallingConfigMode.NONE,
    "required": types.FunctionCallingConfigMode.ANY,  # ANY: at least one call, of any tool.
}
_Turn = tuple[str, list[types.Part]]
"""A turn of `contents` while it is built: its role and its parts."""


class GeminiAdapter:
    """Calls Gemini through `google.genai.Client` (the Developer API, never Vertex AI)."""

    provider: ClassVar[str] = _PROVIDER

    def __init__(self, options: ProviderOptions) -> None:
        self.options = options
        self._client: genai.Client | None = None
        self._signatures = SignatureMemory()  # call id -> Gemini's thoughtSignature (base64)
        self._stream_clients: dict[bool, Any] = {}  # The HTTP clients streams are sent with (sync, async).
        self._lock = threading.RLock()  # One of each client (one connection pool), whichever threads ask.

    def __repr__(self) -> str:
        return f"GeminiAdapter({self.options!r})"

    def _endpoint(self) -> str:
        """The origin requests go to, the only one the credentials are sent to (Vertex AI: its own)."""
        return _endpoint(self.options.base_url)

    @property
    def host(self) -> str | None:
        """The host requests go to (recorded on each `Attempt`), streams included."""
        from ._origin import endpoint_host

        return endpoint_host(self._endpoint(), None, "")

    def send(self, request: Request) -> RawResponse:
        """Make the call and return Gemini's answer, or raise a `ProviderError`."""
        contents, config = self._request(request)
        try:
            response = self._sdk().models.generate_content(model=request.model, contents=contents, config=config)
        except Exception as exc:
            if (error := to_error(exc, model=request.model, secret=self._secret(), provider=self.provider)) is None:
                raise
            raise error from exc
        return self._raw(response, request.model)

    async def asend(self, request: Request) -> RawResponse:
        """The same, without blocking the event loop."""
        contents, config = self._request(request)
        try:
            response = await self._sdk().aio.models.generate_content(
                model=request.model, contents=contents, config=config
            )
        except Exception as exc:
            if (error := to_error(exc, model=request.model, secret=self._secret(), provider=self.provider)) is None:
                raise
            raise error from exc
        return self._raw(response, request.model)

    def stream(self, request: Request) -> Iterator[Chunk]:
        """Make the call as a stream and yield its chunks (see `_gemini_stream`), or raise a `ProviderError`."""
        from ._gemini_stream import GeminiStreamReader, status_failure
        from ._stream_io import chunks

        url, body, headers, secret = self._stream_request(request)
        try:
            with self._stream_client(is_async=False).stream("POST", url, json=body, headers=headers) as http:
                if http.status_code >= 400:
                    content = http.read()
                    raise status_failure(
                        http.status_code, content, http, model=request.model, secret=secret, provider=self.provider
                    )
                reader = GeminiStreamReader(request.model, http.headers, self._signatures, secret)
                reader.provider = self.provider
                yield from chunks(http.iter_bytes(), reader, secret=secret, limit=self.options.max_stream_bytes)
        except ProviderError:
            raise
        except Exception as exc:  # Connecting failed: the HTTP library's own exception.
            if (error := to_error(exc, model=request.model, secret=secret, provider=self.provider)) is None:
                raise
            raise error from exc

    async def astream(self, request: Request) -> AsyncIterator[Chunk]:
        """The same, without blocking the event loop."""
        from ._gemini_stream import GeminiStreamReader, status_failure
        from ._stream_io import achunks

        url, body, headers, secret = self._stream_request(request)
        try:
            async with self._stream_client(is_async=True).stream("POST", url, json=body, headers=headers) as http:
                if http.status_code >= 400:
                    content = await http.aread()
                    raise status_failure(
                        http.status_code, content, http, model=request.model, secret=secret, provider=self.provider
                    )
                reader = GeminiStreamReader(request.model, http.headers, self._signatures, secret)
                reader.provider = self.provider
                async for chunk in achunks(
                    http.aiter_bytes(), reader, secret=secret, limit=self.options.max_stream_bytes
                ):
                    yield chunk
        except ProviderError:
            raise
        except Exception as exc:
            if (error := to_error(exc, model=request.model, secret=secret, provider=self.provider)) is None:
                raise
            raise error from exc

    def _secret(self) -> str | None:
        """The key to keep out of errors."""
        return self.options.api_key or _env_key()

    def _stream_request(self, request: Request) -> tuple[str, dict[str, Any], dict[str, str], str]:
        from ._gemini_stream import request_body, stream_url

        secret = self.options.api_key or _env_key() or replay_key(*_ENV_KEYS)
        if not secret:
            raise AuthenticationError(
                "no API key: pass api_key=... or set GEMINI_API_KEY (or GOOGLE_API_KEY)", provider=_PROVIDER
            )
        contents, config = self._request(request)
        headers = {"x-goog-api-key": secret, **self.options.headers}
        return (
            stream_url(self._endpoint(), request.model),
            request_body(contents, config),
            headers,
            secret,
        )

    def _stream_client(self, *, is_async: bool) -> Any:
        with self._lock:
            if is_async not in self._stream_clients:
                from ._gemini_stream import http_module
                from ._origin import client_arguments

                library = http_module()
                # No timeout unless one is set, as google-genai (a long answer streams for minutes).
                client = (library.AsyncClient if is_async else library.Client)(
                    timeout=self.options.timeout,
                    **client_arguments(self._endpoint(), self.options.headers, is_async=is_async),
                )
                if not is_async:  # The client's deadline bounds the whole stream (async: asyncio's timeouts).
                    bound_sockets(client)
                self._stream_clients[is_async] = client
            return self._stream_clients[is_async]

    def close(self) -> None:
        """Close the sync connections (the SDK's and the streams'); async ones need `aclose`."""
        with self._lock:
            sdk, stream = self._client, self._stream_clients.pop(False, None)
            self._client = None
        if stream is not None:
            stream.close()
        if sdk is not None:
            sdk.close()

    async def aclose(self) -> None:
        """Close every connection: the SDK's (sync and async) and the streams'."""
        with self._lock:
            sdk, self._client = self._client, None
            stream = self._stream_clients.pop(True, None)
        if stream is not None:
            await stream.aclose()
        if sdk is not None:
            await sdk.aio.aclose()
            sdk.close()
        self.close()  # The sync stream client, if one was opened too.

    # --- the client ---------------------------------------------------------------------------

    def _sdk(self) -> genai.Client:
        with self._lock:
            return self._sdk_locked()

    def _sdk_locked(self) -> genai.Client:
        if self._client is None:
            api_key = self.options.api_key or replay_key(*_ENV_KEYS)
            if not (api_key or _env_key()):
                raise AuthenticationError(
                    "no API key: pass api_key=... or set GEMINI_API_KEY (or GOOGLE_API_KEY)", provider=_PROVIDER
                )
            # vertexai=False: GOOGLE_GENAI_USE_VERTEXAI in the environment must not switch APIs.
            self._client = genai.Client(api_key=api_key, vertexai=False, http_options=self._http())
            bound_sockets(getattr(self._client._api_client, "_httpx_client", None))
        return self._client

    def _http(self) -> types.HttpOptions:
        from ._origin import client_arguments

        timeout = self.options.timeout
        endpoint = self._endpoint()
        return types.HttpOptions(
            api_version="v1beta",
            base_url=self.options.base_url,
            headers=dict(self.options.headers) or None,
            timeout=None if timeout is None else max(1, round(timeout * 1000)),
            retry_options=types.HttpRetryOptions(attempts=1),
            # The SDK follows redirects: the key must not follow one to another host.
            client_args=client_arguments(endpoint, self.options.headers, is_async=False),
            async_client_args=_async_arguments(endpoint, self.options.headers),
        )

    # --- the request --------------------------------------------------------------------------

    def _request(self, request: Request) -> tuple[list[types.Content], types.GenerateContentConfig]:
        native = request.mode == "native_tools"
        messages = request.messages if native else prepare_messages(request)
        system, turns = self._turns(messages, sentinel=_validates_signatures(request.model))
        if system and request.model.removeprefix("models/").startswith("gemma-"):
            # Gemma on the Gemini API: "Developer instruction is not enabled for models/gemma-3-27b-it".
            # Its chat template puts the system prompt at the start of the first user turn; so do we.
            turns, system = _fold_system(system, turns), []
        fields = {
            **_generation_fields(request.params),
            # Declarations only: the SDK must never run a tool itself.
            "automatic_function_calling": types.AutomaticFunctionCallingConfig(disable=True),
            "should_return_http_response": True,  # The answer's JSON as sent, read in `_raw` (1.33+).
            **_output_fields(request),
        }
        if system:
            fields["system_instruction"] = types.Content(parts=[types.Part(text=text) for text in system])
        try:
            config = types.GenerateContentConfig(**fields)
        except pydantic.ValidationError as exc:
            # Also what google-genai before 1.33 says about should_return_http_response: name the version.
            message = f"gemini: invalid request parameters for google-genai {genai.__version__}: {exc}"
            raise ConfigError(message) from exc
        return [types.Content(role=role, parts=parts) for role, parts in turns], config

    def _turns(self, messages: Sequence[Message], *, sentinel: bool) -> tuple[list[str], list[_Turn]]:
        """The system texts, and (role, parts) for each turn of `contents`."""
        system: list[str] = []
        turns: list[_Turn] = []
        names: dict[str, str] = {}  # call id -> tool name, for results that do not say it
        previous: str | None = None
        for message in messages:
            if message.role == "system":
                system.append(message.content)
                continue
            if message.role == "tool":
                if previous != "tool":  # Consecutive results answer one step: one turn.
                    turns.append(("user", []))
                turns[-1][1].append(_result_part(message, names))
            else:
                if message.parts:
                    parts = [content_part(part) for part in message.parts]
                else:
                    parts = [types.Part(text=message.content)] if message.content else []
                if message.role == "assistant":
                    parts += self._call_parts(message, names, sentinel=sentinel)
                if parts:  # Gemini refuses a turn with no parts; an empty turn says nothing anyway.
                    turns.append(("model" if message.role == "assistant" else "user", parts))
            previous = message.role
        return system, turns

    def _call_parts(self, message: Message, names: dict[str, str], *, sentinel: bool) -> list[types.Part]:
        parts = []
        for call in message.tool_calls:
            if call.id:
                names[call.id] = call.name
            function_call = types.FunctionCall(id=_gemini_id(call.id), name=call.name, args=dict(call.arguments))
            signature = call.signature or self._signatures.recall(call.id)
            thought_signature = _signature_bytes(signature) if signature else None
            parts.append(types.Part(function_call=function_call, thought_signature=thought_signature))
        if sentinel and parts and not any(part.thought_signature for part in parts):
            parts[0].thought_signature = _FOREIGN_SIGNATURE  # Only a step's first call carries one.
        return parts

    # --- the response -------------------------------------------------------------------------

    def _raw(self, response: types.GenerateContentResponse, model: str) -> RawResponse:
        """Read the answer's JSON as Gemini sent it (the SDK's model of it drops fields it does not know)."""
        http = response.sdk_http_response
        headers = lower(http.headers if http is not None else None)
        text = http.body if http is not None else None
        try:
            body = json.loads(text) if text is not None else {}
        except ValueError:
            body = None  # Not JSON: a proxy's page, an empty or a cut-off body. Raised below, text kept.
        if not isinstance(body, Mapping):
            raise ServerError(
                "the answer is not JSON" if body is None else "the answer is JSON but not an object",
                provider=self.provider,
                model=model,
                status=200,  # The SDK raised for any other status.
                request_id=headers.get("x-request-id"),
                body=redact(str(text), self._secret()),
                headers=headers,
            )
        candidate = _first(body.get("candidates"))
        texts: list[str] = []
        thoughts: list[str] = []
        calls: list[NativeCall] = []
        for part in _items(_mapping(candidate.get("content")).get("parts")):
            if isinstance(function_call := part.get("functionCall"), Mapping):
                calls.append(self._native_call(function_call, part.get("thoughtSignature")))
            elif isinstance(text := part.get("text"), str):
                (thoughts if part.get("thought") else texts).append(text)
        blocked = _mapping(body.get("promptFeedback")).get("blockReason")  # No candidate: the prompt was.
        return RawResponse(
            provider=self.provider,
            model=str(body.get("modelVersion") or model),
            text="".join(texts),
            reasoning="".join(thoughts),
            native_calls=tuple(calls),
            finish_reason=_text_or_none(candidate.get("finishReason") or blocked),
            usage=gemini_usage(_mapping(body.get("usageMetadata"))),
            request_id=headers.get("x-request-id") or _text_or_none(body.get("responseId")),  # No header sent.
            body=body,
        )

    def _native_call(self, call: Mapping[str, Any], signature: Any) -> NativeCall:
        call_id = str(call.get("id") or new_call_id())  # Gemini 2.x sends none.
        kept = signature if isinstance(signature, str) and signature else None
        self._signatures.keep(call_id, kept)
        arguments = call.get("args")
        return NativeCall(
            str(call.get("name") or ""), arguments if isinstance(arguments, Mapping) else {}, call_id, kept
        )


def _endpoint(base_url: str | None) -> str:
    """Where requests go: `base_url`, else GOOGLE_GEMINI_BASE_URL (read by google-genai too), else Google's."""
    from ._gemini_stream import BASE_URL

    return base_url or os.environ.get("GOOGLE_GEMINI_BASE_URL") or BASE_URL


def _async_arguments(endpoint: str, headers: Mapping[str, str]) -> dict[str, Any]:
    """The async client's arguments: the same hook on httpx; no redirects at all on aiohttp (no hooks there)."""
    import importlib.util

    from ._origin import client_arguments

    if importlib.util.find_spec("aiohttp") is not None:  # google-genai then sends async calls with aiohttp.
        return {"allow_redirects": False}
    return client_arguments(endpoint, headers, is_async=True)


def _env_key() -> str | None:
    return next((value for name in _ENV_KEYS if (value := os.environ.get(name))), None)


def _validates_signatures(model: str) -> bool:
    """Gemini 3 and later (and the `-latest` aliases, which now name them) refuse unsigned calls."""
    name = model.removeprefix("models/")
    return name.startswith("gemini-") and not name.startswith(("gemini-1", "gemini-2"))


def _gemini_id(call_id: str | None) -> str | None:
    return None if call_id is None else portable_id(call_id, pattern=_ID, max_length=128)


def _result_part(message: Message, names: Mapping[str, str]) -> types.Part:
    name = message.name or names.get(message.tool_call_id or "")
    if not name:
        raise ConfigError(
            f"the tool result for call {message.tool_call_id!r} names no tool, and no earlier call has that "
            "id: Gemini needs the tool's name (set `name` on the tool message)"
        )
    response = types.FunctionResponse(
        id=_gemini_id(message.tool_call_id),
        name=name,
        response=_response_object(message.content, failed=message.is_error),
        parts=[_response_media(part) for part in message.media] or None,
    )
    return types.Part(function_response=response)


def content_part(part: Part) -> types.Part:
    """A text, image or document part: inline data (`inline_data`) or a URI (`file_data`)."""
    if isinstance(part, TextPart):
        return types.Part(text=part.text)
    if part.url is not None:
        return types.Part(file_data=types.FileData(file_uri=part.url, mime_type=part.media_type))
    return types.Part(inline_data=types.Blob(mime_type=part.media_type, data=base64.b64decode(part.data or "")))


def _response_media(part: MediaPart) -> types.FunctionResponsePart:
    """An image a tool returned, inside its function response (Gemini 3's multimodal function responses)."""
    if part.url is not None:
        return types.FunctionResponsePart(
            file_data=types.FunctionResponseFileData(file_uri=part.url, mime_type=part.media_type)
        )
    blob = types.FunctionResponseBlob(mime_type=part.media_type, data=base64.b64decode(part.data or ""))
    return types.FunctionResponsePart(inline_data=blob)


def _response_object(content: str, *, failed: bool = False) -> dict[str, Any]:
    if failed:  # Gemini's documented key for a failed call: the model reads it as an error.
        return {"error": content}
    try:
        value = json.loads(content)
    except ValueError:
        value = None
    return value if isinstance(value, dict) else {"output": content}


def _fold_system(system: list[str], turns: list[_Turn]) -> list[_Turn]:
    if turns and turns[0][0] == "user":
        return [("user", [types.Part(text="\n\n".join(system)), *turns[0][1]]), *turns[1:]]
    return [("user", [types.Part(text="\n\n".join(system))]), *turns]


def _output_fields(request: Request) -> dict[str, Any]:
    """Tools and tool_config for native_tools; the JSON output settings for json_schema and json_object."""
    if request.mode == "native_tools" and request.tools:
        declarations = [
            types.FunctionDeclaration(
                name=tool.name, description=tool.description or None, parameters_json_schema=for_gemini(tool.parameters)
            )
            for tool in request.tools
        ]
        fields: dict[str, Any] = {"tools": [types.Tool(function_declarations=declarations)]}
        if request.tool_choice is not None:
            fields["tool_config"] = _tool_config(request.tool_choice)
        return fields
    if request.mode not in ("json_schema", "json_object"):
        return {}
    fields = {"response_mime_type": "application/json"}
    if request.mode == "json_schema" and request.response_schema is not None:
        fields["response_json_schema"] = for_gemini(request.response_schema)
    return fields


def _tool_config(choice: ToolChoice) -> types.ToolConfig:
    if isinstance(choice, NamedTool):
        config = types.FunctionCallingConfig(
            mode=types.FunctionCallingConfigMode.ANY, allowed_function_names=[choice.name]
        )
    else:
        config = types.FunctionCallingConfig(mode=_CHOICE_MODES[choice])
    return types.ToolConfig(function_calling_config=config)


def _generation_fields(params: Mapping[str, Any]) -> dict[str, Any]:
    reasoning, rest = take_reasoning(params)
    fields: dict[str, Any] = {} if reasoning is None else {"thinking_config": _thinking_config(reasoning)}
    for key, value in rest.items():
        name = _RENAMED.get(key, key)
        fields[name] = [value] if name == "stop_sequences" and isinstance(value, str) else value
    return fields


def _thinking_config(reasoning: Reasoning) -> types.ThinkingConfig:
    """`reasoning=` as Gemini's thinking budget (0: off), with the thoughts asked back as reasoning.

    A budget, not Gemini 3's `thinking_level`: the budget is accepted by 2.5 and 3 alike
    (ai.google.dev/gemini-api/docs/thinking), so one mapping serves both.
    """
    if not reasoning.enabled:
        return types.ThinkingConfig(thinking_budget=0)
    return types.ThinkingConfig(thinking_budget=reasoning.budget, include_thoughts=True)


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def _first(value: Any) -> Mapping[str, Any]:
    return _mapping(value[0]) if isinstance(value, list) and value else {}


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _items(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []


def _signature_bytes(signature: str) -> bytes:
    """The bytes of a base64 signature, either alphabet (Gemini sends "+/"; the SDK writes "-_")."""
    text = signature.replace("+", "-").replace("/", "_")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
