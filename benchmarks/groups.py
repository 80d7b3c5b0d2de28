"""Benchmark groups for run.py: each returns (rows, notes)."""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from run import median_time

from keypeg.rules import Rules, find_rules
from keypeg.space import CodeSpace, get_space


def core() -> tuple[list[dict], list[str]]:
    from keypeg.rules import Rules

    rows = []
    classic = CodeSpace(find_rules("classic"), disk_cache=False)
    rows.append({"job": "feedback table, classic MM(4,6) (1,296 codes)",
                 "seconds": median_time(classic.build_table, repeats=9), "goal_s": 0.05})
    sup = CodeSpace(find_rules("super"), disk_cache=False)
    rows.append({"job": "feedback table, super MM(5,8) (32,768 codes)",
                 "seconds": median_time(sup.build_table, repeats=3), "goal_s": 10.0})
    cb4 = get_space(find_rules("cb4"))
    everything = cb4.all()
    guess = cb4.index("01234")
    response = cb4.response_index("GA--A")
    rows.append({"job": "filter 100,000 codebreaker-4 candidates by one clue",
                 "seconds": median_time(lambda: cb4.filter(everything, guess, response),
                                        repeats=9), "goal_s": 0.05})
    assert np.all(cb4.filter(everything, guess, response) >= 0)
    mm88 = find_rules("mm-8-8")
    CodeSpace(Rules(pegs=2, colors=8), disk_cache=False)  # its kernels loaded, untimed
    seconds = median_time(lambda: CodeSpace(mm88, disk_cache=False), repeats=3)
    space = CodeSpace(mm88, disk_cache=False)
    held = sum(a.nbytes for a in (space.codes, space.counts, space.packed, space.colmask,
                                  space._values, space.multiset, space.common))
    rows.append({"job": "code space of MM(8,8) (16,777,216 codes: the codes and their "
                        f"per-code tables, {held / 1e9:.2f} GB), median of 3",
                 "seconds": seconds, "goal_s": 3.0})
    return rows, ["MM(8,8)'s code space is what the web page and `keypeg play` build before "
                  "its first hint."]


GROUPS = {"core": core}


def strategies() -> tuple[list[dict], list[str]]:
    from keypeg.rules import Rules
    from keypeg.strategies import TABLE_STRATEGIES, evaluate, find_strategy

    rows = []
    for label, rules, goal, repeats in (
        ("classic MM(4,6)", find_rules("classic"), 0.2, 9),
        ("MM(4,7)", Rules(pegs=4, colors=7), 1.0, 5),
        ("super MM(5,8)", find_rules("super"), 30.0, 3),
    ):
        strategies = [find_strategy(n) for n in TABLE_STRATEGIES]
        get_space(rules).table()
        seconds = median_time(lambda s=strategies, r=rules: evaluate(s, r), repeats=repeats)
        rows.append({"job": f"all five strategies, whole tree, {label} (2 threads)",
                     "seconds": seconds, "goal_s": goal})
    return rows, ["Warm: tables loaded and kernels compiled before timing."]


GROUPS["strategies"] = strategies


def optimal() -> tuple[list[dict], list[str]]:
    import time

    from keypeg.solver import solve_optimal
    from keypeg.solver.ledger import run_ledger

    rows = []
    classic = Rules(pegs=4, colors=6)
    plain = median_time(lambda: solve_optimal(classic), repeats=7)
    rows.append({"job": "optimal MM(4,6) = 5,625, warm, whole solve_optimal (bounds, search, "
                        "tree), median of 7",
                 "seconds": plain, "goal_s": 0.5})
    # seed 004's game value: weight 0 on the six one-colour codes, 1 on the 1,290 others
    space = get_space(classic)
    weights = np.ones(space.size, dtype=np.int64)
    for c in "123456":
        weights[space.index(c * 4)] = 0
    result = solve_optimal(classic, weights=weights)
    assert result.weighted_total == 5600
    rows.append({"job": "weighted optimum MM(4,6), one-colour codes weigh 0 = 5,600, warm, "
                        "median of 7 (goal: 3x the unweighted)",
                 "seconds": median_time(lambda: solve_optimal(classic, weights=weights),
                                        repeats=7),
                 "goal_s": 3 * plain})
    mm47 = Rules(pegs=4, colors=7)
    rows.append({"job": "optimal MM(4,7) = 11,228 (2 cores, median of 3)",
                 "seconds": median_time(lambda: solve_optimal(mm47), repeats=3, warmup=0),
                 "goal_s": 90.0})
    started = time.perf_counter()
    cells = run_ledger(max_seconds=600)
    assert all(c["status"] == "ok" for c in cells)
    rows.append({"job": f"every published ledger cell ({len(cells)}, MM(4,7) included, one run)",
                 "seconds": time.perf_counter() - started, "goal_s": 300.0})
    bulls = find_rules("bulls-and-cows")
    started = time.perf_counter()
    result = solve_optimal(bulls)
    rows.append({"job": f"optimal bulls-and-cows = {result.total:,} (2 cores, one run)",
                 "seconds": time.perf_counter() - started, "goal_s": 300.0})
    mm48 = Rules(pegs=4, colors=8)
    started = time.perf_counter()
    result = solve_optimal(mm48)
    assert result.total == 20471  # arfst23's tree, the one published value
    rows.append({"job": "optimal MM(4,8) = 20,471 (2 cores, one run)",
                 "seconds": time.perf_counter() - started, "goal_s": 15.0})
    for label, workers in (("MM(4,7)", 1), ("bulls-and-cows", 1)):
        rules = mm47 if label == "MM(4,7)" else bulls
        started = time.perf_counter()
        solve_optimal(rules, workers=workers)
        rows.append({"job": f"optimal {label}, solve_optimal on one worker (one run)",
                     "seconds": time.perf_counter() - started})
    notes = ["The MM(4,6) goal is the C solver's time; its stretch goal is 0.15 s.",
             "MM(4,7): stretch goal 30 s on both cores; bulls-and-cows: stretch 60 s.",
             "MM(4,8): issue 12's goal."]
    rows += _resumable_commands(notes)
    rows += _side_by_side(notes)
    return rows, notes


def _resumable_commands(notes: list[str]) -> list[dict]:
    """`keypeg optimal` as a user runs it, on both cores: resumable by default (the root's
    parts recorded in a fresh store as they finish, parts of 1,000 codes or more solved a
    guess at a time, the idle worker joining them), one run each."""
    import os
    import subprocess
    import sys
    import tempfile

    rows = []
    for label, args in (("bulls-and-cows = 26,274", ["--rules", "bulls-and-cows"]),
                        ("MM(4,8) = 20,471", ["--pegs", "4", "--colors", "8"])):
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "KEYPEG_DB": os.path.join(tmp, "k.db")}
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "keypeg", "optimal", *args, "--recompute"],
                           check=True, capture_output=True, env=env)
            rows.append({"job": f"keypeg optimal {label}, whole command on 2 cores, "
                                f"resumable (the default; fresh store, one run)",
                         "seconds": time.perf_counter() - started})
    notes.append("The resumable commands record the root's parts as they finish and solve a "
                 "part of 1,000 codes or more a guess at a time, its own parts recorded too, "
                 "the idle worker costing that part's guesses beside its own (bulls-and-cows' "
                 "first guess 0123 leaves parts of 1,440 and 1,260 codes; MM(4,8)'s 1234 "
                 "none: its biggest holds 976).")
    return rows


#: keypeg's and fancidev's commands for the side-by-side rows, and the share of fancidev's
#: time issue 12 asks for.
SIDE_BY_SIDE = [
    ("MM(4,7) = 11,228", ["optimal", "--pegs", "4", "--colors", "7"], ["-r", "p4c7r"], 5, 3),
    ("bulls-and-cows = 26,274", ["optimal", "--rules", "bulls-and-cows"], ["-r", "bc"], 10, 1),
]
#: keypeg's whole commands are timed this many times (the median is kept): one run on this
#: virtual machine varies by about 10 %.
KEYPEG_RUNS = 3


