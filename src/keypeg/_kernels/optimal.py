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
  capped), compared element by element, so a hash collision cannot change a result; small
  sets also by their image under a position x colour permutation (``canon.py``), so a
  permuted copy of a set solved before is not solved again;
* symmetry: probes are scored once per class of the group of position x colour
  permutations that fix every guess played so far (colours never played are renamed in
  order of appearance), and probes that use colours absent from every candidate are kept
  only with the smallest such colours; probes that cut S into the same parts (with the
  win in the same place) are expanded once;
* small sets: one or two codes in closed form; a candidate that separates every code
  costs 2m - 1, which nothing beats.

Weighted (``OPT_WEIGHTED``): each code s has an integer weight w(s) (``bounds.weights``) and
cost(S) = W(S) + min over g of the sum of cost(S_r), W the sum of the weights: the sum over
secrets of w(s) x the guesses that find s. Unit weights make every step below the unweighted
one (same bounds, order, shortcuts and tree). What changes:

* bounds: the codes with more than d guesses weigh at least W minus the f_k(d) heaviest
  weights (``weighted_set_bound``); a part of a probe is bounded from its count n and weight
  W_r alone, with the f heaviest of its weights at most both the f heaviest of S (a part is
  a subset) and W_r minus the n - f lightest of S (see ``score_probes``); once a probe is
  explored and its parts are built, each is bounded by its own weights (``_own_bound``);
* small sets: one code costs its weight, two cost W + the lighter (the heavier first); the
  closed forms for sets of at most R codes compare each candidate's exact-or-bound value
  with what any probe can do (see ``solve``); a set of weight 0 costs 0 when uncapped;
* parts of one or two codes are charged exactly as they come up (their bound may be lower);
* the memo is unchanged: the weights are fixed for a search, so set -> cost is a function;
  the symmetry group the caller passes must keep the weights (solver/search.py).

Options (`opts`): see the O_* indices. Counters (`stats`): see the S_* indices; setting
``stats[STOP]`` makes every node return its lower bound at once.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import types
from numba.typed import Dict

from ._config import jit, jit_inline, prefetch
from .canon import CANON_MAX, CANON_TAG, canonical_set, image_of
from .memo import memo_find_at, memo_hash, memo_prefetch, memo_store_at, peer_find
from .slots import (
    BEST_GUESS,
    BEST_TOTAL,
    ENTRY_GUESS,
    ENTRY_VALUE,
    LOWER_BOUND,
    N_CANON_CODES,
    N_COLUMN_CODES,
    N_FIRST_GUESSES,
    N_FIRST_GUESSES_DONE,
    N_MEMO_HITS,
    N_PARTS,
    N_PARTS_DONE,
    N_PEER_HITS,
    N_PROBES,
    N_PROBES_FULL,
    N_SETS,
    N_SHORTCUTS,
    N_TRACE_ROWS,
    OPT_ANSWERS,
    OPT_CAPPED,
    OPT_COLUMN_COPIES,
    OPT_FIRST_GUESS,
    OPT_IMAGES_FROM,
    OPT_POSSIBLE_ONLY,
    OPT_PROBE_CODES,
    OPT_REPEATS,
    OPT_ROOT_WORKER,
    OPT_SHARE_DIST,
    OPT_SYMBOLS,
    OPT_SYMMETRIC_TABLE,
    OPT_SYMMETRY,
    OPT_TRACE,
    OPT_WEIGHTED,
    OPT_WIN,
    ROOT_NONE,
    ROOT_RANK_BITS,
    STOP,
    TRACE_DONE,
    TRACE_PART,
    TRACE_PROBE,
    TRACE_PRUNED,
    History,
)
from .symmetry import canonical_identity, canonical_under, colour_classes
from .symmetry import popcount as _popcount

#: Stands for "no tree fits"; above any weighted total (weights of at most 2**30, times
#: fewer than 2**20 codes (a feedback table of a TiB), times fewer than 64 guesses), and
#: twice it still fits an int64.
INF = np.int64(1) << np.int64(60)



def bound_tables(n_max: int, R: int, possible_only: bool, d_max: int = 64):
    """Return (ltab, ctab): ``ctab[k, d]`` the most codes d guesses can finish when no probe
    makes more than k parts, and ``ltab[k, n]`` the fewest guesses n codes then need. (Copies
    of tables made once per arguments: made in Python, they took 10-20 ms for a position's
    search, a search per worker.)"""
    ltab, ctab = _bound_tables(n_max, R, possible_only, d_max)
    return ltab.copy(), ctab.copy()


@functools.lru_cache(maxsize=64)
def _bound_tables(n_max: int, R: int, possible_only: bool, d_max: int):
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
            if ctab[k, d] >= n_max:
                break  # d guesses finish every set this size: nothing more to add
            total += np.maximum(0, n - ctab[k, d])
        ltab[k] = total
    return ltab, ctab


@jit
def weight_prefix(S, weights):  # pragma: no cover - compiled
    """Return ``bot``: ``bot[i]`` the sum of the i lightest weights of S (``bot[m]`` = W).
    The f heaviest then weigh W - bot[m - f]."""
    m = S.shape[0]
    ws = np.empty(m, dtype=np.int64)
    for i in range(m):
        ws[i] = weights[S[i]]
    ws.sort()
    bot = np.zeros(m + 1, dtype=np.int64)
    for i in range(m):
        bot[i + 1] = bot[i] + ws[i]
    return bot


@jit
def weighted_set_bound(bot, ctab, k):  # pragma: no cover - compiled
    """Return the least weighted cost of a set whose sorted weights give `bot` (see
    `weight_prefix`) when no probe makes more than k parts.

    Proof: the cost is the sum over d >= 0 of the weight of the codes not yet found after d
    guesses. At most f = ``ctab[k, d]`` codes are found within d guesses (f = 0 for d = 0),
    and they weigh at most the f heaviest, W - bot[m - f]; so the codes left weigh at least
    bot[m - f]. With unit weights this is ``ltab[k, m]``."""
    m = bot.shape[0] - 1
    total = bot[m]
    for d in range(1, ctab.shape[1]):
        f = ctab[k, d]
        if f >= m:
            break
        total += bot[m - f]
    return total


@jit
def _own_bound(buf, lo, n, weights, ctab, k):  # pragma: no cover - compiled
    """Return `weighted_set_bound` of the n codes ``buf[lo:lo + n]``; without sorting when
    two guesses can finish them (then 2W minus the heaviest)."""
    if n > ctab[k, 2]:
        return weighted_set_bound(weight_prefix(buf[lo:lo + n], weights), ctab, k)
    total = np.int64(0)
    heaviest = np.int64(0)
    for i in range(lo, lo + n):
        w = weights[buf[i]]
        total += w
        if w > heaviest:
            heaviest = w
    return 2 * total - heaviest


@jit
def weight_keeping(codes, iperms, elem_perm, elem_phi, keys, key_order, weights,
                   nsym):  # pragma: no cover - compiled
    """Return, per group element (position permutation ``elem_perm[e]``, colour map
    ``elem_phi[e]``), whether it keeps every code's weight: weights[image of x] ==
    weights[x] for every code x. The image of x has ``phi[x[iperms[pe, j]]]`` at position j
    (the action `symmetry.canonical_under` uses); codes are found by their base-`nsym` key in the
    sorted `keys` (``key_order`` maps back to code indices)."""
    E = elem_perm.shape[0]
    N, p = codes.shape
    keep = np.zeros(E, dtype=np.bool_)
    for e in range(E):
        pe = elem_perm[e]
        ok = True
        for x in range(N):
            key = np.int64(0)
            for j in range(p):
                key = key * nsym + elem_phi[e, codes[x, iperms[pe, j]]]
            i = np.searchsorted(keys, key)
            if i >= keys.shape[0] or keys[i] != key or weights[key_order[i]] != weights[x]:
                ok = False
                break
        keep[e] = ok
    return keep


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
def clue_group(gperm, gphi, g, r, codes, perms, marks):  # pragma: no cover - compiled
    """Return the elements of a group fixing code g (`child_group`) that also keep the
    positional answer r to g, so they map the codes giving answer r onto themselves.

    An element (position permutation pi, colour map phi) with pi(g) = phi(g) maps the
    answer of g to s onto the answer of g to its image: greens at pi(G), and on each
    colour phi(c) as many ambers as c had, on the leftmost such non-green positions. The
    answer is kept when pi(G) = G and every colour of g has as many ambers as its image
    (`marks[r, k]`: 0 gray, 1 amber, 2 green at position k)."""
    G = gperm.shape[0]
    p = codes.shape[1]
    nsym = gphi.shape[1]
    keep = np.zeros(G, dtype=np.bool_)
    ambers = np.zeros(nsym, dtype=np.int64)
    for k in range(p):
        if marks[r, k] == 1:
            ambers[codes[g, k]] += 1
    n = 0
    for e in range(G):
        pi = perms[gperm[e]]
        ok = True
        for k in range(p):
            if (marks[r, k] == 2) != (marks[r, pi[k]] == 2):
                ok = False
                break
            c = codes[g, k]
            d = gphi[e, c]
            if d >= 0 and ambers[d] != ambers[c]:
                ok = False
                break
        keep[e] = ok
        if ok:
            n += 1
    out_perm = np.empty(n, dtype=gperm.dtype)
    out_phi = np.empty((n, nsym), dtype=gphi.dtype)
    i = 0
    for e in range(G):
        if keep[e]:
            out_perm[i] = gperm[e]
            out_phi[i] = gphi[e]
            i += 1
    return out_perm, out_phi


@jit
def _image_taken(phi, d, old_phi):  # pragma: no cover - compiled
    """Return True when some colour already maps to d (so d cannot be a new image)."""
    for c in range(phi.shape[0]):
        if phi[c] == d:
            return True
    return False


#: Most (group, played, absent colours) keys whose canonical probes are remembered, and
#: the fewest codes they may hold in all (32 MiB; more where the memo leaves its budget
#: unused: OPT_PROBE_CODES).
CANON_CACHE = 4096
CANON_CACHE_CODES = 1 << 22


@jit
def _group_signature(played, zero_mask, gperm, gphi):  # pragma: no cover - compiled
    """The played and absent colours and every element of the group, as one int64 array."""
    G, nsym = gphi.shape
    sig = np.empty(3 + G * (1 + nsym), dtype=np.int64)
    sig[0], sig[1], sig[2] = played, zero_mask, G
    i = 3
    for e in range(G):
        sig[i] = gperm[e]
        i += 1
        for c in range(nsym):
            sig[i] = gphi[e, c]
            i += 1
    return sig


@jit
def _signature_key(sig):  # pragma: no cover - compiled
    """A hash of a group signature, with bit 62 set (keys of the identity alone are below
    2**62)."""
    h = np.uint64(1469598103934665603)
    for i in range(sig.shape[0]):
        h ^= np.uint64(sig[i] & 0xFFFFFFFF) + np.uint64(0x9E3779B97F4A7C15)
        h *= np.uint64(1099511628211)
        h ^= h >> np.uint64(29)
    return np.int64((h >> np.uint64(2)) | (np.uint64(1) << np.uint64(62)))


@jit
def _canonical_pool(codes, pool, gperm, gphi, iperms, free_list, n_free, zero_list, is_zero,
                    opts, colmask, inversions):  # pragma: no cover - compiled
    """The codes of `pool` that are the least of their class under the group (the one-step
    strategies' rule, `symmetry.canonical_under`), or all of them without symmetry. With
    the identity alone (played colours kept, the others free or zero) and each code's
    `inversions` given, by masks (`symmetry.canonical_identity`): the same codes."""
    if opts[OPT_SYMMETRY] == 0:
        return pool.copy()
    ok = np.zeros(pool.shape[0], dtype=np.bool_)
    n_zero = 0
    for c in range(is_zero.shape[0]):
        n_zero += 1 if is_zero[c] else 0
    identity = gperm.shape[0] == 1 and inversions.shape[0] > 0
    if identity:
        for j in range(iperms.shape[1]):
            identity = identity and iperms[gperm[0], j] == j
        for c in range(gphi.shape[1]):
            keeps = gphi[0, c] == c or (gphi[0, c] < 0 and (is_zero[c] or _listed(c, free_list,
                                                                                  n_free)))
            identity = identity and keeps
    if identity:
        canonical_identity(colmask, inversions, pool, free_list, n_free, zero_list, n_zero,
                           opts[OPT_REPEATS] != 0, ok)
    else:
        canonical_under(codes, pool, gperm, gphi, iperms, free_list, n_free, zero_list,
                        n_zero, is_zero, opts[OPT_REPEATS] != 0, False, ok)
    return pool[ok]


@jit_inline
def _listed(c, lst, n):  # pragma: no cover - compiled
    """Whether c is among the first n entries of `lst`."""
    for i in range(n):
        if lst[i] == c:
            return True
    return False


_PROBE_LIST = types.int64[:]


@jit
def new_probe_cache():  # pragma: no cover - compiled
    """Return an empty cache of canonical probes (`slots.Run.probe_cache`). Built by a
    cached kernel: a typed dict made from Python compiles its helpers in every process
    (0.2 s of every cold search)."""
    return Dict.empty(key_type=types.int64, value_type=_PROBE_LIST)


@jit
def new_use_counts():  # pragma: no cover - compiled
    """Return an empty count of lookups per key of the probe cache (`slots.Run`)."""
    return Dict.empty(key_type=types.int64, value_type=types.int64)


@jit
def _remember(run, key, kept):  # pragma: no cover - compiled
    """Cache `kept` (a list of canonical probes, or a group's signature and its probes)
    under `key` within CANON_CACHE entries and OPT_PROBE_CODES codes in all; when there
    is no room, the lists looked up least give way, one by one, to a list looked up more
    often (`run.probe_uses` counts the lookups per key from the first time there was no
    room), with the copies of a view's columns made for them. Returns whether `kept` is
    cached."""
    cache, uses, stats = run.probe_cache, run.probe_uses, run.counters
    n = kept.shape[0]
    room = run.options[OPT_PROBE_CODES]
    if n > room:
        stats[N_PROBES_FULL] = 1
        return False
    if key in cache:  # another group's, under this key
        _forget(run, key)
    want = uses.get(key, 0)
    while len(cache) >= CANON_CACHE or stats[N_CANON_CODES] + n > room:
        low_key = np.int64(0)
        low = want
        for other in cache:
            u = uses.get(other, 0)
            if u < low:
                low = u
                low_key = other
        if low >= want:
            stats[N_PROBES_FULL] = 1
            return False
        _forget(run, low_key)
    cache[key] = kept
    stats[N_CANON_CODES] += n
    return True


@jit_inline
def _count_lookup(run, key):  # pragma: no cover - compiled
    """Count a lookup of the probe cache under `key`, once the cache has been full."""
    if run.counters[N_PROBES_FULL] != 0:
        run.probe_uses[key] = run.probe_uses.get(key, 0) + 1


@jit
def _forget(run, key):  # pragma: no cover - compiled
    """Drop the probes cached under `key`, and the copy of a view's columns made for them."""
    stats = run.counters
    stats[N_CANON_CODES] -= run.probe_cache.pop(key).shape[0]
    if key in run.column_cache:
        stats[N_COLUMN_CODES] -= run.column_cache.pop(key).shape[1]


