"""Two-player matches (seed 004): an even number of games agreed at the start, the two
players taking turns as codebreaker and codemaker, points only for the codemaker.

Rules of a match, as keypeg plays it:

* **Roles.** Player A breaks in game 1 and makes the code in game 2, B the other way round,
  and so on; with an even number of games each player makes as many codes as they break.
* **The board.** A game ends when the code is broken or when the board's rows are used up:
  the rules' own number of guesses, or `BOARD_ROWS` (10) when the rules set none.
* **Scoring ``guesses``** (seed 004's): the codemaker scores one point per guess the
  codebreaker makes, plus one extra point when the code is not broken within the rows.
* **Scoring ``keypegs``** (seed 004's alternative): the codemaker scores one point per key
  peg placed: black and white pegs; in games with per-position answers every green and
  every amber mark counts as a key peg (a gray mark is no peg). A code not broken within
  the rows scores as a give-up, `Match.max_points` (rows x pegs), which no broken code
  scores more than: counting only the pegs placed, a codebreaker did best by never
  breaking the code (guessing colours known to be absent gives none), seed 004 saying
  nothing about it.
* **Giving up.** A codebreaker who gives up concedes the most a codemaker can score in one
  game (`Match.max_points`: the rows plus one, or in key-peg scoring rows x pegs).
* **Answers by hand.** A person who makes the code chooses a secret first (kept hidden) and
  then either lets keypeg answer every guess truly from it, or answers by hand. Each hand
  answer is checked against the earlier ones at once: when no code fits them all it is
  refused (`InconsistentHistoryError`, naming the answers it conflicts with and the answers
  it could have been). When the game ends the secret is revealed and every answer is
  recomputed from it; if one is wrong (the first is named) the game is a **forfeit**: the
  codemaker scores 0 and the codebreaker is awarded `max_points`. A forfeit is worse for
  the codemaker than any honest result of that game (honest play never lowers their lead;
  a forfeit lowers it by `max_points`), so a mistaken or dishonest answer can never win a
  match that honest answers would not have won.
* **The computer.** As codebreaker it plays a registered strategy (`find_strategy`)
  **symmetrised** by default (`SymmetrisedStrategy`): under a random relabelling of colours
  and positions drawn afresh each game, so its expected number of guesses is the same for
  every secret of a class and no codemaker can aim at its weak spots. Big games play the
  strategy as the hints do (`hints.bounded_guess`: among sampled candidates when scoring
  every probe would be slow; the optimal strategy falls back to entropy where it is out of
  reach). As codemaker it follows any spec of `find_codemaker` (uniform, game,
  against:STRATEGY, adaptive).

A `Match` is plain data plus the moves: `to_dict` / `from_dict` keep everything (secrets
and the seed too) for the store; `view()` is what a player may see (no secret before its
game is over). `save_match` / `load_match` keep matches in `keypeg.store` so a restart loses
nothing. Every choice of the computer is drawn from the match's seed, so a match resumed
after a restart plays on exactly as it would have; except that the optimal codebreaker
searches at most `LIVE_OPTIMAL_SECONDS` a guess and plays entropy's past it, which depends on
the machine's speed where a search takes that long (a review's finding, not met in play).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .codemakers import Codemaker, SecretCodemaker, SymmetrisedStrategy, find_codemaker
from .codes import Code
from .errors import InconsistentHistoryError, KeypegError, LimitExceededError
from .feedback import Feedback, score
from .game import GameState, diagnose
from .limits import (
    LIVE_OPTIMAL_SECONDS,
    MAX_GUESSES_PER_GAME,
    check_seed,
    plural,
    shorten,
    some_of,
)
from .rules import Rules, rules_name
from .space import CodeSpace, get_space
from .store import Store
from .strategy import Strategy

#: Board rows of a match whose rules set no number of guesses.
BOARD_ROWS = 10
#: Most rows a match's board may have (a game is a few dozen rows at most).
MAX_ROWS = MAX_GUESSES_PER_GAME
#: Most games one match may have.
MAX_GAMES = 50
SCORINGS = ("guesses", "keypegs")
#: How a person who makes the code answers: keypeg from the secret, or by hand.
ANSWERING = ("auto", "hand")
SIDES = ("A", "B")
DEFAULT_STRATEGY = "entropy"
DEFAULT_CODEMAKER = "uniform"
PERSON, COMPUTER = "person", "computer"
#: The word a person types for a secret keypeg draws for them.
RANDOM_SECRET = "random"


class MatchStateError(KeypegError):
    """Raised for a move the match is not waiting for (a guess while an answer is due, any
    move once the match is over)."""


# ----------------------------------------------------------------------------- players
@dataclass(frozen=True)
class Player:
    """One side of a match: a person, or the computer with the strategy it breaks codes
    with (symmetrised unless `symmetrise` is False) and the codemaker it makes them with."""

    name: str
    kind: str = PERSON
    strategy: str = DEFAULT_STRATEGY
    codemaker: str = DEFAULT_CODEMAKER
    symmetrise: bool = True

    @classmethod
    def person(cls, name: str = "you") -> Player:
        return cls(str(name), PERSON)

    @classmethod
    def computer(cls, strategy: str = DEFAULT_STRATEGY, codemaker: str = DEFAULT_CODEMAKER,
                 *, name: str = "keypeg", symmetrise: bool = True) -> Player:
        return cls(str(name), COMPUTER, strategy, codemaker, bool(symmetrise))

    @property
    def is_computer(self) -> bool:
        return self.kind == COMPUTER

    def describe(self) -> str:
        """'you', or 'keypeg (entropy, symmetrised; codes: uniform)'."""
        if not self.is_computer:
            return self.name
        how = "symmetrised" if self.symmetrise else "not symmetrised"
        return f"{self.name} ({self.strategy}, {how}; codes: {self.codemaker})"

    def to_dict(self) -> dict[str, Any]:
        if not self.is_computer:
            return {"name": self.name, "kind": PERSON}
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Player:
        return cls(**data)


def _canonical_player(player: Player, space: CodeSpace) -> Player:
    """Return `player` with its names checked and written canonically (aliases resolved);
    raises `KeypegError` for an unknown strategy or codemaker."""
    name = str(player.name).strip()
    if not name or len(name) > 40:
        raise KeypegError(f"a player's name must have 1 to 40 characters, not "
                          f"{len(name)}.")
    if player.kind not in (PERSON, COMPUTER):
        raise KeypegError(f"a player is a person or the computer, not "
                          f"{shorten(player.kind)!r}.")
    if player.kind == PERSON:
        return Player(name, PERSON)
    from .strategies import find_strategy

    strategy = find_strategy(player.strategy).name
    spec = str(player.codemaker).strip().lower()
    kind, _, arg = spec.partition(":")
    if kind == "against" and arg:
        spec = f"against:{find_strategy(arg).name}"
    _codemaker(spec, space, 0)  # checks the spec (and that the game value exists)
    return Player(name, COMPUTER, strategy, spec, bool(player.symmetrise))


def _codemaker(spec: str, space: CodeSpace, seed: int) -> Codemaker:
    """Return the codemaker `spec`; the game mixture needs the stored game value."""
    try:
        return find_codemaker(spec, space, seed)
    except ImportError:  # keypeg.value is not there
        raise KeypegError(
            f"the game codemaker needs the game value of {rules_name(space.rules)}, which "
            "this keypeg cannot compute; choose uniform, adaptive or against:STRATEGY."
        ) from None


class _Bounded(Strategy):
    """A registered strategy played as the hints play it: exact while that is cheap, else
    among sampled candidates; optimal falls back to entropy where it is out of reach."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.seed = seed

    def choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int:
        raise KeypegError("a match's codebreaker plays games (next_guess), not trees.")

    def next_guess(self, state: GameState) -> Code:
        from .hints import bounded_guess
        from .strategies import find_strategy

        if state.count == 1:
            return state.space.code(int(state.candidates[0]))
        if self.name == "random":
            return find_strategy("random", seed=self.seed).next_guess(state)
        try:
            return bounded_guess(state, self.name, optimal_seconds=LIVE_OPTIMAL_SECONDS)[0]
        except LimitExceededError:
            return bounded_guess(state, "entropy")[0]


