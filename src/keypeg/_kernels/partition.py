"""Part-size kernels: how a set of candidates splits under each of many probes."""

from __future__ import annotations

import numpy as np
from numba import prange

from ._config import jit, jit_inline, jit_parallel
from .feedback import (
    byte_answer,
    byte_words,
    guess_word,
    raw_blackwhite,
    raw_blackwhite_wide,
    raw_positional,
)


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
def counts_blackwhite_bytes(codes, multiset, common, lut, probes, cands, out):  # pragma: no cover
    """`counts_blackwhite` for at most 8 pegs, on packed codes (`feedback.byte_answer`)."""
    p = codes.shape[1]
    words, sets = byte_words(codes, multiset, cands)
    for i in prange(probes.shape[0]):
        g = probes[i]
        gw = guess_word(codes, g)
        row = common[multiset[g]]
        for j in range(cands.shape[0]):
            out[i, lut[byte_answer(gw, words[j], row, sets[j], p)]] += 1


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


_FNV_START = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


@jit_inline
def _renamed_name(a, names, k):  # pragma: no cover - compiled
    """Answer a's name in `_renamed_hash` (the next, k, on its first appearance) and the
    next name."""
    if names[a] < 0:
        names[a] = k
        k += 1
    return np.uint64(names[a]), k


@jit_inline
def _renamed_hash(table, i, names):  # pragma: no cover - compiled
    """The hash of row i with its answers renamed in order of first appearance (alike rows
    hash alike); `names` (-1 for every answer) is left as it was found. Four hashes over
    every fourth answer, combined at the end: four multiplications at a time, not one
    chain (0.08 s against 0.11 s for MM(6,9)'s 531,441 probes by 213 candidates)."""
    row = table[i]
    m = row.shape[0]
    h0 = _FNV_START
    h1 = _FNV_START ^ np.uint64(1)
    h2 = _FNV_START ^ np.uint64(2)
    h3 = _FNV_START ^ np.uint64(3)
    k = 0
    j = 0
    while j + 4 <= m:
        x, k = _renamed_name(row[j], names, k)
        h0 = (h0 ^ x) * _FNV_PRIME
        x, k = _renamed_name(row[j + 1], names, k)
        h1 = (h1 ^ x) * _FNV_PRIME
        x, k = _renamed_name(row[j + 2], names, k)
        h2 = (h2 ^ x) * _FNV_PRIME
        x, k = _renamed_name(row[j + 3], names, k)
        h3 = (h3 ^ x) * _FNV_PRIME
        j += 4
    while j < m:
        x, k = _renamed_name(row[j], names, k)
        h0 = (h0 ^ x) * _FNV_PRIME
        j += 1
    for j in range(m):
        names[row[j]] = -1
    return (((h0 ^ h1) * _FNV_PRIME ^ h2) * _FNV_PRIME ^ h3) * _FNV_PRIME


@jit_inline
def _alike(table, i, o, there, back):  # pragma: no cover - compiled
    """Whether rows i and o cut the codes alike: a renaming of answers one-to-one both
    ways; `there` and `back` (-1 for every answer) are left as they were found."""
    same = True
    for j in range(table.shape[1]):
        a = table[i, j]
        b = table[o, j]
        if there[a] < 0 and back[b] < 0:
            there[a] = b
            back[b] = a
        elif there[a] != b or back[b] != a:
            same = False
            break
    for j in range(table.shape[1]):
        there[table[i, j]] = -1
        back[table[o, j]] = -1
    return same


@jit_inline
def _hash_slots(count):  # pragma: no cover - compiled
    """An empty open-addressing table (-1 per slot) for `count` rows, at most half full,
    and the mask of its slot numbers."""
    size = 1
    while size < 2 * count + 2:
        size *= 2
    return np.full(size, -1, dtype=np.int64), np.uint64(size - 1)


@jit_inline
def _home(h, mask):  # pragma: no cover - compiled
    """The first slot tried for hash h."""
    return (h ^ (h >> np.uint64(29))) & mask


@jit
def _distinct_rows_exact(table, first):  # pragma: no cover - compiled
    """Which rows of `table` (answers [probe, code]) to keep so that no two kept rows from
    `first` on cut the codes alike: the same answers up to renaming them (each answer of
    one row always meeting the same answer of the other). Rows before `first` are all kept;
    of each group of alike rows the first is. A hash of each row with its answers renamed in
    order of first appearance finds the groups; rows that meet in the hash table are compared
    in full. (`distinct_rows` does the same in parallel, and falls back to this.)"""
    n = table.shape[0]
    keep = np.ones(n, dtype=np.bool_)
    slots, mask = _hash_slots(n - first)
    names = np.full(256, -1, dtype=np.int64)
    there = np.full(256, -1, dtype=np.int64)
    back = np.full(256, -1, dtype=np.int64)
    for i in range(first, n):
        h = _renamed_hash(table, i, names)
        at = _home(h, mask)
        while True:
            o = slots[at]
            if o < 0:
                slots[at] = i
                break
            if _alike(table, i, o, there, back):
                keep[i] = False
                break
            at = (at + np.uint64(1)) & mask
    return keep


