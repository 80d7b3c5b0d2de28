"""The root of the optimal search on several workers.

The parts a first guess cuts the secrets into are independent subproblems: each is solved
by a worker with the budget the guess has left when the part starts (the other parts
counted at their lower bounds). A worker is a thread running the compiled search (it
releases the GIL) with a memo of its own, so a process pool or a Ray cluster can take its
place. First guesses are taken in the same order as in the serial search and a guess wins
only by being strictly cheaper, so the optimum and the tree are the same as serially.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any

import numpy as np

from .._kernels import memo as km
from .._kernels import optimal as k
from .._kernels import slots
from ..errors import KeypegError

if TYPE_CHECKING:
    from .search import _Search


#: The least set the workers' memos share between first guesses (`pool_memos`): smaller
#: sets are quick to solve again, and copying them cost more than it saved (MM(4,8), two
#: workers: every set 0.5 s of copies for 531 M probes, from 16 codes 0.05-0.09 s for 545 M;
#: 600 M without sharing).
POOL_MIN_CODES = 16


#: The least part a worker with nothing left to do joins while another solves it (`_probe`):
#: a joining worker first scores the part's probes, and a small part is over by then.
TEAM_MIN_CODES = 100

#: The cost of one guess in `_best_guess`: ``cost(guess, its bound, limit, answers bound,
#: its parts' bounds, now)``: its cost when under the limit, else a bound >= the limit;
#: ``now()`` is the limit at this moment (a team's best falls while a member costs a guess).
Cost = Callable[[int, int, int, int, "np.ndarray | None", Callable[[], int]], int]


class PartTask:
    """One part of one first guess, handed to a worker (and to those that join it)."""

    def __init__(self, part: np.ndarray, plb: int, answer: int = -1) -> None:
        self.part = part
        self.plb = plb
        self.answer = answer
        self.args: tuple = ()  # run_part's arguments after the part
        self.team: np.ndarray | None = None  # `slots.team_array` of the searches on it
        self.sharers: list[Any] = []  # the searches that ran on it, in team order
        self.costs: list[int] = []  # what each that finished returned
        self.stopped = False

    def share(self, search: Any) -> None:
        """Make `search` the next of those sharing this part's probes."""
        assert self.team is not None
        search.share_root(self.team, len(self.sharers), 1)
        self.sharers.append(search)

    def value(self, search: Any, dkey: int) -> int:
        """Return the part's cost (or lower bound) once every search on it has finished,
        and record a cost found by the team in the memo of `search` (one of them, idle now),
        where the kernel would have stored it and the tree's rebuild looks for it."""
        low = min(self.costs)
        assert self.team is not None
        total, guess = slots.team_best(self.team)
        if guess < 0 or total > low:  # none found under the budget, or from a memo
            return low
        part = np.ascontiguousarray(self.part, dtype=np.int32)
        km.memo_store(part, dkey, total, guess, search.mheads, search.ment, search.mpool,
                      search.mmeta, search.counters)
        return total


def solve_root(main: _Search, workers: list[_Search], S: np.ndarray, depth: int, budget: int,
               guesses: list[int], on_probe: Callable[[int, int], None] | None = None
               ) -> tuple[int, int]:
    """Return (cost, best first guess) of S, or (lower bound >= budget, -1).

    `main` scores the first guesses; each of `workers` (searches with their own memo)
    solves parts. The caller rebuilds the tree from all their memos.
    """
    history = main.history_after(guesses, S)
    R = int(main.options[slots.OPT_ANSWERS])
    marks: dict[int, tuple[int, int]] = {}
    with ThreadPoolExecutor(max_workers=len(workers)) as pool:
        def cost(g: int, lbg: int, best: int, kS: int, pbs: np.ndarray | None,
                 _now: Callable[[], int]) -> int:
            value = _probe(pool, main, workers, S, g, lbg, best, depth, kS, history, pbs)
            pool_memos(workers, marks)  # (none of them runs between first guesses)
            return value

        return _best_guess(main, S, depth, budget, R, 0, history, cost, on_probe)


