"""One memo entry for all permuted copies of a small set.

Renaming colours and permuting positions (in every code at once) maps a candidate set S
onto a set sigma(S) that costs the same: sigma maps every probe's partition of S onto the
partition of sigma(S) by sigma(probe), part for part. So the memo may key a set by one
chosen image of it, `canonical_set`: the optimal search looks a set up under that image
too, and stores what it proved under both keys.

The image: positions are put in the order of an invariant no renaming changes (a function
of each position's colour counts); for each position order of the group that agrees with it, colours
are ranked by their counts per position in that order (ties by colour number), the codes
are encoded under that (position order, colour ranking) and sorted, and the least list
wins. Two sets share the image only when one is a permuted copy of the other (the image is
always some sigma(S)); ties between colours with equal counts make some copies get
different images, which only costs memo hits.
"""

from __future__ import annotations

import numpy as np

from ._config import jit

#: Sets of at most this many codes are looked up by their image (bigger sets are rarely
#: permuted copies of one another, and the image costs O(m log m) per position order).
CANON_MAX = 200
#: Bigger sets are sorted by numpy's sort, smaller ones by insertion.
SORT_FROM = 48
#: Added to the memo's guesses-left key of an image's entry, so an image's entries (whose
#: guesses may differ from what the search would choose for that very set) never answer a
#: plain lookup, and the tree is rebuilt from plain entries only.
CANON_TAG = 1 << 20


@jit
def canonical_set(S, codes, perms, code_at, nsym):  # pragma: no cover - compiled
    """Return (key, pe, phi): the image of S (code indices, int32) under position permutation
    ``perms[pe]`` and colour map phi, where the image of code x has ``phi[x[perms[pe][i]]]`` at
    position i.

    The position invariant is the sums of squares and cubes of a position's colour counts
    (a function of their multiset, so no renaming changes it); sorting is by insertion
    (a few dozen keys), and indices are unsigned (no negative-index tests)."""
    m = S.shape[0]
    p = codes.shape[1]
    # one scratch array (allocations cost reference counts): rows 0..p-1 the colour counts
    # per position, then the invariants, classes, wanted classes, colour signatures and
    # order, and the colour map being tried
    width = max(p, nsym)
    INV, CLS, WANT, SIG, ORDER, PHI = p, p + 1, p + 2, p + 3, p + 4, p + 5
    w = np.zeros((p + 6, width), dtype=np.int64)
    for i in range(m):
        x = np.uint64(S[i])
        for j in range(p):
            w[j, np.uint64(codes[x, j])] += 1
    for j in range(p):
        sq = np.int64(0)
        cu = np.int64(0)
        for c in range(nsym):
            n = w[j, c]
            sq += n * n
            cu += n * n * n
        w[INV, j] = sq * (np.int64(1) << np.int64(32)) + cu
    # the position orders of the group that list the invariants largest first (the least
    # sequence of classes any order gives, where the group has fewer orders than all)
    for a in range(p):
        for b in range(p):
            if w[INV, b] > w[INV, a]:
                w[CLS, a] += 1
    # (perms[pe, i] read in place: a row view would cost two atomic reference counts)
    for pe in range(perms.shape[0]):
        less = pe == 0
        for i in range(p):
            if w[CLS, perms[pe, i]] != w[WANT, i]:
                less = less or w[CLS, perms[pe, i]] < w[WANT, i]
                break
        if less:
            for i in range(p):
                w[WANT, i] = w[CLS, perms[pe, i]]
    keys = np.empty((2, m), dtype=np.int64)  # the best encoding so far, the one tried
    best_pe = -1
    best_phi = np.empty(nsym, dtype=np.int64)
    for pe in range(perms.shape[0]):
        ok = True
        for i in range(p):
            if w[CLS, perms[pe, i]] != w[WANT, i]:
                ok = False
                break
        if not ok:
            continue
        # colours ranked by their counts at the positions in this order, most first
        for c in range(nsym):
            v = np.int64(0)
            for i in range(p):
                v = v * (m + 1) + w[perms[pe, i], c]
            w[SIG, c] = v
            w[ORDER, c] = c
        for a in range(1, nsym):  # insertion sort: larger signature first, stable
            c = w[ORDER, a]
            b = a - 1
            while b >= 0 and w[SIG, w[ORDER, b]] < w[SIG, c]:
                w[ORDER, b + 1] = w[ORDER, b]
                b -= 1
            w[ORDER, b + 1] = c
        for r in range(nsym):
            w[PHI, w[ORDER, r]] = r
        for t in range(m):
            x = np.uint64(S[t])
            key = np.int64(0)
            for i in range(p):
                key = key * nsym + w[PHI, np.uint64(codes[x, np.uint64(perms[pe, i])])]
            if m > SORT_FROM:
                keys[1, t] = key
                continue
            # insertion into the sorted prefix
            b = t - 1
            while b >= 0 and keys[1, b] > key:
                keys[1, b + 1] = keys[1, b]
                b -= 1
            keys[1, b + 1] = key
        if m > SORT_FROM:
            keys[1].sort()
        better = best_pe < 0
        if not better:
            for t in range(m):
                if keys[1, t] != keys[0, t]:
                    better = keys[1, t] < keys[0, t]
                    break
        if better:
            for t in range(m):
                keys[0, t] = keys[1, t]
            best_pe = pe
            for c in range(nsym):
                best_phi[c] = w[PHI, c]
    out = np.empty(m, dtype=np.int32)
    for t in range(m):
        out[t] = code_at[np.uint64(keys[0, t])]
    return out, best_pe, best_phi


@jit
def image_of(x, pi, phi, codes, code_at, nsym):  # pragma: no cover - compiled
    """Return the index of code x's image (``phi[x[pi[i]]]`` at position i)."""
    key = np.int64(0)
    for i in range(codes.shape[1]):
        key = key * nsym + phi[codes[x, pi[i]]]
    return np.int64(code_at[key])


def code_lookup(codes: np.ndarray, nsym: int) -> np.ndarray:
    """Return ``code_at``: the index of each code by its base-`nsym` key (-1: no such code)."""
    p = codes.shape[1]
    keys = np.zeros(codes.shape[0], dtype=np.int64)
    for i in range(p):
        keys = keys * nsym + codes[:, i].astype(np.int64)
    code_at = np.full(nsym**p, -1, dtype=np.int32)
    code_at[keys] = np.arange(codes.shape[0], dtype=np.int32)
    return code_at
