"""`Capabilities`: what one model can do, each fact with where it came from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Literal

from .._envelope import MODES as MODES  # Re-exported: the config checks read the modes here.
from .._envelope import Mode

Feature = Literal["native_tools", "json_schema", "json_object", "parallel_tool_calls"]
"""A request feature a provider can reject for a model, and the learner can switch off."""


@dataclass(frozen=True, kw_only=True)
class Capabilities:
    """What one model on one provider can do.

    Built by `lookup()` from the shipped database, config overrides and the learner; `sources`
    says which of them set each fact. Two values with the same facts are equal whatever their
    sources.
    """

    native_tools: bool = False
    """The provider's tool-calling API works for this model."""
    parallel_tool_calls: bool = False
    """The model may return several tool calls in one answer, and the provider accepts the
    `parallel_tool_calls` request field (OpenAI-style APIs) for it."""
    json_schema: bool = False
    """Schema-constrained output works: OpenAI `response_format` `json_schema`, Gemini
    `response_schema`, Anthropic structured outputs."""
    json_object: bool = False
    """JSON mode works: `response_format` `json_object`, Gemini `response_mime_type`."""
    emits_xml_tool_calls: bool = False
    """Hint: asked for calls in text, the model tends to write XML-like markup (`<tool_call>`,
    `<function_calls><invoke>`) rather than the JSON it was asked for."""
    emits_special_tokens: bool = False
    """Hint: tool calls may arrive as raw chat-template tokens in the text (`<|python_tag|>`,
    `<|tool_call_begin|>`, `[TOOL_CALLS]`), typically from a server that does not parse them."""
    reasoning: bool | None = None
    """The model reasons and takes `reasoning=` (an effort or a budget). None: not known, sent anyway."""
    vision: bool | None = None
    """Images are accepted in the input. False: a request with an image is refused before sending
    (or moves to a fallback model that has it); None: not known, sent anyway."""
    pdf_input: bool | None = None
    """PDF documents are accepted in the input; as `vision`."""
    max_image_bytes: int | None = None
    """The largest inline (base64) image the provider takes, decoded; larger ones are refused before sending."""
    max_pdf_bytes: int | None = None
    """The largest inline PDF the provider takes, decoded; as `max_image_bytes`."""
    context_window: int | None = None
    """Input plus output tokens the model accepts, when known."""
    sources: Mapping[str, str] = field(default_factory=dict, compare=False)
    """Where each fact came from, by field name: a database entry, a config override, or the
    learner (`"learned: <reason>"`)."""

    def __post_init__(self) -> None:
        # Frozen means frozen: a caller's dict must not change the sources afterwards.
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))


FACTS: tuple[str, ...] = tuple(f.name for f in fields(Capabilities) if f.name != "sources")
"""The fact fields, the only keys the database and config overrides may set."""
SIZE_FACTS: tuple[str, ...] = ("context_window", "max_image_bytes", "max_pdf_bytes")
"""The facts that are sizes (positive integers); every other fact is true or false."""


def modes(caps: Capabilities) -> tuple[Mode, ...]:
    """The output modes this model supports, best first; `text` is always last and always there.

    >>> modes(Capabilities(native_tools=True, json_object=True))
    ('native_tools', 'json_object', 'text')
    """
    supported = {"native_tools": caps.native_tools, "json_schema": caps.json_schema, "json_object": caps.json_object}
    return tuple(mode for mode in MODES if supported.get(mode, True))
