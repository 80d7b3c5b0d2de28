"""`keypeg optimal` (the exact optimum of a game) and `keypeg ledger` (recompute and check
the published table of optima)."""

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Column, Table

from ..catalog import OBJECTIVES
from ..errors import KeypegError, TimeLimitError
from ..limits import bytes_text, check_max_seconds, plural, shorten
from ..rules import Rules, rules_name
from .common import PriorOption, check_output_path, command, console, err_console, shown_name
from .evaluate import histogram_text

#: Seconds between plain progress lines when stderr is not a terminal.
PLAIN_PROGRESS_EVERY = 15.0


def root_share(d: dict[str, Any]) -> float:
    """Return how much of the root a search has done, in first guesses (the current one
    counted by its parts solved, a part solved a guess at a time by its guesses settled)."""
    total = d.get("root_total") or 0
    if not total:
        return 0.0
    done = float(d.get("root_done") or 0)
    if d.get("parts_total") and done < total:
        parts = (d.get("parts_done") or 0) + sum(
            min(1.0, settled / of) for settled, of in d.get("part_guesses") or [] if of)
        done += min(1.0, parts / d["parts_total"])
    return min(1.0, done / total)


def progress_text(d: dict[str, Any], elapsed: bool = True) -> str:
    """Return one line saying where a search stands: phase, sets, bounds, the share of the
    root done (first guesses and parts of the current one), parts resumed, elapsed."""
    text = f"{d['phase']}: {d['nodes']:,} sets" if d["nodes"] else d["phase"]
    if d.get("upper"):
        text += f", total {d['lower']:,}-{d['upper']:,}" if d.get("lower") else (
            f", total at most {d['upper']:,}")
    if d.get("best_guess"):
        text += f" (best first guess so far {d['best_guess']})"
    if d.get("root_total"):
        text += f", first guess {d['root_done']}/{d['root_total']}"
        if d.get("parts_total"):
            text += f" (part {d.get('parts_done', 0)}/{d['parts_total']}"
            if d.get("part_guesses"):
                # a part solved a guess at a time can take hours: how far through its guesses
                text += (", big part's guesses " if len(d["part_guesses"]) == 1
                         else ", big parts' guesses ") + ", ".join(
                    f"{settled}/{of}" for settled, of in d["part_guesses"])
            text += ")"
        # (a count of first guesses and parts, not of time: one big part can take most of it)
        text += f", root {100 * root_share(d):.0f}% done by count"
    if d.get("resumed"):
        text += f", {d['resumed']:,} parts resumed"
    return text + (f", {d['elapsed']:.0f} s" if elapsed else "")


@contextmanager
def search_progress(title: str) -> Iterator[Callable[[dict[str, Any]], None]]:
    """Yield a progress callback for `solve_optimal`: a live display on a terminal (phase,
    sets expanded, the bounds, elapsed time and a bar over the first guesses), a plain
    line every `PLAIN_PROGRESS_EVERY` seconds on stderr otherwise."""
    if not err_console.is_terminal:
        last = [time.perf_counter()]

        def plain(d: dict[str, Any]) -> None:
            if time.perf_counter() - last[0] >= PLAIN_PROGRESS_EVERY:
                last[0] = time.perf_counter()
                err_console.print(f"{title}: {progress_text(d)}", soft_wrap=True)

        yield plain
        return
    # the time and the bar first, then the text folded onto more lines where it is long: at
    # 80 columns the text ("... first guess 0/7 (part 0/19), root 0% done") pushed the bar
    # and the time off the line
    with Progress(SpinnerColumn(), TimeElapsedColumn(), BarColumn(bar_width=12),
                  TextColumn("{task.description}",
                             table_column=Column(ratio=1, overflow="fold")),
                  console=err_console, transient=True) as progress:
        task = progress.add_task(f"{title}: starting", total=None)

        def live(d: dict[str, Any]) -> None:
            total = d["root_total"] or None
            progress.update(task, total=total, completed=root_share(d) * (total or 0),
                            description=f"{title}: {progress_text(d, elapsed=False)}")

        yield live


