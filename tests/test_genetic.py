"""The genetic algorithm (keypeg.genetic) and sampled evaluation (keypeg.sampling): answers
computed without a code space equal the naive reference, the eligible codes are consistent,
the algorithm is reproducible for a seed and always plays legal codes, and
`keypeg evaluate --sample` labels its result approximate with a confidence interval."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg import genetic
from keypeg.codes import Code, format_symbols
from keypeg.errors import KeypegError
from keypeg.rules import Rules, find_rules
from keypeg.sampling import draw_secrets, sampled_evaluation
from keypeg.strategies import find_strategy

from . import naive
from .test_cli import run

RULES = [Rules(pegs=4, colors=6), Rules(pegs=3, colors=4, feedback="positional"),
         Rules(pegs=4, colors=10, repeats=False), find_rules("codebreaker-4"),
         Rules(pegs=5, colors=10, repeats=False, feedback="positional"),
         Rules(pegs=8, colors=8)]


def _key(rules, secret, guess):
    t = naive.score(tuple(secret), tuple(guess), rules.feedback)
    if rules.feedback == "blackwhite":
        return t[0] * (rules.pegs + 1) + t[1]
    key = 0
    for m in t:
        key = key * 3 + m
    return key


def _legal(rules, code):
    code = [int(x) for x in code]
    return (len(code) == rules.pegs and all(0 <= x < rules.symbols for x in code)
            and (rules.repeats or len(set(code)) == len(code)))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RULES), st.integers(0, 2**32 - 1))
def test_answers_without_a_space_equal_the_naive_reference(rules, seed):
    a, b = draw_secrets(rules, 2, seed)
    assert genetic.answer_key(rules, a, b) == _key(rules, a, b)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULES[:5]), st.integers(0, 2**32 - 1), st.integers(1, 3))
def test_eligible_codes_fit_every_answer(rules, seed, turns):
    secret = draw_secrets(rules, 1, seed)[0]
    rng = np.random.default_rng(seed)
    guesses = draw_secrets(rules, turns, seed + 1)
    keys = np.array([_key(rules, secret, g) for g in guesses], dtype=np.int64)
    codes = genetic.eligible_codes(rules, guesses, keys, rng)
    assert 1 <= len(codes) <= genetic.ELIGIBLE
    assert len({c.tobytes() for c in codes}) == len(codes)
    fits = [all(_key(rules, c, g) == k for g, k in zip(guesses, keys, strict=True))
            for c in codes]
    # consistent codes, or (none found) the single fittest code
    assert all(fits) or len(codes) == 1
    assert all(_legal(rules, c) for c in codes)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(RULES[:5]), st.integers(0, 2**32 - 1), st.integers(0, 99))
def test_it_always_plays_legal_codes_and_finds_the_secret(rules, seed, ga_seed):
    secret = draw_secrets(rules, 1, seed)[0]
    guesses = genetic.play(rules, secret, ga_seed, max_guesses=30)
    assert np.array_equal(guesses[-1], secret)
    assert all(_legal(rules, g) for g in guesses)
    assert len({g.tobytes() for g in guesses}) == len(guesses)  # never the same guess twice
    again = genetic.play(rules, secret, ga_seed, max_guesses=30)
    assert [g.tolist() for g in again] == [g.tolist() for g in guesses]  # reproducible


def test_a_game_on_mm88_needs_no_code_space(monkeypatch):
    from keypeg import space

    def refuse(rules):
        raise AssertionError("the genetic algorithm asked for a code space")

    monkeypatch.setattr(space, "get_space", refuse)
    monkeypatch.setattr(space, "CodeSpace", refuse)
    rules = Rules(pegs=8, colors=8)
    secret = draw_secrets(rules, 1, 5)[0]
    guesses = genetic.play(rules, secret, 0)
    assert np.array_equal(guesses[-1], secret)


def test_the_registered_strategy_walks_an_exact_tree():
    rules = Rules(pegs=3, colors=3)
    s = find_strategy("genetic", seed=4)
    tree = s.tree(rules)
    assert tree.secrets == 27 and tree.total >= 73  # 73 is the optimum (ledger)
    tree.replay()
    assert find_strategy("ga", seed=4).tree(rules).total == tree.total  # deterministic
    assert find_strategy("genetic").label == "genetic (seed 0)"
    with pytest.raises(KeypegError):
        find_strategy("genetic", possible_only=True)


def test_sampled_evaluation_reports_an_interval():
    rules = find_rules("classic")
    row = sampled_evaluation(rules, find_strategy("entropy"), 40, 3)
    assert row["approximate"] is True and row["secrets"] == 40
    lo, hi = row["ci95"]
    assert lo <= row["mean"] <= hi and hi - lo < 1.5
    assert sum(row["histogram"]) == 40 and row["total"] == sum(
        (i + 1) * n for i, n in enumerate(row["histogram"]))
    # the same secrets and games for the same seed
    assert sampled_evaluation(rules, find_strategy("entropy"), 40, 3) == row
    # each game is the strategy's own: its depth in the exact tree
    tree = find_strategy("entropy").tree(rules)
    from keypeg.space import get_space

    space = get_space(rules)
    depths = tree.depths(space)
    secrets = draw_secrets(rules, 40, 3)
    idx = [space.index(format_symbols(s, rules)) for s in secrets]
    assert row["total"] == int(depths[idx].sum())


def test_evaluate_sample_cli():
    out = run(["evaluate", "--pegs", "6", "--colors", "9", "-s", "genetic", "--sample", "3",
               "--seed", "2", "--json"])
    assert out.exit_code == 0, out.output
    (row,) = json.loads(out.stdout)
    assert row["approximate"] is True and row["strategy"] == "genetic"
    assert row["secrets"] == 3 and len(row["ci95"]) == 2
    assert Code.parse(row["first_guess"], Rules(pegs=6, colors=9))
    out = run(["evaluate", "--rules", "classic", "-s", "genetic", "--sample", "0"])
    assert out.exit_code == 2 and "--sample" in out.output
    # one secret gave the interval 4.000 to 4.000, as if exact
    out = run(["evaluate", "--rules", "classic", "-s", "maxsize", "--sample", "1"])
    assert out.exit_code == 2 and "from 2 to" in out.output
    out = run(["evaluate", "--rules", "classic", "-s", "maxsize", "--sample", "2"])
    assert out.exit_code == 0 and "2 secrets drawn" in " ".join(out.output.split())


@pytest.mark.slow
def test_the_readme_numbers_come_from_the_code():
    stats = json.loads((__import__("pathlib").Path(__file__).resolve().parent.parent
                        / "docs" / "stats.json").read_text())["genetic"]
    tree = find_strategy("genetic", seed=0).tree(find_rules("classic"))
    assert tree.summary() == {k: v for k, v in stats["exact_classic"].items()
                              if k != "seconds"}
    row = sampled_evaluation(Rules(pegs=6, colors=9), find_strategy("genetic", seed=0), 5,
                             seed=1)
    first = next(r for r in stats["sampled"] if r["game"] == "MM(6,9)")
    # the first five of the README's 300 secrets are the same five games
    assert row["first_guess"] == first["first_guess"]
    assert draw_secrets(Rules(pegs=6, colors=9), 5, 1).tolist() == draw_secrets(
        Rules(pegs=6, colors=9), 300, 1)[:5].tolist()
