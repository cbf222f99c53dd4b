"""The canonical answer: `Completion`, `ToolCall` and `RejectedCall`.

Every path through llmrelay (the normalizer on its own, and later `Client.complete`) ends in one
`Completion`. Fields are parsed once, at the edge: `ToolCall.arguments` is always a `dict`.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, get_args

from ._defaults import DEFAULT_MAX_TOOL_CALLS as DEFAULT_MAX_TOOL_CALLS

RejectionKind = Literal[
    "unknown_tool", "invalid_arguments", "malformed", "truncated", "embedded", "not_allowed", "in_reasoning"
]
"""Why a call that was found was not accepted.

- `unknown_tool`: the name is not one of the tools given.
- `invalid_arguments`: the arguments fail the tool's JSON schema (after lossless coercion).
- `malformed`: the call's markup or JSON could not be read.
- `truncated`: the call was cut off before its end (the output stopped mid-call).
- `not_allowed`: the request allowed no call (`tool_choice="none"`), and the model made one anyway.
- `embedded`: strict mode, and the call was only a tool-shaped JSON object inside prose.
- `in_reasoning`: the call was written inside the model's reasoning (`<think>…</think>`, harmony's
  `analysis` channel…), which is thinking, not an answer: never run, shown so it is not lost.
"""


@dataclass(frozen=True)
class ToolCall:
    """One call the model asked for, with its arguments decoded."""

    name: str
    """The tool's name, as the model wrote it."""
    arguments: dict[str, Any]
    """The arguments, always a dict (a JSON-encoded string is decoded; none means `{}`)."""
    id: str | None = None
    """The provider's or model's id for the call, when it gave one."""
    signature: str | None = field(default=None, compare=False, repr=False)
    """Opaque data the provider needs back with this call on the next turn (Gemini's
    `thoughtSignature`, base64). Carried along when the call is sent back; never interpreted."""


@dataclass(frozen=True)
class RejectedCall:
    """A call that was found in the answer but not accepted, and why."""

    name: str | None
    """The tool name, when one could be read."""
    arguments: Any
    """The arguments as far as they could be read (a dict, or the raw text when unreadable)."""
    reason: str
    """A precise, human-readable reason, written so it can be shown to the model in a repair."""
    kind: RejectionKind
    """The category of the reason."""
    id: str | None = None
    """The call's id, when it had one."""
    errors: tuple[str, ...] = ()
    """For `invalid_arguments`: one entry per schema violation, each naming the argument."""


@dataclass(frozen=True)
class ModelError:
    """An error the model reported on purpose (seed 003's `{"type": "error"}` contract)."""

    code: str | None
    """The model's error code, e.g. `permission_denied`."""
    message: str
    """What the model said went wrong."""


FinishReason = Literal["stop", "tool_calls", "length", "content_filter", "other"]
"""Why the model stopped, the same on every provider (the provider's own value is kept too)."""
Mode = Literal["native_tools", "json_schema", "json_object", "text"]
"""How the model is asked to answer, best first.

- `native_tools`: the provider's tool-calling API.
- `json_schema`: strict structured output of the llmrelay envelope.
- `json_object`: JSON mode (valid JSON, no schema); the envelope is described in the prompt.
- `text`: instructions in the prompt, and the normalizer reads whatever comes back.
"""
MODES: tuple[Mode, ...] = get_args(Mode)
"""Every mode, best first: the one list of them (`Mode` is its type)."""


@dataclass(frozen=True)
class Usage:
    """Tokens used, normalized across providers."""

    input_tokens: int = 0
    """Prompt tokens."""
    output_tokens: int = 0
    """Completion tokens (reasoning tokens included where the provider counts them there)."""
    total_tokens: int = 0
    """Input plus output, as the provider reported it or summed."""
    cached_input_tokens: int = 0
    """Of the input tokens, those read from the provider's prompt cache (where it says)."""
    reasoning_tokens: int = 0
    """Of the output tokens, those spent reasoning (where the provider says)."""
    cache_write_input_tokens: int = 0
    """Of the input tokens, those written to the prompt cache (Anthropic's `cache_creation_input_tokens`)."""

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.total_tokens + other.total_tokens,
            self.cached_input_tokens + other.cached_input_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
            self.cache_write_input_tokens + other.cache_write_input_tokens,
        )