@command
def optimal_command(
    rules: Rules,
    clues: Annotated[
        list[str] | None,
        typer.Argument(help="Start from these clues (GUESS=FEEDBACK, e.g. 1122=1B1W): the "
                       "optimal play from that position on.", show_default=False),
    ] = None,
    first: Annotated[str | None, typer.Option("--first", help="Force the first guess.")] = None,
    possible_only: Annotated[
        bool, typer.Option("--possible-only", help="Only play codes that could be the secret.")
    ] = False,
    objective: Annotated[
        str, typer.Option("--objective", help="total: fewest guesses in all; worst: fewest in "
                          "the worst case, then in all.")
    ] = "total",
    save: Annotated[
        Path | None, typer.Option("--save", "--save-tree", help="Write the optimal tree as "
                                  "JSON (.gz: gzip); --save-tree, as evaluate names it.")
    ] = None,
    trace: Annotated[
        bool, typer.Option("--trace", help="Print how the search treats each first guess.")
    ] = False,
    recompute: Annotated[
        bool, typer.Option("--recompute", help="Search again even if the result is stored.")
    ] = False,
    max_seconds: Annotated[
        float | None, typer.Option("--max-seconds", help="Give up after this many seconds.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    prior: PriorOption = None,
    cluster: Annotated[
        str | None, typer.Option("--cluster", help="Solve on a Ray cluster: local (a private "
                                 "one on this machine's cores), auto (the running one, "
                                 "RAY_ADDRESS) or an address. Needs keypeg\\[cluster].")
    ] = None,
    no_resume: Annotated[
        bool, typer.Option("--no-resume", help="Neither take nor record the parts of an "
                           "interrupted run of the same search.")
    ] = False,
    records: Annotated[
        bool, typer.Option("--records", help="List the searches whose finished parts the "
                           "store (KEYPEG_DB) keeps for resuming, numbered, and exit.")
    ] = False,
    drop_records: Annotated[
        str | None, typer.Option("--drop-records", metavar="N|all", help="Forget the parts "
                                 "kept of the search numbered N in --records (or of all), "
                                 "and exit.")
    ] = None,
) -> None:
    """Compute the exact optimal strategy: fewest guesses in total over every secret (with
    --prior: the fewest expected guesses, each secret weighted by the prior), from the start
    or after the CLUES given. A search of sets of 2,000 codes or more (or on a cluster)
    records its finished parts, so that, interrupted (even killed), it resumes where it
    stopped when run again (not with --prior or --trace); a search that runs out of
    --max-seconds exits with code 3 and, without a row limit, says the best tree it had
    found and how good the optimum could be."""
    if records or drop_records is not None:
        _records(drop_records, as_json, clues)
        return
    if objective not in OBJECTIVES:
        raise KeypegError(f"--objective must be 'total' or 'worst', not {shorten(objective)!r}.")
    check_max_seconds(max_seconds)
    if cluster is not None:
        from ..solver.cluster import require_ray

        if prior is not None:
            raise KeypegError("--cluster runs unweighted searches only; leave out --prior or "
                              "--cluster.")
        if not cluster.strip():
            raise KeypegError("--cluster must be local, auto or a Ray address, not empty.")
        require_ray(cluster)
    check_output_path(save, "--save")
    from ..solver.cached import optimal
    from ..store import Store

    weights = None
    if prior is not None:
        import numpy as np

        from ..belief import prior_weights
        from ..space import get_space, require_table

        require_table(rules, "the optimal search")
        space = get_space(rules)
        weights = prior_weights(space, prior, normalise=False)
        if weights is None:  # uniform
            weights = np.ones(space.size, dtype=np.int64)
    state = None
    if clues:
        from ..game import GameState

        if first is not None:
            raise KeypegError("--first applies only before the first guess; leave out "
                              "--first or the clues.")
        state = GameState.from_clues(rules, clues)
        if state.solved:
            raise KeypegError(f"the clues leave one code, {state.candidate_texts()[0]}, "
                              "already found: nothing is left to search.")
    store = Store()
    try:
        with search_progress(shown_name(rules)) as report:
            result, cached = optimal(
                rules, objective=objective, max_guesses=rules.max_guesses,
                possible_only=possible_only, first=first, state=state, store=store,
                recompute=recompute or trace, trace=trace, time_limit=max_seconds,
                progress=report, weights=weights, resume=not no_resume, cluster=cluster,
            )
    except (TimeLimitError, KeyboardInterrupt) as exc:
        _say_kept(exc, getattr(exc, "parts_kept", 0), rules, as_json)
        raise
    if save is not None:
        result.tree.save(save)
        err_console.print(escape(f"saved the optimal tree to {save}"))
    extra: dict[str, Any] = {}
    if not cached and "parts_reused" in result.stats:
        extra["parts_reused"] = result.stats["parts_reused"]
        extra["parts_resumed"] = result.stats["parts_resumed"]
    if "cluster_nodes" in result.stats:
        extra["cluster"] = {"nodes": result.stats["cluster_nodes"],
                            "cpus": result.stats["cluster_cpus"]}
    played = 0 if state is None else len(state.history)
    if state is not None:
        # the totals count the guesses played; from here on, each candidate needs
        ahead = result.total - played * state.count
        extra["position"] = {"clues": played, "candidates": state.count,
                             "next_guess": result.first_guess, "total_from_here": ahead,
                             "mean_from_here": round(ahead / state.count, 4)}
    if as_json:
        # (what was asked, as the text's header says it)
        asked = {"rules": rules_name(rules), "objective": objective,
                 "possible_only": possible_only, "max_guesses": rules.max_guesses,
                 "first": first}
        # (weighted, the figures as evaluate --prior gives them: "mean" had been the
        # weighted mean here and the plain one there, and "weighted_total" in the file's
        # own units here and scale-free there)
        print(json.dumps({**result.summary(), "secrets": result.tree.secrets,
                          **result.weighted_summary(), "cached": cached, **asked, **extra}))
        return
    for line in result.trace:
        console.print(line)
    how = "stored result" if cached else f"{result.seconds:.2f} s, {result.nodes:,} sets expanded"
    if extra.get("parts_resumed"):
        how += f", {extra['parts_resumed']:,} parts resumed from an interrupted run"
    if "cluster" in extra:
        how += (f", on a Ray cluster of {extra['cluster']['nodes']} node(s), "
                f"{extra['cluster']['cpus']} CPUs")
    limits = []
    if result.max_guesses is not None:
        limits.append(f"at most {result.max_guesses} guesses")
    if possible_only:
        limits.append("possible codes only")
    if first:
        limits.append(f"first guess {first}")
    if objective == "worst":
        limits.append("worst case first")
    where = ""
    if state is not None:
        where = (f" after {played} clue{'s' * (played != 1)}, {state.count:,} codes "
                 f"possible")
    table = Table(title=f"{shown_name(rules)}{where}: optimal strategy"
                  + (f" ({', '.join(limits)})" if limits else "") + escape(f" [{how}]"))
    guess_col = "next guess" if state is not None else "first guess"
    if result.weighted_total is None:
        for col in (guess_col, "total", "mean", "worst", "found on guess 1 / 2 / 3 / ..."):
            table.add_column(col)
        table.add_row(result.first_guess, f"{result.total:,}", f"{result.mean:.4f}",
                      str(result.worst), histogram_text(result.histogram))
    else:
        # (the plain total over every code stood beside the weighted mean: 976 and 1.2500)
        for col in (guess_col, "weighted total", "expected guesses", "worst (any code)",
                    "codes found on guess 1 / 2 / 3 / ..."):
            table.add_column(col)
        weighted = result.weighted_summary()
        table.add_row(result.first_guess, f"{weighted['weighted_total']:,.6g}",
                      f"{result.mean:.4f}", str(result.worst),
                      histogram_text(result.histogram))
    captions = []
    if state is not None:
        position = extra["position"]
        captions.append(f"totals count the {plural(played, 'guess', 'guesses')} played: from "
                        f"here on {position['total_from_here']:,} guesses in all, "
                        f"{position['mean_from_here']:.4f} per code")
    if result.weighted_total is not None:
        n = result.weighted_secrets or 0
        captions.append(f"weighted by the prior {prior}: the expected guesses, and times the "
                        f"{plural(n, 'code')} it gives a weight as the weighted total (as "
                        f"keypeg evaluate --prior counts it); the worst case and the counts "
                        f"take every code, {result.total:,} guesses in all")
    if captions:
        table.caption = "; ".join(captions)
    console.print(table)


def _records(drop: str | None, as_json: bool, clues: list[str] | None) -> None:
    """`--records` (list the searches with parts kept) and `--drop-records N|all`."""
    from ..solver.resume import drop_recorded, recorded_searches
    from ..store import Store

    if clues:
        raise KeypegError("--records and --drop-records take no clues: they list or drop "
                          "the records of every search in the store.")
    store = Store()
    found = recorded_searches(store)
    if drop is not None:
        which = drop.strip().lower()
        if which == "all":
            chosen = found
        elif which.isdigit() and 1 <= int(which) <= len(found):
            chosen = [found[int(which) - 1]]
        else:
            allowed = (f"a number from 1 to {len(found)} (as --records lists them) or all"
                       if found else "all (the store keeps no parts now)")
            raise KeypegError(f"--drop-records takes {allowed}, not {shorten(drop)!r}.")
        gone = drop_recorded(store, chosen)
        if as_json:
            print(json.dumps({"dropped": [s.name for s in chosen], "parts": gone,
                              "store": str(store.path)}))
            return
        names = "; ".join(s.name for s in chosen) if chosen else "no search"
        err_console.print(escape(f"dropped {plural(gone, 'part')} kept in {store.path}: "
                                 f"{names}."))
        return
    if as_json:
        print(json.dumps({"store": str(store.path), "searches": [
            {"number": i, "search": s.name, "key": s.key, "parts": s.parts,
             "exact": s.exact, "bytes": s.size, "first_written": _utc(s.first),
             "last_written": _utc(s.last)} for i, s in enumerate(found, 1)]}))
        return
    if not found:
        console.print(escape(f"The store {store.path} keeps no parts of any search."))
        return
    table = Table(title=escape(f"Searches with finished parts kept in {store.path}"))
    for col in ("#", "search", "parts (exact)", "size", "last written (UTC)"):
        table.add_column(col)
    for i, s in enumerate(found, 1):
        table.add_row(str(i), escape(s.name), f"{s.parts:,} ({s.exact:,})",
                      bytes_text(s.size), _utc(s.last))
    table.caption = ("the same command as the search resumes it; a finished run drops its "
                     "parts; keypeg optimal --drop-records N|all forgets them")
    console.print(table)


def _utc(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(seconds))


def _say_kept(exc: BaseException, kept: int, rules: Rules, as_json: bool) -> None:
    """Say, as a search stops on its time limit or Ctrl-C, what it keeps for the same
    command to resume (its finished parts) and, with --json, print its bounds as JSON; the
    caller then re-raises (exit 3 or 130)."""
    how = (f"its {plural(kept, 'finished part')} {'is' if kept == 1 else 'are'} kept: the "
           "same command resumes from them (--no-resume starts over)" if kept else
           "nothing it did is kept (only searches of sets of 2,000 codes or more, or on a "
           "cluster, record their parts; none with --prior, --trace or --no-resume)")
    if isinstance(exc, TimeLimitError):
        exc.args = (f"{exc} {how[0].upper()}{how[1:]}.",)
    else:
        err_console.print(escape(f"note: {how}."))
    if as_json:
        best = getattr(exc, "best_guess", None)
        from ..space import get_space

        print(json.dumps({
            "finished": False, "rules": rules_name(rules),
            "stopped": "time limit" if isinstance(exc, TimeLimitError) else "interrupted",
            "best_first_guess": None if best is None else get_space(rules).text(best),
            "best_total": getattr(exc, "best_total", None),
            "lower_bound": getattr(exc, "lower", None), "parts_kept": kept}))


@command
def ledger_command(
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", help="Skip a cell whose search runs longer.")
    ] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the cells as JSON.")] = False,
    extended: Annotated[bool, typer.Option(
        "--extended", help="Replay the stored trees of the new cells (optima no seed "
                           "publishes) instead, and compare their totals.")] = False,
) -> None:
    """Recompute the published table of optimal totals and compare every cell."""
    from rich.measure import Measurement

    from ..solver.ledger import LEDGER_CELLS, format_grid, format_list, run_ledger

    check_max_seconds(max_seconds)
    if extended:
        _extended(as_json)
        return
    started = time.perf_counter()
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                  TimeElapsedColumn(), console=err_console, transient=True,
                  disable=not err_console.is_terminal) as progress:
        task = progress.add_task("ledger", total=len(LEDGER_CELLS))

        def report(cell: dict[str, object]) -> None:
            progress.update(task, advance=1,
                            description=f"MM({cell['pegs']},{cell['colors']}): {cell['status']}")

        cells = run_ledger(max_seconds=max_seconds, on_cell=report)
    bad = [c for c in cells if c["status"] == "mismatch"]
    if as_json:
        print(json.dumps(cells))
    else:
        grid = format_grid(cells)
        # (cut to '1…' and '(…' on an 80-column terminal: one cell per row instead)
        wide = console.options.update_width(10_000)
        if Measurement.get(console, wide, grid).maximum > console.width:
            grid = format_list(cells)
        console.print(grid)
        done = sum(1 for c in cells if c["status"] == "ok")
        skipped = sum(1 for c in cells if c["status"] == "skipped")
        console.print(f"{done} cells agree, {len(bad)} disagree, {skipped} skipped over "
                      f"{max_seconds:g} s; {time.perf_counter() - started:.1f} s in all.")
        for c in bad:
            console.print(f"[bold red]MM({c['pegs']},{c['colors']}): computed {c['total']}, "
                          f"expected {c['expected']}[/]")
    if bad:
        raise typer.Exit(1)
    if not any(c["status"] == "ok" for c in cells):  # (it said 0 agree and exited 0)
        err_console.print(f"error: no cell was checked within --max-seconds "
                          f"{max_seconds:g}.")
        raise typer.Exit(3)


def _extended(as_json: bool) -> None:
    """`keypeg ledger --extended`: replay every stored new cell's tree."""
    from ..solver.cells import check_cells, stored_cells

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                  TimeElapsedColumn(), console=err_console, transient=True,
                  disable=not err_console.is_terminal) as progress:
        task = progress.add_task("new cells", total=len(stored_cells()))
        rows = check_cells(on_cell=lambda row: progress.update(
            task, advance=1, description=f"{row['label']}: {row['status']}"))
    bad = [r for r in rows if r["status"] != "ok"]
    if as_json:
        print(json.dumps(rows))
    else:
        table = Table("cell", "total", "replayed", "worst", "status")
        for r in rows:
            table.add_row(r["label"], f"{r['total']:,}",
                          "-" if r["replayed"] is None else f"{r['replayed']:,}",
                          "-" if r["worst"] is None else str(r["worst"]), r["status"])
        console.print(table)
        console.print(f"{len(rows) - len(bad)} new cells replay to their stored totals, "
                      f"{len(bad)} do not.")
        for r in bad:
            console.print(f"[bold red]{escape(r['label'])}: {escape(r['reason'])}[/]")
    if bad:
        raise typer.Exit(1)
