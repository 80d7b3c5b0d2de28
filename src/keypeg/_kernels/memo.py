"""The memo of the optimal search: exact values and lower bounds per candidate set.

Entries live in flat arrays: `mheads` (hash buckets), `ment` (one row per entry: next in
chain, offset and length of the set in `mpool`, guesses left, value, best guess or -1 for
a lower bound, hash) and `mpool` (the sets, sorted code indices). A lookup compares the
whole set, so a hash collision cannot change a result. When full, the memo starts over.

Another thread may read a memo while its own thread writes it (`peer_find`): a new entry is
written whole before its head is published (a release store), an exact value before its
guess, and a memo starting over makes MEMO_SEQ odd until it is done (a sequence lock), so
a reader finds a complete entry or ignores what it read.
"""

from __future__ import annotations

import numpy as np

from ._config import (
    fence,
    jit,
    jit_inline,
    load_acquire,
    load_acquire2,
    prefetch,
    store_release,
    store_release2,
)
from .slots import (
    ENTRY_COLUMNS,
    ENTRY_GUESS,
    ENTRY_GUESSES_LEFT,
    ENTRY_HASH,
    ENTRY_LENGTH,
    ENTRY_NEXT,
    ENTRY_OFFSET,
    ENTRY_VALUE,
    MEMO_SEQ,
    MEMO_USED_CODES,
    MEMO_USED_ENTRIES,
    N_MEMO_RESETS,
)

__all__ = ["ENTRY_COLUMNS", "lookup_guess", "memo_find", "memo_find_at", "memo_hash",
           "memo_merge", "memo_store", "memo_store_at", "peer_find", "rebuild",
           "settled_guess"]


@jit
def _hash(S, depth):  # pragma: no cover - compiled
    h = np.uint64(1469598103934665603) ^ np.uint64(depth)
    for i in range(S.shape[0]):
        h ^= np.uint64(S[i]) + np.uint64(0x9E3779B97F4A7C15)
        h *= np.uint64(1099511628211)
        h ^= h >> np.uint64(29)
    return h


@jit_inline
def memo_hash(S, depth):  # pragma: no cover - compiled
    """Return the hash `memo_find_at` and `memo_store_at` take for set S and `depth`."""
    return _hash(S, depth)


@jit_inline
def memo_prefetch(S, depth, mheads):  # pragma: no cover - compiled
    """Start loading the memo head that a lookup of S will read (the heads are far bigger
    than the caches: a lookup mostly waits for that load). S is hashed again by the lookup:
    a few operations per code, cheaper than keeping the hashes (measured net faster)."""
    prefetch(mheads, np.int64(_hash(S, depth) & np.uint64(mheads.shape[0] - 1)))


@jit
def memo_find(S, depth, mheads, ment, mpool):  # pragma: no cover - compiled
    """Return the entry for set S with `depth` guesses left, or -1."""
    return memo_find_at(S, depth, _hash(S, depth), mheads, ment, mpool)


@jit_inline
def _holds(S, depth, h, e, ment, mpool):  # pragma: no cover - compiled
    """Whether entry `e` is set S with `depth` guesses left (hash `h`). The set's offset is
    checked against the pool, so an entry a peer reads while its memo starts over is
    harmless (`peer_find`)."""
    m = S.shape[0]
    if (ment[e, ENTRY_HASH] != np.int64(h) or ment[e, ENTRY_LENGTH] != m
            or ment[e, ENTRY_GUESSES_LEFT] != depth):
        return False
    off = ment[e, ENTRY_OFFSET]
    if off < 0 or off + m > mpool.shape[0]:
        return False
    for i in range(m):
        if mpool[off + i] != S[i]:
            return False
    return True


@jit_inline
def memo_find_at(S, depth, h, mheads, ment, mpool):  # pragma: no cover - compiled
    """`memo_find` with S's hash `h` (`memo_hash`) computed once by the caller."""
    e = mheads[np.int64(h & np.uint64(mheads.shape[0] - 1))]
    while e >= 0:
        if _holds(S, depth, h, e, ment, mpool):
            return e
        e = ment[e, ENTRY_NEXT]
    return -1


#: The most entries of one chain a peer's lookup follows (chains are a few entries long; a
#: chain read while the memo starts over may be anything, even a loop).
_PEER_CHAIN = 64


