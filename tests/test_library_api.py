"""The library as a developer calls it: wrong input is refused in one sentence (a keypeg
error), never read as something else, and never handed to a compiled kernel that reads past
the end of its arrays (a state of other rules or a code index out of range crashed the
process: a segfault, 'double free or corruption')."""

from __future__ import annotations

import numpy as np
import pytest

import keypeg
from keypeg import (
    Clue,
    Code,
    GameState,
    InvalidCodeError,
    InvalidFeedbackError,
    InvalidRulesError,
    KeypegError,
    LimitExceededError,
    Rules,
    find_rules,
    get_space,
    score,
)
from keypeg.feedback import Feedback
from keypeg.hints import hint
from keypeg.rules import rules_name
from keypeg.solver import solve_optimal
from keypeg.space import CodeSpace
from keypeg.strategies import evaluate, find_strategy
from tests.naive import blackwhite

CLASSIC, MINI = find_rules("classic"), find_rules("mini")


@pytest.mark.parametrize("call", [
    lambda state: solve_optimal(CLASSIC, state=state),
    lambda state: evaluate([find_strategy("knuth")], CLASSIC, state=state),
    lambda state: find_strategy("entropy").tree(CLASSIC, state),
    lambda state: find_strategy("optimal").tree(CLASSIC, state),
    lambda state: find_strategy("random", seed=1).tree(CLASSIC, state),
], ids=["solve_optimal", "evaluate", "onestep tree", "optimal tree", "random tree"])
def test_a_state_of_other_rules_is_refused(call):
    for state in (GameState.start(MINI), GameState.start(MINI).after("1122", "1B1W")):
        with pytest.raises(InvalidRulesError, match="the state is a position of 4 pegs, 4 "
                                                    "colours, not of 4 pegs, 6 colours"):
            call(state)


def test_a_bigger_games_state_is_refused_before_any_kernel_runs():
    # classic's indices past mini's 256 codes: the search read past its table and crashed
    state = GameState.start(CLASSIC).after("1122", "1B1W")
    with pytest.raises(InvalidRulesError):
        solve_optimal(MINI, state=state)


def test_the_board_length_alone_does_not_make_another_game():
    state = GameState.start(CLASSIC).after("1122", "1B1W")
    assert solve_optimal(Rules(4, 6), state=state).total == solve_optimal(
        CLASSIC, state=state).total


def test_a_presets_name_stands_for_its_rules():
    assert GameState.start("classic").count == 1296
    assert get_space("mini").size == 256
    assert solve_optimal("mini").total == solve_optimal(MINI).total
    with pytest.raises(InvalidRulesError, match="rules must be Rules, a CodeSpace or a "
                                                "preset's name such as 'classic', not int"):
        solve_optimal(3)


@pytest.mark.parametrize("call,message", [
    (lambda s: s.responses(5, np.array([0, 1, 5000])), "code index 5000 is outside 0..1295"),
    (lambda s: s.responses(99999, np.arange(3)), "code index 99999 is outside 0..1295"),
    (lambda s: s.responses(5, np.array([-1])), "code index -1 is outside 0..1295"),
    (lambda s: s.responses(5, np.array([0.5])), "whole numbers, not float64"),
    (lambda s: s.part_sizes(100000, s.all()), "code index 100000 is outside"),
    (lambda s: s.partition(1296, s.all()), "code index 1296 is outside"),
    (lambda s: s.filter(s.all(), 5000, 3), "code index 5000 is outside"),
    (lambda s: s.filter(s.all(), 5, 14), "answer index 14 is outside 0..13"),
    (lambda s: s.code(99999), "code index 99999 is outside"),
    # (these two had read past the table: made-up counts, then an abort or a segfault)
    (lambda s: s.count_matrix(np.array([0, 99999]), s.all()), "code index 99999 is outside"),
    (lambda s: s.count_matrix(np.array([0]), np.array([-1])), "code index -1 is outside"),
    (lambda s: s.count_matrix(["1122"], s.all()), "whole numbers, not <U4 values"),
    (lambda s: s.block(np.array([-1]), np.array([0])), "code index -1 is outside"),
    (lambda s: s.block(None, np.array([1296])), "code index 1296 is outside"),
    (lambda s: s.responses(5, np.array([2**32])), "code index 4294967296 is outside"),
    (lambda s: s.text(-1), "code index -1 is outside"),
    (lambda s: Code(CLASSIC, 5000), "code index 5000 is outside"),
    (lambda s: Code.from_index(2.7, CLASSIC), "a code index is a whole number, not 2.7"),
    (lambda s: Code.from_index("5", CLASSIC), "a code index is a whole number, not '5'"),
])
def test_code_indices_out_of_the_space_are_refused(call, message):
    with pytest.raises(InvalidCodeError, match=message):
        call(get_space(CLASSIC))


