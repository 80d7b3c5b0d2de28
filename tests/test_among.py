"""The search among a few codes (`solver.search.solve_among` on a `CandidateView` of given
probes), which gives the optimal strategy a better tree than the candidates' own where no
search for the optimum can run (MM(8,8)): checked against the exhaustive reference with the
same guesses allowed, and the probes it is given (`endgame.among_probes`)."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg._kernels import feedback as kfb
from keypeg._kernels import optimal as k_opt
from keypeg.errors import KeypegError, TimeLimitError
from keypeg.game import GameState
from keypeg.rules import Rules
from keypeg.solver import endgame
from keypeg.solver.search import solve_among, solve_optimal
from keypeg.space import CandidateView, get_space
from tests.naive import naive_optimal

GAMES = [Rules(pegs=3, colors=3), Rules(pegs=2, colors=5),
         Rules(pegs=3, colors=3, feedback="positional"), Rules(pegs=3, colors=4, repeats=False)]


def _codes(rules: Rules) -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in c) for c in get_space(rules).codes]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.data())
def test_the_search_among_given_codes_finds_their_best_tree(rules, data):
    """Any candidates, any codes as the other guesses: the total is the least of the trees
    whose every guess is one of the candidates or those codes (the exhaustive search given
    the same guesses), the tree plays only those and finds every candidate; with every
    code given, the optimum."""
    space = get_space(rules)
    codes = _codes(rules)
    n = space.size
    S = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=8))),
                 dtype=np.int32)
    every = data.draw(st.booleans())
    probes = (np.arange(n) if every else
              np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), max_size=6))),
                       dtype=np.int64))
    allowed = sorted(set(S.tolist()) | set(probes.tolist()))
    state = GameState(space, [], candidates=S)
    got = solve_among(space, state, probes)
    want = naive_optimal([codes[i] for i in allowed], [codes[i] for i in S], rules.feedback)
    assert got.total == want
    assert int(got.tree.depths(space, S).sum()) == got.total  # every candidate played
    assert set(got.tree.guess.tolist()) <= set(allowed)
    if every:
        assert got.total == naive_optimal(codes, [codes[i] for i in S], rules.feedback)
    # the view holds the candidates first, then only codes given; `indices` maps back
    view = CandidateView(space, S, probes=probes)
    assert view.restricted and view.order[:S.size].tolist() == S.tolist()
    assert set(view.order.tolist()) <= set(allowed)
    where = {int(c): i for i, c in enumerate(view.order)}
    lookup = np.arange(n)
    assert view.indices(lookup).tolist() == [where.get(c, -1) for c in range(n)]
    assert view.inverse.tolist() == view.indices(lookup).tolist()


def test_the_search_among_a_position_s_candidates_is_no_better_than_the_optimum():
    """Classic after 1122 = 1B0W (256 candidates): among the candidates and 20 other codes
    the tree costs at least the optimum, and among every code exactly it."""
    space = get_space("classic")
    state = GameState.start(space).play("1122", "1344")
    optimum = solve_optimal(space, state=state).total
    few = solve_among(space, state, np.arange(0, space.size, 64))
    assert few.total >= optimum
    assert solve_among(space, state, np.arange(space.size)).total == optimum


def test_the_search_among_stops_in_time_without_a_bound():
    """Out of time, it names the best first guess it had finished, and no lower bound: its
    search's bound holds only among the codes it was given."""
    space = get_space("classic")
    state = GameState.start(space)
    with pytest.raises(TimeLimitError) as info:
        solve_among(space, state, np.arange(space.size), time_limit=0.05)
    assert info.value.lower is None
    assert "the search among 1,296 codes and the candidates" in str(info.value)


def test_the_search_among_refuses_codes_outside_the_game():
    space = get_space("classic")
    with pytest.raises(KeypegError, match="probes must be codes of the space"):
        solve_among(space, GameState.start(space), np.array([0, space.size]))


def test_among_probes_are_the_least_bounded_of_a_seeded_draw(monkeypatch):
    """`among_probes` in a game bigger than its draw: the same codes for the same candidates
    in any order, and of the codes drawn, those of the least bounds as the first guess
    (`probe_pass`'s bound over the whole game's codes, read another way)."""
    monkeypatch.setattr(endgame, "AMONG_SAMPLE", 300)
    monkeypatch.setattr(endgame, "AMONG_PROBES", 12)
    space = get_space("classic")
    S = GameState.start(space).play("1122", "1344").play("3456", "1326").candidates
    got = endgame.among_probes(space, S)
    assert np.array_equal(got, endgame.among_probes(space, S[::-1].copy()))
    assert got.size == 12 and len(set(got.tolist())) == 12
    m = S.size
    R = space.n_responses
    part_least = np.ascontiguousarray(k_opt.bound_tables(m, R, False)[0][R])
    every = kfb.probe_bounds(space.codes, space.counts, space.multiset, space.common,
                             space.packed, False, S.astype(np.int64), 25, part_least, 1 << 12)
    # with every code drawn kept: the draw in order of that bound, got its first 12
    monkeypatch.setattr(endgame, "AMONG_PROBES", 300)
    whole_draw = endgame.among_probes(space, S)
    assert whole_draw.size == 300 and np.array_equal(whole_draw[:12], got)
    assert (np.diff(every[whole_draw]) >= 0).all()


def test_the_strategy_s_search_among_keeps_within_the_table_budget(monkeypatch):
    """`strategies.optimal._among`: a better tree than the candidates' (classic after 1122 =
    1B0W, where none is proven from them alone), and none at all when its view (m x (m +
    the codes given) answers) would pass the space's table budget."""
    from keypeg.space import CodeSpace
    from keypeg.strategies import optimal as strategy
    from keypeg.strategies.optimal import _among

    monkeypatch.setattr(strategy, "AMONG_SECONDS", 30.0)  # (each search to its end)

    rules = Rules(pegs=4, colors=6)
    space = get_space(rules)
    state = GameState.start(space).play("1122", "1344")
    theirs = endgame.candidate_bounds(space, state.candidates)
    guess, total = _among(space, state.candidates, [state.history[0].guess.index], 30.0,
                          time.perf_counter())
    assert total < theirs.total and total >= solve_optimal(space, state=state).total - 256
    m = state.count
    tight = (m + endgame.AMONG_PROBES + 1) * m  # bytes of its view's answers
    small = CodeSpace(rules, budget=tight - 1, disk_cache=False)
    on_small = GameState.start(small).play("1122", "1344")
    assert _among(small, on_small.candidates, [on_small.history[0].guess.index], 30.0,
                  time.perf_counter()) is None
    roomy = CodeSpace(rules, budget=tight, disk_cache=False)
    on_roomy = GameState.start(roomy).play("1122", "1344")
    assert _among(roomy, on_roomy.candidates, [on_roomy.history[0].guess.index],
                  30.0, time.perf_counter()) == (guess, total)
