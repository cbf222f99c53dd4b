"""`Client` and `AsyncClient`: the public face of the pipeline, nothing more.

Everything they share — reading the arguments, the plan, each step's request, the flow of
repairs and fallbacks, the retry policy around the adapter — is `_pipeline`'s (see
docs/architecture.md). Each entry point here hands its arguments to it and returns the result:
`complete` drives one flow, `stream` streams one, `run` gives the tool loop (`_tool_loop`) a
function completing one step with the loop's policy.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, overload

from ._constructor import ConstructorSignature, check_arguments
from ._pipeline.setup import Messages, Pipeline, ToolChoiceLike, parse_model, tool_tuple
from .errors import ConfigError

if TYPE_CHECKING:  # Annotations only: the pipeline's modules load with the first client (`setup._load`).
    from os import PathLike

    from typing_extensions import Self

    from ._envelope import Attempt, Completion, Mode
    from ._events import StreamEvent
    from ._tool_loop.loop import RunResult
    from ._tools import ToolLike

__all__ = ["AsyncClient", "Client", "Messages", "ToolChoiceLike", "parse_model"]

_P = TypeVar("_P", bound="_ClientBase")
_OutputT = TypeVar("_OutputT")


class _ClientBase(Pipeline):
    """The constructor (`Pipeline`'s) and `from_config`, shared by both clients."""

    __signature__ = ConstructorSignature()

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        """A new client, its arguments checked first: a wrong one names `Client()`, not `Pipeline.__init__()`."""
        check_arguments(cls.__name__, args, kwargs)
        return super().__new__(cls)

    @classmethod
    def from_config(
        cls: type[_P], path: str | PathLike[str] | None = None, profile: str | None = None, **overrides: Any
    ) -> _P:
        """A client set up by a profile of a TOML config file (see docs/configuration.md).

        `path` and `profile` are those of `load_config`; keyword arguments are the constructor's
        and win over the file (`model` and `fallback_models` may name the file's aliases).
        """
        from ._config import client_arguments, load_config  # Only those who use a file pay for reading one.

        arguments = client_arguments(load_config(path, profile), overrides)
        if "max_steps" in arguments and "max_steps" not in overrides:  # The file's key keeps its name.
            arguments["max_plan_steps"] = arguments.pop("max_steps")
        return cls(**arguments)


class Client(_ClientBase):
    """Call a model with tools and get one canonical answer.

    ```python
    client = llmrelay.Client("openai:gpt-4o-mini")
    resp = client.complete([{"role": "user", "content": "Weather in Paris?"}], tools=[get_weather])
    ```

    Swapping provider is a change of the model string: "anthropic:claude-sonnet-4-6",
    "gemini:gemini-2.5-flash", "groq:llama-3.3-70b-versatile", "openrouter:…", or
    `"openai-compatible:<model>"` with `base_url=` for Ollama, vLLM, LM Studio and the like.
    Safe to share between threads: a call keeps its state to itself.

    Args:
        model: the model to call, e.g. "openai:gpt-4o-mini".
        api_key: the key for the model's provider (default: the provider's environment variable).
        base_url: another endpoint for the model's provider (required for "openai-compatible").
        timeout: seconds one attempt may take, from connecting to the answer's last byte
            (streams included; default 600). Past it, `ProviderTimeoutError` (retried).
        headers: extra HTTP headers for the model's provider.
        max_stream_bytes: a streamed answer of the model's provider may be this long (default
            64 MiB); past it the stream ends with `ResponseTooLarge`.
        mode: always use this output mode.
        modes: the modes allowed, in the order to try them (default: all the model supports).
        params: default generation parameters (temperature, max_tokens…).
        fallback_models: models to escalate to, in order, when this one is unusable.
        providers: connection options per provider, for the fallback models' providers.
        max_repairs: how many times a broken answer is sent back for correction (0: never).
        max_plan_steps: the fallback budget: at most this many (model, mode) steps per request.
        max_tokens_on_length: ask once more with this `max_tokens` when an answer is cut off.
        max_requests: the most requests one `complete()` sends in all (repairs, fallback steps
            and the last resort count; a transient failure's retries are `retry`'s).
        retry: the transient-retry policy (default `RetryPolicy()`).
        capabilities: capability overrides by provider, `{provider: {model pattern: {field: value}}}`.
        learner: where refused modes are remembered (default: shared by the process).
        strict: accept only explicit tool-call constructs in text answers.
        repair_trigger: what counts as a broken answer (default None: the built-in check,
            `_pipeline.repair.problems`; see docs/reliability.md).
        adapter: a ready adapter for the model's provider (tests use `FakeAdapter`).
        max_steps: deprecated: the old name of `max_plan_steps` (a DeprecationWarning).
        max_tool_calls: the most calls read from one answer, whatever its format (default
            128); one rejection counts those past it, and they are never run.
        deadline: seconds one `complete()`, `stream()` or `run()` step may take, its retries,
            repairs and fallbacks included (default 900; None: no bound but `timeout=` per
            attempt). Past it, `DeadlineExceeded`; no retry waits past it.
        provider_options: options only the model's provider reads (Azure's `api_version`,
            `azure_ad_token_provider` and `model`, Vertex AI's `project`; see docs/providers.md).
        reasoning: how much the model reasons, on every request: "low", "medium", "high",
            `{"budget_tokens": N}`, or False (off where possible); per call `reasoning=` wins.
            None sends nothing (the provider's default). See docs/content.md.
        cache: place prompt-cache breakpoints where the provider wants them marked (Anthropic:
            tools, system, the conversation's stable prefix); a no-op where caching is
            automatic (OpenAI, Gemini, Groq). Per call `cache=` wins.
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
            tools: what the model may call (functions, pydantic models, schema dicts, `Tool`s; one alone too).
            output: a pydantic model: `resp.output` is then a validated instance of it (see README,
                "Structured output"); with tools, it comes once the model has no more calls to make.
            mode: force an output mode instead of the best one the model supports.
            tool_choice: "auto", "none", "required", or the name of one tool to call.
            **params: generation parameters passed to the provider (temperature, max_tokens…).

        Raises:
            ProviderError: a failure that falling back cannot fix (authentication, a bad request).
            AllAttemptsFailed: every step of the plan failed; holds each error and the trace.
            OutputValidationError: no valid `output` came, its repairs run out; holds the errors.
            RefusalError: the model refused to give the `output` (an `OutputValidationError`; never repaired).
            MissingToolCallError: `tool_choice` required a call and none came within `max_requests`.
        """
        return self._complete(messages, tool_tuple(tools), mode, tool_choice, params, output)

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
                repairs and fallbacks do not count here). Not the constructor's `max_plan_steps`,
                which bounds the fallback steps within each of those requests.
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
        from ._tool_loop.loop import ToolLoop, loop_policy, run_tools  # The loop loads with its first use.

        loop = ToolLoop(messages, tools, max_steps)
        policy = loop_policy(self._policy())
        complete = partial(self._complete, mode=mode, tool_choice=tool_choice, params=params, policy=policy)
        return run_tools(complete, loop, raise_tool_errors=raise_tool_errors)

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
        from ._pipeline.stream import stream_events, stream_policy

        _no_output_in_streams(params)
        trace: list[Attempt] = []
        flow = self._flow(messages, tool_tuple(tools), mode, tool_choice, params, trace, stream_policy(self))
        return stream_events(self, flow, trace)

    def close(self) -> None:
        """Close the connections of the SDK clients this client opened (an `adapter=` you gave is yours).

        Also what `with llmrelay.Client(...) as client:` does at the end. The client stays usable:
        a later call opens new connections.
        """
        from .adapters import Closable

        for adapter in self._built_adapters():
            if isinstance(adapter, Closable):
                adapter.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncClient(_ClientBase):
    """`Client` for asyncio: the same constructor (its arguments: see `Client`), and `await client.complete(...)`."""

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
        return await self._acomplete(messages, tool_tuple(tools), mode, tool_choice, params, output)

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
        from ._tool_loop.loop import ToolLoop, arun_tools, loop_policy

        loop = ToolLoop(messages, tools, max_steps)
        policy = loop_policy(self._policy())
        complete = partial(self._acomplete, mode=mode, tool_choice=tool_choice, params=params, policy=policy)
        return await arun_tools(complete, loop, raise_tool_errors=raise_tool_errors)

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
        from ._pipeline.stream import astream_events, stream_policy

        _no_output_in_streams(params)
        trace: list[Attempt] = []
        flow = self._flow(messages, tool_tuple(tools), mode, tool_choice, params, trace, stream_policy(self))
        return astream_events(self, flow, trace)

    async def aclose(self) -> None:
        """Close the connections of the SDK clients this client opened (see `Client.close`).

        Also what `async with llmrelay.AsyncClient(...) as client:` does at the end.
        """
        from .adapters import AsyncClosable, Closable

        for adapter in self._built_adapters():
            if isinstance(adapter, AsyncClosable):
                await adapter.aclose()
            elif isinstance(adapter, Closable):
                adapter.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def _no_output_in_streams(params: Mapping[str, Any]) -> None:
    # Without this, `output=` would go to the provider as a generation parameter, unnoticed.
    if "output" in params:
        raise ConfigError("stream() does not take output=: structured output is not streamed; use complete(output=...)")