def _side_by_side(notes: list[str]) -> list[dict]:
    """Whole commands on one pinned core (taskset -c 1): `keypeg optimal` (no stored result,
    nothing resumed) and, when KEYPEG_FANCIDEV names its mmstrat binary (see
    scripts/build_fancidev.sh), fancidev/mastermind's optimal solver; the goal is issue 12's
    share of fancidev's time."""
    import os
    import shutil
    import statistics
    import subprocess
    import sys

    pin = ["taskset", "-c", "1"] if shutil.which("taskset") else []
    keypeg = [sys.executable, "-m", "keypeg"]
    other = os.environ.get("KEYPEG_FANCIDEV")
    rows = []

    # keypeg as installed: Python's compiled bytecode cached (pip writes it; an environment
    # that sets PYTHONDONTWRITEBYTECODE, as this one does, would recompile every module on
    # every run), written by one untimed run first
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def timed(cmd: list[str], runs: int) -> float:
        seconds = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run(pin + cmd, check=True, capture_output=True, env=env)
            seconds.append(time.perf_counter() - started)
        return statistics.median(seconds)

    def runs_text(runs: int) -> str:
        return "one run" if runs == 1 else f"median of {runs} runs"

    for label, ours, theirs, share, their_runs in SIDE_BY_SIDE:
        fancidev = timed([other, *theirs, "-s", "optimal", "-S"], their_runs) if other else None
        if fancidev is not None:
            rows.append({"job": f"fancidev/mastermind (2b52289, -O3 -march=native) optimal "
                                f"{label}, one pinned core ({runs_text(their_runs)})",
                         "seconds": fancidev})
        timed([*keypeg, "optimal", "--pegs", "2", "--colors", "2", "--recompute",
               "--no-resume"], 1)
        seconds = timed([*keypeg, *ours, "--recompute", "--no-resume"], KEYPEG_RUNS)
        rows.append({"job": f"keypeg optimal {label}, whole command on one pinned core "
                            f"({runs_text(KEYPEG_RUNS)}; goal: 1/{share} of fancidev's)",
                     "seconds": seconds,
                     **({"goal_s": fancidev / share} if fancidev is not None else {})})
    notes.append("keypeg's whole commands run as installed: Python's bytecode cached "
                 "(written by one untimed run), the numba kernels compiled.")
    if other is None:
        notes.append("fancidev/mastermind was not timed (set KEYPEG_FANCIDEV, see "
                     "scripts/build_fancidev.sh).")
    return rows


def hints() -> tuple[list[dict], list[str]]:
    """Optimal-hint latency for classic positions reached by random play (mostly off the
    stored tree, so searched live), by number of candidates."""
    import random
    import statistics
    import time

    from keypeg.feedback import score
    from keypeg.game import GameState
    from keypeg.strategies import find_strategy

    rules = find_rules("classic")
    space = get_space(rules)
    rng = random.Random(7)
    strategy = find_strategy("optimal", time_limit=None, max_candidates=None)
    strategy.next_guess(GameState.start(space).after("1122", "1B1W"))  # warm up
    buckets: dict[str, list[float]] = {}
    edges = [(1, 10), (11, 30), (31, 100), (101, 300), (301, 1296)]
    for _ in range(120):
        secret = space.code(rng.randrange(space.size))
        state = GameState.start(space)
        while not state.solved:
            t = time.perf_counter()
            strategy.next_guess(state)
            dt = time.perf_counter() - t
            for lo, hi in edges:
                if lo <= state.count <= hi:
                    buckets.setdefault(f"{lo}-{hi}", []).append(dt)
            guess = space.code(int(state.candidates[rng.randrange(state.count)]))
            state = state.after(guess, score(secret.symbols, guess.symbols, rules))
    rows = []
    for lo, hi in edges:
        times = buckets.get(f"{lo}-{hi}", [])
        if not times:
            continue
        goal = 0.1 if hi <= 100 else None
        rows.append({"job": f"optimal hint, {lo}-{hi} candidates ({len(times)} positions): "
                            f"median", "seconds": statistics.median(times), "goal_s": goal})
        rows.append({"job": f"optimal hint, {lo}-{hi} candidates: worst",
                     "seconds": max(times), "goal_s": goal})
    return rows, ["Positions from 120 games of random consistent play against random "
                  "secrets; each hint searched live unless on the shipped MM(4,6) tree."]


GROUPS["optimal"] = optimal
GROUPS["hints"] = hints


def web() -> tuple[list[dict], list[str]]:
    """Hint latency under 20 concurrent clients, and how soon the page is interactive.
    Needs only what ``pip install -e '.[dev]'`` installs, and a Chromium: the system's
    (scripts/test installs Debian's) or else Playwright's own."""
    import shutil
    import statistics
    import time

    from playwright.sync_api import sync_playwright
    from web_load import run, start_server

    load = run(clients=20, games=6)
    rows = [
        {"job": f"classic hints, 20 concurrent clients ({load['requests']} requests): median",
         "seconds": load["median"], "goal_s": None},
        {"job": "classic hints, 20 concurrent clients: p95", "seconds": load["p95"],
         "goal_s": 0.05},
        {"job": "classic hints, 20 concurrent clients: max", "seconds": load["max"],
         "goal_s": None},
    ]
    proc, url = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=shutil.which("chromium") or shutil.which("chromium-browser"),
                headless=True,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--disable-sync", "--no-first-run"])
            page = browser.new_page()
            times = []
            for _ in range(6):
                started = time.perf_counter()
                page.goto(url + "/")
                page.wait_for_selector("body[data-ready=true]")
                times.append(time.perf_counter() - started)
            browser.close()
    finally:
        proc.terminate()
        proc.wait()
    rows.append({"job": "page interactive after load (rules loaded, game started), median "
                        "of 5 after one warm-up", "seconds": statistics.median(times[1:]),
                 "goal_s": 1.0})
    return rows, ["Load: `python benchmarks/web_load.py` (each client plays classic games "
                  "through the API, asking for hints before every guess); server and clients "
                  "share the 2 cores."]


GROUPS["web"] = web


def cli() -> tuple[list[dict], list[str]]:
    """Whole-process times of the command line: how fast it starts, and how fast it refuses
    jobs too big for the memory budget (decided from the sizes, before any work)."""
    import subprocess
    import sys
    from pathlib import Path

    keypeg = str(Path(sys.executable).with_name("keypeg"))
    jobs = [
        ("keypeg --help", [keypeg, "--help"], 0.3, 0),
        ("keypeg solve 1122=1B1W (classic)", [keypeg, "solve", "1122=1B1W"], None, 0),
        ("refusal: keypeg evaluate --pegs 8 --colors 8 --strategy maxsize",
         [keypeg, "evaluate", "--pegs", "8", "--colors", "8", "--strategy", "maxsize"], 1.0, 2),
        ("refusal: keypeg optimal --pegs 12 --colors 4",
         [keypeg, "optimal", "--pegs", "12", "--colors", "4"], 1.0, 2),
    ]
    rows = []
    for label, args, goal, code in jobs:
        def run(args: list[str] = args, code: int = code) -> None:
            out = subprocess.run(args, capture_output=True)
            assert out.returncode == code, (args, out.returncode, out.stderr[-300:])

        rows.append({"job": label, "seconds": median_time(run, repeats=7), "goal_s": goal})
    return rows, ["Whole processes (interpreter start included), warm disk caches; the "
                  "kernels compiled and cached beforehand."]


GROUPS["cli"] = cli