@jit_inline
def peer_find(S, depth, h, pheads, pent, ppool, pmeta):  # pragma: no cover - compiled
    """Return (value, guess) for set S with `depth` guesses left (hash `h`) from the memo of
    another thread, which may be writing it meanwhile (see the module's docstring): guess >= 0
    for an exact value, -1 for a lower bound, -2 when it holds none (or was starting over).
    Every index read is checked, so an entry read while the memo starts over is harmless."""
    nh = pheads.shape[0]
    if nh == 0:
        return np.int64(0), np.int64(-2)
    seq = load_acquire(pmeta, MEMO_SEQ)
    if seq & 1:
        return np.int64(0), np.int64(-2)
    e = load_acquire(pheads, np.int64(h & np.uint64(nh - 1)))
    n_ent = pent.shape[0]
    value = np.int64(0)
    guess = np.int64(-2)
    steps = 0
    while e >= 0 and e < n_ent and steps < _PEER_CHAIN:
        steps += 1
        if _holds(S, depth, h, e, pent, ppool):
            guess = load_acquire2(pent, e, ENTRY_GUESS)  # (then its value)
            value = pent[e, ENTRY_VALUE]
            break
        e = pent[e, ENTRY_NEXT]
    fence(True)  # what was read above is read before the sequence is read again
    if load_acquire(pmeta, MEMO_SEQ) != seq or guess < -1:
        return np.int64(0), np.int64(-2)
    return value, guess


@jit
def memo_store(S, depth, value, guess, mheads, ment, mpool, mmeta, stats):  # pragma: no cover
    """Record an exact value (guess >= 0) or a lower bound (guess = -1) for S."""
    memo_store_at(S, depth, _hash(S, depth), value, guess, mheads, ment, mpool, mmeta, stats)


@jit
def memo_store_at(S, depth, h, value, guess, mheads, ment, mpool, mmeta,
                  stats):  # pragma: no cover - compiled
    """`memo_store` with S's hash `h` (`memo_hash`) computed once by the caller."""
    e = memo_find_at(S, depth, h, mheads, ment, mpool)
    if e >= 0:
        if ment[e, ENTRY_GUESS] >= 0:
            return
        if guess >= 0 or value > ment[e, ENTRY_VALUE]:
            ment[e, ENTRY_VALUE] = value  # (before the guess: a peer reads the guess first)
            store_release2(ment, e, ENTRY_GUESS, guess)
        return
    m = S.shape[0]
    if mmeta[MEMO_USED_ENTRIES] >= ment.shape[0] or mmeta[MEMO_USED_CODES] + m > mpool.shape[0]:
        seq = mmeta[MEMO_SEQ]
        mmeta[MEMO_SEQ] = seq + 1  # (odd: a peer reading meanwhile ignores what it read)
        fence(False)
        _memo_restart(mheads, ment, mpool, mmeta, stats)  # full: start over, keeping a few
        if mmeta[MEMO_USED_CODES] + m > mpool.shape[0]:  # (no room even so: keep none)
            mheads[:] = -1
            mmeta[MEMO_USED_ENTRIES] = 0
            mmeta[MEMO_USED_CODES] = 0
        store_release(mmeta, MEMO_SEQ, seq + 2)
    e = mmeta[MEMO_USED_ENTRIES]
    mmeta[MEMO_USED_ENTRIES] += 1
    off = mmeta[MEMO_USED_CODES]
    mmeta[MEMO_USED_CODES] += m
    mpool[off:off + m] = S
    b = np.int64(h & np.uint64(mheads.shape[0] - 1))
    ment[e, ENTRY_NEXT] = mheads[b]
    ment[e, ENTRY_OFFSET] = off
    ment[e, ENTRY_LENGTH] = m
    ment[e, ENTRY_GUESSES_LEFT] = depth
    ment[e, ENTRY_VALUE] = value
    ment[e, ENTRY_GUESS] = guess
    ment[e, ENTRY_HASH] = np.int64(h)
    store_release(mheads, b, e)  # published once whole


@jit
def memo_merge(sment, spool, first, stop, least, mheads, ment, mpool, mmeta,
               stats):  # pragma: no cover - compiled
    """Record the entries `first` to `stop` - 1 of another memo (`sment`, `spool`) of sets
    of `least` codes or more in this one, as `memo_store_at` would: a set's value and bound
    do not depend on the search that proved them, so searches of the same game (same
    options) may pool what they found. The other memo must not change meanwhile."""
    for e in range(first, stop):
        if sment[e, ENTRY_LENGTH] < least:
            continue
        off = sment[e, ENTRY_OFFSET]
        S = spool[off:off + sment[e, ENTRY_LENGTH]]
        memo_store_at(S, sment[e, ENTRY_GUESSES_LEFT], np.uint64(sment[e, ENTRY_HASH]),
                      sment[e, ENTRY_VALUE], sment[e, ENTRY_GUESS], mheads, ment, mpool,
                      mmeta, stats)


#: A full memo starts over keeping the exact entries of its biggest sets, at most this share
#: of its entries and of its codes (sets of up to `_KEEP_SIZES` - 1 codes told apart).
_KEEP_SHARE = 4
_KEEP_SIZES = 4096


