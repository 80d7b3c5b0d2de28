"""The optimal search on a Ray cluster (solver/cluster.py): the same optimum and the same
tree as the local thread pool. Ray starts once for the module (two CPUs); the tests that
need it are slow (CI runs them). Without Ray, --cluster is a one-sentence error."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from keypeg.cli import app
from keypeg.errors import TimeLimitError
from keypeg.published import published
from keypeg.rules import Rules
from keypeg.solver.search import solve_optimal
from tests import naive
from tests.pacing import unhurried_until

PUB = published()
KEYPEG = str(Path(sys.executable).parent / "keypeg")
FIELDS = ("guess", "parent", "response", "depth", "size")


def same_tree(a, b) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in FIELDS)


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def held(ray_instance):
    """The module's actors, started once at the first test that needs them (each a Ray
    worker importing keypeg and loading its kernels: several seconds a test) and closed by
    a test that needs the CPUs they hold (`cpus_free`)."""
    box = {}
    yield box
    if box.get("cluster") is not None:
        box.pop("cluster").close()


@pytest.fixture
def cluster(held):
    """The module's actors: each search sends its own spec under a key of its own, so a
    test's search does not read the one before's."""
    from keypeg.solver.cluster import Cluster

    if held.get("cluster") is None:  # joins the instance started above: one actor per CPU
        held["cluster"] = Cluster("local")
    return held["cluster"]


@pytest.fixture
def cpus_free(held):
    """The module's actors closed, for a command that starts actors of its own."""
    if held.get("cluster") is not None:
        held.pop("cluster").close()


def naive_total(rules: Rules) -> int:
    codes = list(itertools.product(range(rules.colors), repeat=rules.pegs))
    return int(naive.naive_optimal(codes, codes, rules.feedback))


def test_cluster_addresses_are_checked_in_a_sentence(monkeypatch):
    """An address nothing answers at had hung in Ray for ever (--max-seconds aside); auto
    with no cluster pointed at an --address flag keypeg has not; local joined a running
    `ray start --head` (Ray's 'num_cpus ... must not be provided'). A stand-in for ray
    records how keypeg calls it."""
    import socket

    from keypeg.errors import KeypegError
    from keypeg.solver import cluster as cluster_module

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    calls = []

    class FakeRay:
        @staticmethod
        def is_initialized():
            return False

        @staticmethod
        def init(**kwargs):
            calls.append(kwargs)
            if kwargs.get("address") == "auto":
                raise ConnectionError("Could not find any running Ray instance. Please "
                                      "specify the one to connect to by setting `--address`")
            raise RuntimeError("stop here")

    monkeypatch.setattr(cluster_module, "require_ray", lambda address=None: FakeRay)
    for address, why in ((f"127.0.0.1:{port}", "connection refused"),
                         ("nosuchhost.invalid:6379", "")):
        with pytest.raises(KeypegError, match=f"nothing answers at the Ray cluster address "
                                              f"'{address}' [(]{why}"):
            cluster_module.Cluster(address)
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    with pytest.raises(KeypegError, match="nothing answers"):
        cluster_module.Cluster("auto")
    assert calls == []  # (Ray was never asked)
    monkeypatch.delenv("RAY_ADDRESS")
    with pytest.raises(KeypegError, match="no Ray cluster runs here .* --cluster local") as info:
        cluster_module.Cluster("auto")
    assert "--address" not in str(info.value)
    with pytest.raises(KeypegError, match="stop here"):
        cluster_module.Cluster("local")
    assert calls[-1]["address"] == "local"  # a private instance, never a running one

