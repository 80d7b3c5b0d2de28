"""The two-player match (keypeg.match), computer codemakers and symmetrised codebreakers
(keypeg.codemakers): scoring and role alternation against hand-worked matches, a restart
losing nothing, dishonest answers caught and named, the adaptive codemaker never
contradicting itself, and `keypeg match` in the terminal."""

import itertools
import re
import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg.classes import secret_classes
from keypeg.codemakers import SymmetrisedStrategy, find_codemaker
from keypeg.codes import Code
from keypeg.errors import InconsistentHistoryError, KeypegError
from keypeg.game import GameState
from keypeg.match import Match, MatchStateError, Player, load_match, save_match
from keypeg.rules import Rules, find_rules
from keypeg.space import get_space
from keypeg.store import Store
from keypeg.strategies import find_strategy

from . import naive
from .test_cli import run

MM23 = Rules(pegs=2, colors=3, max_guesses=3)
PEOPLE = [Player.person("Ann"), Player.person("Bob")]


def test_a_hand_worked_match_guesses_scoring():
    """Game 1: Ann breaks Bob's 12 in two guesses (Bob scores 2). Game 2: Bob does not
    break Ann's 33 in the three rows (Ann scores 3 + 1). Ann wins 4 to 2."""
    m = Match(MM23, 2, PEOPLE, seed=0)
    assert (m.phase, m.to_move) == ("secret", "B")  # Bob makes the code of game 1
    m.choose_secret("12")
    assert (m.phase, m.to_move) == ("guess", "A")
    m.guess("11")
    assert m.games[0].history == [["11", "1B0W"]]
    m.guess("12")
    assert m.games[0].over and m.games[0].solved
    assert m.points(m.games[0]) == {"A": 0, "B": 2}
    assert (m.phase, m.to_move) == ("secret", "A")  # roles swap
    m.choose_secret("33")
    for g in ("11", "12", "21"):
        assert m.to_move == "B"
        m.guess(g)
    g2 = m.games[1]
    assert g2.over and not g2.solved and len(g2.history) == 3
    assert m.points(g2) == {"A": 4, "B": 0}
    assert m.over and m.scores == {"A": 4, "B": 2} and m.winner == "A"
    assert m.result_text() == "Ann 4, Bob 2: Ann wins the match."
    with pytest.raises(MatchStateError):
        m.guess("11")


def test_a_hand_worked_match_keypeg_scoring_and_four_games():
    """Key pegs: 11 against 12 places one black; 12 two blacks (Bob 3). Then 11, 12, 21
    against 33 place none, and 33 is not broken within the 3 rows: Ann scores as a
    give-up, 3 rows x 2 pegs (counting the pegs placed alone, 0, a codebreaker did best
    by never breaking the code). Games 3 and 4 alternate again: Ann breaks, Bob breaks."""
    m = Match(MM23, 4, PEOPLE, scoring="keypegs", seed=0)
    m.choose_secret("12")
    m.guess("11")
    m.guess("12")
    m.choose_secret("33")
    for g in ("11", "12", "21"):
        m.guess(g)
    assert m.scores == {"A": 6, "B": 3}
    assert [(g.breaker, g.maker) for g in m.games[:2]] == [("A", "B"), ("B", "A")]
    m.choose_secret("21")
    m.guess("12")  # 0B2W: two key pegs for Bob
    m.guess("21")  # 2B0W: two more
    assert m.scores == {"A": 6, "B": 7}
    assert m.to_move == "A" and m.games[-1].breaker == "B" and m.games[-1].maker == "A"
    m.choose_secret("13")
    m.give_up()  # Bob concedes the most a codemaker can score: 3 rows x 2 pegs
    assert m.max_points == 6 and m.scores == {"A": 12, "B": 7} and m.winner == "A"
    assert [(g.breaker, g.maker) for g in m.games] == [("A", "B"), ("B", "A"),
                                                      ("A", "B"), ("B", "A")]


