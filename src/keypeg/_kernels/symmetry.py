"""Colour classes shared by the one-step and optimal searches."""

from __future__ import annotations

import numpy as np

from ._config import jit


@jit
def colour_classes(colmask, codes, played, nsym):  # pragma: no cover - compiled
    """Return (is_free, is_zero, free_list, n_free, zero_list, n_zero) for the candidate
    codes `codes`: zero colours are absent from every candidate, free colours were never
    played (and are present in some candidate); the lists are ascending. Any permutation of
    the free colours fixes the history, and zero colours act alike in every probe."""
    is_free = np.zeros(nsym, dtype=np.bool_)
    is_zero = np.zeros(nsym, dtype=np.bool_)
    free_list = np.zeros(nsym, dtype=np.int64)
    zero_list = np.zeros(nsym, dtype=np.int64)
    n_free = 0
    n_zero = 0
    present = np.uint64(0)
    for j in range(codes.shape[0]):
        present |= colmask[codes[j]]
    for c in range(nsym):
        bit = np.uint64(1) << np.uint64(c)
        if not (present & bit):
            is_zero[c] = True
            zero_list[n_zero] = c
            n_zero += 1
        elif not (played & bit):
            is_free[c] = True
            free_list[n_free] = c
            n_free += 1
    return is_free, is_zero, free_list, n_free, zero_list, n_zero
