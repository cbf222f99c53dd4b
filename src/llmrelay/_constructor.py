"""How the clients' constructor reads to a user: the signature help() shows, the errors for wrong arguments.

The constructor is `Pipeline.__init__`, shared by `Client` and `AsyncClient`; Python would name it in
a TypeError (`Pipeline.__init__() got an unexpected keyword argument`), and show `__new__`'s
signature in help(). These say `Client()` and show the constructor's arguments.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._pipeline.setup import Pipeline

if TYPE_CHECKING:
    import inspect

_INIT = Pipeline.__init__.__code__
_SETTINGS = _INIT.co_varnames[1 : _INIT.co_argcount + _INIT.co_kwonlyargcount]
"""The constructor's keyword arguments (`model` and the settings), read without `inspect`."""
_GENERATION_PARAMS = ("temperature", "top_p", "top_k", "max_tokens", "stop", "seed", "presence_penalty")
"""Parameters users give the constructor that belong to `params=` or a call (for "did you mean")."""


def check_arguments(client: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    """Raise the TypeError Python would, in the user's terms: `Client()`, and what to write instead."""
    if len(args) > 1:
        raise TypeError(
            f"{client}() takes the model as its only positional argument; give the others by name "
            f"({client}({args[0]!r}, api_key=..., base_url=...))"
        )
    for name in kwargs:
        if name not in _SETTINGS:
            raise TypeError(f"{client}() got an unexpected keyword argument {name!r}{_hint(name, kwargs[name])}")
    if not args and "model" not in kwargs:
        raise TypeError(
            f'{client}() needs the model to call, "provider:model-name": {client}("openai:gpt-4o-mini"); '
            f"or {client}.from_config() to read it from llmrelay.toml or LLMRELAY_MODEL"
        )


def _hint(name: str, value: Any) -> str:
    """What the user probably meant: a setting with a close name, or a generation parameter."""
    import difflib

    # Two letters swapped (`modle`) first: difflib alone ranks `mode` above `model` for it.
    setting = [s for s in _SETTINGS if sorted(s) == sorted(name)] or difflib.get_close_matches(name, _SETTINGS, n=1)
    parameter = (
        name
        if name in _GENERATION_PARAMS
        else next(iter(difflib.get_close_matches(name, _GENERATION_PARAMS, n=1)), None)
    )
    if name == "max_retries":
        return "; retries are retry=llmrelay.RetryPolicy(max_attempts=...)"
    if parameter is not None:
        meant = "" if parameter == name else f" (did you mean {parameter!r}?)"
        return (
            f"{meant}: a generation parameter goes in params={{{parameter!r}: {value!r}}}, "
            f"or to each call: complete(..., {parameter}={value!r})"
        )
    if setting:
        return f"; did you mean {setting[0]}=?"
    return ""


class ConstructorSignature:
    """The clients' `__signature__`: the constructor's, shown by help() and inspect instead of `__new__`'s.

    Made when asked for: `from llmrelay import Client` does not load `inspect`.
    """

    def __get__(self, instance: object, owner: type | None = None) -> inspect.Signature:
        import inspect

        signature = inspect.signature(Pipeline.__init__)
        return signature.replace(parameters=list(signature.parameters.values())[1:])  # Without `self`.
