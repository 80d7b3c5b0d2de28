"""Opening books (keypeg.book): canonical histories, mapping guesses back, and entries
checked against the naive exhaustive optimum (small games) and the live search (the
shipped bulls-and-cows book)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg.book import (
    BOOK_DEPTH,
    DEEP_FROM,
    book_for,
    build_book,
    canonical_history,
    histories,
    key_of,
    lookup,
    map_back,
    needed,
    positions,
)
from keypeg.game import GameState
from keypeg.hints import optimal_hint
from keypeg.rules import Rules, find_rules
from keypeg.solver.search import solve_optimal
from keypeg.space import get_space
from keypeg.strategies import find_strategy
from tests.naive import all_codes, naive_optimal, score


def _apply(x, order, rename):
    """The image of code x: ``rename[x[order[i]]]`` at position i."""
    return tuple(rename[x[i]] for i in order)


@st.composite
def histories_and_moves(draw):
    pegs = draw(st.integers(2, 5))
    colors = draw(st.integers(pegs, 10))
    repeats = draw(st.booleans())
    code = (st.lists(st.integers(0, colors - 1), min_size=pegs, max_size=pegs) if repeats
            else st.permutations(range(colors)).map(lambda p: p[:pegs]))
    h = [tuple(c) for c in draw(st.lists(code, min_size=1, max_size=3))]
    order = tuple(draw(st.permutations(range(pegs))))
    colours = draw(st.permutations(range(colors)))
    return colors, h, order, dict(enumerate(colours))


@settings(max_examples=200, deadline=None)
@given(histories_and_moves())
def test_canonical_form_is_the_same_for_every_image_and_maps_back(case):
    colors, h, order, perm = case
    form, o, rename = canonical_history(h)
    assert [_apply(x, o, rename) for x in h] == list(form)
    moved = [_apply(x, order, perm) for x in h]
    assert canonical_history(moved)[0] == form
    for x in h:  # a code of the history's colours comes back as itself
        assert map_back(_apply(x, o, rename), o, rename, colors) == x


def test_map_back_sends_unplayed_colours_to_the_smallest_unplayed():
    form, order, rename = canonical_history([(5, 7, 9)])
    assert form == ((0, 1, 2),)
    assert map_back((2, 3, 4), order, rename, 10) == (9, 0, 1)


def _naive_check(rules: Rules, trials: int, seed: int) -> None:
    """Entries of a small game's book (every position up to three guesses), looked up
    from random histories (any frame, redundant clues dropped), hold the naive optimum of
    their position, and the guess they name reaches it."""
    space = get_space(rules)
    book = build_book(rules, deep_from=3)
    codes = all_codes(rules.pegs, rules.colors, rules.repeats)
    memo: dict = {}
    rng = random.Random(seed)
    checked = 0
    for _ in range(trials):
        secret = rng.choice(codes)
        h = [rng.choice(codes) for _ in range(rng.randint(0, BOOK_DEPTH + 1))]
        cands = [c for c in codes if all(score(c, g, "blackwhite") == score(secret, g,
                                                                           "blackwhite")
                                         for g in h)]
        if secret in h or len(cands) < 3:
            continue
        guesses = [space.index_of_symbols(np.array(g)) for g in h]
        answers = [int(space.responses(g, np.array([space.index_of_symbols(
            np.array(secret))], dtype=np.int32))[0]) for g in guesses]
        keep = needed(space, guesses, answers)
        # the clues kept leave the same codes, and none of them can go
        kept = [h[i] for i in keep]
        assert [c for c in codes if all(score(c, g, "blackwhite") == score(secret, g,
                                                                          "blackwhite")
                                        for g in kept)] == cands
        if len(keep) > BOOK_DEPTH:
            continue
        entry = lookup(space, [guesses[i] for i in keep], [answers[i] for i in keep], book)
        assert entry is not None, h
        best = naive_optimal(codes, cands, "blackwhite", memo=memo)
        assert entry.total == best, (h, secret)
        guess = tuple(int(c) for c in space.codes[entry.guess])
        parts: dict = {}
        for s in cands:
            parts.setdefault(score(s, guess, "blackwhite"), []).append(s)
        win = (rules.pegs, 0)
        reached = len(cands) + sum(naive_optimal(codes, p, "blackwhite", memo=memo)
                                   for r, p in parts.items() if r != win)
        assert reached == best, (h, secret, guess)
        checked += 1
    assert checked >= trials // 3


def test_a_small_book_agrees_with_the_naive_optimum_without_repeats():
    _naive_check(Rules(pegs=3, colors=5, repeats=False), 40, 1)


def test_a_small_book_agrees_with_the_naive_optimum_with_repeats():
    _naive_check(Rules(pegs=3, colors=4), 40, 2)


# ----------------------------------------------------------------------------- shipped
BULLS = find_rules("bulls-and-cows")


def _guess_total(state: GameState, guess: int) -> int:
    """The fewest guesses over the candidates when `guess` is played next (each part
    searched live)."""
    space = state.space
    total = state.count
    for r in space.partition(guess, state.candidates):
        if r != space.win:
            sub = state.after(space.code(guess), space.feedback(r))
            total += solve_optimal(space, state=sub).total - len(sub.history) * sub.count
    return total


@pytest.mark.parametrize("clues", [("0124=0B1W", "3567=0B2W"), ("3509=0B1W", "7245=0B1W"),
                                   ("9876=1B0W",), ("2580=0B2W", "1379=1B0W"),
                                   ("8509=0B1W", "8095=0B1W", "2367=0B2W")])
def test_the_bulls_book_names_an_optimal_guess(clues):
    state = GameState.from_clues(BULLS, list(clues))
    space = state.space
    guesses = [c.guess.index for c in state.history]
    answers = [space.response_index(c.feedback) for c in state.history]
    entry = lookup(space, guesses, answers)
    assert entry is not None
    live = solve_optimal(space, state=state)
    assert entry.total == live.total - len(guesses) * state.count
    assert _guess_total(state, entry.guess) == entry.total
    # the hint plays it at once
    outcome = optimal_hint(state, seconds=0.05)
    assert outcome.optimal is not None and outcome.optimal.guess == space.text(entry.guess)


def test_the_bulls_book_holds_every_position_after_two_guesses():
    book = book_for(BULLS)
    assert book is not None and book["depth"] == BOOK_DEPTH == 3
    space = get_space(BULLS)
    wanted = set()
    for h in histories(space, 2):
        guesses = [space.index_of_symbols(np.array(x)) for x in h]
        for answers, count in positions(space, h):
            if count >= 3 and len(needed(space, guesses, list(answers))) == len(h):
                wanted.add(key_of(h, answers))
    assert wanted <= set(book["entries"])


def test_the_bulls_book_answers_every_big_position_after_three_guesses():
    # random histories of three guesses (some repeated), from the codes' own frame
    space = get_space(BULLS)
    strategy = find_strategy("optimal")
    rng = np.random.default_rng(4)
    big = 0
    for _ in range(400):
        secret = np.array([rng.integers(space.size)], dtype=np.int32)
        state = GameState.start(space)
        for _ in range(3):
            g = int(rng.integers(space.size)) if rng.random() > 0.1 or not state.history \
                else state.history[0].guess.index
            r = int(space.responses(g, secret)[0])
            if r == space.win:
                break
            state = state.after(space.code(g), space.feedback(r))
        guesses = [c.guess.index for c in state.history]
        answers = [space.response_index(c.feedback) for c in state.history]
        keep = needed(space, guesses, answers)
        if state.count >= (DEEP_FROM if len(keep) == 3 else 3) and not state.solved:
            big += state.count >= DEEP_FROM
            assert strategy.on_book(space, state.candidates, guesses) is not None, \
                [str(c) for c in state.history]
    assert big >= 20


def test_a_repeated_guess_is_looked_up_without_it():
    clues = ["8509=0B1W", "8095=0B1W", "2367=0B2W"]
    state = GameState.from_clues(BULLS, clues)
    again = GameState.from_clues(BULLS, [*clues, clues[0], clues[1]])  # five guesses
    space = state.space
    assert again.count == state.count
    strategy = find_strategy("optimal")
    one = strategy.on_book(space, state.candidates, [c.guess.index for c in state.history])
    two = strategy.on_book(space, again.candidates, [c.guess.index for c in again.history])
    assert one is not None and one == two


def test_a_guess_limit_the_stored_tree_does_not_fit_is_searched_live():
    # the stored tree of this position takes up to 6 more guesses: 8 in all
    rules = Rules(pegs=4, colors=10, repeats=False, digits=True, max_guesses=7)
    state = GameState.from_clues(rules, ["0124=0B1W", "3567=0B2W"])
    space = state.space
    guesses = [c.guess.index for c in state.history]
    answers = [space.response_index(c.feedback) for c in state.history]
    assert lookup(space, guesses, answers) is None
    roomy = Rules(pegs=4, colors=10, repeats=False, digits=True, max_guesses=8)
    state = GameState.from_clues(roomy, ["0124=0B1W", "3567=0B2W"])
    assert lookup(state.space, guesses, answers) is not None
    assert find_strategy("optimal").on_book(state.space, state.candidates, guesses) \
        is not None
