"""Choosing experiments: one engine for codebreaking and for any other hypothesis search
(seed 003, sections 3, 7, 8 and 10).

The inputs are a hypothesis set with a prior, and a table of outcomes ``outcomes[e, h]``:
the answer experiment e gives when hypothesis h is true (0..R-1). Optionally, a noise
matrix ``likelihood[t, r]`` (the probability of observing r when the true outcome is t)
and the index of the outcome that means "found it" (`win`). A guess in Mastermind is an
experiment, a secret a hypothesis, the feedback an outcome; but the same functions choose
the next test that finds a faulty part, or the next question in a diagnosis.

Scores (every one "higher is better" in `scores`, so `choose` takes the maximum):

* ``maxmass``: minus the largest part's probability mass (weighted minimax);
* ``expmass``: minus the expected mass of the part that remains, sum of m_r^2;
* ``parts``: how many outcomes have non-zero mass;
* ``entropy``: the entropy H(R) of the observed answer (with noise: of the noisy answer);
* ``information``: the mutual information I(S;R) = H(R) - H(R|S), what the answer teaches
  about the hypothesis. Without noise H(R|S) = 0 and it equals ``entropy``; with noise
  they differ, since a noisy answer's variability is not information.

Ties (scores within 1e-12 of the best) go to the experiment most likely to win at once
(the mass of `win`, when given), then to the first experiment: the probability of winning
now is a tie-break only, not blended into the score.

Seed 003's example, eight equally likely secrets: guess A splits them 6 + 2, guess B into
four pairs; every score prefers B.

>>> import numpy as np
>>> outcomes = np.array([[0, 0, 0, 0, 0, 0, 1, 1], [0, 0, 1, 1, 2, 2, 3, 3]])
>>> [round(float(x), 3) for x in scores(outcomes, np.full(8, 1 / 8), "information")]
[0.811, 2.0]
>>> choose(outcomes, np.full(8, 1 / 8), "maxmass")
1
"""

from __future__ import annotations

import math
import operator

import numpy as np

from ._kernels import partition as kpart
from .errors import KeypegError
from .limits import shorten

SCORES = ("maxmass", "expmass", "parts", "entropy", "information")
#: Scores within this much of the best count as ties.
TIE = 1e-12


def masses(outcomes: np.ndarray, prior: np.ndarray, n_outcomes: int | None = None
           ) -> np.ndarray:
    """Return ``m[e, r]``: the prior mass of the hypotheses whose outcome under experiment
    e is r (each row sums to the prior's total). Raises `KeypegError` for a table or prior
    that does not fit (see `_checked_table` and `_checked_prior`)."""
    return _part_masses(outcomes, _checked_prior(prior, scaled=False), n_outcomes)


def _part_masses(outcomes: object, weights: np.ndarray, n_outcomes: int | None
                 ) -> np.ndarray:
    """`masses` for checked `weights` (see `_checked_prior`)."""
    table, R = _checked_table(outcomes, weights.shape[0], n_outcomes)
    out = np.zeros((table.shape[0], R), dtype=np.float64)
    kpart.masses(table, weights, out)
    return out


#: How far a row of a likelihood matrix may sum from 1 (rounding only).
ROW_SUM_TOLERANCE = 1e-9


def _whole(value: object, what: str) -> int:
    """Return `value` as an int when it is a whole number (not a bool, float or text)."""
    try:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise KeypegError(f"{what} must be a whole number, not {shorten(repr(value))}."
                          ) from None


