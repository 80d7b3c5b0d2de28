"""The optimal search on a Ray cluster: the parts of the root's first guesses as tasks.

`Cluster("local")` starts a private Ray instance on this machine's cores (stopped by
`close`), `Cluster("auto")` joins the running cluster (``RAY_ADDRESS``, or the one
``ray start --head`` left on this machine), any other text is a cluster address. It starts
one actor per CPU; each actor is a Ray worker process that builds the search's space, table
and a search context of its own from a small spec (rules, candidates, options, its share of
the memo budget), keeps it while the search lasts (one at a time, so its memo stays within
its share) and solves the parts sent to it, returning each part's cost and, when exact, its
optimal subtree.

A part of `roots.SPLIT_MIN_CODES` codes or more is not sent whole: its worker splits it
on the driver a guess at a time (`parallel.solve_split`, its guesses scored by one search
the driver's workers share, `Splitter`), and the parts of each guess go to the actors as
tasks of their own, to this worker's and to those the root lends while it has no part for
them; so a few big parts keep every CPU of the cluster busy, not one each. Only a part that
holds more than a CPU's share of the root's codes (`SPLIT_SHARE`) is split: each task costs
a few milliseconds of Ray's, and a part of that share or less would otherwise not hold the
others up (on two CPUs, splitting MM(4,8)'s part of 1,160 codes into 872 tasks made the
search 40 % slower).

On the driver, `parallel.solve_root` runs unchanged: it takes the first guesses in the
serial order, hands each part to a worker with the budget the guess has left (improved
bounds go out with every new part), lets a guess win only by being strictly cheaper, and
tells the workers of a guess that cannot win any more to stop. Its workers here are
`RemoteWorker`s, one per actor, which send the part and wait (the STOP slot of their
counters is forwarded to the actor). So the optimum and the tree are the local run's, and
the tree is assembled from the subtrees the actors sent (`roots.assemble`), re-solving
nothing. Ray is optional (``pip install keypeg[cluster]``); it is imported only here.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable
from multiprocessing import resource_tracker, shared_memory
from typing import Any

import numpy as np

from .._kernels import memo as km
from .._kernels import slots
from .._kernels.optimal import INF
from ..errors import KeypegError
from ..limits import usable_cores
from .roots import PartLog, PartViews, PartWorker, part_subtree

#: Seconds between checks of a worker's STOP slot while its part runs remotely.
POLL_SECONDS = 0.05
#: Seconds between two asks of an actor for the sets its running part has expanded (the
#: driver's progress stood still for the whole of a remote part: a part of hours read as
#: hung).
SETS_SECONDS = 1.0

#: A part is split into tasks when it holds at least this share of the root's codes per
#: CPU of the cluster (and `roots.SPLIT_MIN_CODES` codes).
SPLIT_SHARE = 1.0

#: Seconds the actors (one per CPU) have to start before the cluster is given up.
START_SECONDS = 120

#: The memo arrays of a search (`search._Search`) an actor keeps in shared memory.
_MEMO_FIELDS = ("mheads", "ment", "mpool", "mmeta")


#: The names of the shared memory this process created (`_PartSolver._share_memo`).
_CREATED: set[str] = set()


def _shm_free() -> int:
    """Return the bytes free in this machine's shared memory (0 where it has none)."""
    try:
        st = os.statvfs("/dev/shm")
    except OSError:
        return 0
    return int(st.f_bavail * st.f_frsize)


def _segment(key: str, rank: int, field: str) -> str:
    """The name of the shared memory of one memo array of the actor of `rank`."""
    return f"kp-{key[:16]}-{rank}-{field}"

INSTALL_HINT = "pip install keypeg[cluster]"


def require_ray(address: str | None = None) -> Any:
    """Return the ray module, or raise `KeypegError` in one sentence when it is missing.
    The first call for a private instance (`address` "local") sets Ray's authentication
    mode as Ray would choose it, so that Ray does not say it on every run."""
    if address == "local" and "ray" not in sys.modules:
        # Ray 2.60 turns token authentication on for a new local instance and says so on
        # every run ("Token authentication is enabled ..."), unless RAY_AUTH_MODE is set:
        # set to what Ray would choose, it says nothing. Read as Ray is imported (a mode the
        # user set is kept; Ray imported already: left to Ray)
        os.environ.setdefault("RAY_AUTH_MODE", "token")
    try:
        import ray
    except ImportError:
        raise KeypegError(f"--cluster needs Ray, which is not installed: {INSTALL_HINT}."
                          ) from None
    return ray


