"""The search's kernels called from Python through their entry points (`_Search.call`):
the same values as numba's dispatcher, and a new entry for arguments of another type."""

from __future__ import annotations

import numpy as np

from keypeg._kernels import optimal as k
from keypeg._kernels import slots
from keypeg.rules import Rules
from keypeg.solver.parallel import child_history, part_history
from keypeg.solver.search import _arg_key, _Search
from keypeg.space import get_space


def _search(space) -> _Search:
    return _Search(space, possible_only=False, capped=False, first=-1, symmetry=True,
                   trace=False, n_max=space.size)


def test_parts_solved_through_the_entry_point_cost_what_the_dispatcher_finds():
    """Every part of MM(4,6)'s first guesses 1122 and 1234, solved by one search through
    `call` and by another calling the kernel as numba dispatches it: the same costs (so
    the same for the root, the published 5,625 less its first guess's parts counted
    separately), and the entries kept are the compiled functions' own."""
    space = get_space(Rules(pegs=4, colors=6))
    S = np.arange(space.size, dtype=np.int32)
    direct, plain = _search(space), _search(space)
    root = direct.history_after([], S)
    R = int(direct.options[slots.OPT_ANSWERS])
    costs = []
    for text in ("1122", "1234"):
        g = space.index(text)
        child = child_history(direct, root, g)
        for answer, part in sorted(space.partition(g, S).items()):
            if answer == space.win or part.size < 3:
                continue
            history = part_history(direct, child, g, answer)
            got = direct.run_part(part, 20, int(k.INF) // 2, R, history)
            want = int(k.solve(part, 20, int(k.INF) // 2, R, 1, history, plain.game,
                               plain.bounds, plain.memo, plain.run_state))
            assert got == want
            costs.append(got)
    assert len(costs) > 20 and len(set(costs)) > 10
    assert direct._entries and all(e is not k.solve for e in direct._entries.values())


def test_arguments_of_another_type_get_another_entry():
    """The key of an argument tells apart what numba's types tell apart: the element
    type, the layout (a strided view is not contiguous) and whether it may be written."""
    a = np.arange(12, dtype=np.int32)
    keys = {_arg_key(a), _arg_key(a.astype(np.int64)), _arg_key(a[::2]),
            _arg_key(a.reshape(3, 4)), _arg_key(a.reshape(3, 4).T)}
    ro = a.copy()
    ro.flags.writeable = False
    keys.add(_arg_key(ro))
    assert len(keys) == 6
    assert _arg_key(3) != _arg_key(np.uint64(3))
    assert _arg_key(slots.History(a, a, np.uint64(0))) != _arg_key((a, a, np.uint64(0)))