def test_a_remote_part_reports_its_sets_as_it_runs(monkeypatch):
    """On a cluster the driver's sets stood still for the whole of a remote part (a
    review watched 220,268 sets and '92% done' for the last part of bulls-and-cows); the
    worker now asks its actor for the part's sets while it waits. A stand-in actor and
    ray: the part is done after 30 polls, its sets rising by 100 a poll."""
    from keypeg._kernels import slots
    from keypeg.solver import cluster as cluster_module
    from keypeg.solver.roots import PartLog

    monkeypatch.setattr(cluster_module, "SETS_SECONDS", 0.0)
    polls = {"n": 0}
    seen = []

    class Ref:
        def __init__(self, kind):
            self.kind = kind

    class FakeRay:
        @staticmethod
        def wait(refs, timeout=None):
            ref = refs[0]
            if ref.kind == "part":
                polls["n"] += 1
                seen.append(int(worker.counters[slots.N_SETS]))
                return ([ref], []) if polls["n"] > 30 else ([], [ref])
            return [ref], []

        @staticmethod
        def get(ref):
            if ref.kind == "sets":
                return 100 * polls["n"]
            added = np.zeros(slots.COUNTER_SLOTS, np.int64)
            added[slots.N_SETS] = 3_000
            return 7, False, None, added, 0

    class Method:
        def __init__(self, kind):
            self.kind = kind

        def remote(self, *args):
            return Ref(self.kind)

    class FakeActor:
        solve, sets_so_far, stop = Method("part"), Method("sets"), Method("stop")

    worker = cluster_module.RemoteWorker(FakeRay, FakeActor(), "k", None, PartLog(None))
    worker.counters[slots.N_SETS] = 500  # (an earlier part's)
    history = slots.History(np.zeros((1, 1), np.int8), np.zeros((1, 1), np.int8),
                            np.uint64(0))
    cost, rows = worker.solve(np.arange(3, dtype=np.int32), 2, 10, 1, history)
    assert cost == 7 and rows is None
    assert max(seen) > 500 and seen == sorted(seen)  # rising while the part ran
    assert worker.counters[slots.N_SETS] == 500 + 3_000  # then the part's own count

@pytest.mark.slow
@pytest.mark.parametrize("rules,expected", [
    (Rules(pegs=4, colors=5), PUB["ledger"]["totals"]["4"]["5"]),
    (Rules(pegs=3, colors=4, feedback="positional"), None),  # tests/naive.py
])
def test_cluster_gives_the_local_optimum_and_tree(cluster, rules, expected):
    expected = naive_total(rules) if expected is None else expected
    local = solve_optimal(rules, workers=2)
    remote = solve_optimal(rules, cluster=cluster)
    assert local.total == remote.total == expected
    assert same_tree(local.tree, remote.tree)
    remote.tree.replay()
    assert remote.stats["cluster_cpus"] == 2 and remote.stats["workers"] == 2
    assert remote.stats["nodes"] > 0  # the actors' work is counted


@pytest.mark.slow
@pytest.mark.parametrize("rules,options,split", [
    (Rules(pegs=4, colors=6), {}, 60),
    (Rules(pegs=4, colors=6), {"max_guesses": 5}, 60),
    (Rules(pegs=4, colors=6, feedback="positional"), {}, 12),  # its root's parts are small
])
def test_cluster_sends_the_parts_of_big_parts_as_tasks(cluster, monkeypatch, rules, options,
                                                       split):
    """A big part (by default at least SPLIT_MIN_CODES codes and a CPU's share of the
    root's) is split on the driver, a guess at a time,
    and the parts of its guesses go to the actors, some to the one the root lends: the same
    optimum and tree as the local thread pool."""
    import keypeg.solver.cluster as cluster_module
    import keypeg.solver.roots as roots_module

    local = solve_optimal(rules, workers=2, **options)
    monkeypatch.setattr(roots_module, "SPLIT_MIN_CODES", split)
    monkeypatch.setattr(cluster_module, "SPLIT_SHARE", 0.0)  # not only a CPU's share or more
    sent, lent = [], []
    solve, borrow = cluster_module.RemoteWorker.solve, roots_module.PartLog.borrow

    def watched_solve(self, part, depth, budget, kmax, history, dist=1):
        sent.append(dist)
        return solve(self, part, depth, budget, kmax, history, dist)

    def watched_borrow(self):
        worker = borrow(self)
        lent.append(worker is not None)
        return worker

    monkeypatch.setattr(cluster_module.RemoteWorker, "solve", watched_solve)
    monkeypatch.setattr(roots_module.PartLog, "borrow", watched_borrow)
    unhurried_until(monkeypatch, lent)  # (the split still runs when the root lends)
    remote = solve_optimal(rules, cluster=cluster, **options)
    assert local.total == remote.total and same_tree(local.tree, remote.tree)
    remote.tree.replay()
    assert max(sent) >= 2  # parts of parts went out as tasks
    assert any(lent) or rules.feedback != "blackwhite"


