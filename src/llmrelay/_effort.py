"""`reasoning=`: the one knob for how much a model thinks, read once here and mapped by each adapter.

```
reasoning="low" | "medium" | "high"      an effort level
reasoning={"budget_tokens": 8000}        a token budget for the reasoning
reasoning=True                           "medium"
reasoning=False                          off where the provider can turn it off (see docs/content.md)
reasoning=None (or not given)            nothing sent: the provider's default
```

Providers speak either efforts (OpenAI, Groq) or budgets (Anthropic, Gemini 2.5); each side is
converted with the one table below, so "high" means the same budget everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .errors import ConfigError

Effort = Literal["low", "medium", "high"]
ReasoningLike = Effort | Mapping[str, int] | bool | None
"""What `reasoning=` accepts (on the client and per call)."""

EFFORT_BUDGETS: dict[Effort, int] = {"low": 1024, "medium": 8192, "high": 24576}
"""Token budgets for the effort levels (Anthropic's minimum is 1024; Gemini 2.5 Flash's maximum 24576)."""


@dataclass(frozen=True)
class Reasoning:
    """A `reasoning=` value, read: an effort, a budget, or off."""

    effort: Effort | None = None
    budget_tokens: int | None = None
    enabled: bool = True

    @property
    def budget(self) -> int:
        """The token budget: the one given, else the effort's."""
        return self.budget_tokens or EFFORT_BUDGETS[self.effort or "medium"]

    @property
    def level(self) -> Effort:
        """The effort: the one given, else the smallest whose budget covers the one given."""
        if self.effort is not None:
            return self.effort
        return next((e for e, b in EFFORT_BUDGETS.items() if self.budget <= b), "high")


def read_reasoning(value: Any) -> Reasoning | None:
    """A `reasoning=` value as `Reasoning` (None: nothing asked).

    Raises:
        ConfigError: a value that is none of the accepted forms.
    """
    if value is None or isinstance(value, Reasoning):
        return value
    if value is True or value is False:
        return Reasoning(effort="medium") if value else Reasoning(enabled=False)
    if isinstance(value, str) and value in EFFORT_BUDGETS:
        return Reasoning(effort=value)
    if isinstance(value, Mapping) and set(value) == {"budget_tokens"}:
        budget = value["budget_tokens"]
        if isinstance(budget, int) and not isinstance(budget, bool) and budget > 0:
            return Reasoning(budget_tokens=budget)
    raise ConfigError(
        f"reasoning must be 'low', 'medium', 'high', {{'budget_tokens': <positive int>}}, True, False or None; "
        f"got {value!r}"
    )


def take_reasoning(params: Mapping[str, Any]) -> tuple[Reasoning | None, dict[str, Any]]:
    """The request's `reasoning` setting, and the other parameters (which pass through to the provider)."""
    rest = dict(params)
    return read_reasoning(rest.pop("reasoning", None)), rest


def wants_reasoning(params: Mapping[str, Any]) -> bool:
    """The parameters ask the model to reason (an effort or a budget, not off or unset)."""
    setting = read_reasoning(params.get("reasoning"))
    return setting is not None and setting.enabled
