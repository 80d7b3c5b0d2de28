"""Solve the optimal trees that ship with the package (src/keypeg/data/).

    python scripts/ship_trees.py

MM(4,6) takes under a second; MM(4,7) under a minute on the development machine.
"""

from __future__ import annotations

import time
from pathlib import Path

from keypeg.rules import Rules
from keypeg.solver import solve_optimal
from keypeg.solver.cached import SHIPPED, tree_bytes

DATA = Path(__file__).resolve().parent.parent / "src" / "keypeg" / "data"

for (pegs, colors), name in SHIPPED.items():
    started = time.perf_counter()
    result = solve_optimal(Rules(pegs=pegs, colors=colors))
    result.tree.replay()
    (DATA / name).write_bytes(tree_bytes(result.tree))
    print(f"MM({pegs},{colors}): {result.total} in {time.perf_counter() - started:.1f} s "
          f"-> {name} ({(DATA / name).stat().st_size:,} bytes)")
