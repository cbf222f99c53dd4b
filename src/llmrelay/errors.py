"""Every exception llmrelay raises, in one tree.

```
LLMRelayError
├── ConfigError                  fixable in code or config
│   ├── UnknownProviderError     "provider:model" names a provider llmrelay does not know
│   └── MissingDependencyError   a package is not installed; says what for and which extra to install
├── ProviderError                the provider answered with an error, or could not be reached
│   ├── TransientError           worth retrying: rate limits, overload, timeouts, resets, 5xx
│   │   ├── RateLimitError           429
│   │   ├── OverloadedError          529 (Anthropic), 503
│   │   ├── ProviderTimeoutError     no answer in time (also 408; an attempt past `timeout=`)
│   │   │   └── DeadlineExceeded     the request's `deadline=` passed: not retried, no fallback
│   │   ├── ProviderConnectionError  could not connect, or the connection dropped
│   │   └── ServerError              other 5xx (and 409, which providers ask to retry)
│   ├── AuthenticationError      401: a missing or wrong API key
│   ├── PermissionDeniedError    403
│   ├── NotFoundError            404: usually an unknown model
│   ├── BadRequestError          400 / 422: the request itself is wrong
│   │   └── UnsupportedFeatureError  the model rejects a mode (tools, response_format, ...)
│   ├── ResponseTooLarge         a streamed answer grew past `max_stream_bytes`
│   └── StreamInterrupted        a stream failed after events were shown; carries what was received
├── NormalizationError           nothing usable could be read from the answer
│   ├── OutputValidationError    no valid `output=` object, its repairs run out
│   │   └── RefusalError         the model refused to give the `output=` object (no repair asked)
│   └── MissingToolCallError     tool_choice required a call, and none came in any request
└── CassetteError                a recorded cassette file cannot be read, or cannot answer a request
    ├── MissingCassetteError     replay only (record_mode "none") and the file does not exist
    └── UnmatchedRequestError    a request the cassette has no recorded interaction for
AllAttemptsFailed (an ExceptionGroup, and an LLMRelayError): every step of the fallback plan
failed; holds each failure and the trace of attempts
```

Adapters translate the SDKs' exceptions at the boundary (the original is kept as `__cause__`),
so users never catch `openai.RateLimitError`. No message ever contains an API key.
The normalizer itself never raises on text: what it cannot read is reported on the result.
"""

from __future__ import annotations

import sys

# `typing` and `collections` are not loaded by `import llmrelay`: annotations only (mypy reads
# a module-level TYPE_CHECKING as typing's).
TYPE_CHECKING = False
if sys.version_info >= (3, 11):
    from builtins import ExceptionGroup
else:  # pragma: no cover - Python 3.10
    from exceptiongroup import ExceptionGroup

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from ._envelope import Attempt, Completion
    from ._tool_loop.loop import RunResult


class LLMRelayError(Exception):
    """Base class of every llmrelay error."""

    partial_run: RunResult | None = None
    """Set when the error stopped `client.run` after tools had run: the transcript and steps so
    far. Continue with `client.run(error.partial_run.messages, ...)`: no tool runs twice."""


class ConfigError(LLMRelayError):
    """Something in the code or configuration must change: a bad tool definition, say."""


class UnknownProviderError(ConfigError):
    """The provider part of "provider:model" is not one llmrelay knows."""


class MissingDependencyError(ConfigError):
    """A package llmrelay needs for what was asked is not installed: says what for, and the command."""

    def __init__(self, package: str, extra: str, needed_for: str = "for this provider") -> None:
        self.package = package
        self.extra = extra
        self.needed_for = needed_for
        """What the package is needed for: a provider, `llmrelay.testing`, the demo."""
        super().__init__(f'the {package!r} package is needed {needed_for}: pip install "llmrelay[{extra}]"')


