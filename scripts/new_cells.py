"""Compute the new cells shipped with the package (src/keypeg/data/cells.json and
src/keypeg/data/cell-KEY.json.gz): optimal totals seed 000's ledger does not hold.

    python scripts/new_cells.py [--limit SECONDS] [LABEL ...]

Each cell is proven twice: its optimal tree is replayed over every secret, and a second
search with other options finds the same total (the serial search where the first used
the parallel root, and the reverse: the parts are solved in another order, under other
budgets, with their own memos). A cell whose first search does not finish within --limit
seconds is listed as out of reach with the time tried. Cells already stored are kept
unless named. --sources only rewrites the published values and their sources.

--variants adds each stored cell's two other optima (worst case first, W, and possible
codes only, MM*), proven the same two ways.

--cluster ADDRESS (local, auto or a Ray address) runs each first search on a Ray cluster,
and the second on this machine.

A long cell: --checkpoint DB writes the first search's finished root parts to SQLite, so
the same command resumes a killed run; the second search then records its own parts in
DB's sibling (`m74.sqlite` -> `m74.second.sqlite`), so it resumes too. --second-proof
TEXT --second-total N records an earlier complete search with other options (say, an older
version of the search) as the second proof instead of running the second search, and
checks that it found the same total.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from keypeg.cli.optimal import progress_text
from keypeg.errors import KeypegError, LimitExceededError
from keypeg.limits import PARALLEL_MIN_CODES
from keypeg.rules import Rules, find_rules
from keypeg.solver import solve_optimal
from keypeg.solver.cached import tree_bytes
from keypeg.solver.ledger import two_peg_closed_form

DATA = Path(__file__).resolve().parent.parent / "src" / "keypeg" / "data"
OUT = DATA / "cells.json"


#: Totals of the optimal no-repeat trees in arfst23/Mastermind (read and replayed by
#: `keypeg tree verify`): the one other source for these cells.
ARFST = "the optimal tree in arfst23/Mastermind (one source)"
ARFST_NO_REPEATS = {(4, 6): 1446, (4, 7): 3639, (4, 8): 7817}


def cells() -> list[tuple[str, Any, int | None, str | None]]:
    """(label, rules: a preset name or Rules keywords, published total, its source)."""
    out: list[tuple[str, Any, int | None, str | None]] = []
    for c in range(17, 25):
        out.append((f"MM(2,{c})", {"pegs": 2, "colors": c}, two_peg_closed_form(c),
                    "Chen and Lin's closed form (Computer Journal 47(5), 2004)"))
    for p, c in ((3, 11), (3, 12), (3, 13), (3, 14), (3, 15), (3, 16), (3, 17), (3, 18),
                 (3, 19), (3, 20), (3, 21), (3, 22), (3, 23), (3, 24), (3, 25), (3, 26), (3, 27),
                 (7, 3),
                 (5, 5), (6, 4), (8, 3), (5, 6), (4, 9), (4, 10), (9, 3), (6, 5), (7, 4)):
        out.append((f"MM({p},{c})", {"pegs": p, "colors": c}, None, None))
    out.append(("MM(4,8)", {"pegs": 4, "colors": 8}, 20471,
                "the optimal tree in arfst23/Mastermind (one source)"))
    for p in range(2, 6):
        for c in range(p, 11):
            if (p, c) == (4, 10):
                out.append(("bulls and cows (MM(4,10), no repeats)", "bulls-and-cows", None,
                            None))
                continue
            pub = ARFST_NO_REPEATS.get((p, c))
            out.append((f"MM({p},{c}), no repeats", {"pegs": p, "colors": c,
                                                      "repeats": False}, pub,
                        None if pub is None else ARFST))
    # beyond the grid: the permutation game of six (six colours, each used once)
    out.append(("MM(6,6), no repeats", {"pegs": 6, "colors": 6, "repeats": False}, None, None))
    # and the next two: six of seven colours, and the permutation game of seven
    for p in (6, 7):
        out.append((f"MM({p},7), no repeats", {"pegs": p, "colors": 7, "repeats": False},
                    None, None))
    out.append(("Codebreaker 1-3 (5 distinct digits, green/amber/gray)", "codebreaker-1",
                None, None))
    # its feedback table is 9.3 GiB: run with KEYPEG_TABLE_BUDGET above that
    out.append(("Codebreaker 4-6 (5 digits, green/amber/gray)", "codebreaker-4", None, None))
    return out


def rules_of(spec: Any) -> Rules:
    return find_rules(spec).with_max_guesses(None) if isinstance(spec, str) else Rules(**spec)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=float, default=300.0)
    parser.add_argument("--sources", action="store_true",
                        help="only rewrite the published values and their sources")
    parser.add_argument("--checkpoint", metavar="DB",
                        help="write the first search's finished root parts to this SQLite "
                             "file, so a killed run resumes where it stopped")
    parser.add_argument("--second-proof", metavar="TEXT",
                        help="instead of running the second search, record this earlier "
                             "search (other options) as it; with --second-total")
    parser.add_argument("--second-total", type=int, metavar="N",
                        help="the total the earlier search of --second-proof found")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="run the first search on a Ray cluster: local, auto or an "
                             "address (the second search runs on this machine)")
    parser.add_argument("--variants", action="store_true",
                        help="for the stored cells (or those named), the two other optima: "
                             "worst case first, W, and possible codes only, MM*")
    parser.add_argument("labels", nargs="*")
    args = parser.parse_args()
    if (args.second_proof is None) != (args.second_total is None):
        parser.error("--second-proof and --second-total go together.")
    stored = json.loads(OUT.read_text()) if OUT.exists() else {"cells": [], "out_of_reach": []}
    done = {c["label"]: c for c in stored["cells"]}
    missed = {c["label"]: c for c in stored["out_of_reach"]}
    changed: set[str] = set()  # the cells this run wrote: only those replace stored ones
    if args.variants:
        for label in list(done):
            if args.labels and label not in args.labels:
                continue
            if _variants(done[label], args.limit, args.checkpoint,
                         lambda label=label: _write(done, missed, {label})):
                changed.add(label)
                _write(done, missed, changed)
        return
    if args.sources:
        for label, _spec, published, source in cells():
            if label in done:
                done[label].update(published=published, source=source, agrees=None
                                   if published is None else published == done[label]["total"])
        _write(done, missed, set(done))
        return
    for label, spec, published, source in cells():
        if args.labels and label not in args.labels:
            continue  # only the cells named
        if label in done and label not in args.labels:
            continue
        if label in missed and label not in args.labels and missed[label]["seconds"] >= args.limit:
            continue
        rules = rules_of(spec)
        started = time.perf_counter()
        checkpoint = None
        if args.checkpoint:
            from keypeg.solver.resume import Checkpoint
            from keypeg.store import Store

            checkpoint = Checkpoint(Store(args.checkpoint), f"cell:{rules.key}")
        spent = _Spent(Path(args.checkpoint + f".cell-{rules.key}.seconds.json")
                       if args.checkpoint else None, label)
        try:
            first = solve_optimal(rules, time_limit=args.limit, checkpoint=checkpoint,
                                  cluster=args.cluster, progress=spent.progress,
                                  workers=None if args.cluster else _first_workers(rules))
        except LimitExceededError:
            spent.save(time.perf_counter() - started)
            missed[label] = {"label": label, "rules": spec, "seconds": args.limit}
            changed.add(label)
            print(f"{label}: not within {args.limit:g} s", flush=True)
            _write(done, missed, changed)
            continue
        seconds = spent.total(time.perf_counter() - started)
        found = first.tree.depths()  # every secret, played
        assert int(found.sum()) == first.total, label
        print(f"{label}: first search {first.total:,} in {seconds:.1f} s", flush=True)
        if args.checkpoint:  # a long search: keep its tree before the second one
            Path(args.checkpoint + f".cell-{rules.key}.json.gz").write_bytes(
                tree_bytes(first.tree))
        if args.second_proof is not None:
            # an earlier search with other options, named on the command line
            assert args.second_total == first.total, (label, args.second_total, first.total)
            proofs = ["the tree replayed over every secret", args.second_proof]
            second_total = args.second_total
        else:
            again, second = _second_search(rules, **_second_recorded(args.checkpoint, rules,
                                                                     label))
            if args.cluster is not None:  # the first was the parallel root, on the cluster
                second = f"{second} on this machine (the first on a Ray cluster)"
            proofs = ["the tree replayed over every secret", second]
            second_total = again.total
            assert second_total == first.total, (label, second_total, first.total)
        (DATA / f"cell-{rules.key}.json.gz").write_bytes(tree_bytes(first.tree))
        cell = {"label": label, "rules": spec, "codes": rules.size, "total": first.total,
                "mean": round(first.mean, 4), "worst": first.worst,
                "histogram": first.histogram, "first_guess": first.first_guess,
                "seconds": round(seconds, 1), "proofs": proofs, "published": published,
                "source": source,
                "agrees": None if published is None else published == first.total}
        for key in VARIANTS:  # the other optima depend on the rules alone: kept
            if key in done.get(label, {}):
                cell[key] = done[label][key]
        done[label] = cell
        missed.pop(label, None)
        changed.add(label)
        print(f"{label}: {first.total:,} (worst {first.worst}) in {seconds:.1f} s; "
              f"second search {second_total:,}", flush=True)
        _write(done, missed, changed)
        spent.clear()  # (as the checkpoint's parts are, once the result is stored)
        if args.checkpoint:
            _Spent(_second_seconds(args.checkpoint, rules)).clear()


class _Spent:
    """The seconds a checkpointed first search has taken over all its runs: each run's
    elapsed time is written to `path` (a JSON map, run start -> seconds) every few seconds
    while it searches, so a run killed even with SIGKILL still counts (to within those few
    seconds) when a later run resumes from the checkpoint and finishes. Without a path,
    just this run's time. With a `label`, where the search stands is printed every
    `SAY_EVERY` seconds (a long cell's log shows its progress)."""

    EVERY = 5.0
    SAY_EVERY = 60.0

    def __init__(self, path: Path | None, label: str = "") -> None:
        self.path = path
        self.label = label
        self.started = time.time()
        self.written = 0.0
        self.said = 0.0

    def _earlier(self) -> dict[str, float]:
        if self.path is None or not self.path.exists():
            return {}
        return {k: v for k, v in json.loads(self.path.read_text()).items()
                if k != str(self.started)}

    def progress(self, info: dict[str, Any]) -> None:
        if self.label and info["elapsed"] - self.said >= self.SAY_EVERY:
            self.said = info["elapsed"]
            print(f"{self.label}: {progress_text(info)}", flush=True)
        if self.path is None or info["elapsed"] - self.written < self.EVERY:
            return
        self.save(info["elapsed"])

    def save(self, elapsed: float) -> None:
        """Write this run's `elapsed` seconds now (as a run ends out of time too, so that
        its last seconds since the last write count)."""
        if self.path is None:
            return
        self.written = elapsed
        runs = self._earlier() | {str(self.started): round(elapsed, 1)}
        self.path.write_text(json.dumps(runs))

    def clear(self) -> None:
        if self.path is not None:
            self.path.unlink(missing_ok=True)

    def total(self, seconds: float) -> float:
        """Return this run's `seconds` plus those of the earlier runs."""
        return seconds + sum(self._earlier().values())


def second_checkpoint(checkpoint: str) -> str:
    """Return the SQLite file of a checkpointed cell's second search: beside the first's
    (`m74.sqlite` -> `m74.second.sqlite`), so neither search can take the other's parts,
    and each file is carried (`carry_checkpoint.py`) on its own."""
    path = Path(checkpoint)
    return str(path.with_name(f"{path.stem}.second{path.suffix}"))


def _second_seconds(checkpoint: str, rules: Rules) -> Path:
    return Path(second_checkpoint(checkpoint) + f".cell-{rules.key}.seconds.json")


def _second_recorded(checkpoint: str | None, rules: Rules, label: str) -> dict[str, Any]:
    """The options that make a long cell's second search resumable (with --checkpoint DB):
    its parts recorded in `second_checkpoint(DB)`, under a key of its own, its seconds
    counted over its runs and where it stands printed every minute, as the first's are; a
    killed run goes on from there when the same command is run again (the first search
    then resumes from its own record, every root part of it held, and writes its tree
    again). Nothing without a checkpoint."""
    if checkpoint is None:
        return {}
    from keypeg.solver.resume import Checkpoint
    from keypeg.store import Store

    spent = _Spent(_second_seconds(checkpoint, rules), f"{label} second search")
    return {"checkpoint": Checkpoint(Store(second_checkpoint(checkpoint)),
                                     f"cell-second:{rules.key}"),
            "progress": spent.progress}


def _first_workers(rules: Rules) -> int | None:
    """The workers of a cell's first search: two for a game of PARALLEL_MIN_CODES codes or
    more, even where this process may use one core (`taskset -c 1`, beside another run),
    so that it is the parallel root the second proof's serial search differs from. Below
    that size None: `solve_optimal`'s own choice, which the second proof's two workers
    differ from."""
    return 2 if rules.size >= PARALLEL_MIN_CODES else None


def _second_search(rules: Rules, **options: Any) -> tuple[Any, str]:
    """Return the second proof's search of a cell (and what it was): the serial search
    where the first used the parallel root (a game of PARALLEL_MIN_CODES codes or more), the
    parallel root on two workers where it did not: other orders, budgets and memos."""
    parallel = rules.size >= PARALLEL_MIN_CODES
    result = solve_optimal(rules, workers=1 if parallel else 2, **options)
    return result, "the serial search" if parallel else "the parallel root (2 workers)"


#: The other optima of a cell (`--variants`): key in the cell, search options.
VARIANTS = {"worst_first": {"objective": "worst"}, "possible_only": {"possible_only": True}}


def _variants(cell: dict[str, Any], limit: float, checkpoint: str | None = None,
              save: Callable[[], None] = lambda: None) -> bool:
    """Add the cell's missing variants (`VARIANTS`), each proven twice as the cell itself
    (its tree replayed over every secret, and a second search with the other root); one
    not found within `limit` seconds is noted with the time tried (and tried again only
    under a longer limit). With `checkpoint` (a SQLite path), W's searches by caps record
    their parts there and resume (`_worst_by_caps`). Returns whether the cell changed.

    A W tried before and searched on cap by cap calls `save` (which writes the cells) as
    soon as a further cap is proven to hold no tree (two searches), its entry still the
    earlier limit's, ``none_within`` raised: a run stopped in a later cap, which can take
    days, keeps what it proved."""
    rules = rules_of(cell["rules"])
    changed = False
    for key, options in VARIANTS.items():
        had = cell.get(key)
        if had is not None and ("total" in had or had["seconds"] >= limit):
            continue
        started = time.perf_counter()
        if key == "worst_first" and cell["worst"] > _lowest_cap(rules):
            def proven(cap: int) -> None:
                now = cell.get("worst_first")
                if now is not None and "total" not in now and cap > now.get("none_within", 0):
                    cell["worst_first"] = {**now, "none_within": cap}
                    save()

            found = _worst_by_caps(cell, rules, limit, checkpoint, proven)
            if "total" not in found:  # (the worst-case search would only start over)
                print(f"{cell['label']} {key}: not within {limit:g} s", flush=True)
            cell[key] = found
            changed = True
            continue
        try:
            first = solve_optimal(rules, time_limit=limit, workers=_first_workers(rules),
                                  **options)
        except LimitExceededError:
            cell[key] = {"seconds": limit}
            print(f"{cell['label']} {key}: not within {limit:g} s", flush=True)
            changed = True
            continue
        seconds = time.perf_counter() - started
        assert int(first.tree.depths().sum()) == first.total, (cell["label"], key)
        second, _ = _second_search(rules, **options)
        assert (second.total, second.worst) == (first.total, first.worst), (cell["label"], key)
        cell[key] = {"total": first.total, "worst": first.worst, "seconds": round(seconds, 1)}
        print(f"{cell['label']} {key}: {first.total:,} (worst {first.worst}) in "
              f"{seconds:.1f} s; second search the same", flush=True)
        changed = True
    return changed


def _lowest_cap(rules: Rules) -> int:
    """The fewest guesses the search's depth bound allows for every secret."""
    from keypeg.solver.search import _depth_lower_bound
    from keypeg.space import get_space

    return _depth_lower_bound(get_space(rules), rules.size, False)


def _worst_by_caps(cell: dict[str, Any], rules: Rules, limit: float,
                   checkpoint: str | None = None,
                   proven: Callable[[int], None] = lambda cap: None) -> dict[str, Any] | None:
    """W and its least total, cap by cap from the depth bound, where the worst-case search
    would spend most of its time proving what the cell already holds: the least total under
    any cap is at least the uncapped optimum (the cell's total), so a tree within a cap that
    reaches it is optimal there. For each cap, the cell's optimal first guess is tried first
    under it (a search of one first guess); a tree of the cell's total ends it. Else the
    full capped search decides: no tree within the cap (proven twice: the second search
    with the other root) and the next cap is tried, or its optimum under the cap is W's.
    Returns the variant's entry; when a search does not finish within `limit` seconds,
    ``{"seconds": limit}`` with, where caps were proven empty, the largest
    (``none_within``: W is more). `proven` is called with each cap as soon as it is
    proven empty.

    With `checkpoint` (a SQLite path; a long cell), the searches record their finished
    root parts there, so a killed run resumes: the first searches (the first guess forced,
    then the cap in full, which takes that first guess's parts from the same record) under
    one key, the second proofs under another; the seconds of every run are counted
    (`_Spent`), and where the search stands is printed every minute."""
    started = time.perf_counter()
    label = cell["label"]
    lowest = _lowest_cap(rules)
    spent = _Spent(None if checkpoint is None
                   else Path(checkpoint + f".w-{rules.key}.seconds.json"), label)

    def recorded(kind: str, what: str) -> dict[str, Any]:
        """The options that checkpoint and report a search (`kind`: first or second; `what`
        it is, for the lines that say where it stands)."""
        if checkpoint is None:
            return {}
        from keypeg.solver.resume import Checkpoint
        from keypeg.store import Store

        def progress(info: dict[str, Any]) -> None:  # (seconds counted over the run)
            spent.label = f"{label} worst_first, {what}"
            spent.progress({**info, "elapsed": time.perf_counter() - started})

        return {"checkpoint": Checkpoint(Store(checkpoint), f"w-{kind}:{rules.key}"),
                "progress": progress}

    def out_of_time(cap: int) -> dict[str, Any]:
        spent.save(time.perf_counter() - started)
        return {"seconds": limit, **({"none_within": cap - 1} if cap > lowest else {})}

    def second_search(cap: int) -> tuple[Any, str]:
        return _second_search(rules, max_guesses=cap, **recorded(
            "second", f"within {cap} guesses, the second search"))

    def took() -> float:
        return spent.total(time.perf_counter() - started)

    for cap in range(lowest, cell["worst"]):
        left = limit - (time.perf_counter() - started)
        try:
            forced = solve_optimal(rules, max_guesses=cap, first=cell["first_guess"],
                                   time_limit=max(left, 1.0), workers=_first_workers(rules),
                                   **recorded(
                                       "first", f"within {cap} guesses, {cell['first_guess']} "
                                                "first"))
        except LimitExceededError:
            return out_of_time(cap)
        except KeypegError:
            forced = None
        if forced is not None and forced.total == cell["total"]:
            assert int(forced.tree.depths().sum()) == forced.total and forced.worst <= cap
            seconds = took()
            spent.clear()
            print(f"{label} worst_first: {cap}: {forced.total:,} (its optimal first guess "
                  f"within {cap} guesses reaches the uncapped optimum) in {seconds:.1f} s",
                  flush=True)
            return {"total": forced.total, "worst": forced.worst, "seconds": round(seconds, 1),
                    "proof": f"no tree within {cap - 1} guesses (two searches); within {cap}, "
                             f"the optimal first guess {cell['first_guess']} reaches the "
                             "uncapped optimum (tree replayed)"}
        print(f"{label} worst_first: within {cap} guesses, {cell['first_guess']} first "
              + ("finds no tree" if forced is None else f"costs {forced.total:,}")
              + "; the cap searched in full", flush=True)
        left = limit - (time.perf_counter() - started)
        try:
            capped = solve_optimal(rules, max_guesses=cap, time_limit=max(left, 1.0),
                                   workers=_first_workers(rules),
                                   **recorded("first", f"within {cap} guesses in full"))
        except LimitExceededError:
            return out_of_time(cap)
        except KeypegError:  # no tree within the cap: proven again by the other root
            try:
                again, _ = second_search(cap)
            except KeypegError:
                print(f"{label} worst_first: no tree within {cap} guesses (two searches)",
                      flush=True)
                proven(cap)
                continue
            raise AssertionError((label, cap, again.total)) from None
        second, _ = second_search(cap)
        assert (second.total, second.worst) == (capped.total, capped.worst), (label, cap)
        assert int(capped.tree.depths().sum()) == capped.total
        seconds = took()
        spent.clear()
        print(f"{label} worst_first: {cap}: {capped.total:,} in {seconds:.1f} s; second "
              "search the same", flush=True)
        return {"total": capped.total, "worst": capped.worst, "seconds": round(seconds, 1)}
    # no tree within fewer guesses than the cell's optimal tree needs: that tree is W's
    seconds = took()
    spent.clear()
    print(f"{label} worst_first: {cell['worst']}: {cell['total']:,} (the optimal tree) in "
          f"{seconds:.1f} s", flush=True)
    return {"total": cell["total"], "worst": cell["worst"], "seconds": round(seconds, 1),
            "proof": f"no tree within {cell['worst'] - 1} guesses (two searches); the "
                     "optimal tree meets its worst case"}


def _write(done: dict[str, Any], missed: dict[str, Any], changed: set[str]) -> None:
    """Write the cells, those of `changed` as this run found them and the others as the
    file holds them now (another run may have stored cells since this one started)."""
    if OUT.exists():
        now = json.loads(OUT.read_text())
        for c in now["cells"]:
            if c["label"] not in changed:
                done[c["label"]] = c
                missed.pop(c["label"], None)
        for c in now["out_of_reach"]:
            if c["label"] not in changed and c["label"] not in done:
                missed[c["label"]] = c
    order = [label for label, *_ in cells()]
    cells_out = sorted(done.values(), key=lambda c: (c["codes"], order.index(c["label"])))
    OUT.write_text(json.dumps({"cells": cells_out, "out_of_reach": list(missed.values())},
                              indent=1) + "\n")


if __name__ == "__main__":
    main()
