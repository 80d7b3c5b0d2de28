"""Playing under a belief: guesses chosen by probability mass or by information gain
(seed 003, sections 7-9), for hints, for the Bayesian player and for evaluations.

The state's belief (a prior, a noise model) gives each candidate its probability; every
allowed probe is scored on how it splits that probability (`keypeg.experiments`), while
that is cheap, and otherwise among sampled probes (labelled approximate).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import experiments
from .belief import likelihood
from .codes import Code
from .errors import KeypegError
from .game import GameState
from .limits import EXACT_HINT_WORK, HINT_SAMPLE
from .rules import Rules
from .space import CodeSpace
from .strategy import Strategy, as_space, check_state, python_walk
from .tree import DecisionTree

#: Past the exact budget, candidates below this share of the likeliest one's mass are not
#: scored (the choice is labelled approximate anyway).
NEGLIGIBLE = 1e-9
#: Under noisy answers (every code keeps some mass) the parts score counts a part only when
#: it holds at least this share of the likeliest code's mass: counted down to the last
#: trace of mass, every guess splits all the codes into as many parts as it ever can, the
#: player never closes in on the likeliest code, and it needed over 60 guesses (MM(4,4)
#: under symmetric:0.05). With trusted answers every candidate holds at least that share.
PARTS_SHARE = 0.01
#: Under answers that may be wrong, a code at least this likely is played at once (seed
#: 003, section 7: with one code at 95 %, "confirming or rejecting the dominant hypothesis"
#: is worth more than telling unlikely ones apart). Without it the players asked on: every
#: code keeps some mass, so a question still tells a little, and bayes-entropy needed 26
#: guesses on average on 27 secrets (MM(3,3) positional, per-peg:0.05), asking one guess
#: again and again with the secret at 99.99 %. At this share no other guess is as likely
#: to win now.
CONFIRM = 0.5
#: Rows of a hint under a belief: the row name and the experiment score it plays by.
BELIEF_SCORES = (("information", "information"), ("entropy", "entropy"),
                 ("expsize", "expmass"), ("maxsize", "maxmass"), ("parts", "parts"))


def belief_probes(state: GameState) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Return (probes, candidates, their weights, approximate) for choosing a guess under
    the state's belief: every code against every candidate while that is cheap; else the
    likeliest candidates and random codes as probes (and, past the budget again, the
    likeliest and random candidates), labelled approximate."""
    space = state.space
    cands, w = state.candidates, state.posterior
    if space.size * cands.size <= EXACT_HINT_WORK:
        return space.all(), cands, w, False
    rng = np.random.default_rng(len(state.history))
    # past the exact budget, candidates with a negligible share of the mass are not scored
    # (their total mass is at most NEGLIGIBLE times the number of candidates)
    keep = w >= NEGLIGIBLE * w.max()
    if not keep.all():
        cands, w = cands[keep], w[keep] / w[keep].sum()
    order = np.argsort(-w, kind="stable")
    half = HINT_SAMPLE // 2
    probes = np.unique(np.concatenate([
        cands[order[:half]], rng.choice(space.size, size=min(half, space.size),
                                        replace=False)])).astype(np.int32)
    limit = max(1, EXACT_HINT_WORK // probes.size)
    if cands.size > limit:
        keep = np.unique(np.concatenate([
            order[: limit // 2],
            rng.choice(cands.size, size=limit - limit // 2, replace=False, p=w)]))
        cands, w = cands[keep], w[keep] / w[keep].sum()
    return probes, cands, w, True


def belief_choices(state: GameState, names: Sequence[str] | None = None
                   ) -> tuple[dict[str, int], bool]:
    """Return each belief score's chosen guess (code index) and whether the choice was
    made among sampled probes. Scores: see `BELIEF_SCORES` (and `keypeg.experiments`)."""
    space = state.space
    if state.count == 1:  # (under noise a code that cannot be the secret had won the scores)
        return {name: int(state.candidates[0]) for name in names or dict(BELIEF_SCORES)}, False
    if not state.trusted and state.count > 1:
        p = state.posterior
        likeliest = int(np.lexsort((state.candidates, -p))[0])  # (ties: the first code)
        if p[likeliest] >= CONFIRM:
            guess = int(state.candidates[likeliest])
            return {name: guess for name in names or dict(BELIEF_SCORES)}, False
    probes, cands, w, approximate = belief_probes(state)
    outcomes = space.block(probes, cands)
    lik = None if state.noise.hard else likelihood(space, state.noise)
    m = experiments.masses(outcomes, w, space.n_responses)
    wins = m[:, space.win]
    wanted = dict(BELIEF_SCORES)
    # asking a guess again can only tell about the noise: information gain values that
    # (it is small), the other scores would repeat the guess for ever
    played = np.isin(probes, [c.guess.index for c in state.history])
    out = {}
    for name in names or list(wanted):
        if name == "parts" and lik is not None:
            s = (m >= PARTS_SHARE * float(w.max())).sum(axis=1).astype(np.float64)
        else:
            s = experiments.score_masses(m, wanted[name], likelihood=lik)
        if name != "information" and played.any() and not played.all():
            s = np.where(played, -np.inf, s)
        elif played.any():  # information: again only when strictly more informative (under
            # many lies every guess tells nothing yet, and the first code, played, won ties)
            top = float(s.max())
            tied = s >= top - experiments.TIE * max(1.0, abs(top))
            if (tied & ~played).any():
                s = np.where(tied & played, -np.inf, s)
        out[name] = int(probes[experiments.best(s, wins)])
    return out, approximate


class BeliefStrategy(Strategy):
    """Play the guess that scores best under the state's belief: `score` is one of
    information (the default), entropy, expsize, maxsize, parts. With a uniform prior and
    trusted answers it plays like the one-step strategy of the same name (up to ties)."""

    plays_doubting = True

    def __init__(self, score: str = "information") -> None:
        if score not in dict(BELIEF_SCORES):
            raise KeypegError(f"unknown belief score {score!r}; choose one of: "
                              f"{', '.join(dict(BELIEF_SCORES))}.")
        self.score = score
        self.name = f"bayes-{score}"

    def choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int:
        if candidates.size == 1:
            return int(candidates[0])
        state = GameState(space, candidates=candidates)
        return belief_choices(state, [self.score])[0][self.score]

    def next_guess(self, state: GameState) -> Code:
        check_state(state)
        if state.solved:
            raise KeypegError("the game is already solved.")
        if state.count == 1:
            return state.space.code(int(state.candidates[0]))
        return state.space.code(belief_choices(state, [self.score])[0][self.score])

    def tree(self, rules: Rules | CodeSpace | str, state: GameState | None = None
             ) -> DecisionTree:
        """Return the tree of this player against every candidate of `state` (the whole
        space by default) when the answers are true, whatever noise the belief assumes:
        each node's guess is chosen under the belief its answers so far give."""
        space = as_space(rules, state)
        state = state or GameState.start(space)
        return python_walk(self, space, state, follow_belief=True).placed(state)
