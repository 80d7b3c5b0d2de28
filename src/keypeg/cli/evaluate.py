"""`keypeg evaluate`: play strategies against every secret at once and tabulate them."""

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..catalog import ENTROPY_SPELLING_NAMES, TABLE_STRATEGIES
from ..errors import KeypegError, LimitExceededError, TimeLimitError
from ..limits import OPTIMAL_TREE_SECONDS, check_seed, plural
from ..rules import Rules, rules_name
from .common import (
    NoiseOption,
    PriorOption,
    check_output_path,
    command,
    console,
    err_console,
    shown_name,
)

if TYPE_CHECKING:
    from ..tree import DecisionTree

#: Seconds between two counts of the subtrees a checkpointed walk has kept.
CHECKPOINT_WATCH_SECONDS = 5.0


def evaluation_rows(trees: list["DecisionTree"], strategies: list[Any], rules: Rules
                    ) -> list[dict[str, object]]:
    """Return the JSON rows of an evaluation: each strategy's name, label and options (as
    fields: they had been only in the label), and its tree's summary."""
    rows = []
    for s, tree in zip(strategies, trees, strict=True):
        row: dict[str, object] = {"strategy": s.name, **tree.summary()}
        row["strategy"] = s.name
        row["label"] = tree.strategy
        row["options"] = s.options
        rows.append(with_beyond_rows(row, rules))
    return rows


def exact_rows(rows: list[dict[str, Any]], rules: Rules, secrets: int) -> list[dict[str, Any]]:
    """Return exact evaluation rows as `--json` prints them, each saying its rules, how
    many secrets it played and that it is exact (the fields a sampled row has too)."""
    from .. import __version__

    return [{**row, "rules": rules_name(rules), "secrets": secrets, "approximate": False,
             "keypeg_version": __version__} for row in rows]


