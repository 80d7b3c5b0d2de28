"""The optimal strategy: it walks a stored optimal tree while the game is on it, and
searches live from the current candidates otherwise."""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache

import numpy as np

from ..book import applies, lookup, needed
from ..codes import Code
from ..errors import LimitExceededError, NoStrategyError, TimeLimitError
from ..game import TRUSTED_ONLY, GameState
from ..limits import (
    ENDGAME_MAX_CODES,
    LIVE_OPTIMAL_CANDIDATES,
    LIVE_OPTIMAL_CODES,
    LIVE_OPTIMAL_SECONDS,
    check_count,
    check_max_seconds,
    plural,
)
from ..rules import Rules
from ..space import CandidateView, CodeSpace
from ..strategy import Strategy, as_space, check_state
from ..tree import DecisionTree


class OptimalStrategy(Strategy):
    """Play an optimal guess: fewest guesses in total over the codes still possible."""

    name = "optimal"

    def __init__(self, *, time_limit: float | None = LIVE_OPTIMAL_SECONDS,
                 max_candidates: int | None = LIVE_OPTIMAL_CANDIDATES) -> None:
        check_max_seconds(time_limit, "time_limit")
        if max_candidates is not None:
            check_count("max_candidates", max_candidates)
        self.time_limit = time_limit
        self.max_candidates = max_candidates

    def _tree(self, space: CodeSpace) -> tuple[DecisionTree, np.ndarray, np.ndarray] | None:
        return _shipped(space.rules)

    def stored_whole_tree(self, rules: Rules) -> bool:
        return self._stored_fits(rules) is not None

    @staticmethod
    def _stored_fits(rules: Rules) -> DecisionTree | None:
        """Return the optimal tree shipped for `rules` when it finds every secret within
        the board's rows (or the rules have none), else None."""
        stored = _shipped(rules)
        if stored is None:
            return None
        tree = stored[0]
        return tree if rules.max_guesses is None or tree.worst <= rules.max_guesses else None

    def on_tree(self, space: CodeSpace, candidates: np.ndarray,
                guesses: Sequence[int]) -> int | None:
        """Return the stored tree's guess for this position, or None when off the tree."""
        stored = self._tree(space)
        if stored is None:
            return None
        tree, edges, ends = stored
        node = 0
        for g in guesses:
            if int(tree.guess[node]) != int(g):
                return None
            r = int(space.responses(int(g), candidates[:1])[0])
            if r == space.win:
                return None
            edge = (node << _ANSWER_BITS) | r
            at = int(np.searchsorted(edges, edge))
            if at == edges.size or edges[at] != edge:
                return None
            node = int(ends[at])
        if int(tree.size[node]) != candidates.size:
            return None
        return int(tree.guess[node])

    @staticmethod
    def on_book(space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int | None:
        """Return the opening book's optimal guess for this position (`keypeg.book`), or
        None when no book holds it."""
        if not applies(space.rules) or candidates.size < 3:
            return None
        answers = [int(space.responses(int(g), candidates[:1])[0]) for g in guesses]
        keep = needed(space, list(guesses), answers)
        entry = lookup(space, [int(guesses[i]) for i in keep], [answers[i] for i in keep],
                       played=len(guesses))
        return None if entry is None else entry.guess

    def choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int:
        return self._choose(space, candidates, guesses)

    def next_guess(self, state: GameState) -> Code:
        """Return the optimal guess; under a prior (trusted answers), the one with the
        fewest expected guesses over the posterior."""
        check_state(state)
        if state.weights is None or state.solved:
            return super().next_guess(state)
        if not state.trusted:
            raise LimitExceededError(TRUSTED_ONLY)
        weights = state.code_weights()
        guesses = [c.guess.index for c in state.history]
        return state.space.code(self._choose(state.space, state.candidates, guesses, weights))

    def _choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int],
                weights: np.ndarray | None = None) -> int:
        stored = None if weights is not None else self.on_tree(space, candidates, guesses)
        if stored is None and weights is None:
            stored = self.on_book(space, candidates, guesses)
        if stored is not None:
            return stored
        if candidates.size == 1:
            return int(candidates[0])
        if candidates.size == 2:  # play the likelier first (code order when as likely)
            return int(candidates[0] if weights is None or
                       weights[candidates[0]] >= weights[candidates[1]] else candidates[1])
        if self.max_candidates is not None and candidates.size > self.max_candidates:
            raise LimitExceededError(
                f"the best possible guess is worked out live once at most "
                f"{self.max_candidates:,} codes are possible ({candidates.size:,} are now)."
            )
        too_big = (space.size > LIVE_OPTIMAL_CODES
                   or CandidateView.bytes_needed(space, candidates.size) > space.budget)
        # from the candidates alone (unweighted): proven optimal when its bounds meet (most
        # small sets), else the best found where the search cannot run or finish
        endgame = weights is None and candidates.size <= ENDGAME_MAX_CODES
        from ..solver.endgame import (
            PROBES_FIRST_WORK,
            VIEW_PER_PASS,
            CandidateBounds,
            candidate_bounds,
        )
        bounds: CandidateBounds | None  # (the candidates' bounds, where worked out)
        if not space.has_table and too_big:
            if not endgame:
                raise LimitExceededError(
                    "the best possible guess is out of reach in a game this size; the "
                    "strategies' guesses are the best advice here.")
            # (every code bounded first only where a search could run but its view does
            # not fit: the pass over MM(8,8)'s 16.8 million codes took 0.7 s for 3
            # candidates and 2.5 s for 19, ad-hoc, 2026-12-06)
            started = time.perf_counter()
            bounds = candidate_bounds(space, candidates,
                                      every_code=space.size <= LIVE_OPTIMAL_CODES)
            if bounds.exact:
                return bounds.guess
            guess, total, how = bounds.guess, bounds.total, None
            if self.time_limit is not None:  # (a better tree, where time is given)
                among = _among(space, candidates, guesses, self.time_limit, started)
                if among is not None and among[1] < total:
                    (guess, total), how = among, _AMONG_HOW
            if total == bounds.lower:  # (proven optimal after all)
                return guess
            error = LimitExceededError(
                f"the best possible guess among {candidates.size:,} codes is out of reach "
                "in a game this size.").with_best(guess, total, bounds.lower)
            error.found_how = how
            raise error
        from ..solver.search import KERNELS_WHY, solve_optimal

        state = _state(space, candidates, guesses)
        # A search without the table (on a candidate view) is the slow kind: the bounds
        # from the candidates come first (a few hundredths of a second), and where the
        # view alone takes most of a hint's second, every code's bound as the first guess
        # too (`endgame.PROBES_FIRST_WORK`); the search has what is left of the time.
        bounds, limit, hopeless = None, self.time_limit, False
        started = time.perf_counter()
        if endgame and limit is not None and not space.has_table:
            every = space.size * candidates.size > PROBES_FIRST_WORK
            bounds = candidate_bounds(space, candidates, every_code=every)
            spent = time.perf_counter() - started
            if every and bounds.exact:
                return bounds.guess  # (proven optimal: no search can beat it)
            limit = max(0.01, limit - spent)
            # The view computes the pass's answers again and holds them three ways: where
            # that alone would outlast the time left, the search would find nothing, and
            # the hint answers now with the pass's guess and bound.
            hopeless = every and limit < VIEW_PER_PASS * spent
        try:
            if hopeless:
                raise TimeLimitError("no time left for the search's view")
            result = solve_optimal(space, state=state, time_limit=limit, weights=weights)
        except TimeLimitError as exc:
            if exc.kernels_loading:  # (compiling goes on in the background: later, it runs)
                text = (f"the best possible guess among {candidates.size:,} codes needs the "
                        f"search kernels, which are still loading ({KERNELS_WHY}); ask again "
                        "then.")
            else:
                text = (f"the best possible guess among {candidates.size:,} codes takes longer "
                        f"to work out than the {plural(self.time_limit or 0, 'second')} the "
                        "search may spend.")
            error = TimeLimitError(text).found(exc)
            error.kernels_loading = exc.kernels_loading
            if endgame:  # the better of the two trees, the higher of the two bounds
                bounds = bounds or candidate_bounds(space, candidates)
                ours = exc.best_total is None or bounds.total < exc.best_total
                guess, total = ((bounds.guess, bounds.total)
                                if ours or exc.best_guess is None or exc.best_total is None
                                else (exc.best_guess, exc.best_total))
                lower = max(bounds.lower, exc.lower or 0)
                if hopeless and self.time_limit is not None:
                    # the time the view would have taken: a search among a few codes
                    # (MM(6,9)'s 551-candidate position of `slowhints`: 1,931 -> 1,922)
                    among = _among(space, candidates, guesses, self.time_limit, started)
                    if among is not None and among[1] < total:
                        (guess, total), error.found_how = among, _AMONG_HOW
                if total == lower:  # proven optimal after all
                    return int(guess)
                error.with_best(guess, total, lower)
            raise error from None
        return result.tree.first_guess

    def tree(self, rules: Rules | CodeSpace | str, state: GameState | None = None
             ) -> DecisionTree:
        """Return the optimal tree from `state` (the start by default): on a board of few
        rows (`Rules.max_guesses`), the fewest guesses in total among the trees that find
        every secret within them, as `solve_optimal(max_guesses=...)` finds it; where no
        tree does, the fewest in total over all trees."""
        self.check_answers(state)
        space = as_space(rules, state)
        cap = space.rules.max_guesses
        # (the stored trees are for equally likely secrets; under a prior solve_optimal
        # weighs them by it; a stored tree within the rows is optimal within them too)
        whole = state is None or (not state.history and state.weights is None)
        stored = self._stored_fits(space.rules) if whole else None
        if stored is not None:
            return self._relabelled(space, stored)
        from ..solver.search import solve_optimal

        try:
            return solve_optimal(space, state=state, max_guesses=cap,
                                 time_limit=self.time_limit).tree
        except NoStrategyError:  # no tree finds every secret within the rows
            shipped = self._tree(space) if whole else None
            if shipped is not None:
                return self._relabelled(space, shipped[0])
            return solve_optimal(space, state=state, time_limit=self.time_limit).tree

    def _relabelled(self, space: CodeSpace, t: DecisionTree) -> DecisionTree:
        """A stored tree under these rules (its board's rows included), as this strategy's."""
        return DecisionTree(space.rules, self.label, t.guess, t.parent, t.response, t.depth,
                            t.size)


