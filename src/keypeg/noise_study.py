"""The noise study (seed 003, section 8): how players fare when the answering side
misreports answers.

Each game draws a secret; the answering side reports every answer truly, except that with
probability EPS it reports another answer the rules allow, uniformly (a win is always
reported truly). Three players face the same secrets, and the same random draws decide
their misreports (so they get the same misreports while their true answers agree):

* ``filtering``: trusts every clue (keypeg's exact entropy strategy); a misreport that
  leaves no code consistent ends its game unsolved;
* ``lies:1``: keeps every code that contradicts at most one clue, and plays the
  information-gain guess among them;
* ``bayes``: the Bayesian player with the matching noise model (symmetric:EPS), playing
  the information-gain guess.

A game counts as solved when the secret is guessed within the board's rows. Choices are
cached by position, so games that share a history share its work. Run it as
``python -m keypeg.noise_study [RULES] [GAMES] [--eps E,E,...] [--seed N] [--json]`` (noise
levels 0, 0.01, 0.05 and 0.1, seed 2026 by default; --json prints the rows as JSON).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, TextIO

import numpy as np

from .bayes import belief_choices
from .belief import Symmetric, misreport
from .errors import InconsistentHistoryError, KeypegError
from .game import GameState
from .limits import check_seed, shorten
from .onestep import OneStepStrategy
from .rules import Rules, find_rules, rules_name
from .space import CodeSpace, get_space
from .studyargs import SentenceParser

PLAYERS = ("filtering", "lies:1", "bayes")
EPSILONS = (0.0, 0.01, 0.05, 0.10)


@dataclass
class StudyRow:
    """How one player fared at one noise level."""

    player: str
    eps: float
    games: int
    solved: int
    mean_guesses: float  # over the solved games

    @property
    def share(self) -> float:
        return self.solved / self.games


class Player:
    """A player with a cache of its choices by position (history of guess and answer)."""

    def __init__(self, space: CodeSpace, name: str, eps: float) -> None:
        self.space = space
        self.name = name
        self.noise = "exact" if name == "filtering" else (
            "lies:1" if name == "lies:1" else ("exact" if eps == 0 else f"symmetric:{eps}"))
        self.start = GameState.start(space, noise=self.noise)
        self.cache: dict[tuple[tuple[int, int], ...], int] = {}
        self.entropy = OneStepStrategy("entropy")

    def choose(self, state: GameState, key: tuple[tuple[int, int], ...]) -> int:
        if key not in self.cache:
            if state.count == 1:
                g = int(state.candidates[0])
            elif self.name == "filtering":
                g = self.entropy.next_guess(state).index
            else:
                g = belief_choices(state, ["information"])[0]["information"]
            self.cache[key] = g
        return self.cache[key]


def play(player: Player, secret: int, rows: int, eps: float, rng: np.random.Generator
         ) -> int | None:
    """Return the guesses `player` needs (None: not solved within `rows`)."""
    space = player.space
    state = player.start
    key: tuple[tuple[int, int], ...] = ()
    answers = Symmetric(eps)
    for turn in range(1, rows + 1):
        g = player.choose(state, key)
        if g == secret:
            return turn
        true = int(space.responses(g, np.array([secret], dtype=np.int32))[0])
        r = misreport(space, answers, true, rng) if eps > 0 else true
        try:
            state = state.after(space.code(g), space.feedback(r))
        except InconsistentHistoryError:
            return None  # no code fits: this player is stuck
        key = (*key, (g, r))
    return None


def noise_study(rules: Rules, games: int = 1000, *, eps_values: tuple[float, ...] = EPSILONS,
                seed: int = 2026, progress: Callable[[int, int], None] | None = None
                ) -> dict[str, Any]:
    """Return the study's rows for `rules`: each player at each noise level, over `games`
    secrets drawn with `seed` (the same secrets for every player, and the same random
    draws for their misreports).
    `progress(done, total)`, when given, is called after each game played (every player at
    every noise level counts). Raises `KeypegError` unless `games` is a whole number >= 1."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise KeypegError(f"the number of games must be a whole number >= 1, not "
                          f"{shorten(repr(games))}.")
    games = int(games)
    space = get_space(rules)
    if space.fits_table:
        space.table()  # slices of the full table are faster than answers computed anew
    rows = rules.max_guesses or 10
    secrets = np.random.default_rng(seed).integers(space.size, size=games)
    started = time.perf_counter()
    total = len(eps_values) * len(PLAYERS) * games
    done = 0
    out = []
    for eps in eps_values:
        for name in PLAYERS:
            player = Player(space, name, eps)
            counts = []
            for i, secret in enumerate(secrets.tolist()):
                rng = np.random.default_rng([seed, i, int(eps * 1e6)])
                counts.append(play(player, secret, rows, eps, rng))
                done += 1
                if progress is not None:
                    progress(done, total)
            solved = [c for c in counts if c is not None]
            out.append(StudyRow(name, eps, games, len(solved),
                                round(sum(solved) / len(solved), 4) if solved else 0.0))
    return {"rules": rules_name(rules), "rows_allowed": rows, "games": games, "seed": seed,
            "seconds": round(time.perf_counter() - started, 1),
            "results": [asdict(r) for r in out]}


