"""A search told to stop (STOP slot: the time limit, a first guess beaten at the root, a
team member done) keeps its memo and is used again: the parallel root hands the same
search the next part, and teams reuse their members. So whatever a stopped search leaves
in its memo must be true. A node stopped after it had costed some of its probes knows
only what its best so far costs, not that nothing cheaper exists; recorded as the set's
value, it made the next search of MM(4,6) on the same memo find 5,628 instead of 5,625.

Each stopped memo here is checked against the memo of the same search run to the end
(the same sets in the same order up to the stop): every value both record as exact must
be the same."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from keypeg._kernels import memo as km
from keypeg._kernels import optimal as k
from keypeg._kernels import slots
from keypeg.published import published
from keypeg.rules import Rules
from keypeg.solver.search import _Search
from keypeg.space import get_space


def _search(space) -> _Search:
    return _Search(space, possible_only=False, capped=False, first=-1, symmetry=True,
                   trace=False, n_max=space.size)


def _exact_entries(search: _Search) -> list[tuple[np.ndarray, int, int]]:
    """(set, guesses left key, value) of every exact entry of a search's memo."""
    out = []
    for e in range(int(search.mmeta[slots.MEMO_USED_ENTRIES])):
        row = search.ment[e]
        if row[slots.ENTRY_GUESS] < 0:
            continue
        off, n = int(row[slots.ENTRY_OFFSET]), int(row[slots.ENTRY_LENGTH])
        out.append((search.mpool[off:off + n].copy(), int(row[slots.ENTRY_GUESSES_LEFT]),
                    int(row[slots.ENTRY_VALUE])))
    return out


def _stopped_at(space, sets: int) -> _Search:
    """A search of the whole game told to stop once it has expanded `sets` sets."""
    search = _search(space)
    S = np.arange(space.size, dtype=np.int32)
    worker = threading.Thread(target=search.run, args=(S, 20, int(k.INF), []))
    worker.start()
    while worker.is_alive() and search.counters[slots.N_SETS] < sets:
        pass  # (spin: the stop lands within a few sets of the mark)
    search.counters[slots.STOP] = 1
    worker.join()
    search.counters[slots.STOP] = 0
    return search


@pytest.mark.parametrize("pegs,colors", [(4, 6), (3, 8)])
def test_a_stopped_search_leaves_only_true_values_in_its_memo(pegs, colors):
    total = published()["ledger"]["totals"][str(pegs)][str(colors)]
    space = get_space(Rules(pegs=pegs, colors=colors))
    S = np.arange(space.size, dtype=np.int32)
    full = _search(space)
    assert full.run(S, 20, int(k.INF), []) == total
    expanded = int(full.counters[slots.N_SETS])
    checked = 0
    for share in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        stopped = _stopped_at(space, int(share * expanded))
        for codes, dkey, value in _exact_entries(stopped):
            e = int(km.memo_find(codes, dkey, full.mheads, full.ment, full.mpool))
            if e >= 0 and full.ment[e, slots.ENTRY_GUESS] >= 0:
                checked += 1
                assert value == full.ment[e, slots.ENTRY_VALUE], (
                    f"stopped at {share:.0%}: a set of {codes.size} codes recorded at "
                    f"{value}, its cost is {full.ment[e, slots.ENTRY_VALUE]}")
        # and the next search on that memo finds the optimum
        assert stopped.run(S, 20, int(k.INF), []) == total
    assert checked > 1000  # (the comparison did compare)
