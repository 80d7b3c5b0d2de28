"""The new cells shipped with keypeg (optima no seed publishes): every stored tree replays
to its stored total over every secret, agrees with the one other source where there is
one, and `keypeg ledger --extended` reports them."""

import itertools
import json
import time

import numpy as np
import pytest
from typer.testing import CliRunner

from keypeg.cli import app
from keypeg.published import published
from keypeg.rules import Rules
from keypeg.solver import solve_optimal
from keypeg.solver.cells import cell_rules, cell_tree, check_cells, stored_cells
from keypeg.solver.ledger import two_peg_closed_form
from keypeg.space import get_space
from tests import naive
from tests.scripts import load_script

runner = CliRunner()


def test_cells_are_stored():
    labels = {c["label"] for c in stored_cells()}
    assert {"MM(4,8)", "MM(2,17)"} <= labels


def test_every_stored_tree_replays_to_its_total():
    for cell in stored_cells():
        tree = cell_tree(cell)
        space = get_space(cell_rules(cell))
        found = tree.depths(space)  # every secret played; raises if one is missed
        assert int(found.sum()) == cell["total"], cell["label"]
        assert int(found.max()) == cell["worst"]
        assert np.bincount(found)[1:].tolist() == cell["histogram"]
        assert cell["proofs"][0].startswith("the tree replayed")


def test_published_values_agree():
    """MM(4,8)'s only published value (arfst23's tree), and Chen and Lin's closed form for
    two pegs, computed here independently."""
    by = {c["label"]: c for c in stored_cells()}
    assert by["MM(4,8)"]["total"] == 20471
    for c in range(17, 25):
        if f"MM(2,{c})" in by:
            assert by[f"MM(2,{c})"]["total"] == two_peg_closed_form(c)


def test_ledger_extended_replays_every_cell():
    result = runner.invoke(app, ["ledger", "--extended", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["label"] for r in rows] == [c["label"] for c in stored_cells()]
    assert all(r["status"] == "ok" and r["replayed"] == r["total"] for r in rows)


@pytest.mark.parametrize("args,label", [
    (["--pegs", "5", "--colors", "6"], "MM(5,6)"),
    (["--rules", "codebreaker-2"], "Codebreaker 1-3 (5 distinct digits, green/amber/gray)"),
    (["--rules", "codebreaker-6"], "Codebreaker 4-6 (5 digits, green/amber/gray)"),
    (["--rules", "bulls-and-cows"], "bulls and cows (MM(4,10), no repeats)"),
])
def test_optimal_answers_a_stored_cell_from_its_tree(tmp_path, monkeypatch, args, label):
    """`keypeg optimal` takes a new cell's optimum from its shipped tree (a search would
    take minutes, or need a 9.3 GiB table): the stored total, first guess and histogram,
    also under a preset's cap that the tree's worst case fits (7 and 6 guesses here)."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    cell = next(c for c in stored_cells() if c["label"] == label)
    result = runner.invoke(app, ["optimal", *args, "--max-seconds", "30", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["cached"] is True
    assert (out["total"], out["first_guess"], out["histogram"]) == (
        cell["total"], cell["first_guess"], cell["histogram"])


def test_a_stored_cell_is_not_taken_under_a_cap_it_does_not_fit(tmp_path, monkeypatch):
    """MM(4,8)'s stored optimum needs 7 guesses: capped at 6 the search runs (and here
    runs out of its second: exit 3), rather than answering with a tree past the cap."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    assert next(c for c in stored_cells() if c["label"] == "MM(4,8)")["worst"] == 7
    result = runner.invoke(app, ["optimal", "--pegs", "4", "--colors", "8", "--max-guesses",
                                 "6", "--max-seconds", "1", "--json"])
    assert result.exit_code == 3, result.output


