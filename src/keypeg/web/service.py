"""What the web API does, without HTTP: games, hints, cuts and the strategy lab.

Kept apart from the FastAPI routes so it can be tested and timed on its own. Every
function raises `KeypegError` subclasses for bad input; the app turns them into 4xx.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import asdict
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from ..codes import COLOR_LETTERS, COLOR_NAMES, Code, alphabet_text
from ..errors import KeypegError, LimitExceededError
from ..feedback import score
from ..game import Clue, GameState
from ..hints import LIST_LIMIT, cut, hint
from ..rules import PRESETS, Rules, feedback_terms, find_rules, rules_name
from ..space import get_space
from ..store import Store
from ..strategies import STRATEGY_NAMES, TABLE_STRATEGIES, Strategy, evaluate, find_strategy
from ..strategies.onestep import scoring_work

#: Seconds a hints request may spend on the optimal guess off the stored trees.
HINT_OPTIMAL_LIMIT = 1.0
#: Spaces up to this size get exact one-step hints and an exact lab straight away.
EXACT_LIMIT = 8192
#: Bigger spaces get exact hints while the one-step scoring stays under this many pairs.
EXACT_WORK = 60_000_000
#: Secrets played in a sampled (approximate) lab.
LAB_SAMPLE = 40
#: Candidates a strategy chooses among when the exact choice is too expensive.
SAMPLE = 400


class GameNotFound(KeypegError):
    """Raised for an unknown game id."""


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
        """Start a game; the secret stays in the store."""
        rules = find_rules(rules_name_)
        space = get_space(rules)
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        secret = space.text(rng.randrange(space.size))
        game_id = secrets.token_urlsafe(16)
        self.store.create_game(game_id, rules_name(rules), secret)
        return {"id": game_id, "rules": rules_name(rules), "max_guesses": rules.max_guesses,
                "info": rules_info(rules)}

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
            raise GameNotFound(f"no game with id {game_id!r}; start one with POST /api/games.")
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
            while len(self._states) > 5000:
                self._states.popitem(last=False)
        return state

    def game(self, game_id: str) -> dict[str, Any]:
        """Return a game's public view (the secret only once it is over)."""
        game, rules, state = self._game(game_id)
        out = {"id": game_id, "rules": game["rules"], "max_guesses": rules.max_guesses,
               "info": rules_info(rules), "history": game["history"], "over": game["over"],
               "solved": state.solved, "candidates": state.count}
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
            raise GameNotFound(f"no game with id {game_id!r}; start one with POST /api/games.")
        return out

    def game_hints(self, game_id: str) -> dict[str, Any]:
        """Return the hints for a game's current position."""
        game = self._load(game_id)
        if game is None:
            raise GameNotFound(f"no game with id {game_id!r}; start one with POST /api/games.")
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
        if game is None:
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
            while len(self._hints) > 5000:
                self._hints.popitem(last=False)
        return out

    def _compute_hints(self, state: GameState) -> dict[str, Any]:
        space = state.space
        exact = exact_is_cheap(state)
        out: dict[str, Any] = {
            "candidates": state.count,
            "bits": round(state.bits, 3),
            "list": state.candidate_texts() if state.count <= LIST_LIMIT else None,
            "solved": state.solved,
            "strategies": [],
            "optimal": None,
            "optimal_note": None,
            "approximate": False,
        }
        if state.solved:
            return out
        if exact:
            h = hint(state, optimal_limit=HINT_OPTIMAL_LIMIT)
            out["strategies"] = [_strategy_row(s) for s in h.strategies]
            out["optimal"] = None if h.optimal is None else _strategy_row(h.optimal)
            out["optimal_note"] = h.optimal_note
            return out
        out["approximate"] = True
        out["note"] = (f"{state.count:,} candidates in a space of {space.size:,} codes: each "
                       f"strategy plays its best among a sample of {SAMPLE} candidates "
                       "(approximate).")
        out["strategies"] = _sampled_strategy_rows(state)
        out["optimal_note"] = (f"{state.count:,} candidates are too many for a live optimal "
                               "search.")
        return out

    # ------------------------------------------------------------------ cut
    def cut(self, rules_text: str, history: list[Any], guess: str) -> dict[str, Any]:
        """Return how `guess` would cut the candidates left by `history`."""
        rules = find_rules(rules_text)
        state = self.state(rules, history)
        parts = cut(state, Code.parse(guess, rules))
        return {"guess": str(Code.parse(guess, rules)), "candidates": state.count,
                "parts": [{"feedback": fb, "size": n} for fb, n in parts],
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
        guess, approximate = bounded_guess(state, strategy)
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
    def lab(self, rules_text: str, *, time_limit: float = 15.0) -> dict[str, Any]:
        """Return each strategy's evaluation: exact and cached when it can be computed (or
        was before), else an approximate one over sampled secrets, labelled so."""
        rules = find_rules(rules_text)
        key = f"lab:{rules.key}:v1"
        cached = self.store.get_cached(key) or shipped_labs().get(rules.key)
        if cached is not None:
            return {**cached, "rules": rules_name(rules)}
        space = get_space(rules)
        if space.size <= EXACT_LIMIT:
            started = time.perf_counter()
            trees = evaluate([find_strategy(n) for n in TABLE_STRATEGIES], space)
            rows = [{**t.summary(), "strategy": n}
                    for n, t in zip(TABLE_STRATEGIES, trees, strict=True)]
            result = {"rules": rules_name(rules), "exact": True, "secrets": space.size,
                      "rows": rows, "seconds": round(time.perf_counter() - started, 3)}
            self.store.put_cached(key, result)
            return result
        return _sampled_lab(rules, time_limit)


@cache
def shipped_labs() -> dict[str, dict[str, Any]]:
    """Return the exact labs computed ahead of time (data/lab.json), by code space."""
    path = resources.files("keypeg").joinpath("data/lab.json")
    return json.loads(path.read_text()) if path.is_file() else {}


def _strategy(name: str) -> Strategy:
    if name not in STRATEGY_NAMES:
        raise KeypegError(
            f"unknown strategy {name!r}; choose one of: {', '.join(STRATEGY_NAMES)}."
        )
    if name == "optimal":
        return find_strategy("optimal", time_limit=5.0)
    return find_strategy(name)


def _clues(rules: Rules, history: list[Any]) -> list[Clue]:
    clues = []
    for i, item in enumerate(history):
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise KeypegError(f"history item {i + 1} must be [guess, feedback], not {item!r}.")
        clues.append(Clue.make(str(item[0]), str(item[1]), rules))
    return clues


def _strategy_row(s: Any) -> dict[str, Any]:
    return {k: v for k, v in asdict(s).items()}


def exact_is_cheap(state: GameState) -> bool:
    """Return True when the one-step strategies can score every probe exactly in time."""
    return state.space.size <= EXACT_LIMIT or scoring_work(state) <= EXACT_WORK


def bounded_guess(state: GameState, name: str) -> tuple[Code, bool]:
    """Return (guess, approximate): the strategy's exact guess when that is cheap, else the
    guess it makes among a sample of the candidates (possible codes only), which is fast
    whatever the size of the game. Raises `LimitExceededError` for an optimal guess out of
    reach."""
    if name in ("consistent", "random") or exact_is_cheap(state):
        return _strategy(name).next_guess(state), False
    if name == "optimal":
        raise LimitExceededError(
            f"{state.count:,} candidates are too many for a live optimal search.")
    rng = np.random.default_rng(len(state.history))
    sample = np.sort(rng.choice(state.candidates, size=SAMPLE, replace=False))
    sampled = GameState(state.space, state.history, candidates=sample)
    return find_strategy(name, possible_only=True).next_guess(sampled), True


def _sampled_strategy_rows(state: GameState) -> list[dict[str, Any]]:
    """One-step guesses scored on a sample of candidates (big spaces, early in a game)."""
    rows = []
    for name in ("consistent", "maxsize", "expsize", "entropy", "parts"):
        guess, _ = bounded_guess(state, name)
        sizes = state.space.part_sizes(guess.index, state.candidates)
        rows.append({"name": name, "guess": str(guess), "largest_part": int(sizes.max()),
                     "possible": state.is_candidate(guess.index)})
    return rows


def _sampled_lab(rules: Rules, time_limit: float) -> dict[str, Any]:
    """Play each strategy against sampled secrets within the time limit (each decision is
    exact when cheap, else made among sampled candidates); the histogram is over the games
    played. Raises `LimitExceededError` when a strategy cannot finish one game in time."""
    space = get_space(rules)
    rng = random.Random(1)
    started = time.perf_counter()
    rows = []
    games = LAB_SAMPLE
    per_strategy = time_limit / len(TABLE_STRATEGIES)
    for name in TABLE_STRATEGIES:
        counts: list[int] = []
        deadline = time.perf_counter() + per_strategy
        while len(counts) < LAB_SAMPLE:
            secret = space.code(rng.randrange(space.size))
            state = GameState.start(space)
            while not state.solved and time.perf_counter() < deadline:
                guess, _ = bounded_guess(state, name)
                state = state.after(guess, score(secret.symbols, guess.symbols, rules))
            if not state.solved:
                break
            counts.append(len(state.history))
        if not counts:
            raise LimitExceededError(
                f"{name} did not finish a single {rules_name(rules)} game within "
                f"{per_strategy:.0f} s; the lab of this game is out of reach of a web request."
            )
        worst = max(counts)
        games = min(games, len(counts))
        hist = [counts.count(d) for d in range(1, worst + 1)]
        rows.append({"strategy": name, "first_guess": None, "total": sum(counts),
                     "mean": round(sum(counts) / len(counts), 4), "worst": worst,
                     "histogram": hist, "games": len(counts)})
    return {"rules": rules_name(rules), "exact": False, "secrets": space.size,
            "rows": rows, "seconds": round(time.perf_counter() - started, 3),
            "note": (f"approximate: each strategy played {games} to {LAB_SAMPLE} random "
                     f"secrets (of {space.size:,}), choosing among {SAMPLE} sampled "
                     "candidates while more remain than it can score exactly in time; the "
                     "exact lab of a space this size is out of reach of a web request.")}
