"""Hints for a game state, and the one budget policy every front end uses for them.

A hint says what is still possible, what each strategy would play (strongest first), the
guess keypeg recommends, and how a guess would cut the candidates. Every decision is
bounded: a one-step strategy scores every probe exactly while that is cheap (small games,
or few candidates left), and otherwise plays its best among `HINT_SAMPLE` sampled
candidates, labelled approximate; the optimal guess is looked up in a stored tree or
searched live for a bounded time on few candidates, and otherwise reported missing in a
player's words. The terminal and the web page both call `hint`.

>>> from keypeg.rules import find_rules
>>> from keypeg.game import GameState
>>> h = hint(GameState.start(find_rules("classic")).after("1122", "0B0W"))
>>> h.count, round(h.bits, 2), h.approximate
(256, 8.0, False)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from .bayes import belief_choices
from .codes import Code
from .errors import KeypegError, LimitExceededError, TimeLimitError
from .game import TRUSTED_ONLY, GameState
from .limits import (
    EXACT_HINT_CODES,
    EXACT_HINT_WORK,
    HINT_LIST,
    HINT_OPTIMAL_SECONDS,
    HINT_RESCORE_CANDIDATES,
    HINT_SAMPLE,
    check_count,
    check_flag,
    check_max_seconds,
    plural,
    shown,
)
from .onestep import canonical_probes, scoring_work
from .rules import Rules
from .strategies import ONE_STEP_NAMES, find_strategy

#: Order of the one-step strategies when no exact lab of the game is known: roughly how
#: they compare on the published games (entropy and parts lead as games grow).
DEFAULT_STRENGTH = ("entropy", "parts", "expsize", "maxsize", "consistent", "random")


@dataclass(frozen=True)
class StrategyHint:
    """What one strategy would play next, and the largest part that guess leaves (with a
    belief: also the probability that the guess is the secret)."""

    name: str
    guess: str
    largest_part: int
    possible: bool
    chance: float | None = None
    #: The guess was chosen among sampled codes (approximate); its largest part is exact.
    sampled: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the row as the web API sends it ("sampled" only when true)."""
        out: dict[str, Any] = {"name": self.name, "guess": self.guess,
                               "largest_part": self.largest_part, "possible": self.possible}
        if self.chance is not None:
            out["chance"] = round(self.chance, 6)
        if self.sampled:
            out["sampled"] = True
        return out


@dataclass(frozen=True)
class BestFound:
    """The best first guess an optimal search had found when its time ran out: with it
    every candidate is found in `total` guesses in all (counted from now, this one
    included), and no guess can do better than `lower` (the search's proven bound)."""

    guess: str
    largest_part: int
    possible: bool
    total: int
    lower: int
    codes: int

    def to_dict(self) -> dict[str, Any]:
        return {"guess": self.guess, "largest_part": self.largest_part,
                "possible": self.possible, "total": self.total, "lower": self.lower,
                "mean": round(self.total / self.codes, 4),
                "lower_mean": round(self.lower / self.codes, 4)}


