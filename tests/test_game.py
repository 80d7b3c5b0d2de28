import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg.errors import InconsistentHistoryError, InvalidCodeError
from keypeg.game import Clue, GameState
from keypeg.rules import Rules, find_rules
from tests import naive

LOCK = Rules(pegs=3, colors=10, digits=True)
LOCK_CLUES = ["682=1B0W", "614=0B1W", "206=0B2W", "738=0B0W", "380=0B1W"]


def test_lock_puzzle_has_one_answer():
    state = GameState.from_clues(LOCK, LOCK_CLUES)
    assert state.candidate_texts() == ["042"]
    assert state.bits == 0


def test_state_is_immutable_and_counts():
    start = GameState.start(find_rules("classic"))
    after = start.after("1122", "0B0W")
    assert start.count == 1296 and after.count == 256
    assert after.bits == pytest.approx(8.0)
    assert after.weights is None
    assert after.is_candidate("3456") and not after.is_candidate("1111")
    assert not after.solved
    assert after.after("3456", "4B0W").solved


def test_play_scores_against_secret():
    state = GameState.start(find_rules("classic")).play("1122", "1234")
    assert str(state.history[-1]) == "1122=1B1W"


def test_clue_needs_equals():
    with pytest.raises(InvalidCodeError, match="GUESS=FEEDBACK"):
        Clue.parse("1122", find_rules("classic"))


def test_contradiction_names_smallest_set_and_suspect():
    clues = [*LOCK_CLUES, "042=0B0W"]
    with pytest.raises(InconsistentHistoryError) as info:
        GameState.from_clues(LOCK, clues)
    err = info.value
    assert err.conflict == (2, 5)  # 206=0B2W and 042=0B0W cannot both hold
    assert err.suspects == (5,)
    assert err.corrections[5] == ("3B0W",)
    assert "clue 6 (042=0B0W)" in str(err) and "3B0W" in str(err)


def test_impossible_clue_alone():
    classic = find_rules("classic")
    with pytest.raises(InconsistentHistoryError) as info:
        GameState.from_clues(classic, ["1111=0B4W", "2222=0B0W"])
    # 1111 can only score 0B0W..4B0W: 0B4W is impossible on its own
    assert info.value.conflict == (0,)
    assert info.value.suspects == (0,)


def test_a_long_list_of_corrections_is_counted_not_cut_to_dots():
    """The corrections past six were cut to ', ...', and the sentence then ended '....'."""
    classic = find_rules("classic")
    with pytest.raises(InconsistentHistoryError) as info:
        GameState.from_clues(classic, ["1234=4B0W", "3456=1B1W"])
    err = info.value
    text = str(err)
    assert "..." not in text and text.endswith(".") and not text.endswith("..")
    many = max(err.corrections.values(), key=len)
    assert len(many) > 6
    assert f"{', '.join(many[:6])} or {len(many) - 6} other answers" in text


def test_no_single_clue_explains():
    classic = find_rules("classic")
    clues = ["1111=4B0W", "1111=0B0W", "1111=1B0W"]
    with pytest.raises(InconsistentHistoryError) as info:
        GameState.from_clues(classic, clues)
    assert len(info.value.conflict) == 2
    assert info.value.suspects == ()
    assert "at least two are wrong" in str(info.value)


def test_positional_clues():
    state = GameState.from_clues(find_rules("cb4"), ["00000=GG---"])
    assert state.count == 9**3
    assert state.bits == pytest.approx(math.log2(729))
    state = GameState.from_clues(find_rules("cb1"), ["01234=GGGGG"])
    assert state.solved and state.count == 1


def test_a_contradiction_after_64_or_more_clues_is_diagnosed():
    classic = find_rules("classic")
    clues = ["1122=1B1W"] * 63 + ["1122=0B0W"]
    with pytest.raises(InconsistentHistoryError) as info:
        GameState.from_clues(classic, clues)
    assert info.value.conflict == (0, 63)
    assert info.value.suspects == (63,)
    assert info.value.corrections[63] == ("1B1W",)
    clues = ["1122=1B1W"] * 70 + ["5556=0B0W"] * 70 + ["1234=0B0W"]  # secret 1234, one lie
    with pytest.raises(InconsistentHistoryError) as info:
        GameState.from_clues(classic, clues)
    assert info.value.suspects == (140,)
    assert info.value.conflict == (0, 140)


