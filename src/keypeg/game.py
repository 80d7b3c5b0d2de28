"""Game state: the clues so far and the codes that could still be the secret.

A `GameState` is immutable: `state.after(guess, feedback)` returns the next one. Its belief
(`keypeg.belief`) holds the candidates and their posterior; plain filtering is the special
case of a uniform prior and trusted answers.

A history that no secret satisfies raises `InconsistentHistoryError`, whose message names a
smallest set of clues that cannot all hold and the single clue that, if wrong, explains it.

>>> from keypeg.rules import find_rules
>>> state = GameState.start(find_rules("classic")).after("1122", "0B0W")
>>> state.count
256
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .belief import Belief, Exact, Lies, NoiseModel, noise_caution
from .codes import Code
from .errors import (
    InconsistentHistoryError,
    InvalidCodeError,
    InvalidFeedbackError,
    NoiseCaution,
)
from .feedback import Feedback, score
from .limits import CONFLICT_CHECKS, CONFLICT_WORK, check_count, plural, shorten, some_of
from .rules import Rules, rules_literal, rules_name, rules_of
from .space import CodeSpace, as_space


@dataclass(frozen=True)
class Clue:
    """A guess and the feedback it received."""

    guess: Code
    feedback: Feedback

    @classmethod
    def parse(cls, text: str, rules: Rules | str) -> Clue:
        """Parse ``GUESS=FEEDBACK`` (``682=1B0W``, ``01234=GA--A``) under `rules` (or a
        name `find_rules` reads), or the guess and its feedback apart (``1122 2 1``,
        ``1 1 2 2 BBW``: the first words that make a code are the guess).

        Raises `InvalidCodeError` or `InvalidFeedbackError` with what is allowed.
        """
        rules = rules_of(rules)
        guess, sep, fb = str(text).partition("=")
        if sep:
            return cls.make(guess, fb, rules)
        words = str(text).split()
        if len(words) < 2:
            raise InvalidCodeError(
                f"clue {shorten(text)!r} has no '='; write each clue as GUESS=FEEDBACK, like "
                + ("1122=1B1W." if rules.feedback == "blackwhite" else "01234=GA--A.")
            )
        first_error: InvalidCodeError | InvalidFeedbackError | None = None
        for k in range(1, len(words)):
            try:
                code = Code.parse("".join(words[:k]), rules)
            except InvalidCodeError as exc:
                first_error = first_error or exc
                continue
            try:
                return cls(code, Feedback.parse(" ".join(words[k:]), rules))
            except InvalidFeedbackError as exc:
                first_error = exc  # (the guess read: its feedback's error says more)
        assert first_error is not None
        raise first_error

    @classmethod
    def make(cls, guess: str | Code, feedback: str | Feedback, rules: Rules | str) -> Clue:
        """Build a clue from a guess and feedback in any accepted form."""
        rules = rules_of(rules)
        return cls(Code.parse(guess, rules), Feedback.parse(feedback, rules))

    def __str__(self) -> str:
        return f"{self.guess}={self.feedback}"

    def __repr__(self) -> str:
        return f"Clue.parse({str(self)!r}, {rules_literal(self.guess.rules)})"


#: Why the optimal guess is not given where answers may be wrong.
TRUSTED_ONLY = "the best possible guess is worked out for trusted answers only."


class GameState:
    """The history of a game and its belief: the candidates, and how likely each is.

    By default every code is equally likely and every clue is trusted (plain filtering).
    `GameState.start(rules, prior=..., noise=...)` starts from a prior over the secrets and
    a noise model for the answers (see `keypeg.belief`).
    """

    def __init__(
        self,
        space: CodeSpace,
        history: Sequence[Clue] = (),
        *,
        candidates: np.ndarray | None = None,
        weights: np.ndarray | None = None,
        belief: Belief | None = None,
    ) -> None:
        space = as_space(space)  # (a Rules or a name, as GameState.start takes: Rules failed)
        self.space = space
        self.history: tuple[Clue, ...] = tuple(history)
        #: Values derived from the state and remembered (its candidates and history never
        #: change): symmetry-class probes, the largest part of each guess asked about.
        self.derived: dict[str, Any] = {}
        if belief is None and candidates is not None:
            belief = Belief(_checked_candidates(space, candidates), Exact(), weights)
        if belief is None:
            belief = Belief.start(space)
            for clue in self.history:
                belief = belief.after(space, clue)
            if belief.candidates.size == 0:
                raise explain_empty(space, self.history, belief)
        self.belief = belief

    def __repr__(self) -> str:
        clues = " ".join(map(str, self.history[-3:]))
        if len(self.history) > 3:
            clues = f"... {clues}"
        return (f"GameState({rules_name(self.rules)}, {plural(len(self.history), 'clue')}"
                + (f" {clues}" if clues else "")
                + f", {plural(self.count, 'candidate')}"
                + ("" if str(self.noise) == "exact" else f", noise {self.noise}")
                + (", a prior" if self.belief.prior or self.belief.weights is not None
                   else "")
                + ")")

    @classmethod
    def start(cls, rules: Rules | CodeSpace | str, *, prior: Any = None,
              noise: str | NoiseModel | None = None, warn: bool = True) -> GameState:
        """Return the state before any guess, with a `prior` over the secrets (None:
        uniform; "pin", "file:PATH", an array or a callable) and a `noise` model for the
        answers (None or "exact": trusted; "symmetric:EPS", "per-peg:EPS", "lies:K").
        A noise rate past the usual raises a `NoiseCaution` warning, unless `warn` is
        False (for callers that say `belief.noise_caution` in their own words)."""
        space = as_space(rules)
        belief = Belief.start(space, prior, noise)
        if isinstance(belief.noise, Lies):
            belief.noise.check_rows(space.rules.max_guesses)
        caution = noise_caution(belief.noise, space) if warn else None
        if caution:  # (symmetric:0.95 had been taken without a word, as the CLI once did)
            warnings.warn(caution[0].upper() + caution[1:], NoiseCaution, stacklevel=2)
        return cls(space, belief=belief)

    @classmethod
    def from_clues(cls, rules: Rules | CodeSpace | str,
                   clues: Iterable[str | Clue | tuple[Any, Any]] | str | Clue, *,
                   prior: Any = None, noise: str | NoiseModel | None = None) -> GameState:
        """Return the state after `clues` (``Clue`` values, ``GUESS=FEEDBACK`` texts or
        (guess, answer) pairs, as tuples or as the two-item lists JSON gives; one clue
        alone is taken as a list of one).

        Raises `InconsistentHistoryError` with a diagnosis when no code fits them all.
        """
        space = as_space(rules)
        if isinstance(clues, str) and clues.count("=") > 1:
            # several clues in one text, as a CLI takes them: '1122=1B1W 3456=0B2W' (the
            # second was read as part of the first one's feedback)
            clues = clues.replace(",", " ").replace(";", " ").split()
        if isinstance(clues, (str, Clue)):
            clues = [clues]  # one clue
        if not isinstance(clues, Iterable):
            raise InvalidCodeError(f"clues must be a list of GUESS=ANSWER texts, Clues or "
                                   f"(guess, answer) pairs, not {type(clues).__name__}.")
        # (a Clue is made again under these rules: one of another game is refused; a pair
        # (guess, answer), as the web API's history has them, is read as GUESS=ANSWER)
        parsed = [
            Clue.make(c.guess, c.feedback, space.rules) if isinstance(c, Clue)
            else Clue.parse("=".join(map(str, c)) if isinstance(c, (tuple, list))
                            and len(c) == 2 else c, space.rules)
            for c in clues]
        if prior is None and noise is None:
            return cls(space, parsed)
        state = cls.start(space, prior=prior, noise=noise)
        for clue in parsed:
            state = state.after(clue.guess, clue.feedback)
        return state

    @property
    def rules(self) -> Rules:
        """Return the rules of the game."""
        return self.space.rules

    @property
    def candidates(self) -> np.ndarray:
        """Return the codes that could still be the secret (indices, ascending). The array
        is the state's own (the compiled kernels take it as it is): read it, never write
        to it; copy it to change it."""
        return self.belief.candidates

    @property
    def weights(self) -> np.ndarray | None:
        """Return the candidates' posterior probabilities, or None when all are equally
        likely."""
        return None if self.belief.uniform else self.belief.posterior

    @property
    def posterior(self) -> np.ndarray:
        """Return the candidates' posterior probabilities (aligned with `candidates`)."""
        return self.belief.posterior

    @property
    def noise(self) -> NoiseModel:
        """Return the noise model the answers are read with."""
        return self.belief.noise

    @property
    def trusted(self) -> bool:
        """Whether every answer is taken as true (no noise, no lies; symmetric:0 and lies:0,
        which never err, too: they had been treated as doubtful, with no optimal hint)."""
        return not self.noise.may_err or (self.noise.hard and not isinstance(self.noise, Lies))

    def code_weights(self) -> np.ndarray | None:
        """Return the posterior as one weight per code of the space (0 off the
        candidates), or None when the candidates are equally likely."""
        if self.weights is None:
            return None
        full = np.zeros(self.space.size)
        full[self.candidates] = self.posterior
        return full

    def replayed(self, guess: str | Code) -> str | None:
        """Return the sentence that says `guess` was played already, when the answers are
        trusted (the same guess gets the same answer: a row spent for nothing); None for a
        new guess, or under noise or lies (where asking again is worth a row)."""
        if not self.trusted:
            return None
        guess = Code.parse(guess, self.rules)
        for i, clue in enumerate(self.history):
            if clue.guess == guess:
                return (f"{guess} was guess {i + 1} ({clue.feedback}) and would get the "
                        "same answer again, so it uses no row; try another code.")
        return None

    def after(self, guess: str | Code, feedback: str | Feedback) -> GameState:
        """Return the state after one more clue; raises `InconsistentHistoryError` with a
        diagnosis when no code is left."""
        clue = Clue.make(guess, feedback, self.rules)
        belief = self.belief.after(self.space, clue)
        history = (*self.history, clue)
        if belief.candidates.size == 0:
            raise explain_empty(self.space, history, belief)
        return GameState(self.space, history, belief=belief)

    def play(self, guess: str | Code, secret: str | Code) -> GameState:
        """Return the state after `guess` is scored against `secret`."""
        g = Code.parse(guess, self.rules)
        s = Code.parse(secret, self.rules)
        return self.after(g, score(s.symbols, g.symbols, self.rules))

    @property
    def count(self) -> int:
        """Return how many codes could still be the secret (non-zero posterior)."""
        return int(self.candidates.size)

    @property
    def entropy(self) -> float:
        """Return the bits of the posterior: the information still missing."""
        return self.belief.entropy()

    @property
    def bits(self) -> float:
        """Return the information still missing, in bits (log2 of the count when uniform);
        the same as `entropy`."""
        return self.belief.entropy()

    def top(self, n: int = 10) -> list[tuple[str, float]]:
        """Return the `n` most likely secrets with their probabilities, most likely first
        (ties in code order)."""
        check_count("n", n, least=0)  # (-1 would drop the last)
        p = self.posterior
        order = np.lexsort((self.candidates, -p))[:n]
        return [(self.space.text(int(self.candidates[i])), float(p[i])) for i in order]

    def doubts(self) -> list[float]:
        """Return, for each clue, the probability that it was misreported (0 for every
        clue when the answers are trusted)."""
        return self.belief.doubts(self.space, self.history)

    @property
    def solved(self) -> bool:
        """Return True when the last guess was the secret."""
        return bool(self.history) and self.history[-1].feedback.is_win(self.rules)

    @property
    def remaining(self) -> int | None:
        """Return the guesses the board has left (`Rules.max_guesses` less those played, at
        least 0), or None when the rules set no limit. The state itself plays on past the
        board (for analysis); `over` says when a game would end."""
        limit = self.rules.max_guesses
        return None if limit is None else max(0, limit - len(self.history))

    @property
    def over(self) -> bool:
        """Return True when the game is over: solved, or the board's rows used up."""
        return self.solved or self.remaining == 0

    def candidate_texts(self, limit: int | None = None) -> list[str]:
        """Return the candidates as written codes (the first `limit` of them)."""
        if limit is not None:
            check_count("limit", limit, least=0)  # (-1 would drop the last)
        chosen = self.candidates if limit is None else self.candidates[:limit]
        return self.space.texts(chosen)

    def is_candidate(self, code: str | Code | int) -> bool:
        """Return True when `code` could still be the secret."""
        i = self.space.index(code)
        # (the candidates' own dtype: a Python int would cast all 16.8 million of MM(8,8))
        pos = int(np.searchsorted(self.candidates, self.candidates.dtype.type(i)))
        return pos < self.count and int(self.candidates[pos]) == i


