"""Exact optimal search: depth-first branch and bound over candidate sets.

cost(S) = |S| + min over probes g of the sum over non-winning answers r of cost(S_r).

`solve(S, ...)` returns cost(S) when it is below `budget`, else a proven lower bound that is
at least `budget` (and INF when no tree fits the guesses left). The pieces:

* bounds: with at most k parts per probe, d guesses finish at most f_k(d) codes
  (``ctab[k, d]``), so n codes need at least ``ltab[k, n]`` = sum over d of max(0, n - f_k(d))
  guesses; k is the most parts any probe makes on the parent set (seed 002's branching
  factor actually found), never more than the answers allow;
* budgets: each part is solved with what the probe has left; a probe is dropped as soon as
  its running total reaches the best so far, and failures leave proven lower bounds;
* memo: exact values and lower bounds keyed by the set itself (and the guesses left when
  capped), compared element by element, so a hash collision cannot change a result;
* symmetry: probes are scored once per class of the group of position x colour
  permutations that fix every guess played so far (colours never played are renamed in
  order of appearance), and probes that use colours absent from every candidate are kept
  only with the smallest such colours; probes that cut S into the same parts (with the
  win in the same place) are expanded once;
* small sets: one or two codes in closed form; a candidate that separates every code
  costs 2m - 1, which nothing beats.

Options (`opts`): see the O_* indices. Counters (`stats`): see the S_* indices; setting
``stats[STOP]`` makes every node return its lower bound at once.
"""

from __future__ import annotations

import numpy as np

from ._config import jit
from .memo import memo_find, memo_store
from .slots import (
    BEST_TOTAL,
    ENTRY_GUESS,
    ENTRY_VALUE,
    LOWER_BOUND,
    N_FIRST_GUESSES,
    N_FIRST_GUESSES_DONE,
    N_MEMO_HITS,
    N_PARTS,
    N_PARTS_DONE,
    N_PROBES,
    N_SETS,
    N_SHORTCUTS,
    N_TRACE_ROWS,
    OPT_ANSWERS,
    OPT_CAPPED,
    OPT_FIRST_GUESS,
    OPT_POSSIBLE_ONLY,
    OPT_REPEATS,
    OPT_SYMBOLS,
    OPT_SYMMETRIC_TABLE,
    OPT_SYMMETRY,
    OPT_TRACE,
    OPT_WIN,
    STOP,
    TRACE_DONE,
    TRACE_PART,
    TRACE_PROBE,
    TRACE_PRUNED,
    History,
)
from .symmetry import colour_classes

INF = np.int64(1) << np.int64(40)



def bound_tables(n_max: int, R: int, possible_only: bool, d_max: int = 64):
    """Return (ltab, ctab): ``ctab[k, d]`` the most codes d guesses can finish when no probe
    makes more than k parts, and ``ltab[k, n]`` the fewest guesses n codes then need."""
    ctab = np.zeros((R + 1, d_max + 1), dtype=np.int64)
    ltab = np.zeros((R + 1, n_max + 1), dtype=np.int64)
    cap = np.int64(1) << np.int64(50)
    for k in range(1, R + 1):
        f = 0
        for d in range(1, d_max + 1):
            with_win = 1 + min(k - 1, R - 1) * f
            without = 0 if possible_only else min(k, R - 1) * f
            f = min(cap, max(with_win, without))
            ctab[k, d] = f
        n = np.arange(n_max + 1, dtype=np.int64)
        total = np.zeros(n_max + 1, dtype=np.int64)
        total += n  # d = 0: nothing is finished before the first guess
        for d in range(1, d_max + 1):
            total += np.maximum(0, n - ctab[k, d])
        ltab[k] = total
    return ltab, ctab


@jit
def child_group(gperm, gphi, g, codes, perms):  # pragma: no cover - compiled
    """Return the elements of the group (position perm, colour map) that also fix code g."""
    G = gperm.shape[0]
    p = codes.shape[1]
    nsym = gphi.shape[1]
    keep_perm = np.empty(G, dtype=np.int32)
    keep_phi = np.empty((G, nsym), dtype=np.int8)
    n = 0
    phi = np.empty(nsym, dtype=np.int8)
    for e in range(G):
        pi = perms[gperm[e]]
        phi[:] = gphi[e]
        ok = True
        for k in range(p):
            c = codes[g, k]
            d = codes[g, pi[k]]
            if phi[c] >= 0:
                if phi[c] != d:
                    ok = False
                    break
            else:
                # a colour not played before may only go to another one not played before
                if gphi[e, d] >= 0 or _image_taken(phi, d, gphi[e]):
                    ok = False
                    break
                phi[c] = d
        if ok:
            keep_perm[n] = gperm[e]
            keep_phi[n] = phi
            n += 1
    return keep_perm[:n].copy(), keep_phi[:n].copy()


