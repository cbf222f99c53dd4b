"""The provider-neutral shapes that flow between the client and the adapters.

`Message` is llmrelay's own message (users may pass plain dicts instead, see `_messages`).
`Request` is what the client asks an adapter to send; `RawResponse` is what comes back, before
normalization. Adapters translate these to and from their SDK's types and nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

from ._content import MediaPart, Part, media_of
from ._envelope import Artifact, Mode, ToolCall, Usage
from ._text import clean
from ._tools import Tool

Role = Literal["system", "user", "assistant", "tool"]
_NO_USAGE = Usage()  # Immutable: one shared default.


@dataclass(frozen=True)
class Message:
    """One turn of a conversation, in llmrelay's provider-neutral form."""

    role: Role
    """Who speaks: system, user, assistant, or a tool result."""
    content: str = ""
    """The text of the turn."""
    tool_calls: tuple[ToolCall, ...] = ()
    """For an assistant turn: the calls it made."""
    tool_call_id: str | None = None
    """For a tool result: the id of the call it answers."""
    name: str | None = None
    """For a tool result: the tool's name (Gemini matches results to calls by name)."""
    artifacts: tuple[Artifact, ...] = ()
    """For an assistant turn that was a `Completion`: what its provider needs back (see `Artifact`)."""
    parts: tuple[Part, ...] = ()
    """When the turn has images or documents: all its parts in order (`content` is their text)."""
    is_error: bool = False
    """For a tool result: the tool failed (sent flagged where the provider has a flag, Anthropic's `is_error`)."""

    @property
    def media(self) -> list[MediaPart]:
        """The turn's images and documents."""
        return media_of(self.parts)

    def __post_init__(self) -> None:
        """Text no encoder accepts (a lone surrogate) becomes U+FFFD here, where a message enters (`_text`)."""
        object.__setattr__(self, "content", clean(self.content, f"a {self.role} message"))
        if self.tool_calls:
            object.__setattr__(self, "tool_calls", tuple(map(_clean_arguments, self.tool_calls)))


_Call = TypeVar("_Call", ToolCall, "NativeCall")


def _clean_arguments(call: _Call) -> _Call:
    """The call, its arguments' lone surrogates replaced (`_text`); the same object when there were none."""
    arguments = clean(call.arguments, f"the arguments of a {call.name} call")
    return call if arguments is call.arguments else replace(call, arguments=arguments)


@dataclass(frozen=True)
class NamedTool:
    """`tool_choice` naming one tool the model must call."""

    name: str


ToolChoice = Literal["auto", "none", "required"] | NamedTool
"""What the model may do with the tools: the same meaning on every provider."""


@dataclass(frozen=True)
class Request:
    """Everything an adapter needs to make one call."""

    model: str
    """The provider's model name (without the "provider:" prefix)."""
    messages: tuple[Message, ...]
    """The conversation, system turns included."""
    mode: Mode
    """The output mode to ask for."""
    tools: tuple[Tool, ...] = ()
    """Tools the model may call (empty: none)."""
    tool_choice: ToolChoice | None = None
    """None leaves the provider's default (auto when there are tools)."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """Generation parameters (temperature, max_tokens, stop, ...) passed through."""
    response_schema: Mapping[str, Any] | None = None
    """For json_schema mode: the JSON schema the answer must follow."""
    schema_name: str = "envelope"
    """For json_schema mode: the schema's name (OpenAI requires one)."""
    cache: bool = False
    """Mark prompt-cache breakpoints where the provider needs them (Anthropic); others cache by themselves."""


@dataclass(frozen=True)
class NativeCall:
    """A tool call from the provider's tool API, arguments still as the provider sent them."""

    name: str
    arguments: str | Mapping[str, Any] | None
    """A JSON string (OpenAI-style) or an already-decoded object (Anthropic, Gemini)."""
    id: str | None = None
    signature: str | None = None
    """Opaque data that must come back with the call (Gemini's thoughtSignature, base64)."""


@dataclass(frozen=True)
class RawResponse:
    """One provider answer, before normalization."""

    provider: str
    model: str
    """The model that answered, as the provider reported it."""
    text: str = ""
    """All text content, concatenated (reasoning/thinking excluded)."""
    native_calls: tuple[NativeCall, ...] = ()
    """Calls from the provider's tool API, in order."""
    finish_reason: str | None = None
    """The provider's own finish/stop reason."""
    usage: Usage = _NO_USAGE
    request_id: str | None = None
    body: Any = None
    """The decoded response (for debugging; never parsed again downstream)."""
    artifacts: tuple[Artifact, ...] = ()
    """What the provider needs back with this answer on the next turn (see `Artifact`)."""
    refusal: str | None = None
    """The model's refusal, when the provider sends it apart from the content (OpenAI's `refusal`)."""
    reasoning: str = ""
    """The reasoning the provider's API returned apart from the text (thinking blocks, thought parts)."""

    def __post_init__(self) -> None:
        """The answer's text and calls, lone surrogates replaced (`_text`): they go back in the next request."""
        object.__setattr__(self, "text", clean(self.text, f"{self.provider}'s answer"))
        if self.native_calls:
            object.__setattr__(self, "native_calls", tuple(map(_clean_arguments, self.native_calls)))