def explain_empty(space: CodeSpace, history: Sequence[Clue], belief: Belief
                  ) -> InconsistentHistoryError:
    """Return the error for a history that leaves no candidate under `belief`'s model."""
    if isinstance(belief.noise, Lies):
        k = belief.noise.k
        return InconsistentHistoryError(
            f"no code fits these clues even with {k} of them wrong (lies:{k}); at least "
            f"{plural(k + 1, 'clue')} {'is' if k == 0 else 'are'} wrong, or a clue was typed "
            "wrongly.")
    found = diagnose(space, history)
    if found is not None:
        return found
    return InconsistentHistoryError(
        "no code the prior allows fits these clues (some code with prior weight 0 does).")


def _checked_candidates(space: CodeSpace, candidates: Any) -> np.ndarray:
    """Return `candidates` as code indices of `space`, in increasing order, each once and at
    least one; else raise `InvalidCodeError` (a search had read [7, 3, 7, 20] as four codes
    and rebuilt a tree of another total)."""
    out = space.checked_indices(candidates).ravel()
    if out.size == 0:
        raise InvalidCodeError("candidates must hold at least one code index.")
    if out.size > 1 and not bool(np.all(np.diff(out.astype(np.int64)) > 0)):
        raise InvalidCodeError("candidates must be code indices in increasing order, each "
                               "once (as GameState.candidates holds them).")
    return out


