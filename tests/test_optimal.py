import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg.errors import KeypegError, LimitExceededError
from keypeg.game import GameState
from keypeg.published import published
from keypeg.rules import Rules
from keypeg.solver import solve_optimal
from keypeg.solver.cached import optimal, shipped_tree
from keypeg.solver.ledger import LEDGER_CELLS, run_ledger, two_peg_closed_form
from keypeg.space import get_space
from keypeg.store import Store
from tests import naive

CLASSIC = Rules(pegs=4, colors=6)
PUB = published()
TINY = [
    Rules(pegs=2, colors=3),
    Rules(pegs=3, colors=2),
    Rules(pegs=2, colors=4),
    Rules(pegs=3, colors=3),
    Rules(pegs=3, colors=4, repeats=False),
    Rules(pegs=2, colors=3, feedback="positional"),
    Rules(pegs=3, colors=2, feedback="positional"),
    Rules(pegs=2, colors=2, blanks=True),
]


def naive_total(rules, **kw):
    space = get_space(rules)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    return naive.naive_optimal(codes, codes, rules.feedback, **kw)


@pytest.mark.parametrize("rules", TINY, ids=lambda r: r.key)
def test_optimum_equals_exhaustive_search(rules):
    result = solve_optimal(rules)
    assert result.total == naive_total(rules)
    result.tree.replay()
    assert solve_optimal(rules, symmetry=False).total == result.total
    po = solve_optimal(rules, possible_only=True)
    assert po.total == naive_total(rules, possible_only=True)
    po.tree.replay()
    # every guess of a possible-only tree could be the secret when played
    space = get_space(rules)
    state_sets = {0: space.all()}
    for i in range(1, po.tree.nodes):
        p = int(po.tree.parent[i])
        state_sets[i] = space.filter(state_sets[p], int(po.tree.guess[p]),
                                     int(po.tree.response[i]))
    for i, cands in state_sets.items():
        assert int(po.tree.guess[i]) in set(cands.tolist())


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(TINY[:6]), st.integers(2, 4))
def test_depth_cap_and_worst_case_equal_exhaustive(rules, cap):
    want = naive_total(rules, depth=cap)
    if math.isinf(want):
        with pytest.raises(KeypegError, match="no strategy"):
            solve_optimal(rules, max_guesses=cap)
    else:
        result = solve_optimal(rules, max_guesses=cap)
        assert result.total == want and result.worst <= cap
        result.tree.replay()
    worst = solve_optimal(rules, objective="worst")
    lowest = next(d for d in range(1, 10) if not math.isinf(naive_total(rules, depth=d)))
    assert worst.worst == lowest
    assert worst.total == naive_total(rules, depth=lowest)


def test_classic_optimum():
    pub = PUB["optimal"]["classic"]
    result = solve_optimal(CLASSIC)
    assert (result.total, result.first_guess, result.histogram, result.worst) == (
        pub["total"], pub["first_guess"], pub["histogram"], pub["worst"])
    result.tree.replay()
    capped = solve_optimal(CLASSIC, max_guesses=5)
    assert capped.total == pub["max5_total"] and capped.worst == 5
    worst = solve_optimal(CLASSIC, objective="worst")
    assert (worst.worst, worst.total) == (5, pub["max5_total"])


@pytest.mark.slow
@pytest.mark.parametrize("first", ["1111", "1112", "1122", "1123", "1234"])
def test_classic_optimum_after_each_first_guess(first):
    pub = PUB["optimal"]["classic"]["after_first_guess"][first]
    assert solve_optimal(CLASSIC, first=first).total == pub["total"]
    if pub["max5_total"] is None:
        with pytest.raises(KeypegError, match="within 5 guesses"):
            solve_optimal(CLASSIC, first=first, max_guesses=5)
    else:
        assert solve_optimal(CLASSIC, first=first, max_guesses=5).total == pub["max5_total"]


def test_fixed_first_guess_is_played():
    result = solve_optimal(CLASSIC, first="1122")
    want = PUB["optimal"]["classic"]["after_first_guess"]["1122"]["total"]
    assert result.first_guess == "1122" and result.total == want


def test_solving_from_a_state():
    state = GameState.start(CLASSIC).after("1122", "1B1W")
    result = solve_optimal(CLASSIC, state=state)
    want = naive.naive_filter(naive.all_codes(4, 6), [((0, 0, 1, 1), (1, 1))], "blackwhite")
    assert result.tree.secrets == len(want) and result.tree.depth[0] == 2
    result.tree.replay(secrets=state.candidates)
    # the optimal tree from the root, followed after 1122 / 1B1W, costs no less
    assert result.total <= solve_optimal(CLASSIC, first="1122").tree.total


def test_time_limit():
    with pytest.raises(LimitExceededError, match="did not finish"):
        solve_optimal(Rules(pegs=4, colors=7), time_limit=0.2)


def test_two_peg_closed_form():
    row = PUB["ledger"]["totals"]["2"]
    for c in range(3, 17):
        assert two_peg_closed_form(c) == row[str(c)]
    # the form gives 7 at c = 2, but MM(2,2) needs 8 (no code separates the others)
    assert solve_optimal(Rules(pegs=2, colors=2)).total == row["2"] == 8