def beliefs() -> tuple[list[dict], list[str]]:
    """Priors and noise: the posterior update over 100,000 codes and the information-gain
    choice over every probe of classic under symmetric noise."""
    import numpy as np

    from keypeg.bayes import belief_choices
    from keypeg.game import GameState

    cb4 = GameState.start(find_rules("codebreaker-4"), noise="per-peg:0.02")
    rows = [{"job": "posterior update, codebreaker-4 (100,000 codes, per-peg noise), one clue",
             "seconds": median_time(lambda: cb4.after("01234", "GA--A"), repeats=9),
             "goal_s": 0.02}]
    classic = GameState.from_clues(find_rules("classic"), ["1122=1B1W", "3456=0B2W"],
                                   noise="symmetric:0.05")
    rows.append({"job": "information-gain guess, classic under symmetric noise (1,296 probes "
                        "x 1,296 codes)",
                 "seconds": median_time(lambda: belief_choices(classic, ["information"]),
                                        repeats=9), "goal_s": 0.3})
    assert np.isclose(classic.posterior.sum(), 1.0)
    return rows, ["Warm: kernels compiled and the classic table loaded before timing."]


GROUPS["beliefs"] = beliefs


def value() -> tuple[list[dict], list[str]]:
    """The exact game value (issue 10): column generation with the weighted optimum as
    oracle, from scratch (nothing shipped is read), and one match between two computers."""
    from fractions import Fraction

    from keypeg.match import Match, Player
    from keypeg.value import game_value

    classic = Rules(pegs=4, colors=6)
    game_value(Rules(pegs=3, colors=3))  # kernels compiled
    found = []

    def solve() -> None:
        found.append(game_value(classic))

    rows = [{"job": "game value MM(4,6) = 5,600/1,290, certified (2 cores, median of 3)",
             "seconds": median_time(solve, repeats=3, warmup=0), "goal_s": 60.0}]
    assert all(v.value == Fraction(5600, 1290) and v.certified for v in found)
    mm44 = Rules(pegs=4, colors=4)
    rows.append({"job": "game value MM(4,4), certified (median of 5)",
                 "seconds": median_time(lambda: game_value(mm44), repeats=5), "goal_s": 5.0})
    rules = find_rules("classic")
    players = [Player.computer("entropy", "uniform", name="A"),
               Player.computer("knuth", "adaptive", name="B")]
    rows.append({"job": "a 10-game classic match, computer against computer (entropy and "
                        "knuth, symmetrised; uniform and adaptive codemakers)",
                 "seconds": median_time(lambda: Match(rules, 10, players, seed=1), repeats=3),
                 "goal_s": 30.0})
    return rows, [f"MM(4,6) took {found[0].rounds} rounds of column generation."]


GROUPS["value"] = value


def approximation() -> tuple[list[dict], list[str]]:
    """Sampled decisions (issue 11, item 4): on games where exact scoring is possible, the
    share of positions (more candidates than the sample, reached by random play) where the
    sampled choice's exact score is within the stated tolerance of the exact best; and the
    time of one sampled decision where the exact one is out of reach."""
    from keypeg.game import GameState
    from keypeg.hints import sampled_guess
    from keypeg.sampled_check import TOLERANCE, check

    rows, notes = [], []
    for rules in (Rules(pegs=5, colors=6), find_rules("codebreaker-1")):
        for name in sorted(TOLERANCE):
            started = time.perf_counter()
            r = check(rules, name, count=200, seed=11)
            seconds = time.perf_counter() - started
            rows.append({"job": f"{r['rules']} {name}: {r['good']}/{r['positions']} positions "
                                f"within tolerance ({r['tolerance']}), share {r['share']:.3f} "
                                f"(goal 0.95); time per position",
                         "seconds": seconds / r["positions"], "goal_s": 1.0})
            notes.append(f"{r['rules']} {name}: worst position {r['worst']:.3f} "
                         f"({'bits below the best' if name == 'entropy' else 'x the best'}).")
    cb4 = GameState.start(find_rules("codebreaker-4"))
    after = cb4.after("01234", "GA--A")
    for label, state in (("start", cb4), ("after 01234=GA--A", after)):
        for name in ("entropy", "maxsize"):
            rows.append({"job": f"sampled {name} guess, codebreaker-4 {label} "
                                f"({state.count:,} candidates), median of 5",
                         "seconds": median_time(lambda s=state, n=name: sampled_guess(s, n),
                                                repeats=5), "goal_s": 0.3})
    return rows, notes


GROUPS["approximation"] = approximation


def genetic() -> tuple[list[dict], list[str]]:
    """The genetic algorithm (issue 11, item 5): one decision in the biggest games, which
    it plays without listing their codes."""
    import numpy as np

    from keypeg import genetic as ga
    from keypeg.sampling import draw_secrets

    rows = []
    for rules, label in ((Rules(pegs=8, colors=8), "MM(8,8), 16.8 million codes"),
                         (Rules(pegs=6, colors=9), "MM(6,9), 531,441 codes"),
                         (find_rules("codebreaker-4"), "codebreaker-4, 100,000 codes")):
        secret = draw_secrets(rules, 1, 3)[0]
        played = ga.play(rules, secret, 0)
        for turn in (1, 3):
            if turn >= len(played):
                continue
            guesses = np.array(played[:turn], dtype=np.int8)
            keys = np.array([ga.answer_key(rules, secret, g) for g in guesses], np.int64)
            rows.append({"job": f"one genetic decision, {label}, after {turn} guess"
                                f"{'es' if turn > 1 else ''} (median of 5)",
                         "seconds": median_time(lambda r=rules, g=guesses, k=keys:
                                                ga.choose_guess(r, g, k, 0), repeats=5),
                         "goal_s": 1.0})
    return rows, ["Warm: the genetic kernels compiled before timing."]


GROUPS["genetic"] = genetic


def bigtrees() -> tuple[list[dict], list[str]]:
    """Exact whole trees of Codebreaker 4-6 without the full table (issue 11, item 2)."""
    from keypeg.strategies import evaluate, find_strategy

    rules = find_rules("codebreaker-4")
    rows = []
    for name in ("entropy", "maxsize"):
        started = time.perf_counter()
        (tree,) = evaluate([find_strategy(name)], rules)
        rows.append({"job": f"exact {name} tree, codebreaker-4..6, all 100,000 secrets "
                            f"(total {tree.total:,}, one run)",
                     "seconds": time.perf_counter() - started, "goal_s": 600.0})
    return rows, ["Walked part by part (onestep.split_tree); the full table would be 9.3 GiB."]


GROUPS["bigtrees"] = bigtrees


