"""The optimal search's limits: its memo stays within KEYPEG_MEMO_BUDGET (all workers
together) and still finds the optimum when tiny; a search out of --max-seconds exits with
code 3, bad input with 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import keypeg.solver.search as search_module
from keypeg.cli import app
from keypeg.published import published
from keypeg.rules import Rules
from keypeg.solver.search import _Search, solve_optimal
from keypeg.space import get_space

PUB = published()


def memo_bytes(search: _Search) -> int:
    return search.mheads.nbytes + search.ment.nbytes + search.mpool.nbytes


def new_search(n: int, budget: int) -> _Search:
    space = get_space(Rules(pegs=4, colors=7))
    return _Search(space, possible_only=False, capped=False, first=-1, symmetry=True,
                   trace=False, n_max=n, memo_bytes=budget)


@pytest.mark.parametrize("budget", [300_000, 1 << 20, 10 << 20, 1 << 30, 3 << 30])
def test_a_search_memo_stays_within_its_budget(budget):
    assert memo_bytes(new_search(2401, budget)) <= budget


def test_a_tiny_budget_is_raised_to_the_floor_of_one_root():
    # the documented floor: 1,024 entries, and 4 codes per candidate plus 1,024
    n = 2401
    floor = 1024 * 8 * 7 + 1024 * 8 + (4 * n + 1024) * 4
    assert memo_bytes(new_search(n, 1000)) == floor


def test_a_run_stays_within_a_tiny_budget_and_finds_the_optimum(monkeypatch):
    made: list[_Search] = []
    init = _Search.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(search_module._Search, "__init__", recording)
    monkeypatch.setenv("KEYPEG_MEMO_BUDGET", "600000")
    result = solve_optimal(Rules(pegs=4, colors=5), workers=2)
    assert result.total == PUB["ledger"]["totals"]["4"]["5"]
    assert len(made) == 3 and sum(memo_bytes(s) for s in made) <= 600_000
    assert result.stats["memo_resets"] > 0  # the memo was full and started over
    result.tree.replay()


def test_out_of_time_is_exit_code_3():
    runner = CliRunner()
    out = runner.invoke(app, ["optimal", "--pegs", "4", "--colors", "7", "--recompute",
                              "--no-resume", "--max-seconds", "0.5"])
    assert out.exit_code == 3
    assert out.output.strip().count("\n") == 0 and "within" in out.output
    out = runner.invoke(app, ["value", "--pegs", "3", "--colors", "4", "--recompute",
                              "--max-seconds", "0.01"])
    assert out.exit_code == 3 and out.output.strip().count("\n") == 0
    # bad input stays 2
    out = runner.invoke(app, ["optimal", "--pegs", "3", "--colors", "3",
                              "--max-seconds", "0"])
    assert out.exit_code == 2
