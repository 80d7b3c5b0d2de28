import re

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


def test_a_code_of_other_rules_is_not_read_again_as_text():
    """A Code of classic passed to bulls-and-cows was read again from its text: '1234'
    (colours 1-4, symbols 0-3) became the digits 1234 (symbols 1-4), and score answered
    4B0W for codes that differ. Other symbols are refused; the same codes under other row
    counts or feedback keep their index."""
    from keypeg.feedback import score

    classic, bulls = find_rules("classic"), find_rules("bulls-and-cows")
    code = Code.parse("1234", classic)
    with pytest.raises(InvalidCodeError, match="a code of classic, not of bulls-and-cows"):
        Code.parse(code, bulls)
    with pytest.raises(InvalidCodeError, match="not of bulls-and-cows"):
        score(code, "1234", bulls)
    short = classic.with_max_guesses(5)
    assert Code.parse(code, short) == Code(short, code.index)
    positional = Rules(4, 6, feedback="positional")
    assert Code.parse(code, positional).symbols == (0, 1, 2, 3)


@pytest.mark.parametrize("symbols", [(0, 1, 2, 2.7), (True, 0, 1, 2), (0, 1, 2, 6), (0, 1, 2),
                                     (0, 1, 2, -1), None, 1234, (0, 1, 2, 3, 4)])
def test_symbols_that_are_not_a_code_are_refused(symbols):
    """from_symbols rounded 2.7 to 2, read True as 1 and wrote 9 as the symbol 'A' in its
    error; score took the same. Each is refused in one sentence naming the range."""
    from keypeg.feedback import score

    classic = find_rules("classic")
    for call in (lambda: Code.from_symbols(symbols, classic),
                 lambda: score(symbols, (0, 1, 2, 3), classic)):
        with pytest.raises(InvalidCodeError, match="4 whole numbers from 0 to 5") as info:
            call()
        assert str(info.value).count(". ") == 0
    # (score reads a text as a written code; from_symbols wants indices)


def test_from_symbols_refuses_a_written_code():
    with pytest.raises(InvalidCodeError, match="4 whole numbers from 0 to 5, not '0123'"):
        Code.from_symbols("0123", find_rules("classic"))


def test_symbols_repeating_where_no_repeat_is_allowed_are_refused():
    from keypeg.feedback import score

    bulls = find_rules("bulls-and-cows")
    with pytest.raises(InvalidCodeError, match="repeats a symbol"):
        score((0, 0, 1, 2), (0, 1, 2, 3), bulls)
    with pytest.raises(InvalidCodeError, match="repeats a symbol"):
        Code.from_symbols([1, 2, 2, 3], bulls)
    assert str(Code.from_symbols([1, 2, 3, 4], bulls)) == "1234"
    import numpy as np

    assert str(Code.from_symbols(np.array([0, 1, 2, 3]), find_rules("classic"))) == "1234"


@pytest.mark.parametrize("rules,allowed", [
    (Rules(4, 10), "colours 1-9 and A (for 10)"),
    (Rules(4, 12), "colours 1-9 and A-C (for 10-12)"),
    (Rules(4, 12, digits=True), "digits 0-9 and A-B (for 10-11)"),
    (Rules(4, 6), "colours 1-6 or letters R G B Y O P"),
])
def test_symbols_past_nine_are_named(rules, allowed):
    """An unknown symbol with 12 colours said 'allowed are colours 1-C'."""
    with pytest.raises(InvalidCodeError, match=re.escape(f"allowed are {allowed}.")):
        Code.parse("1Z22", rules)
    # the letters past nine are those symbols, not colour names (B is colour 11 here)
    if rules.colors == 12 and not rules.digits:
        assert Code.parse("BBBB", rules).symbols == (10, 10, 10, 10)


def test_a_code_of_the_wrong_length_says_so_first():
    # (mini's 12345 was "an unknown symbol '5'" where classic's was "5 symbols")
    with pytest.raises(InvalidCodeError, match="has 5 symbols; mini codes have 4"):
        Code.parse("12345", find_rules("mini"))