@jit
def _image_taken(phi, d, old_phi):  # pragma: no cover - compiled
    """Return True when some colour already maps to d (so d cannot be a new image)."""
    for c in range(phi.shape[0]):
        if phi[c] == d:
            return True
    return False


@jit
def canonical_probes(codes, pool, gperm, gphi, iperms, free_list, n_free, zero_list, is_zero,
                     repeats, keep):  # pragma: no cover - compiled
    """Write into `keep` the codes of `pool` that are the smallest of their class (image
    under the group, with new colours renamed in order of appearance, and smallest absent
    colours); return how many. One call per node: calling a function per code would cost a
    reference count per array argument."""
    p = codes.shape[1]
    G = gperm.shape[0]
    nsym = is_zero.shape[0]
    local = np.empty(nsym, dtype=np.int64)
    nk = 0
    for xi in range(pool.shape[0]):
        x = pool[xi]
        ok = True
        # absent (zero) colours: all the smallest one, or ascending without repeats
        nz = 0
        for k in range(p):
            c = codes[x, k]
            if is_zero[c]:
                if repeats:
                    if c != zero_list[0]:
                        ok = False
                        break
                else:
                    if c != zero_list[nz]:
                        ok = False
                        break
                    nz += 1
        if ok and not (G == 1 and n_free == 0):
            for e in range(G):
                pe = gperm[e]
                assigned = np.uint64(0)
                nf = 0
                for j in range(p):
                    c = codes[x, iperms[pe, j]]
                    if gphi[e, c] >= 0:
                        d = np.int64(gphi[e, c])
                    elif is_zero[c]:
                        d = np.int64(c)  # zero colours were settled above
                    elif assigned & (np.uint64(1) << np.uint64(c)):
                        d = local[c]
                    else:
                        d = free_list[nf] if nf < n_free else np.int64(c)
                        nf += 1
                        local[c] = d
                        assigned |= np.uint64(1) << np.uint64(c)
                    xj = codes[x, j]
                    if d < xj:
                        ok = False
                        break
                    if d > xj:
                        break
                if not ok:
                    break
        if ok:
            keep[nk] = x
            nk += 1
    return nk


#: Probes taken by selection before the rest of a node's probes are sorted.
LAZY = 24
#: Most (played, absent colours) keys whose canonical probes are remembered.
CANON_CACHE = 4096


@jit
def _canonical_pool(codes, pool, gperm, gphi, iperms, free_list, n_free, zero_list, is_zero,
                    opts):  # pragma: no cover - compiled
    keep = np.empty(pool.shape[0], dtype=np.int64)
    if opts[OPT_SYMMETRY] != 0:
        nk = canonical_probes(codes, pool, gperm, gphi, iperms, free_list, n_free, zero_list,
                              is_zero, opts[OPT_REPEATS] != 0, keep)
    else:
        nk = pool.shape[0]
        keep[:] = pool
    return keep[:nk].copy()


@jit
def lbs_empty(P):  # pragma: no cover - compiled
    return np.full(P, INF, dtype=np.int64)


