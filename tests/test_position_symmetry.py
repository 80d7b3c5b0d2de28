"""Position symmetry with positional (green/amber/gray) answers: permuting the positions of
guess and secret maps each answer to one of the same size, so the optimal search uses
position permutations too, keeping at each node only the elements that keep every clue.
Checked against plain permutation of codes (naive) and against the search without
symmetry."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg._kernels import optimal as k
from keypeg.game import GameState
from keypeg.rules import Rules
from keypeg.solver.search import _Search, solve_optimal
from keypeg.space import get_space
from tests import naive
from tests.test_view import random_state

POSITIONAL = [
    Rules(pegs=3, colors=3, feedback="positional"),
    Rules(pegs=3, colors=4, feedback="positional"),
    Rules(pegs=4, colors=3, feedback="positional"),
    Rules(pegs=3, colors=5, repeats=False, feedback="positional"),
    Rules(pegs=3, colors=2, blanks=True, feedback="positional"),
]
IDS = [r.key for r in POSITIONAL]


def image(code, pi, phi):
    """The code an element maps `code` to: symbol phi(code[k]) at position pi[k]."""
    out = [0] * len(code)
    for i, c in enumerate(code):
        out[pi[i]] = phi[c]
    return tuple(out)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(POSITIONAL), st.data())
def test_clue_group_keeps_exactly_the_elements_that_keep_the_part(rules, data):
    """Among the elements fixing a guess, `clue_group` keeps exactly those that map the
    codes giving one answer onto themselves (by plain permutation of the codes)."""
    space = get_space(rules)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    g = data.draw(st.integers(0, space.size - 1))
    s = data.draw(st.integers(0, space.size - 1))
    answer = naive.positional(codes[s], codes[g])
    part = {c for c in codes if naive.positional(c, codes[g]) == answer}
    perms = _Search.position_perms(rules)
    nsym = rules.symbols
    # every element (position permutation, colour permutation) as the kernels take it
    elems = [(e, phi) for e in range(perms.shape[0])
             for phi in itertools.permutations(range(nsym))]
    gperm = np.array([e for e, _ in elems], dtype=np.int32)
    gphi = np.array([phi for _, phi in elems], dtype=np.int8)
    fixing = [(int(e), tuple(int(x) for x in phi)) for e, phi in zip(gperm, gphi, strict=True)
              if image(codes[g], perms[e], phi) == codes[g]]
    fperm = np.array([e for e, _ in fixing], dtype=np.int32)
    fphi = np.array([phi for _, phi in fixing], dtype=np.int8).reshape(len(fixing), nsym)
    marks = _Search.answer_marks(space)
    r = space.response_index(space.feedback(int(space.responses(g, np.array([s]))[0])))
    kept_perm, kept_phi = k.clue_group(fperm, fphi, g, r, space.codes, perms, marks)
    kept = {(int(e), tuple(int(x) for x in phi)) for e, phi in zip(kept_perm, kept_phi,
                                                                      strict=True)}
    for e, phi in fixing:
        keeps = {image(c, perms[e], phi) for c in part} == part
        assert ((e, phi) in kept) == keeps, (codes[g], answer, perms[e], phi)


@pytest.mark.parametrize("rules", POSITIONAL, ids=IDS)
@pytest.mark.parametrize("seed", range(5))
def test_position_symmetry_gives_the_optimum_and_tree_of_no_reduction(rules, seed):
    space = get_space(rules)
    state = GameState.start(space) if seed == 0 else random_state(space, seed, low=0, high=30)
    plain = solve_optimal(space, state=state, symmetry=False)
    reduced = solve_optimal(space, state=state)
    assert reduced.total == plain.total
    for name in ("guess", "parent", "response", "depth", "size"):
        assert np.array_equal(getattr(reduced.tree, name), getattr(plain.tree, name)), name
    reduced.tree.replay(secrets=state.candidates)
    if state.count <= 30:
        codes = [tuple(int(x) for x in row) for row in space.codes]
        cands = [codes[i] for i in state.candidates.tolist()]
        want = naive.naive_optimal(codes, cands, rules.feedback)
        assert reduced.total == want + len(state.history) * state.count


def test_position_symmetry_is_used(monkeypatch):
    """Position permutations cut the work of colour permutations alone, for the same
    optimum (and tree)."""
    rules = Rules(pegs=4, colors=5, feedback="positional")
    both = solve_optimal(rules)
    identity = np.arange(rules.pegs, dtype=np.int8)[None, :]
    monkeypatch.setattr(_Search, "position_perms", staticmethod(lambda _rules: identity))
    colours = solve_optimal(rules)
    assert both.total == colours.total
    assert np.array_equal(both.tree.guess, colours.tree.guess)
    assert both.stats["probes"] < colours.stats["probes"] / 2
