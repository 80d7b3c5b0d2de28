import pytest
from hypothesis import given
from hypothesis import strategies as st

from keypeg.codes import Code, rank, unrank
from keypeg.errors import InvalidCodeError
from keypeg.rules import Rules, find_rules
from tests.naive import all_codes

CLASSIC = find_rules("classic")


def test_parse_and_print():
    assert str(Code.parse("1123", CLASSIC)) == "1123"
    assert str(Code.parse("R R B Y", CLASSIC)) == "1134"
    assert str(Code.parse("rgby", CLASSIC)) == "1234"
    assert str(Code.parse("01234", find_rules("cb1"))) == "01234"
    assert Code.parse("1111", CLASSIC).index == 0
    assert Code.parse("6666", CLASSIC).index == 1295


def test_repr_evaluates():
    from keypeg.rules import Rules  # noqa: F401  (used by eval)

    c = Code.parse("3456", CLASSIC)
    assert eval(repr(c)) == c


@pytest.mark.parametrize("text,rules,message", [
    ("112", CLASSIC, "has 3 symbols; classic codes have 4"),
    ("11234", CLASSIC, "has 5 symbols"),
    ("1172", CLASSIC, "unknown symbol '7'; allowed are colours 1-6"),
    ("", CLASSIC, "empty code"),
    ("1123", find_rules("bulls-and-cows"), "repeats '1'"),
    ("0012A", find_rules("cb4"), "unknown symbol 'A'; allowed are digits 0-9"),
])
def test_invalid_codes(text, rules, message):
    with pytest.raises(InvalidCodeError, match=message):
        Code.parse(text, rules)


def test_blanks():
    r = Rules(pegs=4, colors=6, blanks=True)
    c = Code.parse("1_2.", r)
    assert str(c) == "1_2_"
    assert str(Code.parse("1020", r)) == "1_2_"
    with pytest.raises(InvalidCodeError):
        Code.parse("1_23", CLASSIC)


def test_many_colours_use_letters():
    r = Rules(pegs=2, colors=16)
    assert str(Code.from_symbols((9, 15), r)) == "AG"
    assert Code.parse("ag", r).symbols == (9, 15)


@pytest.mark.parametrize("pegs,symbols,repeats", [(4, 6, True), (3, 5, False), (4, 10, False)])
def test_rank_matches_lexical_order(pegs, symbols, repeats):
    rules = Rules(pegs=pegs, colors=symbols, repeats=repeats)
    codes = all_codes(pegs, symbols, repeats)
    assert [rank(c, rules) for c in codes] == list(range(len(codes)))
    assert [unrank(i, rules) for i in range(len(codes))] == codes


@given(st.integers(0, 30239))
def test_unrank_rank_roundtrip_no_repeats(i):
    rules = find_rules("cb1")
    assert rank(unrank(i, rules), rules) == i
