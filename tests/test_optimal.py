import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg.errors import KeypegError, LimitExceededError
from keypeg.game import GameState
from keypeg.published import published
from keypeg.rules import Rules
from keypeg.solver import solve_optimal
from keypeg.solver.cached import optimal, shipped_tree
from keypeg.solver.ledger import LEDGER_CELLS, run_ledger, two_peg_closed_form
from keypeg.space import get_space
from keypeg.store import Store
from tests import naive

CLASSIC = Rules(pegs=4, colors=6)
PUB = published()
TINY = [
    Rules(pegs=2, colors=3),
    Rules(pegs=3, colors=2),
    Rules(pegs=2, colors=4),
    Rules(pegs=3, colors=3),
    Rules(pegs=3, colors=4, repeats=False),
    Rules(pegs=2, colors=3, feedback="positional"),
    Rules(pegs=3, colors=2, feedback="positional"),
    Rules(pegs=2, colors=2, blanks=True),
]


def naive_total(rules, **kw):
    space = get_space(rules)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    return naive.naive_optimal(codes, codes, rules.feedback, **kw)


@pytest.mark.parametrize("rules", TINY, ids=lambda r: r.key)
def test_optimum_equals_exhaustive_search(rules):
    result = solve_optimal(rules)
    assert result.total == naive_total(rules)
    result.tree.replay()
    assert solve_optimal(rules, symmetry=False).total == result.total
    po = solve_optimal(rules, possible_only=True)
    assert po.total == naive_total(rules, possible_only=True)
    po.tree.replay()
    # every guess of a possible-only tree could be the secret when played
    space = get_space(rules)
    state_sets = {0: space.all()}
    for i in range(1, po.tree.nodes):
        p = int(po.tree.parent[i])
        state_sets[i] = space.filter(state_sets[p], int(po.tree.guess[p]),
                                     int(po.tree.response[i]))
    for i, cands in state_sets.items():
        assert int(po.tree.guess[i]) in set(cands.tolist())


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(TINY[:6]), st.integers(2, 4))
def test_depth_cap_and_worst_case_equal_exhaustive(rules, cap):
    want = naive_total(rules, depth=cap)
    if math.isinf(want):
        with pytest.raises(KeypegError, match="no strategy"):
            solve_optimal(rules, max_guesses=cap)
    else:
        result = solve_optimal(rules, max_guesses=cap)
        assert result.total == want and result.worst <= cap
        result.tree.replay()
    worst = solve_optimal(rules, objective="worst")
    lowest = next(d for d in range(1, 10) if not math.isinf(naive_total(rules, depth=d)))
    assert worst.worst == lowest
    assert worst.total == naive_total(rules, depth=lowest)


def test_classic_optimum():
    pub = PUB["optimal"]["classic"]
    result = solve_optimal(CLASSIC)
    assert (result.total, result.first_guess, result.histogram, result.worst) == (
        pub["total"], pub["first_guess"], pub["histogram"], pub["worst"])
    result.tree.replay()
    capped = solve_optimal(CLASSIC, max_guesses=5)
    assert capped.total == pub["max5_total"] and capped.worst == 5
    worst = solve_optimal(CLASSIC, objective="worst")
    assert (worst.worst, worst.total) == (5, pub["max5_total"])


@pytest.mark.slow
@pytest.mark.parametrize("first", ["1111", "1112", "1122", "1123", "1234"])
def test_classic_optimum_after_each_first_guess(first):
    pub = PUB["optimal"]["classic"]["after_first_guess"][first]
    assert solve_optimal(CLASSIC, first=first).total == pub["total"]
    if pub["max5_total"] is None:
        with pytest.raises(KeypegError, match="within 5 guesses"):
            solve_optimal(CLASSIC, first=first, max_guesses=5)
    else:
        assert solve_optimal(CLASSIC, first=first, max_guesses=5).total == pub["max5_total"]


def test_fixed_first_guess_is_played():
    result = solve_optimal(CLASSIC, first="1122")
    want = PUB["optimal"]["classic"]["after_first_guess"]["1122"]["total"]
    assert result.first_guess == "1122" and result.total == want