def test_fast_ledger_cells():
    cells = run_ledger(max_seconds=20, max_codes=300)
    assert len(cells) == 28 and all(c["status"] == "ok" for c in cells)


@pytest.mark.slow
def test_every_published_ledger_cell():
    cells = run_ledger(max_seconds=600)
    assert [c for c in cells if c["status"] != "ok"] == []
    assert len(cells) == len(LEDGER_CELLS) == 37


def test_shipped_trees_replay():
    for pegs, colors in ((4, 6), (4, 7)):
        tree = shipped_tree(pegs, colors)
        assert tree is not None and tree.total == PUB["ledger"]["totals"][str(pegs)][str(colors)]
        tree.replay()


def test_store_makes_the_second_answer_instant(tmp_path):
    store = Store(tmp_path / "k.db")
    rules = Rules(pegs=3, colors=5)
    first, cached = optimal(rules, store=store)
    assert not cached
    again, cached = optimal(rules, store=store)
    want = PUB["ledger"]["totals"]["3"]["5"]
    assert cached and again.total == first.total == want
    assert np.array_equal(again.tree.guess, first.tree.guess)
    fresh, cached = optimal(rules, store=store, recompute=True)
    assert not cached and fresh.total == want
    shipped, cached = optimal(CLASSIC, store=store)
    assert cached and shipped.total == PUB["optimal"]["classic"]["total"]


def test_worst_case_optima_match_known_values():
    # seed 002: Jaeger and Peczarski computed W(3,c) = 3, 4, 4 for c = 2, 3, 4
    assert [solve_optimal(Rules(pegs=3, colors=c), objective="worst").worst
            for c in (2, 3, 4)] == [3, 4, 4]
    # Chen and Lin (2004): floor(c/2) + 2 guesses are necessary and sufficient for MM(2,c)
    for c in range(2, 11):
        assert solve_optimal(Rules(pegs=2, colors=c), objective="worst").worst == c // 2 + 2
    # Knuth: five guesses always suffice for MM(4,6), four do not
    assert solve_optimal(CLASSIC, objective="worst").worst == 5


@pytest.mark.parametrize("rules,clues", [
    (CLASSIC, []),
    (CLASSIC, ["1122=1B0W"]),
    (Rules(pegs=3, colors=5, feedback="positional"), []),
    (Rules(pegs=4, colors=4), []),
])
def test_parallel_root_equals_serial_on_small_games(parallel_root, rules, clues):
    """Workers are forced (they only start by default from 2,000 codes, and for roots of
    few first guesses): the optimum and the whole tree are the serial search's."""
    state = GameState.from_clues(rules, clues)
    serial = solve_optimal(rules, state=state, workers=1)
    parallel = solve_optimal(rules, state=state, workers=2)
    assert parallel.stats["workers"] == 2 and serial.stats["workers"] == 1
    assert parallel.total == serial.total
    for a, b in ((parallel.tree, serial.tree),):
        assert np.array_equal(a.guess, b.guess) and np.array_equal(a.parent, b.parent)
        assert np.array_equal(a.response, b.response) and a.histogram == b.histogram
    parallel.tree.replay(secrets=state.candidates)


@pytest.mark.parametrize("rules,clues,workers", [
    (CLASSIC, [], 2),
    (CLASSIC, [], 3),
    (Rules(pegs=3, colors=5, feedback="positional"), [], 2),
    (Rules(pegs=4, colors=5, repeats=False), [], 2),
    (Rules(pegs=4, colors=4), ["1122=0B1W"], 3),
])
def test_idle_workers_join_the_parts_still_solved(parallel_root, monkeypatch, rules, clues,
                                                  workers):
    """Once every part of a first guess has a worker, an idle one joins the biggest part
    still solved, the part's probes dealt out to them as they come free (`PartTask.share`,
    `slots.team_array`); the part's cost found by the team is recorded in a memo for the
    tree. Joining allowed for every part of three codes or more, and the first part of all
    held back until every worker has joined it: the optimum and whole tree are still the
    serial search's."""
    import time

    from keypeg.solver import parallel
    from keypeg.solver.search import _Search

    monkeypatch.setattr(parallel, "TEAM_MIN_CODES", 3)
    teams = []
    tasks: dict = {}
    share = parallel.PartTask.share

    def spy(task, search):
        share(task, search)
        tasks.setdefault("first", task)  # the biggest part of the first first guess
        teams.append((id(task), len(task.sharers)))
    monkeypatch.setattr(parallel.PartTask, "share", spy)
    run_part = _Search.run_part

    def late(self, *args, **kwargs):
        task = tasks.get("first")
        if task is not None and self is task.sharers[0] and "held" not in tasks:
            tasks["held"] = task
            until = time.monotonic() + 10
            while len(task.sharers) < workers and time.monotonic() < until:
                time.sleep(0.002)
        return run_part(self, *args, **kwargs)
    monkeypatch.setattr(_Search, "run_part", late)
    state = GameState.from_clues(rules, clues)
    serial = solve_optimal(rules, state=state, workers=1)
    got = solve_optimal(rules, state=state, workers=workers)
    assert got.stats["workers"] == workers and got.total == serial.total
    assert max(n for _, n in teams) == workers  # some part had all of them
    for f in ("guess", "parent", "response", "depth", "size"):
        assert np.array_equal(getattr(got.tree, f), getattr(serial.tree, f))
    got.tree.replay(secrets=state.candidates)


