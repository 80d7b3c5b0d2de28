"""Kernels of the genetic algorithm (keypeg.genetic): answers between codes given as rows
of symbols (no code space, no table: the algorithm works where neither fits), and the
fitness of a population against the game's history. Answers are scored by the feedback
kernels' own raw functions (`feedback.py`), so there is one definition of an answer."""

from __future__ import annotations

import numpy as np

from ._config import jit
from .feedback import _raw_positional_wide, raw_blackwhite_wide


@jit
def _counts(codes, nsym):  # pragma: no cover - compiled
    out = np.zeros((codes.shape[0], nsym), dtype=np.int64)
    for i in range(codes.shape[0]):
        for k in range(codes.shape[1]):
            out[i, codes[i, k]] += 1
    return out


@jit
def _key(codes, counts, g, s, positional):  # pragma: no cover - compiled
    """The raw answer key of row g played against row s, by the feedback kernels."""
    if positional:
        return _raw_positional_wide(codes, g, s)
    return raw_blackwhite_wide(codes, counts, g, s)


@jit
def answer_key(secret, guess, nsym, positional):  # pragma: no cover - compiled
    """Return the raw answer key of `guess` against `secret` (1-d symbol rows)."""
    codes = np.empty((2, secret.shape[0]), dtype=secret.dtype)
    codes[0] = guess
    codes[1] = secret
    return _key(codes, _counts(codes, nsym), 0, 1, positional)


@jit
def _distance(a, b, p, positional):  # pragma: no cover - compiled
    """How far answer key `a` is from `b`: |blacks - blacks'| + |whites - whites'|, or the
    number of positions whose marks differ."""
    if not positional:
        ba, wa = a // (p + 1), a % (p + 1)
        bb, wb = b // (p + 1), b % (p + 1)
        return abs(ba - bb) + abs(wa - wb)
    d = 0
    for _ in range(p):
        if a % 3 != b % 3:
            d += 1
        a //= 3
        b //= 3
    return d


@jit
def fitness(population, guesses, keys, nsym, positional):  # pragma: no cover - compiled
    """Return, per code of `population`, the summed distance between the answers each
    guess would get were it the secret and the answers given (0: consistent)."""
    n = population.shape[0]
    p = population.shape[1]
    rows = np.empty((n + guesses.shape[0], p), dtype=population.dtype)
    rows[:n] = population
    rows[n:] = guesses
    counts = _counts(rows, nsym)
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        total = 0
        for t in range(guesses.shape[0]):
            k = _key(rows, counts, n + t, i, positional)
            total += _distance(k, keys[t], p, positional)
        out[i] = total
    return out


@jit
def expected_sizes(codes, nsym, positional):  # pragma: no cover - compiled
    """Return, per code of `codes` played as a guess, the sum of the squared sizes of the
    parts it cuts `codes` into (Irving's expected size, times the set's size)."""
    n = codes.shape[0]
    p = codes.shape[1]
    size = (p + 1) * (p + 1) if not positional else 3 ** p
    out = np.zeros(n, dtype=np.int64)
    parts = np.zeros(size, dtype=np.int64)
    counts = _counts(codes, nsym)
    for g in range(n):
        parts[:] = 0
        for s in range(n):
            parts[_key(codes, counts, g, s, positional)] += 1
        total = 0
        for k in range(size):
            total += parts[k] * parts[k]
        out[g] = total
    return out
