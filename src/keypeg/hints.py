"""Hints for a game state: what is still possible, what each strategy would play, and how
a guess would cut the candidates. Shared by the terminal and the web page.

>>> from keypeg.rules import find_rules
>>> from keypeg.game import GameState
>>> h = hint(GameState.start(find_rules("classic")).after("1122", "0B0W"))
>>> h.count, round(h.bits, 2)
(256, 8.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .codes import Code
from .errors import LimitExceededError
from .game import GameState
from .strategies import ONE_STEP_NAMES, find_strategy

#: Candidates are listed in a hint when there are at most this many.
LIST_LIMIT = 20
#: Seconds a hint may spend searching for the optimal guess off the stored trees.
OPTIMAL_LIMIT = 2.0


@dataclass(frozen=True)
class StrategyHint:
    """What one strategy would play next, and the largest part that guess leaves."""

    name: str
    guess: str
    largest_part: int
    possible: bool


@dataclass(frozen=True)
class Hint:
    """Everything the hints panel shows for one state. `optimal` is None (with the reason
    in `optimal_note`) when the optimal guess could not be found in time."""

    count: int
    bits: float
    candidates: list[str] | None
    strategies: list[StrategyHint] = field(default_factory=list)
    optimal: StrategyHint | None = None
    optimal_note: str | None = None


def cut(state: GameState, guess: str | Code | int) -> list[tuple[str, int]]:
    """Return how `guess` would cut the candidates: (answer, part size) for each non-empty
    part, in answer order."""
    space = state.space
    sizes = space.part_sizes(space.index(guess), state.candidates)
    return [(str(space.feedback(r)), int(n)) for r, n in enumerate(sizes) if n]


def largest_part(state: GameState, guess: int) -> int:
    """Return the size of the biggest part `guess` leaves among the candidates."""
    return int(np.max(state.space.part_sizes(guess, state.candidates)))


def strategy_hint(state: GameState, name: str, **options: object) -> StrategyHint:
    """Return one strategy's next guess with the largest part it leaves."""
    guess = find_strategy(name, **options).next_guess(state)
    return StrategyHint(name, str(guess), largest_part(state, guess.index),
                        state.is_candidate(guess.index))


def strategy_hints(state: GameState, names: Sequence[str] = ONE_STEP_NAMES) -> list[StrategyHint]:
    """Return each one-step strategy's next guess with the largest part it leaves."""
    return [strategy_hint(state, name) for name in names]


def optimal_hint(state: GameState, *, time_limit: float = OPTIMAL_LIMIT
                 ) -> tuple[StrategyHint | None, str | None]:
    """Return the optimal guess (from a stored tree, or a live search of at most
    `time_limit` seconds), or None and the reason."""
    try:
        return strategy_hint(state, "optimal", time_limit=time_limit), None
    except LimitExceededError as exc:
        return None, str(exc)


def hint(state: GameState, *, list_limit: int = LIST_LIMIT, strategies: bool = True,
         optimal_limit: float = OPTIMAL_LIMIT) -> Hint:
    """Return the hint for `state`: count, bits, the candidates when few, each strategy's
    guess, and the optimal guess when it can be found within `optimal_limit` seconds."""
    listed = state.candidate_texts() if state.count <= list_limit else None
    if not strategies or state.solved:
        return Hint(state.count, state.bits, listed)
    best, note = optimal_hint(state, time_limit=optimal_limit)
    return Hint(state.count, state.bits, listed, strategy_hints(state), best, note)