def print_rows(rows: list[dict[str, Any]], fmt: str) -> None:
    """Print an evaluation's rows as JSON (`--json`) or CSV (`--csv`): one line per row, a
    nested field as `field.key` (`options.tie`), the 95 % interval as `ci95_low` and
    `ci95_high`, the histogram as `found_on_1`, `found_on_2`, ... (secrets found on each
    guess; 0 past a row's own longest game), true and false as JSON writes them, every row
    with every column (empty where a row has no such field)."""
    if fmt == "json":
        print(json.dumps(rows))
        return
    import csv
    import io

    def flat(row: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in row.items():
            if key == "histogram":
                out.update({f"found_on_{i}": n for i, n in enumerate(value, 1)})
            elif key == "ci95":
                out["ci95_low"], out["ci95_high"] = value
            elif isinstance(value, dict):
                out.update({f"{key}.{k}": v for k, v in value.items()})
            else:
                out[key] = value
        return {k: json.dumps(v) if isinstance(v, bool) else v for k, v in out.items()}

    flats = [flat(r) for r in rows]
    columns: list[str] = []
    for f in flats:
        columns += [c for c in f if c not in columns]
    longest = max((len(r.get("histogram", [])) for r in rows), default=0)
    found = [f"found_on_{i}" for i in range(1, longest + 1)]
    columns = [c for c in columns if not c.startswith("found_on_")] + found
    text = io.StringIO()
    writer = csv.DictWriter(text, columns, restval="", lineterminator="\n")
    writer.writeheader()
    for f in flats:
        writer.writerow({**dict.fromkeys(found, 0), **f})
    print(text.getvalue(), end="")


def with_beyond_rows(row: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """Add to an evaluation's row, for a board of `rules.max_guesses` rows, how many of
    its secrets take more guesses than the board has (`beyond_rows`): its totals count
    every game played on to the end."""
    row["max_guesses"] = rules.max_guesses
    row["beyond_rows"] = (None if rules.max_guesses is None
                          else sum(row["histogram"][rules.max_guesses:]))
    return row


def uncapped_note(rules: Rules, name: str, worst: int) -> str | None:
    """The note on the optimal row of a board no tree fits: its tree is then the optimum
    with no cap (`OptimalStrategy.tree`), which a reader would take for the board's."""
    rows = rules.max_guesses
    if name != "optimal" or rows is None or worst <= rows:
        return None
    return (f"no tree finds every secret within {rows} guesses (keypeg optimal "
            f"--max-guesses {rows} says so), so the optimal row is the optimum with no cap: "
            "the fewest guesses in total, not the most secrets found within the rows.")


def beyond_column(rules: Rules, histograms: list[list[int]]
                  ) -> tuple[list[str], Callable[[list[int]], list[str]]]:
    """A table's 'beyond N rows' column, shown when some secret is beyond the board's
    rows: its header (none or one) and each row's cell from its histogram."""
    rows = rules.max_guesses
    if rows is None or not any(sum(h[rows:]) for h in histograms):
        return [], lambda histogram: []
    return [f"beyond {rows} rows"], lambda histogram: [f"{sum(histogram[rows:]):,}"]


def print_beyond_note(header: list[str], rules: Rules) -> None:
    """The line under a table with a 'beyond N rows' column (`beyond_column`)."""
    if header:
        console.print(f"Beyond {rules.max_guesses} rows: the secrets not found on a board of "
                      f"{rules.max_guesses} rows (--max-guesses); totals and means count "
                      "every game played on to the end.")


def tree_path(template: Path | None, name: str) -> Path | None:
    """Return where the tree of strategy `name` is saved ({strategy} in the name)."""
    return None if template is None else Path(str(template).replace("{strategy}", name))


def histogram_text(histogram: list[int]) -> str:
    return " / ".join(f"{n:,}" for n in histogram)


@command
def evaluate_command(
    rules: Rules,
    strategy: Annotated[
        list[str] | None, typer.Option(
            "--strategy", "-s", metavar="<str>", help="A strategy name, or 'all' for the "
            "five of the published tables (" + ", ".join(TABLE_STRATEGIES) + "), the "
            "default; several: repeat it or separate them by commas (-s maxsize,entropy).")
    ] = None,
    possible_only: Annotated[
        bool, typer.Option("--possible-only", help="Only play codes that could be the secret.")
    ] = False,
    first: Annotated[
        str | None, typer.Option("--first", help="Force the first guess.")
    ] = None,
    tie: Annotated[
        str, typer.Option("--tie", help="Tie rule after 'could be the secret': first or last.")
    ] = "first",
    entropy: Annotated[
        str, typer.Option("--entropy", help="Entropy spelling: " + ", ".join(ENTROPY_SPELLING_NAMES)
                          + ".")
    ] = "exact",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random and genetic "
                                      "strategies, and of the secrets drawn by --sample.")] = 0,
    sample: Annotated[int | None, typer.Option(
        "--sample", help="Play N secrets drawn at random instead of every secret (labelled "
        "approximate, with a 95% confidence interval for the mean).")] = None,
    sample_seed: Annotated[int | None, typer.Option(
        "--sample-seed", help="Seed of the secrets --sample draws, when not --seed's.",
        show_default=False)] = None,
    save_tree: Annotated[
        Path | None, typer.Option("--save-tree", help="Write the tree as JSON (.gz compresses); "
                                  "with several strategies put {strategy} in the name.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the rows as CSV (a column per "
                                         "field; found_on_N: the histogram).")] = False,
    cluster: Annotated[str | None, typer.Option(
        "--cluster", help="Walk the parts of each one-step strategy's first guess on a Ray "
                          "cluster: local, auto or an address. Needs keypeg\\[cluster].")] = None,
    checkpoint: Annotated[Path | None, typer.Option(
        "--checkpoint", help="Walk each one-step strategy part by part, keeping every "
        "part's subtree in this SQLite file as it is finished: games past the full feedback "
        "table, up to MM(6,9), walk in hours, and the same command resumes a killed walk.",
        show_default=False)] = None,
    prior: PriorOption = None,
    noise: NoiseOption = None,
) -> None:
    """Evaluate strategies exactly over every secret: total, mean, worst, histogram. With
    --prior: over the secrets it allows, with the weighted total and mean, and the
    Bayesian information player too; with --noise: the Bayesian players that assume that
    noise, against true answers."""
    from ..strategies import evaluate, find_strategy
    from ..tree import DecisionTree

    given = _given(strategy)
    if as_json and as_csv:
        raise KeypegError("--json and --csv are two ways to print the rows; give one.")
    fmt = "json" if as_json else "csv" if as_csv else "table"
    if prior is not None or noise is not None:
        if checkpoint is not None:
            raise KeypegError("--checkpoint walks every secret alike; leave out --prior and "
                              "--noise, or --checkpoint.")
        if possible_only or first is not None or tie != "first" or entropy != "exact":
            raise KeypegError("--possible-only, --first, --tie and --entropy do not combine "
                              "with --prior or --noise.")
        if sample is not None or cluster is not None:
            # (--sample had been ignored: the result was exact over every secret)
            raise KeypegError("--prior and --noise evaluate exactly over every secret the "
                              "prior allows; leave out --sample and --cluster, or --prior "
                              "and --noise.")
        _evaluate_belief(rules, given, prior, noise, save_tree, fmt)
        return
    believers = [n for n in given if n in ("information", "bayes") or n.startswith("bayes-")]
    if believers:  # (it was "unknown strategy 'information'")
        raise KeypegError(f"{believers[0]!r} plays under a belief: add --prior or --noise "
                          "(--noise exact plays it with every answer trusted).")
    names = _expand(given, list(TABLE_STRATEGIES))
    if cluster is not None and (sample is not None or prior is not None or noise is not None):
        raise KeypegError("--cluster evaluates exactly, over every secret; leave out "
                          "--sample, --prior and --noise, or --cluster.")
    if checkpoint is not None and (sample is not None or cluster is not None):
        raise KeypegError("--checkpoint keeps an exact walk on this machine; leave out "
                          "--sample and --cluster, or --checkpoint.")
    if sample_seed is not None and sample is None:
        raise KeypegError("--sample-seed seeds the secrets --sample draws; give --sample N "
                          "too, or leave it out.")
    if sample is not None and save_tree is not None:
        raise KeypegError("--sample plays drawn secrets one game at a time and keeps no "
                          "tree; leave out --save-tree, or --sample to walk every secret.")
    if sample is not None:
        _evaluate_sampled(rules, names, sample, seed, fmt,
                          seed if sample_seed is None else sample_seed)
        return
    if save_tree is not None and len(names) > 1 and "{strategy}" not in str(save_tree):
        raise KeypegError("with several strategies, put {strategy} in the --save-tree name.")
    check_seed(seed)
    for name in names:
        check_output_path(tree_path(save_tree, name), "--save-tree")
    strategies = []
    for name in names:
        options: dict[str, object] = {"first": first}
        if name.lower() == "optimal":
            if first is not None or possible_only or tie != "first":
                raise KeypegError("the optimal row takes no --first, --possible-only or "
                                  "--tie; keypeg optimal finds those variants (--first, "
                                  "--possible-only, --objective).")
            options = {"time_limit": OPTIMAL_TREE_SECONDS, "max_candidates": None}
        elif name.lower() == "random":
            options["seed"] = seed
        elif find_strategy(name).name == "genetic":
            if first is not None or possible_only or tie != "first":
                raise KeypegError("the genetic strategy takes no --first, --possible-only "
                                  "or --tie.")
            options = {"seed": seed}
        else:
            options.update(possible_only=possible_only, tie=tie)
            if name.lower() in ("entropy", "neuwirth") or entropy != "exact":
                options["entropy"] = entropy
        if "all" in given and name in TABLE_STRATEGIES and name != "entropy":
            options.pop("entropy", None)
        strategies.append(find_strategy(name, **options))
    if first is not None:
        from ..codes import Code

        Code.parse(first, rules)  # a bad --first is reported before any work
    recorded = ([] if checkpoint is not None or cluster is not None
                else _recorded(strategies, rules))
    held = [r for r in recorded if r is not None]
    if recorded and len(held) == len(recorded):
        _print_recorded(rules, strategies, held, save_tree, fmt)
        return
    started = time.perf_counter()
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=err_console, transient=True,
                  disable=not err_console.is_terminal) as progress:
        tasks = [progress.add_task(f"{s.label}: evaluating", total=1) for s in strategies]

        def done(i: int, tree: DecisionTree) -> None:
            progress.update(tasks[i], completed=1,
                            description=f"{strategies[i].label}: {tree.total:,}")

        parts = ["" for _ in strategies]  # the first guess's parts walked, as reported
        kept = ["" for _ in strategies]  # the subtrees in the checkpoint

        def show(i: int) -> None:
            progress.update(tasks[i], description=f"{strategies[i].label}: "
                            + ", ".join(x for x in (parts[i], kept[i]) if x))

        def part(i: int, finished: int, total: int) -> None:
            parts[i] = f"the first guess's parts {finished}/{total} walked"
            show(i)

        if cluster is None:
            try:
                with _watch_checkpoint(checkpoint, strategies, rules, kept, show):
                    trees = evaluate(strategies, rules, on_done=done, checkpoint=checkpoint,
                                     on_part=part)
            except TimeLimitError:  # (only the optimal strategy's search has a time limit)
                raise optimal_tree_late(rules, OPTIMAL_TREE_SECONDS,
                                        "'keypeg tree verify FILE' to evaluate") from None
            except LimitExceededError as exc:
                # (the library's message says what is too big; the CLI knows the way out)
                raise LimitExceededError(
                    f"{exc}{_ways_out(rules, names, recorded, checkpoint)}") from exc
        else:
            trees, info = _on_cluster(strategies, rules, cluster, done)
    seconds = time.perf_counter() - started
    for name, tree in zip(names, trees, strict=True):
        path = tree_path(save_tree, name)
        if path is not None:
            tree.save(path)
            err_console.print(escape(f"saved {tree.strategy} tree to {path}"))
    rows = evaluation_rows(trees, strategies, rules)
    notes = [uncapped_note(rules, s.name, tree.worst)
             for s, tree in zip(strategies, trees, strict=True)]
    for row, note in zip(rows, notes, strict=True):
        if cluster is not None:
            row["cluster"] = info
        if note is not None:
            row["note"] = note
    if fmt != "table":
        print_rows(exact_rows(rows, rules, trees[0].secrets), fmt)
        return
    _print_table(f"{trees[0].secrets:,} secrets, exact ({seconds:.2f} s)", rules,
                 [(tree.strategy, str(row["first_guess"]), tree.total, tree.mean, tree.worst,
                   tree.histogram) for row, tree in zip(rows, trees, strict=True)])
    for note in notes:
        if note is not None:
            console.print(escape(f"Note: {note[0].upper()}{note[1:]}"))


