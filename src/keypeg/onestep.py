"""The one-step strategies: consistent, maxsize (Knuth), expsize (Irving), entropy
(Neuwirth), parts (Kooi), and the random consistent strategy.

Each one-step strategy scores every allowed probe by how it cuts the candidates and plays
the best. Ties go to a probe that could be the secret, then to the lexically first (`tie`
"first", the default) or last ("last"). Probes are all codes, or only the candidates with
`possible_only`. `first` forces the opening guess.

Entropy is compared exactly by default (maximising entropy is minimising the integer
prod n^n). The float spellings of seed 000 are available for study: ``nlog2n``
(sum n log2 n), ``plog2p`` (sum p log2 p), ``plnp`` (sum p ln p) and ``plog2p-float32``;
their sum runs over the answers in `order` (answer indices; the alphabet's order by default).
"""

from __future__ import annotations

import functools
import itertools
import json
import zlib
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

import numpy as np

from ._kernels import onestep as k
from ._kernels import optimal as ko
from ._kernels import slots
from .catalog import ENTROPY_SPELLING_NAMES, TIE_RULES
from .codes import Code
from .errors import KeypegError, LimitExceededError
from .game import GameState
from .limits import (
    SMALL_SPACE,
    SPLIT_MAX_CODES,
    bytes_text,
    check_flag,
    check_seed,
    shorten,
    shown,
    table_budget,
)
from .rules import Rules
from .space import CandidateView, CodeSpace, require_table, table_bytes
from .strategy import MAX_DEPTH, Strategy, as_space
from .tree import DecisionTree

KINDS = {
    "consistent": k.CONSISTENT,
    "maxsize": k.MAXSIZE,
    "expsize": k.EXPSIZE,
    "entropy": k.ENTROPY,
    "parts": k.PARTS,
}
ENTROPY_SPELLINGS = {  # keys: catalog.ENTROPY_SPELLING_NAMES
    "exact": None,
    "nlog2n": k.NLOG2N,
    "plog2p": k.PLOG2P,
    "plnp": k.PLNP,
    "plog2p-float32": k.PLOG2P_F32,
}
assert tuple(ENTROPY_SPELLINGS) == ENTROPY_SPELLING_NAMES

_QTAB: dict[int, np.ndarray] = {}


def _qtab(n: int) -> np.ndarray:
    if n not in _QTAB:
        _QTAB[n] = k.entropy_qtab(n)
    return _QTAB[n]


#: Position permutations join the one-step strategies' symmetry up to this many pegs (720
#: permutations); past it, colours alone (the group would outgrow what it saves).
POSITION_SYMMETRY_PEGS = 6


@functools.cache
def position_perms(pegs: int, every: bool = True) -> np.ndarray:
    """Return the position permutations of the symmetry group, the identity first (only
    the identity when not `every`); read-only, made once per peg count."""
    if not every:
        perms = np.arange(pegs, dtype=np.int8)[None, :]
    else:
        perms = np.array(list(itertools.permutations(range(pegs))), dtype=np.int8)
    perms.setflags(write=False)
    return perms


def answer_marks(space: CodeSpace | CandidateView) -> np.ndarray:
    """Return each answer's marks per position (positional answers; no rows else)."""
    if space.rules.feedback != "positional":
        return np.zeros((0, space.rules.pegs), dtype=np.int8)
    return np.array([fb.marks for fb in space.alphabet.responses], dtype=np.int8)


def _code_set(space: CodeSpace | CandidateView, positions: bool = True) -> slots.Codes:
    """Return the codes of `space` as the one-step kernels take them (position
    permutations in the group when `positions` and the pegs allow)."""
    rules = space.rules
    perms = position_perms(rules.pegs, positions and rules.pegs <= POSITION_SYMMETRY_PEGS)
    return slots.Codes(space.codes, space.colmask, rules.repeats, rules.symbols, perms,
                       np.argsort(perms, axis=1).astype(np.int8), answer_marks(space))


