"""`classify_rejection()`: which request feature a provider error says the model does not support.

Real messages this reads (and the tests replay), by provider:

- OpenAI: `Invalid parameter: 'response_format' of type 'json_schema' is not supported with this
  model.`; `Unsupported parameter: 'parallel_tool_calls' is not supported with this model.`;
  `tools is not supported in this model. For a list of supported models, refer to ...` (sent as a
  404 as well as a 400).
- Groq: ``This model does not support response format `json_schema`. See supported models at ...``
- Gemini: `Function calling is not enabled for models/gemma-3-27b-it`; `JSON mode is not enabled
  for models/gemma-3-27b-it`.
- OpenRouter: `No endpoints found that support tool use. To learn more about provider routing,
  visit: https://openrouter.ai/docs/provider-routing` (a 404).
- Local servers: Ollama `registry.ollama.ai/library/gemma3:4b does not support tools`; vLLM
  `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`;
  llama.cpp `tools param requires --jinja flag` (a 500).

Only a message that both says something is unsupported and names exactly one feature counts.
A 400 for anything else (a bad schema, a missing word "json", a tool call that failed validation,
an unsupported `temperature`) is about this request, not about what the model can do, so it must
not switch a mode off for a day.
"""

from __future__ import annotations

from ._capabilities import Feature

_STATUSES = frozenset({400, 404, 422, 500})
"""400 and 422: rejected request; 404: OpenAI and OpenRouter say "not supported" with it; 500:
llama.cpp reports a missing `--jinja` as a server error."""

_UNSUPPORTED = (
    "not supported",
    "unsupported",
    "does not support",
    "doesn't support",
    "not enabled",
    "unavailable",
    "extra inputs are not permitted",  # Anthropic (pydantic) for a field the model lacks
    "extra fields not permitted",
    "unknown field",
    "unrecognized request argument",
    "no endpoints found that support",  # OpenRouter
    "requires --",  # a server started without the flag: vLLM, llama.cpp
)
"""Phrases that say the provider cannot do something (the message is lower-cased first)."""

_ABOUT_THIS_REQUEST = (
    "invalid schema",  # OpenAI: the schema given breaks a strict-mode rule
    "must contain the word",  # OpenAI: JSON mode needs "json" in the messages
    "tool call validation failed",  # Groq tool_use_failed: the model's call did not fit the schema
    "failed to call a function",  # Groq tool_use_failed, older wording
    "failed_generation",
    "tools[",  # a path into one tool's definition: that tool is wrong, not tools as such
    "function_declarations[",  # the same, in Gemini's words
)
"""Phrases of errors that name a feature but are about this request, not the model."""

_NAMES: tuple[tuple[Feature, tuple[str, ...]], ...] = (
    ("parallel_tool_calls", ("parallel_tool_calls", "parallel tool")),
    ("json_object", ("json_object", "json mode", "json object")),
    (
        "json_schema",
        (
            "json_schema",
            "response_format",
            "response format",
            "output_format",  # Anthropic structured outputs (beta field)
            "output_config.format",  # Anthropic structured outputs
            "response_schema",  # Gemini
            "response schema",
            "responseschema",
            "controlled generation",  # Vertex AI's name for response_schema
            "structured output",
        ),
    ),
    (
        "native_tools",
        (
            "tools",
            "tool_choice",
            "tool choice",
            "tool use",
            "tool calling",
            "tool call",
            "function calling",
            "function call",
            "function-call",
            "functions",
            "--jinja",
        ),
    ),
)
"""Words naming each feature. `parallel_tool_calls` shares no word with `native_tools`."""


def classify_rejection(status: int, message: str) -> Feature | None:
    """The feature a provider error says this model does not support, or None.

    None when the status is not one a capability rejection comes with, when the message does not
    say something is unsupported, when it is about this request rather than the model, or when it
    names no feature or several (ambiguous: e.g. "JSON mode cannot be combined with tools").

    >>> classify_rejection(400, "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.")
    'parallel_tool_calls'
    """
    text = message.lower()
    if status not in _STATUSES or not any(p in text for p in _UNSUPPORTED):
        return None
    if any(p in text for p in _ABOUT_THIS_REQUEST):
        return None
    named = {feature for feature, words in _NAMES if any(w in text for w in words)}
    if "json_object" in named:
        # "'response_format' of type 'json_object'": the type is what is refused, not the field.
        named.discard("json_schema")
    return named.pop() if len(named) == 1 else None