def diagnose(space: CodeSpace, clues: Sequence[Clue]) -> InconsistentHistoryError | None:
    """Return an `InconsistentHistoryError` explaining why no code fits `clues`, or None
    when some code fits them all. Works for any number of clues: each code's pattern (which
    clues it satisfies) is a row of 64-bit words."""
    h = len(clues)
    if h == 0:
        return None
    everything = space.all()
    words = (h + 63) // 64
    masks = np.zeros((space.size, words), dtype=np.uint64)
    for i, clue in enumerate(clues):
        response = space.response_index(clue.feedback)
        hit = space.responses(clue.guess.index, everything) == response
        masks[:, i >> 6] |= hit.astype(np.uint64) << np.uint64(i & 63)
    if words == 1 and h <= COUNTED_PATTERN_BITS:  # (counting beats sorting 16.8M codes)
        seen = np.bincount(masks[:, 0].astype(np.intp), minlength=1 << h)
        distinct = np.flatnonzero(seen).astype(np.uint64)[:, None]
    elif words == 1:
        distinct = np.unique(masks[:, 0])[:, None]
    else:
        distinct = np.unique(masks, axis=0)
    full = _bits(range(h), words)
    if _covered(distinct, full):
        return None
    conflict = _smallest_conflict(distinct, h)
    suspects = []
    corrections: dict[int, tuple[str, ...]] = {}
    for i in range(h):
        # (no code fits them all, so a code fitting all but clue i has exactly that pattern)
        without = full & ~_bits((i,), words)
        if not (distinct == without).all(axis=1).any():
            continue
        suspects.append(i)
        others = everything[(masks == without).all(axis=1)]
        resp = np.unique(space.responses(clues[i].guess.index, others))
        corrections[i] = tuple(str(space.feedback(r)) for r in resp)
    return InconsistentHistoryError(
        _diagnosis_text(clues, conflict, tuple(suspects), corrections),
        conflict=conflict,
        suspects=tuple(suspects),
        corrections=corrections,
    )