def test_a_code_or_clue_of_another_game_is_refused_not_read_again():
    """A Code or Clue of other rules had been re-read by its text (classic's 1234 index 51
    for bulls-and-cows' 1234) or by its index (mini's clue 1122=1B1W as classic's 1116)."""
    with pytest.raises(InvalidCodeError, match="1122 is a code of mini, not of classic"):
        GameState.from_clues("classic", [Clue.parse("1122=1B1W", "mini")])
    with pytest.raises(InvalidCodeError, match="1234 is a code of bulls-and-cows, not of"):
        get_space(CLASSIC).index(Code.parse("1234", "bulls-and-cows"))
    # the same game's, and a clue built of texts, still count as before
    assert GameState.from_clues("classic", [Clue.parse("1122=1B1W", "classic")]).count == 208
    assert GameState.from_clues("classic", [Clue("1122", "1B1W")]).count == 208
    assert get_space(CLASSIC).index(Code.parse("1234", "classic")) == 51


def test_a_name_of_ones_own_labels_only_its_own_rules():
    """Rules alike but for a name of one's own had shared one space: after a state of
    Rules(4, 4, name="my-variant"), every mini result was labelled my-variant."""
    GameState.start(Rules(4, 4, name="my-variant"))
    assert repr(solve_optimal("mini")).startswith("OptimalResult(mini,")
    assert rules_name(get_space(Rules(4, 4)).rules) == "mini"
    assert rules_name(get_space(Rules(4, 4, name="my-variant")).rules) == "my-variant"
    with pytest.raises(InvalidRulesError, match="name must be a text that is not blank"):
        Rules(4, 4, name=5)  # type: ignore[arg-type]


@pytest.mark.parametrize("candidates,message", [
    ([7, 3, 7, 20], "increasing order, each once"),  # (a search rebuilt another total)
    ([0, 99999], "code index 99999 is outside"),
    ([1.5], "whole numbers, not float64"),
    ([], "at least one code index"),
])
def test_a_state_from_candidates_checks_them(candidates, message):
    with pytest.raises(InvalidCodeError, match=message):
        GameState(get_space(CLASSIC), candidates=candidates)
    assert GameState(get_space(CLASSIC), candidates=[3, 7, 20]).count == 3


def test_a_forced_first_guess_after_clues_is_refused_in_the_librarys_words():
    state = GameState.start(MINI).after("1122", "0B1W")
    with pytest.raises(KeypegError, match="a forced first guess [(]first, --first[)] applies "
                                          "only before any guess is played"):
        solve_optimal(MINI, state=state, first="1234")


def test_wrong_kinds_are_refused_in_a_sentence():
    """A TypeError and an AttributeError from deep inside, before."""
    with pytest.raises(InvalidCodeError, match="clues must be a list of GUESS=ANSWER texts"):
        GameState.from_clues("classic", None)  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match="rules must be Rules or a name"):
        Code(5, 3)  # type: ignore[arg-type]
    assert str(Code("classic", 3)) == "1114"  # type: ignore[arg-type]


def test_trees_compare_by_what_they_play():
    """== on two trees had raised numpy's "truth value of an array is ambiguous"."""
    knuth = find_strategy("knuth").tree(MINI)
    assert knuth == find_strategy("knuth").tree(MINI)
    assert knuth != find_strategy("entropy").tree(MINI) and knuth != "knuth"


def test_a_malformed_tree_is_refused_in_a_sentence(tmp_path):
    """from_dict had taken counts that do not add up (a part of 99 secrets: total 71, not
    74) and raised KeyError or AttributeError on a missing root; load, JSONDecodeError."""
    from keypeg.tree import DecisionTree

    data = find_strategy("knuth").tree(Rules(3, 3)).to_dict()
    assert DecisionTree.from_dict(data).total == 74
    data["root"]["parts"]["0B0W"]["n"] = 99
    with pytest.raises(KeypegError, match="are not those of its answers"):
        DecisionTree.from_dict(data)
    for bad, words in (({"format": "keypeg-tree"}, "no 'rules' field"),
                       (None, "a NoneType, not an object")):
        with pytest.raises(KeypegError, match=words):
            DecisionTree.from_dict(bad)  # type: ignore[arg-type]
    path = tmp_path / "tree.json"
    path.write_text("oops")
    with pytest.raises(KeypegError, match="it is not keypeg's tree JSON"):
        DecisionTree.load(path)
    with pytest.raises(KeypegError, match="cannot read the tree"):
        DecisionTree.load(tmp_path / "missing.json")


