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


def strategies() -> tuple[list[dict], list[str]]:
    from keypeg.rules import Rules
    from keypeg.strategies import TABLE_STRATEGIES, evaluate, find_strategy

    rows = []
    for label, rules, goal, repeats in (
        ("classic MM(4,6)", find_rules("classic"), 0.2, 9),
        ("MM(4,7)", Rules(pegs=4, colors=7), 1.0, 5),
        ("super MM(5,8)", find_rules("super"), 30.0, 3),
    ):
        strategies = [find_strategy(n) for n in TABLE_STRATEGIES]
        get_space(rules).table()
        seconds = median_time(lambda s=strategies, r=rules: evaluate(s, r), repeats=repeats)
        rows.append({"job": f"all five strategies, whole tree, {label} (2 threads)",
                     "seconds": seconds, "goal_s": goal})
    return rows, ["Warm: tables loaded and kernels compiled before timing."]


GROUPS["strategies"] = strategies
