"""The optimal search's limits: its memo stays within KEYPEG_MEMO_BUDGET (all workers
together) and still finds the optimum when tiny; a search out of --max-seconds exits with
code 3, bad input with 2."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import keypeg.solver.search as search_module
from keypeg._kernels import memo as km
from keypeg._kernels import slots
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
    monkeypatch.delenv("KEYPEG_MEMO_BUDGET")
    roomy = solve_optimal(Rules(pegs=4, colors=5), workers=2)
    assert roomy.stats["memo_resets"] == 0
    for field in ("guess", "parent", "response", "depth", "size"):  # the same tree
        assert np.array_equal(getattr(result.tree, field), getattr(roomy.tree, field))


def test_a_full_memo_keeps_the_exact_values_of_its_biggest_sets():
    # 8 entries, 64 codes: a quarter (2 entries, 16 codes) is kept when it starts over
    heads = np.full(16, -1, dtype=np.int64)
    ment = np.zeros((8, slots.ENTRY_COLUMNS), dtype=np.int64)
    pool = np.zeros(64, dtype=np.int32)
    meta = np.zeros(4, dtype=np.int64)
    stats = np.zeros(slots.COUNTER_SLOTS, dtype=np.int64)
    sets = {}
    # (size, exact): the biggest set is only a lower bound, then exact sets of 7, 6, 5 codes
    for i, (size, exact) in enumerate([(3, True), (9, False), (7, True), (4, True),
                                       (6, True), (5, True), (3, False), (4, True)]):
        S = np.arange(10 * i, 10 * i + size, dtype=np.int32)
        sets[i] = S
        km.memo_store(S, 3, 100 + i, 7 if exact else -1, heads, ment, pool, meta, stats)
    assert meta[slots.MEMO_USED_ENTRIES] == 8 and stats[slots.N_MEMO_RESETS] == 0
    new = np.arange(200, 204, dtype=np.int32)
    km.memo_store(new, 3, 99, 1, heads, ment, pool, meta, stats)  # full: starts over
    assert stats[slots.N_MEMO_RESETS] == 1
    assert meta[slots.MEMO_SEQ] == 2  # odd while it started over, even again since
    found = {i for i, S in sets.items() if km.memo_find(S, 3, heads, ment, pool) >= 0}
    assert found == {2, 4}  # 7 + 6 codes fit in 16, 7 + 6 + 5 do not; no lower bound kept
    assert km.lookup_guess(sets[2], 3, heads, ment, pool) == (102, 7)
    assert km.lookup_guess(sets[4], 3, heads, ment, pool) == (104, 7)
    assert km.lookup_guess(new, 3, heads, ment, pool) == (99, 1)
    assert meta[slots.MEMO_USED_ENTRIES] == 3 and meta[slots.MEMO_USED_CODES] == 7 + 6 + 4


def test_out_of_time_is_exit_code_3():
    runner = CliRunner()
    # (MM(4,7)'s whole search takes about 0.9 s on two cores here: far more than 0.1 s)
    out = runner.invoke(app, ["optimal", "--pegs", "4", "--colors", "7", "--recompute",
                              "--no-resume", "--max-seconds", "0.1"])
    assert out.exit_code == 3
    assert out.output.strip().count("\n") == 0 and "within" in out.output
    out = runner.invoke(app, ["value", "--pegs", "3", "--colors", "4", "--recompute",
                              "--max-seconds", "0.01"])
    assert out.exit_code == 3 and out.output.strip().count("\n") == 0
    # bad input stays 2
    out = runner.invoke(app, ["optimal", "--pegs", "3", "--colors", "3",
                              "--max-seconds", "0"])
    assert out.exit_code == 2