def figures() -> tuple[list[dict], list[str]]:
    """The tree explorer's requests and `keypeg report` (issue 13, items 2 and 3)."""
    import os
    import random
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    from fastapi.testclient import TestClient

    from keypeg.solver.cached import shipped_tree
    from keypeg.store import Store
    from keypeg.web.app import create_app

    tmp = Path(tempfile.mkdtemp(prefix="keypeg-bench-"))
    first_view = "/api/tree?rules=MM(4,7)&strategy=optimal"

    def cold() -> None:
        # a new server: the shipped tree read from the package, indexed, the first node
        shipped_tree.cache_clear()
        client = TestClient(create_app(Store(tmp / f"cold-{random.random()}.db")))
        assert client.get(first_view).json()["total"] == 11228

    rows = [{"job": "explorer's first view of the MM(4,7) optimal tree, cold (new server: "
                    "tree read, indexed, node 0), median of 5",
             "seconds": median_time(cold, repeats=5), "goal_s": 0.3}]
    client = TestClient(create_app(Store(tmp / "warm.db")))
    assert client.get(first_view).status_code == 200
    rows.append({"job": "explorer's first view of the MM(4,7) optimal tree, warm (tree "
                        "cached), median of 21",
                 "seconds": median_time(lambda: client.get(first_view), repeats=21),
                 "goal_s": 0.3})
    nodes = random.Random(1).sample(range(2445), 21)
    it = iter(nodes * 2)
    rows.append({"job": "explorer: any node of the MM(4,7) optimal tree, warm, median of 21",
                 "seconds": median_time(lambda: client.get(
                     f"{first_view}&node={next(it)}"), repeats=21), "goal_s": 0.3})
    rows.append({"job": "explorer: a secret's path in the MM(4,7) optimal tree, warm",
                 "seconds": median_time(lambda: client.get(
                     "/api/tree/path?rules=MM(4,7)&strategy=optimal&secret=7654"), repeats=21),
                 "goal_s": 0.3})
    started = time.perf_counter()
    assert client.get("/api/tree?rules=classic&strategy=entropy").status_code == 200
    rows.append({"job": "explorer: the first view of classic's entropy tree, built on "
                        "request (one run)", "seconds": time.perf_counter() - started,
                 "goal_s": 1.0})
    started = time.perf_counter()
    assert client.get("/api/openings?rules=classic").json()["complete"]
    rows.append({"job": "the Lab's first-guess table, classic, computed (25 forced trees, 4 "
                        "optimal searches; one run; cached afterwards)",
                 "seconds": time.perf_counter() - started, "goal_s": 5.0})
    keypeg = str(Path(sys.executable).with_name("keypeg"))

    def report() -> None:
        db = tmp / f"report-{random.random()}.db"  # nothing solved before
        out = subprocess.run([keypeg, "report", "--rules", "classic", "--out",
                              str(tmp / "report")], capture_output=True,
                             env={**os.environ, "KEYPEG_DB": str(db)})
        assert out.returncode == 0, out.stderr[-300:]

    rows.append({"job": "keypeg report --rules classic, whole process, empty store, "
                        "median of 3", "seconds": median_time(report, repeats=3, warmup=0),
                 "goal_s": 30.0})
    return rows, ["In-process requests through the ASGI test client (no network); the "
                  "kernels compiled beforehand. The report: all nine figures, the optimum "
                  "after each first guess searched again (a fresh store)."]


GROUPS["figures"] = figures


#: Seconds an optimal hint is given in the bighints group before it counts as too slow.
LIMIT = 20.0
#: Random bulls-and-cows games whose positions past the opening book are timed.
OFF_BOOK_GAMES = 400
#: Slow positions found apart (random play rarely reaches them), timed live as well:
#: bulls-and-cows after three guesses (2.1 s live), the slowest of 4,000 random three-guess
#: games (the opening book holds it); MM(6,9) by hand.
KNOWN_SLOW = (("bulls-and-cows", ("8509=0B1W", "8095=0B1W", "2367=0B2W")),
              ("mm-6-9", ("174424=1B1W", "315156=2B2W", "655467=1B3W")))


