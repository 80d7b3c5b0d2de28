"""The exact game value of Mastermind as a two-player zero-sum game (seed 004).

The codemaker picks a secret, the codebreaker a strategy; the codebreaker pays the number of
guesses. Permuting colours and positions changes nothing, so the codemaker may mix over
the classes of secrets (`keypeg.codemakers.secret_classes`: AAAA, AAAB, AABB, AABC, ABCD
for four pegs), uniformly within each, and the codebreaker may play each tree under a
random relabelling (`SymmetrisedStrategy`), which costs the class average against every
secret of a class. The value is

    max over codemaker mixtures p  min over trees T  sum_c p_c d_T(c)

where d_T(c) is the mean number of guesses T needs over the secrets of class c. Against a
fixed mixture the codebreaker's best reply is the weighted optimum (`solve_optimal` with
the weights p_c / |c|), so the value is found by column generation: a linear program
(scipy's HiGHS) over the trees found so far gives the codemaker's mixture and an upper
bound; the weighted optimum against that mixture gives a new tree and a lower bound; they
repeat until the bounds meet. The result is then certified in rational arithmetic: the
codemaker's mixture, whose exact weighted optimum is the lower bound, and the codebreaker's
mixture of symmetrised trees, whose worst class average is the upper bound, must give the
same fraction.

>>> from keypeg.rules import Rules
>>> v = game_value(Rules(pegs=2, colors=2))
>>> v.to_dict()["value"], v.certified
('2/1', True)
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from .classes import secret_classes
from .errors import KeypegError, LimitExceededError, TimeLimitError
from .limits import check_max_seconds
from .rules import Rules, rules_name, rules_of
from .space import get_space, require_table
from .tree import DecisionTree

#: Largest whole-number weight the weighted optimum uses exactly.
EXACT_WEIGHT = 2**30
#: Column-generation rounds before giving up (each round adds a tree; MM(4,6) with
#: green/amber/gray answers needs 65).
MAX_ROUNDS = 400
#: Seconds `stored_value` may spend on a value keypeg does not ship.
STORED_VALUE_SECONDS = 60
#: The most codes of a game whose value `stored_value` tries to compute (within
#: `STORED_VALUE_SECONDS`); bigger games are refused at once. On the 2-core machine of the
#: benchmarks MM(3,11)'s 1,331 codes took 21 s and MM(4,8)'s 4,096 did not finish in 70.
STORED_VALUE_CODES = 4_000


@dataclass
class Column:
    """One codebreaker tree and the guesses it needs in each class (summed over the
    class's secrets)."""

    tree: DecisionTree
    sums: tuple[int, ...]

    def cost(self, c: int, sizes: Sequence[int]) -> Fraction:
        """Return the tree's mean guesses over the secrets of class `c`."""
        return Fraction(self.sums[c], sizes[c])


@dataclass
class GameValue:
    """The value of the game and both optimal strategies, exactly."""

    rules: Rules
    value: Fraction
    labels: tuple[str, ...]
    sizes: tuple[int, ...]
    codemaker: list[Fraction]
    codebreaker: list[tuple[Fraction, Column]]
    certified: bool
    seconds: float = 0.0
    rounds: int = 0
    note: str | None = None
    lower: Fraction | None = None
    upper: Fraction | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return float(self.value)

    def class_costs(self) -> list[Fraction]:
        """Return, per class, the mean guesses the optimal codebreaker needs there (e.g.
        25/6 for a one-colour secret of MM(4,6))."""
        return [sum((s * col.cost(c, self.sizes) for s, col in self.codebreaker), Fraction(0))
                for c in range(len(self.sizes))]

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON of `keypeg value --json`."""
        space = get_space(self.rules)
        costs = self.class_costs()
        return {
            "rules": rules_name(self.rules),
            "value": _text(self.value),
            "mean": round(self.mean, 6),
            "certified": self.certified,
            "codemaker": [{"class": label, "codes": n, "probability": _text(p),
                           "codebreaker_cost": _text(cost)}
                          for label, n, p, cost in zip(self.labels, self.sizes,
                                                       self.codemaker, costs, strict=True)],
            "codebreaker": [{"probability": _text(s),
                             "first_guess": space.text(col.tree.first_guess),
                             "costs": {label: _text(col.cost(c, self.sizes))
                                       for c, label in enumerate(self.labels)}}
                            for s, col in self.codebreaker],
            "seconds": round(self.seconds, 3),
            "rounds": self.rounds,
            **({"note": self.note} if self.note else {}),
        }


def _text(x: Fraction) -> str:
    """'P/Q', reduced, always with a denominator (2 is '2/1')."""
    return f"{x.numerator}/{x.denominator}"


# ----------------------------------------------------------------------------- oracle
def _oracle(rules: Rules, p: Sequence[Fraction], sizes: Sequence[int], of: np.ndarray,
            time_limit: float | None, secondary: Sequence[Fraction] | None = None,
            progress: Callable[[dict[str, Any]], None] | None = None) -> tuple[Column, bool]:
    """Return the weighted optimum against the class mixture `p` (weights p_c / |c| per
    secret) as a column, and whether its weights were used exactly.

    With `secondary` (per-class weights), the tree returned is, among the trees optimal
    against `p`, one of least secondary weighted total (lexicographic weights: the
    primary scaled by more than any secondary total); when that does not fit whole numbers
    of at most `EXACT_WEIGHT`, the secondary is ignored. `progress` is the search's
    (`solve_optimal`)."""
    from .solver import solve_optimal

    den = math.lcm(*(f.denominator for f in p))
    lcm_sizes = math.lcm(*(sizes[c] for c in range(len(p)) if p[c] > 0))
    per_class = [f.numerator * (den // f.denominator) * (lcm_sizes // sizes[c])
                 for c, f in enumerate(p)]
    g = math.gcd(*[w for w in per_class if w]) or 1
    per_class = [w // g for w in per_class]
    if secondary is not None:
        # per-secret secondary weights, as whole numbers up to 1,000 (they only steer the
        # choice among the trees optimal against p, so a rounded objective is enough)
        per_secret = [float(f) / sizes[c] for c, f in enumerate(secondary)]
        top = max(per_secret) or 1.0
        extra = [round(1000 * x / top) for x in per_secret]
        scale = sum(e * n for e, n in zip(extra, sizes, strict=True)) * 64 + 1
        if max(per_class) * scale + max(extra) <= EXACT_WEIGHT:
            per_class = [w * scale + e for w, e in zip(per_class, extra, strict=True)]
    exact = max(per_class) <= EXACT_WEIGHT
    weights = np.asarray(per_class, dtype=np.int64 if exact else np.float64)[of]
    result = solve_optimal(rules, weights=weights, time_limit=time_limit, progress=progress)
    depths = result.tree.depths(get_space(rules))
    sums = tuple(int(x) for x in np.bincount(of, weights=depths, minlength=len(sizes)))
    return Column(result.tree, sums), exact


def _searching(progress: Callable[[str], None], rounds: int, started: float
               ) -> Callable[[dict[str, Any]], None]:
    """Return a search progress callback that tells `progress` where round `rounds` stands:
    its optimal search (against the codemaker's mixture) can take minutes, and without this
    a game past a few thousand codes said nothing at all until the first round ended."""
    def searching(d: dict[str, Any]) -> None:
        sets = f": {d['nodes']:,} sets searched" if d.get("nodes") else ": searching"
        progress(f"round {rounds}, the codebreaker's best reply{sets}, "
                 f"{time.perf_counter() - started:.0f} s")  # (a line of 80 columns)
    return searching


def _payoff(col: Column, p: Sequence[Fraction], sizes: Sequence[int]) -> Fraction:
    return sum((p[c] * col.cost(c, sizes) for c in range(len(p)) if p[c]), Fraction(0))


# ----------------------------------------------------------------------------- the LP
def _solve_lp(columns: list[Column], sizes: Sequence[int]
              ) -> tuple[list[Fraction], list[Fraction], Fraction]:
    """Return (codemaker mixture, codebreaker mixture, value) of the game restricted to
    `columns`, exactly: HiGHS solves it in floating point, then the mixtures are turned
    into fractions and checked to guarantee the same value from both sides."""
    from scipy.optimize import linprog

    k, n = len(sizes), len(columns)
    A = np.array([[float(col.cost(c, sizes)) for c in range(k)] for col in columns])
    # variables p_1..p_k, v: maximise v with sum_c p_c A[T, c] >= v for every tree T
    res = linprog(np.r_[np.zeros(k), -1.0],
                  A_ub=np.c_[-A, np.ones(n)], b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(k), 0.0][None, :], b_eq=[1.0],
                  bounds=[(0, None)] * k + [(None, None)], method="highs")
    if res.status != 0:
        raise KeypegError(f"the linear program failed: {res.message}")
    p_float = np.maximum(res.x[:k], 0)
    s_float = np.maximum(-res.ineqlin.marginals, 0)
    exact = [[col.cost(c, sizes) for c in range(k)] for col in columns]
    for limit in (10**3, 10**4, 10**5, 10**6, 10**8, 10**10, 10**12):
        p = _fractions(p_float, limit)
        s = _fractions(s_float, limit)
        if p is None or s is None:
            continue
        low = min(sum((p[c] * row[c] for c in range(k)), Fraction(0)) for row in exact)
        high = max(sum((s[t] * exact[t][c] for t in range(n)), Fraction(0))
                   for c in range(k))
        if low == high:
            return p, s, low
    supported = _support_solution(exact, p_float, s_float)
    if supported is not None:
        return supported
    raise KeypegError("the linear program's solution could not be made exact.")


def _fractions(x: np.ndarray, limit: int) -> list[Fraction] | None:
    """Return `x` as fractions of denominator at most `limit`, rescaled to sum to 1."""
    f = [Fraction(float(v)).limit_denominator(limit) for v in x]
    total = sum(f, Fraction(0))
    if total <= 0:
        return None
    return [v / total for v in f]


def _support_solution(exact: list[list[Fraction]], p_float: np.ndarray, s_float: np.ndarray
                      ) -> tuple[list[Fraction], list[Fraction], Fraction] | None:
    """Solve the equalising equations on the mixtures' supports in exact arithmetic."""
    n, k = len(exact), len(exact[0])
    cs = [c for c in range(k) if p_float[c] > 1e-9]
    ts = [t for t in range(n) if s_float[t] > 1e-9]
    # codemaker: sum_{c in cs} p_c exact[t][c] = v for t in ts; sum p_c = 1
    p_sol = _linear([[exact[t][c] for c in cs] + [Fraction(-1)] for t in ts]
                    + [[Fraction(1)] * len(cs) + [Fraction(0)]],
                    [Fraction(0)] * len(ts) + [Fraction(1)])
    s_sol = _linear([[exact[t][c] for t in ts] + [Fraction(-1)] for c in cs]
                    + [[Fraction(1)] * len(ts) + [Fraction(0)]],
                    [Fraction(0)] * len(cs) + [Fraction(1)])
    if p_sol is None or s_sol is None:
        return None
    p = [Fraction(0)] * k
    for c, v in zip(cs, p_sol, strict=False):
        p[c] = v
    s = [Fraction(0)] * n
    for t, v in zip(ts, s_sol, strict=False):
        s[t] = v
    if min(p) < 0 or min(s) < 0:
        return None
    low = min(sum((p[c] * exact[t][c] for c in range(k)), Fraction(0)) for t in range(n))
    high = max(sum((s[t] * exact[t][c] for t in range(n)), Fraction(0)) for c in range(k))
    return (p, s, low) if low == high else None


def _linear(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Solve rows x = rhs exactly (Gauss-Jordan); None when the solution is not unique or
    the system is inconsistent."""
    m = [row[:] + [b] for row, b in zip(rows, rhs, strict=True)]
    n = len(rows[0])
    r = 0
    pivots = []
    for col in range(n):
        pivot = next((i for i in range(r, len(m)) if m[i][col] != 0), None)
        if pivot is None:
            return None
        m[r], m[pivot] = m[pivot], m[r]
        m[r] = [v / m[r][col] for v in m[r]]
        for i in range(len(m)):
            if i != r and m[i][col] != 0:
                factor = m[i][col]
                m[i] = [a - factor * b for a, b in zip(m[i], m[r], strict=True)]
        pivots.append(col)
        r += 1
    if any(row[-1] != 0 for row in m[r:]):
        return None
    return [m[i][-1] for i in range(n)]


def _best_on_unpicked(rules: Rules, p: Sequence[Fraction], s: list[Fraction],
                      columns: list[Column], value: Fraction, sizes: Sequence[int],
                      of: np.ndarray, deadline: float | None = None
                      ) -> tuple[list[Fraction], list[Column]]:
    """Among the optimal codebreaker mixtures, return one that needs the fewest guesses on
    the classes the optimal codemaker never picks (Wiener's 25/6 for a one-colour secret
    of MM(4,6)): a second column generation over the best replies to `p` (every tree of an
    optimal mixture is one), minimising the unpicked classes' guesses while no class costs
    more than `value`. Returns the mixture and its columns (the old ones on failure, or
    when `deadline`, a `time.perf_counter()` value, passes first)."""
    try:
        return _polish(rules, p, s, columns, value, sizes, of, deadline)
    except LimitExceededError:
        return s, columns


def _polish(rules: Rules, p: Sequence[Fraction], s: list[Fraction], columns: list[Column],
            value: Fraction, sizes: Sequence[int], of: np.ndarray, deadline: float | None
            ) -> tuple[list[Fraction], list[Column]]:
    from scipy.optimize import linprog

    def left() -> float | None:
        if deadline is None:
            return None
        if deadline - time.perf_counter() <= 0:
            raise LimitExceededError("out of time")
        return deadline - time.perf_counter()

    k = len(sizes)
    unpicked = [Fraction(sizes[c]) if p[c] == 0 else Fraction(0) for c in range(k)]
    cols = [c for c in columns if _payoff(c, p, sizes) == value]
    lex, exact = _oracle(rules, p, sizes, of, left(), unpicked)
    if not exact or _payoff(lex, p, sizes) != value:
        return s, columns
    cols.append(lex)
    for _ in range(MAX_ROUNDS):
        A = np.array([[float(col.cost(c, sizes)) for c in range(k)] for col in cols])
        z = A @ np.array([float(u) for u in unpicked])
        res = linprog(z, A_ub=A.T, b_ub=np.full(k, float(value)),
                      A_eq=np.ones((1, len(cols))), b_eq=[1.0],
                      bounds=[(0, None)] * len(cols), method="highs")
        if res.status != 0:
            return s, columns
        lam = [Fraction(max(0.0, -x)).limit_denominator(10**4) for x in res.ineqlin.marginals]
        mu = res.eqlin.marginals[0]
        price = [u + lam_c for u, lam_c in zip(unpicked, lam, strict=True)]
        col, exact = _oracle(rules, p, sizes, of, left(), price)
        if not exact or _payoff(col, p, sizes) != value:
            break
        reduced = sum(float(price[c]) * float(col.cost(c, sizes)) for c in range(k)) - mu
        if reduced >= -1e-9 or any(col.sums == c.sums for c in cols):
            break
        cols.append(col)
    sigma = _exact_mixture(res.x, cols, sizes, value)
    return (sigma, cols) if sigma is not None else (s, columns)


def _exact_mixture(x: np.ndarray, cols: list[Column], sizes: Sequence[int], value: Fraction
                   ) -> list[Fraction] | None:
    """Return the float mixture `x` as fractions that keep every class at most `value`:
    rounded, or else solved exactly on its support with the classes it holds at `value`."""
    k = len(sizes)

    def worst(sigma: Sequence[Fraction]) -> Fraction:
        return max(sum((w * col.cost(c, sizes) for w, col in zip(sigma, cols, strict=True)),
                       Fraction(0)) for c in range(k))

    for limit in (10**3, 10**4, 10**5, 10**6, 10**8, 10**10):
        sigma = _fractions(np.maximum(x, 0), limit)
        if sigma is not None and worst(sigma) == value:
            return sigma
    costs = np.array([[float(col.cost(c, sizes)) for c in range(k)] for col in cols])
    binding = [c for c in range(k) if x @ costs[:, c] >= float(value) - 1e-7]
    support = sorted(np.flatnonzero(x > 1e-9), key=lambda t: -x[t])[: len(binding) + 1]
    solved = _linear([[cols[t].cost(c, sizes) for t in support] for c in binding]
                     + [[Fraction(1)] * len(support)],
                     [value] * len(binding) + [Fraction(1)])
    if solved is None or min(solved) < 0:
        return None
    sigma = [Fraction(0)] * len(cols)
    for t, w in zip(support, solved, strict=True):
        sigma[int(t)] = w
    return sigma if worst(sigma) == value else None


# ----------------------------------------------------------------------------- the value
def game_value(rules: Rules | str, *, time_limit: float | None = None,
               progress: Callable[[str], None] | None = None) -> GameValue:
    """Return the exact game value of `rules` and both optimal strategies (see the module
    docstring). Raises `LimitExceededError` past `time_limit` seconds, and at once, from
    the sizes, when the optimal searches it runs would not fit the memory budget (MM(8,8)
    took 54 s to build its classes before saying it was out of time)."""
    rules = rules_of(rules)  # (a name, as elsewhere: game_value("MM(3,4)") failed inside)
    check_max_seconds(time_limit, "time_limit")  # (-1 had run to "not found within -1 s")
    started = time.perf_counter()
    require_table(rules, "the game value")
    classes = secret_classes(rules)
    sizes, of = classes.sizes, classes.of
    total = sum(sizes)
    columns: list[Column] = []
    p = [Fraction(n, total) for n in sizes]  # start: every secret alike
    value = Fraction(0)
    s: list[Fraction] = []
    all_exact = True
    rounds = 0
    lower = upper = None
    last_exact = False
    while rounds < MAX_ROUNDS:
        rounds += 1
        left = None if time_limit is None else time_limit - (time.perf_counter() - started)
        try:
            if left is not None and left <= 0:
                raise LimitExceededError("out of time")
            col, exact = _oracle(rules, p, sizes, of, left, progress=None if progress is None
                                 else _searching(progress, rounds, started))
        except LimitExceededError as exc:
            if not isinstance(exc, TimeLimitError) and str(exc) != "out of time" and (
                    time_limit is None or time.perf_counter() - started < time_limit):
                raise  # (a size or memory limit, not the time: its own sentence says so)
            raise TimeLimitError(
                f"the game value of {rules_name(rules)} was not found within "
                f"{time_limit:g} s ({rounds - 1} rounds of column generation done); allow "
                "more time.") from None
        all_exact &= exact
        last_exact = exact  # (the certificate rests on the last reply: earlier ones only
        lower = _payoff(col, p, sizes)  # added trees)
        if columns and lower >= value:
            break
        if all(col.sums != c.sums for c in columns):
            columns.append(col)
        p, s, value = _solve_lp(columns, sizes)
        upper = value
        if progress is not None:
            progress(f"round {rounds}: {len(columns)} trees, value between "
                     f"{float(lower):.6f} and {float(value):.6f}")
    else:
        raise LimitExceededError(
            f"the game value of {rules_name(rules)} did not converge in {MAX_ROUNDS} rounds "
            f"of column generation (it lies between {float(lower or 0):.6f} and "
            f"{float(upper or 0):.6f}).")
    if any(f == 0 for f in p) and all_exact:
        s, columns = _best_on_unpicked(rules, p, s, columns, value, sizes, of,
                                       None if time_limit is None else started + time_limit)
    breaker = [(w, columns[t]) for t, w in enumerate(s) if w > 0]
    costs = [sum((w * col.cost(c, sizes) for w, col in breaker), Fraction(0))
             for c in range(len(sizes))]
    certified = last_exact and lower == value and max(costs) == value
    note = None if last_exact else (
        "some weights were too large to use exactly; the value is not certified.")
    return GameValue(rules, value, classes.labels, sizes, p, breaker, certified,
                     time.perf_counter() - started, rounds, note, lower, upper)


# ----------------------------------------------------------------------------- stored
def value_cache_key(rules: Rules) -> str:
    """The store's cache key of a certified game value computed here (`keypeg value` and
    the web's /api/value share it, so one computation serves both)."""
    return f"value:{rules.key}:v1"


@cache
def shipped_values() -> dict[str, dict[str, Any]]:
    """Return the game values computed ahead of time (data/values.json), by code space."""
    path = resources.files("keypeg").joinpath("data/values.json")
    return json.loads(path.read_text()) if path.is_file() else {}


@dataclass(frozen=True)
class StoredValue:
    """A game value read back from data/values.json (the codemaker's mixture by class)."""

    value: Fraction
    codemaker: tuple[Fraction, ...]


@cache
def stored_value(rules: Rules) -> StoredValue:
    """Return the shipped game value of `rules`, or compute it (within
    `STORED_VALUE_SECONDS`). Raises `LimitExceededError` when neither is possible."""
    data = shipped_values().get(rules.key)
    if data is not None:
        return StoredValue(Fraction(data["value"]),
                           tuple(Fraction(c["probability"]) for c in data["codemaker"]))
    if rules.size > STORED_VALUE_CODES:
        raise LimitExceededError(
            f"the game value of {rules_name(rules)}, which the game codemaker draws its "
            f"secrets by, is out of reach here ({rules.size:,} codes; keypeg ships it for "
            f"smaller games and computes it up to {STORED_VALUE_CODES:,}); choose another "
            "codemaker, such as uniform or adaptive.")
    try:
        v = game_value(rules, time_limit=STORED_VALUE_SECONDS)
    except TimeLimitError:
        # (it said "allow more time" where the caller, a match, has no option for that)
        raise TimeLimitError(
            f"the game value of {rules_name(rules)}, which the game codemaker draws its "
            f"secrets by, was not found within {STORED_VALUE_SECONDS} s (keypeg ships it "
            "for smaller games); choose another codemaker, such as uniform or adaptive."
        ) from None
    return StoredValue(v.value, tuple(v.codemaker))

