"""The optimal guess from the candidates alone (`solver.endgame`): its tree and bounds
checked against the exhaustive reference, and the hints that use it where no search can run
(MM(8,8)) or none finishes in time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import keypeg.solver.search as search_module
from keypeg._kernels import feedback as kfb
from keypeg._kernels import optimal as k_opt
from keypeg.errors import LimitExceededError, TimeLimitError
from keypeg.game import GameState
from keypeg.hints import optimal_hint
from keypeg.rules import Rules, find_rules
from keypeg.solver import endgame
from keypeg.solver.endgame import PROBE_TREES, candidate_bounds, most_parts, probe_pass, separator
from keypeg.solver.search import solve_optimal
from keypeg.space import CodeSpace, get_space
from keypeg.strategies.optimal import OptimalStrategy
from tests.naive import naive_optimal, score

GAMES = [Rules(pegs=3, colors=3), Rules(pegs=2, colors=5),
         Rules(pegs=3, colors=3, feedback="positional"), Rules(pegs=3, colors=4, repeats=False)]
_MEMOS: dict[Rules, dict] = {}


def _codes(rules: Rules) -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in c) for c in get_space(rules).codes]


def _parts(cands: list[tuple[int, ...]], guess: tuple[int, ...],
           model: str) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    parts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for s in cands:
        parts.setdefault(score(s, guess, model), []).append(s)
    return parts


def _greedy_total(cands: list[tuple[int, ...]], model: str, win: tuple[int, ...]) -> int:
    """The candidate-only tree written out plainly: each node plays the first candidate (in
    code order) of those making the most parts."""
    if len(cands) <= 2:
        return 2 * len(cands) - 1
    guess = max(cands, key=lambda g: (len(_parts(cands, g, model)), -cands.index(g)))
    return len(cands) + sum(_greedy_total(p, model, win)
                            for r, p in _parts(cands, guess, model).items() if r != win)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(GAMES), st.data())
def test_the_bounds_hold_and_an_exact_guess_is_optimal(rules, data):
    space = get_space(rules)
    codes = _codes(rules)
    chosen = data.draw(st.sets(st.integers(0, space.size - 1), min_size=1, max_size=9))
    S = np.array(sorted(chosen), dtype=np.int32)
    cands = [codes[i] for i in S]
    model = rules.feedback
    win = score(cands[0], cands[0], model)
    memo = _MEMOS.setdefault(rules, {})
    best = naive_optimal(codes, cands, model, memo=memo)
    got = candidate_bounds(space, S)
    greedy = _greedy_total(cands, model, win)
    assert got.lower <= best <= got.total <= greedy
    if got.total < greedy:  # a code that is no candidate roots a better tree
        assert int(got.guess) not in S.tolist()
        assert got.total == len(cands) + sum(
            _greedy_total(p, model, win) for p in _parts(cands, codes[got.guess], model).values())
    else:
        assert int(got.guess) in S.tolist()
    if got.exact:
        parts = _parts(cands, codes[got.guess], model)
        reached = len(cands) + sum(naive_optimal(codes, p, model, memo=memo)
                                   for r, p in parts.items() if r != win)
        assert reached == best


def test_small_sets_of_a_real_game_are_often_settled_exactly():
    """At the end of a game the bounds meet for most sets: checked against the search."""
    space = get_space(find_rules("classic"))
    rng = np.random.default_rng(7)
    exact = 0
    for _ in range(30):
        state = GameState.start(space)
        secret = space.code(int(rng.integers(space.size)))
        while state.count > 12:
            state = state.play(space.code(int(rng.integers(space.size))), secret)
        got = candidate_bounds(space, state.candidates)
        result = solve_optimal(space, state=state)
        optimum = result.total - len(state.history) * state.count
        assert got.lower <= optimum <= got.total
        if got.exact:  # the search's own choice among equals, too
            assert got.guess == result.tree.first_guess, state.history
            exact += 1
    assert exact >= 10, exact


def test_the_one_pass_settles_sets_no_candidate_settles():
    """Sets no candidate tells apart nor leaves a single pair in: a code that tells them
    apart is optimal at 2m (the first such); without one the optimum is at least 2m + 1."""
    rules = Rules(pegs=3, colors=5)
    space = get_space(rules)
    codes = _codes(rules)
    memo = _MEMOS.setdefault(rules, {})
    rng = np.random.default_rng(2)
    seen = {True: 0, False: 0}
    for _ in range(300):  # the sets random guesses leave (of at most 7 codes)
        state = GameState.start(space)
        secret = space.code(int(rng.integers(space.size)))
        while state.count > 7:
            state = state.play(space.code(int(rng.integers(space.size))), secret)
        S = np.sort(state.candidates)
        if S.size < 3:
            continue
        cands = [codes[i] for i in S]
        parts = [len(_parts(cands, g, "blackwhite")) for g in cands]
        if max(parts) >= len(S) - 1:  # (a candidate settles it: 2m - 1 or 2m)
            continue
        got = candidate_bounds(space, S)
        best = naive_optimal(codes, cands, "blackwhite", memo=memo)
        apart = separator(space, S)
        seen[apart >= 0] += 1
        if apart >= 0:
            assert (got.guess, got.total, got.lower) == (apart, 2 * len(S), 2 * len(S))
            assert best == 2 * len(S)
        else:
            assert 2 * len(S) + 1 <= got.lower <= best
    assert seen[True] and seen[False], seen


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.data())
def test_the_pass_finds_the_most_parts_any_code_makes(rules, data):
    space = get_space(rules)
    codes = _codes(rules)
    S = sorted(data.draw(st.sets(st.integers(0, space.size - 1), min_size=1, max_size=8)))
    floor = data.draw(st.integers(1, len(S)))
    parts = [(len({score(codes[s], g, rules.feedback) for s in S}), i)
             for i, g in enumerate(codes) if i not in S]
    most = max(k for k, _ in parts)
    expected = (most, next(i for k, i in parts if k == most)) if most >= floor else (-1, -1)
    assert most_parts(space, np.array(S), floor) == expected
    # the first code telling every code apart
    assert separator(space, np.array(S)) == (expected[1] if most == len(S) else -1)
    if rules.feedback == "blackwhite":  # by symbol counts (games of many multisets), in
        skip = np.zeros(space.size, dtype=np.bool_)  # blocks of 7 codes
        skip[S] = True
        wide = kfb.most_parts(space.codes, space.counts, space.multiset, space.common[:0],
                              space.packed, False, np.array(S, dtype=np.int64), skip,
                              (rules.pegs + 1) ** 2, floor, 7)
        assert wide == expected


def _first_guess_bound(cands, guess, model, win, part_least) -> int:
    """No tree over `cands` starting with `guess` takes fewer guesses: one each for the
    guess, then the least for each part but the guess's own win."""
    return len(cands) + sum(part_least[len(p)]
                            for r, p in _parts(cands, guess, model).items() if r != win)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.data())
