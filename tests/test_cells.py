"""The new cells shipped with keypeg (optima no seed publishes): every stored tree replays
to its stored total over every secret, agrees with the one other source where there is
one, and `keypeg ledger --extended` reports them."""

import itertools
import json

import numpy as np
from typer.testing import CliRunner

from keypeg.cli import app
from keypeg.solver.cells import cell_rules, cell_tree, check_cells, stored_cells
from keypeg.solver.ledger import two_peg_closed_form
from keypeg.space import get_space
from tests import naive

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


def test_a_wrong_total_is_caught(monkeypatch):
    cells = [dict(c) for c in stored_cells()]
    cells[0]["total"] += 1
    monkeypatch.setattr("keypeg.solver.cells.stored_cells", lambda: cells)
    rows = check_cells()
    assert rows[0]["status"] == "mismatch" and "not" in rows[0]["reason"]
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


def _new_cells_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "new_cells.py"
    spec = importlib.util.spec_from_file_location("new_cells_script", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_resumed_cell_counts_the_seconds_of_its_earlier_runs(tmp_path):
    """`new_cells.py --checkpoint`: a run killed mid-search has written its elapsed time
    (every few seconds); the run that resumes and finishes reports both runs' seconds, and
    forgets them once the cell is stored."""
    spent_cls = _new_cells_script()._Spent
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
