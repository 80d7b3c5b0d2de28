"""keypeg.treeformats: the readers' details (hand-written inputs), replay, and the view."""

import numpy as np
import pytest

from keypeg.rules import Rules, find_rules
from keypeg.space import get_space
from keypeg.strategies import find_strategy
from keypeg.treeformats import (
    TreeFileError,
    detect_format,
    make_view,
    parse_block_yaml,
    parse_tree,
    replay,
    subtree_totals,
    to_decision_tree,
    write_arfst,
    write_arfst_yaml,
)
from tests import naive

MM23 = Rules(pegs=2, colors=3)


def test_block_yaml_keeps_codes_as_text():
    data = parse_block_yaml("---\n- 0012\n- ----:\n    - 3345\n    - XXXX: 3345\n"
                            "  XXXX: '0012'\n")
    assert data == ["0012", {"----": ["3345", {"XXXX": "3345"}], "XXXX": "0012"}]


@pytest.mark.parametrize("text,fmt", [
    ('{"format": "keypeg-tree"}', "json"),
    ("# rules: classic\n1122\n  0B0W: 3345\n", "irving"),
    ("---\n- 0012\n", "arfst"),
    ("           ---- O--- XXXX\n000 1 0012 ---- ---- 0012\n", "arfst"),
])
def test_formats_are_told_apart(text, fmt):
    assert detect_format(text) == fmt


def test_a_branch_no_secret_reaches_is_left_out():
    # the hand tree of tests/data: after 12 and 0B1W only 23 and 31 are left, and neither
    # answers 0B2W to 23
    text = ("12\n  0B0W: 33\n  0B1W: 23\n    0B1W: 31\n    0B2W: 32\n  0B2W: 21\n"
            "  1B0W: 13\n    0B0W: 22\n    0B1W: 32\n    1B0W: 11\n")
    raw = parse_tree(text, "irving", MM23)
    verdict = replay(raw)
    assert verdict.valid and verdict.unreached == 1 and raw.nodes == 10
    tree = to_decision_tree(raw, verdict)
    assert tree.nodes == 9 and tree.meta["unreached_dropped"] == 1
    assert tree.parent.tolist() == [-1, 0, 0, 2, 0, 0, 5, 5, 5]  # 12 33 23 31 21 13 22 32 11
    tree.replay()


def test_a_tree_that_loses_secrets_is_not_converted():
    raw = parse_tree("12\n  0B0W: 33\n", "irving", MM23)
    verdict = replay(raw)
    # by hand: 11 answers 1B0W to 12, for which the tree has no branch
    assert not verdict.valid and verdict.message().startswith("secret 11: after guess 1, 12,")
    codes = naive.all_codes(2, 3)
    lost = [c for c in codes if naive.blackwhite(c, (0, 1)) not in ((0, 0), (2, 0))]
    assert verdict.failures == len(lost)
    with pytest.raises(Exception, match="not a valid strategy"):
        to_decision_tree(raw, verdict)


def test_arfst_rules_come_from_the_codes():
    card = ("         -- O- OO X- XX\n000 1 01 22 >001 10 >002 01\n"
            "001 2 12 -- 20 -- -- 12\n002 2 02 11 21 -- 00 02\n")
    raw = parse_tree(card)
    assert raw.rules == MM23 and raw.meta["rules_from"] == "codes"
    with pytest.raises(TreeFileError, match="3 pegs"):
        parse_tree(card, "arfst", Rules(pegs=3, colors=3))


def test_arfst_writers_read_back_and_match_the_layout():
    tree = find_strategy("optimal").tree(find_rules("classic"))
    card = write_arfst(tree)
    lines = card.splitlines()
    # arfst23's layout: 11 columns before the answers, 3-digit line numbers, breadth first
    assert lines[0] == " " * 11 + ("---- O--- OO-- OOO- OOOO X--- XO-- XOO- XOOO XX-- XXO- "
                                   "XXOO XXX- XXXX")
    assert lines[1].startswith("000 1 0012 >001 ")  # keypeg's 1123, as published
    assert [ln.split()[1] for ln in lines[1:15]] == ["1"] + ["2"] * 13
    yml = write_arfst_yaml(tree)
    assert yml.startswith("---\n- 0012\n- ----:\n    - ")
    for text in (card, yml):
        back = to_decision_tree(parse_tree(text, "auto", tree.rules))
        assert all(np.array_equal(getattr(back, k), getattr(tree, k))
                   for k in ("guess", "parent", "response", "depth", "size"))