@jit
def score_probes(S, depth, budget, kmax, dist, lb, history, game, bounds,
                 run):  # pragma: no cover
    """Choose the probes worth scoring on S (one per symmetry class), count how each cuts S,
    and bound each one. Returns (probes, counts, nparts, lbs, live, keys, kS, lb, low,
    is_cand): `live` lists the probes under `budget` (in code order), to be taken by `keys`,
    cheapest bound first and candidates first among equals; kS is the most parts any probe
    makes; lb the raised lower bound of S; low the least bound among the probes the budget
    already rules out. The groups (`slots.History`, `Game`, `Bounds`, `Run`) are read
    into local names once."""
    gperm, gphi, played = history.perms, history.colour_maps, history.played
    table, codes, colmask, iperms = game.table, game.codes, game.colours, game.inverse_perms
    ltab, ctab = bounds.fewest, bounds.most
    opts, stats, trace, canon_cache = run.options, run.counters, run.trace, run.probe_cache
    m = S.shape[0]
    R = opts[OPT_ANSWERS]
    win = opts[OPT_WIN]
    N = table.shape[0]
    dmax = ctab.shape[1] - 1
    # which colours are free (never played) or absent; which codes are candidates
    nsym = opts[OPT_SYMBOLS]
    _, is_zero, free_list, n_free, zero_list, n_zero = colour_classes(colmask, S, played, nsym)
    is_cand = np.zeros(N, dtype=np.bool_)
    for i in range(m):
        is_cand[S[i]] = True
    # the probes to score
    possible_only = opts[OPT_POSSIBLE_ONLY] != 0
    first = opts[OPT_FIRST_GUESS]
    if dist == 0 and first >= 0:
        probes = np.empty(1, dtype=np.int64)
        probes[0] = first
    else:
        # with only the identity left in the group, the probes depend on the played and
        # absent colours alone: remember them
        cacheable = (gperm.shape[0] == 1 and not possible_only and nsym <= 31
                     and opts[OPT_SYMMETRY] != 0)
        key = np.int64(0)
        if cacheable:
            zero_mask = np.int64(0)
            for c in range(n_zero):
                zero_mask |= np.int64(1) << np.int64(zero_list[c])
            key = (np.int64(played) << np.int64(31)) | zero_mask
            if key in canon_cache:
                probes = canon_cache[key]
            else:
                probes = _canonical_pool(codes, np.arange(N), gperm, gphi, iperms, free_list,
                                         n_free, zero_list, is_zero, opts)
                if len(canon_cache) < CANON_CACHE:
                    canon_cache[key] = probes
        else:
            pool = S.astype(np.int64) if possible_only else np.arange(N)
            probes = _canonical_pool(codes, pool, gperm, gphi, iperms, free_list, n_free,
                                     zero_list, is_zero, opts)
    P = probes.shape[0]
    counts = np.zeros((P, R), dtype=np.int32)
    nparts = np.zeros(P, dtype=np.int64)
    useful = np.zeros(P, dtype=np.bool_)
    kS = 1
    if opts[OPT_SYMMETRIC_TABLE] != 0:
        # table[g, s] == table[s, g]: read each candidate's row once, in probe order (a
        # few cache lines per candidate) instead of m scattered bytes per probe
        for j in range(m):
            if stats[STOP] != 0:
                break  # the caller gave up: the counts are not used
            s = S[j]
            for t in range(P):
                counts[t, table[s, probes[t]]] += 1
    else:
        for t in range(P):
            if stats[STOP] != 0:
                break
            g = probes[t]
            for j in range(m):
                counts[t, table[g, S[j]]] += 1
    for t in range(P):
        k = 0
        biggest = 0
        for r in range(R):
            n = counts[t, r]
            if n > 0:
                k += 1
                if n > biggest:
                    biggest = n
        nparts[t] = k
        useful[t] = biggest < m
        if useful[t] and k > kS:
            kS = k
    stats[N_PROBES] += P
    if kS > kmax or (dist == 0 and first >= 0):
        kS = kmax  # a forced probe says nothing about what other probes can do
    lbS = ltab[kS, m]
    if lbS > lb:
        lb = lbS
    if dist == 0 and lb > stats[LOWER_BOUND]:
        stats[LOWER_BOUND] = lb
    if lb >= budget:
        return probes, counts, nparts, lbs_empty(P), probes[:0], probes[:0], kS, lb, INF, is_cand
    # bounds, feasibility under the depth cap, and the order of the probes
    low = INF
    dnext = min(depth - 1, dmax)
    cap = ctab[kS, dnext]
    keys = np.empty(P, dtype=np.int64)
    lbs = np.empty(P, dtype=np.int64)
    for t in range(P):
        lbs[t] = INF
        keys[t] = INF
        if not useful[t]:
            continue
        total = np.int64(m)
        ok = True
        for r in range(R):
            n = counts[t, r]
            if r == win or n == 0:
                continue
            if n > cap:
                ok = False
                break
            total += ltab[kS, n]
        if ok:
            lbs[t] = total
            keys[t] = 2 * total + (0 if is_cand[probes[t]] else 1)
    n_live = 0
    live = np.empty(P, dtype=np.int64)
    for t in range(P):
        if lbs[t] < budget:
            live[n_live] = t
            n_live += 1
        else:
            if lbs[t] < low:
                low = lbs[t]  # a probe the budget rules out still bounds the cost of S
            if opts[OPT_TRACE] != 0 and dist == 0 and lbs[t] < INF:
                _trace(trace, stats, TRACE_PRUNED, probes[t], lbs[t], budget, 0, 0)
    return probes, counts, nparts, lbs, live[:n_live], keys, kS, lb, low, is_cand


