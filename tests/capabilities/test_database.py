"""The shipped models.toml: what it says about real model names, and that it stays well-formed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from llmrelay.capabilities import lookup, modes
from llmrelay.capabilities._lookup import _database

ALL = ("native_tools", "json_schema", "json_object", "text")
TOOLS_SCHEMA = ("native_tools", "json_schema", "text")
TOOLS_OBJECT = ("native_tools", "json_object", "text")
TOOLS = ("native_tools", "text")
TEXT = ("text",)


@dataclass(frozen=True)
class Row:
    provider: str
    model: str
    modes: tuple[str, ...]
    facts: dict[str, Any] = field(default_factory=dict)
    """Other facts the row checks (hints, parallel calls, context window)."""

    @property
    def id(self) -> str:
        return f"{self.provider}:{self.model}"


ROWS = [
    # openai
    Row("openai", "gpt-4o-mini", ALL, {"parallel_tool_calls": True, "context_window": 128_000}),
    Row("openai", "gpt-4o-2024-08-06", ALL),
    Row("openai", "gpt-4o-2024-05-13", TOOLS_OBJECT, {"context_window": 128_000}),  # before Structured Outputs
    Row("openai", "gpt-4o-search-preview", ("json_schema", "json_object", "text")),
    Row("openai", "gpt-4.1-nano", ALL, {"context_window": 1_047_576}),
    Row("openai", "gpt-4-turbo-2024-04-09", TOOLS_OBJECT),
    Row("openai", "gpt-4", TOOLS, {"parallel_tool_calls": False, "context_window": 8_192}),
    Row("openai", "gpt-3.5-turbo-0125", TOOLS_OBJECT, {"context_window": 16_385}),
    Row("openai", "gpt-5-mini", ALL, {"context_window": 400_000}),
    Row("openai", "gpt-5.6-sol", ALL),
    Row("openai", "gpt-5-chat-latest", ("json_schema", "json_object", "text")),
    Row("openai", "o3-mini", ALL, {"parallel_tool_calls": False, "context_window": 200_000}),
    Row("openai", "o4-mini-2025-04-16", ALL, {"parallel_tool_calls": False}),
    Row("openai", "o1-mini", TEXT),
    Row("openai", "o1-preview-2024-09-12", TEXT),
    Row("openai", "gpt-7-next", ALL, {"context_window": None}),  # unknown: the provider default
    # anthropic: structured outputs on the newer models only; never JSON mode
    Row("anthropic", "claude-3-5-sonnet-latest", TOOLS, {"emits_xml_tool_calls": True, "context_window": 200_000}),
    Row("anthropic", "claude-3-haiku-20240307", TOOLS),
    Row("anthropic", "claude-sonnet-4-20250514", TOOLS),  # "claude-sonnet-4-5*" must not reach it
    Row("anthropic", "claude-opus-4-20250514", TOOLS),
    Row("anthropic", "claude-sonnet-4-5-20250929", TOOLS_SCHEMA),
    Row("anthropic", "claude-sonnet-4-5", TOOLS_SCHEMA),
    Row("anthropic", "claude-opus-4-1-20250805", TOOLS_SCHEMA),
    Row("anthropic", "claude-haiku-4-5", TOOLS_SCHEMA),
    Row("anthropic", "claude-opus-4-6", TOOLS_SCHEMA),
    Row("anthropic", "claude-sonnet-5", TOOLS_SCHEMA),
    # gemini
    Row("gemini", "gemini-2.5-flash", ALL, {"parallel_tool_calls": True, "context_window": 1_048_576}),
    Row("gemini", "gemini-2.0-flash-lite", ALL),
    Row("gemini", "gemini-1.5-pro-002", ALL, {"context_window": 2_097_152}),
    Row("gemini", "gemini-3-pro-preview", ALL, {"context_window": 1_048_576}),
    Row("gemini", "gemini-2.5-flash-image", TEXT, {"context_window": None}),
    Row("gemini", "gemini-2.0-flash-exp-image-generation", TEXT),
    Row("gemini", "gemini-3-pro-image-preview", ("json_schema", "json_object", "text")),
    Row("gemini", "gemma-3-27b-it", TEXT),
    # groq: json_schema only where Groq lists it
    Row("groq", "llama-3.3-70b-versatile", TOOLS_OBJECT, {"parallel_tool_calls": True, "context_window": 131_072}),
    Row("groq", "llama-3.1-8b-instant", TOOLS_OBJECT),
    Row("groq", "qwen/qwen3-32b", TOOLS_OBJECT),
    Row("groq", "deepseek-r1-distill-llama-70b", TOOLS_OBJECT),
    Row("groq", "openai/gpt-oss-120b", ALL, {"parallel_tool_calls": False}),
    Row("groq", "openai/gpt-oss-20b", ALL),
    Row("groq", "moonshotai/kimi-k2-instruct-0905", ALL, {"context_window": 262_144}),
    Row("groq", "meta-llama/llama-4-scout-17b-16e-instruct", ALL),
    Row("groq", "meta-llama/llama-4-maverick-17b-128e-instruct", ALL),
    Row("groq", "groq/compound-mini", ("json_object", "text")),
    # openrouter: by vendor prefix; an unknown vendor is text-only
    Row("openrouter", "openai/gpt-4o-mini", ALL),
    Row("openrouter", "openai/o1-mini", TEXT),
    Row("openrouter", "openai/gpt-oss-120b", TOOLS_OBJECT, {"emits_special_tokens": True}),
    Row("openrouter", "anthropic/claude-3.5-sonnet", TOOLS, {"emits_xml_tool_calls": True}),
    Row("openrouter", "google/gemini-2.5-flash", ALL),
    Row("openrouter", "meta-llama/llama-3.3-70b-instruct", TOOLS, {"emits_special_tokens": True}),
    Row("openrouter", "meta-llama/llama-3.3-70b-instruct:free", TOOLS),  # route suffixes still match
    Row("openrouter", "meta-llama/llama-3-8b-instruct", TEXT, {"emits_special_tokens": True}),
    Row("openrouter", "mistralai/mistral-small-3.2-24b-instruct", TOOLS_OBJECT, {"emits_special_tokens": True}),
    Row("openrouter", "qwen/qwen3-235b-a22b", TOOLS_OBJECT, {"emits_xml_tool_calls": True}),
    Row("openrouter", "deepseek/deepseek-chat-v3.1", TOOLS_OBJECT, {"emits_special_tokens": True}),
    Row("openrouter", "deepseek/deepseek-r1-0528", TEXT, {"emits_special_tokens": True}),
    Row("openrouter", "moonshotai/kimi-k2", TOOLS, {"emits_special_tokens": True}),
    Row("openrouter", "minimax/minimax-m2:free", TEXT, {"emits_xml_tool_calls": False}),
    # openai-compatible (local servers): names as Ollama, vLLM/HF and GGUF files spell them
    Row("openai-compatible", "llama3.1:8b", TOOLS, {"emits_special_tokens": True, "parallel_tool_calls": False}),
    Row("openai-compatible", "meta-llama/Llama-3.3-70B-Instruct", TOOLS),
    Row("openai-compatible", "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", TOOLS),
    Row("openai-compatible", "llama3:8b", TEXT, {"emits_special_tokens": True}),
    Row("openai-compatible", "qwen2.5-coder:7b", TOOLS, {"emits_xml_tool_calls": True}),
    Row("openai-compatible", "Qwen/Qwen3-Coder-30B-A3B-Instruct", TOOLS, {"emits_xml_tool_calls": True}),
    Row("openai-compatible", "qwen:7b", TEXT, {"emits_xml_tool_calls": True}),
    Row("openai-compatible", "mistral-nemo", TOOLS, {"emits_special_tokens": True}),
    Row("openai-compatible", "hermes3:8b", TOOLS, {"emits_xml_tool_calls": True}),
    Row("openai-compatible", "deepseek-r1:14b", TEXT, {"emits_special_tokens": True}),
    Row("openai-compatible", "deepseek-ai/DeepSeek-V3.1", TOOLS, {"emits_special_tokens": True}),
    Row("openai-compatible", "gpt-oss:20b", TOOLS, {"emits_special_tokens": True}),
    Row("openai-compatible", "zai-org/GLM-4.6", TOOLS, {"emits_xml_tool_calls": True}),
    Row("openai-compatible", "granite3.3:8b", TOOLS, {"emits_special_tokens": True}),
    Row("openai-compatible", "my-own-finetune", TEXT, {"emits_special_tokens": False, "emits_xml_tool_calls": False}),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_shipped_facts(row: Row) -> None:
    caps = lookup(row.provider, row.model)
    assert modes(caps) == row.modes
    assert {name: getattr(caps, name) for name in row.facts} == row.facts


def test_every_built_in_provider_has_entries() -> None:
    from llmrelay.adapters import _BUILTIN

    assert set(_database()) == set(_BUILTIN)


@pytest.mark.parametrize("provider", sorted(_database()))
def test_provider_defaults_state_every_mode_fact(provider: str) -> None:
    # A provider default is a decision, not an accident of what was left out.
    (default,) = [e for e in _database()[provider] if e.pattern == "*"]
    assert {"native_tools", "parallel_tool_calls", "json_schema", "json_object"} <= set(default.facts)


def test_no_entry_is_empty() -> None:
    empty = [(e.provider, e.pattern) for entries in _database().values() for e in entries if not e.facts]
    assert empty == []


def test_sources_name_the_entry_that_set_each_fact() -> None:
    sources = lookup("openai", "gpt-4o-2024-05-13").sources
    assert sources["json_schema"] == "models.toml: openai 'gpt-4o-2024-05-13'"
    assert sources["native_tools"] == "models.toml: openai '*'"
    assert sources["emits_xml_tool_calls"] == "default"