def test_a_loose_cap_builds_only_the_minimax_tree(monkeypatch):
    """With a cap the minimax tree's depth leaves loose (MM(4,6)'s ten rows: it needs 5) no
    other one-step tree is built, and the optimum is the uncapped one (Koyama and Lai's);
    with a cap it leaves close (5 guesses) the other two are built too, and the optimum is
    the capped one (5,626, worst 5)."""
    from keypeg.solver import search as search_module

    built = []
    trees = search_module._heuristic_trees

    def watched(space, state, possible_only, first, names, weights=None):
        built.extend(names)
        return trees(space, state, possible_only, first, names, weights)

    monkeypatch.setattr(search_module, "_heuristic_trees", watched)
    loose = solve_optimal(CLASSIC, max_guesses=10, workers=1)
    assert built == ["maxsize"] and loose.total == PUB["optimal"]["classic"]["total"]
    built.clear()
    close = solve_optimal(CLASSIC, max_guesses=5, workers=1)
    assert sorted(built) == ["entropy", "maxsize", "parts"]
    assert (close.total, close.worst) == (PUB["optimal"]["classic"]["max5_total"], 5)


def test_workers_pool_what_they_proved_between_first_guesses(parallel_root, monkeypatch):
    """A set one worker solved is in the other's memo after `pool_memos` (the same value and
    guess, so the other solves it again without expanding a set), sets of fewer than
    POOL_MIN_CODES codes stay behind, nothing is sent twice; the root pools them after each
    first guess."""
    from keypeg._kernels import memo as km
    from keypeg._kernels import optimal as kopt
    from keypeg._kernels import slots
    from keypeg.solver import parallel
    from keypeg.solver.search import DEPTH_UNCAPPED, _Search

    space = get_space(CLASSIC)
    made = [_Search(space, possible_only=False, capped=False, first=-1, symmetry=True,
                    trace=False, n_max=space.size, memo_bytes=64 << 20) for _ in range(2)]
    a, b = made
    state = GameState.from_clues(CLASSIC, ["1122=1B0W"])
    S = np.ascontiguousarray(state.candidates, dtype=np.int32)
    guesses = [space.index("1122")]
    cost = a.run(S, DEPTH_UNCAPPED, int(kopt.INF), guesses)
    used = int(a.mmeta[slots.MEMO_USED_ENTRIES])
    lengths = a.ment[:used, km.ENTRY_LENGTH]
    assert (lengths < parallel.POOL_MIN_CODES).any()  # small sets to leave behind
    marks: dict = {}
    parallel.pool_memos(made, marks)
    got = int(b.mmeta[slots.MEMO_USED_ENTRIES])
    assert got == int((lengths >= parallel.POOL_MIN_CODES).sum()) > 0
    assert (b.ment[:got, km.ENTRY_LENGTH] >= parallel.POOL_MIN_CODES).all()
    assert tuple(km.lookup_guess(S, 0, b.mheads, b.ment, b.mpool)) == tuple(
        km.lookup_guess(S, 0, a.mheads, a.ment, a.mpool))
    parallel.pool_memos(made, marks)  # nothing new: nothing sent
    assert int(b.mmeta[slots.MEMO_USED_ENTRIES]) == got
    assert int(a.mmeta[slots.MEMO_USED_ENTRIES]) == used
    assert b.run(S, DEPTH_UNCAPPED, int(kopt.INF), guesses) == cost
    assert int(b.counters[slots.N_SETS]) == 0
    # the root pools its workers' memos after each first guess
    calls = []
    pool = parallel.pool_memos
    monkeypatch.setattr(parallel, "pool_memos",
                        lambda workers, marks: calls.append(len(workers)) or pool(workers, marks))
    result = solve_optimal(CLASSIC, workers=2)
    assert result.total == 5625 and len(calls) >= 2 and set(calls) == {2}


