"""Profile the optimal search's compiled kernels with Linux perf, each function named.

    python benchmarks/profile_search.py --pegs 7 --colors 4 [--no-repeats] [--seconds 60]
        [--top 25] [--annotate score_probes]
    python benchmarks/profile_search.py --rules mm-6-9 --clue 174424=1B1W --clue ...

py-spy sees a compiled search as one opaque frame, and perf sees numba's code as
anonymous addresses. This script compiles the kernels afresh in a temporary numba cache
(so that their object code is kept: two to three minutes), writes /tmp/perf-PID.map
naming the code of every compiled function (perf reads that file to name JIT code), then
records the search on one worker with `perf record` for --seconds (with --rules and
--clue, the search of that position, the opening book off, repeated until --seconds have
passed; with --part as well, the position's candidates searched as a part of the game's
full-table search, as a worker searches the part of a first guess) and prints each
function's share of the samples. --annotate NAME also prints, for the functions whose
name contains NAME, the instructions holding at least 0.4 % of that function's samples
(objdump on the kept object code). Needs `perf`, `nm` and `objdump` (binutils).
"""

from __future__ import annotations

import argparse
import collections
import gc
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORK = Path(tempfile.mkdtemp(prefix="keypeg-profile-"))
os.environ["NUMBA_CACHE_DIR"] = str(WORK / "numba")  # before numba is imported


def short_name(symbol: str) -> str:
    """keypeg._kernels.optimal.score_probes for numba's mangled
    _ZN6keypeg8_kernels7optimal12score_probesB4v141B52c8t...; other symbols unchanged."""
    match = re.match(r"(?:cfunc\.)?_ZN(?:7cpython)?((?:\d+\w+?)+?)B\d", symbol)
    if not match:
        return symbol
    parts, rest = [], match.group(1)
    while rest and rest[0].isdigit():
        n = re.match(r"\d+", rest).group(0)
        parts.append(rest[len(n):len(n) + int(n)])
        rest = rest[len(n) + int(n):]
    return ".".join(parts)


def write_perf_map(objects: Path) -> int:
    """Name every compiled function's code in /tmp/perf-PID.map; keep each library's
    object code in `objects` (file name: the address its code starts at, in hex)."""
    from numba.core.registry import CPUDispatcher

    entries: dict[int, tuple[str, int]] = {}
    objects.mkdir(exist_ok=True)
    for obj in gc.get_objects():
        try:
            if not isinstance(obj, CPUDispatcher):
                continue
        except ReferenceError:
            continue
        for cres in obj.overloads.values():
            lib = cres.library
            anchor = cres.fndesc.llvm_func_name
            address = lib._codegen._engine.get_function_address(anchor)
            try:
                data = lib._get_compiled_object()
            except RuntimeError:  # loaded from a cache: only its entry point is known
                entries.setdefault(address, (anchor, 0))
                continue
            path = objects / "lib.o"
            path.write_bytes(data)
            listing = subprocess.run(["nm", "-S", "--defined-only", str(path)],
                                     capture_output=True, text=True, check=True).stdout
            symbols = [(int(a, 16), int(s, 16), n) for a, s, kind, n in
                       (line.split() for line in listing.splitlines() if len(line.split()) == 4)
                       if kind in "tT"]
            offsets = {n: a for a, _, n in symbols}
            if anchor not in offsets:
                continue
            base = address - offsets[anchor]
            path.rename(objects / f"{base:x}.o")
            for a, s, n in symbols:
                entries[base + a] = (n, s)
    starts = sorted(entries)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, a in enumerate(starts):
            name, size = entries[a]
            if not size:
                size = min(starts[i + 1] - a if i + 1 < len(starts) else 4096, 1 << 20)
            out.write(f"{a:x} {size:x} {name}\n")
    return len(starts)


def annotate(data: Path, objects: Path, part: str) -> None:
    """The hottest instructions of the sampled functions whose name contains `part`."""
    script = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip,sym"],
                            capture_output=True, text=True).stdout
    by_symbol: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for line in script.split("\n"):
        fields = line.split()
        if len(fields) == 2 and part in short_name(fields[1]):
            by_symbol[fields[1]][int(fields[0], 16)] += 1
    for symbol, counts in by_symbol.items():
        total = sum(counts.values())
        for path in sorted(objects.glob("*.o")):
            base = int(path.stem, 16)
            listing = subprocess.run(["nm", "-S", "--defined-only", str(path)],
                                     capture_output=True, text=True).stdout
            found = [line.split() for line in listing.splitlines()
                     if line.endswith(" " + symbol) and len(line.split()) == 4]
            if not found:
                continue
            start, size = int(found[0][0], 16), int(found[0][1], 16)
            if not any(base + start <= a < base + start + size for a in counts):
                continue  # another library's copy of the function
            dump = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(path),
                                   f"--start-address={start:#x}",
                                   f"--stop-address={start + size:#x}"],
                                  capture_output=True, text=True).stdout
            print(f"\n{short_name(symbol)} ({total} samples):")
            for line in dump.splitlines():
                m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
                if not m:
                    continue
                share = counts.get(base + int(m.group(1), 16), 0) / total
                if share >= 0.004:
                    text = re.sub(r"<[^>]*>", "", m.group(2))
                    print(f"{100 * share:5.1f}%  {m.group(1)}: {text}")
            break