def link_peers(workers: list[Any]) -> None:
    """Let each local worker (a search, or a local part worker's) read the memo of the next
    one, in a ring (`_Search.read_peer`): with two, each reads the other's. Workers solving
    parts side by side meet the same sets (a team on one big part above all: MM(3,16) on
    two workers expanded 13.3 M sets against 7.2 M alone); `pool_memos` only copies between
    first guesses, when none runs."""
    searches = [s for s in (getattr(w, "search", w) for w in workers) if hasattr(s, "ment")]
    if len(searches) < 2:
        return
    for i, search in enumerate(searches):
        search.read_peer(searches[(i + 1) % len(searches)])


def pool_memos(workers: list[Any], marks: dict[int, tuple[int, int]]) -> None:
    """Copy into the memo of each worker (a search, or a local part worker's; a Ray
    actor's through `cluster.RemoteWorker.pool_memos`) what the others recorded since the
    last call, sets of `POOL_MIN_CODES` codes or more; none of
    them may be running. `marks` keeps, per search, its memo resets and entries after the
    last call. A set's value (or lower bound) with so many guesses left does not depend on
    the search that proved it, so the copies are as sound as the originals. Each part of the
    root goes to whichever worker is free; without this a worker solved again the sets the
    other had proved for earlier first guesses (MM(4,8) on two workers: 36 % more probes
    than one search; 14 % more with it)."""
    if len(workers) > 1 and hasattr(workers[0], "pool_memos"):  # Ray actors' workers
        workers[0].pool_memos(workers, POOL_MIN_CODES)
        return
    searches = [s for s in (getattr(w, "search", w) for w in workers) if hasattr(s, "ment")]
    if len(searches) < 2:
        return
    spans = []
    for src in searches:
        resets = int(src.counters[slots.N_MEMO_RESETS])
        mark = marks.get(id(src))
        first = mark[1] if mark is not None and mark[0] == resets else 0
        spans.append((resets, first, int(src.mmeta[slots.MEMO_USED_ENTRIES])))
    for src, (resets, first, stop) in zip(searches, spans, strict=True):
        if int(src.counters[slots.N_MEMO_RESETS]) != resets:
            continue  # it started over while receiving: those rows are not its entries now
        for dst in searches:
            if dst is not src and stop > first:
                km.memo_merge(src.ment, src.mpool, first, stop, POOL_MIN_CODES, dst.mheads,
                              dst.ment, dst.mpool, dst.mmeta, dst.counters)
    for src in searches:  # what each holds now, copies included, is not sent again
        marks[id(src)] = (int(src.counters[slots.N_MEMO_RESETS]),
                          int(src.mmeta[slots.MEMO_USED_ENTRIES]))


def share_root(main: _Search, shared: np.ndarray, S: np.ndarray, depth: int, budget: int,
               guesses: list[int]) -> tuple[int, int]:
    """Return (cost, best first guess) of S, or (lower bound >= budget, -1), found by `main`
    and its helpers sharing the root's first guesses: each explores the next in the
    search's order that none has claimed, as it comes free, in a thread of its own, with a
    memo of its own, under the best total any has found so far (`shared`: a
    `slots.team_array`). A guess wins only by costing less, or as much with a lower rank,
    so the optimum and the guess are those of the serial search. The caller rebuilds the
    tree from all their memos."""
    team = [main, *main.helpers]
    shared[:] = slots.team_array(len(team))
    for i, search in enumerate(team):
        search.share_root(shared, i)
    with ThreadPoolExecutor(max_workers=len(team)) as pool:
        costs = list(pool.map(lambda search: search.run(S, depth, budget, guesses), team))
    total, guess = slots.team_best(shared)
    if guess < 0:  # none under the budget: each bounds its own guesses
        return min(costs), -1
    return total, guess


def _cut(row: np.ndarray, win: int) -> tuple[bytes, int]:
    """How a guess cuts a set, from its answers to the set's codes: the answers renamed in
    order of first appearance, and the name of the win (-1 when the guess is not one of the
    codes). Two guesses cut a set into the same parts, the win the same, exactly when these
    are equal (what `_kernels.optimal._same_cut` checks for a pair)."""
    values, first, inverse = np.unique(row, return_index=True, return_inverse=True)
    rank = np.empty(values.size, dtype=np.int64)
    rank[np.argsort(first)] = np.arange(values.size)
    won = np.nonzero(values == win)[0]
    return rank[inverse].astype(np.uint16).tobytes(), int(rank[won[0]]) if won.size else -1


