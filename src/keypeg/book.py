"""Opening books: the optimal next guess, worked out in advance, for the positions early in
a game whose live search can take longer than a hint's second there.

Renaming colours and permuting positions (in every code at once) keeps black/white answers,
so two histories that are images of each other lead to positions that are images of each
other, with the same optimal total, and the image of an optimal guess is optimal there. A
book stores one history per class, its canonical form: over every position permutation,
the codes are permuted and their colours renamed in order of first appearance, and the
least result wins (the least renaming for a fixed position order is that one, so this is
the least image under the whole group). A lookup puts the history in that form, reads the
stored guess, and maps it back; colours the history never played are all alike to it, so
the guess's unplayed colours go to the smallest unplayed colours.

A book holds every position of at least three codes after at most two guesses, and after
three guesses those of at least ``deep_from`` codes (smaller ones take milliseconds live),
except where a clue is redundant: a position is looked up without the clues that do not
change its candidates (a repeated guess, say), so a longer history can still be answered.

Each entry holds the guess, the optimal total over the candidates from there (guesses
still to play, the next included) and the most guesses the stored tree needs from there.
Entries were solved without a guess limit, so an entry answers a game with a limit only
when that tree fits it (guesses played + the entry's depth <= the limit): then it is that
game's optimum too. `scripts/make_book.py` writes a book; `tests/test_book.py` checks
entries against the naive optimum and the live search.
"""

from __future__ import annotations

import gzip
import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from .rules import Rules

#: Shipped books by (pegs, colours, repeats): file names under keypeg/data.
BOOKS = {(4, 10, False): "book-p4-c10-norep.json.gz"}
#: The most guesses a book's positions have played.
BOOK_DEPTH = 3
#: At the deepest level a book keeps the positions of at least this many codes.
DEEP_FROM = 100


@dataclass(frozen=True)
class BookEntry:
    """An optimal next guess (code index, in the caller's frame), the optimal total over
    the candidates from there, and the most guesses that takes."""

    guess: int
    total: int
    depth: int


@contextmanager
def without_books() -> Iterator[None]:
    """Hide the shipped books for a while (the live search's own time, in benchmarks and
    tests of the live search where a book would answer at once). Not thread-safe."""
    global BOOKS
    shipped, BOOKS = BOOKS, {}
    try:
        yield
    finally:
        BOOKS = shipped


def applies(rules: Rules) -> bool:
    """Return whether a book is shipped for these rules (black/white answers, no blanks)."""
    return (rules.feedback == "blackwhite" and not rules.blanks
            and (rules.pegs, rules.colors, rules.repeats) in BOOKS)


def canonical_history(codes: list[tuple[int, ...]]) -> tuple[tuple[tuple[int, ...], ...],
                                                             tuple[int, ...], dict[int, int]]:
    """Return (form, order, rename): the canonical form of the guesses `codes` (symbol
    tuples), with a position permutation and colour renaming that map them onto it: the
    image of code x has ``rename[x[order[i]]]`` at position i."""
    pegs = len(codes[0])
    best = None
    for order in itertools.permutations(range(pegs)):
        rename: dict[int, int] = {}
        image = []
        for x in codes:
            row = []
            for i in order:
                c = x[i]
                if c not in rename:
                    rename[c] = len(rename)
                row.append(rename[c])
            image.append(tuple(row))
        form = tuple(image)
        if best is None or form < best[0]:
            best = (form, order, rename)
    assert best is not None
    return best


def key_of(form: tuple[tuple[int, ...], ...], answers: tuple[int, ...]) -> str:
    """Return the book's key of a canonical history and its answers (response indices)."""
    return " ".join("".join(str(c) for c in x) for x in form) + "|" + " ".join(
        str(r) for r in answers)


def map_back(guess: tuple[int, ...], order: tuple[int, ...], rename: dict[int, int],
             colors: int) -> tuple[int, ...]:
    """Return the code whose image under (order, rename) is `guess` (the canonical frame's
    code), its colours the history never played going to the smallest such colours."""
    back = {v: k for k, v in rename.items()}
    free = iter(c for c in range(colors) if c not in rename)
    out = [0] * len(guess)
    for i, c in zip(order, guess, strict=True):
        if c not in back:
            back[c] = next(free)
        out[i] = back[c]
    return tuple(out)


@cache
def _load(name: str) -> dict[str, Any] | None:
    data = resources.files("keypeg").joinpath(f"data/{name}")
    if not data.is_file():
        return None
    return json.loads(gzip.decompress(data.read_bytes()))


def book_for(rules: Rules) -> dict[str, Any] | None:
    """Return the shipped book of these rules (``"rules"``, ``"entries"``: key -> [guess
    in the canonical frame, total, depth]), or None."""
    if not applies(rules):
        return None
    return _load(BOOKS[(rules.pegs, rules.colors, rules.repeats)])


