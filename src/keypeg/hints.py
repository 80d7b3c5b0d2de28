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
from .game import GameState
from .strategies import STRATEGY_NAMES, find_strategy

#: Candidates are listed in a hint when there are at most this many.
LIST_LIMIT = 20


@dataclass(frozen=True)
class StrategyHint:
    """What one strategy would play next, and the largest part that guess leaves."""

    name: str
    guess: str
    largest_part: int
    possible: bool


@dataclass(frozen=True)
class Hint:
    """Everything the hints panel shows for one state."""

    count: int
    bits: float
    candidates: list[str] | None
    strategies: list[StrategyHint] = field(default_factory=list)


def cut(state: GameState, guess: str | Code | int) -> list[tuple[str, int]]:
    """Return how `guess` would cut the candidates: (answer, part size) for each non-empty
    part, in answer order."""
    space = state.space
    sizes = space.part_sizes(space.index(guess), state.candidates)
    return [(str(space.feedback(r)), int(n)) for r, n in enumerate(sizes) if n]


def largest_part(state: GameState, guess: int) -> int:
    """Return the size of the biggest part `guess` leaves among the candidates."""
    return int(np.max(state.space.part_sizes(guess, state.candidates)))


def strategy_hints(state: GameState, names: Sequence[str] = STRATEGY_NAMES) -> list[StrategyHint]:
    """Return each strategy's next guess with the largest part it leaves."""
    out = []
    for name in names:
        guess = find_strategy(name).next_guess(state)
        out.append(StrategyHint(name, str(guess), largest_part(state, guess.index),
                                state.is_candidate(guess.index)))
    return out


def hint(state: GameState, *, list_limit: int = LIST_LIMIT, strategies: bool = True) -> Hint:
    """Return the hint for `state`: count, bits, the candidates when few, strategies."""
    listed = state.candidate_texts() if state.count <= list_limit else None
    return Hint(
        count=state.count,
        bits=state.bits,
        candidates=listed,
        strategies=strategy_hints(state) if strategies and not state.solved else [],
    )