#: Rows hashed (and checked) per task of the parallel passes of `distinct_rows`.
ROW_CHUNK = 1024


@jit_parallel
def _row_hashes(table, first, out):  # pragma: no cover - compiled
    """out[i] = the hash of row i (from `first` on) with its answers renamed in order of
    first appearance, so alike rows hash alike; chunks of rows over the cores."""
    n = table.shape[0]
    chunks = (n - first + ROW_CHUNK - 1) // ROW_CHUNK
    for c in prange(chunks):
        names = np.full(256, -1, dtype=np.int64)
        for i in range(first + c * ROW_CHUNK, min(n, first + (c + 1) * ROW_CHUNK)):
            out[i] = _renamed_hash(table, i, names)


@jit_parallel
def _all_alike(table, first, rep):  # pragma: no cover - compiled
    """Whether every row i (from `first` on) is alike row rep[i] (a renaming of answers
    one-to-one both ways); chunks of rows over the cores."""
    n = table.shape[0]
    chunks = (n - first + ROW_CHUNK - 1) // ROW_CHUNK
    bad = np.zeros(max(chunks, 1), dtype=np.bool_)
    for c in prange(chunks):
        there = np.full(256, -1, dtype=np.int64)
        back = np.full(256, -1, dtype=np.int64)
        for i in range(first + c * ROW_CHUNK, min(n, first + (c + 1) * ROW_CHUNK)):
            if rep[i] != i and not _alike(table, i, rep[i], there, back):
                bad[c] = True
    return not bad.any()


@jit
def distinct_rows(table, first):  # pragma: no cover - compiled
    """Which rows of `table` (answers [probe, code]) to keep so that no two kept rows from
    `first` on cut the codes alike: the same answers up to renaming them (each answer of
    one row always meeting the same answer of the other). Rows before `first` are all kept;
    of each group of alike rows the first is. Each row is hashed with its answers renamed
    in order of first appearance (in parallel); rows of equal hashes are grouped under the
    first, and every row checked in full against it (in parallel): when all are alike the
    groups are exact; should two rows that are not alike share a hash, the rows are
    grouped again one by one with full comparisons (`_distinct_rows_exact`)."""
    n = table.shape[0]
    hashes = np.empty(n, dtype=np.uint64)
    _row_hashes(table, first, hashes)
    slots, mask = _hash_slots(n - first)
    rep = np.arange(n)
    for i in range(first, n):
        h = hashes[i]
        at = _home(h, mask)
        while True:
            o = slots[at]
            if o < 0:
                slots[at] = i
                break
            if hashes[o] == h:
                rep[i] = o
                break
            at = (at + np.uint64(1)) & mask
    if not _all_alike(table, first, rep):
        return _distinct_rows_exact(table, first)
    keep = np.ones(n, dtype=np.bool_)
    for i in range(first, n):
        keep[i] = rep[i] == i
    return keep


@jit
def compact_rows(table, rows):  # pragma: no cover - compiled
    """Move rows `rows` (ascending) of `table` to its first rows, in place (no second copy of
    a table that may fill the memory budget)."""
    for i in range(rows.shape[0]):
        r = rows[i]
        if r != i:
            table[i, :] = table[r, :]


@jit_parallel
def gather_columns(table, rows, out):  # pragma: no cover - compiled
    """Fill ``out[j, i] = table[rows[i], j]`` for the table's columns j: the rows taken in
    the order given and turned into columns, a block of rows at a time (out may have more
    rows than the table has columns: those are left as they are)."""
    n = rows.shape[0]
    m = table.shape[1]
    block = 256
    for b in prange((n + block - 1) // block):
        lo = b * block
        hi = min(n, lo + block)
        for i in range(lo, hi):
            r = rows[i]
            for j in range(m):
                out[j, i] = table[r, j]


@jit_parallel
def gather_along(rows, at, out):  # pragma: no cover - compiled
    """Fill ``out[j, i] = rows[j, at[i]]`` for out's rows j (each row of `rows` read
    within itself, a row per thread at a time)."""
    for j in prange(out.shape[0]):
        src = rows[j]
        dst = out[j]
        for i in range(at.shape[0]):
            dst[i] = src[at[i]]
