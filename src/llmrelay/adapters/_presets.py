"""Named OpenAI-compatible servers: one row of data each, served by `presets.PresetAdapter`.

`ollama:llama3.1:8b` is `openai-compatible:llama3.1:8b` with Ollama's local URL; `deepseek:deepseek-chat`
is the same adapter with DeepSeek's URL and `DEEPSEEK_API_KEY`. What each server's models can do is
in `capabilities/models.toml`, under the same provider id. `base_url=` overrides the URL (a local
server on another port, a proxy). Pure data: importing it loads no SDK.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    """How to reach one named OpenAI-compatible server."""

    provider: str
    """The provider id users type in "provider:model"."""
    base_url: str
    """The server's Chat Completions base URL (the part before `/chat/completions`)."""
    api_key_env: str
    """The environment variable read for the key when `api_key` is not given."""
    key_required: bool
    """A hosted API: no key is an `AuthenticationError` before any request. Local servers take none."""
    stream_usage: bool
    """The server takes `stream_options.include_usage` (documented), so streams report usage."""
    docs: str
    """Where the URL, the key and the features were read."""


PRESETS: dict[str, Preset] = {
    preset.provider: preset
    for preset in (
        Preset("ollama", "http://localhost:11434/v1", "OLLAMA_API_KEY", False, True,
               "docs.ollama.com/api/openai-compatibility"),
        Preset("lmstudio", "http://localhost:1234/v1", "LMSTUDIO_API_KEY", False, False,
               "lmstudio.ai/docs/api/openai-api, /docs/advanced/structured-output"),
        Preset("vllm", "http://localhost:8000/v1", "VLLM_API_KEY", False, True,
               "docs.vllm.ai/en/latest/serving/openai_compatible_server.html"),
        Preset("deepseek", "https://api.deepseek.com", "DEEPSEEK_API_KEY", True, True,
               "api-docs.deepseek.com (first API call, JSON output, function calling)"),
        Preset("mistral", "https://api.mistral.ai/v1", "MISTRAL_API_KEY", True, False,
               "docs.mistral.ai (function calling, JSON mode, custom structured outputs)"),
        Preset("xai", "https://api.x.ai/v1", "XAI_API_KEY", True, True,
               "docs.x.ai/developers (function calling, structured outputs)"),
        Preset("together", "https://api.together.ai/v1", "TOGETHER_API_KEY", True, False,
               "docs.together.ai/docs/inference/openai-compatibility, /docs/json-mode"),
        Preset("fireworks", "https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY", True, False,
               "docs.fireworks.ai (OpenAI compatibility, structured responses, function calling)"),
        Preset("cerebras", "https://api.cerebras.ai/v1", "CEREBRAS_API_KEY", True, False,
               "inference-docs.cerebras.ai (OpenAI compatibility, structured outputs, tool use)"),
    )
}  # fmt: skip
"""Every named server, by provider id."""
