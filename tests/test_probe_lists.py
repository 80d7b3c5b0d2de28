"""The lists of probes a node scores, made faster: by masks when only the identity fixes the
history (against `canonical_under`), the cache of such lists (which keeps the lists looked
up most when full), and the bound a probe's multiset of symbols puts on its answers, with
which `_tiny_scan` passes probes over (against the answers counted plainly)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg._kernels import optimal as ko
from keypeg._kernels import slots
from keypeg._kernels import symmetry as ks
from keypeg.onestep import _code_set
from keypeg.rules import Rules
from keypeg.solver import search
from keypeg.space import CandidateView, get_space
from tests.test_view import random_state

RULES = [
    Rules(pegs=4, colors=6),
    Rules(pegs=3, colors=7, repeats=False),
    Rules(pegs=4, colors=5, blanks=True),
    Rules(pegs=3, colors=6, feedback="positional"),
    Rules(pegs=5, colors=4),
]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(RULES), st.data())
def test_identity_lists_by_masks_equal_canonical_under(rules, data):
    """With the identity alone (played colours kept, the others free or zero), the codes
    kept by masks (`canonical_identity`) are those `canonical_under` keeps."""
    space = get_space(rules)
    nsym = rules.symbols
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    played = data.draw(st.integers(0, 2**nsym - 1))
    # candidates: a random few, often without some colours (zero colours)
    pool = space.all()
    gone = rng.choice(nsym, size=data.draw(st.integers(0, nsym - 1)), replace=False)
    keep = pool[~np.isin(space.codes, gone).any(axis=1)]
    if keep.size == 0:
        keep = pool
    S = np.sort(rng.choice(keep, size=min(keep.size, data.draw(st.integers(1, 12))),
                           replace=False)).astype(np.int32)
    is_free, is_zero, free_list, n_free, zero_list, n_zero = ks.colour_classes(
        space.colmask, S, np.uint64(played), nsym)
    gperm = np.zeros(1, dtype=np.int32)
    gphi = np.full((1, nsym), -1, dtype=np.int8)
    for c in range(nsym):
        if played >> c & 1:
            gphi[0, c] = c
    codes = _code_set(space)
    probes = np.arange(space.size, dtype=np.int64)
    want = np.zeros(space.size, dtype=np.bool_)
    ks.canonical_under(space.codes, probes, gperm, gphi, codes.inverse_perms, free_list,
                       n_free, zero_list, n_zero, is_zero, rules.repeats, False, want)
    got = np.zeros(space.size, dtype=np.bool_)
    inversions = ks.first_inversions(space.codes, nsym)
    ks.canonical_identity(space.colmask, inversions, probes, free_list, n_free, zero_list,
                          n_zero, rules.repeats, got)
    assert np.array_equal(got, want)
    # and `_canonical_pool`, which takes that way only for the identity
    opts = np.zeros(slots.OPTION_SLOTS, dtype=np.int64)
    opts[slots.OPT_SYMMETRY] = 1
    opts[slots.OPT_REPEATS] = rules.repeats
    listed = ko._canonical_pool(space.codes, probes, gperm, gphi, codes.inverse_perms,
                                free_list, n_free, zero_list, is_zero, opts, space.colmask,
                                inversions)
    assert np.array_equal(listed, np.flatnonzero(want))


def test_first_inversions_name_the_pairs_first_seen_out_of_order():
    codes = np.array([[0, 1, 2], [2, 0, 1], [1, 1, 0], [3, 3, 3]], dtype=np.uint8)
    bit = lambda a, b: 1 << (a * (a - 1) // 2 + b)  # noqa: E731  (a > b seen first)
    want = [0, bit(2, 0) | bit(2, 1), bit(1, 0), 0]
    assert ks.first_inversions(codes, 4).tolist() == want


def _run(room, columns):
    opts = np.zeros(slots.OPTION_SLOTS, dtype=np.int64)
    opts[slots.OPT_PROBE_CODES] = room
    return slots.Run(opts, np.zeros(slots.COUNTER_SLOTS, dtype=np.int64), None,
                     ko.new_probe_cache(), ko.new_column_cache(columns), ko.new_use_counts(),
                     np.zeros(0, dtype=np.int64))


def test_a_full_probe_cache_keeps_the_lists_looked_up_most():
    """Lists go in while there is room; then a list looked up more often than the least
    looked-up one cached takes its place (dropping that one's column copy too), and one
    looked up less is not kept (lookups are counted from then on); the codes held are
    counted exactly."""
    columns = np.zeros((2, 10), dtype=np.uint8)
    run = _run(10, columns)
    for key, uses in [(1, 5), (2, 1), (3, 3), (4, 2)]:
        run.probe_uses[key] = uses
    assert ko._remember(run, np.int64(1), np.arange(4, dtype=np.int64))
    assert ko._remember(run, np.int64(2), np.arange(4, dtype=np.int64))
    run.column_cache[2] = np.zeros((2, 4), dtype=np.uint8)
    run.counters[slots.N_COLUMN_CODES] = 4
    assert run.counters[slots.N_CANON_CODES] == 8
    # no room for 3 (four codes) but by dropping 2, looked up once
    assert ko._remember(run, np.int64(3), np.arange(4, dtype=np.int64))
    assert sorted(run.probe_cache.keys()) == [1, 3]
    assert 2 not in run.column_cache and run.counters[slots.N_COLUMN_CODES] == 0
    assert run.counters[slots.N_PROBES_FULL] == 0  # (lookups not counted yet)
    # 4 is looked up less than either list cached: not kept
    assert not ko._remember(run, np.int64(4), np.arange(4, dtype=np.int64))
    assert run.counters[slots.N_PROBES_FULL] == 1  # from now on lookups are counted
    assert sorted(run.probe_cache.keys()) == [1, 3]
    assert run.counters[slots.N_CANON_CODES] == 8
    # a list longer than the room is never kept
    run.probe_uses[5] = 100
    assert not ko._remember(run, np.int64(5), np.arange(11, dtype=np.int64))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([Rules(pegs=4, colors=6), Rules(pegs=3, colors=7, repeats=False),
                        Rules(pegs=4, colors=4, blanks=True), Rules(pegs=5, colors=3)]),
       st.data())
def test_a_multiset_bounds_the_answers_of_its_probes(rules, data):
    """`_set_excess`: for every probe, at least that many codes of S share an answer with
    another (the answers counted plainly), and the bound is met by some probe."""
    space = get_space(rules)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    m = data.draw(st.integers(1, 40))
    S = np.sort(rng.choice(space.size, size=m, replace=False)).astype(np.int32)
    sets, shared = search._Search.multisets(space)
    low = ko._set_excess(S, sets, shared)
    table = space.table()
    excess = np.array([m - np.unique(table[g, S]).size for g in range(space.size)])
    assert np.all(excess >= low[sets])
    assert low.shape[0] == shared.shape[0]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([Rules(pegs=4, colors=6), Rules(pegs=5, colors=6),
                        Rules(pegs=4, colors=4, blanks=True)]), st.data())
def test_the_multiset_bound_follows_its_definition(rules, data):
    """`_set_excess` per multiset u: m minus, over t, the codes of S sharing t pegs with u
    capped at the t + 1 blacks they can get (pegs when t is every peg), counted here code
    by code; S drawn from a few multisets, so that many of its codes share one (MM(5,6)
    has 252 multisets, two blocks of `_least_set_excess`)."""
    space = get_space(rules)
    sets, shared = search._Search.multisets(space)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    ids = np.unique(sets)
    if data.draw(st.booleans()):  # from the later multisets: the least often lies past a block
        ids = ids[ids.size // 2:]
    few = rng.choice(ids, size=min(ids.size, data.draw(st.integers(1, 4))), replace=False)
    pool = np.flatnonzero(np.isin(sets, few))
    S = np.sort(rng.choice(pool, size=data.draw(st.integers(1, min(40, pool.size))),
                           replace=False)).astype(np.int32)
    pegs = rules.pegs
    want = []
    for u in range(shared.shape[0]):
        n = np.bincount(shared[sets[S], u], minlength=pegs + 1)
        caps = [t + 1 if t < pegs else pegs for t in range(pegs + 1)]
        want.append(S.size - sum(min(int(n[t]), caps[t]) for t in range(pegs + 1)))
    assert ko._set_excess(S, sets, shared).tolist() == want
    # its least, found a block of multisets at a time (stopping at none)
    assert ko._least_set_excess(S, sets, shared) == min(want)


def test_no_multisets_for_positional_answers():
    sets, _ = search._Search.multisets(get_space(Rules(pegs=3, colors=4,
                                                       feedback="positional")))
    assert sets.shape[0] == 0


def _random_view(space, seed):
    """A view of the candidates of a position of 10-60 of them reached by random play from
    `seed` (a draw that misses takes the next seed), and the seed that reached it."""
    state = None
    while state is None:
        state = random_state(space, seed, low=10, high=60)
        seed += 1
    return CandidateView(space, np.asarray(state.candidates)), seed


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([Rules(pegs=5, colors=7), Rules(pegs=5, colors=6, repeats=False),
                        Rules(pegs=4, colors=4, blanks=True)]),
       st.integers(0, 2**32 - 1), st.data())
def test_the_probes_read_by_multiset_are_those_within_the_limit(rules, seed, data):
    """`_set_hits`, on a view's answers grouped by multiset, lists in probe order exactly
    the probes whose multiset's least excess on S is within m - floor and whose answers on
    S take at least `floor` values, each with those answers as bits (plain Python)."""
    space = get_space(rules)
    view, seed = _random_view(space, seed)
    sets, shared = search._Search.multisets(view)
    m = data.draw(st.integers(6, min(view.m, space.n_responses)))
    rng = np.random.default_rng(seed)
    S = np.sort(rng.choice(view.m, size=m, replace=False)).astype(np.int32)
    floor = data.draw(st.integers(1, m))
    low_excess = ko._set_excess(S, sets, shared)
    grouped, starts, ranks = view.columns_by_set()
    hit_t, hit_seen = ko._set_hits(S.astype(np.uint64), low_excess, floor, grouped, starts,
                                   ranks, np.zeros(slots.COUNTER_SLOTS, np.int64))
    table = view.table()
    want = []
    for t, g in enumerate(view.probe_order.tolist()):
        answers = {int(table[g, s]) for s in S.tolist()}
        if low_excess[sets[g]] <= m - floor and len(answers) >= floor:
            want.append((t, sum(1 << a for a in answers)))
    assert [(int(t), int(b)) for t, b in zip(hit_t, hit_seen, strict=True)] == want


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["few", "many"]), st.integers(1, 200_000), st.floats(0.0, 1.0),
       st.integers(0, 2**32 - 1))
def test_hits_are_put_in_probe_order(how, P, share, seed):
    """`_in_probe_order` sorts `_set_hits`' hits (distinct places below P, one ascending run
    per multiset) by place, keeping what each saw: by sorting when there are few (under
    P/512), through a bitmap of the places when there are many."""
    rng = np.random.default_rng(seed)
    n = int(share * ((P - 1) // 512)) if how == "few" else P // 512 + int(share * (P - P // 512))
    places = rng.choice(P, size=n, replace=False)
    runs = np.sort(rng.choice(n + 1, size=min(n, 5), replace=False)) if n else []
    hit_t = np.concatenate([np.sort(part) for part in np.split(places, runs)]).astype(np.int64)
    hit_seen = rng.integers(1, 2**63, size=n).astype(np.uint64)
    out_t, out_seen = ko._in_probe_order(hit_t, hit_seen, P)
    order = np.argsort(hit_t)
    assert out_t.tolist() == hit_t[order].tolist()
    assert out_seen.tolist() == hit_seen[order].tolist()


def _tiny_inputs(data: st.DataObject, table: np.ndarray, S: np.ndarray, n: int) -> tuple:
    """What `_tiny_scan` takes besides a set S and its probes, as the tests draw them: S's
    codes marked candidates among n, a budget of 2m to 4m and the scan's reach, and no
    columns, multisets or probes grouped by multiset."""
    m = S.size
    is_cand = np.zeros(n, dtype=np.bool_)
    is_cand[S] = True
    budget = data.draw(st.integers(2 * m, 4 * m))
    none = np.zeros((0, 0), dtype=table.dtype)
    ungrouped = (none, np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int32))
    return (is_cand, budget, 2 * m + ko.TINY_REACH, none, np.zeros(0, dtype=np.int32),
            ungrouped)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([Rules(pegs=5, colors=7), Rules(pegs=5, colors=6, repeats=False),
                        Rules(pegs=4, colors=4, blanks=True)]),
       st.integers(0, 2**32 - 1), st.data())
def test_tiny_scan_with_multisets_equals_without(rules, seed, data):
    """`_tiny_scan` on a view's small sets gives the same choice, value and parts with the
    multiset bound as without, reading rows or columns (views of thousands of probes,
    whose blocks the bound mostly rules out: only the others' columns are read); when it
    finds no choice, its bound is at least the one found without, having scanned at most
    as many probes (none when the multisets alone rule every probe out)."""
    space = get_space(rules)
    view, seed = _random_view(space, seed)
    table = view.table()
    sets, shared = search._Search.multisets(view)
    assert sets.shape[0] == view.size
    probes = view.probe_order
    columns = view.columns()
    m = data.draw(st.integers(6, min(view.m, space.n_responses)))
    rng = np.random.default_rng(seed)
    S = np.sort(rng.choice(view.m, size=m, replace=False)).astype(np.int32)
    is_cand, budget, reach, none, no_sets, ungrouped = _tiny_inputs(data, table, S, view.size)
    # the same probes, not contiguous: numba types them as the search passes them (layout
    # 'A'), so this test loads the search's compiled scan instead of compiling its own (10 s)
    strided = np.repeat(probes, 2)[::2]

    def scan(cols, s, by_set=ungrouped):
        return tuple(int(x) for x in ko._tiny_scan(
            S, strided, table, cols, s, shared, by_set, is_cand, budget, reach, 4, False,
            np.zeros(slots.COUNTER_SLOTS, np.int64)))

    results = {cols.shape[0] > 0: [scan(cols, s) for s in (no_sets, sets)]
               for cols in (none, columns)}
    assert results[True] == results[False]  # rows or columns: the same
    # the columns again with the probes grouped by multiset: the same, probes scanned too
    assert columns.shape[0] == view.m + 2
    assert scan(columns, sets, view.columns_by_set()) == results[True][1]
    plain, with_sets = results[True]
    if plain[0]:  # found: the same choice, value and parts
        assert with_sets == plain
    else:
        assert not with_sets[0] and with_sets[4] >= plain[4] and with_sets[5] <= plain[5]
    if with_sets[5] == 0:  # every probe ruled out by the multisets alone: a valid bound,
        # at most every probe's own 2m - w + excess (its answers on S counted)
        rows = np.sort(table[probes][:, S], axis=1)
        kinds = 1 + (np.diff(rows, axis=1) != 0).sum(axis=1)
        assert with_sets[4] <= int((3 * m - is_cand[probes] - kinds).min())


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([Rules(pegs=4, colors=6), Rules(pegs=5, colors=6, repeats=False),
                        Rules(pegs=4, colors=5), Rules(pegs=3, colors=8)]),
       st.integers(0, 2**32 - 1), st.data())
def test_the_excess_bound_is_below_every_probe(rules, seed, data):
    """`_excess_bound` (the root's cheap bound on a small part) is at most the least, over
    every code as a probe, of 2m - w + its excess on S, counted naively (w = 1 for a
    member of S); and at least 2m - 1."""
    from tests.naive import blackwhite

    space = get_space(rules)
    m = data.draw(st.integers(6, min(space.n_responses, 20)))
    rng = np.random.default_rng(seed)
    S = np.sort(rng.choice(space.size, size=m, replace=False)).astype(np.int32)
    codes = [tuple(int(x) for x in c) for c in space.codes]
    members = set(S.tolist())
    naive = min(2 * m - (1 if g in members else 0)
                + m - len({blackwhite(codes[s], codes[g]) for s in S.tolist()})
                for g in range(space.size))
    sets, shared = search._Search.multisets(space)
    got = int(ko._excess_bound(S, space.table(), sets, shared))
    assert 2 * m - 1 <= got <= naive


def test_only_black_white_views_group_their_columns_by_multiset():
    view, _ = _random_view(get_space(Rules(pegs=4, colors=6, feedback="positional")), 0)
    assert not view.sets_in_columns
    with pytest.raises(ValueError, match="black/white"):
        view.columns_by_set()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([Rules(pegs=4, colors=6), Rules(pegs=5, colors=7, repeats=False),
                        Rules(pegs=3, colors=9)]),
       st.integers(0, 2**32 - 1), st.data())
def test_tiny_scan_reads_a_full_tables_spans_as_its_rows(rules, seed, data):
    """On a full table (table[s, g] == table[g, s]) `_tiny_scan` reads the rows of S's codes
    as columns, a span of codes at a time, for probes in order filling at least a third of
    their span (`span`): the same choice, value, parts, bound and probes scanned as reading
    each probe's row, with the multiset bound and without."""
    space = get_space(rules)
    table = space.table()
    sets, shared = search._Search.multisets(space)
    N = space.size
    m = data.draw(st.integers(6, space.n_responses))
    rng = np.random.default_rng(seed)
    S = np.sort(rng.choice(N, size=m, replace=False)).astype(np.int32)
    start = data.draw(st.integers(0, N // 2))
    span = np.arange(start, N, dtype=np.int64)
    keep = rng.random(span.size) < data.draw(st.floats(0.34, 1.0))
    keep[::3] = True  # (at least a third of the span)
    probes = span[keep]
    assert ko._dense(probes)
    is_cand, budget, reach, none, no_sets, ungrouped = _tiny_inputs(data, table, S, N)
    strided = np.repeat(probes, 2)[::2]  # (typed as the search passes them: see above)

    def scan(cols, s, by_span):
        return tuple(int(x) for x in ko._tiny_scan(
            S, strided, table, cols, s, shared, ungrouped, is_cand, budget, reach, 4, by_span,
            np.zeros(slots.COUNTER_SLOTS, np.int64)))

    for s in (no_sets, sets):
        assert scan(table, s, True) == scan(none, s, False)
