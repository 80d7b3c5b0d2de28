"""Plain-Python references: slow and obviously correct. Kernels are tested against these."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any


def all_codes(pegs: int, symbols: int, repeats: bool = True) -> list[tuple[int, ...]]:
    """Every code as a tuple of symbol indices, in lexical order."""
    if repeats:
        return list(itertools.product(range(symbols), repeat=pegs))
    return list(itertools.permutations(range(symbols), pegs))


def blackwhite(secret: Sequence[int], guess: Sequence[int]) -> tuple[int, int]:
    """Score as a person does on the board: first the exact pegs, then each remaining guess
    peg looks for a not yet used secret peg of its colour."""
    used = [False] * len(secret)
    done = [False] * len(guess)
    black = 0
    for i, (s, g) in enumerate(zip(secret, guess, strict=False)):
        if s == g:
            black += 1
            used[i] = done[i] = True
    white = 0
    for i, g in enumerate(guess):
        if done[i]:
            continue
        for j, s in enumerate(secret):
            if not used[j] and s == g:
                used[j] = True
                white += 1
                break
    return black, white


def positional(secret: Sequence[int], guess: Sequence[int]) -> tuple[int, ...]:
    """Marks per guess peg: 2 green, 1 amber, 0 gray; greens first, ambers left to right."""
    marks = [2 if s == g else 0 for s, g in zip(secret, guess, strict=False)]
    pool = [s for s, m in zip(secret, marks, strict=False) if m != 2]
    for i, g in enumerate(guess):
        if marks[i] != 2 and g in pool:
            pool.remove(g)
            marks[i] = 1
    return tuple(marks)


def score(secret: Sequence[int], guess: Sequence[int], model: str) -> tuple[int, ...]:
    return blackwhite(secret, guess) if model == "blackwhite" else positional(secret, guess)


def blackwhite_table(codes: Sequence[Sequence[int]], symbols: int) -> tuple[Any, Any]:
    """Black and white for every pair of `codes`, ``[guess, secret]``, by the counting
    rule instead of the board's peg by peg (`blackwhite`): blacks are the equal places,
    blacks plus whites the colours in common (each colour counted as often as both codes
    have it). Plain numpy a guess at a time, for spaces too big for a pair-by-pair loop
    (bulls and cows: 25 million pairs); checked against `blackwhite` in tests/test_space.py."""
    import numpy as np

    c = np.asarray(codes, dtype=np.int64)
    counts = np.stack([(c == colour).sum(axis=1) for colour in range(symbols)], axis=1)
    black = np.empty((len(c), len(c)), dtype=np.int64)
    white = np.empty_like(black)
    for g in range(len(c)):
        black[g] = (c == c[g]).sum(axis=1)
        white[g] = np.minimum(counts, counts[g]).sum(axis=1) - black[g]
    return black, white


def naive_filter(
    codes: Iterable[tuple[int, ...]],
    clues: Sequence[tuple[tuple[int, ...], tuple[int, ...]]],
    model: str,
) -> list[tuple[int, ...]]:
    """The codes that give every clue's answer to its guess."""
    return [c for c in codes if all(score(c, g, model) == fb for g, fb in clues)]


def cut_key(kind: str, sizes: list[int]) -> int:
    """A one-step strategy's score of a cut (smaller is better), exactly."""
    if kind == "maxsize":
        return max(sizes)
    if kind == "expsize":
        return sum(n * n for n in sizes)
    if kind == "entropy":
        key = 1
        for n in sizes:
            key *= n**n
        return key
    if kind == "parts":
        return -len(sizes)
    raise ValueError(kind)


def naive_choose(
    codes: list[tuple[int, ...]],
    cands: list[tuple[int, ...]],
    kind: str,
    model: str,
    *,
    possible_only: bool = False,
    tie: str = "first",
) -> tuple[int, ...]:
    """The probe a one-step strategy plays: best score, then a candidate, then lexical."""
    ordered = list(codes) if tie == "first" else list(reversed(codes))
    cand_set = set(cands)
    if kind == "consistent":
        return min(cands) if tie == "first" else max(cands)
    best = None
    best_rank = None
    for g in ordered:
        if possible_only and g not in cand_set:
            continue
        parts: dict[tuple[int, ...], int] = {}
        for s in cands:
            fb = score(s, g, model)
            parts[fb] = parts.get(fb, 0) + 1
        rank = (cut_key(kind, list(parts.values())), g not in cand_set)
        if best_rank is None or rank < best_rank:
            best, best_rank = g, rank
    assert best is not None
    return best