def _checked_table(outcomes: object, n_hypotheses: int, n_outcomes: int | None
                   ) -> tuple[np.ndarray, int]:
    """Return the outcome table as a contiguous integer array and the number of outcomes
    R (`n_outcomes`, else the largest outcome + 1); raises `KeypegError` unless it is a 2-D
    table of whole numbers in 0..R-1 with one column per hypothesis."""
    table = np.ascontiguousarray(outcomes)
    if table.dtype == np.bool_:
        table = table.astype(np.uint8)
    if not np.issubdtype(table.dtype, np.integer):
        raise KeypegError(f"the outcome table must hold whole numbers (an integer array), "
                          f"not {table.dtype} values.")
    if table.ndim != 2 or table.shape[1] != n_hypotheses:
        raise KeypegError(f"the outcome table needs one row per experiment and one column "
                          f"per hypothesis ({n_hypotheses}), not shape {table.shape}.")
    if n_outcomes is not None:
        R = _whole(n_outcomes, "n_outcomes")
        if R < 1:
            raise KeypegError(f"n_outcomes must be at least 1, not {R}.")
    else:
        R = int(table.max()) + 1 if table.size else 1
    if table.size:
        high = int(table.max())
        low = 0 if np.issubdtype(table.dtype, np.unsignedinteger) else int(table.min())
        if low < 0 or high >= R:
            bad = low if low < 0 else high
            raise KeypegError(f"the outcome table holds outcome {bad}, outside 0..{R - 1} "
                              f"(the {R} outcome{'s' * (R != 1)} allowed).")
    return table, R


def _float_array(value: object, what: str, ndim: int, form: str, *,
                 empty: bool = True) -> np.ndarray:
    """Return `value` as a float64 array (a copy) of `ndim` dimensions, not empty unless
    `empty`; raises `KeypegError` (the `what` must be `form`) for anything else."""
    try:
        out = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise KeypegError(f"the {what} must be an array of numbers, not "
                          f"{shorten(repr(value))}.") from None
    if out.ndim != ndim or (not empty and 0 in out.shape):
        raise KeypegError(f"the {what} must be {form}, not shape {out.shape}.")
    return out


def _checked_prior(prior: object, *, scaled: bool = True) -> np.ndarray:
    """Return the prior as contiguous float64 weights, scaled to sum to 1 (`scaled`) or as
    given; raises `KeypegError` unless it is a 1-D array of finite weights >= 0 with a
    positive (and, unscaled, finite) sum."""
    w = _float_array(prior, "prior", 1, "a 1-D array with one weight per hypothesis")
    bad = np.flatnonzero(~np.isfinite(w) | (w < 0))
    if bad.size:
        i, x = int(bad[0]), float(w[bad[0]])
        raise KeypegError(f"the prior gives hypothesis {i} the weight {x!r}, which is "
                          + ("negative" if x < 0 else "not a finite number")
                          + "; weights must be finite numbers >= 0.")
    top = float(w.max()) if w.size else 0.0
    if not top > 0:
        raise KeypegError("the prior gives every hypothesis weight 0; at least one must "
                          "weigh more.")
    if not scaled:
        with np.errstate(over="ignore"):
            total = float(w.sum())
        if not math.isfinite(total):
            raise KeypegError("the prior's weights add up past the largest float; scale "
                              "them down (only their ratios matter).")
        return np.ascontiguousarray(w)
    w /= top  # (first: a sum of huge finite weights would overflow)
    return np.ascontiguousarray(w / w.sum())


def _checked_likelihood(likelihood: object) -> np.ndarray:
    """Return the noise matrix ``L[t, r]`` as float64; raises `KeypegError` unless it is a
    2-D array of finite probabilities >= 0 whose every row sums to 1."""
    lik = _float_array(likelihood, "likelihood", 2,
                       "a 2-D matrix L[t, r] with a row per true outcome", empty=False)
    if not (np.isfinite(lik).all() and (lik >= 0).all()):
        raise KeypegError("the likelihood holds a negative or non-finite entry; each must "
                          "be a probability from 0 to 1.")
    sums = lik.sum(axis=1)
    off = np.flatnonzero(np.abs(sums - 1) > ROW_SUM_TOLERANCE)
    if off.size:
        t = int(off[0])
        raise KeypegError(f"row {t} of the likelihood sums to {float(sums[t])!r}; each row L[t, :] "
                          f"is a distribution over what is observed and must sum to 1.")
    return lik


def _entropy_rows(p: np.ndarray) -> np.ndarray:
    """Return each row's entropy in bits."""
    out = np.empty(p.shape[0], dtype=np.float64)
    kpart.row_entropy(np.ascontiguousarray(p, dtype=np.float64), out)
    return out


