"""Part-size kernels: how a set of candidates splits under each of many probes."""

from __future__ import annotations

import numpy as np
from numba import prange

from ._config import jit_parallel
from .feedback import raw_blackwhite, raw_blackwhite_wide, raw_positional


@jit_parallel
def counts_table(table, probes, cands, out):  # pragma: no cover - compiled
    """out[i, r] = number of candidates answering r to probes[i] (out zeroed by caller)."""
    for i in prange(probes.shape[0]):
        g = probes[i]
        for j in range(cands.shape[0]):
            out[i, table[g, cands[j]]] += 1


@jit_parallel
def counts_blackwhite(codes, multiset, common, lut, probes, cands, out):  # pragma: no cover
    for i in prange(probes.shape[0]):
        g = probes[i]
        for j in range(cands.shape[0]):
            out[i, lut[raw_blackwhite(codes, multiset, common, g, cands[j])]] += 1


@jit_parallel
def counts_blackwhite_wide(codes, counts, lut, probes, cands, out):  # pragma: no cover
    for i in prange(probes.shape[0]):
        g = probes[i]
        for j in range(cands.shape[0]):
            out[i, lut[raw_blackwhite_wide(codes, counts, g, cands[j])]] += 1


@jit_parallel
def counts_positional(codes, packed, lut, probes, cands, out):  # pragma: no cover - compiled
    for i in prange(probes.shape[0]):
        g = probes[i]
        for j in range(cands.shape[0]):
            out[i, lut[raw_positional(codes, packed, g, cands[j])]] += 1


@jit_parallel
def masses(outcomes, weights, out):  # pragma: no cover - compiled
    """out[e, r] += the weight of every hypothesis h with outcomes[e, h] == r (out zeroed
    by the caller): the probability mass of each part, for each experiment."""
    for e in prange(outcomes.shape[0]):
        for h in range(outcomes.shape[1]):
            out[e, outcomes[e, h]] += weights[h]


@jit_parallel
def row_entropy(p, out):  # pragma: no cover - compiled
    """out[i] = the entropy in bits of row i of p (zeros skipped)."""
    for i in prange(p.shape[0]):
        h = 0.0
        for j in range(p.shape[1]):
            q = p[i, j]
            if q > 0.0:
                h -= q * np.log2(q)
        out[i] = h
