"""Optimal results through the store: solved once, instant afterwards.

The classic MM(4,6) and MM(4,7) optimal trees ship with the package (data/), as do the
new cells' (`cells`): `optimal` answers from them at once, and hints and the optimal
strategy walk them while a game stays on them (`stored_tree`).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from ..errors import TimeLimitError
from ..game import GameState
from ..rules import Rules
from ..store import Store
from ..tree import DecisionTree, tree_bytes, tree_from_bytes
from .resume import Checkpoint
from .search import OptimalResult, check_weights, solve_optimal

#: Trees shipped in the package: (pegs, colours) of plain rules -> data file.
SHIPPED = {(4, 6): "optimal-p4-c6.json.gz", (4, 7): "optimal-p4-c7.json.gz"}


def weights_digest(weights: Any) -> str:
    """Return a digest of a weight array: equal for equal numbers (1 and 1.0 alike)."""
    arr = np.ascontiguousarray(np.asarray(weights, dtype=np.float64))
    return "w:" + hashlib.sha256(arr.tobytes()).hexdigest()


def result_key(rules: Rules, *, objective: str = "total", max_guesses: int | None = None,
               possible_only: bool = False, first: str | None = None,
               state: GameState | None = None, weights: Any = None) -> str:
    """Return the store key of an optimal search (weighted: with a digest of the weights,
    so weighted and unweighted results never share a key; unweighted keys are unchanged)."""
    history = [str(c) for c in state.history] if state is not None else []
    parts: list[Any] = [rules.key, objective, max_guesses, possible_only, first, history]
    if weights is not None:
        parts.append(weights_digest(weights))
    return "optimal:" + json.dumps(parts, separators=(",", ":"))


@cache
def shipped_tree(pegs: int, colors: int) -> DecisionTree | None:
    """Return the optimal tree shipped for plain MM(pegs, colours), or None."""
    name = SHIPPED.get((pegs, colors))
    if name is None:
        return None
    data = resources.files("keypeg").joinpath(f"data/{name}")
    if not data.is_file():
        return None
    return tree_from_bytes(data.read_bytes())


def stored_tree(rules: Rules, cap: int | None = None) -> DecisionTree | None:
    """Return the optimal tree (fewest guesses in total, no cap) that ships with keypeg for
    the code space and feedback of `rules`: MM(4,6) and MM(4,7) (`SHIPPED`), or a new
    cell's (`cells.stored_cells`: MM(4,8), MM(5,6), Codebreaker 1-3 and 4-6, ...); None
    when there is none, or when its worst case passes `cap` guesses (then it is not the
    optimum under the cap). Its rules are the stored ones."""
    tree = None if rules.blanks else stored_tree_for_key(rules.key)
    return None if tree is None or (cap is not None and tree.worst > cap) else tree


@cache
def stored_tree_for_key(key: str) -> DecisionTree | None:
    """`stored_tree` by the code space's key (`Rules.key`), read once per process."""
    for (pegs, colors) in SHIPPED:
        if key == Rules(pegs=pegs, colors=colors).key:
            return shipped_tree(pegs, colors)
    from .cells import cell_rules, cell_tree, stored_cells

    for cell in stored_cells():
        if cell_rules(cell).key == key:
            return cell_tree(cell)
    return None


def stored_result(rules: Rules, store: Store, *, objective: str = "total",
                  max_guesses: int | None = None, possible_only: bool = False,
                  first: str | None = None, state: GameState | None = None,
                  weights: Any = None) -> OptimalResult | None:
    """Return the result of an earlier search of the same question kept in `store` (by
    `optimal`), or None; no search."""
    given = None if weights is None else check_weights(weights)
    key = result_key(rules, objective=objective, max_guesses=max_guesses,
                     possible_only=possible_only, first=first, state=state, weights=given)
    return _kept(rules, store, key, objective, max_guesses, possible_only, first, given)


def _kept(rules: Rules, store: Store, key: str, objective: str, max_guesses: int | None,
          possible_only: bool, first: str | None, given: np.ndarray | None
          ) -> OptimalResult | None:
    """The result stored under `key`, or None (`given`: the weights, checked)."""
    hit = store.get_result(key)
    if hit is None or hit["tree"] is None:
        return None
    tree = tree_from_bytes(hit["tree"])
    s = hit["summary"]
    return OptimalResult(rules, tree.total, tree, objective=objective, max_guesses=max_guesses,
                         possible_only=possible_only, first=first,
                         seconds=s.get("seconds", 0.0), stats={"nodes": s.get("nodes", 0)},
                         weights=given)


def optimal(rules: Rules, *, objective: str = "total", max_guesses: int | None = None,
            possible_only: bool = False, first: str | None = None,
            state: GameState | None = None, store: Store | None = None,
            recompute: bool = False, weights: Any = None, resume: bool = False,
            **search: Any) -> tuple[OptimalResult, bool]:
    """Return (result, cached): from the store (or the shipped tree) when known, else from
    a new search, which is then stored. `search` goes to `solve_optimal`. Weighted results
    (`weights`) are stored under their own key, and never come from a shipped tree. A
    search stopped by its time limit or Ctrl-C raises with `parts_kept`: the parts its
    checkpoint holds for the same call to resume.

    `resume` (with a store, unweighted): the search checkpoints the parts of the root it
    solves in the store as they finish and takes those an interrupted run of the same
    search left (`resume.Checkpoint`); they are deleted once the result is stored."""
    given = None if weights is None else check_weights(weights)
    key = result_key(rules, objective=objective, max_guesses=max_guesses,
                     possible_only=possible_only, first=first, state=state, weights=given)
    if not recompute:
        # (the key and the weights as checked above: not worked out again)
        hit = None if store is None else _kept(rules, store, key, objective, max_guesses,
                                               possible_only, first, given)
        if hit is not None:
            return hit, True
        shipped = stored_tree(rules, max_guesses) if weights is None else None
        if (shipped is not None and objective == "total" and not possible_only
                and first is None and (state is None or not state.history)):
            tree = DecisionTree(rules, "optimal", shipped.guess, shipped.parent,
                                shipped.response, shipped.depth, shipped.size)
            return OptimalResult(rules, tree.total, tree, max_guesses=max_guesses,
                                 stats={"nodes": 0}), True
    checkpoint = None
    if resume and store is not None and given is None and not search.get("trace"):
        checkpoint = Checkpoint(store, key)
    try:
        result = solve_optimal(rules, state=state, max_guesses=max_guesses,
                               possible_only=possible_only, first=first, objective=objective,
                               weights=given, checkpoint=checkpoint, **search)
    except (TimeLimitError, KeyboardInterrupt) as exc:
        # what a stopped search leaves for the same call to resume (`keypeg optimal` says so)
        exc.parts_kept = 0 if checkpoint is None else checkpoint.count()  # type: ignore[union-attr]
        raise
    if store is not None and not search.get("trace"):
        store.put_result(key, result.summary(), tree_bytes(result.tree))
    if checkpoint is not None:
        checkpoint.clear()
    elif store is not None and given is None and not search.get("trace"):
        # (a run without resuming that finished: the records an interrupted run of the same
        # search left are of no more use, and had stayed for good)
        Checkpoint(store, key).clear()
    return result, False
