"""Transient retries per provider, end to end: `Client` and `AsyncClient`, the real adapter and SDK,
HTTP answered by `mock_http()`.

What is counted is what reached the wire: a status answered N times and then a real answer must
be exactly N + 1 requests (the SDKs' own retries are off, so nothing multiplies), and the waits
the injected sleep was asked for must be exactly the policy's (no jitter, nothing really waits).

- 408, 409, 429, 500, 502, 503, 504 and Anthropic's 529, a refused connection and a read timeout
  are retried; 400, 401, 403, 404 and 422 are sent once (a 404 falls back to a fallback model,
  the others are raised even when one is configured).
- `retry-after` in seconds or as an HTTP date, and `retry-after-ms`, set the wait, capped by
  `max_retry_after`; so does the RetryInfo detail of a Gemini 429.
- `max_attempts` bounds the requests to a model; then the error surfaces, or the plan moves to the
  fallback model, which has its own attempts.

Answers and error bodies are the real ones of `tests/adapters/*_bodies.py` (copied from the
shared conformance recordings) where a recording exists; otherwise the provider's documented error
shape with the words it sends, and the HTML pages the gateways in front of the APIs answer 502 and
504 with (Cloudflare for OpenAI, Anthropic, Groq and OpenRouter; Google's front end for Gemini).
"""

from __future__ import annotations

import asyncio
import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from types import ModuleType, SimpleNamespace
from typing import Any

import httpx
import pytest
import respx

import llmrelay
from llmrelay import Completion, RetryPolicy, errors
from llmrelay.adapters import Adapter, ProviderOptions, adapter_class
from llmrelay.capabilities import CapabilityLearner
from llmrelay.testing import mock_http

from .adapters import anthropic_bodies, gemini_bodies
from .adapters.openai_bodies import (
    GROQ_401,
    GROQ_404,
    GROQ_429,
    GROQ_TEXT,
    OPENAI_400_STOP,
    OPENAI_401,
    OPENAI_404,
    OPENAI_TEXT,
    OPENROUTER_200_ERROR,
    OPENROUTER_401,
    OPENROUTER_429,
    OPENROUTER_JSON_TEXT,
)

# --- error bodies --------------------------------------------------------------------------------


def openai_error(message: str, kind: str = "invalid_request_error", code: str | None = None) -> dict[str, Any]:
    """OpenAI's error shape, which Groq, OpenRouter and OpenAI-compatible servers copy."""
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def anthropic_error(kind: str, message: str) -> dict[str, Any]:
    """Anthropic's documented error shape (docs.claude.com/en/api/errors)."""
    return {"type": "error", "error": {"type": kind, "message": message}, "request_id": "req_011CYx4MRetry0example"}


def google_error(code: int, status: str, message: str) -> dict[str, Any]:
    """Google's `google.rpc.Status` error shape."""
    return {"error": {"code": code, "message": message, "status": status}}


def cloudflare_page(status: int, title: str) -> str:
    """The page Cloudflare answers with when the API behind it does not."""
    return (
        f"<html>\r\n<head><title>{status} {title}</title></head>\r\n<body>\r\n"
        f"<center><h1>{status} {title}</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n"
    )


GOOGLE_502_PAGE = (
    "<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error 502 (Server Error)!!1</title>\n"
    "  <p><b>502.</b> <ins>That\u2019s an error.</ins>\n  <p>The server encountered a temporary error and could "
    "not complete your request.<p>Please try again in 30 seconds.  <ins>That\u2019s all we know.</ins>\n"
)