@dataclass(frozen=True)
class Hint:
    """Everything the hints panel shows for one state.

    `strategies` are ordered strongest first; `recommended` is the optimal guess when it
    was found, else the strongest strategy's (None once solved). `optimal` is None, with
    the reason in player's words in `optimal_note`, when it could not be found in time.
    `approximate` says the strategies chose among sampled candidates (`note` says how).
    `best_found` is the best guess the optimal search had found when it ran out of time,
    with how good it is and how good the optimum could be (None when it found none);
    `optimal_longer` says a longer search might still find the optimum (`solve_optimal`
    with a longer time limit; `POST /api/optimal` on the web).
    """

    count: int
    bits: float
    candidates: list[str] | None
    strategies: list[StrategyHint] = field(default_factory=list)
    optimal: StrategyHint | None = None
    optimal_note: str | None = None
    approximate: bool = False
    note: str | None = None
    solved: bool = False
    #: With a prior or noise: the most likely secrets with their probabilities, and for
    #: each clue the probability that it was misreported.
    likely: list[tuple[str, float]] | None = None
    doubts: list[float] | None = None
    noise: str = "exact"
    best_found: BestFound | None = None
    #: The optimal search ran out of its time on a plain position: a longer one may find it.
    optimal_longer: bool = False
    #: Whether "strongest first" is measured (the game's exact lab or recorded walks), not
    #: keypeg's default order (`strength_ranked`).
    ranked: bool = True

    @property
    def recommended(self) -> StrategyHint | None:
        """Return the guess keypeg recommends: optimal when known, else the strongest."""
        if self.optimal is not None:
            return self.optimal
        return self.strategies[0] if self.strategies else None

    def to_dict(self) -> dict[str, Any]:
        """Return the hint as the web API sends it."""

        def row(s: StrategyHint | None) -> dict[str, Any] | None:
            return None if s is None else s.to_dict()

        out: dict[str, Any] = {"candidates": self.count, "bits": round(self.bits, 3),
               "list": self.candidates, "solved": self.solved,
               "recommended": row(self.recommended),
               "strategies": [row(s) for s in self.strategies],
               "optimal": row(self.optimal), "optimal_note": self.optimal_note,
               "approximate": self.approximate, "note": self.note, "noise": self.noise,
               "best_found": None if self.best_found is None else self.best_found.to_dict(),
               "optimal_longer": self.optimal_longer, "ranked": self.ranked}
        if self.likely is not None:
            out["likely"] = [{"code": c, "probability": round(p, 6)} for c, p in self.likely]
        if self.doubts is not None:
            out["doubts"] = [round(d, 6) for d in self.doubts]
        return out


# ----------------------------------------------------------------------------- strength
@cache
def shipped_labs() -> dict[str, dict[str, Any]]:
    """Return the exact labs computed ahead of time (data/lab.json), by code space key."""
    path = resources.files("keypeg").joinpath("data/lab.json")
    return json.loads(path.read_text()) if path.is_file() else {}


def strength_order(rules: Rules, names: Sequence[str] = ONE_STEP_NAMES) -> list[str]:
    """Return `names` strongest first: by total guesses in the game's exact lab when one
    ships with keypeg, else in `DEFAULT_STRENGTH` order; a strategy the lab does not
    measure (random) comes after those it does.

    >>> from keypeg.rules import find_rules
    >>> strength_order(find_rules("classic"))
    ['parts', 'expsize', 'entropy', 'maxsize', 'consistent', 'random']
    """
    totals = _strength_totals(rules)
    default = {n: i for i, n in enumerate(DEFAULT_STRENGTH)}
    return sorted(names, key=lambda n: (totals.get(n, float("inf")) if totals else 0,
                                        default.get(n, len(default))))


def strength_ranked(rules: Rules) -> bool:
    """Whether `strength_order` ranks by measured totals: an exact lab shipped, or exact
    walks recorded (MM(6,9)); else it is keypeg's default order."""
    return bool(_strength_totals(rules))


def _strength_totals(rules: Rules) -> dict[str, int]:
    return dict(_totals_of(rules.key))


@cache
def _totals_of(key: str) -> tuple[tuple[str, int], ...]:
    """Each strategy's exact total over every secret, where keypeg ships one: its exact lab,
    else its recorded walks (MM(6,9)'s, not its sampled lab: 100 secrets had ranked
    expsize, second best, last). A sampled lab ranks nothing."""
    from .onestep import recorded_totals

    lab = shipped_labs().get(key)
    if lab is not None and lab.get("exact"):
        return tuple((r["strategy"], r["total"]) for r in lab["rows"])
    return tuple(recorded_totals(key).items())


