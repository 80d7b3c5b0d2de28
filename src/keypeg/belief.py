"""Beliefs about the secret: a prior over codes, a noise model for the answers, and the
posterior they give after each clue (seed 003, sections 7-8).

A belief is the codes that could still be the secret (`candidates`) with their posterior
probabilities. Bayes' rule updates it after each clue:

    P(s | r, g) = P(r | s, g) P(s) / sum_u P(r | u, g) P(u)

where the likelihood P(r | s, g) depends only on the true answer t = F(s, g) and the
reported answer r, through the noise model's matrix ``L[t, r]``:

* `Exact` -- ``L`` is the identity: a clue keeps the codes that agree with it (today's
  filtering); the survivors keep their relative prior weights.
* `Symmetric(eps)` -- the answer is reported truly with probability 1 - eps, otherwise as
  one of the other answers the rules allow, uniformly.
* `PerPeg(eps)` -- positional feedback: each mark is misreported, independently, as one of
  the other two marks with probability eps (eps/2 each); reports the rules do not allow
  are impossible, so each row of ``L`` is renormalised over the allowed answers.

In every model a win is reported truly, and no other answer is reported as a win: a game
ends when the codemaker says the code is broken, so a clue that goes on is no win, and the
last clue of a game is one (`honest_wins`). So a guess answered with anything but a win is
not the secret, whatever the noise.
* `Lies(k)` -- a hard model (Ulam's liar game): a code survives while it contradicts at
  most k clues; there are no probabilities, survivors keep their prior weights.

Priors: `uniform`; `pin` (`PinPrior`: how people choose digit PINs, from explicit features,
each weight documented and changeable); `file:PATH` (CSV ``code,weight``; codes it does not
list weigh 0); in the library any array over the codes, or a callable from code text to
weight. Probabilistic beliefs are kept in log space, so long noisy histories do not
underflow.

>>> from keypeg.rules import find_rules
>>> from keypeg.game import GameState
>>> s = GameState.start(find_rules("classic"), noise="symmetric:0.05").after("1122", "1B0W")
>>> s.count, s.is_candidate("1122")  # every code may stay, but 1122: no win is no win
(1295, False)
"""

from __future__ import annotations

import contextlib
import csv
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import KeypegError
from .limits import shorten

if TYPE_CHECKING:
    from .game import Clue
    from .space import CodeSpace


# ----------------------------------------------------------------------------- noise
class NoiseModel:
    """How reported answers relate to true ones. `hard` models filter (no probabilities)."""

    hard = True

    @property
    def may_err(self) -> bool:
        """Whether an answer can be wrong at all (symmetric:0 and lies:0 never are)."""
        return bool(getattr(self, "eps", 0) or getattr(self, "k", 0))

    def likelihood(self, space: CodeSpace) -> np.ndarray:
        """Return ``L[t, r]``: the probability of reporting answer r when the true answer
        is t (answer indices of `space`); each row sums to 1."""
        return np.eye(space.n_responses)

    def __str__(self) -> str:
        return "exact"


@dataclass(frozen=True)
class Exact(NoiseModel):
    """Every answer is reported truly: a clue is a hard constraint."""

    def __str__(self) -> str:
        return "exact"


def honest_wins(L: np.ndarray, win: int) -> np.ndarray:
    """Return the noise matrix ``L[t, r]`` with the wins told truly: a win is reported as a
    win, and no other answer as one (the game would end). Rows other than the win's keep
    their own weights otherwise (`Symmetric` spreads eps over the R - 2 answers left, so
    an answer is wrong with probability eps exactly)."""
    out = L.copy()
    out[:, win] = 0.0
    out[win, :] = 0.0
    out[win, win] = 1.0
    return out


def _check_eps(eps: float, name: str) -> float:
    eps = float(eps)
    if not 0 <= eps < 1:
        raise KeypegError(f"{name} noise needs a probability EPS with 0 <= EPS < 1, "
                          f"not {eps:g}.")
    return eps