MINI = Rules(pegs=3, colors=3)
MINI_CODES = naive.all_codes(3, 3)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(MINI_CODES), st.sampled_from(MINI_CODES)),
                min_size=1, max_size=80),
       st.lists(st.tuples(st.integers(0, 79), st.sampled_from(MINI_CODES)), max_size=3))
def test_diagnosis_agrees_with_the_naive_filter(pairs, lies):
    """Clues scored against one secret or another (so most histories contradict), up to 80
    of them: the diagnosis must name a conflict no code fits, minimal, and exactly the clues
    whose removal alone leaves some code."""
    clues = [(g, naive.blackwhite(s, g)) for s, g in pairs]
    for i, other in lies:
        if i < len(clues):
            clues[i] = (clues[i][0], naive.blackwhite(other, clues[i][0]))

    def fits(indices):
        return bool(naive.naive_filter(MINI_CODES, [clues[i] for i in indices], "blackwhite"))

    texts = [f"{''.join(str(x + 1) for x in g)}={b}B{w}W" for g, (b, w) in clues]
    everything = range(len(clues))
    if fits(everything):
        assert GameState.from_clues(MINI, texts).count > 0
        return
    with pytest.raises(InconsistentHistoryError) as info:
        GameState.from_clues(MINI, texts)
    err = info.value
    assert not fits(err.conflict)
    assert all(fits([j for j in err.conflict if j != i]) for i in err.conflict)
    want = tuple(i for i in everything if fits([j for j in everything if j != i]))
    assert err.suspects == want
    for i in want:  # each suspect's corrections: its answers against the codes fitting the rest
        rest = naive.naive_filter(MINI_CODES, [clues[j] for j in everything if j != i],
                                  "blackwhite")
        answers = sorted({naive.blackwhite(code, clues[i][0]) for code in rest})
        assert err.corrections[i] == tuple(f"{b}B{w}W" for b, w in answers)
    assert len(str(err)) < 400  # (one sentence for a person; the fields hold the rest)


def test_a_contradiction_of_many_clues_stays_one_short_sentence():
    """Every clue of a conflict had been named with its guess and answer, every suspect
    with its corrections: 35 clues of MM(1,35) made a 2,403-character error. Past three
    clues they are numbered (ten at most, the rest counted), and past two suspects the
    first two are named; the fields still hold them all."""
    one = Rules(pegs=1, colors=35)
    symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    with pytest.raises(InconsistentHistoryError) as info:
        GameState.from_clues(one, [f"{s}=0B0W" for s in symbols])
    err = info.value
    text = str(err)
    assert len(err.conflict) == len(err.suspects) == 35
    assert text.startswith("no code fits these clues: clues 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 "
                           "and 25 more cannot all hold; if one clue is wrong, it is one of "
                           "clues 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 25 more: clue 1 "
                           "(1=0B0W) could have been 1B0W; clue 2 (2=0B0W), 1B0W; and so on.")
    assert len(text) < 400
    eight = Rules(pegs=8, colors=8)
    clues = [f"{c * 8}=0B0W" for c in "12345678"]
    with pytest.raises(InconsistentHistoryError) as info:
        GameState.from_clues(eight, clues)
    assert len(str(info.value)) < 400 and "clues 1, 2, 3, 4, 5, 6, 7 and 8" in str(info.value)


def test_some_of_names_a_choice():
    from keypeg.limits import some_of

    assert some_of(["0B1W"], 3) == "0B1W"
    assert some_of(["0B1W", "1B0W"], 3) == "0B1W or 1B0W"  # (there was no 'or')
    # one left over is shown, not counted as '1 other answer'
    assert some_of(["a", "b", "c", "d"], 3) == "a, b, c or d"
    assert some_of(["a", "b", "c", "d", "e"], 3) == "a, b, c or 2 other answers"