def test_positional_key_pegs_count_greens_and_ambers():
    rules = Rules(pegs=3, colors=3, feedback="positional", max_guesses=4)
    m = Match(rules, 2, PEOPLE, scoring="keypegs", seed=0)
    m.choose_secret("123")
    m.guess("132")  # G A A: three key pegs
    m.guess("123")  # G G G: three
    assert m.scores == {"A": 0, "B": 6}


@pytest.mark.parametrize("games", [0, 1, 3, -2, 52])
def test_bad_match_settings_are_refused(games):
    with pytest.raises(KeypegError):
        Match(MM23, games, PEOPLE)


def test_bad_players_and_moves_are_refused():
    with pytest.raises(KeypegError, match="strategy"):
        Match(MM23, 2, [Player.person(), Player.computer("nonsense")])
    with pytest.raises(KeypegError, match="codemaker"):
        Match(MM23, 2, [Player.person(), Player.computer("entropy", "sometimes")])
    with pytest.raises(KeypegError, match="scoring"):
        Match(MM23, 2, PEOPLE, scoring="goals")
    m = Match(MM23, 2, PEOPLE)
    with pytest.raises(MatchStateError, match="secret"):
        m.guess("11")
    with pytest.raises(KeypegError):
        m.choose_secret("14")  # no colour 4
    assert m.phase == "secret" and not m.games[0].history



def test_a_guess_played_again_is_refused_and_costs_no_row():
    """It cost a row and, under guesses scoring, a point for an answer already known."""
    m = Match(MM23, 2, PEOPLE)
    m.choose_secret("33")
    m.guess("12")
    with pytest.raises(KeypegError, match=r"^12 was guess 1 \(0B0W\) and would get the same "
                                          "answer again, so it uses no row"):
        m.guess("12")
    assert [str(c) for c in m.state(m.current).history] == ["12=0B0W"]
    m.guess("33")
    assert m.games[0].over

# ----------------------------------------------------------------------------- honesty
def test_a_contradicting_hand_answer_is_refused_and_named():
    m = Match(MM23, 2, PEOPLE, seed=0)
    m.choose_secret("12", "hand")
    m.guess("11")
    m.answer("0B0W")  # a lie (truly 1B0W), but some code fits it: accepted for now
    m.guess("21")
    for wrong in ("0B2W", "2B0W"):  # each needs a 1 in the code: answer 1 says none
        with pytest.raises(InconsistentHistoryError, match="answer 1") as exc:
            m.answer(wrong)
        assert exc.value.conflict == (0, 1) and exc.value.suspects == (1,)
        # the codes without a 1 (22, 23, 32, 33) give 21 these answers
        assert str(exc.value).endswith("21 can get 0B0W, 0B1W or 1B0W.")
    assert m.games[0].history == [["11", "0B0W"]] and m.games[0].pending == "21"
    with pytest.raises(KeypegError):
        m.answer("3B0W")  # not an answer of a two-peg game at all
    m.answer("0B1W")
    assert m.games[0].history[-1] == ["21", "0B1W"]


def test_a_wrong_answer_is_caught_against_the_secret_and_forfeits():
    """The codemaker chose 1234 but answers as if it were 1235: every answer fits the
    others, so none is refused, and the first that 1234 would not give is named at the
    end."""
    rules = find_rules("classic")
    m = Match(rules, 2, [Player.computer("entropy", "uniform"), Player.person()], seed=4)
    m.choose_secret("1234", "hand")
    told, true = (tuple(int(x) - 1 for x in c) for c in ("1235", "1234"))
    while m.current is not None and m.current.number == 1:
        guess = tuple(int(x) - 1 for x in m.games[0].pending)
        b, w = naive.blackwhite(told, guess)
        m.answer(f"{b}B{w}W")
    game = m.games[0]
    assert game.over and game.history[-1] == ["1235", "4B0W"]
    first = next(i for i, (g, _) in enumerate(game.history) if naive.blackwhite(
        true, tuple(int(x) - 1 for x in g)) != naive.blackwhite(told, tuple(
            int(x) - 1 for x in g)))
    b, w = naive.blackwhite(true, tuple(int(x) - 1 for x in game.history[first][0]))
    assert game.forfeit == {"answer": first + 1, "guess": game.history[first][0],
                            "given": game.history[first][1], "true": f"{b}B{w}W"}
    assert not game.solved
    assert m.points(game) == {"A": m.max_points, "B": 0}  # the breaker is awarded
    text = m.outcome_text(game)
    assert f"answer {first + 1} was wrong" in text and "forfeit" in text


