"""The exact optimum: run the compiled branch and bound and rebuild the optimal tree.

>>> from keypeg.rules import Rules
>>> r = solve_optimal(Rules(pegs=3, colors=4))
>>> r.total, sum(r.histogram)  # the published MM(3,4) optimum, over all 64 secrets
(206, 64)
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._kernels import memo as km
from .._kernels import optimal as k
from .._kernels import slots
from .._kernels import symmetry as ksym
from .._kernels.canon import code_lookup
from ..catalog import OBJECTIVES
from ..codes import Code
from ..errors import (
    KeypegError,
    LimitExceededError,
    NoStrategyError,
    SearchStopped,
    TimeLimitError,
)
from ..game import TRUSTED_ONLY, GameState
from ..limits import (
    PARALLEL_MIN_CODES,
    SHARED_ROOT_MIN_CODES,
    SMALL_SPACE,
    bytes_text,
    check_count,
    check_flag,
    check_max_seconds,
    memo_budget,
    plural,
    shorten,
    shown,
    table_budget,
    usable_cores,
)
from ..onestep import OneStepStrategy, answer_marks, history_group, position_perms
from ..pages import huge_pages
from ..rules import Rules, rules_name
from ..space import (
    CandidateView,
    CodeSpace,
    as_rules,
    check_state_rules,
    get_space,
    require_table,
    table_bytes,
)
from ..strategy import evaluate
from ..tree import DecisionTree
from .parallel import link_peers, root_guesses, share_root, solve_root

#: Most first guesses (symmetry classes under the budget) for which the root's parts are
#: spread over workers; with more, the workers take the first guesses in turn
#: (`parallel.share_root`). Measured: 5-18 first guesses, MM(4,7), MM(4,8), MM(5,6) and
#: positions leaving MM(4,7) or MM(5,5), were faster with their parts on two workers; 37-130,
#: positions of MM(4,9) and MM(4,10) after one guess, slower that way than one search, and
#: faster with their first guesses shared.
PARALLEL_ROOT_GUESSES = 24
#: The most worker threads a search may be given.
MAX_WORKERS = 256
#: Deepest tree the search considers when the number of guesses is not capped.
DEPTH_UNCAPPED = 40
#: Most memo entries (sets remembered) and memo codes (over all of them) of one search; the
#: memory budget (KEYPEG_MEMO_BUDGET, shared by all workers) may allow fewer.
MEMO_ENTRIES = 1 << 23
MEMO_POOL = 1 << 28
#: Bytes per memo entry (its row and its share of the hash heads) and per memo code.
_ENTRY_BYTES = 8 * (slots.ENTRY_COLUMNS + 1)
#: Most times `_Search.subtree` solves the holes of a compiled rebuild and compiles again.
REBUILD_PASSES = 64
#: Most base-symbols keys the code lookup of `_Search.image_lookup` may have (64 MiB).
CANON_CODE_KEYS = 1 << 24
_CODE_BYTES = 4
#: Most pegs for which keying small sets by their permuted image pays: past it, trying the
#: 5,040 and more position permutations of each set costs more than its memo hits save
#: (benchmarks/RESULTS.md, group images: MM(7,3) about twice as fast without them; at six
#: pegs, MM(6,4), the fewer probes about pay for the permutations).
IMAGE_PEGS = 6
#: Weights are whole numbers of at most this in the search (see `solve_optimal`).
WEIGHT_SCALE = 1 << 30
#: Most elements (position permutation x colour permutation) tried for the symmetry group
#: of weights that only some permutations keep; past it, position permutations only.
WEIGHT_GROUP_ELEMENTS = 200_000
#: Run a weighted search whose sets all weigh the same per code (after codes of weight 0
#: are set aside) as the unweighted one, its totals times that weight: same optimum and
#: tree, less work per set. (Tests turn it off to exercise the weighted kernel.)
EQUAL_WEIGHTS_AS_PLAIN = True


@dataclass
class OptimalResult:
    """An optimal tree and how it was found."""

    rules: Rules
    total: int
    tree: DecisionTree
    objective: str = "total"
    max_guesses: int | None = None
    possible_only: bool = False
    first: str | None = None
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)
    trace: list[str] = field(default_factory=list)
    #: The caller's weights over every code (int64 or float64), or None (unweighted).
    weights: np.ndarray | None = field(default=None, compare=False, repr=False)

    def __repr__(self) -> str:
        # (the tree's arrays and the trace run long: the result in a line)
        extras = [x for x, on in ((f"max_guesses={self.max_guesses}", self.max_guesses),
                                  ("possible_only", self.possible_only),
                                  (f"first={self.first}", self.first),
                                  ("weighted", self.weights is not None)) if on]
        if self.objective != "total":
            extras.insert(0, f"objective={self.objective}")
        return (f"OptimalResult({rules_name(self.rules)}, total {self.total:,}, first guess "
                f"{self.first_guess}"
                + "".join(f", {x}" for x in extras) + f", {self.seconds:.2f} s)")

    @property
    def weighted(self) -> bool:
        return self.weights is not None

    @property
    def weighted_total(self) -> int | float | None:
        """Return the sum over the secrets of weight x guesses, from the tree (an int when
        every weight is a whole number), or None when unweighted."""
        if self.weights is None:
            return None
        return _weighted_sum(self.tree, self.weights)

    @property
    def total_weight(self) -> int | float | None:
        """Return the sum of the weights of the secrets the tree covers, or None."""
        if self.weights is None:
            return None
        return _weighted_sum(self.tree, self.weights, depths=False)

    @property
    def weighted_secrets(self) -> int | None:
        """Return how many of the tree's secrets have a positive weight, or None."""
        if self.weights is None:
            return None
        return int(np.count_nonzero(self.weights[self.tree.guess[self.tree.found()]]))

    def weighted_summary(self) -> dict[str, Any]:
        """Return the weighted figures as `keypeg evaluate --prior` reports them:
        "weighted_mean" (the expected guesses), "weighted_total" (that times the secrets of
        positive weight, "weighted_secrets": scale-free, where `weighted_total` counts the
        weights in their own units), and "mean" unweighted over every secret of the tree,
        beside "total"; empty when unweighted."""
        if self.weights is None:
            return {}
        n = self.weighted_secrets or 0
        return {"mean": round(self.total / self.tree.secrets, 4),
                "weighted_mean": round(self.mean, 4),
                "weighted_total": round(self.mean * n, 4), "weighted_secrets": n}

    @property
    def mean(self) -> float:
        """Return the mean number of guesses per secret (weighted when weighted)."""
        if self.weights is not None:
            return float(self.weighted_total or 0) / float(self.total_weight or 1)
        return self.total / self.tree.secrets

    @property
    def worst(self) -> int:
        return self.tree.worst

    @property
    def histogram(self) -> list[int]:
        return self.tree.histogram

    @property
    def first_guess(self) -> str:
        return get_space(self.rules).text(self.tree.first_guess)

    @property
    def nodes(self) -> int:
        """Return the number of sets expanded by the search."""
        return int(self.stats.get("nodes", 0))

    def summary(self) -> dict[str, Any]:
        """Return the JSON summary (`keypeg optimal --json`); weighted, "mean" is the
        weighted mean and "weighted_total" is added."""
        out = {
            "total": self.total,
            "mean": round(self.mean, 4),
            "worst": self.worst,
            "histogram": self.histogram,
            "first_guess": self.first_guess,
            "seconds": round(self.seconds, 3),
            "nodes": self.nodes,
        }
        if self.weights is not None:
            out["weighted_total"] = self.weighted_total
        return out


def _weighted_sum(tree: DecisionTree, weights: np.ndarray, depths: bool = True) -> int | float:
    """Return the sum over the tree's secrets of weight x guesses (or of the weights): an
    exact int when every weight is a whole number, else a float."""
    found = tree.found()
    w = weights[tree.guess[found]]
    d = tree.depth[found] if depths else np.ones(int(found.sum()), dtype=np.int64)
    if w.dtype.kind in "iu" or bool(np.all(w == np.floor(w))):
        return sum(int(a) * int(b) for a, b in zip(w.tolist(), d.tolist(), strict=True))
    return math.fsum((w * d).tolist())


def _arg_key(a: Any) -> Any:
    """What numba's type of a kernel's argument depends on (`_Search.call`)."""
    if isinstance(a, np.ndarray):
        f = a.flags
        return (a.dtype.str, a.ndim, f.c_contiguous, f.f_contiguous, f.writeable, f.aligned)
    if isinstance(a, tuple):
        return (type(a), *map(_arg_key, a))
    return type(a)