def naive_optimal(
    codes: list[tuple[int, ...]],
    cands: list[tuple[int, ...]],
    model: str,
    *,
    depth: int | None = None,
    possible_only: bool = False,
    memo: dict | None = None,
) -> float:
    """Least total number of guesses over `cands` (every code a probe unless
    `possible_only`), within `depth` more guesses when given; inf if impossible.
    Exhaustive, with a memo on the set: for games of a few dozen codes."""
    memo = {} if memo is None else memo
    key = (frozenset(cands), depth)
    if key in memo:
        return memo[key]
    n = len(cands)
    if depth is not None and depth < 1:
        return float("inf")
    if n == 1:
        return 1
    win = (len(cands[0]), 0) if model == "blackwhite" else (2,) * len(cands[0])
    best = float("inf")
    for g in cands if possible_only else codes:
        parts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for s in cands:
            parts.setdefault(score(s, g, model), []).append(s)
        if len(parts) == 1 and win not in parts:
            continue  # no information
        total: float = n
        for fb, part in parts.items():
            if fb != win:
                total += naive_optimal(codes, part, model,
                                       depth=None if depth is None else depth - 1,
                                       possible_only=possible_only, memo=memo)
            if total >= best:
                break
        best = min(best, total)
    memo[key] = best
    return best


def naive_consistent_total(pegs: int, colors: int, first: tuple[int, ...] | None = None) -> int:
    """Total guesses of the consistent strategy (play the lexically first code that could
    still be the secret; `first` forces the opening) over every secret of MM(pegs, colors).

    Walks the strategy's tree: each node scores one guess against the codes that reach it,
    so the work is the total itself."""
    total = 0
    stack = [(all_codes(pegs, colors), first)]
    while stack:
        cands, forced = stack.pop()
        guess = forced if forced is not None else cands[0]
        total += len(cands)
        parts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for s in cands:
            parts.setdefault(blackwhite(s, guess), []).append(s)
        stack.extend((part, None) for fb, part in parts.items() if fb != (pegs, 0))
    return total


def naive_answers(pegs: int, symbols: int, model: str, repeats: bool = True
                  ) -> list[tuple[int, ...]]:
    """Every answer a guess can get against some secret (the allowed answers), sorted."""
    codes = all_codes(pegs, symbols, repeats)
    return sorted({score(s, g, model) for s in codes for g in codes})


def naive_likelihood(true: tuple[int, ...], reported: tuple[int, ...],
                     answers: list[tuple[int, ...]], noise: str, eps: float,
                     win: tuple[int, ...]) -> float:
    """P(reported | true) under a noise model, written out from its definition: a win is
    told truly and no other answer is told as a win (the game would end); otherwise the
    answer is wrong with probability eps, as one of the other answers that are no win
    (symmetric), or mark by mark (per-peg, over the answers that are no win)."""
    if noise == "exact" or true == win or reported == win:
        return 1.0 if reported == true else 0.0
    if noise == "symmetric":
        others = len(answers) - 2  # (not the true answer, not the win)
        return 1 - eps if reported == true else eps / others
    if noise == "per-peg":
        def raw(a: tuple[int, ...]) -> float:
            out = 1.0
            for x, y in zip(true, a, strict=True):
                out *= 1 - eps if x == y else eps / 2
            return out

        return raw(reported) / sum(raw(a) for a in answers if a != win)
    raise ValueError(noise)


def naive_posterior(codes: list[tuple[int, ...]], prior: list[float],
                    clues: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], model: str,
                    noise: str, eps: float, answers: list[tuple[int, ...]]
                    ) -> dict[tuple[int, ...], float]:
    """Bayes' rule, one code at a time: P(s | clues) for every code with non-zero mass."""
    mass = {}
    win = score(codes[0], codes[0], model)
    for code, p in zip(codes, prior, strict=True):
        for guess, reported in clues:
            p *= naive_likelihood(score(code, guess, model), reported, answers, noise, eps,
                                  win)
        if p > 0:
            mass[code] = p
    total = sum(mass.values())
    return {c: m / total for c, m in mass.items()}


def naive_liars(codes: list[tuple[int, ...]],
                clues: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], model: str,
                k: int) -> list[tuple[int, ...]]:
    """The codes that contradict at most k of the clues, none of them by a win: a win is
    never a lie, nor a lie a win."""
    win = score(codes[0], codes[0], model)
    return [c for c in codes
            if sum(score(c, g, model) != fb for g, fb in clues) <= k
            and all((score(c, g, model) == win) == (fb == win) for g, fb in clues)]


