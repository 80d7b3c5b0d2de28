"""One-step strategies: score every allowed probe, pick one, and walk a whole decision tree.

Kinds (`kind`): 0 consistent (first/last candidate), 1 maxsize (smallest largest part),
2 expsize (smallest sum of squared part sizes), 3 entropy, exactly (smallest prod n^n),
4 parts (most non-empty parts), 5 entropy in floating point (`fvariant` picks the spelling,
`order` the order in which the sum runs over the answers).

Ties go to a probe that could be the secret, then to the lexically first (or last, with
`tie_last`). Probes equivalent under the symmetries that fix the history score the same,
so only one per class is scored (the class's first or last member, which is the one the
tie rule would pick): the group of position x colour permutations that fix every guess
played (`slots.History`; with positional answers, also keep every answer), where colours
never played are interchangeable (free colours), and colours absent from every candidate
all act alike (zero colours).

Exact entropy: `qtab[n]` is n*log2(n) in fixed point (2**32 units). Equal part-size
multisets give equal integer sums whatever the order; two sums within `near` units of each
other are settled exactly, by comparing the multisets and, if they differ, the integers
prod n^n in Python (object mode).
"""

from __future__ import annotations

import math

import numpy as np
from numba import objmode

from ._config import jit, jit_gil
from .optimal import child_group, clue_group
from .slots import History
from .symmetry import canonical_under, colour_classes

CONSISTENT, MAXSIZE, EXPSIZE, ENTROPY, PARTS, FLOAT_ENTROPY = 0, 1, 2, 3, 4, 5
NLOG2N, PLOG2P, PLNP, PLOG2P_F32 = 0, 1, 2, 3
Q_BITS = 32
_NO_BOUND = np.int64(2**62)


