"""`Pipeline`: what both clients share: the arguments read, the plan, each step's request, the flow.

A client's entry point turns its arguments into a `Flow` here (`Pipeline._flow`), then drives it with
`drive.drive` / `drive.adrive` (or the streaming drivers), making each call through `_send` /
`_asend`: the retry policy around the adapter.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeAlias

from .._defaults import DEFAULT_DEADLINE, DEFAULT_MAX_REQUESTS, DEFAULT_MAX_STREAM_BYTES, DEFAULT_MAX_TOOL_CALLS
from ..errors import ConfigError, ProviderError, UnsupportedFeatureError

if TYPE_CHECKING:  # At run time these are bound by `_load`, when the first client is made.
    from .._config_checks import shown
    from .._effort import ReasoningLike, read_reasoning
    from .._envelope import MODES, Attempt, Completion, Mode
    from .._instructions import default_response_schema
    from .._messages import MessageLike, to_messages
    from .._tools import Tool, ToolLike, check_tool_names, to_tools
    from .._types import NamedTool, Request, ToolChoice
    from ..adapters import Adapter, ProviderOptions, adapter_class
    from ..capabilities import Capabilities, CapabilityLearner, Feature, lookup, modes
    from .deadline import DEFAULT_TIMEOUT, AttemptClock, checked_seconds, request_end
    from .drive import adrive, drive
    from .flow import Call, Flow, Policy, record_retry, request_flow
    from .needs import able_steps, request_needs
    from .output import output_modes, output_spec
    from .plan import Step, plan
    from .repair import RepairTrigger, problems
    from .retry import RetryPolicy

    _FEATURES: tuple[Feature, ...]
    _shared_learner: CapabilityLearner

Messages: TypeAlias = "str | Sequence[MessageLike]"
ToolChoiceLike: TypeAlias = "str | Mapping[str, Any] | NamedTool | None"
_loaded = False


def _load() -> None:
    """Import what clients run on, once, when the first client is made.

    Not at `from llmrelay import Client`: the adapters' registry, the capability database, the
    flow and its dataclasses are most of the package, and a script that imports the client and
    exits (or a CLI's `--help`) should not pay for them. The names become this module's globals
    (as the `TYPE_CHECKING` imports above declare them), so methods use them as if imported at
    the top: nothing is looked up per call.
    """
    global _loaded, _FEATURES, _shared_learner, shown, read_reasoning, MODES, default_response_schema
    global to_messages, check_tool_names, to_tools, NamedTool, Request, ProviderOptions, adapter_class
    global CapabilityLearner, lookup, modes, DEFAULT_TIMEOUT, AttemptClock, checked_seconds, request_end
    global adrive, drive, Policy, record_retry, request_flow, able_steps, request_needs, output_modes
    global output_spec, plan, problems, RetryPolicy
    if _loaded:
        return
    from typing import get_args

    from .._config_checks import shown
    from .._effort import read_reasoning
    from .._envelope import MODES
    from .._instructions import default_response_schema
    from .._messages import to_messages
    from .._tools import check_tool_names, to_tools
    from .._types import NamedTool, Request
    from ..adapters import ProviderOptions, adapter_class
    from ..capabilities import CapabilityLearner, Feature, lookup, modes
    from .deadline import DEFAULT_TIMEOUT, AttemptClock, checked_seconds, request_end
    from .drive import adrive, drive
    from .flow import Policy, record_retry, request_flow
    from .needs import able_steps, request_needs
    from .output import output_modes, output_spec
    from .plan import plan
    from .repair import problems
    from .retry import RetryPolicy

    _FEATURES = get_args(Feature)
    _shared_learner = CapabilityLearner()
    """What models rejected, learned by every client of this process unless one is given its own."""
    _loaded = True


def parse_model(model: str) -> tuple[str, str]:
    """Split "provider:model-name" (the model name may itself contain colons, as Ollama's do).

    Raises:
        ConfigError: no provider prefix, or an empty part.
    """
    provider, separator, name = model.partition(":")
    if not separator or not provider or not name:
        from .._config_checks import shown

        example = "(e.g. 'openai:gpt-4o-mini')"
        raise ConfigError(
            f"model must be written 'provider:model-name' {example}, got {shown(model)}{_slash_hint(model)}"
        )
    return provider, name


def _slash_hint(model: str) -> str:
    """LiteLLM's "openai/gpt-4o" form: the same model written llmrelay's way."""
    from ..adapters import known_providers

    provider, slash, name = model.partition("/")
    if not (slash and name):
        return ""
    if provider in known_providers():
        return f"; did you mean '{provider}:{name}'?"
    return f"; did you mean 'openrouter:{model}'?"  # OpenRouter's ids are "vendor/model".


class Pipeline:
    """What `Client` and `AsyncClient` share: everything except making the call."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_stream_bytes: int = DEFAULT_MAX_STREAM_BYTES,
        mode: Mode | None = None,
        modes: Sequence[Mode] | None = None,
        params: Mapping[str, Any] | None = None,
        fallback_models: Sequence[str] = (),
        providers: Mapping[str, ProviderOptions] | None = None,
        max_repairs: int = 2,
        max_plan_steps: int = 8,
        max_tokens_on_length: int | None = None,
        max_requests: int = DEFAULT_MAX_REQUESTS,
        retry: RetryPolicy | None = None,
        capabilities: Mapping[str, Mapping[str, Mapping[str, object]]] | None = None,
        learner: CapabilityLearner | None = None,
        strict: bool = False,
        repair_trigger: RepairTrigger | None = None,
        adapter: Adapter | None = None,
        max_steps: int | None = None,
        max_tool_calls: int = DEFAULT_MAX_TOOL_CALLS,
        deadline: float | None = DEFAULT_DEADLINE,
        provider_options: Mapping[str, Any] | None = None,
        reasoning: ReasoningLike = None,
        cache: bool = False,
    ) -> None:
        """Set up a client for `model` ("provider:model-name"); the arguments are `Client`'s (its docstring)."""
        _load()
        if max_steps is not None:
            warnings.warn(
                "Client(max_steps=...) is now max_plan_steps=... (run()'s max_steps counts model answers)",
                DeprecationWarning,
                stacklevel=2,
            )
            max_plan_steps = max_steps
        self.provider, self.model = parse_model(model)
        for forced in (mode, *(modes or ())):
            _check_mode(forced)
        self.mode = mode
        self.modes = tuple(modes) if modes else None
        self.params = dict(params or {})
        if cache:
            self.params["cache"] = True
        if reasoning is not None:
            self.params["reasoning"] = read_reasoning(reasoning)  # A bad value fails here, not on a call.
        self.fallback_models = [parse_model(m) for m in fallback_models]
        self.max_repairs = max_repairs
        self.max_plan_steps = max_plan_steps
        self.max_tokens_on_length = max_tokens_on_length
        if isinstance(max_tool_calls, bool) or not isinstance(max_tool_calls, int) or max_tool_calls < 1:
            raise ConfigError(f"max_tool_calls must be a whole number of at least 1, got {max_tool_calls!r}")
        self.max_tool_calls = max_tool_calls
        self.deadline = checked_seconds("deadline", deadline)
        checked_seconds("timeout", timeout)
        self.max_requests = _positive("max_requests", max_requests)
        self.retry = retry or RetryPolicy()
        self.strict = strict
        self.repair_trigger: RepairTrigger = repair_trigger or problems
        self.learner = learner or _shared_learner
        self._overrides = capabilities or {}
        self._options = {**(providers or {})}
        self._options[self.provider] = ProviderOptions(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            headers=dict(headers or {}),
            max_stream_bytes=max_stream_bytes,
            extra=dict(provider_options or {}),
        )
        self._capabilities: dict[tuple[str, str], Capabilities] = {}
        self._adapters: dict[str, Adapter] = {}
        self._adapters_lock = threading.Lock()
        self._given: Adapter | None = adapter  # The caller's to close, not ours.
        if adapter is not None:
            self._adapters[self.provider] = adapter
        for provider, name in [(self.provider, self.model), *self.fallback_models]:
            self._adapter_for(provider)  # Unknown providers and missing SDKs fail here, not mid-request.
            self._supported_modes(provider, name)  # So do bad capability overrides.

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.provider}:{self.model!r}, mode={self.mode!r})"

    def _adapter_for(self, provider: str) -> Adapter:
        """The adapter for a provider of the plan, built on first use (once, whichever threads ask)."""
        if provider not in self._adapters:
            with self._adapters_lock:  # Two threads must not each build one: each holds its own connections.
                if provider not in self._adapters:
                    options = self._options.get(provider, ProviderOptions())
                    self._adapters[provider] = adapter_class(provider)(options)  # type: ignore[call-arg]
        return self._adapters[provider]

    def _capability_model(self, provider: str, model: str) -> str:
        """The name the capability database knows `model` by: an Azure deployment's `model` hint, say."""
        hint = getattr(self._adapter_for(provider), "capability_model", None)
        return hint(model) if callable(hint) else model

    def _built_adapters(self) -> list[Adapter]:
        """The adapters this client made (and so must close), forgotten: a later call builds new ones."""
        with self._adapters_lock:
            built = [a for a in self._adapters.values() if a is not self._given]
            self._adapters = {p: a for p, a in self._adapters.items() if a is self._given}
        return built

    def _model_capabilities(self, provider: str, model: str) -> Capabilities:
        """What the model can do: the database, the config's overrides, minus what it refused."""
        known = self._capabilities.get((provider, model))
        if known is None:  # Looked up once per model: the database and the overrides do not change.
            named = self._capability_model(provider, model)  # Azure: the deployment's model, if given.
            known = self._capabilities[provider, model] = lookup(provider, named, self._overrides.get(provider))
        return self.learner.apply(provider, model, known)  # What it refused may be learned at any time.

    def _supported_modes(self, provider: str, model: str) -> tuple[Mode, ...]:
        """The model's modes, best first, minus those it refused; restricted to `modes` if set."""
        supported = modes(self._model_capabilities(provider, model))
        if self.modes is None:
            return supported
        return tuple(m for m in self.modes if m in supported) or ("text",)

    def _policy(self, output: type[Any] | None = None, *, with_tools: bool = False) -> Policy:
        """`complete`'s policy: the client's budgets, and the `output=` asked for."""
        return Policy(
            max_repairs=self.max_repairs,
            strict=self.strict,
            trigger=self.repair_trigger,
            max_tokens_on_length=self.max_tokens_on_length,
            learn=self._learn,
            output=None if output is None else output_spec(output, with_tools=with_tools),
            max_calls=self.max_tool_calls,
            max_requests=self.max_requests,
        )

    def _flow(
        self,
        messages: Messages,
        tools: tuple[Tool, ...],
        mode: Mode | None,
        tool_choice: ToolChoiceLike,
        params: Mapping[str, Any],
        trace: list[Attempt],
        policy: Policy,
    ) -> Flow:
        """The flow of one request: its plan, and how each step's request is built."""
        _check_mode(mode)
        spec = policy.output
        conversation = to_messages([{"role": "user", "content": messages}] if isinstance(messages, str) else messages)
        if not conversation:
            raise ConfigError("messages is empty: give at least one, e.g. [{'role': 'user', 'content': 'Hello'}]")
        choice = _tool_choice(tool_choice, tools)
        merged = {**self.params, **params}
        _no_client_settings(merged)
        cache = bool(merged.pop("cache", False))  # Not a provider parameter: the request says it.
        read_reasoning(merged.get("reasoning"))  # A bad value is a ConfigError before any call.
        models = [(self.provider, self.model), *self.fallback_models]
        forced = mode or self.mode or (None if tools or spec else "text")
        modes_for = output_modes(self._supported_modes) if spec and not tools else self._supported_modes
        hosts = {provider: getattr(self._adapter_for(provider), "host", None) for provider, _ in models}
        steps = plan(models, modes_for, forced=forced, max_steps=self.max_plan_steps, hosts=hosts)
        steps = able_steps(steps, conversation, request_needs(conversation, merged), self._model_capabilities, trace)

        def build(step: Step) -> Request:
            request = Request(
                model=step.model,
                messages=conversation,
                mode=step.mode,
                tools=tools,
                tool_choice=choice,
                params=merged,
                response_schema=default_response_schema(step.mode, tools),
                cache=cache,
            )
            return request if spec is None else spec.request(request)

        return request_flow(steps, build, policy, trace)

    def _learn(self, step: Step, error: ProviderError) -> None:
        """Tell the learner when a model refused a mode itself, so it is not chosen again."""
        if isinstance(error, UnsupportedFeatureError) and error.feature in _FEATURES:
            self.learner.record_rejection(step.provider, step.model, error.feature, error.message)

    def _clock(self, call: Call, ends: float | None) -> AttemptClock:
        """The time one attempt of `call` has: its provider's `timeout`, within the request's end."""
        options = self._options.get(call.step.provider)
        timeout = options.timeout if options is not None and options.timeout is not None else DEFAULT_TIMEOUT
        return AttemptClock(
            timeout=timeout, ends=ends, deadline=self.deadline, provider=call.step.provider, model=call.step.model
        )

    def _send(self, trace: list[Attempt], ends: float | None, call: Call) -> Any:
        """One call through the retry policy (sync), each attempt within its clock."""
        adapter = self._adapter_for(call.step.provider)

        def attempt() -> Any:
            with self._clock(call, ends).sync():
                return adapter.send(call.request)

        return self.retry.call(attempt, on_retry=partial(record_retry, trace, call.step), ends=ends)

    async def _asend(self, trace: list[Attempt], ends: float | None, call: Call) -> Any:
        """One call through the retry policy (async), each attempt within its clock."""
        adapter = self._adapter_for(call.step.provider)

        async def attempt() -> Any:
            return await self._clock(call, ends).wait(adapter.asend(call.request))

        return await self.retry.acall(attempt, on_retry=partial(record_retry, trace, call.step), ends=ends)

    def _complete(
        self,
        messages: Messages,
        tools: tuple[Tool, ...],
        mode: Mode | None,
        tool_choice: ToolChoiceLike,
        params: Mapping[str, Any],
        output: type[Any] | None = None,
        policy: Policy | None = None,
    ) -> Completion[Any]:
        """One request, sync: its flow driven to the answer (`policy` default: `complete`'s).

        `tools` are read already (`tool_tuple`): the tool loop reads them once for all its steps.
        """
        policy = policy or self._policy(output, with_tools=bool(tools))
        trace: list[Attempt] = []
        flow = self._flow(messages, tools, mode, tool_choice, params, trace, policy)
        return drive(flow, partial(self._send, trace, request_end(self.deadline)))

    async def _acomplete(
        self,
        messages: Messages,
        tools: tuple[Tool, ...],
        mode: Mode | None,
        tool_choice: ToolChoiceLike,
        params: Mapping[str, Any],
        output: type[Any] | None = None,
        policy: Policy | None = None,
    ) -> Completion[Any]:
        """`_complete` for `AsyncClient`."""
        policy = policy or self._policy(output, with_tools=bool(tools))
        trace: list[Attempt] = []
        flow = self._flow(messages, tools, mode, tool_choice, params, trace, policy)
        return await adrive(flow, partial(self._asend, trace, request_end(self.deadline)))


