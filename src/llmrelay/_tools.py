"""`Tool`: what the model may call, built from a schema dict, a pydantic model or a typed function."""

from __future__ import annotations

import inspect
import json
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from typing import TYPE_CHECKING, Any, TypeAlias

from .errors import ConfigError

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

JsonSchema: TypeAlias = Mapping[str, Any]
ToolLike: TypeAlias = "Tool | Callable[..., Any] | type[Any] | Mapping[str, Any]"

_EMPTY_OBJECT: dict[str, Any] = {"type": "object", "properties": {}}


@dataclass(frozen=True)
class Tool:
    """A tool the model may call: a name, a description and a JSON schema for its arguments."""

    name: str
    """The name the model uses to call it."""
    description: str = ""
    """What the tool does, for the model."""
    parameters: JsonSchema = field(default_factory=lambda: dict(_EMPTY_OBJECT))
    """JSON schema of the arguments object."""
    function: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    """The Python function behind the tool, when it was built from one."""
    model: type[Any] | None = field(default=None, compare=False, repr=False)
    """The pydantic model that validates the arguments: the user's model, or the one made from a
    function's signature. When set, arguments are validated with pydantic, not the JSON schema."""

    @cached_property
    def validator(self) -> Validator:
        """A JSON-schema validator for the arguments, built once per schema."""
        try:
            return _validator(json.dumps(self.parameters, sort_keys=True))
        except ValueError as exc:
            raise ConfigError(f"tool {self.name!r}: parameters is not a valid JSON schema: {exc}") from exc


@lru_cache(maxsize=512)
def _validator(schema_json: str) -> Validator:
    """A checked validator per distinct schema.

    Tools given as dicts become new `Tool`s on every call, and checking a schema against its
    metaschema costs far more than a call's own work; so validators are shared by schema content.
    """
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for  # Heavy import: only when tools are checked.

    schema = json.loads(schema_json)
    cls = validator_for(schema)
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        raise ValueError(exc.message) from exc
    validator: Validator = cls(schema)
    return validator


def to_tool(obj: ToolLike) -> Tool:
    """Convert anything llmrelay accepts as a tool into a `Tool`.

    Accepts a `Tool`; a JSON-schema dict `{"name", "description", "parameters"}` (Anthropic's
    `input_schema` too); an OpenAI-style `{"type": "function", "function": {...}}` dict; a
    pydantic model class; or a typed Python function (schema from its signature, descriptions
    from its docstring).

    Raises:
        ConfigError: the object cannot be a tool, with what is wrong with it.
    """
    if isinstance(obj, Tool):
        return obj
    if isinstance(obj, Mapping):
        return _checked_schema(_from_mapping(obj))
    if isinstance(obj, type) and hasattr(obj, "model_json_schema"):
        return _read_once(_from_pydantic_model, obj)
    if callable(obj):
        return _read_once(_from_function, obj)
    raise ConfigError(f"cannot make a tool from {obj!r}: expected a Tool, dict, pydantic model or function")


_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
"""The tool names every provider accepts (OpenAI's and Anthropic's rule; Gemini's is wider)."""


def check_tool_names(tools: Sequence[Tool]) -> None:
    """Every tool's name is one the providers accept (checked before a request is built).

    `parse_response` on its own takes any name: text formats carry dotted names too.
    """
    for tool in tools:
        _checked_name(tool.name)


def _checked_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise ConfigError(
            f"tool name {name!r} is not one providers accept: 1 to 64 letters, digits, '_' or '-' (e.g. 'get_weather')"
        )
    return name


def _checked_schema(tool: Tool) -> Tool:
    """A tool given as a dict, its parameters checked against the JSON Schema meta-schema now, not at the provider."""
    try:
        validator = _validator(json.dumps(tool.parameters, sort_keys=True))
    except ValueError as exc:
        raise ConfigError(f"tool {tool.name!r}: parameters is not a valid JSON schema: {exc}") from exc
    except TypeError as exc:
        raise ConfigError(f"tool {tool.name!r}: parameters is not JSON: {exc}") from exc
    tool.__dict__["validator"] = validator  # The cached property, set: no second encoding of the schema.
    return tool