def history_group(codes: slots.Codes, guesses: Sequence[int], answers: Sequence[int],
                  played: int, start: tuple[np.ndarray, np.ndarray] | None = None
                  ) -> slots.History:
    """Return what `guesses` (answered `answers`, positional) leave: the elements of the
    group (from `start`, else every position permutation of `codes` with every colour
    free) that fix every guess and keep every answer, and the colours `played`."""
    if start is None:
        n = codes.perms.shape[0]
        gperm = np.arange(n, dtype=np.int32)
        gphi = np.full((n, codes.symbols), -1, dtype=np.int8)
    else:
        gperm, gphi = start
    for g, r in zip(guesses, answers, strict=True):
        gperm, gphi = ko.child_group(gperm, gphi, int(g), codes.codes, codes.perms)
        if codes.marks.shape[0] > 0 and gperm.shape[0] > 1:
            gperm, gphi = ko.clue_group(gperm, gphi, int(g), int(r), codes.codes, codes.perms,
                                        codes.marks)
    return slots.History(gperm, gphi, np.uint64(played))


def _history(space: CodeSpace, code_set: slots.Codes, guesses: Sequence[int],
             candidates: np.ndarray) -> slots.History:
    """`history_group` for guesses played in `space` with `candidates` left."""
    answers = [int(space.responses(int(g), candidates[:1])[0]) for g in guesses]
    return history_group(code_set, guesses, answers, space.played_mask(list(guesses)))


def _transposed(space: CodeSpace) -> np.ndarray:
    """Return the table read as ``[secret, guess]`` when it is loaded and symmetric
    (black/white), else an empty array (the kernels then count probe by probe)."""
    if space.has_table and space.rules.feedback == "blackwhite":
        table = space.table()
        assert table is not None
        return table
    return np.zeros((0, 0), dtype=space.alphabet.dtype)