class ProviderError(LLMRelayError):
    """The provider answered with an error, or could not be reached.

    Attributes carry what a caller needs to decide what to do: the HTTP status (None when no
    answer came), the provider's request id, the error body, the response headers and, for
    rate limits, how long the provider asked us to wait.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        model: str | None = None,
        status: int | None = None,
        request_id: str | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        retry_after: float | None = None,
        code: str | None = None,
    ) -> None:
        self.message = message
        self.provider = provider
        self.model = model
        self.status = status
        self.request_id = request_id
        self.body = body
        self.headers = dict(headers or {})
        self.retry_after = retry_after
        self.code = code
        super().__init__(self._describe())

    def _describe(self) -> str:
        where = f"{self.provider}:{self.model}" if self.model else self.provider
        details = [
            f"status {self.status}" if self.status is not None else None,
            f"code {self.code}" if self.code else None,
            f"request id {self.request_id}" if self.request_id else None,
        ]
        extra = ", ".join(d for d in details if d)
        return f"{where}: {self.message}" + (f" ({extra})" if extra else "")


class TransientError(ProviderError):
    """A failure that may not happen again: worth retrying after a pause."""

    retryable: bool = True
    """Whether `RetryPolicy` tries again. False for a connection refused by this machine
    (`base_url` on localhost, nothing listening on the port): raised at once, not after ~4 s of
    retries that find the same; a fallback model is still tried."""


class RateLimitError(TransientError):
    """429: too many requests or tokens; `retry_after` says how long to wait, when known."""


class OverloadedError(TransientError):
    """The provider is overloaded (Anthropic's 529, or 503)."""


class ProviderTimeoutError(TransientError):
    """No answer arrived in time (a client timeout, or 408).

    Also raised when one attempt took longer than `timeout=` from connecting to the last byte
    (a server dripping its answer included); retried like any timeout.
    """


class DeadlineExceeded(ProviderTimeoutError):
    """The request's `deadline=` passed: nothing more is tried (no retry, no fallback).

    One `complete()`, `stream()` or `run()` step, with its retries, repairs and fallbacks, took
    longer than allowed.
    """


class ProviderConnectionError(TransientError):
    """The connection could not be made, or dropped before the answer was complete."""


class ServerError(TransientError):
    """A 5xx from the provider (or 409, which providers document as retryable)."""


class AuthenticationError(ProviderError):
    """401: the API key is missing, wrong or revoked."""


class PermissionDeniedError(ProviderError):
    """403: the key is valid but may not use this model or feature."""


class NotFoundError(ProviderError):
    """404: usually a model name the provider does not know."""


class BadRequestError(ProviderError):
    """400 or 422: the provider refused the request as it was written."""


class ContentFilterError(BadRequestError):
    """The provider's content filter refused the prompt (Azure OpenAI's `content_filter` 400).

    `body` holds the filter's verdicts (Azure: `error.innererror.content_filter_result`). An answer
    the filter cut is not an error: it ends with `finish_reason == "content_filter"`.
    """


class UnsupportedFeatureError(BadRequestError):
    """The model refused an output mode or option it does not support (tools, response_format…).

    `feature` names what was refused; the capability learner records it so the mode is not
    chosen again for this model.
    """

    def __init__(self, message: str, *, feature: str, **kwargs: Any) -> None:
        self.feature = feature
        super().__init__(message, **kwargs)


class ResponseTooLarge(ProviderError):
    """A streamed answer grew past `max_stream_bytes`: reading stopped there, the connection closed.

    `limit` is the cap and `received` the bytes read. Once events were shown, the stream ends with
    a `StreamInterrupted` whose `partial` holds the answer as far as it was read (this error is its
    `__cause__`). Not retried: the same request would bring the same answer.
    """

    def __init__(self, *, provider: str, model: str | None, limit: int, received: int) -> None:
        self.limit = limit
        self.received = received
        super().__init__(
            f"the streamed answer passed max_stream_bytes ({limit} bytes; {received} read), reading stopped",
            provider=provider,
            model=model,
        )


class StreamInterrupted(ProviderError):
    """A stream failed after some of the answer was shown: nothing is retried, nothing received is lost.

    `partial` is the answer as far as it came: its text (`content`, `raw`), the tool calls that
    were complete (accepted or rejected), the unfinished ones rejected as `truncated`, and the
    trace. The failure itself is `__cause__`; its status, code and request id are copied here.
    """

    partial: Completion

    @classmethod
    def after(cls, error: ProviderError, partial: Completion) -> StreamInterrupted:
        """The interruption of a stream by `error`, with what was received."""
        interrupted = cls(
            f"the stream was interrupted: {error.message}",
            provider=error.provider,
            model=error.model,
            status=error.status,
            request_id=error.request_id,
            body=error.body,
            headers=error.headers,
            retry_after=error.retry_after,
            code=error.code,
        )
        interrupted.partial = partial
        return interrupted


class NormalizationError(LLMRelayError):
    """Nothing usable could be read from the model's answer."""


class OutputValidationError(NormalizationError):
    """The answer held no valid `output=` object, and the repairs ran out.

    Nothing is lost: `errors` says what was wrong (pydantic's errors, one per line), `raw` is the
    model's last text, `attempts` the trace, and `completion` the last answer as it was read.
    """

    def __init__(
        self,
        message: str,
        *,
        errors: Sequence[str],
        raw: str,
        attempts: Sequence[Attempt] = (),
        completion: Completion[Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.errors = list(errors)
        self.raw = raw
        self.attempts = list(attempts)
        self.completion = completion


class RefusalError(OutputValidationError):
    """The model refused: no `output=` object came, and none was asked for again.

    A refusal is an answer (OpenAI's `refusal`, Anthropic's `stop_reason: "refusal"`, a Gemini
    safety stop), so it is never sent for repair. `refusal` is the model's text (or the stop
    reason in words); `completion.refusal` is the same.
    """

    def __init__(self, message: str, *, refusal: str, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.refusal = refusal


class MissingToolCallError(NormalizationError):
    """`tool_choice` required a call ("required", or a tool's name) and the model made none.

    Raised once the repairs (or `max_requests`) ran out. `completion` is the last answer, with
    the whole trace in its `attempts`.
    """

    def __init__(self, message: str, *, completion: Completion[Any]) -> None:
        super().__init__(message)
        self.completion = completion


class CassetteError(LLMRelayError):
    """A cassette file could not be read: not YAML, not a cassette, or a part missing or wrong."""


class MissingCassetteError(CassetteError):
    """The cassette file does not exist and the record mode forbids recording it; says how to record."""


class UnmatchedRequestError(CassetteError):
    """A request in replay that no recorded interaction answers; never sent to the network.

    The message shows the request (secrets redacted) and the closest recorded interactions.
    """

    def __init__(self, message: str, *, request: str) -> None:
        super().__init__(message)
        self.request = request
        """The request, as `METHOD URL` with secrets redacted."""


class AllAttemptsFailed(ExceptionGroup, LLMRelayError):
    """Every step of the plan failed: each failure is in `exceptions`, the whole trace in `attempts`.

    An `ExceptionGroup`, so `except* RateLimitError` picks out the failures of one kind.
    """

    attempts: list[Attempt]

    def __new__(
        cls, message: str, exceptions: Sequence[Exception], attempts: Sequence[Attempt] = ()
    ) -> AllAttemptsFailed:
        """Make the group, keeping the trace on it."""
        self = super().__new__(cls, message, exceptions)
        self.attempts = list(attempts)
        return self

    def __init__(self, message: str, exceptions: Sequence[Exception], attempts: Sequence[Attempt] = ()) -> None:
        super().__init__(message, exceptions)

    def derive(self, excs: Sequence[Exception]) -> AllAttemptsFailed:  # type: ignore[override]
        """Keep the trace on the groups `except*` splits off."""
        return AllAttemptsFailed(self.message, excs, self.attempts)