def search_part(state, seconds: float) -> str:
    """Search the candidates of `state` as a part of its game's full-table search (one
    worker, no opening book), stopped after `seconds`; say how it ended."""
    import threading

    import numpy as np

    from keypeg._kernels import optimal as kernels
    from keypeg._kernels import slots
    from keypeg.solver.search import _Search

    space = state.space
    space.table()
    search = _Search(space, possible_only=False, capped=False, first=-1, symmetry=True,
                     trace=False, n_max=space.size)
    part = np.array(sorted(state.candidates), dtype=np.int32)
    guesses = [space.index(clue.guess) for clue in state.history]
    timer = threading.Timer(seconds, lambda: search.counters.__setitem__(slots.STOP, 1))
    timer.start()
    cost = search.run(part, 20, int(kernels.INF), guesses, dist=1)
    timer.cancel()
    sets = int(search.counters[slots.N_SETS])
    if search.counters[slots.STOP]:
        return f"a part of {part.size} codes: stopped after {seconds:g} s, {sets:,} sets"
    return f"a part of {part.size} codes: cost {cost + len(guesses) * part.size:,}, {sets:,} sets"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pegs", type=int, default=4)
    parser.add_argument("--colors", type=int, default=7)
    parser.add_argument("--no-repeats", action="store_true")
    parser.add_argument("--rules", default=None, help="a preset, with --clue: a position")
    parser.add_argument("--clue", action="append", default=[], help="GUESS=MARKS, in order")
    parser.add_argument("--part", action="store_true",
                        help="with --rules and --clue: the candidates searched as a part of "
                        "the game's full-table search, not as a position")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--annotate", default=None)
    args = parser.parse_args()
    if args.part and not args.clue:
        parser.error("--part needs --rules and at least one --clue.")
    for tool in ("perf", "nm", "objdump"):
        if shutil.which(tool) is None:
            sys.exit(f"profile_search: {tool} is not installed; it needs perf and binutils.")

    from keypeg.book import without_books
    from keypeg.errors import TimeLimitError
    from keypeg.game import GameState
    from keypeg.rules import Rules
    from keypeg.solver import solve_optimal
    from keypeg.space import get_space

    state = None
    if args.rules:
        state = GameState.from_clues(args.rules, [c.split("=") for c in args.clue])
        rules, space = state.space.rules, state.space
    else:
        rules = Rules(pegs=args.pegs, colors=args.colors, repeats=not args.no_repeats)
        space = get_space(rules)
    print("compiling the kernels afresh (two to three minutes) ...", flush=True)
    solve_optimal(get_space(Rules(pegs=3, colors=3)), workers=1)
    objects = WORK / "objects"
    data = WORK / "perf.data"
    write_perf_map(objects)
    perf = subprocess.Popen(["perf", "record", "-F", "499", "-p", str(os.getpid()), "-o",
                             str(data)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    started = time.perf_counter()
    try:
        if state is None:
            result = solve_optimal(space, workers=1, time_limit=args.seconds)
            outcome = f"optimum {result.total:,}"
        elif args.part:
            outcome = search_part(state, args.seconds)
        else:
            runs = 0
            with without_books():
                while runs == 0 or time.perf_counter() - started < args.seconds:
                    result = solve_optimal(space, state=state, workers=1,
                                           time_limit=args.seconds)
                    runs += 1
            outcome = (f"{state.count} candidates: optimum {result.total:,}, "
                       f"searched {runs} times")
    except TimeLimitError:
        outcome = f"stopped after {args.seconds:g} s"
    took = time.perf_counter() - started
    perf.send_signal(signal.SIGINT)
    perf.wait()
    write_perf_map(objects)  # (anything compiled during the search)
    print(f"{rules.describe()}: {outcome} ({took:.1f} s, one worker)")
    report = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--sort", "sym"],
                            capture_output=True, text=True).stdout
    rows = [line for line in report.splitlines() if line.strip() and not line.startswith("#")]
    for line in rows[:args.top]:
        m = re.match(r"\s*([\d.]+%)\s+\[.\]\s+(\S+)", line)
        print(f"{m.group(1):>8}  {short_name(m.group(2))}" if m else line)
    if args.annotate:
        annotate(data, objects, args.annotate)
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
