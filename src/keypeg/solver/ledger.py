"""The ledger: seed 000's table of optimal totals for many (pegs, colours), recomputed.

Every cell is compared with its published value; the two-peg row also with Chen and Lin's
closed form (Computer Journal 47(5), 2004): the least total over all c^2 secrets is
(8c^3 + 51c^2 - 74c + 48) / 24 for even c and (8c^3 + 51c^2 - 80c + 69) / 24 for odd c.
At c = 2 the form gives 7, but MM(2,2) needs 8: no code separates the other three (each
leaves two codes together), so every strategy costs at least 2m = 8 (see `solve`); the form
holds from c = 3.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.table import Table

from ..errors import LimitExceededError
from ..published import published
from ..rules import Rules
from .search import solve_optimal


def two_peg_closed_form(colors: int) -> int | None:
    """Return Chen and Lin's least total for MM(2, colors), for colors >= 3."""
    c = colors
    if c < 3:
        return None
    top = 8 * c**3 + 51 * c**2 - (74 * c - 48 if c % 2 == 0 else 80 * c - 69)
    assert top % 24 == 0
    return top // 24


def _cells() -> list[tuple[int, int, int]]:
    totals = published()["ledger"]["totals"]
    cells = [(int(p), int(c), int(v)) for p, row in totals.items() for c, v in row.items()]
    return sorted(cells, key=lambda cell: (cell[1] ** cell[0], cell))


#: (pegs, colours, published total), smallest code spaces first.
LEDGER_CELLS = _cells()


def run_ledger(*, max_seconds: float = 60.0, max_codes: int | None = None,
               on_cell: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Recompute every cell (up to `max_codes` codes) whose search finishes within
    `max_seconds`; return one dict per cell with total, worst, expected, closed_form,
    status ("ok", "mismatch", "skipped") and seconds."""
    out = []
    for pegs, colors, expected in LEDGER_CELLS:
        if max_codes is not None and colors**pegs > max_codes:
            continue
        cell: dict[str, Any] = {"pegs": pegs, "colors": colors, "expected": expected,
                                "closed_form": two_peg_closed_form(colors) if pegs == 2 else None}
        started = time.perf_counter()
        try:
            result = solve_optimal(Rules(pegs=pegs, colors=colors), time_limit=max_seconds)
        except LimitExceededError:
            cell.update(total=None, worst=None, status="skipped")
        else:
            agree = result.total == expected and cell["closed_form"] in (None, result.total)
            cell.update(total=result.total, worst=result.worst,
                        status="ok" if agree else "mismatch")
        cell["seconds"] = round(time.perf_counter() - started, 3)
        out.append(cell)
        if on_cell is not None:
            on_cell(cell)
    return out


def format_list(cells: list[dict[str, Any]]) -> Table:
    """Return the ledger one cell per row (for a terminal too narrow for `format_grid`)."""
    table = Table(title="Optimal total over all secrets")
    for name, right in (("game", False), ("total", True), ("worst", True),
                        ("published", False)):
        table.add_column(name, justify="right" if right else "left")
    for cell in cells:
        game = f"MM({cell['pegs']},{cell['colors']})"
        if cell["status"] == "skipped":
            table.add_row(game, "", "", f"[dim]{cell['expected']:,}: skipped, its search "
                                        "ran longer[/]")
        elif cell["status"] == "mismatch":
            table.add_row(game, f"[bold red]{cell['total']:,}[/]", str(cell["worst"]),
                          f"[bold red]{cell['expected']:,}: disagrees[/]")
        else:
            table.add_row(game, f"{cell['total']:,}", str(cell["worst"]),
                          f"{cell['expected']:,}: agrees")
    return table


def format_grid(cells: list[dict[str, Any]]) -> Table:
    """Return the ledger as a pegs x colours grid, the worst case in brackets."""
    colors = sorted({c["colors"] for c in cells})
    pegs = sorted({c["pegs"] for c in cells})
    by = {(c["pegs"], c["colors"]): c for c in cells}
    table = Table(title="Optimal total over all secrets (worst case in brackets)")
    table.add_column("pegs \\ colours")
    for c in colors:
        table.add_column(str(c), justify="right")
    for p in pegs:
        row = []
        for c in colors:
            cell = by.get((p, c))
            if cell is None:
                row.append("")
            elif cell["status"] == "skipped":
                row.append(f"[dim]{cell['expected']:,}?[/]")
            elif cell["status"] == "mismatch":
                row.append(f"[bold red]{cell['total']:,}[/]")
            else:
                row.append(f"{cell['total']:,} ({cell['worst']})")
        table.add_row(str(p), *row)
    return table
