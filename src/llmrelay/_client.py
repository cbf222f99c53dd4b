"""`Client` and `AsyncClient`: wire the pipeline together, nothing more.

Both share `_Pipeline`, which chooses the mode, builds the `Request` and turns the answer into a
`Completion`; only the adapter call differs (`send` or `asend`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

from ._envelope import Attempt, Completion, Mode
from ._instructions import envelope_schema
from ._messages import MessageLike, to_messages
from ._respond import to_completion
from ._tools import Tool, ToolLike, to_tools
from ._types import NamedTool, RawResponse, Request, ToolChoice
from .adapters import Adapter, ProviderOptions, adapter_class
from .capabilities import CapabilityLearner, Feature, lookup, modes
from .errors import ConfigError, ProviderError, UnsupportedFeatureError

_MODES: tuple[Mode, ...] = ("native_tools", "json_schema", "json_object", "text")
_FEATURES = ("native_tools", "json_schema", "json_object", "parallel_tool_calls")
_shared_learner = CapabilityLearner()
"""What models rejected, learned by every client of this process unless one is given its own."""

Messages = str | Sequence[MessageLike]


def parse_model(model: str) -> tuple[str, str]:
    """Split "provider:model-name" (the model name may itself contain colons, as Ollama's do).

    Raises:
        ConfigError: no provider prefix, or an empty part.
    """
    provider, separator, name = model.partition(":")
    if not separator or not provider or not name:
        raise ConfigError(f"model must be written 'provider:model-name' (e.g. 'openai:gpt-4o-mini'), got {model!r}")
    return provider, name


class _Pipeline:
    """What `Client` and `AsyncClient` share: everything except the call itself."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float | None = None,
        headers: Mapping[str, str] | None = None,
        mode: Mode | None = None,
        params: Mapping[str, Any] | None = None,
        capabilities: Mapping[str, Mapping[str, object]] | None = None,
        learner: CapabilityLearner | None = None,
        strict: bool = False,
        adapter: Adapter | None = None,
    ) -> None:
        self.provider, self.model = parse_model(model)
        _check_mode(mode)
        self.mode = mode
        self.params = dict(params or {})
        self.strict = strict
        self.learner = learner or _shared_learner
        self._overrides = capabilities
        self._options = ProviderOptions(api_key, base_url, timeout, dict(headers or {}))
        self._adapter = adapter or adapter_class(self.provider)(self._options)  # type: ignore[call-arg]
        lookup(self.provider, self.model, capabilities)  # Bad capability overrides fail here, not on first call.

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.provider}:{self.model!r}, mode={self.mode!r})"

    def plan_mode(self, tools: tuple[Tool, ...], forced: Mode | None) -> Mode:
        """The mode for this request: forced, else the best the model supports (text without tools)."""
        if forced is not None or self.mode is not None:
            return forced or self.mode  # type: ignore[return-value]
        if not tools:
            return "text"
        caps = self.learner.apply(self.provider, self.model, lookup(self.provider, self.model, self._overrides))
        return modes(caps)[0]

    def request(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None,
        mode: Mode | None,
        tool_choice: object,
        params: dict[str, Any],
    ) -> Request:
        _check_mode(mode)
        tool_list = tuple(to_tools(tools).values())
        conversation = to_messages([{"role": "user", "content": messages}] if isinstance(messages, str) else messages)
        chosen = self.plan_mode(tool_list, mode)
        return Request(
            model=self.model,
            messages=conversation,
            mode=chosen,
            tools=tool_list,
            tool_choice=_tool_choice(tool_choice, tool_list),
            params={**self.params, **params},
            response_schema=envelope_schema(tool_list) if chosen == "json_schema" else None,
        )

    def finish(self, request: Request, raw: RawResponse, started: float) -> Completion:
        """Turn the adapter's answer into the result, with this attempt in its trace."""
        duration = time.monotonic() - started
        result = to_completion(raw, tools=request.tools, mode=request.mode, strict=self.strict, attempts=[])
        reasons = "; ".join(r.reason for r in result.rejected) or None
        outcome: Literal["ok", "rejected_calls"] = "rejected_calls" if reasons else "ok"
        result.attempts.append(Attempt(self.provider, self.model, request.mode, outcome, reasons, duration, raw.usage))
        return result

    def learn(self, error: ProviderError) -> None:
        """Tell the learner when the model refused a mode itself, so it is not chosen again."""
        if isinstance(error, UnsupportedFeatureError) and error.feature in _FEATURES:
            self.learner.record_rejection(self.provider, self.model, cast(Feature, error.feature), error.message)


