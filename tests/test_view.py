"""Searches from a position without the full feedback table: the candidate view (every
code against the candidates only) gives the same answers, optima and trees as the full
table, and the optimal hint works in games whose full table is over the budget."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg.errors import LimitExceededError
from keypeg.game import GameState
from keypeg.hints import hint
from keypeg.rules import Rules, find_rules
from keypeg.solver import search
from keypeg.solver.search import solve_optimal
from keypeg.space import CandidateView, CodeSpace, get_space
from tests import naive

RULES = [
    Rules(pegs=4, colors=6),
    Rules(pegs=3, colors=5),
    Rules(pegs=3, colors=4, feedback="positional"),
    Rules(pegs=3, colors=5, repeats=False, feedback="positional"),
    Rules(pegs=4, colors=3, blanks=True),
    Rules(pegs=3, colors=6, repeats=False),
]
IDS = [r.key for r in RULES]


def random_state(space, seed, low=3, high=60):
    """A position reached by random guesses against a random secret, with between `low`
    and `high` candidates (None when the draw misses)."""
    rng = np.random.default_rng(seed)
    secret = int(rng.integers(space.size))
    state = GameState.start(space)
    while state.count > high:
        g = int(rng.integers(space.size))
        r = int(space.responses(g, np.array([secret], dtype=np.int32))[0])
        state = state.after(space.code(g), space.feedback(r))
    return state if state.count >= low else None


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULES), st.integers(0, 2**32 - 1))
def test_view_answers_equal_naive_scores(rules, seed):
    space = get_space(rules)
    rng = np.random.default_rng(seed)
    # candidates without two colours half the time, so some colours are absent
    pool = space.all()
    if seed % 2:
        gone = rng.choice(rules.symbols, size=2, replace=False)
        pool = pool[~np.isin(space.codes, gone).any(axis=1)]
    cands = np.sort(rng.choice(pool, size=min(pool.size, 7), replace=False))
    view = CandidateView(space, cands)
    index = {fb.marks: i for i, fb in enumerate(space.alphabet.responses)}
    # the candidates come first, in order; no code twice; the way back
    assert np.array_equal(view.order[: cands.size], cands)
    assert np.unique(view.order).size == view.order.size
    assert np.array_equal(view.inverse[view.order], np.arange(view.size))
    assert np.array_equal(view.codes, space.codes[view.order])
    assert np.array_equal(view.order[view.probe_order], np.sort(view.order))
    # the codes left out use a colour absent from every candidate other than the
    # smallest one (with repeats) or not in ascending order (without), or cut the
    # candidates like an earlier code kept (the same answers up to their names)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    absent = sorted(set(range(rules.symbols)) - {c for i in cands.tolist() for c in codes[i]})
    cut_seen = set()
    for i, code in enumerate(codes):
        used = [c for c in code if c in absent]
        wanted = (all(c == absent[0] for c in used) if rules.repeats
                  else used == absent[: len(used)])
        if wanted and i not in set(cands.tolist()):
            answers = [naive.score(codes[c], code, rules.feedback) for c in cands.tolist()]
            names = {}
            cut = tuple(names.setdefault(a, len(names)) for a in answers)
            wanted = cut not in cut_seen
            cut_seen.add(cut)
        assert (view.inverse[i] >= 0) == (wanted or i in set(cands.tolist())), code
    rows = rng.choice(view.size, size=min(view.size, 40), replace=False)
    for v in rows.tolist():
        want = [index[naive.score(codes[c], codes[int(view.order[v])], rules.feedback)]
                for c in cands.tolist()]
        assert view.table()[v].tolist() == want
    # and the same as the full table's rows and columns
    assert np.array_equal(view.table(), space.table()[np.ix_(view.order, cands)])
    # the columns: candidate j's answers to the probes in code order, then (black/white in
    # bytes) each probe's multiset id, low byte and high byte
    columns = view.columns()
    in_code_order = np.sort(view.order)
    assert columns.shape[1] == view.size
    for j in range(cands.size):
        want = [index[naive.score(codes[int(cands[j])], codes[g], rules.feedback)]
                for g in in_code_order.tolist()]
        assert columns[j].tolist() == want
    if view.sets_in_columns:
        ids = space.multiset[in_code_order]
        assert columns.shape[0] == cands.size + 2
        assert np.array_equal(columns[cands.size] + 256 * columns[cands.size + 1].astype(int),
                              ids)
    else:
        assert columns.shape[0] == cands.size
    # the played guesses stay in the view even when the rule would leave them out
    kept = CandidateView(space, cands, extra=[space.size - 1])
    assert kept.inverse[space.size - 1] >= 0


def solve_both(monkeypatch, space, state, **kw):
    with monkeypatch.context() as m:
        m.setattr(search, "_use_view", lambda *_: False)
        full = solve_optimal(space, state=state, **kw)
    with monkeypatch.context() as m:
        m.setattr(search, "_use_view", lambda *_: True)
        viewed = solve_optimal(space, state=state, **kw)
    return full, viewed


def same_tree(a, b):
    for name in ("guess", "parent", "response", "depth", "size"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("rules", RULES, ids=IDS)
@pytest.mark.parametrize("seed", range(4))
def test_search_on_a_view_equals_the_full_table(monkeypatch, rules, seed):
    space = get_space(rules)
    state = None
    s = seed
    while state is None:
        state = random_state(space, s, low=5, high=40)
        s += 1000
    full, viewed = solve_both(monkeypatch, space, state)
    assert viewed.total == full.total
    same_tree(viewed.tree, full.tree)
    viewed.tree.replay(secrets=state.candidates)
    if space.size > 256 or state.count > 25:
        return  # checked against the full table only: the exhaustive search is too slow
    # an independent optimum for the candidates (every code a probe)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    cands = [codes[i] for i in state.candidates.tolist()]
    want = naive.naive_optimal(codes, cands, rules.feedback)
    assert viewed.total == want + len(state.history) * state.count


@pytest.mark.parametrize("rules", [Rules(pegs=4, colors=5), Rules(pegs=5, colors=4),
                                   Rules(pegs=4, colors=6)], ids=lambda r: r.key)
def test_small_sets_scanned_on_a_view_equal_the_full_table(monkeypatch, rules):
    """On a view (black/white answers read probe by probe) small sets are settled by one
    scan for their cheapest probe (`optimal._tiny_scan`); on the full table every probe is
    counted. Many positions of 10 to 120 candidates: the same optimum and the same tree."""
    space = get_space(rules)
    checked = 0
    for seed in range(60):
        state = random_state(space, seed, low=10, high=120)
        if state is None:
            continue
        full, viewed = solve_both(monkeypatch, space, state)
        assert viewed.total == full.total, seed
        same_tree(viewed.tree, full.tree)
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("rules,secret,guesses", [
    (Rules(pegs=4, colors=6), "3456", ["1122", "3344"]),
    (Rules(pegs=4, colors=6), "3343", ["1256", "6621"]),
    (Rules(pegs=3, colors=6, feedback="positional"), "345", ["112", "336"]),
    (Rules(pegs=4, colors=5, feedback="positional"), "3434", ["1122"]),
    (Rules(pegs=3, colors=6, repeats=False), "345", ["126", "354"]),
], ids=["classic-2-absent", "classic-4-absent", "positional", "positional-4", "no-repeats"])
def test_view_leaving_out_absent_colours_equals_the_full_table(monkeypatch, rules, secret,
                                                               guesses):
    """Colours ruled out by the clues: the view keeps only the probes using the smallest
    of them, and the optimum and tree are the full table's (and the exhaustive search's)."""
    space = get_space(rules)
    state = GameState.start(space)
    s = space.index(secret)
    for g in guesses:
        r = int(space.responses(space.index(g), np.array([s], dtype=np.int32))[0])
        state = state.after(space.code(space.index(g)), space.feedback(r))
    view = CandidateView(space, state.candidates)
    assert view.size < space.size  # some codes were left out
    full, viewed = solve_both(monkeypatch, space, state)
    assert viewed.total == full.total
    same_tree(viewed.tree, full.tree)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    cands = [codes[i] for i in state.candidates.tolist()]
    if len(cands) <= 40:
        want = naive.naive_optimal(codes, cands, rules.feedback)
        assert viewed.total == want + len(state.history) * state.count


@pytest.mark.parametrize("kw", [
    {"possible_only": True}, {"max_guesses": 5}, {"objective": "worst"}, {"workers": 2},
    {"weights": "ramp"},
], ids=["possible-only", "capped", "worst", "workers", "weighted"])
def test_view_options_equal_the_full_table(monkeypatch, parallel_root, kw):
    space = get_space(Rules(pegs=4, colors=6))
    state = GameState.from_clues(space, ["1123=1B1W"])
    if kw.get("weights") == "ramp":
        kw = {"weights": np.arange(space.size) % 7}
    full, viewed = solve_both(monkeypatch, space, state, **kw)
    assert viewed.total == full.total and viewed.worst == full.worst
    assert viewed.weighted_total == full.weighted_total
    same_tree(viewed.tree, full.tree)


def test_a_tiny_budget_is_never_exceeded():
    """With a budget far below the full table, a position's optimum is found on its view
    (the same as with the table), and a view over the budget is refused at once."""
    rules = Rules(pegs=4, colors=6)
    big = get_space(rules)
    state = GameState.from_clues(big, ["1123=1B1W", "3345=0B2W"])
    want = solve_optimal(big, state=state)
    budget = CandidateView.bytes_needed(big, state.count)
    small = CodeSpace(rules, budget=budget, disk_cache=False)
    assert not small.fits_table
    on_small = GameState.from_clues(small, ["1123=1B1W", "3345=0B2W"])
    got = solve_optimal(small, state=on_small)
    assert got.total == want.total
    same_tree(got.tree, want.tree)
    assert not small.has_table  # the full table was never built
    wide = GameState.from_clues(small, ["1123=1B1W"])
    with pytest.raises(LimitExceededError, match="KEYPEG_TABLE_BUDGET"):
        solve_optimal(small, state=wide)
    with pytest.raises(LimitExceededError, match="KEYPEG_TABLE_BUDGET"):
        solve_optimal(small)


def test_codebreaker_4_gets_a_live_optimal_hint():
    """Codebreaker level 4 (100,000 codes, its full table over the 2 GiB budget) after two
    guesses: the hint names an optimal guess, and the optimal tree from there finds every
    candidate, in no more guesses than any one-step strategy's tree."""
    from keypeg.onestep import OneStepStrategy

    space = get_space(find_rules("codebreaker-4"))
    assert not space.fits_table
    state = GameState.from_clues(space, ["01234=A--G-", "56789=-A---"])
    assert 20 < state.count <= 600
    h = hint(state, optimal_seconds=30)
    assert h.optimal is not None, h.optimal_note
    result = solve_optimal(space, state=state)
    assert h.optimal.guess == result.first_guess
    result.tree.replay(secrets=state.candidates)
    for name in ("maxsize", "entropy", "parts"):
        assert result.total <= OneStepStrategy(name).tree(space, state).total
    assert not space.has_table