@jit
def new_column_cache(columns):  # pragma: no cover - compiled
    """Return an empty cache of a view's columns for lists of probes (`slots.Run`), its
    values of the type of `columns` (one byte or two per answer)."""
    d = Dict()
    d[np.int64(-1)] = columns
    d.pop(np.int64(-1))
    return d


@jit
def lbs_empty(P):  # pragma: no cover - compiled
    return np.full(P, INF, dtype=np.int64)


@jit
def score_probes(S, depth, budget, kmax, dist, lb, history, game, bounds,
                 run):  # pragma: no cover
    """Choose the probes worth scoring on S (one per symmetry class), count how each cuts S,
    and bound each one. Returns (probes, counts, nparts, lbs, live, keys, kS, lb, low,
    is_cand, pbs): `live` lists the probes under `budget` (in code order), to be taken by
    `keys`, cheapest bound first and candidates first among equals; kS is the most parts any
    probe makes; lb the raised lower bound of S; low the least bound among the probes the
    budget already rules out; pbs[t, r] the bound counted for part r of probe t when
    weighted (no rows otherwise: the bound is then ``ltab[kS, n]``). The groups
    (`slots.History`, `Game`, `Bounds`, `Run`) are read into local names once."""
    gperm, gphi, played = history.perms, history.colour_maps, history.played
    table, codes, colmask, iperms = game.table, game.codes, game.colours, game.inverse_perms
    ltab, ctab, weights = bounds.fewest, bounds.most, bounds.weights
    opts, stats, trace, canon_cache = run.options, run.counters, run.trace, run.probe_cache
    weighted = opts[OPT_WEIGHTED] != 0
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
    forced = dist == 0 and first >= 0
    keyed = False  # the probes are those cached under `key` (and stay so)
    key = np.int64(0)
    if forced:
        probes = np.empty(1, dtype=np.int64)
        probes[0] = first
    else:
        # The probes depend on the group, the played and the absent colours alone: remember
        # them. With the identity alone the played and absent colours are the key; else
        # the key is a hash of the whole group, checked against the copy kept in front of
        # the probes. Within CANON_CACHE entries and OPT_PROBE_CODES codes in all.
        cacheable = not possible_only and nsym <= 31 and opts[OPT_SYMMETRY] != 0
        if cacheable:
            zero_mask = np.int64(0)
            for c in range(n_zero):
                zero_mask |= np.int64(1) << np.int64(zero_list[c])
            if gperm.shape[0] == 1:
                key = (np.int64(played) << np.int64(31)) | zero_mask
                _count_lookup(run, key)
                if key in canon_cache:
                    probes = canon_cache[key]
                    keyed = True
                else:
                    probes = _canonical_pool(codes, game.probe_order, gperm, gphi, iperms,
                                             free_list, n_free, zero_list, is_zero, opts,
                                             colmask, game.inversions)
                    keyed = _remember(run, key, probes)
            else:
                sig = _group_signature(np.int64(played), zero_mask, gperm, gphi)
                L = sig.shape[0]
                key = _signature_key(sig)
                _count_lookup(run, key)
                found = False
                if key in canon_cache:
                    kept = canon_cache[key]
                    if kept.shape[0] > L and kept[0] == L:
                        found = True
                        for i in range(L):
                            if kept[1 + i] != sig[i]:
                                found = False
                                break
                    if found:
                        probes = kept[1 + L:]
                        keyed = True
                if not found:
                    probes = _canonical_pool(codes, game.probe_order, gperm, gphi, iperms,
                                             free_list, n_free, zero_list, is_zero, opts,
                                             colmask, game.inversions)
                    kept = np.empty(1 + L + probes.shape[0], dtype=np.int64)
                    kept[0] = L
                    kept[1:1 + L] = sig
                    kept[1 + L:] = probes
                    keyed = _remember(run, key, kept)
        else:
            pool = S.astype(np.int64) if possible_only else game.probe_order
            probes = _canonical_pool(codes, pool, gperm, gphi, iperms, free_list, n_free,
                                     zero_list, is_zero, opts, colmask, game.inversions)
    P = probes.shape[0]
    # A view's answers by column for these probes: the view's own columns when every probe
    # is scored; else a copy of the columns of the probes cached under `key` (a group
    # left), made once, within this search's share of COLUMN_COPIES times the view's codes
    # (OPT_COLUMN_COPIES)
    columns = game.columns
    if keyed and columns.shape[0] > 0 and P < columns.shape[1]:
        if key in run.column_cache:
            columns = run.column_cache[key]
        elif stats[N_COLUMN_CODES] + P <= opts[OPT_COLUMN_COPIES]:
            copy = _column_copy(columns, game.probe_order, probes)
            if copy.shape[1] == P:
                run.column_cache[key] = copy
                stats[N_COLUMN_CODES] += P
                columns = copy
    # A small set no candidate tells apart nor leaves a single pair in (`_settle` raised lb
    # to 2m): the probes that split it into parts of at most three codes have a value in
    # closed form, and among them lie the search's choice whenever it costs little. Find it
    # by one scan in probe order that stops reading a probe as soon as it can no longer be
    # chosen (`_tiny_scan`); only when that cannot decide is every probe counted below.
    tiny = (not weighted and not forced and not possible_only and opts[OPT_TRACE] == 0
            and dist > 0 and depth >= 3 and TINY_MIN <= m and m <= R and R <= 64
            and lb >= 2 * m and lb < 2 * m + TINY_REACH)
    # (on a full table, its rows are the columns: table[s, g] == table[g, s], read a span of
    # codes at a time, when the probes are `_dense`)
    span = tiny and opts[OPT_SYMMETRIC_TABLE] != 0
    dense = span and _dense(probes)  # (read again for `table_words` below)
    if span:
        tiny = dense
    if tiny:
        by_set = (game.set_columns, game.set_starts, game.set_ranks)
        done, lb, out = _tiny_path(S, probes, table, table if span else columns,
                                   game.code_sets, game.set_shared, by_set, is_cand, budget,
                                   depth, lb, kmax, R, span, stats)
        if done:
            return out
    # Unweighted on a table read probe by probe (positional answers, a candidate view):
    # each probe's non-winning part sizes are listed (at most min(m, R) of them) instead
    # of keeping a row of R counts per probe; with many answers (243 for five positional
    # pegs) and small sets this saves zeroing and scanning rows that are nearly all empty.
    # `solve` recounts the few probes it explores.
    symmetric = opts[OPT_SYMMETRIC_TABLE] != 0
    # Unweighted with at most 30 answers and 15 codes (most nodes of black/white games up
    # to six pegs): each probe's counts are packed as 4-bit fields of one word (two past
    # 15 answers): a shift and an add per code, no memory traffic, its parts counted in a
    # few word operations; `solve` recounts the few probes it explores. On a full table,
    # up to 45 answers (seven and eight pegs) in three words.
    packed = (not weighted and m <= PACKED_CODES
              and (R <= 2 * PACKED_ANSWERS or (symmetric and R <= 3 * PACKED_ANSWERS)))
    wide = R > PACKED_ANSWERS  # answers 15 and up in a second word (five or six pegs)
    triple = packed and R > 2 * PACKED_ANSWERS  # answers 30 and up in a third
    # bigger sets (at most 127 codes, 16 answers): 8-bit fields, answers 8 and up in a
    # second word
    in_bytes = not weighted and not packed and R <= BYTE_ANSWERS and m <= BYTE_CODES
    # ... on a full table with 17 to 32 answers (five and six pegs): bytes of four words,
    # a block of probes at a time (`_table_words`), instead of a row of R counts per probe
    table_words = (not weighted and symmetric and not (packed or in_bytes)
                   and R <= COLUMN_ANSWERS and m <= COLUMN_CODES
                   and (dense if span else _dense(probes)))
    sparse = not weighted and not symmetric and not (packed or in_bytes)
    # Small sets no candidate tells apart (`_settle` then raised lb to 2m): a probe that
    # does (a non-candidate) costs 2m, the least possible, and is the first such probe in
    # probe order, the one the search below would choose: counting stops there.
    perfect = (not weighted and not forced and opts[OPT_TRACE] == 0 and m <= R
               and lb >= 2 * m)
    # (written in full by the counting below, as are nparts, bigs where read, and useful:
    # not zeroed first)
    accs = np.empty(P if packed or in_bytes else 0, dtype=np.uint64)
    # (the third words after the second: no array of its own to make at every node)
    highs = np.empty(2 * P if triple else (P if (packed and wide) or in_bytes else 0),
                     dtype=np.uint64)
    tops = highs[P:]
    counts = np.zeros((0 if sparse or packed or in_bytes or table_words else P, R),
                      dtype=np.int32)
    # ... or, every probe of a view scored, with at most 32 answers and 127 codes: counts
    # in bytes of four words from the view's columns (vector code), listed only for the
    # probes with a part too big for the closed-form bound
    by_words = (sparse and columns.shape[1] == P and R <= COLUMN_ANSWERS
                and m <= COLUMN_CODES)
    words = np.empty((P if by_words or table_words else 0, 4), dtype=np.uint64)
    width = min(m, R) if sparse and not by_words else 0
    sizes = np.empty((P if sparse and not by_words else 0, width), dtype=np.int32)
    nsizes = np.zeros(P if sparse and not by_words else 0, dtype=np.int64)
    nparts = np.empty(P, dtype=np.int64)
    bigs = np.empty(P, dtype=np.int64)  # each probe's largest part (rows and lists only)
    useful = np.empty(P, dtype=np.bool_)
    kS = 1
    # weighted: each part's weight, and the bound counted for it
    wsum = np.zeros((P if weighted else 0, R), dtype=np.int64)
    pbs = np.zeros((P if weighted else 0, R), dtype=np.int64)
    if weighted:
        # the same passes, adding each candidate's weight to its part
        if opts[OPT_SYMMETRIC_TABLE] != 0:
            for j in range(m):
                if stats[STOP] != 0:
                    break
                s = S[j]
                ws = weights[s]
                for t in range(P):
                    r = table[s, probes[t]]
                    counts[t, r] += 1
                    wsum[t, r] += ws
        else:
            for t in range(P):
                if stats[STOP] != 0:
                    break
                g = probes[t]
                for j in range(m):
                    r = table[g, S[j]]
                    counts[t, r] += 1
                    wsum[t, r] += weights[S[j]]
    elif table_words:
        kS = _table_words(S, probes, table, words, nparts, useful, stats)
    elif by_words:
        counted, kS = _column_words(S, probes, columns, words, nparts, useful, is_cand,
                                    perfect, stats)
        if counted < P:
            P = counted
            probes, words, nparts, useful = probes[:P], words[:P], nparts[:P], useful[:P]
    elif sparse:
        counted, kS = _listed_counts(S, probes, table, R, win, sizes, nsizes, nparts, bigs,
                                     useful, is_cand, perfect, stats)
        if counted < P:
            P = counted
            probes, sizes, nsizes = probes[:P], sizes[:P], nsizes[:P]
            nparts, bigs, useful = nparts[:P], bigs[:P], useful[:P]
    elif (packed or in_bytes) and not symmetric:
        # table[g, s] (a candidate view, positional answers): read probe by probe
        if columns.shape[1] == P:  # a view: its columns read along
            counted = _column_counts(S, probes, columns, accs, highs, nparts, packed,
                                     wide, is_cand, perfect, stats)
        else:
            counted = _row_counts(S, probes, table, accs, highs, nparts, packed, wide,
                                  is_cand, perfect, stats)
        if counted < P:
            P = counted
            probes, accs, nparts = probes[:P], accs[:P], nparts[:P]
            if highs.shape[0] > 0:
                highs = highs[:P]
        for t in range(P):
            useful[t] = nparts[t] > 1
            if nparts[t] > kS:
                kS = nparts[t]
    elif packed:
        if triple:
            _packed_counts_triple(S, probes, table, accs, highs, tops, stats)
        elif wide:
            _packed_counts_wide(S, probes, table, accs, highs, stats)
        else:
            _packed_counts(S, probes, table, accs, stats)
        for t in range(P):
            k = _packed_parts(accs[t])
            if wide:
                k += _packed_parts(highs[t])
            if triple:
                k += _packed_parts(tops[t])
            nparts[t] = k
            useful[t] = k > 1
            if k > kS:
                kS = k
    elif in_bytes:
        _byte_counts(S, probes, table, accs, highs, stats)
        for t in range(P):
            k = _byte_parts(accs[t]) + _byte_parts(highs[t])
            nparts[t] = k
            useful[t] = k > 1
            if k > kS:
                kS = k
    else:
        # table[g, s] == table[s, g] (not sparse): read each candidate's row once, in probe
        # order (a few cache lines per candidate) instead of m scattered bytes per probe
        for j in range(m):
            if stats[STOP] != 0:
                break  # the caller gave up: the counts are not used
            s = np.uint64(S[j])
            for t in range(P):  # unsigned indices: no negative-index tests
                counts[np.uint64(t), np.uint64(table[s, np.uint64(probes[t])])] += 1
    for t in range(0 if sparse or packed or in_bytes or table_words else P):
        k = 0
        biggest = 0
        for r in range(R):  # branch-free: a short row of counts
            n = counts[t, r]
            k += 1 if n > 0 else 0
            biggest = n if n > biggest else biggest
        nparts[t] = k
        bigs[t] = biggest
        useful[t] = biggest < m
        if useful[t] and k > kS:
            kS = k
    stats[N_PROBES] += P
    if kS > kmax or forced:
        kS = kmax  # a forced probe says nothing about what other probes can do
    if weighted:
        bot = weight_prefix(S, weights)
        lbS = weighted_set_bound(bot, ctab, kS)
    else:
        bot = np.zeros(1, dtype=np.int64)
        lbS = ltab[kS, m]
    if lbS > lb:
        lb = lbS
    # (not once told to stop: the counts may then be partial, kS too few, and the bound
    # from it too high, far above the optimum)
    if dist == 0 and stats[STOP] == 0 and lb > stats[LOWER_BOUND]:
        stats[LOWER_BOUND] = lb
    if lb >= budget:
        return (probes, counts, nparts, lbs_empty(P), probes[:0], probes[:0], kS, lb, INF,
                is_cand, pbs)
    # bounds, feasibility under the depth cap, and the order of the probes
    low = INF
    dnext = min(depth - 1, dmax)
    cap = ctab[kS, dnext]
    keys = np.empty(P, dtype=np.int64)
    lbs = np.empty(P, dtype=np.int64)
    # Closed form: a part of n <= ctab[kS, 2] codes (= kS) has bound ltab[kS, n] = 2n - 1
    # (one guess, then one more for each code left), so when every part is that small the
    # bound m + sum(2 n_r - 1) over the parts other than the win is 3m - w - k, with w = 1
    # for a candidate probe (its winning part) and k its parts; the table is read only
    # for probes with a bigger part (unweighted).
    small = ctab[kS, 2] if dmax >= 2 else np.int64(0)
    if small > cap:
        small = cap
    n_live = 0
    live = np.empty(P, dtype=np.int64)
    tracing = opts[OPT_TRACE] != 0 and dist == 0
    if weighted:
        _weighted_probe_bounds(counts, wsum, useful, bot, ctab[kS], cap, win, probes, is_cand,
                               lbs, keys, pbs)
        for t in range(P):
            if lbs[t] < budget:
                live[n_live] = t
                n_live += 1
            else:
                if lbs[t] < low:
                    low = lbs[t]  # a probe the budget rules out still bounds the cost of S
                if tracing and lbs[t] < INF:
                    _trace(trace, stats, TRACE_PRUNED, probes[t], lbs[t], budget, 0, 0)
    elif (packed or in_bytes) and not tracing:
        # the same pass for the commonest nodes (counts packed in one to three words per
        # probe), with nothing tested per probe that is known for the node
        if triple:
            n_live, low = _packed_pass_triple(accs, highs, tops, nparts, probes, is_cand,
                                              small, win, ltab[kS], cap, m, budget, lbs, keys,
                                              live)
        else:
            n_live, low = _packed_pass(accs, highs, nparts, probes, is_cand, packed, wide,
                                       small, R, win, ltab[kS], cap, m, budget, lbs, keys,
                                       live)
    else:
        # one pass: each probe's bound and key, and whether the budget leaves it live
        f = ltab[kS]
        for t in range(P):
            total = INF
            w = 0
            if useful[t]:
                w = 1 if is_cand[np.uint64(probes[t])] else 0
                if packed:
                    high = highs[t] if wide else np.uint64(0)
                    top = tops[t] if triple else np.uint64(0)
                    if not (_packed_over(accs[t], small) or _packed_over(high, small)
                            or _packed_over(top, small)):
                        total = 3 * m - w - nparts[t]
                    else:
                        total = _packed_bound(accs[t], high, top, R, win, f, cap, m)
                elif in_bytes:
                    if not (_byte_over(accs[t], small) or _byte_over(highs[t], small)):
                        total = 3 * m - w - nparts[t]
                    else:
                        total = _byte_bound(accs[t], highs[t], R, win, f, cap, m)
                elif by_words or table_words:
                    if not (_byte_over(words[t, 0], small) or _byte_over(words[t, 1], small)
                            or _byte_over(words[t, 2], small)
                            or _byte_over(words[t, 3], small)):
                        total = 3 * m - w - nparts[t]
                    else:
                        total = _words_bound(words[t], R, win, f, cap, m)
                elif bigs[t] <= small:
                    total = 3 * m - w - nparts[t]
                elif sparse:
                    total = _listed_bound(sizes[t], nsizes[t], f, cap, m)
                else:
                    total = _row_bound(counts[t], win, f, cap, m)
            lbs[t] = total
            keys[t] = 2 * total + 1 - w if total < INF else INF
            if total < budget:
                live[n_live] = t
                n_live += 1
            else:
                if total < low:
                    low = total  # a probe the budget rules out still bounds the cost of S
                if tracing and total < INF:
                    _trace(trace, stats, TRACE_PRUNED, probes[t], total, budget, 0, 0)
    return probes, counts, nparts, lbs, live[:n_live], keys, kS, lb, low, is_cand, pbs