def _shipped(rules: Rules) -> tuple[DecisionTree, np.ndarray, np.ndarray] | None:
    """Return the optimal tree shipped for `rules` and its edges (`_stored`), or None
    (none is shipped for games with blanks)."""
    return None if rules.blanks else _stored(rules.key)


#: Bits of an answer in an edge of a stored tree (`_stored`).
_ANSWER_BITS = 20


@cache
def _stored(key: str) -> tuple[DecisionTree, np.ndarray, np.ndarray] | None:
    """Return the optimal tree shipped for the code space `key` (`cached.stored_tree`) and
    its edges: (parent << _ANSWER_BITS | answer) sorted, and the node each leads to. (Not a
    node x answer table: Codebreaker 4-6's would take 98 MB.)"""
    from ..solver.cached import stored_tree_for_key

    tree = stored_tree_for_key(key)
    if tree is None:
        return None
    nodes = np.flatnonzero(tree.parent >= 0)
    edges = (tree.parent[nodes].astype(np.int64) << _ANSWER_BITS) | tree.response[nodes]
    order = np.argsort(edges, kind="stable")
    return tree, edges[order], nodes[order]


#: The most seconds the optimal strategy spends searching among the candidates and a few
#: other codes (`_among`) where no search for the optimum can run (MM(8,8)): most of a
#: hint's second, which the candidates' bounds start (the gain past it is small).
AMONG_SECONDS = 0.8
#: How a best guess found by `_among` was found (`LimitExceededError.found_how`).
_AMONG_HOW = "by a search among the candidates and a few other codes"


