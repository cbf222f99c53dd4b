"""The fallback plan: which (model, mode) to try, in what order, and which failures move on.

The plan for a request is the model's modes from best to worst (per the capability database and
what the learner has seen it refuse), then each configured fallback model with its own modes.
A step that fails moves the plan on, and the decision is made by predicates that can be swapped:

- the model refused the mode (`UnsupportedFeatureError`), or its repairs ran out: next mode;
- the model is unusable (not found, or still failing after transient retries): next model;
- anything else (authentication, permission, a bad request) is raised at once: falling back
  would only hide a mistake the user must fix; so is `DeadlineExceeded` (the request's time is up).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .._envelope import Mode
from ..errors import DeadlineExceeded, NotFoundError, ProviderError, TransientError, UnsupportedFeatureError


@dataclass(frozen=True)
class Step:
    """One entry of the plan: a model, and the mode to ask it for."""

    provider: str
    model: str
    mode: Mode
    host: str | None = None
    """Where the provider's adapter sends (`Attempt.host`), filled in by the client."""


def should_fall_back(error: ProviderError) -> bool:
    """Whether the plan moves on after this error (otherwise it is raised at once).

    Not after `DeadlineExceeded`: the request's time is up for every step.
    """
    if isinstance(error, DeadlineExceeded):
        return False
    return isinstance(error, (UnsupportedFeatureError, NotFoundError, TransientError))


def model_is_unusable(error: ProviderError) -> bool:
    """Whether the error rules out the model itself, so its other modes are skipped too."""
    return isinstance(error, (NotFoundError, TransientError))


def plan(
    models: Sequence[tuple[str, str]],
    modes_for: Callable[[str, str], Sequence[Mode]],
    *,
    forced: Mode | None,
    max_steps: int,
    hosts: Mapping[str, str | None] | None = None,
) -> list[Step]:
    """The ordered steps for a request with tools, at most `max_steps` of them.

    Args:
        models: (provider, model) pairs: the client's model first, then its fallback models.
        modes_for: the modes a model supports, best first.
        forced: a mode the caller insisted on: the only mode tried, on every model.
        max_steps: the fallback budget (the first step included).
        hosts: where each provider's adapter sends, put on its steps (`Step.host`).
    """
    hosts = hosts or {}
    steps = [
        Step(provider, model, mode, hosts.get(provider))
        for provider, model in models
        for mode in ((forced,) if forced is not None else modes_for(provider, model))
    ]
    return steps[: max(max_steps, 1)]
