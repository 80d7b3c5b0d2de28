"""How good are sampled decisions? Where a position has too many candidates to score
every probe in time, a hint plays the strategy's best guess among `HINT_SAMPLE` sampled
candidates (`hints.sampled_guess`) and says "approximate". This module measures that
approximation on games where the exact choice is still computable: for positions with more
candidates than the sample, the sampled guess's exact score over every candidate is
compared with the exact strategy's (the best score there is), and a position counts as
good when it is within `TOLERANCE` of it. `benchmarks/run.py approximation` records the
share of good positions in RESULTS.md; a test holds it at 95 % or more."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .game import GameState
from .hints import part_score, sampled_guess
from .limits import HINT_SAMPLE
from .rules import Rules, rules_name
from .space import get_space
from .strategies import find_strategy

#: How close the sampled guess's exact score must be to the best: a relative factor for
#: the sizes (at most 10 % more codes left; at least 90 % of the parts), a number of bits
#: for the entropy (at most 0.1 bit less).
TOLERANCE: dict[str, tuple[str, float]] = {
    "maxsize": ("ratio", 1.10), "expsize": ("ratio", 1.10),
    "entropy": ("bits", 0.10), "parts": ("ratio", 0.90),
}


def exact_score(sizes: np.ndarray, name: str) -> float:
    """The strategy's score of a guess from its part sizes over every candidate: largest
    part, expected part size, entropy in bits, or number of parts."""
    score = part_score(sizes, name)
    return -score if name in ("entropy", "parts") else score


def good_enough(sampled: float, best: float, name: str) -> bool:
    kind, tol = TOLERANCE[name]
    if kind == "bits":
        return sampled >= best - tol
    if name == "parts":
        return sampled >= best * tol
    return sampled <= best * tol


def positions(rules: Rules, count: int, seed: int) -> list[GameState]:
    """Return up to `count` positions with more candidates than the sample, reached by
    playing random codes from the start (the start itself included once); fewer when the
    game has few such positions (50 random games per position are tried)."""
    space = get_space(rules)
    rng = np.random.default_rng(seed)
    start = GameState.start(space)
    out = [start] if start.count > HINT_SAMPLE else []
    for _ in range(50 * count):
        if len(out) >= count:
            break
        state = start
        secret = int(rng.integers(space.size))
        for _ in range(3):
            g = space.code(int(rng.integers(space.size)))
            fb = space.feedback(int(space.responses(g.index, np.array([secret]))[0]))
            nxt = state.after(g, fb)
            if nxt.count <= HINT_SAMPLE or fb.is_win(rules):
                break
            state = nxt
            out.append(state)
            if len(out) >= count:
                break
    return out[:count]


def check(rules: Rules, name: str, count: int = 100, seed: int = 0) -> dict[str, Any]:
    """Measure the sampled choice of `name` on `count` positions of `rules`: the share
    within `TOLERANCE` of the exact best, and the worst gap seen."""
    space = get_space(rules)
    exact = find_strategy(name)
    rows = []
    for state in positions(rules, count, seed):
        cands = state.candidates
        s_guess = sampled_guess(state, name)
        b_guess = exact.next_guess(state)
        s = exact_score(space.part_sizes(s_guess.index, cands), name)
        b = exact_score(space.part_sizes(b_guess.index, cands), name)
        rows.append({"candidates": int(cands.size), "sampled": s, "best": b,
                     "good": good_enough(s, b, name)})
    good = sum(r["good"] for r in rows)
    kind, tol = TOLERANCE[name]
    gaps = [r["sampled"] - r["best"] if kind == "bits" else
            (r["sampled"] / r["best"] if r["best"] else math.inf) for r in rows]
    return {"rules": rules_name(rules), "strategy": name, "positions": len(rows),
            "good": good, "share": good / len(rows) if rows else 0.0,
            "tolerance": f"within {tol} bit" if kind == "bits" else f"ratio {tol}",
            "worst": (min(gaps) if kind == "bits" or name == "parts" else max(gaps)),
            "rows": rows}
