"""The experiment engine: weighted scores and information gain against direct sums."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keypeg import experiments
from keypeg.belief import likelihood
from keypeg.errors import KeypegError
from keypeg.game import GameState
from keypeg.hints import belief_choices, hint
from keypeg.rules import Rules, find_rules


def direct(outcomes, prior, lik):
    """Every score by its definition, one experiment and one hypothesis at a time."""
    prior = [p / sum(prior) for p in prior]
    R = lik.shape[0]
    out = {name: [] for name in experiments.SCORES}
    for row in outcomes:
        mass = [0.0] * R
        for h, t in enumerate(row):
            mass[t] += prior[h]
        out["maxmass"].append(-max(mass))
        out["expmass"].append(-sum(m * m for m in mass))
        out["parts"].append(sum(1 for m in mass if m > 0))
        p_r = [sum(mass[t] * lik[t, r] for t in range(R)) for r in range(R)]
        out["entropy"].append(-sum(p * math.log2(p) for p in p_r if p > 0))
        info = 0.0
        for h, t in enumerate(row):
            for r in range(R):
                q = lik[t, r]
                if q > 0 and prior[h] > 0:
                    info += prior[h] * q * math.log2(q / p_r[r])
        out["information"].append(info)
    return out


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 6), st.integers(2, 7), st.integers(2, 5), st.randoms(use_true_random=False),
       st.sampled_from([0.0, 0.1, 0.4]))
def test_scores_equal_their_definitions(n_exp, n_hyp, R, rnd, eps):
    outcomes = np.array([[rnd.randrange(R) for _ in range(n_hyp)] for _ in range(n_exp)])
    prior = [rnd.choice([0.0, 0.5, 1.0, 2.0]) for _ in range(n_hyp)]
    if sum(prior) == 0:
        prior[0] = 1.0
    lik = np.full((R, R), eps / (R - 1))
    np.fill_diagonal(lik, 1 - eps)
    want = direct(outcomes, prior, lik)
    for name in experiments.SCORES:
        got = experiments.scores(outcomes, np.array(prior), name, likelihood=lik)
        assert got == pytest.approx(want[name], abs=1e-9), name


def test_seed_003_eight_secrets():
    outcomes = np.array([[0, 0, 0, 0, 0, 0, 1, 1], [0, 0, 1, 1, 2, 2, 3, 3]])
    uniform = np.full(8, 1 / 8)
    got = experiments.scores(outcomes, uniform, "information")
    assert got == pytest.approx([-0.75 * math.log2(0.75) - 0.25 * math.log2(0.25), 2.0])
    assert experiments.scores(outcomes, uniform, "maxmass") == pytest.approx([-6 / 8, -2 / 8])
    for name in experiments.SCORES:
        assert experiments.choose(outcomes, uniform, name) == 1


def test_a_faulty_part():
    """Not a game: one of six parts is faulty (part 0 three times as likely as each other).
    Each test checks a group of parts: 1 when the faulty part is in the group. The engine
    picks the test that splits the probability, not the parts, in half."""
    groups = [{0}, {0, 1, 2}, {1, 2, 3}, {3, 4, 5}]
    outcomes = np.array([[int(h in g) for h in range(6)] for g in groups])
    prior = np.array([3.0, 1, 1, 1, 1, 1])
    assert experiments.choose(outcomes, prior, "information") == 0  # 3/8 against 5/8
    assert experiments.choose(outcomes, np.ones(6), "information") == 1  # an even split


def test_response_entropy_and_information_gain_differ_under_noise():
    """Seed 003 section 8: with per-peg noise the answer's variability depends on the guess,
    so the guess with more answer entropy (223) teaches less about the secret (112 more)."""
    rules = Rules(pegs=3, colors=3, feedback="positional")
    state = GameState.from_clues(rules, ["123=GA-"], noise="per-peg:0.2")
    space = state.space
    lik = likelihood(space, state.noise)
    probes = np.array([space.index("223"), space.index("112")])
    outcomes = space.block(probes, state.candidates)
    h = experiments.scores(outcomes, state.posterior, "entropy", likelihood=lik)
    i = experiments.scores(outcomes, state.posterior, "information", likelihood=lik)
    assert h[0] > h[1] and i[0] < i[1]
    # without noise the two scores are the same number
    exact = GameState.from_clues(rules, ["123=GA-"])
    out = space.block(probes, exact.candidates)
    assert experiments.scores(out, exact.posterior, "entropy") == pytest.approx(
        experiments.scores(out, exact.posterior, "information"))


def test_hints_under_noise_recommend_information_gain():
    state = GameState.from_clues(find_rules("classic"), ["1122=1B1W", "1122=0B0W"],
                                 noise="symmetric:0.05")
    h = hint(state)
    chosen, approximate = belief_choices(state)
    assert not approximate
    assert h.recommended is not None and h.recommended.name == "information"
    assert h.recommended.guess == state.space.text(chosen["information"])
    assert h.optimal is None and "trusted answers" in (h.optimal_note or "")
    assert h.likely is not None and len(h.likely) == 10 and h.doubts is not None
    assert sum(h.doubts) >= 1 - 1e-9
    body = h.to_dict()
    assert body["noise"] == "symmetric:0.05" and len(body["doubts"]) == 2


def test_information_gain_is_entropy_without_noise():
    """Uniform prior, trusted answers: the information-gain guess has the largest answer
    entropy of all, so it ties the exact entropy strategy's opening (1234 on classic)."""
    state = GameState.start(find_rules("classic"), prior=np.ones(1296))
    chosen, _ = belief_choices(state, ["information", "entropy"])
    assert chosen["information"] == chosen["entropy"] == state.space.index("1234")