OPENAI_SHAPED: dict[int, Any] = {
    400: OPENAI_400_STOP,
    401: OPENAI_401,
    403: openai_error("Country, region, or territory not supported", code="unsupported_country_region_territory"),
    404: OPENAI_404,
    408: openai_error("Request timed out.", kind="server_error"),
    409: openai_error("The request conflicted with another request in flight. Please retry.", kind="server_error"),
    422: openai_error("Unprocessable Entity"),
    429: openai_error(
        "Rate limit reached for gpt-4o-mini in organization org-abc on requests per min (RPM): Limit 3, Used 3, "
        "Requested 1. Please try again in 20s.",
        kind="requests",
        code="rate_limit_exceeded",
    ),
    500: openai_error("The server had an error while processing your request. Sorry about that!", kind="server_error"),
    502: cloudflare_page(502, "Bad Gateway"),
    503: openai_error("The engine is currently overloaded, please try again later", kind="server_error"),
    504: cloudflare_page(504, "Gateway Time-out"),
}
"""OpenAI's bodies; the other Chat Completions providers start from these and put in their own."""


def chat_errors(own: Mapping[int, Any]) -> dict[int, Any]:
    return {**OPENAI_SHAPED, **own}


ANTHROPIC_ERRORS: dict[int, Any] = {
    400: anthropic_bodies.ERROR_400_EFFORT,
    401: anthropic_bodies.ERROR_401,
    403: anthropic_bodies.ERROR_403,
    404: anthropic_bodies.ERROR_404_UNKNOWN_MODEL,
    408: anthropic_error("timeout_error", "Request timed out"),
    409: anthropic_error("api_error", "Conflict: please retry the request"),
    422: anthropic_error("invalid_request_error", "messages: field required"),
    429: anthropic_bodies.ERROR_429,
    500: anthropic_bodies.ERROR_500,
    502: cloudflare_page(502, "Bad Gateway"),
    503: anthropic_error("api_error", "Service unavailable"),
    504: anthropic_error("timeout_error", "Request timed out while processing"),
    529: anthropic_bodies.ERROR_529,
}

GEMINI_ERRORS: dict[int, Any] = {
    400: gemini_bodies.ERROR_400_LOCATION,
    401: google_error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials."),
    403: gemini_bodies.ERROR_403_LEAKED_KEY,
    404: gemini_bodies.ERROR_404_MODEL,
    408: google_error(408, "DEADLINE_EXCEEDED", "Request timed out."),
    409: google_error(409, "ABORTED", "The operation was aborted."),
    422: google_error(422, "INVALID_ARGUMENT", "Unprocessable request."),
    429: gemini_bodies.ERROR_429,
    500: gemini_bodies.ERROR_500,
    502: GOOGLE_502_PAGE,
    503: gemini_bodies.ERROR_503,
    504: google_error(504, "DEADLINE_EXCEEDED", "Deadline expired before operation could complete."),
}

# --- providers -----------------------------------------------------------------------------------

# openai-compatible/pydantic-ai-cerebras-text-then-tool.yaml, interaction 0
CEREBRAS_TEXT: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "stop",
            "index": 0,
            "message": {
                "content": "The capital of France is Paris. If you need more information about Paris or any other "
                "details, feel free to ask!",
                "role": "assistant",
            },
        }
    ],
    "created": 1756198142,
    "id": "chatcmpl-65763e70-ba85-41a3-a758-4dc3fcb73c9a",
    "model": "qwen-3-coder-480b",
    "object": "chat.completion",
    "system_fingerprint": "fp_4405be376d055dc5bff7",
    "time_info": {
        "completion_time": 0.045860486,
        "created": 1756198142,
        "prompt_time": 0.011004894,
        "queue_time": 0.001344637,
        "total_time": 0.05971097946166992,
    },
    "usage": {
        "completion_tokens": 25,
        "prompt_tokens": 304,
        "prompt_tokens_details": {"cached_tokens": 0},
        "total_tokens": 329,
    },
}