class Client(_Pipeline):
    """Call a model with tools and get one canonical answer.

    ```python
    client = llmrelay.Client("openai:gpt-4o-mini")
    resp = client.complete([{"role": "user", "content": "Weather in Paris?"}], tools=[get_weather])
    ```

    Swapping provider is a change of the model string: "anthropic:claude-sonnet-4-5",
    "gemini:gemini-2.5-flash", "groq:llama-3.3-70b-versatile", "openrouter:…", or
    "openai-compatible:<model>" with `base_url=` for Ollama, vLLM, LM Studio and the like.
    """

    def complete(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        mode: Mode | None = None,
        tool_choice: str | Mapping[str, Any] | NamedTool | None = None,
        **params: Any,
    ) -> Completion:
        """Send the conversation and return the normalized answer.

        Args:
            messages: the conversation (dicts in the OpenAI chat shape, `Message`s, earlier
                `Completion`s), or a single user message as a string.
            tools: what the model may call (functions, pydantic models, schema dicts, `Tool`s).
            mode: force an output mode instead of the best one the model supports.
            tool_choice: "auto", "none", "required", or the name of one tool to call.
            **params: generation parameters passed to the provider (temperature, max_tokens, stop…).

        Raises:
            ProviderError: the provider refused or failed (see `llmrelay.errors` for the kinds).
        """
        request = self.request(messages, tools, mode, tool_choice, params)
        started = time.monotonic()
        try:
            raw = self._adapter.send(request)
        except ProviderError as error:
            self.learn(error)
            raise
        return self.finish(request, raw, started)


class AsyncClient(_Pipeline):
    """`Client` for asyncio: the same constructor, and `await client.complete(...)`."""

    async def complete(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        mode: Mode | None = None,
        tool_choice: str | Mapping[str, Any] | NamedTool | None = None,
        **params: Any,
    ) -> Completion:
        """Send the conversation and return the normalized answer (see `Client.complete`)."""
        request = self.request(messages, tools, mode, tool_choice, params)
        started = time.monotonic()
        try:
            raw = await self._adapter.asend(request)
        except ProviderError as error:
            self.learn(error)
            raise
        return self.finish(request, raw, started)


def _check_mode(mode: object) -> None:
    if mode is not None and mode not in _MODES:
        raise ConfigError(f"unknown mode {mode!r} (expected one of {', '.join(_MODES)})")


def _tool_choice(choice: object, tools: tuple[Tool, ...]) -> ToolChoice | None:
    """Read `tool_choice` in any of the forms users know, into llmrelay's own."""
    if choice is None or isinstance(choice, NamedTool):
        return choice
    if choice == "auto" or choice == "none" or choice == "required":
        return choice
    if choice == "any":  # Anthropic's word for required.
        return "required"
    name: object = choice
    if isinstance(choice, Mapping):
        function = choice.get("function")
        name = function.get("name") if isinstance(function, Mapping) else choice.get("name")
    if isinstance(name, str) and any(tool.name == name for tool in tools):
        return NamedTool(name)
    known = ", ".join(t.name for t in tools) or "no tools were given"
    raise ConfigError(f"tool_choice {choice!r} is not auto, none, required or a tool's name ({known})")
