"""The other side of the board: computer codemakers, secret classes, and codebreakers that
cannot be exploited (seed 004: Mastermind as a two-player zero-sum game).

Secret classes: permuting colours and positions changes no game, so the secrets fall into
classes (orbits) by the multiset of their colour counts: for four pegs AAAA, AAAB, AABB,
AABC and ABCD. A codemaker that mixes over classes (uniformly within each) and a
codebreaker that plays a tree under a random relabelling (`SymmetrisedStrategy`) are the
two halves of the game's optimal play (`keypeg.value`).

Codemakers (`find_codemaker`):

* ``uniform``: a secret drawn uniformly;
* ``game``: the optimal mixture of the game value (a class by its probability, then a
  code of it uniformly);
* ``against:STRATEGY``: a secret the deterministic STRATEGY needs most guesses for;
* ``adaptive``: commits to no secret: each answer keeps the most codes possible (always
  consistent with its earlier answers, so the game stays fair), and a code consistent with
  every answer is revealed at the end.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np

from .classes import positions_permute, secret_classes
from .codes import Code
from .errors import KeypegError
from .feedback import Feedback, score
from .game import GameState
from .limits import shorten
from .rules import Rules
from .space import CodeSpace, get_space
from .strategy import Strategy

CODEMAKER_FORMS = "uniform, game, against:STRATEGY or adaptive"


# ----------------------------------------------------------------------------- codemakers
class Codemaker(ABC):
    """A computer codemaker: it answers guesses about a secret it chose (or, adaptive, one it
    has not chosen yet) and reveals the secret at the end."""

    name = "?"

    def __init__(self, space: CodeSpace, rng: np.random.Generator) -> None:
        self.space = space
        self.rng = rng

    @abstractmethod
    def answer(self, state: GameState, guess: Code) -> Feedback:
        """Return the answer to `guess` in `state` (the game so far)."""

    @abstractmethod
    def reveal(self, state: GameState) -> Code:
        """Return the secret (a code consistent with every answer given)."""


class SecretCodemaker(Codemaker):
    """A codemaker that commits to a secret at the start."""

    def __init__(self, space: CodeSpace, rng: np.random.Generator) -> None:
        super().__init__(space, rng)
        self.secret = space.code(self.choose())

    @abstractmethod
    def choose(self) -> int:
        """Return the secret's code index."""

    def answer(self, state: GameState, guess: Code) -> Feedback:
        return score(self.secret.symbols, guess.symbols, self.space.rules)

    def reveal(self, state: GameState) -> Code:
        return self.secret


class UniformCodemaker(SecretCodemaker):
    """A secret drawn uniformly."""

    name = "uniform"

    def choose(self) -> int:
        return int(self.rng.integers(self.space.size))


class MixtureCodemaker(SecretCodemaker):
    """A class drawn by its probability, then a code of it uniformly (the game's optimal
    codemaker, for the mixture of `keypeg.value`)."""

    name = "game"

    def __init__(self, space: CodeSpace, rng: np.random.Generator,
                 mixture: Sequence[float] | None = None) -> None:
        if mixture is None:
            from .value import stored_value

            mixture = [float(p) for p in stored_value(space.rules).codemaker]
        self.mixture = np.asarray(mixture, dtype=np.float64)
        super().__init__(space, rng)

    def choose(self) -> int:
        classes = secret_classes(self.space.rules)
        c = int(self.rng.choice(len(classes.sizes), p=self.mixture / self.mixture.sum()))
        members = classes.members(c)
        return int(members[self.rng.integers(members.size)])


class AgainstCodemaker(SecretCodemaker):
    """A secret the deterministic `strategy` needs most guesses for (uniformly among them)."""

    def __init__(self, space: CodeSpace, rng: np.random.Generator, strategy: Strategy) -> None:
        self.strategy = strategy
        self.name = f"against:{strategy.name}"
        super().__init__(space, rng)

    def choose(self) -> int:
        depths = _depths(self.strategy, self.space)
        worst = np.flatnonzero(depths == depths.max())
        return int(worst[self.rng.integers(worst.size)])


#: Guesses per secret of the deterministic strategies asked for, by (label, code space):
#: a match draws a secret each game from the same tree.
_DEPTHS: dict[tuple[str, str], np.ndarray] = {}


def _depths(strategy: Strategy, space: CodeSpace) -> np.ndarray:
    key = (strategy.label, space.rules.key)
    if key not in _DEPTHS:
        _DEPTHS[key] = strategy.tree(space).depths(space)
    return _DEPTHS[key]


