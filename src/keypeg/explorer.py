"""Browsing a decision tree one node at a time (the page's tree explorer).

`TreeIndex` precomputes, once per tree and with whole-array numpy operations, what every
node needs: its answers in order (children stored contiguously), the total and worst case
of each subtree, the node where each secret is found, and a depth-first numbering so the
secrets reaching a node are one slice. A node then costs O(its children), a secret's path
O(its depth), and the codes reaching a node O(their number).

`explorer_tree` decides which trees a web request may build, with the budgets the lab
uses: one-step strategies exactly for games of at most `EXACT_HINT_CODES` codes; the
optimum from a shipped tree, the store, or a search of at most `LAB_SECONDS`.

>>> from keypeg.rules import find_rules
>>> from keypeg.strategies import find_strategy
>>> index = TreeIndex(find_strategy("maxsize").tree(find_rules("classic")))
>>> root = index.node(0)
>>> root["guess"], root["total"], root["worst"], len(root["answers"])
('1122', 5801, 5, 13)
>>> [step["guess"] for step in index.path("1234")]
['1122', '1134', '1234']
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .catalog import ALIASES, TABLE_STRATEGIES
from .errors import KeypegError, LimitExceededError
from .limits import EXACT_HINT_CODES, HINT_LIST, LAB_SECONDS, shorten
from .rules import Rules, rules_name, rules_of
from .space import get_space
from .store import Store
from .tree import DecisionTree

#: The strategies whose trees the explorer shows: the optimum and the lab's five.
EXPLORER_STRATEGIES = ("optimal", *TABLE_STRATEGIES)

def explorer_strategy(name: str) -> str:
    """Return the canonical name of a strategy the explorer shows (aliases allowed)."""
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in EXPLORER_STRATEGIES:
        raise KeypegError(f"the tree explorer shows {', '.join(EXPLORER_STRATEGIES)}, "
                          f"not {shorten(name)!r}.")
    return key


def tree_offered(rules: Rules, strategy: str, store: Store | None = None) -> bool:
    """Return whether `explorer_tree` may give the tree of `strategy` under `rules`: every
    tree of a game of at most `EXACT_HINT_CODES` codes, else only an optimal tree that ships
    with keypeg or that `store` holds (the page offers only these; it had offered the
    optimum of MM(6,9), which the server refuses). A search for an optimum may still run
    out of its time."""
    if rules.size <= EXACT_HINT_CODES:
        return True
    if explorer_strategy(strategy) != "optimal":
        return False
    shipped = _shipped_worst(rules)
    if shipped is not None and (rules.max_guesses is None or shipped <= rules.max_guesses):
        return True
    if store is None:
        return False
    from .solver.cached import result_key

    hit = store.get_result(result_key(rules, max_guesses=rules.max_guesses))
    return hit is not None and hit["tree"] is not None


def _shipped_worst(rules: Rules) -> int | None:
    """The worst case of the optimal tree that ships for `rules`'s code space (as
    `solver.cached.stored_tree` finds it, without reading the tree), or None."""
    return None if rules.blanks else _shipped_worst_by_key(rules.key)


@functools.cache
def _shipped_worst_by_key(key: str) -> int | None:
    from .solver.cached import SHIPPED, shipped_tree
    from .solver.cells import cell_rules, stored_cells

    for pegs, colors in SHIPPED:  # (small games: read only when asked about them)
        if key == Rules(pegs=pegs, colors=colors).key:
            tree = shipped_tree(pegs, colors)
            return None if tree is None else tree.worst
    for cell in stored_cells():
        if cell_rules(cell).key == key:
            return int(cell["worst"])
    return None


def explorer_tree(rules: Rules | str, strategy: str, *, store: Store | None = None,
                  seconds: float = LAB_SECONDS) -> tuple[DecisionTree, str]:
    """Return (tree, source) for the explorer: source is "shipped", "stored" or "computed".
    Raises `LimitExceededError` (HTTP 413) for a tree a web request may not build."""
    rules = rules_of(rules)
    name = explorer_strategy(strategy)
    label = rules_name(rules)
    if name == "optimal":
        from .solver.cached import optimal, stored_result, stored_tree

        # a tree that ships with keypeg (MM(4,6), MM(4,7), the new cells'), within the cap
        shipped = stored_tree(rules, rules.max_guesses) is not None
        if not shipped and rules.size > EXACT_HINT_CODES:
            # too big to search here, but keypeg optimal may have stored it (it had been
            # refused all the same)
            kept = None if store is None else stored_result(rules, store,
                                                            max_guesses=rules.max_guesses)
            if kept is None:
                raise _too_big(rules, name)
            return kept.tree, "stored"
        try:
            result, cached = optimal(rules, max_guesses=rules.max_guesses, store=store,
                                     time_limit=seconds)
        except LimitExceededError:
            raise LimitExceededError(
                f"the optimal tree of {label} is not known and was not found within "
                f"{seconds:g} s; run keypeg optimal {cli_rules(rules)} once: the tree is "
                "stored, and the explorer uses it.") from None
        return result.tree, ("shipped" if shipped else "stored") if cached else "computed"
    if rules.size > EXACT_HINT_CODES:
        raise _too_big(rules, name)
    from .strategies import find_strategy

    return find_strategy(name).tree(get_space(rules)), "computed"


def cli_rules(rules: Rules) -> str:
    """Return the command-line options that name `rules` (--rules NAME for a preset)."""
    name = rules_name(rules)
    if not name.startswith("MM("):
        return f"--rules {name}"
    return f"--pegs {rules.pegs} --colors {rules.colors}"


def _too_big(rules: Rules, name: str) -> LimitExceededError:
    """The 413 for a tree too big for a web request, with the way keypeg has to it (the
    optimal tree of a game it does not ship had been said to be written by `tree export`,
    which searches for a minute and gives up)."""
    from .space import whole_tree_route

    cli = cli_rules(rules)
    route = whole_tree_route(rules, splits=True)  # (the explorer's others are one-step)
    if name == "optimal":
        way = (f"its optimum is not known: keypeg optimal {cli} searches for it for as long "
               "as it is given, and stores the tree the explorer then shows")
    elif route in ("table", "split"):
        way = f"keypeg tree export {cli} --strategy {name} writes it"
    elif route == "checkpoint":
        way = (f"keypeg evaluate {cli} -s {name} --checkpoint FILE --save-tree TREE walks "
               "it part by part (hours)")
    else:
        way = "no whole tree of a game this size is built here; play it with hints instead"
    return LimitExceededError(
        f"the {name} tree of {rules_name(rules)} ({rules.size:,} codes) is too big to build "
        f"in a web request (at most {EXACT_HINT_CODES:,} codes); {way}.")


class TreeIndex:
    """A decision tree prepared for browsing node by node (see the module docstring)."""

    def __init__(self, tree: DecisionTree, source: str = "computed") -> None:
        self.tree = tree
        self.source = source
        self.space = space = get_space(tree.rules)
        n = tree.nodes
        parent = tree.parent.astype(np.int64)
        depth = tree.depth.astype(np.int64)
        found = tree.found()
        self.found = found
        # children of each node, contiguous, in answer order: child[start[i]:start[i+1]]
        kids = np.flatnonzero(parent >= 0)
        kids = kids[np.lexsort((tree.response[kids], parent[kids]))]
        self.child = kids
        self.start = np.searchsorted(parent[kids], np.arange(n + 1)).astype(np.int64)
        # subtree totals (guesses over its secrets, counted from the start of the game) and
        # worst cases: each level added into its parents, deepest level first
        total = np.where(found, depth, 0)
        worst = total.copy()
        top, bottom = int(depth.min()), int(depth.max())
        for d in range(bottom, top, -1):
            sel = kids[depth[kids] == d]
            np.add.at(total, parent[sel], total[sel])
            np.maximum.at(worst, parent[sel], worst[sel])
        self.total = total
        self.worst = worst
        # where each secret is found: the node whose guess it is, among those that find one
        finders = np.flatnonzero(found)
        self.found_at = np.full(space.size, -1, dtype=np.int64)
        self.found_at[tree.guess[finders]] = finders
        # a depth-first numbering (ancestors at each depth as sort keys, -1 above a node's
        # own depth, so a node comes before its subtree); the secrets of node i are then
        # secrets[first[i] : first[i] + size[i]]
        levels = bottom - top + 1
        anc = np.full((levels, n), -1, dtype=np.int64)
        cur = np.arange(n)
        for _ in range(levels):
            live = cur >= 0
            anc[depth[cur[live]] - top, np.flatnonzero(live)] = cur[live]
            cur = np.where(live, parent[np.maximum(cur, 0)], -1)
        order = np.lexsort(anc[::-1])
        is_found = found[order]
        self.secrets = tree.guess[order[is_found]].astype(np.int64)
        before = np.concatenate(([0], np.cumsum(is_found)[:-1]))
        self.first = np.empty(n, dtype=np.int64)
        self.first[order] = before

    # ------------------------------------------------------------------ queries
    def summary(self) -> dict[str, Any]:
        """Return the whole tree's numbers."""
        t = self.tree
        return {"strategy": t.strategy, "first_guess": self.space.text(t.first_guess),
                "total": int(self.total[0]), "mean": round(int(self.total[0]) / t.secrets, 4),
                "worst": int(self.worst[0]), "secrets": t.secrets, "nodes": t.nodes,
                "source": self.source}

    def codes(self, i: int) -> list[str]:
        """Return the secrets that reach node `i` (every one: keep to small nodes)."""
        lo = int(self.first[i])
        return self.space.texts(self.secrets[lo: lo + int(self.tree.size[i])])

    def node(self, i: int) -> dict[str, Any]:
        """Return node `i`: its guess, the numbers of its subtree, the path to it, and one
        row per answer the guess can get (the winning answer too, without a node)."""
        t, space = self.tree, self.space
        if not 0 <= i < t.nodes:
            raise KeypegError(f"node {i} is not in this tree: its nodes are numbered 0 to "
                              f"{t.nodes - 1}.")
        depth, size = int(t.depth[i]), int(t.size[i])
        answers = []
        for k in self.child[self.start[i]: self.start[i + 1]].tolist():
            n, tot = int(t.size[k]), int(self.total[k])
            answers.append({"answer": str(space.feedback(int(t.response[k]))), "node": k,
                            "size": n, "total": tot, "mean": round(tot / n, 4),
                            "worst": int(self.worst[k]), "guess": space.text(int(t.guess[k])),
                            "win": False})
        if self.found[i]:
            answers.append({"answer": str(space.feedback(space.win)), "node": None, "size": 1,
                            "total": depth, "mean": float(depth), "worst": depth,
                            "guess": None, "win": True})
        total = int(self.total[i])
        return {
            "node": i, "guess": space.text(int(t.guess[i])), "depth": depth, "size": size,
            "total": total, "mean": round(total / size, 4), "worst": int(self.worst[i]),
            "from_here": total - (depth - 1) * size, "candidate": bool(self.found[i]),
            "path": self.breadcrumbs(i), "answers": answers,
            "codes": self.codes(i) if size <= HINT_LIST else None,
        }

    def breadcrumbs(self, i: int) -> list[dict[str, Any]]:
        """Return the nodes from the root to `i`: each its guess and the answer to the
        guess before it that leads there (None at the root)."""
        t, space = self.tree, self.space
        chain = []
        while i >= 0:
            chain.append(i)
            i = int(t.parent[i])
        return [{"node": k, "guess": space.text(int(t.guess[k])),
                 "answer": None if t.parent[k] < 0 else str(space.feedback(int(t.response[k])))}
                for k in reversed(chain)]

    def path(self, secret: str) -> list[dict[str, Any]]:
        """Return the nodes a secret passes through, root first, down to the node whose
        guess finds it. Raises `KeypegError` for a code that is not a secret of the tree."""
        space = self.space
        s = space.index(secret)
        leaf = int(self.found_at[s])
        if leaf < 0:
            raise KeypegError(f"{shorten(secret)!r} is not one of the secrets this tree covers.")
        return self.breadcrumbs(leaf)