class OneStepStrategy(Strategy):
    """A one-step strategy (see the module docstring for the options)."""

    @property
    def splits(self) -> bool:  # type: ignore[override]
        """A game too big for its full table is walked part by part (with possible codes
        only too: one candidate per symmetry class is scored at the root)."""
        return True

    def split_whole_tree(self, space: CodeSpace, workers: int, *, checkpoint: Any = None,
                         on_part: Callable[[int, int], None] | None = None) -> DecisionTree:
        record = None if checkpoint is None else SplitRecord(checkpoint, self, space.rules)
        return split_tree(self, space, workers=workers, record=record, on_part=on_part)

    def __init__(
        self,
        name: str,
        *,
        possible_only: bool = False,
        first: str | Code | None = None,
        tie: str = "first",
        entropy: str = "exact",
        order: Sequence[int] | None = None,
        symmetry: bool = True,
    ) -> None:
        if name not in KINDS:
            raise KeypegError(f"unknown one-step strategy {shorten(name)!r}; use "
                              f"{', '.join(KINDS)}.")
        if tie not in TIE_RULES:
            raise KeypegError(f"tie rule must be 'first' or 'last', not {shorten(tie)!r}.")
        if entropy not in ENTROPY_SPELLINGS:
            raise KeypegError(
                f"entropy spelling must be one of {', '.join(ENTROPY_SPELLINGS)}, not "
                f"{shorten(entropy)!r}."
            )
        if entropy != "exact" and name != "entropy":
            raise KeypegError("an entropy spelling (--entropy) applies only to the entropy "
                              "strategy.")
        check_flag("possible_only", possible_only)
        check_flag("symmetry", symmetry)
        if order is not None:
            kept = np.asarray(order)
            if kept.ndim != 1 or (kept.size and kept.dtype.kind not in "iu"):
                raise KeypegError("order must be a list of answer indices (the order the "
                                  f"entropy sums its terms in), not {shown(order)}.")
        self.name = name
        self.possible_only = possible_only
        self.first = first
        self.tie = tie
        self.entropy = entropy
        self.order = None if order is None else np.asarray(order, dtype=np.int64)
        self.symmetry = symmetry

    @property
    def label(self) -> str:
        words = {"entropy": "{}", "possible_only": "possible only", "tie": "tie {}",
                 "first": "first {}"}
        extras = [words[key].format(value) for key, value in self.options.items()]
        return self.name + (f" ({', '.join(extras)})" if extras else "")

    @property
    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.entropy != "exact":
            out["entropy"] = self.entropy
        if self.possible_only:
            out["possible_only"] = True
        if self.tie != "first":
            out["tie"] = self.tie
        if self.first is not None:
            out["first"] = str(self.first)
        return out

    # ------------------------------------------------------------------ kernel arguments
    def _kind(self) -> tuple[int, int]:
        if self.name == "entropy" and self.entropy != "exact":
            return k.FLOAT_ENTROPY, int(ENTROPY_SPELLINGS[self.entropy])  # type: ignore[arg-type]
        return KINDS[self.name], 0

    def _order(self, space: CodeSpace) -> np.ndarray:
        if self.order is None:
            return np.arange(space.n_responses, dtype=np.int64)
        if sorted(self.order.tolist()) != list(range(space.n_responses)):
            raise KeypegError("the answer order must be a permutation of the answer indices.")
        return self.order

    def _first_index(self, space: CodeSpace) -> int:
        return -1 if self.first is None else space.index(self.first)

    def _scoring(self, space: CodeSpace) -> slots.Scoring:
        """Return how this strategy scores probes, as the kernels take it."""
        kind, fvariant = self._kind()
        return slots.Scoring(kind, fvariant, self._order(space), self.tie == "last",
                             self.possible_only, _qtab(space.size), self.symmetry)

    # ------------------------------------------------------------------ play
    def choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int:
        if not guesses and self.first is not None:
            return self._first_index(space)
        cands = np.ascontiguousarray(candidates, dtype=np.int32)
        played = np.uint64(space.played_mask(list(guesses)))
        code_set = _code_set(space)
        history = _history(space, code_set, guesses, cands)
        scoring = self._scoring(space)
        is_cand = np.zeros(space.size, dtype=np.bool_)
        table_t = _transposed(space)
        if space.has_table or space.size <= SMALL_SPACE:
            table = space.table()
            if table is not None:
                # (int32 probes, as below: one compiled signature for both)
                return int(k.choose(table, table_t, space.all(), space.all(), cands,
                                    history, is_cand, code_set, scoring))
        if self.symmetry and scoring.kind != k.CONSISTENT:
            probes = k.canonical_probes(space.codes, space.colmask, cands, played,
                                        space.rules.symbols, space.rules.repeats,
                                        scoring.tie_last)
            if self.possible_only:
                # the permutations keep the candidates, so the first (last) candidate of
                # each class stands for its class: the same choice as among them all
                probes = np.intersect1d(probes, cands).astype(np.int32)
        elif self.possible_only:
            probes = cands
        else:
            probes = space.all()
        if scoring.kind == k.CONSISTENT or cands.size <= 2:
            probes = probes[:0]
        block = space.block(probes, cands)
        return int(k.choose(
            block, table_t, probes, cands, np.arange(cands.size, dtype=np.int32), history,
            is_cand, code_set, scoring))

    def tree(self, rules: Rules | CodeSpace | str, state: GameState | None = None
             ) -> DecisionTree:
        self.check_answers(state)
        return self._walked(as_space(rules, state), state).placed(state)

    def _walked(self, space: CodeSpace, state: GameState | None) -> DecisionTree:
        state = state or GameState.start(space)
        guesses = [clue.guess.index for clue in state.history]
        if (state.count == space.size and table_bytes(space.rules) > table_budget()
                and space.size <= SPLIT_MAX_CODES and self.splits):
            return split_tree(self, space, state)
        if state.count == space.size:  # (this space's budget: a CodeSpace may have its own)
            require_table(space.rules, "a whole-tree evaluation", space.budget)
            table = space.table()
            assert table is not None
            ids = space.all()
        else:
            need = space.size * state.count * np.dtype(space.alphabet.dtype).itemsize
            if need > table_budget():
                raise LimitExceededError(
                    f"a whole-tree evaluation from {state.count:,} candidates needs "
                    f"{bytes_text(need)} of answers, over the {bytes_text(table_budget())} "
                    "budget (KEYPEG_TABLE_BUDGET)."
                )
            table = space.block(None, state.candidates)
            ids = np.ascontiguousarray(state.candidates, dtype=np.int32)
        first = self._first_index(space) if not guesses else -1
        code_set = _code_set(space)
        history = _history(space, code_set, guesses, state.candidates)
        out = k.walk(table, _transposed(space), ids, history, len(guesses) + 1, first,
                     space.win, MAX_DEPTH, code_set, self._scoring(space))
        guess, parent, response, depth, size, _hist = out
        if guess.size == 0:
            raise LimitExceededError(f"{self.label} needs over {MAX_DEPTH} guesses here.")
        return DecisionTree(space.rules, self.label, guess, parent, response, depth, size)


    def view_tree(self, view: CandidateView, guesses: Sequence[int]) -> DecisionTree:
        """Return the strategy's tree over a candidate view's candidates after `guesses`
        (all in view indices; the probes are the view's codes, tried in view order). An
        upper bound for the optimal search; guesses in view indices too."""
        m = view.m
        # colours alone: the view's codes are not in symbol order, which the position
        # rule's "first of its class" needs
        codes = _code_set(view, positions=False)
        answers = [int(view.table()[int(g), 0]) for g in guesses]
        history = history_group(codes, guesses, answers, view.played_mask(list(guesses)))
        scoring = self._scoring(view.space)
        out = k.walk(view.table(), np.zeros((0, 0), dtype=view.alphabet.dtype),
                     np.arange(m, dtype=np.int32), history, len(guesses) + 1, -1, view.win,
                     MAX_DEPTH, codes, scoring)
        guess, parent, response, depth, size, _hist = out
        if guess.size == 0:
            raise LimitExceededError(f"{self.label} needs over {MAX_DEPTH} guesses here.")
        return DecisionTree(view.rules, self.label, guess, parent, response, depth, size)