class AdaptiveCodemaker(Codemaker):
    """Commits to no secret: answers each guess with the answer that keeps the most codes
    possible (ties to the first answer), so it never contradicts itself; reveals a code
    consistent with every answer."""

    name = "adaptive"

    def answer(self, state: GameState, guess: Code) -> Feedback:
        space = self.space
        sizes = space.part_sizes(guess.index, state.candidates)
        if sizes.sum() == sizes[space.win]:  # the guess is the only code left
            return space.feedback(space.win)
        sizes = sizes.copy()
        sizes[space.win] = 0  # never concede while another code is possible
        return space.feedback(int(np.argmax(sizes)))

    def reveal(self, state: GameState) -> Code:
        cands = state.candidates
        return self.space.code(int(cands[self.rng.integers(cands.size)]))


def find_codemaker(spec: str, rules: Rules | CodeSpace, seed: int | None = None
                   ) -> Codemaker:
    """Return the codemaker `spec` (uniform, game, against:STRATEGY, adaptive) for a game
    of `rules`, its choices drawn with `seed`. Raises `KeypegError` for an unknown spec."""
    space = rules if isinstance(rules, CodeSpace) else get_space(rules)
    rng = np.random.default_rng(seed)
    text = str(spec).strip().lower()
    name, _, arg = text.partition(":")
    if text == "uniform":
        return UniformCodemaker(space, rng)
    if text == "game":
        return MixtureCodemaker(space, rng)
    if text == "adaptive":
        return AdaptiveCodemaker(space, rng)
    if name == "against" and arg:
        from .strategies import find_strategy

        strategy = find_strategy(arg)
        if strategy.name == "random":
            raise KeypegError("against:STRATEGY needs a deterministic strategy; random "
                              "plays differently every game.")
        return AgainstCodemaker(space, rng, strategy)
    raise KeypegError(f"unknown codemaker {shorten(spec)!r}; use {CODEMAKER_FORMS}.")


# ----------------------------------------------------------------------------- breakers
class SymmetrisedStrategy(Strategy):
    """Play `inner` under a random relabelling of colours and positions, drawn afresh for
    each game (`new_game`): its expected guesses are then the same against every secret of
    a class, so no codemaker can aim at its weak spots. The inner strategy sees the game
    in its own labels; answers translate exactly (relabelling secret and guess alike
    leaves black/white answers as they are and permutes per-peg marks with the positions).
    """

    def __init__(self, inner: Strategy, seed: int | None = None) -> None:
        self.inner = inner
        self.name = f"symmetrised:{inner.name}"
        self.rng = np.random.default_rng(seed)
        self.colours: np.ndarray | None = None
        self.positions: np.ndarray | None = None

    def new_game(self, rules: Rules) -> None:
        """Draw the relabelling for the next game (positions too where they permute)."""
        self.colours = self.rng.permutation(rules.symbols)
        self.positions = (self.rng.permutation(rules.pegs) if positions_permute(rules)
                          else np.arange(rules.pegs))

    def _relabel(self, space: CodeSpace, code: int, inverse: bool) -> int:
        assert self.colours is not None and self.positions is not None
        symbols = space.codes[code]
        if inverse:  # real -> inner labels
            colours = np.argsort(self.colours)
            out = np.empty_like(symbols)
            out[:] = colours[symbols[self.positions]]
        else:  # inner -> real labels: position j of the real code is position p[j]...
            out = np.empty_like(symbols)
            out[self.positions] = self.colours[symbols]
        return space.index_of_symbols(out)

    def _marks(self, space: CodeSpace, fb: Feedback) -> Feedback:
        """Translate a real answer into the inner strategy's labels."""
        if fb.model == "blackwhite":
            return fb
        assert self.positions is not None
        marks = np.asarray(fb.marks)[self.positions]
        return Feedback.positional(marks.tolist())

    def choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int:
        raise KeypegError("a symmetrised strategy plays games (next_guess), not trees.")

    def next_guess(self, state: GameState) -> Code:
        space = state.space
        if self.colours is None or self.colours.size != space.rules.symbols:
            self.new_game(space.rules)
        inner = GameState.start(space)
        for clue in state.history:
            g = self._relabel(space, clue.guess.index, inverse=True)
            inner = inner.after(space.code(g), self._marks(space, clue.feedback))
        g = self.inner.next_guess(inner).index
        return space.code(self._relabel(space, g, inverse=False))

