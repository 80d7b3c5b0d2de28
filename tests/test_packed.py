"""The optimal search's packed counts (4-bit fields of one word per probe, `score_probes`
on four-peg black/white games) against plain counting: for any list of probes, and for a
run of consecutive codes (every code, as deep in the tree), which is counted another way."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg._kernels import optimal as k
from keypeg.rules import Rules
from keypeg.space import get_space


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 14), min_size=1, max_size=15), st.integers(0, 16))
def test_packed_fields_give_the_parts_the_largest_and_the_bound(answers, limit):
    counts = np.bincount(answers, minlength=15)
    acc = np.uint64(sum(1 << (4 * a) for a in answers))
    assert k._packed_parts(acc) == np.count_nonzero(counts)
    assert k._packed_over(acc, limit) == (counts.max() > limit)
    ltab, ctab = k.bound_tables(20, 15, False)
    f = ltab[5]
    for win in (0, 14):
        for cap in (1, 3, 15):
            want = k._row_bound(counts.astype(np.int32), win, f, cap, 15)
            assert k._packed_bound(acc, np.uint64(0), np.uint64(0), 15, win, f, cap, 15) == want


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 29), min_size=1, max_size=15), st.integers(0, 16))
def test_two_words_hold_thirty_answers(answers, limit):
    """Answers 15 and up count in the second word, from its field 1."""
    counts = np.bincount(answers, minlength=30)
    low = np.uint64(sum(1 << (4 * a) for a in answers if a < 15))
    high = np.uint64(sum(1 << (4 * (a - 14)) for a in answers if a >= 15))
    assert k._packed_parts(low) + k._packed_parts(high) == np.count_nonzero(counts)
    over = k._packed_over(low, limit) or k._packed_over(high, limit)
    assert over == (counts.max() > limit)
    ltab, _ = k.bound_tables(20, 30, False)
    want = k._row_bound(counts.astype(np.int32), 29, ltab[7], 15, 15)
    assert k._packed_bound(low, high, np.uint64(0), 30, 29, ltab[7], 15, 15) == want


def _words(answers: list[int], first: list[int]) -> list[np.uint64]:
    """Pack answers in 4-bit fields: word i counts answers first[i] to first[i + 1] - 1,
    the first of them in field 0 of the first word and in field 1 of each later word."""
    ends = first[1:] + [10**6]
    return [np.uint64(sum(1 << (4 * (a - lo + (i > 0))) for a in answers if lo <= a < hi))
            for i, (lo, hi) in enumerate(zip(first, ends, strict=True))]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 44), min_size=1, max_size=15), st.integers(0, 16))
def test_three_words_hold_forty_five_answers(answers, limit):
    """Seven and eight pegs (35 and 44 answers): answers 30 and up count in a third word,
    from its field 1."""
    counts = np.bincount(answers, minlength=45)
    low, high, top = _words(answers, [0, 15, 30])
    assert sum(k._packed_parts(w) for w in (low, high, top)) == np.count_nonzero(counts)
    over = any(k._packed_over(w, limit) for w in (low, high, top))
    assert over == (counts.max() > limit)
    ltab, _ = k.bound_tables(20, 45, False)
    for win in (0, 34, 44):
        want = k._row_bound(counts.astype(np.int32), win, ltab[9], 15, 15)
        assert k._packed_bound(low, high, top, 45, win, ltab[9], 15, 15) == want


def _probes(data: st.DataObject, size: int, most: int) -> np.ndarray:
    """Probes to count: any list of codes, a run of consecutive codes (to the last), or
    codes in order filling at least a third of their span (counted as a run of the span,
    `_span_counts`, a block at a time: spans of up to 600 codes cross blocks)."""
    kind = data.draw(st.sampled_from(["list", "run", "dense"]))
    if kind == "run":
        start = data.draw(st.integers(0, size - 1))
        end = data.draw(st.sampled_from([size, min(size, start + data.draw(st.integers(1, 40)))]))
        return np.arange(start, end, dtype=np.int64)
    if kind == "dense":
        start = data.draw(st.integers(0, size - 1))
        end = min(size, start + data.draw(st.integers(1, 600)))
        keep = np.array(data.draw(st.lists(st.booleans(), min_size=end - start,
                                           max_size=end - start)))
        keep[::3] = True  # (at least a third)
        keep[-1] = True
        probes = np.arange(start, end, dtype=np.int64)[keep]
        assert k._dense(probes)
        return probes
    return np.array(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=most)),
                    dtype=np.int64)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_packed_counts_equal_the_answers_counted_plainly(data):
    space = get_space(Rules(pegs=4, colors=5))
    m = data.draw(st.integers(1, 15))
    S = np.array(data.draw(st.lists(st.integers(0, space.size - 1), min_size=m, max_size=m,
                                    unique=True)), dtype=np.int32)
    probes = _probes(data, space.size, 11)
    accs = np.zeros(probes.size, dtype=np.uint64)
    table = space.table()
    k._packed_counts(S, probes, table, accs, np.zeros(16, dtype=np.int64))
    for t, g in enumerate(probes.tolist()):
        counts = np.bincount(table[g, S], minlength=space.n_responses)
        want = sum(int(n) << (4 * r) for r, n in enumerate(counts.tolist()))
        assert int(accs[t]) == want


@pytest.mark.parametrize("rules", [Rules(pegs=7, colors=2), Rules(pegs=8, colors=2)],
                         ids=["35 answers", "44 answers"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_three_word_counts_equal_the_answers_counted_plainly(rules, data):
    space = get_space(rules)
    m = data.draw(st.integers(1, 15))
    S = np.array(data.draw(st.lists(st.integers(0, space.size - 1), min_size=m, max_size=m,
                                    unique=True)), dtype=np.int32)
    probes = _probes(data, space.size, 9)
    words = [np.zeros(probes.size, dtype=np.uint64) for _ in range(3)]
    table = space.table()
    k._packed_counts_triple(S, probes, table, *words, np.zeros(16, dtype=np.int64))
    for t, g in enumerate(probes.tolist()):
        want = _words(table[g, S].tolist(), [0, 15, 30])
        assert [int(w[t]) for w in words] == [int(w) for w in want]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=1, max_size=127), st.integers(0, 130))
def test_bytes_hold_sixteen_answers_of_127_codes(answers, limit):
    """Sets of 16 to 127 codes: 8-bit fields, answers 8 and up in the second word."""
    counts = np.bincount(answers, minlength=16)
    low = np.uint64(sum(1 << (8 * a) for a in answers if a < 8))
    high = np.uint64(sum(1 << (8 * (a - 8)) for a in answers if a >= 8))
    assert k._byte_parts(low) + k._byte_parts(high) == np.count_nonzero(counts)
    assert (k._byte_over(low, limit) or k._byte_over(high, limit)) == (counts.max() > limit)
    ltab, _ = k.bound_tables(130, 16, False)
    for cap in (5, 40, 127):
        want = k._row_bound(counts.astype(np.int32), 15, ltab[9], cap, 127)
        assert k._byte_bound(low, high, 16, 15, ltab[9], cap, 127) == want


#: The two-word countings: the kernel, a game with that many answers, the most codes, the
#: field width, the first answer of the second word and the field it starts in there.
TWO_WORDS = [
    (k._packed_counts_wide, Rules(pegs=5, colors=3), 15, 4, 15, 1),  # 20 answers
    (k._byte_counts, Rules(pegs=4, colors=4), 127, 8, 8, 0),  # 14 answers, 256 codes
]


@pytest.mark.parametrize(("count", "rules", "most", "width", "split", "first"), TWO_WORDS,
                         ids=["wide", "bytes"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_two_word_counts_equal_the_answers_counted_plainly(count, rules, most, width, split,
                                                           first, data):
    space = get_space(rules)
    m = data.draw(st.integers(1, min(most, space.size)))
    S = np.array(data.draw(st.lists(st.integers(0, space.size - 1), min_size=m, max_size=m,
                                    unique=True)), dtype=np.int32)
    probes = _probes(data, space.size, 7)
    low = np.zeros(probes.size, dtype=np.uint64)
    high = np.zeros(probes.size, dtype=np.uint64)
    table = space.table()
    count(S, probes, table, low, high, np.zeros(16, dtype=np.int64))
    for t, g in enumerate(probes.tolist()):
        counts = np.bincount(table[g, S], minlength=space.n_responses).tolist()
        assert int(low[t]) == sum(n << (width * r) for r, n in enumerate(counts) if r < split)
        assert int(high[t]) == sum(n << (width * (r - split + first))
                                   for r, n in enumerate(counts) if r >= split)


#: The bound pass's field layouts: packed (4-bit fields, answers 15 and up in a second word
#: when wide, from its field 1, and 30 and up in a third, from its field 1), or bytes
#: (answers 8 and up in the second word).
LAYOUTS = [(True, False, 15, 15), (True, True, 30, 15), (True, True, 45, 15),
           (False, False, 16, 127)]


@pytest.mark.parametrize(("packed", "wide", "answers", "most"), LAYOUTS,
                         ids=["packed", "wide", "three words", "bytes"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_packed_pass_bounds_each_probe_as_its_counts_do(packed, wide, answers, most, data):
    """`_packed_pass` against each probe's counts bounded plainly: the closed form 3m - w - k
    when no part (the win included) holds more than `small` codes, else `_row_bound`; no
    bound for a probe that leaves S in one part; the live probes those under the budget,
    in order, and the least bound of the others. The counts are as a search meets them: a
    candidate wins on one code (its own), a non-candidate on none."""
    m = data.draw(st.integers(1, most))
    P = data.draw(st.integers(1, 40))
    N = 200
    if data.draw(st.booleans()):  # a run of codes, or any codes in order
        start = data.draw(st.integers(0, N - P))
        probes = np.arange(start, start + P, dtype=np.int64)
    else:
        probes = np.array(sorted(data.draw(st.sets(st.integers(0, N - 1), min_size=P,
                                                   max_size=P))), dtype=np.int64)
    is_cand = np.array(data.draw(st.lists(st.booleans(), min_size=N, max_size=N)))
    win = data.draw(st.sampled_from([0, answers - 1]))
    cap = data.draw(st.integers(0, m + 2))
    budget = data.draw(st.integers(0, 3 * m + 5))
    # as score_probes passes them: f the bounds for at most kS parts per probe, and small
    # the most codes a part may hold for its bound 2n - 1 (ctab[kS, 2], at most cap; 0
    # when fewer than two guesses are left)
    ltab, ctab = k.bound_tables(130, answers, False)
    kS = data.draw(st.integers(1, answers))
    f = ltab[kS]
    small = data.draw(st.sampled_from([min(int(ctab[kS, 2]), cap), 0]))
    # each probe's answers on S: the win once when it is a candidate (its own code)
    others = [r for r in range(answers) if r != win]
    rows = []
    for g in probes.tolist():
        w = int(is_cand[g]) if m > 1 else 0
        drawn = data.draw(st.lists(st.sampled_from(others), min_size=m - w, max_size=m - w))
        rows.append(np.bincount(drawn + [win] * w, minlength=answers))
    is_cand[probes] = [row[win] == 1 for row in rows]
    if packed:
        packs = [_words(np.repeat(np.arange(answers), c).tolist(), [0, 15, 30]) for c in rows]
        accs, highs, tops = (np.array(w, dtype=np.uint64) for w in zip(*packs, strict=True))
    else:
        accs = np.array([sum(int(n) << (8 * r) for r, n in enumerate(c) if r < 8)
                         for c in rows], dtype=np.uint64)
        highs = np.array([sum(int(n) << (8 * (r - 8)) for r, n in enumerate(c) if r >= 8)
                          for c in rows], dtype=np.uint64)
    nparts = np.array([np.count_nonzero(c) for c in rows], dtype=np.int64)
    lbs, keys, live = (np.empty(P, dtype=np.int64) for _ in range(3))
    if answers > 30:  # (three words: a pass of its own)
        n_live, low = k._packed_pass_triple(accs, highs, tops, nparts, probes, is_cand, small,
                                            win, f, cap, m, budget, lbs, keys, live)
    else:
        n_live, low = k._packed_pass(accs, highs if wide or not packed else highs[:0], nparts,
                                     probes, is_cand, packed, wide, small, answers, win, f, cap,
                                     m, budget, lbs, keys, live)
    want_live, want_low = [], k.INF
    for t, counts in enumerate(rows):
        total, w = k.INF, int(is_cand[probes[t]])
        if nparts[t] > 1:
            total = (3 * m - w - int(nparts[t]) if counts.max() <= small
                     else k._row_bound(counts.astype(np.int32), win, f, cap, m))
        assert lbs[t] == total
        assert keys[t] == (2 * total + 1 - w if total < k.INF else k.INF)
        if total < budget:
            want_live.append(t)
        else:
            want_low = min(want_low, total)
    assert live[:n_live].tolist() == want_live
    assert low == want_low


@pytest.mark.parametrize("rules", [Rules(pegs=5, colors=3), Rules(pegs=6, colors=3)],
                         ids=["20 answers", "27 answers"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_table_words_count_the_answers_of_up_to_127_codes(rules, data):
    """Sets of 16 to 127 codes with 17 to 32 answers on a full table: bytes of four words
    (answer r in byte r % 8 of word r // 8), counted over every code the probes span, a
    block of WORDS_BLOCK codes at a time: for a run of codes, or for probes in order that
    fill a third of their span."""
    space = get_space(rules)
    N = space.size
    m = data.draw(st.integers(1, 127))
    S = np.array(data.draw(st.lists(st.integers(0, N - 1), min_size=m, max_size=m,
                                    unique=True)), dtype=np.int32)
    start = data.draw(st.integers(0, N - 1))
    end = data.draw(st.integers(start + 1, N))
    probes = np.arange(start, end, dtype=np.int64)
    if data.draw(st.booleans()):  # every code, or at least a third of them
        keep = data.draw(st.lists(st.booleans(), min_size=probes.size, max_size=probes.size))
        keep[0] = keep[-1] = True
        probes = probes[np.array(keep)]
        if 3 * probes.size < end - start:
            assert not k._dense(probes)
            return
    assert k._dense(probes)
    P = probes.size
    words = np.zeros((P, 4), dtype=np.uint64)
    nparts = np.zeros(P, dtype=np.int64)
    useful = np.zeros(P, dtype=bool)
    table = space.table()
    most = k._table_words(S, probes, table, words, nparts, useful, np.zeros(16, dtype=np.int64))
    for t, g in enumerate(probes.tolist()):
        counts = np.bincount(table[g, S], minlength=32).tolist()
        want = [sum(counts[8 * q + b] << (8 * b) for b in range(8)) for q in range(4)]
        assert [int(w) for w in words[t]] == want
        assert nparts[t] == np.count_nonzero(counts)
        assert useful[t] == (nparts[t] > 1)
    assert most == max([1] + [n for n in nparts.tolist() if n > 1])


def test_probes_out_of_order_or_sparse_are_not_counted_as_a_span():
    assert k._dense(np.array([3, 4, 6], dtype=np.int64))
    assert not k._dense(np.array([3, 6, 4], dtype=np.int64))  # out of order
    assert not k._dense(np.array([3, 3, 4], dtype=np.int64))  # repeated
    assert k._dense(np.array([3, 5, 9], dtype=np.int64))  # 3 of the 7 codes spanned
    assert k._dense(np.array([3, 5, 11], dtype=np.int64))  # 3 of 9
    assert not k._dense(np.array([3, 5, 12], dtype=np.int64))  # 3 of 10
    assert not k._dense(np.array([], dtype=np.int64))