@jit
def _packed_pass(accs, highs, nparts, probes, is_cand, packed, wide, small, R, win, f, cap, m,
                 budget, lbs, keys, live):  # pragma: no cover - compiled
    """`score_probes`' bound pass over counts packed in words (4-bit fields, a second word
    when `wide`; else 8-bit fields in two words): each probe's bound and key, the live
    probes listed; returns their number and the least bound the budget rules out. One loop
    per field width, testing per probe nothing known for the node; compiled on its own (not
    inlined into `_expand`), where its arrays stay in registers (measured faster).

    A part of n <= `small` codes is bounded by f[n] = 2n - 1, so a probe's bound is its
    closed form 3m - w - k plus, for each part past `small` (other than the win), what
    f[n] adds to 2n - 1 (INF past `cap`): only those fields are read (`_excess_nibbles`,
    `_excess_bytes`; reading every answer's field cost about 47 cycles per probe where
    most probes have a big part)."""
    n_live = 0
    low = INF
    zero = np.uint64(0)
    # a field over `small`: its lane's top bit set once 127 - small is added to each
    add = np.uint64(127 - small) * _LANE_ONE if small < 127 else zero
    if packed:
        for t in range(accs.shape[0]):
            total = INF
            w = 0
            k = nparts[t]
            if k > 1:  # useful
                w = 1 if is_cand[np.uint64(probes[t])] else 0
                high = highs[t] if wide else zero  # (wide is the same for every probe)
                total = 3 * m - w - k
                if _packed_over(accs[t], small) or _packed_over(high, small):
                    extra = _excess_nibbles(accs[t], 0, add, win, f, cap)
                    if wide and extra < INF:
                        extra += _excess_nibbles(high, PACKED_ANSWERS - 1, add, win, f, cap)
                    total = INF if extra >= INF else total + extra
            n_live, low = _keep(t, total, w, budget, lbs, keys, live, n_live, low)
    else:
        for t in range(accs.shape[0]):
            total = INF
            w = 0
            k = nparts[t]
            if k > 1:
                w = 1 if is_cand[np.uint64(probes[t])] else 0
                total = 3 * m - w - k
                if _byte_over(accs[t], small) or _byte_over(highs[t], small):
                    extra = _excess_bytes(accs[t], 0, add, win, f, cap)
                    if extra < INF:
                        extra += _excess_bytes(highs[t], 8, add, win, f, cap)
                    total = INF if extra >= INF else total + extra
            n_live, low = _keep(t, total, w, budget, lbs, keys, live, n_live, low)
    return n_live, low


@jit
def _packed_pass_triple(accs, highs, tops, nparts, probes, is_cand, small, win, f, cap, m,
                        budget, lbs, keys, live):  # pragma: no cover - compiled
    """`_packed_pass` over counts in three words of 4-bit fields (seven and eight pegs:
    answers 15 and up in `highs`, 30 and up in `tops`, each from its field 1); a function
    of its own, so that the commoner one- and two-word pass tests nothing more per probe
    (measured: MM(4,7) about 4 % slower when one loop served all three)."""
    n_live = 0
    low = INF
    add = np.uint64(127 - small) * _LANE_ONE if small < 127 else np.uint64(0)
    for t in range(accs.shape[0]):
        total = INF
        w = 0
        k = nparts[t]
        if k > 1:  # useful
            w = 1 if is_cand[np.uint64(probes[t])] else 0
            total = 3 * m - w - k
            if (_packed_over(accs[t], small) or _packed_over(highs[t], small)
                    or _packed_over(tops[t], small)):
                extra = _excess_nibbles(accs[t], 0, add, win, f, cap)
                if extra < INF:
                    extra += _excess_nibbles(highs[t], PACKED_ANSWERS - 1, add, win, f, cap)
                if extra < INF:
                    extra += _excess_nibbles(tops[t], 2 * PACKED_ANSWERS - 1, add, win, f, cap)
                total = INF if extra >= INF else total + extra
        n_live, low = _keep(t, total, w, budget, lbs, keys, live, n_live, low)
    return n_live, low


@jit_inline
def _excess_nibbles(word, first, add, win, f, cap):  # pragma: no cover - compiled
    """What the parts in `word`'s 4-bit fields past `small` (field i: answer first + i; `add`
    is 127 - small in each byte lane) add to their closed-form bound 2n - 1: f[n] - (2n - 1)
    each, the win left out; INF for one past `cap`. The even fields, then the odd ones,
    spread to byte lanes."""
    even = _excess_lanes(word, ((word & _NIBBLE_EVEN) + add) & _LANE_TOP, 4, 0, first, win,
                         f, cap)
    if even >= INF:
        return INF
    odd = _excess_lanes(word, (((word >> np.uint64(4)) & _NIBBLE_EVEN) + add) & _LANE_TOP, 4,
                        1, first, win, f, cap)
    return INF if odd >= INF else even + odd


@jit_inline
def _excess_bytes(word, first, add, win, f, cap):  # pragma: no cover - compiled
    """`_excess_nibbles` for 8-bit fields (each at most 127)."""
    return _excess_lanes(word, (word + add) & _LANE_TOP, 8, 0, first, win, f, cap)


@jit_inline
def _excess_lanes(word, tops, width, parity, first, win, f, cap):  # pragma: no cover
    """The sum of f[n] - (2n - 1) over the fields of `word` (`width` bits) whose byte lane
    has its top bit in `tops` (lane b: field b, or field 2b + parity for 4-bit fields), the
    win's field (answer first + field) left out; INF for one of more than `cap` codes."""
    extra = np.int64(0)
    per_lane = 8 // width
    while tops != np.uint64(0):
        lane = np.int64(_popcount((tops & (~tops + np.uint64(1))) - np.uint64(1))) >> 3
        tops &= tops - np.uint64(1)
        field = per_lane * lane + parity
        if first + field == win:
            continue
        n = np.int64((word >> np.uint64(width * field)) & np.uint64((1 << width) - 1))
        if n > cap:
            return INF
        extra += f[n] - (2 * n - 1)
    return extra


@jit_inline
def _keep(t, total, w, budget, lbs, keys, live, n_live, low):  # pragma: no cover - compiled
    """Record probe t's bound and key (cheapest first, candidates first among equals); list
    it when the budget leaves it live, else keep the least bound ruled out."""
    lbs[t] = total
    keys[t] = 2 * total + 1 - w if total < INF else INF
    live[n_live] = t
    if total < budget:
        return n_live + 1, low
    return n_live, min(low, total)


@jit_inline
def _listed_bound(sizes, n, f, cap, m):  # pragma: no cover - compiled
    """m plus f[size] over a probe's listed non-winning part sizes; INF past `cap`."""
    total = np.int64(m)
    for i in range(n):
        if sizes[i] > cap:
            return INF
        total += f[sizes[i]]
    return total


#: The packed counts (see `score_probes`): 4-bit fields of a uint64, so at most 15 answers
#: a word (their non-zero fields summed in one nibble; two words hold 30) and 15 codes (a
#: field's largest count).
PACKED_ANSWERS = 15
PACKED_CODES = 15
_NIBBLE_LOW = np.uint64(0x1111111111111111)
_NIBBLE_EVEN = np.uint64(0x0F0F0F0F0F0F0F0F)
_LANE_TOP = np.uint64(0x8080808080808080)
_LANE_ONE = np.uint64(0x0101010101010101)


@jit_inline
def _flat_rows(S, table):  # pragma: no cover - compiled
    """The table as one flat array, and where each code of S starts in it (unsigned: numba
    then skips the negative-index test in the counting loops)."""
    N = np.uint64(table.shape[1])
    rows = np.empty(S.shape[0], dtype=np.uint64)
    for j in range(S.shape[0]):
        rows[j] = np.uint64(S[j]) * N
    return table.reshape(-1), rows


@jit_inline
def _is_run(probes):  # pragma: no cover - compiled
    """Whether the probes are a run of consecutive codes, in order."""
    P = probes.shape[0]
    if P == 0 or probes[P - 1] - probes[0] != P - 1:
        return False
    off = np.int64(0)  # (branch-free: vector code)
    for t in range(P):
        off |= probes[t] ^ (probes[0] + t)
    return off == 0


@jit_inline
def _add_nibbles(row, accs):  # pragma: no cover - compiled
    """Count each answer of `row` in 4-bit field r of the word of its place."""
    one = np.uint64(1)
    four = np.uint64(4)
    for t in range(row.shape[0]):
        accs[t] += one << (four * np.uint64(row[t]))


@jit_inline
def _add_two_words(row, accs, highs, width, split, sub):  # pragma: no cover - compiled
    """Count each answer r of `row` in field r (`width` bits) of `accs` when r < `split`,
    else in field r - `sub` of `highs` (branch-free, so that it stays vector code)."""
    one = np.uint64(1)
    zero = np.uint64(0)
    m63 = np.uint64(63)
    for t in range(row.shape[0]):
        x = np.uint64(row[t])
        low = x < split
        accs[t] += (one << ((width * x) & m63)) if low else zero
        highs[t] += zero if low else (one << ((width * (x - sub)) & m63))


@jit_inline
def _add_three_words(row, accs, highs, tops):  # pragma: no cover - compiled
    """Count each answer of `row` in three words of 4-bit fields (`_three_fields`)."""
    for t in range(row.shape[0]):
        da, db, dc = _three_fields(np.uint64(row[t]))
        accs[t] += da
        highs[t] += db
        tops[t] += dc


#: `_span_counts` counts this many codes at a time, for probe lists of at least this many
#: codes (with fewer, allocating and picking cost more than reading the rows across).
SPAN_BLOCK = 256
SPAN_MIN_CODES = 8


@jit
def _span_counts(S, probes, flat, rows, accs, highs, tops, width, split, sub, words,
                 stats):  # pragma: no cover - compiled
    """The packed counts (one to three words, as `_run_words`) of `_dense` probes: every code
    they span is counted as a run, SPAN_BLOCK codes at a time, and the probes' words kept
    (counting along the rows costs three to five times less a code than reading them
    across for the probes alone)."""
    m = S.shape[0]
    P = probes.shape[0]
    lo = np.uint64(probes[0])
    span = np.uint64(probes[P - 1]) - lo + np.uint64(1)
    block = np.empty((words, SPAN_BLOCK), dtype=np.uint64)
    start = np.uint64(0)
    t = 0
    while start < span:
        if stats[STOP] != 0:
            return
        n = min(np.uint64(SPAN_BLOCK), span - start)
        first = lo + start
        block[:, :n] = 0
        for j in range(m):
            row = flat[rows[j] + first:rows[j] + first + n]
            if words == 1:
                _add_nibbles(row, block[0])
            elif words == 2:
                _add_two_words(row, block[0], block[1], width, split, sub)
            else:
                _add_three_words(row, block[0], block[1], block[2])
        end = first + n
        while t < P and np.uint64(probes[t]) < end:
            i = np.uint64(probes[t]) - first
            accs[t] = block[0, i]
            if words > 1:
                highs[t] = block[1, i]
            if words > 2:
                tops[t] = block[2, i]
            t += 1
        start += n


@jit
def _run_words(S, probes, flat, rows, accs, highs, tops, width, split, sub, words,
               stats):  # pragma: no cover - compiled
    """The packed counts when the probes are a run of codes (one word of 4-bit fields; two
    words, their fields `width`, `split` and `sub`: `_add_two_words`; three words of 4-bit
    fields): each code's row read along, one probe after another, adding its field to
    every probe's word(s) (vector code: 8 codes on 5,040 probes 6.5 us, against 15.5 us
    reading the rows across, four probes at a time)."""
    m = S.shape[0]
    P = probes.shape[0]
    base = np.uint64(probes[0])
    accs[:P] = 0
    highs[:P] = 0
    tops[:P] = 0
    for j in range(m):
        if stats[STOP] != 0:
            return
        row = flat[rows[j] + base:rows[j] + base + np.uint64(P)]
        if words == 1:
            _add_nibbles(row, accs)
        elif words == 2:
            _add_two_words(row, accs, highs, width, split, sub)
        else:
            _add_three_words(row, accs, highs, tops)


