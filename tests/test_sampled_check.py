"""Sampled decisions are honest: where exact scoring is still possible, the sampled choice
of each one-step strategy (`hints.sampled_guess`) is within the stated tolerance of the
exact best in at least 95 % of positions with more candidates than the sample."""

import numpy as np
import pytest

from keypeg.game import GameState
from keypeg.hints import sampled_guess
from keypeg.limits import HINT_SAMPLE
from keypeg.rules import Rules
from keypeg.sampled_check import TOLERANCE, check, exact_score, positions
from keypeg.space import get_space

from . import naive

GAMES = [Rules(pegs=5, colors=6), Rules(pegs=4, colors=9, feedback="positional")]


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.key)
@pytest.mark.parametrize("name", sorted(TOLERANCE))
def test_sampled_choices_are_within_tolerance_in_95_percent_of_positions(rules, name):
    result = check(rules, name, count=30, seed=3)
    assert result["positions"] == 30
    assert all(r["candidates"] > HINT_SAMPLE for r in result["rows"])
    assert result["share"] >= 0.95, result


def test_the_scores_are_the_strategies_own():
    """The exact score of a guess, from a naive partition of the candidates."""
    rules = Rules(pegs=4, colors=6)
    space = get_space(rules)
    state = GameState.from_clues(space, ["1122=0B1W"])
    codes = [tuple(int(x) for x in space.codes[i]) for i in state.candidates]
    guess = space.code(space.index("1345"))
    parts: dict = {}
    for c in codes:
        key = naive.blackwhite(c, tuple(guess.symbols))
        parts[key] = parts.get(key, 0) + 1
    sizes = np.array(list(parts.values()))
    ours = space.part_sizes(guess.index, state.candidates)
    n = len(codes)
    assert exact_score(ours, "maxsize") == max(parts.values())
    assert exact_score(ours, "expsize") == pytest.approx(sum(s * s for s in sizes) / n)
    assert exact_score(ours, "parts") == len(parts)
    assert exact_score(ours, "entropy") == pytest.approx(
        -sum(s / n * np.log2(s / n) for s in sizes))


def test_sampled_guesses_are_reproducible_and_possible_or_probes():
    rules = GAMES[0]
    for state in positions(rules, 5, seed=1):
        a, b = sampled_guess(state, "entropy"), sampled_guess(state, "entropy")
        assert a == b


def test_a_sampled_maxsize_row_is_never_beaten_on_its_own_number():
    """MM(8,8): the hint said 'try 32444626 (maxsize's guess; it leaves at most 16,491
    codes)' while expsize's row beside it left 16,410: sampled, maxsize takes the guess of
    any row that leaves a smaller largest part (counted exactly in the rows)."""
    from keypeg.game import GameState
    from keypeg.hints import StrategyHint, _maxsize_takes_the_best_seen, hint
    from keypeg.rules import find_rules

    rows = [StrategyHint("maxsize", "11", 9, False), StrategyHint("entropy", "12", 7, True),
            StrategyHint("parts", "13", 8, False)]
    assert _maxsize_takes_the_best_seen(rows)[0] == StrategyHint("maxsize", "12", 7, True)
    assert _maxsize_takes_the_best_seen(rows)[1:] == rows[1:]
    h = hint(GameState.from_clues(find_rules("mm-8-8"), ["12345678=1B2W"]))
    assert h.approximate
    (maxsize,) = [r for r in h.strategies if r.name == "maxsize"]
    assert maxsize.largest_part == min(r.largest_part for r in h.strategies)