def bighints() -> tuple[list[dict], list[str]]:
    """Hints in every preset (issue 11): the optimal guess for positions of at most 600
    candidates, searched live on a candidate view where the full table is not loaded (or
    over the budget), and the one-step strategies' hints in codebreaker-4 at any position.
    Positions: random guesses until at most 600 codes are left, then random candidates,
    against random secrets (fixed seed), each position timed once, after one untimed
    position of the same preset (so no timed call compiles a kernel)."""
    import statistics

    from keypeg.book import without_books
    from keypeg.errors import LimitExceededError, TimeLimitError
    from keypeg.game import GameState
    from keypeg.hints import optimal_hint, strategy_hint, strength_order
    from keypeg.limits import HINT_OPTIMAL_SECONDS, LIVE_OPTIMAL_CODES
    from keypeg.rules import PRESETS
    from keypeg.solver.endgame import probe_pass
    from keypeg.strategies import find_strategy

    rng = np.random.default_rng(11)
    rows: list[dict] = []
    notes: list[str] = []
    optimal = find_strategy("optimal", time_limit=LIMIT, max_candidates=None)
    one_step: list[float] = []
    late: dict[str, list[tuple[GameState, str | None]]] = {}
    booked: dict[str, list[GameState]] = {}  # timed positions the opening book answered
    timed: dict[str, int] = {}  # positions timed per preset
    for preset in PRESETS:
        rules = preset.rules
        space = get_space(rules)
        times: list[float] = []
        refused = timeouts = 0
        counts: list[int] = []
        # warm-up (its own generator: the timed positions stay the same)
        warm = np.random.default_rng(5)
        secret = np.array([warm.integers(space.size)], dtype=np.int32)
        state = GameState.start(space)
        while state.count > 600:
            g = int(warm.integers(space.size))
            state = state.after(space.code(g), space.feedback(int(space.responses(g, secret)[0])))
        if state.count > 2:
            for name in strength_order(rules) if preset.name == "codebreaker-4" else []:
                strategy_hint(state, name)
            with contextlib.suppress(TimeLimitError, LimitExceededError):
                optimal.next_guess(state)
            if space.size <= LIVE_OPTIMAL_CODES:  # (its kernel, as a server warms up)
                probe_pass(space, state.candidates[:3])
        for _game in range(4 if space.size < 10**6 else 1):
            secret = int(rng.integers(space.size))
            state = GameState.start(space)
            while not state.solved:
                if preset.name == "codebreaker-4":
                    started = time.perf_counter()
                    for name in strength_order(rules):
                        strategy_hint(state, name)
                    one_step.append(time.perf_counter() - started)
                if 2 < state.count <= 600:
                    guesses = [c.guess.index for c in state.history]
                    if optimal.on_book(space, state.candidates, guesses) is not None:
                        booked.setdefault(preset.name, []).append(state)
                    started = time.perf_counter()
                    best = None
                    try:
                        best = str(optimal.next_guess(state))
                        times.append(time.perf_counter() - started)
                        counts.append(state.count)
                        if times[-1] == max(times):
                            worst = " ".join(str(c) for c in state.history)
                    except TimeLimitError:
                        timeouts += 1
                        print(f"{preset.name}: over {LIMIT} s: {[str(c) for c in state.history]}",
                              flush=True)
                    except LimitExceededError:
                        refused += 1
                    if time.perf_counter() - started > HINT_OPTIMAL_SECONDS:
                        late.setdefault(preset.name, []).append((state, best))
                g = (int(rng.integers(space.size)) if state.count > 600
                     else int(state.candidates[rng.integers(state.count)]))
                r = int(space.responses(g, np.array([secret], dtype=np.int32))[0])
                state = state.after(space.code(g), space.feedback(r))
        timed[preset.name] = len(times)
        if times:
            rows.append({"job": f"optimal hint, {preset.name}, 3-600 candidates "
                                f"({len(times)} positions, up to {max(counts)}): median",
                         "seconds": statistics.median(times), "goal_s": 1.0})
            rows.append({"job": f"optimal hint, {preset.name}: worst",
                         "seconds": max(times), "goal_s": 1.0})
            if max(times) > 1.0:
                notes.append(f"{preset.name}: the slowest optimal hint ({max(times):.2f} s, "
                             f"{counts[times.index(max(times))]} candidates) was after {worst}.")
        if refused:
            notes.append(f"{preset.name}: no search runs in a game this size (more than "
                         f"600,000 codes): in {refused} positions the candidates' bounds "
                         "(`solver.endgame`) did not meet, and the hint named the best guess "
                         "found from the candidates alone (the `endgame` group measures "
                         "those hints).")
        if timeouts:
            notes.append(f"{preset.name}: the optimal search took over {LIMIT} s (given up) "
                         f"in {timeouts} of {timeouts + len(times)} positions.")
    for name, clues in KNOWN_SLOW:
        state = GameState.from_clues(find_rules(name), list(clues))
        started = time.perf_counter()
        best = None
        try:
            with without_books():
                best = str(optimal.next_guess(state))
            took = f"{time.perf_counter() - started:.2f} s"
        except TimeLimitError:
            took = f"over {LIMIT:g} s (given up)"
        booked_here = optimal.on_book(state.space, state.candidates,
                                      [c.guess.index for c in state.history]) is not None
        started = time.perf_counter()
        outcome = optimal_hint(state)
        if booked_here:
            took += (f" live; the opening book answers it ({outcome.optimal.guess}) in "
                     f"{1000 * (time.perf_counter() - started):.1f} ms")
        found = outcome.found
        if outcome.optimal is not None:
            said = f"found the optimum, {outcome.optimal.guess}"
        elif found is None:
            said = "named no best guess"
        else:
            said = (f"named {found.guess}" + (" (the optimal guess)" if found.guess == best
                                              else "")
                    + f", its total {100 * (found.total / found.lower - 1):.1f} % above the "
                    "proven bound")
        notes.append(f"{name}, a slow position found apart ({' '.join(clues)}, "
                     f"{state.count} candidates): the optimal search took {took}; within its "
                     f"{HINT_OPTIMAL_SECONDS:g} s the hint {said}.")
    # Positions past a hint's second, once every timing is taken: what the hint itself says
    # there (the best guess found, whether that is the optimal guess, and how far its total
    # is above the proven bound)
    for name, states in late.items():
        outcomes = [(optimal_hint(state), best) for state, best in states]
        proven = sum(o.optimal is not None for o, _ in outcomes)
        found = [(o.found, best) for o, best in outcomes if o.found is not None]
        text = (f"{name}: in {len(states)} position(s) past the hint's "
                f"{HINT_OPTIMAL_SECONDS:g} s in the timed run, the hint itself found the "
                f"optimum in {proven}, named the best guess found (by its search or from "
                f"the candidates alone) in {len(found)}")
        if found:
            known = [(f, best) for f, best in found if best is not None]
            right = sum(f.guess == best for f, best in known)
            gap = max(f.total / f.lower - 1 for f, _ in found)
            text += (f" (the optimal guess in {right} of the {len(known)} whose optimum the "
                     f"{LIMIT:g} s search found; its total at most {100 * gap:.1f} % above the "
                     "search's proven bound)")
        notes.append(text + f", and neither in {len(states) - proven - len(found)}.")
    # Bulls-and-cows past its opening book: many random games (random guesses or random
    # candidates, in a share drawn per game), every position of 3-600 codes the book does
    # not hold searched live
    off_book: list[float] = []
    space = get_space(find_rules("bulls-and-cows"))
    walk = np.random.default_rng(13)
    worst_off = ""
    for _game in range(OFF_BOOK_GAMES):
        secret = np.array([walk.integers(space.size)], dtype=np.int32)
        state = GameState.start(space)
        share = walk.random()
        while not state.solved:
            guesses = [c.guess.index for c in state.history]
            if 3 <= state.count <= 600 and optimal.on_book(space, state.candidates,
                                                           guesses) is None:
                started = time.perf_counter()
                optimal.next_guess(state)
                off_book.append(time.perf_counter() - started)
                if off_book[-1] == max(off_book):
                    worst_off = " ".join(str(c) for c in state.history)
            g = (int(walk.integers(space.size)) if walk.random() < share
                 else int(state.candidates[walk.integers(state.count)]))
            state = state.after(space.code(g), space.feedback(int(space.responses(g, secret)[0])))
    rows.append({"job": f"optimal hint, bulls-and-cows, positions past the opening book "
                        f"({len(off_book)} positions of {OFF_BOOK_GAMES} random games): worst",
                 "seconds": max(off_book), "goal_s": 1.0})
    notes.append(f"bulls-and-cows past the opening book: the slowest of {len(off_book)} "
                 f"positions ({max(off_book):.3f} s) was after {worst_off}; median "
                 f"{1000 * statistics.median(off_book):.1f} ms.")
    # The positions the opening book answered (keypeg.book), searched live without it
    for name, states in booked.items():
        live = []
        with without_books():
            for state in states:
                started = time.perf_counter()
                with contextlib.suppress(TimeLimitError):
                    optimal.next_guess(state)
                live.append(time.perf_counter() - started)
        notes.append(f"{name}: the opening book answered {len(states)} of the "
                     f"{timed[name]} timed positions; searched live "
                     f"without it they take up to {max(live):.2f} s (median "
                     f"{statistics.median(live):.2f} s).")
        rows.append({"job": f"optimal search without the book, {name}, the {len(states)} "
                            "booked positions: worst", "seconds": max(live)})
    rows.append({"job": f"one-step hints (all strategies), codebreaker-4, any position "
                        f"({len(one_step)} positions): median",
                 "seconds": statistics.median(one_step), "goal_s": 0.3})
    rows.append({"job": "one-step hints, codebreaker-4: worst", "seconds": max(one_step),
                 "goal_s": 0.3})
    return rows, notes


GROUPS["bighints"] = bighints


def cluster() -> tuple[list[dict], list[str]]:
    """Issue 12: MM(4,8) (its "same run") on a local Ray cluster (one worker per core)
    against the thread pool (two workers), medians of 3 warm runs each, taken in turns (this
    machine's speed drifts by 10-20 % over minutes: the two sides of one comparison run side
    by side in time); the goal is the thread pool's time plus 15 %. Starting and stopping
    Ray are timed apart."""
    from keypeg.solver import solve_optimal
    from keypeg.solver.cluster import Cluster

    rules = Rules(pegs=4, colors=8)
    solve_optimal(rules, workers=2)  # untimed: the kernels loaded
    threads: list[float] = []
    remote: list[float] = []
    started = time.perf_counter()
    with Cluster("local") as opened:
        start_s = time.perf_counter() - started
        result = solve_optimal(rules, cluster=opened)  # warm: each worker loads its table
        cpus = result.stats.get("cluster_cpus")
        for _ in range(3):
            for times, options in ((threads, {"workers": 2}), (remote, {"cluster": opened})):
                began = time.perf_counter()
                solve_optimal(rules, **options)
                times.append(time.perf_counter() - began)
        stopping = time.perf_counter()
    stop_s = time.perf_counter() - stopping
    on_threads, on_cluster = statistics.median(threads), statistics.median(remote)
    rows = [{"job": "optimal MM(4,8) = 20,471, thread pool (2 workers, median of 3)",
             "seconds": on_threads},
            {"job": f"optimal MM(4,8) = 20,471, local Ray cluster ({cpus} CPUs, warm, median "
                    "of 3; goal: the thread pool's time + 15 %)",
             "seconds": on_cluster, "goal_s": 1.15 * on_threads}]
    return rows, [f"Runs taken in turns, thread pool then cluster: "
                  f"{' / '.join(f'{a:.2f}' for a in threads)} s and "
                  f"{' / '.join(f'{b:.2f}' for b in remote)} s (Ray idle, its processes "
                  f"started, during the thread pool's). Starting the local Ray cluster took "
                  f"{start_s:.1f} s and stopping it {stop_s:.1f} s (not counted above); the "
                  "first run on it, which loads each worker's table, is not timed either."]


GROUPS["cluster"] = cluster


def mm56() -> tuple[list[dict], list[str]]:
    """Issue 12: the MM(5,6) optimum (36,721) by the whole command, on both cores, from
    scratch (no stored result, nothing resumed), with its peak memory (the command's
    resident set, from the operating system). About half an hour on this machine."""
    import json
    import resource
    import subprocess
    import sys

    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "keypeg", "optimal", "--pegs", "5", "--colors",
                          "6", "--json", "--recompute", "--no-resume"],
                         check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    total = json.loads(out.stdout)["total"]
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return ([{"job": f"optimal MM(5,6) = {total:,}, whole command on 2 cores (one run; peak "
                     f"memory {peak_mb:,.0f} MB)", "seconds": seconds}],
            ["Peak memory: the largest resident set of the command's process (ru_maxrss)."])