def solve_split(search: _Search, worker: Any, S: np.ndarray, depth: int, budget: int,
                kmax: int, history: slots.History, dist: int,
                lock: threading.Lock | None = None) -> tuple[int, int]:
    """Return (cost, best guess) of S, or (lower bound >= budget, -1), as `search` would
    find them in one call, but a guess at a time here: each part of each guess is solved
    through `worker.run_part` (at distance `dist` + 1), so that a checkpointing worker
    records every one of them as it finishes. The guesses are taken in the search's own
    order and one wins only by being cheaper, or as cheap and earlier (`_Claims`), so the
    cost and the guess are those the search finds (the budgets of parts solved side by
    side depend on which finish first, not the values of those solved exactly).

    The root's idle workers (`roots.PartLog`) help: where the log lends them
    (`PartLog.lending`, a cluster's root), each takes a part of a guess; where it teams
    them (`PartLog.teaming`, local threads), each costs whole guesses of S beside this one
    (`_team_split`).

    `search` scores the guesses and settles their parts cheaply; it may be a search the
    worker does not own (a Ray worker's parts are split on the driver, `cluster.Splitter`),
    shared under `lock`, which is then held for those calls only. The STOP slot watched is
    the worker's."""
    log = getattr(worker, "log", None)
    with ThreadPoolExecutor(max_workers=8) as pool:
        team = None
        if log is not None and log.teaming and not log.lending and lock is None:
            def team(member: Callable[..., None], cost: Cost) -> None:
                _team_split(member, cost, worker, log, pool, S, depth, dist, history)
        lend = log if log is not None and log.lending else None
        return _best_guess(search, S, depth, budget, kmax, dist, history,
                           _guess_cost(search, worker, S, depth, dist, history, lock=lock,
                                       lend=lend, pool=pool),
                           None, stop=worker.counters, lock=lock, team=team)


def _guess_cost(search: _Search, worker: Any, S: np.ndarray, depth: int, dist: int,
                history: slots.History, *, lock: threading.Lock | None = None,
                lend: Any = None, pool: ThreadPoolExecutor | None = None
                ) -> Cost:
    """The cost of one guess of S for `solve_split`: its parts settled cheaply by `search`
    (under `lock`), the others solved one after another by `worker.run_part`, and by the
    workers `lend` (a `roots.PartLog`) lends, on `pool`, while it has any."""
    guard = contextlib.nullcontext() if lock is None else lock
    stop = worker.counters

    def cost(g: int, lbg: int, best: int, kS: int, pbs: np.ndarray | None,
             now: Callable[[], int]) -> int:
        parts = search.space.partition(g, S)
        # one or two codes: their bound in lbg is their cost
        todo = [(r, p) for r, p in sorted(parts.items(), key=lambda item: item[1].size)
                if r != search.space.win and p.size > 2]
        if not todo:
            return lbg
        sizes = np.array([p.size for _, p in todo], dtype=np.int64)
        buf = np.concatenate([p for _, p in todo]).astype(np.int32)
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        plbs = search.ltab[kS, sizes].astype(np.int64)
        # first what the search settles cheaply for each part (as `_expand` does): a guess
        # whose parts cannot fit under `best` is dropped before any part is solved
        with guard:
            running = int(search.call(k.settle_parts, buf, starts, plbs, int(depth - 1),
                                      int(best), int(lbg), int(kS), int(dist + 1)))
        child = child_history(search, history, g)
        pending = [(r, p, int(plbs[i])) for i, (r, p) in enumerate(todo)]
        # the parts go to the workers the root lends and to this one, which solves one
        # itself whenever none is free
        busy: dict[Future[int], tuple[int, Any]] = {}
        try:
            while pending or busy:
                # a team's best may have fallen since the guess was claimed: the parts
                # still to solve get the tighter budget (`_Claims.limit_of`)
                best = min(best, now())
                if stop[slots.STOP] or running >= best:
                    break
                while pending and lend is not None:
                    helper = lend.borrow()
                    if helper is None:
                        break
                    r, p, plb = pending.pop(0)
                    helper.counters[slots.STOP] = 0
                    assert pool is not None
                    busy[pool.submit(helper.run_part, p, depth - 1, best - (running - plb),
                                     kS, part_history(search, child, g, r), dist + 1)] = (
                        plb, helper)
                if pending:
                    r, p, plb = pending.pop(0)
                    got = worker.run_part(p, depth - 1, best - (running - plb), kS,
                                          part_history(search, child, g, r), dist + 1)
                    if stop[slots.STOP]:
                        break
                    running += got - plb
                    finished = [f for f in busy if f.done()]
                else:
                    finished = list(wait(busy, return_when=FIRST_COMPLETED)[0])
                for future in finished:
                    plb, helper = busy.pop(future)
                    lend.give_back(helper)
                    if not helper.counters[slots.STOP]:
                        running += future.result() - plb
        finally:  # beaten or told to stop: the parts still out are not needed
            for _plb, helper in busy.values():
                helper.counters[slots.STOP] = 1
            for future, (_plb, helper) in busy.items():
                future.exception()
                lend.give_back(helper)
        return running

    return cost