@pytest.mark.slow
@pytest.mark.parametrize("rules,options,most", [
    (Rules(pegs=4, colors=5), {}, None),
    (Rules(pegs=4, colors=5), {"max_guesses": 5}, None),
    (Rules(pegs=4, colors=6, feedback="positional"), {}, None),
    (Rules(pegs=4, colors=7, repeats=False), {"possible_only": True}, None),
    (Rules(pegs=4, colors=6), {}, 150),  # parts over 150 codes split on the driver first
])
def test_cluster_parts_on_views_of_their_own_give_the_local_tree(cluster, monkeypatch, rules,
                                                                  options, most):
    """Where the actors could not each hold the game's table (Codebreaker 4-6's), each part
    is solved on a view of its own codes, and a part whose view would pass an actor's
    share of the table budget is split on the driver first: the same optimum and tree as
    the local pool."""
    import keypeg.solver.cluster as cluster_module
    import keypeg.solver.roots as roots_module
    import keypeg.solver.search as search_module
    from keypeg.space import get_space

    local = solve_optimal(rules, workers=2, **options)
    monkeypatch.setattr(search_module, "_part_views", lambda space, cluster: True)
    sent = []
    if most is not None:
        monkeypatch.setattr(search_module, "_view_codes", lambda space, cluster: most)
        monkeypatch.setattr(roots_module, "SPLIT_MIN_CODES", 20)
        solve = cluster_module.RemoteWorker.solve

        def watched_solve(self, part, depth, budget, kmax, history, dist=1):
            sent.append((part.size, dist))
            return solve(self, part, depth, budget, kmax, history, dist)

        monkeypatch.setattr(cluster_module.RemoteWorker, "solve", watched_solve)
    remote = solve_optimal(rules, cluster=cluster, **options)
    if most is not None:  # the big parts went out as their parts
        assert any(size > most for size, _ in sent) and max(d for _, d in sent) >= 2
    assert local.total == remote.total and same_tree(local.tree, remote.tree)
    remote.tree.replay()
    full = get_space(rules).table_bytes
    sizes = cluster.ray.get([a.table_bytes.remote() for a in cluster.actors])
    assert all(0 < size < full for size in sizes)  # a part's table, not the game's


@pytest.mark.slow
def test_cluster_search_from_a_position_and_under_a_cap(cluster):
    from keypeg.game import GameState

    rules = Rules(pegs=4, colors=6)
    state = GameState.from_clues(rules, ["1122=1B0W"])
    local = solve_optimal(rules, state=state, workers=2)
    remote = solve_optimal(rules, state=state, cluster=cluster)
    assert local.total == remote.total and same_tree(local.tree, remote.tree)
    # worst case first: searches under a cap of 4, then 5 guesses (Knuth: 5 suffice)
    capped = solve_optimal(rules, cluster=cluster, objective="worst")
    local = solve_optimal(rules, workers=2, objective="worst")
    assert capped.worst == 5 and capped.total == local.total
    assert same_tree(local.tree, capped.tree)