class _Search:
    """One search context: tables, symmetry group, memo and counters."""

    def __init__(self, space: CodeSpace | CandidateView, *, possible_only: bool, capped: bool,
                 first: int, symmetry: bool, trace: bool, n_max: int,
                 memo_bytes: int = MEMO_ENTRIES * _ENTRY_BYTES + MEMO_POOL * _CODE_BYTES,
                 weights: np.ndarray | None = None, positive_sets: bool = False,
                 group: tuple[np.ndarray, np.ndarray] | None = None,
                 kernel_weighted: bool = True, searches: int = 1) -> None:
        table = space.table()
        if table is None:  # (a view always has its table)
            assert isinstance(space, CodeSpace)
            raise LimitExceededError(
                f"the optimal search needs the {space.table_bytes / 2**30:.1f} GiB feedback "
                "table, over the memory budget (KEYPEG_TABLE_BUDGET)."
            )
        rules = space.rules
        self.space = space
        self.table = table
        R = space.n_responses
        self.ltab, self.ctab = k.bound_tables(n_max, R, possible_only)
        perms = self.position_perms(rules)
        self.perms = perms
        self.iperms = np.argsort(perms, axis=1).astype(np.int8)
        self.options = np.zeros(slots.OPTION_SLOTS, dtype=np.int64)
        self.options[slots.OPT_ANSWERS] = R
        self.options[slots.OPT_WIN] = space.win
        self.options[slots.OPT_POSSIBLE_ONLY] = possible_only
        self.options[slots.OPT_CAPPED] = capped
        self.options[slots.OPT_SYMBOLS] = rules.symbols
        self.options[slots.OPT_REPEATS] = rules.repeats
        self.options[slots.OPT_SYMMETRY] = symmetry
        self.options[slots.OPT_TRACE] = trace
        self.options[slots.OPT_FIRST_GUESS] = first
        self.options[slots.OPT_IMAGES_FROM] = 1
        self.options[slots.OPT_SYMMETRIC_TABLE] = space.symmetric_table
        # weighted: the scaled weights (int64 over the space), whether the sets searched are
        # only the codes of positive weight, the symmetry group the weights allow (None: the
        # whole group, as unweighted; else explicit elements, see `_weight_group`), and
        # whether the kernel counts them (not when every code searched weighs the same: the
        # weights then only guide the tree's rebuild, see `settled_guess`)
        self.weights = weights
        self.positive_sets = positive_sets and weights is not None
        self.group = group
        self.kernel_weighted = weights is not None and kernel_weighted
        self.options[slots.OPT_WEIGHTED] = self.kernel_weighted
        self.options[slots.OPT_POSITIVE_SETS] = self.positive_sets
        self.counters = np.zeros(slots.COUNTER_SLOTS, dtype=np.int64)
        # the memo: a bounded cache (it starts over when full), sized by the memory budget
        # (about 37 % for entries, 63 % for the sets' codes), never smaller than one root;
        # a small position still gets room for millions of sets (its arrays are committed
        # only as they fill): a position of 378 bulls-and-cows candidates expands 700,000
        # sets, and a memo that starts over again and again expands them many times
        entries = min(MEMO_ENTRIES, max(1 << 12, 4096 * n_max),
                      int(0.37 * memo_bytes) // _ENTRY_BYTES)
        entries = max(entries, 1 << 10)
        codes = min(MEMO_POOL, max(1 << 16, 65536 * n_max), int(0.63 * memo_bytes) // _CODE_BYTES)
        codes = max(codes, 4 * n_max + 1024)
        heads = 1 << int(np.log2(entries))  # at most one head per entry: within budget
        # (a full table's search keeps huge pages for its memo, a position's view does not:
        # see keypeg.pages)
        with huge_pages() if isinstance(space, CodeSpace) else contextlib.nullcontext():
            self.mheads = np.full(heads, -1, dtype=np.int64)
            self.ment = np.empty((entries, slots.ENTRY_COLUMNS), dtype=np.int64)
            self.mpool = np.empty(codes, np.int32)
        self.mmeta = np.zeros(4, dtype=np.int64)
        # the canonical probes remembered: 32 MiB, or half of what the memo leaves of its
        # share (a position's search needs a small memo, and the lists of a view's probes
        # are long: MM(6,9)'s 132 candidates after three guesses list up to 320,000 probes
        # under each of 88 keys)
        spare = memo_bytes - entries * _ENTRY_BYTES - codes * _CODE_BYTES - 8 * heads
        self.options[slots.OPT_PROBE_CODES] = max(k.CANON_CACHE_CODES, spare // 16)
        self.trace = np.zeros((4096 if trace else 1, slots.TRACE_COLUMNS), dtype=np.int64)
        self.canon_cache = k.new_probe_cache()
        # the groups the kernels take (see _kernels/slots.py)
        probe_order = (np.arange(space.size, dtype=np.int64)
                       if isinstance(space, CodeSpace) else space.probe_order)
        columns = self.view_columns(space, table)
        # this search's share of the copies of the columns (`searches` run on the view)
        self.options[slots.OPT_COLUMN_COPIES] = (
            k.COLUMN_COPIES * columns.shape[1] // max(searches, 1))
        self.game = slots.Game(table, space.codes, space.colmask, perms, self.iperms,
                               probe_order, self.answer_marks(space),
                               self.image_lookup(space, symmetry, weights, group), columns,
                               *self.multisets(space), self.inversions(space, table),
                               *self.columns_by_set(space, table, columns))
        self.bounds = slots.Bounds(
            self.ltab, self.ctab, weights if weights is not None else np.ones(1, np.int64))
        self.memo = slots.Memo(self.mheads, self.ment, self.mpool, self.mmeta,
                               np.zeros(0, np.int64), np.zeros((0, slots.ENTRY_COLUMNS), np.int64),
                               np.zeros(0, np.int32), np.zeros(4, np.int64))
        self.run_state = slots.Run(self.options, self.counters, self.trace, self.canon_cache,
                                   k.new_column_cache(self.game.columns),
                                   k.new_use_counts(), np.zeros(0, dtype=np.int64))
        self.alone = self.run_state.root_best  # (no team: `share_none`)
        #: The kernels' entry points by the key of their arguments (`call`), for the
        #: tuples in `_entries_for`.
        self._entries: dict[tuple, Any] | None = None
        self._entries_for: tuple = ()
        #: Searches run by workers on parts of the root, and the root's optimal guess they
        #: were coordinated to (the parallel search); consulted when rebuilding the tree.
        self.helpers: list[_Search] = []
        self.root_guess = -1

    @staticmethod
    def view_columns(space: CodeSpace | CandidateView, table: np.ndarray) -> np.ndarray:
        """Return a candidate view's answers by column in probe order (``[candidate,
        probe]``, built once per view and shared by its searches), which `score_probes`
        reads along when it scores a whole list of probes; no columns for the full table,
        or when these and their copies for lists of probes (`optimal.COLUMN_COPIES` times
        the view's codes, shared out among the searches) could pass the table budget."""
        if (not isinstance(space, CandidateView) or table.ndim != 2
                or (2 + k.COLUMN_COPIES) * table.nbytes > space.space.budget):
            return np.zeros((0, 0), dtype=table.dtype)
        return space.columns()

    @staticmethod
    def columns_by_set(space: CodeSpace | CandidateView, table: np.ndarray,
                       columns: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return a candidate view's answers by column with the probes grouped by multiset
        (`CandidateView.columns_by_set`), which `_tiny_scan` reads instead of `columns`,
        where those end with the multiset ids and one more copy of the answers stays
        within the table budget; else empty arrays."""
        if (isinstance(space, CandidateView) and columns.shape[0] == space.m + 2
                and (3 + k.COLUMN_COPIES) * table.nbytes <= space.space.budget):
            return space.columns_by_set()
        return (np.zeros((0, 0), dtype=table.dtype), np.zeros(1, dtype=np.int64),
                np.zeros(0, dtype=np.int32))

    @staticmethod
    def multisets(space: CodeSpace | CandidateView) -> tuple[np.ndarray, np.ndarray]:
        """Return each code's multiset of symbols (by table row) and the pegs two multisets
        share, with which `_tiny_scan` bounds a probe's answers on a small set before
        reading them: black/white answers only (the total of blacks and whites is the pegs
        shared), up to seven pegs; no entries otherwise."""
        base = space.space if isinstance(space, CandidateView) else space
        rules = space.rules
        if rules.feedback != "blackwhite" or rules.pegs > 7 or base.common.shape[0] == 0:
            return np.zeros(0, dtype=np.int32), np.zeros((1, 1), dtype=np.uint8)
        sets = base.multiset[space.order] if isinstance(space, CandidateView) else base.multiset
        return np.ascontiguousarray(sets, dtype=np.int32), base.common

    @staticmethod
    def inversions(space: CodeSpace | CandidateView, table: np.ndarray) -> np.ndarray:
        """Return each code's inversions of first appearance, with which the kernel lists
        the canonical probes by masks when only the identity fixes the history (made once
        per space or view); none past `symmetry.INVERSION_SYMBOLS` symbols, or where they
        would take more than an eighth of the table's bytes (a view of few candidates)."""
        kept = getattr(space, "_inversions", None)
        if kept is not None:
            return kept
        if (space.rules.symbols > ksym.INVERSION_SYMBOLS
                or 64 * space.codes.shape[0] > table.nbytes):
            return np.zeros(0, dtype=np.uint64)
        kept = ksym.first_inversions(space.codes, space.rules.symbols)
        space._inversions = kept  # type: ignore[union-attr]
        return kept

    @staticmethod
    def position_perms(rules: Rules) -> np.ndarray:
        """Return the position permutations of the symmetry group (identity first). With
        positional answers too: permuting the positions of guess and secret maps each answer
        to the same-sized answer (a bijection fixed by the guess), so part sizes and costs
        are kept; which elements keep a set is decided clue by clue (`clue_group`)."""
        return position_perms(rules.pegs).copy()  # writable: one kernel type for all

    @staticmethod
    def image_lookup(space: CodeSpace | CandidateView, symmetry: bool,
                     weights: np.ndarray | None,
                     group: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
        """Return the code lookup that lets the kernel key small sets by their permuted
        image (`_kernels/canon.py`), or an empty one where the image's cost may differ:
        weights (a permuted copy may weigh otherwise), blanks (not a colour to rename), a
        candidate view (not every code is there), or more than `IMAGE_PEGS` pegs (too many
        permutations to try per set)."""
        rules = space.rules
        if (not symmetry or weights is not None or group is not None or rules.blanks
                or not isinstance(space, CodeSpace) or rules.pegs > IMAGE_PEGS
                or rules.symbols ** rules.pegs > CANON_CODE_KEYS):
            return np.zeros(0, dtype=np.int32)
        return code_lookup(space.codes, rules.symbols)

    @staticmethod
    def answer_marks(space: CodeSpace | CandidateView) -> np.ndarray:
        """Return each answer's marks per position (positional answers; no rows else)."""
        return answer_marks(space)

    def history_after(self, guesses: list[int], S: np.ndarray) -> slots.History:
        """Return what `guesses` leave for the candidates S (which all gave the same
        answers): the group elements fixing the guesses (with positional answers, also
        keeping each answer), the colours played."""
        space = self.space
        codes = slots.Codes(space.codes, space.colmask, space.rules.repeats,
                            space.rules.symbols, self.perms, self.iperms, self.game.marks)
        answers = [int(self.table[g, S[0]]) for g in guesses]
        if self.group is not None:
            # explicit elements with every colour mapped: no colour is free to rename, so
            # every colour counts as played
            return history_group(codes, guesses, answers, (1 << space.rules.symbols) - 1,
                                 start=self.group)
        return history_group(codes, guesses, answers, space.played_mask(guesses))

    def history_then(self, history: slots.History, g: int, part: np.ndarray) -> slots.History:
        """Return what `history` leaves once g is played and answered as for the codes of
        `part`: the elements that also fix g (and keep its answer, positional), the colours
        of g played too (as the kernel's children get)."""
        gperm, gphi = k.child_group(history.perms, history.colour_maps, g, self.space.codes,
                                    self.perms)
        marks = self.game.marks
        if marks.shape[0] > 0 and gperm.shape[0] > 1:
            r = int(self.table[g, part[0]])
            gperm, gphi = k.clue_group(gperm, gphi, g, r, self.space.codes, self.perms, marks)
        return slots.History(gperm, gphi, np.uint64(history.played | self.space.colmask[g]))

    def share_root(self, root_best: np.ndarray, index: int, dist: int = 0) -> None:
        """Make this search the `index`-th of those sharing the probes of the set at `dist`
        from the root (its first guesses at 0, a part of the root's at 1), their best totals
        in `root_best` (`slots.team_array`)."""
        self.options[slots.OPT_ROOT_WORKER] = index
        self.options[slots.OPT_SHARE_DIST] = dist
        self.run_state = self.run_state._replace(root_best=root_best)

    def adopt_memo(self, heads: np.ndarray, entries: np.ndarray, pool: np.ndarray,
                   meta: np.ndarray) -> None:
        """Keep this search's memo in the arrays given (of its own memo's shapes and types,
        empty: heads -1, meta 0), such as shared memory another process reads
        (`cluster._PartSolver`); before any set is solved."""
        heads[:] = -1
        meta[:] = 0
        self.mheads, self.ment, self.mpool, self.mmeta = heads, entries, pool, meta
        self.memo = self.memo._replace(heads=heads, entries=entries, pool=pool, meta=meta)

    def read_peer_arrays(self, heads: np.ndarray, entries: np.ndarray, pool: np.ndarray,
                         meta: np.ndarray) -> None:
        """`read_peer` with the other search's memo arrays given."""
        self.memo = self.memo._replace(peer_heads=heads, peer_entries=entries,
                                       peer_pool=pool, peer_meta=meta)

    def read_peer(self, other: _Search) -> None:
        """Let this search read what `other` (a worker of the same search, on another thread)
        has proved, as its thread writes it (`memo.peer_find`): a set one worker solved is
        not solved again by the other."""
        self.read_peer_arrays(other.mheads, other.ment, other.mpool, other.mmeta)

    def share_none(self) -> None:
        """Make this search explore every probe itself again (after `share_root`)."""
        self.share_root(self.alone, 0)

    def run(self, S: np.ndarray, depth: int, budget: int, guesses: list[int], dist: int = 0) -> int:
        """Solve S after `guesses`."""
        return self.run_part(S, depth, budget, int(self.options[slots.OPT_ANSWERS]),
                             self.history_after(guesses, S), dist)

    def run_part(self, S: np.ndarray, depth: int, budget: int, kmax: int,
                 history: slots.History, dist: int = 1) -> int:
        """Solve one set after `history` (a part under a first guess, for a worker)."""
        return int(self.call(k.solve, np.ascontiguousarray(S, dtype=np.int32), int(depth),
                             int(budget), int(kmax), int(dist), history))

    def call(self, kernel: Any, *args: Any) -> Any:
        """Return ``kernel(*args, game, bounds, memo, run)`` (this search's tuples last),
        calling the compiled function's entry point once the types of its arguments are
        known: numba's dispatcher types every argument of every call, about 100 us for
        these tuples of arrays, more than many of the parts a worker is handed take (a
        part split a guess at a time calls the kernel once per part of each guess). The
        types are known from a key of the arguments (each array's dtype, dimensions,
        layout and flags; each other value's type), for this search's current tuples."""
        mine = (self.game, self.bounds, self.memo, self.run_state)
        entries = self._entries
        if entries is None or any(a is not b for a, b in zip(mine, self._entries_for, strict=True)):
            entries = self._entries = {}  # (a tuple was replaced: share_root, adopt_memo)
            self._entries_for = mine
        key = (kernel, *map(_arg_key, args))
        entry = entries.get(key)
        if entry is not None:
            return entry(*args, *mine)
        result = kernel(*args, *mine)  # compiles or loads it, as numba would
        found = kernel.overloads.get(tuple(kernel.typeof_pyval(a) for a in (*args, *mine)))
        entries[key] = kernel if found is None else found.entry_point
        return result

    def known_guess(self, S: np.ndarray, depth: int) -> int:
        """Return the optimal guess for S recorded in this memo, or -1."""
        dkey = depth if self.options[slots.OPT_CAPPED] else 0
        return int(km.lookup_guess(S, dkey, self.mheads, self.ment, self.mpool)[1])

    def peer_guess(self, S: np.ndarray, depth: int) -> int:
        """Return the optimal guess for S recorded in the peer's memo (`read_peer`; read as
        the kernel reads it, while its owner writes it), or -1, once this memo was found
        without one; one found is recorded in this memo too (`held`), where the compiled
        rebuild of a subtree looks (else S stayed a hole of every pass, and the tree was
        walked node by node in Python: MM(3,16) checkpointed spent 3 s of 16 s there)."""
        held = self.held(S, depth)
        return -1 if held is None else held[1]

    def held(self, S: np.ndarray, depth: int) -> tuple[int, int] | None:
        """Return (value, guess) this memo or the peer's holds for S (guess -1: the value is
        a lower bound), or None. One found in the peer's memo only is recorded in this one
        too (by this search's own thread), where the compiled rebuild looks."""
        dkey = depth if self.options[slots.OPT_CAPPED] else 0
        S = np.ascontiguousarray(S, dtype=np.int32)
        h = np.uint64(km.memo_hash(S, dkey))
        e = int(km.memo_find(S, dkey, self.mheads, self.ment, self.mpool))
        own = None if e < 0 else (int(self.ment[e, slots.ENTRY_VALUE]),
                                  int(self.ment[e, slots.ENTRY_GUESS]))
        memo = self.memo
        if (own is not None and own[1] >= 0) or memo.peer_heads.shape[0] == 0:
            return own
        value, guess = km.peer_find(S, dkey, h, memo.peer_heads, memo.peer_entries,
                                    memo.peer_pool, memo.peer_meta)
        if guess < -1 or (own is not None and guess < 0 and value <= own[0]):
            return own
        km.memo_store_at(S, dkey, h, value, guess, self.mheads, self.ment, self.mpool,
                         self.mmeta, self.counters)
        return int(value), int(guess)

    def hold(self, S: np.ndarray, depth: int, value: int, guess: int) -> None:
        """Record in this memo S's value (guess >= 0) or a lower bound on it (guess -1), as
        the kernel would have had it solved S (`parallel.solve_split` solves S in Python).
        Only from this search's own thread, when no kernel call runs on it."""
        dkey = depth if self.options[slots.OPT_CAPPED] else 0
        km.memo_store(np.ascontiguousarray(S, dtype=np.int32), dkey, value, guess,
                      self.mheads, self.ment, self.mpool, self.mmeta, self.counters)

    def guess_for(self, S: np.ndarray, depth: int, history: slots.History, *,
                  root: bool = False) -> int:
        """Return the optimal guess for S from the memos (re-solving S after `history` if
        they do not hold it: the memo lost it, or S was answered by its permuted image)."""
        if self.weights is not None:
            settled, S = km.settled_guess(
                np.ascontiguousarray(S, dtype=np.int32), self.positive_sets,
                bool(self.options[slots.OPT_CAPPED]), self.weights, self.table, self.space.win,
                self.space.n_responses)
            if settled >= 0:
                return int(settled)
        elif S.shape[0] <= 2:
            return int(S[0])
        if root and self.root_guess >= 0:
            return self.root_guess
        for search in [self, *self.helpers]:
            guess = search.known_guess(S, depth)
            if guess >= 0:
                return guess
        guess = self.peer_guess(S, depth)
        if guess >= 0:
            return guess
        # solve S itself (not its image: that entry holds no guess of S's own); its value
        # lands in this memo, unless the peer records S meanwhile (then its guess is there),
        # else (the peer's memo started over too) S is solved again without the peer
        slots_ = [slots.OPT_FIRST_GUESS, slots.OPT_IMAGES_FROM]
        saved, memo = self.options[slots_], self.memo
        self.options[slots_] = -1, 2
        try:
            for unlinked in (False, True):
                if unlinked:
                    self.memo = self.memo._replace(peer_heads=self.memo.peer_heads[:0])
                self.run_part(S, depth, int(k.INF), int(self.options[slots.OPT_ANSWERS]),
                              history)
                guess = self.known_guess(S, depth)
                if guess < 0:
                    guess = self.peer_guess(S, depth)
                if guess >= 0 or self.counters[slots.STOP] or memo.peer_heads.shape[0] == 0:
                    break
        finally:
            self.options[slots_], self.memo = saved, memo
        if guess < 0:
            if self.counters[slots.STOP]:
                # told to stop while solving S (a part worker's first guess was beaten):
                # its run proved nothing and the tree is no longer wanted
                raise SearchStopped
            raise KeypegError("internal error: the optimal guess of a set was lost.")
        return guess

    def subtree(self, S: np.ndarray, depth: int, history: slots.History, *,
                root: bool = False) -> np.ndarray:
        """Return the optimal tree of S (played after `history`, `depth` guesses left) as
        `SUBTREE_ROWS` rows: guess, parent, answer, guesses before the node (0 at S) and
        candidates. Compiled from this memo: the sets it does not hold (holes) are solved
        after their history and the tree compiled again, until none is left; node by node
        across the workers' memos when there are workers."""
        S = np.ascontiguousarray(S, dtype=np.int32)
        if not self.helpers and not root:
            for _ in range(REBUILD_PASSES):
                g, p, r, left, size, holes, codes = km.rebuild(
                    S, depth, bool(self.options[slots.OPT_CAPPED]), self.table,
                    self.space.win, self.space.n_responses, self.mheads, self.ment,
                    self.mpool, self.weights is not None, self.positive_sets,
                    self.bounds.weights)
                if not g.size and not holes.size:
                    break  # outgrew the kernel's room: node by node below
                if not holes.size:
                    return np.stack([g, p, r, (depth - left).astype(np.int32), size])
                ends = np.append(holes[1:, 3], codes.size)
                for (par, _resp, hole_left, start), end in zip(holes.tolist(), ends.tolist(),
                                                               strict=True):
                    part = codes[start:end]
                    path = []
                    while par >= 0:
                        path.append(int(g[par]))
                        par = int(p[par])
                    hist = history
                    for guess in reversed(path):
                        hist = self.history_then(hist, guess, part)
                    self.guess_for(part, hole_left, hist)  # solved and recorded
        space = self.space
        rows: list[tuple[int, int, int, int, int]] = []
        stack = [(S, -1, -1, depth, history)]
        while stack:
            cands, par, resp, left, hist = stack.pop()
            g = self.guess_for(cands, left, hist, root=root and par < 0)
            me = len(rows)
            rows.append((g, par, resp, depth - left, cands.size))
            parts = space.partition(g, cands)
            for r in sorted(parts, reverse=True):
                if r != space.win:
                    part = parts[r]
                    sub = self.history_then(hist, g, part) if part.size > 2 else hist
                    stack.append((part, me, r, left - 1, sub))
        return np.array(rows, dtype=np.int32).reshape(-1, 5).T.copy()


def _counters(search: _Search) -> dict[str, int]:
    everyone = [search, *search.helpers]
    # (searches sharing the root's first guesses: all work; else the helpers, when any)
    workers = (len(everyone) if search.run_state.root_best.shape[0] > 1
               else len(search.helpers) or 1)

    def total(i: int) -> int:
        return sum(int(x.counters[i]) for x in everyone)

    return {"nodes": total(slots.N_SETS), "probes": total(slots.N_PROBES),
            "memo_hits": total(slots.N_MEMO_HITS), "peer_hits": total(slots.N_PEER_HITS),
            "shortcuts": total(slots.N_SHORTCUTS),
            "memo_entries": sum(int(x.mmeta[slots.MEMO_USED_ENTRIES]) for x in everyone),
            "memo_resets": total(slots.N_MEMO_RESETS), "workers": workers,
            "parts_reused": sum(int(getattr(x, "reused", 0)) for x in search.helpers),
            "parts_resumed": sum(int(getattr(x, "resumed", 0)) for x in search.helpers),
            "parts_solved": sum(int(getattr(x, "solved", 0)) for x in search.helpers)}


#: The counts of `_counters` that add up over a search's attempts (caps tried in turn).
SUMMED_COUNTS = ("nodes", "probes", "memo_hits", "peer_hits", "shortcuts", "memo_resets",
                 "parts_reused", "parts_resumed", "parts_solved")


def _add_counts(into: dict[str, int], counts: dict[str, int]) -> dict[str, int]:
    """Add `counts`' summed counts into `into` (the counts of every attempt of a search
    under caps: its stats had been the last attempt's only, so a run under the worst-case
    objective that resumed a ruled-out cap's proof said 0 parts resumed); return `into`."""
    for name in SUMMED_COUNTS:
        into[name] = into.get(name, 0) + counts.get(name, 0)
    return into


def solve_optimal(
    rules: Rules | CodeSpace | str,
    *,
    state: GameState | None = None,
    max_guesses: int | None = None,
    possible_only: bool = False,
    first: str | Code | None = None,
    objective: str = "total",
    symmetry: bool = True,
    trace: bool = False,
    time_limit: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    workers: int | None = None,
    weights: Any = None,
    cluster: Any = None,
    checkpoint: Any = None,
) -> OptimalResult:
    """Return an optimal strategy tree and its total.

    `objective` "total" minimises the total number of guesses (under `max_guesses`, the
    number of guesses allowed counting those already played, when given: the board's rows
    in `rules` (`Rules.max_guesses`) are no cap here, pass them as `max_guesses`, as
    `keypeg optimal` does; the optimal strategy's `tree` and `evaluate` take them); "worst" first
    minimises the worst case, then the total. `possible_only` plays only codes that could be
    the secret (MM*). `first` forces the first guess. `workers` threads solve the parts of
    each first guess in parallel (by default both cores for sets of 2,000 codes or more);
    the result is the same either way. `progress` is called about five times a second with
    the phase, elapsed seconds, sets expanded, the bounds so far and the best first guess
    found so far (`best_guess`, where `TimeLimitError` would name it). Raises `KeypegError`
    when no tree fits, `TimeLimitError` once `time_limit` seconds have passed (counted
    from the call, table and heuristic bounds included), with the best tree found by then
    where it can say it.

    `weights`, one non-negative number per code of the space (indexed by code, also after
    a `state`: only the candidates' weights count), makes "total" the weighted total: the
    sum over secrets of weight x guesses (seed 003's expected turns, with probabilities as
    weights), reported as `weighted_total`, with `mean` the weighted mean; "worst" then
    breaks worst-case ties by it. A code of weight 0 still has to be found, at no cost. The
    search runs on whole numbers: when the candidates' weights are whole numbers of at most
    2**30 they are used exactly; otherwise they are scaled so the largest is 2**30 and
    rounded, and the tree is exactly optimal for the rounded weights (so within a relative
    2**-31 per code of the true optimum; a weight below 2**-31 of the largest counts as 0).
    None (the default) is the plain count.

    `cluster` ("local", "auto", a Ray address, or an open `cluster.Cluster`) solves the
    parts of the root's first guesses on a Ray cluster instead of local threads (same
    optimum and tree; "local" and "auto" are started and closed here); `checkpoint` (a
    `resume.Checkpoint`) records every part solved, and takes the parts it already holds,
    so a killed run resumes. Both apply to unweighted searches; the result's stats then
    hold "parts_reused" (taken from the checkpoint instead of solved), "parts_resumed"
    (those of them an earlier run recorded) and "parts_solved" (and "cluster_nodes",
    "cluster_cpus").
    """
    if not isinstance(rules, (Rules, CodeSpace)):
        # (a preset's name, read without building its space: MM(8,8)'s took 4 s and 1 GB
        # before the budget refused the search; else refused in one sentence)
        rules = as_rules(rules)
    if state is not None:
        check_state_rules(as_rules(rules), state)
        weights = _state_weights(state, weights)
    if max_guesses is not None:
        check_count("max_guesses", max_guesses)
    if workers is not None:
        check_count("workers", workers)
        if workers > MAX_WORKERS:  # (20,000 threads took 41 s on a 27-code game)
            raise KeypegError(f"workers must be at most {MAX_WORKERS}, not {workers:,}.")
    for flag in ("possible_only", "symmetry", "trace"):
        check_flag(flag, locals()[flag])
    if progress is not None and not callable(progress):
        raise KeypegError(f"progress must be a function or None, not {shown(progress)}.")
    if checkpoint is not None:
        from .resume import Checkpoint

        if not isinstance(checkpoint, Checkpoint):
            raise KeypegError("checkpoint must be a keypeg.solver.resume.Checkpoint, such "
                              f"as Checkpoint(Store(path), name), not {shown(checkpoint)}.")
    watch = _Watch(time_limit, progress)
    _require_room(rules, state)
    if objective not in OBJECTIVES:
        raise KeypegError(f"objective must be 'total' or 'worst', not {shorten(objective)!r}.")
    memo_bytes = memo_budget()
    given = None if weights is None else check_weights(weights)
    if isinstance(cluster, str):
        from .cluster import Cluster

        with Cluster(cluster) as opened:
            return solve_optimal(
                rules, state=state, max_guesses=max_guesses, possible_only=possible_only,
                first=first, objective=objective, symmetry=symmetry, trace=trace,
                time_limit=time_limit, progress=progress, workers=workers, weights=weights,
                cluster=opened, checkpoint=checkpoint)
    result = watch.run(lambda: _solve(
        watch, rules, state, max_guesses, possible_only, first, objective, symmetry, trace,
        workers, memo_bytes, given, cluster=cluster, checkpoint=checkpoint))
    if cluster is not None:
        result.stats.update({f"cluster_{k}": v for k, v in cluster.info().items()})
    return result


def solve_among(space: CodeSpace, state: GameState, probes: np.ndarray, *,
                time_limit: float | None = None) -> OptimalResult:
    """Return the tree of least total over the candidates of `state` whose guesses are
    the candidates and `probes` (codes of `space`) only: a tree, so its total is at least
    the optimum (`solve_optimal`'s), which a guess outside them may beat. The search reads
    a view of those codes only (`CandidateView` with `probes`), so it needs neither the
    full table nor a pass over every code (MM(8,8)'s 16.8 million), and runs without
    symmetry (the probes need not hold a code of each class); an unweighted search from a
    position that trusts its answers. Raises `TimeLimitError` past `time_limit` seconds,
    with the best first guess found by then and its total where there is one, and no lower
    bound (the search's holds only among these probes)."""
    if state.count < 1 or not state.trusted or not state.belief.uniform:
        raise KeypegError("solve_among searches an unweighted position that trusts its "
                          "answers and has a candidate left.")
    probes = np.asarray(probes, dtype=np.int64)
    if probes.size and (probes.min() < 0 or probes.max() >= space.size):
        raise KeypegError(f"probes must be codes of the space (0 to {space.size - 1:,}).")
    watch = _Watch(time_limit, None)
    try:
        return watch.run(lambda: _solve(
            watch, space, state, None, False, None, "total", False, False, None, memo_budget(),
            probes=probes))
    except TimeLimitError as exc:
        error = TimeLimitError(f"the search among {probes.size:,} codes and the candidates "
                               f"did not finish within {plural(time_limit or 0, 'second')}.")
        error.best_guess, error.best_total = exc.best_guess, exc.best_total
        raise error from None


def _state_weights(state: GameState, weights: Any) -> Any:
    """Return the weights to search with from `state`: those given, else the state's
    prior over its candidates (the optimum `OptimalStrategy.next_guess` plays there; it was
    left out, and the search gave the uniform optimum). Raises `LimitExceededError` for a
    state that doubts its answers (noise or lies): a tree of answers taken as true does
    not play there."""
    if not state.trusted:
        raise LimitExceededError(TRUSTED_ONLY)
    return weights if weights is not None else state.code_weights()


def check_weights(weights: Any) -> np.ndarray:
    """Return the caller's weights as an int64 or float64 array, or raise `KeypegError`
    when they are not numbers, negative, NaN or infinite (the length is checked later)."""
    try:
        arr = np.asarray(weights)
    except (TypeError, ValueError) as exc:
        raise KeypegError("weights must be a list of numbers, one per code.") from exc
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) >= 2**63:
        arr = arr.astype(np.float64)
    if arr.dtype.kind not in "iuf" or arr.ndim != 1:
        raise KeypegError("weights must be a list of numbers, one per code.")
    arr = arr.astype(np.int64 if arr.dtype.kind in "iu" else np.float64)
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise KeypegError("weights must be finite numbers, not NaN or infinity.")
    if arr.size and arr.min() < 0:
        raise KeypegError(f"weights must not be negative (found {shorten(str(arr.min()))}).")
    return arr


def _scaled_weights(space: CodeSpace, given: np.ndarray, S: np.ndarray) -> np.ndarray:
    """Return the weights the search uses: whole numbers over the space, 0 off the
    candidates S (see `solve_optimal` for when they are scaled)."""
    if given.size != space.size:
        raise KeypegError(f"weights must hold one number per code: {space.size:,}, not "
                          f"{given.size:,}.")
    mine = given[S]
    top = mine.max() if mine.size else 0
    if top <= 0:
        raise KeypegError("weights must not all be zero over the codes that could be the "
                          "secret.")
    scaled = np.zeros(space.size, dtype=np.int64)
    if top <= WEIGHT_SCALE and bool(np.all(mine == np.floor(mine))):
        scaled[S] = mine.astype(np.int64)
    else:
        scaled[S] = np.rint(mine.astype(np.float64) * (WEIGHT_SCALE / float(top))).astype(
            np.int64)
    return scaled


def _weight_group(space: CodeSpace | CandidateView, perms: np.ndarray, iperms: np.ndarray,
                  weights: np.ndarray, S: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Return the symmetry group a weighted search may use: None for the whole group
    (position x colour permutations fixing the guesses played, as unweighted), else
    explicit elements (position permutation index, colour map) that keep the weights.

    The search scores one probe per class of a group of permutations that map the set
    searched onto itself with the same costs, so each must also keep every weight
    (`weights` is 0 off the candidates, so it keeps the candidates' weights and maps the
    other codes among themselves; fixing the guesses then keeps the candidates). The whole
    group does when the candidates' weights are all equal, or when the weights are kept by
    its generators (swaps of neighbouring positions and of neighbouring colours). Otherwise
    the elements that keep them are listed, among all position x colour permutations while
    there are at most `WEIGHT_GROUP_ELEMENTS`, else among the position permutations (any
    set of such elements is sound: fewer only means more probes scored)."""
    mine = weights[S]
    if mine.min() == mine.max():
        return None
    codes = space.codes
    nsym = space.rules.symbols
    p = codes.shape[1]
    place = nsym ** np.arange(p - 1, -1, -1, dtype=np.int64)
    keys_all = codes.astype(np.int64) @ place
    order = np.argsort(keys_all, kind="stable")
    keys = keys_all[order]
    identity = np.arange(nsym, dtype=np.int8)
    n_perm = perms.shape[0]
    # generators: neighbouring position swaps (with colours fixed), neighbouring colour swaps
    gen_perm = []
    gen_phi = []
    for e in range(n_perm):
        moved = np.flatnonzero(perms[e] != np.arange(p))
        if moved.size == 2 and moved[1] == moved[0] + 1:
            gen_perm.append(e)
            gen_phi.append(identity)
    for c in range(nsym - 1):
        phi = identity.copy()
        phi[c], phi[c + 1] = c + 1, c
        gen_perm.append(0)
        gen_phi.append(phi)
    keep = k.weight_keeping(codes, iperms, np.asarray(gen_perm, dtype=np.int32),
                            np.asarray(gen_phi, dtype=np.int8), keys, order, weights, nsym)
    if keep.all():
        return None
    if n_perm * math.factorial(nsym) <= WEIGHT_GROUP_ELEMENTS:
        phis = np.array(list(itertools.permutations(range(nsym))), dtype=np.int8)
    else:
        phis = identity[None, :]
    elem_perm = np.repeat(np.arange(n_perm, dtype=np.int32), phis.shape[0])
    elem_phi = np.tile(phis, (n_perm, 1))
    keep = k.weight_keeping(codes, iperms, elem_perm, elem_phi, keys, order, weights, nsym)
    return elem_perm[keep].copy(), elem_phi[keep].copy()


def _solve(watch: _Watch, rules: Rules | CodeSpace, state: GameState | None,
           max_guesses: int | None, possible_only: bool, first: str | Code | None,
           objective: str, symmetry: bool, trace: bool, workers: int | None,
           memo_bytes: int, given: np.ndarray | None = None, *, cluster: Any = None,
           checkpoint: Any = None, probes: np.ndarray | None = None) -> OptimalResult:
    """The body of `solve_optimal` (and of `solve_among`, with `probes`), run under
    `watch` (which may stop it)."""
    space = rules if isinstance(rules, CodeSpace) else get_space(rules)
    state = state or GameState.start(space)
    # the answers searched: the full table, or every code against the candidates only (or
    # the probes given only)
    watch.phase = "preparing the feedback table"
    guesses = [c.guess.index for c in state.history]
    view = (CandidateView(space, state.candidates, guesses, probes=probes)
            if probes is not None or _use_view(space, state) else None)
    if view is None:
        space.table()
    first_index = -1
    if first is not None:
        if guesses:
            raise KeypegError("a forced first guess (first, --first) applies only before "
                              "any guess is played.")
        first_index = space.index(first)
        if possible_only and first_index not in set(state.candidates.tolist()):
            raise KeypegError("with possible codes only, the first guess must be a candidate.")
    S = state.candidates
    # weighted: the whole-number weights the search uses
    weights = None if given is None else _scaled_weights(space, given, S)
    if given is not None and weights is not None:
        watch.unit = _unit(given, weights, S)
    # the search's coordinates: the space's, or the view's (the candidates are 0..m-1)
    where: CodeSpace | CandidateView = space if view is None else view
    S_in, guesses_in, first_in, weights_in = S, guesses, first_index, weights
    if view is not None:
        S_in = np.arange(S.size, dtype=np.int32)
        guesses_in = view.indices(guesses).tolist()
        first_in = -1 if first_index < 0 else int(view.indices([first_index])[0])
        weights_in = None if weights is None else weights[view.order]
    # With a cap or the worst case to minimise, one-step trees (Kooi's, entropy's and
    # maxsize's) give an upper bound to prune with from the start and tell whether the cap
    # can bind. Uncapped, the least total needs none: the search solves its first root
    # guess exactly before any other, and that total prunes as well as a one-step tree's
    # (same sets expanded with and without one on MM(4,6), MM(4,7), MM(5,5), bulls-and-cows
    # and Codebreaker 1-3), and the tree would cost its own time and kernels to load
    # (a cap only: the minimax tree, the shallowest of the three as a rule, first; the other
    # two only when it leaves the cap close, where the capped search needs their bounds.
    # Codebreaker 1's three trees took 11.5 s on one core, the minimax tree 3.3 s)
    heuristics: list[tuple[int, int]] = []
    if max_guesses is not None or objective != "total":
        watch.phase = "bounding with one-step strategies"

        def bound(names: tuple[str, ...]) -> list[tuple[int, int]]:
            if view is None:
                return _heuristic_trees(space, state, possible_only, first, names, weights)
            return _view_heuristics(view, guesses_in, possible_only, names, weights_in)

        heuristics = bound(("maxsize",))
        if objective != "total" or max_guesses is None or heuristics[0][1] + 2 > max_guesses:
            heuristics += bound(("parts", "entropy"))
        watch.upper = min((t for t, w in heuristics if max_guesses is None or w <= max_guesses),
                          default=None)
    watch.check()
    group = None
    if weights_in is not None and symmetry:
        perms = _Search.position_perms(space.rules)
        group = _weight_group(where, perms, np.argsort(perms, axis=1).astype(np.int8),
                              weights_in, S_in)
    # (cap the search runs under, cap the tree must meet)
    attempts: list[tuple[int | None, int | None]]
    if objective == "worst":
        lowest = len(guesses) + _depth_lower_bound(space, S.size, possible_only)
        top = max_guesses if max_guesses is not None else len(guesses) + DEPTH_UNCAPPED
        attempts = [(cap, cap) for cap in range(lowest, top + 1)]
    elif max_guesses is not None and any(w + 2 <= max_guesses for _, w in heuristics):
        # a loose cap (board rows, say) rarely binds: the uncapped search is faster and its
        # tree is optimal under the cap too when it fits
        attempts = [(None, max_guesses), (max_guesses, max_guesses)]
    else:
        attempts = [(max_guesses, max_guesses)]
    # guesses already played, over every candidate (weighted: times its weight)
    offset = len(guesses) * (int(S.size) if weights is None else int(weights[S].sum()))
    watch.offset = offset
    n_workers = workers if workers is not None else (
        min(2, usable_cores()) if S.size >= SHARED_ROOT_MIN_CODES else 1)
    # the parts of a root of few first guesses on workers: asked for, or a set this big
    parts_too = workers is not None or S.size >= PARALLEL_MIN_CODES
    n_workers = n_workers if n_workers > 1 and not trace and S.size > 2 else 1
    searches = 1 + (n_workers if n_workers > 1 else 0)
    memo_share = memo_bytes // searches
    # the root's parts through recording workers: on a Ray cluster, or locally when the
    # run is checkpointed (unweighted; see roots.py)
    recorded = weights_in is None and not trace and S.size > 2 and (
        cluster is not None or (checkpoint is not None and S.size >= PARALLEL_MIN_CODES))
    if recorded:
        n_workers = cluster.cpus if cluster is not None else max(n_workers, 1)
        searches = 1 + n_workers
        memo_share = memo_bytes // searches
    search: _Search | None = None
    earlier: dict[str, int] = {}  # the counts of the attempts under caps ruled out
    for cap, need in attempts:
        if search is not None:
            _add_counts(earlier, _counters(search))
        capped = cap is not None
        depth = (cap - len(guesses)) if cap is not None else DEPTH_UNCAPPED
        if depth < 1:
            raise KeypegError(f"no guesses are left within {plural(cap or 0, 'guess', 'guesses')}.")
        # Weighted, uncapped, any code a probe: the search runs on the codes of positive
        # weight only, and the others ride along. Any tree for S plays as a tree for them
        # at the same weighted cost; and a tree for them plays on S at the same cost, as
        # each code of weight 0 follows the path of the answers it gets and, once only codes
        # of weight 0 are left, they are found by playing candidates (free): so both optima
        # are equal. With a cap they still have to be found in time, and with possible codes
        # only they are probes too, so they stay; and a forced first guess is played on S.
        positive = (weights_in is not None and not capped and not possible_only
                    and first_in < 0)
        searched = S_in[weights_in[S_in] > 0] if positive and weights_in is not None else S_in
        # every code searched weighs the same (w): the unweighted kernel, totals times w
        each = 0
        if weights_in is not None and EQUAL_WEIGHTS_AS_PLAIN:
            mine = weights_in[searched]
            each = int(mine[0]) if mine.min() == mine.max() else 0

        def new_search(trace: bool = trace, capped: bool = capped,
                       positive: bool = positive, each: int = each,
                       memo_bytes: int = memo_share, share: int = searches) -> _Search:
            return _Search(where, possible_only=possible_only, capped=capped,
                           first=first_in, symmetry=symmetry, trace=trace,
                           n_max=int(S.size), memo_bytes=memo_bytes, weights=weights_in,
                           positive_sets=positive, group=group, kernel_weighted=not each,
                           searches=share)

        watch.phase = "searching" if objective == "total" else (
            f"searching within {plural(cap or 0, 'guess', 'guesses')}")
        watch.kernels_cold = not k.solve.signatures
        search = None  # the last attempt's memos go before these come
        watch.attach([])
        # (with no parts for workers, this search runs alone unless the root's first guesses
        # are shared, when new ones replace it: its memo gets the whole budget)
        alone = not recorded and not parts_too
        search = new_search(memo_bytes=memo_bytes, share=1) if alone else new_search()
        if recorded:
            from .roots import PartViews, build_search, part_workers

            options = {"possible_only": possible_only, "capped": capped, "first": first_in,
                       "symmetry": symmetry, "trace": False, "n_max": int(S.size),
                       "memo_bytes": memo_share}
            spec: tuple[Callable[..., Any], tuple[Any, ...]] = (
                build_search, (_Search, space.rules, None if view is None else (
                state.candidates, guesses), options))
            view_codes = 0
            if cluster is not None and view is None and _part_views(space, cluster):
                spec = (PartViews, (_Search, space.rules, options))
                view_codes = _view_codes(space, cluster)
            scope = f"cap={cap},symmetry={symmetry}"
            # the cluster's big parts are split on the driver by a search that only scores
            # guesses and settles their parts cheaply: the smallest memo does
            search.helpers = part_workers(
                lambda: new_search(trace=False), n_workers, cluster=cluster, spec=spec,
                checkpoint=None if checkpoint is None else checkpoint.scoped(scope),
                splitter=lambda: new_search(trace=False, memo_bytes=0),
                root_codes=int(searched.size), view_codes=view_codes)
            link_peers(search.helpers)
        watch.attach([search, *search.helpers])
        watch.proven, watch.code_of, watch.text_of = None, None, None
        if objective == "total" and cap == need and weights_in is None:
            watch.code_of = int if view is None else (lambda i: int(view.order[i]))
            watch.text_of = space.text
        fits = [t for t, w in heuristics if cap is None or w <= cap]
        budget = min(fits) - offset + 1 if fits else int(k.INF)
        # (the best total known is a tree's within the cap: MM(7,4)'s search within 5
        # guesses had shown "total 66,258-76,616", the parts tree's total, a tree of 7)
        watch.upper = min(fits, default=None)
        watch.kernel_scale = each or 1
        scaled = -(-budget // each) if each and budget < int(k.INF) else budget
        shared = None
        many = n_workers > 1 and not recorded and _many_first_guesses(
            search, view, searched, depth, scaled, guesses_in, possible_only or first_in >= 0)
        if n_workers > 1 and not recorded and not many and parts_too:
            # the parts of each first guess on workers (few first guesses in a set smaller
            # than that: this one search)
            search.helpers = [new_search(trace=False) for _ in range(n_workers)]
            link_peers(search.helpers)
            watch.attach([search, *search.helpers])
        if many:
            # Many first guesses (a position, its symmetry mostly broken): parts spread over
            # workers with a memo each lose (MM(4,9) after 1123 (0B1W), 130 first guesses:
            # 58.8 s alone against 114.7 s on two workers scoring 2.8 times the probes; full
            # games have 5 to 7). The first guesses are shared instead, in turn, each worker
            # searching its own under the best total any has found (unweighted kernel; else
            # one search, whose memo serves the parts of all of them)
            search = None  # (these memos go before the new ones come)
            watch.attach([])
            if each or weights_in is None:
                team = [new_search(memo_bytes=memo_bytes // n_workers, share=n_workers)
                        for _ in range(n_workers)]
                search, search.helpers = team[0], team[1:]
                link_peers(team)
                shared = slots.team_array(n_workers)
            else:
                search = new_search(memo_bytes=memo_bytes, share=1)
            watch.attach([search, *search.helpers])
        watch.shared = shared
        if shared is not None:
            cost, search.root_guess = share_root(search, shared, searched, depth, scaled,
                                                 guesses_in)
        else:
            cost = _run(search, searched, depth, scaled, guesses_in)
        if each:
            cost = cost * each if cost < int(k.INF) else cost
        watch.check()
        if cost >= budget and budget < int(k.INF):  # cannot happen: the heuristic tree fits
            raise KeypegError("internal error: the search missed the heuristic tree.")
        if cost >= int(k.INF):
            continue
        if watch.code_of is not None and shared is not None:
            if search.root_guess >= 0:
                watch.proven = search.root_guess, cost
        elif watch.code_of is not None and int(search.counters[slots.BEST_TOTAL]) == cost:
            watch.proven = int(search.counters[slots.BEST_GUESS]), cost
        watch.phase = "rebuilding the tree"
        tree = _rebuild(search, S_in, depth, guesses_in, state).placed(state)
        if view is not None:
            tree.guess = view.order[tree.guess].astype(np.int32)
        got = tree.total if weights is None else _weighted_sum(tree, weights)
        if got != cost + offset:
            raise KeypegError(f"internal error: rebuilt tree has {got}, not {cost + offset}.")
        if need is not None and tree.worst > need:
            continue
        return OptimalResult(
            space.rules, tree.total, tree, objective=objective, max_guesses=need,
            possible_only=possible_only, first=None if first is None else str(first),
            seconds=time.perf_counter() - watch.started,
            stats=_add_counts(_counters(search), earlier),
            trace=format_trace(search) if trace else [], weights=given,
        )
    limit = (f"within {plural(max_guesses, 'guess', 'guesses')}" if max_guesses is not None
             else "at all")
    raise NoStrategyError(f"no strategy finds every secret {limit} under these conditions.")


def _part_views(space: CodeSpace, cluster: Any) -> bool:
    """Whether a cluster's actors solve each part on a view of its own (`roots.PartViews`)
    instead of each holding the game's full table: when the tables of one node's actors
    and the driver's would pass the table budget (``KEYPEG_TABLE_BUDGET``)."""
    return space.table_bytes * (_per_node(cluster) + 1) > table_budget()


def _per_node(cluster: Any) -> int:
    return -(-cluster.cpus // max(cluster.nodes, 1))


def _view_codes(space: CodeSpace, cluster: Any) -> int:
    """The most codes of a part an actor solves on a table of its own (`_part_views`): its
    table (every code against the part's) within half the actor's share of the table
    budget; a bigger part (a poor first guess's) is split on the driver first."""
    share = table_budget() // (_per_node(cluster) + 1)
    return max(1, share // 2 // max(1, space.table_bytes // space.size))


#: A search from a position uses a `CandidateView` (every code against the candidates
#: only) instead of the full table when the table is not in memory and the view is at
#: most this fraction of it.
VIEW_SHARE = 0.25


def _use_view(space: CodeSpace, state: GameState) -> bool:
    """Return True when the search from `state` should read a `CandidateView`: the full
    table does not fit, or is not loaded, not small, and the view is much smaller."""
    if state.count >= space.size:
        return False
    if not space.fits_table:
        return True
    return (not space.has_table and space.size > SMALL_SPACE
            and state.count <= VIEW_SHARE * space.size)


def _require_room(rules: Rules | CodeSpace, state: GameState | None) -> None:
    """Raise `LimitExceededError` at once when the search cannot run under the memory
    budget: the full table from the start, the view of the candidates from a position."""
    space = rules if isinstance(rules, CodeSpace) else None
    plain = rules.rules if isinstance(rules, CodeSpace) else rules
    budget = space.budget if space is not None else table_budget()
    if state is None or state.count >= plain.size or table_bytes(plain) <= budget:
        require_table(plain, "the optimal search", budget)
        return
    need = CandidateView.bytes_needed(state.space, state.count)
    if need > budget:
        raise LimitExceededError(
            f"the optimal search from {state.count:,} candidates needs {bytes_text(need)} of "
            f"answers, over the {bytes_text(budget)} budget (KEYPEG_TABLE_BUDGET).")


def _depth_lower_bound(space: CodeSpace, n: int, possible_only: bool) -> int:
    _, ctab = k.bound_tables(1, space.n_responses, possible_only)
    R = space.n_responses
    return int(np.argmax(ctab[R] >= n))


def _many_first_guesses(search: _Search, view: CandidateView | None, S: np.ndarray,
                        depth: int, budget: int, guesses: list[int], narrowed: bool) -> bool:
    """Whether the search of S would take more than PARALLEL_ROOT_GUESSES first guesses:
    plainly so (`_fewest_first_guesses`), else counted (`root_guesses`)."""
    fewest = _fewest_first_guesses(search, view, S, budget, guesses, narrowed)
    return ((fewest is not None and fewest > PARALLEL_ROOT_GUESSES)
            or root_guesses(search, S, depth, budget, guesses) > PARALLEL_ROOT_GUESSES)


def _fewest_first_guesses(search: _Search, view: CandidateView | None, S: np.ndarray,
                          budget: int, guesses: list[int], narrowed: bool) -> int | None:
    """The fewest first guesses the search of S takes (`root_guesses` counts them),
    told without scoring the root (a fifth of an optimal hint's second at MM(6,9)'s
    213-candidate position), or None where that is not plain. It is on a candidate view,
    under no budget, every probe tried (not `narrowed` to the candidates or a first
    guess), and more codes than answers (no early stop): then each probe the root lists
    (`_kernels.optimal._canonical_pool`, the kernel's own) is a first guess of its own,
    since the view keeps one code of each cut, except those that leave S whole: at most
    one, and the guesses played."""
    if (view is None or budget < int(k.INF) or narrowed or search.group is not None
            or S.size <= view.n_responses):
        return None
    history = search.history_after(guesses, S)
    game, options = search.game, search.options
    _, is_zero, free, n_free, zero, _ = ksym.colour_classes(
        game.colours, S, np.uint64(history.played), int(options[slots.OPT_SYMBOLS]))
    pool = k._canonical_pool(game.codes, game.probe_order, history.perms,
                             history.colour_maps, game.inverse_perms, free, n_free, zero,
                             is_zero, options, game.colours, game.inversions)
    return max(0, int(pool.size) - 1 - len(guesses))


def _heuristic_trees(space: CodeSpace, state: GameState, possible_only: bool,
                     first: str | Code | None, names: tuple[str, ...],
                     weights: np.ndarray | None = None) -> list[tuple[int, int]]:
    """Return (total, worst) of some one-step strategies' trees: upper bounds that let the
    search prune from the start (weighted: the weighted total)."""
    strategies = [OneStepStrategy(n, possible_only=possible_only, first=first) for n in names]
    return [(t.total if weights is None else int(_weighted_sum(t, weights)), t.worst)
            for t in evaluate(strategies, space, state=state)]


def _view_heuristics(view: CandidateView, guesses: list[int], possible_only: bool,
                     names: tuple[str, ...], weights: np.ndarray | None
                     ) -> list[tuple[int, int]]:
    """The same bounds as `_heuristic_trees`, from the strategies' trees on a candidate
    view (in view indices: its probes, tried in view order, give a valid tree if not
    always the strategy's own choices)."""
    trees = [OneStepStrategy(n, possible_only=possible_only).view_tree(view, guesses)
             for n in names]
    return [(t.total if weights is None else int(_weighted_sum(t, weights)), t.worst)
            for t in trees]


def _unit(given: np.ndarray, weights: np.ndarray, S: np.ndarray) -> float:
    """Return the caller's weight that one search unit stands for (1 unless scaled)."""
    top = float(given[S].max())
    return 1.0 if int(weights[S].max()) == top else top / WEIGHT_SCALE


def _run(search: _Search, S: np.ndarray, depth: int, budget: int, guesses: list[int]) -> int:
    """Run the search on S, in parallel when it has helpers."""
    if not search.helpers or S.size <= 2:  # (weighted, the codes of positive weight may
        return search.run(S, depth, budget, guesses)  # be that few)
    cost, guess = solve_root(search, search.helpers, S, depth, budget, guesses)
    search.root_guess = guess
    return cost


#: Why a first search waits on its kernels, as every message about it says.
KERNELS_WHY = "the first search after installing compiles them, a minute or two"
#: The phase a search reports while its kernel loads (see `_Watch.kernels_cold`).
KERNELS_LOADING = "loading the search kernels"
#: Seconds of loading after which the phase says why it may take long (loading them from
#: the disk cache takes a second or two; said at once, the note blamed every run).
KERNELS_WHY_AFTER = 4.0


def kernels_compiling() -> bool:
    """Return whether the search kernel is still to be compiled in this process: not loaded
    here yet, and no compiled copy in numba's cache on disk (a fresh install, whose first
    search compiles it: a minute or two)."""
    if k.solve.signatures:
        return False
    dispatcher: Any = k.solve
    try:  # (numba's own cache file; should its layout move, say nothing)
        index = dispatcher._cache._cache_file._index_path
    except AttributeError:
        return False
    return not os.path.exists(index)


#: Seconds between two progress reports of a search (`solve_optimal(progress=...)`).
PROGRESS_SECONDS = 0.2


class _Watch:
    """Runs a search in a thread (the kernels release the GIL) while the caller's thread
    reports progress and enforces the time limit: past it, every search is told to stop
    (the kernels check between candidate rows) and `LimitExceededError` is raised."""

    #: Seconds a search has to stop after being told to, before the caller stops waiting:
    #: the kernels stop within milliseconds, and a step they cannot interrupt (a candidate
    #: view's table, 1.2 s for MM(6,9)'s 551-candidate positions) is not waited for, so a
    #: hint answers in its time; that step ends in the background, and no search runs after
    #: it (`_solve` checks the time before it makes its searches, and `attach` tells any
    #: made after the limit to stop).
    GRACE = 0.1

    def __init__(self, time_limit: float | None,
                 progress: Callable[[dict[str, Any]], None] | None) -> None:
        check_max_seconds(time_limit, "time_limit")
        self.started = time.perf_counter()
        self.time_limit = time_limit
        self.progress = progress
        self.phase = "starting"
        #: whether the search kernel was not yet loaded in this process when the search
        #: began: until its first set is expanded, the report says it is being loaded
        #: (compiled, the first time after installing: a minute or two of "0 sets")
        self.kernels_cold = False
        self.searches: list[_Search] = []
        self.upper: int | None = None  # best total known (heuristic tree, then the search)
        self.offset = 0
        self.unit = 1.0  # the caller's weight one unit of the search's totals stands for
        self.kernel_scale = 1  # search units one unit of the kernel's totals stands for
        self.stopped = False
        # where a stopped search may report its best first guess (see TimeLimitError):
        # the space's index of a search index (None: it may not), and, once the search
        # is done and the tree is being rebuilt, its (first guess, optimal total)
        self.code_of: Callable[[int], int] | None = None
        self.text_of: Callable[[int], str] | None = None  # a code's text, by space index
        self.proven: tuple[int, int] | None = None
        #: the best totals of searches sharing the root's first guesses (see
        #: `parallel.share_root`), or None
        self.shared: np.ndarray | None = None

    def attach(self, searches: list[Any]) -> None:
        """Make `searches` the ones this watch stops and reads. Searches made after the
        time ran out (while a view or the heuristic trees were being built, say) are told
        to stop at once: nothing else would tell them, and they would run on in the
        background long after the caller got its answer."""
        self.searches = list(searches)
        if self.stopped:
            for search in self.searches:
                search.counters[slots.STOP] = 1

    def root_counters(self) -> np.ndarray:
        """Return the root's counters: the main search's, or, for searches sharing the
        root's first guesses, theirs merged: the best total and guess of the one whose best
        wins, the least of their lower bounds (each holds for its own first guesses) and the
        first guesses done by all."""
        if not self.searches:
            return np.zeros(slots.COUNTER_SLOTS, np.int64)
        main = self.searches[0].counters
        shared = self.shared
        if shared is None or len(self.searches) < 2:
            return main
        out = main.copy()
        team = [x.counters for x in self.searches]
        out[slots.LOWER_BOUND] = min(int(c[slots.LOWER_BOUND]) for c in team)
        out[slots.N_FIRST_GUESSES_DONE] = sum(int(c[slots.N_FIRST_GUESSES_DONE]) for c in team)
        winner = slots.team_winner(shared)
        if winner >= 0:
            # (its counters may trail its entry by a moment: read them, not the entry)
            out[slots.BEST_TOTAL] = team[winner][slots.BEST_TOTAL]
            out[slots.BEST_GUESS] = team[winner][slots.BEST_GUESS]
        else:
            out[slots.BEST_TOTAL] = 0
        return out

    def check(self) -> None:
        """Raise `LimitExceededError` when the time limit has passed."""
        if self.stopped or (self.time_limit is not None
                            and time.perf_counter() - self.started > self.time_limit):
            self.stopped = True
            nodes = sum(int(x.counters[slots.N_SETS]) for x in self.searches)
            loading = nodes == 0 and kernels_compiling()
            why = (f" (the time went on loading the search kernels: {KERNELS_WHY})"
                   if loading else "")
            error = TimeLimitError(
                f"the optimal search did not finish within "
                f"{plural(self.time_limit or 0, 'second')}{why}.")
            error.kernels_loading = loading
            self._found(error)
            raise error

    def best_so_far(self) -> tuple[int, int, int] | None:
        """Return (the space's index of the best first guess found so far, the total of its
        tree, a proven lower bound on the optimum), where this search may say it (see
        TimeLimitError): a proven optimum while the tree is rebuilt, else the root's best
        finished first guess while it searches; None otherwise."""
        if self.code_of is None or not self.searches:
            return None
        if self.proven is not None:
            guess, total = self.proven
            return self.code_of(guess), total, total
        main = self.root_counters()
        total = int(main[slots.BEST_TOTAL])
        if total <= 0 or not self.phase.startswith("searching"):
            return None
        return (self.code_of(int(main[slots.BEST_GUESS])), total,
                min(int(main[slots.LOWER_BOUND]), total))

    def _found(self, error: TimeLimitError) -> None:
        """Tell `error` the best first guess found so far and the bounds on the optimum,
        where this search may, in its fields and its message."""
        best = self.best_so_far()
        if best is None:
            # no first guess finished: the root's proven bound alone, once it is scored
            lower = int(self.root_counters()[slots.LOWER_BOUND])
            if self.code_of is not None and self.phase.startswith("searching") and lower > 0:
                error.lower = lower
            return
        error.best_guess, error.best_total, error.lower = best
        if self.text_of is not None:
            error.args = (f"{error.args[0]} The best tree found by then starts with "
                          f"{self.text_of(best[0])} and takes {best[1] + self.offset:,} "
                          f"guesses in all; no tree takes fewer than "
                          f"{best[2] + self.offset:,}.",)

    def report(self) -> dict[str, Any]:
        """Return where the search stands (what `progress` receives)."""
        main = self.root_counters()
        best = int(main[slots.BEST_TOTAL]) * self.kernel_scale
        upper = self.upper if not best else int(min(best + self.offset, self.upper or k.INF))
        lower = int(main[slots.LOWER_BOUND]) * self.kernel_scale
        found = self.best_so_far()
        nodes = sum(int(x.counters[slots.N_SETS]) for x in self.searches)
        phase = self.phase
        if self.kernels_cold and not nodes and phase.startswith("searching"):
            slow = time.perf_counter() - self.started > KERNELS_WHY_AFTER
            phase = KERNELS_LOADING + (f" ({KERNELS_WHY})" if slow else "")

        def units(x: int | None) -> int | float | None:
            # weights scaled for the search: report in the caller's weights
            return x if x is None or self.unit == 1.0 else x * self.unit

        return {"phase": phase, "elapsed": time.perf_counter() - self.started,
                "root_done": int(main[slots.N_FIRST_GUESSES_DONE]),
                "root_total": int(main[slots.N_FIRST_GUESSES]),
                "parts_done": int(main[slots.N_PARTS_DONE]),
                "parts_total": int(main[slots.N_PARTS]), "best": units(best),
                "upper": units(upper), "lower": units(lower + self.offset) if lower else None,
                "nodes": nodes,
                "resumed": sum(int(getattr(x, "resumed", 0)) for x in self.searches),
                # the parts of the current first guess being solved a guess at a time: their
                # guesses settled and in all (`parallel.solve_split`)
                "part_guesses": [[int(c[slots.N_SPLIT_DONE]), int(c[slots.N_SPLIT])]
                                 for c in (x.counters for x in self.searches)
                                 if c[slots.N_SPLIT] > 0],
                "best_guess": None if found is None or self.text_of is None
                else self.text_of(found[0])}

    def run(self, work: Callable[[], OptimalResult]) -> OptimalResult:
        """Return `work()`, run in a thread while this one watches it."""
        if self.time_limit is None and self.progress is None:
            return work()
        result: list[OptimalResult] = []
        error: list[BaseException] = []

        def target() -> None:
            try:
                result.append(work())
            except BaseException as exc:  # noqa: BLE001 - re-raised below
                error.append(exc)

        worker = threading.Thread(target=target, daemon=True)
        worker.start()
        while worker.is_alive():
            wait = PROGRESS_SECONDS  # (the stop at the limit, not up to 0.2 s past it)
            if self.time_limit is not None:
                wait = max(0.0, min(wait, self.started + self.time_limit - time.perf_counter()))
            worker.join(wait)
            if self.progress is not None and worker.is_alive():
                self.progress(self.report())
            if worker.is_alive() and self.time_limit is not None and (
                    time.perf_counter() - self.started > self.time_limit):
                self.stopped = True
                for search in self.searches:
                    search.counters[slots.STOP] = 1
                # a search stops within milliseconds; a one-step bound or a table build
                # cannot be interrupted, and is left to finish in the background (GRACE)
                worker.join(self.GRACE)
                self.check()
        if error:
            raise error[0]
        return result[0]


def _rebuild(search: _Search, S: np.ndarray, depth: int, guesses: list[int],
             state: GameState) -> DecisionTree:
    """Return the optimal tree the search found: assembled from the subtrees the workers
    kept, else from the memos (`_Search.subtree`)."""
    space = search.space
    start = len(guesses) + 1
    if search.helpers and search.root_guess >= 0:
        from .roots import assemble

        nodes = assemble(search, S, search.root_guess, depth, guesses)
        if nodes is not None:
            return DecisionTree(space.rules, "optimal", **nodes)
    rows = search.subtree(S, depth, search.history_after(guesses, S),
                          root=bool(search.helpers))
    return DecisionTree(space.rules, "optimal", rows[0], rows[1], rows[2],
                        (start + rows[3]).astype(np.int32), rows[4])


def format_trace(search: _Search) -> list[str]:
    """Return the root-level trace as text lines, in the spirit of seed 002's listing."""
    space = search.space
    rows = search.trace[: int(search.counters[slots.N_TRACE_ROWS])]
    lines = []
    for kind, probe, a, b, c, d in rows.tolist():
        code = space.text(probe)
        if kind == slots.TRACE_PROBE:
            lines.append(f"----- {code} (E={a}, parts={b})")
        elif kind == slots.TRACE_PART:
            lines.append(f"<{code},{space.alphabet[int(a)]}>={b}  ->{c}  E:{d}")
        elif kind == slots.TRACE_DONE:
            verdict = f"{code} = {a}" if a < b else f"{code} >= {a} (best {b}): next one"
            lines.append(verdict)
        elif kind == slots.TRACE_PRUNED:
            lines.append(f"Erase {code} ({a}>={b})")
    return lines
