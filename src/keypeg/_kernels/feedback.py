"""Feedback kernels: raw answer keys for pairs of codes, whole tables, rows on the fly.

A code is a row of `codes` (uint8 symbol indices). `counts[i, c]` is how often symbol c
occurs in code i. For black/white, `multiset[i]` numbers the colour multiset of code i and
`common[a, b]` is how many pegs two multisets share, so the whites cost one lookup; when there
are too many multisets `common` is empty and the counts are compared instead. For positional
games with at most 16 symbols `packed[i]` holds the counts, 4 bits per symbol (all zeros, and
ignored, beyond that).

The raw key of an answer is ``black*(pegs+1)+white`` (black/white) or the marks read as a
base-3 number, gray 0, amber 1, green 2 (positional); `lut` maps it to the answer's index.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ._config import jit, jit_inline, jit_parallel
from .symmetry import popcount

#: Positional games with more symbols than this use the slower, general amber allocation.
PACKED_SYMBOLS = 16


#: Most colour multisets for which the `common` lookup table is built.
MAX_MULTISETS = 8192  # MM(8,8) has 6,435: a 41 MB table

#: `multisets` numbers the keys by marking them in an array when n^pegs is at most four
#: times the codes plus this many, else by sorting them.
MARKED_KEYS = 2**20


@jit
def raw_blackwhite(codes, multiset, common, g, s):  # pragma: no cover - compiled
    p = codes.shape[1]
    black = 0
    for k in range(p):
        if codes[g, k] == codes[s, k]:
            black += 1
    return black * (p + 1) + (np.int64(common[multiset[g], multiset[s]]) - black)


@jit
def raw_blackwhite_wide(codes, counts, g, s):  # pragma: no cover - compiled
    """The same answer key, comparing symbol counts (for games with too many multisets)."""
    p = codes.shape[1]
    black = 0
    for k in range(p):
        if codes[g, k] == codes[s, k]:
            black += 1
    shared = 0
    for c in range(counts.shape[1]):
        a = counts[g, c]
        b = counts[s, c]
        shared += a if a < b else b
    return black * (p + 1) + (shared - black)


@jit
def raw_positional(codes, packed, g, s):  # pragma: no cover - compiled
    """Return the base-3 key of the marks for guess g against secret s.

    Greens first; then each other guess peg, left to right, takes one unmatched copy of its
    symbol from the secret (amber) or finds none left (gray).
    """
    p = codes.shape[1]
    if packed[s] == 0:
        return _raw_positional_wide(codes, g, s)
    inv = packed[s]
    green = 0
    for k in range(p):
        if codes[g, k] == codes[s, k]:
            green |= 1 << k
            inv -= np.uint64(1) << np.uint64(4 * codes[s, k])
    key = 0
    for k in range(p):
        key *= 3
        if green & (1 << k):
            key += 2
        else:
            shift = np.uint64(4 * codes[g, k])
            if (inv >> shift) & np.uint64(15):
                inv -= np.uint64(1) << shift
                key += 1
    return key


@jit
def _raw_positional_wide(codes, g, s):  # pragma: no cover - compiled
    p = codes.shape[1]
    green = 0
    for k in range(p):
        if codes[g, k] == codes[s, k]:
            green |= 1 << k
    taken = green
    key = 0
    for k in range(p):
        key *= 3
        if green & (1 << k):
            key += 2
        else:
            c = codes[g, k]
            for j in range(p):
                if not (taken & (1 << j)) and codes[s, j] == c:
                    taken |= 1 << j
                    key += 1
                    break
    return key


@jit_parallel
def block_blackwhite(codes, multiset, common, lut, probes, secrets, out):  # pragma: no cover
    """Fill out[i, j] with the answer index of guess probes[i] against secret secrets[j]."""
    for i in prange(probes.shape[0]):
        g = probes[i]
        for j in range(secrets.shape[0]):
            out[i, j] = lut[raw_blackwhite(codes, multiset, common, g, secrets[j])]


@jit
def byte_words(codes, multiset, rows):  # pragma: no cover - compiled
    """Codes `rows` packed for `byte_answer` (at most 8 pegs): one peg per byte of a word,
    with their multiset ids, in contiguous arrays."""
    p = codes.shape[1]
    words = np.empty(rows.shape[0], dtype=np.uint64)
    sets = np.empty(rows.shape[0], dtype=np.int64)
    for j in range(rows.shape[0]):
        s = rows[j]
        w = np.uint64(0)
        for k in range(p):
            w |= np.uint64(codes[s, k]) << np.uint64(8 * k)
        words[j] = w
        sets[j] = multiset[s]
    return words, sets


@jit_inline
def guess_word(codes, g):  # pragma: no cover - compiled
    """Guess g packed like `byte_words`' codes, its bytes past the last peg set (0x80), so
    that they never match a secret's (clear)."""
    p = codes.shape[1]
    w = np.uint64(0)
    for k in range(8):
        w |= (np.uint64(codes[g, k]) if k < p else np.uint64(0x80)) << np.uint64(8 * k)
    return w