def test_a_worker_reads_what_its_peer_proved():
    """A search linked to a peer (`_Search.read_peer`) takes a set the peer proved from the
    peer's memo (`memo.peer_find`: the same value and guess as the peer's own lookup) and
    scores no probe, nor when the tree is built (`_Search.guess_for`); a peer memo starting
    over (MEMO_SEQ odd) answers nothing; and two linked
    workers of the parallel root find the serial search's optimum and tree, reading each
    other's memos as they go."""
    from keypeg._kernels import memo as km
    from keypeg._kernels import optimal as kopt
    from keypeg._kernels import slots
    from keypeg.solver import parallel
    from keypeg.solver.search import DEPTH_UNCAPPED, _Search

    space = get_space(CLASSIC)
    a, b = [_Search(space, possible_only=False, capped=False, first=-1, symmetry=True,
                    trace=False, n_max=space.size, memo_bytes=64 << 20) for _ in range(2)]
    parallel.link_peers([a, b])
    state = GameState.from_clues(CLASSIC, ["1122=1B0W"])
    S = np.ascontiguousarray(state.candidates, dtype=np.int32)
    guesses = [space.index("1122")]
    cost = a.run(S, DEPTH_UNCAPPED, int(kopt.INF), guesses)
    assert int(a.counters[slots.N_SETS]) > 0 and int(a.counters[slots.N_PEER_HITS]) == 0
    h = np.uint64(km.memo_hash(S, 0))
    value, guess = km.lookup_guess(S, 0, a.mheads, a.ment, a.mpool)
    assert guess >= 0 and value == cost
    assert tuple(km.peer_find(S, 0, h, a.mheads, a.ment, a.mpool, a.mmeta)) == (value, guess)
    a.mmeta[slots.MEMO_SEQ] += 1  # starting over: nothing read from it counts
    assert km.peer_find(S, 0, h, a.mheads, a.ment, a.mpool, a.mmeta)[1] == -2
    a.mmeta[slots.MEMO_SEQ] += 1
    assert b.run(S, DEPTH_UNCAPPED, int(kopt.INF), guesses) == cost
    # (S itself counted as a set the cheap checks left open, but no probe scored)
    assert int(b.counters[slots.N_PROBES]) == 0 and int(b.counters[slots.N_PEER_HITS]) == 1
    # building the tree, S's guess comes from the peer's memo: S is not solved again
    assert b.known_guess(S, DEPTH_UNCAPPED) == -1 and b.peer_guess(S, DEPTH_UNCAPPED) == guess
    assert b.guess_for(S, DEPTH_UNCAPPED, b.history_after(guesses, S)) == guess
    assert int(b.counters[slots.N_PROBES]) == 0
    assert b.known_guess(S, DEPTH_UNCAPPED) == guess  # recorded: the compiled rebuild reads it
    # the parallel root: both workers read each other, and the result is the serial one
    rules = Rules(pegs=3, colors=8)
    serial = solve_optimal(rules, workers=1)
    both = solve_optimal(rules, workers=2)
    assert both.stats["workers"] == 2 and both.stats["peer_hits"] > 0
    assert both.total == serial.total == PUB["ledger"]["totals"]["3"]["8"]
    for f in ("guess", "parent", "response", "depth", "size"):
        assert np.array_equal(getattr(both.tree, f), getattr(serial.tree, f))


def test_a_memo_read_by_a_peer_while_written_gives_only_what_was_recorded():
    """One thread records sets in a small memo that starts over again and again (a lower
    bound first, then the exact value), another looks them up as a peer meanwhile: it keeps
    finding them across thousands of restarts (a memo left marked as starting over would
    answer nothing), and every answer is one that was recorded. (A race the sequence lock
    and the order of the writes guard against is too rare to be caught here: those are
    checked one by one above.)"""
    import threading

    from numba import njit

    from keypeg._kernels import memo as km
    from keypeg._kernels import slots

    heads = np.full(64, -1, dtype=np.int64)
    ment = np.zeros((48, slots.ENTRY_COLUMNS), dtype=np.int64)
    pool = np.zeros(48 * 6, dtype=np.int32)
    meta = np.zeros(4, dtype=np.int64)
    stats = np.zeros(slots.COUNTER_SLOTS, dtype=np.int64)
    n_sets, rounds = 500, 300

    @njit(nogil=True)
    def the_set(i):  # 3 to 6 codes, a function of i
        m = 3 + i % 4
        return np.arange(7 * i, 7 * i + m).astype(np.int32)

    @njit(nogil=True)
    def write(heads, ment, pool, meta, stats, n_sets, rounds):
        for _ in range(rounds):
            for i in range(n_sets):
                S = the_set(i)
                km.memo_store(S, 0, 1000 + i - 5, -1, heads, ment, pool, meta, stats)
                km.memo_store(S, 0, 1000 + i, i % 17, heads, ment, pool, meta, stats)

    @njit(nogil=True)
    def read(heads, ment, pool, meta, n_sets, tries):
        found = 0
        wrong = 0
        for t in range(tries):
            i = (t * 7919) % n_sets
            S = the_set(i)
            value, guess = km.peer_find(S, 0, km.memo_hash(S, 0), heads, ment, pool, meta)
            if guess == -2:
                continue
            found += 1
            if not ((guess == i % 17 and value == 1000 + i)
                    or (guess == -1 and (value == 1000 + i - 5 or value == 1000 + i))):
                wrong += 1
        return found, wrong

    write(heads, ment, pool, meta, stats, 1, 1)  # compiled before the threads start
    read(heads, ment, pool, meta, 1, 1)
    writer = threading.Thread(target=write, args=(heads, ment, pool, meta, stats, n_sets,
                                                  rounds))
    writer.start()
    results = []
    while writer.is_alive():
        results.append(read(heads, ment, pool, meta, n_sets, 20000))
    writer.join()
    assert stats[slots.N_MEMO_RESETS] > 1000 and meta[slots.MEMO_SEQ] % 2 == 0
    assert sum(f for f, _ in results) > 1000  # it did find what was being written
    assert sum(w for _, w in results) == 0


