"""Claude on Amazon Bedrock (`bedrock:`) and on Vertex AI (`anthropic-vertex:`): anthropic:'s mapping, other doors.

No test reaches the network: Bedrock's SigV4 signature is made from explicit keys (no credential
lookup, the EC2 metadata service turned off), Vertex AI's token is injected and unexpired, and
`mock_http` refuses any host not mocked here.
"""

from __future__ import annotations

import base64
import binascii
import json
import struct
from typing import Any

import httpx
import pytest

pytest.importorskip("botocore", reason="the bedrock extra (anthropic[bedrock]) is not installed")
from google.oauth2.credentials import Credentials

import llmrelay
from llmrelay import errors
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

from .anthropic_bodies import TOOL_USE
from .test_providers_stream import Body

BEDROCK_MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0"
BEDROCK_URL = f"https://bedrock-runtime.us-east-1.amazonaws.com/model/{BEDROCK_MODEL}"
AWS_KEYS = {
    "aws_region": "us-east-1",
    "aws_access_key": "AKIDEXAMPLE",
    "aws_secret_key": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
}
VERTEX_URL = (
    "https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/locations/us-east5/"
    "publishers/anthropic/models/claude-sonnet-4-5@20250929"
)
TOKEN = "ya29.test-access-token"


def get_weather(location: str) -> str:
    """The weather at a location."""
    return "sunny"


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                 "AWS_PROFILE", "AWS_BEARER_TOKEN_BEDROCK", "ANTHROPIC_API_KEY", "CLOUD_ML_REGION",
                 "ANTHROPIC_VERTEX_PROJECT_ID", "GOOGLE_CLOUD_PROJECT", "GOOGLE_APPLICATION_CREDENTIALS"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")  # botocore must never look for an instance role.
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")


def bedrock(**options: Any) -> llmrelay.Client:
    return llmrelay.Client(
        f"bedrock:{BEDROCK_MODEL}", provider_options=AWS_KEYS, learner=CapabilityLearner(), max_repairs=0, **options
    )


def anthropic_vertex(**options: Any) -> llmrelay.Client:
    where = {"region": "us-east5", "project": "my-project", "credentials": Credentials(token=TOKEN)}
    return llmrelay.Client(
        "anthropic-vertex:claude-sonnet-4-5@20250929",
        provider_options={**where, **options},
        learner=CapabilityLearner(),
        max_repairs=0,
    )


def check_tool_call(result: llmrelay.Completion, provider: str) -> None:
    assert (result.provider, result.mode, result.finish_reason) == (provider, "native_tools", "tool_calls")
    assert [(c.name, c.arguments) for c in result.tool_calls] == [("get_weather", {"location": "Tokyo, Japan"})]


# --- Bedrock -------------------------------------------------------------------------------------------


def test_bedrock_signs_the_request_and_reads_the_answer() -> None:
    with mock_http() as router:
        route = router.post(f"{BEDROCK_URL}/invoke").respond(200, json=TOOL_USE)
        result = bedrock().complete("Weather in Tokyo?", tools=[get_weather])
        request = route.calls[0].request
    check_tool_call(result, "bedrock")
    assert request.headers["authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
    body = json.loads(request.content)
    assert "anthropic_version" in body and "model" not in body  # The SDK's Bedrock shape: the model is in the URL.
    assert body["tools"][0]["name"] == "get_weather"


def event_stream_message(payload: dict[str, Any]) -> bytes:
    """One AWS event-stream message carrying `{"bytes": base64(json)}`, as Bedrock streams a Messages event."""
    headers = b""
    for name, value in ((":event-type", "chunk"), (":content-type", "application/json"), (":message-type", "event")):
        headers += bytes([len(name)]) + name.encode() + b"\x07" + struct.pack(">H", len(value)) + value.encode()
    body = json.dumps({"bytes": base64.b64encode(json.dumps(payload).encode()).decode()}).encode()
    total = 12 + len(headers) + len(body) + 4
    prelude = struct.pack(">II", total, len(headers))
    prelude += struct.pack(">I", binascii.crc32(prelude))
    message = prelude + headers + body
    return message + struct.pack(">I", binascii.crc32(message))


STREAM_EVENTS = [
    {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [],
                                           "model": "claude-sonnet-4-5-20250929", "stop_reason": None,
                                           "usage": {"input_tokens": 20, "output_tokens": 1}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Checking."}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1,
     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}},
    {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": '{"location": '}},
    {"type": "content_block_delta", "index": 1,
     "delta": {"type": "input_json_delta", "partial_json": '"Tokyo, Japan"}'}},
    {"type": "content_block_stop", "index": 1},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}},
    {"type": "message_stop"},
]  # fmt: skip