# ----------------------------------------------------------------------------- policy
def exact_is_cheap(state: GameState) -> bool:
    """Return True when the one-step strategies can score every probe exactly in time."""
    return state.space.size <= EXACT_HINT_CODES or scoring_work(state) <= EXACT_HINT_WORK


def bounded_guess(state: GameState, name: str, *,
                  optimal_seconds: float = HINT_OPTIMAL_SECONDS) -> tuple[Code, bool]:
    """Return (guess, approximate): the strategy's exact guess when that is cheap, else the
    guess it makes among a sample of the candidates (possible codes only), which is fast
    whatever the size of the game. The optimal guess is searched for at most
    `optimal_seconds`; raises `LimitExceededError` (in a player's words) when it is out of
    reach."""
    if name == "optimal":
        return find_strategy("optimal", time_limit=optimal_seconds).next_guess(state), False
    if name in ("consistent", "random", "genetic") or exact_is_cheap(state):
        return find_strategy(name).next_guess(state), False
    return sampled_guess(state, name), True


#: Sampled probes rescored exactly against every candidate before a sampled choice.
SHORTLIST = 8
#: Probes (one per symmetry class of the history, drawn at random when there are more)
#: scored against the sample, besides the sampled candidates themselves.
SAMPLED_PROBES = 1200


def part_score(sizes: np.ndarray, name: str) -> float:
    """A one-step strategy's score of a guess from its part sizes, lower is better: the
    largest part, the expected part size, minus the entropy in bits, minus the parts."""
    sizes = sizes[sizes > 0].astype(np.float64)
    n = sizes.sum()
    if name == "maxsize":
        return float(sizes.max())
    if name == "expsize":
        return float((sizes * sizes).sum() / n)
    if name == "entropy":
        q = sizes / n
        return float((q * np.log2(q)).sum())
    return -float(sizes.size)


def sampled_guess(state: GameState, name: str) -> Code:
    """Return the one-step strategy `name`'s choice in a position too big to score every
    probe: `HINT_SAMPLE` candidates are drawn; they and up to `SAMPLED_PROBES` probes (one
    per symmetry class of the history) are scored against the sample, and the `SHORTLIST`
    best are rescored against every candidate (against `HINT_RESCORE_CANDIDATES` drawn at
    random when there are more, as in MM(8,8)'s 16.8 million); the best of those is played.
    `keypeg.sampled_check` measures how close this comes to the exact choice."""
    space = state.space
    rng = np.random.default_rng(len(state.history))
    size = min(HINT_SAMPLE, state.count)
    sample = np.sort(rng.choice(state.candidates, size=size, replace=False))
    probes = canonical_probes(state)
    if probes.size > SAMPLED_PROBES:
        probes = rng.choice(probes, size=SAMPLED_PROBES, replace=False)
    probes = np.unique(np.concatenate([sample, probes]))
    rough = [part_score(space.part_sizes(int(g), sample), name) for g in probes.tolist()]
    short = probes[np.argsort(rough, kind="stable")[:SHORTLIST]]
    pool = state.candidates
    if pool.size > HINT_RESCORE_CANDIDATES:
        pool = np.sort(rng.choice(pool, size=HINT_RESCORE_CANDIDATES, replace=False))
    exact = [part_score(space.part_sizes(int(g), pool), name) for g in short.tolist()]
    return space.code(int(short[int(np.argmin(exact))]))


def cut(state: GameState, guess: str | Code | int) -> list[tuple[str, int]]:
    """Return how `guess` would cut the candidates: (answer, part size) for each non-empty
    part, in answer order."""
    space = state.space
    sizes = space.part_sizes(space.index(guess), state.candidates)
    return [(str(space.feedback(r)), int(n)) for r, n in enumerate(sizes) if n]


def largest_part(state: GameState, guess: int) -> int:
    """Return the size of the biggest part `guess` leaves among the candidates (remembered
    per state: strategies often agree, and in MM(8,8) each count reads 16.8 million codes)."""
    known: dict[int, int] = state.derived.setdefault("largest_parts", {})
    if guess not in known:
        known[guess] = int(np.max(state.space.part_sizes(guess, state.candidates)))
    return known[guess]