GROUPS["mm56"] = mm56


#: The Codebreaker 4-6 run of `cb4cluster` (in a process of its own): the optimum on a local
#: Ray cluster within the limit given, or how far it got.
CB4_SCRIPT = r"""
import json, sys, time
from keypeg.errors import TimeLimitError
from keypeg.rules import find_rules
from keypeg.solver import solve_optimal

rules = find_rules("codebreaker-4").with_max_guesses(None)
started = time.perf_counter()
try:
    r = solve_optimal(rules, cluster="local", time_limit=float(sys.argv[1]))
    out = {"total": r.total, "worst": r.worst, "first_guess": r.first_guess,
           "cpus": r.stats.get("cluster_cpus"), "parts_solved": r.stats.get("parts_solved")}
except TimeLimitError as e:
    out = {"best_total": e.best_total, "lower": e.lower}
out["seconds"] = time.perf_counter() - started
print(json.dumps(out))
"""


def _used_bytes() -> int:
    """Return the machine's memory in use (MemTotal - MemAvailable), in bytes."""
    info = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    return 1024 * (int(info["MemTotal"].split()[0]) - int(info["MemAvailable"].split()[0]))


def cb4cluster() -> tuple[list[dict], list[str]]:
    """Issue 12: the Codebreaker 4-6 optimum (100,000 codes, 412,240 found by
    `scripts/new_cells.py` on the thread pool) attempted on a local Ray cluster of this
    machine's cores, from scratch (nothing stored, nothing resumed). The driver holds the
    9.3 GiB table (KEYPEG_TABLE_BUDGET=12 GB); each worker solves every part on a table of
    that part's codes only (`roots.PartViews`), as one machine's workers could not each
    hold the game's. One run, within an hour; the machine's memory in use is sampled every
    half second (all processes: the driver, Ray and its workers) and its peak above what was
    in use before is reported."""
    import json
    import os
    import subprocess
    import sys
    import threading

    base = _used_bytes()
    peak = [base]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.5):
            peak[0] = max(peak[0], _used_bytes())

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    env = {**os.environ, "KEYPEG_TABLE_BUDGET": "12000000000"}
    try:
        out = subprocess.run([sys.executable, "-c", CB4_SCRIPT, "3600"], env=env,
                             capture_output=True, text=True)
    finally:
        done.set()
        watcher.join()
    if out.returncode != 0:
        raise RuntimeError(f"the Codebreaker 4-6 run failed:\n{out.stderr[-3000:]}")
    got = json.loads(out.stdout.strip().splitlines()[-1])
    peak_gb = (peak[0] - base) / 1e9
    if "total" in got:
        job = (f"optimal Codebreaker 4-6 = {got['total']:,} (worst {got['worst']}, first "
               f"guess {got['first_guess']}), local Ray cluster ({got['cpus']} CPUs), from "
               f"scratch, one run; peak memory {peak_gb:.1f} GB")
    else:
        job = (f"optimal Codebreaker 4-6 on a local Ray cluster: not within the hour (best "
               f"tree {got['best_total']}, lower bound {got['lower']}); peak memory "
               f"{peak_gb:.1f} GB")
    return ([{"job": job, "seconds": got["seconds"]}],
            ["Peak memory: the machine's memory in use (MemTotal - MemAvailable) at its "
             "highest during the run, less what was in use before it (the driver's table, "
             "Ray and its workers)."])


GROUPS["cb4cluster"] = cb4cluster


def positions() -> tuple[list[dict], list[str]]:
    """Issue 11: positions whose root has many first guesses, solved by `solve_optimal` on
    one worker and with the default options (two cores: the first guesses shared in turn,
    `parallel.share_root`), one run each (the opening book off), the same optimum
    required of both."""
    from keypeg.book import without_books
    from keypeg.game import GameState
    from keypeg.solver import solve_optimal

    cases = [("MM(6,9)", find_rules("mm-6-9"), ["174424=1B1W", "315156=2B2W", "655467=1B3W"]),
             ("bulls-and-cows", find_rules("bulls-and-cows"), ["3291=0B1W", "5089=0B2W"]),
             ("MM(4,9)", Rules(pegs=4, colors=9), ["1123=0B1W"]),
             ("MM(4,10)", Rules(pegs=4, colors=10), ["1122=0B1W"])]
    rows: list[dict] = []
    solve_optimal(Rules(pegs=3, colors=4), workers=2)  # untimed: the kernels loaded
    for label, rules, clues in cases:
        state = GameState.from_clues(rules, clues)
        totals = []
        with without_books():
            for workers, how in ((1, "one worker"), (None, "default (shared root)")):
                started = time.perf_counter()
                result = solve_optimal(state.space, state=state, workers=workers)
                took = time.perf_counter() - started
                totals.append(result.total)
                rows.append({"job": f"optimal after {' '.join(clues)}, {label} "
                                    f"({state.count} candidates) = {result.total:,}, {how}, "
                                    f"{result.stats['workers']} search(es), one run",
                             "seconds": took})
        if totals[0] != totals[1]:
            raise SystemExit(f"{label}: {totals[0]} alone but {totals[1]} shared")
    return rows, []


GROUPS["positions"] = positions


#: The MM(6,9) positions of bighints' seeded run whose optimal hint took a second or more
#: there (and one just under), in the order that run met them.
SLOW_HINTS = (("174424=1B1W", "315156=2B2W", "655467=1B3W"),
              ("138838=1B3W", "167474=0B1W", "432119=1B1W"),
              ("673377=0B1W", "885564=0B3W", "414581=0B3W", "675925=0B3W"),
              ("236165=0B2W", "236989=0B4W", "973366=1B1W", "328195=0B3W"))


#: The longest `slowhints` lets a position's whole optimal search run.
PROOF_SECONDS = 120


