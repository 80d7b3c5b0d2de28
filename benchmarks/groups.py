"""Benchmark groups for run.py: each returns (rows, notes)."""

from __future__ import annotations

import numpy as np
from run import median_time

from keypeg.rules import find_rules
from keypeg.space import CodeSpace, get_space


def core() -> tuple[list[dict], list[str]]:
    rows = []
    classic = CodeSpace(find_rules("classic"), disk_cache=False)
    rows.append({"job": "feedback table, classic MM(4,6) (1,296 codes)",
                 "seconds": median_time(classic.build_table, repeats=9), "goal_s": 0.05})
    sup = CodeSpace(find_rules("super"), disk_cache=False)
    rows.append({"job": "feedback table, super MM(5,8) (32,768 codes)",
                 "seconds": median_time(sup.build_table, repeats=3), "goal_s": 10.0})
    cb4 = get_space(find_rules("cb4"))
    everything = cb4.all()
    guess = cb4.index("01234")
    response = cb4.response_index("GA--A")
    rows.append({"job": "filter 100,000 codebreaker-4 candidates by one clue",
                 "seconds": median_time(lambda: cb4.filter(everything, guess, response),
                                        repeats=9), "goal_s": 0.05})
    assert np.all(cb4.filter(everything, guess, response) >= 0)
    return rows, []


GROUPS = {"core": core}