def lookup(space: Any, guesses: list[int], answers: list[int],
           book: dict[str, Any] | None = None, played: int | None = None) -> BookEntry | None:
    """Return the entry of `book` (by default the shipped one of the space's rules) for the
    position after `guesses` (code indices) answered `answers` (response indices), or None
    when it holds none (no book for these rules, a position it does not keep, or a guess
    limit the stored tree does not fit, counting `played` guesses, by default as many as
    `guesses`)."""
    rules = space.rules
    if book is None:
        book = book_for(rules)
    if book is None or len(guesses) > book["depth"]:
        return None
    codes = [tuple(int(c) for c in space.codes[g]) for g in guesses]
    if codes:
        form, order, rename = canonical_history(codes)
    else:
        form, order, rename = (), tuple(range(rules.pegs)), {}
    found = book["entries"].get(key_of(form, tuple(answers)))
    if found is None:
        return None
    guess, total, depth = found
    played = len(guesses) if played is None else played
    if rules.max_guesses is not None and played + depth > rules.max_guesses:
        return None
    symbols = map_back(tuple(int(c) for c in guess), order, rename, rules.colors)
    return BookEntry(space.index_of_symbols(np.array(symbols)), int(total), int(depth))


def needed(space: Any, guesses: list[int], answers: list[int]) -> list[int]:
    """Return the positions (indices into `guesses`) of the clues that change the
    candidates: dropping the others, one at a time while one can be dropped, leaves the
    same codes possible (a clue that keeps the count of a superset keeps the set)."""
    rows = [space.responses(g, space.all()) == r for g, r in zip(guesses, answers,
                                                                    strict=True)]
    keep = list(range(len(guesses)))
    count = int(np.logical_and.reduce([rows[i] for i in keep]).sum()) if keep else space.size
    dropped = True
    while dropped and keep:
        dropped = False
        for i in reversed(keep):
            rest = [j for j in keep if j != i]
            left = (int(np.logical_and.reduce([rows[j] for j in rest]).sum()) if rest
                    else space.size)
            if left == count:
                keep = rest
                dropped = True
                break
    return keep


# ----------------------------------------------------------------------------- writing
def histories(space: Any, depth: int = BOOK_DEPTH) -> list[tuple[tuple[int, ...], ...]]:
    """Return one canonical history per class, of every length up to `depth`."""
    codes = [tuple(int(c) for c in x) for x in space.codes]
    found: list[tuple[tuple[int, ...], ...]] = [()]
    level: list[tuple[tuple[int, ...], ...]] = [()]
    for _ in range(depth):
        seen = set()
        for h in level:
            for x in codes:
                seen.add(canonical_history([*h, x])[0])
        level = sorted(seen)
        found.extend(level)
    return found


def positions(space: Any, h: tuple[tuple[int, ...], ...]) -> list[tuple[tuple[int, ...], int]]:
    """Return (answers, codes left) for every answer sequence the guesses of `h` can get
    short of a win."""
    guesses = [space.index_of_symbols(np.array(x)) for x in h]
    joint = np.zeros(space.size, dtype=np.int64)
    for g in guesses:
        joint = joint * space.n_responses + space.responses(g, space.all()).astype(np.int64)
    values, counts = np.unique(joint, return_counts=True)
    out = []
    for value, count in zip(values.tolist(), counts.tolist(), strict=True):
        answers = []
        for _ in guesses:
            value, r = divmod(value, space.n_responses)
            answers.append(r)
        answers.reverse()
        if space.win not in answers:
            out.append((tuple(answers), count))
    return out


def build_book(rules: Rules, *, deep_from: int = DEEP_FROM, depth: int = BOOK_DEPTH,
               done: dict[str, list[Any]] | None = None, on_entry: Any = None,
               workers: int | None = None) -> dict[str, Any]:
    """Return the book of `rules` (solved without a guess limit): an entry for every
    position of at least three codes after fewer than `depth` guesses, and of at least
    `deep_from` codes after `depth`, but those with a redundant clue. `done` holds entries
    already solved (key -> entry); `on_entry(key, entry, codes, seconds)` is called as each
    new one is solved."""
    import time
    from dataclasses import replace

    from .game import GameState
    from .solver.search import solve_optimal
    from .space import get_space

    if rules.colors > 10 or rules.feedback != "blackwhite" or rules.blanks:
        raise ValueError("books are written for black/white rules of at most 10 colours")
    rules = replace(rules, max_guesses=None)
    space = get_space(rules)
    entries = dict(done or {})
    by_set: dict[bytes, list[Any]] = {}
    for h in histories(space, depth):
        guesses = [space.index_of_symbols(np.array(x)) for x in h]
        for answers, count in positions(space, h):
            key = key_of(h, answers)
            if count < (deep_from if len(h) == depth else 3) or key in entries:
                continue  # one or two codes, or a small deep position: fast live
            if len(needed(space, guesses, list(answers))) < len(h):
                continue  # looked up without its redundant clues
            state = GameState.start(space)
            for g, r in zip(guesses, answers, strict=True):
                state = state.after(space.code(g), space.feedback(r))
            sig = state.candidates.tobytes()
            started = time.perf_counter()
            if sig not in by_set:
                res = solve_optimal(space, state=state, workers=workers)
                played = len(guesses)
                by_set[sig] = [[int(c) for c in space.codes[res.tree.first_guess]],
                               res.total - played * state.count, res.tree.worst - played]
            entries[key] = by_set[sig]
            if on_entry is not None:
                on_entry(key, entries[key], count, time.perf_counter() - started)
    return {"rules": {"pegs": rules.pegs, "colors": rules.colors, "repeats": rules.repeats},
            "depth": depth, "deep_from": deep_from, "entries": dict(sorted(entries.items()))}
