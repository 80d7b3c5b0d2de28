"""What the web API does, without HTTP: games, hints, cuts and the strategy lab.

Kept apart from the FastAPI routes so it can be tested and timed on its own. Every
function raises `KeypegError` subclasses for bad input; the app turns them into 4xx.
"""

from __future__ import annotations

import random
import secrets
import threading
from collections import OrderedDict
from typing import Any

from ..codes import BLANK, COLOR_LETTERS, COLOR_NAMES, Code, alphabet_text
from ..errors import KeypegError
from ..feedback import NOTATION, Feedback, score
from ..game import Clue, GameState
from ..hints import bounded_guess, cut, hint
from ..labs import lab
from ..limits import CACHED_POSITIONS, LIVE_OPTIMAL_SECONDS, MAX_CLUES, check_seed, plural, shorten
from ..rules import PRESETS, Rules, feedback_terms, find_rules, rules_name
from ..space import get_space
from ..store import Store


class GameNotFound(KeypegError):
    """Raised for an unknown game id."""


def _not_found(game_id: str) -> GameNotFound:
    return GameNotFound(f"no game with id {shorten(game_id)!r}; start one with POST /api/games.")


class GameOver(KeypegError):
    """Raised for a guess in a game that is over."""


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


def presets() -> list[dict[str, Any]]:
    """Return every preset, in registry order."""
    return [{**rules_info(p.rules), "title": p.description, "aliases": list(p.aliases)}
            for p in PRESETS]


