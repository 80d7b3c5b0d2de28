"""What the web API does, without HTTP: games, hints, cuts, the strategy lab, two-player
matches (`keypeg.match`) and the game value (`keypeg.value`).

Kept apart from the FastAPI routes so it can be tested and timed on its own. Every
function raises `KeypegError` subclasses for bad input; the app turns them into 4xx.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bayes import BELIEF_SCORES, BeliefStrategy
from ..belief import (
    Exact,
    Lies,
    NoiseModel,
    PerPeg,
    Symmetric,
    draw_secret,
    likelihood,
    misreport,
    noise_caution,
    parse_noise,
    prior_weights,
)
from ..catalog import ALIASES, STRATEGY_NAMES
from ..codes import BLANK, COLOR_LETTERS, COLOR_NAMES, Code, alphabet_text
from ..errors import KeypegError, LimitExceededError
from ..explorer import (
    EXPLORER_STRATEGIES,
    TreeIndex,
    explorer_strategy,
    explorer_tree,
    tree_offered,
)
from ..feedback import NOTATION, Feedback, score
from ..game import Clue, GameState
from ..hints import bounded_guess, cut, hint, optimal_hint
from ..labs import lab
from ..limits import (
    CACHED_POSITIONS,
    EXACT_HINT_CODES,
    EXACT_HINT_WORK,
    EXPLORER_TREES,
    LIVE_OPTIMAL_SECONDS,
    LIVE_VALUE_CODES,
    LIVE_VALUE_SECONDS,
    LONG_OPTIMAL_SECONDS,
    MAX_CLUES,
    check_seed,
    plural,
    shorten,
)
from ..match import Match, MatchGame, MatchStateError, Player, load_match, save_match
from ..rules import PRESETS, Rules, feedback_terms, find_rules, rules_name
from ..space import get_space
from ..store import Store
from ..strategies import known_names


class GameNotFound(KeypegError):
    """Raised for an unknown game id."""


def _not_found(game_id: str) -> GameNotFound:
    return GameNotFound(f"no game with id {shorten(game_id)!r}; start one with POST /api/games.")


class ServerBusy(KeypegError):
    """Raised when a long search is asked for while another one runs (HTTP 429)."""


class GameOver(KeypegError):
    """Raised for a guess in a game that is over."""


class MatchNotFound(KeypegError):
    """Raised for an unknown match id."""


def _match_not_found(match_id: str) -> MatchNotFound:
    return MatchNotFound(f"no match with id {shorten(match_id)!r}; start one with POST "
                         "/api/matches.")


#: How the two sides of a match are played: a person against the computer, or two people
#: taking turns on one screen.
MATCH_PLAYERS = ("computer", "people")
#: The players' names when none are given.
DEFAULT_NAMES = {"computer": ("you", "keypeg"), "people": ("player A", "player B")}


# ----------------------------------------------------------------------------- beliefs
#: The priors the web API takes (a file: prior would read files on the server).
WEB_PRIORS = "uniform or pin (pin:NAME=WEIGHT,...)"
#: Prior weights kept per process (a pin prior over 100,000 codes takes half a second).
CACHED_PRIORS = 16


@dataclass(frozen=True)
class WebBelief:
    """A prior over the secrets and a noise model for the answers, as the web API takes
    them: `prior` is the prior's canonical text (None: uniform), `noise` the model (None:
    exact). Equal beliefs give equal positions and hints."""

    prior: str | None = None
    noise: NoiseModel | None = None

    @property
    def plain(self) -> bool:
        """True for a uniform prior and trusted answers (plain filtering)."""
        return self.prior is None and self.noise is None

    @property
    def key(self) -> tuple[str | None, NoiseModel | None]:
        return (self.prior, self.noise)

    @property
    def prior_text(self) -> str:
        return self.prior or "uniform"

    def caution(self, rules: Rules) -> str | None:
        """The sentence of warning for a noise rate past the usual (as `play` and `assist`
        say it), or None."""
        if self.noise is None:
            return None
        text = noise_caution(self.noise, get_space(rules))
        return None if text is None else text[0].upper() + text[1:]

    @property
    def noise_text(self) -> str:
        """The noise as the API writes it: parsing it back gives the same model."""
        model = self.noise
        if isinstance(model, Symmetric):
            return f"symmetric:{model.eps!r}"
        if isinstance(model, PerPeg):
            return f"per-peg:{model.eps!r}"
        if isinstance(model, Lies):
            return f"lies:{model.k}"
        return "exact"


PLAIN = WebBelief()


def web_prior(text: str | None) -> str | None:
    """Return the canonical text of a prior the web API takes (None for uniform); raises
    `KeypegError` for a file: prior (it would read the server's files) or an unknown one.
    A pin prior's options are checked when its weights are computed."""
    if text is None:
        return None
    name, colon, arg = text.strip().partition(":")
    name = name.strip().lower()
    if name == "uniform" and not arg.strip():
        return None
    if name == "file":
        raise KeypegError("a file: prior would read a file on the server, so the web API "
                          f"does not take it; use {WEB_PRIORS}.")
    if name == "pin":
        return f"pin:{arg.strip().lower()}" if arg.strip() else "pin"
    raise KeypegError(f"unknown prior {shorten(text)!r}; the web API takes {WEB_PRIORS}.")


def web_noise(rules: Rules, text: str | None) -> NoiseModel | None:
    """Return the noise model written `text` (None for exact); raises `KeypegError` for an
    unknown form, EPS outside [0, 1), K < 0, or per-peg noise on black/white games."""
    if text is None:
        return None
    model = parse_noise(text)
    if isinstance(model, Exact):
        return None
    if not model.hard:
        likelihood(get_space(rules), model)  # per-peg needs positional feedback
    if isinstance(model, Lies):
        model.check_rows(rules.max_guesses)
    return model


def rules_info(rules: Rules) -> dict[str, Any]:
    """Return what the page needs to know about some rules."""
    return {
        "name": rules_name(rules),
        "description": rules.describe(),
        "pegs": rules.pegs,
        "colors": rules.colors,
        "symbols": alphabet_text(rules),
        "digits": rules.digits,
        "repeats": rules.repeats,
        "blanks": rules.blanks,
        "feedback": rules.feedback,
        "max_guesses": rules.max_guesses,
        "codes": rules.size,
        "letters": (list(COLOR_LETTERS[: rules.colors])
                    if not rules.digits and rules.colors <= len(COLOR_LETTERS) else None),
        "names": (list(COLOR_NAMES[: rules.colors])
                  if not rules.digits and rules.colors <= len(COLOR_NAMES) else None),
        # what the key pegs are called (black/white, or bull/cow), singular
        "terms": dict(zip(("black", "white"), feedback_terms(rules), strict=True)),
        # the characters answers and blanks are written with
        "notation": {**NOTATION, "blank": BLANK},
    }


def presets(store: Store | None = None) -> list[dict[str, Any]]:
    """Return every preset, in registry order, with "trees": the strategies whose tree the
    explorer shows for it (`explorer.tree_offered`; `store`: where computed optima are)."""
    return [{**rules_info(p.rules), "title": p.description, "aliases": list(p.aliases),
             "trees": [s for s in EXPLORER_STRATEGIES if tree_offered(p.rules, s, store)]}
            for p in PRESETS]


#: Seconds a tree the explorer could not build in time is refused at once, not searched for
#: again (`keypeg optimal` may store it meanwhile).
TREE_RETRY_SECONDS = 600.0


class Service:
    """The web application's state: the store and a few caches."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._hints: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._states: OrderedDict[tuple[Any, ...], GameState] = OrderedDict()
        self._priors: OrderedDict[tuple[Rules, str], np.ndarray] = OrderedDict()
        self._value_locks: dict[str, threading.Lock] = {}
        self._trees: OrderedDict[tuple[Rules, str], TreeIndex] = OrderedDict()
        self._tree_locks: dict[tuple[Rules, str], threading.Lock] = {}
        self._tree_refused: dict[tuple[Rules, str], tuple[float, str]] = {}
        self._lock = threading.Lock()
        self._long = threading.Lock()  # one long optimal search at a time
        self._optimal: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()

    # ------------------------------------------------------------------ beliefs
    @staticmethod
    def belief(rules: Rules, prior: str | None = None, noise: str | None = None
               ) -> WebBelief:
        """Return the belief a request asks for (cheap: a pin prior's weights are computed
        when a position needs them); raises `KeypegError` for a prior or noise the web API
        does not take."""
        return WebBelief(web_prior(prior), web_noise(rules, noise))

    def _game_belief(self, game: dict[str, Any]) -> WebBelief:
        return self.belief(find_rules(game["rules"]), game.get("prior"), game.get("noise"))

    def prior_weights(self, rules: Rules, prior: str | None) -> np.ndarray | None:
        """Return the prior's weights over every code (None for uniform), cached."""
        if prior is None:
            return None
        key = (rules, prior)
        with self._lock:
            hit = self._priors.get(key)
            if hit is not None:
                self._priors.move_to_end(key)
                return hit
        weights = prior_weights(get_space(rules), prior)
        assert weights is not None
        with self._lock:
            self._priors[key] = weights
            while len(self._priors) > CACHED_PRIORS:
                self._priors.popitem(last=False)
        return weights

    def warm_up(self) -> None:
        """Compile the kernels the page uses (a fresh install compiles them once, which takes
        a while): hints at the start and off the stored tree, a cut and a lab."""
        try:
            self.hints("classic", [])
            self.hints("classic", [["1122", "1B1W"]])
            self.cut("classic", [], "1122")
            self.lab("classic")
            self.hints("codebreaker-1", [["01234", "GA--A"]])
            self.hints("codebreaker-4", [["01234", "GA--A"]])
            # the passes of MM(8,8)'s endgame hints and big views' (`solver.endgame`)
            from ..solver.endgame import probe_pass, separator

            separator(get_space(find_rules("classic")), np.arange(3))
            probe_pass(get_space(find_rules("classic")), np.arange(3))
        except Exception:  # noqa: BLE001 - warming up is best effort
            pass

    # ------------------------------------------------------------------ games
    def new_game(self, rules_name_: str, seed: int | None = None, prior: str | None = None,
                 noise: str | None = None) -> dict[str, Any]:
        """Start a game; the secret stays in the store. A seed (0 to 2**63 - 1) makes the
        secret reproducible, so predictable: such a game says so ("seeded": true). The
        secret is drawn from the prior; with noise the answers are misreported as the model
        says (a win never is), and which ones were is revealed once the game is over."""
        check_seed(seed, "seed")
        rules = find_rules(rules_name_)
        belief = self.belief(rules, prior, noise)
        space = get_space(rules)
        weights = self.prior_weights(rules, belief.prior)
        if weights is None:
            rng = random.Random(seed) if seed is not None else random.SystemRandom()
            secret = space.text(rng.randrange(space.size))
        else:
            secret = space.text(draw_secret(space, weights, seed))
        noise_seed = None
        if belief.noise is not None:
            noise_seed = seed if seed is not None else secrets.randbits(63)
        game_id = secrets.token_urlsafe(16)
        self.store.create_game(game_id, rules_name(rules), secret, seeded=seed is not None,
                               prior=belief.prior,
                               noise=None if belief.noise is None else belief.noise_text,
                               noise_seed=noise_seed)
        return {"id": game_id, "rules": rules_name(rules), "max_guesses": rules.max_guesses,
                "info": rules_info(rules), "seeded": seed is not None,
                "prior": belief.prior_text, "noise": belief.noise_text,
                "caution": belief.caution(rules)}

    def _load(self, game_id: str) -> dict[str, Any] | None:
        """Return a game from the store: the store is the one source of truth, so several
        server processes can share it (a read costs some microseconds)."""
        return self.store.get_game(game_id)

    def has_position(self, game_id: str) -> bool:
        """Return True when the game's current position is in memory (so a guess costs one
        filter)."""
        game = self._load(game_id)
        if game is None:
            return False
        rules = find_rules(game["rules"])
        key = (rules, self._game_belief(game).key,
               tuple(f"{g}={f}" for g, f in game["history"]))
        with self._lock:
            return key in self._states

    def _game(self, game_id: str) -> tuple[dict[str, Any], Rules, WebBelief, GameState]:
        game = self._load(game_id)
        if game is None:
            raise _not_found(game_id)
        rules = find_rules(game["rules"])
        belief = self._game_belief(game)
        return game, rules, belief, self.state(rules, game["history"], belief)

    def state(self, rules: Rules, history: list[Any], belief: WebBelief = PLAIN) -> GameState:
        """Return the state after `history` under `belief`, built from the cached state one
        clue shorter when there is one (games move one clue at a time)."""
        clues = _clues(rules, history)
        texts = tuple(str(c) for c in clues)
        key = (rules, belief.key, texts)
        with self._lock:
            hit = self._states.get(key)
            parent = self._states.get((rules, belief.key, texts[:-1])) if clues else None
        if hit is not None:
            return hit
        if parent is not None:
            state = parent.after(clues[-1].guess, clues[-1].feedback)
        elif belief.plain:
            state = GameState(get_space(rules), clues)
        else:
            state = GameState.start(get_space(rules),  # (the answers say "caution")
                                    prior=self.prior_weights(rules, belief.prior),
                                    noise=belief.noise, warn=False)
            for clue in clues:
                state = state.after(clue.guess, clue.feedback)
        with self._lock:
            self._states[key] = state
            while len(self._states) > CACHED_POSITIONS:
                self._states.popitem(last=False)
        return state

    def game(self, game_id: str) -> dict[str, Any]:
        """Return a game's public view (the secret, and the answers that were wrong, only
        once it is over)."""
        game, rules, belief, state = self._game(game_id)
        out = {"id": game_id, "rules": game["rules"], "max_guesses": rules.max_guesses,
               "info": rules_info(rules), "history": game["history"], "over": game["over"],
               "solved": state.solved, "candidates": state.count,
               "seeded": game["seeded"], "prior": belief.prior_text,
               "noise": belief.noise_text, "caution": belief.caution(rules)}
        if game["over"]:
            out.update(_revealed(game, belief))
        return out

    def guess(self, game_id: str, guess_text: str) -> dict[str, Any]:
        """Score a guess against the secret and save it, in one write transaction (so two
        guesses at the same game, even from two server processes, cannot both count)."""
        out: dict[str, Any] = {}

        def play(game: dict[str, Any]) -> tuple[list[list[str]], bool, list[Any]]:
            if game["over"]:
                raise GameOver("this game is over; start a new one.")
            if len(game["history"]) >= MAX_CLUES:
                raise GameOver(f"this game has {plural(MAX_CLUES, 'guess', 'guesses')}, the "
                               "most one game may have; start a new one.")
            rules = find_rules(game["rules"])
            belief = self._game_belief(game)
            state = self.state(rules, game["history"], belief)
            guess = Code.parse(guess_text, rules)
            again = state.replayed(guess)
            if again is not None:
                raise KeypegError(again)
            secret = Code.parse(game["secret"], rules)
            fb = score(secret.symbols, guess.symbols, rules)
            wrong = list(game["wrong"])
            turn = len(game["history"]) + 1
            if belief.noise is not None:  # the answer may be misreported
                space = state.space
                true = space.response_index(fb)
                rng = np.random.default_rng([game["noise_seed"] or 0, turn])
                model = belief.noise
                lies_left = model.k - len(wrong) if isinstance(model, Lies) else 0
                reported = misreport(space, model, true, rng, lies_left)
                if reported != true:
                    wrong.append({"guess": turn, "reported": str(space.feedback(reported)),
                                  "true": str(fb)})
                    fb = space.feedback(reported)
            after = state.after(guess, fb)
            history = [*game["history"], [str(guess), str(fb)]]
            with self._lock:
                self._states[(rules, belief.key,
                              tuple(f"{g}={f}" for g, f in history))] = after
            over = after.solved or (rules.max_guesses is not None
                                    and len(history) >= rules.max_guesses)
            out.update(guess=str(guess), feedback=str(fb), marks=list(fb.marks),
                       candidates=after.count, bits=round(after.bits, 3), solved=after.solved,
                       over=over, guesses=len(history))
            if over:
                out.update(_revealed({**game, "wrong": wrong}, belief))
            return history, over, wrong

        if not self.store.update_game_with(game_id, play):
            raise _not_found(game_id)
        return out

    def give_up(self, game_id: str) -> dict[str, Any]:
        """End a game without solving it and reveal the secret (once over, it stays over)."""
        out: dict[str, Any] = {}

        def stop(game: dict[str, Any]) -> tuple[list[list[str]], bool]:
            solved = bool(game["history"]) and game["history"][-1][0] == game["secret"]
            out.update(over=True, solved=solved, guesses=len(game["history"]),
                       **_revealed(game, self._game_belief(game)))
            return game["history"], True

        if not self.store.update_game_with(game_id, stop):
            raise _not_found(game_id)
        return out

    def game_hints(self, game_id: str) -> dict[str, Any]:
        """Return the hints for a game's current position; once the game is over, only
        what is left (no guesses are offered)."""
        game = self._load(game_id)
        if game is None:
            raise _not_found(game_id)
        belief = self._game_belief(game)
        if game["over"]:
            return _game_over(self.state(find_rules(game["rules"]), game["history"], belief))
        return self.hints(game["rules"], game["history"], belief)

    def cached_hints(self, rules_text: str, history: list[Any], belief: WebBelief = PLAIN
                     ) -> dict[str, Any] | None:
        """Return the hints for a position if they were computed already (cheap), else None."""
        key = (rules_text, belief.key, tuple(f"{g}={f}" for g, f in history))
        with self._lock:
            out = self._hints.get(key)
            if out is not None:
                self._hints.move_to_end(key)
            return out

    def cached_game_hints(self, game_id: str) -> dict[str, Any] | None:
        """Return a game's hints if they are in the cache (no computing), else None."""
        game = self._load(game_id)
        if game is None or game["over"]:
            return None
        return self.cached_hints(game["rules"], game["history"], self._game_belief(game))

    # ------------------------------------------------------------------ hints
    def hints(self, rules_text: str, history: list[Any], belief: WebBelief = PLAIN
              ) -> dict[str, Any]:
        """Return the hints panel for a position under `belief` (cached: positions repeat
        a lot)."""
        rules = find_rules(rules_text)
        clues = _clues(rules, history)
        key = (rules_name(rules), belief.key, tuple(str(c) for c in clues))
        with self._lock:
            if key in self._hints:
                self._hints.move_to_end(key)
                return self._hints[key]
        state = self.state(rules, history, belief)
        out = {**self._compute_hints(state), "caution": belief.caution(rules)}
        with self._lock:
            self._hints[key] = out
            if key[0] != rules_text:  # also under the name the caller used
                self._hints[(rules_text, *key[1:])] = out
            while len(self._hints) > CACHED_POSITIONS:
                self._hints.popitem(last=False)
        return out

    @staticmethod
    def _compute_hints(state: GameState) -> dict[str, Any]:
        return hint(state).to_dict()

    def long_optimal(self, rules_text: str, history: list[Any],
                     seconds: float = LONG_OPTIMAL_SECONDS) -> dict[str, Any]:
        """Return the optimal next guess of a plain position, searched for at most
        `seconds` (more than a hint's second): `optimal` (a strategy row) or None with
        `optimal_note` and, when it ran out of time, `best_found`. A proven answer is kept;
        raises `ServerBusy` while another long search runs (the API checks `seconds`)."""
        rules = find_rules(rules_text)
        clues = _clues(rules, history)
        key = (rules_name(rules), tuple(str(c) for c in clues))
        with self._lock:
            if key in self._optimal:
                self._optimal.move_to_end(key)
                return self._optimal[key]
        state = self.state(rules, history)
        if state.solved:
            raise GameOver("the clues leave one code, already found: there is no next "
                           "guess to look for.")
        if not self._long.acquire(blocking=False):
            raise ServerBusy("another long search is running on this server; try again "
                             "when it ends.")
        try:
            started = time.perf_counter()
            outcome = optimal_hint(state, seconds=seconds)
            took = time.perf_counter() - started
        finally:
            self._long.release()
        if outcome.optimal is None and not outcome.timed_out:
            raise LimitExceededError(outcome.note or "the best possible guess is out of "
                                     "reach here.")
        out = {"candidates": state.count,
               "optimal": None if outcome.optimal is None else outcome.optimal.to_dict(),
               "optimal_note": outcome.note,
               "best_found": None if outcome.found is None else outcome.found.to_dict(),
               "seconds": round(took, 3)}
        if outcome.optimal is not None:
            with self._lock:
                self._optimal[key] = out
                while len(self._optimal) > CACHED_POSITIONS:
                    self._optimal.popitem(last=False)
        return out

    # ------------------------------------------------------------------ cut
    def cut(self, rules_text: str, history: list[Any], guess: str,
            belief: WebBelief = PLAIN) -> dict[str, Any]:
        """Return how `guess` would cut the candidates left by `history`; under a prior or
        noise each part also says how likely its answer is (the answer reported truly)."""
        rules = find_rules(rules_text)
        state = self.state(rules, history, belief)
        code = Code.parse(guess, rules)
        parts = cut(state, code)
        rows = [{"feedback": fb, "size": n, "marks": list(Feedback.parse(fb, rules).marks)}
                for fb, n in parts]
        if not belief.plain:
            space = state.space
            mass = np.bincount(space.responses(code.index, state.candidates),
                               weights=state.posterior, minlength=space.n_responses)
            for row in rows:
                row["probability"] = round(float(mass[space.response_index(
                    str(row["feedback"]))]), 6)
        return {"guess": str(code), "candidates": state.count, "parts": rows,
                "largest": max(n for _, n in parts), "count": len(parts)}

    # ------------------------------------------------------------------ watch
    def watch_step(self, rules_text: str, strategy: str, secret: str,
                   history: list[Any], belief: WebBelief = PLAIN) -> dict[str, Any]:
        """Return the next guess of `strategy` and its feedback against `secret` (answers
        are true; the strategy reads them under `belief`)."""
        rules = find_rules(rules_text)
        code = Code.parse(secret, rules)
        state = self.state(rules, history, belief)  # (too long, or contradictory: refused)
        for i, clue in enumerate(state.history, start=1):  # (the clues, parsed once)
            true = score(code.symbols, clue.guess.symbols, rules)
            if true != clue.feedback:  # Watch answers from the secret: a clue must too
                raise KeypegError(
                    f"clue {i} ({clue}) does not match the secret {code}, which answers "
                    f"{clue.guess} with {true} (Watch's history holds the secret's own "
                    "answers, true even under noise).")
        if state.solved:
            raise GameOver("the secret is already found.")
        guess, approximate, note = watched_guess(state, strategy, belief)
        fb = score(code.symbols, guess.symbols, rules)
        after = state.after(guess, fb)
        return {"guess": str(guess), "feedback": str(fb), "marks": list(fb.marks),
                "candidates": after.count, "bits": round(after.bits, 3), "solved": after.solved,
                "approximate": approximate, "note": note}

    def random_secret(self, rules_text: str) -> str:
        """Return a random code of the rules (for Watch)."""
        space = get_space(find_rules(rules_text))
        return space.text(random.SystemRandom().randrange(space.size))

    # ------------------------------------------------------------------ matches
    def new_match(self, rules_text: str, games: int = 2, opponent: str | None = None,
                  codemaker: str | None = None, scoring: str = "guesses",
                  players: str = "computer", names: list[str] | None = None,
                  seed: int | None = None) -> dict[str, Any]:
        """Start a match (`keypeg.match`) and store it: a person (side A) against the
        computer (side B, breaking codes with `opponent` and making them with `codemaker`),
        or two people on one screen. Returns its view (no secret of a game in play)."""
        check_seed(seed, "seed")
        rules = find_rules(rules_text)
        mode = str(players).strip().lower()
        if mode not in MATCH_PLAYERS:
            raise KeypegError(f"players is computer (you against keypeg) or people (two people "
                              f"on one screen), not {shorten(players)!r}.")
        if mode == "people" and (opponent is not None or codemaker is not None):
            raise KeypegError("opponent and codemaker say how the computer plays; a match "
                              "between two people has no computer.")
        if names is not None and len(names) != 2:
            raise KeypegError(f"names takes the two players' names, side A's first, not "
                              f"{plural(len(names), 'name')}.")
        a, b = names if names is not None else DEFAULT_NAMES[mode]
        if str(a).strip().lower() == str(b).strip().lower():
            raise KeypegError("the two players need different names.")
        scoring = str(scoring).strip().lower()
        if mode == "computer":
            maker = (codemaker or "uniform").strip().lower()
            self._check_codemaker(rules, maker)
            sides = [Player.person(a), Player.computer(opponent or "entropy", maker, name=b)]
        else:
            sides = [Player.person(a), Player.person(b)]
        match = Match(rules, games, sides, scoring=scoring, seed=seed)
        save_match(self.store, match)
        return _match_view(match, set())

    @staticmethod
    def _check_codemaker(rules: Rules, spec: str) -> None:
        """Refuse at once, from the sizes, a computer codemaker too expensive for the web:
        the game mixture needs the game value (shipped, or computable here), a code chosen
        against a strategy needs that strategy's whole tree."""
        from ..value import shipped_values

        name = rules_name(rules)
        if (spec == "game" and rules.key not in shipped_values()
                and rules.size > LIVE_VALUE_CODES):
            raise LimitExceededError(
                f"the game codemaker needs the game value of {name}, which is out of reach "
                f"here ({rules.size:,} codes); choose uniform, adaptive or against:STRATEGY.")
        if spec.startswith("against:") and rules.size > EXACT_HINT_CODES:
            raise LimitExceededError(
                f"against:STRATEGY needs the strategy's whole tree over the {rules.size:,} "
                f"codes of {name}, more than the web plays at once; choose uniform, game or "
                "adaptive.")

    def _load_match(self, match_id: str) -> Match:
        match = load_match(self.store, match_id)
        if match is None:
            raise _match_not_found(match_id)
        return match

    def match(self, match_id: str) -> dict[str, Any]:
        """Return a match's view (what a player may see)."""
        match = self._load_match(match_id)
        return _match_view(match, {g.number for g in match.games if g.over})

    def _move(self, match_id: str, move: Any) -> dict[str, Any]:
        """Load a match, make `move` (the computer answers within it), save it unless
        someone saved it meanwhile (`MatchStateError`), and return the new view with
        "events": the outcome of every game that ended in this move."""
        match = self._load_match(match_id)
        before = {g.number for g in match.games if g.over}
        move(match)
        save_match(self.store, match)
        return _match_view(match, before)

    def match_secret(self, match_id: str, secret: str, answering: str = "auto"
                     ) -> dict[str, Any]:
        """The person making the code chooses its secret ("random": keypeg draws one) and
        how the guesses are answered: "auto" (keypeg answers from the secret) or "hand"."""
        how = str(answering).strip().lower()
        if how == "hand" and str(secret).strip().lower() == "random":
            # (the page never shows a secret of a game in play: answering by hand, the
            # person would answer about a code they never saw, and forfeit)
            raise KeypegError("a random secret is kept hidden, so keypeg answers the guesses "
                              "for it; choose answering auto, or type a secret to answer "
                              "from by hand.")
        return self._move(match_id, lambda m: m.choose_secret(secret, how))

    def match_guess(self, match_id: str, guess: str) -> dict[str, Any]:
        """The person breaking the code plays a guess."""
        return self._move(match_id, lambda m: m.guess(guess))

    def match_answer(self, match_id: str, answer: str, guess: str | None = None
                     ) -> dict[str, Any]:
        """The person making the code answers the pending guess by hand (refused, and
        nothing recorded, when no code fits it together with the earlier answers); with
        `guess`, only while that guess is the one pending (`MatchStateError` else)."""
        def move(m: Match) -> None:
            g = m.current
            pending = None if g is None else g.pending
            if guess is not None and pending is not None and (
                    str(Code.parse(guess, m.rules)) != pending):
                raise MatchStateError(
                    f"that answer is to {shorten(guess)}, but the guess waiting for an answer "
                    f"is {pending} (was the answer sent twice?); nothing was recorded.")
            m.answer(answer)

        return self._move(match_id, move)

    def match_give_up(self, match_id: str) -> dict[str, Any]:
        """The person breaking the code gives up the game in play."""
        return self._move(match_id, lambda m: m.give_up())

    # ------------------------------------------------------------------ game value
    def value(self, rules_text: str) -> dict[str, Any]:
        """Return the game value of some rules (`keypeg value --json`): shipped with keypeg
        ("stored": true), cached, or computed here for small spaces within
        `LIVE_VALUE_SECONDS`; else `LimitExceededError` saying to use `keypeg value`."""
        from ..space import require_table
        from ..value import game_value, shipped_values, value_cache_key

        rules = find_rules(rules_text)
        name = rules_name(rules)
        shipped = shipped_values().get(rules.key)
        if shipped is not None:
            return {**shipped, "rules": name, "stored": True}
        key = value_cache_key(rules)
        cached = self.store.get_cached(key)
        if cached is not None:
            return {**cached, "rules": name, "stored": False}
        where = f"compute it with keypeg value --rules {name}"
        if rules.size > LIVE_VALUE_CODES:
            # (keypeg value had been named for games it refuses too: MM(8,8))
            require_table(rules, "its game value")
            raise LimitExceededError(
                f"the game value of {name} ({rules.size:,} codes) is out of reach here: the "
                f"web computes it for at most {LIVE_VALUE_CODES:,} codes; {where}.")
        with self._lock:
            lock = self._value_locks.setdefault(rules.key, threading.Lock())
        with lock:  # one computation per rules at a time; the others wait for its result
            cached = self.store.get_cached(key)
            if cached is not None:
                return {**cached, "rules": name, "stored": False}
            try:
                data = game_value(rules, time_limit=LIVE_VALUE_SECONDS).to_dict()
            except LimitExceededError:
                raise LimitExceededError(
                    f"the game value of {name} is out of reach here: it was not found "
                    f"within {LIVE_VALUE_SECONDS:g} s; {where}.") from None
            if data["certified"]:
                self.store.put_cached(key, data)
        return {**data, "rules": name, "stored": False}

    # ------------------------------------------------------------------ lab
    def lab(self, rules_text: str) -> dict[str, Any]:
        """Return each strategy's evaluation: exact (shipped, cached, or computed when
        cheap), else an approximate one over sampled secrets, labelled so."""
        rules = find_rules(rules_text)
        key = f"lab:{rules.key}:v3"  # (v3: shipped labs say so)
        cached = self.store.get_cached(key)
        if cached is not None:
            return {**cached, "rules": rules_name(rules)}
        result = lab(rules)
        if result["exact"]:
            self.store.put_cached(key, result)
        return result

    # ------------------------------------------------------------------ tree explorer
    def tree_index(self, rules_text: str, strategy: str) -> TreeIndex:
        """Return the explorer's index of a strategy's tree, built once per (rules,
        strategy) and kept for the next requests (the `EXPLORER_TREES` most recent)."""
        rules = find_rules(rules_text)
        key = (rules, explorer_strategy(strategy))
        with self._lock:
            hit = self._trees.get(key)
            if hit is not None:
                self._trees.move_to_end(key)
                return hit
            lock = self._tree_locks.setdefault(key, threading.Lock())
        with lock:  # one build per tree; the other requests wait for it
            with self._lock:
                hit = self._trees.get(key)
            refused = self._tree_refused.get(key)
            if refused is not None and time.monotonic() - refused[0] < TREE_RETRY_SECONDS:
                raise LimitExceededError(refused[1])  # a search that ran out of time lately
            if hit is None:
                try:
                    hit = TreeIndex(*explorer_tree(rules, key[1], store=self.store))
                except LimitExceededError as exc:
                    self._tree_refused[key] = (time.monotonic(), str(exc))
                    raise
            with self._lock:
                self._trees[key] = hit
                self._trees.move_to_end(key)
                while len(self._trees) > EXPLORER_TREES:
                    self._trees.popitem(last=False)
        return hit

    def tree_node(self, rules_text: str, strategy: str, node: int = 0) -> dict[str, Any]:
        """Return one node of the tree (see `TreeIndex.node`) with the whole tree's numbers."""
        index = self.tree_index(rules_text, strategy)
        return {"rules": rules_name(index.tree.rules), "strategy": index.tree.strategy,
                "tree": index.summary(), **index.node(node)}

    def tree_path(self, rules_text: str, strategy: str, secret: str) -> dict[str, Any]:
        """Return the nodes a secret passes through, root first."""
        index = self.tree_index(rules_text, strategy)
        path = index.path(secret)
        return {"rules": rules_name(index.tree.rules), "strategy": index.tree.strategy,
                "secret": path[-1]["guess"], "guesses": len(path), "path": path}

    def openings(self, rules_text: str) -> dict[str, Any]:
        """Return the first-guess table (`keypeg.openings`), cached once complete."""
        from ..openings import first_guess_table

        rules = find_rules(rules_text)
        key = f"openings:{rules.key}:v1"
        cached = self.store.get_cached(key)
        if cached is not None:
            return {**cached, "rules": rules_name(rules)}
        result = first_guess_table(rules, store=self.store)
        if result["complete"]:
            self.store.put_cached(key, result)
        return result


#: Strategies a player who doubts the answers plays by belief (`keypeg.bayes`): the same
#: scores the hints show under noise.
BELIEF_NAMES = frozenset(dict(BELIEF_SCORES))


def watched_guess(state: GameState, strategy: str, belief: WebBelief
                  ) -> tuple[Code, bool, str | None]:
    """Return (guess, approximate, note) for Watch: "information" plays by information gain
    under the belief (`BeliefStrategy`); the others by the bounded policy of the hints,
    except under noise, where candidates need not shrink (a one-step strategy would play
    the same guess again and again): there the scores play by belief, consistent plays the
    likeliest code (under lies:K the first that fits the most clues), and optimal (worked
    out for true answers) is refused. Where the optimal guess is out of reach (too many
    codes, or not found in time), optimal plays the best guess its search found, else
    entropy's, labelled approximate, with the reason in `note` (as a match's optimal
    codebreaker does; Watch used to stop there with an error)."""
    name = strategy.strip().lower()
    noisy = belief.noise is not None
    if name not in ("information", *STRATEGY_NAMES, *ALIASES):
        raise KeypegError(f"unknown strategy {shorten(strategy)!r}; Watch plays "
                          f"{known_names('information')}.")
    if name == "information" or noisy and name in BELIEF_NAMES:
        sampled = state.space.size * state.count > EXACT_HINT_WORK
        return BeliefStrategy(name).next_guess(state), sampled and state.count > 1, None
    if noisy and name == "consistent":
        misses = state.belief.misses  # lies:K: the first code that fits the most clues
        if misses is not None:
            return state.space.code(int(state.candidates[int(np.argmin(misses))])), False, None
        return Code.parse(state.top(1)[0][0], state.rules), False, None
    if noisy and name == "optimal":
        raise KeypegError("the optimal strategy is worked out for true answers only; under "
                          "noise watch information, entropy, expsize, maxsize, parts, "
                          "consistent or random.")
    if name == "optimal":
        outcome = optimal_hint(state, seconds=LIVE_OPTIMAL_SECONDS)
        if outcome.optimal is not None:
            return Code.parse(outcome.optimal.guess, state.rules), False, None
        if outcome.found is not None:
            return Code.parse(outcome.found.guess, state.rules), True, outcome.note
        guess, _ = bounded_guess(state, "entropy")
        return guess, True, f"{outcome.note} Until then optimal plays entropy's guess."
    return (*bounded_guess(state, strategy, optimal_seconds=LIVE_OPTIMAL_SECONDS), None)


def _match_view(match: Match, before: set[int]) -> dict[str, Any]:
    """A match's view (`Match.view`: no secret of a game in play, no seed), each finished
    game with its "outcome" sentence, and "events": the outcome of each game that ended
    since `before` (the numbers of the games over then)."""
    view = match.view()
    games: dict[int, MatchGame] = {g.number: g for g in match.games}
    for item in view["played"]:
        g = games[item["number"]]
        item["outcome"] = match.outcome_text(g) if g.over else None
    view["events"] = [match.outcome_text(g) for g in match.games
                      if g.over and g.number not in before]
    return view


def _revealed(game: dict[str, Any], belief: WebBelief) -> dict[str, Any]:
    """What a finished game reveals: the secret and, under noise, the answers that were
    misreported ([{"guess": n, "reported", "true"}], guesses numbered from 1)."""
    out: dict[str, Any] = {"secret": game["secret"]}
    if belief.noise is not None:
        out["wrong_answers"] = list(game["wrong"])
    return out


def _game_over(state: GameState) -> dict[str, Any]:
    """The hints of a finished game: what was left, and no guess to play."""
    return {**hint(state, strategies=False).to_dict(), "over": True}


def _clues(rules: Rules, history: list[Any]) -> list[Clue]:
    clues = []
    for i, item in enumerate(history):
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise KeypegError(
                f"history item {i + 1} must be [guess, feedback], not {shorten(item)!r}.")
        clues.append(Clue.make(str(item[0]), str(item[1]), rules))
    return clues
