"""Structured output: `complete(..., output=Model)` returns `resp.output`, a validated `Model`.

How the model is asked for it depends on the mode of the step (best first, when no tools are
given: json_schema, native_tools, json_object, text):

- json_schema: the model's JSON schema as the response format (as each provider accepts it,
  see `adapters/_schemas`); the answer's text is the output.
- native_tools: a tool named `final_result` whose parameters are the model's schema, forced
  with tool_choice; its call becomes `output`, not a tool call.
- json_object: JSON mode, with the schema in the instructions; the answer's text is the output.
- text: `final_result` is offered as a tool in llmrelay's envelope; its call is the output.

With tools, every mode offers `final_result` beside the user's tools and the model must call one
of them (tool_choice "required"): it may call tools first (`needs_more_work`, `output` None) and
gives its output by calling `final_result` when it is done.

The answer is validated against the user's model, never against the schema that was sent. What
fails is sent back for repair with pydantic's errors; when the repairs run out the request raises
`OutputValidationError`, with the errors, the raw text and the trace.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .._envelope import MODES, Completion, Mode
from .._instructions import default_response_schema
from .._tools import Tool, to_tool
from .._types import Message, NamedTool, Request, ToolChoice
from ..errors import ConfigError, OutputValidationError, RefusalError

if TYPE_CHECKING:
    from .repair import RepairTrigger

OUTPUT_TOOL = "final_result"
"""The name of the tool that carries the output in native_tools and text modes."""

_OUTPUT_MODES: tuple[Mode, ...] = ("json_schema", *(mode for mode in MODES if mode != "json_schema"))
"""Without tools, the best way to get an object out of a model: its schema enforced, then the
usual order (forced through a tool, then JSON mode, then the envelope in text)."""


@dataclass(frozen=True)
class OutputSpec:
    """What one request's output must be, and how each mode asks for it and reads it."""

    model: type[Any]
    """The user's pydantic model: the output is validated against it."""
    tool: Tool
    """`final_result`, with the model's schema as its parameters."""
    with_tools: bool
    """The user gave tools too: `final_result` is offered beside them in every mode."""

    @property
    def schema(self) -> dict[str, Any]:
        """The model's JSON schema, as the user's model defines it."""
        return dict(self.tool.parameters)

    @property
    def name(self) -> str:
        """The schema's name for the response format: the model's, in the characters OpenAI allows."""
        return re.sub(r"[^A-Za-z0-9_-]", "_", self.model.__name__)[:64] or "output"

    def reads_text(self, mode: Mode) -> bool:
        """In this mode, the answer's text is the output (not a `final_result` call)."""
        return not self.with_tools and mode in ("json_schema", "json_object")

    def request(self, request: Request) -> Request:
        """`request` (built for the user's tools) changed to ask for the output in its mode."""
        if self.reads_text(request.mode):
            if request.mode == "json_schema":
                return replace(request, response_schema=self._described_schema(), schema_name=self.name)
            return replace(request, messages=_with_system(request.messages, _json_instructions(self)))
        tools = (*request.tools, self.tool)
        # With tools the model chooses which to call, but it must call one: final_result ends the turn.
        # A tool the caller named is still called first.
        choice: ToolChoice = "required" if self.with_tools else NamedTool(OUTPUT_TOOL)
        if isinstance(request.tool_choice, NamedTool):
            choice = request.tool_choice
        if request.tool_choice == "none":
            raise ConfigError("tool_choice='none' cannot be combined with output=: the output is given by a tool")
        schema = default_response_schema(request.mode, tools) or request.response_schema
        return replace(request, tools=tools, tool_choice=choice, response_schema=schema, schema_name="envelope")

    def _described_schema(self) -> dict[str, Any]:
        """The schema with the model's docstring as its description: the model reads it there."""
        description = self.model.model_json_schema().get("description")
        return {**self.schema, "description": description} if description else self.schema

    def check(self, result: Completion, request: Request, trigger: RepairTrigger) -> tuple[Completion, list[str]]:
        """The answer with its `output` read, and what is wrong with it (empty: nothing)."""
        if self.reads_text(request.mode):
            return self._from_text(result)
        calls = [call for call in result.tool_calls if call.name == OUTPUT_TOOL]
        if calls:
            return self._from_call(result, calls[0].arguments, request, trigger)
        if not result.tool_calls and not result.rejected:
            # A model that wrote the object itself, instead of calling final_result, still answered.
            read, errors = self._from_text(result)
            if not errors:
                return read, []
        return result, trigger(result, request)

    def _from_call(
        self, result: Completion, arguments: dict[str, Any], request: Request, trigger: RepairTrigger
    ) -> tuple[Completion, list[str]]:
        output = self.model.model_validate(arguments)  # Already checked against the model by the normalizer.
        others = [call for call in result.tool_calls if call.name != OUTPUT_TOOL]
        answered = replace(result, tool_calls=others, needs_more_work=bool(others), output=output)
        return answered, trigger(answered, replace(request, tool_choice="auto"))

    def _from_text(self, result: Completion) -> tuple[Completion, list[str]]:
        arguments, errors = self._validated(result.raw)
        if arguments is None or errors:
            schema = json.dumps(self.schema, sort_keys=True)
            problem = f"Your reply is not a valid JSON object for the required schema ({'; '.join(errors)})."
            return result, [f"{problem} It must follow: {schema}"]
        output = self.model.model_validate(arguments)
        return replace(result, content=result.raw, tool_calls=[], needs_more_work=False, output=output), []

    def failure(self, result: Completion, found: Sequence[str]) -> OutputValidationError:
        """The error raised when no valid output came, its repairs (or the request budget) run out.

        Said in the user's terms: their model's name, never the internal `final_result` tool.
        """
        name = self.model.__name__
        errors = self.errors(result) or [_user_terms(problem, name) for problem in found] or [f"no {name} was given"]
        requests = sum(attempt.outcome != "retry" for attempt in result.attempts)
        message = f"no valid {name} in the answer after {requests} request(s): " + "; ".join(errors)
        attempts = result.attempts
        return OutputValidationError(message, errors=errors, raw=result.raw, attempts=attempts, completion=result)

    def refused(self, result: Completion) -> RefusalError:
        """The error raised when the model refused to give the output (never repaired)."""
        refusal = result.refusal or "refused"
        message = f"the model refused to give a {self.model.__name__}: {refusal}"
        return RefusalError(
            message, refusal=refusal, errors=[refusal], raw=result.raw, attempts=result.attempts, completion=result
        )

    def errors(self, result: Completion) -> list[str]:
        """What made the answer's output invalid, one entry per error (pydantic's, or why it was unreadable)."""
        for rejected in result.rejected:
            if rejected.name == OUTPUT_TOOL:
                return list(rejected.errors) or [rejected.reason]
        if result.mode is not None and self.reads_text(result.mode):
            return self._validated(result.raw)[1]
        return []  # No final_result call at all: the repair problems say so.

    def _validated(self, text: str) -> tuple[dict[str, Any] | None, list[str]]:
        """The object in `text`, coerced, and the errors that stop it being the model (empty: none)."""
        from .._validation import check_arguments
        from ..adapters._schemas import strip_added_nulls
        from ..normalize import LenientJSONError, loads_lenient

        try:
            value = loads_lenient(_unfenced(text))
        except LenientJSONError as exc:
            return None, [f"not valid JSON: {exc}"]
        if not isinstance(value, dict):
            return None, [f"expected one JSON object, got {type(value).__name__}"]
        arguments, errors = check_arguments(self.tool, strip_added_nulls(value, self.schema))
        return arguments, errors