def test_outcomes_outside_the_outcomes_allowed_are_refused():
    """An outcome >= n_outcomes was written into the next row (a row summing to 1.5, a
    maxmass of -1.33) or far past the table (a segfault); a likelihood with fewer rows than
    the outcomes was accepted."""
    half = np.array([0.5, 0.5])
    with pytest.raises(KeypegError, match=r"outcome 2, outside 0\.\.1"):
        experiments.masses(np.array([[0, 2], [1, 1]]), half, 2)
    with pytest.raises(KeypegError, match=r"outcome 2, outside 0\.\.1"):
        experiments.scores(np.array([[0, 1, 2]]), np.ones(3), "maxmass", n_outcomes=2)
    with pytest.raises(KeypegError, match=r"outcome -1, outside 0\.\.2"):
        experiments.scores(np.array([[0, -1, 2]]), np.ones(3), "maxmass")
    with pytest.raises(KeypegError, match=r"outcome 2, outside 0\.\.1"):
        experiments.scores(np.array([[0, 1, 2]]), np.ones(3), likelihood=np.eye(2))
    with pytest.raises(KeypegError, match="whole numbers"):
        experiments.scores(np.array([[0.0, 1.5, 1.0]]), np.ones(3))
    with pytest.raises(KeypegError, match="one column per hypothesis"):
        experiments.scores(np.array([0, 1, 1]), np.ones(3))
    with pytest.raises(KeypegError, match="n_outcomes must be a whole number"):
        experiments.scores(np.array([[0, 1, 1]]), np.ones(3), n_outcomes=2.0)
    with pytest.raises(KeypegError, match=r"win is outcome 2, outside 0\.\.1"):
        experiments.choose(np.array([[0, 1, 1]]), np.ones(3), win=2)
    with pytest.raises(KeypegError, match=r"outcome 1000000000, outside 0\.\.1"):
        experiments.scores(np.array([[0, 1, 10**9]]), np.ones(3), "information", n_outcomes=2)
    # what fits still works: booleans are outcomes 0 and 1
    assert experiments.masses(np.array([[True, False]]), half).tolist() == [[0.5, 0.5]]


def test_priors_and_likelihoods_are_checked():
    """A prior [-1, 1, 1] scored [0, 0] silently; NaN was "every hypothesis weight 0"; huge
    finite weights overflowed; a likelihood whose rows are not distributions was used."""
    outcomes = np.array([[0, 1, 1], [0, 0, 1]])
    with pytest.raises(KeypegError, match="hypothesis 0 the weight -1.0, which is negative"):
        experiments.scores(outcomes, [-1, 1, 1])
    with pytest.raises(KeypegError, match="weight nan, which is not a finite number"):
        experiments.scores(outcomes, [np.nan, 1, 1])
    with pytest.raises(KeypegError, match="every hypothesis weight 0"):
        experiments.choose(outcomes, [0, 0, 0])
    with pytest.raises(KeypegError, match="array of numbers"):
        experiments.scores(outcomes, ["a", "b", "c"])
    with pytest.raises(KeypegError, match="add up past the largest float"):
        experiments.masses(outcomes, [1e308, 1e308, 1])
    got = experiments.scores(outcomes, [1e308, 1e308, 0], "maxmass")
    assert got == pytest.approx([-0.5, -1.0])
    for lik, message in [([[0.5, 0.4], [0.0, 1.0]], "row 0 of the likelihood sums to 0.9"),
                         ([[1.5, -0.5], [0.0, 1.0]], "negative or non-finite"),
                         ([[np.nan, 1.0], [0.0, 1.0]], "negative or non-finite"),
                         ([0.5, 0.5], "2-D matrix")]:
        with pytest.raises(KeypegError, match=message):
            experiments.scores(outcomes, np.ones(3), likelihood=np.array(lik))
    with pytest.raises(KeypegError, match="must equal the likelihood's number of rows"):
        experiments.scores(outcomes, np.ones(3), likelihood=np.eye(2), n_outcomes=3)
    with pytest.raises(KeypegError, match="one row per outcome"):
        experiments.score_masses(np.ones((1, 3)) / 3, "information", likelihood=np.eye(2))