def _random_block(data, n_probes, most_cands, R, m_max):
    """A random view block of answers below R (probe order = view order), its columns, a
    set S of at most m_max of its candidates, the probes, and which probes are in S."""
    n_cands = data.draw(st.integers(1, most_cands))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    table = rng.integers(0, R, size=(n_probes, n_cands)).astype(np.uint8)
    m = data.draw(st.integers(1, min(n_cands, m_max)))
    S = np.sort(rng.choice(n_cands, m, replace=False)).astype(np.int32)
    is_cand = np.zeros(n_probes, dtype=np.bool_)
    is_cand[S[n_probes > S]] = True
    return (table, np.ascontiguousarray(table.T), S, np.arange(n_probes, dtype=np.int64),
            is_cand)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_column_counts_equal_the_row_counts(data):
    """A view's columns (answers by candidate, in probe order) give each probe the same
    packed counts and parts as its row, in every field layout (4-bit in one or two words,
    bytes), and stop at the same probe when looking for one that tells every code apart."""
    from keypeg._kernels import optimal as ko

    packed, wide = data.draw(st.sampled_from([(True, False), (True, True), (False, False)]))
    answers = 30 if wide else (15 if packed else 16)
    m_max = 15 if packed else 127
    n_probes = data.draw(st.integers(1, 2500))
    R = data.draw(st.integers(1, answers))
    table, columns, S, probes, is_cand = _random_block(data, n_probes, 40, R, m_max)
    perfect = data.draw(st.booleans())
    stats = np.zeros(32, dtype=np.int64)
    out = []
    for use_columns in (False, True):
        accs = np.zeros(n_probes, np.uint64)
        highs = np.zeros(n_probes, np.uint64)
        nparts = np.zeros(n_probes, np.int64)
        if use_columns:
            n = ko._column_counts(S, probes, columns, accs, highs, nparts, packed, wide,
                                  is_cand, perfect, stats)
        else:
            n = ko._row_counts(S, probes, table, accs, highs, nparts, packed, wide, is_cand,
                               perfect, stats)
        out.append((n, accs[:n].tolist(), nparts[:n].tolist(),
                    highs[:n].tolist() if wide or not packed else []))
    assert out[0] == out[1]
    # and the parts are the naive count of distinct answers
    n, _, nparts, _ = out[1]
    assert nparts == [len(set(table[t, S].tolist())) for t in range(n)]


