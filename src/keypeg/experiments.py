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

import numpy as np

from ._kernels import partition as kpart
from .errors import KeypegError

SCORES = ("maxmass", "expmass", "parts", "entropy", "information")
#: Scores within this much of the best count as ties.
TIE = 1e-12


def masses(outcomes: np.ndarray, prior: np.ndarray, n_outcomes: int | None = None
           ) -> np.ndarray:
    """Return ``m[e, r]``: the prior mass of the hypotheses whose outcome under experiment
    e is r (each row sums to the prior's total)."""
    outcomes = np.ascontiguousarray(outcomes)
    prior = np.ascontiguousarray(prior, dtype=np.float64)
    if outcomes.ndim != 2 or outcomes.shape[1] != prior.shape[0]:
        raise KeypegError(f"the outcome table needs one column per hypothesis "
                          f"({prior.shape[0]}), not shape {outcomes.shape}.")
    R = int(outcomes.max()) + 1 if n_outcomes is None else n_outcomes
    out = np.zeros((outcomes.shape[0], R), dtype=np.float64)
    kpart.masses(outcomes, prior, out)
    return out


def _entropy_rows(p: np.ndarray) -> np.ndarray:
    """Return each row's entropy in bits."""
    out = np.empty(p.shape[0], dtype=np.float64)
    kpart.row_entropy(np.ascontiguousarray(p, dtype=np.float64), out)
    return out


def scores(outcomes: np.ndarray, prior: np.ndarray, score: str = "information", *,
           likelihood: np.ndarray | None = None, n_outcomes: int | None = None
           ) -> np.ndarray:
    """Return each experiment's score (higher is better; see the module docstring).
    `prior` need not be normalised. Raises `KeypegError` for an unknown score."""
    return score_masses(_masses(outcomes, prior, likelihood, n_outcomes), score,
                        likelihood=likelihood)


def _masses(outcomes: np.ndarray, prior: np.ndarray, likelihood: np.ndarray | None,
            n_outcomes: int | None) -> np.ndarray:
    total = float(np.sum(prior))
    if not total > 0:
        raise KeypegError("the prior gives every hypothesis weight 0.")
    R = likelihood.shape[0] if likelihood is not None else n_outcomes
    return masses(outcomes, np.asarray(prior, dtype=np.float64) / total, R)


def score_masses(m: np.ndarray, score: str, *, likelihood: np.ndarray | None = None
                 ) -> np.ndarray:
    """Return the scores of experiments whose part masses are `m` (see `masses`)."""
    if score not in SCORES:
        raise KeypegError(f"unknown score {score!r}; choose one of: {', '.join(SCORES)}.")
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
    return best(score_masses(m, score, likelihood=likelihood),
                None if win is None else m[:, win])