def test_a_root_of_many_first_guesses_is_shared_by_the_workers(monkeypatch):
    """Workers asked for, the root's parts go to them when it has at most
    PARALLEL_ROOT_GUESSES first guesses; past that they share the first guesses in turn
    (`parallel.share_root`), each with a memo of its own: the same optimum and tree as one
    search, with two workers or three; by default from SHARED_ROOT_MIN_CODES codes on;
    weighted, one search runs instead."""
    from keypeg.solver import search

    calls = []

    def spy(name, real):
        def wrapped(*args, **kwargs):
            calls.append(name)
            return real(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(search, "solve_root", spy("parts", search.solve_root))
    monkeypatch.setattr(search, "share_root", spy("shared", search.share_root))
    state = GameState.from_clues(CLASSIC, ["1122=1B0W"])
    # 256 codes; 37 first guesses have bounds under the one-step trees' best total
    serial = solve_optimal(CLASSIC, state=state, workers=1)
    assert calls == []
    for most, workers, way in ((36, 2, "shared"), (37, 2, "parts"), (36, 3, "shared")):
        calls.clear()
        monkeypatch.setattr(search, "PARALLEL_ROOT_GUESSES", most)
        got = solve_optimal(CLASSIC, state=state, workers=workers)
        assert calls == [way] and got.stats["workers"] == workers
        assert got.total == serial.total
        for f in ("guess", "parent", "response", "depth", "size"):
            assert np.array_equal(getattr(got.tree, f), getattr(serial.tree, f))
    # by default on two cores: shared from SHARED_ROOT_MIN_CODES codes (256 here), else one
    # search (classic after 1234 (1B0W) and 5678 (0B0W): 9 codes)
    monkeypatch.setattr(search, "PARALLEL_ROOT_GUESSES", 24)
    monkeypatch.setattr(search, "usable_cores", lambda: 2)
    calls.clear()
    got = solve_optimal(CLASSIC, state=state)
    assert calls == ["shared"] and got.stats["workers"] == 2
    small = GameState.from_clues(CLASSIC, ["1234=1B0W", "1156=0B1W"])
    assert 2 < small.count < search.SHARED_ROOT_MIN_CODES
    calls.clear()
    assert solve_optimal(CLASSIC, state=small).stats["workers"] == 1 and calls == []
    monkeypatch.setattr(search, "PARALLEL_ROOT_GUESSES", 0)
    weights = np.arange(1, 1297, dtype=np.int64) % 3 + 1
    calls.clear()
    alone = solve_optimal(CLASSIC, state=state, weights=weights, workers=1)
    got = solve_optimal(CLASSIC, state=state, weights=weights, workers=2)
    assert calls == [] and got.stats["workers"] == 1 and got.total == alone.total


def test_a_root_of_few_first_guesses_in_a_small_set_gets_one_search_with_the_whole_memo(
        monkeypatch):
    """Two cores, a set under PARALLEL_MIN_CODES whose root has few first guesses (classic
    after 1111 (0B0W): 625 codes): one search runs, its memo the whole budget, as with one
    worker asked for."""
    from keypeg.limits import memo_budget
    from keypeg.solver import search

    made = []
    real = search._Search.__init__

    def init(self, *args, **kwargs):
        made.append(kwargs["memo_bytes"])
        real(self, *args, **kwargs)

    monkeypatch.setattr(search._Search, "__init__", init)
    monkeypatch.setattr(search, "usable_cores", lambda: 2)
    state = GameState.from_clues(CLASSIC, ["1111=0B0W"])
    assert search.SHARED_ROOT_MIN_CODES <= state.count < search.PARALLEL_MIN_CODES
    got = solve_optimal(CLASSIC, state=state)
    assert got.stats["workers"] == 1 and made == [memo_budget()]


def test_the_bound_tables_are_made_once_and_handed_out_as_copies():
    """`bound_tables` keeps the tables it made per arguments; each search gets copies."""
    from keypeg._kernels import optimal as ko

    ltab, ctab = ko.bound_tables(50, 14, False)
    kept = ltab.copy(), ctab.copy()
    ltab[1, 1] = ctab[2, 2] = -5  # a search's copy, changed: the next one is not
    again = ko.bound_tables(50, 14, False)
    assert np.array_equal(again[0], kept[0]) and np.array_equal(again[1], kept[1])
    assert ko.bound_tables(60, 14, False)[0].shape == (15, 61)  # other arguments: other tables


def test_a_shared_root_breaks_ties_by_rank():
    """Searches sharing the root (`Run.root_best`): a first guess must cost less than the
    best total any has found, or as much when that one comes later in the search's order;
    never more than the budget; any budget before a total is found."""
    from keypeg._kernels import optimal as ko
    from keypeg._kernels import slots

    best = slots.team_array(2)
    assert ko._shared_best(best, 3, 555) == 555  # none found yet
    assert slots.team_best(best) == (-1, -1)
    best[0], best[2] = (788 << slots.ROOT_RANK_BITS) | 10, 91
    assert ko._shared_best(best, 4, 10**6) == 789  # an earlier guess wins a tie
    assert ko._shared_best(best, 12, 10**6) == 788  # a later one must cost less
    assert ko._shared_best(best, 4, 700) == 700
    best[1], best[3] = (787 << slots.ROOT_RANK_BITS) | 30, 57  # the least of their totals
    assert ko._shared_best(best, 12, 10**6) == 788
    assert ko._shared_best(best, 40, 10**6) == 787
    assert slots.team_best(best) == (787, 57)
    best[4] = 10**9  # the claim counter is not a total
    assert ko._shared_best(best, 40, 10**6) == 787 and slots.team_best(best) == (787, 57)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=12))
