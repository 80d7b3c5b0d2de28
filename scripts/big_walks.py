"""Walk one-step strategies' exact whole trees in games too big for one session, resumably.

    python scripts/big_walks.py --checkpoint DB [--rules mm-6-9] [--workers N] entropy [maxsize ...]

Each strategy's tree over every secret is walked part by part (`onestep.split_tree`, as
`keypeg evaluate` does for Codebreaker's 100,000 codes), every part's subtree kept in DB
(`onestep.SplitRecord`) as it is finished: the walk can be killed at any time (`kill -9`
included) and the same command resumes it, taking the parts done from DB. MM(6,9)'s
531,441 codes take hours per strategy on one core. The seconds of each run are kept beside
DB (`DB.walk-KEY.seconds.json`, KEY the game and the strategy), so a result counts every
run (wall seconds, a run paused counting its pause, and CPU seconds, all threads);
`scripts/carry_checkpoint.py save DB` carries both between machines.

A finished walk is written to `src/keypeg/data/big_walks.json` (the game's key, then the
strategy: its summary, the seconds over all runs and how many runs), with its tree checked
by replaying it over every secret (`DecisionTree.depths`, each secret's answers computed
afresh). Progress (the root's parts done, the subtrees recorded) is printed every minute.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "keypeg" / "data" / "big_walks.json"


def seconds_file(db: Path, rules_key: str, strategy: str) -> Path:
    return db.parent / f"{db.name}.walk-{rules_key}-{strategy}.seconds.json"


def _wall(run: Any) -> float:
    return float(run[0] if isinstance(run, list) else run)


def _cpu(run: Any) -> float:
    """A run's CPU seconds (its wall seconds where only those were written: a run of a
    single thread, its pauses included)."""
    return float(run[1] if isinstance(run, list) else run)


def walk(db: Path, rules_name: str, name: str, workers: int = 1) -> dict:
    from keypeg.onestep import SplitRecord, split_tree
    from keypeg.rules import find_rules
    from keypeg.space import CodeSpace
    from keypeg.store import Store
    from keypeg.strategies import find_strategy

    rules = find_rules(rules_name)
    space = CodeSpace(rules)
    strategy = find_strategy(name)
    if not strategy.splits:
        raise SystemExit(f"{name} cannot be walked part by part; use a one-step strategy.")
    record = SplitRecord(Store(db), strategy, rules)
    side = seconds_file(db, rules.key, name)
    # per run: [wall seconds, CPU seconds] (an earlier format: wall seconds alone)
    runs: dict[str, Any] = json.loads(side.read_text()) if side.is_file() else {}
    run_key = f"{time.time():.3f}"
    started = time.perf_counter()
    cpu_started = time.process_time()
    held = record.count()
    parts = [0, 0]
    stop = threading.Event()

    def save_seconds() -> None:
        runs[run_key] = [round(time.perf_counter() - started, 1),
                         round(time.process_time() - cpu_started, 1)]
        side.write_text(json.dumps(runs))

    def report() -> None:
        while not stop.wait(60):
            save_seconds()
            print(f"{rules_name} {name}: root parts {parts[0]}/{parts[1] or '?'}, "
                  f"{record.count():,} subtrees recorded ({held:,} before this run), "
                  f"{time.perf_counter() - started:.0f} s", flush=True)

    def on_part(done: int, total: int) -> None:
        parts[0], parts[1] = done, total

    print(f"{rules_name} {name}: {held:,} subtrees recorded before this run", flush=True)
    reporter = threading.Thread(target=report, daemon=True)
    reporter.start()
    try:
        tree = split_tree(strategy, space, on_part=on_part, record=record, workers=workers)
    finally:
        stop.set()
        save_seconds()
    depths = tree.depths(space)  # replayed over every secret
    if depths.size != rules.size or int(depths.sum()) != tree.total:
        raise SystemExit(f"{name}: the tree does not replay to its own total.")
    row = {**tree.summary(), "strategy": name, "secrets": int(rules.size),
           "replayed_total": int(depths.sum()), "worst_replayed": int(depths.max()),
           "seconds": round(sum(_wall(r) for r in runs.values()), 1),
           "cpu_seconds": round(sum(_cpu(r) for r in runs.values()), 1), "runs": len(runs),
           "taken_from_record": record.taken}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("strategies", nargs="+")
    parser.add_argument("--rules", default="mm-6-9")
    parser.add_argument("--checkpoint", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=1,
                        help="threads sharing the first guess's parts (each within its share "
                             "of the table budget)")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON the results go to")
    args = parser.parse_args()
    for name in args.strategies:
        row = walk(args.checkpoint, args.rules, name, args.workers)
        from keypeg.rules import find_rules

        key = find_rules(args.rules).key
        data = json.loads(args.out.read_text()) if args.out.is_file() else {}
        data.setdefault(key, {})[name] = row
        args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"{args.rules} {name}: total {row['total']:,} (mean {row['mean']:.4f}, worst "
              f"{row['worst']}) in {row['seconds']:.0f} s ({row['cpu_seconds']:.0f} CPU "
              f"seconds) over {row['runs']} run(s); "
              f"written to {args.out}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
