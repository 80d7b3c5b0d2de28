"""Strategies and their registry.

>>> from keypeg.rules import find_rules
>>> from keypeg.game import GameState
>>> str(find_strategy("knuth").next_guess(GameState.start(find_rules("classic"))))
'1122'
"""

from __future__ import annotations

import contextlib
import inspect
from typing import TYPE_CHECKING, Any

from ..catalog import ALIASES, ONE_STEP_NAMES, STRATEGY_NAMES, TABLE_STRATEGIES, TIE_RULES
from ..errors import KeypegError
from ..limits import shorten
from ..onestep import ENTROPY_SPELLINGS, KINDS, OneStepStrategy, RandomStrategy
from ..strategy import Strategy
from ..strategy import evaluate as _evaluate
from .optimal import OptimalStrategy

if TYPE_CHECKING:
    from ..tree import DecisionTree

#: The options a one-step strategy takes (its constructor's keywords).
_ONE_STEP_OPTIONS = set(inspect.signature(OneStepStrategy).parameters) - {"name"}


def strategy_names() -> list[str]:
    """Return every registered strategy name."""
    return list(STRATEGY_NAMES)


def find_strategy(name: str, **options: Any) -> Strategy:
    """Return the strategy called `name` (or an alias) with `options`.

    Options: ``possible_only``, ``first`` (a code), ``tie`` ("first"/"last"), ``entropy``
    (a spelling, entropy only), ``order``; ``seed`` and ``first`` for random. Raises
    `KeypegError` for an unknown name or option.
    """
    if not isinstance(name, str):
        raise KeypegError(f"a strategy's name is text (one of {', '.join(STRATEGY_NAMES)}), "
                          f"not {type(name).__name__}.")
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    try:
        if key == "optimal":
            allowed = {"time_limit", "max_candidates"}
            if set(options) - allowed - {"first", "possible_only", "tie"}:
                raise TypeError(set(options) - allowed)
            tie = options.get("tie", "first")
            if options.get("first") or options.get("possible_only") or tie != "first":
                raise KeypegError("the optimal strategy takes no first guess, possible-only "
                                  "or tie option; solve_optimal (keypeg optimal) does.")
            return OptimalStrategy(**{k: v for k, v in options.items() if k in allowed})
        # (random and genetic take the one-step options at their defaults, as a caller
        # passing the same to every strategy has them; another tie rule or spelling was
        # dropped unsaid)
        if key in ("random", "genetic") and (options.get("tie", "first") != "first" or
                                             options.get("entropy", "exact") != "exact"):
            raise KeypegError(f"the {key} strategy takes no tie rule or entropy spelling.")
        if key == "random":
            allowed = {"seed", "first"}
            bad = set(options) - allowed - {"possible_only", "tie", "entropy"}
            if bad:
                raise TypeError(bad)
            return RandomStrategy(**{k: v for k, v in options.items() if k in allowed})
        if key == "genetic":
            allowed = {"seed"}
            bad = set(options) - allowed - {"possible_only", "tie", "entropy"}
            if bad or options.get("possible_only") or options.get("first"):
                raise TypeError(bad or {"possible_only"})
            from ..genetic import GeneticStrategy

            return GeneticStrategy(**{k: v for k, v in options.items() if k in allowed})
        if key in KINDS:
            return OneStepStrategy(key, **options)
    except TypeError as exc:
        # (a constructor's own TypeError names an unexpected keyword; ours, a set of them)
        bad = exc.args[0] if exc.args and isinstance(exc.args[0], set) else set(options) - (
            _ONE_STEP_OPTIONS if key in KINDS else set())
        raise KeypegError(
            f"strategy {shorten(name)!r} does not take the option(s) "
            f"{', '.join(sorted(map(str, bad))) or shorten(exc)}.") from None
    raise KeypegError(f"unknown strategy {shorten(name)!r}; choose one of: {known_names()}.")


def evaluate(strategies: Any, rules: Any, **options: Any) -> list[DecisionTree]:
    """`keypeg.strategy.evaluate`, the strategies also given by name: one strategy or name,
    or a list of strategies and names (`find_strategy` reads each name)."""
    allowed = [name for name, p in inspect.signature(_evaluate).parameters.items()
               if p.kind is p.KEYWORD_ONLY]
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise KeypegError(
            f"evaluate takes no option {', '.join(unknown)} (it takes {', '.join(allowed)}); "
            "a strategy's own options go to find_strategy (find_strategy('knuth', "
            "possible_only=True)) and a board's rows to the rules "
            "(find_rules('classic').with_max_guesses(5)).")
    if isinstance(strategies, (Strategy, str)):
        strategies = [strategies]
    with contextlib.suppress(TypeError):  # (not a list: refused there)
        strategies = [find_strategy(s) if isinstance(s, str) else s for s in strategies]
    return _evaluate(strategies, rules, **options)


def known_names(*first: str) -> str:
    """Return the strategies' names for an error message, `first` (other players a caller
    takes) ahead, and the names they are also known by."""
    return (f"{', '.join((*first, *STRATEGY_NAMES))} (or a name one is known by: "
            f"{', '.join(ALIASES)})")


__all__ = [
    "ALIASES",
    "ENTROPY_SPELLINGS",
    "STRATEGY_NAMES",
    "TABLE_STRATEGIES",
    "TIE_RULES",
    "ONE_STEP_NAMES",
    "OneStepStrategy",
    "OptimalStrategy",
    "RandomStrategy",
    "Strategy",
    "evaluate",
    "find_strategy",
    "strategy_names",
]