def test_every_code_is_bounded_as_the_first_guess(rules, data):
    """`probe_pass`: the bound of every code as the first guess (the compiled pass, also by
    symbol counts), the least of them, and the cheapest of the trees it writes out, checked
    against the parts counted plainly; with it the bounds still hold (exhaustive optimum)."""
    space = get_space(rules)
    codes = _codes(rules)
    S = sorted(data.draw(st.sets(st.integers(0, space.size - 1), min_size=1, max_size=9)))
    cands = [codes[i] for i in S]
    model = rules.feedback
    win = score(codes[0], codes[0], model)
    part_least = k_opt.bound_tables(len(S), space.n_responses, False)[0][space.n_responses]
    expected = [_first_guess_bound(cands, g, model, win, part_least) for g in codes]
    positional = model == "positional"
    keys = 3 ** rules.pegs if positional else (rules.pegs + 1) ** 2
    for common, block in ((space.common, 1 << 12), (space.common[:0], 7)):
        got = kfb.probe_bounds(space.codes, space.counts, space.multiset, common,
                               space.packed, positional, np.array(S, dtype=np.int64), keys,
                               np.ascontiguousarray(part_least), block)
        assert got.tolist() == expected
    lowest, guess, total = probe_pass(space, np.array(S))
    assert lowest == min(expected)
    # the cheapest of the trees under the codes of the least bounds, the first of equals
    tried = sorted(range(len(codes)), key=lambda g: expected[g])[:PROBE_TREES]
    trees = {g: len(cands) + sum(_greedy_total(p, model, win)
                                 for r, p in _parts(cands, codes[g], model).items() if r != win)
             for g in tried}
    assert total == min(trees.values())
    assert guess == next(g for g in tried if trees[g] == total)
    best = naive_optimal(codes, cands, model, memo=_MEMOS.setdefault(rules, {}))
    bounds = candidate_bounds(space, np.array(S, dtype=np.int32), every_code=True)
    assert bounds.lower <= best <= bounds.total
    assert bounds.lower >= max(lowest, candidate_bounds(space, np.array(S)).lower) or bounds.exact


