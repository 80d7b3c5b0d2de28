"""Pacing for tests whose subject is a timing: a worker lent while a big part is split."""

from __future__ import annotations

import time

from keypeg.solver.roots import PartWorker


def unhurried_until(monkeypatch, lent: list[bool]):
    """Make the parts of the parts split by one worker (the first to split one) wait a
    little (up to 50 ms each) until a worker was borrowed (a True in `lent`), so that its
    split is still running when the other worker has nothing left at the root, however
    loaded the machine or fast the search (otherwise whether a loan happens at all is down
    to timing: with both slowed, both splits could end together); return the real
    `PartWorker.run_part`."""
    run_part = PartWorker.run_part
    slowed: list[PartWorker] = []

    def unhurried(self, part, depth, budget, kmax, history, dist=1):
        if dist >= 2 and not any(lent):
            if not slowed:
                slowed.append(self)
            if self is slowed[0]:
                # up to 50 ms per part, until a loan: 5 ms flat was too little once on a
                # loaded machine (a cluster's actors sharing two cores with the suite: the
                # split ended while the root's other worker was still busy)
                deadline = time.monotonic() + 0.05
                while not any(lent) and time.monotonic() < deadline:
                    time.sleep(0.005)
        return run_part(self, part, depth, budget, kmax, history, dist)

    monkeypatch.setattr(PartWorker, "run_part", unhurried)
    return run_part