def slowhints() -> tuple[list[dict], list[str]]:
    """Issue 11: the optimal hint itself (`hints.optimal_hint`, a search of at most
    `HINT_OPTIMAL_SECONDS`) at MM(6,9)'s slow positions: how long it takes to answer, three
    times each (after one untimed hint elsewhere, so no timed call loads a kernel), and
    what it says: the optimum, the best guess its search had found (how far its total is
    above the optimum, where the whole search below finds it, and above the bound the
    hint's search had proven), or only that the optimum takes longer. Then the whole search
    at each (the optimum proven; at most `PROOF_SECONDS`), once: what the second is for."""
    import statistics

    from keypeg.errors import TimeLimitError
    from keypeg.game import GameState
    from keypeg.hints import optimal_hint
    from keypeg.limits import HINT_OPTIMAL_SECONDS
    from keypeg.solver.endgame import PROBES_FIRST_WORK, probe_pass
    from keypeg.solver.search import solve_optimal

    rules = find_rules("mm-6-9")
    warm = GameState.from_clues(rules, [*SLOW_HINTS[0], "356254=0B3W"])
    optimal_hint(warm)  # untimed, as is the pass over every code (a server's warm-up)
    probe_pass(warm.space, warm.candidates)
    rows: list[dict] = []
    hinted = []  # per position: its state, and each hint's time and outcome
    for clues in SLOW_HINTS:
        state = GameState.from_clues(rules, list(clues))
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            outcome = optimal_hint(state)
            runs.append((time.perf_counter() - started, outcome))
        hinted.append((clues, state, runs))
    proofs, optima = [], []
    for clues, state, _ in hinted:  # what the hint's second falls short of: the whole proof
        started = time.perf_counter()
        optimum = None  # the optimal total from the position on (the guesses played left out)
        try:
            result = solve_optimal(state.space, state=state, time_limit=PROOF_SECONDS)
            optimum = result.total - len(state.history) * state.count
            said = (f"total {result.total}, first guess "
                    f"{state.space.text(int(result.tree.guess[0]))}")
        except TimeLimitError:
            said = f"not within {PROOF_SECONDS} s"
        proofs.append({"job": f"optimal search to the end after {' '.join(clues)} "
                              f"({state.count} candidates): {said}",
                       "seconds": time.perf_counter() - started})
        optima.append(optimum)
    for (clues, state, runs), optimum in zip(hinted, optima, strict=True):
        said = []
        for _, outcome in runs:
            found = outcome.found
            if outcome.optimal is not None:
                said.append(f"the optimum {outcome.optimal.guess}")
            elif found is None:
                said.append("no guess")
            else:
                # (a tree the hint found below the proven optimum would be a wrong answer)
                assert optimum is None or found.total >= optimum, (found, optimum)
                above = ("" if optimum is None else
                         f"{100 * (found.total / optimum - 1):.1f} % above the optimum, ")
                said.append(f"{found.guess} ({above}{100 * (found.total / found.lower - 1):.1f}"
                            " % above the bound)")
        rows.append({"job": f"optimal hint after {' '.join(clues)} ({state.count} "
                            f"candidates): median of 3; it said: {'; '.join(said)}",
                     "seconds": statistics.median(t for t, _ in runs)})
    rows += proofs
    return rows, [f"The hint's search has {HINT_OPTIMAL_SECONDS:g} s; past it the hint says "
                  "that the optimum takes longer, with the best guess found: the search's, or "
                  "the candidates' own tree (`solver.endgame`) when that is better or the "
                  "search finished no first guess, and the higher of the two lower bounds "
                  "(the page then offers a longer search). On a view of more than "
                  f"{PROBES_FIRST_WORK / 1e6:g} million answers (candidates x codes: here the "
                  "213 and 551 candidates) every code is bounded as the first guess before "
                  "the search, and the best of the trees under the codes of the least bounds "
                  "counts among those found (`endgame.probe_pass`)."]


GROUPS["slowhints"] = slowhints


def endgame() -> tuple[list[dict], list[str]]:
    """Issue 11: the optimal hint in MM(8,8), where no search for the optimum can run
    (16.8 million codes): from the candidates (`solver.endgame`), the optimal guess where
    their bounds meet, else the best guess found with its bounds: the candidates' own
    tree's, or the better tree of a search among the candidates and a few other codes
    (`search.solve_among`, most of the second; it may meet the bound too). Positions:
    random guesses until at most 600 codes are left, then random candidates, against random
    secrets (fixed seed), each hint timed once after one untimed hint (no timed call loads
    a kernel); the candidates' bounds (untimed) say what the search among added."""
    import statistics

    from keypeg.game import GameState
    from keypeg.hints import optimal_hint
    from keypeg.solver.endgame import AMONG_PROBES, candidate_bounds, separator

    space = get_space(find_rules("mm-8-8"))
    rng = np.random.default_rng(13)
    warm = GameState.start(space).play("12345678", "87654321")
    optimal_hint(GameState(space, warm.history, candidates=warm.candidates[:50]))
    separator(get_space(find_rules("classic")), np.arange(3))  # (its one pass compiled)
    times: list[float] = []
    exact: list[int] = []  # candidates at the positions it proved
    gaps: list[tuple[float, int]] = []  # (total / lower - 1, candidates) elsewhere
    cuts: list[float] = []  # where the candidates' bounds do not meet: 1 - total / theirs
    among_proved = 0  # positions the search among proved (the candidates' bounds did not)
    for _game in range(GAMES_88):
        secret = space.code(int(rng.integers(space.size)))
        state = GameState.start(space)
        while not state.solved:
            if 2 < state.count <= 600:
                started = time.perf_counter()
                outcome = optimal_hint(state)
                times.append(time.perf_counter() - started)
                theirs = candidate_bounds(space, state.candidates)
                if outcome.optimal is not None:
                    exact.append(state.count)
                    if not theirs.exact:
                        among_proved += 1
                        cuts.append(1 - theirs.lower / theirs.total)
                elif outcome.found is not None:
                    found = outcome.found
                    gaps.append((found.total / found.lower - 1, state.count))
                    cuts.append(1 - found.total / theirs.total)
                else:
                    raise SystemExit(f"no guess after {[str(c) for c in state.history]}")
            g = (int(rng.integers(space.size)) if state.count > 600
                 else int(state.candidates[rng.integers(state.count)]))
            state = state.play(space.code(g), secret)
    rows = [{"job": f"optimal hint, MM(8,8), 3-600 candidates ({len(times)} positions of "
                    f"{GAMES_88} games): median", "seconds": statistics.median(times),
             "goal_s": 1.0},
            {"job": "optimal hint, MM(8,8): worst", "seconds": max(times), "goal_s": 1.0}]
    small = [n for n in exact if n <= 10] + [n for _, n in gaps if n <= 10]
    notes = [f"MM(8,8): the hint proved the optimal guess in {len(exact)} of {len(times)} "
             f"positions ({sum(n <= 10 for n in exact)} of the {len(small)} with at most 10 "
             f"candidates; the most candidates proved: {max(exact, default=0)}; "
             f"{among_proved} of them by the search among the candidates and "
             f"{AMONG_PROBES} other codes); elsewhere it named the best guess found, its "
             f"total a median {100 * statistics.median(g for g, _ in gaps):.1f} % (at most "
             f"{100 * max(g for g, _ in gaps):.1f} %) above the proven lower bound.",
             f"MM(8,8): in the {len(cuts)} positions where the candidates' own bounds do not "
             f"meet, the search among them and {AMONG_PROBES} other codes found a tree of "
             f"fewer guesses in {sum(c > 0 for c in cuts)}, a median "
             f"{100 * statistics.median(cuts):.1f} % (at most {100 * max(cuts):.1f} %) fewer "
             "guesses in all than the candidates' own tree."]
    return rows, notes


#: MM(8,8) games whose positions `endgame` times.
GAMES_88 = 20


GROUPS["endgame"] = endgame


def images() -> tuple[list[dict], list[str]]:
    """The search's canonical images (small sets keyed by their permuted copy) by pegs: the
    whole optimum on one worker with images (the default up to `IMAGE_PEGS` pegs) and
    without, median of 3 each, the same optimum required of both."""
    import statistics

    from keypeg.solver import search

    def without(*_args: object) -> np.ndarray:
        return np.zeros(0, dtype=np.int32)

    keep = search.IMAGE_PEGS, search._Search.__dict__["image_lookup"]
    rows: list[dict] = []
    search.solve_optimal(Rules(pegs=3, colors=4), workers=1)  # untimed: the kernels loaded
    try:
        for pegs, colors in ((6, 4), (7, 3)):
            rules = Rules(pegs=pegs, colors=colors)
            get_space(rules).table()
            totals = set()
            for how in ("with images", "without"):
                search.IMAGE_PEGS = 99
                search._Search.image_lookup = (staticmethod(without) if how == "without"
                                               else keep[1])
                times = []
                for _ in range(3):
                    started = time.perf_counter()
                    result = search.solve_optimal(rules, workers=1)
                    times.append(time.perf_counter() - started)
                    totals.add(result.total)
                rows.append({"job": f"MM({pegs},{colors}) optimum = {result.total:,}, one "
                                    f"worker, {how}: {result.stats['probes']:,} probes, "
                                    "median of 3", "seconds": statistics.median(times)})
            if len(totals) != 1:
                raise SystemExit(f"MM({pegs},{colors}): totals {sorted(totals)}")
    finally:
        search.IMAGE_PEGS, search._Search.image_lookup = keep[0], keep[1]
    return rows, [f"The search keys sets by their images up to {search.IMAGE_PEGS} pegs."]


