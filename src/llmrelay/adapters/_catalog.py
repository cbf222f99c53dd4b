"""What users need to know about each built-in provider: its SDK extra, its key variables, its quirks.

Pure data, read by the docs build (the providers table of docs/providers.md) and checked by the
tests against the adapter registry: every built-in provider id has one row. The modes each
provider offers come from the capability database, not from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._presets import PRESETS


@dataclass(frozen=True)
class ProviderInfo:
    """One provider id as the providers table shows it."""

    provider: str
    what: str
    """What it reaches, in a few words."""
    extra: str
    """The pip extra that installs its SDK."""
    keys: str
    """Where its credentials come from."""
    quirks: str
    """What differs from the other providers, in a sentence or two."""


_ROWS = (
    ProviderInfo("openai", "OpenAI's Chat Completions API", "openai", "`OPENAI_API_KEY`",
                 "`max_tokens` is sent as `max_completion_tokens`; strict json_schema."),
    ProviderInfo("openai-responses", "OpenAI's Responses API (`/v1/responses`)", "openai", "`OPENAI_API_KEY`",
                 "Reasoning items kept on `Completion.artifacts` and sent back next turn (`store=False`: "
                 "encrypted); `previous_response_id=` passes through; `incomplete` is finish `length`."),
    ProviderInfo("azure", "Azure OpenAI, Chat Completions (`azure:<deployment>`)", "openai",
                 "`AZURE_OPENAI_API_KEY`, or an Entra token provider; `AZURE_OPENAI_ENDPOINT`, `OPENAI_API_VERSION`",
                 "`provider_options`: `api_version`, `azure_ad_token_provider`, `model` (the capability row); "
                 "a filtered prompt is `ContentFilterError`."),
    ProviderInfo("azure-responses", "Azure OpenAI, Responses API", "openai", "as `azure`",
                 "API version 2025-04-01-preview unless given; otherwise as `openai-responses`."),
    ProviderInfo("anthropic", "Anthropic's Messages API", "anthropic", "`ANTHROPIC_API_KEY`",
                 "No JSON mode; `max_tokens` defaults to 4096; system turns go to `system`."),
    ProviderInfo("bedrock", "Claude on Amazon Bedrock", "bedrock",
                 "the AWS chain, or `provider_options` `aws_access_key`/`aws_secret_key`/`aws_profile`; "
                 "region required (`aws_region`, `AWS_REGION`)",
                 "SigV4-signed; model ids are Bedrock's (`anthropic.claude-...-v1:0`); streams in AWS event-stream "
                 "framing (decoded by the SDK)."),
    ProviderInfo("anthropic-vertex", "Claude on Google Vertex AI", "anthropic-vertex",
                 "Application Default Credentials or `provider_options[\"credentials\"]`; region required "
                 "(`region`, `CLOUD_ML_REGION`); project (`project`, `ANTHROPIC_VERTEX_PROJECT_ID`)",
                 "Model ids as Vertex names them (`claude-sonnet-4-5@20250929`)."),
    ProviderInfo("gemini", "Google's Gemini API", "gemini", "`GEMINI_API_KEY` / `GOOGLE_API_KEY`",
                 "Call ids made up (Gemini 2 sends none); thought signatures carried on calls."),
    ProviderInfo("vertex", "Gemini on Google Vertex AI", "vertex",
                 "Application Default Credentials or `provider_options[\"credentials\"]`; project "
                 "(`project`, `GOOGLE_CLOUD_PROJECT`); location (`location`, `GOOGLE_CLOUD_LOCATION`, default "
                 "`global`); or `api_key=` (express mode)",
                 "Same mapping as `gemini`."),
    ProviderInfo("groq", "Groq", "groq", "`GROQ_API_KEY`",
                 "Strict json_schema only on gpt-oss models; `failed_generation` kept on 400s."),
    ProviderInfo("openrouter", "OpenRouter", "openai", "`OPENROUTER_API_KEY`",
                 "Routes only to hosts that honour tools/response_format; errors inside a 200 are raised."),
    ProviderInfo("openai-compatible", "any Chat Completions server (`base_url=` required)", "openai",
                 "`api_key=` or `OPENAI_COMPATIBLE_API_KEY` (optional)",
                 "Text mode unless the model family is known to call tools; JSON modes off until overridden."),
)  # fmt: skip

CATALOG: dict[str, ProviderInfo] = {row.provider: row for row in _ROWS} | {
    preset.provider: ProviderInfo(
        preset.provider,
        f"{preset.provider} at `{preset.base_url}` (OpenAI-compatible)",
        "openai",
        f"`{preset.api_key_env}`" + ("" if preset.key_required else " (optional)"),
        ("Local server: `base_url=` overrides the URL. " if not preset.key_required else "")
        + ("Streams report usage." if preset.stream_usage else "Streams ask for no usage."),
    )
    for preset in PRESETS.values()
}
"""Every built-in provider, by id."""