def to_tools(objs: Sequence[ToolLike] | ToolLike | None) -> dict[str, Tool]:
    """Convert a list of tool-likes (or one) into `Tool`s keyed by name; duplicate names are an error."""
    if isinstance(objs, str):
        raise ConfigError(f"tools must be a list of tools, not a string: write tools=[{objs}], the function itself")
    if isinstance(objs, (Tool, Mapping, type)) or callable(objs):
        objs = [objs]  # One tool where a list was expected: `tools=get_weather`.
    tools: dict[str, Tool] = {}
    for obj in objs or ():
        tool = to_tool(obj)
        if tool.name in tools:
            raise ConfigError(f"two tools are named {tool.name!r}")
        tools[tool.name] = tool
    return tools


def _from_mapping(spec: Mapping[str, Any]) -> Tool:
    if spec.get("type") == "function" and isinstance(spec.get("function"), Mapping):
        spec = spec["function"]
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError(f"tool definition has no 'name': {dict(spec)!r}")
    parameters = spec.get("parameters", spec.get("input_schema", _EMPTY_OBJECT))
    if not isinstance(parameters, Mapping):
        raise ConfigError(f"tool {name!r}: 'parameters' must be a JSON schema object")
    description = spec.get("description") or ""
    return Tool(name=name, description=str(description), parameters=dict(parameters))


_READ: dict[Any, Tool] = {}
_READ_MAX = 256
_READ_LOCK = threading.Lock()
"""Tools already made from functions and models, by the object: building one (a pydantic model,
its JSON schema) costs milliseconds, and `complete(tools=[f])` reads the same `f` on every call."""


def _read_once(read: Callable[[Any], Tool], obj: Any) -> Tool:
    """`read(obj)`, made once per function or model (a few hundred kept; unhashable ones every time)."""
    try:
        return _READ[obj]
    except KeyError:
        pass
    except TypeError:  # A callable object that defines __eq__ but not __hash__.
        return read(obj)
    tool = read(obj)
    with _READ_LOCK:
        if len(_READ) >= _READ_MAX:
            _READ.pop(next(iter(_READ)))  # The oldest: functions made anew per call must not grow this.
        _READ[obj] = tool
    return tool


def _from_pydantic_model(model: type[Any]) -> Tool:
    schema = _object_at_root(_drop_titles(model.model_json_schema()))
    description = schema.pop("description", None) or ""
    return Tool(name=model.__name__, description=description, parameters=schema, model=model)


def _from_function(function: Callable[..., Any]) -> Tool:
    import pydantic  # Heavy import: only when a function is turned into a tool.

    # functools.partial: the wrapped function's name, docs and hints; its bound parameters are
    # not the model's to give (positional ones `inspect.signature` drops, keywords here).
    inner = function.func if isinstance(function, partial) else function
    name = getattr(inner, "__name__", type(inner).__name__)
    if name == "<lambda>":
        raise ConfigError(
            "a lambda cannot be a tool: it has no name the model can call; write a def with typed parameters"
        )
    summary, parameter_docs = _parse_docstring(inspect.getdoc(inner) or "")
    hints = _type_hints(inner)
    fields: dict[str, Any] = {}
    bound = set(function.keywords) if isinstance(function, partial) else set()
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD) or parameter.name in bound:
            continue
        if parameter.name not in hints:
            raise ConfigError(
                f"tool {name!r}: parameter {parameter.name!r} has no type annotation "
                f"(write e.g. `{parameter.name}: str`: the model is told each argument's type)"
            )
        annotation = hints[parameter.name]
        default = ... if parameter.default is parameter.empty else parameter.default
        fields[parameter.name] = (
            annotation,
            pydantic.Field(default, description=parameter_docs.get(parameter.name)),
        )
    # Extra arguments are refused: the function could not be called with them.
    model = pydantic.create_model(name, __config__=pydantic.ConfigDict(extra="forbid"), **fields)
    schema = _drop_titles(model.model_json_schema())
    schema.pop("description", None)
    return Tool(name=name, description=summary, parameters=schema, function=function, model=model)