def strategy_hint(state: GameState, name: str, *,
                  optimal_seconds: float = HINT_OPTIMAL_SECONDS) -> tuple[StrategyHint, bool]:
    """Return one strategy's next guess with the largest part it leaves, and whether it
    was chosen among sampled candidates."""
    guess, approximate = bounded_guess(state, name, optimal_seconds=optimal_seconds)
    return StrategyHint(name, str(guess), largest_part(state, guess.index),
                        state.is_candidate(guess.index)), approximate


@dataclass(frozen=True)
class OptimalOutcome:
    """What the optimal search gave a hint: the optimal guess, or None with the reason in
    a player's words (`note`), the best guess found when it ran out of time (`found`), and
    whether it ran out of time (so a longer search might find it)."""

    optimal: StrategyHint | None = None
    note: str | None = None
    found: BestFound | None = None
    timed_out: bool = False


def optimal_hint(state: GameState, *, seconds: float = HINT_OPTIMAL_SECONDS) -> OptimalOutcome:
    """Return the optimal guess (from a stored tree, or a live search of at most `seconds`),
    or the reason there is none, with the best guess the search had found by then when it
    had found one (as the optimal guess when it had proven it so)."""
    try:
        return OptimalOutcome(strategy_hint(state, "optimal", optimal_seconds=seconds)[0])
    except TimeLimitError as exc:
        found = _best_found(state, exc)
        if found is None:
            return OptimalOutcome(note=str(exc), timed_out=True)
        if found.total == found.lower:  # proven: the tree was being written out
            return OptimalOutcome(StrategyHint("optimal", found.guess, found.largest_part,
                                               found.possible))
        return OptimalOutcome(note=_found_note(exc, found, exc.found_how or "in that time"),
                              found=found, timed_out=True)
    except LimitExceededError as exc:
        found = _best_found(state, exc)
        if found is None:
            return OptimalOutcome(note=str(exc))
        how = exc.found_how or "from the candidates alone"
        return OptimalOutcome(note=_found_note(exc, found, how), found=found)


def _found_note(exc: LimitExceededError, found: BestFound, how: str) -> str:
    return (f"{exc} The best guess found {how} is {found.guess}: with it the codes still "
            f"possible take {found.total / found.codes:.3f} more guesses on average; no "
            f"guess can do better than {found.lower / found.codes:.3f}.")


def _best_found(state: GameState, exc: LimitExceededError) -> BestFound | None:
    """Return the best guess an out-of-reach optimal guess came with (a stopped search's,
    or the candidates' own tree's: see `LimitExceededError`), or None."""
    if exc.best_guess is None or exc.best_total is None or exc.lower is None:
        return None
    return BestFound(state.space.text(exc.best_guess), largest_part(state, exc.best_guess),
                     state.is_candidate(exc.best_guess), exc.best_total, exc.lower,
                     state.count)


