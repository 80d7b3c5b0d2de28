"""A guess and bounds on the optimum from the candidates alone, for positions the exact
search cannot take on: a game too big for any table of its answers (MM(8,8)'s 16.8 million
codes), or a search out of its time.

The bound is a tree that plays candidates only, each node's candidate making the most
parts (the first in code order of those); its total is what the optimum cannot exceed.
The lower bound holds for any guesses: every code of a part of n codes takes a guess and
all but one take two (2n - 1), so a guess that wins a code and makes k other parts costs at
least 3m - 2 - k, any other 3m - k (2m - 1 when a candidate tells every code apart, else at
least 2m); with at most R answers no tree does better than the search's counting bound
(`_kernels.optimal.bound_tables`). The most parts a code that is no candidate makes come
from one pass over the codes (where affordable: `SCAN_WORK`), and the first code making
them roots a second tree (a code telling every candidate apart: 2m, the optimum when no
candidate wins one and tells the rest apart). When a tree's total meets the lower bound its
first guess is optimal: always so for sets of up to two codes, and for most of the sets
of a few dozen codes at the end of a game. For a search that cannot run or finish (a hint's
second), one more pass where affordable (`probe_pass`): every code's parts, each bounded by
the counting bound, bound the trees starting with it, the least of them all trees; the
codes of the least bounds root trees of their own (candidates below them).
Totals count from the position: every code's next guess included, the guesses played not.
Reads the answers among the candidates only (m x m), never a table of the game (and the
codes themselves for the one pass).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from .._kernels import feedback as kfb
from .._kernels import optimal as k_opt
from ..limits import ENDGAME_MAX_CODES
from ..space import CodeSpace


@dataclass(frozen=True)
class CandidateBounds:
    """`guess` (a code index) starts a tree of `total` guesses in all over the candidates;
    no tree takes fewer than `lower`; `exact` when the two meet (`guess` is optimal)."""

    guess: int
    total: int
    lower: int

    @property
    def exact(self) -> bool:
        return self.total == self.lower


def candidate_bounds(space: CodeSpace, candidates: np.ndarray, *,
                     every_code: bool = False) -> CandidateBounds:
    """Return the candidate-only tree's first guess and total, and the lower bound (see
    the module), for a set of at most `ENDGAME_MAX_CODES` candidates. `every_code` also
    bounds each code of the game as the first guess, where affordable (`probe_pass`): for
    a search that cannot run or finish in time (a guess as good, proven no better, is not
    then always the one the search would choose)."""
    S = np.unique(np.asarray(candidates, dtype=np.int64)).astype(np.int32)
    m = int(S.size)
    if m == 0 or m > ENDGAME_MAX_CODES:
        raise ValueError(f"candidate_bounds takes 1 to {ENDGAME_MAX_CODES} candidates, not {m}.")
    answers = space.block(S, S)  # answers[i, j]: candidate i played against candidate j
    win, R = space.win, space.n_responses
    total, first = _tree_total(answers, np.arange(m), win)
    guess = int(S[first])
    # A candidate making k parts besides its win costs at least 3m - 2 - k, any other code
    # 3m - k (each part of n codes at least 2n - 1), and no code makes more than m parts,
    # nor a code that is no candidate more than R - 1. With kc the most a candidate makes,
    # only a code of kc + 2 parts or more can cost as little as the candidates: where
    # affordable, one pass over the codes finds the most any makes from there, and the
    # first making as many, whose own tree (candidates below it) may beat the candidates'
    # (a code telling every candidate apart: 2m). (From R candidates on, no code makes
    # more than R - 1 parts and the pass is not needed.)
    kc = int(_parts(answers).max()) - 1
    counted = int(k_opt.bound_tables(m, R, False)[0][R, m])

    def lower(other: int) -> int:  # (other: the most parts a code that is no candidate makes)
        return max(counted, min(3 * m - 2 - kc, 3 * m - other))

    low = lower(min(m, R - 1))
    floor = kc + 2
    if total > low and m < R and space.size * (m - floor + 4) <= SCAN_WORK:
        k, g = most_parts(space, S, floor)
        low = lower(k if k >= 0 else floor - 1)
        if k >= 0:
            row = space.responses(g, S)
            own = m + sum(_tree_total(answers, np.flatnonzero(row == a), win)[0]
                          for a in np.unique(row))
            if own < total:  # (a candidate first when as cheap, as the search does)
                total, guess = own, g
    if every_code and total > low and space.size * m <= PROBE_WORK:
        lowest, g, own = probe_pass(space, S, answers)
        low = max(low, lowest)
        if own < total:
            total, guess = own, g
    return CandidateBounds(guess, total, low)


#: The most answers `probe_pass` may compute (every code against every candidate): a
#: third of a second on two cores for 600 of MM(6,9)'s candidates (`benchmarks/run.py
#: slowhints`). Far slower per answer in a game of millions of codes (each code's own
#: work, and a table of shared pegs out of cache: MM(8,8)'s 16.8 million codes took 0.7 s
#: against 3 candidates), where the optimal strategy does not ask for it.
PROBE_WORK = 320_000_000

#: The most answers (candidates x codes) of a view (`space.CandidateView`) on which the
#: optimal hint's search runs without `probe_pass` first. Past it the view and its columns
#: take most of the hint's second, and the search finds its first guess at about a second
#: if at all: at MM(6,9)'s 213 candidates (113 million answers) it did in some runs and not
#: in others, at 551 (293 million) never, where the pass takes 0.15 and 0.3 s (ad-hoc runs,
#: 2026-12-06). Below it the search keeps the whole second: at 127 and 132 candidates (68
#: and 70 million) it proves the optimum or finds a first guess about as good as the pass's
#: in most runs (`benchmarks/run.py slowhints`), and Codebreaker 4-6 (100,000 codes x at
#: most 600 candidates) answer within a third of a second (`bighints`).
PROBES_FIRST_WORK = 100_000_000

#: How many times `probe_pass`'s time a search's view (`space.CandidateView`) of the same
#: answers takes at least to build, with its columns: where the time a hint's search would
#: have left is shorter, it is not started (MM(6,9)'s 551 candidates: the pass 0.3 s, the
#: view and its columns 1.4-2 s on a process's first such view; 213 candidates: 0.15 s
#: against about 0.5 s; ad-hoc runs, 2026-12-06).
VIEW_PER_PASS = 3

#: The codes of the least bounds whose trees (candidates below them) `probe_pass` writes
#: out: about 3 ms each for MM(6,9)'s 551-candidate position of `slowhints`.
PROBE_TREES = 32

#: `among_probes`: how many codes (drawn at random past that many) are bounded as the first
#: guess, and how many of the least bounds are kept. In eight MM(8,8) positions of 28 to
#: 521 candidates (ad-hoc runs, 2026-12-06) the search among the candidates alone already
#: cut the candidates' tree by 0 to 3.5 % (126 -> 123 guesses at 41 candidates, 1,683 ->
#: 1,629 at 481); 150, 500 or 1,500 codes kept from 100,000 added up to 4 guesses more
#: (96 candidates: 283 -> 279), 200 of 30,000 less; the pass over 100,000 codes takes
#: 0.05-0.2 s there.
AMONG_SAMPLE = 100_000
AMONG_PROBES = 200


def among_probes(space: CodeSpace, S: np.ndarray) -> np.ndarray:
    """Return the codes that, with the candidates S, are the guesses of the search among
    them (`search.solve_among`): the `AMONG_PROBES` least bounded as the first guess
    (`probe_pass`'s bound, least first, code order among equals) of the space's codes, or
    of `AMONG_SAMPLE` of them drawn at random in a bigger game, the draw seeded by S, so
    that a position always gets the same ones. Reads those codes and S's only."""
    S = np.asarray(S, dtype=np.int64)
    if space.size <= AMONG_SAMPLE:
        drawn = np.arange(space.size, dtype=np.int64)
        bounds = _first_guess_bounds(space, S)
    else:
        seed = int.from_bytes(hashlib.blake2b(np.sort(S).tobytes(), digest_size=8).digest(),
                              "little")
        drawn = np.sort(np.random.default_rng(seed).choice(space.size, AMONG_SAMPLE,
                                                           replace=False))
        bounds = _first_guess_bounds(space, S, drawn)
    return drawn[np.argsort(bounds, kind="stable")[:AMONG_PROBES]]


def _first_guess_bounds(space: CodeSpace, S: np.ndarray,
                        codes: np.ndarray | None = None) -> np.ndarray:
    """Return `probe_pass`'s bound on the trees over S starting with each of `codes`
    (indices; every code of the space by default), reading those codes and S's only."""
    S = np.asarray(S, dtype=np.int64)
    R = space.n_responses
    part_least = np.ascontiguousarray(k_opt.bound_tables(int(S.size), R, False)[0][R])
    pegs = space.rules.pegs
    positional = space.rules.feedback == "positional"
    keys = 3 ** pegs if positional else (pegs + 1) ** 2
    if codes is None:
        return kfb.probe_bounds(space.codes, space.counts, space.multiset, space.common,
                                space.packed, positional, S, keys, part_least, 1 << 12)
    at = np.concatenate([codes, S])  # the codes read, the candidates last
    return kfb.probe_bounds(np.ascontiguousarray(space.codes[at]), space.counts[at],
                            space.multiset[at], space.common, space.packed[at], positional,
                            np.arange(codes.size, at.size, dtype=np.int64), keys,
                            part_least, 1 << 12)[:codes.size]


def probe_pass(space: CodeSpace, S: np.ndarray,
               answers: np.ndarray | None = None) -> tuple[int, int, int]:
    """Return (a lower bound on any tree over the candidates S, a code, the total of its
    tree): one pass over every code g of the game cuts S by g's answers, and no tree
    starting with g takes fewer than m + the least total of each part of n codes other than
    g's own win (`bound_tables`' counting bound, at least 2n - 1), so none at all fewer
    than the least of those. The `PROBE_TREES` codes of the least bounds (in code order
    among equals) then root a tree each, candidates below them (the module's tree): the
    code is the first of the cheapest. `answers`: S's answers among themselves, if known."""
    S = np.asarray(S, dtype=np.int32)
    m = int(S.size)
    if answers is None:
        answers = space.block(S, S)
    win = space.win
    bounds = _first_guess_bounds(space, S)
    where = {int(c): i for i, c in enumerate(S)}
    best_total, best_code = -1, -1
    for g in np.argsort(bounds, kind="stable")[:PROBE_TREES]:
        g = int(g)
        if best_total >= 0 and bounds[g] >= best_total:
            break  # no tree from here on can be cheaper
        row = (answers[where[g]] if g in where else space.responses(g, S))
        total = m + sum(_tree_total(answers, np.flatnonzero(row == a), win)[0]
                        for a in np.unique(row) if a != win)
        if best_total < 0 or total < best_total:
            best_total, best_code = total, g
    return int(bounds.min()), best_code, best_total


#: The most answers `candidate_bounds` may compute in its pass over the codes, counted as
#: the codes times the answers read per code before most are dropped (about m - kc + 2):
#: half a second at most on two cores for MM(8,8) (`benchmarks/run.py endgame`).
SCAN_WORK = 200_000_000


def most_parts(space: CodeSpace, S: np.ndarray, floor: int) -> tuple[int, int]:
    """Return the most different answers (at least `floor`) any code outside S gets from
    the codes of S, and the first code (in code order) getting as many; (-1, -1) when none
    gets `floor`."""
    skip = np.zeros(space.size, dtype=np.bool_)
    skip[S] = True
    pegs = space.rules.pegs
    positional = space.rules.feedback == "positional"
    keys = 3 ** pegs if positional else (pegs + 1) ** 2
    k, g = kfb.most_parts(space.codes, space.counts, space.multiset, space.common,
                          space.packed, positional, np.asarray(S, dtype=np.int64), skip, keys,
                          floor, 1 << 16)
    return int(k), int(g)


def separator(space: CodeSpace, S: np.ndarray) -> int:
    """Return the first code (in code order) outside S whose answers to the codes of S are
    all different, or -1."""
    return most_parts(space, S, len(S))[1]


def _parts(block: np.ndarray) -> np.ndarray:
    """Return how many distinct answers each row of `block` holds."""
    rows = np.sort(block, axis=1)
    return 1 + (np.diff(rows, axis=1) != 0).sum(axis=1)


def _tree_total(answers: np.ndarray, idx: np.ndarray, win: int) -> tuple[int, int]:
    """Return (total, the local index of its first guess) of the candidate-only tree over
    the candidates `idx` (local indices into `answers`, in code order)."""
    n = int(idx.size)
    if n <= 2:  # one code: one guess; two: the first, then the other if it was not
        return 2 * n - 1, int(idx[0])
    block = answers[np.ix_(idx, idx)]
    best = int(np.argmax(_parts(block)))  # (the first of the most parts)
    row = block[best]
    total = n
    for answer in np.unique(row):
        if answer != win:
            total += _tree_total(answers, idx[row == answer], win)[0]
    return total, int(idx[best])