class RandomStrategy(Strategy):
    """Play a uniformly random candidate. The draw depends only on the seed and the set of
    candidates, so a game and the whole-tree evaluation agree and both are reproducible."""

    name = "random"

    def __init__(self, *, seed: int = 0, first: str | Code | None = None) -> None:
        check_seed(seed, "seed")
        self.seed = int(seed)
        self.first = first

    @property
    def label(self) -> str:
        return f"random ({', '.join(f'{k} {v}' for k, v in self.options.items())})"

    @property
    def options(self) -> dict[str, Any]:
        return {"seed": self.seed, **({"first": str(self.first)} if self.first else {})}

    def choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int:
        if not guesses and self.first is not None:
            return space.index(self.first)
        cands = np.ascontiguousarray(candidates, dtype=np.int32)
        rng = np.random.default_rng([self.seed, zlib.crc32(cands.tobytes())])
        return int(cands[rng.integers(cands.size)])


def canonical_probes(state: GameState) -> np.ndarray:
    """Return one probe per class of the permutations that fix the history of `state`
    (the probes a one-step strategy scores)."""
    cached = state.derived.get("canonical_probes")
    if cached is not None:
        return cached
    space = state.space
    played = np.uint64(space.played_mask([c.guess.index for c in state.history]))
    cands = np.ascontiguousarray(state.candidates, dtype=np.int32)
    probes = k.canonical_probes(space.codes, space.colmask, cands, played,
                                space.rules.symbols, space.rules.repeats, False)
    probes.setflags(write=False)
    state.derived["canonical_probes"] = probes
    return probes


def scoring_work(state: GameState) -> int:
    """Return how many (probe, candidate) pairs a one-step strategy scores in `state`:
    the probes left after the symmetry of the history, times the candidates."""
    return int(canonical_probes(state).size) * int(state.candidates.size)


#: The summaries of exact whole trees keypeg walked part by part ahead of time, in games
#: whose walk takes hours (`scripts/big_walks.py`): by game key, then strategy.
BIG_WALKS_FILE = "data/big_walks.json"


@functools.cache
def _big_walks() -> dict[str, dict[str, dict[str, Any]]]:
    path = resources.files("keypeg").joinpath(BIG_WALKS_FILE)
    return json.loads(path.read_text()) if path.is_file() else {}


