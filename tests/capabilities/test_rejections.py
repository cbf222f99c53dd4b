"""classify_rejection(): real provider error messages, and the feature each one rules out.

Every message below is one a provider really sent: from the conformance cassettes
(../shared/conformance/cassettes/<file>), provider docs, or reports quoting the API's answer.
"""

from __future__ import annotations

import pytest

from llmrelay.capabilities import classify_rejection
from tests.conftest import NO_BLOWUP_SECONDS

OPENROUTER_NO_TOOLS = (
    "No endpoints found that support tool use. To learn more about provider routing, "
    "visit: https://openrouter.ai/docs/provider-routing"
)
OPENAI_NO_TOOLS = (
    "tools is not supported in this model. For a list of supported models, refer to "
    "https://platform.openai.com/docs/guides/function-calling#models-supporting-function-calling."
)

ROWS = [
    # json_schema
    (
        400,
        "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
        "json_schema",
    ),
    (
        400,
        "This model does not support response format `json_schema`. "
        "See supported models at https://console.groq.com/docs/structured-outputs#supported-models",
        "json_schema",
    ),
    (400, "This response_format type is unavailable now", "json_schema"),  # DeepSeek chat completions
    # json_object: the type is refused, although the field is named too
    (
        400,
        "Invalid parameter: 'response_format' of type 'json_object' is not supported with this model.",
        "json_object",
    ),
    (400, "Invalid parameter: 'text.format' of type 'json_object' is not supported with this model.", "json_object"),
    (400, "JSON mode is not enabled for models/gemma-3-27b-it", "json_object"),  # Gemini API
    (400, "Json mode is not enabled for models/x", "json_object"),
    # native_tools
    (400, OPENAI_NO_TOOLS, "native_tools"),  # o1-mini, o1-preview
    (404, OPENAI_NO_TOOLS, "native_tools"),  # OpenAI also sends it as a 404
    (404, "functions is not supported in this model. For a list of supported models, refer to ...", "native_tools"),
    (404, OPENROUTER_NO_TOOLS, "native_tools"),
    (400, "registry.ollama.ai/library/gemma3:4b does not support tools", "native_tools"),  # Ollama
    (400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', "native_tools"),
    (500, "tools param requires --jinja flag", "native_tools"),  # llama.cpp server, sent as a 500
    (400, "Unsupported param: tool_choice", "native_tools"),  # llama.cpp server without --jinja
    (400, "Function calling is not enabled for models/gemma-3-27b-it", "native_tools"),  # Gemini API
    (400, "Function calling is not enabled for this model", "native_tools"),  # Mistral, code 3051
    (400, "deepseek-reasoner does not support Function Calling", "native_tools"),
    (400, "'tools' is not supported for model glm-3", "native_tools"),
    # parallel_tool_calls: o3-mini and other reasoning models
    (400, "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", "parallel_tool_calls"),
    # None: errors about this request, not about what the model can do (cassette files named)
    (400, "Unsupported parameter: 'stop' is not supported with this model.", None),  # openai/crewai-error-400-then-text
    # openai/pydantic-ai-error-400-developer-role
    (400, "Unsupported value: 'messages[0].role' does not support 'developer' with this model.", None),
    # anthropic/pydantic-ai-error-400-effort
    (400, "This model does not support effort level 'xhigh'. Supported levels: high, low, max, medium.", None),
    (
        400,  # groq/pydantic-ai-tool-use-failed-400-then-tool: the model's call failed, tools still work
        "Tool call validation failed: tool call validation failed: parameters for tool get_something_by_name did "
        "not match schema: errors: [missing properties: 'name', additionalProperties 'foo' not allowed]",
        None,
    ),
    (400, "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", None),
    (404, "The model `non-existent` does not exist or you do not have access to it.", None),  # groq 404
    (401, "No cookie auth credentials found", None),  # openrouter/crewai-error-401
    (400, "Token limit reached", None),  # openrouter/pydantic-ai-stream-midstream-error
    (
        400,
        "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
        None,
    ),
    (
        400,
        "Invalid schema for response_format 'schemaing': In context=(), 'additionalProperties' is required to be "
        "supplied and to be false.",
        None,
    ),
    (
        400,
        "Unsupported value: 'temperature' does not support 0.2 with this model. "
        "Only the default (1) value is supported.",
        None,
    ),
    (400, "No endpoints found that can handle the requested parameters.", None),  # OpenRouter: which one?
    (400, "output_config: Extra inputs are not permitted", None),  # Anthropic on Vertex: a null effort, not a schema
    (400, "Cannot use tools with stream", None),  # llama.cpp: a combination, not tools as such
    (400, "the request exceeds the available context size", None),  # llama.cpp
    # Status gate: a rate limit or an auth failure is never a capability verdict, whatever it says.
    (429, OPENAI_NO_TOOLS, None),
    (401, OPENAI_NO_TOOLS, None),
    (503, OPENROUTER_NO_TOOLS, None),
]


@pytest.mark.parametrize(("status", "message", "expected"), ROWS, ids=lambda v: str(v)[:60])
def test_classify_rejection(status: int, message: str, expected: str | None) -> None:
    assert classify_rejection(status, message) == expected


def test_a_message_naming_two_features_is_ambiguous() -> None:
    # A rule row, not a recorded message: a combination refusal must not switch either feature off.
    assert classify_rejection(400, "response_format json_object is not supported together with tools") is None


def test_linear_on_a_huge_message() -> None:
    import time

    message = "not supported " * 200_000 + "tools"
    start = time.perf_counter()
    assert classify_rejection(400, message) == "native_tools"
    assert time.perf_counter() - start < NO_BLOWUP_SECONDS


def test_a_path_into_one_tool_is_about_that_tool() -> None:
    # A rule row in the shape of Gemini's schema errors: one tool's schema is wrong, tools still work.
    message = "Invalid value at 'tools[0].function_declarations[0].parameters': anyOf is not supported"
    assert classify_rejection(400, message) is None
