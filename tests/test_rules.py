import pytest

from keypeg.errors import InvalidRulesError, UnknownRulesError
from keypeg.rules import PRESETS, Rules, find_rules, rules_name


def test_classic_and_aliases():
    classic = find_rules("classic")
    assert (classic.pegs, classic.colors, classic.repeats, classic.max_guesses) == (4, 6, True, 10)
    assert find_rules("Mastermind") == classic
    assert find_rules("super") == find_rules("logik")
    assert (find_rules("logik").pegs, find_rules("logik").colors) == (5, 8)
    assert (find_rules("mini").pegs, find_rules("mini").colors) == (4, 4)


def test_bulls_and_cows():
    bc = find_rules("bulls-and-cows")
    assert (bc.pegs, bc.colors, bc.repeats, bc.digits, bc.feedback) == (
        4, 10, False, True, "blackwhite")
    assert bc.size == 5040


@pytest.mark.parametrize("level,repeats,attempts,size", [
    (1, False, 8, 30240), (2, False, 7, 30240), (3, False, 6, 30240),
    (4, True, 8, 100000), (5, True, 7, 100000), (6, True, 6, 100000),
])
def test_codebreaker_levels(level, repeats, attempts, size):
    r = find_rules(f"codebreaker-{level}")
    assert r.pegs == 5 and r.colors == 10 and r.digits and r.feedback == "positional"
    assert r.repeats is repeats and r.max_guesses == attempts and r.size == size
    assert find_rules(f"cb{level}") == r


def test_unknown_rules_lists_names():
    with pytest.raises(UnknownRulesError, match="classic.*bulls-and-cows"):
        find_rules("chess")


@pytest.mark.parametrize("kwargs,message", [
    ({"pegs": 0, "colors": 6}, "pegs"),
    ({"pegs": 4, "colors": 0}, "colors"),
    ({"pegs": 5, "colors": 4, "repeats": False}, "at least as many colours"),
    ({"pegs": 4, "colors": 6, "feedback": "hot"}, "feedback"),
    ({"pegs": 4, "colors": 6, "max_guesses": 0}, "max_guesses"),
    ({"pegs": 12, "colors": 30}, "enumerates at most"),
])
def test_invalid_rules(kwargs, message):
    with pytest.raises(InvalidRulesError, match=message):
        Rules(**kwargs)


def test_blanks_add_a_symbol():
    r = Rules(pegs=4, colors=6, blanks=True)
    assert r.symbols == 7 and r.size == 7**4


def test_names_and_keys():
    assert rules_name(Rules(pegs=4, colors=7)) == "MM(4,7)"
    assert all(rules_name(p.rules) == p.name for p in PRESETS)
    keys = {p.rules.key for p in PRESETS}
    # codebreaker 1-3 share one code space, 4-6 another
    assert len(keys) == len(PRESETS) - 4
    assert find_rules("mm69").size == 531_441 and find_rules("mm-8-8").size == 8**8