#: How often (seconds) a team solving a part a guess at a time looks at its worker's STOP
#: slot (a member done or a worker offered wakes it at once).
TEAM_POLL_SECONDS = 0.05


def _team_split(member: Callable[..., None], cost: Cost, worker: Any, log: Any,
                pool: ThreadPoolExecutor, S: np.ndarray, depth: int, dist: int,
                history: slots.History) -> None:
    """`_best_guess`'s team for `solve_split` on local threads: `worker` costs guesses of S
    with `cost` in a thread of `pool`, and so does each worker the root has no part for
    (borrowed from `log`, a `roots.PartLog`, as they come free), on a search of its own,
    scoring and settling with it, its parts recorded as `worker`'s are. A part worker's parts are
    solved one after another, under the budget the guess leaves, as in the serial search;
    workers cost whole guesses side by side. Returns once every member has (the borrowed
    ones given back)."""
    stop = worker.counters
    running: dict[Future[None], Any] = {}
    stopping = False  # STOP passed on to the members: only a member done wakes it now

    def wake(_future: Future[None]) -> None:
        with log.turns:
            log.turns.notify_all()

    def join(helper: Any) -> None:
        own = cost if helper is worker else _guess_cost(helper.search, helper, S, depth, dist,
                                                        history)
        future = pool.submit(member, own, helper.counters)
        running[future] = helper
        future.add_done_callback(wake)

    def woken() -> bool:  # (under log.turns)
        return any(f.done() for f in running) or not stopping and bool(
            stop[slots.STOP] or (log.idle and worker in running.values()))

    join(worker)
    try:
        while running:
            if stop[slots.STOP]:  # the part's guess was beaten at the root, or time is up
                stopping = True
                for helper in running.values():
                    helper.counters[slots.STOP] = 1
            elif worker in running.values():  # (else no guess is left to claim)
                while (helper := log.borrow()) is not None:
                    helper.counters[slots.STOP] = 0
                    join(helper)
            with log.turns:  # woken by a member done or a worker offered; STOP is polled
                log.turns.wait_for(woken, timeout=TEAM_POLL_SECONDS)
            for future in [f for f in running if f.done()]:
                helper = running.pop(future)
                future.result()
                if helper is not worker:
                    log.give_back(helper)
    finally:
        for helper in running.values():
            helper.counters[slots.STOP] = 1
        for future, helper in running.items():
            future.exception()
            if helper is not worker:
                log.give_back(helper)


def _score(main: _Search, S: np.ndarray, depth: int, budget: int, kmax: int, dist: int,
           history: slots.History) -> tuple:
    """`_kernels.optimal.score_probes` on S, from the bound its size alone gives."""
    if main.kernel_weighted:
        lb0 = int(k.weighted_set_bound(k.weight_prefix(S, main.weights), main.ctab, kmax))
    else:
        lb0 = int(main.ltab[kmax, S.size])
    return k.score_probes(S, depth, budget, kmax, dist, lb0, history, main.game, main.bounds,
                          main.run_state)


def root_guesses(main: _Search, S: np.ndarray, depth: int, budget: int,
                 guesses: list[int]) -> int:
    """Return how many first guesses `solve_root` would cost under `budget` (one per
    symmetry class, those whose bound the budget leaves open)."""
    S = np.ascontiguousarray(S, dtype=np.int32)
    R = int(main.options[slots.OPT_ANSWERS])
    out = _score(main, S, depth, budget, R, 0, main.history_after(guesses, S))
    return int(out[4].shape[0]) if out[7] < budget else 0


