"""`keypeg solve`: the codes that fit a list of clues."""

import json
from typing import Annotated

import typer

from ..limits import SOLVE_LIST
from ..rules import Rules
from .common import command, console


@command
def solve(
    clues: Annotated[
        list[str],
        typer.Argument(help="Clues as GUESS=FEEDBACK, e.g. 1122=1B1W or 01234=GA--A."),
    ],
    rules: Rules,
    as_json: Annotated[bool, typer.Option("--json", help="Print {count, codes} as JSON.")] = False,
) -> None:
    """List the codes that fit every clue. Exit 1 when the clues contradict each other."""
    from ..game import GameState

    state = GameState.from_clues(rules, clues)
    codes = state.candidate_texts()
    if as_json:
        print(json.dumps({"count": state.count, "codes": codes}))
        return
    noun = "code fits" if state.count == 1 else "codes fit"
    console.print(f"[bold]{state.count:,}[/] {noun} {len(clues)} clue{'s' * (len(clues) != 1)} "
                  f"({state.bits:.2f} bits still missing).")
    shown = codes[:SOLVE_LIST]
    console.print(" ".join(shown))
    if len(codes) > SOLVE_LIST:
        console.print(f"... and {len(codes) - SOLVE_LIST:,} more (--json lists them all).")
