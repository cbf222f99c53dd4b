"""The ordered list of strategies `parse_response` tries, and how users add their own."""

from __future__ import annotations

from ._types import Strategy

_strategies: tuple[Strategy, ...] = ()


def registered_strategies() -> tuple[Strategy, ...]:
    """The strategies `parse_response` tries, in order, most specific first."""
    global _strategies
    if not _strategies:
        from .strategies import DEFAULT_STRATEGIES  # Deferred: strategies import this package.

        _strategies = DEFAULT_STRATEGIES
    return _strategies


def register_strategy(strategy: Strategy, *, first: bool = True) -> None:
    """Add a strategy: tried before the built-in ones (`first=True`) or after them.

    A strategy registered first sees every answer before the built-ins, so it should recognise
    only its own format and return None for anything else. Registering a strategy with the name
    of one already present replaces it.
    """
    global _strategies
    current = [s for s in registered_strategies() if s.name != strategy.name]
    current.insert(0 if first else len(current), strategy)
    _strategies = tuple(current)


def unregister_strategy(name: str) -> None:
    """Remove the strategy with this name (no error when there is none)."""
    global _strategies
    _strategies = tuple(s for s in registered_strategies() if s.name != name)


def reset_strategies() -> None:
    """Go back to the built-in strategies only."""
    global _strategies
    _strategies = ()
