"""Position symmetry in the one-step strategies: with the group of position x colour
permutations that fix the guesses played (and keep their answers, positional), each
strategy scores one probe per class, the first (last) of the class, which is the probe its
tie rule picks among the whole class. Checked against the strategies without symmetry
(same trees, node for node) and against plain enumeration of the root's classes."""

import itertools

import numpy as np
import pytest

from keypeg._kernels import symmetry as ks
from keypeg.game import GameState
from keypeg.onestep import OneStepStrategy, _code_set, history_group
from keypeg.rules import Rules
from keypeg.space import get_space
from tests.test_canon import RULES as CANON_RULES
from tests.test_view import random_state

# the games of the image tests, and two positional ones (no repeats; blanks)
RULES = [
    *CANON_RULES,
    Rules(pegs=3, colors=4, repeats=False, feedback="positional"),
    Rules(pegs=3, colors=2, blanks=True, feedback="positional"),
]
NAMES = ["maxsize", "expsize", "entropy", "parts"]


def kept_at_root(rules, largest):
    """The codes `canonical_under` keeps before any guess (every colour free)."""
    space = get_space(rules)
    codes = _code_set(space)
    history = history_group(codes, [], [], 0)
    is_free, is_zero, free_list, n_free, zero_list, n_zero = ks.colour_classes(
        space.colmask, np.arange(space.size, dtype=np.int32), np.uint64(0), rules.symbols)
    ok = np.zeros(space.size, dtype=np.bool_)
    ks.canonical_under(space.codes, np.arange(space.size), history.perms, history.colour_maps,
                       codes.inverse_perms, free_list, n_free, zero_list, n_zero, is_zero,
                       rules.repeats, largest, ok)
    return {tuple(int(x) for x in space.codes[i]) for i in np.flatnonzero(ok)}


@pytest.mark.parametrize("largest", [False, True])
@pytest.mark.parametrize("rules", [Rules(pegs=4, colors=6), Rules(pegs=3, colors=5),
                                   Rules(pegs=4, colors=6, repeats=False)],
                         ids=["p4c6", "p3c5", "p4c6-norep"])
def test_at_the_root_one_code_per_pattern_is_kept(rules, largest):
    """Before any guess every code with the same pattern of repeated colours (AABC ...) is
    in one class; the kept code is the least (greatest) of it, by plain enumeration."""
    codes = [tuple(int(x) for x in row) for row in get_space(rules).codes]
    classes: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for c in codes:
        sizes = tuple(sorted((c.count(x) for x in set(c)), reverse=True))
        classes.setdefault(sizes, []).append(c)
    want = {max(v) if largest else min(v) for v in classes.values()}
    assert kept_at_root(rules, largest) == want


def same_tree(a, b):
    return all(np.array_equal(getattr(a, n), getattr(b, n))
               for n in ("guess", "parent", "response", "depth", "size"))


@pytest.mark.parametrize("rules", RULES, ids=[r.key for r in RULES])
@pytest.mark.parametrize("tie", ["first", "last"])
def test_position_symmetry_keeps_every_tree(rules, tie):
    space = get_space(rules)
    states = [GameState.start(space)]
    states += [s for s in (random_state(space, seed, low=3, high=space.size // 3)
                           for seed in range(3)) if s is not None]
    for name in NAMES:
        for state in states:
            fast = OneStepStrategy(name, tie=tie).tree(space, state)
            plain = OneStepStrategy(name, tie=tie, symmetry=False).tree(space, state)
            assert same_tree(fast, plain), (name, state.count)
            if state.count > 2:
                guesses = [c.guess.index for c in state.history]
                assert (OneStepStrategy(name, tie=tie).choose(space, state.candidates, guesses)
                        == OneStepStrategy(name, tie=tie, symmetry=False).choose(
                            space, state.candidates, guesses))


def test_the_history_group_fixes_every_guess_and_answer():
    """Each element kept after two guesses maps both guesses onto themselves (by plain
    permutation of their symbols) and, positional, the candidates onto themselves."""
    rules = Rules(pegs=4, colors=4, feedback="positional")
    space = get_space(rules)
    state = random_state(space, 5, low=3, high=60)
    guesses = [c.guess.index for c in state.history]
    codes = _code_set(space)
    answers = [int(space.responses(g, state.candidates[:1])[0]) for g in guesses]
    history = history_group(codes, guesses, answers, space.played_mask(guesses))
    cands = {tuple(int(x) for x in space.codes[i]) for i in state.candidates}
    for pe, phi in zip(history.perms, history.colour_maps, strict=True):
        pi = codes.perms[pe]
        for free in itertools.permutations([c for c in range(rules.symbols) if phi[c] < 0]):
            full = phi.astype(int).copy()
            rest = iter(free)
            taken = set(full[full >= 0].tolist())
            for c in range(rules.symbols):
                if full[c] < 0:
                    full[c] = next(d for d in rest if d not in taken)

            def image(code, full=full, pi=pi):
                out = [0] * len(code)
                for k, c in enumerate(code):
                    out[pi[k]] = full[c]
                return tuple(out)

            for g in guesses:
                code = tuple(int(x) for x in space.codes[g])
                assert image(code) == code
            assert {image(c) for c in cands} == cands
            break  # one completion of the free colours is enough
