"""Write an opening book (see `keypeg.book`): the optimal next guess for every position
after at most two guesses, and after three from `keypeg.book.DEEP_FROM` codes, one per
class of histories, solved without a guess limit.

    python scripts/make_book.py [--pegs 4 --colors 10 --no-repeats] [--workers N]

Solved positions are appended to ``<book>.partial`` as they finish, so a stopped run takes
up where it was; the book is written (gzip JSON, under src/keypeg/data) at the end.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

from keypeg.book import BOOKS, build_book
from keypeg.rules import Rules

DATA = Path(__file__).resolve().parent.parent / "src" / "keypeg" / "data"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pegs", type=int, default=4)
    ap.add_argument("--colors", type=int, default=10)
    ap.add_argument("--repeats", action="store_true", help="codes may repeat a colour")
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    rules = Rules(pegs=args.pegs, colors=args.colors, repeats=args.repeats,
                  digits=args.colors <= 10)
    name = BOOKS.get((rules.pegs, rules.colors, rules.repeats))
    if name is None:
        print(f"no book is named for {rules}; add it to keypeg.book.BOOKS", file=sys.stderr)
        return 2
    partial = DATA / (name + ".partial")
    done: dict[str, list] = {}
    if partial.exists():
        for line in partial.read_text().splitlines():
            key, value = json.loads(line)
            done[key] = value
    started = time.perf_counter()
    with partial.open("a") as out:
        def record(key: str, entry: list, codes: int, seconds: float) -> None:
            record.n += 1
            if seconds > 0.2 or record.n % 1000 == 0:
                print(f"{record.n:6} {key:>28}: {codes:5} codes, {entry} {seconds:.2f} s",
                      flush=True)
            out.write(json.dumps([key, entry]) + "\n")
            out.flush()

        record.n = len(done)  # type: ignore[attr-defined]
        book = build_book(rules, done=done, on_entry=record, workers=args.workers)
    (DATA / name).write_bytes(gzip.compress(json.dumps(book, separators=(",", ":")).encode(),
                                            mtime=0))
    partial.unlink()
    print(f"wrote {DATA / name}: {len(book['entries'])} entries in "
          f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