GROUPS["images"] = images


def giantpart() -> tuple[list[dict], list[str]]:
    """Issue 12: what the second core buys where one part of the optimal first guess holds
    half the codes (MM(3,16): 123's 0B0W part, 2,197 of 4,096 codes, the three-peg series'
    shape). The whole optimum on one worker, on two (the default: an idle worker joins the
    biggest part still solved), on two with that team off, and checkpointed as `keypeg
    optimal` runs it; one run each, the same optimum required of all."""
    import tempfile

    from keypeg.solver import parallel, search
    from keypeg.solver.resume import Checkpoint
    from keypeg.store import Store

    rules = Rules(pegs=3, colors=16)
    search.solve_optimal(Rules(pegs=3, colors=5), workers=2)  # untimed: the kernels loaded
    get_space(rules).table()
    rows: list[dict] = []
    totals = set()
    keep = parallel.TEAM_MIN_CODES
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for how, options in (("one worker", {"workers": 1}),
                                 ("two workers (default)", {"workers": 2}),
                                 ("two workers, no team", {"workers": 2}),
                                 ("two workers, checkpointed (keypeg optimal)",
                                  {"workers": 2, "checkpoint": Checkpoint(
                                      Store(Path(tmp) / "k.db"), "giantpart")})):
                parallel.TEAM_MIN_CODES = 10 ** 9 if how.endswith("no team") else keep
                started = time.perf_counter()
                result = search.solve_optimal(rules, **options)
                seconds = time.perf_counter() - started
                totals.add(result.total)
                rows.append({"job": f"MM(3,16) optimum = {result.total:,}, {how}: "
                                    f"{result.stats['nodes']:,} sets expanded, one run",
                             "seconds": seconds})
    finally:
        parallel.TEAM_MIN_CODES = keep
    if len(totals) != 1:
        raise SystemExit(f"MM(3,16): totals {sorted(totals)}")
    return rows, ["Each worker has a memo of its own and reads the other's as it is written "
                  "(`parallel.link_peers`); before that, the sets one solved the other solved "
                  "again (two workers 22.99 s, 13.3 M sets; checkpointed 26.00 s; measured "
                  "2026-12-04 before the change). A part solved a guess at a time (checkpointed, "
                  "1,000 codes or more) is looked up in the memos and kept there, as the kernel "
                  "does for what it solves; before that, checkpointed took 17.08 s and 9.9 M "
                  "sets (2026-12-04), solving a set of 1,728 codes met under several first "
                  "guesses again each time."]


GROUPS["giantpart"] = giantpart


def splitcodes() -> tuple[list[dict], list[str]]:
    """Issue 12: what solving smaller parts a guess at a time costs (``KEYPEG_SPLIT_CODES``,
    so that a killed run loses less): bulls-and-cows checkpointed on two workers, as `keypeg
    optimal` runs it, with parts of 1,000 codes (the default), 300 and 150 split; a fresh
    store each, one run each, the same optimum required of all."""
    import tempfile
    from unittest import mock

    from keypeg.solver import search
    from keypeg.solver.resume import Checkpoint
    from keypeg.store import Store

    rules = find_rules("bulls-and-cows")
    search.solve_optimal(Rules(pegs=3, colors=5), workers=2)  # untimed: the kernels loaded
    get_space(rules).table()
    rows: list[dict] = []
    totals = set()
    with tempfile.TemporaryDirectory() as tmp:
        for codes in (1000, 300, 150):
            checkpoint = Checkpoint(Store(Path(tmp) / f"k{codes}.db"), "splitcodes")
            with mock.patch.dict(os.environ, {"KEYPEG_SPLIT_CODES": str(codes)}):
                started = time.perf_counter()
                result = search.solve_optimal(rules, workers=2, checkpoint=checkpoint)
                seconds = time.perf_counter() - started
            totals.add(result.total)
            rows.append({"job": f"bulls-and-cows optimum = {result.total:,}, checkpointed "
                                f"on 2 cores, parts of {codes:,} codes or more split: "
                                f"{result.stats['nodes']:,} sets expanded, one run",
                         "seconds": seconds})
    if len(totals) != 1:
        raise SystemExit(f"bulls-and-cows: totals {sorted(totals)}")
    return rows, ["Before the search's kernels were called through their entry points and "
                  "the checkpoint read its earlier keys once (2026-12-05, an ad-hoc timing "
                  "of the whole command), parts of 300 codes split took 14.2 s and of 150 "
                  "21.7 s: numba's dispatcher typed the search's arguments on every call "
                  "(about 100 us) and each part was looked up in SQLite."]


GROUPS["splitcodes"] = splitcodes


def coldstart() -> tuple[list[dict], list[str]]:
    """A fresh install as the README's first command makes it: the repository's committed
    state cloned and installed into a new virtual environment (no kernel compiled yet), the
    server started, and the page's first requests timed as soon as it answers (a classic
    game's first hint, while the server compiles its kernels in the background, then the
    hint after 1122); and, in a second fresh install, the first `keypeg optimal` (the search
    kernels compiled during that call). One run each, a fresh store each."""
    import json
    import socket
    import subprocess
    import tempfile
    import urllib.request

    root = Path(__file__).resolve().parent.parent

    def install(where: Path) -> tuple[Path, float]:
        subprocess.run(["git", "clone", "-q", str(root), str(where)], check=True)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(where / ".venv")], check=True)
        subprocess.run([str(where / ".venv" / "bin" / "pip"), "install", "-q", "."],
                       cwd=where, check=True)
        return where / ".venv" / "bin" / "keypeg", time.perf_counter() - started

    def request(url: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data,
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=300) as response:
            return json.load(response)

    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        keypeg, took = install(Path(tmp) / "serve")
        rows.append({"job": "fresh install: a new virtual environment, pip install . (the "
                            "wheels cached)", "seconds": took})
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "KEYPEG_DB": str(Path(tmp) / "serve.db")}
        started = time.perf_counter()
        server = subprocess.Popen([str(keypeg), "serve", "--port", str(port)], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    urllib.request.urlopen(base + "/", timeout=5).read()
                    break
                except OSError:
                    assert server.poll() is None, "the server ended"
                    time.sleep(0.1)
            rows.append({"job": "keypeg serve, fresh install: until the page answers",
                         "seconds": time.perf_counter() - started})
            game = request(base + "/api/games", {"rules": "classic"})["id"]
            started = time.perf_counter()
            hint = request(f"{base}/api/games/{game}/hints")
            rows.append({"job": "fresh install: the first hint of a classic game, asked as "
                                "soon as the page answers",
                         "seconds": time.perf_counter() - started})
            assert hint["candidates"] == 1296
            request(f"{base}/api/games/{game}/guesses", {"guess": "1122"})
            started = time.perf_counter()
            request(f"{base}/api/games/{game}/hints")
            rows.append({"job": "fresh install: the hint after 1122, right after",
                         "seconds": time.perf_counter() - started})
        finally:
            server.terminate()
            server.wait(timeout=30)
        keypeg, _ = install(Path(tmp) / "cli")
        env = {**os.environ, "KEYPEG_DB": str(Path(tmp) / "cli.db")}
        started = time.perf_counter()
        out = subprocess.run([str(keypeg), "optimal", "--rules", "mini", "--json"], env=env,
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr[-300:]
        rows.append({"job": "fresh install: the first keypeg optimal --rules mini (its "
                            "search kernels compiled), whole command",
                     "seconds": time.perf_counter() - started})
    return rows, ["The repository's last commit, cloned and installed as a user would; no "
                  "numba cache: each fresh install compiles its kernels once and caches them "
                  "on disk, so later starts are the warm figures of the `web` and `cli` "
                  "groups."]


GROUPS["coldstart"] = coldstart
