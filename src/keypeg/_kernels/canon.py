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
CANON_MAX = 40
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
    cnt = np.zeros((p, nsym), dtype=np.int64)
    for i in range(m):
        x = np.uint64(S[i])
        for j in range(p):
            cnt[j, np.uint64(codes[x, j])] += 1
    inv = np.zeros(p, dtype=np.int64)
    for j in range(p):
        sq = np.int64(0)
        cu = np.int64(0)
        for c in range(nsym):
            n = cnt[j, c]
            sq += n * n
            cu += n * n * n
        inv[j] = sq * (np.int64(1) << np.int64(32)) + cu
    # the position orders of the group that list the invariants largest first (the least
    # sequence of classes any order gives, where the group has fewer orders than all)
    cls = np.zeros(p, dtype=np.int64)
    for a in range(p):
        for b in range(p):
            if inv[b] > inv[a]:
                cls[a] += 1
    want = np.empty(p, dtype=np.int64)
    # (perms[pe, i] read in place: a row view would cost two atomic reference counts)
    for pe in range(perms.shape[0]):
        less = pe == 0
        for i in range(p):
            if cls[perms[pe, i]] != want[i]:
                less = less or cls[perms[pe, i]] < want[i]
                break
        if less:
            for i in range(p):
                want[i] = cls[perms[pe, i]]
    best = np.empty(m, dtype=np.int64)
    best_pe = -1
    best_phi = np.empty(nsym, dtype=np.int64)
    sig = np.empty(nsym, dtype=np.int64)
    order = np.empty(nsym, dtype=np.int64)
    phi = np.empty(nsym, dtype=np.int64)
    enc = np.empty(m, dtype=np.int64)
    for pe in range(perms.shape[0]):
        ok = True
        for i in range(p):
            if cls[perms[pe, i]] != want[i]:
                ok = False
                break
        if not ok:
            continue
        # colours ranked by their counts at the positions in this order, most first
        for c in range(nsym):
            v = np.int64(0)
            for i in range(p):
                v = v * (m + 1) + cnt[perms[pe, i], c]
            sig[c] = v
            order[c] = c
        for a in range(1, nsym):  # insertion sort: larger signature first, stable
            c = order[a]
            b = a - 1
            while b >= 0 and sig[order[b]] < sig[c]:
                order[b + 1] = order[b]
                b -= 1
            order[b + 1] = c
        for r in range(nsym):
            phi[order[r]] = r
        for t in range(m):
            x = np.uint64(S[t])
            key = np.int64(0)
            for i in range(p):
                key = key * nsym + phi[np.uint64(codes[x, np.uint64(perms[pe, i])])]
            # insertion into the sorted prefix
            b = t - 1
            while b >= 0 and enc[b] > key:
                enc[b + 1] = enc[b]
                b -= 1
            enc[b + 1] = key
        better = best_pe < 0
        if not better:
            for t in range(m):
                if enc[t] != best[t]:
                    better = enc[t] < best[t]
                    break
        if better:
            best[:] = enc
            best_pe = pe
            best_phi[:] = phi
    out = np.empty(m, dtype=np.int32)
    for t in range(m):
        out[t] = code_at[np.uint64(best[t])]
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
