"""`keypeg value`: the exact value of Mastermind as a two-player zero-sum game (seed 004)
and both optimal strategies: the codemaker's mixture over the classes of secrets and the
codebreaker's mixture of symmetrised trees. Values shipped with keypeg are read at once
(`--recompute` solves again); others are solved by column generation (`keypeg.value`)."""

import contextlib
import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ..errors import KeypegError
from ..limits import check_max_seconds
from ..rules import Rules, rules_name
from .common import check_output_path, command, console, err_console, shown_name


@command
def value_command(
    rules: Rules,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the value and both strategies as JSON.")] = False,
    recompute: Annotated[bool, typer.Option(
        "--recompute", help="Solve again even when keypeg ships this value.")] = False,
    max_seconds: Annotated[float | None, typer.Option(
        "--max-seconds", help="Give up after this many seconds.")] = None,
    save_trees: Annotated[Path | None, typer.Option(
        "--save-trees", metavar="FOLDER", help="Write the codebreaker's trees, one JSON file "
        "each (tree-1.json, ... in the order of its mixture), for keypeg tree; needs a value "
        "solved here (--recompute for one shipped or kept).")] = None,
) -> None:
    """The exact game value: the guesses the codebreaker needs on average when the
    codemaker picks secrets as cleverly as possible and the codebreaker plays as well as
    possible against that, with both optimal strategies, certified in exact fractions."""
    check_max_seconds(max_seconds)
    if save_trees is not None:
        check_output_path(save_trees / "tree-1.json", "--save-trees")
    from ..rules import PRESETS

    natural = next((p.rules.max_guesses for p in PRESETS
                    if p.rules.with_max_guesses(None) == rules.with_max_guesses(None)), None)
    if rules.max_guesses is not None and rules.max_guesses != natural:
        # (it was left out unsaid: MM(3,3) within 1 guess printed 73/27, certified)
        raise KeypegError("keypeg value finds the value with no limit on guesses; leave out "
                          "--max-guesses.")
    from ..store import Store
    from ..value import game_value, shipped_values, value_cache_key

    data: dict[str, Any] | None = None if recompute else shipped_values().get(rules.key)
    store = None if data is not None else Store()  # (a shipped value needs no store)
    kept = None if recompute or store is None else store.get_cached(value_cache_key(rules))
    if save_trees is not None and (data is not None or kept is not None):
        # (the trees are not kept with a value, shipped or stored: only its numbers)
        raise KeypegError(f"--save-trees needs the trees of a value solved now, and the value "
                          f"of {rules_name(rules)} is {'shipped' if data else 'kept'} without "
                          "them; add --recompute.")
    # ("source" says where the value came from, and so whose time "seconds" is: a shipped
    # or kept value's is the run that found it; "stored" and "cached" had said it alone)
    if data is not None:
        data = {**data, "rules": rules_name(rules), "stored": True, "source": "shipped"}
    elif kept is not None:  # computed before (here or by the web page): kept in the store
        data = {**kept, "rules": rules_name(rules), "stored": False, "cached": True,
                "source": "kept"}
    else:
        started = time.perf_counter()
        last = [started]
        live = err_console.is_terminal
        with (err_console.status(f"{shown_name(rules)}: solving") if live
              else contextlib.nullcontext()) as status:
            def report(line: str) -> None:
                if status is not None:  # (live)
                    status.update(f"{shown_name(rules)}: {line}")
                elif time.perf_counter() - last[0] >= 15:
                    last[0] = time.perf_counter()
                    err_console.print(f"{shown_name(rules)}: {line}")

            solved = game_value(rules, time_limit=max_seconds, progress=report)
            data = {**solved.to_dict(), "stored": False, "source": "computed"}
        if save_trees is not None:
            for i, ((_, column), row) in enumerate(
                    zip(solved.codebreaker, data["codebreaker"], strict=True), 1):
                path = save_trees / f"tree-{i}.json"
                column.tree.save(path)
                row["tree"] = str(path)
            err_console.print(escape(f"saved the codebreaker's {len(data['codebreaker'])} "
                                     f"tree(s) to {save_trees}"))
        if data["certified"] and store is not None:  # (as the web keeps it: read back next)
            store.put_cached(value_cache_key(rules), data)
    if as_json:
        print(json.dumps(data))
        return
    show(data)


def show(data: dict[str, Any]) -> None:
    """Print a game value as text: the value, then both optimal mixtures."""
    how = "certified exactly" if data["certified"] else "NOT certified"
    source = ("shipped with keypeg" if data.get("stored") else
              f"computed in {data['seconds']:.1f} s earlier, kept in the store" if data.get(
                  "cached") else f"{data['seconds']:.1f} s")
    value = _fraction(data["value"])  # (a whole number alone: 2, not 2/1 = 2.000000)
    said = value if "/" not in value else f"{value} = {data['mean']:.6f}"
    console.print(f"[bold]Game value of {escape(data['rules'])}[/]: {said} guesses ({how}; "
                  f"{source}).")
    if data.get("note"):
        console.print(data["note"])
    console.print("\nThe codemaker's optimal mixture (a class with this probability, then a "
                  "code of it uniformly), and what the optimal codebreaker needs there:")
    maker = Table(box=None, padding=(0, 2), header_style="dim")
    # (a class the codemaker never picks: "never", not "0/1 0.0000")
    rows = [(row["class"], f"{row['codes']:,}",
             *((_fraction(row["probability"]), f"{_float(row['probability']):.4f}")
               if _float(row["probability"]) else ("never", "")),
             f"{_fraction(row['codebreaker_cost'])} = {_float(row['codebreaker_cost']):.4f}")
            for row in data["codemaker"]]
    for i, name in enumerate(("class", "codes", "probability", "", "guesses on average")):
        _whole_column(maker, name, [r[i] for r in rows], right=i > 0)
    for r in rows:
        maker.add_row(*r)
    console.print(maker)
    console.print("\nThe codebreaker's optimal mixture (each tree played under a random "
                  "relabelling of colours and positions), and its mean guesses per class:")
    labels = [row["class"] for row in data["codemaker"]]
    breaker = Table(box=None, padding=(0, 1), header_style="dim")
    rows = [(_fraction(row["probability"]), row["first_guess"],
             *(f"{_float(row['costs'][label]):.4f}" for label in labels))
            for row in data["codebreaker"]]
    for i, name in enumerate(("probability", "first guess", *labels)):
        _whole_column(breaker, name, [r[i] for r in rows], right=i != 1)
    for r in rows:
        breaker.add_row(*r)
    console.print(breaker)


def _whole_column(table: Table, name: str, cells: list[str], right: bool) -> None:
    """Add a column its cells are never cut in: rich cut the exact fractions of a wide
    table to '34899/5526…' on an 80-column terminal; their headers wrap instead."""
    table.add_column(name, justify="right" if right else "left",
                     min_width=max((len(c) for c in cells), default=0))


def _fraction(text: str) -> str:
    """Write an exact fraction as the value's header does: 1,629/460, not 1629/460."""
    p, _, q = text.partition("/")
    return f"{int(p):,}/{int(q):,}" if q and q != "1" else f"{int(p):,}"


def _float(text: str) -> float:
    p, _, q = text.partition("/")
    return int(p) / int(q or 1)