def test_the_cut_key_of_the_parallel_root_matches_the_parts(pairs):
    """The parallel root skips a first guess whose cut key it has seen: keys are equal
    exactly when the two answer rows split the codes into the same parts with the same
    winning part (4 is the win here), compared as sets of code positions."""
    from keypeg.solver.parallel import _cut

    def parts(row):
        groups = {}
        for j, v in enumerate(row):
            groups.setdefault(v, set()).add(j)
        return ({frozenset(g) for g in groups.values()}, frozenset(groups.get(4, ())))

    a = np.array([p[0] for p in pairs], dtype=np.uint8)
    b = np.array([p[1] for p in pairs], dtype=np.uint8)
    assert (_cut(a, 4) == _cut(b, 4)) == (parts(a) == parts(b))
    perm = np.array([2, 0, 3, 1, 4], dtype=np.uint8)  # renames answers, keeps the win
    assert _cut(perm[a], 4) == _cut(a, 4)


# ----------------------------------------------------------------------------- weighted
def naive_weighted_total(rules, weights, state=None, **kw):
    space = get_space(rules)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    cands = codes if state is None else [codes[i] for i in state.candidates.tolist()]
    weight = {c: w for c, w in zip(codes, weights, strict=True)}
    return naive.naive_weighted_optimal(codes, cands, rules.feedback, weight, **kw)


def replayed_weighted_total(result, weights, secrets=None):
    """Play the tree against every secret (weight 0 included) and return the sum of
    weight x guesses it needs, checking each is found."""
    tree = result.tree
    space = get_space(tree.rules)
    child = tree.children()
    secrets = space.all() if secrets is None else secrets
    total = 0
    for s in secrets.tolist():
        node = 0
        while True:
            r = int(space.responses(int(tree.guess[node]), np.array([s], dtype=np.int32))[0])
            if r == space.win:
                break
            node = int(child[node, r])
            assert node >= 0, f"secret {space.text(s)} is never found"
        total += weights[s] * int(tree.depth[node])
    return total


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TINY), st.data(), st.booleans(), st.sampled_from([None, 2, 3, 4]))
def test_weighted_optimum_equals_exhaustive_search(rules, data, possible_only, cap):
    n = get_space(rules).size
    weights = data.draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)
                        .filter(lambda w: sum(w) > 0))
    if data.draw(st.booleans()):  # few distinct weights, many zeros: the closed forms
        weights = [w % 2 if i % 3 else 0 for i, w in enumerate(weights)]
        weights[-1] = max(weights[-1], 1)
    want = naive_weighted_total(rules, weights, depth=cap, possible_only=possible_only)
    if math.isinf(want):
        with pytest.raises(KeypegError, match="no strategy"):
            solve_optimal(rules, weights=weights, max_guesses=cap, possible_only=possible_only)
        return
    result = solve_optimal(rules, weights=weights, max_guesses=cap, possible_only=possible_only)
    assert result.weighted_total == want
    assert cap is None or result.worst <= cap
    result.tree.replay()
    assert replayed_weighted_total(result, weights) == want
    assert result.mean == pytest.approx(want / sum(weights))


@pytest.mark.parametrize("rules", TINY[:6], ids=lambda r: r.key)
def test_weighted_options_equal_exhaustive_search(rules):
    """The worst-case objective, a forced first guess, a state, no symmetry, floats."""
    space = get_space(rules)
    rng = np.random.default_rng(len(rules.key))
    weights = rng.integers(0, 5, space.size)
    weights[0] = 3
    worst = solve_optimal(rules, weights=weights, objective="worst")
    plain = solve_optimal(rules, objective="worst")
    assert worst.worst == plain.worst
    assert worst.weighted_total == naive_weighted_total(rules, weights, depth=plain.worst)
    first = space.text(int(rng.integers(space.size)))
    forced = solve_optimal(rules, weights=weights, first=first)
    assert forced.first_guess == first
    # the first guess, then each answer's part solved exhaustively
    after_first = [GameState.start(space).after(first, space.feedback(r))
                   for r in np.unique(space.table()[space.index(first)]) if r != space.win]
    assert forced.weighted_total == int(weights.sum()) + sum(
        naive_weighted_total(rules, weights, state=s) for s in after_first)
    state = GameState.start(space).after(first, space.feedback(int(space.table()[
        space.index(first), int(np.flatnonzero(weights)[-1])])))
    after = solve_optimal(rules, weights=weights, state=state)
    played = len(state.history) * int(weights[state.candidates].sum())
    assert after.weighted_total == naive_weighted_total(rules, weights, state=state) + played
    assert replayed_weighted_total(after, weights, state.candidates) == after.weighted_total
    assert solve_optimal(rules, weights=weights, symmetry=False).weighted_total == (
        naive_weighted_total(rules, weights))
    halves = solve_optimal(rules, weights=weights / 2)
    assert halves.weighted_total == pytest.approx(naive_weighted_total(rules, weights) / 2)


