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
from typing import Any

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


@dataclass
class RecordedSearch:
    """The parts one search has recorded in a store (all its attempts), as
    `recorded_searches` lists them: a search that stopped, or a record no run will take
    again (its options or keypeg changed), until the search finishes or they are dropped."""

    key: str
    contexts: list[str]
    parts: int
    exact: int
    size: int  # bytes of the subtrees kept
    first: float  # Unix seconds
    last: float

    @property
    def name(self) -> str:
        return describe_key(self.key)


def recorded_searches(store: Store) -> list[RecordedSearch]:
    """Return every search with parts recorded in `store`, in key order.

    >>> import os, tempfile
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "k.db"))
    >>> Checkpoint(store, 'optimal:["p4-c7","total",null,false,null,[]]').scoped("cap=None"
    ...     ).put("d", 9, 12, True, 13, None)
    >>> [(s.name, s.parts, s.exact) for s in recorded_searches(store)]
    [('MM(4,7)', 1, 1)]
    """
    found: dict[str, RecordedSearch] = {}
    for context, parts, exact, size, first, last in store.part_contexts():
        key, _, scope = context.rpartition("|")
        if not key or not scope.startswith("cap="):  # (a context with no attempt named)
            key = context
        seen = found.get(key)
        if seen is None:
            found[key] = RecordedSearch(key, [context], parts, exact, size, first, last)
        else:
            seen.contexts.append(context)
            seen.parts += parts
            seen.exact += exact
            seen.size += size
            seen.first, seen.last = min(seen.first, first), max(seen.last, last)
    return [found[k] for k in sorted(found)]


def drop_recorded(store: Store, searches: list[RecordedSearch]) -> int:
    """Forget every part these searches recorded; return how many parts went."""
    return store.drop_contexts([c for s in searches for c in s.contexts])


def describe_key(key: str) -> str:
    """Say in words which search a checkpoint key names (`cached.result_key`, or
    `scripts/new_cells.py`'s cell keys); a key it cannot read is given as it is.

    >>> describe_key('optimal:["p4-c6","worst",8,true,null,["1122=1B1W"]]')
    'MM(4,6) after 1122=1B1W, worst case first, within 8 guesses, possible codes only'
    >>> describe_key('optimal:["p4-c10-norep","total",10,false,"1234",[]]')
    'bulls-and-cows, first guess 1234'
    >>> describe_key("cell-second:p7-c4")
    "MM(7,4), a new cell's second proof (scripts/new_cells.py)"
    """
    import json

    kind, _, rest = key.partition(":")
    if kind == "optimal":
        try:
            fields = json.loads(rest)
            space, objective, cap, possible_only, first, history = fields[:6]
            text = _space_name(str(space))
            preset = _preset_name(str(space), cap)
            if preset is not None:  # (its rows are the cap)
                text, cap = preset, None
            if history:
                text += " after " + " ".join(str(c) for c in history)
        except (ValueError, TypeError):
            return key
        if objective == "worst":
            text += ", worst case first"
        if cap is not None:
            text += f", within {cap} guesses"
        if possible_only:
            text += ", possible codes only"
        if first:
            text += f", first guess {first}"
        return text
    cells = {"cell": "a new cell's search", "cell-second": "a new cell's second proof"}
    if kind in cells:
        return f"{_space_name(rest)}, {cells[kind]} (scripts/new_cells.py)"
    if kind.startswith("w-"):
        return f"{_space_name(rest)}, a new cell's worst-case search (scripts/new_cells.py)"
    return key


def _preset_name(space: str, cap: Any) -> str | None:
    """The first preset of this code space (`Rules.key`) whose board has `cap` rows."""
    from ..rules import PRESETS

    return next((p.name for p in PRESETS
                 if cap is not None and p.rules.key == space and p.rules.max_guesses == cap),
                None)


def _space_name(space: str) -> str:
    """MM(p,c) with its flags for a code space's key (`Rules.key`: p4-c6-norep-pos)."""
    words = space.split("-")
    if len(words) < 2 or not words[0][1:].isdigit() or not words[1][1:].isdigit():
        return space
    flags = {"norep": "no repeats", "blanks": "blanks", "pos": "positional"}
    extra = [flags.get(w, w) for w in words[2:]]
    return f"MM({words[0][1:]},{words[1][1:]})" + (f" [{', '.join(extra)}]" if extra else "")
