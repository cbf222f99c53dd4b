"""Claude on Amazon Bedrock, through the anthropic SDK's `AnthropicBedrock` (extra `bedrock`).

```python
llmrelay.Client("bedrock:anthropic.claude-sonnet-4-5-20250929-v1:0", provider_options={"aws_region": "us-east-1"})
```

The request and the answer are `anthropic:`'s (this adapter is an `AnthropicAdapter`); the SDK
sends them to `bedrock-runtime.<region>.amazonaws.com/model/<model>/invoke` with SigV4 signatures
(botocore); the SDK moves the model into the URL and adds `anthropic_version` to the body.

- Region (required): `provider_options["aws_region"]`, else `AWS_REGION` / `AWS_DEFAULT_REGION`.
- Credentials: `provider_options` `aws_access_key` / `aws_secret_key` (/ `aws_session_token`), or
  `aws_profile`, else the usual AWS chain (environment, `~/.aws`, SSO, instance roles), resolved
  by botocore when the first request is signed; none at all is an `AuthenticationError`. A Bedrock
  API key (`api_key=`, else `AWS_BEARER_TOKEN_BEDROCK`) is sent as a bearer token instead.
- Model ids are Bedrock's (`anthropic.claude-...-v1:0`, or an inference profile `us.anthropic...`);
  the capability rows are Anthropic's, matched on the name inside the id.
- Streams come in AWS's binary event-stream framing, not server-sent events: the SDK decodes it
  and its events are read by the same reader as Anthropic's own stream.
- Errors: Bedrock answers `{"message": "..."}` with the kind in the `x-amzn-errortype` header; the
  status picks the class as for every provider (the kind and `x-amzn-requestid` stay in `headers`).
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import AuthenticationError, ConfigError, MissingDependencyError, ProviderConnectionError
from .anthropic import AnthropicAdapter, _split, build_body

if TYPE_CHECKING:
    from .._types import Request
    from ._anthropic_stream import AnthropicStreamReader
    from ._contract import Chunk

try:
    import anthropic
    import botocore.exceptions  # type: ignore[import-untyped]  # botocore ships no type hints.
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError(package="anthropic[bedrock]", extra="bedrock") from exc

_CREDENTIALS = ("aws_access_key", "aws_secret_key", "aws_session_token", "aws_profile")


class BedrockAdapter(AnthropicAdapter):
    """Claude on Amazon Bedrock: `bedrock:anthropic.claude-...`, `bedrock:us.anthropic.claude-...`."""

    provider: ClassVar[str] = "bedrock"
    client_classes: ClassVar[tuple[type[Any], type[Any]]] = (
        anthropic.AnthropicBedrock,
        anthropic.AsyncAnthropicBedrock,
    )

    def _client_options(self) -> dict[str, Any]:
        extra = self.options.extra
        region = extra.get("aws_region") or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
        if not region:
            raise ConfigError(
                'the bedrock provider needs a region: provider_options={"aws_region": "us-east-1"} or AWS_REGION'
            )
        options = {**super()._client_options(), "aws_region": region}
        options.update({name: extra[name] for name in _CREDENTIALS if extra.get(name)})
        return options

    def _checked(self, client: Any) -> Any:
        return client  # botocore resolves the credential chain when the first request is signed.

    @contextmanager
    def _errors(self, model: str) -> Iterator[None]:
        try:
            with super()._errors(model):
                yield
        except (botocore.exceptions.NoCredentialsError, RuntimeError) as exc:
            # A RuntimeError: "Could not resolve AWS credentials from session" (anthropic 2),
            # "could not resolve credentials from session" (anthropic 0.x).
            if isinstance(exc, RuntimeError) and "credentials" not in str(exc).lower():
                raise
            raise AuthenticationError(
                "no AWS credentials: pass provider_options aws_access_key / aws_secret_key or aws_profile, "
                "or configure the AWS credential chain",
                provider=self.provider,
                model=model,
            ) from exc

    def stream(self, request: Request) -> Iterator[Chunk]:
        """Stream through the SDK, which decodes Bedrock's event-stream framing; yield the chunks."""
        client = self._sync_sdk()
        typed, extra = _split(build_body(request))
        with self._errors(request.model):
            events = client.messages.create(**typed, stream=True, extra_body=extra)
            reader = self._reader(request.model, events.response.headers)
            _cap(events.response, reader, self.options.max_stream_bytes)
            try:
                for event in events:
                    yield from reader.read(_server_event(event))
            finally:
                events.close()  # However reading ended: past the cap, or the caller stopped.
            _check_complete(reader)

    async def astream(self, request: Request) -> AsyncIterator[Chunk]:
        """The same, without blocking the event loop."""
        client = self._async_sdk()
        typed, extra = _split(build_body(request))
        with self._errors(request.model):
            events = await client.messages.create(**typed, stream=True, extra_body=extra)
            reader = self._reader(request.model, events.response.headers)
            _cap(events.response, reader, self.options.max_stream_bytes)
            try:
                async for event in events:
                    for chunk in reader.read(_server_event(event)):
                        yield chunk
            finally:
                await events.close()
            _check_complete(reader)

    def _reader(self, model: str, headers: Mapping[str, str]) -> AnthropicStreamReader:
        from ._anthropic_stream import AnthropicStreamReader

        reader = AnthropicStreamReader(model, headers, self.options.api_key)
        reader.provider = self.provider
        return reader


def _cap(response: Any, reader: AnthropicStreamReader, limit: int) -> None:
    """Make the SDK's reads of `response` stop past `limit` bytes (`max_stream_bytes`), as every stream does.

    The SDK decodes the event-stream framing from `response.iter_bytes()` (or `aiter_bytes()`),
    called once it is iterated: these become the same byte iterators, counted.
    """
    from ._stream_io import acapped, capped

    iter_bytes, aiter_bytes = response.iter_bytes, response.aiter_bytes
    response.iter_bytes = lambda *args, **kwargs: capped(iter_bytes(*args, **kwargs), reader, limit)
    response.aiter_bytes = lambda *args, **kwargs: acapped(aiter_bytes(*args, **kwargs), reader, limit)


def _server_event(event: Any) -> Any:
    """An SDK stream event as the server-sent event Anthropic's own API would have sent."""
    from ._sse import ServerEvent

    return ServerEvent(event.type, json.dumps(event.to_dict()))


def _check_complete(reader: AnthropicStreamReader) -> None:
    from ._sse import EventDecoder

    if not reader.complete(EventDecoder()):
        raise ProviderConnectionError(
            "the stream ended before the answer was complete (no message_stop)", provider=reader.provider
        )