@jit
def solve(S, depth, budget, kmax, dist, history, game, bounds, memo, run):  # pragma: no cover
    """Return cost(S) if below `budget`, else a lower bound >= budget (INF: infeasible).

    `depth` is the number of guesses left (including this one), `kmax` the most parts any
    probe can make on S, `dist` the distance from the root (for the trace); `history` is
    what the guesses played so far leave (the symmetry group fixing them, the colours
    played), `game` the game's arrays, `bounds` the perfect-tree bounds, `memo` the memo
    and `run` the search's options and counters (see `slots`).
    """
    table, codes, colmask = game.table, game.codes, game.colours
    ltab, ctab = bounds.fewest, bounds.most
    mheads, ment, mpool, mmeta = memo.heads, memo.entries, memo.pool, memo.meta
    opts, stats, trace = run.options, run.counters, run.trace
    gperm, gphi, played = history.perms, history.colour_maps, history.played
    m = S.shape[0]
    if m == 1:
        return np.int64(1) if depth >= 1 else INF
    if depth <= 1:
        return INF
    if m == 2:
        return np.int64(3)
    dmax = ctab.shape[1] - 1
    if m > ctab[kmax, min(depth, dmax)]:
        return INF
    lb = ltab[kmax, m]
    if lb >= budget:
        return lb
    if stats[STOP] != 0:
        return max(lb, budget)
    dkey = depth if opts[OPT_CAPPED] else 0
    e = memo_find(S, dkey, mheads, ment, mpool)
    if e >= 0:
        stats[N_MEMO_HITS] += 1
        if ment[e, ENTRY_GUESS] >= 0:
            return ment[e, ENTRY_VALUE]
        if ment[e, ENTRY_VALUE] >= budget:
            return ment[e, ENTRY_VALUE]
        lb = max(lb, ment[e, ENTRY_VALUE])
    stats[N_SETS] += 1
    R = opts[OPT_ANSWERS]
    win = opts[OPT_WIN]
    # Small sets. A candidate that tells every code apart costs 2m - 1, and nothing is
    # cheaper. Without one, every strategy costs at least 2m (a part of n codes costs at
    # least 2n - 1, and some part keeps two codes together), and a candidate leaving a
    # single pair together reaches 2m.
    if m <= R:
        seen = np.zeros(R, dtype=np.int64)
        one_pair = np.int64(-1)
        for i in range(m):
            ci = S[i]
            seen[:] = 0
            pairs = 0
            for j in range(m):
                r = table[ci, S[j]]
                seen[r] += 1
                if seen[r] == 2:
                    pairs += 1
                elif seen[r] > 2:
                    pairs = 2
                if pairs > 1:
                    break
            if pairs == 0:
                stats[N_SHORTCUTS] += 1
                value = np.int64(2 * m - 1)
                memo_store(S, dkey, value, np.int64(S[i]), mheads, ment, mpool, mmeta, stats)
                return value
            if pairs == 1 and one_pair < 0 and depth >= 3:
                one_pair = np.int64(S[i])
        if one_pair >= 0:
            stats[N_SHORTCUTS] += 1
            value = np.int64(2 * m)
            memo_store(S, dkey, value, one_pair, mheads, ment, mpool, mmeta, stats)
            return value
        if 2 * m > lb:
            lb = np.int64(2 * m)
            if lb >= budget:
                memo_store(S, dkey, lb, np.int64(-1), mheads, ment, mpool, mmeta, stats)
                return lb
    probes, counts, nparts, lbs, live, keys, kS, lb, low, is_cand = score_probes(
        S, depth, budget, kmax, dist, lb, history, game, bounds, run)
    P = probes.shape[0]
    if stats[STOP] != 0:
        return max(lb, budget)  # stopped on purpose: nothing is stored
    if lb >= budget:
        memo_store(S, dkey, lb, np.int64(-1), mheads, ment, mpool, mmeta, stats)
        return lb
    best = budget
    best_guess = np.int64(-1)
    buf = np.empty(m, dtype=np.int32)
    starts = np.zeros(R + 1, dtype=np.int64)
    explored = np.empty(P, dtype=np.int64)
    n_explored = 0
    map_ab = np.empty(R, dtype=np.int64)
    map_ba = np.empty(R, dtype=np.int64)
    if dist == 0:
        stats[N_FIRST_GUESSES] = P
    # Take the probes cheapest first by selection: most nodes stop after a few, so a full
    # sort would be wasted; past LAZY picks the rest is sorted once.
    n_live = live.shape[0]
    taken = np.zeros(n_live, dtype=np.bool_)
    remaining = live[:0]
    for oi in range(n_live):
        if oi < LAZY:
            pick = -1
            for i in range(n_live):
                if not taken[i] and (pick < 0 or keys[live[i]] < keys[live[pick]]):
                    pick = i
            taken[pick] = True
            t = live[pick]
        else:
            if oi == LAZY:
                left = live[~taken]
                remaining = left[np.argsort(keys[left], kind="mergesort")]
            t = remaining[oi - LAZY]
        g = probes[t]
        if lbs[t] >= best:
            if lbs[t] < low:
                low = lbs[t]
            if opts[OPT_TRACE] != 0 and dist == 0:
                _trace(trace, stats, TRACE_PRUNED, g, lbs[t], best, 0, 0)
            break
        # a probe that cuts S exactly like an explored one costs the same
        dup = False
        for q in range(n_explored):
            o = explored[q]
            if lbs[o] != lbs[t] or nparts[o] != nparts[t]:
                continue
            if _same_cut(table, g, probes[o], S, is_cand[g], is_cand[probes[o]], win,
                         map_ab, map_ba):
                dup = True
                break
        if dup:
            continue
        explored[n_explored] = t
        n_explored += 1
        cnt = counts[t]
        starts[0] = 0
        for r in range(R):
            starts[r + 1] = starts[r] + cnt[r]
        pos = starts[:R].copy()
        for j in range(m):
            r = table[g, S[j]]
            buf[pos[r]] = S[j]
            pos[r] += 1
        if opts[OPT_TRACE] != 0 and dist == 0:
            _trace(trace, stats, TRACE_PROBE, g, lbs[t], nparts[t], 0, 0)
        # parts biggest first
        part_order = np.argsort(cnt.astype(np.int64), kind="mergesort")
        need_group = False
        for r in range(R):
            if r != win and cnt[r] > 2:
                need_group = True
        if need_group:
            cperm, cphi = child_group(gperm, gphi, g, codes, game.perms)
        else:
            cperm, cphi = gperm, gphi
        cplayed = played | colmask[g]
        running = lbs[t]
        if dist == 0:
            stats[N_PARTS_DONE] = 0
            stats[N_PARTS] = nparts[t]
        for pi in range(R):
            r = part_order[pi]
            n = cnt[r]
            if n == 0 or r == win:
                continue
            if n <= 2:
                if opts[OPT_TRACE] != 0 and dist == 0:
                    _trace(trace, stats, TRACE_PART, g, r, n, ltab[kS, n], running)
                continue
            plb = ltab[kS, n]
            rest = running - plb
            part = buf[starts[r]:starts[r] + n]
            v = solve(part, depth - 1, best - rest, kS, dist + 1,
                      History(cperm, cphi, cplayed), game, bounds, memo, run)
            running = rest + v
            if dist == 0:
                stats[N_PARTS_DONE] += 1
            if opts[OPT_TRACE] != 0 and dist == 0:
                _trace(trace, stats, TRACE_PART, g, r, n, v, running)
            if running >= best:
                break
        if opts[OPT_TRACE] != 0 and dist == 0:
            _trace(trace, stats, TRACE_DONE, g, running, best, 0, 0)
        if running < best:
            best = running
            best_guess = g
            if dist == 0:
                stats[BEST_TOTAL] = best
        elif running < low:
            low = running
        if dist == 0:
            stats[N_FIRST_GUESSES_DONE] += 1
    if best_guess >= 0:
        memo_store(S, dkey, best, best_guess, mheads, ment, mpool, mmeta, stats)
        return best
    if stats[STOP] != 0:
        return max(lb, budget)
    result = max(lb, low)
    memo_store(S, dkey, result, np.int64(-1), mheads, ment, mpool, mmeta, stats)
    return result


@jit
def _same_cut(table, a_probe, b_probe, S, cand_a, cand_b, win, map_ab, map_ba):  # pragma: no cover
    """Return True when two probes split S into the same parts, with the winning part (if
    any) the same: answers are matched by order of first appearance."""
    if cand_a != cand_b:
        return False
    map_ab[:] = -1
    map_ba[:] = -1
    for j in range(S.shape[0]):
        a = table[a_probe, S[j]]
        b = table[b_probe, S[j]]
        if (a == win) != (b == win):
            return False
        if map_ab[a] < 0 and map_ba[b] < 0:
            map_ab[a] = b
            map_ba[b] = a
        elif map_ab[a] != b or map_ba[b] != a:
            return False
    return True


@jit
def _trace(trace, stats, kind, probe, a, b, c, d):  # pragma: no cover - compiled
    i = stats[N_TRACE_ROWS]
    if i < trace.shape[0]:
        trace[i, 0] = kind
        trace[i, 1] = probe
        trace[i, 2] = a
        trace[i, 3] = b
        trace[i, 4] = c
        trace[i, 5] = d
        stats[N_TRACE_ROWS] = i + 1