def entropy_qtab(n: int) -> np.ndarray:
    """Return round(k*log2(k) * 2**32) for k = 0..n as int64."""
    k = np.arange(n + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(k > 1, k * np.log2(np.maximum(k, 1)), 0.0)
    return np.rint(v * 2.0**Q_BITS).astype(np.int64)


def prod_pow_compare(a: np.ndarray, b: np.ndarray) -> int:
    """Return the sign of prod(a**a) - prod(b**b), exactly (Python integers)."""
    pa = math.prod(int(x) ** int(x) for x in a if x > 1)
    pb = math.prod(int(x) ** int(x) for x in b if x > 1)
    return (pa > pb) - (pa < pb)


@jit_gil
def _exact_compare(a, b):  # pragma: no cover - compiled
    with objmode(r="int64"):
        r = prod_pow_compare(a, b)
    return r


@jit
def _float_key(counts, m, fvariant, order):  # pragma: no cover - compiled
    if fvariant == PLOG2P_F32:
        acc32 = np.float32(0.0)
        mm = np.float32(m)
        for i in range(order.shape[0]):
            n = counts[order[i]]
            if n > 0:
                p = np.float32(n) / mm
                acc32 = np.float32(acc32 + np.float32(p * np.float32(math.log2(np.float64(p)))))
        return np.float64(acc32)
    acc = 0.0
    for i in range(order.shape[0]):
        n = counts[order[i]]
        if n > 0:
            if fvariant == NLOG2N:
                acc += n * math.log2(np.float64(n))
            elif fvariant == PLOG2P:
                p = n / m
                acc += p * math.log2(p)
            else:
                p = n / m
                acc += p * math.log(p)
    return acc


@jit
def _count_pruned(table, i, cands, counts, kind, qtab, bound):  # pragma: no cover - compiled
    """Count the parts of `cands` under one probe (row i of `table`) and return the probe's int
    key, giving up early (returning a value above `bound`) once the key is sure to end
    above `bound`: every key here only grows as the parts fill up."""
    m = cands.shape[0]
    counts[:] = 0
    key = 0
    if kind == MAXSIZE:
        for j in range(m):
            r = table[i, cands[j]]
            c = counts[r] + 1
            counts[r] = c
            if c > key:
                key = c
                if key > bound:
                    return key
    elif kind == EXPSIZE:
        for j in range(m):
            r = table[i, cands[j]]
            c = counts[r]
            counts[r] = c + 1
            key += 2 * c + 1
            if key > bound:
                return key
    elif kind == ENTROPY:
        for j in range(m):
            r = table[i, cands[j]]
            c = counts[r]
            counts[r] = c + 1
            key += qtab[c + 1] - qtab[c]
            if key > bound:
                return key
    else:  # PARTS, key = -(non-empty parts); at best every remaining code opens a part
        for j in range(m):
            r = table[i, cands[j]]
            c = counts[r]
            counts[r] = c + 1
            if c == 0:
                key -= 1
            elif key - (m - 1 - j) > bound:
                return key - (m - 1 - j)
    return key


@jit
def _all_singletons(counts):  # pragma: no cover - compiled
    for n in counts:
        if n > 1:
            return False
    return True


@jit
def _tells_apart(table, g, cands):  # pragma: no cover - compiled
    """Whether probe g (row g of `table`) gives every code of `cands` (columns) a different
    answer (answers below 256)."""
    seen = np.zeros(4, dtype=np.uint64)
    for j in range(cands.shape[0]):
        r = np.int64(table[g, cands[j]])
        bit = np.uint64(1) << np.uint64(r & 63)
        if seen[r >> 6] & bit:
            return False
        seen[r >> 6] |= bit
    return True


@jit
def _sorted_sizes(counts):  # pragma: no cover - compiled
    return np.sort(counts)


@jit
def _canonical_rows(codes, probe_ids, free_list, n_free, zero_list, n_zero, is_free, is_zero,
                    repeats, tie_last, ok):  # pragma: no cover - compiled
    """Set ok[i] when code probe_ids[i] is the first (last) member of its symmetry class:
    its new (free) colours appear in order, and it uses only the first (last) absent
    (zero) colours. One call per node: a call per code would cost reference counts."""
    p = codes.shape[1]
    for i in range(probe_ids.shape[0]):
        g = probe_ids[i]
        next_free = 0
        next_zero = 0
        seen = np.uint64(0)
        good = True
        for k in range(p):
            c = codes[g, k]
            bit = np.uint64(1) << np.uint64(c)
            if is_zero[c]:
                if repeats:
                    want = zero_list[n_zero - 1] if tie_last else zero_list[0]
                else:
                    want = (zero_list[n_zero - 1 - next_zero] if tie_last
                            else zero_list[next_zero])
                    next_zero += 1
                if c != want:
                    good = False
                    break
            elif is_free[c]:
                if seen & bit:
                    continue
                want = free_list[n_free - 1 - next_free] if tie_last else free_list[next_free]
                if c != want:
                    good = False
                    break
                next_free += 1
                seen |= bit
        ok[i] = good


@jit
def canonical_probes(codes, colmask, ids, played, nsym, repeats, tie_last):  # pragma: no cover
    """Return, ascending, the code indices that are first (last) in their symmetry class
    given the candidates `ids` and the colours `played`."""
    cands = np.arange(ids.shape[0])
    is_free, is_zero, free_list, n_free, zero_list, n_zero = colour_classes(
        colmask, ids[cands], played, nsym)
    keep = np.zeros(codes.shape[0], dtype=np.bool_)
    _canonical_rows(codes, np.arange(codes.shape[0]), free_list, n_free, zero_list, n_zero,
                    is_free, is_zero, repeats, tie_last, keep)
    return np.flatnonzero(keep).astype(np.int32)


#: Candidate sets at least this big are counted column by column (see `choose`).
COLUMN_MIN = 3


@jit
def _key_from_counts(counts, kind, qtab):  # pragma: no cover - compiled
    key = 0
    for n in counts:
        if kind == MAXSIZE:
            if n > key:
                key = n
        elif kind == EXPSIZE:
            key += n * n
        elif kind == ENTROPY:
            key += qtab[n]
        elif n > 0:
            key -= 1
    return key


@jit
def _compare(kind, counts, ikey, fkey, best_counts, best_ikey, best_fkey, near):  # pragma: no cover
    """Return -1, 0 or 1 as a probe's cut is better than, ties, or is worse than the best."""
    if kind == FLOAT_ENTROPY:
        return -1 if fkey < best_fkey else (1 if fkey > best_fkey else 0)
    if kind == ENTROPY and abs(ikey - best_ikey) <= near:
        a = _sorted_sizes(counts)
        b = _sorted_sizes(best_counts)
        for r in range(a.shape[0]):
            if a[r] != b[r]:
                return _exact_compare(a, b)
        return 0
    return -1 if ikey < best_ikey else (1 if ikey > best_ikey else 0)


@jit
def _count_columns(table_t, ids, cands, probe_ids, todo, n_todo, cm):  # pragma: no cover
    for j in range(cands.shape[0]):
        srow = table_t[ids[cands[j]]]
        for k in range(n_todo):
            cm[k, srow[probe_ids[todo[k]]]] += 1


@jit
def choose(table, table_t, probe_ids, ids, cands, history, is_cand, code_set,
           scoring):  # pragma: no cover
    """Return the probe (a code index) the strategy plays on the candidates `cands` after
    `history` (a `slots.History`: the group fixing the guesses played, the colours played;
    `code_set` a `slots.Codes`, `scoring` a `slots.Scoring`).

    Row i of `table` is probe ``probe_ids[i]`` (ascending); column `col` is the code
    ``ids[col]``; `cands` holds column numbers, ascending. `is_cand` is an all-False scratch
    array with one entry per code (left all-False on return). `table_t`, when not empty, is
    the full table read the other way (``table_t[secret, guess]``; black/white tables are
    symmetric, so it is the table itself): big sets are then counted one secret at a time,
    streaming along its row, instead of one probe at a time across scattered columns.
    """
    codes, colmask = code_set.codes, code_set.colours
    gperm, gphi, played = history.perms, history.colour_maps, history.played
    repeats, nsym = code_set.repeats, code_set.symbols
    kind, fvariant, order = scoring.kind, scoring.float_spelling, scoring.answer_order
    tie_last, possible_only = scoring.tie_last, scoring.possible_only
    qtab, use_symmetry = scoring.entropy_table, scoring.use_symmetry
    m = cands.shape[0]
    if m == 1:
        return ids[cands[0]]
    if kind == CONSISTENT or m == 2:
        # with two candidates any candidate splits them: it is best under every score
        return ids[cands[m - 1]] if tie_last else ids[cands[0]]
    R = order.shape[0]
    rows = table.shape[0]
    if (kind != FLOAT_ENTROPY and m <= R and R <= 256 and 8 * m * m <= rows
            and rows == codes.shape[0]):
        # Every code a probe (row g is code g: a whole walk), few candidates: a candidate
        # that tells the others apart is looked for before the scan of every probe, which
        # would stop at the first of them anyway (below); it is canonical, as the first of
        # its class is a candidate that tells the others apart as well
        for jj in range(m):
            j = m - 1 - jj if tie_last else jj
            g = ids[cands[j]]
            if _tells_apart(table, g, cands):
                return g
    for j in range(m):
        is_cand[ids[cands[j]]] = True
    is_free, is_zero, free_list, n_free, zero_list, n_zero = colour_classes(
        colmask, ids[cands], played, nsym)
    symmetric = use_symmetry and not possible_only and (
        n_free + n_zero > 0 or gperm.shape[0] > 1)
    # The probes to score: candidates first (they tend to be good, which tightens the
    # pruning bound early), then the rest, each in tie order. The winner is the same as in
    # one pass: a later probe replaces the best only when strictly better, or when it is a
    # candidate tying a non-candidate.
    todo = np.empty(rows, dtype=np.int64)
    n_todo = 0
    canon = np.ones(rows, dtype=np.bool_)
    if symmetric:
        # the first (last) probe of each class of the group fixing the history: all of a
        # class score alike, so the choice is the one among every probe
        canonical_under(codes, probe_ids, gperm, gphi, code_set.inverse_perms, free_list,
                        n_free, zero_list, n_zero, is_zero, repeats, tie_last, canon)
    for t in range(2 * rows):
        first_pass = t < rows
        i = t if first_pass else t - rows
        if tie_last:
            i = rows - 1 - i
        g = probe_ids[i]
        cand = is_cand[g]
        if cand != first_pass or (possible_only and not cand):
            continue
        if not canon[i]:
            continue
        todo[n_todo] = i
        n_todo += 1
    columns = table_t.shape[0] > 0 and m >= COLUMN_MIN
    if columns:
        if m < 256:
            cm8 = np.zeros((n_todo, R), dtype=np.uint8)
            _count_columns(table_t, ids, cands, probe_ids, todo, n_todo, cm8)
            cm = cm8.astype(np.int32)
        else:
            cm = np.zeros((n_todo, R), dtype=np.int32)
            _count_columns(table_t, ids, cands, probe_ids, todo, n_todo, cm)
    counts = np.zeros(R, dtype=np.int64)
    best_counts = np.zeros(R, dtype=np.int64)
    best = -1
    best_cand = False
    best_ikey = 0
    best_fkey = 0.0
    fkey = 0.0
    near = R * 1024
    for k in range(n_todo):
        i = todo[k]
        g = probe_ids[i]
        cand = is_cand[g]
        if columns:
            counts[:] = cm[k]
        if kind == FLOAT_ENTROPY:
            if not columns:
                counts[:] = 0
                for j in range(m):
                    counts[table[i, cands[j]]] += 1
            fkey = _float_key(counts, m, fvariant, order)
            ikey = 0
        elif columns:
            ikey = _key_from_counts(counts, kind, qtab)
        else:
            bound = _NO_BOUND if best < 0 else best_ikey + (near if kind == ENTROPY else 0)
            ikey = _count_pruned(table, i, cands, counts, kind, qtab, bound)
            if ikey > bound:
                continue
        if best < 0:
            cmp = -1
        else:
            cmp = _compare(kind, counts, ikey, fkey, best_counts, best_ikey, best_fkey, near)
        if cmp < 0 or (cmp == 0 and cand and not best_cand):
            best = g
            best_cand = cand
            best_fkey = fkey
            best_ikey = ikey
            best_counts[:] = counts
            if kind != FLOAT_ENTROPY and m <= R and _all_singletons(counts):
                # every part of size one is the best cut under every score, and no later
                # probe can beat a candidate that is lexically earlier; nor, once every
                # candidate is scored (they come first), a non-candidate earlier than it
                break
    for j in range(m):
        is_cand[ids[cands[j]]] = False
    return best


@jit
def walk(table, table_t, ids, history0, depth0, first, win, max_depth, code_set, scoring):
    """Play the strategy against every secret ``ids[col]`` (the columns of `table`, whose
    rows are every code) at once, from `history0` (a `slots.History`: the group fixing
    the guesses played, each part keeping the elements that fix its guesses, as the
    optimal search's children do).

    Returns node arrays (guess, parent, response, depth, size) in depth-first order, and
    the histogram of the depth at which each secret is found. A node's depth is the number
    of the guess it plays (``depth0`` at the root). Returns an empty node list if some
    secret would need more than `max_depth` guesses. `code_set` and `scoring` are
    `slots.Codes` and `slots.Scoring`.
    """  # pragma: no cover
    colmask = code_set.colours
    n_all = table.shape[0]
    R = scoring.answer_order.shape[0]
    is_cand = np.zeros(n_all, dtype=np.bool_)
    probe_ids = np.arange(n_all)
    m0 = table.shape[1]
    buf = np.empty(2 * m0 + 1, dtype=np.int32)
    for j in range(m0):
        buf[j] = j
    # stack of pending sets
    cap = 64
    s_off = np.empty(cap, dtype=np.int64)
    s_len = np.empty(cap, dtype=np.int64)
    s_depth = np.empty(cap, dtype=np.int64)
    s_parent = np.empty(cap, dtype=np.int64)
    s_resp = np.empty(cap, dtype=np.int64)
    s_played = np.empty(cap, dtype=np.uint64)
    # each pending set's group: rows s_goff..s_goff+s_glen of the group store
    s_goff = np.empty(cap, dtype=np.int64)
    s_glen = np.empty(cap, dtype=np.int64)
    nsym = history0.colour_maps.shape[1]
    g_cap = max(64, 4 * history0.perms.shape[0])
    g_perm = np.empty(g_cap, dtype=history0.perms.dtype)
    g_phi = np.empty((g_cap, nsym), dtype=history0.colour_maps.dtype)
    G0 = history0.perms.shape[0]
    g_perm[:G0] = history0.perms
    g_phi[:G0] = history0.colour_maps
    g_used = G0
    track = (scoring.use_symmetry and not scoring.possible_only
             and scoring.kind != CONSISTENT)
    marks = code_set.marks
    top = 0
    s_off[0] = 0
    s_len[0] = m0
    s_depth[0] = depth0
    s_parent[0] = -1
    s_resp[0] = -1
    s_played[0] = history0.played
    s_goff[0] = 0
    s_glen[0] = G0
    top = 1
    ncap = 1024
    n_guess = np.empty(ncap, dtype=np.int32)
    n_parent = np.empty(ncap, dtype=np.int32)
    n_resp = np.empty(ncap, dtype=np.int32)
    n_depth = np.empty(ncap, dtype=np.int32)
    n_size = np.empty(ncap, dtype=np.int32)
    nn = 0
    hist = np.zeros(max_depth + 2, dtype=np.int64)
    counts = np.zeros(R, dtype=np.int64)
    starts = np.zeros(R + 1, dtype=np.int64)
    while top > 0:
        top -= 1
        off = s_off[top]
        m = s_len[top]
        depth = s_depth[top]
        parent = s_parent[top]
        resp = s_resp[top]
        played = s_played[top]
        goff, glen = s_goff[top], s_glen[top]
        if depth > max_depth:
            return (n_guess[:0], n_parent[:0], n_resp[:0], n_depth[:0], n_size[:0], hist)
        cands = buf[off:off + m]
        if first >= 0 and depth == depth0:
            g = first
        else:
            history = History(g_perm[goff:goff + glen], g_phi[goff:goff + glen], played)
            g = choose(table, table_t, probe_ids, ids, cands, history, is_cand, code_set,
                       scoring)
        if nn == ncap:
            ncap *= 2
            n_guess = _grow32(n_guess, ncap)
            n_parent = _grow32(n_parent, ncap)
            n_resp = _grow32(n_resp, ncap)
            n_depth = _grow32(n_depth, ncap)
            n_size = _grow32(n_size, ncap)
        node = nn
        n_guess[nn] = g
        n_parent[nn] = parent
        n_resp[nn] = resp
        n_depth[nn] = depth
        n_size[nn] = m
        nn += 1
        # counting sort of the set by answer, in place (through the scratch area past m0):
        # every pending set is a disjoint sub-range of buf[:m0]
        counts[:] = 0
        row = table[g]
        for j in range(m):
            counts[row[cands[j]]] += 1
        starts[0] = 0
        for r in range(R):
            starts[r + 1] = starts[r] + counts[r]
        tmp = buf[m0:m0 + m]
        pos = starts[:R].copy()
        for j in range(m):
            r = row[cands[j]]
            tmp[pos[r]] = cands[j]
            pos[r] += 1
        buf[off:off + m] = tmp
        if counts[win] > 0:
            hist[depth] += 1
        child_played = played | colmask[g]
        # the children's group: the elements that also fix g (and map its colours)
        cgoff, cglen = goff, glen
        if track:
            big = False
            for r in range(R):
                if r != win and counts[r] > 2:
                    big = True
            if big:
                cperm, cphi = child_group(g_perm[goff:goff + glen], g_phi[goff:goff + glen],
                                          g, code_set.codes, code_set.perms)
                g_perm, g_phi, g_used, cgoff = _store_group(g_perm, g_phi, g_used, cperm, cphi)
                cglen = cperm.shape[0]
        # push parts in reverse answer order so they are expanded in answer order
        for r in range(R - 1, -1, -1):
            if r == win or counts[r] == 0:
                continue
            pgoff, pglen = cgoff, cglen
            if marks.shape[0] > 0 and cglen > 1 and counts[r] > 2:
                # positional answers: only the elements that also keep this answer
                pperm, pphi = clue_group(g_perm[cgoff:cgoff + cglen],
                                         g_phi[cgoff:cgoff + cglen], g, r, code_set.codes,
                                         code_set.perms, marks)
                g_perm, g_phi, g_used, pgoff = _store_group(g_perm, g_phi, g_used, pperm,
                                                            pphi)
                pglen = pperm.shape[0]
            if top == cap:
                cap *= 2
                s_off = _grow64(s_off, cap)
                s_len = _grow64(s_len, cap)
                s_depth = _grow64(s_depth, cap)
                s_parent = _grow64(s_parent, cap)
                s_resp = _grow64(s_resp, cap)
                s_played = _growu64(s_played, cap)
                s_goff = _grow64(s_goff, cap)
                s_glen = _grow64(s_glen, cap)
            s_off[top] = off + starts[r]
            s_len[top] = counts[r]
            s_depth[top] = depth + 1
            s_parent[top] = node
            s_resp[top] = r
            s_played[top] = child_played
            s_goff[top] = pgoff
            s_glen[top] = pglen
            top += 1
    return (n_guess[:nn], n_parent[:nn], n_resp[:nn], n_depth[:nn], n_size[:nn], hist)


@jit
def _store_group(g_perm, g_phi, used, perm, phi):  # pragma: no cover - compiled
    """Append a group's rows to the store (grown as needed); return the store, its fill
    and where the rows start."""
    n = perm.shape[0]
    if used + n > g_perm.shape[0]:
        size = max(2 * g_perm.shape[0], used + n)
        grown_perm = np.empty(size, dtype=g_perm.dtype)
        grown_perm[:used] = g_perm[:used]
        grown_phi = np.empty((size, g_phi.shape[1]), dtype=g_phi.dtype)
        grown_phi[:used] = g_phi[:used]
        g_perm, g_phi = grown_perm, grown_phi
    g_perm[used:used + n] = perm
    g_phi[used:used + n] = phi
    return g_perm, g_phi, used + n, used


@jit
def _grow32(a, n):  # pragma: no cover - compiled
    out = np.empty(n, dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@jit
def _grow64(a, n):  # pragma: no cover - compiled
    out = np.empty(n, dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@jit
def _growu64(a, n):  # pragma: no cover - compiled
    out = np.empty(n, dtype=a.dtype)
    out[:a.shape[0]] = a
    return out
