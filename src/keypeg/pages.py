"""Small memory pages for numpy's arrays: keypeg turns numpy's huge-page advice off.

numpy asks Linux for transparent huge pages (2 MB) for every array of 4 MB or more
(``madvise(MADV_HUGEPAGE)``). Where memory is fragmented, the kernel then compacts memory
to find each huge page, and zeroes 2 MB at each first touch: keypeg's big arrays, made
afresh for each game and position, paid for it many times over. Measured ad hoc on the
2-core development machine (2026-12-06; wall time, and system time from `time`):

- `keypeg optimal --rules codebreaker-1 --recompute`: 15.4 s (11.9 s system) with numpy's
  advice, 4.3 s (0.7 s system) without;
- MM(8,8)'s code space built cold: 3.1-4.0 s against 1.1-1.2 s, and its first hint
  2.7-3.4 s against 0.85 s;
- a search at MM(6,9)'s 132-candidate position stopped after 0.9 s on one worker: 1.36 s
  of system time and 0.43 s of its own with the advice, 0.21 s and 0.83 s without (the
  optimal hint has one second).

So importing `keypeg.space` (which every numeric part of keypeg does) turns numpy's advice
off for the process; set ``KEYPEG_HUGE_PAGES=1`` to keep numpy's own setting. A full
feedback table and the memo of a search on it are the exception (`huge_pages`): searches
read them at random, and huge pages made warm searches faster (MM(4,6) 46 ms against
57 ms, MM(4,7) on one worker 1.48 s against 1.60 s); there the cost is paid once per
table, though for codebreaker-1's 914 MB table the whole command still took 5.3-9.5 s in
three runs, against 4.1-4.3 s with small pages everywhere and 5.8-15.4 s with numpy's
advice everywhere (the compaction's cost varies with the state of the machine's memory).
A position's candidate view and its memo, made afresh for each position, get small pages.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
from collections.abc import Callable, Iterator


def _find_advise() -> Callable[[bool], bool] | None:
    """Return numpy's huge-page switch (numpy 2 has it under numpy._core, numpy 1.26
    under numpy.core), or None for a numpy without it."""
    for module in ("numpy._core.multiarray", "numpy.core.multiarray"):
        try:
            switch: Callable[[bool], bool] = (
                importlib.import_module(module)._set_madvise_hugepage)
            return switch
        except (ImportError, AttributeError):  # pragma: no cover - numpy 1.x, or none
            continue
    return None  # pragma: no cover


_advise_huge: Callable[[bool], bool] | None = _find_advise()
_lock = threading.Lock()
_holders = 0  # threads inside `huge_pages`
_before = False  # numpy's setting when the first of them came in
#: The environment variable that keeps numpy's own huge-page advice.
HUGE_PAGES_ENV = "KEYPEG_HUGE_PAGES"


def prefer_small_pages() -> None:
    """Turn numpy's huge-page advice off for this process, unless ``KEYPEG_HUGE_PAGES`` is
    set to 1 (or numpy has no such switch)."""
    if _advise_huge is None or os.environ.get(HUGE_PAGES_ENV, "").strip() == "1":
        return
    with _lock:
        _advise_huge(False)


def huge_pages_advised() -> bool:
    """Whether numpy now asks for huge pages for its big arrays."""
    if _advise_huge is None:  # pragma: no cover - a numpy without the switch
        return False
    with _lock:
        now = _advise_huge(True)
        _advise_huge(now)
        return now


@contextlib.contextmanager
def huge_pages() -> Iterator[None]:
    """Make numpy's big arrays in this block with its huge-page advice on: for a full
    table and its search's memo, read at random for as long as the search runs, where
    2 MB pages saved more than they cost (a warm MM(4,6) search 46 ms against 57 ms, MM(4,7)
    on one worker 1.48 s against 1.60 s, ad hoc). Restored when the last thread inside
    leaves; arrays other threads make meanwhile get huge pages too."""
    global _holders, _before
    if _advise_huge is None:  # pragma: no cover - a numpy without the switch
        yield
        return
    with _lock:
        if _holders == 0:
            _before = _advise_huge(True)
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0:
                _advise_huge(_before)