@pytest.mark.slow
def test_cluster_memo_stays_within_a_tiny_budget(cluster, monkeypatch):
    monkeypatch.setenv("KEYPEG_MEMO_BUDGET", "600000")  # the driver's and 2 actors' memos
    result = solve_optimal(Rules(pegs=4, colors=5), cluster=cluster)
    assert result.total == PUB["ledger"]["totals"]["4"]["5"]
    assert result.stats["memo_resets"] > 0  # the actors' memos were full and started over
    sizes = cluster.ray.get([a.memo_bytes.remote() for a in cluster.actors])
    assert all(0 < size <= 600_000 // 3 for size in sizes)


@pytest.mark.slow
def test_cluster_search_stops_at_its_time_limit(cluster):
    # MM(4,8) takes about 9 s on this machine's two cores (MM(4,7), 2.5 s, no longer
    # outlasts a limit of a few seconds)
    with pytest.raises(TimeLimitError):
        solve_optimal(Rules(pegs=4, colors=8), cluster=cluster, time_limit=3)
    # the actors are free again: the next search runs
    assert solve_optimal(Rules(pegs=4, colors=4), cluster=cluster).total == (
        PUB["ledger"]["totals"]["4"]["4"])


def run_on_cluster(ray_instance, tmp_path, args: list[str]):
    """Run `keypeg ARGS --json --cluster auto` against the module's Ray instance and return
    its JSON output."""
    env = {**os.environ, "RAY_ADDRESS": ray_instance.get_runtime_context().gcs_address,
           "KEYPEG_DB": str(tmp_path / "k.db")}
    out = subprocess.run([KEYPEG, *args, "--json", "--cluster", "auto"], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.slow
def test_cli_joins_a_running_cluster(ray_instance, cpus_free, tmp_path):
    data = run_on_cluster(ray_instance, tmp_path, ["optimal", "--pegs", "4", "--colors", "5"])
    assert data["total"] == PUB["ledger"]["totals"]["4"]["5"]
    assert data["cluster"] == {"nodes": 1, "cpus": 2}


def _actor_part(codes):
    """MM(3,5) for actor bodies in this process (`cluster._PartSolver`): the spec a driver
    sends them, and the arguments of ``solve`` after its sequence number for `codes` at
    the root (depth, budget, answer bound, history)."""
    from keypeg._kernels import slots
    from keypeg._kernels.optimal import INF
    from keypeg.solver.roots import build_search
    from keypeg.solver.search import DEPTH_UNCAPPED, _Search

    rules = Rules(pegs=3, colors=5)
    options = {"possible_only": False, "capped": False, "first": -1, "symmetry": True,
               "trace": False, "n_max": 125, "memo_bytes": 1 << 24}
    search = build_search(_Search, rules, None, options)
    h = search.history_after([], codes)
    return (build_search, (_Search, rules, None, options)), (
        codes, DEPTH_UNCAPPED, int(INF), int(search.options[slots.OPT_ANSWERS]),
        (h.perms, h.colour_maps, int(h.played)))


def test_actors_pool_what_their_memos_proved():
    """Between first guesses each actor gets the sets of 16 codes or more the others proved
    (`_PartSolver.export_memo` / `merge_memo`, here on two actor bodies in this process):
    every set sent is the sender's, with its value, and is found in the receiver's memo
    after; nothing is sent twice, and a copy received is not sent back."""
    from keypeg._kernels import memo as km
    from keypeg._kernels import slots
    from keypeg.solver.cluster import _PartSolver
    from keypeg.solver.parallel import POOL_MIN_CODES

    a, b = _PartSolver(), _PartSolver()
    S = np.arange(125, dtype=np.int32)
    spec, args = _actor_part(S)
    total = a.solve("k", spec, 0, *args)[0]
    assert total == PUB["ledger"]["totals"]["3"]["5"]
    b.solve("k", spec, 1, *_actor_part(S[:20])[1])  # b's search exists, its memo without S
    assert km.memo_find(S, 0, b.search.mheads, b.search.ment, b.search.mpool) < 0
    rows, codes = a.export_memo("k", POOL_MIN_CODES)
    assert rows.shape[0] > 1 and (rows[:, slots.ENTRY_LENGTH] >= POOL_MIN_CODES).all()
    for row in rows:
        off, n = row[slots.ENTRY_OFFSET], row[slots.ENTRY_LENGTH]
        e = km.memo_find(codes[off:off + n], row[slots.ENTRY_GUESSES_LEFT], a.search.mheads,
                         a.search.ment, a.search.mpool)
        assert e >= 0 and a.search.ment[e, slots.ENTRY_VALUE] == row[slots.ENTRY_VALUE]
    assert b.merge_memo("k", POOL_MIN_CODES, (rows, codes)) == rows.shape[0]
    e = km.memo_find(S, 0, b.search.mheads, b.search.ment, b.search.mpool)
    assert e >= 0 and b.search.ment[e, slots.ENTRY_VALUE] == total
    assert a.export_memo("k", POOL_MIN_CODES)[0].shape[0] == 0  # sent already
    assert b.export_memo("k", POOL_MIN_CODES)[0].shape[0] <= 1  # a's not echoed back
    assert b.merge_memo("other search", POOL_MIN_CODES, (rows, codes)) == 0


def test_an_actor_runs_one_part_at_a_time():
    """An actor runs two calls at once (a part, and the `stop` that ends it). A search
    stopped at its time limit leaves its last part running while the next search's first
    part arrives: that part waits its turn, not replacing the search under the running one
    (which then ran with another search's table and crashed the actor, SIGSEGV); a part
    told to stop while it waited does not run and leaves the search in place."""
    import threading

    from keypeg.solver.cluster import _PartSolver

    a = _PartSolver()
    (build, options), args = _actor_part(np.arange(125, dtype=np.int32))
    running, go, built = threading.Event(), threading.Event(), []

    def held_search(*spec_args):
        search = build(*spec_args)
        run_part = search.run_part

        def held(*part_args):
            running.set()
            assert go.wait(60)
            return run_part(*part_args)

        search.run_part = held
        return search

    def next_search(*spec_args):
        built.append(spec_args)
        return build(*spec_args)

    out: dict[str, tuple] = {}
    first = threading.Thread(target=lambda: out.setdefault(
        "first", a.solve("first", (held_search, options), 0, *args)))
    first.start()
    assert running.wait(60)
    second = threading.Thread(target=lambda: out.setdefault(
        "second", a.solve("second", (next_search, options), 1, *args)))
    second.start()
    second.join(2.0)
    waited = not built  # (read before the first part goes on)
    go.set()
    first.join(60)
    second.join(60)
    assert waited, "the next search was built while a part of the last one ran"
    total = PUB["ledger"]["totals"]["3"]["5"]
    assert out["first"][:2] == (total, False) and out["second"][:2] == (total, False)
    assert a.key == "second" and len(built) == 1
    a.stop(2)
    cost, stopped, rows = a.solve("third", (next_search, options), 2, *args)[:3]
    assert stopped and rows is None and a.key == "second" and len(built) == 1
    a.release()


def test_a_closing_actor_stops_its_part_waits_for_it_and_runs_no_other():
    """`release` (the driver closing, as at Ctrl-C) stops the part running and returns once
    it has ended, so the actor is never killed inside a part (Ray then reported its worker
    dead "by an unexpected system error" on the driver's stderr); a part sent after it
    does not run."""
    import threading
    import time

    from keypeg._kernels import slots
    from keypeg.solver.cluster import _PartSolver

    a = _PartSolver()
    (build, options), args = _actor_part(np.arange(125, dtype=np.int32))
    running, ended = threading.Event(), threading.Event()

    def endless_search(*spec_args):
        search = build(*spec_args)
        run_part = search.run_part

        def endless(*part_args):  # a part that runs until it is told to stop
            running.set()
            deadline = time.monotonic() + 60
            while not search.counters[slots.STOP] and time.monotonic() < deadline:
                time.sleep(0.01)
            cost = run_part(*part_args)
            ended.set()
            return cost

        search.run_part = endless
        return search

    out: dict[str, tuple] = {}
    part = threading.Thread(target=lambda: out.setdefault(
        "part", a.solve("k", (endless_search, options), 0, *args)))
    part.start()
    assert running.wait(60)
    started = time.monotonic()
    a.release()
    assert ended.is_set() and time.monotonic() - started < 30
    part.join(30)
    cost, stopped, rows = out["part"][:3]
    assert stopped and rows is None and a.search is None
    cost, stopped, rows = a.solve("k", (build, options), 1, *args)[:3]
    assert stopped and rows is None and a.search is None


def test_actors_on_one_machine_read_each_other_s_memo(monkeypatch):
    """Actors on one machine keep their memos in shared memory and each reads the next
    one's as local workers do (`_PartSolver._share_memo` / `_link_peer`; here two actor
    bodies in this process): a set one proved is answered from it by the other, with its
    value, without being searched; the memory is gone once they are released."""
    from keypeg._kernels import slots
    from keypeg.solver import cluster as cluster_module
    from keypeg.solver.cluster import _PartSolver

    key = "peers-test-" + os.urandom(4).hex()
    a, b = _PartSolver(), _PartSolver()
    spec, args = _actor_part(np.arange(125, dtype=np.int32))
    try:
        total = a.solve(key, spec, 0, *args, 0, 2)[0]
        assert total == PUB["ledger"]["totals"]["3"]["5"]
        assert a.segments and not a.linked  # b has no memo yet
        b_total, _, rows, added, _ = b.solve(key, spec, 1, *args, 1, 2)
        assert b.linked and b_total == total and rows is not None
        assert added[slots.N_PEER_HITS] >= 1 and added[slots.N_PROBES] == 0
        # mapped by its reader, a's memo has no name left to leak if a process is killed
        assert not any(os.path.exists(f"/dev/shm/{seg.name}") for seg in a.segments)
        assert all(os.path.exists(f"/dev/shm/{seg.name}") for seg in b.segments)
        names = [seg.name for seg in a.segments + b.segments]
    finally:
        a.release()
        b.release()
    assert names and not any(os.path.exists(f"/dev/shm/{n}") for n in names)
    # where the shared memory has no room for the memos they stay private, and work
    monkeypatch.setattr(cluster_module, "_shm_free", lambda: 1 << 20)
    c = _PartSolver()
    try:
        assert c.solve(key + "-small", spec, 0, *args, 0, 2)[0] == total
        assert not c.segments and not c.linked
    finally:
        c.release()


@pytest.mark.slow
def test_a_private_cluster_runs_without_rays_token_line(tmp_path):
    """`--cluster local` starts its own Ray with token authentication on, as Ray would,
    without Ray's line about it on every run."""
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_AUTH_MODE", "RAY_ADDRESS")}
    env["KEYPEG_DB"] = str(tmp_path / "k.db")
    out = subprocess.run([KEYPEG, "optimal", "--pegs", "3", "--colors", "3", "--json",
                          "--cluster", "local"], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["total"] == PUB["ledger"]["totals"]["3"]["3"]
    assert "Token authentication" not in out.stderr, out.stderr


def test_cluster_without_ray_is_one_sentence(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    result = CliRunner().invoke(app, ["optimal", "--pegs", "3", "--colors", "3",
                                      "--cluster", "local"])
    assert result.exit_code == 2
    message = result.output.strip()
    assert "pip install keypeg[cluster]" in message and message.count("\n") == 0
    with pytest.raises(Exception, match=r"keypeg\[cluster\]"):
        solve_optimal(Rules(pegs=3, colors=3), cluster="local")


@pytest.mark.slow
def test_evaluate_walks_the_first_guess_parts_on_the_cluster(cluster, monkeypatch):
    """keypeg evaluate --cluster: each one-step strategy's tree, its first guess's parts
    walked on the actors, is the local tree (classic's published totals), also under a
    table budget that makes the actors split their parts again."""
    from keypeg.rules import find_rules
    from keypeg.strategies import evaluate, find_strategy

    classic = find_rules("classic")
    pub = PUB["evaluate"]["classic"]["all_probes"]
    for name in ("maxsize", "entropy"):
        strategy = find_strategy(name)
        remote = cluster.split_tree(strategy, classic)
        (local,) = evaluate([strategy], classic)
        assert same_tree(remote, local)
        assert remote.total == pub[name]["total"]
    possible = find_strategy("parts", possible_only=True)
    assert same_tree(cluster.split_tree(possible, classic), evaluate([possible], classic)[0])


@pytest.mark.slow
def test_cli_evaluate_on_a_running_cluster(ray_instance, cpus_free, tmp_path):
    rows = run_on_cluster(ray_instance, tmp_path,
                          ["evaluate", "--rules", "classic", "-s", "all"])
    pub = PUB["evaluate"]["classic"]["all_probes"]
    assert {r["strategy"]: r["total"] for r in rows} == {n: pub[n]["total"] for n in pub}
    assert all(r["cluster"] == {"nodes": 1, "cpus": 2} for r in rows)


def test_evaluate_cluster_refuses_what_it_cannot_do():
    for args, words in ((["-s", "entropy", "--sample", "10"], "--sample"),
                        (["-s", "genetic"], "one-step")):
        result = CliRunner().invoke(app, ["evaluate", "--rules", "classic", *args,
                                          "--cluster", "local"])
        assert result.exit_code == 2 and words in result.output, result.output


def test_a_peer_memo_made_but_not_sized_yet_is_left_for_the_next_part():
    """Its owner creates a segment and sizes it in two steps: an actor opening it between
    them met an empty file, and mmap's ValueError ended the search (seen once in the suite:
    'cannot mmap an empty file'). It is read as not there yet."""
    from keypeg.solver.cluster import _MEMO_FIELDS, _PartSolver, _segment

    key = "empty-peer-" + os.urandom(3).hex()
    path = f"/dev/shm/{_segment(key, 0, _MEMO_FIELDS[0])}"
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))  # made, not sized
    b = _PartSolver()
    spec, args = _actor_part(np.arange(125, dtype=np.int32))
    try:
        total = b.solve(key, spec, 1, *args, 1, 2)[0]
        assert total == PUB["ledger"]["totals"]["3"]["5"] and not b.linked
    finally:
        b.release()
        os.unlink(path)