@jit_inline
def byte_answer(gw, sw, row, sset, p):  # pragma: no cover - compiled
    """`raw_blackwhite` of a guess and a secret packed (`guess_word`, `byte_words`): the
    blacks are the zero bytes of their XOR (the top bit of each set by a few word
    operations, then counted), the whites come from the guess's row of `common`."""
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    x = gw ^ sw
    black = popcount(~(((x & low7) + low7) | x | low7))
    return black * (p + 1) + (np.int64(row[sset]) - black)


@jit_parallel
def block_blackwhite_bytes(codes, multiset, common, lut, probes, secrets, out):  # pragma: no cover
    """The same answers as `block_blackwhite`, for at most 8 pegs, packed (`byte_answer`):
    MM(6,9)'s 531,441 codes by 132 candidates about 2.5 times faster."""
    p = codes.shape[1]
    words, sets = byte_words(codes, multiset, secrets)
    for i in prange(probes.shape[0]):
        g = probes[i]
        gw = guess_word(codes, g)
        row = common[multiset[g]]
        for j in range(secrets.shape[0]):
            out[i, j] = lut[byte_answer(gw, words[j], row, sets[j], p)]


#: Most entries of each half's table in `block_blackwhite_halves` (symbols^(pegs/2)).
HALF_CODES = 1 << 16


@jit
def half_tables(codes, multiset, common, symbols, secrets):  # pragma: no cover - compiled
    """The tables `block_blackwhite_halves` adds, for the secrets given: ``hi[t, j]`` and
    ``lo[t, j]``, the blacks of the first pegs' (hi) or the last pegs' (lo) symbols read as
    a base-`symbols` number t against secret j, times pegs; ``shared[u, j]`` the pegs
    multiset u shares with secret j (`common`). The raw key of a guess against secret j,
    ``black*(pegs+1) + white`` with white = shared - black, is ``black*pegs + shared``:
    the sum of its three entries."""
    p = codes.shape[1]
    ph = p // 2
    m = secrets.shape[0]
    hi = _half_blacks(codes, symbols, secrets, 0, ph)
    lo = _half_blacks(codes, symbols, secrets, ph, p)
    shared = np.empty((common.shape[0], m), dtype=np.uint8)
    for u in range(common.shape[0]):
        for j in range(m):
            shared[u, j] = common[u, multiset[secrets[j]]]
    return hi, lo, shared


@jit_inline
def _half_blacks(codes, symbols, secrets, first, last):  # pragma: no cover - compiled
    """``out[t, j]``: the blacks of pegs first..last-1 read as the base-`symbols` number t
    (the first of them its top digit) against secret j, times the pegs (`half_tables`)."""
    p = codes.shape[1]
    m = secrets.shape[0]
    out = np.zeros((symbols ** (last - first), m), dtype=np.uint8)
    for t in range(out.shape[0]):
        for j in range(m):
            s = secrets[j]
            rest = t
            b = 0
            for k in range(last - 1, first - 1, -1):
                if codes[s, k] == rest % symbols:
                    b += 1
                rest //= symbols
            out[t, j] = b * p
    return out


@jit_parallel
def block_blackwhite_halves(codes, multiset, common, lut, symbols, probes, secrets,
                            out):  # pragma: no cover - compiled
    """The same answers as `block_blackwhite`, each probe's row the sum of three rows of
    small tables (`half_tables`: its first pegs' blacks, its last pegs', the pegs its
    multiset shares) read in order, then named through `lut`: no per-pair peg loop, for
    many probes against the same secrets (MM(6,9)'s 531,441 codes by 213 candidates)."""
    hi, lo, shared = half_tables(codes, multiset, common, symbols, secrets)
    p = codes.shape[1]
    ph = p // 2
    m = secrets.shape[0]
    for i in prange(probes.shape[0]):
        g = probes[i]
        th = 0
        for k in range(ph):
            th = th * symbols + codes[g, k]
        tl = 0
        for k in range(ph, p):
            tl = tl * symbols + codes[g, k]
        rh = hi[th]
        rl = lo[tl]
        rs = shared[multiset[g]]
        row = out[i]
        for j in range(m):
            row[j] = lut[np.int64(rh[j] + rl[j] + rs[j])]


