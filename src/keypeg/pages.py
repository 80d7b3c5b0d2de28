"""Small memory pages for the arrays of a search on a candidate view.

numpy asks Linux for transparent huge pages (2 MB) for every array of 4 MB or more
(``madvise(MADV_HUGEPAGE)``). Where the kernel then has to compact memory to find each
huge page, and zeroes 2 MB at each first touch, a position's search paid for it in its
first second: at MM(6,9)'s 132-candidate position, a search stopped after 0.9 s on one
worker had spent 1.36 s of system time and 0.43 s of its own (measured ad hoc,
2026-12-06: `resource.getrusage` around `solve_optimal`), and 0.21 s and 0.83 s with
numpy's huge pages off. A view's arrays (three of about 70 MB there, and the memo's) are
made afresh for each position, so a hint, which has a second, lost most of it.

`small_pages` turns numpy's advice off while the arrays of a view's search are made; the
full tables of whole games keep theirs (their searches read them at random for minutes).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

try:  # (numpy 2; numpy 1.26 has it under numpy.core)
    from numpy._core.multiarray import _set_madvise_hugepage as _advise
except ImportError:  # pragma: no cover - numpy 1.x
    try:
        from numpy.core.multiarray import _set_madvise_hugepage as _advise
    except ImportError:
        _advise = None

_advise_huge: Callable[[bool], bool] | None = _advise
_lock = threading.Lock()
_holders = 0  # threads inside `small_pages`
_before = True  # numpy's setting when the first of them came in


@contextlib.contextmanager
def small_pages() -> Iterator[None]:
    """Make numpy's arrays in this block without asking for huge pages (restored when the
    last thread inside leaves; arrays other threads make meanwhile get small pages too)."""
    global _holders, _before
    if _advise_huge is None:  # pragma: no cover - a numpy without the switch
        yield
        return
    with _lock:
        if _holders == 0:
            _before = _advise_huge(False)
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0:
                _advise_huge(_before)


def huge_pages_advised() -> bool:
    """Whether numpy now asks for huge pages for its big arrays."""
    if _advise_huge is None:  # pragma: no cover - a numpy without the switch
        return False
    with _lock:
        now = _advise_huge(True)
        _advise_huge(now)
        return now
