"""New cells: exact optima that seed 000's ledger does not hold, stored with their trees.

Each cell was proven twice when it was stored (`scripts/new_cells.py`): the optimal tree
was replayed over every secret, and a second search with other options (the serial search
instead of the parallel root, or the reverse; for a long cell, an earlier complete search by
an older version of the search) found the same total. The totals, how they
were proven and, where one other source publishes the value, whether keypeg agrees, ship in
``data/cells.json``; the trees in ``data/cell-KEY.json.gz``. `check_cells` (``keypeg ledger
--extended``) replays every stored tree again.

>>> cells = stored_cells()
>>> any(c["label"] == "MM(4,8)" for c in cells)
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from ..errors import KeypegError
from ..rules import Rules, find_rules
from ..tree import DecisionTree, tree_from_bytes

CELLS_FILE = "data/cells.json"


def cell_rules(cell: dict[str, Any]) -> Rules:
    """Return the rules of a stored cell."""
    spec = cell["rules"]
    if isinstance(spec, str):
        return find_rules(spec).with_max_guesses(None)
    return Rules(**spec)


def tree_file(key: str) -> str:
    """Return the packaged name of a cell's tree."""
    return f"data/cell-{key}.json.gz"


@cache
def stored_cells() -> list[dict[str, Any]]:
    """Return the stored cells (label, rules, total, worst, histogram, first guess, proofs,
    published value and source where there is one), smallest games first."""
    data = resources.files("keypeg").joinpath(CELLS_FILE)
    if not data.is_file():
        return []
    return list(json.loads(data.read_text())["cells"])


def cell_tree(cell: dict[str, Any]) -> DecisionTree:
    """Return a stored cell's optimal tree."""
    data = resources.files("keypeg").joinpath(tree_file(cell_rules(cell).key))
    if not data.is_file():
        raise KeypegError(f"the tree of {cell['label']} is missing from the package.")
    return tree_from_bytes(data.read_bytes())


def check_cells(on_cell: Callable[[dict[str, Any]], None] | None = None
                ) -> list[dict[str, Any]]:
    """Replay every stored cell's tree over all its secrets; return one dict per cell with
    label, stored total, replayed total, worst case and status ("ok" or "mismatch", with
    the reason)."""
    out = []
    for cell in stored_cells():
        started = time.perf_counter()
        row: dict[str, Any] = {"label": cell["label"], "total": cell["total"]}
        try:
            tree = cell_tree(cell)
            rules = cell_rules(cell)
            if tree.rules.key != rules.key:
                raise KeypegError(f"its tree is for {tree.rules.key}, not {rules.key}.")
            found = tree.depths()  # plays every secret; raises if one is not found
            replayed = int(found.sum())
            row.update(replayed=replayed, worst=int(found.max()),
                       status="ok" if replayed == cell["total"] else "mismatch")
            if replayed != cell["total"]:
                row["reason"] = f"the tree needs {replayed:,} guesses, not {cell['total']:,}."
        except KeypegError as exc:
            row.update(replayed=None, worst=None, status="mismatch", reason=str(exc))
        row["seconds"] = round(time.perf_counter() - started, 3)
        out.append(row)
        if on_cell is not None:
            on_cell(row)
    return out