def tool_tuple(tools: Sequence[ToolLike] | ToolLike | None) -> tuple[Tool, ...]:
    """The tools given, read once per request (functions, models, dicts; one alone too) into `Tool`s."""
    read = tuple(to_tools(tools).values())
    check_tool_names(read)
    return read


def _positive(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"{name} must be a whole number of at least 1, got {value!r}")
    return value


def _check_mode(mode: object) -> None:
    if mode is not None and mode not in MODES:
        raise ConfigError(f"unknown mode {shown(mode)} (expected one of {', '.join(MODES)})")


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


_CLIENT_SETTINGS = frozenset(
    {
        "api_key",
        "base_url",
        "deadline",
        "fallback_models",
        "headers",
        "max_plan_steps",
        "max_repairs",
        "max_requests",
        "max_retries",
        "max_stream_bytes",
        "max_tool_calls",
        "provider_options",
        "retry",
        "strict",
        "timeout",
    }
)
"""Settings of the client, never generation parameters: sent to the provider, they would do nothing."""


def _no_client_settings(params: Mapping[str, Any]) -> None:
    # Without this, complete(..., timeout=0.5) sends "timeout" in the request body and bounds nothing.
    if misplaced := sorted(_CLIENT_SETTINGS.intersection(params)):
        names = ", ".join(misplaced)
        setting = (
            "retry=llmrelay.RetryPolicy(max_attempts=...)" if misplaced[0] == "max_retries" else f"{misplaced[0]}=..."
        )
        raise ConfigError(
            f"{names}: a client setting, not a generation parameter: give it to the client "
            f"(llmrelay.Client(model, {setting})), not to complete() / stream() / run() or params="
        )