@pytest.fixture(params=[True, False], ids=["equal-as-plain", "weighted-kernel"])
def weighted_kernel(request, monkeypatch):
    """Run a test both ways: equal weights through the unweighted kernel (the default) and
    through the weighted one."""
    import keypeg.solver.search as search

    monkeypatch.setattr(search, "EQUAL_WEIGHTS_AS_PLAIN", request.param)
    return not request.param


@pytest.mark.parametrize("rules", [*TINY, CLASSIC], ids=lambda r: r.key)
def test_equal_weights_give_the_unweighted_trees(rules, weighted_kernel):
    n = get_space(rules).size
    for kw in ({}, {"possible_only": True}, {"max_guesses": 5 if rules is CLASSIC else 4}):
        plain = solve_optimal(rules, **kw)
        for weights, unit in ((np.ones(n, dtype=np.int64), 1), (np.full(n, 7), 7),
                              (np.full(n, 0.25), 0.25)):
            weighted = solve_optimal(rules, weights=weights, **kw)
            assert weighted.total == plain.total
            assert weighted.weighted_total == plain.total * unit
            assert weighted.mean == pytest.approx(plain.mean)
            for field in ("guess", "parent", "response", "depth", "size"):
                assert np.array_equal(getattr(weighted.tree, field), getattr(plain.tree, field))


def test_weighted_classic_two_or_more_colours(weighted_kernel):
    """Seed 004: the codemaker's minimax strategy picks one of the 1,290 codes with two or
    more colours at random; the codebreaker's best answer needs 5,600 guesses over them."""
    pub = PUB["optimal"]["classic"]["weighted_two_or_more_colours"]
    space = get_space(CLASSIC)
    weights = np.ones(space.size, dtype=np.int64)
    for c in "123456":
        weights[space.index(c * 4)] = 0
    assert int(weights.sum()) == pub["secrets"]
    result = solve_optimal(CLASSIC, weights=weights)
    assert result.weighted_total == pub["total"]
    assert result.summary()["weighted_total"] == pub["total"]
    assert result.mean == pytest.approx(pub["total"] / pub["secrets"])
    result.tree.replay()
    assert replayed_weighted_total(result, weights) == pub["total"]
    # the same on both workers, and with the weights as probabilities
    assert solve_optimal(CLASSIC, weights=weights, workers=2).weighted_total == pub["total"]
    probs = weights / pub["secrets"]
    assert solve_optimal(CLASSIC, weights=probs).weighted_total == pytest.approx(
        pub["total"] / pub["secrets"])


@pytest.mark.parametrize("rules,clues", [
    (CLASSIC, ["1122=1B0W"]),
    (Rules(pegs=3, colors=5, feedback="positional"), []),
    (Rules(pegs=4, colors=4), []),
])
def test_weighted_parallel_root_equals_serial(parallel_root, rules, clues):
    state = GameState.from_clues(rules, clues)
    space = get_space(rules)
    weights = np.random.default_rng(5).integers(0, 4, space.size)
    serial = solve_optimal(rules, state=state, weights=weights, workers=1)
    parallel = solve_optimal(rules, state=state, weights=weights, workers=2)
    assert parallel.stats["workers"] == 2
    assert parallel.weighted_total == serial.weighted_total
    assert np.array_equal(parallel.tree.guess, serial.tree.guess)
    parallel.tree.replay(secrets=state.candidates)


def test_weighted_symmetry_keeps_only_what_the_weights_allow():
    """Weights that only some permutations keep: the search uses those (position
    permutations and swaps of colours 2 and 3 here), and its optimum is the one without
    symmetry and the exhaustive one."""
    from keypeg.solver.search import _Search, _weight_group

    rules = Rules(pegs=3, colors=3)
    space = get_space(rules)
    weights = 1 + (space.codes == 0).sum(axis=1)  # colour 1 counts, wherever it is
    perms = _Search.position_perms(rules)
    group = _weight_group(space, perms, np.argsort(perms, axis=1).astype(np.int8),
                          weights.astype(np.int64), space.all())
    assert group is not None and group[0].size == 6 * 2
    result = solve_optimal(rules, weights=weights)
    assert result.weighted_total == naive_weighted_total(rules, weights)
    assert result.weighted_total == solve_optimal(rules, weights=weights,
                                                  symmetry=False).weighted_total
    uniform_positions = 1 + space.codes[:, 0]  # depends on the first peg: colours only
    result = solve_optimal(rules, weights=uniform_positions)
    assert result.weighted_total == naive_weighted_total(rules, uniform_positions)