def recorded_walk(strategy: Strategy, rules: Rules) -> dict[str, Any] | None:
    """The summary of `strategy`'s exact whole tree over every secret of `rules` as keypeg's
    own walk part by part found it ahead of time (data/big_walks.json: its first guess,
    total, mean, worst case and histogram, the tree replayed over every secret, and the
    wall and CPU seconds of its runs), or None. Only the walks of one-step strategies with
    their default options are recorded."""
    if (not isinstance(strategy, OneStepStrategy) or strategy.label != strategy.name
            or strategy.order is not None):
        return None
    row = _big_walks().get(rules.key, {}).get(strategy.name)
    return None if row is None else dict(row)


def recorded_totals(key: str) -> dict[str, int]:
    """The exact totals of the recorded walks over the game of `key` (`Rules.key`;
    `recorded_walk`), by strategy."""
    return {name: int(row["total"]) for name, row in _big_walks().get(key, {}).items()}


def recorded_names(rules: Rules) -> list[str]:
    """The one-step strategies (default options) whose walks over `rules` are recorded
    (`recorded_walk`), in the record's order."""
    return list(_big_walks().get(rules.key, {}))


class SplitRecord:
    """The subtrees a `split_tree` walk has finished, kept in SQLite (a `store.Store`) as
    each is done, so that a killed walk, started again with the same record, takes them
    instead of walking them again (MM(6,9)'s 531,441 codes take hours on one core). A
    subtree is keyed by the game, the strategy (its label and answer order) and the clues
    that lead to it; it is the tree the walk would give again."""

    def __init__(self, store: Any, strategy: OneStepStrategy, rules: Rules) -> None:
        order = getattr(strategy, "order", None)
        how = "" if order is None else f"|order {zlib.crc32(order.tobytes())}"
        self.store = store
        self.context = f"split|{rules.key}|{strategy.label}{how}"
        self.taken = 0  # subtrees taken from the record by this object

    @staticmethod
    def _digest(state: GameState) -> str:
        return ";".join(str(clue) for clue in state.history)

    def get(self, state: GameState, label: str) -> DecisionTree | None:
        """The subtree recorded for `state` (as the strategy `label`'s), or None."""
        row = self.store.get_part(self.context, self._digest(state), 0)
        if row is None or row[3] is None:
            return None
        rows = np.frombuffer(zlib.decompress(row[3]), dtype=np.int32).reshape(5, -1)
        self.taken += 1
        return DecisionTree(state.rules, label, *(rows[i].copy() for i in range(5)))

    def put(self, state: GameState, tree: DecisionTree) -> None:
        rows = np.stack([tree.guess, tree.parent, tree.response, tree.depth,
                         tree.size]).astype(np.int32)
        self.store.put_part(self.context, self._digest(state), 0, int(rows.shape[1]), True,
                            0, zlib.compress(rows.tobytes(), 6))

    def count(self) -> int:
        """How many subtrees the record holds for this game and strategy."""
        return len(self.store.part_keys(self.context))


def split_tree(strategy: OneStepStrategy, space: CodeSpace, state: GameState | None = None,
               *, budget: int | None = None,
               on_part: Callable[[int, int], None] | None = None,
               parts: Callable[[list[GameState]], list[DecisionTree]] | None = None,
               record: SplitRecord | None = None, workers: int = 1) -> DecisionTree:
    """Return `strategy`'s exact whole tree from `state` (the start by default) without the
    game's full feedback table: while the answers of every code against the candidates
    would exceed `budget` bytes (`KEYPEG_TABLE_BUDGET`), the strategy's guess is played and
    each part is solved on its own (its block of answers computed on the fly), and the
    subtrees are joined. The tree is the one the full table would give (the same guesses,
    as the same kernels choose them). `on_part(done, total)` reports the root's parts.
    `parts`, when given, solves the root's parts (their states, in answer order) instead,
    for instance on a cluster (`solver.cluster.Cluster.split_tree`). With a `record`
    (`SplitRecord`), every part's subtree is kept as it is finished, and a part the record
    holds is taken from it instead of walked: a killed walk resumes. `workers` threads walk
    the first guess's parts at once (biggest first; the compiled walks release the GIL),
    each within its share of the budget; the tree is the same."""
    state = state or GameState.start(space)
    if workers > 1 and parts is None:
        parts = _parts_on_threads(strategy, space, workers, budget, on_part, record)
        on_part = None  # (reported as each part finishes)
    if record is None or not state.history:  # (the root is the whole walk)
        return _split_walk(strategy, space, state, budget, on_part, parts, record)
    held = record.get(state, strategy.label)
    if held is not None:
        return held
    tree = _split_walk(strategy, space, state, budget, on_part, parts, record)
    record.put(state, tree)
    return tree