USAGE = "python -m keypeg.noise_study [RULES] [GAMES] [--eps E,E,...] [--seed N] [--json]"
#: Seconds between progress reports on stderr: on a terminal (one line, redrawn), else
#: (a line each).
PROGRESS_EVERY = (0.25, 5.0)


class _Progress:
    """Report games done on stderr, at most every `PROGRESS_EVERY` seconds."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.every = PROGRESS_EVERY[0] if self.tty else PROGRESS_EVERY[1]
        self.last = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last < self.every and done < total:
            return
        if done == total and not self.shown:
            return  # (quick: nothing was shown, nothing to finish)
        self.last = now
        self.shown = True
        text = f"noise study: {done:,} of {total:,} games played ({done / total:.0%})"
        if self.tty:
            self.stream.write("\r" + text + ("\n" if done == total else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def _whole(text: str) -> int | str:
    """--seed's text as a whole number when it is one (else as given, for check_seed)."""
    try:
        return int(text)
    except ValueError:
        return text


def _games(text: str) -> int:
    """Return GAMES as a whole number >= 1; raise `KeypegError` in one sentence."""
    try:
        games = int(text)
    except ValueError:
        games = 0
    if games < 1:
        raise KeypegError(f"GAMES must be a whole number >= 1, like 1000, not "
                          f"{shorten(repr(text))}.")
    return games


def _eps_values(text: str) -> tuple[float, ...]:
    """Return --eps's noise levels (comma-separated, each from 0 to below 1)."""
    values = []
    for word in text.split(","):
        try:
            eps = float(word)
        except ValueError:
            eps = -1.0
        if not 0 <= eps < 1:  # (nan fails too)
            raise KeypegError(f"--eps takes noise levels from 0 to below 1, comma-separated "
                              f"like 0,0.05,0.2, not {shorten(repr(text))}.")
        values.append(eps)
    return tuple(values)


def _parser() -> SentenceParser:
    parser = SentenceParser(prog="python -m keypeg.noise_study", add_help=False,
                            allow_abbrev=False)
    parser.add_argument("rules", nargs="?", default="classic")
    parser.add_argument("games", nargs="?", default="1000")
    parser.add_argument("--eps")
    parser.add_argument("--seed", default="2026")
    parser.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str]) -> int:
    """Run the study from the command line; return the exit status (2: bad arguments,
    said in one sentence on stderr)."""
    if argv[:1] in (["-h"], ["--help"]):
        print(f"usage: {USAGE}\n\n{__doc__.strip()}")
        return 0
    try:
        try:
            args, extra = _parser().parse_known_args(argv)
        except KeypegError as exc:
            raise KeypegError(f"{exc}; run {USAGE}.") from None
        if extra and extra[0].startswith("-") and not extra[0][1:2].isdigit():
            raise KeypegError(f"unknown option {shorten(repr(extra[0]))}; run {USAGE}.")
        if extra:
            raise KeypegError(f"the noise study takes at most RULES and GAMES, not "
                              f"{2 + len(extra)} arguments; run {USAGE}.")
        rules = find_rules(args.rules)
        games = _games(args.games)
        eps_values = EPSILONS if args.eps is None else _eps_values(args.eps)
        seed = _whole(args.seed)
        check_seed(seed, "--seed")  # type: ignore[arg-type]
        assert isinstance(seed, int)
    except KeypegError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result = noise_study(rules, games, eps_values=eps_values, seed=seed,
                         progress=_Progress(sys.stderr))
    if args.json:  # (a study's export: the tables alone had to be parsed)
        print(json.dumps(result))
        return 0
    rows = ("rows" if rules.max_guesses else "rows (the rules have no board: 10 "
            "taken)")
    print(f"{result['rules']}: {games} secrets, {result['rows_allowed']} {rows}, "
          f"{result['seconds']} s")
    width = max(len(f"{r['eps']:g}") for r in result["results"])
    for r in result["results"]:
        # (each level as given: 0.005 and 0.01 had both been printed 'eps 0.01'; the mean is
        # over the games solved, as the README says)
        print(f"  eps {r['eps']:<{width}g}  {r['player']:<10} solved "
              f"{r['solved'] / r['games']:6.1%}  mean of solved {r['mean_guesses']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
