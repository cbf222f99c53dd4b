"""The adapter behind every named OpenAI-compatible server (`ollama:`, `deepseek:`, `mistral:`, ...).

The servers are rows of data (`_presets.PRESETS`): one class per row is made here on first use,
a subclass of `OpenAICompatibleAdapter` that knows its URL and its key's variable. None needs
code of its own: the differences that matter (JSON modes, tools, streaming usage) are
capability data or a flag of the row. Two rules differ from plain `openai-compatible:`:

- A hosted server's key is required (`api_key=` or its variable); a local one's is optional.
- A Gemini thought signature goes back only to the server that sent it (as with `openai:`):
  Mistral, for one, refuses fields it does not know.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from .._effort import Reasoning
from .._envelope import ToolCall
from ._openai_compat import ChatCompletionsAdapter, env_key
from ._presets import PRESETS, Preset
from .openai_compatible import PLACEHOLDER_KEY, OpenAICompatibleAdapter


class PresetAdapter(OpenAICompatibleAdapter):
    """A named OpenAI-compatible server; subclassed once per `Preset`."""

    preset: ClassVar[Preset]

    def base_url(self) -> str:
        """The server's URL, unless `base_url=` gave another."""
        return self.options.base_url or self.preset.base_url

    def api_key(self) -> str:
        """`api_key`, else the preset's variable; a hosted server without one is an `AuthenticationError`."""
        key = self.options.api_key or env_key(self.api_key_env)
        if key is None and self.preset.key_required:
            raise self._no_key()
        return key or PLACEHOLDER_KEY

    def signature(self, call: ToolCall) -> str | None:
        """Only a signature this server sent goes back to it."""
        return ChatCompletionsAdapter.signature(self, call)

    def reasoning_fields(self, reasoning: Reasoning, model: str) -> dict[str, Any]:
        """`reasoning_effort`; DeepSeek also toggles thinking with `thinking: {"type": ...}`.

        api-docs.deepseek.com/guides/thinking_mode: thinking is on by default, and off only when asked.
        """
        if self.provider != "deepseek":
            return super().reasoning_fields(reasoning, model)
        if not reasoning.enabled:
            return {"thinking": {"type": "disabled"}}
        return {"thinking": {"type": "enabled"}, "reasoning_effort": reasoning.level}


@functools.cache
def preset_adapter(provider: str) -> type[PresetAdapter]:
    """The adapter class for a named server (one class per provider id, made once)."""
    preset = PRESETS[provider]
    attributes = {
        "provider": preset.provider,
        "preset": preset,
        "api_key_env": preset.api_key_env,
        "stream_usage": preset.stream_usage,
        "__doc__": f"{preset.provider}: an OpenAI-compatible server at {preset.base_url} ({preset.docs}).",
    }
    return type(f"{preset.provider.title()}Adapter", (PresetAdapter,), attributes)


def __getattr__(name: str) -> type[PresetAdapter]:
    """`presets.<provider id>` is that server's adapter class (what the registry's "module:name" imports)."""
    if name in PRESETS:
        return preset_adapter(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
