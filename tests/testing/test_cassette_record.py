"""Recording for real: llmrelay's adapters and the provider SDKs against the loopback WireServer.

Each test records through `cassette(...)` while the server answers (so the requests really left
the process), then replays the file with the server gone and checks the same answers come back.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

import llmrelay
from llmrelay.testing import Redaction, cassette, load_cassette
from llmrelay.testing._cassette import pieces
from llmrelay.testing._wire_server import Reply, WireServer

SECRET = "sk-live-4f8Q2mZ7rT"
PROVIDERS = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-sonnet-4-6",
    "gemini": "gemini-2.5-flash",
    "groq": "llama-3.3-70b-versatile",
    "openrouter": "meta-llama/llama-3.3-70b-instruct",
}
SCRIPT = [
    Reply(tool_calls=[("get_weather", {"city": "Paris", "unit": "celsius"})]),
    Reply("Sunny, 21 degrees in Paris."),
]
ASK = [{"role": "user", "content": "Weather in Paris?"}]


def get_weather(city: str, unit: str = "celsius") -> str:
    """The weather in a city."""
    return "sunny"


def summary(answer: llmrelay.Completion) -> tuple[object, ...]:
    return answer.content, [(c.name, c.arguments) for c in answer.tool_calls], answer.finish_reason, answer.provider


def client(provider: str, base_url: str, key: str = SECRET) -> llmrelay.Client:
    return llmrelay.Client(f"{provider}:{PROVIDERS[provider]}", api_key=key, base_url=base_url)


def assert_no_secret(path: Path, secret: str = SECRET) -> None:
    data = path.read_bytes()
    for form in (secret.encode(), base64.b64encode(secret.encode()), secret.encode("utf-16-le")):
        assert form not in data, f"{form!r} is in {path}"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_record_then_replay_through_each_adapter(tmp_path: Path, provider: str) -> None:
    path = tmp_path / f"{provider}.yaml"
    with WireServer(script=SCRIPT) as server, cassette(path, "once") as recording:
        base_url = server.base_url_for(provider)
        live = client(provider, base_url)
        recorded = [summary(live.complete(ASK, tools=[get_weather])), summary(live.complete(ASK))]
    assert recorded == [
        ("", [("get_weather", {"city": "Paris", "unit": "celsius"})], "tool_calls", provider),
        ("Sunny, 21 degrees in Paris.", [], "stop", provider),
    ]
    assert len(server.requests) == 2, "recording sends the requests for real"
    assert SECRET in json.dumps(server.requests[0].headers)
    assert len(recording.new_interactions) == 2
    assert_no_secret(path)

    with cassette(path, "none") as replaying:  # The server is gone: only the file can answer.
        again = client(provider, base_url, key="another-key")
        replayed = [summary(again.complete(ASK, tools=[get_weather])), summary(again.complete(ASK))]
    assert replayed == recorded
    assert replaying.play_count == 2


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "groq"])
async def test_record_then_replay_async(tmp_path: Path, provider: str) -> None:
    path = tmp_path / f"{provider}.yaml"
    with WireServer(script=SCRIPT[1:]) as server:
        base_url = server.base_url_for(provider)
        async with cassette(path, "once"):
            live = llmrelay.AsyncClient(f"{provider}:{PROVIDERS[provider]}", api_key=SECRET, base_url=base_url)
            recorded = summary(await live.complete(ASK))
    async with cassette(path, "none"):
        again = llmrelay.AsyncClient(f"{provider}:{PROVIDERS[provider]}", api_key="k", base_url=base_url)
        assert summary(await again.complete(ASK)) == recorded == ("Sunny, 21 degrees in Paris.", [], "stop", provider)
    assert_no_secret(path)


# --- streams, through each SDK's own streaming call --------------------------------------------------


def openai_stream(base_url: str, key: str) -> list[Any]:
    import openai

    sdk = openai.OpenAI(api_key=key, base_url=base_url, max_retries=0)
    stream = sdk.chat.completions.create(
        model="gpt-4o-mini", messages=ASK, stream=True, stream_options={"include_usage": True}
    )  # type: ignore[arg-type]
    return [chunk.model_dump(exclude_none=True) for chunk in stream]


def anthropic_stream(base_url: str, key: str) -> list[Any]:
    import anthropic

    sdk = anthropic.Anthropic(api_key=key, base_url=base_url, max_retries=0)
    stream = sdk.messages.create(model="claude-sonnet-4-6", max_tokens=100, messages=ASK, stream=True)  # type: ignore[arg-type]
    return [event.model_dump(exclude_none=True) for event in stream]


def gemini_stream(base_url: str, key: str) -> list[Any]:
    from google import genai

    sdk = genai.Client(api_key=key, http_options={"base_url": base_url})
    stream = sdk.models.generate_content_stream(model="gemini-2.5-flash", contents="Weather?")
    return [chunk.candidates[0].model_dump(exclude_none=True) for chunk in stream if chunk.candidates]


def groq_stream(base_url: str, key: str) -> list[Any]:
    import groq

    sdk = groq.Groq(api_key=key, base_url=base_url, max_retries=0)
    stream = sdk.chat.completions.create(model="llama-3.3-70b-versatile", messages=ASK, stream=True)  # type: ignore[arg-type,call-overload]
    return [chunk.model_dump(exclude_none=True) for chunk in stream]


STREAMS: dict[str, Callable[[str, str], list[Any]]] = {
    "openai": openai_stream,
    "anthropic": anthropic_stream,
    "gemini": gemini_stream,
    "groq": groq_stream,
}


@pytest.mark.parametrize("provider", STREAMS)
def test_a_stream_is_recorded_whole_and_replayed_event_by_event(tmp_path: Path, provider: str) -> None:
    path, read = tmp_path / "stream.yaml", STREAMS[provider]
    with WireServer(script=[Reply("It is sunny in Paris today.", tool_calls=[("log", {"n": 1})])]) as server:
        base_url = server.base_url_for(provider)
        with cassette(path, "once"):
            recorded = read(base_url, SECRET)
    with cassette(path, "none"):
        replayed = read(base_url, "k")
    assert replayed == recorded
    assert len(recorded) > 5, "the answer came as many events"
    (item,) = load_cassette(path).interactions
    assert item.response.header("content-type") == "text/event-stream"
    assert item.response.header("transfer-encoding") is None
    # Every event the SDK read was one recorded piece (Anthropic's pings and OpenAI's [DONE] are not yielded).
    assert len(pieces(item.response.body, "text/event-stream")) - len(recorded) in (0, 1)
    assert_no_secret(path)


async def test_an_async_stream_is_recorded_and_replayed(tmp_path: Path) -> None:
    import anthropic

    async def read(base_url: str) -> list[Any]:
        sdk = anthropic.AsyncAnthropic(api_key=SECRET, base_url=base_url, max_retries=0)
        async with sdk.messages.stream(model="claude-sonnet-4-6", max_tokens=50, messages=ASK) as stream:  # type: ignore[arg-type]
            return [event.type async for event in stream]

    path = tmp_path / "stream.yaml"
    with WireServer(script=[Reply("one two three")]) as server:
        async with cassette(path, "once"):
            recorded = await read(server.base_url_for("anthropic"))
    async with cassette(path, "none"):
        assert await read(server.base_url_for("anthropic")) == recorded
    assert recorded.count("text") == 3


def test_a_stream_closed_early_keeps_what_arrived(tmp_path: Path) -> None:
    path = tmp_path / "early.yaml"
    with WireServer(script=[Reply("a b c d e f")]) as server, cassette(path, "once"):
        url = server.base_url_for("openai") + "/chat/completions"
        with httpx.stream("POST", url, json={"model": "m", "stream": True}) as response:
            first = next(response.iter_raw())
    (item,) = load_cassette(path).interactions
    assert item.response.body.startswith(first)
    assert item.response.status == 200


# --- what is written --------------------------------------------------------------------------------


def test_gzip_answers_are_stored_decoded(tmp_path: Path) -> None:
    path = tmp_path / "gzip.yaml"
    with WireServer(script=SCRIPT[1:], gzip=True) as server, cassette(path, "once"):
        answer = client("openai", server.base_url_for("openai")).complete(ASK)
    text = path.read_text()
    assert "Sunny, 21 degrees in Paris." in text
    assert "!!binary" not in text
    response = yaml.safe_load(text)["interactions"][0]["response"]
    assert "content-encoding" not in {name.lower() for name in response["headers"]}
    assert answer.content == "Sunny, 21 degrees in Paris."


def test_new_episodes_appends_and_all_rewrites(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    script = [Reply("first"), Reply("second"), Reply("third")]
    with WireServer(script=script) as server:
        live = client("openai", server.base_url_for("openai"))
        with cassette(path, "once"):
            live.complete(ASK)
        with cassette(path, "new_episodes") as episodes:
            assert live.complete(ASK).content == "first"  # Replayed.
            assert live.complete(ASK).content == "second"  # Recorded.
        assert episodes.play_count == 1
        assert [
            json.loads(i.response.body)["choices"][0]["message"]["content"] for i in load_cassette(path).interactions
        ] == [
            "first",
            "second",
        ]
        with cassette(path, "all"):
            assert live.complete(ASK).content == "third"
    assert len(load_cassette(path).interactions) == 1
    assert len(server.requests) == 3


def test_user_redaction_rules_apply_before_writing(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"

    def drop_health_checks(item: Any) -> Any:
        return None if item.request.uri.endswith("/health") else item

    rules = Redaction(
        headers=["X-Org-Id"],
        query_params=["token"],
        body_fields=["metadata.user_id", "choices.message.content"],
        secrets=["project-42"],
        hook=drop_health_checks,
    )
    with WireServer(script=[Reply("private words")]) as server, cassette(path, "once", redact=rules):
        url = server.base_url_for("openai") + "/chat/completions?token=t0k&keep=yes"
        body = {"model": "project-42-model", "metadata": {"user_id": "alice", "other": 1}}
        httpx.post(url, json=body, headers={"x-org-id": "org-9", "x-api-key": SECRET})
        with pytest.raises(httpx.HTTPError):  # Not an endpoint of the server: 404, recorded then dropped.
            httpx.post(server.url + "/health").raise_for_status()
    (item,) = load_cassette(path).interactions
    request = json.loads(item.request.body or b"")
    assert request == {"model": "REDACTED-model", "metadata": {"user_id": "REDACTED", "other": 1}}
    assert item.request.uri.endswith("?token=REDACTED&keep=yes")
    assert item.request.header("x-org-id") == item.request.header("x-api-key") == "REDACTED"
    assert json.loads(item.response.body)["choices"][0]["message"]["content"] == "REDACTED"
    for secret in ("org-9", "t0k", "alice", "project-42", "private words", SECRET):
        assert_no_secret(path, secret)


# --- issue 12: every secret the recorder knows of, anywhere in the file ------------------------------

ENV_KEYS = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "groq": "GROQ_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
}
GATEWAY_KEY = "gw-0123456789-TOKEN-abcdef"
"""Read from the environment, shaped like no provider's key: only knowing the key in use redacts it."""
PROXY_TOKEN = "proxy-tok-98765432"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_key_in_use_and_credential_headers_are_redacted_everywhere(
    tmp_path: Path, provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_KEYS[provider], GATEWAY_KEY)
    path = tmp_path / f"{provider}.yaml"
    script = [Reply(f"your proxy token is {PROXY_TOKEN}"), Reply(status=401, error=f"Invalid key: {GATEWAY_KEY}")]
    with WireServer(script=script) as server, cassette(path, "once"):
        live = llmrelay.Client(
            f"{provider}:{PROVIDERS[provider]}",
            base_url=server.base_url_for(provider),
            headers={"X-Proxy-Token": PROXY_TOKEN},
            retry=llmrelay.RetryPolicy(max_attempts=1),
        )
        assert PROXY_TOKEN in live.complete(ASK).content
        with pytest.raises(llmrelay.AuthenticationError):
            live.complete(ASK)
    for secret in (GATEWAY_KEY, PROXY_TOKEN):
        assert_no_secret(path, secret)
    (first, _) = load_cassette(path).interactions
    assert first.request.header("x-proxy-token") == "REDACTED"
    with cassette(path, "none"):  # And the redacted file still replays.
        assert live.complete(ASK).content == "your proxy token is REDACTED"
        with pytest.raises(llmrelay.AuthenticationError):
            live.complete(ASK)


