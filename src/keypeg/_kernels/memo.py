"""The memo of the optimal search: exact values and lower bounds per candidate set.

Entries live in flat arrays: `mheads` (hash buckets), `ment` (one row per entry: next in
chain, offset and length of the set in `mpool`, guesses left, value, best guess or -1 for
a lower bound, hash) and `mpool` (the sets, sorted code indices). A lookup compares the
whole set, so a hash collision cannot change a result. When full, the memo starts over.
"""

from __future__ import annotations

import numpy as np

from ._config import jit

# memo entry columns
M_NEXT, M_OFF, M_LEN, M_DEPTH, M_VAL, M_GUESS, M_HASH = range(7)
M_COLS = 7
# mmeta slots
MM_ENTRIES, MM_POOL = 0, 1
#: stats slot counting resets (shared with the search's counters)
S_MEMO_RESETS = 9


@jit
def _hash(S, depth):  # pragma: no cover - compiled
    h = np.uint64(1469598103934665603) ^ np.uint64(depth)
    for i in range(S.shape[0]):
        h ^= np.uint64(S[i]) + np.uint64(0x9E3779B97F4A7C15)
        h *= np.uint64(1099511628211)
        h ^= h >> np.uint64(29)
    return h


@jit
def memo_find(S, depth, mheads, ment, mpool):  # pragma: no cover - compiled
    """Return the entry for set S with `depth` guesses left, or -1."""
    h = _hash(S, depth)
    e = mheads[np.int64(h & np.uint64(mheads.shape[0] - 1))]
    m = S.shape[0]
    while e >= 0:
        if ment[e, M_HASH] == np.int64(h) and ment[e, M_LEN] == m and ment[e, M_DEPTH] == depth:
            off = ment[e, M_OFF]
            same = True
            for i in range(m):
                if mpool[off + i] != S[i]:
                    same = False
                    break
            if same:
                return e
        e = ment[e, M_NEXT]
    return -1


@jit
def memo_store(S, depth, value, guess, mheads, ment, mpool, mmeta, stats):  # pragma: no cover
    """Record an exact value (guess >= 0) or a lower bound (guess = -1) for S."""
    e = memo_find(S, depth, mheads, ment, mpool)
    if e >= 0:
        if ment[e, M_GUESS] >= 0:
            return
        if guess >= 0 or value > ment[e, M_VAL]:
            ment[e, M_VAL] = value
            ment[e, M_GUESS] = guess
        return
    m = S.shape[0]
    if mmeta[MM_ENTRIES] >= ment.shape[0] or mmeta[MM_POOL] + m > mpool.shape[0]:
        mheads[:] = -1  # full: start over (the memo is only a cache)
        mmeta[MM_ENTRIES] = 0
        mmeta[MM_POOL] = 0
        stats[S_MEMO_RESETS] += 1
    e = mmeta[MM_ENTRIES]
    mmeta[MM_ENTRIES] += 1
    off = mmeta[MM_POOL]
    mmeta[MM_POOL] += m
    mpool[off:off + m] = S
    h = _hash(S, depth)
    b = np.int64(h & np.uint64(mheads.shape[0] - 1))
    ment[e, M_NEXT] = mheads[b]
    ment[e, M_OFF] = off
    ment[e, M_LEN] = m
    ment[e, M_DEPTH] = depth
    ment[e, M_VAL] = value
    ment[e, M_GUESS] = guess
    ment[e, M_HASH] = np.int64(h)
    mheads[b] = e


@jit
def lookup_guess(S, depth, mheads, ment, mpool):  # pragma: no cover - compiled
    """Return (value, guess) of the exact memo entry for S, or (-1, -1)."""
    e = memo_find(S, depth, mheads, ment, mpool)
    if e >= 0 and ment[e, M_GUESS] >= 0:
        return ment[e, M_VAL], ment[e, M_GUESS]
    return np.int64(-1), np.int64(-1)
