"""Sampled evaluation: a strategy played against secrets drawn uniformly at random, with
a 95 % confidence interval for its mean; labelled approximate. For spaces whose exact
whole-tree evaluation is out of reach (MM(6,9), MM(8,8)); the genetic algorithm plays
without any code space at all, so it is sampled even on 16.8 million codes."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from . import __version__
from .errors import KeypegError
from .limits import MAX_GUESSES_PER_GAME, check_seed, plural
from .rules import Rules, rules_name, rules_of

#: Most secrets one sampled evaluation may play.
MAX_SAMPLE = 100_000
#: Most guesses one sampled game may take before it is called a failure (as in an exact
#: evaluation).
MAX_GAME_GUESSES = MAX_GUESSES_PER_GAME


def draw_secrets(rules: Rules, n: int, seed: int) -> np.ndarray:
    """Return `n` secrets drawn uniformly (with replacement), as rows of symbols."""
    rng = np.random.default_rng([int(seed), 7])
    if rules.repeats:
        return rng.integers(0, rules.symbols, size=(n, rules.pegs), dtype=np.int8)
    return np.argsort(rng.random((n, rules.symbols)), axis=1)[:, : rules.pegs].astype(np.int8)


def sampled_evaluation(rules: Rules | str, strategy: Any, n: int, seed: int,
                       on_game: Callable[[int], None] | None = None, *,
                       option: str = "n") -> dict[str, Any]:
    """Play `strategy` (a `Strategy` or a name `find_strategy` reads) against `n` secrets
    drawn with `seed`; return the row of `keypeg evaluate --json` with "approximate": true,
    the sample size and a 95 % confidence interval for the mean (normal approximation).
    `option` names the sample size in its error (the CLI's --sample; n here)."""
    # (at least 2: one secret gave the interval 4.000 to 4.000, as if exact)
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_SAMPLE:
        raise KeypegError(f"{option} must be a whole number from 2 to {MAX_SAMPLE:,}, not "
                          f"{n}.")
    rules = rules_of(rules)
    check_seed(seed, "seed")
    if isinstance(strategy, str):  # (a name failed with AttributeError)
        from .strategies import find_strategy

        strategy = find_strategy(strategy)
    secrets = draw_secrets(rules, n, seed)
    counts = np.zeros(n, dtype=np.int64)
    firsts: set[str] = set()
    if strategy.name == "genetic":
        from . import genetic
        from .codes import format_symbols

        for i, secret in enumerate(secrets):
            guesses = genetic.play(rules, secret, strategy.seed, max_guesses=MAX_GAME_GUESSES)
            counts[i] = len(guesses)
            firsts.add(format_symbols(guesses[0], rules))
            if on_game is not None:
                on_game(i + 1)
    else:
        from .game import GameState
        from .space import get_space

        space = get_space(rules)
        for i, secret in enumerate(secrets):
            s = space.index_of_symbols(secret)
            state = GameState.start(space)
            while True:
                if len(state.history) >= MAX_GAME_GUESSES:
                    raise KeypegError(f"{strategy.label} did not find a secret in "
                                      f"{MAX_GAME_GUESSES} guesses.")
                g = strategy.next_guess(state)
                fb = space.feedback(int(space.responses(g.index, np.array([s]))[0]))
                state = state.after(g, fb)
                if len(state.history) == 1:
                    firsts.add(str(g))
                if fb.is_win(rules):
                    break
            counts[i] = len(state.history)
            if on_game is not None:
                on_game(i + 1)
    mean = float(counts.mean())
    sd = float(counts.std(ddof=1))
    half = 1.96 * sd / math.sqrt(n)
    hist = np.bincount(counts)[1:].tolist()
    return {"strategy": strategy.name, "label": strategy.label,
            "options": strategy.options, "rules": rules_name(rules),
            "first_guess": ", ".join(sorted(firsts)), "total": int(counts.sum()),
            "mean": round(mean, 4), "worst": int(counts.max()), "histogram": hist,
            "approximate": True, "secrets": n, "seed": int(seed),
            # ("seed" is the secrets'; a strategy's own seed had been only in its label)
            "sample_seed": int(seed), "strategy_seed": getattr(strategy, "seed", None),
            "with_replacement": True, "keypeg_version": __version__,
            "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "note": f"sampled: {plural(n, 'secret')} drawn uniformly, with replacement, with "
                    f"seed {seed}; the mean's 95 % confidence interval by the normal "
                    "approximation"}
