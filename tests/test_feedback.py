import pytest
from hypothesis import given
from hypothesis import strategies as st

from keypeg.codes import Code
from keypeg.errors import InvalidFeedbackError
from keypeg.feedback import Feedback, response_alphabet, score
from keypeg.rules import Rules, find_rules
from tests import naive

CLASSIC = find_rules("classic")
CB4 = find_rules("cb4")


def sym(text, rules):
    return Code.parse(text, rules).symbols


def test_repeats_count_once():
    # secret RRBB, guess RRRB: three blacks, no white (seed 004)
    assert str(score(sym("RRBB", CLASSIC), sym("RRRB", CLASSIC), CLASSIC)) == "3B0W"
    # secret 2532, guess 3523: one exact, two misplaced (seed 003)
    assert str(score(sym("2532", CLASSIC), sym("3523", CLASSIC), CLASSIC)) == "1B2W"


def test_positional_surplus_copies_are_gray():
    assert str(score(sym("00123", CB4), sym("00000", CB4), CB4)) == "GG---"
    # ambers left to right from the unmatched inventory
    assert str(score(sym("10023", CB4), sym("01100", CB4), CB4)) == "AA-A-"
    assert str(score(sym("12345", CB4), sym("51234", CB4), CB4)) == "AAAAA"


@pytest.mark.parametrize("text,canonical", [
    ("2B1W", "2B1W"), ("2b1w", "2B1W"), ("2B", "2B0W"), ("1W", "0B1W"), ("0B0W", "0B0W"),
    ("2,1", "2B1W"), ("4B0W", "4B0W"),
    # as players write them (refused before): two counts apart, the key pegs' letters, an
    # empty row, whites first, a comma between
    ("2 1", "2B1W"), ("2-1", "2B1W"), ("21", "2B1W"), ("BBW", "2B1W"), ("b b w", "2B1W"),
    ("W", "0B1W"), ("0", "0B0W"), ("-", "0B0W"), ("none", "0B0W"), ("1W2B", "2B1W"),
    ("2B, 1W", "2B1W"), ("2B,1W", "2B1W"), ("0 0", "0B0W"),
])
def test_parse_blackwhite(text, canonical):
    assert str(Feedback.parse(text, CLASSIC)) == canonical


def test_bulls_and_cows_feedback_in_its_own_words():
    bulls = find_rules("bulls-and-cows")
    assert str(Feedback.parse("BCC", bulls)) == "1B2W"
    assert str(Feedback.parse("12", bulls)) == "1B2W"
    with pytest.raises(InvalidFeedbackError, match="write bulls and cows like 2B1C"):
        Feedback.parse("lots", bulls)


def test_clues_read_with_the_guess_and_feedback_apart():
    from keypeg.game import Clue

    assert str(Clue.parse("1 1 2 2 1B1W", CLASSIC)) == "1122=1B1W"
    assert str(Clue.parse("1122 2 1", CLASSIC)) == "1122=2B1W"
    assert str(Clue.parse("RGBY B W", CLASSIC)) == "1234=1B1W"
    assert str(Clue.parse("0 1 2 3 4 G A - - A", find_rules("cb1"))) == "01234=GA--A"
    with pytest.raises(InvalidFeedbackError, match="cannot read feedback 'zz'"):
        Clue.parse("1 1 2 2 zz", CLASSIC)  # (the guess read: its feedback's error)


@pytest.mark.parametrize("text,canonical", [
    ("GA--A", "GA--A"), ("gy..x", "GA---"), ("GGGGG", "GGGGG"), ("g a - - a", "GA--A"),
])
def test_parse_positional(text, canonical):
    assert str(Feedback.parse(text, CB4)) == canonical


@pytest.mark.parametrize("text,rules,message", [
    ("3B1W", CLASSIC, "cannot happen"),
    ("3B2W", CLASSIC, "5 key pegs but codes have only 4"),
    ("5B", CLASSIC, "5 key pegs"),
    ("lots", CLASSIC, "cannot read feedback"),
    ("7", CLASSIC, "cannot read feedback"),  # (one count alone: blacks or whites?)
    ("2 1 3", CLASSIC, "cannot read feedback"),
    ("GGGG", CB4, "has 4 marks; give one per peg"),
    ("GGGGA", CB4, "cannot happen"),
    ("GGZGG", CB4, "unknown mark 'Z'"),
    ("0B0W", find_rules("bulls-and-cows"), None),
    ("0B0W", Rules(pegs=4, colors=6, repeats=False), "share at"),
])
def test_invalid_feedback(text, rules, message):
    if message is None:
        Feedback.parse(text, rules)
        return
    with pytest.raises(InvalidFeedbackError, match=message):
        Feedback.parse(text, rules)


