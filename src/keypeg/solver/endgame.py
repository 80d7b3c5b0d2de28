"""A guess and bounds on the optimum from the candidates alone, for positions the exact
search cannot take on: a game too big for any table of its answers (MM(8,8)'s 16.8 million
codes), or a search out of its time.

The bound is a tree that plays candidates only, each node's candidate making the most
parts (the first in code order of those); its total is what the optimum cannot exceed.
The lower bound holds for any guesses: every code of a set of m takes a guess, and all but
the one a guess wins take at least two (2m - 1); when no candidate tells every code apart,
a candidate leaves a part of two or more and any other code wins none, so at least 2m; and
with at most R answers no tree does better than the search's counting bound
(`_kernels.optimal.bound_tables`). A guess that wins a code and makes k other parts costs
at least 3m - 2 - k, any other 3m - k: so when no candidate leaves a single pair (the tree
would cost 2m) the optimum is 2m where a code tells every candidate apart (one pass over
the codes finds the first) and at least 2m + 1 where none does. When the tree's total
meets the lower bound its first guess is optimal: always so for sets of up to two codes,
and for most of the small sets at the end of a game.
Totals count from the position: every code's next guess included, the guesses played not.
Reads the answers among the candidates only (m x m), never a table of the game (and the
codes themselves for the one pass).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels import feedback as kfb
from .._kernels import optimal as k
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
    win = space.win
    total, first = _tree_total(answers, np.arange(m), win)
    lower = lower_bound(space, answers)
    if total > 2 * m >= lower:
        # No candidate costs 2m (the tree takes one that leaves a single pair when there is
        # one): a code telling every candidate apart costs 2m and is optimal, the first in
        # code order as the search would take it; without one nothing costs under 2m + 1.
        if m < space.n_responses:  # (else no code can tell them apart)
            if space.size > SEPARATOR_SCAN_CODES:
                return CandidateBounds(int(S[first]), total, lower)
            apart = separator(space, S)
            if apart >= 0:
                return CandidateBounds(apart, 2 * m, 2 * m)
        lower = 2 * m + 1
    return CandidateBounds(int(S[first]), total, lower)


#: The most codes `candidate_bounds` reads, one pass, for a code telling every candidate
#: apart (MM(8,8)'s 16.8 million codes are read in a fraction of a second: most are dropped
#: after a few candidates).
SEPARATOR_SCAN_CODES = 1 << 25


def separator(space: CodeSpace, S: np.ndarray) -> int:
    """Return the first code (in code order) outside S whose answers to the codes of S are
    all different, or -1."""
    skip = np.zeros(space.size, dtype=np.bool_)
    skip[S] = True
    pegs = space.rules.pegs
    positional = space.rules.feedback == "positional"
    keys = 3 ** pegs if positional else (pegs + 1) ** 2
    return int(kfb.first_separator(space.codes, space.counts, space.multiset, space.common,
                                   space.packed, positional, np.asarray(S, dtype=np.int64),
                                   skip, keys, 1 << 16))


def lower_bound(space: CodeSpace, answers: np.ndarray) -> int:
    """The least total any tree can have over m candidates whose answers among themselves
    are `answers` (m x m): the closed form (2m - 1, or 2m when no candidate tells every code
    apart) or the counting bound with at most R parts, whichever is higher."""
    m = answers.shape[0]
    if m <= 2:
        return 2 * m - 1
    ltab, _ = k.bound_tables(m, space.n_responses, False)
    R = min(space.n_responses, ltab.shape[0] - 1)
    separates = bool((_parts(answers) == m).any())
    return max(int(ltab[R, m]), 2 * m - 1 if separates else 2 * m)


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