def test_a_forfeit_never_beats_honesty():
    """Whatever happens in the other game, a codemaker who lies and is caught ends the
    match no better off than had they answered truly and lost the game in one guess."""
    m = Match(MM23, 2, PEOPLE, seed=0)
    m.choose_secret("12", "hand")
    m.guess("11")
    m.answer("0B0W")  # a lie (truly 1B0W), consistent with the history: accepted
    m.guess("33")
    m.answer("0B0W")
    m.guess("22")
    m.answer("2B0W")  # the only code left after the two answers: the game is over
    assert m.games[0].over and m.games[0].forfeit["answer"] == 1
    assert m.points(m.games[0]) == {"A": m.max_points, "B": 0}
    assert m.max_points >= 1 + m.rows  # more than any honest game gives the codemaker


# ----------------------------------------------------------------------------- computers
@settings(max_examples=40, deadline=None)
@given(st.sampled_from([Rules(pegs=3, colors=3), Rules(pegs=4, colors=3),
                        Rules(pegs=3, colors=4, feedback="positional"),
                        Rules(pegs=3, colors=4, repeats=False)]),
       st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=8),
       st.integers(min_value=0, max_value=2**32))
def test_the_adaptive_codemaker_never_contradicts_itself(rules, picks, seed):
    space = get_space(rules)
    codes = naive.all_codes(rules.pegs, rules.symbols, rules.repeats)
    maker = find_codemaker("adaptive", rules, seed)
    state = GameState.start(space)
    for pick in picks:
        guess = space.code(pick % space.size)
        fb = maker.answer(state, guess)
        before = state.count
        best = int(np.delete(space.part_sizes(guess.index, state.candidates),
                             space.win).max()) if before > 1 else 1
        state = state.after(guess, fb)
        # independent check: some code fits every answer given so far
        fits = [c for c in codes if all(
            str(_naive_fb(c, g, rules)) == str(f) for g, f in state_pairs(state))]
        assert fits and len(fits) == state.count
        # it keeps the most codes any answer other than a win would keep (a win only when
        # the guess is the one code left)
        assert state.count == best or (fb.is_win(rules) and before == 1)
        if fb.is_win(rules):
            assert state.count == 1
            break
    secret = maker.reveal(state)
    assert all(str(_naive_fb(tuple(secret.symbols), g, rules)) == str(f)
               for g, f in state_pairs(state))


def state_pairs(state):
    return [(tuple(c.guess.symbols), c.feedback) for c in state.history]


def _naive_fb(secret, guess, rules):
    from keypeg.feedback import Feedback

    t = naive.score(tuple(secret), tuple(guess), rules.feedback)
    if rules.feedback == "blackwhite":
        return Feedback.blackwhite(*t)
    return Feedback.positional(list(t))


def test_the_adaptive_codemaker_keeps_the_largest_part():
    rules = find_rules("classic")
    space = get_space(rules)
    maker = find_codemaker("adaptive", rules, 0)
    state = GameState.start(space)
    fb = maker.answer(state, space.code(space.index("1122")))
    assert state.after(space.code(space.index("1122")), fb).count == 256  # Knuth's 256


def test_against_picks_the_strategys_worst_secrets():
    rules = Rules(pegs=3, colors=3)
    tree = find_strategy("maxsize").tree(rules)
    depths = tree.depths()
    for seed in range(5):
        maker = find_codemaker("against:knuth", rules, seed)
        assert depths[maker.secret.index] == depths.max()