@dataclass(frozen=True)
class Provider:
    """One provider as these tests drive it: where it is called, what it answers."""

    id: str
    model: str
    fallback: str
    """Another model of the same provider, for the plan to fall back to."""
    endpoint: str
    """The URL called, with `{model}` where the model is part of it."""
    answer: dict[str, Any]
    """A real successful answer."""
    text: str
    """The answer's text."""
    errors: Mapping[int, Any] = field(repr=False)
    """The error body sent with each status."""
    sdk: str
    """The SDK package, to find the HTTP library it sends with."""
    key: str | None = "sk-fake-0123456789abcdefghijklmnopqrstuvwxyz"
    base_url: str | None = None

    def route(self, router: respx.MockRouter, model: str | None = None) -> respx.Route:
        """The route answering the calls to `model` (the provider's main model by default)."""
        model = model or self.model
        url = self.endpoint.format(model=model)
        if "{model}" in self.endpoint:
            return router.post(url)
        return router.post(url, json__model=model)

    def failure(self, status: int, headers: Mapping[str, str] | None = None) -> httpx.Response:
        """The provider's error answer for `status` (a fresh one: a response is read only once)."""
        body = self.errors[status]
        if isinstance(body, str):
            return httpx.Response(status, text=body, headers={"content-type": "text/html", **(headers or {})})
        return httpx.Response(status, json=body, headers=headers)

    def success(self) -> httpx.Response:
        return httpx.Response(200, json=self.answer)

    def http(self) -> ModuleType:
        """The HTTP library the installed SDK sends with: httpx2 for the current majors, httpx before."""
        if self.sdk == "google.genai":
            uses_httpx2 = int(importlib.import_module(self.sdk).__version__.split(".")[0]) >= 3
        else:
            uses_httpx2 = hasattr(importlib.import_module(f"{self.sdk}._base_client"), "httpx2")
        return importlib.import_module("httpx2" if uses_httpx2 else "httpx")


CHAT = "/chat/completions"
PROVIDERS = [
    Provider(
        id="openai",
        model="gpt-4o-mini",
        fallback="gpt-4o",
        endpoint="https://api.openai.com/v1" + CHAT,
        answer=OPENAI_TEXT,
        text="The capital of France is Paris.",
        errors=chat_errors({}),
        sdk="openai",
    ),
    Provider(
        id="anthropic",
        model="claude-sonnet-4-6",
        fallback="claude-haiku-4-5",
        endpoint="https://api.anthropic.com/v1/messages",
        answer=anthropic_bodies.TOOL_RESULT_ANSWER,
        text="The weather in Tokyo is currently sunny and 72°F (approximately 22°C).",
        errors=ANTHROPIC_ERRORS,  # The only one with 529.
        sdk="anthropic",
        key="sk-ant-api03-FAKE-KEY-that-must-never-be-shown",
    ),
    Provider(
        id="gemini",
        model="gemini-2.5-flash",
        fallback="gemini-2.5-flash-lite",
        endpoint="https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent",
        answer=gemini_bodies.FINAL_ANSWER,
        text="The sum of 15 and 27 is 42.",
        errors=GEMINI_ERRORS,
        sdk="google.genai",
        key="AIzaSyFAKE-key-that-must-never-be-shown-0",
    ),
    Provider(
        id="groq",
        model="llama-3.3-70b-versatile",
        fallback="llama-3.1-8b-instant",
        endpoint="https://api.groq.com/openai/v1" + CHAT,
        answer=GROQ_TEXT,
        text="The capital of France is Paris.",
        errors=chat_errors({401: GROQ_401, 404: GROQ_404, 429: GROQ_429}),
        sdk="groq",
    ),
    Provider(
        id="openrouter",
        model="meta-llama/llama-3.2-3b-instruct",
        fallback="mistralai/mistral-small",
        endpoint="https://openrouter.ai/api/v1" + CHAT,
        answer=OPENROUTER_JSON_TEXT,
        text='{"name": "Alice Llama", "age": 30}',
        errors=chat_errors({401: OPENROUTER_401, 429: OPENROUTER_429, 502: OPENROUTER_200_ERROR}),
        sdk="openai",
    ),
    Provider(
        id="openai-compatible",
        model="qwen-3-coder-480b",
        fallback="llama-3.3-70b",
        endpoint="https://api.cerebras.ai/v1" + CHAT,
        answer=CEREBRAS_TEXT,
        text=CEREBRAS_TEXT["choices"][0]["message"]["content"],
        errors=chat_errors({}),
        sdk="openai",
        base_url="https://api.cerebras.ai/v1",
    ),
]
BY_ID = {provider.id: provider for provider in PROVIDERS}