@dataclass(frozen=True)
class Artifact:
    """Opaque data one provider needs back with this answer on the next turn, and only that provider.

    OpenAI's Responses API keeps its `reasoning` items here (with `encrypted_content` when
    `store=False`), beside the output items they precede. An adapter sends back the artifacts
    whose `provider` is its own and ignores every other, so nothing crosses to another provider.
    """

    provider: str
    """The provider id that made it, and the only one it is sent back to."""
    kind: str
    """What it is, in that provider's terms (e.g. `"response"`)."""
    data: Any
    """The provider's data, JSON-like, never interpreted outside its adapter."""


_NO_USAGE = Usage()  # Immutable, so one shared default (cheaper than a factory on the hot path).


Outcome = Literal["ok", "retry", "error", "repair", "exhausted", "truncated", "degraded", "skipped"]
"""What happened to one attempt (see `Attempt.outcome`)."""


@dataclass(frozen=True)
class Attempt:
    """One step of a request: a call to a provider, and how it ended."""

    provider: str
    """The provider called."""
    model: str
    """The model asked."""
    mode: Mode
    """The output mode asked for."""
    outcome: Outcome
    """What happened: `ok` (the answer was accepted), `retry` (a transient failure, tried again),
    `error` (the call failed; the plan falls back or raises), `repair` (the answer had problems and
    the model was asked to fix them), `exhausted` (problems remained with no repairs left),
    `truncated` (cut off at the token limit), `degraded` (a text-only answer after every step failed),
    `skipped` (not called: the model lacks what the request needs, an image input say)."""
    reason: str | None = None
    """Why it did not simply succeed (the error, or the rejections), in words."""
    duration: float = 0.0
    """Seconds spent on this step."""
    usage: Usage = _NO_USAGE
    """Tokens this step used."""
    host: str | None = None
    """The host the request went to (after `base_url` and the SDK's `*_BASE_URL` variable); None when
    the adapter does not say (a test's `FakeAdapter`, an adapter of your own without `host`)."""


if TYPE_CHECKING:  # The default (`Completion` is `Completion[None]`) is for type checkers only:
    # typing_extensions costs ~4 ms at import, and nothing at run time reads a TypeVar's default.
    from typing_extensions import TypeVar

    OutputT = TypeVar("OutputT", default=None)
else:
    OutputT = typing.TypeVar("OutputT")
"""The type of `Completion.output`: the `output=` model, None when none was asked for."""