def _among(space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int],
           time_limit: float, since: float) -> tuple[int, int] | None:
    """Return (first guess, total) of the best tree among the candidates and the codes of
    `endgame.among_probes` (`search.solve_among`), found within what is left of
    `time_limit` seconds counted from `since` (a `time.perf_counter()`; at most
    `AMONG_SECONDS`), or None when no first guess was finished by then (or no time is
    left, or its view of m x (m + those codes) answers would pass the table budget)."""
    from ..solver.endgame import AMONG_PROBES, among_probes
    from ..solver.search import solve_among

    started = time.perf_counter()
    seconds = min(AMONG_SECONDS, time_limit - (started - since))
    m = int(candidates.size)
    rows = m + AMONG_PROBES + len(guesses)
    if seconds <= 0 or rows * m * np.dtype(space.alphabet.dtype).itemsize > space.budget:
        return None
    probes = among_probes(space, candidates)
    left = seconds - (time.perf_counter() - started)
    if left <= 0:
        return None
    state = _state(space, candidates, guesses)
    try:
        result = solve_among(space, state, probes, time_limit=left)
    except TimeLimitError as exc:
        if exc.best_guess is None or exc.best_total is None:
            return None
        return int(exc.best_guess), int(exc.best_total)
    return result.tree.first_guess, result.total - len(guesses) * int(candidates.size)


def _state(space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> GameState:
    """Rebuild a game state from its candidates and the guesses played (the answers follow
    from any candidate, since every candidate gave the same answers)."""
    from ..game import Clue

    clues = []
    for g in guesses:
        r = int(space.responses(int(g), candidates[:1])[0])
        clues.append(Clue(space.code(int(g)), space.feedback(r)))
    return GameState(space, clues, candidates=np.asarray(candidates, dtype=np.int32))
