"""The error mapping every adapter shares: status table, Retry-After, key redaction."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from typing import Any

import pytest

from llmrelay import errors
from llmrelay.adapters._errors import error_class, redact, redacted, retry_after, seconds, status_error
from tests.conftest import NO_BLOWUP_SECONDS

# --- the status table ----------------------------------------------------------------------------

STATUSES = [
    (400, errors.BadRequestError),
    (401, errors.AuthenticationError),
    (402, errors.PermissionDeniedError),  # OpenRouter: out of credits.
    (403, errors.PermissionDeniedError),
    (404, errors.NotFoundError),
    (408, errors.ProviderTimeoutError),
    (409, errors.ServerError),
    (413, errors.BadRequestError),  # Anthropic's request_too_large.
    (418, errors.BadRequestError),  # Any other 4xx: the request must change (was ProviderError on two adapters).
    (422, errors.BadRequestError),
    (429, errors.RateLimitError),
    (498, errors.OverloadedError),  # Groq's flex tier at capacity.
    (500, errors.ServerError),
    (502, errors.ServerError),
    (503, errors.OverloadedError),
    (504, errors.ServerError),
    (529, errors.OverloadedError),
    (None, errors.ServerError),  # An error inside a 200 that names no status.
    (302, errors.ServerError),  # Not an error status at all: the provider failed to say how.
]


@pytest.mark.parametrize(("status", "expected"), STATUSES, ids=lambda value: str(value))
def test_error_class(status: int | None, expected: type[errors.ProviderError]) -> None:
    assert error_class(status) is expected


def fail(message: str, status: int | None, headers: dict[str, str] | None = None, **more: Any) -> errors.ProviderError:
    return status_error(message, status=status, provider="p", model="m", headers=headers or {}, **more)


FEATURES = [
    (400, "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", "parallel_tool_calls"),
    (422, "response_format json_schema is not supported by this model", "json_schema"),
    # Asked whatever the status: the classifier knows which ones come with a refused feature.
    (404, "No endpoints found that support tool use.", "native_tools"),
    (500, "tools param requires --jinja flag", "native_tools"),
]


@pytest.mark.parametrize(("status", "message", "feature"), FEATURES, ids=lambda value: str(value)[:20])
def test_a_refused_feature(status: int, message: str, feature: str) -> None:
    error = fail(message, status)
    assert type(error) is errors.UnsupportedFeatureError
    assert (error.feature, error.status) == (feature, status)  # type: ignore[attr-defined]


def test_a_refused_feature_at_a_status_that_never_means_one_keeps_its_class() -> None:
    assert type(fail("tools are not supported", 429)) is errors.RateLimitError


def test_the_class_given_wins_over_the_table_and_the_classifier() -> None:
    error = fail("API key not valid; tools are not supported", 400, cls=errors.AuthenticationError)
    assert type(error) is errors.AuthenticationError
    assert error.status == 400


def test_every_detail_is_kept() -> None:
    body = {"error": {"message": "slow down"}}
    headers = {"retry-after": "3", "x-request-id": "req_1"}
    error = fail("slow down", 429, headers, body=body, request_id="req_1", code="rate_limit")
    assert (error.provider, error.model, error.status, error.request_id) == ("p", "m", 429, "req_1")
    assert (error.body, error.headers, error.retry_after, error.code) == (body, headers, 3.0, "rate_limit")


@pytest.mark.parametrize(
    ("headers", "expected"),
    [({}, 45.0), ({"retry-after": "7"}, 7.0), ({"retry-after": "soon"}, 45.0)],
    ids=["body only", "header wins", "unreadable header"],
)
def test_a_wait_named_in_the_body_is_used_when_no_header_names_one(headers: dict[str, str], expected: float) -> None:
    assert fail("quota", 429, headers, wait=45.0).retry_after == expected


# --- Retry-After ---------------------------------------------------------------------------------


def http_date(offset: float) -> str:
    return format_datetime(datetime.now(timezone.utc) + timedelta(seconds=offset), usegmt=True)


RETRY_AFTER = [
    ({}, None),
    ({"retry-after": "20"}, 20.0),
    ({"retry-after": "1.5"}, 1.5),
    ({"retry-after-ms": "1500"}, 1.5),
    ({"retry-after": "20", "retry-after-ms": "1500"}, 1.5),  # The finer one wins.
    ({"retry-after": "-3"}, 0.0),
    ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),  # In the past: go now.
    ({"retry-after": "Wed, 21 Oct 2015 07:28:00"}, 0.0),  # No zone: GMT, as HTTP dates are.
    ({"retry-after": "nan"}, None),
    ({"retry-after": "inf"}, None),
    ({"retry-after-ms": "inf", "retry-after": "2"}, 2.0),
    ({"retry-after": "tomorrow"}, None),
    ({"retry-after": ""}, None),
]


@pytest.mark.parametrize(("headers", "expected"), RETRY_AFTER, ids=lambda value: str(value))
def test_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert retry_after(headers) == expected


def test_retry_after_as_a_date_to_come() -> None:
    wait = retry_after({"retry-after": http_date(120)})
    assert wait is not None
    assert 115 <= wait <= 120


@pytest.mark.parametrize(
    ("value", "expected"),
    [("3", 3.0), ("0.25", 0.25), ("-1", 0.0), (None, None), ("", None), ("3s", None), ("NaN", None)],
)
def test_seconds(value: str | None, expected: float | None) -> None:
    assert seconds(value) == expected


# --- redaction -----------------------------------------------------------------------------------

KEY = "my-own-secret-token-1234"

REDACTION = [
    ("the adapter's own key", f"bad token {KEY}.", "bad token ***."),
    ("OpenAI, masked", "Incorrect API key provided: sk-abc***wxyz", "Incorrect API key provided: ***"),
    ("OpenAI project key", "key sk-proj-AbC_123-def was revoked", "key *** was revoked"),
    ("Anthropic", "x-api-key sk-ant-api03-AbCdEf-123 invalid", "x-api-key *** invalid"),
    ("OpenRouter", "sk-or-v1-0123456789abcdef", "***"),
    ("Groq", "Invalid API Key gsk_0123456789ABCDEFabcdef", "Invalid API Key ***"),
    ("Google", "see https://x.dev/?key=AIzaSyD-test_0123456789abcdefghijklmnop now", "see https://x.dev/?key=*** now"),
    ("words that merely contain sk", "task-runner risk_free desk-top", "task-runner risk_free desk-top"),
    ("too short to be a key", "sk-ab and AIza123", "sk-ab and AIza123"),
]


@pytest.mark.parametrize(("text", "expected"), [row[1:] for row in REDACTION], ids=[row[0] for row in REDACTION])
def test_redact(text: str, expected: str) -> None:
    assert redact(text, KEY) == expected


def test_a_short_placeholder_key_is_not_replaced_everywhere() -> None:
    assert redact("not found: x", "x") == "not found: x"


def test_redacted_reaches_every_string_of_a_body() -> None:
    body = {"error": {"message": f"bad {KEY}", "details": [{"url": f"?key={KEY}"}, 3, None]}, "ok": True}
    assert redacted(body, KEY) == {
        "error": {"message": "bad ***", "details": [{"url": "?key=***"}, 3, None]},
        "ok": True,
    }


def test_the_key_is_out_of_the_error_message_body_and_repr() -> None:
    error = fail(f"bad key {KEY}", 401, body={"error": {"message": f"bad key {KEY}"}}, secret=KEY)
    assert KEY not in str(error) + repr(error) + repr(error.body)
    assert "bad key ***" in str(error)


@pytest.mark.parametrize("text", ["sk-" * 200_000, "AIza" * 200_000, "sk-a" + "*" * 1_000_000])
def test_redaction_is_linear_on_hostile_text(text: str) -> None:
    start = time.perf_counter()
    redact(text, KEY)
    assert time.perf_counter() - start < NO_BLOWUP_SECONDS
