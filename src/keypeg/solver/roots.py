"""Workers for the parts of the root that keep what they solve: the subtree of every part
solved exactly (so the driver assembles the optimal tree without re-solving anything), and,
with a checkpoint, every result in SQLite as it finishes (so a killed run resumes).

`parallel.solve_root` hands each part of a first guess to a worker through
``run_part(part, depth, budget, kmax, history)`` and reads its ``counters`` (the STOP slot
tells it to give up); a `PartWorker` has that interface. `LocalWorker` solves on a search of
its own in this process (a thread of the pool); `cluster.RemoteWorker` sends the part to a
Ray actor. Both first look the part up in the checkpoint: an exact value is taken as it is
(with its subtree), a lower bound when it is at least the budget the part has now (the
search would fail again); anything else is solved and written back.

This module imports no search: the searches are built by the caller's factory.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._kernels import slots
from ..errors import SearchStopped
from ..limits import split_codes
from ..rules import Rules
from ..space import CandidateView, get_space

if TYPE_CHECKING:
    from .cluster import Cluster
    from .resume import Checkpoint
    from .search import _Search

#: Rows of a subtree: guess, parent (-1 at its root), answer (-1 at its root), guesses
#: before the node within the subtree (0 at its root), candidates at the node.
SUBTREE_ROWS = 5

#: With a checkpoint, a part of at least this many codes is not solved in one call of the
#: search but a guess at a time (`parallel.solve_split`), each of its own parts recorded as
#: it finishes: a killed run then loses at most one of those, not hours of a big part.
#: ``KEYPEG_SPLIT_CODES`` overrides it (`limits.split_codes`) for a run whose parts of
#: fewer codes still take hours (MM(5,9) without repeats). Each split costs Python's work
#: per guess: bulls-and-cows checkpointed on two cores took 4.06 s, 7.47 s with parts of
#: 300 codes split and 9.94 s with 150 (`benchmarks/run.py splitcodes`, 2026-12-06).
SPLIT_MIN_CODES = 1000

#: Below the root's parts (the parts of a split part), only what took at least this long to
#: solve is recorded: a write costs about a millisecond, and most of those parts take less.
RECORD_MIN_SECONDS = 0.05

#: Whether a root on local threads lends the workers it has no part for to a worker solving
#: a big part a guess at a time (a cluster's root does). Off: parts of one guess solved side
#: by side are each bounded without the other's excess, and most guesses there are refuted,
#: so the lent worker mostly proves what the refutation would have made unnecessary:
#: bulls-and-cows with a checkpoint on two cores scored 380-700 M probes lending (median
#: 17.2 s) against 319 M without (14.0 s); MM(4,8) and Codebreaker 1 were no faster lending.
LEND_LOCAL = False

#: Whether, instead, such workers join a part solved a guess at a time on local threads,
#: each costing whole guesses of it beside its own worker (`parallel.solve_split`).
TEAM_LOCAL = True


def part_digest(part: np.ndarray, history: slots.History, kmax: int) -> str:
    """Return a digest of a part and what the search of it depends on: its codes (sorted
    indices), the symmetry left by the guesses played (group elements and colours played)
    and the answer count bounding it."""
    h = hashlib.sha256()
    h.update(np.sort(np.asarray(part, dtype=np.int32)).tobytes())
    h.update(np.ascontiguousarray(history.perms, dtype=np.int32).tobytes())
    h.update(b"|")
    h.update(np.ascontiguousarray(history.colour_maps, dtype=np.int8).tobytes())
    h.update(f"|{int(history.played)}|{kmax}".encode())
    return h.hexdigest()


def set_digest(part: np.ndarray) -> str:
    """Return a digest of a set of codes (sorted indices)."""
    return hashlib.sha256(np.sort(np.asarray(part, dtype=np.int32)).tobytes()).hexdigest()


def subtree_bytes(rows: np.ndarray) -> bytes:
    """Return a subtree (`SUBTREE_ROWS` x nodes, int32) as compressed bytes."""
    return gzip.compress(np.ascontiguousarray(rows, dtype=np.int32).tobytes(), mtime=0)


def subtree_from_bytes(data: bytes) -> np.ndarray:
    """Return the subtree written by `subtree_bytes`."""
    return np.frombuffer(gzip.decompress(data), dtype=np.int32).reshape(SUBTREE_ROWS, -1).copy()


def part_subtree(search: _Search, part: np.ndarray, depth: int,
                 history: slots.History) -> np.ndarray | None:
    """Return the optimal subtree of a part just solved exactly by `search` (from its memo,
    re-solving the sets it does not hold, see `_Search.subtree`); None when the search was
    told to stop."""
    if search.counters[slots.STOP]:
        return None
    try:
        rows = search.subtree(part, depth, history)
    except SearchStopped:  # stopped while re-solving a set the memo lost
        return None
    return None if search.counters[slots.STOP] else rows


class PartLog:
    """What the workers of one search share: the checkpoint (or None) and the subtrees of
    the parts solved exactly, by set and guesses left (the first one found is kept, as in
    a memo)."""

    def __init__(self, checkpoint: Checkpoint | None, lending: bool = True,
                 teaming: bool = False) -> None:
        self.checkpoint = checkpoint
        #: Whether the root lends its idle workers (see `idle`) for parts of a guess.
        self.lending = lending
        #: Whether (where it does not lend them) its idle workers join a part solved a
        #: guess at a time, each costing whole guesses (`parallel.solve_split`).
        self.teaming = teaming
        self.subtrees: dict[tuple[str, int], np.ndarray] = {}
        #: What the parts solved a guess at a time cost (`PartWorker.split`): (value, guess)
        #: by set and guesses left, guess -1 for a lower bound.
        self.values: dict[tuple[str, int], tuple[int, int]] = {}
        self.lock = threading.Lock()
        #: Workers the root has no part for (the last parts of its first guess are running),
        #: lent to a worker solving a big part a guess at a time (`parallel.solve_split`)
        #: for the parts of its guesses.
        self.idle: list[Any] = []
        self.turns = threading.Condition()

    def offer(self, workers: list[Any]) -> None:
        """Make `workers` (the root's, with nothing to do) available to borrow."""
        with self.turns:
            self.idle.extend(workers)
            self.turns.notify_all()

    def borrow(self) -> Any:
        """Return an idle worker, or None."""
        with self.turns:
            return self.idle.pop() if self.idle else None

    def give_back(self, worker: Any) -> None:
        with self.turns:
            self.idle.append(worker)
            self.turns.notify_all()

    def reclaim(self, workers: list[Any]) -> None:
        """Take back the workers offered once every one of them is idle again."""
        with self.turns:
            self.turns.wait_for(lambda: all(any(w is x for x in self.idle) for w in workers))
            self.idle = [x for x in self.idle if not any(w is x for w in workers)]

    def hold(self, part: np.ndarray, depth: int, value: int, guess: int) -> None:
        """Keep a part's value (guess >= 0) or a lower bound on it (guess -1), as a memo
        does: an exact value stays, a bound only rises."""
        key = (set_digest(part), depth)
        with self.lock:
            old = self.values.get(key)
            if old is None or (old[1] < 0 and (guess >= 0 or value > old[0])):
                self.values[key] = (value, guess)

    def held(self, part: np.ndarray, depth: int) -> tuple[int, int] | None:
        return self.values.get((set_digest(part), depth))

    def keep(self, part: np.ndarray, depth: int, rows: np.ndarray | None) -> None:
        if rows is not None:
            with self.lock:
                self.subtrees.setdefault((set_digest(part), depth), rows)

    def subtree(self, part: np.ndarray, depth: int) -> np.ndarray | None:
        return self.subtrees.get((set_digest(part), depth))


class PartWorker:
    """A worker of `parallel.solve_root` that records what it solves (see the module)."""

    def __init__(self, log: PartLog) -> None:
        self.log = log
        self.counters = np.zeros(slots.COUNTER_SLOTS, dtype=np.int64)
        self.mmeta = np.zeros(4, dtype=np.int64)
        #: Parts this worker took from the checkpoint instead of solving them, those of them
        #: an earlier run had recorded (a run resumed), and parts it solved.
        self.reused = 0
        self.resumed = 0
        self.solved = 0

    def solve(self, part: np.ndarray, depth: int, budget: int, kmax: int,
              history: slots.History, dist: int = 1) -> tuple[int, np.ndarray | None]:
        """Return the part's cost (or a lower bound >= budget) and its subtree when
        exact; the subclass's work. `dist`: the part's distance from the root."""
        raise NotImplementedError

    def known_guess(self, S: np.ndarray, depth: int) -> int:
        return -1

    @staticmethod
    def splits(part: np.ndarray, depth: int) -> bool:
        """Whether a part is big enough to be solved a guess at a time (`split`)."""
        return part.size >= split_codes(SPLIT_MIN_CODES) and depth > 1

    def split(self, search: _Search, part: np.ndarray, depth: int, budget: int, kmax: int,
              history: slots.History, dist: int,
              fill: Callable[[np.ndarray, slots.History], np.ndarray | None],
              lock: threading.Lock | None = None) -> tuple[int, np.ndarray | None]:
        """Return what `solve` returns, the part solved a guess at a time by
        `parallel.solve_split` (its guesses scored by `search`, under `lock` when shared),
        each part of a guess through this worker's `run_part` or a borrowed one's. The
        subtree is joined from its parts' (`subtree_rows`); one not kept (solved quickly)
        comes from ``fill(part, its history)``."""
        from .parallel import child_history, part_history, solve_split

        # The kernel looks a set up in its memos before it searches it, and records what it
        # found: so here too. The same set comes back under other guesses (MM(3,16): one of
        # 1,728 codes under 111, 112 and parts of 123; solved again each time, the
        # checkpointed run expanded 9.5 M sets against 8.0 M in one call of the search)
        held = self.held(part, depth, budget, history)
        if held is not None:
            return held
        cost, guess = solve_split(search, self, part, depth, budget, kmax, history, dist, lock)
        if self.counters[slots.STOP]:
            return cost, None
        self.hold(part, depth, cost, guess)
        if cost >= budget:
            return cost, None
        child = child_history(search, history, guess)
        return cost, subtree_rows(
            search.space, search.table, self.log, part, guess, depth,
            lambda sub, answer: fill(sub, part_history(search, child, guess, answer)))

    def hold(self, part: np.ndarray, depth: int, value: int, guess: int) -> None:
        """Keep what `split` found for a part (guess -1: a lower bound) where `kept`
        finds it again: here the log (every worker's), its subtree kept by `run_part`."""
        self.log.hold(part, depth, value, guess)

    def kept(self, part: np.ndarray, depth: int) -> tuple[int, int] | None:
        """Return (value, guess) kept for a part by `hold` (guess -1: the value is a lower
        bound), or None."""
        return self.log.held(part, depth)

    def kept_subtree(self, part: np.ndarray, depth: int,
                     history: slots.History) -> np.ndarray | None:
        """Return the subtree of a part kept exact (None where it cannot be had)."""
        return self.log.subtree(part, depth)

    def held(self, part: np.ndarray, depth: int, budget: int, history: slots.History
             ) -> tuple[int, np.ndarray | None] | None:
        """Return what `solve` would for a part from what was kept of it: (its value, its
        subtree) when exact and under `budget`, (a bound, None) when that reaches
        `budget`; else None."""
        found = self.kept(part, depth)
        if found is None:
            return None
        value, guess = found
        if value >= budget:
            return value, None
        rows = self.kept_subtree(part, depth, history) if guess >= 0 else None
        return None if rows is None else (value, rows)

    def run_part(self, part: np.ndarray, depth: int, budget: int, kmax: int,
                 history: slots.History, dist: int = 1) -> int:
        checkpoint = self.log.checkpoint
        digest = part_digest(part, history, kmax) if checkpoint is not None else ""
        if checkpoint is not None:
            found = checkpoint.get(digest, depth)
            if found is not None and (found.exact or found.value >= budget):
                self.reused += 1
                if checkpoint.earlier(digest, depth):
                    self.resumed += 1
                if found.exact:
                    self.log.keep(part, depth, found.tree)
                return found.value
        started = time.perf_counter()
        cost, rows = self.solve(part, depth, budget, kmax, history, dist)
        self.solved += 1
        if self.counters[slots.STOP]:
            return cost  # stopped on purpose: the value means nothing
        exact = cost < budget
        if exact:
            self.log.keep(part, depth, rows)
        if checkpoint is not None and (
                dist <= 1 or time.perf_counter() - started >= RECORD_MIN_SECONDS):
            checkpoint.put(digest, depth, cost, exact, budget, rows if exact else None)
        return cost


class LocalWorker(PartWorker):
    """A part worker on a search of its own, in a thread of this process."""

    def __init__(self, search: _Search, log: PartLog) -> None:
        super().__init__(log)
        self.search = search
        # the search's own counters: the time limit's STOP reaches it, progress sees it
        self.counters = search.counters
        self.mmeta = search.mmeta

    def solve(self, part: np.ndarray, depth: int, budget: int, kmax: int,
              history: slots.History, dist: int = 1) -> tuple[int, np.ndarray | None]:
        search = self.search
        if self.log.checkpoint is not None and self.splits(part, depth):
            return self.split(search, part, depth, budget, kmax, history, dist,
                              lambda sub, hist: part_subtree(search, sub, depth - 1, hist))
        started = time.perf_counter()
        cost = search.run_part(part, depth, budget, kmax, history, dist)
        rows = None
        if cost < budget and not self.counters[slots.STOP] and (
                dist <= 1 or time.perf_counter() - started >= RECORD_MIN_SECONDS):
            rows = part_subtree(search, part, depth, history)
        return cost, rows

    def hold(self, part: np.ndarray, depth: int, value: int, guess: int) -> None:
        # (the memo: the kernel's cheap passes find it there too, before any call here)
        self.search.hold(part, depth, value, guess)

    def kept(self, part: np.ndarray, depth: int) -> tuple[int, int] | None:
        return self.search.held(part, depth)

    def kept_subtree(self, part: np.ndarray, depth: int,
                     history: slots.History) -> np.ndarray | None:
        return part_subtree(self.search, part, depth, history)  # (rebuilt from the memo)

    def known_guess(self, S: np.ndarray, depth: int) -> int:
        return self.search.known_guess(S, depth)


def local_workers(new_search: Callable[[], _Search], n: int, log: PartLog) -> list[PartWorker]:
    """Return `n` workers solving parts on searches of their own in this process."""
    return [LocalWorker(new_search(), log) for _ in range(n)]


def assemble(main: _Search, S: np.ndarray, guess: int, depth: int,
             guesses: list[int]) -> dict[str, Any] | None:
    """Return the optimal tree's node arrays (guess, parent, response, depth, size) for S
    played from `guess`, its parts' subtrees taken from the workers' log (parts of one or
    two codes built here); None when some part's subtree is missing."""
    helpers = main.helpers
    if guess < 0 or not helpers or not isinstance(helpers[0], PartWorker):
        return None
    out = subtree_rows(main.space, main.table, helpers[0].log, S, guess, depth)
    if out is None:
        return None
    return {"guess": out[0], "parent": out[1], "response": out[2],
            "depth": (out[3] + len(guesses) + 1).astype(np.int32), "size": out[4]}


def subtree_rows(space: Any, table: np.ndarray, log: PartLog, S: np.ndarray, guess: int,
                 depth: int,
                 fill: Callable[[np.ndarray, int], np.ndarray | None] | None = None
                 ) -> np.ndarray | None:
    """Return the subtree (`SUBTREE_ROWS` rows) of S played from `guess` with `depth`
    guesses left, its parts' subtrees taken from `log`, else from ``fill(part, answer)``
    (parts of one or two codes built here); None when some part's subtree is missing."""
    S = np.ascontiguousarray(S, dtype=np.int32)
    blocks = [np.array([[guess], [-1], [-1], [0], [S.size]], dtype=np.int32)]
    n = 1
    parts = space.partition(guess, S)
    for r in sorted(parts):
        if r == space.win:
            continue
        part = np.ascontiguousarray(parts[r], dtype=np.int32)
        if part.size > 2:
            rows = log.subtree(part, depth - 1)
            if rows is None and fill is not None:
                rows = fill(part, r)
            if rows is None:
                return None
            rows = rows.copy()
        else:  # one code: play it; two: play the first, then the other
            rows = np.array([[part[0]], [-1], [-1], [0], [part.size]], dtype=np.int32)
            if part.size == 2:
                r2 = int(table[part[0], part[1]])
                rows = np.array([[part[0], part[1]], [-1, 0], [-1, r2], [0, 1], [2, 1]],
                                dtype=np.int32)
        rows[1] = np.where(rows[1] < 0, 0, rows[1] + n)
        rows[2, 0] = r
        rows[3] += 1
        blocks.append(rows)
        n += rows.shape[1]
    return np.concatenate(blocks, axis=1)


def build_search(search_class: type[_Search], rules: Rules,
                 view: tuple[np.ndarray, list[int]] | None, options: dict[str, Any]
                 ) -> _Search:
    """Return a search context like the driver's workers, built from a small spec in
    another process (a Ray actor): the space of `rules` (or the candidate view of `view`:
    candidates and guesses played) and the search's options."""
    space = get_space(rules)
    where = space if view is None else CandidateView(space, view[0], view[1])
    return search_class(where, **options)


class PartViews:
    """An actor's search when the game's full table is too big for each actor to hold one
    (Codebreaker 4-6's is 9.3 GiB): each part is solved on a view of its own (the part's
    codes as the candidates of a `CandidateView`: every code it may play against them
    only, a table of the part's size), built when the part comes and kept until another
    one does. Parts come and subtrees go back in the space's indices, as the driver's.
    The view's search makes the same choices as the full table's (the codes it leaves out
    are never played, see `CandidateView`): the cluster tests compare whole trees."""

    def __init__(self, search_class: type[_Search], rules: Rules,
                 options: dict[str, Any]) -> None:
        self.space = get_space(rules)
        self.search_class = search_class
        self.options = options
        self.view: CandidateView | None = None
        self.search: _Search | None = None

    def for_part(self, part: np.ndarray) -> tuple[_Search, np.ndarray, np.ndarray]:
        """Return the search of `part`'s view, the part in its indices (0..m-1, in the
        order given) and the space's index of each view index."""
        part = np.ascontiguousarray(part, dtype=np.int32)
        view = self.view
        if view is None or view.m != part.size or not np.array_equal(view.order[:view.m],
                                                                       part):
            self.view = self.search = None  # the last part's view goes before this one's
            view = self.view = CandidateView(self.space, part)
            self.search = self.search_class(view, **self.options)
        assert self.search is not None
        return self.search, np.arange(part.size, dtype=np.int32), view.order


def part_workers(new_search: Callable[[], _Search], n_workers: int, *,
                 cluster: Cluster | None, checkpoint: Checkpoint | None,
                 spec: tuple[Callable[..., Any], tuple[Any, ...]],
                 splitter: Callable[[], _Search] | None = None, root_codes: int = 0,
                 view_codes: int = 0) -> list[Any]:
    """Return the workers of one search's root (`PartWorker`s, which `solve_root` uses as
    it uses searches): one per actor of `cluster` (built in each by `spec`; their big parts,
    of a root of `root_codes` codes, or of more than `view_codes` when each part has a
    table of its own, split here by a search `splitter` builds), else `n_workers` local
    ones; all recording in `checkpoint` when given."""
    log = PartLog(checkpoint, lending=cluster is not None or LEND_LOCAL,
                  teaming=cluster is None and TEAM_LOCAL)
    if cluster is not None:
        return cluster.workers(spec, log, splitter, root_codes, view_codes)
    return local_workers(new_search, n_workers, log)
