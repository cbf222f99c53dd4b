"""Closing clients: the SDK connection pools a client opened are closed, and nothing else is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import llmrelay
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import FakeAdapter, mock_http

from .test_cross_provider import ANTHROPIC_TEXT, GEMINI_CALL, OPENAI_TEXT

GROQ_TEXT = {**OPENAI_TEXT, "model": "llama-3.3-70b-versatile"}


def openai_family(adapter: Any, *, is_async: bool) -> Any:
    return adapter._clients.get(is_async)


def anthropic_sdk(adapter: Any, *, is_async: bool) -> Any:
    return adapter._async_client if is_async else adapter._client


def gemini_sdk(adapter: Any, *, is_async: bool) -> Any:
    return adapter._client


def is_closed(sdk: Any, *, is_async: bool = False) -> bool:
    if hasattr(sdk, "is_closed"):  # openai, anthropic, groq: one SDK client per kind
        return bool(sdk.is_closed())
    api = sdk._api_client  # google-genai: one SDK client holding a sync and an async HTTP client
    http = api._async_httpx_client if is_async else api._httpx_client
    return http is None or bool(http.is_closed)


# model, URL, answer, where the adapter keeps its SDK client
PROVIDERS: list[tuple[str, str, dict[str, Any], Callable[..., Any]]] = [
    ("openai:gpt-4o-mini", "https://api.openai.com/v1/chat/completions", OPENAI_TEXT, openai_family),
    ("groq:llama-3.3-70b-versatile", "https://api.groq.com/openai/v1/chat/completions", GROQ_TEXT, openai_family),
    ("anthropic:claude-sonnet-4-6", "https://api.anthropic.com/v1/messages", ANTHROPIC_TEXT, anthropic_sdk),
    (
        "gemini:gemini-2.5-flash",
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
        GEMINI_CALL,
        gemini_sdk,
    ),
]
IDS = [p[0].split(":")[0] for p in PROVIDERS]


@pytest.mark.parametrize(("model", "url", "answer", "sdk_of"), PROVIDERS, ids=IDS)
def test_closing_a_client_closes_the_sdk_connections_it_opened(
    model: str, url: str, answer: dict[str, Any], sdk_of: Callable[..., Any]
) -> None:
    provider = model.split(":")[0]
    with mock_http() as router:
        router.post(url).respond(200, json=answer)
        with llmrelay.Client(model, api_key="test-key-0123456789", learner=CapabilityLearner()) as client:
            client.complete("Weather in Paris?")
            sdk = sdk_of(client._adapter_for(provider), is_async=False)
            assert sdk is not None and not is_closed(sdk)
        assert is_closed(sdk)
        # Still usable: a later call opens new connections.
        assert client.complete("And now?").content is not None
        assert sdk_of(client._adapter_for(provider), is_async=False) is not sdk
        client.close()


@pytest.mark.parametrize(("model", "url", "answer", "sdk_of"), PROVIDERS, ids=IDS)
async def test_closing_an_async_client_closes_the_sdk_connections_it_opened(
    model: str, url: str, answer: dict[str, Any], sdk_of: Callable[..., Any]
) -> None:
    provider = model.split(":")[0]
    with mock_http() as router:
        router.post(url).respond(200, json=answer)
        async with llmrelay.AsyncClient(model, api_key="test-key-0123456789", learner=CapabilityLearner()) as client:
            await client.complete("Weather in Paris?")
            sdk = sdk_of(client._adapter_for(provider), is_async=True)
            assert sdk is not None and not is_closed(sdk, is_async=True)
    assert is_closed(sdk, is_async=True) and is_closed(sdk)


class Closable(FakeAdapter):
    closed = 0

    def close(self) -> None:
        self.closed += 1


def test_an_adapter_the_caller_gave_is_theirs_to_close() -> None:
    given = Closable(["Hi."])
    with llmrelay.Client("openai:gpt-4o-mini", adapter=given) as client:
        assert client.complete("Hello?").content == "Hi."
    assert given.closed == 0
    assert client._adapter_for("openai") is given