def _type_hints(function: Callable[..., Any]) -> dict[str, Any]:
    import typing

    try:
        return typing.get_type_hints(function, include_extras=True)
    except (NameError, TypeError) as exc:
        raise ConfigError(f"cannot read the type hints of {function!r}: {exc}") from exc


_SECTION = re.compile(
    r"^(Args|Arguments|Parameters|Params|Returns|Raises|Yields|Examples?|Notes?|Attributes|See Also):\s*$"
)
_NUMPY_RULE = re.compile(r"^-{3,}\s*$")
_NUMPY_ARG = re.compile(r"^(\*{0,2}\w+)(?:\s*:\s*.*)?$")
_GOOGLE_ARG = re.compile(r"^\s{2,}(\*{0,2}\w+)(?:\s*\([^)]*\))?:\s*(.*)$")
_SPHINX_ARG = re.compile(r"^:param\s+(?:[^:\s]+\s+)?(\w+):\s*(.*)$")
_SPHINX_FIELD = re.compile(r"^:\w+")
_ARGUMENT_SECTIONS = ("Args", "Arguments", "Parameters", "Params")


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-, NumPy- or Sphinx-style docstring into its description and per-argument docs."""
    description: list[str] = []
    arguments: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    lines = doc.splitlines()
    for index, line in enumerate(lines):
        stripped = line.strip()
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if _NUMPY_RULE.match(stripped):
            continue  # The underline of a NumPy section title, read with the title.
        if _NUMPY_RULE.match(following.strip()) and stripped:
            section, current = f"numpy:{stripped}", None  # "Parameters" over "----------".
        elif match := _SECTION.match(stripped):
            section, current = match.group(1), None
        elif match := _SPHINX_ARG.match(stripped):
            current = match.group(1)
            arguments[current] = match.group(2).strip()
            section = "Sphinx"
        elif _SPHINX_FIELD.match(stripped):
            section, current = "Sphinx", None  # :type x:, :returns:, :raises: describe no argument.
        elif section in _ARGUMENT_SECTIONS and (match := _GOOGLE_ARG.match(line)):
            current = match.group(1).lstrip("*")
            arguments[current] = match.group(2).strip()
        elif section == "numpy:Parameters" and line[:1].strip() and (match := _NUMPY_ARG.match(stripped)):
            current = match.group(1).lstrip("*")  # "city : str" at the section's margin; its text follows.
            arguments[current] = ""
        elif section is not None and current is not None and stripped:
            arguments[current] = f"{arguments[current]} {stripped}".strip()
        elif section is None:
            description.append(line)
    return "\n".join(description).strip(), {name: text for name, text in arguments.items() if text}


def _object_at_root(schema: dict[str, Any]) -> dict[str, Any]:
    """A recursive model's schema with its object at the root, not a bare `$ref`.

    Pydantic writes `{"$defs": {"Node": {...}}, "$ref": "#/$defs/Node"}` for a model that refers to
    itself; tool APIs want `"type": "object"` at the root. The definition stays for the inner refs.
    """
    ref, defs = schema.get("$ref"), schema.get("$defs")
    if (
        isinstance(ref, str)
        and ref.startswith("#/$defs/")
        and isinstance(defs, dict)
        and set(schema) <= {"$ref", "$defs"}
    ):
        return {**defs[ref.removeprefix("#/$defs/")], "$defs": defs}
    return schema


def _drop_titles(schema: Any) -> Any:
    """Remove pydantic's generated `title` keys: noise to the model, and some providers reject them."""
    if isinstance(schema, dict):
        return {
            key: _drop_titles(value) for key, value in schema.items() if not (key == "title" and isinstance(value, str))
        }
    if isinstance(schema, list):
        return [_drop_titles(item) for item in schema]
    return schema