def _parts_on_threads(strategy: OneStepStrategy, space: CodeSpace, workers: int,
                      budget: int | None, on_part: Callable[[int, int], None] | None,
                      record: SplitRecord | None
                      ) -> Callable[[list[GameState]], list[DecisionTree]]:
    """`split_tree`'s `parts` for `workers` threads: each part walked by `split_tree` with
    the budget shared out, the biggest parts first, returned in the order given."""
    share = (table_budget() if budget is None else budget) // workers

    def walk_all(states: list[GameState]) -> list[DecisionTree]:
        from concurrent.futures import ThreadPoolExecutor, as_completed

        with ThreadPoolExecutor(max_workers=workers) as pool:
            order = sorted(range(len(states)), key=lambda i: -states[i].count)
            futures = {pool.submit(split_tree, strategy, space, states[i], budget=share,
                                   record=record): i for i in order}
            trees: list[DecisionTree | None] = [None] * len(states)
            try:
                for done, future in enumerate(as_completed(futures), start=1):
                    trees[futures[future]] = future.result()
                    if on_part is not None:
                        on_part(done, len(states))
            except BaseException:
                for future in futures:  # (the parts not started yet are not walked)
                    future.cancel()
                raise
        return trees  # type: ignore[return-value]

    return walk_all


def _split_walk(strategy: OneStepStrategy, space: CodeSpace, state: GameState,
                budget: int | None, on_part: Callable[[int, int], None] | None,
                parts: Callable[[list[GameState]], list[DecisionTree]] | None,
                record: SplitRecord | None) -> DecisionTree:
    """`split_tree`'s walk from `state` (its parts through `split_tree`, recorded)."""
    budget = table_budget() if budget is None else budget
    itemsize = np.dtype(space.alphabet.dtype).itemsize
    if state.count < space.size and space.size * state.count * itemsize <= budget:
        return strategy.tree(space, state)
    if state.count == 1:
        return strategy.tree(space, state)
    guesses = [c.guess.index for c in state.history]
    g = strategy.choose(space, state.candidates, guesses)
    resp = space.responses(g, state.candidates)
    answers = [int(r) for r in np.unique(resp)]
    depth = len(guesses) + 1
    guess, parent, response, depth_, size = [g], [-1], [-1], [depth], [state.count]
    children = {r: state.after(space.code(g), space.feedback(r)) for r in answers
                if r != space.win}
    solved = (dict(zip(children, parts(list(children.values())), strict=True))
              if parts is not None else {})
    for i, r in enumerate(answers):
        if r == space.win:
            sub = None
        elif parts is not None:
            sub = solved[r]
        else:
            sub = split_tree(strategy, space, children[r], budget=budget, record=record)
        if on_part is not None:
            on_part(i + 1, len(answers))
        if sub is None:
            continue
        offset = len(guess)
        guess.extend(sub.guess.tolist())
        parent.extend([0] + [p + offset for p in sub.parent[1:].tolist()])
        response.extend([r] + sub.response[1:].tolist())
        depth_.extend(sub.depth.tolist())
        size.extend(sub.size.tolist())
    return DecisionTree(space.rules, strategy.label, np.array(guess, dtype=np.int32),
                        np.array(parent, dtype=np.int32), np.array(response, dtype=np.int32),
                        np.array(depth_, dtype=np.int32), np.array(size, dtype=np.int32))
