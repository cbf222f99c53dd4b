"""Gemini on Vertex AI (`vertex:`): the same mapping as `gemini:`, reached with a project, a location and credentials.

Credentials are injected (`google.oauth2.credentials.Credentials` with a token that has not expired),
so no test fetches a token: `mock_http` refuses any request to a host not mocked here, Google's
token endpoint included.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from google.oauth2.credentials import Credentials

import llmrelay
from llmrelay import errors
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

from .gemini_bodies import PARALLEL_CALLS

TOKEN = "ya29.test-access-token"
MODEL_PATH = "publishers/google/models/gemini-2.5-flash"
REGIONAL = f"https://europe-west4-aiplatform.googleapis.com/v1/projects/my-project/locations/europe-west4/{MODEL_PATH}"
GLOBAL = f"https://aiplatform.googleapis.com/v1/projects/env-project/locations/global/{MODEL_PATH}"


def get_current_temperature(city: str) -> str:
    """The weather in a city."""
    return "sunny"


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_API_KEY", "GEMINI_API_KEY",
                 "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_APPLICATION_CREDENTIALS"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)


def vertex(**options: Any) -> llmrelay.Client:
    where = {"project": "my-project", "location": "europe-west4", "credentials": Credentials(token=TOKEN)}
    return llmrelay.Client(
        "vertex:gemini-2.5-flash", provider_options={**where, **options}, learner=CapabilityLearner(), max_repairs=0
    )


def calls_of(result: llmrelay.Completion) -> list[tuple[str, dict[str, Any]]]:
    return [(call.name, call.arguments) for call in result.tool_calls]


EXPECTED_CALLS = [
    (part["functionCall"]["name"], part["functionCall"]["args"])
    for part in PARALLEL_CALLS["candidates"][0]["content"]["parts"]
    if "functionCall" in part
]


def test_a_tool_call_goes_to_the_project_and_location_with_the_token() -> None:
    with mock_http() as router:
        route = router.post(f"{REGIONAL}:generateContent").respond(200, json=PARALLEL_CALLS)
        result = vertex().complete("Weather?", tools=[get_current_temperature])
        request = route.calls[0].request
    assert request.headers["authorization"] == f"Bearer {TOKEN}"
    assert json.loads(request.content)["tools"][0]["functionDeclarations"][0]["name"] == "get_current_temperature"
    assert (result.provider, result.mode) == ("vertex", "native_tools")
    assert calls_of(result) == EXPECTED_CALLS


@pytest.mark.parametrize("how", ["sync", "async"])
def test_a_stream_goes_to_vertex_with_the_token(how: str) -> None:
    body = f"data: {json.dumps(PARALLEL_CALLS)}\n\n".encode()
    with mock_http() as router:
        route = router.post(f"{REGIONAL}:streamGenerateContent").mock(
            return_value=httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})
        )
        if how == "sync":
            events = list(vertex().stream("Weather?", tools=[get_current_temperature]))
        else:
            import asyncio

            async def collect() -> list[llmrelay.StreamEvent]:
                where = {"project": "my-project", "location": "europe-west4", "credentials": Credentials(token=TOKEN)}
                client = llmrelay.AsyncClient("vertex:gemini-2.5-flash", provider_options=where)
                return [event async for event in client.stream("Weather?", tools=[get_current_temperature])]

            events = asyncio.run(collect())
        request = route.calls[0].request
    assert request.url.params["alt"] == "sse"
    assert request.headers["authorization"] == f"Bearer {TOKEN}"
    end = events[-1]
    assert isinstance(end, llmrelay.StreamEnd)
    assert (end.completion.provider, calls_of(end.completion)) == ("vertex", EXPECTED_CALLS)


def test_project_and_location_from_the_environment_default_location_global(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "env-project")
    with mock_http() as router:
        route = router.post(f"{GLOBAL}:generateContent").respond(200, json=PARALLEL_CALLS)
        options = {"credentials": Credentials(token=TOKEN)}
        llmrelay.Client("vertex:gemini-2.5-flash", provider_options=options).complete(
            "Weather?", tools=[get_current_temperature]
        )
    assert route.called


def test_express_mode_with_an_api_key() -> None:
    url = f"https://aiplatform.googleapis.com/v1/{MODEL_PATH}:generateContent"
    with mock_http() as router:
        route = router.post(url).respond(200, json=PARALLEL_CALLS)
        llmrelay.Client("vertex:gemini-2.5-flash", api_key="AQ.express-key-123").complete(
            "Hi", tools=[get_current_temperature]
        )
        request = route.calls[0].request
    assert request.headers["x-goog-api-key"] == "AQ.express-key-123"


def test_without_a_project_a_config_error_and_no_request() -> None:
    with mock_http() as router:
        route = router.route().respond(200, json=PARALLEL_CALLS)
        with pytest.raises(errors.ConfigError, match="GOOGLE_CLOUD_PROJECT"):
            llmrelay.Client("vertex:gemini-2.5-flash").complete("Hi")
    assert not route.called


def google_error(code: int, status: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "status": status}}


ERRORS = [
    (403, google_error(403, "PERMISSION_DENIED", "Permission 'aiplatform.endpoints.predict' denied on resource"),
     errors.PermissionDeniedError),
    (429, google_error(429, "RESOURCE_EXHAUSTED", "Resource exhausted. Please try again later."), errors.RateLimitError),
    (404, google_error(404, "NOT_FOUND", "Publisher Model `gemini-9` was not found"), errors.NotFoundError),
]  # fmt: skip


@pytest.mark.parametrize(("status", "body", "error"), ERRORS, ids=[str(e[0]) for e in ERRORS])
def test_vertex_errors_map_into_the_tree(status: int, body: dict[str, Any], error: type[errors.ProviderError]) -> None:
    with mock_http() as router:
        router.post(f"{REGIONAL}:generateContent").respond(status, json=body)
        with pytest.raises(errors.ProviderError) as caught:
            vertex().complete("Hi")
    assert type(caught.value) is error
    assert (caught.value.provider, caught.value.status) == ("vertex", status)
    assert TOKEN not in str(caught.value)


def test_vertex_reads_gemini_capabilities() -> None:
    from llmrelay.capabilities import lookup, modes

    for model in ("gemini-2.5-flash", "gemini-2.0-flash", "gemma-3-27b-it"):
        assert modes(lookup("vertex", model)) == modes(lookup("gemini", model)), model
    assert lookup("vertex", "gemini-2.5-flash").sources["native_tools"].startswith("models.toml: vertex")