class _Claims:
    """The guesses of one set in the search's order, each claimed by one of the searches
    costing them (one, or a team of them: `_best_guess`), with the best found so far. A
    guess is costed under the best total when it is claimed, which came from an earlier
    guess (they are claimed in order); it wins by costing less than the best when it is
    reported, or as much with a lower rank (a team reports out of order), so the team finds
    the guess and total the serial search finds: the least total, the first in order among
    equals. The guesses come in order of their bounds, so a guess whose bound reaches its
    limit ends the claims: every later one's bound does too. Guesses cutting the set as one
    already claimed are passed over (same cost), as in the serial search."""

    def __init__(self, main: _Search, S: np.ndarray, probes: np.ndarray, order: list[int],
                 lbs: np.ndarray, budget: int, low: int, root: bool, stop: np.ndarray,
                 on_probe: Callable[[int, int], None] | None,
                 progress: np.ndarray | None = None) -> None:
        self.main, self.S, self.probes, self.order, self.lbs = main, S, probes, order, lbs
        self.root, self.stop, self.on_probe = root, stop, on_probe
        # counters where the guesses settled are counted (slots.N_SPLIT_DONE), or None
        self.progress = progress
        self.best, self.rank, self.guess = budget, len(order), -1
        self.low = low
        self.next = 0
        self.over = False  # no guess left to claim (or told to stop)
        self.stopped = False  # a search costing a guess was told to stop
        self.cuts: set[tuple[bytes, int]] = set()  # how the guesses claimed cut S
        self.lock = threading.Lock()

    def claim(self) -> tuple[int, int, int] | None:
        """Return (rank, index in the probes, limit: the budget to cost it under) of the next
        guess to cost, or None when there is none."""
        main, counters = self.main, self.main.counters
        with self.lock:
            while not self.over and self.next < len(self.order):
                if self.stop[slots.STOP]:
                    break  # the caller gave up (time limit): the result is not used
                i = self.next
                self.next += 1
                t = self.order[i]
                limit = self.best
                if self.root:
                    # every first guess before this one costs at least the best so far,
                    # every later one at least its bound
                    counters[slots.LOWER_BOUND] = max(int(counters[slots.LOWER_BOUND]),
                                                      min(int(self.lbs[t]), self.best))
                if self.lbs[t] >= limit:
                    self.low = min(self.low, int(self.lbs[t]))
                    break
                g = int(self.probes[t])
                cut = _cut(main.table[g, self.S], main.space.win)
                if cut in self.cuts:
                    if self.progress is not None:
                        self.progress[slots.N_SPLIT_DONE] += 1
                    continue  # cuts S like a guess already claimed: same cost
                self.cuts.add(cut)
                return i, t, limit
            self.over = True
            return None

    def report(self, i: int, g: int, running: int, limit: int, stopped: bool) -> None:
        """Take the cost of guess g (rank i) found under `limit` (a bound >= it when not
        less); `stopped`: its search was told to stop, so `running` is not a total."""
        counters = self.main.counters
        with self.lock:
            if stopped or self.stop[slots.STOP]:
                self.stopped = stopped
                self.over = True
                return
            if running < limit and (running, i) < (self.best, self.rank):
                self.best, self.rank, self.guess = running, i, g
                if self.root:
                    counters[slots.BEST_TOTAL] = running
                    counters[slots.BEST_GUESS] = g
            else:
                self.low = min(self.low, running)
            if self.root:
                counters[slots.N_FIRST_GUESSES_DONE] += 1
            if self.progress is not None:
                self.progress[slots.N_SPLIT_DONE] += 1
            if self.on_probe is not None:
                self.on_probe(g, running)

    def limit_of(self, i: int) -> int:
        """The budget guess rank i is costed under now: the best total so far, plus one when
        it came from a later guess (a tie goes to the earlier). It never grows: the best
        only falls, and its rank only falls while the best stays."""
        with self.lock:
            return self.best + (1 if self.guess >= 0 and i < self.rank else 0)

    def member(self, cost: Cost, kS: int, pbs: np.ndarray | None,
               counters: np.ndarray) -> None:
        """Cost guesses with `cost` (as `_best_guess` takes it) until none is left;
        `counters`: the STOP slot of the search that `cost` runs."""
        while (claimed := self.claim()) is not None:
            i, t, limit = claimed
            g = int(self.probes[t])
            running = cost(g, int(self.lbs[t]), limit, kS, None if pbs is None else pbs[t],
                           functools.partial(self.limit_of, i))
            self.report(i, g, running, limit, bool(counters[slots.STOP]))