@jit_parallel
def block_blackwhite_wide(codes, counts, lut, probes, secrets, out):  # pragma: no cover
    for i in prange(probes.shape[0]):
        g = probes[i]
        for j in range(secrets.shape[0]):
            out[i, j] = lut[raw_blackwhite_wide(codes, counts, g, secrets[j])]


@jit_parallel
def block_positional(codes, packed, lut, probes, secrets, out):  # pragma: no cover
    """The same answers as `raw_positional`, with the secrets' symbols and packed counts
    gathered once into contiguous rows and each probe's symbols held in a small array:
    the inner loop over the secrets then reads memory in order."""
    m = secrets.shape[0]
    p = codes.shape[1]
    wide = False
    for j in range(m):
        if packed[secrets[j]] == 0:
            wide = True
    if wide:
        for i in prange(probes.shape[0]):
            g = probes[i]
            for j in range(m):
                out[i, j] = lut[raw_positional(codes, packed, g, secrets[j])]
        return
    sd = np.empty((p, m), dtype=codes.dtype)
    sinv = np.empty(m, dtype=np.uint64)
    for j in range(m):
        s = secrets[j]
        sinv[j] = packed[s]
        for k in range(p):
            sd[k, j] = codes[s, k]
    for i in prange(probes.shape[0]):
        g = probes[i]
        inv = sinv.copy()
        green = np.zeros(m, dtype=np.uint64)
        key = np.zeros(m, dtype=np.int64)
        # greens, position by position over all the secrets (branch-free, vectorised)
        for k in range(p):
            c = codes[g, k]
            unit = np.uint64(1) << np.uint64(4 * c)
            bit = np.uint64(1) << np.uint64(k)
            row = sd[k]
            for j in range(m):
                e = np.uint64(row[j] == c)
                green[j] |= e * bit
                inv[j] -= e * unit
        # then each other peg, left to right, takes an unmatched copy (amber) or none
        for k in range(p):
            c = codes[g, k]
            shift = np.uint64(4 * c)
            unit = np.uint64(1) << shift
            for j in range(m):
                isg = (green[j] >> np.uint64(k)) & np.uint64(1)
                has = np.uint64(((inv[j] >> shift) & np.uint64(15)) != 0)
                amb = has & (isg ^ np.uint64(1))
                inv[j] -= amb * unit
                key[j] = key[j] * 3 + np.int64(2 * isg + amb)
        for j in range(m):
            out[i, j] = lut[key[j]]


@jit
def row_blackwhite(codes, multiset, common, lut, g, secrets, out):  # pragma: no cover
    for i in range(secrets.shape[0]):
        out[i] = lut[raw_blackwhite(codes, multiset, common, g, secrets[i])]


@jit
def row_blackwhite_wide(codes, counts, lut, g, secrets, out):  # pragma: no cover - compiled
    for i in range(secrets.shape[0]):
        out[i] = lut[raw_blackwhite_wide(codes, counts, g, secrets[i])]


@jit
def row_positional(codes, packed, lut, g, secrets, out):  # pragma: no cover - compiled
    for i in range(secrets.shape[0]):
        out[i] = lut[raw_positional(codes, packed, g, secrets[i])]


@jit
def row_from_table(table, g, secrets, out):  # pragma: no cover - compiled
    for i in range(secrets.shape[0]):
        out[i] = table[g, secrets[i]]