def output_spec(model: object, *, with_tools: bool) -> OutputSpec:
    """The spec for `output=model`.

    Raises:
        ConfigError: `model` is not a pydantic model class.
    """
    if not (isinstance(model, type) and hasattr(model, "model_json_schema")):
        raise ConfigError(f"output must be a pydantic model class, got {model!r}")
    tool = to_tool(model)
    description = "Give your final answer: call this once, with the answer, when you are done."
    if tool.description:
        description = f"{tool.description}\n\n{description}"
    return OutputSpec(model, replace(tool, name=OUTPUT_TOOL, description=description), with_tools)


def output_modes(modes_for: Callable[[str, str], Sequence[Mode]]) -> Callable[[str, str], Sequence[Mode]]:
    """`modes_for` reordered for an output without tools: json_schema first, then the tool."""

    def reordered(provider: str, model: str) -> Sequence[Mode]:
        supported = modes_for(provider, model)
        return tuple(mode for mode in _OUTPUT_MODES if mode in supported)

    return reordered


def _user_terms(problem: str, name: str) -> str:
    """A repair problem as the user reads it: the output tool is llmrelay's, not theirs."""
    if f"'{OUTPUT_TOOL}'" in problem or "called none" in problem:
        return f"the model never gave a {name} (it answered without the structured output)"
    return problem.replace(f", {OUTPUT_TOOL}", "").replace(f"{OUTPUT_TOOL}, ", "")


def _json_instructions(spec: OutputSpec) -> str:
    schema = json.dumps(spec.schema, sort_keys=True)
    return f"Reply with exactly one JSON object, and nothing else, that follows this JSON schema:\n{schema}"


def _with_system(messages: tuple[Message, ...], text: str) -> tuple[Message, ...]:
    if messages and messages[0].role == "system":
        return (Message("system", f"{messages[0].content}\n\n{text}".strip()), *messages[1:])
    return (Message("system", text), *messages)


def _unfenced(text: str) -> str:
    """The text without a Markdown code fence around it (JSON mode models sometimes add one)."""
    stripped = text.strip()
    if stripped.startswith("```") and stripped.endswith("```"):
        body = stripped[3:-3]
        return body.split("\n", 1)[1] if "\n" in body else body
    return stripped
