"""Whole trees without the full feedback table (`onestep.split_tree`): played part by part,
with each part's answers computed on the fly, a one-step strategy's tree is the one the
full table gives, checked on games where both fit, and against the published totals
with a table budget too small for the table."""

import numpy as np
import pytest

from keypeg.onestep import split_tree
from keypeg.published import published
from keypeg.rules import Rules, find_rules
from keypeg.space import get_space
from keypeg.strategies import TABLE_STRATEGIES, evaluate, find_strategy

GAMES = [Rules(pegs=4, colors=6), Rules(pegs=3, colors=5, feedback="positional"),
         Rules(pegs=4, colors=7, repeats=False), Rules(pegs=3, colors=6, repeats=False,
                                                      feedback="positional")]


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.key)
@pytest.mark.parametrize("name", [*TABLE_STRATEGIES, "entropy-last", "parts-possible",
                                  "maxsize-possible"])
def test_split_trees_equal_full_table_trees(rules, name):
    space = get_space(rules)
    base, _, option = name.partition("-")
    strategy = find_strategy(base, tie="last" if option == "last" else "first",
                             possible_only=option == "possible")
    whole = strategy.tree(space)
    # a budget of 40 answers per code forces splitting down to small parts
    split = split_tree(strategy, space, budget=space.size * 40)
    assert split.first_guess == whole.first_guess
    assert (split.total, split.histogram, split.nodes) == (whole.total, whole.histogram,
                                                          whole.nodes)
    assert np.array_equal(split.depths(space), whole.depths(space))  # replayed, secret by secret
    assert sorted(split.guess.tolist()) == sorted(whole.guess.tolist())


def test_evaluate_walks_big_games_part_by_part(monkeypatch):
    """With a table budget below classic's table, evaluate no longer refuses: the totals
    are still the published ones."""
    monkeypatch.setenv("KEYPEG_TABLE_BUDGET", str(1024 * 1024))  # classic needs 1.6 MB
    from keypeg.space import CodeSpace

    space = CodeSpace(Rules(pegs=4, colors=6), disk_cache=False)
    assert not space.fits_table
    trees = evaluate([find_strategy(n) for n in TABLE_STRATEGIES], space)
    pub = published()["evaluate"]["classic"]["all_probes"]
    for name, tree in zip(TABLE_STRATEGIES, trees, strict=True):
        assert tree.total == pub[name]["total"] and tree.histogram == pub[name]["histogram"]


def test_games_past_the_split_limit_are_still_refused():
    from keypeg.errors import LimitExceededError

    with pytest.raises(LimitExceededError, match="full feedback table"):
        evaluate([find_strategy("entropy")], Rules(pegs=8, colors=8))
    with pytest.raises(LimitExceededError):  # not every strategy can split
        evaluate([find_strategy("entropy"), find_strategy("random")],
                 find_rules("codebreaker-4"))



@pytest.mark.parametrize("rules", [Rules(pegs=4, colors=10),
                                   Rules(pegs=4, colors=10, feedback="positional")],
                         ids=lambda r: r.key)
def test_possible_only_splits_past_the_small_spaces(rules):
    """Past 8,192 codes without the table, a possible-codes-only strategy scores one
    candidate per symmetry class (the table path scores every candidate): the same tree."""
    from keypeg.space import CodeSpace

    strategy = find_strategy("maxsize", possible_only=True)
    whole = strategy.tree(get_space(rules))
    space = CodeSpace(rules, budget=rules.size * 40, disk_cache=False)
    split = split_tree(strategy, space)
    assert not space.has_table
    assert (split.total, split.histogram, split.nodes) == (whole.total, whole.histogram,
                                                          whole.nodes)
    assert np.array_equal(split.guess, whole.guess)


def test_parts_solved_elsewhere_join_into_the_same_tree():
    """`split_tree(parts=...)` (how a cluster walks the first guess's parts): the parts
    solved by the callable, in answer order, join into the local tree."""
    rules = Rules(pegs=4, colors=6)
    space = get_space(rules)
    strategy = find_strategy("expsize")
    seen = []

    def parts(states):
        seen.extend(s.count for s in states)
        return [split_tree(strategy, space, s) for s in states]

    joined = split_tree(strategy, space, parts=parts)
    whole = strategy.tree(space)
    assert sum(seen) == space.size - 1  # every secret but the first guess
    for name in ("guess", "parent", "response", "depth", "size"):
        assert np.array_equal(getattr(joined, name), getattr(whole, name)), name
