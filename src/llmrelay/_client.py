"""`Client` and `AsyncClient`: wire the pipeline together, nothing more.

Both share `_Pipeline`: it reads the arguments, plans the (model, mode) steps and sets up the
flow (`_flow.run`), which decides repairs and fallbacks. The two clients only drive that flow,
making each call through the retry policy with the adapter's `send` or `asend`.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

from typing_extensions import Self

from ._envelope import Attempt, Completion, Mode
from ._fallback import Step, plan
from ._flow import Call, Flow, Policy, record_retry, run
from ._instructions import envelope_schema
from ._messages import MessageLike, to_messages
from ._output import output_modes, output_spec
from ._repair import RepairTrigger, problems
from ._retry import RetryPolicy
from ._tools import Tool, ToolLike, to_tools
from ._types import NamedTool, Request, ToolChoice
from .adapters import Adapter, ProviderOptions, adapter_class
from .capabilities import CapabilityLearner, Feature, lookup, modes
from .errors import ConfigError, ProviderError, UnsupportedFeatureError

if TYPE_CHECKING:
    from os import PathLike

    from ._events import StreamEvent
    from ._run import RunResult

_MODES: tuple[Mode, ...] = ("native_tools", "json_schema", "json_object", "text")
_FEATURES = ("native_tools", "json_schema", "json_object", "parallel_tool_calls")
_shared_learner = CapabilityLearner()
"""What models rejected, learned by every client of this process unless one is given its own."""

Messages = str | Sequence[MessageLike]
ToolChoiceLike = str | Mapping[str, Any] | NamedTool | None
_P = TypeVar("_P", bound="_Pipeline")
_OutputT = TypeVar("_OutputT")


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
    """What `Client` and `AsyncClient` share: everything except making the call."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float | None = None,
        headers: Mapping[str, str] | None = None,
        mode: Mode | None = None,
        modes: Sequence[Mode] | None = None,
        params: Mapping[str, Any] | None = None,
        fallback_models: Sequence[str] = (),
        providers: Mapping[str, ProviderOptions] | None = None,
        max_repairs: int = 2,
        max_steps: int = 8,
        max_tokens_on_length: int | None = None,
        retry: RetryPolicy | None = None,
        capabilities: Mapping[str, Mapping[str, Mapping[str, object]]] | None = None,
        learner: CapabilityLearner | None = None,
        strict: bool = False,
        repair_trigger: RepairTrigger = problems,
        adapter: Adapter | None = None,
        provider_options: Mapping[str, Any] | None = None,
    ) -> None:
        """Set up a client for `model` ("provider:model-name").

        Args:
            model: the model to call, e.g. "openai:gpt-4o-mini".
            api_key: the key for the model's provider (default: the provider's environment variable).
            base_url: another endpoint for the model's provider (required for "openai-compatible").
            timeout: seconds to wait for each answer.
            headers: extra HTTP headers for the model's provider.
            mode: always use this output mode.
            modes: the modes allowed, in the order to try them (default: all the model supports).
            params: default generation parameters (temperature, max_tokens…).
            fallback_models: models to escalate to, in order, when this one is unusable.
            providers: connection options per provider, for the fallback models' providers.
            max_repairs: how many times a broken answer is sent back for correction (0: never).
            max_steps: the fallback budget: at most this many (model, mode) steps per request.
            max_tokens_on_length: ask once more with this `max_tokens` when an answer is cut off.
            retry: the transient-retry policy (default `RetryPolicy()`).
            capabilities: capability overrides by provider, `{provider: {model pattern: {field: value}}}`.
            learner: where refused modes are remembered (default: shared by the process).
            strict: accept only explicit tool-call constructs in text answers.
            repair_trigger: what counts as a broken answer (default `_repair.problems`).
            adapter: a ready adapter for the model's provider (tests use `FakeAdapter`).
            provider_options: options only the model's provider reads (Azure's `api_version`,
                `azure_ad_token_provider` and `model`; see docs/providers.md).
        """
        self.provider, self.model = parse_model(model)
        for forced in (mode, *(modes or ())):
            _check_mode(forced)
        self.mode = mode
        self.modes = tuple(modes) if modes else None
        self.params = dict(params or {})
        self.fallback_models = [parse_model(m) for m in fallback_models]
        self.max_repairs = max_repairs
        self.max_steps = max_steps
        self.max_tokens_on_length = max_tokens_on_length
        self.retry = retry or RetryPolicy()
        self.strict = strict
        self.repair_trigger = repair_trigger
        self.learner = learner or _shared_learner
        self._overrides = capabilities or {}
        self._options = {**(providers or {})}
        extra = dict(provider_options or {})
        self._options[self.provider] = ProviderOptions(api_key, base_url, timeout, dict(headers or {}), extra)
        self._adapters: dict[str, Adapter] = {}
        self._adapters_lock = threading.Lock()
        self._given: Adapter | None = adapter  # The caller's to close, not ours.
        if adapter is not None:
            self._adapters[self.provider] = adapter
        for provider, name in [(self.provider, self.model), *self.fallback_models]:
            self.adapter_for(provider)  # Unknown providers and missing SDKs fail here, not mid-request.
            self.supported_modes(provider, name)  # So do bad capability overrides.

    @classmethod
    def from_config(
        cls: type[_P], path: str | PathLike[str] | None = None, profile: str | None = None, **overrides: Any
    ) -> _P:
        """A client set up by a profile of a TOML config file (see docs/configuration.md).

        `path` and `profile` are those of `load_config`; keyword arguments are the constructor's
        and win over the file (`model` and `fallback_models` may name the file's aliases).
        """
        from ._config import client_arguments, load_config  # Only those who use a file pay for reading one.

        return cls(**client_arguments(load_config(path, profile), overrides))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.provider}:{self.model!r}, mode={self.mode!r})"

    def adapter_for(self, provider: str) -> Adapter:
        """The adapter for a provider of the plan, built on first use (once, whichever threads ask)."""
        if provider not in self._adapters:
            with self._adapters_lock:  # Two threads must not each build one: each holds its own connections.
                if provider not in self._adapters:
                    options = self._options.get(provider, ProviderOptions())
                    self._adapters[provider] = adapter_class(provider)(options)  # type: ignore[call-arg]
        return self._adapters[provider]

    def capability_model(self, provider: str, model: str) -> str:
        """The name the capability database knows `model` by: an Azure deployment's `model` hint, say."""
        hint = getattr(self.adapter_for(provider), "capability_model", None)
        return hint(model) if callable(hint) else model

    def _built_adapters(self) -> list[Adapter]:
        """The adapters this client made (and so must close), forgotten: a later call builds new ones."""
        with self._adapters_lock:
            built = [a for a in self._adapters.values() if a is not self._given]
            self._adapters = {p: a for p, a in self._adapters.items() if a is self._given}
        return built

    def supported_modes(self, provider: str, model: str) -> tuple[Mode, ...]:
        """The model's modes, best first, minus those it refused; restricted to `modes` if set."""
        known = lookup(provider, self.capability_model(provider, model), self._overrides.get(provider))
        caps = self.learner.apply(provider, model, known)
        supported = modes(caps)
        if self.modes is None:
            return supported
        return tuple(m for m in self.modes if m in supported) or ("text",)

    def flow(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None,
        mode: Mode | None,
        tool_choice: ToolChoiceLike,
        params: dict[str, Any],
        trace: list[Attempt],
        output: type[Any] | None = None,
        policy: Policy | None = None,
    ) -> Flow:
        """The flow of one request: its plan, how each step's request is built, the policy (default: `complete`'s)."""
        _check_mode(mode)
        tool_list = tuple(to_tools(tools).values())
        spec = None if output is None else output_spec(output, with_tools=bool(tool_list))
        conversation = to_messages([{"role": "user", "content": messages}] if isinstance(messages, str) else messages)
        choice = _tool_choice(tool_choice, tool_list)
        merged = {**self.params, **params}
        models = [(self.provider, self.model), *self.fallback_models]
        forced = mode or self.mode or (None if tool_list or spec else "text")
        modes_for = output_modes(self.supported_modes) if spec and not tool_list else self.supported_modes
        steps = plan(models, modes_for, forced=forced, max_steps=self.max_steps)

        def build(step: Step) -> Request:
            schema = envelope_schema(tool_list) if step.mode == "json_schema" else None
            request = Request(step.model, conversation, step.mode, tool_list, choice, merged, schema)
            return request if spec is None else spec.request(request)

        if policy is None:
            budgets = (self.max_repairs, self.strict, self.repair_trigger, self.max_tokens_on_length)
            policy = Policy(*budgets, self.learn, spec)
        return run(steps, build, policy, trace)

    def learn(self, step: Step, error: ProviderError) -> None:
        """Tell the learner when a model refused a mode itself, so it is not chosen again."""
        if isinstance(error, UnsupportedFeatureError) and error.feature in _FEATURES:
            self.learner.record_rejection(step.provider, step.model, cast(Feature, error.feature), error.message)

    def send(self, call: Call, trace: list[Attempt]) -> Any:
        """One call through the retry policy (sync)."""
        adapter = self.adapter_for(call.step.provider)
        return self.retry.call(partial(adapter.send, call.request), on_retry=partial(record_retry, trace, call.step))