@jit
def _packed_counts(S, probes, table, accs, stats):  # pragma: no cover - compiled
    """Write each probe's packed counts on S into `accs`: table[s, g] == table[g, s], so
    the rows of S are read along, four probes at a time (four independent sums). Indices
    are unsigned: numba then skips the negative-index test (half the time here)."""
    m = S.shape[0]
    P = probes.shape[0]
    flat, rows = _flat_rows(S, table)
    four = np.uint64(4)
    one = np.uint64(1)
    if _is_run(probes):  # (every code, as deep in the tree)
        _run_words(S, probes, flat, rows, accs, accs[:0], accs[:0], np.uint64(4),
                   np.uint64(64), np.uint64(0), 1, stats)
        return
    if _dense(probes) and m >= SPAN_MIN_CODES:  # (most codes they span)
        _span_counts(S, probes, flat, rows, accs, accs[:0], accs[:0], np.uint64(4),
                     np.uint64(64), np.uint64(0), 1, stats)
        return
    t = 0
    while t + 4 <= P:
        if (t & 255) == 0 and stats[STOP] != 0:
            return
        g0, g1 = np.uint64(probes[t]), np.uint64(probes[t + 1])
        g2, g3 = np.uint64(probes[t + 2]), np.uint64(probes[t + 3])
        a0 = a1 = a2 = a3 = np.uint64(0)
        for j in range(m):
            b = rows[j]
            a0 += one << (four * np.uint64(flat[b + g0]))
            a1 += one << (four * np.uint64(flat[b + g1]))
            a2 += one << (four * np.uint64(flat[b + g2]))
            a3 += one << (four * np.uint64(flat[b + g3]))
        accs[t], accs[t + 1], accs[t + 2], accs[t + 3] = a0, a1, a2, a3
        t += 4
    while t < P:
        g = np.uint64(probes[t])
        a = np.uint64(0)
        for j in range(m):
            a += one << (four * np.uint64(flat[rows[j] + g]))
        accs[t] = a
        t += 1


@jit
def _field_tables(packed):  # pragma: no cover - compiled
    """What one code adds to a probe's two count words for each answer (256 rows: any
    answer byte indexes them): 4-bit fields when `packed` (answers 0-14 in the first word,
    15-29 from field 1 of the second), else bytes (0-7 in the first, 8-15 in the second)."""
    low = np.zeros(256, dtype=np.uint64)
    high = np.zeros(256, dtype=np.uint64)
    for r in range(2 * PACKED_ANSWERS if packed else BYTE_ANSWERS):
        if packed:
            if r < PACKED_ANSWERS:
                low[r] = np.uint64(1) << np.uint64(4 * r)
            else:
                high[r] = np.uint64(1) << np.uint64(4 * (r - PACKED_ANSWERS + 1))
        elif r < 8:
            low[r] = np.uint64(1) << np.uint64(8 * r)
        else:
            high[r] = np.uint64(1) << np.uint64(8 * (r - 8))
    return low, high


@jit
def _packed_counts_wide(S, probes, table, accs, highs, stats):  # pragma: no cover - compiled
    """`_packed_counts` for 16 to 30 answers: answer r counts in field r of `accs`, or field
    r - 15 of `highs` (each word's field 0 is left empty)."""
    low, high = _field_tables(True)
    _two_word_counts(S, probes, table, accs, highs, low, high, True, stats)


@jit
def _two_word_counts(S, probes, table, accs, highs, low, high, packed,
                     stats):  # pragma: no cover - compiled
    """Sum ``low[answer]`` into `accs` and ``high[answer]`` into `highs` over the codes of S,
    for each probe (table[s, g] == table[g, s]: the rows of S read along), two probes at a
    time."""
    m = S.shape[0]
    P = probes.shape[0]
    flat, rows = _flat_rows(S, table)
    # (a run: the fields `_field_tables` puts)
    width = np.uint64(4) if packed else np.uint64(8)
    split = np.uint64(PACKED_ANSWERS) if packed else np.uint64(8)
    sub = split - np.uint64(1) if packed else split
    if _is_run(probes):  # (every code, as deep in the tree)
        _run_words(S, probes, flat, rows, accs, highs, highs[:0], width, split, sub, 2,
                   stats)
        return
    if _dense(probes) and m >= SPAN_MIN_CODES:  # (most codes they span)
        _span_counts(S, probes, flat, rows, accs, highs, highs[:0], width, split, sub, 2,
                     stats)
        return
    t = 0
    while t + 2 <= P:
        if (t & 255) == 0 and stats[STOP] != 0:
            return
        g0, g1 = np.uint64(probes[t]), np.uint64(probes[t + 1])
        a0 = a1 = b0 = b1 = np.uint64(0)
        for j in range(m):
            x0 = np.uint64(flat[rows[j] + g0])
            x1 = np.uint64(flat[rows[j] + g1])
            a0 += low[x0]
            b0 += high[x0]
            a1 += low[x1]
            b1 += high[x1]
        accs[t], accs[t + 1], highs[t], highs[t + 1] = a0, a1, b0, b1
        t += 2
    while t < P:
        g = np.uint64(probes[t])
        a = b = np.uint64(0)
        for j in range(m):
            x = np.uint64(flat[rows[j] + g])
            a += low[x]
            b += high[x]
        accs[t], highs[t] = a, b
        t += 1


@jit
def _packed_counts_triple(S, probes, table, accs, highs, tops, stats):  # pragma: no cover
    """`_packed_counts` for 31 to 45 answers (seven and eight pegs), on a full table: answer
    r counts in field r of `accs` (r < 15), field r - 14 of `highs` (r < 30) or field r - 29
    of `tops` (each later word's field 0 left empty)."""
    m = S.shape[0]
    P = probes.shape[0]
    flat, rows = _flat_rows(S, table)
    if _is_run(probes):  # (every code, as deep in the tree)
        _run_words(S, probes, flat, rows, accs, highs, tops, np.uint64(4), np.uint64(0),
                   np.uint64(0), 3, stats)
        return
    if _dense(probes) and m >= SPAN_MIN_CODES:  # (most codes they span)
        _span_counts(S, probes, flat, rows, accs, highs, tops, np.uint64(4), np.uint64(0),
                     np.uint64(0), 3, stats)
        return
    for t in range(P):
        if (t & 255) == 0 and stats[STOP] != 0:
            return
        g = np.uint64(probes[t])
        a = b = c = np.uint64(0)
        for j in range(m):
            da, db, dc = _three_fields(np.uint64(flat[rows[j] + g]))
            a += da
            b += db
            c += dc
        accs[t], highs[t], tops[t] = a, b, c


@jit_inline
def _three_fields(x):  # pragma: no cover - compiled
    """What answer x adds to a probe's three count words: one in field x of the first
    (x < 15), field x - 14 of the second (x < 30) or field x - 29 of the third
    (branch-free)."""
    one = np.uint64(1)
    zero = np.uint64(0)
    four = np.uint64(4)
    m63 = np.uint64(63)
    return ((one << ((four * x) & m63)) if x < 15 else zero,
            (one << ((four * (x - np.uint64(14))) & m63)) if x >= 15 and x < 30 else zero,
            (one << ((four * (x - np.uint64(29))) & m63)) if x >= 30 else zero)


#: Up to this many answers `_listed_counts` counts every code branch-free and then scans
#: all answers; past it (positional answers: 243 for five pegs) it lists the answers met.
SCAN_ANSWERS = 64


@jit
def _listed_counts(S, probes, table, R, win, sizes, nsizes, nparts, bigs, useful, is_cand,
                   perfect, stats):  # pragma: no cover - compiled
    """Each probe's parts on S from a table read probe by probe (``table[g, s]``): the
    sizes of its non-winning parts listed in `sizes` (their number in `nsizes`), its parts,
    largest part and whether it is useful. Returns (probes counted, most parts of a useful
    probe): all, or, when `perfect`, up to the first non-candidate that tells every code of
    S apart."""
    m = S.shape[0]
    P = probes.shape[0]
    row = np.zeros(R, dtype=np.int32)
    touched = np.empty(min(m, R), dtype=np.int64)
    flat = table.reshape(-1)
    width = np.uint64(table.shape[1])
    cols = np.empty(m, dtype=np.uint64)
    for j in range(m):
        cols[j] = np.uint64(S[j])
    scan = R <= SCAN_ANSWERS
    kS = 1
    for t in range(P):
        if (t & 255) == 0 and stats[STOP] != 0:
            return P, kS
        g = np.uint64(probes[t])
        base = g * width
        nt = 0
        biggest = 0
        ns = 0
        if scan:  # count branch-free, then read the short row
            for j in range(m):
                row[np.uint64(flat[base + cols[j]])] += 1
            for r in range(R):
                n = row[r]
                if n > 0:
                    row[r] = 0
                    nt += 1
                    biggest = max(biggest, n)
                    if r != win:
                        sizes[t, ns] = n
                        ns += 1
        else:
            for j in range(m):
                r = np.uint64(flat[base + cols[j]])
                if row[r] == 0:
                    touched[nt] = r
                    nt += 1
                row[r] += 1
            for i in range(nt):
                r = touched[i]
                n = row[r]
                row[r] = 0
                biggest = max(biggest, n)
                if r != win:
                    sizes[t, ns] = n
                    ns += 1
        nsizes[t] = ns
        nparts[t] = nt
        bigs[t] = biggest
        useful[t] = biggest < m
        if useful[t] and nt > kS:
            kS = nt
        if perfect and nt == m and not is_cand[g]:
            return t + 1, kS
    return P, kS


@jit_inline
def _keep_counts(t, a, b, accs, highs, nparts, packed, wide):  # pragma: no cover - compiled
    """Store probe t's count words (4-bit fields when `packed`, the second word only when
    `wide`; else bytes in both) and its number of parts, which it returns."""
    accs[t] = a
    if wide or not packed:
        highs[t] = b
    if packed:
        k = _packed_parts(a) + (_packed_parts(b) if wide else 0)
    else:
        k = _byte_parts(a) + _byte_parts(b)
    nparts[t] = k
    return k


@jit
def _row_counts(S, probes, table, accs, highs, nparts, packed, wide, is_cand, perfect,
                stats):  # pragma: no cover - compiled
    """Packed counts (4-bit fields when `packed`, else bytes) and parts of each probe on S
    from a table read probe by probe (``table[g, s]``: a candidate view, positional
    answers), a row of m bytes each. Returns the number of probes counted: all, or, when
    `perfect`, up to the first non-candidate that tells every code of S apart."""
    low, high = _field_tables(packed)
    m = S.shape[0]
    P = probes.shape[0]
    flat = table.reshape(-1)
    width = np.uint64(table.shape[1])
    cols = np.empty(m, dtype=np.uint64)
    for j in range(m):
        cols[j] = np.uint64(S[j])
    for t in range(P):
        if (t & 255) == 0 and stats[STOP] != 0:
            return P
        g = np.uint64(probes[t])
        base = g * width
        a = b = np.uint64(0)
        for j in range(m):
            x = flat[base + cols[j]]
            a += low[x]
            b += high[x]
        k = _keep_counts(t, a, b, accs, highs, nparts, packed, wide)
        if perfect and k == m and not is_cand[g]:
            return t + 1
    return P


#: Probes counted per block by `_column_counts` (their two count words stay in L1).
COLUMN_BLOCK = 1024
#: Copies of a view's columns for the probes a group leaves: at most this many times the
#: view's codes in all, shared out among the searches on the view (`score_probes`).
COLUMN_COPIES = 2


@jit
def _column_copy(columns, probe_order, probes):  # pragma: no cover - compiled
    """The view's columns for `probes` alone (a list in probe order, as `probe_order`),
    each column gathered along (the probes' positions only ever grow); no columns should
    `probes` not be such a list."""
    P = probes.shape[0]
    N = probe_order.shape[0]
    at = np.empty(P, dtype=np.int64)
    i = 0
    for t in range(P):
        while i < N and probe_order[i] != probes[t]:
            i += 1
        if i == N:
            return np.zeros((0, 0), dtype=columns.dtype)
        at[t] = i
    copy = np.empty((columns.shape[0], P), dtype=columns.dtype)
    for c in range(columns.shape[0]):
        src = columns[c]
        dst = copy[c]
        for t in range(P):
            dst[t] = src[at[t]]
    return copy


@jit
def _column_counts(S, probes, columns, accs, highs, nparts, packed, wide, is_cand, perfect,
                   stats):  # pragma: no cover - compiled
    """`_row_counts` when every probe of a candidate view is scored (no symmetry left), from
    the view's columns: ``columns[s, t]`` is the answer of probe t (the t-th in probe
    order, so `probes[t]`) to candidate s. Each block of probes is counted one candidate at
    a time, its column read along with shifts instead of table lookups, which the compiler
    turns into vector code (three to four times faster than reading m scattered bytes per
    probe; reading a column through a list of probes instead was slower). Same counts,
    parts and early stop."""
    m = S.shape[0]
    P = probes.shape[0]
    cols = np.empty(m, dtype=np.uint64)
    for j in range(m):
        cols[j] = np.uint64(S[j])
    if packed:  # 4-bit fields: answers 0-14 in the first word, 15-29 from field 1
        split, width = np.uint64(15), np.uint64(4)
    else:  # bytes: answers 0-7 in the first word, 8-15 in the second
        split, width = np.uint64(8), np.uint64(8)
    below = split - np.uint64(1)
    over = split - np.uint64(1) if packed else split
    lo = np.empty(COLUMN_BLOCK, dtype=np.uint64)
    hi = np.empty(COLUMN_BLOCK, dtype=np.uint64)
    start = 0
    while start < P:
        if stats[STOP] != 0:
            return P
        n = min(COLUMN_BLOCK, P - start)
        lo[:n] = 0
        hi[:n] = 0
        for j in range(m):
            row = columns[cols[j]]
            block = row[start:start + n]
            for i in range(n):
                x = np.uint64(block[i])
                lo[i] += np.uint64(x < split) << (width * min(x, below))
                hi[i] += np.uint64(x >= split) << (width * (max(x, over) - over))
        for i in range(n):
            t = start + i
            k = _keep_counts(t, lo[i], hi[i], accs, highs, nparts, packed, wide)
            if perfect and k == m and not is_cand[np.uint64(probes[t])]:
                return t + 1
        start += n
    return P


#: `_column_words` counts in bytes of four words: at most 32 answers and 127 codes (so a
#: byte's top bit stays clear for `_byte_over`).
COLUMN_ANSWERS = 32
COLUMN_CODES = 127


@jit
def _column_words(S, probes, columns, words, nparts, useful, is_cand, perfect,
                  stats):  # pragma: no cover - compiled
    """Instead of `_listed_counts`, when every probe of a candidate view is scored and
    there are at most COLUMN_ANSWERS answers and COLUMN_CODES codes: each probe's counts
    in bytes of four words (answer r in byte r % 8 of ``words[t, r // 8]``), a block of
    probes at a time, one candidate's column read along (vector code); its parts from the
    words. Returns (probes counted, most parts of a useful probe), with the same early stop
    when `perfect`."""
    m = S.shape[0]
    P = probes.shape[0]
    cols = np.empty(m, dtype=np.uint64)
    for j in range(m):
        cols[j] = np.uint64(S[j])
    one = np.uint64(1)
    three = np.uint64(3)
    seven = np.uint64(7)
    eight = np.uint64(8)
    zero = np.uint64(0)
    acc = np.empty((4, COLUMN_BLOCK), dtype=np.uint64)
    kS = 1
    start = 0
    while start < P:
        if stats[STOP] != 0:
            return P, kS
        n = min(COLUMN_BLOCK, P - start)
        acc[:, :n] = 0
        a0, a1, a2, a3 = acc[0], acc[1], acc[2], acc[3]
        for j in range(m):
            block = columns[cols[j]][start:start + n]
            for i in range(n):
                x = np.uint64(block[i])
                bit = one << (eight * (x & seven))
                q = x >> three
                a0[i] += bit if q == 0 else zero
                a1[i] += bit if q == 1 else zero
                a2[i] += bit if q == 2 else zero
                a3[i] += bit if q == 3 else zero
        for i in range(n):
            t = start + i
            k = (_byte_parts(a0[i]) + _byte_parts(a1[i]) + _byte_parts(a2[i])
                 + _byte_parts(a3[i]))
            words[t, 0], words[t, 1], words[t, 2], words[t, 3] = a0[i], a1[i], a2[i], a3[i]
            nparts[t] = k
            useful[t] = k > 1  # (its largest part is less than m)
            if k > 1 and k > kS:
                kS = k
            if perfect and k == m and not is_cand[np.uint64(probes[t])]:
                return t + 1, kS
        start += n
    return P, kS


