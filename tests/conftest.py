"""Test setup: a cache directory inside the checkout, so tables are built once per machine."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("KEYPEG_CACHE_DIR", str(ROOT / ".keypeg-cache"))
os.environ.setdefault("KEYPEG_DB", str(Path(tempfile.mkdtemp(prefix="keypeg-test-")) / "k.db"))

import pytest  # noqa: E402

#: the optimal search's time in the tests of a hint out of time (`short_hints`)
HINT_SECONDS = 0.02


@pytest.fixture
def no_book():
    """Hide the opening books (keypeg.book), for tests of the live search in positions a
    book answers at once (bulls-and-cows after two guesses is where it is slowest)."""
    from keypeg.book import without_books

    with without_books():
        yield


@pytest.fixture
def parallel_root(monkeypatch):
    """Spread the root's parts over the workers however many first guesses it has (by
    default a root of many, as in most positions, is searched by one worker), for tests of
    the parallel root on small positions."""
    from keypeg.solver import search

    monkeypatch.setattr(search, "PARALLEL_ROOT_GUESSES", 10**9)


@pytest.fixture
def short_hints(monkeypatch):
    """Give the web hints' optimal search `HINT_SECONDS` instead of its second, for tests
    of a hint out of time: the search gets faster as keypeg does (and on faster machines),
    so they give it far less time than it needs rather than count on it being slow."""
    from functools import partial

    from keypeg import hints
    from keypeg.web import service

    monkeypatch.setattr(service, "hint", partial(hints.hint, optimal_seconds=HINT_SECONDS))