RETRIED: dict[int, type[errors.ProviderError]] = {
    408: errors.ProviderTimeoutError,
    409: errors.ServerError,
    429: errors.RateLimitError,
    500: errors.ServerError,
    502: errors.ServerError,
    503: errors.OverloadedError,
    504: errors.ServerError,
    529: errors.OverloadedError,  # Anthropic only.
}
NOT_RETRIED: dict[int, type[errors.ProviderError]] = {
    400: errors.BadRequestError,
    401: errors.AuthenticationError,
    403: errors.PermissionDeniedError,
    404: errors.NotFoundError,
    422: errors.BadRequestError,
}


def pairs(statuses: Mapping[int, object]) -> list[Any]:
    """Every (provider, status) pair the provider has a body for, named "provider-status"."""
    return [
        pytest.param(provider, status, id=f"{provider.id}-{status}")
        for provider in PROVIDERS
        for status in statuses
        if status in provider.errors
    ]


ALL = [pytest.param(provider, id=provider.id) for provider in PROVIDERS]

# --- driving the client --------------------------------------------------------------------------

HELLO = "What is the capital of France?"


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key, endpoint or flag from the machine may reach the SDKs."""
    for name in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_ORG_ID",
        "OPENAI_PROJECT_ID",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "GOOGLE_GENAI_USE_VERTEXAI",
        "GROQ_API_KEY",
        "GROQ_BASE_URL",
        "OPENROUTER_API_KEY",
        "OPENAI_COMPATIBLE_API_KEY",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(params=["sync", "async"])
def how(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@dataclass
class Sleeps:
    """The waits the retry policy asked for, kept apart by kind of sleep: nothing really waits."""

    sync: list[float] = field(default_factory=list)
    async_: list[float] = field(default_factory=list)
    now: float = 0.0
    """Seconds slept so far: a clock for the tests that need time to pass."""

    def policy(self, **options: Any) -> RetryPolicy:
        """A policy with no jitter, a first wait of 0.25 s doubled each time, and these sleeps."""
        settings: dict[str, Any] = {"initial_delay": 0.25, "jitter": 0, **options}
        return RetryPolicy(sleep=self._sleep, async_sleep=self._async_sleep, **settings)

    def _sleep(self, seconds: float) -> None:
        self.sync.append(seconds)
        self.now += seconds

    async def _async_sleep(self, seconds: float) -> None:
        self.async_.append(seconds)
        self.now += seconds

    def taken(self, how: str) -> list[float]:
        """The waits of a sync or async run; the other kind of sleep must not have been used."""
        used, unused = (self.sync, self.async_) if how == "sync" else (self.async_, self.sync)
        assert unused == [], "AsyncClient must wait with async_sleep, Client with sleep"
        return used


@functools.cache
def adapter(provider_id: str) -> Adapter:
    """The provider's adapter, built as `Client` builds it, once: its SDK clients are slow to make
    (each loads the CA certificates) and keep nothing from one call to the next."""
    provider = BY_ID[provider_id]
    options = ProviderOptions(api_key=provider.key, base_url=provider.base_url)
    return adapter_class(provider_id)(options)  # type: ignore[call-arg]


def complete(
    provider: Provider, how: str, retry: RetryPolicy, *, fallback: bool = False, tools: list[Any] | None = None
) -> Completion:
    """One question through `Client` or `AsyncClient`, retried by `retry` (in text mode, unless tools are given)."""
    options: dict[str, Any] = {
        "adapter": adapter(provider.id),
        "retry": retry,
        "learner": CapabilityLearner(),
        "fallback_models": [f"{provider.id}:{provider.fallback}"] if fallback else [],
    }
    model = f"{provider.id}:{provider.model}"
    if how == "sync":
        return llmrelay.Client(model, **options).complete(HELLO, tools)
    return asyncio.run(llmrelay.AsyncClient(model, **options).complete(HELLO, tools))


def retried(result: Completion) -> list[str]:
    """The class of each error that was retried, from the trace."""
    return [(attempt.reason or "").split(":")[0] for attempt in result.attempts if attempt.outcome == "retry"]


def steps(result: Completion) -> list[tuple[str, str]]:
    return [(attempt.model, attempt.outcome) for attempt in result.attempts]


# --- statuses ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("provider", "status"), pairs(RETRIED))
def test_a_transient_status_is_retried_until_the_answer_comes(provider: Provider, status: int, how: str) -> None:
    sleeps = Sleeps()
    with mock_http() as router:
        provider.route(router).side_effect = [provider.failure(status) for _ in range(3)] + [provider.success()]
        result = complete(provider, how, sleeps.policy(max_attempts=4))
        assert len(router.calls) == 4  # 3 failures + the answer: one request per try, not one more.
    assert sleeps.taken(how) == [0.25, 0.5, 1.0]
    assert retried(result) == [RETRIED[status].__name__] * 3
    assert (result.content, result.attempts[-1].outcome) == (provider.text, "ok")


@pytest.mark.parametrize(("provider", "status"), pairs(NOT_RETRIED))
def test_a_status_the_request_must_change_for_is_sent_once(provider: Provider, status: int, how: str) -> None:
    sleeps = Sleeps()
    # x-should-retry asks the SDKs that read it (openai, anthropic, groq) to retry: theirs are off.
    headers = {"x-should-retry": "true"}
    with mock_http() as router:
        provider.route(router).side_effect = [provider.failure(status, headers), provider.success()]
        with pytest.raises(errors.ProviderError) as info:
            complete(provider, how, sleeps.policy())
        assert len(router.calls) == 1
    assert type(info.value) is NOT_RETRIED[status]
    assert (info.value.status, info.value.provider) == (status, provider.id)
    assert sleeps.taken(how) == []


@pytest.mark.parametrize(("provider", "status"), pairs(NOT_RETRIED))
def test_only_a_404_falls_back_to_the_fallback_model(provider: Provider, status: int, how: str) -> None:
    sleeps = Sleeps()
    with mock_http() as router:
        primary = provider.route(router).mock(side_effect=[provider.failure(status)])
        backup = provider.route(router, provider.fallback).mock(return_value=provider.success())
        if status == 404:  # An unknown model: another one may do.
            result = complete(provider, how, sleeps.policy(), fallback=True)
            assert steps(result) == [(provider.model, "error"), (provider.fallback, "ok")]
        else:  # A key, a permission or a request to fix: raised, never hidden by a fallback.
            with pytest.raises(NOT_RETRIED[status]):
                complete(provider, how, sleeps.policy(), fallback=True)
        assert (primary.call_count, backup.call_count) == (1, int(status == 404))
    assert sleeps.taken(how) == []


# --- no answer at all ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("failure", "error"),
    [("ConnectError", errors.ProviderConnectionError), ("ReadTimeout", errors.ProviderTimeoutError)],
)
@pytest.mark.parametrize("provider", ALL)
def test_no_answer_is_retried(provider: Provider, failure: str, error: type[errors.ProviderError], how: str) -> None:
    sleeps = Sleeps()
    exception = getattr(provider.http(), failure)
    with mock_http() as router:
        provider.route(router).side_effect = [exception("no answer"), exception("no answer"), provider.success()]
        result = complete(provider, how, sleeps.policy())
        assert len(router.calls) == 3
    assert sleeps.taken(how) == [0.25, 0.5]
    assert retried(result) == [error.__name__] * 2
    assert result.content == provider.text


# --- how long to wait ----------------------------------------------------------------------------


def http_date(seconds_from_now: float) -> str:
    return format_datetime(datetime.now(timezone.utc) + timedelta(seconds=seconds_from_now), usegmt=True)


@dataclass(frozen=True)
class Wait:
    """A 429's wait headers (made when the test runs: a date is relative to now), and the wait."""

    id: str
    headers: Callable[[], dict[str, str]]
    expected: float
    tolerance: float = 0.0
    """An HTTP date has whole seconds, and the clock runs while the answer is read: a second either way."""