@jit
def _table_words(S, probes, table, words, nparts, useful, stats):  # pragma: no cover
    """`_column_words` on a full table (table[s, g] == table[g, s]) for sets of 16 to 127
    codes with 17 to 32 answers, when the probes are `_dense`: each probe's counts in
    bytes of four words (answer r in byte r % 8 of ``words[t, r // 8]``) and its parts
    from them. The codes the probes span are counted a block at a time, two codes' rows
    read along (vector code), and the probes' words kept: counting every code spanned
    costs less than reading the rows across for the probes alone (twice as long as rows of
    counts), or rows of counts (a cache miss an answer past a few thousand probes).
    Returns the most parts of a useful probe."""
    m = S.shape[0]
    P = probes.shape[0]
    lo = np.uint64(probes[0])
    span = np.uint64(probes[P - 1]) - lo + np.uint64(1)
    run = span == np.uint64(P)
    flat, rows = _flat_rows(S, table)
    zero = np.uint64(0)
    acc = np.empty((4, WORDS_BLOCK), dtype=np.uint64)
    kS = 1
    start = np.uint64(0)
    t = 0
    while start < span:
        if stats[STOP] != 0:
            return kS
        n = min(np.uint64(WORDS_BLOCK), span - start)
        acc[:, :n] = 0
        a0, a1, a2, a3 = acc[0], acc[1], acc[2], acc[3]
        first = lo + start
        j = 0
        while j + 2 <= m:  # two codes at a time: half the loads and stores of the words
            row = flat[rows[j] + first:rows[j] + first + n]
            row2 = flat[rows[j + 1] + first:rows[j + 1] + first + n]
            for i in range(n):
                bit, q = _byte_field(row[i])
                bit2, q2 = _byte_field(row2[i])
                a0[i] += (bit if q == 0 else zero) + (bit2 if q2 == 0 else zero)
                a1[i] += (bit if q == 1 else zero) + (bit2 if q2 == 1 else zero)
                a2[i] += (bit if q == 2 else zero) + (bit2 if q2 == 2 else zero)
                a3[i] += (bit if q == 3 else zero) + (bit2 if q2 == 3 else zero)
            j += 2
        if j < m:
            row = flat[rows[j] + first:rows[j] + first + n]
            for i in range(n):
                bit, q = _byte_field(row[i])
                a0[i] += bit if q == 0 else zero
                a1[i] += bit if q == 1 else zero
                a2[i] += bit if q == 2 else zero
                a3[i] += bit if q == 3 else zero
        if run:
            for i in range(n):  # (branch-free: vector code)
                kS = _keep_words(t + i, a0[i], a1[i], a2[i], a3[i], words, nparts, useful,
                                 kS)
            t += np.int64(n)
        else:
            end = first + n
            while t < P and np.uint64(probes[t]) < end:
                i = np.uint64(probes[t]) - first
                kS = _keep_words(t, a0[i], a1[i], a2[i], a3[i], words, nparts, useful, kS)
                t += 1
        start += n
    return kS


@jit
def _dense(probes):  # pragma: no cover - compiled
    """Whether the probes are in ascending order and fill at least a third of the codes
    they span (`_table_words` and `_span_counts` then count every code spanned)."""
    P = probes.shape[0]
    if P == 0 or probes[P - 1] - probes[0] >= 3 * P:
        return False
    for t in range(1, P):
        if probes[t] <= probes[t - 1]:
            return False
    return True


@jit_inline
def _byte_field(answer):  # pragma: no cover - compiled
    """Where answer r counts in four words of bytes: (one in byte r % 8, word r // 8)."""
    x = np.uint64(answer)
    return np.uint64(1) << (np.uint64(8) * (x & np.uint64(7))), x >> np.uint64(3)


@jit_inline
def _keep_words(t, a0, a1, a2, a3, words, nparts, useful, kS):  # pragma: no cover
    """Store probe t's four words and its parts; the most parts of a useful probe."""
    k = _byte_parts(a0) + _byte_parts(a1) + _byte_parts(a2) + _byte_parts(a3)
    words[t, 0], words[t, 1], words[t, 2], words[t, 3] = a0, a1, a2, a3
    nparts[t] = k
    useful[t] = k > 1  # (its largest part is less than m)
    return max(kS, k if k > 1 else 1)


#: codes `_table_words` counts at a time (its four words each stay in the first cache)
WORDS_BLOCK = 256


@jit_inline
def _words_bound(words, R, win, f, cap, m):  # pragma: no cover - compiled
    """`_row_bound` from counts in bytes of four words (`_column_words`)."""
    total = np.int64(m)
    for r in range(R):
        n = np.int64((words[r >> 3] >> np.uint64(8 * (r & 7))) & np.uint64(255))
        cost = _part_cost(n, r, win, f, cap)
        if cost == INF:
            return INF
        total += cost
    return total


#: `score_probes` scans small sets (at least TINY_MIN codes) for their cheapest probe when
#: it costs less than 2m + TINY_REACH (m codes).
TINY_MIN = 6
TINY_REACH = 8


@jit
def _set_excess(S, code_sets, set_shared):  # pragma: no cover - compiled
    """Per multiset of symbols u (black/white answers): the fewest codes of S that share an
    answer with another under any probe of multiset u. The codes sharing t pegs with u
    (``set_shared``) get blacks 0 to t (not pegs - 1 when t is every peg): at most that
    many different answers (see `_excess_span`)."""
    ids, times, d = _distinct_sets(S, code_sets)
    out = np.empty(set_shared.shape[0], dtype=np.int64)
    _excess_span(S.shape[0], ids, times, d, set_shared, 0, out)
    return out


@jit
def _least_set_excess(S, code_sets, set_shared):  # pragma: no cover - compiled
    """The least of `_set_excess`, its multisets taken a block at a time until one gives no
    excess (nothing is less): most small parts of a position have one early (MM(6,9)'s
    132-candidate position: half of them, within the first 135 of 3,003 multisets at the
    median)."""
    ids, times, d = _distinct_sets(S, code_sets)
    M = set_shared.shape[0]
    out = np.empty(min(M, EXCESS_BLOCK), dtype=np.int64)
    least = np.int64(S.shape[0])
    for u0 in range(0, M, EXCESS_BLOCK):
        n = min(EXCESS_BLOCK, M - u0)
        _excess_span(S.shape[0], ids, times, d, set_shared, u0, out[:n])
        low = _least(out[:n])
        if low < least:
            least = low
        if least == 0:
            break
    return least


#: multisets per block of `_least_set_excess`
EXCESS_BLOCK = 128


@jit_inline
def _distinct_sets(S, code_sets):  # pragma: no cover - compiled
    """The distinct multisets of S's codes (ids[:d]) and how many codes have each."""
    m = S.shape[0]
    ids = np.empty(m, dtype=np.int64)
    times = np.empty(m, dtype=np.uint64)
    d = 0
    for j in range(m):
        v = np.int64(code_sets[S[j]])
        i = 0
        while i < d and ids[i] != v:
            i += 1
        if i == d:
            ids[d] = v
            times[d] = 0
            d += 1
        times[i] += np.uint64(1)
    return ids, times, d


@jit_inline
def _excess_span(m, ids, times, d, set_shared, u0, out):  # pragma: no cover - compiled
    """`_set_excess` for the multisets u0 to u0 + len(out) - 1, into `out`, from S's m codes
    of d distinct multisets (`_distinct_sets`). Counts per t in bytes of one word (pegs <=
    7, codes <= 255); codes of one multiset share their row, so each distinct multiset is
    added once, times its codes (the parts of a position's candidates hold few: MM(6,9)'s
    132-candidate position, 14.5 codes of 4.5 multisets on average)."""
    n = out.shape[0]
    pegs = np.int64(set_shared[0, 0])
    accs = np.zeros(n, dtype=np.uint64)
    for i in range(d):
        row = set_shared[ids[i]][u0:u0 + n]
        c = times[i]
        for u in range(n):
            accs[u] += c << np.uint64(8 * row[u])
    # per byte t: min(n_t, cap_t), cap_t = t + 1 (pegs when t is every peg), branch-free
    # (counts under 128: no borrow crosses a byte), then the bytes summed
    caps = np.uint64(0)
    for t in range(pegs + 1):
        caps |= np.uint64(t + 1 if t < pegs else pegs) << np.uint64(8 * t)
    high = np.uint64(0x8080808080808080)
    ones = np.uint64(0x0101010101010101)
    for u in range(n):
        acc = accs[u]
        ge = (((acc | high) - caps) & high) >> np.uint64(7)  # 1 where n_t >= cap_t
        mask = ge * np.uint64(255)
        least = (caps & mask) | (acc & ~mask)
        out[u] = m - np.int64((least * ones) >> np.uint64(56))


@jit_inline
def _least(values):  # pragma: no cover - compiled
    """The least of a non-empty array of int64."""
    least = values[0]
    for i in range(1, values.shape[0]):
        if values[i] < least:
            least = values[i]
    return least


@jit
def _excess_bound(S, table, code_sets, set_shared):  # pragma: no cover - compiled
    """A lower bound on the cost of a small set S (m codes; black/white answers): a probe
    costs at least 2m - w plus its excess (the codes sharing a part with another: each
    costs a guess more), w = 1 for a candidate. A candidate's excess is counted; any
    other's is at least what its multiset of symbols alone forces (`_set_excess`)."""
    m = S.shape[0]
    least = 2 * m + _least_set_excess(S, code_sets, set_shared)
    one = np.uint64(1)
    for i in range(m):
        g = S[i]
        seen = np.uint64(0)
        excess = 0
        for j in range(m):
            bit = one << np.uint64(table[g, S[j]])
            excess += 1 if seen & bit else 0
            seen |= bit
        if 2 * m - 1 + excess < least:
            least = 2 * m - 1 + excess
    return least


@jit_inline
def _part_bound(S, game, opts):  # pragma: no cover - compiled
    """The cheap pass's extra bound on a part `_settle` left open: a small part's
    `_excess_bound` (black/white, not weighted, not tracing); else 0. First on candidate
    views only (MM(6,9)'s 213-candidate position: over 200 s -> about 60 s), then on full
    tables too: one worker, in turns, MM(4,7) 1.27 s against 1.73-1.87 s, bulls-and-cows
    5.11 s against 6.38-6.45 s, MM(4,8) 5.96-6.12 s against 7.05-7.38 s, MM(6,4) 4.38-4.40
    s against 6.15-6.33 s (11-20 % fewer sets)."""
    n = S.shape[0]
    R = opts[OPT_ANSWERS]
    if (opts[OPT_WEIGHTED] == 0 and TINY_MIN <= n and n <= R and R <= 64
            and game.code_sets.shape[0] > 0 and opts[OPT_TRACE] == 0):
        return _excess_bound(S, game.table, game.code_sets, game.set_shared)
    return np.int64(0)


#: how many probes ahead `_tiny_scan` starts loading a row
AHEAD = 8


@jit
def _tiny_path(S, probes, table, columns, code_sets, set_shared, by_set, is_cand, budget,
               depth, lb, kmax, R, span, stats):  # pragma: no cover - compiled
    """`score_probes` on a small set through `_tiny_scan` (compiled on its own, so that the
    commoner nodes' scoring stays as it was): (done, lb, what score_probes returns
    when done): the one probe to explore, or no probe when the raised lb reaches the
    budget; when not done, every probe is to be counted (the tuple is not read)."""
    m = S.shape[0]
    found, t, value, k, lb_tiny, scanned = _tiny_scan(S, probes, table, columns, code_sets,
                                                      set_shared, by_set, is_cand, budget,
                                                      2 * m + TINY_REACH, depth, span, stats)
    stats[N_PROBES] += scanned
    no_counts = np.zeros((0, R), dtype=np.int32)
    no_pbs = np.zeros((0, R), dtype=np.int64)
    if found:
        # the one probe to explore: its bound 3m - w - k (what the counting gives it), the
        # parts of at most three codes then solved at their closed-form cost
        w = 1 if is_cand[probes[t]] else 0
        bound = 3 * m - w - k
        live1 = np.zeros(1, dtype=np.int64)  # probe 0 of the one kept
        nparts1 = np.full(1, k, dtype=np.int64)
        lbs1 = np.full(1, bound, dtype=np.int64)
        keys1 = np.full(1, 2 * bound + 1 - w, dtype=np.int64)
        return True, lb, (probes[t:t + 1], no_counts, nparts1, lbs1, live1, keys1, k, lb, INF,
                          is_cand, no_pbs)
    if lb_tiny > lb:
        lb = lb_tiny
    return lb >= budget, lb, (probes, no_counts, probes[:0], lbs_empty(0), probes[:0],
                              probes[:0], kmax, lb, INF, is_cand, no_pbs)