def test_a_space_of_its_own_budget_is_refused_in_a_sentence():
    """evaluate on a CodeSpace made with its own budget had failed on a bare assert."""
    with pytest.raises(LimitExceededError, match="over the 0 bytes budget"):
        evaluate("knuth", CodeSpace("mini", budget=0))


def test_code_indices_in_the_space_still_work():
    space = get_space(CLASSIC)
    assert space.responses(np.int64(5), [1, 2, 3]).tolist() == [
        naive_feedback_index(space, 5, s) for s in (1, 2, 3)]
    assert space.text(np.int32(0)) == "1111" and Code(CLASSIC, np.int64(7)).index == 7


def naive_feedback_index(space, guess: int, secret: int) -> int:
    black, white = blackwhite(space.codes[secret].tolist(), space.codes[guess].tolist())
    return space.alphabet.index(Feedback.blackwhite(black, white))


@pytest.mark.parametrize("kwargs,message", [
    ({"max_guesses": 2.5}, "max_guesses must be a whole number of at least 1, not 2.5"),
    ({"max_guesses": "5"}, "max_guesses must be a whole number of at least 1, not '5'"),
    ({"workers": 0}, "workers must be at least 1, not 0"),
    ({"workers": "2"}, "workers must be a whole number of at least 1, not '2'"),
    ({"time_limit": "abc"}, "time_limit must be a positive number of seconds, not 'abc'"),
])
def test_solve_optimal_refuses_arguments_of_the_wrong_kind(kwargs, message):
    with pytest.raises(KeypegError, match=message):
        solve_optimal(CLASSIC, **kwargs)


@pytest.mark.parametrize("kwargs,message", [
    ({"pegs": 4, "colors": 6, "repeats": "no"}, "repeats must be True or False, not 'no'"),
    ({"pegs": 4, "colors": 6, "blanks": "no"}, "blanks must be True or False, not 'no'"),
    ({"pegs": 4, "colors": 6, "digits": 1}, "digits must be True or False, not 1"),
    ({"pegs": True, "colors": 6}, "whole numbers, not True or False"),
    ({"pegs": 0, "colors": 6}, "pegs must be a whole number from 1 to 12, not 0[.]"),
])
def test_rules_refuse_flags_and_counts_of_the_wrong_kind(kwargs, message):
    with pytest.raises(InvalidRulesError, match=message):
        Rules(**kwargs)


def test_a_numpy_bool_is_a_flag():
    assert Rules(4, 6, repeats=np.bool_(False)) == Rules(4, 6, repeats=False)


def test_score_reads_written_codes_and_codes_and_checks_symbol_indices():
    for secret, guess in (("1234", "RRGG"), ("1234", "1122")):
        assert str(score(secret, guess, CLASSIC)) == "1B1W"
    assert score(Code.parse("1234", CLASSIC), Code.parse("1122", CLASSIC), CLASSIC) == score(
        (0, 1, 2, 3), (0, 0, 1, 1), CLASSIC)
    # the secret first: with positional answers the order changes the answer
    cb = find_rules("codebreaker-4")
    assert str(score("10203", "33310", cb)) == "A--AA"
    assert str(GameState.start(cb).play("33310", "10203").history[0].feedback) == "A--AA"
    with pytest.raises(InvalidCodeError, match=r"4 whole numbers from 0 to 5, not \(0, 0, 9, 9\)"):
        score((0, 0, 9, 9), (0, 0, 0, 0), CLASSIC)


def test_from_clues_takes_one_clue_and_pairs():
    assert GameState.from_clues(CLASSIC, "1122=1B1W").count == 208
    assert GameState.from_clues(CLASSIC, [("1122", "1B1W")]).count == 208


@pytest.mark.parametrize("call,message", [
    (lambda: Feedback.positional([3, 4]), "one mark per peg, 0 .gray., 1 .amber. or 2"),
    (lambda: Feedback("foo", (1, 2)), "the feedback model is 'blackwhite' or 'positional'"),
    (lambda: Feedback.blackwhite(-1, 0), "two counts of at least 0"),
])
def test_feedback_refuses_impossible_marks(call, message):
    with pytest.raises(InvalidFeedbackError, match=message):
        call()


def test_negative_limits_are_refused_not_read_from_the_end():
    state = GameState.start(CLASSIC).after("1122", "1B1W")
    with pytest.raises(KeypegError, match="limit must be at least 0, not -1"):
        state.candidate_texts(-1)
    with pytest.raises(KeypegError, match="n must be at least 0, not -1"):
        state.top(-1)
    assert len(state.candidate_texts(0)) == 0 and len(state.candidate_texts(300)) == 208