def test_the_symmetrised_strategy_costs_the_class_average():
    """Under every relabelling the symmetrised tree finds the secret as the plain tree finds
    the relabelled secret, so over relabellings each secret of a class costs the same."""
    rules = Rules(pegs=3, colors=3)
    space = get_space(rules)
    inner = find_strategy("maxsize")
    depths = inner.tree(rules).depths(space)
    classes = secret_classes(rules)
    perms = list(itertools.permutations(range(3)))
    expected_sum = {}
    for c in range(len(classes.sizes)):
        members = classes.members(c)
        expected_sum[c] = float(depths[members].mean())
    played = {s: [] for s in range(space.size)}
    strat = SymmetrisedStrategy(inner, seed=1)
    for colours, positions in itertools.product(perms, perms):
        strat.colours, strat.positions = np.array(colours), np.array(positions)
        for s in range(space.size):
            state = GameState.start(space)
            for _ in range(10):
                g = strat.next_guess(state)
                fb = state.space.feedback(int(space.responses(g.index, np.array([s]))[0]))
                state = state.after(g, fb)
                if fb.is_win(rules):
                    break
            else:
                pytest.fail(f"the symmetrised strategy did not find {space.text(s)}")
            played[s].append(len(state.history))
    for s, counts in played.items():
        assert np.mean(counts) == pytest.approx(expected_sum[int(classes.of[s])])


def test_computer_against_computer_is_reproducible():
    rules = find_rules("classic")
    players = [Player.computer("entropy", "uniform", name="X"),
               Player.computer("knuth", "adaptive", name="Y")]
    a = Match(rules, 4, players, seed=11)
    b = Match(rules, 4, players, seed=11)
    assert a.over and a.to_dict() == b.to_dict()
    for g in a.games:
        secret = Code.parse(g.secret, rules)
        for guess, fb in g.history:  # every answer true to the revealed secret
            t = naive.blackwhite(tuple(secret.symbols),
                                 tuple(Code.parse(guess, rules).symbols))
            assert fb == f"{t[0]}B{t[1]}W"
        assert g.solved and g.forfeit is None
    assert sum(a.scores.values()) == sum(len(g.history) for g in a.games)


# ----------------------------------------------------------------------------- restarts
def test_a_restart_in_the_middle_loses_nothing(tmp_path):
    db = tmp_path / "m.db"
    rules = find_rules("classic")
    players = [Player.person("you"), Player.computer("entropy", "uniform")]
    m = Match(rules, 2, players, seed=5)
    save_match(Store(db), m)
    m.guess("1122")
    save_match(Store(db), m)
    m.guess("3456")
    save_match(Store(db), m)
    # a new process: a fresh store on the same file
    back = load_match(Store(db), m.id)
    assert back is not None and back.to_dict() == m.to_dict()
    assert back.view() == m.view()
    # both go on identically (the computer's choices come from the match's seed)
    for x in (m, back):
        x.give_up()
        x.choose_secret("6543")
    assert back.to_dict() == m.to_dict() and back.over
    save_match(Store(db), back)
    with pytest.raises(MatchStateError, match="meanwhile"):
        save_match(Store(db), m)  # a stale copy cannot overwrite
    assert sqlite3.connect(db).execute("SELECT over FROM matches").fetchone()[0] == 1


def test_the_view_hides_the_secret_of_a_game_in_play():
    m = Match(find_rules("classic"), 2, [Player.person(), Player.computer()], seed=3)
    secret = m.games[0].secret
    view = m.view()
    assert view["played"][0]["secret"] is None and "seed" not in view
    assert secret not in str(view).replace(str(view["id"]), "")
    m.give_up()
    assert m.view()["played"][0]["secret"] == secret


# ----------------------------------------------------------------------------- the CLI
def test_match_cli_plays_resumes_and_scores(tmp_path, monkeypatch):
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "cli.db"))
    out = run(["match", "--seed", "2", "--games", "2"], input="1122\nquit\n")
    assert out.exit_code == 0, out.output
    found = re.search(r"--resume (\S+)", out.output)
    assert found and "1. 1122" in out.output
    match_id = found.group(1)
    out = run(["match", "--resume", match_id], input="give up\nrandom\n\n")
    assert out.exit_code == 0, out.output
    assert "1. 1122" in out.output  # the first session's guess survived
    assert "gave up" in out.output and "Final score" in out.output
    m = load_match(Store(tmp_path / "cli.db"), match_id)
    assert m.over
    final = re.search(r"Final score:\s*you (\d+), keypeg (\d+)", out.output)
    assert final and (int(final.group(1)), int(final.group(2))) == (m.scores["A"],
                                                                     m.scores["B"])
    assert m.scores["B"] == m.max_points  # the give-up
    # resumed once over: the final score, and no offer to save or continue
    out = run(["match", "--resume", match_id], input="")
    assert out.exit_code == 0 and "Final score" in out.output
    assert f"Match id {match_id} is over" in out.output and "'quit' saves" not in out.output