@dataclass(frozen=True)
class Completion(Generic[OutputT]):
    """The canonical answer: text for the user, tool calls, and whether the model needs more work."""

    content: str
    """Text for the user with tool-call markup removed; `""` when there is none."""
    tool_calls: list[ToolCall] = field(default_factory=list)
    """Accepted calls, in the order the model wrote them."""
    needs_more_work: bool | None = None
    """What the answer stated; else True when there are tool calls; else None (unknown)."""
    rejected: list[RejectedCall] = field(default_factory=list)
    """Calls found but not accepted, each with its reason. Never silently dropped."""
    raw: str = ""
    """The model's text exactly as it was given to the normalizer."""
    format: str | None = None
    """Name of the parsing strategy that read the answer; None when it was plain text."""
    error: ModelError | None = None
    """An error the model reported deliberately, if any (not a tool call)."""
    warnings: list[str] = field(default_factory=list)
    """Notes about how the answer was read, e.g. that the input-size limit was exceeded."""
    mode: Mode | None = None
    """The output mode that produced the answer (None for `parse_response` on its own)."""
    provider: str | None = None
    """The provider that answered."""
    model: str | None = None
    """The model that answered, as the provider reported it."""
    finish_reason: FinishReason | None = None
    """Why the model stopped, normalized: stop, tool_calls, length, content_filter or other."""
    provider_finish_reason: str | None = None
    """The provider's own finish reason, unchanged."""
    refusal: str | None = None
    """Why the model declined to answer, when it did: OpenAI's `refusal` text, or the text (or the
    stop reason) of an answer Anthropic stopped with `refusal` or Gemini with a safety reason.
    `finish_reason` is then `content_filter`. A refusal is an answer: it is never sent for repair."""
    usage: Usage = _NO_USAGE
    """Tokens used, summed over every attempt of the request."""
    attempts: list[Attempt] = field(default_factory=list)
    """The trace: every call made for this request, with its outcome and reason."""
    degraded: bool = False
    """True when every tool-capable step failed and this is a text-only answer, without tools."""
    output: OutputT = None  # type: ignore[assignment]
    """The `output=` model's instance, validated; None when no output was asked for (or the model
    called tools first, see `needs_more_work`)."""
    reasoning: str | None = None
    """The model's reasoning (chain of thought), kept apart from `content`; None when there was none.

    From the text (`<think>…</think>`, `<seed:think>`, harmony's `analysis` channel, Command's
    thinking block) or from the provider's API. Never shown as content, never read for calls."""
    artifacts: tuple[Artifact, ...] = ()
    """What the provider needs back when this answer is passed in `messages` on the next turn
    (OpenAI Responses reasoning items); bound to that provider, left out for any other."""


ANSWER_FIELDS = 8
"""`Completion`'s first fields, those `parse_response` reads from the answer; the client sets the rest."""


def new_completion(
    content: str,
    tool_calls: list[ToolCall],
    needs_more_work: bool | None,
    rejected: list[RejectedCall],
    raw: str,
    format: str | None,
    error: ModelError | None,
    warnings: list[str],
) -> Completion:
    """A `Completion` of the answer's fields, made without the frozen dataclass's `__init__`.

    That `__init__` sets each field through `object.__setattr__`; on a short answer it is most of
    what `parse_response` costs, and the normalizer's hot path builds its results here instead.
    The fields after these keep their defaults without being stored on the instance (a plain
    default is the class attribute `dataclass` sets), except `attempts`, a default factory: each
    answer gets its own list. The result compares, copies, pickles and `replace`s like one from
    `__init__`; tests check both, and that `attempts` is the only later factory.
    """
    completion: Completion = object.__new__(Completion)
    stored = completion.__dict__  # One store per field: what `dataclasses` would generate, written out.
    stored["content"] = content
    stored["tool_calls"] = tool_calls
    stored["needs_more_work"] = needs_more_work
    stored["rejected"] = rejected
    stored["raw"] = raw
    stored["format"] = format
    stored["error"] = error
    stored["warnings"] = warnings
    stored["attempts"] = []
    return completion


def new_tool_call(name: str, arguments: dict[str, Any], id: str | None = None) -> ToolCall:
    """A `ToolCall`, made without the frozen dataclass's `__init__` (see `new_completion`)."""
    call: ToolCall = object.__new__(ToolCall)
    stored = call.__dict__
    stored["name"] = name
    stored["arguments"] = arguments
    stored["id"] = id
    stored["signature"] = None
    return call


def with_trace(completion: Completion[Any], attempts: list[Attempt], usage: Usage) -> Completion[Any]:
    """`replace(completion, attempts=attempts, usage=usage)`, without the `__init__` (see `new_completion`).

    Every answer of `complete()` gets its trace here: `replace` re-checks and re-sets all the
    fields, ~10x the cost of this copy of the instance's dict.
    """
    copied: Completion[Any] = object.__new__(type(completion))
    stored = copied.__dict__
    stored.update(completion.__dict__)
    stored["attempts"] = attempts
    stored["usage"] = usage
    return copied