def _best_guess(main: _Search, S: np.ndarray, depth: int, budget: int, kmax: int, dist: int,
                history: slots.History,
                cost: Cost,
                on_probe: Callable[[int, int], None] | None, *, stop: np.ndarray | None = None,
                lock: threading.Lock | None = None,
                team: Callable[[Callable[..., None], Cost], None] | None = None
                ) -> tuple[int, int]:
    """The guesses of S at distance `dist` from the root, in the search's order, each
    costed by `cost` (a `Cost`; the limit: see `_Claims`); the root's progress is
    counted in `main.counters` (dist 0). It gives up once the STOP slot of `stop`
    (`main.counters` when None) is set; `lock`, when given, is held while `main` scores.
    ``team(member, cost)``, when given, costs the guesses instead: it calls
    ``member(a cost, its STOP counters)`` for each search of a team, `cost` for the first
    (see `_team_split`), and returns when all have returned. Returns as `solve_root`."""
    stop = main.counters if stop is None else stop
    S = np.ascontiguousarray(S, dtype=np.int32)
    with contextlib.nullcontext() if lock is None else lock:
        probes, counts, nparts, lbs, live, keys, kS, lb, low, is_cand, pbs = _score(
            main, S, depth, budget, kmax, dist, history)
    if lb >= budget:
        return int(lb), -1
    order = live[np.argsort(keys[live], kind="stable")]
    root = dist == 0
    if root:
        main.counters[slots.N_FIRST_GUESSES] = len(order)
    # a part of the root solved a guess at a time: its guesses settled are progress to show
    # (`_Watch.report`), in the counters of the worker solving it
    progress = stop if dist == 1 else None
    if progress is not None:
        progress[slots.N_SPLIT_DONE] = 0
        progress[slots.N_SPLIT] = len(order)
    claims = _Claims(main, S, probes, order.tolist(), lbs, budget, int(low), root, stop,
                     on_probe, progress)
    weighted = pbs if main.kernel_weighted else None

    def member(cost_: Callable[..., int], counters: np.ndarray) -> None:
        claims.member(cost_, int(kS), weighted, counters)

    try:
        if team is None:
            member(cost, stop)
        else:
            team(member, cost)
    finally:
        if progress is not None:
            progress[slots.N_SPLIT] = progress[slots.N_SPLIT_DONE] = 0
    if claims.stopped and not stop[slots.STOP]:
        raise KeypegError("internal error: a search of a team was told to stop alone.")
    if claims.guess >= 0:
        return claims.best, claims.guess
    return max(int(lb), claims.low), -1


def child_history(main: _Search, history: slots.History, g: int) -> slots.History:
    """Return what `history` then guess g leave (the elements fixing g, g's colours played)."""
    cperm, cphi = k.child_group(history.perms, history.colour_maps, g, main.space.codes,
                                main.perms)
    return slots.History(cperm, cphi, np.uint64(history.played | main.space.colmask[g]))


def part_history(main: _Search, child: slots.History, g: int, answer: int
                 ) -> slots.History:
    """Return the history of the part giving `answer` to first guess g: `child` (the
    elements fixing g), with positional answers only those that also keep the answer."""
    marks = main.game.marks
    if marks.shape[0] == 0 or child.perms.shape[0] <= 1:
        return child
    perms, phi = k.clue_group(child.perms, child.colour_maps, g, answer, main.space.codes,
                              main.perms, marks)
    return slots.History(perms, phi, child.played)