@jit
def _tiny_scan(S, probes, table, columns, code_sets, set_shared, by_set, is_cand, budget,
               reach, depth, span, stats):  # pragma: no cover - compiled
    """The search's choice on a small set S (m codes, m <= answers <= 64) that no candidate
    tells apart nor splits leaving a single pair, when it costs less than `reach` and
    `budget`: the first probe, in the search's order (cheapest bound 3m - w - k first,
    candidates first among equals, then probe order), of the least value. A probe whose
    parts other than its win hold at most three codes each (and that makes three parts or
    more, as the search's bounds for those parts assume) costs exactly m, plus 1 per
    single code, 3 per pair, 5 per triple that one of its members tells apart, and 6 per
    other triple (one member, then the pair it leaves: four guesses deep, so the depth must
    be at least 4). Its bound 3m - w - k grows by one with each code that shares a part
    (its excess over k parts): a probe is read only until its excess puts its bound past
    what could still be chosen. Returns (found, t, value, parts, lower bound, probes
    scanned): found when the choice costs less than both and no probe with a bigger part
    (or an undecided triple) might cost as little; else a lower bound on S's cost, and the
    caller counts every probe unless that bound reaches the budget.

    On a candidate view scoring every probe (`columns` then has a column per probe), each
    block of probes first gets its answers seen on S as bits, a column of the view read
    along (vector code), so a probe whose excess is past the limit is passed over without
    reading its row. On a full table (`span`: `columns` is the table itself, whose rows are
    its columns since table[s, g] == table[g, s], and the probes are `_dense`), a block is
    the probes among the next COLUMN_BLOCK codes: the answers every code of that span meets
    are read along the rows of S's codes, then picked for the block's probes.

    With black/white answers (`code_sets`, each code's multiset of symbols, and
    `set_shared`, the pegs two multisets share, given), a probe's answers on S are first
    bounded by its multiset alone: the codes sharing t pegs with it get at most t + 1
    different answers (the blacks, 0 to t; pegs of them only when t is every peg, all but
    pegs - 1), so a probe whose multiset leaves too many codes sharing answers is passed
    over without reading its answers at all; on a view scoring every probe, a block whose
    probes that bound mostly rules out reads the columns of the others only. Where the
    view's answers are also kept with the probes grouped by multiset (`by_set`: columns,
    where each multiset's probes start, their places in probe order), the probes of the
    multisets that bound does not rule out are read from those, in runs, and the few whose
    answers seen leave them within the loosest limit are then taken in probe order as above
    (`_set_hits`): the same probes read, the same choice."""
    m = S.shape[0]
    P = probes.shape[0]
    one = np.uint64(1)
    # the fewest codes of S that share an answer, by the probe's multiset alone
    use_sets = code_sets.shape[0] > 0
    low_excess = _set_excess(S, code_sets, set_shared) if use_sets else np.empty(0, np.int64)
    best_v = min(budget, reach)  # a probe must cost less (no key to tie with yet)
    if use_sets:
        # every probe's bound is at least 2m - 1 plus the least excess any multiset forces:
        # when that is not under best_v, no probe is read (the scan would pass over all)
        floor_all = 2 * m - 1 + _least(low_excess)
        if floor_all >= best_v:
            return False, 0, 0, 0, np.int64(floor_all), 0
    by_columns = span or columns.shape[1] == P
    pre = np.empty(COLUMN_BLOCK if by_columns and use_sets else 0, dtype=np.int64)
    # (a view's columns may end with each probe's multiset id, read along: no gathers)
    ids_at = table.shape[1]
    ids_along = use_sets and columns.shape[0] == ids_at + 2
    set_columns, set_starts, set_ranks = by_set
    grouped = by_columns and not span and ids_along and set_columns.shape[1] == P
    loosest = 3 * m - best_v - 1  # fewest answers any probe read can have (best_v shrinks)
    if grouped:
        # read by multiset only when the bound leaves out most probes: when it leaves in
        # most, the blocks in probe order read as much and need no putting back in order
        cap = m - loosest
        left_in = 0
        for u in range(set_starts.shape[0] - 1):
            if low_excess[u] <= cap:
                left_in += set_starts[u + 1] - set_starts[u]
        grouped = 2 * left_in <= P
    cols = np.empty(m, dtype=np.uint64)
    for j in range(m):
        cols[j] = np.uint64(S[j])
    if grouped:  # every probe within the loosest limit, in probe order, with its answers
        hit_t, hit_seen = _set_hits(cols, low_excess, loosest, set_columns,
                                    set_starts, set_ranks, stats)
    else:
        hit_t = np.empty(0, dtype=np.int64)
        hit_seen = np.empty(0, dtype=np.uint64)
    q = 0
    best_t = -1
    best_key = np.int64(-1)
    best_k = 0
    open_low = INF  # the least bound of a probe whose cost is not in closed form
    flat = table.reshape(-1)
    width = np.int64(table.shape[1])
    seen_all = np.empty(COLUMN_BLOCK if by_columns else 0, dtype=np.uint64)
    seen_codes = np.empty(COLUMN_BLOCK if span else 0, dtype=np.uint64)
    hits = np.empty(COLUMN_BLOCK if by_columns else 0, dtype=np.int64)
    n_hits = h = 0
    block_start = block_end = 0
    t = 0
    seen_t = np.uint64(0)  # the answers seen of probe t (columns read)
    while t < P:
        if (t & 255) == 0 and stats[STOP] != 0:
            break
        if grouped:
            if q == hit_t.shape[0]:
                t = P
                break
            if (q & 255) == 0 and stats[STOP] != 0:
                break
            t = hit_t[q]
            seen_t = hit_seen[q]
            q += 1
        elif by_columns:
            if t >= block_end:
                # the next block's answers seen, as bits; its probes whose excess is within
                # the largest limit the best so far allows (it only shrinks) listed
                if stats[STOP] != 0:
                    break
                if span:  # the probes among the next COLUMN_BLOCK codes
                    c0 = probes[t]
                    n = 1
                    while t + n < P and probes[t + n] - c0 < COLUMN_BLOCK:
                        n += 1
                else:
                    n = min(COLUMN_BLOCK, P - t)
                floor = 3 * m - best_v - 1  # fewest answers: excess at most best_v - 2m + 1
                n_pre = n
                if ids_along:  # the probes whose multiset leaves them within that excess
                    n_pre = 0
                    cap = m - floor
                    low_ids = columns[ids_at][t:t + n]
                    high_ids = columns[ids_at + 1][t:t + n]
                    for i in range(n):
                        u = np.int64(low_ids[i]) | (np.int64(high_ids[i]) << 8)
                        pre[n_pre] = i
                        n_pre += 1 if low_excess[u] <= cap else 0
                elif use_sets:  # (their ids through the probe list)
                    n_pre = 0
                    cap = m - floor
                    for i in range(n):
                        pre[n_pre] = i
                        n_pre += 1 if low_excess[code_sets[probes[t + i]]] <= cap else 0
                n_hits = 0
                if 4 * n_pre < n:  # few: their columns' entries alone
                    for h in range(n_pre):
                        seen_all[pre[h]] = 0
                    for j in range(m):
                        column = columns[cols[j]]
                        for h in range(n_pre):
                            i = pre[h]
                            at = probes[t + i] if span else t + i
                            seen_all[i] |= one << np.uint64(column[at])
                    for h in range(n_pre):
                        i = pre[h]
                        hits[n_hits] = i
                        n_hits += 1 if _popcount(seen_all[i]) >= floor else 0
                elif span:  # every code of the block's span, then the probes'
                    c0 = probes[t]
                    _answers_seen(columns, cols, c0, probes[t + n - 1] - c0 + 1, seen_codes)
                    for i in range(n):
                        seen_all[i] = seen_codes[probes[t + i] - c0]
                    for i in range(n):
                        hits[n_hits] = i
                        n_hits += 1 if _popcount(seen_all[i]) >= floor else 0
                else:
                    _answers_seen(columns, cols, t, n, seen_all)
                    for i in range(n):
                        hits[n_hits] = i
                        n_hits += 1 if _popcount(seen_all[i]) >= floor else 0
                block_start, block_end = t, t + n
                h = 0
            while h < n_hits and block_start + hits[h] < t:
                h += 1
            if h == n_hits:  # no other probe of this block is worth reading
                t = block_end
                continue
            t = block_start + hits[h]
            seen_t = seen_all[t - block_start]
        g = np.uint64(probes[t])
        if not by_columns and t + AHEAD < P:  # start loading a later row (past the caches)
            later = probes[t + AHEAD]
            # unless its multiset alone will pass it over (the loosest limit any probe can
            # have from now on: best_v only shrinks): loading rows never read stalled the
            # scan (a sixth of its time at MM(6,9)'s 132 candidates)
            if not use_sets or low_excess[code_sets[later]] <= best_v - 2 * m + 1:
                ahead = np.int64(later) * width
                for c in range(0, width, 64):
                    prefetch(flat, ahead + c)
        w = 1 if is_cand[g] else 0
        # the largest bound still worth reading: best_v, when a probe of that bound would
        # come first in the search's order (a candidate against a non-candidate), else less
        top = best_v if 2 * best_v + 1 - w < best_key else best_v - 1
        limit = top - 2 * m + w  # most codes sharing parts
        if limit < 2 * w:  # a candidate shares at least two (see `_settle`)
            t += 1
            continue
        if by_columns:
            if m - _popcount(seen_t) > limit:
                t += 1  # its excess is past the limit (what reading its row would find)
                continue
        elif use_sets and low_excess[code_sets[g]] > limit:
            t += 1  # its multiset alone puts its excess past the limit
            continue
        seen = np.uint64(0)
        twice = np.uint64(0)
        thrice = np.uint64(0)
        four = np.uint64(0)
        excess = 0
        for j in range(m):
            bit = one << np.uint64(table[g, cols[j]])
            if seen & bit:
                excess += 1
                if excess > limit:
                    break
                if thrice & bit:
                    four |= bit
                elif twice & bit:
                    thrice |= bit
                else:
                    twice |= bit
            seen |= bit
        if excess > limit:
            t += 1
            continue
        bound = 2 * m - w + excess
        value = bound
        # (under three parts the search's own bounds for a triple differ: count instead)
        closed = four == 0 and m - excess >= 3
        rest = thrice
        while closed and rest != 0:
            # a triple: does one of its members tell the other two apart?
            low_bit = rest & (~rest + one)
            rest ^= low_bit
            x = np.uint64(0)
            y = np.uint64(0)
            n = 0
            split = False
            for j in range(m):
                if (one << np.uint64(table[g, cols[j]])) == low_bit:
                    if n == 0:
                        x = cols[j]
                    elif n == 1:
                        y = cols[j]
                    else:
                        z = cols[j]
                        split = (table[x, y] != table[x, z] or table[y, x] != table[y, z]
                                 or table[z, x] != table[z, y])
                    n += 1
            if not split:
                if depth >= 4:
                    value += 1
                else:
                    closed = False
        if not closed:
            if bound < open_low:
                open_low = bound
        else:
            key = 2 * bound + 1 - w
            if value < best_v or (value == best_v and key < best_key):
                best_v = value
                best_key = key
                best_t = t
                best_k = m - excess
                if value == 2 * m:
                    t += 1
                    break  # nothing costs less, nor comes first at that cost
        t += 1
    if stats[STOP] != 0:
        return False, 0, 0, 0, np.int64(0), t
    if best_t >= 0 and open_low > best_v:
        return True, best_t, best_v, best_k, np.int64(0), t
    # undecided: every probe costs at least the least of these
    return False, 0, 0, 0, np.int64(min(best_v, open_low)), t


@jit_inline
def _answers_seen(columns, cols, lo, n, seen):  # pragma: no cover - compiled
    """Fill ``seen[i]`` with the answers probes lo + i (columns of a view, by candidate)
    meet on the codes `cols`, as bits, for i < n: one column at a time (vector code)."""
    one = np.uint64(1)
    seen[:n] = 0
    for j in range(cols.shape[0]):
        block = columns[cols[j]][lo:lo + n]
        for i in range(n):
            seen[i] |= one << np.uint64(block[i])


@jit
def _set_hits(cols, low_excess, floor, set_columns, set_starts, set_ranks,
              stats):  # pragma: no cover - compiled
    """`_tiny_scan`'s probes worth reading on a view whose answers are kept grouped by
    multiset (`CandidateView.columns_by_set`): those of each multiset u whose least excess
    on the set (`low_excess[u]`) leaves them within `m - floor`, with at least `floor`
    answers seen on the set's codes (view indices `cols`), as (their places in probe
    order, ascending; the answers seen by each, as bits). Each multiset's probes are read
    in runs, a block of COLUMN_BLOCK at a time; nothing when the search is stopped."""
    m = cols.shape[0]
    out_t = np.empty(1024, dtype=np.int64)
    out_seen = np.empty(1024, dtype=np.uint64)
    n_out = 0
    seen = np.empty(COLUMN_BLOCK, dtype=np.uint64)
    cap = m - floor
    for u in range(set_starts.shape[0] - 1):
        if low_excess[u] > cap:
            continue
        a = set_starts[u]
        b = set_starts[u + 1]
        while a < b:
            if stats[STOP] != 0:
                return out_t[:0], out_seen[:0]
            n = min(COLUMN_BLOCK, b - a)
            _answers_seen(set_columns, cols, a, n, seen)
            for i in range(n):
                if _popcount(seen[i]) >= floor:
                    if n_out == out_t.shape[0]:
                        out_t = np.concatenate((out_t, np.empty(n_out, dtype=np.int64)))
                        out_seen = np.concatenate((out_seen,
                                                   np.empty(n_out, dtype=np.uint64)))
                    out_t[n_out] = set_ranks[a + i]
                    out_seen[n_out] = seen[i]
                    n_out += 1
            a += n
    return _in_probe_order(out_t[:n_out], out_seen[:n_out], set_ranks.shape[0])


@jit
def _in_probe_order(hit_t, hit_seen, P):  # pragma: no cover - compiled
    """`_set_hits`' hits (distinct places in probe order, below P, and what each saw)
    sorted by place. Few are sorted; many (often nearly all of a view's half a million
    probes, where sorting took 30 % of a position's search on MM(6,9)'s 213 candidates)
    are marked in a bitmap of the places, which is then read in order."""
    n = hit_t.shape[0]
    if n * 512 < P:
        order = np.argsort(hit_t)
        return hit_t[order], hit_seen[order]
    marks = np.zeros((P + 63) >> 6, dtype=np.uint64)
    at = np.empty(P, dtype=np.int32)
    for i in range(n):
        t = hit_t[i]
        marks[t >> 6] |= np.uint64(1) << np.uint64(t & 63)
        at[t] = i
    out_t = np.empty(n, dtype=np.int64)
    out_seen = np.empty(n, dtype=np.uint64)
    k = 0
    for w in range(marks.shape[0]):
        bits = marks[w]
        while bits:
            low = bits & (~bits + np.uint64(1))
            t = (w << 6) + _popcount(low - np.uint64(1))
            out_t[k] = t
            out_seen[k] = hit_seen[at[t]]
            k += 1
            bits ^= low
    return out_t, out_seen


#: Counts in bytes (see `score_probes`): 8-bit fields, answers 0-7 in one word and 8-15 in
#: another; at most 127 codes, so a field's top bit stays clear for `_byte_over`.
BYTE_ANSWERS = 16
BYTE_CODES = 127
_BYTE_LOW = np.uint64(0x0101010101010101)


@jit
def _byte_counts(S, probes, table, accs, highs, stats):  # pragma: no cover - compiled
    """`_packed_counts` with 8-bit fields: answer r counts in byte r of `accs` (r < 8) or
    byte r - 8 of `highs`."""
    low, high = _field_tables(False)
    _two_word_counts(S, probes, table, accs, highs, low, high, False, stats)


@jit
def _byte_parts(acc):  # pragma: no cover - compiled
    """The number of non-zero bytes of `acc`."""
    x = acc | (acc >> np.uint64(4))
    x |= x >> np.uint64(2)
    x |= x >> np.uint64(1)
    x &= _BYTE_LOW
    return np.int64((x * _BYTE_LOW) >> np.uint64(56))


@jit
def _byte_over(acc, limit):  # pragma: no cover - compiled
    """Whether some byte of `acc` (each at most 127) exceeds `limit`: adding 127 - limit to
    every byte sets its top bit exactly then, with no carry into the next."""
    if limit >= 127:
        return False
    return ((acc + np.uint64(127 - limit) * _BYTE_LOW) & _LANE_TOP) != 0


@jit_inline
def _byte_bound(acc, high, R, win, f, cap, m):  # pragma: no cover - compiled
    """`_row_bound` from counts in bytes."""
    total = np.int64(m)
    for r in range(R):
        if r < 8:
            n = np.int64((acc >> np.uint64(8 * r)) & np.uint64(255))
        else:
            n = np.int64((high >> np.uint64(8 * (r - 8))) & np.uint64(255))
        cost = _part_cost(n, r, win, f, cap)
        if cost == INF:
            return INF
        total += cost
    return total


@jit
def _packed_parts(acc):  # pragma: no cover - compiled
    """The number of non-zero 4-bit fields of `acc` (at most 15)."""
    x = acc | (acc >> np.uint64(1))
    x |= x >> np.uint64(2)
    x &= _NIBBLE_LOW
    return np.int64((x * _NIBBLE_LOW) >> np.uint64(60))


