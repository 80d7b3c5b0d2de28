"""The strategy protocol and the generic whole-tree walk.

A strategy answers one question: given the candidates (the hypotheses S) and the guesses
played so far, which code (probe, from the allowed probes G) does it play next? From that,
`next_guess` serves a game, and `tree` plays the strategy against every secret at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np

from ..codes import Code
from ..errors import KeypegError, LimitExceededError
from ..game import GameState
from ..rules import Rules
from ..space import CodeSpace, get_space
from ..tree import DecisionTree

#: A strategy that needs more guesses than this for some secret is reported as looping.
MAX_DEPTH = 60


def as_space(rules: Rules | CodeSpace) -> CodeSpace:
    """Return the shared code space of `rules` (or `rules` itself when already a space)."""
    return rules if isinstance(rules, CodeSpace) else get_space(rules)


class Strategy(ABC):
    """A codebreaking strategy: `choose` a probe for a candidate set."""

    #: Registry name, e.g. "maxsize".
    name: str = "?"

    @property
    def label(self) -> str:
        """Return the name with any non-default options, for tables."""
        return self.name

    @abstractmethod
    def choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int:
        """Return the code index to play when `candidates` remain after `guesses`."""

    def next_guess(self, state: GameState) -> Code:
        """Return the code this strategy plays next in `state`."""
        if state.solved:
            raise KeypegError("the game is already solved.")
        guesses = [c.guess.index for c in state.history]
        return state.space.code(self.choose(state.space, state.candidates, guesses))

    def tree(self, rules: Rules | CodeSpace, state: GameState | None = None) -> DecisionTree:
        """Return the strategy's decision tree over every candidate of `state` (the whole
        space by default). Raises `LimitExceededError` if a secret needs over 60 guesses."""
        space = as_space(rules)
        state = state or GameState.start(space)
        return python_walk(self, space, state)


def python_walk(strategy: Strategy, space: CodeSpace, state: GameState) -> DecisionTree:
    """Build a tree by calling `strategy.choose` at every node (for strategies without a
    compiled walk). Parts are expanded in answer order, depth first."""
    guess: list[int] = []
    parent: list[int] = []
    response: list[int] = []
    depth: list[int] = []
    size: list[int] = []
    base = [c.guess.index for c in state.history]
    stack: list[tuple[np.ndarray, int, int, int, list[int]]] = [
        (state.candidates, -1, -1, len(base) + 1, base)
    ]
    while stack:
        cands, par, resp, d, played = stack.pop()
        if d > MAX_DEPTH:
            raise LimitExceededError(f"{strategy.label} needs over {MAX_DEPTH} guesses here.")
        g = strategy.choose(space, cands, played)
        me = len(guess)
        guess.append(g)
        parent.append(par)
        response.append(resp)
        depth.append(d)
        size.append(cands.size)
        parts = space.partition(g, cands)
        for r in sorted(parts, reverse=True):
            if r != space.win:
                stack.append((parts[r], me, r, d + 1, [*played, g]))
    as32 = lambda xs: np.asarray(xs, dtype=np.int32)  # noqa: E731
    return DecisionTree(space.rules, strategy.label, as32(guess), as32(parent), as32(response),
                        as32(depth), as32(size))
