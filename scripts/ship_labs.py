"""Compute the exact strategy labs shipped with the package (src/keypeg/data/lab.json).

    python scripts/ship_labs.py

The web page's Lab answers from this file for the presets whose exact evaluation takes
longer than a web request should (super MM(5,8), the Codebreaker levels); smaller ones it
computes and caches itself. MM(6,9) and MM(8,8) get sampled labs (approximate, a 95 %
interval per mean), with the genetic algorithm's row. Codebreaker levels 4-6 (100,000
codes, one code space) are walked part by part, as their full feedback table would take
9.3 GiB (onestep.split_tree).

Each lab also gets an "optimal" row where the exact optimum is found within
OPTIMAL_SECONDS (classic, mini, bulls and cows, the distinct-digit Codebreaker levels), or
from the optimal tree that ships with keypeg (Codebreaker levels 4-6: a new cell); not
super, whose optimum nobody has computed.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from keypeg.errors import LimitExceededError
from keypeg.labs import sampled_lab
from keypeg.rules import find_rules, rules_name
from keypeg.solver import solve_optimal
from keypeg.solver.cached import stored_tree
from keypeg.space import get_space
from keypeg.strategies import TABLE_STRATEGIES, evaluate, find_strategy

OPTIMAL_SECONDS = 600
#: Presets whose optimum is known to be far out of reach (no one has computed it; the
#: search does not finish in hours): not tried.
OPTIMUM_OUT_OF_REACH = {"super"}

OUT = Path(__file__).resolve().parent.parent / "src" / "keypeg" / "data" / "lab.json"
PRESETS = ["classic", "mini", "bulls-and-cows", "codebreaker-1", "super", "codebreaker-4"]
#: Presets whose labs are sampled, and how many random secrets each strategy plays.
SAMPLED = {"mm-6-9": 100, "mm-8-8": 30}
SAMPLED_SECONDS = 4 * 3600



def add_optimal(name: str, lab: dict) -> None:
    """Add the optimal row to `lab` (uncapped: the fewest guesses in total over every
    secret): from the optimal tree that ships with keypeg (a new cell's, proven twice by
    scripts/new_cells.py) where there is one, else when a search finds it in time."""
    if any(r["strategy"] == "optimal" for r in lab["rows"]):
        return
    stored = stored_tree(find_rules(name))
    if stored is not None:
        lab.pop("optimal_out_of_reach", None)
        found = stored.depths()  # every secret played
        lab["rows"].insert(0, {"strategy": "optimal", "first_guess": stored.summary()[
            "first_guess"], "total": int(found.sum()), "mean": round(float(found.mean()), 4),
            "worst": int(found.max()), "histogram": np.bincount(found)[1:].tolist()})
        print(f"{name}: optimal {int(found.sum())} from its shipped tree", flush=True)
        return
    if lab.get("optimal_out_of_reach"):
        return
    if name in OPTIMUM_OUT_OF_REACH:
        lab["optimal_out_of_reach"] = True
        return
    try:
        result = solve_optimal(find_rules(name).with_max_guesses(None),
                               time_limit=OPTIMAL_SECONDS)
    except LimitExceededError:
        lab["optimal_out_of_reach"] = True
        print(f"{name}: optimum not found within {OPTIMAL_SECONDS} s", flush=True)
        return
    result.tree.replay()
    summary = result.summary()
    lab["rows"].insert(0, {"strategy": "optimal", "first_guess": summary["first_guess"],
                           "total": summary["total"], "mean": summary["mean"],
                           "worst": summary["worst"], "histogram": summary["histogram"]})
    print(f"{name}: optimal {summary['total']} in {summary['seconds']} s", flush=True)


labs = json.loads(OUT.read_text()) if OUT.exists() else {}
# the biggest presets: sampled labs (approximate, with 95 % intervals), the genetic
# algorithm included, each strategy against the same random secrets
for name, games in SAMPLED.items():
    rules = find_rules(name)
    if rules.key in labs:
        continue
    lab = sampled_lab(rules, seconds=SAMPLED_SECONDS, games=games,
                      names=(*TABLE_STRATEGIES, "genetic"))
    labs[rules.key] = lab
    print(f"{name}: {[(r['strategy'], r['mean'], r['games']) for r in lab['rows']]} "
          f"in {lab['seconds']} s", flush=True)
    OUT.write_text(json.dumps(labs, indent=1) + "\n")
for name in PRESETS:
    rules = find_rules(name)
    space = get_space(rules)
    if rules.key in labs:
        add_optimal(name, labs[rules.key])
        OUT.write_text(json.dumps(labs, indent=1) + "\n")
        continue
    started = time.perf_counter()
    trees = evaluate([find_strategy(n) for n in TABLE_STRATEGIES], space)
    rows = [{**t.summary(), "strategy": n} for n, t in zip(TABLE_STRATEGIES, trees, strict=True)]
    for tree in trees:
        tree.replay(space)
    seconds = round(time.perf_counter() - started, 1)
    labs[rules.key] = {"rules": rules_name(rules), "exact": True, "secrets": space.size,
                       "rows": rows, "seconds": seconds}
    print(f"{name}: {[r['total'] for r in rows]} in {seconds} s", flush=True)
    add_optimal(name, labs[rules.key])
    OUT.write_text(json.dumps(labs, indent=1) + "\n")