class Client(_Pipeline):
    """Call a model with tools and get one canonical answer.

    ```python
    client = llmrelay.Client("openai:gpt-4o-mini")
    resp = client.complete([{"role": "user", "content": "Weather in Paris?"}], tools=[get_weather])
    ```

    Swapping provider is a change of the model string: "anthropic:claude-sonnet-4-6",
    "gemini:gemini-2.5-flash", "groq:llama-3.3-70b-versatile", "openrouter:…", or
    `"openai-compatible:<model>"` with `base_url=` for Ollama, vLLM, LM Studio and the like.
    Safe to share between threads: a call keeps its state to itself.
    """

    @overload
    def complete(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        output: None = None,
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> Completion: ...

    @overload
    def complete(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        output: type[_OutputT],
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> Completion[_OutputT]: ...

    def complete(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        output: type[Any] | None = None,
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> Completion[Any]:
        """Send the conversation and return the normalized, validated answer.

        Transient failures are retried; broken answers are sent back for repair; a mode the
        model refuses, or a model that is unusable, makes the request fall back down the plan.
        Every step is in `attempts`.

        Args:
            messages: the conversation (dicts in the OpenAI chat shape, `Message`s, earlier
                `Completion`s), or a single user message as a string.
            tools: what the model may call (functions, pydantic models, schema dicts, `Tool`s).
            output: a pydantic model: `resp.output` is then a validated instance of it (see README,
                "Structured output"); with tools, it comes once the model has no more calls to make.
            mode: force an output mode instead of the best one the model supports.
            tool_choice: "auto", "none", "required", or the name of one tool to call.
            **params: generation parameters passed to the provider (temperature, max_tokens…).

        Raises:
            ProviderError: a failure that falling back cannot fix (authentication, a bad request).
            AllAttemptsFailed: every step of the plan failed; holds each error and the trace.
            OutputValidationError: no valid `output` came, its repairs run out; holds the errors.
        """
        trace: list[Attempt] = []
        flow = self.flow(messages, tools, mode, tool_choice, params, trace, output)
        try:
            call = next(flow)
            while True:
                try:
                    raw = self.send(call, trace)
                except ProviderError as error:
                    call = flow.throw(error)
                else:
                    call = flow.send(raw)
        except StopIteration as stop:
            result: Completion[Any] = stop.value
            return result

    def run(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        max_steps: int = 10,
        raise_tool_errors: bool = False,
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> RunResult:
        """Run the tool loop: ask the model, run the tools it calls, feed the results back, until done.

        Each step is one `complete()` with strict parsing (a call only quoted in prose is never
        run), then the step's accepted calls run: only tools given here that have a Python
        function, with their validated arguments. A tool's exception is fed back to the model as
        an error result. Calls rejected after repairs are answered with why they were not run.
        The loop stops when an answer makes no call (`stop_reason="done"`), when it calls a tool
        without a function (`"pending_calls"`: returned, for you to answer), or after
        `max_steps` answers (`"max_steps"`: returned, not raised; that step's calls ran).
        Async tools run concurrently on an event loop of their own.

        Args:
            messages: the conversation, as for `complete()`.
            tools: what the model may call; functions run, schema-only tools are returned pending.
            max_steps: the most model answers in the loop (each one `complete()`, whose retries,
                repairs and fallbacks do not count here). Not the constructor's `max_steps`, which
                bounds the fallback steps within each of those requests.
            raise_tool_errors: raise a tool's exception (after the step's other calls finish)
                instead of feeding it back to the model.
            mode: force an output mode, as for `complete()`.
            tool_choice: as for `complete()`, on every step.
            **params: generation parameters, as for `complete()`.

        Raises:
            ConfigError: an async tool while an event loop is running here (use `AsyncClient`).
            ProviderError: as `complete()`; after tools ran, `error.partial_run` holds the run so far.
            AllAttemptsFailed: as `complete()`, with `partial_run` likewise.
        """
        from ._run import run  # The loop loads with its first use.

        return run(
            self,
            messages,
            tools,
            max_steps=max_steps,
            raise_tool_errors=raise_tool_errors,
            mode=mode,
            tool_choice=tool_choice,
            params=params,
        )

    def stream(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> Iterator[StreamEvent]:
        """Send the conversation and yield the answer as it arrives, ending with `StreamEnd`.

        The events: `TextDelta` (text for the user, markup already removed), `ToolCallStarted`,
        `ToolCallDelta` (arguments as they grow), `ToolCallComplete` (validated, or rejected with
        the reason), then one `StreamEnd` whose `completion` is what `complete()` returns. Arguments
        are those of `complete`, and are checked before this returns.

        Retries and fallbacks happen only before the first event; there are no repair rounds (the
        answer was already shown: rejected calls are on the final `completion`). A failure after
        the first event raises `StreamInterrupted`, whose `partial` holds everything received.

        Raises:
            StreamInterrupted: the stream failed after events were yielded.
            ProviderError: a failure before the first event that falling back cannot fix.
            AllAttemptsFailed: every step of the plan failed before streaming anything.
        """
        from ._stream import run as run_stream
        from ._stream import stream_policy

        _no_output_in_streams(params)
        trace: list[Attempt] = []
        flow = self.flow(messages, tools, mode, tool_choice, params, trace, policy=stream_policy(self))
        return run_stream(self, flow, trace)

    def close(self) -> None:
        """Close the connections of the SDK clients this client opened (an `adapter=` you gave is yours).

        Also what `with llmrelay.Client(...) as client:` does at the end. The client stays usable:
        a later call opens new connections.
        """
        for adapter in self._built_adapters():
            close = getattr(adapter, "close", None)
            if close is not None:
                close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncClient(_Pipeline):
    """`Client` for asyncio: the same constructor, and `await client.complete(...)`."""

    @overload
    async def complete(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        output: None = None,
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> Completion: ...

    @overload
    async def complete(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        output: type[_OutputT],
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> Completion[_OutputT]: ...

    async def complete(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        output: type[Any] | None = None,
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> Completion[Any]:
        """Send the conversation and return the normalized, validated answer (see `Client.complete`)."""
        trace: list[Attempt] = []
        flow = self.flow(messages, tools, mode, tool_choice, params, trace, output)
        try:
            call = next(flow)
            while True:
                adapter = self.adapter_for(call.step.provider)
                try:
                    raw = await self.retry.acall(
                        partial(adapter.asend, call.request), on_retry=partial(record_retry, trace, call.step)
                    )
                except ProviderError as error:
                    call = flow.throw(error)
                else:
                    call = flow.send(raw)
        except StopIteration as stop:
            result: Completion[Any] = stop.value
            return result

    async def run(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        max_steps: int = 10,
        raise_tool_errors: bool = False,
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> RunResult:
        """Run the tool loop (see `Client.run`); a step's calls run concurrently, sync tools in threads."""
        from ._run import arun

        return await arun(
            self,
            messages,
            tools,
            max_steps=max_steps,
            raise_tool_errors=raise_tool_errors,
            mode=mode,
            tool_choice=tool_choice,
            params=params,
        )

    def stream(
        self,
        messages: Messages,
        tools: Sequence[ToolLike] | None = None,
        *,
        mode: Mode | None = None,
        tool_choice: ToolChoiceLike = None,
        **params: Any,
    ) -> AsyncIterator[StreamEvent]:
        """The answer as events while it arrives: `async for event in client.stream(...)` (see `Client.stream`)."""
        from ._stream import arun, stream_policy

        _no_output_in_streams(params)
        trace: list[Attempt] = []
        flow = self.flow(messages, tools, mode, tool_choice, params, trace, policy=stream_policy(self))
        return arun(self, flow, trace)

    async def aclose(self) -> None:
        """Close the connections of the SDK clients this client opened (see `Client.close`).

        Also what `async with llmrelay.AsyncClient(...) as client:` does at the end.
        """
        for adapter in self._built_adapters():
            aclose = getattr(adapter, "aclose", None)
            if aclose is not None:
                await aclose()
            elif (close := getattr(adapter, "close", None)) is not None:
                close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def _no_output_in_streams(params: Mapping[str, Any]) -> None:
    # Without this, `output=` would go to the provider as a generation parameter, unnoticed.
    if "output" in params:
        raise ConfigError("stream() does not take output=: structured output is not streamed; use complete(output=...)")


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