MAX_RETRY_AFTER = 30.0
WAITS = [
    Wait("seconds", lambda: {"retry-after": "7"}, 7.0),
    Wait("fractional seconds", lambda: {"retry-after": "2.5"}, 2.5),
    Wait("milliseconds", lambda: {"retry-after-ms": "1500"}, 1.5),
    Wait("milliseconds win over seconds", lambda: {"retry-after-ms": "250", "retry-after": "1"}, 0.25),
    Wait("an HTTP date", lambda: {"retry-after": http_date(5)}, 4.0, tolerance=1.0),
    Wait("an HTTP date already past", lambda: {"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),
    Wait("seconds, capped", lambda: {"retry-after": "3600"}, MAX_RETRY_AFTER),
    Wait("milliseconds, capped", lambda: {"retry-after-ms": "90000"}, MAX_RETRY_AFTER),
    Wait("an HTTP date, capped", lambda: {"retry-after": http_date(3600)}, MAX_RETRY_AFTER),
]


@pytest.mark.parametrize("wait", WAITS, ids=lambda wait: wait.id)
@pytest.mark.parametrize("provider", ALL)
def test_the_wait_the_provider_asks_for_is_honoured_and_capped(provider: Provider, wait: Wait, how: str) -> None:
    sleeps = Sleeps()
    with mock_http() as router:
        provider.route(router).side_effect = [provider.failure(429, wait.headers()), provider.success()]
        complete(provider, how, sleeps.policy(max_retry_after=MAX_RETRY_AFTER))
        assert len(router.calls) == 2
    taken = sleeps.taken(how)
    assert len(taken) == 1
    assert taken[0] == pytest.approx(wait.expected, abs=wait.tolerance or 1e-9)


@pytest.mark.parametrize(("cap", "expected"), [(60.0, 45.0), (10.0, 10.0)], ids=["as asked", "capped"])
def test_the_wait_a_gemini_429_names_in_its_body_is_honoured(cap: float, expected: float, how: str) -> None:
    gemini = BY_ID["gemini"]
    sleeps = Sleeps()
    with mock_http() as router:  # RetryInfo "retryDelay": "45s", and no header.
        gemini.route(router).side_effect = [httpx.Response(429, json=gemini_bodies.ERROR_429_QUOTA), gemini.success()]
        complete(gemini, how, sleeps.policy(max_retry_after=cap))
        assert len(router.calls) == 2
    assert sleeps.taken(how) == [expected]


def test_an_openrouter_error_inside_a_200_is_retried_by_the_status_it_names(how: str) -> None:
    openrouter = BY_ID["openrouter"]
    sleeps = Sleeps()
    with mock_http() as router:  # {"error": {"code": 502, "message": "Provider returned error", ...}} with 200.
        in_a_200 = [httpx.Response(200, json=OPENROUTER_200_ERROR) for _ in range(2)]
        openrouter.route(router).side_effect = [*in_a_200, openrouter.success()]
        result = complete(openrouter, how, sleeps.policy())
        assert len(router.calls) == 3
    assert sleeps.taken(how) == [0.25, 0.5]
    assert retried(result) == ["ServerError", "ServerError"]


# --- how many tries ------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", ALL)
def test_max_attempts_bounds_the_requests_then_the_error_surfaces(provider: Provider, how: str) -> None:
    sleeps = Sleeps()
    with mock_http() as router:
        provider.route(router).mock(side_effect=lambda request: provider.failure(503))
        with pytest.raises(errors.OverloadedError) as info:
            complete(provider, how, sleeps.policy(max_attempts=3))
        assert len(router.calls) == 3
    assert sleeps.taken(how) == [0.25, 0.5]
    assert (info.value.status, info.value.model) == (503, provider.model)


@pytest.mark.parametrize("provider", ALL)
def test_one_attempt_turns_retrying_off(provider: Provider, how: str) -> None:
    sleeps = Sleeps()
    with mock_http() as router:
        provider.route(router).side_effect = [provider.failure(429), provider.success()]
        with pytest.raises(errors.RateLimitError):
            complete(provider, how, sleeps.policy(max_attempts=1))
        assert len(router.calls) == 1
    assert sleeps.taken(how) == []


@pytest.mark.parametrize("provider", ALL)
def test_after_its_last_attempt_the_plan_falls_back_with_a_fresh_budget(provider: Provider, how: str) -> None:
    sleeps = Sleeps()
    with mock_http() as router:
        primary = provider.route(router).mock(side_effect=lambda request: provider.failure(500))
        backup = provider.route(router, provider.fallback)
        backup.side_effect = [provider.failure(429), provider.success()]
        result = complete(provider, how, sleeps.policy(max_attempts=3), fallback=True)
        assert (primary.call_count, backup.call_count, len(router.calls)) == (3, 2, 5)
    assert sleeps.taken(how) == [0.25, 0.5, 0.25]
    model, fallback = provider.model, provider.fallback
    assert steps(result) == [
        (model, "retry"),
        (model, "retry"),
        (model, "error"),
        (fallback, "retry"),
        (fallback, "ok"),
    ]
    assert result.content == provider.text


@pytest.mark.parametrize("provider", ALL)
def test_when_the_fallback_fails_too_every_failure_is_reported(provider: Provider, how: str) -> None:
    sleeps = Sleeps()
    with mock_http() as router:
        provider.route(router).mock(side_effect=lambda request: provider.failure(503))
        provider.route(router, provider.fallback).mock(side_effect=lambda request: provider.failure(502))
        with pytest.raises(llmrelay.AllAttemptsFailed) as info:
            complete(provider, how, sleeps.policy(max_attempts=2), fallback=True)
        assert len(router.calls) == 4
    assert [type(error) for error in info.value.exceptions] == [errors.OverloadedError, errors.ServerError]
    assert sleeps.taken(how) == [0.25, 0.25]


WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


@pytest.mark.parametrize("provider", ALL)
def test_a_model_that_keeps_failing_is_not_retried_again_in_each_mode(provider: Provider, how: str) -> None:
    sleeps = Sleeps()
    with mock_http() as router:  # With tools the plan has several modes: a transient failure skips them all.
        provider.route(router).mock(side_effect=lambda request: provider.failure(429))
        with pytest.raises(errors.RateLimitError):
            complete(provider, how, sleeps.policy(max_attempts=3), tools=[WEATHER])
        assert len(router.calls) == 3
    assert sleeps.taken(how) == [0.25, 0.5]


@pytest.mark.parametrize("provider", ALL)
def test_no_retry_starts_after_the_total_time(provider: Provider, how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps = Sleeps()
    monkeypatch.setattr("tenacity.time", SimpleNamespace(monotonic=lambda: sleeps.now))  # Time passes as slept.
    with mock_http() as router:
        provider.route(router).mock(side_effect=lambda request: provider.failure(503))
        with pytest.raises(errors.OverloadedError):
            complete(provider, how, sleeps.policy(max_attempts=10, total_timeout=1.0))
        # Tries at 0, 0.25 and 0.75 s; the next would start at 1.75 s, past the 1 s allowed.
        assert len(router.calls) == 3
    assert sleeps.taken(how) == [0.25, 0.5]