def hint(state: GameState, *, list_limit: int = HINT_LIST, strategies: bool = True,
         optimal_seconds: float = HINT_OPTIMAL_SECONDS) -> Hint:
    """Return the hint for `state`: count, bits, the candidates when few, each strategy's
    guess (strongest first, exact when cheap, else among sampled candidates), and the
    optimal guess when it can be found within `optimal_seconds`."""
    if not isinstance(state, GameState):  # (hint("classic") failed deep inside)
        raise KeypegError(f"hint takes a GameState, such as GameState.start('classic'), not "
                          f"{shown(state) if isinstance(state, str) else type(state).__name__}.")
    check_flag("strategies", strategies)
    check_max_seconds(optimal_seconds, "optimal_seconds")
    check_count("list_limit", list_limit, least=0)
    listed = state.candidate_texts() if state.count <= list_limit else None
    plain = state.belief.uniform and state.trusted
    extra: dict[str, Any] = {}
    if not plain:
        extra = {"likely": state.top(LIKELY_SHOWN), "doubts": state.doubts(),
                 "noise": str(state.noise)}
    if not strategies or state.solved:
        return Hint(state.count, state.bits, listed, solved=state.solved, **extra)
    if not plain:
        return _belief_hint(state, listed, optimal_seconds, extra)
    rows = []
    approximate = False
    for name in strength_order(state.rules):
        row, sampled = strategy_hint(state, name)
        rows.append(dataclasses.replace(row, sampled=sampled))
        approximate |= sampled
    if approximate:
        rows = _maxsize_takes_the_best_seen(rows)
    outcome = optimal_hint(state, seconds=optimal_seconds)
    text = None
    if approximate:
        text = (f"{plural(state.count, 'code')} still possible: too many to score every "
                f"one of the game's {state.space.size:,} codes as a guess, so each strategy "
                "chose among guesses picked at random (approximate); exact advice comes once "
                "fewer codes remain.")
    return Hint(state.count, state.bits, listed, rows, outcome.optimal, outcome.note,
                approximate, text, best_found=outcome.found,
                optimal_longer=outcome.timed_out, ranked=strength_ranked(state.rules))


def _maxsize_takes_the_best_seen(rows: list[StrategyHint]) -> list[StrategyHint]:
    """Sampled, maxsize may pick a guess whose largest part, counted exactly in its row, is
    bigger than another row's guess leaves (MM(8,8): 'try 12345421 (maxsize's guess; it
    leaves at most 2,326,316 codes)' beside entropy's 2,140,616): by its own measure it
    plays the best of the guesses it has seen, so it takes that one."""
    best = min(rows, key=lambda r: r.largest_part)
    return [StrategyHint(r.name, best.guess, best.largest_part, best.possible, r.chance,
                         r.sampled)
            if r.name == "maxsize" and best.largest_part < r.largest_part else r
            for r in rows]


# ----------------------------------------------------------------------------- beliefs
#: Most likely secrets listed in a hint under a prior or noise.
LIKELY_SHOWN = 10
def _belief_hint(state: GameState, listed: list[str] | None, optimal_seconds: float,
                 extra: dict[str, Any]) -> Hint:
    """The hint under a prior or noise: guesses by probability mass and information."""
    chosen, approximate = belief_choices(state)
    p = state.posterior
    rows = []
    for name, index in chosen.items():
        rows.append(dataclasses.replace(_belief_row(state, name, index, p), sampled=approximate))
    likeliest = int(state.candidates[int(np.lexsort((state.candidates, -p))[0])])
    rows.append(_belief_row(state, "likeliest", likeliest, p))
    outcome = OptimalOutcome(note=f"{TRUSTED_ONLY[:-1]}; with doubtful answers, information "
                             "gain leads.")
    if state.trusted:
        outcome = optimal_hint(state, seconds=optimal_seconds)
        if outcome.optimal is not None:  # (its chance too, as every other row has)
            best = outcome.optimal
            outcome = dataclasses.replace(outcome, optimal=_belief_row(
                state, best.name, state.space.index(best.guess), p))
    text = None
    if approximate:
        text = (f"{plural(state.count, 'code')} still possible: each score chose among "
                f"{HINT_SAMPLE} sampled guesses (approximate).")
    # (a longer search is offered for plain positions only: it runs without the belief)
    return Hint(state.count, state.bits, listed, rows, outcome.optimal, outcome.note,
                approximate, text, best_found=outcome.found, **extra)


def _belief_row(state: GameState, name: str, index: int, p: np.ndarray) -> StrategyHint:
    pos = int(np.searchsorted(state.candidates, index))
    possible = pos < state.count and int(state.candidates[pos]) == index
    return StrategyHint(name, state.space.text(index), largest_part(state, index), possible,
                        float(p[pos]) if possible else 0.0)
