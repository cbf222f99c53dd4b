"""Real Anthropic Messages API bodies for the adapter tests.

Answers and the 400/404 errors are copied unchanged from the recordings in the shared conformance
set (`../shared/conformance/cassettes/anthropic/`, recorded by pydantic-ai and crewAI against the
real API; each is named above its constant). The set has no 401, 403, 413, 429, 500 or 529
recording: those bodies are the shapes Anthropic documents (docs.claude.com/en/api/errors: a
top-level `error` with `type` and `message`, and `request_id`), with the messages the API really
sends as quoted in public bug reports (429: an organization's input-token limit, id replaced).
"""

from __future__ import annotations

from typing import Any

# anthropic/pydantic-ai-structured-strict.yaml, interaction 0
STRUCTURED: dict[str, Any] = {
    "content": [{"text": '{"city":"London","country":"United Kingdom","population":9002488}', "type": "text"}],
    "id": "msg_01Hfgh959WDWjL5jkM2FQXTL",
    "model": "claude-sonnet-4-5-20250929",
    "role": "assistant",
    "stop_details": None,
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "type": "message",
    "usage": {
        "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "inference_geo": "not_available",
        "input_tokens": 196,
        "output_tokens": 19,
        "service_tier": "standard",
    },
}

# anthropic/pydantic-ai-parallel-tool-use.yaml, interaction 0
PARALLEL_TOOL_USE: dict[str, Any] = {
    "content": [
        {
            "text": "I'll help you find out who is the youngest by retrieving information about each "
            "family member. I'll retrieve their entity information to compare their ages.",
            "type": "text",
        },
        {
            "id": "toolu_0167cfEnoQaPviGdVXA95zcu",
            "input": {"name": "Alice"},
            "name": "retrieve_entity_info",
            "type": "tool_use",
        },
        {
            "id": "toolu_01EEe2V5HD1Ac4rKiUR4HD2T",
            "input": {"name": "Bob"},
            "name": "retrieve_entity_info",
            "type": "tool_use",
        },
        {
            "id": "toolu_01XFyAjstT3966qvRynZyVPo",
            "input": {"name": "Charlie"},
            "name": "retrieve_entity_info",
            "type": "tool_use",
        },
        {
            "id": "toolu_013mnQZbgtK2oe3Mo3XKJsx3",
            "input": {"name": "Daisy"},
            "name": "retrieve_entity_info",
            "type": "tool_use",
        },
    ],
    "id": "msg_011S3wxtqL5CVescWqS3zeg2",
    "model": "claude-haiku-4-5-20251001",
    "role": "assistant",
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "type": "message",
    "usage": {
        "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "input_tokens": 423,
        "output_tokens": 202,
        "service_tier": "standard",
    },
}

# anthropic/crewai-tool-use-then-text.yaml, interaction 0
TOOL_USE: dict[str, Any] = {
    "model": "claude-sonnet-4-5-20250929",
    "id": "msg_01B3fMbiAhcxutivRC1gu1qZ",
    "type": "message",
    "role": "assistant",
    "content": [
        {
            "type": "tool_use",
            "id": "toolu_01AoUFM2koNLsFscK6xjnLPo",
            "name": "get_weather",
            "input": {"location": "Tokyo, Japan"},
        }
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 620,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 55,
        "service_tier": "standard",
    },
}