def _print_table(what: str, rules: Rules,
                 rows: list[tuple[str, str, int, float, int, list[int]]]) -> None:
    """Print an evaluation's table: per strategy (label, first guess, total, mean, worst,
    histogram), under a title naming the game and `what` was evaluated."""
    table = Table(title=f"{shown_name(rules)}: {rules.describe()}; {what}")
    header, cell = beyond_column(rules, [r[5] for r in rows])
    for col, justify in (("strategy", "left"), ("first guess", "left"), ("total", "right"),
                         ("mean", "right"), ("worst", "right"),
                         *((h, "right") for h in header),
                         ("found on guess 1 / 2 / 3 / ...", "left")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for label, first, total, mean, worst, histogram in rows:
        table.add_row(label, first, f"{total:,}", f"{mean:.4f}", str(worst), *cell(histogram),
                      histogram_text(histogram))
    console.print(table)
    print_beyond_note(header, rules)


@contextlib.contextmanager
def _watch_checkpoint(checkpoint: Path | None, strategies: list[Any], rules: Rules,
                      kept: list[str], show: Callable[[int], None]) -> Iterator[None]:
    """While a checkpointed walk runs, count the subtrees each strategy has kept every few
    seconds (into `kept`, then `show(i)`); nothing without a checkpoint."""
    if checkpoint is None:
        yield
        return
    stop = threading.Event()

    def watch() -> None:
        from ..onestep import SplitRecord
        from ..store import Store

        try:
            records = [SplitRecord(Store(checkpoint), s, rules) if s.splits else None
                       for s in strategies]
        except Exception:  # noqa: BLE001 - the walk itself reports a checkpoint it cannot open
            return
        while not stop.wait(CHECKPOINT_WATCH_SECONDS):
            for i, record in enumerate(records):
                if record is not None:
                    kept[i] = f"{record.count():,} subtrees kept in {checkpoint.name}"
                    show(i)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        stop.set()


def _recorded(strategies: list[Any], rules: Rules) -> list[dict[str, Any] | None]:
    """Each strategy's exact whole tree as keypeg recorded it ahead of time
    (`onestep.recorded_walk`), where the game is past the walks made on request (no full
    table, more codes than `SPLIT_MAX_CODES`); else nothing."""
    from ..limits import SPLIT_MAX_CODES, table_budget
    from ..onestep import recorded_walk
    from ..space import table_bytes

    if table_bytes(rules) <= table_budget() or rules.size <= SPLIT_MAX_CODES:
        return []
    return [recorded_walk(s, rules) for s in strategies]


def _ways_out(rules: Rules, names: list[str], recorded: list[dict[str, Any] | None],
              checkpoint: Path | None) -> str:
    """What `evaluate` can do instead of a refused whole-tree evaluation."""
    from ..limits import CHECKPOINT_SPLIT_MAX_CODES
    from ..onestep import recorded_names

    out = ""
    held = [n for n, r in zip(names, recorded, strict=False) if r is not None]
    known = held or recorded_names(rules)  # (those asked for first, else all recorded)
    if known:
        out += f" Known exactly{'' if held else ' (default options)'}: -s {','.join(known)}."
    if checkpoint is None and rules.size <= CHECKPOINT_SPLIT_MAX_CODES:
        out += " Walk one part by part, resumably: --checkpoint FILE (hours)."
    return out + " Or estimate it from a sample of the secrets: --sample N --seed S."


def _print_recorded(rules: Rules, strategies: list[Any], recorded: list[dict[str, Any]],
                    save_tree: Path | None, fmt: str) -> None:
    """Print exact results keypeg recorded ahead of time (no tree ships with them)."""
    if save_tree is not None:
        raise KeypegError(f"the trees of {rules_name(rules)} are not kept, only their "
                          "results; walk them again with --checkpoint FILE to save them.")
    rows = []
    for s, row in zip(strategies, recorded, strict=True):
        rows.append({"strategy": s.name, "label": row["strategy"], "options": s.options,
                     "first_guess": row["first_guess"], "total": row["total"],
                     "mean": row["mean"], "worst": row["worst"],
                     "histogram": row["histogram"],
                     "recorded": {"seconds": row["seconds"],
                                  "cpu_seconds": row["cpu_seconds"], "runs": row["runs"],
                                  "replayed_total": row["replayed_total"]}})
        with_beyond_rows(rows[-1], rules)
    if fmt != "table":
        print_rows(exact_rows(rows, rules, int(recorded[0]["secrets"])), fmt)
        return
    _print_table(f"{recorded[0]['secrets']:,} secrets, exact, as recorded", rules,
                 [(r["strategy"], r["first_guess"], r["total"], r["mean"], r["worst"],
                   r["histogram"]) for r in recorded])
    how = ", ".join(f"{r['strategy']} {r['seconds']:,.0f} s over {plural(r['runs'], 'run')}"
                    for r in recorded)
    console.print(escape(f"Recorded by keypeg's own walks part by part ({how}; each tree "
                         "replayed over every secret). Walk one again with --checkpoint "
                         "FILE."))


def _on_cluster(strategies: list[Any], rules: Rules, address: str,
                done: Callable[[int, Any], None]) -> tuple[list[Any], dict[str, int]]:
    """Evaluate one-step strategies with the parts of their first guess on a Ray cluster."""
    from ..onestep import OneStepStrategy
    from ..solver.cluster import Cluster, require_ray

    if not all(isinstance(s, OneStepStrategy) for s in strategies):
        raise KeypegError("--cluster evaluates the one-step strategies (consistent, maxsize, "
                          "expsize, entropy, parts); for the optimum use keypeg optimal "
                          "--cluster.")
    if not address.strip():
        raise KeypegError("--cluster must be local, auto or a Ray address, not empty.")
    require_ray(address)
    trees = []
    with Cluster(address) as c:
        for i, s in enumerate(strategies):
            trees.append(c.split_tree(s, rules))
            done(i, trees[-1])
        return trees, c.info()


def _given(strategy: list[str] | None) -> list[str]:
    """Return the strategy names asked for (lower case, in order; `_expand` keeps each
    once): --strategy repeated or separated by commas; 'all' when none. A second
    --strategy used to replace the first without a word."""
    names = [n.strip().lower() for text in (strategy or ["all"]) for n in text.split(",")]
    if names == [""]:
        raise KeypegError("--strategy needs a strategy name, such as entropy, or all.")
    if "" in names:
        raise KeypegError("--strategy needs a strategy name between each pair of commas.")
    return names


def _expand(given: list[str], everything: list[str]) -> list[str]:
    """Return `given` with 'all' replaced by `everything`, each strategy once (knuth is
    maxsize: the first name given stands)."""
    from ..strategies import find_strategy

    out: dict[str, str] = {}
    for name in (n for g in given for n in (everything if g == "all" else [g])):
        try:
            key = find_strategy(name).name
        except KeypegError:
            key = name  # the Bayesian players, or a name the caller rejects
        out.setdefault(key, name)
    return list(out.values())


def _evaluate_belief(rules: Rules, given: list[str], prior: str | None, noise: str | None,
                     save_tree: Path | None, fmt: str) -> None:
    """Evaluate under a prior (weighted totals) or with players that assume noise."""
    import numpy as np

    from ..bayes import BELIEF_SCORES, BeliefStrategy
    from ..belief import prior_weights
    from ..game import GameState
    from ..space import get_space, require_table
    from ..strategies import evaluate, find_strategy
    from ..strategy import Strategy

    require_table(rules, "a whole-tree evaluation")
    space = get_space(rules)
    state = GameState.start(space, prior=prior, noise=noise)
    noisy = not state.noise.hard or type(state.noise).__name__ == "Lies"
    belief_names = [n for n, _ in BELIEF_SCORES]
    names = _expand(given, belief_names if noisy else [*TABLE_STRATEGIES, "information"])
    strategies: list[Strategy] = []
    for name in names:
        if name in ("information", "bayes") or (noisy and name in belief_names):
            strategies.append(BeliefStrategy("information" if name == "bayes" else name))
        elif noisy:
            raise KeypegError(f"with --noise, evaluate plays the Bayesian players: choose "
                              f"one of {', '.join(belief_names)} or all.")
        else:
            strategies.append(find_strategy(name))
    for s in strategies:
        check_output_path(tree_path(save_tree, s.name), "--save-tree")
    weights = prior_weights(space, prior)
    weights = np.ones(space.size) if weights is None else weights * state.count
    with err_console.status(f"{shown_name(rules)}: evaluating {len(strategies)} "
                            "strateg" + ("ies" if len(strategies) > 1 else "y")):
        trees = evaluate(strategies, space, state=state)
    rows = []
    for s, tree in zip(strategies, trees, strict=True):
        path = tree_path(save_tree, s.score if isinstance(s, BeliefStrategy) else s.name)
        if path is not None:
            tree.save(path)
        total, mean = tree.weighted(weights, space, state.candidates)
        name = s.score if isinstance(s, BeliefStrategy) else s.name
        rows.append(with_beyond_rows({**tree.summary(), "strategy": name, "label": s.label,
                                      "options": s.options,
                                      "weighted_total": round(total, 4),
                                      "weighted_mean": round(mean, 4),
                                      "prior": prior or "uniform",
                                      "noise": str(state.noise),
                                      # (the JSON had not said whose noise it is)
                                      "note": "every answer true; the players assume the "
                                              "noise" if noisy else "every answer true"},
                                     rules))
    if fmt != "table":
        print_rows(exact_rows(rows, rules, state.count), fmt)
        return
    table = Table(title=f"{shown_name(rules)}: {plural(state.count, 'secret')}, prior "
                  f"{prior or 'uniform'}, players assume noise {state.noise}; exact")
    table.add_column("strategy", no_wrap=True, min_width=max(len(r["label"]) for r in rows))
    header, cell = beyond_column(rules, [r["histogram"] for r in rows])
    for col in ("first guess", "total", "mean", "worst", *header, "weighted total",
                "weighted mean"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["label"], str(r["first_guess"]), f"{r['total']:,}",
                      f"{r['mean']:.4f}", str(r["worst"]), *cell(r["histogram"]),
                      f"{r['weighted_total']:,.2f}", f"{r['weighted_mean']:.4f}")
    console.print(table)
    print_beyond_note(header, rules)


def optimal_tree_late(rules: Rules, seconds: float, then: str) -> TimeLimitError:
    """The error for an optimal tree not found within `seconds` (`keypeg tree`, `keypeg
    evaluate`): where to get it, and `then` what to do with the file."""
    return TimeLimitError(
        f"the optimal tree of {rules_name(rules)} was not found within {seconds:g} s; "
        "'keypeg optimal' searches for as long as it is given (--max-seconds) and writes "
        f"the tree (--save FILE) for {then}.")


def _evaluate_sampled(rules: Rules, names: list[str], n: int, seed: int,
                      fmt: str, secrets_seed: int) -> None:
    """`evaluate --sample N`: each strategy (random and genetic with `seed`) against N
    secrets drawn with `secrets_seed`."""
    from ..sampling import sampled_evaluation
    from ..strategies import find_strategy

    check_seed(seed)
    check_seed(secrets_seed, "--sample-seed")
    if n > rules.size:  # (it had drawn 100,000 of mini's 256 secrets, and said approximate)
        raise KeypegError(f"--sample {n:,} is more than the {rules.size:,} codes of "
                          f"{rules_name(rules)}; leave out --sample to play every secret "
                          "exactly (a sample is drawn with replacement).")
    strategies = []
    for name in names:
        key = find_strategy(name).name
        strategies.append(find_strategy(name, seed=seed) if key in ("random", "genetic")
                          else find_strategy(name))
    rows = []
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=err_console, transient=True,
                  disable=not err_console.is_terminal) as progress:
        for s in strategies:
            task = progress.add_task(f"{s.label}: 0/{n:,} games", total=n)

            def step(i: int, task: Any = task, s: Any = s) -> None:
                progress.update(task, completed=i, description=f"{s.label}: {i:,}/{n:,} games")

            rows.append(with_beyond_rows(
                sampled_evaluation(rules, s, n, secrets_seed, on_game=step,
                                   option="--sample"), rules))
    if fmt != "table":
        print_rows(rows, fmt)
        return
    table = Table(title=f"{shown_name(rules)}: {rules.describe()}; {plural(n, 'secret')} drawn "
                  f"with seed {secrets_seed} (approximate)")
    header, cell = beyond_column(rules, [r["histogram"] for r in rows])
    for col in ("strategy", "first guess", "mean", "95% interval", "worst seen", *header,
                "found on guess 1 / 2 / 3 / ..."):
        table.add_column(col)
    for row in rows:
        lo, hi = row["ci95"]
        table.add_row(row["label"], row["first_guess"], f"{row['mean']:.3f}",
                      f"{lo:.3f} to {hi:.3f}", str(row["worst"]), *cell(row["histogram"]),
                      histogram_text(row["histogram"]))
    console.print(table)
    print_beyond_note(header, rules)
