"""Strategy labs: every table strategy played against every secret (exact), or against
sampled secrets when the exact lab is out of reach (labelled approximate), and the
strategies ordered by strength.

Exact labs of the presets whose evaluation takes longer than a request should wait for ship
with the package (data/lab.json, written by scripts/ship_labs.py), with the optimal row
where the optimum is known (`hints.shipped_labs` reads them).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Any

from .errors import LimitExceededError
from .feedback import score
from .game import GameState
from .hints import bounded_guess, shipped_labs
from .limits import EXACT_HINT_CODES, HINT_SAMPLE, LAB_SAMPLE_GAMES, LAB_SECONDS
from .rules import Rules, rules_name
from .space import get_space
from .strategies import TABLE_STRATEGIES, evaluate, find_strategy


def lab(rules: Rules) -> dict[str, Any]:
    """Return the lab of `rules`: shipped, else exact when the game is small enough to
    evaluate in a request, else over sampled secrets (labelled approximate)."""
    shipped = shipped_labs().get(rules.key)
    if shipped is not None:  # (its seconds are those it took when computed ahead of time)
        out = {**shipped, "rules": rules_name(rules), "shipped": True}
        return out if out["exact"] else with_recorded(out, rules)
    if get_space(rules).size <= EXACT_HINT_CODES:
        return exact_lab(rules)
    return with_recorded(sampled_lab(rules), rules)


def with_recorded(sampled: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """A sampled lab with the exact whole trees keypeg walked ahead of time for the same
    strategies (`onestep.recorded_walk`: MM(6,9)'s, hours each), as `recorded` rows and in
    its note."""
    from .onestep import recorded_walk

    found = [row for row in (recorded_walk(find_strategy(r["strategy"]), rules)
                             for r in sampled["rows"] if r["strategy"] in TABLE_STRATEGIES)
             if row is not None]
    if not found:
        return sampled
    rows = [{k: row[k] for k in ("strategy", "first_guess", "total", "mean", "worst",
                                 "histogram")} for row in found]
    means = ", ".join(f"{r['strategy']} {r['mean']:.4f}" for r in rows)
    note = (sampled["note"].rstrip(".") + f"; exact over all {found[0]['secrets']:,} secrets, "
            f"walked ahead of time: {means}.")
    return {**sampled, "recorded": rows, "note": note}


def exact_lab(rules: Rules) -> dict[str, Any]:
    """Return the exact lab of `rules`: each table strategy's tree over every secret.
    Raises `LimitExceededError` for games past `EXACT_HINT_CODES` codes (their whole-tree
    evaluation takes minutes; use `keypeg evaluate`)."""
    space = get_space(rules)
    if space.size > EXACT_HINT_CODES:
        raise LimitExceededError(
            f"the exact lab of {space.size:,} codes takes too long to compute here; "
            "run keypeg evaluate instead."
        )
    started = time.perf_counter()
    trees = evaluate([find_strategy(n) for n in TABLE_STRATEGIES], space)
    rows = [{**t.summary(), "strategy": n} for n, t in zip(TABLE_STRATEGIES, trees, strict=True)]
    return {"rules": rules_name(rules), "exact": True, "secrets": space.size, "rows": rows,
            "seconds": round(time.perf_counter() - started, 3)}


def sampled_lab(rules: Rules, *, seconds: float = LAB_SECONDS, games: int = LAB_SAMPLE_GAMES,
                names: tuple[str, ...] = TABLE_STRATEGIES) -> dict[str, Any]:
    """Play each strategy of `names` against up to `games` sampled secrets within `seconds`
    (each decision exact when cheap, else made among sampled candidates); the histogram is
    over the games played. Raises `LimitExceededError` when a strategy cannot finish one
    game in time."""
    space = get_space(rules)
    started = time.perf_counter()
    rows = []
    fewest = games  # the fewest games any strategy finished
    per_strategy = seconds / len(names)
    for name in names:
        rng = random.Random(1)  # the same secrets for every strategy
        counts: list[int] = []
        deadline = time.perf_counter() + per_strategy
        while len(counts) < games:
            secret = space.code(rng.randrange(space.size))
            state = GameState.start(space)
            while not state.solved and time.perf_counter() < deadline:
                guess, _ = bounded_guess(state, name)
                state = state.after(guess, score(secret.symbols, guess.symbols, rules))
            if not state.solved:
                break
            counts.append(len(state.history))
        if not counts:
            raise LimitExceededError(
                f"{name} did not finish a single {rules_name(rules)} game within "
                f"{per_strategy:.0f} s; the lab of this game is out of reach of a web request."
            )
        worst = max(counts)
        fewest = min(fewest, len(counts))
        half = 1.96 * statistics.stdev(counts) / math.sqrt(len(counts)) if len(counts) > 1 else 0
        hist = [counts.count(d) for d in range(1, worst + 1)]
        rows.append({"strategy": name, "first_guess": None, "total": sum(counts),
                     "mean": round(sum(counts) / len(counts), 4), "worst": worst,
                     "histogram": hist, "games": len(counts),
                     "ci95": [round(sum(counts) / len(counts) - half, 4),
                              round(sum(counts) / len(counts) + half, 4)]})
    played = str(games) if fewest == games else f"{fewest} to {games}"
    return {"rules": rules_name(rules), "exact": False, "secrets": space.size,
            "rows": rows, "seconds": round(time.perf_counter() - started, 3),
            "note": (f"approximate: each strategy played {played} random "
                     f"secrets (of {space.size:,}), choosing among {HINT_SAMPLE} sampled "
                     "candidates while more remain than it can score exactly in time; the "
                     "exact lab of a game this size is out of reach of a web request.")}