# anthropic/crewai-tool-use-then-text.yaml, interaction 1 (the answer after TOOL_USE's result)
TOOL_RESULT_ANSWER: dict[str, Any] = {
    "model": "claude-sonnet-4-5-20250929",
    "id": "msg_014zmtEjjH4Qx8ntiJdbk36e",
    "type": "message",
    "role": "assistant",
    "content": [{"type": "text", "text": "The weather in Tokyo is currently sunny and 72°F (approximately 22°C)."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 701,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 22,
        "service_tier": "standard",
    },
}

# anthropic/crewai-thinking-text.yaml, interaction 0
THINKING: dict[str, Any] = {
    "model": "claude-sonnet-4-5-20250929",
    "id": "msg_01Ged4AFM7p6Az1EJwCupJgN",
    "type": "message",
    "role": "assistant",
    "content": [
        {
            "type": "thinking",
            "thinking": "The user is asking about the current weather in Tokyo. However, I don't have "
            "access to real-time information, including current weather data. My knowledge was "
            "last updated in April 2024, and I cannot browse the internet or access live "
            "weather services.\n"
            "\n"
            "I should let the user know that I cannot provide current weather information and "
            "suggest how they could find this information themselves.",
            "signature": "ErAECkYIChgCKkARlc1jMnFpY90f5dF4HEfZoRXOHn40AvF41rtOlyk1YjT2ekk5lwSKy5CoXaRkNa3ZbAnovMN6Qn1zGdp+aL3xEgyN7xr0O1qknyiEY9oaDNbekyF2Hjrg5YPO/CIwfnR0HRKZLDsaoekhW7AQLBTlR/SVHooc2M4THNxfHj2LD3B/6QDFg+2yEms30JyhKpcDcHPgZqwvor8Hsl22v70u1UxYvsKYS84LpMKVnnR3eoYvrP90s2g11eoybDPl/NUisMrYx/pSL5AG57qIvREYMcPz4r3VmGmE6+FUOzqMVWQRYmXQ1zaSzdNpr5ELAXPQGON33DyPbOtm8yqzw1j0X0qEvW/FwGgsN049hZSZdZsPLIvxQz1dW83cVK7ncHAJzUHVvmnwOgZyW9DW4cBZprnUM45wzxOuprfPl4mV2rXN9bm9Wpl+4G/kzhYabOECMP07aj7m+qvSXDIo2elMPMHPKx8VixFwIetJC2vi2Sa1tFO9g3xIInItWBQUZytwOp/HaPO/AqoXWDoAR3HVqgPHkzoEhiIpuwwWYOxh7ShtYUCpiUtj3Dzg0yF1lQrdMiN6EbTS1hrj1wcwysZMI0iUursu/N+lh2ujIrZOGNzre5hojSURYwucdGGoQtB65eHnMstCdOH2ht8m881mJ8l7tDHNfnlUD1wsrkT2s99d1Fb5brj/yxiKD9JheDL/xsICEUko6uw+4Getixj8jdwEsY4caVoYAQ==",
        },
        {
            "type": "text",
            "text": "I don't have access to real-time weather information. To get the current weather in "
            "Tokyo, you could:\n"
            "\n"
            '1. **Search online**: Google "Tokyo weather" for immediate results\n'
            "2. **Weather websites/apps**: Check weather.com, AccuWeather, or Weather Underground\n"
            "3. **Local sources**: The Japan Meteorological Agency (jma.go.jp) provides official "
            "forecasts\n"
            "\n"
            "Is there anything else about Tokyo I can help you with, such as general climate "
            "information or what weather to expect during different seasons?",
        },
    ],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 43,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 199,
        "service_tier": "standard",
    },
}

# anthropic/crewai-text-max-tokens.yaml, interaction 0
MAX_TOKENS: dict[str, Any] = {
    "model": "claude-sonnet-4-20250514",
    "id": "msg_018wonEXFGwDi1b6mm4K5yht",
    "type": "message",
    "role": "assistant",
    "content": [{"type": "text", "text": "# The Last Song of Vaelthys"}],
    "stop_reason": "max_tokens",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 16,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 10,
        "service_tier": "standard",
    },
}

# anthropic/pydantic-ai-error-400-effort.yaml, interaction 0
ERROR_400_EFFORT: dict[str, Any] = {
    "error": {
        "message": "This model does not support effort level 'xhigh'. Supported levels: high, low, max, medium.",
        "type": "invalid_request_error",
    },
    "request_id": "req_011Ca7jT9AHpgXgdv8igm4z9",
    "type": "error",
}

# anthropic/pydantic-ai-error-404-unknown-model.yaml, interaction 0
ERROR_404_UNKNOWN_MODEL: dict[str, Any] = {
    "error": {"message": "model: claude-sonet-4-5", "type": "not_found_error"},
    "request_id": "req_011CdufXo8Y2LVfY2veyuQWG",
    "type": "error",
}

# Documented shapes (see the module docstring).
ERROR_401: dict[str, Any] = {
    "type": "error",
    "error": {"type": "authentication_error", "message": "invalid x-api-key"},
    "request_id": "req_011CYx4MAuth401example",
}
ERROR_403: dict[str, Any] = {
    "type": "error",
    "error": {
        "type": "permission_error",
        "message": "Your API key does not have permission to use the specified resource.",
    },
    "request_id": "req_011CYx4MPerm403example",
}
ERROR_413: dict[str, Any] = {
    "type": "error",
    "error": {"type": "request_too_large", "message": "Request exceeds the maximum allowed number of bytes."},
    "request_id": "req_011CYx4MSize413example",
}
ERROR_429: dict[str, Any] = {
    "type": "error",
    "error": {
        "type": "rate_limit_error",
        "message": "This request would exceed the rate limit for your organization "
        "(00000000-0000-0000-0000-000000000000) of 80,000 input tokens per minute. For details, refer to: "
        "https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. "
        "Please reduce the prompt length or the maximum tokens requested, or try again later. You may also "
        "contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit "
        "increase.",
    },
    "request_id": "req_011CYx4MRate429example",
}
ERROR_500: dict[str, Any] = {
    "type": "error",
    "error": {"type": "api_error", "message": "Internal server error"},
    "request_id": "req_011CYx4MServ500example",
}
ERROR_529: dict[str, Any] = {
    "type": "error",
    "error": {"type": "overloaded_error", "message": "Overloaded"},
    "request_id": "req_011CYx4MOver529example",
}