def test_a_search_out_of_time_reports_the_candidates_tree_when_it_found_nothing(no_book):
    rules = find_rules("bulls-and-cows")
    space = get_space(rules)
    state = GameState.start(space).after("0124", "0B2W").after("3567", "0B1W")
    optimum = solve_optimal(space, state=state).total - 2 * state.count
    strategy = OptimalStrategy(time_limit=1e-4)
    with pytest.raises(TimeLimitError) as info:
        strategy.next_guess(state)
    error = info.value
    assert error.best_guess is not None and error.lower is not None
    assert error.lower <= optimum <= error.best_total
    # the candidates' tree or a better one the search found
    assert error.best_total <= candidate_bounds(space, state.candidates).total


def test_a_search_on_a_big_view_bounds_every_code_first(no_book, monkeypatch):
    """Where the search's view is big (`PROBES_FIRST_WORK`, here every view), every code's
    bound as the first guess comes before the search: with no time left for the search's
    view (`VIEW_PER_PASS`) the hint answers with the pass's bound and tree, where they beat
    the candidates' own, without a search; with time, the search runs on what is left."""
    rules = find_rules("bulls-and-cows")
    space = CodeSpace(rules, budget=4_000_000, disk_cache=False)  # no table (25 MB), views
    state = GameState.start(space).after("0124", "0B2W").after("3567", "0B1W")
    assert not space.has_table
    optimum = solve_optimal(space, state=state).total - 2 * state.count
    alone = candidate_bounds(space, state.candidates)
    lowest, guess, total = probe_pass(space, state.candidates)
    assert lowest > alone.lower  # (the pass tells more here)
    monkeypatch.setattr(endgame, "PROBES_FIRST_WORK", 0)
    searched = []

    def search(*args, **kwargs):
        searched.append(kwargs["time_limit"])
        return solve_optimal(*args, **kwargs)

    monkeypatch.setattr(search_module, "solve_optimal", search)
    # no time for the search's view after the pass: no search, the pass's guess and bound
    with pytest.raises(TimeLimitError) as info:
        OptimalStrategy(time_limit=1e-4).next_guess(state)
    error = info.value
    assert error.lower == lowest <= optimum <= error.best_total <= min(total, alone.total)
    assert "takes longer to work out than the 0.0001 seconds" in str(error)
    assert searched == []
    # time enough: the search runs, with what the pass left of it, and finds the optimum
    best = OptimalStrategy(time_limit=60).next_guess(state)
    assert len(searched) == 1 and 59 < searched[0] < 60
    assert best.index == solve_optimal(space, state=state).tree.first_guess


