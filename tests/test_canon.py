"""Sets looked up by their permuted image (`_kernels/canon.py`): the image is a copy of the
set under one element of the game's group (checked by plain permutation of codes), a copy
costs what the set costs (exhaustive search), and the search with images finds the same
optimum and the same tree as without them, with fewer probes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg._kernels.canon import CANON_MAX, canonical_set, code_lookup
from keypeg.game import GameState
from keypeg.rules import Rules
from keypeg.solver.search import _Search, solve_optimal
from keypeg.space import get_space
from tests import naive
from tests.test_view import random_state

RULES = [
    Rules(pegs=3, colors=4),
    Rules(pegs=4, colors=4),
    Rules(pegs=3, colors=5, repeats=False),
    Rules(pegs=3, colors=3, feedback="positional"),
    Rules(pegs=4, colors=3, feedback="positional"),
]


def image(code, pi, phi):
    """Symbol phi(code[pi[i]]) at position i (the action `canonical_set` names)."""
    return tuple(int(phi[code[pi[i]]]) for i in range(len(code)))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RULES), st.data())
def test_the_image_is_a_permuted_copy_that_costs_the_same(rules, data):
    space = get_space(rules)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    m = data.draw(st.integers(2, min(CANON_MAX, space.size)))
    S = np.array(sorted(data.draw(st.lists(st.integers(0, space.size - 1), min_size=m,
                                           max_size=m, unique=True))), dtype=np.int32)
    perms = _Search.position_perms(rules)
    key, pe, phi = canonical_set(S, space.codes, perms, code_lookup(space.codes, rules.symbols),
                                 rules.symbols)
    assert 0 <= pe < perms.shape[0]
    assert sorted(phi.tolist()) == list(range(rules.symbols))  # a renaming of the colours
    copy = {image(codes[x], perms[pe], phi) for x in S.tolist()}
    assert [codes[x] for x in key.tolist()] == sorted(copy, key=codes.index)
    if m <= 7:
        # a permuted copy costs the same (the exhaustive search, with every code a probe)
        a = naive.naive_optimal(codes, [codes[x] for x in S.tolist()], rules.feedback)
        b = naive.naive_optimal(codes, sorted(copy), rules.feedback)
        assert a == b


def without_images(monkeypatch):
    monkeypatch.setattr(_Search, "image_lookup",
                        staticmethod(lambda *_a: np.zeros(0, dtype=np.int32)))


CASES = [
    (Rules(pegs=4, colors=5), {}),
    (Rules(pegs=4, colors=6), {}),
    (Rules(pegs=4, colors=6, repeats=False), {}),
    (Rules(pegs=4, colors=5), {"possible_only": True}),
    (Rules(pegs=4, colors=5), {"max_guesses": 5}),
    (Rules(pegs=4, colors=5, feedback="positional"), {}),
]


@pytest.mark.parametrize(("rules", "options"), CASES,
                         ids=[f"{r.key}-{'-'.join(o) or 'plain'}" for r, o in CASES])
def test_images_give_the_same_optimum_and_tree_with_fewer_probes(monkeypatch, rules, options):
    space = get_space(rules)
    states = [GameState.start(space)]
    states += [s for s in (random_state(space, seed, low=20, high=400) for seed in range(3))
               if s is not None]
    fewer = 0
    for state in states:
        found = solve_optimal(space, state=state, workers=1, **options)
        with monkeypatch.context() as m:
            without_images(m)
            plain = solve_optimal(space, state=state, workers=1, **options)
        assert found.total == plain.total
        for name in ("guess", "parent", "response", "depth", "size"):
            assert np.array_equal(getattr(found.tree, name), getattr(plain.tree, name)), name
        fewer += found.stats["probes"] < plain.stats["probes"]
    assert fewer >= 1  # the images are looked up and answer some sets


def test_weighted_and_blank_searches_key_sets_by_themselves():
    """A permuted copy may weigh otherwise, and a blank is no colour to rename."""
    space = get_space(Rules(pegs=3, colors=4))
    assert _Search.image_lookup(space, True, None, None).size == 4**3
    assert _Search.image_lookup(space, True, np.ones(space.size, np.int64), None).size == 0
    assert _Search.image_lookup(space, False, None, None).size == 0
    blanks = get_space(Rules(pegs=3, colors=2, blanks=True, feedback="positional"))
    assert _Search.image_lookup(blanks, True, None, None).size == 0


def test_seven_pegs_and_more_key_sets_by_themselves():
    """Past six pegs the 5,040 and more position permutations of each set cost more than
    their memo hits save: the lookup is empty there (six pegs keep it), and the search from
    positions of MM(7,2) still finds the exhaustive reference's optimum."""
    assert _Search.image_lookup(get_space(Rules(pegs=6, colors=2)), True, None, None).size
    seven = get_space(Rules(pegs=7, colors=2))
    assert _Search.image_lookup(seven, True, None, None).size == 0
    codes = [tuple(int(x) for x in row) for row in seven.codes]
    states = [s for s in (random_state(seven, seed, low=6, high=14) for seed in range(12))
              if s is not None]
    assert len(states) >= 3
    for state in states:
        cands = [codes[x] for x in state.candidates.tolist()]
        found = solve_optimal(seven, state=state, workers=1)
        want = naive.naive_optimal(codes, cands, "blackwhite")
        assert found.total == want + len(state.history) * state.count