class _PartSolver:
    """The body of a Ray actor: one search context at a time, built from the driver's spec
    (a factory and its arguments), solving the parts sent to it."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.search: Any = None
        #: The search the current part runs on: `search`, or with `roots.PartViews` the
        #: search of the part's own view.
        self.active: Any = None
        self.current = -1
        #: The running part's counters when it began (`sets_so_far`).
        self.before = np.zeros(slots.COUNTER_SLOTS, np.int64)
        self.stopped: set[int] = set()
        #: Set by `release`: no part runs any more.
        self.closing = False
        self.lock = threading.Lock()
        #: Held by the solve that runs (and by a merge into its memo): one part at a time,
        #: on the search it was sent for. A search stopped at its time limit leaves its
        #: driver's last parts running a moment after the next search's first part arrives,
        #: and the actor runs two calls at once: without this turn the new part replaced
        #: the search (and its memo) under the running one, which then read another table
        #: with its codes and crashed the actor (SIGSEGV).
        self.turn = threading.Lock()
        #: The memo resets and entries of `search` already shared with the other actors
        #: (`export_memo`), its copies of theirs included.
        self.shared = (0, 0)
        #: The shared memory holding this actor's memo (`_share_memo`) and the peer's it
        #: reads; whether the peer's is linked.
        self.segments: list[shared_memory.SharedMemory] = []
        self.peer_segments: list[shared_memory.SharedMemory] = []
        self.linked = False

    def ready(self) -> int:
        return os.getpid()

    def node(self) -> str:
        """Return the id of the Ray node this actor runs on."""
        import ray

        return str(ray.get_runtime_context().get_node_id())

    def memo_bytes(self) -> int:
        """Return the bytes of the current search's memo (0 before any)."""
        s = self.active if self.active is not None else self.search
        if s is None or not hasattr(s, "mheads"):
            return 0
        return int(s.mheads.nbytes + s.ment.nbytes + s.mpool.nbytes)

    def table_bytes(self) -> int:
        """Return the bytes of the table the last part ran on (0 before any)."""
        s = self.active
        return 0 if s is None else int(s.table.nbytes)

    def _drop_segments(self) -> None:
        """Let go of the shared memory of the last search (its arrays dropped first)."""
        for seg in self.peer_segments + self.segments:
            with contextlib.suppress(BufferError):  # (a view still held: freed with it)
                seg.close()
        for seg in self.segments:
            _CREATED.discard(seg.name)
            try:
                seg.unlink()
            except FileNotFoundError:  # its reader unlinked the name once it had it mapped
                resource_tracker.unregister(seg._name,  # type: ignore[attr-defined]
                                            "shared_memory")
        self.segments, self.peer_segments, self.linked = [], [], False

    def release(self) -> None:
        """Drop the search and its shared memory (the cluster is closing): the part running
        is stopped and waited for, and none waiting runs. (Killed in a part, the actor's
        worker died "by an unexpected system error", which Ray reported on the driver's
        stderr at every Ctrl-C.)"""
        with self.lock:
            self.closing = True
            if self.active is not None and self.current >= 0:
                self.active.counters[slots.STOP] = 1
        with self.turn:
            self.search = self.active = None
            self.key = None
            self._drop_segments()

    def _share_memo(self, key: str, rank: int, n: int) -> None:
        """Move the new search's memo into shared memory named after the search and this
        actor's rank, so that the next actor on this machine reads it as it is written
        (`_link_peer`), as local workers read each other's (`parallel.link_peers`). Only
        where the shared memory has room for the memos of all `n` (at most half of what
        is free: Ray's object store lives there too; a memo written past it would crash
        the actor), else the memo stays private."""
        search = self.search
        if n * sum(getattr(search, field).nbytes for field in _MEMO_FIELDS) > _shm_free() // 2:
            return
        arrays = []
        for field in _MEMO_FIELDS:
            mine = getattr(search, field)
            try:
                seg = shared_memory.SharedMemory(name=_segment(key, rank, field), create=True,
                                                 size=max(mine.nbytes, 1))
            except OSError:  # no shared memory here (or none left): the memo stays private
                self._drop_segments()
                return
            self.segments.append(seg)
            _CREATED.add(seg.name)
            arrays.append(np.ndarray(mine.shape, mine.dtype, buffer=seg.buf))
        search.adopt_memo(*arrays)

    def _link_peer(self, key: str, peer: int) -> None:
        """Read the memo of the actor of rank `peer`, when it has one on this machine
        (else try again with the next part: it may not have started its search yet)."""
        search = self.search
        segments, arrays = [], []
        try:
            for field in _MEMO_FIELDS:
                mine = getattr(search, field)
                try:
                    seg = shared_memory.SharedMemory(name=_segment(key, peer, field))
                except ValueError:  # made by its owner but not sized yet: an empty file
                    raise OSError(f"{_segment(key, peer, field)} is not ready") from None
                # its owner unlinks it: this process's tracker must not (unless the owner is
                # this process, which registered it once for both)
                if seg.name not in _CREATED:
                    resource_tracker.unregister(seg._name,  # type: ignore[attr-defined]
                                                "shared_memory")
                segments.append(seg)
                if seg.size < mine.nbytes:
                    raise OSError(f"{seg.name} is smaller than this memo's")
                arrays.append(np.ndarray(mine.shape, mine.dtype, buffer=seg.buf))
        except OSError:  # (not there: FileNotFoundError)
            del arrays  # the views go before their segments close
            for seg in segments:
                seg.close()
            return
        self.peer_segments = segments
        search.read_peer_arrays(*arrays)
        self.linked = True
        # mapped by both: the names can go now, and the memory goes with the two processes
        # however they end (a driver or an actor killed leaves nothing behind)
        for seg in segments:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"/dev/shm/{seg.name}")

    def solve(self, key: str, spec: tuple[Callable[..., Any], tuple[Any, ...]], seq: int,
              part: np.ndarray, depth: int, budget: int, kmax: int,
              history: tuple[np.ndarray, np.ndarray, int], rank: int = -1, n: int = 0
              ) -> tuple[int, bool, np.ndarray | None, np.ndarray, int]:
        """Return (cost, stopped, subtree or None, counters added, memo entries used).
        `rank` of `n` (the driver's workers): with two or more, this actor's memo is
        shared and the next one's read where both run on one machine."""
        with self.turn:
            return self._solve(key, spec, seq, part, depth, budget, kmax, history, rank, n)

    def _told_to_stop(self, seq: int) -> bool:
        """Whether the part `seq` was told to stop before it ran (forgotten once asked), or
        the actor is closing; under `lock`."""
        if self.closing:
            return True
        if seq in self.stopped:
            self.stopped.discard(seq)
            return True
        return False

    @staticmethod
    def _not_run(budget: int) -> tuple[int, bool, None, np.ndarray, int]:
        return int(budget), True, None, np.zeros(slots.COUNTER_SLOTS, np.int64), 0

    def _solve(self, key: str, spec: tuple[Callable[..., Any], tuple[Any, ...]], seq: int,
               part: np.ndarray, depth: int, budget: int, kmax: int,
               history: tuple[np.ndarray, np.ndarray, int], rank: int, n: int
               ) -> tuple[int, bool, np.ndarray | None, np.ndarray, int]:
        with self.lock:
            if self._told_to_stop(seq):  # while it waited: the search in place stays
                return self._not_run(budget)
        if key != self.key:
            self.search = self.active = None  # the last search's memo goes first
            self._drop_segments()
            factory, args = spec
            self.search = factory(*args)
            self.key = key
            self.shared = (0, 0)
            if n > 1 and hasattr(self.search, "ment"):
                self._share_memo(key, rank, n)
        if n > 1 and self.segments and not self.linked:
            self._link_peer(key, (rank + 1) % n)
        # arrays from Ray's object store are read-only: the kernels take writable copies
        part = np.array(part, dtype=np.int32)
        order = None  # a part's own view: the space's index of each view index
        search = self.search
        if isinstance(search, PartViews):
            search, part, order = search.for_part(part)
        with self.lock:
            if self._told_to_stop(seq):
                return self._not_run(budget)
            self.active = search
            search.counters[slots.STOP] = 0
            self.current = seq
            before = self.before = search.counters.copy()
        hist = slots.History(np.array(history[0]), np.array(history[1]), np.uint64(history[2]))
        cost = search.run_part(part, depth, budget, kmax, hist)
        rows = None
        if cost < budget and not search.counters[slots.STOP]:
            rows = part_subtree(search, part, depth, hist)
            if rows is not None and order is not None:
                rows[0] = order[rows[0]]  # the guesses in the space's indices
        with self.lock:
            self.current = -1
            stopped = bool(search.counters[slots.STOP])
            self.stopped.discard(seq)
        added = search.counters - before
        return (int(cost), stopped, rows, added,
                int(search.mmeta[slots.MEMO_USED_ENTRIES]))

    def _pooled(self, key: str) -> Any:
        """Return the search of `key` when it has a memo of its own to pool, else None (no
        part of that search came here, or each part runs on a view of its own)."""
        search = self.search
        return search if key == self.key and hasattr(search, "ment") else None

    def export_memo(self, key: str, least: int) -> tuple[np.ndarray, np.ndarray]:
        """Return what the search of `key` recorded since it last shared (sets of `least`
        codes or more): memo entry rows, their offsets into the codes returned with them.
        The driver calls it between first guesses, when no part runs."""
        search = self._pooled(key)
        if search is None:
            return np.zeros((0, slots.ENTRY_COLUMNS), np.int64), np.zeros(0, np.int32)
        resets = int(search.counters[slots.N_MEMO_RESETS])
        used = int(search.mmeta[slots.MEMO_USED_ENTRIES])
        first = self.shared[1] if self.shared[0] == resets else 0
        rows = search.ment[first:used]
        rows = rows[rows[:, slots.ENTRY_LENGTH] >= least].copy()
        lengths = rows[:, slots.ENTRY_LENGTH]
        starts = np.concatenate([np.zeros(1, np.int64), np.cumsum(lengths)])
        at = np.repeat(rows[:, slots.ENTRY_OFFSET] - starts[:-1], lengths)
        codes = search.mpool[at + np.arange(at.size)].copy()
        rows[:, slots.ENTRY_OFFSET] = starts[:-1]
        self.shared = (resets, used)
        return rows, codes

    def merge_memo(self, key: str, least: int,
                   *exported: tuple[np.ndarray, np.ndarray]) -> int:
        """Record in the search of `key` what the other actors exported (`export_memo`);
        return the entries received. A set's value or bound does not depend on the search
        that proved it (`parallel.pool_memos`)."""
        with self.turn:
            return self._merge_memo(key, least, exported)

    def _merge_memo(self, key: str, least: int,
                    exported: tuple[tuple[np.ndarray, np.ndarray], ...]) -> int:
        search = self._pooled(key)
        if search is None:
            return 0
        n = 0
        for rows, codes in exported:
            # (from Ray's object store, read-only: the kernel is compiled for writable ones)
            rows, codes = np.array(rows), np.array(codes)
            km.memo_merge(rows, codes, 0, rows.shape[0], least, search.mheads, search.ment,
                          search.mpool, search.mmeta, search.counters)
            n += rows.shape[0]
        self.shared = (int(search.counters[slots.N_MEMO_RESETS]),
                       int(search.mmeta[slots.MEMO_USED_ENTRIES]))
        return n

    def walk(self, rules: Any, strategy: Any, clues: list[str]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Return the arrays of a one-step strategy's whole tree from the position `clues`
        leave, walked part by part within this process's table budget (`split_tree`)."""
        from ..game import GameState
        from ..onestep import split_tree
        from ..space import get_space

        space = get_space(rules)
        tree = split_tree(strategy, space, GameState.from_clues(space, clues))
        return tree.guess, tree.parent, tree.response, tree.depth, tree.size

    def sets_so_far(self, seq: int) -> int:
        """Return the sets the part `seq` has expanded so far (-1 when it is not running:
        not yet, or done)."""
        with self.lock:
            if self.current != seq or self.active is None:
                return -1
            return int(self.active.counters[slots.N_SETS] - self.before[slots.N_SETS])

    def stop(self, seq: int) -> None:
        with self.lock:
            if self.current == seq:
                self.active.counters[slots.STOP] = 1
            else:
                self.stopped.add(seq)


class Splitter:
    """The driver's search that scores the guesses of the big parts the actors' workers
    split (`roots.PartWorker.split`): one for all of them, built on first use, used under
    its lock (its calls are short: the parts themselves run on the actors)."""

    def __init__(self, factory: Callable[[], Any], min_codes: int) -> None:
        self.factory = factory
        #: The fewest codes of a part split (besides `roots.SPLIT_MIN_CODES`).
        self.min_codes = min_codes
        self.lock = threading.Lock()
        self._search: Any = None

    def search(self) -> Any:
        with self.lock:
            if self._search is None:
                self._search = self.factory()
            return self._search


class RemoteWorker(PartWorker):
    """A part worker whose parts run on one Ray actor."""

    _seq = itertools.count()

    def __init__(self, ray: Any, actor: Any, key: str, spec_ref: Any, log: PartLog,
                 splitter: Splitter | None = None, rank: int = 0, n: int = 1) -> None:
        super().__init__(log)
        self.ray = ray
        self.actor = actor
        self.key = key
        self.spec_ref = spec_ref
        self.splitter = splitter
        #: This worker's place among the search's `n` (its actor reads the next one's memo
        #: where both run on one machine).
        self.rank, self.n = rank, n

    def solve(self, part: np.ndarray, depth: int, budget: int, kmax: int,
              history: slots.History, dist: int = 1) -> tuple[int, np.ndarray | None]:
        if (self.splitter is not None and self.splits(part, depth)
                and part.size >= self.splitter.min_codes):
            def fill(sub: np.ndarray, hist: slots.History) -> np.ndarray | None:
                # a part's subtree comes back with its value: this is not expected to run
                return self.solve(sub, depth - 1, int(INF), kmax, hist, dist + 1)[1]

            return self.split(self.splitter.search(), part, depth, budget, kmax, history,
                              dist, fill, self.splitter.lock)
        ray = self.ray
        seq = next(self._seq)
        ref = self.actor.solve.remote(
            self.key, self.spec_ref, seq, np.ascontiguousarray(part, dtype=np.int32), depth,
            budget, kmax, (history.perms, history.colour_maps, int(history.played)),
            self.rank, self.n)
        told = False
        base = int(self.counters[slots.N_SETS])  # (the part's sets are shown as it runs)
        asked, asked_at = None, time.monotonic()
        while not ray.wait([ref], timeout=POLL_SECONDS)[0]:
            if self.counters[slots.STOP] and not told:
                self.actor.stop.remote(seq)
                told = True
            if asked is not None and ray.wait([asked], timeout=0)[0]:
                so_far = int(ray.get(asked))
                if so_far >= 0:
                    self.counters[slots.N_SETS] = base + so_far
                asked = None
            if asked is None and time.monotonic() - asked_at >= SETS_SECONDS:
                asked, asked_at = self.actor.sets_so_far.remote(seq), time.monotonic()
        cost, stopped, rows, added, entries = ray.get(ref)
        self.counters[slots.N_SETS] = base + int(added[slots.N_SETS])
        for slot in (slots.N_PROBES, slots.N_MEMO_HITS, slots.N_PEER_HITS,
                     slots.N_SHORTCUTS, slots.N_MEMO_RESETS):
            self.counters[slot] += int(added[slot])
        self.mmeta[slots.MEMO_USED_ENTRIES] = entries
        if stopped:
            self.counters[slots.STOP] = 1
        return cost, rows

    @staticmethod
    def pool_memos(workers: list[RemoteWorker], least: int) -> int:
        """Give each actor of `workers` what the others' memos recorded since the last
        call, sets of `least` codes or more (as `parallel.pool_memos` does for local
        searches, called between first guesses, when no part runs); return the entries
        sent. Without it an actor solved again the sets another had proved for an earlier
        first guess (MM(4,8) on a local cluster of two CPUs: 590 M probes without, 541 M
        with, alternated three times)."""
        ray = workers[0].ray
        exported = [w.actor.export_memo.remote(w.key, least) for w in workers]
        # every export taken before any merge (an actor runs several calls at a time)
        ray.wait(exported, num_returns=len(exported), fetch_local=False)
        return sum(ray.get([
            w.actor.merge_memo.remote(w.key, least,
                                      *[x for j, x in enumerate(exported) if j != i])
            for i, w in enumerate(workers)]))


#: Seconds to wait for a cluster's address to answer before Ray is asked to join it (Ray
#: itself tried an unreachable address for ever, --max-seconds aside).
REACH_SECONDS = 10.0


def check_reachable(address: str) -> None:
    """Raise `KeypegError` when the cluster address (``auto``: ``RAY_ADDRESS``, when set)
    is HOST:PORT and nothing answers there within `REACH_SECONDS`."""
    if address == "auto":
        address = os.environ.get("RAY_ADDRESS", "").strip()
        if not address or address in ("auto", "local"):
            return  # (the cluster `ray start --head` left here, found by Ray)
    plain = address.split("://", 1)[-1]
    host, _, port = plain.rpartition(":")
    if not host or not port.isdigit():
        return  # (not HOST:PORT: left to Ray)
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_SECONDS).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise KeypegError(
            f"nothing answers at the Ray cluster address {address!r} ({reason.lower()}); "
            "give the head node's HOST:PORT as ray start --head prints it, auto for "
            "RAY_ADDRESS or the cluster started here, or local.") from None


