"""The first-guess table (seed 000's "optimum after each first guess", widened): for every
class of first guesses (codes up to colour and position permutations: AAAA, AAAB, AABB,
AABC, ABCD for four pegs), the total each one-step strategy reaches when made to open with
it, and the optimal total once that opening is fixed.

Every code of a class gives the same optimal total (the permutation maps one tree onto the
other), but not always the same one-step totals: those strategies break ties by code order,
which a permutation does not keep (classic's maxsize opening 1234 takes 5,803 guesses, 2345
5,781). One representative per class, the lexically first code, is played, and the
strategies' totals are that code's (`first_guess` in each row). The optimum of the
class holding a known optimal first guess (a shipped tree or shipped lab) is that optimum;
the others come from the optimal search with the first guess forced, through the store
(solved once), each within `seconds`; a cell not found in time is None, and said so.

>>> from keypeg.rules import Rules
>>> t = first_guess_table(Rules(pegs=3, colors=3))
>>> [(r["class"], r["first_guess"], r["totals"]["maxsize"], r["optimal"]) for r in t["rows"]]
[('AAA', '111', 87, 86), ('AAB', '112', 74, 73), ('ABC', '123', 82, 80)]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .catalog import TABLE_STRATEGIES
from .classes import secret_classes
from .errors import LimitExceededError
from .hints import shipped_labs
from .limits import EXACT_HINT_CODES, LAB_SECONDS, plural
from .rules import Rules, rules_name, rules_of
from .space import get_space
from .store import Store


def first_guess_classes(rules: Rules) -> list[tuple[str, str, int]]:
    """Return (pattern, representative code, codes in the class) for every class of first
    guesses, most repeated patterns first."""
    space = get_space(rules)
    classes = secret_classes(rules)
    return [(label, space.text(int(classes.members(c)[0])), int(classes.sizes[c]))
            for c, label in enumerate(classes.labels)]


def known_optimum(rules: Rules) -> tuple[str, int, int] | None:
    """Return (first guess, total, worst case) of an optimal tree that ships with keypeg (a tree, or
    the optimal row of a shipped lab), or None."""
    from .solver.cached import stored_tree

    tree = stored_tree(rules, rules.max_guesses)  # MM(4,6), MM(4,7) or a new cell's
    if tree is not None:
        return get_space(rules).text(tree.first_guess), tree.total, tree.worst
    lab = shipped_labs().get(rules.key)
    for row in (lab or {}).get("rows", []):
        if row["strategy"] == "optimal" and row.get("first_guess"):
            return str(row["first_guess"]), int(row["total"]), int(row["worst"])
    return None


def first_guess_table(
    rules: Rules | str, *, store: Store | None = None, seconds: float = LAB_SECONDS,
    strategies: tuple[str, ...] = TABLE_STRATEGIES, max_codes: int | None = EXACT_HINT_CODES,
    optimum: bool = True, on_step: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Return the first-guess table of `rules`: one row per class with the strategies'
    totals and the optimum (None where not found within `seconds`; `optimum=False` skips
    the search). Raises `LimitExceededError` for games over `max_codes` codes."""
    from .solver.cached import optimal
    from .strategies import evaluate, find_strategy

    rules = rules_of(rules)
    if max_codes is not None and rules.size > max_codes:
        raise LimitExceededError(
            f"the first-guess table of {rules_name(rules)} ({rules.size:,} codes) plays every "
            f"strategy from every opening, which takes too long here (at most "
            f"{max_codes:,} codes).")
    started = time.perf_counter()
    space = get_space(rules)
    classes = first_guess_classes(rules)
    if on_step is not None:
        on_step(f"{len(classes) * len(strategies)} trees with a forced first guess")
    chosen = [find_strategy(n, first=code) for _, code, _ in classes for n in strategies]
    trees = evaluate(chosen, space)
    known = known_optimum(rules) if optimum else None
    known_class = None
    if known is not None:
        known_class = int(secret_classes(rules).of[space.index(known[0])])
    rows = []
    missing = 0
    for c, (label, code, size) in enumerate(classes):
        mine = trees[c * len(strategies): (c + 1) * len(strategies)]
        row: dict[str, Any] = {
            "class": label, "first_guess": code, "codes": size,
            "totals": {n: t.total for n, t in zip(strategies, mine, strict=True)},
            "worst": {n: t.worst for n, t in zip(strategies, mine, strict=True)},
            "optimal": None, "optimal_worst": None, "optimal_source": None,
        }
        if known is not None and c == known_class:
            row.update(optimal=known[1], optimal_worst=known[2], optimal_source="known")
        elif optimum:
            if on_step is not None:
                on_step(f"the optimum after {code}")
            try:
                result, cached = optimal(rules, first=code, max_guesses=rules.max_guesses,
                                         store=store, time_limit=seconds)
            except LimitExceededError:
                missing += 1
            else:
                row.update(optimal=result.total, optimal_worst=result.worst,
                           optimal_source="stored" if cached else "search")
        rows.append(row)
    out: dict[str, Any] = {
        "rules": rules_name(rules), "secrets": space.size, "strategies": list(strategies),
        "rows": rows, "complete": missing == 0 and optimum,
        "seconds": round(time.perf_counter() - started, 3),
    }
    if missing:
        out["note"] = (f"the optimum after {plural(missing, 'first guess', 'first guesses')} "
                       f"was not found within {seconds:g} s each; keypeg optimal --first CODE "
                       "computes it.")
    found = [r for r in rows if r["optimal"] is not None]
    if found:
        best = min(found, key=lambda r: r["optimal"])
        out["best"] = {"class": best["class"], "first_guess": best["first_guess"],
                       "total": best["optimal"]}
    return out