@jit
def _packed_over(acc, limit):  # pragma: no cover - compiled
    """Whether some 4-bit field of `acc` exceeds `limit` (each field, spread to a byte
    lane, gets 127 - limit added: the lane's top bit is set exactly when it exceeds)."""
    if limit >= 15:
        return False
    add = np.uint64(127 - limit) * _LANE_ONE
    even = (acc & _NIBBLE_EVEN) + add
    odd = ((acc >> np.uint64(4)) & _NIBBLE_EVEN) + add
    return ((even | odd) & _LANE_TOP) != 0


@jit_inline
def _packed_bound(acc, high, top, R, win, f, cap, m):  # pragma: no cover - compiled
    """`_row_bound` from packed counts (answers 15 and up in `high`, from its field 1;
    30 and up in `top`, from its field 1)."""
    total = np.int64(m)
    for r in range(R):
        if r < PACKED_ANSWERS:
            n = np.int64((acc >> np.uint64(4 * r)) & np.uint64(15))
        elif r < 2 * PACKED_ANSWERS:
            n = np.int64((high >> np.uint64(4 * (r - PACKED_ANSWERS + 1))) & np.uint64(15))
        else:
            n = np.int64((top >> np.uint64(4 * (r - 2 * PACKED_ANSWERS + 1))) & np.uint64(15))
        cost = _part_cost(n, r, win, f, cap)
        if cost == INF:
            return INF
        total += cost
    return total


@jit_inline
def _part_cost(n, r, win, f, cap):  # pragma: no cover - compiled
    """What part r of n codes adds to a probe's bound (the `_row_bound` family): nothing for
    the win or an empty part, INF past `cap` codes, else f[n]."""
    if r == win or n == 0:
        return np.int64(0)
    if n > cap:
        return INF
    return np.int64(f[n])


@jit_inline
def _row_bound(counts, win, f, cap, m):  # pragma: no cover - compiled
    """The same from a row of counts per answer (the winning answer left out)."""
    total = np.int64(m)
    for r in range(counts.shape[0]):
        n = counts[r]
        cost = _part_cost(n, r, win, f, cap)
        if cost == INF:
            return INF
        total += cost
    return total


@jit
def _weighted_probe_bounds(counts, wsum, useful, bot, f, cap, win, probes, is_cand, lbs, keys,
                           pbs):  # pragma: no cover - compiled
    """Bound each probe on a weighted set S (m codes, sorted weights `bot`, see
    `weight_prefix`): W(S) plus, per non-winning part of n codes and weight W_r, the sum
    over d >= 0 of max(W_r - top(f_d), bot[n - f_d]) while f_d = f[d] < n (f[0] = 0), with
    top(f) = W - bot[m - f] the f heaviest of S. Writes lbs, keys and pbs (the part bounds).

    Proof: by `weighted_set_bound` the part costs at least the sum over d of W_r minus its
    own f_d heaviest weights. Those are at most top(f_d) (the part is a subset of S), and at
    most W_r minus its n - f_d lightest, which weigh at least the n - f_d lightest of S,
    bot[n - f_d]. Past f_d >= n both terms are <= 0. Unit weights give ``ltab[k, n]``."""
    P, R = counts.shape
    m = bot.shape[0] - 1
    W = bot[m]
    for t in range(P):
        lbs[t] = INF
        keys[t] = INF
        if not useful[t]:
            continue
        total = W
        ok = True
        for r in range(R):
            n = counts[t, r]
            if r == win or n == 0:
                continue
            if n > cap:
                ok = False
                break
            wr = wsum[t, r]
            b = wr
            for d in range(1, f.shape[0]):
                fd = f[d]
                if fd >= n:
                    break
                x = wr - W + bot[m - fd]
                y = bot[n - fd]
                b += x if x > y else y
            pbs[t, r] = b
            total += b
        if ok:
            lbs[t] = total
            keys[t] = 2 * total + (0 if is_cand[probes[t]] else 1)


@jit
def solve(S, depth, budget, kmax, dist, history, game, bounds, memo, run):  # pragma: no cover
    """Return cost(S) if below `budget`, else a lower bound >= budget (INF: infeasible).

    `depth` is the number of guesses left (including this one), `kmax` the most parts any
    probe can make on S, `dist` the distance from the root (for the trace); `history` is
    what the guesses played so far leave (the symmetry group fixing them, the colours
    played), `game` the game's arrays, `bounds` the perfect-tree bounds, `memo` the memo
    and `run` the search's options and counters (see `slots`).
    """
    done, value, lb, h = _settle(S, depth, budget, kmax, dist, game.table, bounds.fewest,
                                 bounds.most, bounds.weights, memo.heads, memo.entries,
                                 memo.pool, memo.meta, run.options, run.counters)
    if done:
        return value
    return _expand(S, depth, budget, kmax, dist, lb, h, history, game, bounds, memo, run)


@jit
def settle_parts(buf, starts, plbs, depth, best, running, kmax, dist, game, bounds, memo,
                 run):  # pragma: no cover - compiled
    """`_expand`'s cheap pass over a probe's parts (part i is buf[starts[i]:starts[i + 1]],
    counted at plbs[i] in `running`): what `_settle` proves for each raises its bound in
    `plbs`, until `running` reaches `best`. Returns `running`."""
    for i in range(plbs.shape[0]):
        if running >= best:
            break
        done, v, lb, _ = _settle(buf[starts[i]:starts[i + 1]], depth, best - (running - plbs[i]),
                                 kmax, dist, game.table, bounds.fewest, bounds.most,
                                 bounds.weights, memo.heads, memo.entries, memo.pool,
                                 memo.meta, run.options, run.counters)
        got = v if done else max(lb, _part_bound(buf[starts[i]:starts[i + 1]], game,
                                                  run.options))
        if got > plbs[i]:
            running += got - plbs[i]
            plbs[i] = got
    return running


@jit
def _settle(S, depth, budget, kmax, dist, table, ltab, ctab, weights, mheads, ment, mpool,
            mmeta, opts, stats):  # pragma: no cover - compiled
    """The cheap part of `solve`: what the set's size, the bounds, the memo and the small-set
    shortcuts settle. Returns (done, value, lb, h): the value when done, else the lower
    bound proven so far and the set's memo hash. Its arrays are passed one by one, not in
    their groups: it runs for every part, and each array passed costs reference counts."""
    weighted = opts[OPT_WEIGHTED] != 0
    m = S.shape[0]
    h = np.uint64(0)
    if m == 1:
        if depth < 1:
            return True, INF, INF, h
        return True, (weights[S[0]] if weighted else np.int64(1)), INF, h
    if depth <= 1:
        return True, INF, INF, h
    if m == 2:
        if weighted:  # the heavier first: W + the lighter
            a, b = weights[S[0]], weights[S[1]]
            return True, a + b + min(a, b), INF, h
        return True, np.int64(3), INF, h
    dmax = ctab.shape[1] - 1
    if m > ctab[kmax, min(depth, dmax)]:
        return True, INF, INF, h
    if weighted:
        W = np.int64(0)
        wmax = np.int64(0)
        for i in range(m):
            w = weights[S[i]]
            W += w
            if w > wmax:
                wmax = w
        if W == 0 and opts[OPT_CAPPED] == 0:
            # nothing to pay, and playing the candidates one by one finds every code: the
            # tree is rebuilt that way (memo.settled_guess), nothing is stored
            return True, np.int64(0), INF, h
        if m > ctab[kmax, 2]:
            lb = weighted_set_bound(weight_prefix(S, weights), ctab, kmax)
        else:  # the same: one guess finds at most one code, two finish the set
            lb = 2 * W - wmax
    else:
        W = np.int64(m)
        lb = ltab[kmax, m]
    if lb >= budget:
        return True, lb, lb, h
    if stats[STOP] != 0:
        return True, max(lb, budget), lb, h
    dkey = depth if opts[OPT_CAPPED] else 0
    h = memo_hash(S, dkey)  # once: every lookup and record of S below takes it
    e = memo_find_at(S, dkey, h, mheads, ment, mpool)
    if e >= 0:
        stats[N_MEMO_HITS] += 1
        if ment[e, ENTRY_GUESS] >= 0:
            return True, ment[e, ENTRY_VALUE], lb, h
        if ment[e, ENTRY_VALUE] >= budget:
            return True, ment[e, ENTRY_VALUE], lb, h
        lb = max(lb, ment[e, ENTRY_VALUE])
    stats[N_SETS] += 1
    R = opts[OPT_ANSWERS]
    win = opts[OPT_WIN]
    # Small sets. A candidate that tells every code apart costs 2m - 1, and nothing is
    # cheaper. Without one, every strategy costs at least 2m (a part of n codes costs at
    # least 2n - 1, and some part keeps two codes together), and a candidate leaving a
    # single pair together reaches 2m. (Not at a root whose first guess is forced.)
    forced = dist == 0 and opts[OPT_FIRST_GUESS] >= 0
    if forced:
        pass
    elif m <= R and weighted:
        value, guess, bound = _small_weighted(S, W, depth, table, weights, win, R)
        if guess >= 0:
            stats[N_SHORTCUTS] += 1
            memo_store_at(S, dkey, h, value, guess, mheads, ment, mpool, mmeta, stats)
            return True, value, lb, h
        if bound > lb:
            lb = bound
            if lb >= budget:
                memo_store_at(S, dkey, h, lb, np.int64(-1), mheads, ment, mpool, mmeta, stats)
                return True, lb, lb, h
    elif m <= R:
        # per candidate, the answers seen once and twice: bits of two words (no allocation)
        # when there are at most 64 answers, else counts
        seen = np.zeros(0 if R <= 64 else R, dtype=np.int64)
        one = np.uint64(1)
        one_pair = np.int64(-1)
        for i in range(m):
            ci = np.uint64(S[i])
            pairs = 0
            if R <= 64:
                once = np.uint64(0)
                twice = np.uint64(0)
                for j in range(m):  # unsigned indices: no negative-index tests
                    bit = one << np.uint64(table[ci, np.uint64(S[j])])
                    if twice & bit:
                        pairs = 2
                        break
                    if once & bit:
                        twice |= bit
                        pairs += 1
                        if pairs > 1:
                            break
                    once |= bit
            else:
                seen[:] = 0
                for j in range(m):
                    r = np.uint64(table[ci, np.uint64(S[j])])
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
                memo_store_at(S, dkey, h, value, np.int64(S[i]), mheads, ment, mpool, mmeta,
                              stats)
                return True, value, lb, h
            if pairs == 1 and one_pair < 0 and depth >= 3:
                one_pair = np.int64(S[i])
        if one_pair >= 0:
            stats[N_SHORTCUTS] += 1
            value = np.int64(2 * m)
            memo_store_at(S, dkey, h, value, one_pair, mheads, ment, mpool, mmeta, stats)
            return True, value, lb, h
        if 2 * m > lb:
            lb = np.int64(2 * m)
            if lb >= budget:
                memo_store_at(S, dkey, h, lb, np.int64(-1), mheads, ment, mpool, mmeta, stats)
                return True, lb, lb, h
    return False, np.int64(0), lb, h


@jit_inline
def _from_peer(S, dkey, h, budget, lb, memo, stats):  # pragma: no cover - compiled
    """Look set S (memo key `dkey`, hash `h`) up in the peer's memo (`memo.peer_find`):
    (True, its value) when that settles S under `budget` (an exact value, or a bound at
    least the budget), else (False, `lb` raised by any bound found there)."""
    value, guess = peer_find(S, dkey, h, memo.peer_heads, memo.peer_entries, memo.peer_pool,
                             memo.peer_meta)
    if guess >= 0 or (guess == -1 and value >= budget):
        stats[N_PEER_HITS] += 1
        return True, value
    if guess == -1 and value > lb:
        return False, value
    return False, lb