class Cluster:
    """A connection to a Ray cluster and one part-solving actor per CPU (see the module).
    Use as a context manager, or call `close`."""

    def __init__(self, address: str = "local") -> None:
        if not address or not address.strip():
            raise KeypegError("--cluster must be local, auto or a Ray address, not empty.")
        ray = require_ray(address)
        self.ray = ray
        self.address = address
        self.owned = False
        if not ray.is_initialized():
            quiet = {"include_dashboard": False, "log_to_driver": False,
                     "configure_logging": False}
            if address != "local":
                check_reachable(address)
            try:
                if address == "local":
                    # (address="local": a private instance even where `ray start --head`
                    # runs, which plain ray.init(num_cpus=...) had tried to join)
                    ray.init(address="local", num_cpus=usable_cores(), **quiet)
                else:
                    ray.init(address=address, **quiet)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                text = str(exc).splitlines()[0] if str(exc) else str(exc)
                if "Could not find any running Ray instance" in text:
                    raise KeypegError(
                        "no Ray cluster runs here and RAY_ADDRESS names none, so --cluster "
                        "auto has nothing to join; start one (ray start --head), give "
                        "--cluster its HOST:PORT, or use --cluster local.") from None
                raise KeypegError(f"cannot join the Ray cluster at {address!r}: {text}"
                                  ) from None
            self.owned = True
        self.nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        # (calls at once: a solve, one more waiting its turn, and the `stop` of either)
        actor_class = ray.remote(num_cpus=1, max_concurrency=4)(_PartSolver)
        self.actors = [actor_class.remote() for _ in range(self.cpus)]
        try:
            ray.get([a.ready.remote() for a in self.actors], timeout=START_SECONDS)
        except ray.exceptions.GetTimeoutError:
            self.close()
            raise KeypegError(f"the Ray cluster at {address!r} did not start keypeg's "
                              f"{self.cpus} workers within {START_SECONDS} s (are its CPUs "
                              "busy with other jobs?).") from None

    def info(self) -> dict[str, int]:
        return {"nodes": self.nodes, "cpus": self.cpus}

    def workers(self, spec: tuple[Callable[..., Any], tuple[Any, ...]], log: PartLog,
                splitter: Callable[[], Any] | None = None, root_codes: int = 0,
                view_codes: int = 0) -> list[PartWorker]:
        """Return one worker per actor for a search built in each actor by `spec`; with
        `splitter` (a factory of a search on the driver), they split their parts of more
        than a CPU's share of the root's `root_codes` codes, and (`view_codes` > 0: each
        part solved on a table of its own) of more than `view_codes` codes."""
        key = uuid.uuid4().hex
        spec_ref = self.ray.put(spec)
        most = int(SPLIT_SHARE * root_codes) // self.cpus
        shared = None if splitter is None else Splitter(
            splitter, min(most, view_codes) if view_codes > 0 else most)
        return [RemoteWorker(self.ray, a, key, spec_ref, log, shared, i, len(self.actors))
                for i, a in enumerate(self.actors)]

    def split_tree(self, strategy: Any, rules: Any) -> Any:
        """Return a one-step strategy's exact whole tree of `rules`, the parts of its first
        guess walked on the actors (each part by `onestep.split_tree` in its process, the
        same tree as locally), joined here."""
        from ..onestep import split_tree
        from ..space import get_space
        from ..tree import DecisionTree

        space = get_space(rules)

        def remote(states: list[Any]) -> list[DecisionTree]:
            refs = [self.actors[i % len(self.actors)].walk.remote(
                space.rules, strategy, [str(c) for c in st.history])
                for i, st in enumerate(states)]
            trees = []
            for guess, parent, response, depth, size in self.ray.get(refs):
                trees.append(DecisionTree(space.rules, strategy.label, np.array(guess),
                                          np.array(parent), np.array(response),
                                          np.array(depth), np.array(size)))
            return trees

        return split_tree(strategy, space, parts=remote)

    def close(self) -> None:
        with contextlib.suppress(Exception):  # the cluster may be gone already
            # the actors' shared memory goes first (killed, they would leave it behind)
            self.ray.get([a.release.remote() for a in self.actors], timeout=START_SECONDS)
        for actor in self.actors:
            with contextlib.suppress(Exception):
                self.ray.kill(actor)
        self.actors = []
        if self.owned and self.ray.is_initialized():
            self.ray.shutdown()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