def test_credential_query_parameters_are_redacted_in_the_url_and_wherever_echoed(tmp_path: Path) -> None:
    path = tmp_path / "query.yaml"
    with WireServer(script=[Reply("ok")]) as server, cassette(path, "once"):
        url = server.base_url_for("openai") + "/chat/completions"
        query = {"api_key": "query-key-123456", "access_token": "access-987654321", "model": "m"}
        body = {"model": "m", "note": "access-987654321"}
        httpx.post(url, params=query, json=body)
    (item,) = load_cassette(path).interactions
    assert "api_key=REDACTED" in item.request.uri and "access_token=REDACTED" in item.request.uri
    assert "model=m" in item.request.uri
    for secret in ("query-key-123456", "access-987654321"):
        assert_no_secret(path, secret)


def test_is_credential_name() -> None:
    from llmrelay.testing._redact import is_credential_name

    named = ["X-Proxy-Token", "x-api-key", "Authorization", "api_key", "apiKey", "access_token", "X-Session-Id"]
    named += ["client_secret", "Cookie", "key", "x-goog-api-key", "X-Auth"]
    unnamed = ["x-ratelimit-remaining-tokens", "content-type", "model", "keep", "monkey", "x-request-id"]
    assert [n for n in named if not is_credential_name(n)] == []
    assert [n for n in unnamed if is_credential_name(n)] == []