# ----------------------------------------------------------------------------- games
@dataclass
class MatchGame:
    """One game of a match: who breaks and who makes the code, the secret (None until the
    codemaker chose it; an adaptive codemaker chooses it only at the end), how the guesses
    are answered ("auto": from the secret, "hand": by the person, "computer": by an
    adaptive codemaker), the [guess, answer] pairs, a guess waiting for a hand answer, and
    how it ended."""

    number: int
    breaker: str
    maker: str
    secret: str | None = None
    answering: str | None = None
    history: list[list[str]] = field(default_factory=list)
    pending: str | None = None
    over: bool = False
    solved: bool = False
    gave_up: bool = False
    forfeit: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchGame:
        return cls(**data)


def _rules_dict(rules: Rules) -> dict[str, Any]:
    return {"pegs": rules.pegs, "colors": rules.colors, "repeats": rules.repeats,
            "feedback": rules.feedback, "blanks": rules.blanks,
            "max_guesses": rules.max_guesses, "digits": rules.digits,
            "name": rules.name}


class Match:
    """A match between players A and B (`Player`), `games` games (a positive even number),
    scored by `scoring` ("guesses" or "keypegs"). Every choice of the computer is drawn
    from `seed` (None: a random one, kept secret).

    The match moves by itself as far as it can: a computer codemaker chooses its secret,
    a computer codebreaker plays its guesses, a computer codemaker answers them. It stops
    where a person must act (`phase` and `to_move` say which move), or at its end. The
    moves are `choose_secret`, `guess`, `answer` and `give_up`; each raises
    `KeypegError` for bad input and `MatchStateError` for a move out of turn.
    """

    def __init__(self, rules: Rules, games: int, players: Sequence[Player], *,
                 scoring: str = "guesses", seed: int | None = None,
                 _restore: bool = False) -> None:
        if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
            raise KeypegError(f"a match has a positive even number of games (2, 4, 6, ...), "
                              f"not {shorten(games)}.")
        if games > MAX_GAMES:
            raise KeypegError(f"a match has at most {MAX_GAMES} games, not {games}.")
        if scoring not in SCORINGS:
            raise KeypegError(f"scoring is guesses or keypegs, not {shorten(scoring)!r}.")
        if len(players) != 2:
            raise KeypegError(f"a match has two players, not {len(players)}.")
        check_seed(seed, "seed")
        self.rules = rules
        self.rows = rules.max_guesses or BOARD_ROWS
        if self.rows > MAX_ROWS:
            raise KeypegError(f"a match's board has at most {MAX_ROWS} rows, not "
                              f"{self.rows}.")
        self.space = get_space(rules)
        self.n_games = games
        self.scoring = scoring
        if _restore:
            self.players = dict(zip(SIDES, players, strict=True))
        else:
            self.players = {side: _canonical_player(p, self.space)
                            for side, p in zip(SIDES, players, strict=True)}
        self.seeded = seed is not None
        self.seed = seed if seed is not None else secrets.randbits(63)
        self.games: list[MatchGame] = []
        #: The store's id and version of this match (set by save_match / load_match).
        self.id: str | None = None
        self.version = 0
        if not _restore:
            self.advance()

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict[str, Any]:
        """Everything about the match, secrets and seed included (for the store)."""
        return {"format": 1, "rules": _rules_dict(self.rules), "games": self.n_games,
                "scoring": self.scoring, "seed": self.seed, "seeded": self.seeded,
                "players": {s: p.to_dict() for s, p in self.players.items()},
                "played": [g.to_dict() for g in self.games]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        rules = Rules(**data["rules"])
        players = [Player.from_dict(data["players"][s]) for s in SIDES]
        match = cls(rules, data["games"], players, scoring=data["scoring"],
                    seed=data["seed"], _restore=True)
        match.seeded = bool(data.get("seeded", False))
        match.games = [MatchGame.from_dict(g) for g in data["played"]]
        return match

    # ------------------------------------------------------------------ where it stands
    @property
    def current(self) -> MatchGame | None:
        """The game being played, or None between games and at the end."""
        if self.games and not self.games[-1].over:
            return self.games[-1]
        return None

    @property
    def over(self) -> bool:
        return len(self.games) == self.n_games and all(g.over for g in self.games)

    @property
    def phase(self) -> str:
        """What the match waits for: "secret" (the codemaker chooses one), "guess",
        "answer" (a guess waits for a hand answer), or "over"."""
        g = self.current
        if g is None:
            return "over" if self.over else "guess"
        if g.secret is None and g.answering is None:
            return "secret"
        return "answer" if g.pending is not None else "guess"

    @property
    def to_move(self) -> str | None:
        """The side that moves next ("A" or "B"), None once the match is over."""
        g = self.current
        if g is None:
            return None
        return g.maker if self.phase in ("secret", "answer") else g.breaker

    @property
    def max_points(self) -> int:
        """The most a codemaker can score in one game: rows + 1 (guesses) or rows x pegs
        (key pegs). A codebreaker who gives up concedes it; a forfeit awards it to the
        codebreaker."""
        return self.rows + 1 if self.scoring == "guesses" else self.rows * self.rules.pegs

    def points(self, game: MatchGame) -> dict[str, int]:
        """The points each side scored in `game` (0 each until it is over)."""
        out = {side: 0 for side in SIDES}
        if not game.over:
            return out
        if game.forfeit is not None:
            out[game.breaker] = self.max_points
        elif game.gave_up:
            out[game.maker] = self.max_points
        elif self.scoring == "guesses":
            out[game.maker] = len(game.history) + (0 if game.solved else 1)
        elif not game.solved:  # (rows x pegs: as many as a broken code can score)
            out[game.maker] = self.max_points
        else:
            out[game.maker] = sum(_key_pegs(Feedback.parse(f, self.rules))
                                  for _, f in game.history)
        return out

    @property
    def scores(self) -> dict[str, int]:
        """Each side's points so far."""
        total = {side: 0 for side in SIDES}
        for g in self.games:
            for side, n in self.points(g).items():
                total[side] += n
        return total

    @property
    def winner(self) -> str | None:
        """"A" or "B" once the match is over and one has more points (None: a draw, or not
        over yet)."""
        if not self.over:
            return None
        s = self.scores
        return None if s["A"] == s["B"] else max(SIDES, key=s.__getitem__)

    def result_text(self) -> str:
        """'you 9, keypeg 7: you win the match.' (or a draw, or the score so far)."""
        s = self.scores
        names = {side: self.players[side].name for side in SIDES}
        text = f"{names['A']} {s['A']}, {names['B']} {s['B']}"
        if not self.over:
            return f"{text} after {plural(sum(g.over for g in self.games), 'game')}."
        w = self.winner
        return f"{text}: " + (f"{names[w]} {_verb(names[w], 'wins')} the match." if w
                              else "a draw.")

    def state(self, game: MatchGame) -> GameState:
        """The position of `game` (its answers as clues)."""
        return GameState.from_clues(self.space, [f"{g}={f}" for g, f in game.history])

    # ------------------------------------------------------------------ the moves
    def _expect(self, phase: str) -> MatchGame:
        if self.over:
            raise MatchStateError("the match is over; start a new one.")
        g = self.current
        now = self.phase
        if g is None or now != phase:
            who = self.players[self.to_move or "A"].name
            waiting = {"secret": f"{who} to choose the secret",
                       "guess": f"a guess from {who}",
                       "answer": f"{who}'s answer to {g.pending if g else 'the guess'}"}[now]
            raise MatchStateError(f"game {len(self.games)} is waiting for {waiting}, not "
                                  f"for {'an' if phase == 'answer' else 'a'} {phase}.")
        side = g.maker if phase in ("secret", "answer") else g.breaker
        if self.players[side].is_computer:
            raise MatchStateError(f"the computer makes that move in game {g.number}.")
        return g

    def choose_secret(self, secret: str, answering: str = "auto") -> None:
        """The person making the code chooses `secret` ("random": keypeg draws one) and how
        guesses are answered: "auto" (keypeg answers truly from the secret) or "hand"."""
        g = self._expect("secret")
        if answering not in ANSWERING:
            raise KeypegError(f"answering is auto (keypeg answers from the secret) or hand, "
                              f"not {shorten(answering)!r}.")
        if str(secret).strip().lower() == RANDOM_SECRET:
            rng = np.random.default_rng(self._seed(g.number, 2))
            code = self.space.code(int(rng.integers(self.space.size)))
        else:
            code = Code.parse(secret, self.rules)
        g.secret, g.answering = str(code), answering
        self.advance()

    def guess(self, text: str) -> None:
        """The person breaking the code plays `text`; answered at once unless the codemaker
        answers by hand."""
        g = self._expect("guess")
        code = Code.parse(text, self.rules)
        again = self.state(g).replayed(code)  # (it would cost a row and a point for nothing)
        if again is not None:
            raise KeypegError(again)
        self._play(g, code)
        self.advance()

    def answer(self, text: str) -> None:
        """The person making the code answers the pending guess by hand. Raises
        `InconsistentHistoryError` (naming the answers it conflicts with) when no code fits
        it and the earlier answers; the answer is then not recorded."""
        g = self._expect("answer")
        assert g.pending is not None
        fb = Feedback.parse(text, self.rules)
        guess = Code.parse(g.pending, self.rules)
        state = self.state(g)
        possible = self.space.part_sizes(guess.index, state.candidates)
        if not possible[self.space.response_index(fb)]:
            raise _refusal(self.space, g, guess, fb, possible)
        g.pending = None
        self._record(g, guess, fb)
        self.advance()

    def give_up(self) -> None:
        """The person breaking the code gives up: the codemaker scores `max_points`."""
        g = self._expect("guess")
        g.gave_up = True
        self._finish(g)
        self.advance()

    # ------------------------------------------------------------------ the computer
    def advance(self) -> None:
        """Make every move that is the computer's, start the next game when one ends, and
        stop where a person must move (or at the end)."""
        while not self.over:
            g = self.current
            if g is None:
                n = len(self.games) + 1
                g = MatchGame(n, SIDES[(n - 1) % 2], SIDES[n % 2])
                self.games.append(g)
            maker, breaker = self.players[g.maker], self.players[g.breaker]
            phase = self.phase
            if phase == "secret" and maker.is_computer:
                cm = self._computer_maker(g)
                if isinstance(cm, SecretCodemaker):
                    g.secret, g.answering = str(cm.secret), "auto"
                else:
                    g.answering = "computer"
            elif phase == "guess" and breaker.is_computer:
                self._play(g, self._computer_guess(g))
            else:
                return

    def _seed(self, game: int, purpose: int, turn: int = 0) -> int:
        """A seed for one choice of the computer, drawn from the match's seed."""
        state = np.random.SeedSequence([self.seed, game, purpose, turn]).generate_state(2)
        return int((int(state[0]) << 31) ^ int(state[1])) % 2**63

    def _computer_maker(self, g: MatchGame) -> Codemaker:
        return _codemaker(self.players[g.maker].codemaker, self.space, self._seed(g.number, 1))

    def _computer_guess(self, g: MatchGame) -> Code:
        player = self.players[g.breaker]
        inner = _Bounded(player.strategy, self._seed(g.number, 4, len(g.history)))
        state = self.state(g)
        if not player.symmetrise:
            return inner.next_guess(state)
        symmetrised = SymmetrisedStrategy(inner, self._seed(g.number, 3))
        symmetrised.new_game(self.rules)
        return symmetrised.next_guess(state)

    def _play(self, g: MatchGame, guess: Code) -> None:
        """A guess is played: answered from the secret, by the computer, or left pending."""
        if g.answering == "hand":
            g.pending = str(guess)
            return
        if g.answering == "computer":
            fb = self._computer_maker(g).answer(self.state(g), guess)
        else:
            assert g.secret is not None
            fb = score(Code.parse(g.secret, self.rules).symbols, guess.symbols, self.rules)
        self._record(g, guess, fb)

    def _record(self, g: MatchGame, guess: Code, fb: Feedback) -> None:
        g.history.append([str(guess), str(fb)])
        if fb.is_win(self.rules):
            g.solved = True
        if g.solved or len(g.history) >= self.rows:
            self._finish(g)

    def _finish(self, g: MatchGame) -> None:
        """End a game: an adaptive codemaker reveals a code that fits its answers; hand
        answers are recomputed from the secret, and the first wrong one makes the game a
        forfeit."""
        g.over = True
        g.pending = None
        if g.secret is None:
            g.secret = str(self._computer_maker(g).reveal(self.state(g)))
        if g.answering == "hand":
            secret = Code.parse(g.secret, self.rules)
            for i, (guess, given) in enumerate(g.history):
                true = str(score(secret.symbols, Code.parse(guess, self.rules).symbols,
                                 self.rules))
                if true != given:
                    g.forfeit = {"answer": i + 1, "guess": guess, "given": given,
                                 "true": true}
                    g.solved = False
                    break

    # ------------------------------------------------------------------ what players see
    def game_view(self, g: MatchGame) -> dict[str, Any]:
        """A game as a player may see it: the secret only once it is over."""
        out = {"number": g.number, "breaker": g.breaker, "maker": g.maker,
               "answering": g.answering, "history": [list(h) for h in g.history],
               "pending": g.pending, "over": g.over, "solved": g.solved,
               "gave_up": g.gave_up, "forfeit": g.forfeit, "points": self.points(g),
               "secret": g.secret if g.over else None}
        return out

    def view(self) -> dict[str, Any]:
        """The match as a player may see it (no secret of a game in play, no seed)."""
        g = self.current
        return {"id": self.id, "rules": rules_name(self.rules), "games": self.n_games,
                "rows": self.rows, "scoring": self.scoring, "seeded": self.seeded,
                "max_points": self.max_points,
                "players": {s: p.to_dict() for s, p in self.players.items()},
                "played": [self.game_view(x) for x in self.games],
                "current": g.number if g else None, "phase": self.phase,
                "to_move": self.to_move, "scores": self.scores, "over": self.over,
                "winner": self.winner, "result": self.result_text()}

    def outcome_text(self, g: MatchGame) -> str:
        """One sentence on how a finished game ended and who scored what."""
        names = {side: self.players[side].name for side in SIDES}
        pts = self.points(g)
        breaker, maker = names[g.breaker], names[g.maker]
        if g.forfeit is not None:
            f = g.forfeit
            return (f"answer {f['answer']} was wrong ({f['guess']} against the secret "
                    f"{g.secret} gets {f['true']}, not {f['given']}), so game {g.number} is "
                    f"a forfeit: {maker} {_verb(maker, 'scores')} 0 and {breaker} "
                    f"{pts[g.breaker]}.")
        if g.gave_up:
            how = f"{breaker} gave up after {plural(len(g.history), 'guess', 'guesses')}"
        elif g.solved:
            how = f"{breaker} broke the code in {plural(len(g.history), 'guess', 'guesses')}"
        else:
            how = f"{breaker} did not break the code in {plural(self.rows, 'row')}"
        return (f"game {g.number}: {how} (the secret was {g.secret}); {maker} "
                f"{_verb(maker, 'scores')} {plural(pts[g.maker], 'point')}.")


def _verb(name: str, verb: str) -> str:
    """'keypeg scores', 'you score'."""
    return verb[:-1] if name.strip().lower() == "you" else verb


def _key_pegs(fb: Feedback) -> int:
    """Key pegs placed for an answer: blacks and whites, or greens and ambers."""
    return fb.black + fb.white


def _refusal(space: CodeSpace, g: MatchGame, guess: Code, fb: Feedback,
             possible: np.ndarray) -> InconsistentHistoryError:
    """The error for a hand answer no code fits together with the earlier answers."""
    from .game import Clue

    n = len(g.history) + 1
    clues = [Clue.make(a, b, space.rules) for a, b in g.history] + [Clue(guess, fb)]
    found = diagnose(space, clues)
    conflict = found.conflict if found is not None else tuple(range(n))
    others = [i for i in conflict if i != n - 1]
    options = [str(space.feedback(int(r))) for r in np.flatnonzero(possible)]
    shown = some_of(options, 8)
    if others:
        with_ = " and ".join(f"answer {i + 1} ({clues[i]})" for i in others[:4])
        why = f"no code fits it together with {with_}"
    else:
        why = "no code can get it"
    return InconsistentHistoryError(
        f"answer {n} ({guess}={fb}) is refused: {why}; after the earlier answers "
        f"{guess} can get {shown}.",
        conflict=tuple(conflict), suspects=(n - 1,), corrections={n - 1: tuple(options)})


# ----------------------------------------------------------------------------- the store
def save_match(store: Store, match: Match) -> str:
    """Store `match` (a new one gets an id; a stored one is saved only if nobody saved it
    meanwhile, else `MatchStateError`); return its id."""
    data = match.to_dict()
    if match.id is None:
        match.id = secrets.token_urlsafe(16)
        store.create_match(match.id, data, over=match.over)
        match.version = 0
        return match.id
    if not store.update_match(match.id, data, over=match.over, version=match.version):
        raise MatchStateError("the match was changed meanwhile (in another window?); "
                              "reload it and play on.")
    match.version += 1
    return match.id


def load_match(store: Store, match_id: str) -> Match | None:
    """Return the stored match `match_id`, or None."""
    row = store.get_match(match_id)
    if row is None:
        return None
    match = Match.from_dict(row["state"])
    match.id, match.version = match_id, row["version"]
    return match