@pytest.mark.parametrize("how", ["sync", "async"])
def test_bedrock_streams_through_the_event_stream_framing(how: str) -> None:
    body = b"".join(event_stream_message(event) for event in STREAM_EVENTS)
    response = httpx.Response(200, content=body, headers={"content-type": "application/vnd.amazon.eventstream"})
    with mock_http() as router:
        route = router.post(f"{BEDROCK_URL}/invoke-with-response-stream").mock(return_value=response)
        if how == "sync":
            events = list(bedrock().stream("Weather in Tokyo?", tools=[get_weather]))
        else:
            import asyncio

            async def collect() -> list[llmrelay.StreamEvent]:
                client = llmrelay.AsyncClient(f"bedrock:{BEDROCK_MODEL}", provider_options=AWS_KEYS)
                return [event async for event in client.stream("Weather in Tokyo?", tools=[get_weather])]

            events = asyncio.run(collect())
    assert route.called
    end = events[-1]
    assert isinstance(end, llmrelay.StreamEnd)
    check_tool_call(end.completion, "bedrock")
    assert "".join(e.text for e in events if isinstance(e, llmrelay.TextDelta)) == end.completion.content == "Checking."


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
async def test_a_bedrock_stream_past_max_stream_bytes_ends_with_what_was_read(use_async: bool) -> None:
    """Bedrock's framing is decoded by the SDK, yet the cap holds as for every other stream."""
    shown = b"".join(event_stream_message(event) for event in STREAM_EVENTS[:6])  # Text, then a call begins.
    endless = event_stream_message(STREAM_EVENTS[5]) * 1000  # Far past the cap if nothing stops it.
    body = Body(shown + endless, size=50)
    headers = {"content-type": "application/vnd.amazon.eventstream"}
    options = {"max_stream_bytes": len(shown) + 10}
    with mock_http() as router:
        route = router.post(f"{BEDROCK_URL}/invoke-with-response-stream").respond(200, headers=headers, stream=body)
        with pytest.raises(llmrelay.StreamInterrupted) as caught:
            if use_async:
                async_client = llmrelay.AsyncClient(f"bedrock:{BEDROCK_MODEL}", provider_options=AWS_KEYS, **options)
                async for _ in async_client.stream("Weather?", tools=[get_weather]):
                    pass
            else:
                for _ in bedrock(**options).stream("Weather?", tools=[get_weather]):
                    pass
    cause = caught.value.__cause__
    assert isinstance(cause, llmrelay.ResponseTooLarge)
    assert cause.limit == len(shown) + 10 < cause.received <= len(shown) + 60
    assert caught.value.partial.content == "Checking."
    assert route.call_count == 1


def test_bedrock_without_a_region_or_credentials() -> None:
    with mock_http() as router:
        route = router.route().respond(200, json=TOOL_USE)
        with pytest.raises(errors.ConfigError, match="AWS_REGION"):
            llmrelay.Client(f"bedrock:{BEDROCK_MODEL}").complete("Hi")
        with pytest.raises(errors.AuthenticationError, match="AWS"):
            llmrelay.Client(f"bedrock:{BEDROCK_MODEL}", provider_options={"aws_region": "us-east-1"}).complete("Hi")
    assert not route.called


BEDROCK_ERRORS = [
    (400, "ValidationException", "The provided model identifier is invalid.", errors.BadRequestError),
    (403, "AccessDeniedException", "You don't have access to the model with the specified model ID.",
     errors.PermissionDeniedError),
    (429, "ThrottlingException", "Too many requests, please wait before trying again.", errors.RateLimitError),
]  # fmt: skip


@pytest.mark.parametrize(("status", "kind", "message", "error"), BEDROCK_ERRORS, ids=[e[1] for e in BEDROCK_ERRORS])
def test_bedrock_errors_map_into_the_tree(
    status: int, kind: str, message: str, error: type[errors.ProviderError]
) -> None:
    with mock_http() as router:
        router.post(f"{BEDROCK_URL}/invoke").respond(
            status, json={"message": message}, headers={"x-amzn-errortype": kind}
        )
        with pytest.raises(errors.ProviderError) as caught:
            bedrock(retry=llmrelay.RetryPolicy(max_attempts=1)).complete("Hi")
    assert type(caught.value) is error
    assert (caught.value.provider, caught.value.status) == ("bedrock", status)
    assert message in caught.value.message
    assert AWS_KEYS["aws_secret_key"] not in str(caught.value)


# --- Vertex AI -----------------------------------------------------------------------------------------


def test_anthropic_vertex_sends_to_the_region_with_the_token() -> None:
    with mock_http() as router:
        route = router.post(f"{VERTEX_URL}:rawPredict").respond(200, json=TOOL_USE)
        result = anthropic_vertex().complete("Weather in Tokyo?", tools=[get_weather])
        request = route.calls[0].request
    check_tool_call(result, "anthropic-vertex")
    assert request.headers["authorization"] == f"Bearer {TOKEN}"
    body = json.loads(request.content)
    assert "anthropic_version" in body and "model" not in body


def test_anthropic_vertex_streams_server_sent_events() -> None:
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in STREAM_EVENTS).encode()
    response = httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})
    with mock_http() as router:
        router.post(f"{VERTEX_URL}:streamRawPredict").mock(return_value=response)
        events = list(anthropic_vertex().stream("Weather in Tokyo?", tools=[get_weather]))
    end = events[-1]
    assert isinstance(end, llmrelay.StreamEnd)
    check_tool_call(end.completion, "anthropic-vertex")


def test_anthropic_vertex_needs_a_region_and_maps_errors() -> None:
    with mock_http() as router:
        router.post(f"{VERTEX_URL}:rawPredict").respond(
            429, json={"type": "error", "error": {"type": "rate_limit_error", "message": "Quota exceeded"}}
        )
        with pytest.raises(errors.ConfigError, match="CLOUD_ML_REGION"):
            llmrelay.Client("anthropic-vertex:claude-sonnet-4-5@20250929").complete("Hi")
        with pytest.raises(errors.RateLimitError) as caught:
            llmrelay.Client(
                "anthropic-vertex:claude-sonnet-4-5@20250929",
                provider_options={
                    "region": "us-east5",
                    "project": "my-project",
                    "credentials": Credentials(token=TOKEN),
                },
                retry=llmrelay.RetryPolicy(max_attempts=1),
            ).complete("Hi")
    assert (caught.value.provider, caught.value.code) == ("anthropic-vertex", "rate_limit_error")


def test_claude_on_clouds_reads_anthropic_capabilities() -> None:
    from llmrelay.capabilities import lookup

    assert lookup("bedrock", BEDROCK_MODEL).native_tools
    assert lookup("anthropic-vertex", "claude-sonnet-4-5@20250929").emits_xml_tool_calls
