"""The ordered list of strategies `parse_response` tries, and how users add their own."""

from __future__ import annotations

from ._types import Strategy

_strategies: list[Strategy] = []


def strategies() -> tuple[Strategy, ...]:
    """The strategies `parse_response` tries, in order, most specific first."""
    if not _strategies:
        from .strategies import DEFAULT_STRATEGIES  # Deferred: strategies import this package.

        _strategies.extend(DEFAULT_STRATEGIES)
    return tuple(_strategies)


def register_strategy(strategy: Strategy, *, first: bool = True) -> None:
    """Add a strategy: tried before the built-in ones (`first=True`) or after them.

    A strategy registered first sees every answer before the built-ins, so it should recognise
    only its own format and return None for anything else. Registering a strategy with the name
    of one already present replaces it.
    """
    current = [s for s in strategies() if s.name != strategy.name]
    current.insert(0 if first else len(current), strategy)
    _strategies[:] = current


def unregister_strategy(name: str) -> None:
    """Remove the strategy with this name (no error when there is none)."""
    _strategies[:] = [s for s in strategies() if s.name != name]


def reset_strategies() -> None:
    """Go back to the built-in strategies only."""
    _strategies.clear()