#: Up to this many clues, a diagnosis finds the distinct patterns by counting (an array of
#: 2^h counts), not by sorting every code's pattern.
COUNTED_PATTERN_BITS = 20


def _bits(indices: Iterable[int], words: int) -> np.ndarray:
    """Return the clue indices as a row of 64-bit words."""
    out = np.zeros(words, dtype=np.uint64)
    for i in indices:
        out[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return out


def _covered(distinct: np.ndarray, t: np.ndarray) -> bool:
    """Return True when some code satisfies every clue in `t` (a row of words)."""
    return bool(((distinct & t) == t).all(axis=1).any())


def _smallest_conflict(distinct: np.ndarray, h: int) -> tuple[int, ...]:
    """Return a smallest set of clue indices that no pattern in `distinct` covers, or a
    minimal one when the search for a smallest would cost more than `CONFLICT_WORK`."""
    words = distinct.shape[1]
    checks = max(1, min(CONFLICT_CHECKS, CONFLICT_WORK // max(1, distinct.size)))
    for k in range(1, h + 1):
        for subset in itertools.combinations(range(h), k):
            if not _covered(distinct, _bits(subset, words)):
                return subset
            checks -= 1
            if checks <= 0:
                return _minimal_conflict(distinct, h)
    return tuple(range(h))


def _minimal_conflict(distinct: np.ndarray, h: int) -> tuple[int, ...]:
    """Return a minimal (irreducible) conflicting set by deleting clues one at a time."""
    words = distinct.shape[1]
    keep = list(range(h))
    for i in range(h):
        trial = [j for j in keep if j != i]
        if trial and not _covered(distinct, _bits(trial, words)):
            keep = trial
    return tuple(keep)


#: Clues a contradiction names in full (guess and answer); past that, by number only, so
#: that the sentence stays short (the error's fields hold every clue and correction).
NAMED_CLUES = 3
#: Clue numbers a contradiction lists; past that, the rest counted.
LISTED_CLUES = 10


def _diagnosis_text(
    clues: Sequence[Clue],
    conflict: tuple[int, ...],
    suspects: tuple[int, ...],
    corrections: dict[int, tuple[str, ...]],
) -> str:
    def name(i: int) -> str:
        return f"clue {i + 1} ({clues[i]})"

    def numbers(indices: Sequence[int]) -> str:  # 'clues 1, 2 and 3', the rest counted
        shown = [str(i + 1) for i in indices[:LISTED_CLUES]]
        if len(indices) > LISTED_CLUES:
            return f"clues {', '.join(shown)} and {len(indices) - LISTED_CLUES} more"
        return f"clues {', '.join(shown[:-1])} and {shown[-1]}"

    if len(conflict) == 1:
        text = f"no code fits these clues: {name(conflict[0])} is impossible on its own"
    elif len(conflict) <= NAMED_CLUES:
        names = ", ".join(name(i) for i in conflict[:-1]) + f" and {name(conflict[-1])}"
        text = f"no code fits these clues: {names} cannot all hold"
    else:
        text = f"no code fits these clues: {numbers(conflict)} cannot all hold"
    if not suspects:
        return text + "; no single wrong clue explains it, so at least two are wrong."
    if len(suspects) > 2:  # (the first two named with their corrections)
        a, b = suspects[:2]
        return (text + f"; if one clue is wrong, it is one of {numbers(suspects)}: "
                f"{name(a)} could have been {some_of(corrections[a], 3)}; {name(b)}, "
                f"{some_of(corrections[b], 3)}; and so on.")
    parts = []
    for i in suspects:
        parts.append(f"{name(i)}, which could have been {some_of(corrections[i], 6)}")
    if len(parts) == 1:
        return text + f"; if one clue is wrong, it is {parts[0]}."
    return text + "; if one clue is wrong, it is one of " + "; or ".join(parts) + "."