@jit
def _expand(S, depth, budget, kmax, dist, lb, h, history, game, bounds, memo,
            run):  # pragma: no cover - compiled
    """The rest of `solve` on a set `_settle` left open (with its bound `lb` and memo hash
    `h`): its image in the memo, then its probes, scored and explored."""
    table, codes, colmask = game.table, game.codes, game.colours
    ltab, ctab, weights = bounds.fewest, bounds.most, bounds.weights
    mheads, ment, mpool, mmeta = memo.heads, memo.entries, memo.pool, memo.meta
    opts, stats, trace = run.options, run.counters, run.trace
    gperm, gphi, played = history.perms, history.colour_maps, history.played
    weighted = opts[OPT_WEIGHTED] != 0
    m = S.shape[0]
    R = opts[OPT_ANSWERS]
    win = opts[OPT_WIN]
    dkey = depth if opts[OPT_CAPPED] else 0
    # Another worker's memo (`Memo.peer_heads`; none when alone): what it proved for S, or
    # for its image below, holds here too (the same game and options)
    peer = memo.peer_heads.shape[0] > 0
    if peer:
        done, value = _from_peer(S, dkey, h, budget, lb, memo, stats)
        if done:
            return value
        lb = value
    # A permuted copy of a set solved before costs the same: look S up by its image too
    # (canon.py). Only values and bounds come from there; the tree is rebuilt from entries
    # of the sets themselves (a set answered here is solved again when rebuilding).
    canon = (game.code_at.shape[0] > 0 and m <= CANON_MAX and not weighted
             and dist >= opts[OPT_IMAGES_FROM])
    img_key = S[:0]
    img_pe = np.int64(-1)
    img_phi = np.zeros(0, dtype=np.int64)
    h_img = np.uint64(0)
    if canon:
        img_key, img_pe, img_phi = canonical_set(S, codes, game.perms, game.code_at,
                                                 opts[OPT_SYMBOLS])
        h_img = memo_hash(img_key, dkey + CANON_TAG)
        e = memo_find_at(img_key, dkey + CANON_TAG, h_img, mheads, ment, mpool)
        if e >= 0:
            stats[N_MEMO_HITS] += 1
            value = ment[e, ENTRY_VALUE]
            if ment[e, ENTRY_GUESS] >= 0 or value >= budget:
                return value
            lb = max(lb, value)
        if peer:
            done, value = _from_peer(img_key, dkey + CANON_TAG, h_img, budget, lb, memo,
                                     stats)
            if done:
                return value
            lb = value
    probes, counts, nparts, lbs, live, keys, kS, lb, low, is_cand, pbs = score_probes(
        S, depth, budget, kmax, dist, lb, history, game, bounds, run)
    P = probes.shape[0]
    if stats[STOP] != 0:
        return max(lb, budget)  # stopped on purpose: nothing is stored
    if lb >= budget:
        memo_store_at(S, dkey, h, lb, np.int64(-1), mheads, ment, mpool, mmeta, stats)
        if canon:
            _store_image(img_key, dkey, h_img, lb, np.int64(-1), img_pe, img_phi, game, opts, memo,
                         stats)
        return lb
    best = budget
    best_guess = np.int64(-1)
    buf = np.empty(m, dtype=np.int32)
    starts = np.zeros(R + 1, dtype=np.int64)
    explored = np.empty(P, dtype=np.int64)
    cut_hashes = np.empty(P, dtype=np.uint64)  # of the explored probes, in that order
    level_start = 0  # the first explored probe of the level being taken
    n_explored = 0
    map_ab = np.empty(R, dtype=np.int64)
    map_ba = np.empty(R, dtype=np.int64)
    # per explored probe, reused: its counts, where each part's next code goes, its parts
    # in the order they are solved (allocations cost reference counts)
    cnt = np.zeros(R, dtype=np.int64)
    pos = np.empty(R, dtype=np.int64)
    order = np.empty(R, dtype=np.int64)
    # what `_settle` found for each part of the probe explored (when pre_probe[r] is its
    # number among those explored)
    pre_probe = np.full(R, -1, dtype=np.int64)
    pre_done = np.zeros(R, dtype=np.bool_)
    pre_v = np.zeros(R, dtype=np.int64)
    pre_lb = np.zeros(R, dtype=np.int64)
    pre_h = np.zeros(R, dtype=np.uint64)
    if dist == 0:
        stats[N_FIRST_GUESSES] = P
    child_dkey = depth - 1 if opts[OPT_CAPPED] else 0
    # Several searches sharing the probes of S (`Run.root_best`, a `slots.team_array`: the
    # root's first guesses, or a part of the root's): each explores the ranks in the order
    # below that it claims as it comes free, under the best total any has found (one of a
    # lower rank wins a tie, as serially). Only the best of all is S's cost: the caller
    # takes it and S is not stored here.
    root_best = run.root_best
    split = dist == opts[OPT_SHARE_DIST] and root_best.shape[0] > 1
    team = root_best.shape[0] // 2
    rank = np.int64(-1)
    mine = np.int64(0)  # the rank this search claimed last
    claim = True
    # Take the probes cheapest first (ties in code order), a level of equal keys at a time:
    # one scan gathers the live probes of the least key above the last level taken. Most
    # nodes stop within the first level or two, so a full sort would be wasted.
    n_live = live.shape[0]
    level_of = np.empty(n_live, dtype=np.int64)
    level = np.int64(-1)
    n_level = 0
    at = 0
    while True:
        if stats[STOP] != 0:  # (its value is not used: a root of 59,000 first guesses
            break  # would otherwise take each of them on its parts' bounds)
        if at == n_level:
            low_key = INF
            n_level = 0
            for i in range(n_live):
                kt = keys[live[i]]
                if kt > level and kt <= low_key:
                    if kt < low_key:
                        low_key = kt
                        n_level = 0
                    level_of[n_level] = live[i]
                    n_level += 1
            if n_level == 0:
                break
            level = low_key
            at = 0
            level_start = n_explored
        t = level_of[at]
        at += 1
        g = probes[t]
        if split:
            rank += 1
            if claim:  # free: claim the next rank no search has (not one passed already)
                mine = max(root_best[2 * team], rank)
                root_best[2 * team] = mine + 1
                claim = False
            if rank < mine:
                continue
            claim = True
            best = _shared_best(root_best, rank, budget)
        # every probe before this one costs at least `best`, every later one at least its
        # bound (probes are taken cheapest bound first); not once told to stop, as the last
        # probe's parts may then have returned before proving their bounds. (Shared: of
        # this search's first guesses, at least the best total found, tie or not.)
        if dist == 0 and stats[STOP] == 0:
            proven = best if not split else _shared_best(root_best, ROOT_NONE, budget)
            if min(lbs[t], proven) > stats[LOWER_BOUND]:
                stats[LOWER_BOUND] = min(lbs[t], proven)
        if lbs[t] >= best:
            if lbs[t] < low:
                low = lbs[t]
            if opts[OPT_TRACE] != 0 and dist == 0:
                _trace(trace, stats, TRACE_PRUNED, g, lbs[t], best, 0, 0)
            break
        # a probe that cuts S exactly like an explored one costs the same. Such a probe has
        # the same key (bound, and whether it is a candidate): only the explored probes of
        # this level are compared, by the hash of their cuts first (comparing every
        # explored probe made the root of MM(6,9)'s 132-candidate position, 59,000 first
        # guesses, quadratic)
        dup = False
        ch = _cut_hash(table, g, S, win, map_ab)
        for q in range(level_start, n_explored):
            if cut_hashes[q] != ch:
                continue
            o = explored[q]
            if nparts[o] == nparts[t] and _same_cut(table, g, probes[o], S, is_cand[g],
                                                    is_cand[probes[o]], win, map_ab, map_ba):
                dup = True
                break
        if dup:
            continue
        explored[n_explored] = t
        cut_hashes[n_explored] = ch
        n_explored += 1
        if counts.shape[0] > 0:
            for r in range(R):
                cnt[r] = counts[t, r]
        else:  # not kept (see score_probes): count this probe's parts again
            cnt[:] = 0
            for j in range(m):
                cnt[table[g, S[j]]] += 1
        starts[0] = 0
        for r in range(R):
            starts[r + 1] = starts[r] + cnt[r]
            pos[r] = starts[r]
        for j in range(m):
            r = table[g, S[j]]
            buf[pos[r]] = S[j]
            pos[r] += 1
        if opts[OPT_TRACE] != 0 and dist == 0:
            _trace(trace, stats, TRACE_PROBE, g, lbs[t], nparts[t], 0, 0)
        # the parts other than the win, smallest first (ties in answer order; those of one
        # or two codes are charged at once, then the others solved): a stable insertion sort
        n_order = 0
        for r in range(R):
            if r != win and cnt[r] > 0:
                i = n_order
                while i > 0 and cnt[order[i - 1]] > cnt[r]:
                    order[i] = order[i - 1]
                    i -= 1
                order[i] = r
                n_order += 1
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
        if weighted:
            # the parts are known now: bound each by its own heaviest weights, at least the
            # bound counted from its count and weight alone (the same with unit weights)
            for r in range(R):
                n = cnt[r]
                if r == win or n <= 2:
                    continue
                own = _own_bound(buf, starts[r], n, weights, ctab, kS)
                if own > pbs[t, r]:
                    running += own - pbs[t, r]
                    pbs[t, r] = own
        if dist == 0:
            stats[N_PARTS_DONE] = 0
            stats[N_PARTS] = nparts[t]
        # start loading the memo heads of the parts to solve: their misses overlap
        for pi in range(n_order):
            r = order[pi]
            if cnt[r] > 2:
                memo_prefetch(buf[starts[r]:starts[r] + cnt[r]], child_dkey, mheads)
                if peer:
                    memo_prefetch(buf[starts[r]:starts[r] + cnt[r]], child_dkey,
                                  memo.peer_heads)
        # First what `_settle` proves cheaply for each part (the memo, the small-set
        # shortcuts, 2n for a small part no candidate tells apart) raises its bound: a
        # probe whose parts cannot fit under `best` is dropped before any part is searched.
        # The results are kept for the loop below, whose budgets are no bigger (so a bound
        # that cut a part here cuts it there).
        for pi in range(n_order):
            if running >= best:
                break
            r = order[pi]
            n = cnt[r]
            if n <= 2:
                continue
            plb = pbs[t, r] if weighted else ltab[kS, n]
            done, v, plb2, ph = _settle(buf[starts[r]:starts[r] + n], depth - 1,
                                        best - (running - plb), kS, dist + 1, table, ltab,
                                        ctab, weights, mheads, ment, mpool, mmeta, opts,
                                        stats)
            if not done and peer:
                done, pv = _from_peer(buf[starts[r]:starts[r] + n], child_dkey, ph,
                                      best - (running - plb), plb2, memo, stats)
                if done:
                    v = pv
                else:
                    plb2 = pv
            if not done:
                plb2 = max(plb2, _part_bound(buf[starts[r]:starts[r] + n], game, opts))
            pre_probe[r] = n_explored
            pre_done[r], pre_v[r], pre_lb[r], pre_h[r] = done, v, plb2, ph
            got = v if done else plb2
            if got > plb:
                running += got - plb
        # At the root, when every part is small (at most as many codes as answers:
        # `_tiny_scan`'s sets), the biggest first: a bigger small part is likelier to cost
        # more than its bound, so a first guess that cannot win is dropped sooner, and the
        # parts after it are searched under tighter budgets (MM(6,9)'s 132-candidate
        # position: 33 s -> 17 s; below the root it made no difference either way). The
        # order never changes a value or the probe chosen (a probe under `best` has every
        # part solved exactly, whatever the order), only how soon a losing one is dropped.
        backwards = dist == 0 and n_order > 0 and cnt[order[n_order - 1]] <= R
        for pj in range(n_order):
            if split:  # another search may have found a better total meanwhile
                best = min(best, _shared_best(root_best, rank, budget))
            if running >= best:
                break
            pi = n_order - 1 - pj if backwards else pj
            r = order[pi]
            n = cnt[r]
            plb = pbs[t, r] if weighted else ltab[kS, n]
            settled = pre_probe[r] == n_explored
            if settled:  # its bound as raised above
                plb = max(plb, pre_v[r] if pre_done[r] else pre_lb[r])
            if n <= 2:
                if weighted:
                    # charged exactly (its bound may be lower): one code costs its weight,
                    # two the sum and the lighter
                    a = weights[buf[starts[r]]]
                    exact = a
                    if n == 2:
                        b = weights[buf[starts[r] + 1]]
                        exact = a + b + min(a, b)
                    running += exact - plb
                    if opts[OPT_TRACE] != 0 and dist == 0:
                        _trace(trace, stats, TRACE_PART, g, r, n, exact, running)
                    if running >= best:
                        break
                elif opts[OPT_TRACE] != 0 and dist == 0:
                    _trace(trace, stats, TRACE_PART, g, r, n, plb, running)
                continue
            rest = running - plb
            part = buf[starts[r]:starts[r] + n]
            if game.marks.shape[0] > 0 and cperm.shape[0] > 1:
                # positional answers: only the elements that also keep this answer
                pperm, pphi = clue_group(cperm, cphi, g, r, codes, game.perms, game.marks)
            else:
                pperm, pphi = cperm, cphi
            if settled:
                done, v, plb2, ph = pre_done[r], pre_v[r], pre_lb[r], pre_h[r]
            else:
                done, v, plb2, ph = _settle(part, depth - 1, best - rest, kS, dist + 1,
                                            table, ltab, ctab, weights, mheads, ment, mpool,
                                            mmeta, opts, stats)
            if not done:
                v = _expand(part, depth - 1, best - rest, kS, dist + 1, plb2, ph,
                            History(pperm, pphi, cplayed), game, bounds, memo, run)
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
            if split:
                root_best[team + opts[OPT_ROOT_WORKER]] = g
                root_best[opts[OPT_ROOT_WORKER]] = (running << ROOT_RANK_BITS) | rank
            if dist == 0 and stats[STOP] == 0:
                # (not once told to stop: the caller may be reading the pair by then)
                stats[BEST_TOTAL] = best
                stats[BEST_GUESS] = best_guess
        elif running < low:
            low = running
        if dist == 0:
            stats[N_FIRST_GUESSES_DONE] += 1
    if split:  # the best of this search's first guesses, or a bound on them only
        return best if best_guess >= 0 else max(lb, low)
    if stats[STOP] != 0:
        # stopped on purpose: nothing is stored, not even the best so far (it may not be
        # the optimum: some probes were not costed), since the memo is used again
        return max(lb, budget)
    if best_guess >= 0:
        memo_store_at(S, dkey, h, best, best_guess, mheads, ment, mpool, mmeta, stats)
        if canon:
            _store_image(img_key, dkey, h_img, best, best_guess, img_pe, img_phi, game, opts, memo,
                         stats)
        return best
    result = max(lb, low)
    memo_store_at(S, dkey, h, result, np.int64(-1), mheads, ment, mpool, mmeta, stats)
    if canon:
        _store_image(img_key, dkey, h_img, result, np.int64(-1), img_pe, img_phi, game, opts, memo,
                     stats)
    return result


@jit_inline
def _shared_best(root_best, rank, budget):  # pragma: no cover - compiled
    """What a probe of this `rank` must cost less than to win, among searches sharing a
    set's probes (`Run.root_best`, a `slots.team_array`): the least total any has found
    (plus one when that one's rank is higher: the lower rank wins a tie), at most
    `budget`."""
    key = root_best[0]
    for w in range(1, root_best.shape[0] // 2):
        if root_best[w] < key:
            key = root_best[w]
    if key >= ROOT_NONE:
        return budget
    total = key >> ROOT_RANK_BITS
    if rank < (key & ((np.int64(1) << ROOT_RANK_BITS) - 1)):
        total += 1
    return min(total, budget)


@jit
def _store_image(ckey, dkey, h, value, guess, pe, phi, game, opts, memo,
                 stats):  # pragma: no cover - compiled
    """Record what was proved for a set under its image `ckey` (the guess mapped along)."""
    if guess >= 0:
        guess = image_of(guess, game.perms[pe], phi, game.codes, game.code_at,
                         opts[OPT_SYMBOLS])
    memo_store_at(ckey, dkey + CANON_TAG, h, value, guess, memo.heads, memo.entries,
                  memo.pool, memo.meta, stats)


@jit
def _small_weighted(S, W, depth, table, weights, win, R):  # pragma: no cover - compiled
    """Closed forms for a weighted set of m <= R codes: return (value, guess, bound), with
    guess -1 when none applies (bound is then a lower bound on the cost).

    A probe that is not a candidate finds nobody with its guess: every code needs two
    guesses, 2W. A candidate c finds itself, and a part P (weight W_P, heaviest x_P) costs
    at least 2 W_P - x_P (its first guess finds at most one code), exactly when P has one
    or two codes (two cost W_P + the lighter, the heavier first, when two guesses are left).
    So c costs at least v(c) = 2W - w(c) + the sum over its parts of (W_P - x_P), exactly
    when no part has three codes (and none two when depth < 3). The least exact value that
    is not above any bound is optimal; ties go to the first candidate, so unit weights play
    as the unweighted closed forms (2m - 1 for a separating candidate, 2m for one pair).

    The sum only grows as codes join their parts, so a candidate is left as soon as it is
    not exact or cannot beat the best exact value so far, with what it has summed as its
    bound; a candidate with 2W - w(c) >= that best is not looked at."""
    m = S.shape[0]
    stamp = np.full(R, -1, dtype=np.int64)
    pcnt = np.zeros(R, dtype=np.int64)
    pmax = np.zeros(R, dtype=np.int64)
    bound = 2 * W
    best = INF
    guess = np.int64(-1)
    for i in range(m):
        ci = S[i]
        v = 2 * W - weights[ci]
        if v >= best:
            continue
        exact = True
        for j in range(m):
            r = table[ci, S[j]]
            if r == win:
                continue
            w = weights[S[j]]
            if stamp[r] != i:
                stamp[r] = i
                pcnt[r] = 1
                pmax[r] = w
                continue
            pcnt[r] += 1
            # W_P - x_P grows by the lighter of the newcomer and the heaviest so far
            if w > pmax[r]:
                v += pmax[r]
                pmax[r] = w
            else:
                v += w
            if pcnt[r] > 2 or depth < 3 or v >= best:
                exact = False
                break
        if v < bound:
            bound = v
        if exact and v < best:
            best = v
            guess = np.int64(ci)
    if guess >= 0 and best <= bound:
        return best, guess, bound
    return bound, np.int64(-1), bound


@jit_inline
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


@jit_inline
def _cut_hash(table, probe, S, win, names):  # pragma: no cover - compiled
    """A hash of how `probe` cuts S, equal for probes `_same_cut` finds alike: its answers
    renamed in order of first appearance, the win kept apart."""
    names[:] = -1
    n_names = 0
    h = np.uint64(14695981039346656037)
    for j in range(S.shape[0]):
        a = table[probe, S[j]]
        if a == win:
            x = np.uint64(0xFFFF)
        else:
            if names[a] < 0:
                names[a] = n_names
                n_names += 1
            x = np.uint64(names[a])
        h = (h ^ x) * np.uint64(1099511628211)
    return h


@jit_inline
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
