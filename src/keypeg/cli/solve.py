"""`keypeg solve`: the codes that fit a list of clues."""

import json
from typing import TYPE_CHECKING, Annotated

import typer

from ..limits import SOLVE_LIST, percent, plural
from ..rules import Rules
from .common import NoiseOption, PriorOption, command, console

if TYPE_CHECKING:
    from ..game import GameState


@command
def solve(
    clues: Annotated[
        list[str],
        typer.Argument(metavar="CLUES",
                       help="Clues as GUESS=FEEDBACK, e.g. 1122=1B1W or 01234=GA--A."),
    ],
    rules: Rules,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print {count, codes} as JSON (with --prior or --noise, probabilities "
        "too; lies:K has none).")] = False,
    prior: PriorOption = None,
    noise: NoiseOption = None,
) -> None:
    """List the codes that fit every clue, or with --prior/--noise every code with its
    probability, most likely first. Exit 1 when the clues contradict each other."""
    from ..belief import Lies
    from ..game import GameState

    state = GameState.from_clues(rules, clues, prior=prior, noise=noise)
    if isinstance(state.noise, Lies) and prior is None:
        _liars(state, as_json)
        return
    if prior is not None or noise is not None:
        _ranked(state, len(clues), as_json)
        return
    codes = state.candidate_texts()
    if as_json:
        print(json.dumps({"count": state.count, "codes": codes}))
        return
    noun = "code fits" if state.count == 1 else "codes fit"
    console.print(f"[bold]{state.count:,}[/] {noun} {len(clues)} clue{'s' * (len(clues) != 1)} "
                  f"({state.bits:.2f} bits still missing).")
    _listed(" ".join(codes[:SOLVE_LIST]), len(codes))


def _listed(line: str, count: int) -> None:
    """Print the first `SOLVE_LIST` of `count` codes (`line`), and how many more there are."""
    console.print(line)
    if count > SOLVE_LIST:
        console.print(f"... and {count - SOLVE_LIST:,} more (--json lists them all).")


def _liars(state: "GameState", as_json: bool) -> None:
    """lies:K has no probabilities: the codes that break at most K clues, and the clue
    most of them break ('wrong with probability 100.0%' was said of it)."""
    codes = state.candidate_texts()
    if as_json:
        print(json.dumps({"count": state.count, "codes": codes}))
        return
    k = getattr(state.noise, "k", 0)
    n = len(state.history)
    if k >= n:  # ("contradict at most 10 of the one clue")
        console.print(f"[bold]{state.count:,}[/] code{'s' * (state.count != 1)} fit"
                      f"{'s' * (state.count == 1)} with "
                      f"{'the clue' if n == 1 else f'any of the {n} clues'} a lie "
                      f"(noise {state.noise}):")
    else:
        console.print(f"[bold]{state.count:,}[/] code{'s' * (state.count != 1)} contradict"
                      f"{'s' * (state.count == 1)} at most {k} of the "
                      f"{plural(n, 'clue') if n != 1 else 'one clue'} (noise {state.noise}):")
    _listed(" ".join(codes[:SOLVE_LIST]), len(codes))
    doubts = state.doubts()
    if doubts and max(doubts) > 0:
        worst = max(range(len(doubts)), key=doubts.__getitem__)
        n = round(doubts[worst] * state.count)
        which = ("whichever of these codes is the secret" if n == state.count else
                 f"if the secret is one of {n:,} of these {state.count:,} codes")
        console.print(f"Most doubtful: clue {worst + 1} ({state.history[worst]}), wrong "
                      f"{which}.")


def _ranked(state: "GameState", n_clues: int, as_json: bool) -> None:
    """Print every code with non-zero posterior, most likely first (ties in code order)."""
    ranked = state.top(state.count)
    ranked = [(c, p) for c, p in ranked if p > 0]
    if as_json:
        print(json.dumps({"count": len(ranked), "codes": [c for c, _ in ranked],
                          "probabilities": [p for _, p in ranked]}))
        return
    console.print(f"[bold]{len(ranked):,}[/] code{'s' * (len(ranked) != 1)} possible after "
                  f"{n_clues} clue{'s' * (n_clues != 1)} ({state.entropy:.2f} bits still "
                  f"missing, noise {state.noise}); most likely first:")
    _listed("  ".join(f"{c} {percent(p)}" for c, p in ranked[:SOLVE_LIST]), len(ranked))
    if len(ranked) < state.count:  # (their posterior is below the smallest float)
        console.print(f"{state.count - len(ranked):,} more are possible, each with a "
                      "probability too small to write (below 1e-300).")
    doubts = state.doubts()
    if doubts and max(doubts) > 0:
        worst = max(range(len(doubts)), key=doubts.__getitem__)
        console.print(f"Most doubtful: clue {worst + 1} ({state.history[worst]}), wrong with "
                      f"probability {percent(doubts[worst])}.")
