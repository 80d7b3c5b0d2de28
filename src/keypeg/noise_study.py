"""The noise study (seed 003, section 8): how players fare when the answering side
misreports answers.

Each game draws a secret; the answering side reports every answer truly, except that with
probability EPS it reports another answer the rules allow, uniformly (a win is always
reported truly). Three players face the same secrets and the same misreports:

* ``filtering``: trusts every clue (keypeg's exact entropy strategy); a misreport that
  leaves no code consistent ends its game unsolved;
* ``lies:1``: keeps every code that contradicts at most one clue, and plays the
  information-gain guess among them;
* ``bayes``: the Bayesian player with the matching noise model (symmetric:EPS), playing
  the information-gain guess.

A game counts as solved when the secret is guessed within the board's rows. Choices are
cached by position, so games that share a history share its work. Run it as
``python -m keypeg.noise_study [RULES] [GAMES]``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .bayes import belief_choices
from .belief import Symmetric, misreport
from .errors import InconsistentHistoryError
from .game import GameState
from .onestep import OneStepStrategy
from .rules import Rules, find_rules, rules_name
from .space import CodeSpace, get_space

PLAYERS = ("filtering", "lies:1", "bayes")
EPSILONS = (0.0, 0.01, 0.05, 0.10)


@dataclass
class StudyRow:
    """How one player fared at one noise level."""

    player: str
    eps: float
    games: int
    solved: int
    mean_guesses: float  # over the solved games

    @property
    def share(self) -> float:
        return self.solved / self.games


class Player:
    """A player with a cache of its choices by position (history of guess and answer)."""

    def __init__(self, space: CodeSpace, name: str, eps: float) -> None:
        self.space = space
        self.name = name
        self.noise = "exact" if name == "filtering" else (
            "lies:1" if name == "lies:1" else ("exact" if eps == 0 else f"symmetric:{eps}"))
        self.start = GameState.start(space, noise=self.noise)
        self.cache: dict[tuple[tuple[int, int], ...], int] = {}
        self.entropy = OneStepStrategy("entropy")

    def choose(self, state: GameState, key: tuple[tuple[int, int], ...]) -> int:
        if key not in self.cache:
            if state.count == 1:
                g = int(state.candidates[0])
            elif self.name == "filtering":
                g = self.entropy.next_guess(state).index
            else:
                g = belief_choices(state, ["information"])[0]["information"]
            self.cache[key] = g
        return self.cache[key]


def play(player: Player, secret: int, rows: int, eps: float, rng: np.random.Generator
         ) -> int | None:
    """Return the guesses `player` needs (None: not solved within `rows`)."""
    space = player.space
    state = player.start
    key: tuple[tuple[int, int], ...] = ()
    answers = Symmetric(eps)
    for turn in range(1, rows + 1):
        g = player.choose(state, key)
        if g == secret:
            return turn
        true = int(space.responses(g, np.array([secret], dtype=np.int32))[0])
        r = misreport(space, answers, true, rng) if eps > 0 else true
        try:
            state = state.after(space.code(g), space.feedback(r))
        except InconsistentHistoryError:
            return None  # no code fits: this player is stuck
        key = (*key, (g, r))
    return None


def noise_study(rules: Rules, games: int = 1000, *, eps_values: tuple[float, ...] = EPSILONS,
                seed: int = 2026) -> dict[str, Any]:
    """Return the study's rows for `rules`: each player at each noise level, over `games`
    secrets drawn with `seed` (the same secrets and misreports for every player)."""
    space = get_space(rules)
    if space.fits_table:
        space.table()  # slices of the full table are faster than answers computed anew
    rows = rules.max_guesses or 10
    secrets = np.random.default_rng(seed).integers(space.size, size=games)
    started = time.perf_counter()
    out = []
    for eps in eps_values:
        for name in PLAYERS:
            player = Player(space, name, eps)
            counts = []
            for i, secret in enumerate(secrets.tolist()):
                rng = np.random.default_rng([seed, i, int(eps * 1e6)])
                counts.append(play(player, secret, rows, eps, rng))
            solved = [c for c in counts if c is not None]
            out.append(StudyRow(name, eps, games, len(solved),
                                round(sum(solved) / len(solved), 4) if solved else 0.0))
    return {"rules": rules_name(rules), "rows_allowed": rows, "games": games, "seed": seed,
            "seconds": round(time.perf_counter() - started, 1),
            "results": [asdict(r) for r in out]}


def main(argv: list[str]) -> None:
    rules = find_rules(argv[0] if argv else "classic")
    games = int(argv[1]) if len(argv) > 1 else 1000
    result = noise_study(rules, games)
    print(f"{result['rules']}: {games} secrets, {result['rows_allowed']} rows, "
          f"{result['seconds']} s")
    for r in result["results"]:
        print(f"  eps {r['eps']:.2f}  {r['player']:<10} solved {r['solved'] / r['games']:6.1%}"
              f"  mean {r['mean_guesses']:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