class Service:
    """The web application's state: the store and a few caches."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._hints: OrderedDict[tuple[str, tuple[str, ...]], dict[str, Any]] = OrderedDict()
        self._states: OrderedDict[tuple[Rules, tuple[str, ...]], GameState] = OrderedDict()
        self._lock = threading.Lock()

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
        except Exception:  # noqa: BLE001 - warming up is best effort
            pass

    # ------------------------------------------------------------------ games
    def new_game(self, rules_name_: str, seed: int | None = None) -> dict[str, Any]:
        """Start a game; the secret stays in the store. A seed (0 to 2**63 - 1) makes the
        secret reproducible, so predictable: such a game says so ("seeded": true)."""
        check_seed(seed, "seed")
        rules = find_rules(rules_name_)
        space = get_space(rules)
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        secret = space.text(rng.randrange(space.size))
        game_id = secrets.token_urlsafe(16)
        self.store.create_game(game_id, rules_name(rules), secret, seeded=seed is not None)
        return {"id": game_id, "rules": rules_name(rules), "max_guesses": rules.max_guesses,
                "info": rules_info(rules), "seeded": seed is not None}

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
        key = (rules, tuple(f"{g}={f}" for g, f in game["history"]))
        with self._lock:
            return key in self._states

    def _game(self, game_id: str) -> tuple[dict[str, Any], Rules, GameState]:
        game = self._load(game_id)
        if game is None:
            raise _not_found(game_id)
        rules = find_rules(game["rules"])
        return game, rules, self.state(rules, game["history"])

    def state(self, rules: Rules, history: list[Any]) -> GameState:
        """Return the state after `history`, built from the cached state one clue shorter
        when there is one (games move one clue at a time)."""
        clues = _clues(rules, history)
        key = (rules, tuple(str(c) for c in clues))
        with self._lock:
            hit = self._states.get(key)
            parent = self._states.get((rules, key[1][:-1])) if clues else None
        if hit is not None:
            return hit
        if parent is not None:
            state = parent.after(clues[-1].guess, clues[-1].feedback)
        else:
            state = GameState(get_space(rules), clues)
        with self._lock:
            self._states[key] = state
            while len(self._states) > CACHED_POSITIONS:
                self._states.popitem(last=False)
        return state

    def game(self, game_id: str) -> dict[str, Any]:
        """Return a game's public view (the secret only once it is over)."""
        game, rules, state = self._game(game_id)
        out = {"id": game_id, "rules": game["rules"], "max_guesses": rules.max_guesses,
               "info": rules_info(rules), "history": game["history"], "over": game["over"],
               "solved": state.solved, "candidates": state.count,
               "seeded": game["seeded"]}
        if game["over"]:
            out["secret"] = game["secret"]
        return out

    def guess(self, game_id: str, guess_text: str) -> dict[str, Any]:
        """Score a guess against the secret and save it, in one write transaction (so two
        guesses at the same game, even from two server processes, cannot both count)."""
        out: dict[str, Any] = {}

        def play(game: dict[str, Any]) -> tuple[list[list[str]], bool]:
            if game["over"]:
                raise GameOver("this game is over; start a new one.")
            if len(game["history"]) >= MAX_CLUES:
                raise GameOver(f"this game has {plural(MAX_CLUES, 'guess', 'guesses')}, the "
                               "most one game may have; start a new one.")
            rules = find_rules(game["rules"])
            state = self.state(rules, game["history"])
            guess = Code.parse(guess_text, rules)
            secret = Code.parse(game["secret"], rules)
            fb = score(secret.symbols, guess.symbols, rules)
            after = state.after(guess, fb)
            history = [*game["history"], [str(guess), str(fb)]]
            with self._lock:
                self._states[(rules, tuple(f"{g}={f}" for g, f in history))] = after
            over = after.solved or (rules.max_guesses is not None
                                    and len(history) >= rules.max_guesses)
            out.update(guess=str(guess), feedback=str(fb), marks=list(fb.marks),
                       candidates=after.count, bits=round(after.bits, 3), solved=after.solved,
                       over=over, guesses=len(history))
            if over:
                out["secret"] = game["secret"]
            return history, over

        if not self.store.update_game_with(game_id, play):
            raise _not_found(game_id)
        return out

    def give_up(self, game_id: str) -> dict[str, Any]:
        """End a game without solving it and reveal the secret (once over, it stays over)."""
        out: dict[str, Any] = {}

        def stop(game: dict[str, Any]) -> tuple[list[list[str]], bool]:
            solved = bool(game["history"]) and game["history"][-1][0] == game["secret"]
            out.update(over=True, solved=solved, secret=game["secret"],
                       guesses=len(game["history"]))
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
        if game["over"]:
            return _game_over(self.state(find_rules(game["rules"]), game["history"]))
        return self.hints(game["rules"], game["history"])

    def cached_hints(self, rules_text: str, history: list[Any]) -> dict[str, Any] | None:
        """Return the hints for a position if they were computed already (cheap), else None."""
        key = (rules_text, tuple(f"{g}={f}" for g, f in history))
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
        return self.cached_hints(game["rules"], game["history"])

    # ------------------------------------------------------------------ hints
    def hints(self, rules_text: str, history: list[Any]) -> dict[str, Any]:
        """Return the hints panel for a position (cached: positions repeat a lot)."""
        rules = find_rules(rules_text)
        clues = _clues(rules, history)
        key = (rules_name(rules), tuple(str(c) for c in clues))
        with self._lock:
            if key in self._hints:
                self._hints.move_to_end(key)
                return self._hints[key]
        state = self.state(rules, history)
        out = self._compute_hints(state)
        with self._lock:
            self._hints[key] = out
            if key[0] != rules_text:  # also under the name the caller used
                self._hints[(rules_text, key[1])] = out
            while len(self._hints) > CACHED_POSITIONS:
                self._hints.popitem(last=False)
        return out

    @staticmethod
    def _compute_hints(state: GameState) -> dict[str, Any]:
        return hint(state).to_dict()

    # ------------------------------------------------------------------ cut
    def cut(self, rules_text: str, history: list[Any], guess: str) -> dict[str, Any]:
        """Return how `guess` would cut the candidates left by `history`."""
        rules = find_rules(rules_text)
        state = self.state(rules, history)
        parts = cut(state, Code.parse(guess, rules))
        return {"guess": str(Code.parse(guess, rules)), "candidates": state.count,
                "parts": [{"feedback": fb, "size": n,
                           "marks": list(Feedback.parse(fb, rules).marks)} for fb, n in parts],
                "largest": max(n for _, n in parts), "count": len(parts)}

    # ------------------------------------------------------------------ watch
    def watch_step(self, rules_text: str, strategy: str, secret: str,
                   history: list[Any]) -> dict[str, Any]:
        """Return the next guess of `strategy` and its feedback against `secret`."""
        rules = find_rules(rules_text)
        code = Code.parse(secret, rules)
        state = self.state(rules, history)
        if state.solved:
            raise GameOver("the secret is already found.")
        guess, approximate = bounded_guess(state, strategy, optimal_seconds=LIVE_OPTIMAL_SECONDS)
        fb = score(code.symbols, guess.symbols, rules)
        after = state.after(guess, fb)
        return {"guess": str(guess), "feedback": str(fb), "marks": list(fb.marks),
                "candidates": after.count, "bits": round(after.bits, 3), "solved": after.solved,
                "approximate": approximate}

    def random_secret(self, rules_text: str) -> str:
        """Return a random code of the rules (for Watch)."""
        space = get_space(find_rules(rules_text))
        return space.text(random.SystemRandom().randrange(space.size))

    # ------------------------------------------------------------------ lab
    def lab(self, rules_text: str) -> dict[str, Any]:
        """Return each strategy's evaluation: exact (shipped, cached, or computed when
        cheap), else an approximate one over sampled secrets, labelled so."""
        rules = find_rules(rules_text)
        key = f"lab:{rules.key}:v2"
        cached = self.store.get_cached(key)
        if cached is not None:
            return {**cached, "rules": rules_name(rules)}
        result = lab(rules)
        if result["exact"]:
            self.store.put_cached(key, result)
        return result


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