def _eps_text(eps: float) -> str:
    """Return `eps` written short ('0.05', '0') but so that it reads back as the same float
    (0.9999999999999999 was written '1', a value `parse_noise` refuses)."""
    text = f"{eps:g}"
    return text if float(text) == eps else repr(float(eps))


@dataclass(frozen=True)
class Symmetric(NoiseModel):
    """The answer is reported truly with probability 1 - eps, else as one of the other
    answers the rules allow, uniformly; a win is always told truly, and never falsely
    (`honest_wins`)."""

    eps: float
    hard = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_eps(self.eps, "symmetric"))

    def likelihood(self, space: CodeSpace) -> np.ndarray:
        R = space.n_responses
        if R <= 2:  # (the win and one other answer: nothing else to report)
            return np.eye(R)
        out = np.full((R, R), self.eps / (R - 2))
        np.fill_diagonal(out, 1 - self.eps)
        return honest_wins(out, space.win)

    def __str__(self) -> str:
        return f"symmetric:{_eps_text(self.eps)}"


@dataclass(frozen=True)
class PerPeg(NoiseModel):
    """Positional feedback: each mark is misreported, independently, as one of the other
    two marks with probability eps (eps/2 each); rows are renormalised over the answers the
    rules allow."""

    eps: float
    hard = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_eps(self.eps, "per-peg"))

    def likelihood(self, space: CodeSpace) -> np.ndarray:
        if space.rules.feedback != "positional":
            raise KeypegError("per-peg noise needs positional (green/amber/gray) feedback; "
                              "use symmetric:EPS for black/white games.")
        marks = np.array([fb.marks for fb in space.alphabet.responses], dtype=np.int8)
        same = (marks[:, None, :] == marks[None, :, :])
        with np.errstate(divide="ignore"):
            per = np.where(same, 1 - self.eps, self.eps / 2)
        out = honest_wins(per.prod(axis=2), space.win)
        return out / out.sum(axis=1, keepdims=True)

    def __str__(self) -> str:
        return f"per-peg:{_eps_text(self.eps)}"


@dataclass(frozen=True)
class Lies(NoiseModel):
    """A code survives while it contradicts at most `k` clues (Ulam's liar game); a win is
    never a lie, nor a lie a win (`honest_wins`)."""

    k: int

    def __post_init__(self) -> None:
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 0:
            raise KeypegError(f"lies needs a whole number K >= 0 of wrong clues, "
                              f"not {shorten(self.k)}.")

    def __str__(self) -> str:
        return f"lies:{self.k}"

    def check_rows(self, rows: int | None) -> None:
        """Refuse as many lies as the board has rows (`rows`; None: no limit): every
        answer could then be a lie, and none could be trusted."""
        if rows is not None and self.k >= rows:
            raise KeypegError(
                f"{self} lets every answer on the board's {rows} rows be a lie, so no answer "
                f"could be trusted; allow fewer lies than rows (at most {rows - 1}).")


NOISE_FORMS = "exact, symmetric:EPS, per-peg:EPS or lies:K"


def noise_caution(model: NoiseModel, space: CodeSpace) -> str | None:
    """A sentence of warning for a noise model that makes an answer more often wrong than
    right, stronger where some wrong report is likelier than the true one (then a code
    that fits a clue is less likely than one that does not, and the hints lead away from
    the clues); None for a model with usual rates (or none: exact, lies:K). A few
    percent is the usual rate; symmetric:0.95 had been taken without a word."""
    if model.hard or not model.may_err:
        return None
    L = _likelihood(space, model)  # (cached: every GameState.start under noise asks)
    rows = [t for t in range(space.n_responses) if t != space.win and L[t].sum() > 0]
    if not rows:
        return None
    true = np.array([L[t, t] for t in rows])
    wrong = np.array([np.delete(L[t], [t, space.win]).max(initial=0.0) for t in rows])
    if (true < wrong).any():
        return (f"with {model} a wrong answer is likelier than the true one, so the hints "
                "will favour codes that do not fit the clues; a few percent (like "
                f"{_model_name(model)}:0.05) is the usual rate.")
    if (true < 0.5).any():
        return (f"with {model} an answer is more often wrong than right; a few percent "
                "(like "
                f"{_model_name(model)}:0.05) is the usual rate.")
    return None


