"""Secret classes: permuting colours and positions changes no game, so the secrets fall
into classes (orbits): for four pegs with black/white answers AAAA, AAAB, AABB, AABC and
ABCD, by the multiset of their colour counts; where positions do not permute (per-peg
answers with repeated symbols) by which positions share a colour. The game value
(`keypeg.value`) mixes over them, and symmetrised codebreakers (`keypeg.codemakers`) cost
the same on every secret of one."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .rules import Rules
from .space import get_space


@dataclass(frozen=True)
class SecretClasses:
    """The classes of the secrets under colour and position permutations: `of[i]` is the
    class of code i, `labels[c]` its pattern (AABC), `sizes[c]` how many codes it has."""

    of: np.ndarray
    labels: tuple[str, ...]
    sizes: tuple[int, ...]

    def members(self, c: int) -> np.ndarray:
        """Return the code indices of class `c`."""
        return np.flatnonzero(self.of == c).astype(np.int32)


def positions_permute(rules: Rules) -> bool:
    """Return True when permuting positions (in secret and guess alike) leaves the game as
    it is: always for black/white answers; for per-peg answers only without repeated
    symbols (with repeats, which copy of a symbol is amber depends on the order)."""
    return rules.feedback == "blackwhite" or not rules.repeats


@cache
def secret_classes(rules: Rules) -> SecretClasses:
    """Return the classes of the secrets of `rules` (most repeated patterns first): by the
    multiset of colour counts, or, where positions do not permute, by which positions
    share a colour (a pattern like ABAB)."""
    space = get_space(rules)
    if positions_permute(rules):
        counts = np.sort(space.counts, axis=1)[:, ::-1]  # multiplicities, largest first
    else:  # each code's symbols renamed in order of appearance: the equality pattern
        counts = np.zeros_like(space.codes)
        for i, row in enumerate(space.codes.tolist()):
            names: dict[int, int] = {}
            counts[i] = [names.setdefault(x, len(names)) for x in row]
        patterns, of = np.unique(counts, axis=0, return_inverse=True)
        labels = tuple("".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[x] for x in p) for p in patterns)
        of = of.ravel().astype(np.int32)
        return SecretClasses(of, labels, tuple(int(n) for n in np.bincount(of)))
    patterns, of = np.unique(counts, axis=0, return_inverse=True)
    # order: AAAA before AAAB ... before ABCD (lexically largest multiplicities first)
    order = sorted(range(len(patterns)), key=lambda i: tuple(-patterns[i]))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    of = rank[of.ravel()]
    texts: list[str] = []
    for i in order:
        label = ""
        for letter, n in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", patterns[i], strict=False):
            label += letter * int(n)
        texts.append(label)
    sizes = tuple(int(n) for n in np.bincount(of, minlength=len(order)))
    return SecretClasses(of.astype(np.int32), tuple(texts), sizes)