@pytest.mark.parametrize("pegs,expected", [(1, 2), (2, 5), (3, 9), (4, 14), (5, 20), (6, 27)])
def test_response_count_is_derived(pegs, expected):
    # Ville: G_p = (p+1)(p+2)/2 - 1 with enough colours
    assert len(response_alphabet(Rules(pegs=pegs, colors=8))) == expected


def test_positional_alphabet():
    alphabet = response_alphabet(CB4)
    assert len(alphabet) == 3**5 - 5  # only "all green but one amber" is impossible
    assert str(alphabet[alphabet.win]) == "GGGGG"


def codes_of(rules):
    return st.lists(st.integers(0, rules.symbols - 1), min_size=rules.pegs,
                    max_size=rules.pegs).filter(lambda c: rules.repeats or len(set(c)) == len(c))


RULESETS = [CLASSIC, CB4, find_rules("cb1"), Rules(pegs=6, colors=3), Rules(pegs=3, colors=8)]


@given(st.sampled_from(RULESETS).flatmap(lambda r: st.tuples(st.just(r), codes_of(r),
                                                             codes_of(r))))
def test_score_matches_naive(case):
    rules, secret, guess = case
    fb = score(secret, guess, rules)
    assert fb.marks == naive.score(secret, guess, rules.feedback)
    assert fb.black + fb.white <= rules.pegs
    Feedback.parse(fb, rules)  # every answer that happens is in the alphabet


@given(codes_of(CLASSIC), codes_of(CLASSIC))
def test_blackwhite_is_symmetric(a, b):
    assert score(a, b, CLASSIC) == score(b, a, CLASSIC)


@given(st.sampled_from(RULESETS).flatmap(lambda r: st.tuples(st.just(r), codes_of(r))))
def test_code_scores_all_black_against_itself(case):
    rules, code = case
    assert score(code, code, rules).is_win(rules)


@given(codes_of(CB4), codes_of(CB4))
def test_positional_counts_are_symmetric_but_marks_are_not(a, b):
    ab, ba = score(a, b, CB4), score(b, a, CB4)
    assert (ab.black, ab.white) == (ba.black, ba.white)


def test_positional_is_not_symmetric():
    a, b = sym("10023", CB4), sym("01100", CB4)
    assert str(score(a, b, CB4)) == "AA-A-"
    assert str(score(b, a, CB4)) == "AAA--"


@pytest.mark.parametrize("make", [lambda: Feedback.blackwhite(1.7, 0),
                                  lambda: Feedback("blackwhite", (1.5, 0)),
                                  lambda: Feedback.blackwhite("x", 0),
                                  lambda: Feedback.blackwhite(True, 0),
                                  lambda: Feedback.positional("GGA"),
                                  lambda: Feedback.positional([2, 1.0, 0]),
                                  lambda: Feedback.positional([]),
                                  lambda: Feedback("blackwhite", None)])
def test_feedback_marks_are_whole_numbers(make):
    """Feedback.blackwhite(1.7, 0) was cut to 1B0W and Feedback('blackwhite', (1.5, 0))
    written '1.5B0W'; 'x' and 'GGA' raised a bare ValueError. Each is refused in one
    sentence."""
    with pytest.raises(InvalidFeedbackError, match="answer is") as info:
        make()
    assert str(info.value).count(". ") == 0


def test_feedback_marks_of_numpy_are_kept_as_ints():
    import numpy as np

    fb = Feedback.blackwhite(np.int64(2), np.int8(1))
    assert fb.marks == (2, 1) and all(type(m) is int for m in fb.marks) and str(fb) == "2B1W"
    assert Feedback.positional(np.array([2, 1, 0])).marks == (2, 1, 0)


def test_score_and_parse_take_a_rules_name():
    """score(..., 'classic') and Feedback.parse(..., 'classic') raised AttributeError: 'str'
    object has no attribute 'feedback' (Code.parse and GameState.start take names)."""
    assert str(score("1122", "1234", "classic")) == "1B1W"
    assert str(Feedback.parse("1b", "classic")) == "1B0W"
    from keypeg.errors import InvalidRulesError

    with pytest.raises(InvalidRulesError, match="rules must be Rules or a name"):
        score("1122", "1234", 5)