def _probe(pool: ThreadPoolExecutor, main: _Search, workers: list[_Search], S: np.ndarray,
           g: int, lbg: int, best: int, depth: int, kS: int, history: slots.History,
           part_bounds: np.ndarray | None = None) -> int:
    """Return the cost of first guess g (or a lower bound >= best when it loses).
    `part_bounds` (weighted) holds the bound counted in lbg for each answer's part."""
    space = main.space
    parts = space.partition(g, S)
    extra = 0  # solved parts: exact cost minus the bound already counted in lbg
    tasks = []
    for r, p in sorted(parts.items(), key=lambda item: item[1].size):
        if r == space.win:
            continue
        if part_bounds is None:
            if p.size > 2:
                tasks.append(PartTask(p, int(main.ltab[kS, p.size]), r))
            continue
        if p.size > 2:
            tasks.append(PartTask(p, int(part_bounds[r]), r))
        else:  # weighted: one or two codes are charged exactly, as in the serial search
            assert main.weights is not None
            w = [int(main.weights[c]) for c in p.tolist()]
            extra += sum(w) + (min(w) if len(w) == 2 else 0) - int(part_bounds[r])
    if not tasks:
        return lbg + extra
    # the biggest parts first, so the last to finish are small ones and no worker waits
    # long for the others at the end of a guess (MM(4,8) on two workers: 1.8 cores busy
    # against 1.7 smallest first, 12 % less time)
    tasks.reverse()
    child = child_history(main, history, g)
    free = list(workers)
    running: dict[Future[int], tuple[PartTask, _Search]] = {}
    pending = list(tasks)
    main.counters[slots.N_PARTS] = len(tasks)
    main.counters[slots.N_PARTS_DONE] = 0
    # recording workers (roots.PartWorker) share a log: once every part has a worker, the
    # idle ones help a worker solving a big part a guess at a time (solve_split), where the
    # log allows it (`roots.PartLog.lending` or `.teaming`)
    lend = getattr(workers[0], "log", None)
    offered: list[_Search] = []
    # searches of their own (unweighted): once every part has a worker, an idle one joins
    # the biggest part still solved, sharing its probes (`slots.team_array`)
    teams = (len(workers) > 1 and not main.kernel_weighted
             and all(hasattr(w, "share_root") for w in workers))
    dkey = depth - 1 if main.options[slots.OPT_CAPPED] else 0

    def start(task: PartTask, search: _Search) -> None:
        search.counters[slots.STOP] = 0
        if teams:
            task.share(search)
        future = pool.submit(search.run_part, task.part, *task.args)
        running[future] = (task, search)

    while pending or running:
        while pending and free and lbg + extra < best and not main.counters[slots.STOP]:
            task = pending.pop(0)
            part_budget = best - (lbg + extra - task.plb)
            task.args = (depth - 1, part_budget, kS,
                         part_history(main, child, g, task.answer))
            if teams:
                task.team = slots.team_array(len(workers))
            start(task, free.pop())
        if teams and free and not pending and lbg + extra < best and not main.counters[
                slots.STOP]:
            for search in list(free):
                open_ = [t for t, _ in running.values() if t.part.size >= TEAM_MIN_CODES
                         and search not in t.sharers and len(t.sharers) < len(workers)]
                if not open_:
                    continue  # (it has shared each: another may not have)
                free.remove(search)
                start(max(open_, key=lambda t: t.part.size), search)
        if lend is not None and (lend.lending or lend.teaming) and free and not pending:
            lend.offer(free)
            offered += free
            free = []
        if not running:
            break
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            task, search = running.pop(future)
            free.append(search)
            cost = future.result()
            stopped = bool(search.counters[slots.STOP])  # on purpose: its value means nothing
            if teams:
                search.share_none()
                task.costs.append(cost)
                task.stopped = task.stopped or stopped
                if any(other is task for other, _ in running.values()):
                    continue  # others still share it
                stopped = task.stopped
                if not stopped:
                    cost = task.value(search, dkey)
            if stopped:
                continue
            extra += cost - task.plb
            main.counters[slots.N_PARTS_DONE] += 1
        if lbg + extra >= best:
            for _task, search in running.values():
                search.counters[slots.STOP] = 1
            pending.clear()
    for future, (_task, search) in list(running.items()):
        future.result()
        if teams:
            search.share_none()
    if offered and lend is not None:
        lend.reclaim(offered)  # back once their borrowers are done (their parts are)
    return lbg + extra