def _model_name(model: NoiseModel) -> str:
    return str(model).partition(":")[0]


def parse_noise(spec: str | NoiseModel | None) -> NoiseModel:
    """Return the noise model written `spec` (``exact``, ``symmetric:0.05``,
    ``per-peg:0.02``, ``lies:1``); None is exact. Raises `KeypegError` for anything else."""
    if spec is None:
        return Exact()
    if isinstance(spec, NoiseModel):
        return spec
    text = str(spec).strip().lower()
    name, _, arg = text.partition(":")
    if name == "exact" and not arg:
        return Exact()
    number: float | int | None = None
    with contextlib.suppress(ValueError):
        number = int(arg) if name == "lies" else float(arg)
    if name == "lies" and arg and number is None:  # (lies:1.5 was an "unknown" model)
        raise KeypegError(f"lies:K takes a whole number of lies K, not {shorten(arg)!r}.")
    if number is not None:
        if name == "symmetric":
            return Symmetric(number)
        if name in ("per-peg", "perpeg"):
            return PerPeg(number)
        if name == "lies":
            return Lies(int(number))
    raise KeypegError(f"unknown noise model {shorten(spec)!r}; use {NOISE_FORMS}.")


# ----------------------------------------------------------------------------- priors
@dataclass(frozen=True)
class PinPrior:
    """How people choose digit PINs, as explicit features. A code's weight is 1, times the
    weight of each feature it has (features multiply). The defaults are round numbers in
    the spirit of published PIN-frequency studies, not fitted values: change any of them,
    e.g. ``PinPrior(year=20)`` or ``--prior pin:year=20,same=100``.

    * `same`: one digit repeated (0000, 7777);
    * `run`: an ascending or descending run of consecutive digits (1234, 9876, 0123);
    * `pairs`: two digits alternating or doubled (1212, 1122);
    * `date`: four digits that read as a day and month, DDMM or MMDD (2512, 0704);
    * `year`: four digits from 1900 to 2029;
    * `keypad`: digits along a straight line of a phone keypad (2580, 0852, 147, 369...);
    * `repeats`: any other code that repeats a digit, a mild boost.
    """

    same: float = 40.0
    run: float = 30.0
    pairs: float = 8.0
    date: float = 4.0
    year: float = 6.0
    keypad: float = 10.0
    repeats: float = 1.5

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise KeypegError(f"the pin prior's {f.name} weight must be a number >= 0, "
                                  f"not {shorten(value)}.")

    def features(self, digits: Sequence[int]) -> list[str]:
        """Return the names of the features the code `digits` has."""
        d = list(digits)
        p = len(d)
        found = []
        if p > 1 and len(set(d)) == 1:
            found.append("same")
        elif p > 2 and (all(b - a == 1 for a, b in zip(d, d[1:], strict=False))
                        or all(a - b == 1 for a, b in zip(d, d[1:], strict=False))):
            found.append("run")
        elif p == 4 and len(set(d)) == 2 and (d[0] == d[2] and d[1] == d[3]
                                              or d[0] == d[1] and d[2] == d[3]):
            found.append("pairs")
        elif len(set(d)) < p:
            found.append("repeats")
        if p == 4:
            a, b = 10 * d[0] + d[1], 10 * d[2] + d[3]
            if _day_month(a, b) or _day_month(b, a):
                found.append("date")
            if 1900 <= 100 * a + b <= 2029:
                found.append("year")
        if p > 2 and _keypad_line(d):
            found.append("keypad")
        return found

    def weight(self, digits: Sequence[int]) -> float:
        """Return the (unnormalised) prior weight of the code `digits`."""
        w = 1.0
        for name in self.features(digits):
            w *= getattr(self, name)
        return w


