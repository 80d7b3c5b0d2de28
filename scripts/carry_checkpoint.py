"""Carry a long cell run's checkpoint in the repository, so that a later session (on another
machine: this workplace's machines can be replaced between sessions, and whatever lies
outside the repository is then lost) resumes it instead of starting over.

    python scripts/carry_checkpoint.py save DB [DIR]   # -> DIR/NAME.gz and its side files
    python scripts/carry_checkpoint.py load DIR/NAME.gz DB

`save` copies the checkpoint DB (`scripts/new_cells.py --checkpoint DB`) as one consistent
snapshot (SQLite's VACUUM INTO: safe while the run is still writing, its write-ahead log
included) into DIR (default `cells/`), gzipped, with its side files: the seconds each run
took (DB.cell-KEY.seconds.json, so the cell's time counts every run; DB.w-KEY.seconds.json
for its W searched by caps, `new_cells.py --variants --checkpoint DB`) and a finished first
search's tree (DB.cell-KEY.json.gz, the first proof). `load` puts them back beside DB,
which must not exist yet. Then the same `new_cells.py --checkpoint DB ...` command resumes.

A gzipped copy over `PIECE_BYTES` (hosts refuse a file over 100 MB) is written in pieces,
NAME.gz.000, NAME.gz.001, ... (cut anywhere; joined in order they are NAME.gz again), and
`load DIR/NAME.gz DB` joins them when NAME.gz itself is not there.
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import sqlite3
import sys
import tempfile
import zlib
from pathlib import Path

CELLS = Path(__file__).resolve().parent.parent / "cells"


#: What `new_cells.py` names the files it writes beside a checkpoint DB: DB + one of these
#: + the cell's key (a cell's first search; its W by caps) + one of `SIDE_ENDS`
#: (`big_walks.py`: the seconds of a strategy's walk).
SIDE_KINDS = (".cell-", ".w-", ".walk-")
SIDE_ENDS = (".seconds.json", ".json.gz")
#: The largest file `save` writes: a bigger gzipped copy goes in pieces of this size.
PIECE_BYTES = 90_000_000


def side_files(db: Path) -> list[Path]:
    """The files `new_cells.py` writes beside a checkpoint DB (or `save` beside its copy)."""
    return sorted(p for kind in SIDE_KINDS for p in db.parent.glob(db.name + kind + "*")
                  if p.name.endswith(SIDE_ENDS))


def save(db: Path, out_dir: Path) -> Path:
    if not db.is_file():
        raise SystemExit(f"no checkpoint at {db}: give the DB of new_cells.py --checkpoint.")
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / db.name
        with sqlite3.connect(db) as con:
            con.execute("VACUUM INTO ?", (str(copy),))
        con.close()
        out = out_dir / (db.name + ".gz")
        packed = Path(tmp) / out.name
        # (mtime 0: the same checkpoint saved twice gives the same bytes)
        with (open(copy, "rb") as src, open(packed, "wb") as raw,
              gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as dst):
            shutil.copyfileobj(src, dst)
        for stale in [out, *pieces(out)]:  # (an earlier save's, whole or in pieces)
            stale.unlink(missing_ok=True)
        if packed.stat().st_size <= PIECE_BYTES:
            shutil.move(packed, out)
        else:
            with open(packed, "rb") as src:
                for n, chunk in enumerate(iter(lambda: src.read(PIECE_BYTES), b"")):
                    (out_dir / f"{out.name}.{n:03d}").write_bytes(chunk)
    for side in side_files(db):
        shutil.copyfile(side, out_dir / side.name)
    return out


def _check_checkpoint(path: Path) -> None:
    """Raise sqlite3.Error unless `path` is a SQLite file whose tables include a keypeg
    store's recorded parts (`parts`)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master")}
        if "parts" not in tables:
            raise sqlite3.DatabaseError("a SQLite file without keypeg's recorded parts")
    finally:
        con.close()


def pieces(packed: Path) -> list[Path]:
    """The pieces `save` wrote of a big NAME.gz (NAME.gz.000, ...), in order."""
    return sorted(p for p in packed.parent.glob(packed.name + ".*")
                  if p.name[len(packed.name) + 1:].isdigit())


def _gunzip(files: list[Path], out: Path) -> None:
    """Write the gzipped stream `files` hold, read one after the other, unpacked to `out`;
    EOFError when it ends short."""
    unpack = zlib.decompressobj(wbits=31)  # (31: a gzip header)
    with open(out, "wb") as dst:
        for path in files:
            with open(path, "rb") as src:
                while chunk := src.read(1 << 20):
                    dst.write(unpack.decompress(chunk))
    if not unpack.eof:
        raise EOFError("the compressed data ends short")


def load(packed: Path, db: Path) -> None:
    split = [] if packed.is_file() else pieces(packed)
    if packed.suffix != ".gz" or not (packed.is_file() or split):
        raise SystemExit(f"no saved checkpoint at {packed}: give a NAME.gz that save wrote "
                         "(or whose pieces NAME.gz.000, ... it wrote).")
    expected = [packed.with_name(f"{packed.name}.{n:03d}") for n in range(len(split))]
    if split != expected:
        raise SystemExit(f"the pieces of {packed} are not NAME.gz.000 to "
                         f"NAME.gz.{len(split) - 1:03d} without a gap: copy every piece "
                         "save wrote.")
    if db.exists():
        raise SystemExit(f"{db} exists already: load into a new path (a checkpoint holds "
                         "work; nothing is overwritten).")
    db.parent.mkdir(parents=True, exist_ok=True)
    # (into a file beside DB, checked, then renamed: a truncated copy had left an empty DB,
    # which the next run took for a new store and started from scratch)
    part = db.with_name(db.name + ".loading")
    try:
        _gunzip(split or [packed], part)
        _check_checkpoint(part)
    except (OSError, EOFError, zlib.error, sqlite3.Error) as exc:
        part.unlink(missing_ok=True)
        raise SystemExit(f"{packed} is not a whole saved checkpoint ({exc}); nothing was "
                         "loaded: copy it again from where save wrote it.") from None
    part.rename(db)
    name = packed.name[:-len(".gz")]
    for side in side_files(packed.parent / name):
        shutil.copyfile(side, db.parent / (db.name + side.name[len(name):]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save", help="DB -> DIR/NAME.gz, with its side files")
    s.add_argument("db", type=Path)
    s.add_argument("dir", type=Path, nargs="?", default=CELLS)
    lo = sub.add_parser("load", help="DIR/NAME.gz (or its pieces) -> DB, with its side files")
    lo.add_argument("packed", type=Path)
    lo.add_argument("db", type=Path)
    args = parser.parse_args(argv)
    if args.command == "save":
        print(save(args.db, args.dir))
    else:
        load(args.packed, args.db)
        print(args.db)


if __name__ == "__main__":
    main(sys.argv[1:])