def test_secrets_are_redacted_inside_gzip_and_binary_bodies(tmp_path: Path) -> None:
    import gzip

    from llmrelay.testing._redact import Redactor
    from llmrelay.testing._vcr import Interaction, RecordedRequest, RecordedResponse
    from llmrelay.testing._vcr_write import write_cassette

    key = "inner-key-0123456789"
    request = RecordedRequest("POST", "https://api.example.com/v1", {"Authorization": [f"Bearer {key}"]}, b"{}")
    bodies = {
        "gzip": gzip.compress(f'{{"echo": "{key}"}}'.encode()),
        "binary": b"\xff\xfe" + key.encode() + b"\x00\x81",
        "json-escaped": json.dumps({"echo": key.replace("-", "/")}).replace("/", "\\/").encode(),
        "percent-encoded": f"https://x/?next=%2F{key}".encode(),
    }
    for label, body in bodies.items():
        secret = key.replace("-", "/") if label == "json-escaped" else key
        redactor = Redactor(Redaction(secrets=[secret]) if label == "json-escaped" else None)
        item = redactor.interaction(Interaction(request, RecordedResponse(200, "OK", {}, body)))
        assert item is not None
        path = tmp_path / f"{label}.yaml"
        write_cassette(path, [item])
        assert_no_secret(path, secret)
        written = load_cassette(path).interactions[0].response.body
        plain = gzip.decompress(written) if label == "gzip" else written
        assert secret.encode() not in plain and b"REDACTED" in plain, label