def test_subtree_totals_add_up():
    tree = find_strategy("maxsize").tree(MM23)
    total, count = subtree_totals(tree)
    assert total[0] == tree.total and count[0] == tree.nodes
    view = make_view(tree, 1)
    assert view.shown == [0] and view.hidden == tree.nodes - 1


def test_a_punch_card_is_written_back_byte_for_byte_with_its_closing_note():
    """Four of arfst23's sixteen files end in a note of the solver's time ("cpu=33261.9s"):
    the reader kept the strategy but dropped the note, so those came back one line short
    of what the README promises (byte for byte)."""
    from pathlib import Path

    text = (Path(__file__).parent / "data" / "mm23-hand.arfst").read_text()
    assert text.endswith("\ncpu=0.0s\n")
    raw = parse_tree(text)
    assert write_arfst(to_decision_tree(raw)) == text


def test_a_tree_dict_may_name_its_rules_and_its_guesses_are_text():
    """DecisionTree.from_dict refused "rules": "MM(2,3)", and took a guess written as a
    number (3) for a code index."""
    import json

    from keypeg.errors import KeypegError
    from keypeg.tree import DecisionTree

    tree = find_strategy("maxsize").tree(MM23)
    data = json.loads(json.dumps(tree.to_dict()))
    for name in ("MM(2,3)", "mm(2, 3)"):
        back = DecisionTree.from_dict({**data, "rules": name})
        assert back == tree and back.rules == MM23
    with pytest.raises(KeypegError, match="unknown rules 'nonsense'"):
        DecisionTree.from_dict({**data, "rules": "nonsense"})
    with pytest.raises(KeypegError, match='"rules" must be a rules name'):
        DecisionTree.from_dict({**data, "rules": 7})
    first = data["root"]["guess"]
    index = get_space(MM23).index(first)
    bad = {**data, "root": {**data["root"], "guess": index}}
    with pytest.raises(KeypegError, match="a guess must be text"):
        DecisionTree.from_dict(bad)


def test_irving_writes_a_rules_name_that_reads_back_as_the_same_rules():
    """Custom rules were written as a JSON blob though '# rules: MM(3,3) [positional]'
    reads back."""
    from keypeg.treeformats import write_irving

    for rules, line in ((Rules(pegs=3, colors=3, feedback="positional"),
                         "# rules: MM(3,3) [positional]"),
                        (MM23, "# rules: MM(2,3)"),
                        (find_rules("classic"), "# rules: classic")):
        text = write_irving(find_strategy("maxsize").tree(rules))
        assert line in text.splitlines()
        assert parse_tree(text).rules == rules
    odd = find_rules("classic").with_max_guesses(6)  # classic's name reads back as 10 rows
    text = write_irving(find_strategy("maxsize").tree(odd))
    assert '"max_guesses": 6' in text and parse_tree(text).rules == odd


def test_views_sort_a_hand_written_trees_answers():
    raw = parse_tree("12\n  1B0W: 13\n    1B0W: 11\n    0B1W: 32\n    0B0W: 22\n"
                     "  0B2W: 21\n  0B1W: 23\n    0B1W: 31\n  0B0W: 33\n", "irving", MM23)
    tree = to_decision_tree(raw)
    view = make_view(tree, 0)
    space = get_space(MM23)
    shown = [(space.text(int(tree.guess[i]))) for i in view.shown]
    assert shown == ["12", "33", "23", "31", "21", "13", "22", "32", "11"]  # by answer
    # the tree itself keeps the file's order (display only)
    assert [space.text(int(g)) for g in tree.guess] == [
        "12", "13", "11", "32", "22", "21", "23", "31", "33"]