def test_match_cli_says_there_are_no_hints(tmp_path, monkeypatch):
    """'hint' in a match was read as a code: "'hint' has an unknown symbol 'h'"."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "cli.db"))
    out = run(["match", "--seed", "2", "--rules", "mini"], input="hint\ncut 1122\nquit\n")
    assert out.exit_code == 0, out.output
    assert "unknown symbol" not in out.output
    said = "No hints in a match: you play on your own. Type a code, 'give up' (the codemaker"
    assert out.output.count(said) == 2, out.output
    assert "scores 11 points)" in out.output


@pytest.mark.parametrize("args,message", [
    (["--games", "3"], "even"),
    (["--scoring", "goals"], "scoring"),
    (["--opponent", "nonsense"], "strategy"),
    (["--codemaker", "sometimes"], "codemaker"),
    (["--resume", "nope"], "no stored match"),
    # (options beside --resume had been dropped without a word)
    (["--resume", "nope", "--rules", "mini", "--games", "4"],
     "--resume continues a match with its own rules and options; leave out --games, --rules."),
    (["--resume", "nope", "--no-symmetrise"], "leave out --no-symmetrise."),
])
def test_match_cli_bad_options(tmp_path, monkeypatch, args, message):
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "cli.db"))
    out = run(["match", *args], input="")
    assert out.exit_code == 2 and message in out.output.lower()


def test_the_game_codemaker_says_what_to_do_when_its_value_is_out_of_reach(monkeypatch):
    """On super, --codemaker game was silent for 60 s, then said "allow more time", which
    a match has no option for; it now names the codemakers to choose instead."""
    from keypeg import value
    from keypeg.errors import TimeLimitError

    monkeypatch.setattr(value, "STORED_VALUE_SECONDS", 0.3)
    with pytest.raises(TimeLimitError, match="choose another codemaker, such as uniform or "
                                             "adaptive") as info:
        find_codemaker("game", Rules(5, 5), seed=1)
    assert "0.3 s" in str(info.value) and str(info.value).count(". ") == 0


def test_the_game_codemaker_refuses_a_big_game_at_once(tmp_path, monkeypatch):
    """On super the CLI spent a minute before failing where the web API refused at once;
    past `STORED_VALUE_CODES` it is refused from the size (MM(4,8)'s 4,096 codes had not
    finished in 70 s)."""
    import time

    from keypeg.errors import LimitExceededError, TimeLimitError
    from keypeg.value import STORED_VALUE_CODES
    from tests.test_cli import run

    assert 1_331 < STORED_VALUE_CODES < 4_096
    started = time.perf_counter()
    with pytest.raises(LimitExceededError, match=r"\(32,768 codes; keypeg ships it for "
                                                 "smaller games and computes it up to") as info:
        find_codemaker("game", find_rules("super"), seed=1)
    assert not isinstance(info.value, TimeLimitError)
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "cli.db"))
    out = run(["match", "--codemaker", "game", "--rules", "super"], input="")
    assert out.exit_code == 2 and "is out of reach here (32,768 codes" in out.output
    assert time.perf_counter() - started < 20


@pytest.mark.parametrize("games", ["99999999999", "100", "3", "0"])
def test_match_cli_says_the_range_of_games(games):
    """--games 99999999999 said "must be a positive even number", which it is."""
    from tests.test_cli import run

    out = run(["match", "--games", games], input="")
    assert out.exit_code == 2 and "an even number from 2 to 50" in out.output
