"""Colour classes shared by the one-step and optimal searches."""

from __future__ import annotations

import numpy as np

from ._config import jit, jit_inline


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


@jit_inline
def popcount(x):  # pragma: no cover - compiled
    """The number of bits set in the uint64 x (LLVM makes it one instruction)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


#: Most symbols for which `first_inversions` fits one word (pairs of 11 symbols: 55 bits).
INVERSION_SYMBOLS = 11


@jit
def first_inversions(codes, nsym):  # pragma: no cover - compiled
    """Per code, its symbols' inversions in order of first appearance: bit
    ``a * (a - 1) // 2 + b`` set when symbol a > b first appears before b (both used)."""
    N, p = codes.shape
    one = np.uint64(1)
    out = np.zeros(N, dtype=np.uint64)
    for x in range(N):
        seen = np.uint64(0)
        acc = np.uint64(0)
        for j in range(p):
            c = np.int64(codes[x, j])
            if seen & (one << np.uint64(c)):
                continue
            for a in range(c + 1, nsym):
                if seen & (one << np.uint64(a)):
                    acc |= one << np.uint64(a * (a - 1) // 2 + c)
            seen |= one << np.uint64(c)
        out[x] = acc
    return out


@jit
def _prefixes(lst, n):  # pragma: no cover - compiled
    """For j = 0..n: the mask of the first j symbols of the ascending list `lst`, and the
    mask of the inversion bits (`first_inversions`) among them."""
    one = np.uint64(1)
    pref = np.zeros(n + 1, dtype=np.uint64)
    pairs = np.zeros(n + 1, dtype=np.uint64)
    for j in range(n):
        a = lst[j]
        pairs[j + 1] = pairs[j]
        for i in range(j):
            pairs[j + 1] |= one << np.uint64(a * (a - 1) // 2 + lst[i])
        pref[j + 1] = pref[j] | (one << np.uint64(a))
    return pref, pairs


@jit
def canonical_identity(colmask, inversions, pool, free_list, n_free, zero_list, n_zero,
                       repeats, ok):  # pragma: no cover - compiled
    """`canonical_under` (least codes) when the group is the identity alone, by masks: a
    code is the least of its class when the free colours it uses are the first of
    `free_list`, first appearing in ascending order, and the zero colours it uses are the
    first of `zero_list` (with repeats at most one; without, in ascending order too)."""
    free_pref, free_pairs = _prefixes(free_list, n_free)
    zero_pref, zero_pairs = _prefixes(zero_list, n_zero)
    F = free_pref[n_free]
    Z = zero_pref[n_zero]
    for xi in range(pool.shape[0]):
        x = pool[xi]
        cm = colmask[x]
        inv = inversions[x]
        uf = cm & F
        jf = popcount(uf)
        uz = cm & Z
        jz = popcount(uz)
        good = uf == free_pref[jf] and (inv & free_pairs[jf]) == 0 and uz == zero_pref[jz]
        if repeats:
            good = good and jz <= 1
        else:
            good = good and (inv & zero_pairs[jz]) == 0
        ok[xi] = good


@jit
def canonical_under(codes, pool, gperm, gphi, iperms, free_list, n_free, zero_list, n_zero,
                    is_zero, repeats, largest, ok):  # pragma: no cover - compiled
    """Set ok[i] when code pool[i] is the least (`largest`: the greatest) code of its class
    under a group (elements: position permutation ``gperm[e]``, colour map ``gphi[e]``, -1
    for colours free to map to any colour not played yet), comparing codes symbol by
    symbol. The image of x has ``phi[x[iperms[pe, j]]]`` at position j, with free colours
    renamed in order of appearance (to the smallest free colours first, or the greatest);
    absent (zero) colours are all the smallest one (with repeats) or the smallest ones in
    ascending order (without; the greatest, in descending order, when `largest`), as each
    class has one such member. With the identity alone this is the colour rule of
    `onestep._canonical_rows`."""
    p = codes.shape[1]
    G = gperm.shape[0]
    nsym = is_zero.shape[0]
    local = np.empty(nsym, dtype=np.int64)
    for xi in range(pool.shape[0]):
        x = pool[xi]
        good = True
        nz = 0
        for k in range(p):
            c = codes[x, k]
            if is_zero[c]:
                if repeats:
                    want = zero_list[n_zero - 1] if largest else zero_list[0]
                else:
                    want = zero_list[n_zero - 1 - nz] if largest else zero_list[nz]
                    nz += 1
                if c != want:
                    good = False
                    break
        e = 0
        while good and e < G:
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
                    if nf < n_free:
                        d = free_list[n_free - 1 - nf] if largest else free_list[nf]
                    else:
                        d = np.int64(c)
                    nf += 1
                    local[c] = d
                    assigned |= np.uint64(1) << np.uint64(c)
                xj = codes[x, j]
                if d != xj:
                    good = (d > xj) != largest
                    break
            e += 1
        ok[xi] = good
