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
of a few dozen codes at the end of a game.
Totals count from the position: every code's next guess included, the guesses played not.
Reads the answers among the candidates only (m x m), never a table of the game (and the
codes themselves for the one pass).
"""

from __future__ import annotations

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


def candidate_bounds(space: CodeSpace, candidates: np.ndarray) -> CandidateBounds:
    """Return the candidate-only tree's first guess and total, and the lower bound (see
    the module), for a set of at most `ENDGAME_MAX_CODES` candidates."""
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
    return CandidateBounds(guess, total, low)


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