@jit
def _memo_restart(mheads, ment, mpool, mmeta, stats):  # pragma: no cover - compiled
    """Start a full memo over, keeping the exact entries of the biggest sets that fit in
    1/_KEEP_SHARE of its entries and of its codes: the sets near the top of a tree, few,
    each the most work to solve again, and the ones a rebuilt tree needs first (without
    them, a search that outgrew its memo re-solved them from scratch while rebuilding:
    MM(4,9) took 119 s to rebuild a tree found in 82 s)."""
    used = mmeta[MEMO_USED_ENTRIES]
    n_sets = np.zeros(_KEEP_SIZES, dtype=np.int64)
    n_codes = np.zeros(_KEEP_SIZES, dtype=np.int64)
    for e in range(used):
        if ment[e, ENTRY_GUESS] >= 0:
            size = min(ment[e, ENTRY_LENGTH], _KEEP_SIZES - 1)
            n_sets[size] += 1
            n_codes[size] += ment[e, ENTRY_LENGTH]
    room_sets = ment.shape[0] // _KEEP_SHARE
    room_codes = mpool.shape[0] // _KEEP_SHARE
    least = _KEEP_SIZES  # the least size kept (none yet)
    kept_sets = 0
    kept_codes = 0
    for size in range(_KEEP_SIZES - 1, 2, -1):
        if kept_sets + n_sets[size] > room_sets or kept_codes + n_codes[size] > room_codes:
            break
        kept_sets += n_sets[size]
        kept_codes += n_codes[size]
        least = size
    mheads[:] = -1
    top = np.uint64(mheads.shape[0] - 1)
    e_new = 0
    c_new = 0
    for e in range(used):  # kept entries move down, in order (never over one not yet read)
        length = ment[e, ENTRY_LENGTH]
        if ment[e, ENTRY_GUESS] < 0 or min(length, _KEEP_SIZES - 1) < least:
            continue
        off = ment[e, ENTRY_OFFSET]
        for i in range(length):
            mpool[c_new + i] = mpool[off + i]
        for col in range(ment.shape[1]):
            ment[e_new, col] = ment[e, col]
        ment[e_new, ENTRY_OFFSET] = c_new
        b = np.int64(np.uint64(ment[e_new, ENTRY_HASH]) & top)
        ment[e_new, ENTRY_NEXT] = mheads[b]
        mheads[b] = e_new
        e_new += 1
        c_new += length
    mmeta[MEMO_USED_ENTRIES] = e_new
    mmeta[MEMO_USED_CODES] = c_new
    stats[N_MEMO_RESETS] += 1


@jit
def lookup_guess(S, depth, mheads, ment, mpool):  # pragma: no cover - compiled
    """Return (value, guess) of the exact memo entry for S, or (-1, -1)."""
    e = memo_find(S, depth, mheads, ment, mpool)
    if e >= 0 and ment[e, ENTRY_GUESS] >= 0:
        return ment[e, ENTRY_VALUE], ment[e, ENTRY_GUESS]
    return np.int64(-1), np.int64(-1)


@jit
def settled_guess(cands, positive_sets, capped, weights, table, win, R):  # pragma: no cover
    """For a weighted search: return (guess, key), the guess the search settles `cands` with
    in closed form, or -1 and the set whose memo entry holds its optimal guess.

    The key is `cands` itself, or only its codes of positive weight when the search ran on
    those (`positive_sets`: every other code rides along, see solver/search.py). One code:
    play it; two: the heavier (the first on a tie). A set of weight 0 when uncapped costs
    nothing however it is played: play the candidate that makes the most parts (the first on
    a tie), which finds at least itself, so every code is found."""
    m = cands.shape[0]
    k = 0
    for i in range(m):
        if not positive_sets or weights[cands[i]] > 0:
            k += 1
    key = np.empty(k, dtype=np.int32)
    k = 0
    total = np.int64(0)
    for i in range(m):
        if not positive_sets or weights[cands[i]] > 0:
            key[k] = cands[i]
            k += 1
            total += weights[cands[i]]
    if total == 0 and not capped:
        seen = np.zeros(R, dtype=np.int64)
        best, guess = -1, np.int64(cands[0])
        for i in range(m):
            seen[:] = 0
            parts = 0
            for j in range(m):
                r = table[cands[i], cands[j]]
                if seen[r] == 0:
                    parts += 1
                seen[r] += 1
            if parts > best:
                best, guess = parts, np.int64(cands[i])
        return guess, key
    if k == 1:
        return np.int64(key[0]), key
    if k == 2:
        return np.int64(key[0] if weights[key[0]] >= weights[key[1]] else key[1]), key
    return np.int64(-1), key