def test_with_no_time_for_the_view_a_search_among_a_few_codes_betters_the_pass(
        no_book, monkeypatch):
    """Where the search's view would not fit in the time left (`VIEW_PER_PASS`, here never),
    the hint's second goes to the search among the candidates and a few other codes
    (`search.solve_among`) instead: a tree cheaper than the pass's and the candidates'
    own, not below the optimum, with the pass's bound, and no search for the optimum."""
    rules = find_rules("bulls-and-cows")
    space = CodeSpace(rules, budget=4_000_000, disk_cache=False)  # no table (25 MB), views
    state = GameState.start(space).after("0124", "0B2W").after("3567", "0B1W")
    optimum = solve_optimal(space, state=state).total - 2 * state.count
    alone = candidate_bounds(space, state.candidates)
    lowest, _, total = probe_pass(space, state.candidates)
    monkeypatch.setattr(endgame, "PROBES_FIRST_WORK", 0)
    monkeypatch.setattr(endgame, "VIEW_PER_PASS", 10**9)
    searched = []
    monkeypatch.setattr(search_module, "solve_optimal",
                        lambda *a, **kw: searched.append(kw) or solve_optimal(*a, **kw))
    with pytest.raises(TimeLimitError) as info:
        OptimalStrategy(time_limit=5).next_guess(state)
    error = info.value
    assert error.lower == lowest <= optimum <= error.best_total < min(total, alone.total)
    assert error.found_how == "by a search among the candidates and a few other codes"
    assert searched == []
    out = optimal_hint(state, seconds=5)
    assert out.found is not None and out.found.total == error.best_total
    assert "found by a search among the candidates and a few other codes" in out.note


@pytest.fixture(scope="module")
def big():
    return get_space(find_rules("mm-8-8"))


def _mm88_state(space, count_at_most: int, seed: int) -> tuple[GameState, object]:
    rng = np.random.default_rng(seed)
    secret = space.code(int(rng.integers(space.size)))
    state = GameState.start(space)
    while state.count > count_at_most:
        pool = state.candidates if state.count < 10_000 else None
        g = int(rng.choice(pool)) if pool is not None else int(rng.integers(space.size))
        state = state.play(space.code(g), secret)
    return state, secret


@pytest.mark.slow
def test_mm88_hints_are_exact_at_the_end_and_bounded_before(big):
    """MM(8,8): no search for the optimum can run (16.8 million codes), yet the hint
    names the optimal guess where the candidates' bounds meet, and elsewhere (at most 600
    candidates) the best guess found with its bounds, saying it is not proven: the
    candidates' own tree's, or a better one found by the search among the candidates and a
    few other codes (`search.solve_among`), which beat it in some positions (and, where its
    total met the bound, proved its first guess optimal). The bound is the candidates'."""
    exact = bounded = better = 0
    for seed in range(12):
        state, secret = _mm88_state(big, 600, seed)
        while state.count > 2:
            bounds = candidate_bounds(big, state.candidates)
            out = optimal_hint(state)
            if bounds.exact:
                assert out.optimal is not None and out.optimal.guess == big.text(bounds.guess)
                exact += 1
            elif out.optimal is not None:  # the search among found a tree meeting the bound
                better += 1
            else:
                assert not out.timed_out
                found = out.found
                assert found is not None and found.lower == bounds.lower
                assert bounds.lower < found.total <= bounds.total and found.guess in out.note
                if found.total < bounds.total:
                    assert ("found by a search among the candidates and a few other "
                            "codes") in out.note
                    better += 1
                else:
                    assert found.guess == big.text(bounds.guess)
                    assert "from the candidates alone" in out.note
                bounded += 1
            state = state.play(big.code(bounds.guess), secret)
    assert exact and bounded and better, (exact, bounded, better)


@pytest.mark.slow
def test_mm88_refuses_the_optimal_guess_past_600_candidates(big):
    state = GameState.start(big).play("12345678", "87654321")
    assert state.count > 600
    with pytest.raises(LimitExceededError) as info:
        OptimalStrategy().next_guess(state)
    assert info.value.best_guess is None
