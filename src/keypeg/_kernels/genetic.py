"""Kernels of the genetic algorithm (keypeg.genetic): answers between codes given as rows
of symbols (no code space, no table: the algorithm works where neither fits), and the
fitness of a population against the game's history.

The raw key of an answer is the one of `feedback.py`: ``black*(pegs+1)+white`` for
black/white, the marks as a base-3 number for positional answers (gray 0, amber 1,
green 2; ambers allotted left to right, one unmatched copy of the symbol each).
"""

from __future__ import annotations

import numpy as np

from ._config import jit


@jit
def answer_key(secret, guess, nsym, positional):  # pragma: no cover - compiled
    """Return the raw answer key of `guess` against `secret` (1-d symbol rows)."""
    p = secret.shape[0]
    if not positional:
        black = 0
        cs = np.zeros(nsym, dtype=np.int64)
        cg = np.zeros(nsym, dtype=np.int64)
        for k in range(p):
            if secret[k] == guess[k]:
                black += 1
            cs[secret[k]] += 1
            cg[guess[k]] += 1
        shared = 0
        for c in range(nsym):
            shared += cs[c] if cs[c] < cg[c] else cg[c]
        return black * (p + 1) + (shared - black)
    green = np.zeros(p, dtype=np.bool_)
    taken = np.zeros(p, dtype=np.bool_)
    for k in range(p):
        if secret[k] == guess[k]:
            green[k] = True
            taken[k] = True
    key = 0
    for k in range(p):
        key *= 3
        if green[k]:
            key += 2
        else:
            for j in range(p):
                if not taken[j] and secret[j] == guess[k]:
                    taken[j] = True
                    key += 1
                    break
    return key


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
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        total = 0
        for t in range(guesses.shape[0]):
            k = answer_key(population[i], guesses[t], nsym, positional)
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
    for g in range(n):
        parts[:] = 0
        for s in range(n):
            parts[answer_key(codes[s], codes[g], nsym, positional)] += 1
        total = 0
        for k in range(size):
            total += parts[k] * parts[k]
        out[g] = total
    return out