def test_the_top_level_has_hints_strategies_and_the_optimum():
    for name in ("hint", "solve_optimal", "evaluate", "find_strategy"):
        assert name in keypeg.__all__ and callable(getattr(keypeg, name))
    # (what the functions return and raise, and the players under noise, which a
    # developer had to find in their modules: TimeLimitError, named in solve_optimal's
    # docstring, was not importable from keypeg)
    for name in ("TimeLimitError", "DecisionTree", "OptimalResult", "Hint", "GameValue",
                 "game_value", "BeliefStrategy"):
        assert name in keypeg.__all__ and getattr(keypeg, name).__module__.startswith("keypeg")


def test_type_checkers_see_every_top_level_name():
    """The names load on first use (a module __getattr__, typed Any): the TYPE_CHECKING
    block imports each, so that type checkers and editors know it (NoStrategyError had
    been left out)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(keypeg))
    seen = {alias.asname or alias.name
            for block in tree.body
            if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
            for node in block.body if isinstance(node, ast.ImportFrom)
            for alias in node.names}
    assert seen == set(keypeg.__all__)


@pytest.mark.parametrize("name,options,message", [
    ("optimal", {"time_limit": "abc"}, "time_limit must be a positive number of seconds"),
    ("optimal", {"max_candidates": -5}, "max_candidates must be at least 1, not -5"),
    ("optimal", {"first": "1234"}, "the optimal strategy takes no first guess"),
    ("entropy", {"order": "bogus"}, "order must be a list of answer indices"),
    ("entropy", {"possible_only": "no"}, "possible_only must be True or False, not 'no'"),
    ("entropy", {"colour": 3}, "does not take the option[(]s[)] colour[.]"),
    ("knuth", {"entropy": "plnp"}, "applies only to the entropy strategy"),
    ("random", {"seed": "x"},
     "seed must be a whole number from 0 to 9,223,372,036,854,775,807, not 'x'"),
    ("random", {"seed": -1}, "seed must be a whole number"),
    ("random", {"seed": 2.9}, "seed must be a whole number"),  # (was read as 2)
    ("genetic", {"seed": "x"}, "seed must be a whole number"),
    (None, {}, "a strategy's name is text"),
])
def test_strategy_options_are_checked_when_the_strategy_is_made(name, options, message):
    with pytest.raises(KeypegError, match=message):
        find_strategy(name, **options)


def test_hint_names_its_own_arguments():
    state = GameState.start(CLASSIC).after("1122", "1B1W")
    with pytest.raises(KeypegError, match="optimal_seconds must be a positive number"):
        keypeg.hint(state, optimal_seconds=0)
    with pytest.raises(KeypegError, match="list_limit must be at least 0"):
        keypeg.hint(state, list_limit=-1)


def test_reprs_say_what_a_value_is_in_a_line():
    state = GameState.start(CLASSIC).after("1122", "1B1W")
    assert repr(state) == "GameState(classic, 1 clue 1122=1B1W, 208 candidates)"
    assert repr(state.space) == "CodeSpace(classic, 1,296 codes)"
    assert repr(find_strategy("knuth")) == "<OneStepStrategy maxsize>"
    tree = evaluate([find_strategy("knuth")], CLASSIC)[0]
    # Knuth's published 5,801 guesses, worst case 5 (the arrays are not printed)
    assert repr(tree).startswith("DecisionTree(classic, 'maxsize', first guess 1122, 5,801 "
                                 "guesses for 1,296 secrets, worst 5,")
    result = solve_optimal(MINI, objective="worst")
    assert repr(result).startswith(f"OptimalResult(mini, total {result.total:,}, first "
                                   f"guess {result.first_guess}, objective=worst, ")
    assert len(repr(result)) < 120



@pytest.mark.parametrize("rules,name", [
    (CLASSIC, "'classic'"), (Rules(5, 7, repeats=False), "'MM(5,7) [no repeats]'"),
    (find_rules("codebreaker-1"), "'codebreaker-1'"),
    (Rules(4, 6, max_guesses=7), repr(Rules(4, 6, max_guesses=7))),  # no name reads back
], ids=str)
def test_code_and_clue_reprs_name_their_rules_and_evaluate_back(rules, name):
    from keypeg.game import Clue
    guess = get_space(rules).code(3)
    clue = Clue.make(guess, score(guess, guess, rules), rules)
    assert repr(guess) == f"Code.parse({str(guess)!r}, {name})"
    assert repr(clue) == f"Clue.parse({str(clue)!r}, {name})"
    assert eval(repr(guess)) == guess and eval(repr(clue)) == clue

def test_an_int_is_a_code_index_never_a_written_code():
    # 1233 read as digits while is_candidate(1233) read it as an index; 123 lost 0123's 0
    for call in (lambda: Code.parse(1233, CLASSIC),
                 lambda: GameState.start(CLASSIC).after(1122, "1B1W"),
                 lambda: Code.parse(None, CLASSIC)):
        with pytest.raises(InvalidCodeError, match="a written code is text, like '1234' for "
                                                   "classic, not"):
            call()
    state = GameState.start(CLASSIC)
    assert state.is_candidate(1233) and state.space.text(1233) == "6524"
    # (feedback too: after("1122", 11) read 11 as 1B1W, 208 codes, where filter reads it as
    # the answer index it is, 2B2W, 4 codes)
    with pytest.raises(InvalidFeedbackError, match="written feedback is text, like '2B2W', "
                                                   "not int"):
        state.after("1122", 11)
    space = state.space
    assert str(space.feedback(11)) == "2B2W" and space.filter(space.all(), "1122", 11).size == 4
    assert state.after("1122", space.feedback(11)).count == 4


def test_a_state_says_how_many_rows_are_left_and_when_the_game_is_over():
    state = GameState.start(CLASSIC)  # 10 rows
    assert state.remaining == 10 and not state.over
    for _ in range(10):
        state = state.play("1122", "3456")
    assert state.remaining == 0 and state.over and not state.solved
    assert state.play("1122", "3456").remaining == 0  # (analysis plays on)
    won = GameState.start(CLASSIC).play("3456", "3456")
    assert won.over and won.solved and won.remaining == 9
    assert GameState.start(Rules(4, 6)).remaining is None


def test_a_presets_name_must_be_text():
    with pytest.raises(keypeg.UnknownRulesError, match="a preset's name is text .one of: "
                                                       "classic, .*not NoneType"):
        find_rules(None)


@pytest.mark.parametrize("rules", [
    Rules(4, 6), Rules(5, 7, repeats=False), Rules(3, 4, blanks=True),
    Rules(4, 10, feedback="positional", digits=True),
    Rules(5, 10, repeats=False, feedback="positional", digits=True),
], ids=str)
def test_the_name_rules_name_writes_reads_back_as_the_same_rules(rules):
    from keypeg.rules import rules_name
    assert rules_name(rules).startswith("MM(")
    assert find_rules(rules_name(rules)) == rules
    assert find_rules(rules_name(rules).lower().replace(",", " , ")) == rules


def test_plain_mastermind_is_read_in_the_forms_people_write():
    assert find_rules("MM(6,7), no repeats") == Rules(6, 7, repeats=False)
    assert find_rules(" mm( 5 , 5 ) ") == Rules(5, 5)
    with pytest.raises(keypeg.UnknownRulesError, match="unknown flag 'wild'.*the flags are: "
                                                       "no repeats, blanks"):
        find_rules("MM(4,6) [wild]")
    with pytest.raises(InvalidRulesError, match="pegs must be a whole number from 1"):
        find_rules("MM(0,6)")
    with pytest.raises(keypeg.UnknownRulesError, match="or MM.pegs,colours. for plain"):
        find_rules("MM 4 6")


def test_descriptions_count_in_the_singular_too():
    assert Rules(1, 1).describe() == "1 peg, 1 colour"
    assert Rules(4, 1, max_guesses=1).describe() == "4 pegs, 1 colour, 1 row"
    assert CLASSIC.describe() == "4 pegs, 6 colours, 10 rows"


def test_huge_numbers_in_a_written_game_are_refused_as_numbers_not_unknown_names():
    with pytest.raises(InvalidRulesError, match="pegs must be a whole number from 1 to 12"):
        find_rules("MM(99999999999,6)")
    with pytest.raises(InvalidRulesError, match="colors must be"):
        find_rules("MM(4," + "9" * 5000 + ")")  # (int() refuses over 4,300 digits)


def test_an_unknown_strategy_lists_the_names_it_is_known_by_too():
    with pytest.raises(KeypegError, match=r"choose one of: consistent, .*genetic \(or a name "
                                          r"one is known by: knuth, minimax, irving"):
        find_strategy("nope")


@pytest.mark.parametrize("call,message", [
    (lambda: solve_optimal("MM(3,3)", possible_only="yes"), "possible_only must be True or"),
    (lambda: solve_optimal("MM(3,3)", possible_only="0"), "possible_only must be True or"),
    (lambda: solve_optimal("MM(3,3)", symmetry=None), "symmetry must be True or False"),
    (lambda: solve_optimal("MM(3,3)", trace=1), "trace must be True or False"),
    (lambda: solve_optimal("MM(3,3)", workers=20000), "workers must be at most 256"),
    (lambda: solve_optimal("MM(3,3)", checkpoint="x.db"), "checkpoint must be a keypeg"),
    (lambda: solve_optimal("MM(3,3)", progress=5), "progress must be a function or None"),
    (lambda: evaluate([find_strategy("maxsize")], "MM(3,3)", workers=-1),
     "workers must be at least 1"),
    (lambda: evaluate([find_strategy("maxsize")], "MM(3,3)", workers=1.5),
     "workers must be a whole number"),
    (lambda: evaluate([find_strategy("maxsize")], "MM(3,3)", on_done=5),
     "on_done must be a function or None"),
    (lambda: evaluate(5, "MM(3,3)"), "strategies must be a list of strategies or their"),
    (lambda: evaluate([5], "MM(3,3)"), "not a list holding 5"),
    (lambda: find_strategy("random", tie="last"), "takes no tie rule or entropy"),
    (lambda: find_strategy("random", entropy="bogus"), "takes no tie rule or entropy"),
    (lambda: find_strategy("genetic", tie="bogus"), "takes no tie rule or entropy"),
    (lambda: hint("classic"), "hint takes a GameState"),
    (lambda: hint(CLASSIC), "hint takes a GameState, such as .*, not Rules"),
    (lambda: hint(GameState.start("MM(2,3)"), strategies="no"), "strategies must be True"),
    (lambda: get_space(CLASSIC).feedback(999), "answer index 999 is outside 0..13"),
    (lambda: get_space(CLASSIC).feedback(-1), "answer index -1 is outside"),
    (lambda: get_space(CLASSIC).filter(get_space(CLASSIC).all(), 0, 1.5),
     "an answer index is a whole"),
    (lambda: get_space(CLASSIC).filter(all, 0, "1B1W"), "code indices are whole numbers"),
    (lambda: CodeSpace(Rules(2, 3), budget="x"), "budget must be a whole number"),
])
def test_arguments_are_checked_up_front(call, message):
    """A library audit found these accepted and ignored ('yes' read as true, a path given
    as checkpoint dropped, 20,000 threads started, a tie rule for random dropped), failing
    deep inside (TypeError: 'int' object is not callable partway through a run;
    AttributeError for a rules name), or wrong (feedback(-1) was the win). Each is refused
    at once in one sentence."""
    with pytest.raises(KeypegError, match=message) as info:
        call()
    assert str(info.value).count(". ") == 0


def test_evaluate_takes_one_strategy_or_names():
    """evaluate(strategy) raised 'OneStepStrategy' object is not iterable and
    evaluate(['knuth']) an AttributeError; both now give the trees the strategies give."""
    want = [t.total for t in evaluate([find_strategy("maxsize"), find_strategy("entropy")],
                                      "MM(3,3)")]
    assert [t.total for t in evaluate(["knuth", find_strategy("entropy")], "MM(3,3)")] == want
    assert [t.total for t in evaluate(find_strategy("maxsize"), "MM(3,3)")] == want[:1]
    assert evaluate([], "MM(3,3)") == []



def test_evaluate_refuses_an_unknown_option_in_a_sentence():
    """evaluate('knuth', 'classic', possible_only=True) raised a bare TypeError; it is a
    KeypegError that says where such options go, and the options it takes still work."""
    for option in ({"possible_only": True}, {"max_guesses": 4}):
        with pytest.raises(KeypegError, match=f"no option {next(iter(option))} .*find_strategy"):
            evaluate("knuth", "classic", **option)
    assert [t.total for t in evaluate("knuth", "classic", workers=1)] == [5801]

def test_oversized_games_are_refused_from_their_sizes():
    """solve_optimal('mm88') and evaluate(..., 'mm88') built MM(8,8)'s 16.8 million codes
    (3-4 s, 1 GB) before the budget refused them."""
    from keypeg import space

    def no_big_space(self, rules, **options):
        raise AssertionError(f"built the space of {rules}")

    for call in (lambda: solve_optimal("mm88"),
                 lambda: evaluate([find_strategy("maxsize")], "mm88")):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(space.CodeSpace, "__init__", no_big_space)
            with pytest.raises(LimitExceededError, match="over the .* budget"):
                call()


def test_clues_as_json_lists_and_negative_sizes():
    """from_clues took (guess, answer) tuples but not the two-item lists JSON gives ("has
    no '='"); MM(-1,6) got the generic 'unknown rules' where MM(0,6) gets the range."""
    assert GameState.from_clues(CLASSIC, [["1122", "1B1W"]]).count == 208
    with pytest.raises(InvalidRulesError, match="pegs must be a whole number from 1 to"):
        find_rules("MM(-1,6)")
    with pytest.raises(InvalidRulesError, match="colors must be a whole number of at least 1"):
        find_rules("MM(4,-2)")


def test_strategies_that_play_on_true_answers_refuse_a_noisy_state():
    """find_strategy('entropy').next_guess under symmetric:0.05 played 2314 as if every
    answer were true (hint's entropy, which plays under the noise, says 1514), and evaluate
    walked its tree so; under a prior with true answers they play as they always do."""
    from keypeg.bayes import BeliefStrategy
    from keypeg.strategies import evaluate as evaluate_named

    noisy = GameState.start(CLASSIC, noise="symmetric:0.05").after("1122", "1B1W")
    liar = GameState.start(CLASSIC, noise="lies:1").after("1122", "1B1W")
    for state in (noisy, liar):
        for name in ("entropy", "knuth", "consistent", "optimal", "genetic"):
            strategy = keypeg.find_strategy(name)
            for call in (lambda s=strategy, st=state: s.next_guess(st),
                         lambda s=strategy, st=state: s.tree(CLASSIC, st),
                         lambda n=name, st=state: evaluate_named(n, CLASSIC, state=st)):
                with pytest.raises(KeypegError, match=f"{strategy.name} plays on true "
                                                      "answers, and this state's answers|"
                                                      "worked out for trusted answers only"):
                    call()
    guess = BeliefStrategy("entropy").next_guess(noisy)
    assert str(guess) == [s.guess for s in hint(noisy).strategies if s.name == "entropy"][0]
    small = GameState.start("MM(3,4)", noise="symmetric:0.05").after("123", "1B1W")
    assert evaluate_named(BeliefStrategy("entropy"), "MM(3,4)", state=small)[0].total > 0
    # (a prior with true answers: the strategies play on the candidates, as evaluate's
    # weighted totals take them)
    weights = np.ones(1296)
    weights[get_space(CLASSIC).index("1234")] = 5.0
    prior = GameState.start(CLASSIC, prior=weights).after("1122", "1B1W")
    assert prior.trusted and prior.weights is not None
    plain = GameState.start(CLASSIC).after("1122", "1B1W")
    assert keypeg.find_strategy("entropy").next_guess(prior) == keypeg.find_strategy(
        "entropy").next_guess(plain)


def test_a_name_stands_for_its_rules_in_every_entry_point(tmp_path):
    """game_value("MM(3,4)"), first_guess_table, explorer_tree and load_tree(rules=...)
    failed with AttributeError or TypeError on a name, which the README and
    architecture.md say may stand for its rules wherever rules go. MM(3,4)'s value 219/68
    is the README's table's (computed there with its own column generation)."""
    from pathlib import Path

    from keypeg.explorer import explorer_tree
    from keypeg.openings import first_guess_table
    from keypeg.treeformats import load_tree
    from keypeg.value import game_value

    assert str(game_value("MM(3,4)").value) == "219/68"
    with pytest.raises(KeypegError, match="time_limit must be a positive number of seconds"):
        game_value("MM(3,3)", time_limit=-1)
    assert first_guess_table("MM(3,3)", optimum=False)["rows"]
    assert explorer_tree("MM(3,3)", "maxsize")[0].total > 0
    data = Path(__file__).parent / "data" / "mm23-hand.irving.txt"
    assert load_tree(data, rules="MM(2,3)").total == 21  # (tests/data/README.md: by hand)
    with pytest.raises(InvalidRulesError):
        load_tree(data, rules=5)


def test_a_state_pickles_and_copies():
    """pickle.dumps(state) and copy.deepcopy(state) failed ("cannot pickle
    '_thread.lock' object", the code space's): a state could not go to a worker process or
    a cache. A space pickles as its rules: back, the process's shared one, or one alike."""
    import copy
    import pickle

    from keypeg.space import CodeSpace

    noisy = GameState.start(CLASSIC, noise="symmetric:0.05").after("1122", "1B1W")
    again = pickle.loads(pickle.dumps(noisy))
    assert again.space is noisy.space and str(again.noise) == "symmetric:0.05"
    assert again.count == noisy.count and np.array_equal(again.posterior, noisy.posterior)
    assert [str(c) for c in again.history] == ["1122=1B1W"]
    plain = copy.deepcopy(GameState.start(CLASSIC).after("1122", "1B1W"))
    assert plain.count == 208 and plain.space is get_space(CLASSIC)
    own = CodeSpace("mini", budget=1000)
    back = pickle.loads(pickle.dumps(own))
    assert back is not own and back.budget == 1000 and back.size == own.size


def test_a_state_says_a_prior_only_where_one_was_given():
    # (under noise the posterior is uneven with no prior: the repr had said "a prior")
    noisy = GameState.start(CLASSIC, noise="symmetric:0.05").after("1122", "1B1W")
    assert repr(noisy).endswith("noise symmetric:0.05)")
    weighted = GameState.start(CLASSIC, noise="symmetric:0.05", prior=np.ones(1296))
    assert repr(weighted.after("1122", "1B1W")).endswith("noise symmetric:0.05, a prior)")
    assert repr(GameState.start(CLASSIC, prior=np.arange(1, 1297))).endswith(", a prior)")
    assert ", a prior" not in repr(GameState.start(CLASSIC, noise="lies:1").after("1122",
                                                                                 "1B1W"))


def test_a_tree_of_a_position_saved_replays_over_its_own_secrets(tmp_path):
    """A tree built from a position was saved with no word of its clues: loaded again,
    replay() said 'the tree covers 208 secrets, not 1296'. It keeps its clues (and noise)
    now; under a prior, which it cannot hold, it asks for its secrets in a sentence.
    926 is solve_optimal's total after 1122=1B1W in the README's example."""
    from keypeg.bayes import BeliefStrategy
    from keypeg.tree import DecisionTree

    state = GameState.start(CLASSIC).after("1122", "1B1W")
    trees = {"entropy": keypeg.find_strategy("entropy").tree(CLASSIC, state),
             "optimal": solve_optimal(CLASSIC, state=state).tree,
             "evaluated": keypeg.evaluate("knuth", CLASSIC, state=state)[0]}
    noisy = GameState.start("MM(3,4)", noise="symmetric:0.05").after("123", "1B1W")
    trees["belief"] = BeliefStrategy("entropy").tree("MM(3,4)", noisy)
    for name, tree in trees.items():
        tree.save(tmp_path / f"{name}.json")
        back = DecisionTree.load(tmp_path / f"{name}.json")
        back.replay()
        assert back.meta["clues"] == ["123=1B1W" if name == "belief" else "1122=1B1W"]
        assert back.total == tree.total, name
    assert trees["optimal"].total == 926 and trees["entropy"].secrets == 208
    # (under noise every code but the one the clue rules out stays: 64 - 1)
    assert trees["belief"].secrets == 63 and trees["belief"].meta["noise"] == "symmetric:0.05"
    weights = np.ones(1296)
    weights[5] = 0
    prior = GameState.start(CLASSIC, prior=weights).after("1122", "1B1W")
    keypeg.find_strategy("entropy").tree(CLASSIC, prior).save(tmp_path / "prior.json")
    back = DecisionTree.load(tmp_path / "prior.json")
    with pytest.raises(KeypegError, match="starts from a position under a prior"):
        back.replay()
    back.replay(secrets=prior.candidates)


def test_the_sampled_evaluation_and_the_genetic_game_check_their_input():
    """genetic.play on MM(8,8) with a symbol 9 in the secret ran about 70 s to 'did not
    find the secret'; sampled_evaluation took no strategy name (AttributeError) and named
    the CLI's --sample in a library call's error."""
    from keypeg import genetic
    from keypeg.sampling import sampled_evaluation

    with pytest.raises(InvalidCodeError, match="8 whole numbers from 0 to 7, not"):
        genetic.play("MM(8,8)", [9] * 8, 0)
    with pytest.raises(InvalidCodeError, match="unknown symbol"):
        genetic.play("classic", "abcd", 0)
    assert genetic.play("classic", "1234", 0)[-1].tolist() == [0, 1, 2, 3]
    assert len(genetic.play(CLASSIC, [0, 1, 2, 3], 0)) == len(genetic.play(CLASSIC, "1234", 0))
    with pytest.raises(KeypegError, match="^n must be a whole number from 2"):
        sampled_evaluation(CLASSIC, "maxsize", 1, 1)
    row = sampled_evaluation("classic", "maxsize", 5, 1)
    assert row["approximate"] is True and row["strategy"] == "maxsize"


def test_states_and_strategies_take_what_a_developer_hands_them():
    """next_guess('classic') and GameState(Rules) failed with AttributeError; from_clues
    read '1122=1B1W 3456=0B2W' as one clue whose feedback was '1B1W 3456=0B2W'."""
    with pytest.raises(KeypegError, match="next_guess takes a GameState, such as "
                                          "GameState.start\\('classic'\\), not 'classic'"):
        keypeg.find_strategy("maxsize").next_guess("classic")
    for name in ("optimal", "entropy"):
        with pytest.raises(KeypegError, match="not int"):
            keypeg.find_strategy(name).next_guess(5)
    with pytest.raises(KeypegError, match="not int"):
        keypeg.BeliefStrategy().next_guess(5)
    assert GameState(CLASSIC).count == GameState("classic").count == 1296
    both = GameState.start(CLASSIC).after("1122", "1B1W").after("3456", "0B2W")
    for text in ("1122=1B1W 3456=0B2W", "1122=1B1W, 3456=0B2W"):
        assert GameState.from_clues(CLASSIC, text).count == both.count == 84
    assert GameState.from_clues(CLASSIC, "1122 1B1W").count == 208
