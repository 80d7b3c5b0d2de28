"""Resumable optimal searches: the parts of the root written to SQLite as they finish.

A long search spends its time on the parts of the root's first guesses (see
`parallel.solve_root`). With a `Checkpoint`, each part a worker finishes is written to the
store's ``parts`` table in one transaction (WAL): a digest of its codes and of the symmetry
left by the guesses played (`roots.part_digest`), the guesses left, and either its exact
value with its optimal subtree or the lower bound the search proved under the budget it
had. A run that is killed (even with SIGKILL) loses at most the parts in flight; the same
search started again takes every recorded part instead of solving it (`roots.PartWorker`),
so it reaches the same optimum and the same tree without redoing finished work. The rows
of a search are deleted once its result is stored.

>>> import os, tempfile
>>> from keypeg.store import Store
>>> cp = Checkpoint(Store(os.path.join(tempfile.mkdtemp(), "k.db")), "demo").scoped("cap=None")
>>> cp.put("d", 39, 12, False, 12, None); cp.get("d", 39).value
12
>>> cp.put("d", 39, 10, True, 14, None); (cp.get("d", 39).value, cp.get("d", 39).exact)
(10, True)
>>> cp.earlier("d", 39), Checkpoint(cp.store, "demo").scoped("cap=None").earlier("d", 39)
(False, True)
>>> cp.clear(); cp.get("d", 39) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..store import Store
from .roots import subtree_bytes, subtree_from_bytes


@dataclass
class PartRecord:
    """A checkpointed part: its exact value (with its subtree, when kept) or a lower bound
    proven when the search had `budget`."""

    value: int
    exact: bool
    budget: int
    tree: np.ndarray | None


class Checkpoint:
    """The checkpoint of one search (`key`: the store key of its result), optionally
    narrowed to one attempt (`scoped`: the cap searched under, the options that change
    which tree is found)."""

    def __init__(self, store: Store, key: str, scope: str = "") -> None:
        self.store = store
        self.key = key
        self.context = key + ("|" + scope if scope else "")
        #: The records this object put: a record found that is not among them was left by
        #: an earlier run (`earlier`). A search takes a `scoped` copy of its own, so the
        #: copies of two searches, even in one process, tell each other's records apart.
        self.written: set[tuple[str, int]] = set()
        #: The parts an earlier run had recorded, read once (`get`): a part in neither set
        #: is not looked up (a query took 14 % of bulls-and-cows' time with parts of 300
        #: codes split). A record another process writes meanwhile is not seen: that part
        #: is solved again.
        self.before: set[tuple[str, int]] | None = None

    def scoped(self, scope: str) -> Checkpoint:
        return Checkpoint(self.store, self.key, scope)

    def earlier(self, digest: str, guesses_left: int) -> bool:
        """Whether the record of a part was left by an earlier run, not put by this one
        (a part met twice in one run, say under two guesses of a big part, is taken from
        the record the first time left)."""
        return (digest, guesses_left) not in self.written

    def get(self, digest: str, guesses_left: int) -> PartRecord | None:
        if self.before is None:
            self.before = self.store.part_keys(self.context)
        key = (digest, guesses_left)
        if key not in self.before and key not in self.written:
            return None
        row = self.store.get_part(self.context, digest, guesses_left)
        if row is None:
            return None
        value, exact, budget, tree = row
        return PartRecord(value, exact, budget,
                          subtree_from_bytes(tree) if tree is not None else None)

    def put(self, digest: str, guesses_left: int, value: int, exact: bool, budget: int,
            tree: np.ndarray | None) -> None:
        self.store.put_part(self.context, digest, guesses_left, int(value), exact,
                            int(budget), subtree_bytes(tree) if tree is not None else None)
        self.written.add((digest, guesses_left))

    def count(self) -> int:
        """Return how many parts are recorded for this search (all its attempts)."""
        return self.store.count_parts(self.key + "|")

    def clear(self) -> None:
        """Forget every part recorded for this search (all its attempts)."""
        self.store.clear_parts(self.key + "|")
