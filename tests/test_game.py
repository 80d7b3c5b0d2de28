import math

import pytest

from keypeg.errors import InconsistentHistoryError, InvalidCodeError
from keypeg.game import Clue, GameState
from keypeg.rules import Rules, find_rules

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