def test_solving_from_a_state():
    state = GameState.start(CLASSIC).after("1122", "1B1W")
    result = solve_optimal(CLASSIC, state=state)
    want = naive.naive_filter(naive.all_codes(4, 6), [((0, 0, 1, 1), (1, 1))], "blackwhite")
    assert result.tree.secrets == len(want) and result.tree.depth[0] == 2
    result.tree.replay(secrets=state.candidates)
    # the optimal tree from the root, followed after 1122 / 1B1W, costs no less
    assert result.total <= solve_optimal(CLASSIC, first="1122").tree.total


def test_time_limit():
    with pytest.raises(LimitExceededError, match="did not finish"):
        solve_optimal(Rules(pegs=4, colors=7), time_limit=0.2)


def test_two_peg_closed_form():
    row = PUB["ledger"]["totals"]["2"]
    for c in range(3, 17):
        assert two_peg_closed_form(c) == row[str(c)]
    # the form gives 7 at c = 2, but MM(2,2) needs 8 (no code separates the others)
    assert solve_optimal(Rules(pegs=2, colors=2)).total == row["2"] == 8


def test_fast_ledger_cells():
    cells = run_ledger(max_seconds=20, max_codes=300)
    assert len(cells) == 28 and all(c["status"] == "ok" for c in cells)


@pytest.mark.slow
def test_every_published_ledger_cell():
    cells = run_ledger(max_seconds=600)
    assert [c for c in cells if c["status"] != "ok"] == []
    assert len(cells) == len(LEDGER_CELLS) == 37


def test_shipped_trees_replay():
    for pegs, colors in ((4, 6), (4, 7)):
        tree = shipped_tree(pegs, colors)
        assert tree is not None and tree.total == PUB["ledger"]["totals"][str(pegs)][str(colors)]
        tree.replay()


def test_store_makes_the_second_answer_instant(tmp_path):
    store = Store(tmp_path / "k.db")
    rules = Rules(pegs=3, colors=5)
    first, cached = optimal(rules, store=store)
    assert not cached
    again, cached = optimal(rules, store=store)
    want = PUB["ledger"]["totals"]["3"]["5"]
    assert cached and again.total == first.total == want
    assert np.array_equal(again.tree.guess, first.tree.guess)
    fresh, cached = optimal(rules, store=store, recompute=True)
    assert not cached and fresh.total == want
    shipped, cached = optimal(CLASSIC, store=store)
    assert cached and shipped.total == PUB["optimal"]["classic"]["total"]


def test_worst_case_optima_match_known_values():
    # seed 002: Jaeger and Peczarski computed W(3,c) = 3, 4, 4 for c = 2, 3, 4
    assert [solve_optimal(Rules(pegs=3, colors=c), objective="worst").worst
            for c in (2, 3, 4)] == [3, 4, 4]
    # Chen and Lin (2004): floor(c/2) + 2 guesses are necessary and sufficient for MM(2,c)
    for c in range(2, 11):
        assert solve_optimal(Rules(pegs=2, colors=c), objective="worst").worst == c // 2 + 2
    # Knuth: five guesses always suffice for MM(4,6), four do not
    assert solve_optimal(CLASSIC, objective="worst").worst == 5


@pytest.mark.parametrize("rules,clues", [
    (CLASSIC, []),
    (CLASSIC, ["1122=1B0W"]),
    (Rules(pegs=3, colors=5, feedback="positional"), []),
    (Rules(pegs=4, colors=4), []),
])
def test_parallel_root_equals_serial_on_small_games(rules, clues):
    """Workers are forced (they only start by default from 2,000 codes): the optimum and
    the whole tree are the serial search's."""
    state = GameState.from_clues(rules, clues)
    serial = solve_optimal(rules, state=state, workers=1)
    parallel = solve_optimal(rules, state=state, workers=2)
    assert parallel.stats["workers"] == 2 and serial.stats["workers"] == 1
    assert parallel.total == serial.total
    for a, b in ((parallel.tree, serial.tree),):
        assert np.array_equal(a.guess, b.guess) and np.array_equal(a.parent, b.parent)
        assert np.array_equal(a.response, b.response) and a.histogram == b.histogram
    parallel.tree.replay(secrets=state.candidates)