def test_trace_on_a_view_names_the_answers(monkeypatch):
    """`trace=True` from a position searched on a view lists the root's parts with their
    answers written out, as on the full table (it once failed: a view has no `feedback`).
    The lines after the first probe may differ: a part cut short reports the bound it
    reached, which depends on what the memo held."""
    space = get_space(Rules(pegs=4, colors=6))
    state = GameState.start(space).after("1122", "1B1W")
    full, viewed = solve_both(monkeypatch, space, state, trace=True)
    first = next(i for i, line in enumerate(full.trace[1:], 1) if line.startswith("-----"))
    assert viewed.trace[:first] == full.trace[:first]
    assert any(line.startswith("<") and "B" in line and "W" in line
               for line in viewed.trace[:first])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_column_words_equal_the_listed_counts(data):
    """Counts in bytes of four words from a view's columns (at most 32 answers, 127 codes)
    hold each answer's part size, and give the same parts, usefulness, most parts and
    early stop as the listed counts read probe by probe."""
    from keypeg._kernels import optimal as ko

    n_probes = data.draw(st.integers(1, 2500))
    R = data.draw(st.integers(1, 32))
    win = data.draw(st.integers(0, R - 1))
    table, columns, S, probes, is_cand = _random_block(data, n_probes, 130, R, 127)
    m = S.size
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    perfect = data.draw(st.booleans())
    stats = np.zeros(32, dtype=np.int64)
    width = min(m, R)
    sizes = np.zeros((n_probes, width), np.int32)
    nsizes = np.zeros(n_probes, np.int64)
    nparts = np.zeros(n_probes, np.int64)
    bigs = np.zeros(n_probes, np.int64)
    useful = np.zeros(n_probes, np.bool_)
    n1, k1 = ko._listed_counts(S, probes, table, R, win, sizes, nsizes, nparts, bigs, useful,
                               is_cand, perfect, stats)
    words = np.zeros((n_probes, 4), np.uint64)
    nparts2 = np.zeros(n_probes, np.int64)
    useful2 = np.zeros(n_probes, np.bool_)
    n2, k2 = ko._column_words(S, probes, columns, words, nparts2, useful2, is_cand, perfect,
                              stats)
    assert (n1, k1) == (n2, k2)
    assert nparts[:n1].tolist() == nparts2[:n2].tolist()
    assert useful[:n1].tolist() == useful2[:n2].tolist()
    f = np.cumsum(rng.integers(1, 4, size=m + 1)).astype(np.int64)
    cap = data.draw(st.integers(1, m))
    for t in range(n2):
        want = np.bincount(table[t, S], minlength=32)
        got = [(int(words[t, r // 8]) >> (8 * (r % 8))) & 255 for r in range(32)]
        assert got == want.tolist()
        # the bound from the words is the bound from the listed sizes
        assert (ko._words_bound(words[t], R, win, f, cap, m)
                == ko._listed_bound(sizes[t], nsizes[t], f, cap, m))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_tiny_scan_by_columns_equals_by_rows(data):
    """`_tiny_scan` on a view scoring every probe first lists, per block, the probes whose
    answers seen (from the columns) leave them within reach, and reads only those rows: the
    same choice, value, parts, bound and probes scanned as reading every row."""
    from keypeg._kernels import optimal as ko

    n_cands = data.draw(st.integers(6, 24))
    n_probes = data.draw(st.integers(n_cands, 3000))  # (more than a block of probes, often)
    R = data.draw(st.integers(n_cands, 32))
    used = data.draw(st.integers(2, R))  # few answers in use: parts that share codes
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    table = rng.integers(0, used, size=(n_probes, n_cands)).astype(np.uint8)
    m = data.draw(st.integers(6, n_cands))
    S = np.sort(rng.choice(n_cands, m, replace=False)).astype(np.int32)
    # a few probes tell the codes of S apart but for one to four (none all: the scan
    # would stop there)
    for t in rng.choice(n_probes, size=min(n_probes, 40), replace=False):
        row = rng.permutation(R)[:n_cands]
        for _ in range(data.draw(st.integers(1, 4))):
            a, b = rng.choice(S, size=2, replace=False)
            row[a] = row[b]
        table[t] = row
    probes = rng.permutation(n_probes).astype(np.int64)  # candidates anywhere in order
    is_cand = np.zeros(n_probes, dtype=np.bool_)
    is_cand[S] = True
    # the first probe tells S apart but for one pair; two candidates, last in probe order
    # (past the first block of probes), but for two pairs: as cheap as it, and first
    # among equals (candidates come first)
    first = rng.permutation(R)[:n_cands]
    first[S[1]] = first[S[0]]
    table[probes[0]] = first
    late = [s for s in S[:2] if s != probes[0]]
    probes = np.concatenate([probes[~np.isin(probes, late)], late]).astype(np.int64)
    for s in late:
        row = first.copy()
        row[S[3]] = row[S[2]]
        table[s] = row
    budget = data.draw(st.integers(2 * m, 4 * m))
    reach = 2 * m + ko.TINY_REACH
    depth = data.draw(st.integers(3, 5))
    none = np.zeros((0, 0), dtype=np.uint8)
    no_sets = np.zeros(0, dtype=np.int32)
    shared = np.zeros((1, 1), dtype=np.uint8)
    ungrouped = (none, np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int32))
    by_rows = ko._tiny_scan(S, probes, table, none, no_sets, shared, ungrouped, is_cand,
                            budget, reach, depth, False, np.zeros(32, np.int64))
    by_columns = ko._tiny_scan(S, probes, table, np.ascontiguousarray(table[probes].T),
                               no_sets, shared, ungrouped, is_cand, budget, reach, depth, False,
                               np.zeros(32, np.int64))
    assert tuple(int(x) for x in by_rows) == tuple(int(x) for x in by_columns)


def _alike_groups_naive(table, first):
    """Keep rows before `first`, and of each group of rows with the same answers up to
    renaming them, the first (plain Python)."""
    seen = set()
    keep = []
    for i, row in enumerate(table.tolist()):
        names: dict[int, int] = {}
        shape = tuple(names.setdefault(a, len(names)) for a in row)
        keep.append(i < first or shape not in seen)
        if i >= first:
            seen.add(shape)
    return keep


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_distinct_rows_keep_the_first_of_each_alike_group(data):
    """The view's probes that cut the candidates alike (answers equal up to their names):
    the parallel hashing and checking keeps what the one-by-one grouping and a plain
    Python grouping keep; and the check names a row grouped with one it is not alike."""
    from keypeg._kernels import partition as kpart

    rows = data.draw(st.integers(1, 3000))
    width = data.draw(st.integers(1, 12))
    answers = data.draw(st.integers(1, 5))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    table = rng.integers(0, answers, size=(rows, width)).astype(np.uint8)
    # renamed copies of earlier rows
    for i in rng.choice(rows, size=rows // 3, replace=False):
        table[i] = rng.permutation(256)[table[rng.integers(rows)]].astype(np.uint8)
    first = data.draw(st.integers(0, rows))
    want = _alike_groups_naive(table, first)
    assert kpart.distinct_rows(table, first).tolist() == want
    assert kpart._distinct_rows_exact(table, first).tolist() == want
    if rows >= 2 and width >= 2:
        table[0] = 0
        table[1] = 0
        table[1, 1] = 1
        rep = np.arange(rows)
        rep[1] = 0  # grouped, not alike
        assert not kpart._all_alike(table, 0, rep)


def test_column_copy_keeps_the_listed_probes_only():
    """The copy of a view's columns for a list of probes in probe order holds their columns
    in that order; a list out of that order gets no columns (the search then reads rows)."""
    from keypeg._kernels import optimal as ko

    rng = np.random.default_rng(7)
    order = rng.permutation(50).astype(np.int64)
    columns = rng.integers(0, 9, size=(6, 50)).astype(np.uint8)
    at = np.sort(rng.choice(50, 20, replace=False))
    copy = ko._column_copy(columns, order, order[at])
    assert np.array_equal(copy, columns[:, at])
    assert ko._column_copy(columns, order, order[at][::-1].copy()).shape == (0, 0)


def test_searches_on_a_view_share_its_columns_and_their_copies():
    """The view's columns are made once for all the searches on it (the parallel root
    runs several), and the room for their copies is shared out among those searches, so
    the table budget holds however many there are."""
    from keypeg._kernels import optimal as ko
    from keypeg._kernels import slots

    space = get_space(Rules(pegs=4, colors=6))
    state = GameState.start(space).after("1122", "1B0W")
    view = CandidateView(space, state.candidates)
    made = [search._Search(view, possible_only=False, capped=False, first=-1, symmetry=True,
                           trace=False, n_max=view.m, searches=n) for n in (1, 3)]
    assert made[0].game.columns is made[1].game.columns is view.columns()
    # the m candidates' columns, then each probe's multiset id (low, high byte)
    columns = made[0].game.columns
    assert columns.shape == (view.m + 2, view.size)
    assert np.array_equal(columns[: view.m], view.table()[view.probe_order].T)
    ids = space.multiset[view.order[view.probe_order]]
    assert np.array_equal(columns[view.m] + 256 * columns[view.m + 1].astype(int), ids)
    share = [int(s.options[slots.OPT_COLUMN_COPIES]) for s in made]
    assert share == [ko.COLUMN_COPIES * view.size, ko.COLUMN_COPIES * view.size // 3]


@settings(max_examples=20, deadline=None)
@given(rules=st.sampled_from([Rules(pegs=4, colors=6), Rules(pegs=5, colors=4),
                              Rules(pegs=3, colors=5, feedback="positional"),
                              Rules(pegs=4, colors=7, repeats=False)]),
       seed=st.integers(0, 2**32 - 1))
def test_first_guesses_told_without_scoring_agree_with_the_count(rules, seed):
    """`_fewest_first_guesses` (which decides the shared root without scoring it) never
    counts more first guesses than `root_guesses`, which scores the root, and at most the
    probes that leave the candidates whole fewer (one, and the guesses played); it says
    nothing under a budget or when only the candidates are tried."""
    from keypeg._kernels import optimal as ko
    from keypeg.solver.parallel import root_guesses

    space = get_space(rules)
    state = random_state(space, seed, low=space.n_responses + 1, high=400)
    if state is None:
        state = GameState.start(space).after(space.code(0), space.feedback(0))
    guesses = [c.guess.index for c in state.history]
    view = CandidateView(space, state.candidates, guesses)
    made = search._Search(view, possible_only=False, capped=False, first=-1, symmetry=True,
                          trace=False, n_max=view.m)
    S = np.arange(view.m, dtype=np.int32)
    inside = view.inverse[guesses].tolist()
    n = root_guesses(made, S, 8, int(ko.INF), inside)
    fewest = search._fewest_first_guesses(made, view, S, int(ko.INF), inside, False)
    assert fewest is not None and n - 1 - len(guesses) <= fewest <= n, (n, fewest)
    assert search._fewest_first_guesses(made, view, S, n, inside, False) is None
    assert search._fewest_first_guesses(made, view, S, int(ko.INF), inside, True) is None


def test_a_view_root_shared_without_scoring_it_gives_the_serial_tree(monkeypatch):
    """On a candidate view under no budget the root is shared by the workers on the plain
    count of its first guesses, the root never scored for it (`root_guesses` not called),
    and the optimum and tree are those of one search on the full table."""
    from keypeg.solver import parallel

    space = get_space(Rules(pegs=4, colors=6))
    state = GameState.from_clues(space, ["1123=1B1W", "3345=0B2W"])
    assert state.count > space.n_responses
    serial = solve_optimal(space, state=state, workers=1)
    calls = []

    def spy(name, real):
        def wrapped(*args, **kwargs):
            calls.append(name)
            return real(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(search, "root_guesses", spy("counted", parallel.root_guesses))
    monkeypatch.setattr(search, "share_root", spy("shared", parallel.share_root))
    monkeypatch.setattr(search, "_use_view", lambda *_: True)
    got = solve_optimal(space, state=state, workers=2)
    assert calls == ["shared"] and got.stats["workers"] == 2
    assert got.total == serial.total
    same_tree(got.tree, serial.tree)
