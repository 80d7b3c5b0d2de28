"""The genetic algorithm (seed 004; Berghman, Goossens and Leus 2009): a codebreaker for
spaces too big to list.

Each turn a population of codes evolves towards the codes consistent with the answers so
far. The fitness of a code is how far the answers the earlier guesses would get, were it
the secret, are from the answers given (|blacks - blacks'| + |whites - whites'| per guess;
for per-peg answers the positions whose marks differ); a code of fitness 0 is *eligible*
(it could be the secret). Eligible codes are collected over the generations, up to
`ELIGIBLE` of them, and the guess is the eligible code that cuts that set best (the least
expected part size over the set, Irving's score on a sample). Nothing needs the code
space or its feedback table: codes are rows of symbols, answers are computed on the spot
(`keypeg._kernels.genetic`), so a decision on MM(8,8) (16.8 million codes) takes a
fraction of a second.

Operators, as in the paper: one- or two-point crossover of two parents chosen by rank,
then mutation (a random symbol at a random position), permutation (two positions
swapped) and inversion (a stretch reversed), each with a small probability; duplicated
symbols are repaired in games without repeats. The best codes of each generation survive.

Reproducible: a decision depends only on the seed and the history (the random draws are
seeded from both), so `GeneticStrategy` is a deterministic strategy for a given seed: its
whole tree can be walked exactly where the space fits, and a game played twice is the same
game.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._kernels import genetic as kg
from .codes import Code, check_symbols
from .errors import KeypegError
from .limits import check_count, check_seed
from .rules import Rules, rules_of
from .space import CodeSpace
from .strategy import Strategy

#: Population size, generations per turn and most eligible codes (Berghman et al.: 150,
#: 100, 60).
POPULATION = 150
GENERATIONS = 100
ELIGIBLE = 60
#: Probabilities of the operators (per child): crossover is always applied.
MUTATION, PERMUTATION, INVERSION = 0.03, 0.03, 0.02
#: Fraction of each generation kept as it is (the fittest).
ELITE = 0.1
#: Generations without a new eligible code after which the collection stops (the eligible
#: codes are then most likely all there are).
STALL = 15
#: Generations tried past GENERATIONS while no eligible code is found yet.
EXTRA_GENERATIONS = 400


@dataclass(frozen=True)
class GaParams:
    population: int = POPULATION
    generations: int = GENERATIONS
    eligible: int = ELIGIBLE


def first_guess(rules: Rules) -> np.ndarray:
    """The opening: two of the first symbol, then one each of the next (1123 for classic;
    0123... without repeats), as Berghman et al. open MM(4,6) with 1123."""
    p, n = rules.pegs, rules.symbols
    if not rules.repeats:
        return np.arange(p, dtype=np.int8)
    out = [0, 0] + list(range(1, p - 1)) if p >= 2 else [0]
    return np.array([min(x, n - 1) for x in out], dtype=np.int8)


def _random_codes(rng: np.random.Generator, n: int, rules: Rules) -> np.ndarray:
    if rules.repeats:
        return rng.integers(0, rules.symbols, size=(n, rules.pegs), dtype=np.int8)
    keys = rng.random((n, rules.symbols))
    return np.argsort(keys, axis=1)[:, : rules.pegs].astype(np.int8)


def _repair(codes: np.ndarray, rules: Rules, rng: np.random.Generator) -> None:
    """Replace repeated symbols by unused ones (games without repeats), in place."""
    if rules.repeats:
        return
    for row in codes:
        seen: set[int] = set()
        dup = []
        for k, x in enumerate(row.tolist()):
            if x in seen:
                dup.append(k)
            seen.add(x)
        if dup:
            free = [x for x in range(rules.symbols) if x not in seen]
            picks = rng.permutation(len(free))[: len(dup)]
            for k, j in zip(dup, picks, strict=True):
                row[k] = free[j]


def _children(parents: np.ndarray, fit: np.ndarray, n: int, rules: Rules,
              rng: np.random.Generator) -> np.ndarray:
    """Breed `n` children from `parents` (ranked by `fit`, lower is better)."""
    p = rules.pegs
    order = np.argsort(fit, kind="stable")
    ranked = parents[order]
    m = len(ranked)
    # rank selection: the i-th best is chosen with weight m - i
    w = np.arange(m, 0, -1, dtype=np.float64)
    w /= w.sum()
    a = ranked[rng.choice(m, size=n, p=w)]
    b = ranked[rng.choice(m, size=n, p=w)]
    kids = a.copy()
    if p > 1:
        two = rng.random(n) < 0.5
        c1 = rng.integers(1, p, size=n)
        c2 = rng.integers(1, p, size=n)
        lo, hi = np.minimum(c1, c2), np.maximum(c1, c2)
        cols = np.arange(p)[None, :]
        take_b = np.where(two[:, None], (cols >= lo[:, None]) & (cols < hi[:, None]),
                          cols >= c1[:, None])
        kids[take_b] = b[take_b]
    mut = rng.random(n) < MUTATION
    if mut.any():
        rows = np.flatnonzero(mut)
        kids[rows, rng.integers(0, p, size=rows.size)] = rng.integers(
            0, rules.symbols, size=rows.size)
    for rows, op in ((np.flatnonzero(rng.random(n) < PERMUTATION), "swap"),
                     (np.flatnonzero(rng.random(n) < INVERSION), "invert")):
        for r in rows.tolist():
            i, j = sorted(rng.choice(p, size=2, replace=False).tolist()) if p > 1 else (0, 0)
            if op == "swap":
                kids[r, i], kids[r, j] = kids[r, j], kids[r, i]
            else:
                kids[r, i: j + 1] = kids[r, i: j + 1][::-1].copy()
    _repair(kids, rules, rng)
    return kids


def _neighbours(codes: np.ndarray, rules: Rules) -> np.ndarray:
    """Every code one change away from a row of `codes`: one symbol replaced (with
    repeats), or two positions swapped or one symbol exchanged for an unused one
    (without)."""
    p, n = rules.pegs, rules.symbols
    out = []
    for row in codes:
        if rules.repeats:
            for k in range(p):
                for x in range(n):
                    if x != row[k]:
                        c = row.copy()
                        c[k] = x
                        out.append(c)
        else:
            free = [x for x in range(n) if x not in set(row.tolist())]
            for k in range(p):
                for x in free:
                    c = row.copy()
                    c[k] = x
                    out.append(c)
                for j in range(k + 1, p):
                    c = row.copy()
                    c[k], c[j] = c[j], c[k]
                    out.append(c)
    return np.array(out, dtype=np.int8).reshape(-1, p)


def _climb(elite: np.ndarray, guesses: np.ndarray, keys: np.ndarray, rules: Rules,
           found: dict[bytes, np.ndarray]) -> np.ndarray:
    """One step of local search from each elite code: its best neighbour replaces it when
    fitter; eligible neighbours are collected into `found`."""
    positional = rules.feedback == "positional"
    out = elite.copy()
    own = kg.fitness(elite, guesses, keys, rules.symbols, positional)
    for i, row in enumerate(elite):
        near = _neighbours(row[None, :], rules)
        fit = kg.fitness(near, guesses, keys, rules.symbols, positional)
        for c in near[fit == 0]:
            found.setdefault(c.tobytes(), c.copy())
        best = int(np.argmin(fit))
        if fit[best] < own[i]:
            out[i] = near[best]
    return out


def eligible_codes(rules: Rules, guesses: np.ndarray, keys: np.ndarray,
                   rng: np.random.Generator, params: GaParams = GaParams()) -> np.ndarray:
    """Evolve a population against the history (`guesses`: rows of symbols; `keys`: their
    raw answer keys) and return the distinct eligible codes found (at most
    `params.eligible`). When none is found within the generations allowed, the fittest
    code of the last generation is returned alone: not consistent, but a legal guess that
    tells something."""
    positional = rules.feedback == "positional"
    nsym = rules.symbols
    pop = _random_codes(rng, params.population, rules)
    found: dict[bytes, np.ndarray] = {}
    elite = max(1, int(ELITE * params.population))
    limit = params.generations + EXTRA_GENERATIONS
    last_new = 0
    for gen in range(limit):
        fit = kg.fitness(pop, guesses, keys, nsym, positional)
        before = len(found)
        for row in pop[fit == 0]:
            found.setdefault(row.tobytes(), row.copy())
        if len(found) > before:
            last_new = gen
        if found and (len(found) >= params.eligible or gen + 1 >= params.generations
                      or gen - last_new >= STALL):
            break
        keep = _climb(pop[np.argsort(fit, kind="stable")[:elite]], guesses, keys, rules,
                      found)
        kids = _children(pop, fit, params.population - elite, rules, rng)
        # a child already in the population is replaced by a fresh random code (diversity)
        known = {row.tobytes() for row in keep}
        for i, row in enumerate(kids):
            if row.tobytes() in known:
                kids[i] = _random_codes(rng, 1, rules)[0]
            known.add(kids[i].tobytes())
        pop = np.concatenate([keep, kids])
    if not found:  # the fittest code of the last generation (still a legal guess)
        fit = kg.fitness(pop, guesses, keys, nsym, positional)
        return pop[int(np.argmin(fit))][None, :].copy()
    codes = np.array(sorted(found.values(), key=lambda r: r.tolist()), dtype=np.int8)
    return codes[: params.eligible]


def choose_guess(rules: Rules, guesses: np.ndarray, keys: np.ndarray, seed: int,
                 params: GaParams = GaParams()) -> np.ndarray:
    """Return the genetic algorithm's next guess (a row of symbols) after the history
    `guesses` / `keys`; reproducible for a `seed` and that history."""
    if guesses.shape[0] == 0:
        return first_guess(rules)
    rng = np.random.default_rng([int(seed), zlib.crc32(guesses.tobytes()),
                                 zlib.crc32(np.asarray(keys, dtype=np.int64).tobytes())])
    codes = eligible_codes(rules, guesses, keys, rng, params)
    if codes.shape[0] == 1:
        return codes[0]
    sizes = kg.expected_sizes(codes, rules.symbols, rules.feedback == "positional")
    return codes[int(np.argmin(sizes))]


def answer_key(rules: Rules, secret: np.ndarray, guess: np.ndarray) -> int:
    """The raw answer key of `guess` against `secret` (rows of symbols)."""
    return int(kg.answer_key(np.asarray(secret, dtype=np.int8), np.asarray(guess, np.int8),
                             rules.symbols, rules.feedback == "positional"))


def win_key(rules: Rules) -> int:
    p = rules.pegs
    return p * (p + 1) if rules.feedback == "blackwhite" else 3 ** p - 1


def play(rules: Rules | str, secret: Any, seed: int, *, max_guesses: int = 60,
         params: GaParams = GaParams()) -> list[np.ndarray]:
    """Play the genetic algorithm against `secret` (a row of symbol indices, a written code
    or a `Code`) without any code space; return its guesses (the last one is the secret).
    A secret that is no code of the rules is refused in a sentence (MM(8,8)'s secret with
    a symbol 9 had been played for 70 s to "did not find the secret")."""
    rules = rules_of(rules)
    check_seed(seed, "seed")
    check_count("max_guesses", max_guesses)
    if isinstance(secret, (str, Code)):
        symbols = Code.parse(secret, rules).symbols
    else:
        symbols = check_symbols(np.asarray(secret).tolist() if isinstance(secret, np.ndarray)
                                else secret, rules)
    secret = np.asarray(symbols, dtype=np.int8)
    guesses: list[np.ndarray] = []
    keys: list[int] = []
    win = win_key(rules)
    while len(guesses) < max_guesses:
        g = choose_guess(rules, np.array(guesses, dtype=np.int8).reshape(-1, rules.pegs),
                         np.array(keys, dtype=np.int64), seed, params)
        guesses.append(np.asarray(g, dtype=np.int8))
        keys.append(answer_key(rules, secret, g))
        if keys[-1] == win:
            return guesses
    raise KeypegError(f"the genetic algorithm did not find the secret in {max_guesses} "
                      "guesses.")


class GeneticStrategy(Strategy):
    """The genetic algorithm as a registered strategy (`genetic`): deterministic for its
    seed, so its tree can be walked and its games replayed."""

    name = "genetic"

    def __init__(self, *, seed: int = 0) -> None:
        check_seed(seed, "seed")
        self.seed = int(seed)

    @property
    def label(self) -> str:
        return f"genetic (seed {self.seed})"

    @property
    def options(self) -> dict[str, Any]:
        return {"seed": self.seed}

    def choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int:
        if candidates.size == 1:
            return int(candidates[0])
        rules = space.rules
        played = np.array([space.codes[g] for g in guesses], dtype=np.int8).reshape(
            -1, rules.pegs)
        # every candidate got the same answers: read them off the first one
        secret = space.codes[int(candidates[0])].astype(np.int8)
        keys = np.array([answer_key(rules, secret, g) for g in played], dtype=np.int64)
        return space.index_of_symbols(choose_guess(rules, played, keys, self.seed))