@pytest.mark.parametrize("weights,message", [
    ([1, 2, 3], "one number per code: 64, not 3"),
    (-np.ones(64), "must not be negative"),
    (np.r_[np.ones(63), np.nan], "finite numbers"),
    (np.r_[np.ones(63), np.inf], "finite numbers"),
    (np.zeros(64), "must not all be zero"),
    (["a"] * 64, "a list of numbers"),
    (np.ones((8, 8)), "a list of numbers"),
])
def test_bad_weights_are_refused_in_one_sentence(weights, message):
    with pytest.raises(KeypegError, match=message) as info:
        solve_optimal(Rules(pegs=3, colors=4), weights=weights)
    text = str(info.value)
    assert text.endswith(".") and ". " not in text and "\n" not in text


def test_weights_of_the_candidates_must_not_all_be_zero():
    rules = Rules(pegs=3, colors=4)
    state = GameState.start(rules).after("111", "3B0W")
    weights = np.ones(64)
    weights[get_space(rules).index("111")] = 0
    with pytest.raises(KeypegError, match="could be the secret"):
        solve_optimal(rules, state=state, weights=weights)


def test_store_keeps_weighted_and_unweighted_results_apart(tmp_path):
    store = Store(tmp_path / "k.db")
    rules = Rules(pegs=3, colors=3)
    space = get_space(rules)
    weights = np.arange(space.size) % 3
    plain, cached = optimal(rules, store=store)
    assert not cached and plain.weighted_total is None
    weighted, cached = optimal(rules, store=store, weights=weights)
    assert not cached and weighted.weighted_total == naive_weighted_total(rules, weights)
    again, cached = optimal(rules, store=store, weights=weights.astype(float))
    assert cached and again.weighted_total == weighted.weighted_total
    assert np.array_equal(again.tree.guess, weighted.tree.guess)
    other, cached = optimal(rules, store=store, weights=np.ones(space.size))
    assert not cached and other.weighted_total == plain.total
    plain_again, cached = optimal(rules, store=store)
    assert cached and plain_again.weighted_total is None and plain_again.total == plain.total
    # the shipped classic tree is never a weighted answer
    classic, cached = optimal(CLASSIC, store=store, weights=np.full(1296, 2))
    assert not cached and classic.weighted_total == 2 * PUB["optimal"]["classic"]["total"]


@pytest.mark.parametrize("weights", [None, [5, 3, 3, 1, 1, 0, 0, 0]])
def test_a_forced_first_guess_is_played_on_a_small_set(weights):
    """On 8 codes with 27 answers the closed forms could settle the root: a forced first
    guess must still be played (it once was not, unweighted too)."""
    rules = Rules(pegs=3, colors=2, feedback="positional")
    space = get_space(rules)
    w = np.ones(space.size, dtype=np.int64) if weights is None else np.array(weights)
    for first in range(space.size):
        text = space.text(first)
        result = solve_optimal(rules, first=text, weights=weights)
        assert result.first_guess == text
        after = [GameState.start(space).after(text, space.feedback(r))
                 for r in np.unique(space.table()[first]) if r != space.win]
        want = int(w.sum()) + sum(naive_weighted_total(rules, w, state=s) for s in after)
        got = result.total if weights is None else result.weighted_total
        assert got == want


def test_a_states_prior_weighs_the_search():
    """solve_optimal(state=...) left out the state's prior and gave the uniform optimum
    (first guess 112 on MM(3,3) with weights 1..27), while the optimal strategy played
    313 there; and evaluate's tree of it opened with the shipped uniform tree. Both now
    weigh the secrets by the prior; a state that doubts its answers is refused."""
    from keypeg.strategies import evaluate, find_strategy

    rules = Rules(3, 3)
    weights = list(range(1, 28))
    want = naive_weighted_total(rules, weights)
    state = GameState.start(rules, prior=weights)
    result = solve_optimal(rules, state=state)
    assert result.weighted and result.weighted_total == pytest.approx(want / sum(weights))
    assert result.first_guess == solve_optimal(rules, weights=weights).first_guess
    played = str(find_strategy("optimal").next_guess(state))
    assert result.first_guess == played != solve_optimal(rules).first_guess
    tree = evaluate([find_strategy("optimal")], rules, state=state)[0]
    assert tree.summary()["first_guess"] == played
    # after a clue: the prior over the candidates left
    after = state.after("112", "1B0W")
    cut = [w if i in set(after.candidates.tolist()) else 0 for i, w in enumerate(weights)]
    got = solve_optimal(rules, state=after)
    assert got.weighted_total == pytest.approx(
        naive_weighted_total(rules, cut, state=after) / sum(cut) + 1)
    for noise in ("symmetric:0.1", "lies:1"):
        with pytest.raises(LimitExceededError, match="trusted answers only"):
            solve_optimal(rules, state=GameState.start(rules, noise=noise))