def test_evaluate_takes_the_optimal_tree_of_a_stored_cell(tmp_path, monkeypatch):
    """`keypeg evaluate -s optimal` on Codebreaker 4-6: the shipped tree (no search, no
    9.3 GiB table), its numbers those the cell was stored with."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    cell = next(c for c in stored_cells() if c["rules"] == "codebreaker-4")
    result = runner.invoke(app, ["evaluate", "--rules", "codebreaker-4", "-s", "optimal",
                                 "--json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)[0]
    assert (row["total"], row["worst"], row["histogram"], row["first_guess"]) == (
        cell["total"], cell["worst"], cell["histogram"], cell["first_guess"])


def test_optimal_strategy_walks_a_stored_cell(monkeypatch):
    """The optimal strategy (hints, the computer's play) plays a new cell's tree while the
    game stays on it, with no search: Codebreaker 4-6 (100,000 codes, whose table is over
    the budget) after the tree's first guess and one answer."""
    from keypeg.game import GameState
    from keypeg.rules import find_rules
    from keypeg.solver import search
    from keypeg.strategies import find_strategy

    def no_search(*args, **kwargs):
        raise AssertionError("searched")

    monkeypatch.setattr(search, "solve_optimal", no_search)
    cell = next(c for c in stored_cells() if c["rules"] == "codebreaker-4")
    tree = cell_tree(cell)
    space = get_space(find_rules("codebreaker-4"))
    child = tree.children()
    secret = space.index("31415")
    node, clues = 0, []
    for _ in range(3):
        g = int(tree.guess[node])
        r = int(space.responses(g, np.array([secret], dtype=np.int32))[0])
        if r == space.win:
            break
        clues.append(f"{space.text(g)}={space.feedback(r)}")
        node = int(child[node, r])
        state = GameState.from_clues(find_rules("codebreaker-4"), clues)
        assert int(tree.size[node]) == state.count
        guess = find_strategy("optimal").next_guess(state)
        assert space.index(str(guess)) == int(tree.guess[node])
    assert len(clues) >= 2


def test_a_wrong_total_is_caught(monkeypatch):
    # two small cells, one with a wrong total (every cell is replayed by the tests above)
    cells = [dict(c) for c in sorted(stored_cells(), key=lambda c: c["codes"])[:2]]
    cells[0]["total"] += 1
    monkeypatch.setattr("keypeg.solver.cells.stored_cells", lambda: cells)
    rows = check_cells()
    assert rows[0]["status"] == "mismatch" and "not" in rows[0]["reason"]
    assert rows[1]["status"] == "ok"
    result = runner.invoke(app, ["ledger", "--extended"])
    assert result.exit_code == 1


def test_small_cells_other_optima_equal_the_naive_search():
    """The W and MM* of every stored cell of at most 30 codes (`new_cells.py --variants`),
    from the exhaustive reference: W the fewest guesses any tree needs (the least depth
    with a finite total) and the least total within it; MM* with candidates as probes."""
    small = [c for c in stored_cells() if c["codes"] <= 30]
    assert len(small) >= 7
    for cell in small:
        rules = cell_rules(cell)
        codes = [c for c in itertools.product(range(rules.colors), repeat=rules.pegs)
                 if rules.repeats or len(set(c)) == rules.pegs]
        model = rules.feedback
        star = naive.naive_optimal(codes, codes, model, possible_only=True)
        assert cell["possible_only"]["total"] == star, cell["label"]
        memo: dict = {}
        w = next(d for d in itertools.count(1)
                 if naive.naive_optimal(codes, codes, model, depth=d, memo=memo) < float("inf"))
        assert cell["worst_first"]["worst"] == w, cell["label"]
        assert cell["worst_first"]["total"] == naive.naive_optimal(codes, codes, model, depth=w,
                                                                   memo=memo), cell["label"]


@pytest.mark.parametrize("pegs,colors,repeats", [(2, 5, True), (2, 6, False), (4, 4, False),
                                                 (2, 8, False)])
def test_w_by_caps_equals_the_naive_search(pegs, colors, repeats):
    """`new_cells.py --variants` finds W cap by cap when the optimal tree is deeper than
    the depth bound: caps proven empty, then the optimal first guess under the next cap
    reaching the uncapped optimum (the least total under any cap); against the exhaustive
    reference (each of these games' W-trees costs what its optimal tree does)."""
    rules = Rules(pegs=pegs, colors=colors, repeats=repeats)
    codes = [c for c in itertools.product(range(colors), repeat=pegs)
             if repeats or len(set(c)) == pegs]
    memo: dict = {}
    w = next(d for d in itertools.count(1)
             if naive.naive_optimal(codes, codes, "blackwhite", depth=d, memo=memo) < float("inf"))
    optimum = solve_optimal(rules)
    cell = {"label": str(rules), "total": optimum.total, "worst": optimum.worst,
            "first_guess": optimum.first_guess}
    assert optimum.worst > w  # (the case the caps serve)
    got = load_script("new_cells")._worst_by_caps(cell, rules, 60.0)
    assert (got["worst"], got["total"]) == (w, naive.naive_optimal(codes, codes, "blackwhite",
                                                                   depth=w, memo=memo))


def test_w_by_caps_searches_a_cap_in_full_when_the_first_guess_falls_short():
    """MM(4,6): within 5 guesses no tree reaches the optimum's 5,625 (1123 first costs more),
    so the cap is searched in full: 5,626, Koyama and Lai's (published). Run as
    `--variants` runs it, W tried before under a shorter limit: the cells are saved as soon
    as 4 guesses are proven too few (no tree within 3 was known), before the cap-5 search."""
    classic = published()["optimal"]["classic"]
    cell = {"label": "MM(4,6)", "rules": {"pegs": 4, "colors": 6}, "total": classic["total"],
            "worst": classic["worst"], "first_guess": classic["first_guess"],
            "worst_first": {"seconds": 1.0, "none_within": 3},
            "possible_only": {"total": 0, "worst": 0}}  # (W alone is searched)
    saved: list = []
    assert load_script("new_cells")._variants(
        cell, 60.0, save=lambda: saved.append(dict(cell["worst_first"])))
    assert saved == [{"seconds": 1.0, "none_within": 4}]
    got = cell["worst_first"]
    assert (got["worst"], got["total"]) == (5, classic["max5_total"])


def test_w_by_caps_checkpointed_resumes_and_shares_the_first_guess_parts(tmp_path, capsys,
                                                                         monkeypatch):
    """`new_cells.py --variants --checkpoint DB`: W's searches record their root parts.
    MM(4,6) within 5 guesses: a first run stopped in its full cap-5 search; the second run
    finds Koyama and Lai's 5,626, its full search taking the parts of 1123 (the optimal first
    guess, searched alone first) from the record, and counts both runs' seconds."""
    from keypeg.errors import LimitExceededError
    from keypeg.solver import search as search_module

    monkeypatch.setattr(search_module, "PARALLEL_MIN_CODES", 100)  # (record MM(4,6) too)
    script = load_script("new_cells")
    monkeypatch.setattr(script._Spent, "EVERY", 0.0)
    monkeypatch.setattr(script._Spent, "SAY_EVERY", 0.0)
    classic = published()["optimal"]["classic"]
    cell = {"label": "MM(4,6)", "total": classic["total"], "worst": classic["worst"],
            "first_guess": classic["first_guess"]}
    real = script.solve_optimal
    full: list = []
    stop = [True]

    def solve(rules, **options):
        if options.get("first") is None and options.get("max_guesses") == 5 and stop[0]:
            options["progress"]({"phase": "searching", "nodes": 0})
            time.sleep(0.2)
            raise LimitExceededError("out of time (test).")
        result = real(rules, **options)
        if options.get("first") is None and "checkpoint" in options:
            full.append((options["checkpoint"].key, options["max_guesses"], result.stats))
        return result

    monkeypatch.setattr(script, "solve_optimal", solve)
    db = str(tmp_path / "w.db")
    rules = Rules(pegs=4, colors=6)
    assert script._worst_by_caps(cell, rules, 60.0, db) == {"seconds": 60.0, "none_within": 4}
    seconds = tmp_path / f"w.db.w-{rules.key}.seconds.json"
    first_run = sum(json.loads(seconds.read_text()).values())
    assert first_run >= 0.2
    # the lines that say where a search stands name it
    assert "MM(4,6) worst_first, within 5 guesses in full: searching" in capsys.readouterr().out
    stop[0] = False
    got = script._worst_by_caps(cell, rules, 60.0, db)
    assert (got["worst"], got["total"]) == (5, classic["max5_total"])
    # the full cap-5 search, then its second proof under a key of its own (the cap-4
    # searches find no tree)
    assert [(key, cap) for key, cap, _ in full] == [(f"w-first:{rules.key}", 5),
                                                   (f"w-second:{rules.key}", 5)]
    assert full[0][2]["parts_resumed"] > 0 and full[1][2]["parts_resumed"] == 0
    assert got["seconds"] >= round(first_run, 1) and not seconds.exists()


def test_a_resumed_cell_counts_the_seconds_of_its_earlier_runs(tmp_path):
    """`new_cells.py --checkpoint`: a run killed mid-search has written its elapsed time
    (every few seconds); the run that resumes and finishes reports both runs' seconds, and
    forgets them once the cell is stored."""
    spent_cls = load_script("new_cells")._Spent
    path = tmp_path / "cp.db.cell-x.seconds.json"
    killed = spent_cls(path)
    for elapsed in (1.0, 6.0, 9.0, 12.5):  # (then SIGKILL: nothing more is written)
        killed.progress({"elapsed": elapsed})
    resumed = spent_cls(path)
    resumed.started += 1.0  # another run (time.time() may repeat within a test)
    resumed.progress({"elapsed": 5.5})
    assert resumed.total(10.0) == 22.5  # 12.5 s killed, then 10 s to the end
    resumed.clear()
    assert not path.exists()
    assert spent_cls(None).total(3.0) == 3.0


def test_a_long_cells_second_search_resumes_from_a_record_of_its_own(tmp_path, capsys,
                                                                      monkeypatch):
    """`new_cells.py --checkpoint DB`: the second search (serial) records its parts in DB's
    sibling under a key of its own, so it resumes when run again, and takes nothing the
    first search recorded. MM(4,6) (made a game whose searches record): the first search
    recorded in DB; the second then solves every part itself, and run again takes them
    from its own record; both find Koyama and Lai's 5,625."""
    from keypeg.solver import search as search_module
    from keypeg.solver.resume import Checkpoint
    from keypeg.store import Store

    monkeypatch.setattr(search_module, "PARALLEL_MIN_CODES", 100)  # (record MM(4,6) too)
    script = load_script("new_cells")
    monkeypatch.setattr(script, "PARALLEL_MIN_CODES", 100)  # (its second: the serial one)
    monkeypatch.setattr(script._Spent, "EVERY", 0.0)
    monkeypatch.setattr(script._Spent, "SAY_EVERY", 0.0)
    rules = Rules(pegs=4, colors=6)
    total = published()["optimal"]["classic"]["total"]
    db = str(tmp_path / "m46.sqlite")
    assert script.second_checkpoint(db) == str(tmp_path / "m46.second.sqlite")
    first = solve_optimal(rules, checkpoint=Checkpoint(Store(db), f"cell:{rules.key}"))
    assert first.total == total and first.stats["parts_solved"] > 0
    runs = []
    for _ in range(2):
        options = script._second_recorded(db, rules, "MM(4,6)")
        # (as the search's first report would: a warm MM(4,6) may finish before it)
        options["progress"]({"phase": "starting", "nodes": 0, "elapsed": 0.5})
        result, what = script._second_search(rules, **options)
        runs.append(result.stats)
        assert result.total == total and what == "the serial search"
    assert runs[0]["parts_resumed"] == 0 and runs[0]["parts_solved"] > 0
    assert runs[1]["parts_resumed"] == runs[0]["parts_solved"]
    assert runs[1]["parts_solved"] == 0
    # where it stands is said, and its seconds counted over its runs (two runs)
    assert "MM(4,6) second search: starting, 0 s" in capsys.readouterr().out
    seconds = tmp_path / f"m46.second.sqlite.cell-{rules.key}.seconds.json"
    assert len(json.loads(seconds.read_text())) == 2


def test_a_cells_first_search_is_the_parallel_root_on_one_core_too(tmp_path, monkeypatch):
    """A cell's two proofs are two different searches even where the script may use one
    core (`taskset -c 1`, beside another run): the first asks for two workers (the parallel
    root) for a game of PARALLEL_MIN_CODES codes or more, the second for one (the serial
    search); below that size the first is the default and the second has two workers. The
    searches stubbed out (each runs out of time at once; the workers asked for do not depend on
    the cores), the file written to tmp_path."""
    import sys

    from keypeg.errors import LimitExceededError

    script = load_script("new_cells")
    asked: list[tuple[str, object]] = []

    def solve(rules, **options):
        asked.append((str(rules), options.get("workers")))
        raise LimitExceededError("out of time (test).")

    monkeypatch.setattr(script, "solve_optimal", solve)
    monkeypatch.setattr(script, "OUT", tmp_path / "cells.json")
    for label in ("MM(4,9), no repeats", "MM(3,5), no repeats"):
        monkeypatch.setattr(sys, "argv", ["new_cells.py", "--limit", "1", label])
        script.main()
    big, small = Rules(pegs=4, colors=9, repeats=False), Rules(pegs=3, colors=5, repeats=False)
    assert big.size >= script.PARALLEL_MIN_CODES > small.size
    for rules in (big, small):
        with pytest.raises(LimitExceededError):
            script._second_search(rules)
    assert [w for _, w in asked] == [2, None, 1, 2]
    assert {c["label"] for c in json.loads((tmp_path / "cells.json").read_text())[
        "out_of_reach"]} >= {"MM(4,9), no repeats", "MM(3,5), no repeats"}


def test_w_by_caps_out_of_time_keeps_the_caps_proven_empty(monkeypatch):
    """A W search past its time is noted with the largest cap proven to hold no tree: MM(4,6)
    has none within 4 guesses (proven by two searches; five are needed, Knuth); the search
    within 5 made to run out of time."""
    from keypeg.errors import LimitExceededError

    script = load_script("new_cells")
    rules = Rules(pegs=4, colors=6)
    assert script._lowest_cap(rules) == 4
    real = script.solve_optimal

    def solve(rules, **options):
        if (options.get("max_guesses") or 0) >= 5:
            raise LimitExceededError("out of time (test).")
        return real(rules, **options)

    monkeypatch.setattr(script, "solve_optimal", solve)
    optimum = real(rules)
    cell = {"label": str(rules), "total": optimum.total, "worst": optimum.worst,
            "first_guess": optimum.first_guess}
    assert script._worst_by_caps(cell, rules, 60.0) == {"seconds": 60.0, "none_within": 4}


def test_seven_peg_cell_found_again_with_three_count_words():
    """MM(7,3) (35 answers) is searched with each probe's counts in three words of 4-bit
    fields (answers 30 and up in the third); the stored optimum, proven by two searches
    before that layout, is found again, with the same histogram."""
    cell = next(c for c in stored_cells() if c["label"] == "MM(7,3)")
    found = solve_optimal(get_space(cell_rules(cell)), workers=1)
    assert found.total == cell["total"]
    assert np.bincount(found.tree.depths(get_space(cell_rules(cell))))[1:].tolist() == \
        cell["histogram"]


def test_five_peg_cell_found_again_with_byte_count_words():
    """MM(5,5) (20 answers) counts its sets of 16 to 127 codes in bytes of four words
    (`_table_words`); the stored optimum, proven by two searches before that layout, is
    found again, with the same histogram."""
    cell = next(c for c in stored_cells() if c["label"] == "MM(5,5)")
    found = solve_optimal(get_space(cell_rules(cell)), workers=1)
    assert found.total == cell["total"]
    assert np.bincount(found.tree.depths(get_space(cell_rules(cell))))[1:].tolist() == \
        cell["histogram"]
