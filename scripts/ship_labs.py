"""Compute the exact strategy labs shipped with the package (src/keypeg/data/lab.json).

    python scripts/ship_labs.py

The web page's Lab answers from this file for the presets whose exact evaluation takes
longer than a web request should (super MM(5,8), the distinct-digit Codebreaker levels);
smaller ones it computes and caches itself. Codebreaker levels 4-6 (100,000 codes) have no
exact lab: their feedback table would take 10 GB.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from keypeg.rules import find_rules, rules_name
from keypeg.space import get_space
from keypeg.strategies import TABLE_STRATEGIES, evaluate, find_strategy

OUT = Path(__file__).resolve().parent.parent / "src" / "keypeg" / "data" / "lab.json"
PRESETS = ["classic", "mini", "bulls-and-cows", "super", "codebreaker-1"]

labs = json.loads(OUT.read_text()) if OUT.exists() else {}
for name in PRESETS:
    rules = find_rules(name)
    space = get_space(rules)
    if rules.key in labs:
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
    OUT.write_text(json.dumps(labs, indent=1) + "\n")