@jit
def rebuild(S, depth, capped, table, win, R, mheads, ment, mpool, weighted, positive_sets,
            weights):  # pragma: no cover
    """Rebuild the optimal tree of S from the memo, depth first with parts in answer order.

    Returns (guess, parent, response, guesses_left, size) node arrays and the holes: sets
    whose optimal guess the memo does not hold (it started over, or the set was answered by
    its permuted image), as (parent, response, guesses_left, start) rows with their codes
    at ``hole_codes[start:start + size]``; a hole's subtree is left out, and the caller
    solves the holes and rebuilds again. All arrays empty when the node arrays outgrow
    their room. Sets of one or two codes play their first code (weighted: see
    `settled_guess`).
    """
    m0 = S.shape[0]
    buf = np.empty(2 * m0, dtype=np.int32)
    buf[:m0] = S
    cap = 64 + 16 * R  # pending parts: at most the answers of each node on a path
    s_off = np.empty(cap, dtype=np.int64)
    s_len = np.empty(cap, dtype=np.int64)
    s_par = np.empty(cap, dtype=np.int64)
    s_resp = np.empty(cap, dtype=np.int64)
    s_left = np.empty(cap, dtype=np.int64)
    s_off[0], s_len[0], s_par[0], s_resp[0], s_left[0] = 0, m0, -1, -1, depth
    top = 1
    n_cap = 2 * m0 + 16
    g_out = np.empty(n_cap, dtype=np.int32)
    p_out = np.empty(n_cap, dtype=np.int32)
    r_out = np.empty(n_cap, dtype=np.int32)
    d_out = np.empty(n_cap, dtype=np.int32)
    z_out = np.empty(n_cap, dtype=np.int32)
    nn = 0
    counts = np.zeros(R, dtype=np.int64)
    starts = np.zeros(R + 1, dtype=np.int64)
    holes = np.empty((16, 4), dtype=np.int64)
    hole_codes = np.empty(m0, dtype=np.int32)
    n_holes = 0
    n_hole_codes = 0
    while top > 0:
        top -= 1
        off, m, par, resp, left = s_off[top], s_len[top], s_par[top], s_resp[top], s_left[top]
        cands = buf[off:off + m]
        g = np.int64(-1)
        if weighted:
            g, key = settled_guess(cands, positive_sets, capped, weights, table, win, R)
            if g < 0:
                e = memo_find(key, left if capped else 0, mheads, ment, mpool)
                if e >= 0 and ment[e, ENTRY_GUESS] >= 0:
                    g = ment[e, ENTRY_GUESS]
        elif m <= 2:
            g = np.int64(cands[0])
        else:
            e = memo_find(cands, left if capped else 0, mheads, ment, mpool)
            if e >= 0 and ment[e, ENTRY_GUESS] >= 0:
                g = ment[e, ENTRY_GUESS]
        if g < 0:  # a hole: the caller solves it
            if n_holes == holes.shape[0]:
                grown = np.empty((2 * n_holes, 4), dtype=np.int64)
                grown[:n_holes] = holes
                holes = grown
            holes[n_holes, 0], holes[n_holes, 1], holes[n_holes, 2] = par, resp, left
            holes[n_holes, 3] = n_hole_codes
            hole_codes[n_hole_codes:n_hole_codes + m] = cands
            n_hole_codes += m
            n_holes += 1
            continue
        if nn == n_cap:
            return (g_out[:0], p_out[:0], r_out[:0], d_out[:0], z_out[:0], holes[:0],
                    hole_codes[:0])
        me = nn
        g_out[nn], p_out[nn], r_out[nn], d_out[nn], z_out[nn] = g, par, resp, left, m
        nn += 1
        counts[:] = 0
        for j in range(m):
            counts[table[g, cands[j]]] += 1
        starts[0] = 0
        for r in range(R):
            starts[r + 1] = starts[r] + counts[r]
        tmp = buf[m0:m0 + m]
        pos = starts[:R].copy()
        for j in range(m):
            r = table[g, cands[j]]
            tmp[pos[r]] = cands[j]
            pos[r] += 1
        buf[off:off + m] = tmp
        for r in range(R - 1, -1, -1):
            if r == win or counts[r] == 0:
                continue
            if top == cap:
                return (g_out[:0], p_out[:0], r_out[:0], d_out[:0], z_out[:0], holes[:0],
                        hole_codes[:0])
            s_off[top], s_len[top], s_par[top] = off + starts[r], counts[r], me
            s_resp[top], s_left[top] = r, left - 1
            top += 1
    return (g_out[:nn], p_out[:nn], r_out[:nn], d_out[:nn], z_out[:nn], holes[:n_holes],
            hole_codes[:n_hole_codes])