def scores(outcomes: np.ndarray, prior: np.ndarray, score: str = "information", *,
           likelihood: np.ndarray | None = None, n_outcomes: int | None = None
           ) -> np.ndarray:
    """Return each experiment's score (higher is better; see the module docstring).
    `prior` need not be normalised. Raises `KeypegError` for an unknown score, or for an
    outcome table, prior or likelihood that does not fit: outcomes must be whole numbers
    from 0 to R - 1 (R: `n_outcomes`, the likelihood's rows, else the largest outcome + 1),
    one column per prior weight; weights finite and >= 0, not all 0; the likelihood's
    entries finite and >= 0, each row ``L[t, :]`` summing to 1."""
    return score_masses(_masses(outcomes, prior, likelihood, n_outcomes), score,
                        likelihood=likelihood)


def _masses(outcomes: np.ndarray, prior: np.ndarray, likelihood: np.ndarray | None,
            n_outcomes: int | None) -> np.ndarray:
    R = n_outcomes
    if likelihood is not None:
        rows = _checked_likelihood(likelihood).shape[0]
        if n_outcomes is not None and _whole(n_outcomes, "n_outcomes") != rows:
            raise KeypegError(f"n_outcomes ({n_outcomes}) must equal the likelihood's number "
                              f"of rows ({rows}), one per true outcome.")
        R = rows
    return _part_masses(outcomes, _checked_prior(prior), R)


def score_masses(m: np.ndarray, score: str, *, likelihood: np.ndarray | None = None
                 ) -> np.ndarray:
    """Return the scores of experiments whose part masses are `m` (see `masses`)."""
    if score not in SCORES:
        raise KeypegError(f"unknown score {shorten(repr(score))}; choose one of: "
                          f"{', '.join(SCORES)}.")
    m = _float_array(m, "part masses", 2, "a 2-D array m[e, r]")
    if not (np.isfinite(m).all() and (m >= 0).all()):
        raise KeypegError("the part masses hold a negative or non-finite mass; each must "
                          "be a finite number >= 0.")
    if likelihood is not None:
        likelihood = _checked_likelihood(likelihood)
        if likelihood.shape[0] != m.shape[1]:
            raise KeypegError(f"the likelihood needs one row per outcome ({m.shape[1]}), "
                              f"not {likelihood.shape[0]}.")
    if score == "maxmass":
        return -m.max(axis=1)
    if score == "expmass":
        return -(m * m).sum(axis=1)
    if score == "parts":
        return (m > 0).sum(axis=1).astype(np.float64)
    observed = m if likelihood is None else m @ likelihood
    h_r = _entropy_rows(observed)
    if score == "entropy" or likelihood is None:
        return h_r
    noise = _entropy_rows(likelihood)  # H(R | true outcome t), one per t
    return h_r - m @ noise


def best(s: np.ndarray, wins: np.ndarray | None = None) -> int:
    """Return the index of the best score `s`, ties (within `TIE`) to the largest `wins`
    (the probability of winning now), then to the first."""
    tied = np.flatnonzero(s >= s.max() - TIE * max(1.0, abs(float(s.max()))))
    if wins is None or tied.size == 1:
        return int(tied[0])
    return int(tied[int(np.argmax(wins[tied]))])


def choose(outcomes: np.ndarray, prior: np.ndarray, score: str = "information", *,
           likelihood: np.ndarray | None = None, win: int | None = None,
           n_outcomes: int | None = None) -> int:
    """Return the index of the best experiment by `score`, ties to the experiment most
    likely to win now (outcome `win`), then to the first."""
    m = _masses(outcomes, prior, likelihood, n_outcomes)
    if m.shape[0] == 0:
        raise KeypegError("the outcome table has no experiment to choose; give at least one "
                          "row.")
    if win is not None:
        win = _whole(win, "win")
        if not 0 <= win < m.shape[1]:
            raise KeypegError(f"win is outcome {win}, outside 0..{m.shape[1] - 1} (the "
                              f"outcomes allowed).")
    return best(score_masses(m, score, likelihood=likelihood),
                None if win is None else m[:, win])