def code_stats(codes: np.ndarray, symbols: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return, per code: its symbol counts (uint8 [code, symbol]), the counts packed 4 bits
    per symbol (zeros past `PACKED_SYMBOLS`), the mask of its symbols, its value read as a
    base-`symbols` number, and its multiset's key (its symbols in ascending order read the
    same way). One compiled pass over the codes (numpy's passes, a few per symbol, took
    12 s for MM(8,8)'s 16.8 million codes; this pass 1.3 s with the rest of the space)."""
    n = codes.shape[0]
    counts = np.zeros((n, symbols), dtype=np.uint8)
    packed = np.zeros(n, dtype=np.uint64)
    colmask = np.zeros(n, dtype=np.uint64)
    values = np.zeros(n, dtype=np.int64)
    keys = np.zeros(n, dtype=np.int64)
    _code_stats(codes, symbols, symbols <= PACKED_SYMBOLS, counts, packed, colmask, values,
                keys)
    return counts, packed, colmask, values, keys


@jit_parallel
def _code_stats(codes, symbols, pack, counts, packed, colmask, values, keys
                ):  # pragma: no cover - compiled
    for i in prange(codes.shape[0]):
        value = 0
        mask = np.uint64(0)
        for k in range(codes.shape[1]):
            c = np.int64(codes[i, k])
            counts[i, c] += 1
            value = value * symbols + c
            mask |= np.uint64(1) << np.uint64(c)
        values[i] = value
        colmask[i] = mask
        word = np.uint64(0)
        key = 0
        for c in range(symbols):
            times = np.int64(counts[i, c])
            if pack:
                word += np.uint64(times) << np.uint64(4 * c)
            for _ in range(times):
                key = key * symbols + c
        packed[i] = word
        keys[i] = key


def multisets(counts: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (multiset id per code, shared-peg table between multisets); the table is
    empty when there are more than `MAX_MULTISETS` multisets.

    The multisets are numbered in the order of their keys (`code_stats`; n^pegs < 2^63 for
    every game keypeg enumerates): by marking each key in an array of n^pegs entries when
    that is not much more than the codes (every game with repeats), else by sorting."""
    n = counts.shape[0]
    limit = int(counts.shape[1]) ** int(counts[0].sum()) if n else 0
    if limit <= 4 * n + MARKED_KEYS:
        ids = np.empty(n, dtype=np.int32)
        first = _number_keys(keys, limit, ids)
    else:
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        ids = inverse.astype(np.int32).ravel()
    if first.shape[0] > MAX_MULTISETS:
        return ids, np.zeros((0, 0), dtype=np.uint8)
    shared = np.empty((first.shape[0], first.shape[0]), dtype=np.uint8)
    _shared_pegs(np.ascontiguousarray(counts[first]), shared)
    return ids, shared


@jit
def _number_keys(keys, limit, ids):  # pragma: no cover - compiled
    """Number the distinct keys (each below `limit`) in ascending order into `ids`; return
    each number's first code."""
    rank = np.full(limit, -1, dtype=np.int32)
    for i in range(keys.shape[0]):
        rank[keys[i]] = -2
    count = 0
    for k in range(limit):
        if rank[k] == -2:
            rank[k] = count
            count += 1
    first = np.full(count, -1, dtype=np.int64)
    for i in range(keys.shape[0]):
        r = rank[keys[i]]
        ids[i] = r
        if first[r] < 0:
            first[r] = i
    return first


@jit_parallel
def _shared_pegs(counts, out):  # pragma: no cover - compiled
    """out[a, b] = the pegs multisets a and b (their counts) have in common."""
    m = counts.shape[0]
    for a in prange(m):
        for b in range(m):
            total = 0
            for c in range(counts.shape[1]):
                total += min(counts[a, c], counts[b, c])
            out[a, b] = total



@jit_inline
def _peg_word(codes, c):  # pragma: no cover - compiled
    """Code c's pegs in the bytes of a word (at most 8 pegs), first peg lowest."""
    w = np.uint64(0)
    for k in range(codes.shape[1]):
        w |= np.uint64(codes[c, k]) << np.uint64(8 * k)
    return w


@jit_parallel
def most_parts(codes, counts, multiset, common, packed, positional, S, skip, n_keys, floor,
               block):  # pragma: no cover - compiled
    """Return (k, g): the most different answers k, at least `floor`, that a code not marked
    in `skip` gets from the codes `S`, and the first code g (in code order) that gets as
    many; (-1, -1) when no code gets `floor`. Blocks of `block` codes are read in
    parallel. A code is dropped as soon as its answers still to come cannot bring it to
    the most found so far in its block (plus one), nor to the most any block has found (a
    hint: never above the true most, so a code that gets it is never dropped), nor to
    `floor`: most after a few of S. A block after one whose code told every code of S
    apart is skipped (it could only tie)."""
    n = codes.shape[0]
    m = S.shape[0]
    pegs = codes.shape[1]
    blocks = (n + block - 1) // block
    # black/white by multisets with at most 8 pegs: each code's pegs in the bytes of a word,
    # the blacks counted as its zero bytes against another's (a few word operations)
    by_words = not positional and common.shape[0] > 0 and pegs <= 8
    words = np.zeros(m, dtype=np.uint64)
    sets = np.zeros(m, dtype=np.int64)
    for i in range(m):
        words[i] = _peg_word(codes, S[i])
        sets[i] = multiset[S[i]]
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    unused = np.int64(8 - pegs)  # (bytes zero in both words: not pegs)
    best_k = np.full(blocks, -1, dtype=np.int64)
    best_g = np.full(blocks, -1, dtype=np.int64)
    most = np.full(1, floor, dtype=np.int64)
    stop = np.full(1, blocks, dtype=np.int64)
    wide = common.shape[0] == 0
    for b in prange(blocks):
        if stop[0] < b:
            continue
        seen = np.full(n_keys, -1, dtype=np.int64)
        local = -1
        for g in range(b * block, min(n, (b + 1) * block)):
            if skip[g]:
                continue
            need = max(most[0], local + 1)
            got = 0
            word = _peg_word(codes, g) if by_words else np.uint64(0)
            mine = multiset[g] if by_words else 0
            for i in range(m):
                if by_words:
                    x = word ^ words[i]
                    zeros = ~(((x & low7) + low7) | x | low7)
                    black = popcount(zeros) - unused
                    key = black * (pegs + 1) + (np.int64(common[mine, sets[i]]) - black)
                elif positional:
                    key = raw_positional(codes, packed, g, S[i])
                elif wide:
                    key = raw_blackwhite_wide(codes, counts, g, S[i])
                else:
                    key = raw_blackwhite(codes, multiset, common, g, S[i])
                if seen[key] != g:
                    seen[key] = g
                    got += 1
                if got + (m - 1 - i) < need:
                    got = -1
                    break
            if got >= need:
                local = got
                best_k[b] = got
                best_g[b] = g
                if got > most[0]:
                    most[0] = got
                if got == m:
                    if b < stop[0]:
                        stop[0] = b
                    break
    top = np.int64(-1)
    for b in range(blocks):
        if best_k[b] > top:
            top = best_k[b]
    for b in range(blocks):
        if top >= 0 and best_k[b] == top:
            return top, best_g[b]
    return np.int64(-1), np.int64(-1)


@jit_parallel
def probe_bounds(codes, counts, multiset, common, packed, positional, S, n_keys, lpart,
                 block):  # pragma: no cover - compiled
    """Return, for every code g, m + the sum of ``lpart[n]`` over the parts (n codes each)
    into which g's answers cut the m codes of S, its own win left out: a lower bound on the
    total of any tree over S that starts with g, when ``lpart[n]`` bounds the guesses a
    part of n codes still needs. Blocks of `block` codes are read in parallel."""
    n = codes.shape[0]
    m = S.shape[0]
    pegs = codes.shape[1]
    blocks = (n + block - 1) // block
    by_words = not positional and common.shape[0] > 0 and pegs <= 8
    words = np.zeros(m, dtype=np.uint64)
    sets = np.zeros(m, dtype=np.int64)
    for i in range(m):
        words[i] = _peg_word(codes, S[i])
        sets[i] = multiset[S[i]]
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    unused = np.int64(8 - pegs)
    wide = common.shape[0] == 0
    out = np.empty(n, dtype=np.int64)
    for b in prange(blocks):
        tally = np.zeros(n_keys, dtype=np.int64)
        touched = np.empty(m, dtype=np.int64)
        for g in range(b * block, min(n, (b + 1) * block)):
            word = _peg_word(codes, g) if by_words else np.uint64(0)
            mine = multiset[g] if by_words else 0
            n_touched = 0
            for i in range(m):
                if by_words:
                    x = word ^ words[i]
                    zeros = ~(((x & low7) + low7) | x | low7)
                    black = popcount(zeros) - unused
                    key = black * (pegs + 1) + (np.int64(common[mine, sets[i]]) - black)
                elif positional:
                    key = raw_positional(codes, packed, g, S[i])
                elif wide:
                    key = raw_blackwhite_wide(codes, counts, g, S[i])
                else:
                    key = raw_blackwhite(codes, multiset, common, g, S[i])
                if tally[key] == 0:
                    touched[n_touched] = key
                    n_touched += 1
                tally[key] += 1
            # g's own answer (a win), whichever way its keys are counted
            if by_words:
                own = pegs * (pegs + 1)
            elif positional:
                own = raw_positional(codes, packed, g, g)
            elif wide:
                own = raw_blackwhite_wide(codes, counts, g, g)
            else:
                own = raw_blackwhite(codes, multiset, common, g, g)
            total = m
            for t in range(n_touched):
                key = touched[t]
                if key != own:
                    total += lpart[tally[key]]
                tally[key] = 0
            out[g] = total
    return out