_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
#: Keypad rows 1-2-3 / 4-5-6 / 7-8-9 / _-0-_, as (row, column).
_KEYPAD = {1: (0, 0), 2: (0, 1), 3: (0, 2), 4: (1, 0), 5: (1, 1), 6: (1, 2),
           7: (2, 0), 8: (2, 1), 9: (2, 2), 0: (3, 1)}


def _day_month(day: int, month: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= _DAYS[month - 1]


def _keypad_line(d: Sequence[int]) -> bool:
    """Return True when the digits are neighbouring keys along one straight line."""
    if any(x not in _KEYPAD for x in d):
        return False
    cells = [_KEYPAD[x] for x in d]
    step = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
    if max(abs(step[0]), abs(step[1])) != 1:
        return False
    return all((b[0] - a[0], b[1] - a[1]) == step for a, b in zip(cells, cells[1:],
                                                                     strict=False))


PRIOR_FORMS = "uniform, pin (pin:NAME=WEIGHT,...), or file:PATH"


def prior_weights(space: CodeSpace, prior: Any, *, normalise: bool = True
                  ) -> np.ndarray | None:
    """Return the prior as float64 weights over every code of `space` (normalised), or None
    for uniform. `prior` is None, "uniform", "pin", "pin:year=20,...", "file:PATH", a
    `PinPrior`, an array over the codes, a mapping from codes (text or `Code`) to weights
    (codes it does not list weigh 0), or a callable from code text to weight. With
    `normalise=False` the weights are the prior's own (a file's numbers, the pin features'
    products). Raises `KeypegError` for a bad prior (negative or all-zero weights, an
    unknown code...)."""
    if prior is None:
        return None
    if isinstance(prior, str):
        text = prior.strip()
        name, _, arg = text.partition(":")
        if text.lower() == "uniform":
            return None
        if name.lower() == "pin":
            return prior_weights(space, _pin_from_text(arg), normalise=normalise)
        if name.lower() == "file" and arg:
            # (~ for the home folder, as a shell would read it: it had been a folder named ~)
            return _normalise(_file_weights(space, Path(arg).expanduser()),
                              f"prior file {shorten(arg)!r}", normalise, space)
        raise KeypegError(f"unknown prior {shorten(prior)!r}; use {PRIOR_FORMS}.")
    if isinstance(prior, PinPrior):
        if not space.rules.digits:
            raise KeypegError("the pin prior is for digit games (like bulls-and-cows or "
                              "codebreaker); these rules use colours.")
        w = np.fromiter((prior.weight(row) for row in space.codes.tolist()),
                        dtype=np.float64, count=space.size)
        return _normalise(w, "the pin prior", normalise, space)
    if isinstance(prior, Mapping):
        return _normalise(_mapping_weights(space, prior), "the prior", normalise, space)
    if callable(prior):
        fn: Callable[[str], float] = prior
        w = np.fromiter((_number(fn(text), text) for text in map(space.text, range(space.size))),
                        dtype=np.float64, count=space.size)
        return _normalise(w, "the prior", normalise, space)
    try:
        w = np.asarray(prior, dtype=np.float64)
    except (TypeError, ValueError):
        raise KeypegError(f"a prior array needs one number per code ({space.size:,}), not "
                          f"{shorten(repr(prior))}.") from None
    if w.shape != (space.size,):
        raise KeypegError(f"a prior array needs one weight per code ({space.size:,}), "
                          f"not shape {w.shape}.")
    return _normalise(w.copy(), "the prior", normalise, space)


def _pin_from_text(arg: str) -> PinPrior:
    if not arg.strip():
        return PinPrior()
    names = {f.name for f in fields(PinPrior)}
    values: dict[str, float] = {}
    for part in arg.split(","):
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq or key not in names:
            raise KeypegError(f"pin prior option {shorten(part.strip())!r} is not NAME=WEIGHT "
                              f"with NAME one of {', '.join(sorted(names))}.")
        try:
            values[key] = float(value)
        except ValueError:
            raise KeypegError(f"pin prior weight {shorten(value.strip())!r} for {key} is "
                              "not a number.") from None
    return PinPrior(**values)


def _file_weights(space: CodeSpace, path: Path) -> np.ndarray:
    from .codes import Code

    if not path.is_file():
        raise KeypegError(f"prior file {shorten(path)!r} "
                          + ("is a folder, not a file." if path.is_dir() else "does not exist."))
    w = np.zeros(space.size, dtype=np.float64)
    seen: dict[int, int] = {}  # code index -> the line that gave its weight
    where = f"prior file {shorten(path)!r}"
    try:
        # (utf-8-sig: a byte-order mark, as Excel writes, is not part of the first cell)
        with path.open(newline="", encoding="utf-8-sig") as fh:
            for number, row in enumerate(csv.reader(fh), 1):
                if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
                    continue
                if number == 1 and row[0].strip().lower() == "code":
                    continue  # a header
                if len(row) != 2:
                    raise KeypegError(f"{where}, line {number}: write one code and its "
                                      "weight, like 1123,2.5.")
                try:
                    index = Code.parse(row[0], space.rules).index
                except ValueError as exc:  # KeypegError is a ValueError too
                    raise KeypegError(f"{where}, line {number}: "
                                      f"{str(exc).rstrip('.')}.") from None
                code = shorten(row[0].strip())
                try:
                    weight = float(row[1])
                except ValueError:  # (it said "could not convert string to float: 'abc'")
                    raise KeypegError(f"{where}, line {number}: the weight "
                                      f"{shorten(row[1].strip())!r} is not a number."
                                      ) from None
                if not (math.isfinite(weight) and weight >= 0):
                    raise KeypegError(f"{where}, line {number}: the weight "
                                      f"{shorten(row[1].strip())!r} of {code} is "
                                      + ("negative" if weight < 0 else "not a finite number")
                                      + "; weights must be finite numbers >= 0.")
                if index in seen:
                    raise KeypegError(f"{where}: code {space.text(index)} is listed twice, "
                                      f"on lines {seen[index]} and {number}; give each code "
                                      "one weight.")
                seen[index] = number
                w[index] = weight
    except UnicodeDecodeError:
        raise KeypegError(f"{where} is not UTF-8 text.") from None
    return w


def _mapping_weights(space: CodeSpace, prior: Mapping[Any, Any]) -> np.ndarray:
    """Return the weights of a mapping from codes (text or `Code`) to weights; codes it does
    not list weigh 0, like a prior file's."""
    from .codes import Code

    w = np.zeros(space.size, dtype=np.float64)
    given: dict[int, Any] = {}
    for key, value in prior.items():
        try:
            index = Code.parse(key, space.rules).index
        except (TypeError, ValueError) as exc:  # KeypegError is a ValueError too
            raise KeypegError(f"the prior lists {shorten(repr(key))}, not a code of these "
                              f"rules: {str(exc).rstrip('.')}.") from None
        if index in given:
            raise KeypegError(f"the prior gives code {space.text(index)} two weights (as "
                              f"{shorten(repr(given[index]))} and {shorten(repr(key))}); "
                              "give each code one weight.")
        given[index] = key
        w[index] = _number(value, space.text(index))
    return w


def _number(value: Any, code: str) -> float:
    """Return the prior weight `value` of `code` as a float; refuse what is not a number."""
    try:
        if isinstance(value, (str, bytes)):
            raise TypeError  # (float('2') would read a text as a number)
        return float(value)
    except (TypeError, ValueError):
        raise KeypegError(f"the prior gives code {code} the weight {shorten(repr(value))}, "
                          "which is not a number.") from None


def _normalise(w: np.ndarray, what: str, normalise: bool = True,
               space: CodeSpace | None = None) -> np.ndarray:
    """Return `w` scaled to sum to 1 (`normalise`), or as given; raises `KeypegError` for
    a negative or non-finite weight (naming its code when `space` is given) or weights
    that are all 0."""
    bad = np.flatnonzero(~np.isfinite(w) | (w < 0))
    if bad.size:
        i, x = int(bad[0]), float(w[bad[0]])
        code = f"code {space.text(i)}" if space is not None else f"code number {i}"
        raise KeypegError(f"{what} gives {code} the weight {x!r}, which is "
                          + ("negative" if x < 0 else "not a finite number")
                          + "; weights must be finite numbers >= 0.")
    top = float(w.max()) if w.size else 0.0
    if top <= 0:
        raise KeypegError(f"{what} gives every code weight 0; at least one must weigh more.")
    if not normalise:
        return w
    w = w / top  # (first: a sum of huge finite weights would overflow to inf)
    return w / w.sum()


# ----------------------------------------------------------------------------- beliefs
@dataclass(frozen=True)
class Belief:
    """The codes that could be the secret and how likely each is.

    `candidates` are code indices (ascending) with non-zero posterior; `log_weights`
    (aligned, probabilistic noise) or `weights` (aligned, normalised; None means uniform)
    hold the posterior; `misses` (aligned, `Lies`) counts the clues each code contradicts;
    `prior` says whether it started from a prior (under noise the posterior is uneven
    without one: a state's repr had said "a prior" for none).
    """

    candidates: np.ndarray
    noise: NoiseModel = field(default_factory=Exact)
    weights: np.ndarray | None = None
    log_weights: np.ndarray | None = None
    misses: np.ndarray | None = None
    prior: bool = False

    @classmethod
    def start(cls, space: CodeSpace, prior: Any = None,
              noise: str | NoiseModel | None = None) -> Belief:
        """Return the belief before any clue."""
        model = parse_noise(noise)
        if not model.hard:
            model.likelihood(space)  # check the model fits the rules
        w = prior_weights(space, prior)
        if w is None:
            candidates = space.all()
            weights = None
        else:
            candidates = np.flatnonzero(w > 0).astype(np.int32)
            weights = w[candidates] / w[candidates].sum()
        if not model.hard:
            logw = np.log(weights) if weights is not None else np.zeros(candidates.size)
            return cls(candidates, model, None, logw, prior=w is not None)
        misses = np.zeros(candidates.size, dtype=np.int16) if isinstance(model, Lies) else None
        return cls(candidates, model, weights, None, misses, prior=w is not None)

    @property
    def posterior(self) -> np.ndarray:
        """Return the posterior probability of each candidate (aligned, sums to 1)."""
        if self.log_weights is not None:
            p = np.exp(self.log_weights - self.log_weights.max())
            return p / p.sum()
        if self.weights is not None:
            return self.weights
        return np.full(self.candidates.size, 1.0 / max(1, self.candidates.size))

    @property
    def uniform(self) -> bool:
        """Return True when every candidate is equally likely (plain filtering)."""
        return self.weights is None and self.log_weights is None

    def after(self, space: CodeSpace, clue: Clue) -> Belief:
        """Return the belief after `clue`; its candidates may be empty (the caller explains
        a contradiction)."""
        g = clue.guess.index
        r = space.response_index(clue.feedback)
        true = space.responses(g, self.candidates)
        model = self.noise
        if self.log_weights is not None:
            with np.errstate(divide="ignore"):
                log_l = np.log(_likelihood(space, model)[:, r])
            logw = self.log_weights + log_l[true]
            keep = np.isfinite(logw)
            if not keep.all():
                return Belief(self.candidates[keep], model, None, logw[keep],
                              prior=self.prior)
            return Belief(self.candidates, model, None, logw, prior=self.prior)
        if self.misses is not None:
            assert isinstance(model, Lies)
            misses = self.misses + (true != r)
            # (a win is never a lie, nor a lie a win: `honest_wins`)
            keep = (misses <= model.k) & ((true == space.win) == (r == space.win))
        else:
            misses = None
            keep = true == r
        weights = None
        if self.weights is not None:
            kept = self.weights[keep]
            total = kept.sum()
            weights = kept / total if total > 0 else kept
        return Belief(self.candidates[keep], model, weights, None,
                      None if misses is None else misses[keep], prior=self.prior)

    def entropy(self) -> float:
        """Return the posterior's entropy in bits."""
        n = self.candidates.size
        if n == 0:
            return 0.0
        if self.uniform:
            return math.log2(n)
        p = self.posterior
        p = p[p > 0]
        # (never below 0: one code left at probability 1 gave -0.00 bits, rounding less)
        return max(0.0, float(-(p * np.log2(p)).sum()))

    def doubts(self, space: CodeSpace, history: Sequence[Clue]) -> list[float]:
        """Return, for each clue of `history`, the posterior probability that it was
        misreported (the mass of the candidates that contradict it)."""
        p = self.posterior
        out = []
        for clue in history:
            true = space.responses(clue.guess.index, self.candidates)
            r = space.response_index(clue.feedback)
            out.append(float(p[true != r].sum()))
        return out


#: With `Lies(k)`, the chance that the answering side lies on a given answer while it still
#: may (it lies at most k times in a game).
LIE_CHANCE = 0.15


def misreport(space: CodeSpace, model: NoiseModel, true: int, rng: np.random.Generator,
              lies_left: int = 0) -> int:
    """Return the answer a noisy answering side reports when the true answer is `true`
    (answer indices), drawn from the model: a probabilistic model draws from ``L[true]``;
    `Lies` lies with `LIE_CHANCE` while `lies_left` > 0, as a uniformly chosen other answer.
    A win is never misreported, and a false win is never reported (the game would end), as
    every model says (`honest_wins`): what is drawn is what the beliefs assume."""
    win = space.win
    if true == win or model.hard and not isinstance(model, Lies):
        return true
    R = space.n_responses
    others = [r for r in range(R) if r not in (win, true)]
    if isinstance(model, Lies):
        if lies_left > 0 and others and rng.random() < LIE_CHANCE:
            return int(rng.choice(others))
        return true
    return int(rng.choice(R, p=_likelihood(space, model)[true]))


def draw_secret(space: CodeSpace, prior: Any, seed: int | None) -> int:
    """Return a secret drawn from the prior (uniform when None), reproducibly for a seed."""
    import random

    w = prior_weights(space, prior)
    if w is None:
        return random.Random(seed).randrange(space.size)
    return int(np.random.default_rng(seed).choice(space.size, p=w))


_LIKELIHOODS: dict[tuple[NoiseModel, Any], np.ndarray] = {}


def _likelihood(space: CodeSpace, model: NoiseModel) -> np.ndarray:
    key = (model, space.rules)
    if key not in _LIKELIHOODS:
        _LIKELIHOODS[key] = model.likelihood(space)
    return _LIKELIHOODS[key]


def likelihood(space: CodeSpace, model: NoiseModel) -> np.ndarray:
    """Return the noise model's ``L[t, r]`` for `space` (cached per model and rules)."""
    return _likelihood(space, model)


__all__ = [
    "Belief",
    "Exact",
    "Lies",
    "NOISE_FORMS",
    "NoiseModel",
    "PRIOR_FORMS",
    "PerPeg",
    "PinPrior",
    "Symmetric",
    "likelihood",
    "misreport",
    "draw_secret",
    "parse_noise",
    "prior_weights",
]