def naive_weighted_optimal(
    codes: list[tuple[int, ...]],
    cands: list[tuple[int, ...]],
    model: str,
    weight: dict[tuple[int, ...], float],
    *,
    depth: int | None = None,
    possible_only: bool = False,
    memo: dict | None = None,
) -> float:
    """Least weighted total over `cands`: the sum over secrets s of weight[s] x the guesses
    that find s (a code of weight 0 must still be found, at no cost), every code a probe
    unless `possible_only`, within `depth` more guesses when given; inf if impossible.
    Exhaustive, with a memo on the set: for games of a few dozen codes."""
    memo = {} if memo is None else memo
    key = (frozenset(cands), depth)
    if key in memo:
        return memo[key]
    if depth is not None and depth < 1:
        return float("inf")
    here = sum(weight[s] for s in cands)  # every secret left pays for this guess
    if len(cands) == 1:
        return here
    win = (len(cands[0]), 0) if model == "blackwhite" else (2,) * len(cands[0])
    best = float("inf")
    for g in cands if possible_only else codes:
        parts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for s in cands:
            parts.setdefault(score(s, g, model), []).append(s)
        if len(parts) == 1 and win not in parts:
            continue  # no information
        total: float = here
        for fb, part in parts.items():
            if fb != win:
                total += naive_weighted_optimal(
                    codes, part, model, weight, depth=None if depth is None else depth - 1,
                    possible_only=possible_only, memo=memo)
            if total >= best:
                break
        best = min(best, total)
    memo[key] = best
    return best


def naive_strategy_costs(codes: list[tuple[int, ...]], cands: tuple[tuple[int, ...], ...],
                         model: str, memo: dict | None = None
                         ) -> set[tuple[int, ...]]:
    """Every undominated vector of guesses (one per code of `cands`) that some
    deterministic codebreaker strategy achieves on `cands`: all strategies, up to
    dominance, by brute force. Guesses that tell nothing are never useful."""
    memo = {} if memo is None else memo
    if cands in memo:
        return memo[cands]
    if len(cands) == 1:
        return {(1,)}
    found: set[tuple[int, ...]] = set()
    win = (len(cands[0]), 0) if model == "blackwhite" else (2,) * len(cands[0])
    for g in codes:
        parts: dict[tuple[int, ...], list[int]] = {}
        for i, s in enumerate(cands):
            parts.setdefault(score(s, g, model), []).append(i)
        if len(parts) == 1 and win not in parts:
            continue  # no information
        vectors = [tuple(0 for _ in cands)]
        for fb, idx in parts.items():
            if fb == win:
                continue
            sub = naive_strategy_costs(codes, tuple(cands[i] for i in idx), model, memo)
            grown = []
            for base in vectors:
                for vec in sub:
                    out = list(base)
                    for i, d in zip(idx, vec, strict=True):
                        out[i] = d
                    grown.append(tuple(out))
            vectors = _undominated(grown)
        for vec in vectors:
            found.add(tuple(d + 1 if cands[i] != g else 1 for i, d in enumerate(vec)))
    memo[cands] = set(_undominated(list(found)))
    return memo[cands]


def _undominated(vectors: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for v in sorted(set(vectors), key=sum):
        if not any(all(a <= b for a, b in zip(u, v, strict=True)) for u in out):
            out.append(v)
    return out


def naive_game_value(pegs: int, symbols: int, model: str = "blackwhite",
                     repeats: bool = True) -> float:
    """The value of the zero-sum game (codebreaker pays the guesses) by a linear program
    over every secret and every undominated pure codebreaker strategy."""
    from scipy.optimize import linprog

    codes = all_codes(pegs, symbols, repeats)
    vectors = sorted(naive_strategy_costs(codes, tuple(codes), model))
    n = len(codes)
    import numpy as np

    D = np.array(vectors, dtype=float)
    res = linprog(np.r_[np.zeros(n), -1.0], A_ub=np.c_[-D, np.ones(len(D))],
                  b_ub=np.zeros(len(D)), A_eq=np.r_[np.ones(n), 0.0][None, :], b_eq=[1.0],
                  bounds=[(0, None)] * n + [(None, None)], method="highs")
    return float(res.x[-1])
