"""The strategy protocol and the generic whole-tree walk.

A strategy answers one question: given the candidates (the hypotheses S) and the guesses
played so far, which code (probe, from the allowed probes G) does it play next? From that,
`next_guess` serves a game, and `tree` plays the strategy against every secret at once.
"""

from __future__ import annotations

import functools
import os
import queue
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .codes import Code
from .errors import KeypegError, LimitExceededError
from .game import GameState
from .limits import (
    CHECKPOINT_SPLIT_MAX_CODES,
    MAX_GUESSES_PER_GAME,
    SPLIT_MAX_CODES,
    check_count,
    shown,
    table_budget,
)
from .rules import Rules
from .space import CodeSpace, as_rules, as_space, require_table, table_bytes
from .tree import DecisionTree

#: A strategy that needs more guesses than this for some secret is reported as looping.
MAX_DEPTH = MAX_GUESSES_PER_GAME


class Strategy(ABC):
    """A codebreaking strategy: `choose` a probe for a candidate set."""

    #: Registry name, e.g. "maxsize".
    name: str = "?"
    #: Whether `tree` can walk the whole game without its full feedback table (part by
    #: part, answers computed on the fly), so `evaluate` need not refuse big games.
    splits: bool = False
    #: Whether it plays where answers may be wrong (noise, lies), as the Bayesian players
    #: do; the others play on true answers and refuse such a state.
    plays_doubting: bool = False

    def split_whole_tree(self, space: CodeSpace, workers: int, *, checkpoint: Any = None,
                         on_part: Callable[[int, int], None] | None = None) -> DecisionTree:
        """The whole game's tree walked part by part, the first guess's parts on `workers`
        threads (strategies that `splits`); with a `checkpoint` (an open `store.Store`)
        every part's subtree is kept there as it is finished, and taken from there by a
        walk that starts again. `on_part(done, total)` reports the first guess's parts."""
        raise NotImplementedError(f"{self.name} is not walked part by part.")

    def stored_whole_tree(self, rules: Rules) -> bool:
        """Whether `tree` of the whole game of `rules` is read from a tree that ships with
        keypeg (no walk, no table)."""
        return False

    @property
    def label(self) -> str:
        """Return the name with any non-default options, for tables."""
        return self.name

    @property
    def options(self) -> dict[str, Any]:
        """Return the options that `label` names, as fields (for JSON): the non-default
        ones, and a seed always."""
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label}>"

    @abstractmethod
    def choose(self, space: CodeSpace, candidates: np.ndarray, guesses: Sequence[int]) -> int:
        """Return the code index to play when `candidates` remain after `guesses`."""

    def next_guess(self, state: GameState) -> Code:
        """Return the code this strategy plays next in `state` (where answers may be
        wrong, see `check_answers`; under a prior with true answers a strategy plays as it
        always does: on the candidates, each as likely, as `evaluate` walks it)."""
        check_state(state)
        if state.solved:
            raise KeypegError("the game is already solved.")
        self.check_answers(state)
        guesses = [c.guess.index for c in state.history]
        return state.space.code(self.choose(state.space, state.candidates, guesses))

    def check_answers(self, state: GameState | None) -> None:
        """Raise `KeypegError` for a state whose answers may be wrong (noise, lies) unless
        this strategy `plays_doubting` (`next_guess`, every `tree` and `evaluate` check: a
        one-step strategy had played the codes of non-zero chance as if every answer were
        true, under noise nearly every code; `bayes.BeliefStrategy` plays there)."""
        if state is not None and not state.trusted and not self.plays_doubting:
            raise KeypegError(_DOUBTING.format(name=self.name))

    def tree(self, rules: Rules | CodeSpace | str, state: GameState | None = None
             ) -> DecisionTree:
        """Return the strategy's decision tree over every candidate of `state` (the whole
        space by default). Raises `LimitExceededError` if a secret needs over 60 guesses."""
        self.check_answers(state)
        space = as_space(rules, state)
        state = state or GameState.start(space)
        return python_walk(self, space, state).placed(state)


def check_state(state: Any) -> None:
    """Raise `KeypegError` in a sentence unless `state` is a `GameState` (next_guess on the
    name of some rules failed with AttributeError)."""
    if not isinstance(state, GameState):
        raise KeypegError("next_guess takes a GameState, such as GameState.start('classic'), "
                          f"not {shown(state) if isinstance(state, str) else type(state).__name__}"
                          ".")


#: A strategy that plays on true answers, asked to play where answers may be wrong.
_DOUBTING = ("{name} plays on true answers, and this state's answers may be wrong (noise or "
             "lies); keypeg.bayes.BeliefStrategy (information, entropy, expsize, maxsize, "
             "parts) plays under the noise, as hint(state) does.")


def evaluate(
    strategies: Sequence[Strategy],
    rules: Rules | CodeSpace | str,
    *,
    state: GameState | None = None,
    workers: int = 2,
    on_done: Callable[[int, DecisionTree], None] | None = None,
    checkpoint: object = None,
    on_part: Callable[[int, int, int], None] | None = None,
) -> list[DecisionTree]:
    """Return the decision tree of each strategy, in the order given, computed on `workers`
    threads (the compiled walks release the GIL; one strategy walked part by part, in a
    game past the table budget, shares its first guess's parts among them instead:
    `onestep.split_tree`'s `workers`). `on_done(i, tree)` is called, in this
    thread, as each finishes. Raises `LimitExceededError` at once, from the sizes, when a
    whole-tree evaluation does not fit the memory budget.

    `strategies` may also be one strategy (and, through `keypeg.strategies.evaluate`,
    names `find_strategy` reads).

    `checkpoint` (an SQLite file, or a `store.Store`) walks each strategy part by part
    with every part's subtree kept there as it is finished (`onestep.SplitRecord`), in
    games up to `CHECKPOINT_SPLIT_MAX_CODES` codes (MM(6,9): hours per strategy): the same
    call, after a crash or a kill, takes the parts done from it. Whole games only, and
    strategies that `splits`. `on_part(i, done, total)` reports strategy i's first-guess
    parts as a walk part by part finishes them.

    The threads are daemons: a caller that gives up (a time limit, Ctrl-C) does not wait
    for a walk to finish, and neither does the process as it exits."""
    strategies = _strategies_of(strategies)
    check_count("workers", workers)
    for s in strategies:
        s.check_answers(state)
    for what, given in (("on_done", on_done), ("on_part", on_part)):
        if given is not None and not callable(given):
            raise KeypegError(f"{what} must be a function or None, not {shown(given)}.")
    # (the rules first, the space once the sizes allow it: MM(8,8)'s took 3 s to refuse)
    plain = as_rules(rules)
    fits = table_bytes(plain) <= table_budget()
    # the strategies that walk the game (not those whose whole tree ships with keypeg)
    walks = [s for s in strategies if state is not None or not s.stored_whole_tree(plain)]
    store = None if checkpoint is None else _checkpoint_store(checkpoint, state, walks, plain)
    most = SPLIT_MAX_CODES if store is None else CHECKPOINT_SPLIT_MAX_CODES
    split = (not fits and plain.size <= most and all(s.splits for s in walks))
    if state is None and walks and not split:
        require_table(plain, "a whole-tree evaluation")
    space = as_space(rules, state)
    if state is None and fits and walks:
        space.table()  # load once, before the threads share it
    todo: queue.SimpleQueue[int] = queue.SimpleQueue()
    for i in range(len(strategies)):
        todo.put(i)
    done: queue.SimpleQueue[tuple[int, DecisionTree | None, BaseException | None]] = (
        queue.SimpleQueue())

    # one strategy walked part by part: the threads share its first guess's parts instead
    alone = split and state is None and len(walks) == 1 and workers > 1

    def walk(i: int) -> DecisionTree:
        strategy = strategies[i]
        if (alone and strategy is walks[0]) or (store is not None and strategy in walks):
            report = None if on_part is None else functools.partial(on_part, i)
            return strategy.split_whole_tree(space, workers if alone else 1, checkpoint=store,
                                             on_part=report)
        return strategy.tree(space, state)

    def work() -> None:
        while True:
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            try:
                done.put((i, walk(i), None))
            except BaseException as exc:  # noqa: BLE001 - re-raised by the caller
                done.put((i, None, exc))

    for _ in range(max(1, min(workers, len(strategies)))):
        threading.Thread(target=work, daemon=True).start()
    trees: list[DecisionTree | None] = [None] * len(strategies)
    for _ in strategies:
        i, tree, error = done.get()
        if error is not None:
            raise error
        trees[i] = tree
        if on_done is not None:
            on_done(i, tree)  # type: ignore[arg-type]
    return trees  # type: ignore[return-value]


def _checkpoint_store(checkpoint: object, state: GameState | None, walks: list[Strategy],
                      rules: Rules) -> object:
    """`evaluate`'s checkpoint as an open `store.Store`, or a sentence on why it cannot
    keep these walks."""
    from .store import Store

    if state is not None:
        raise KeypegError("a checkpoint keeps walks of the whole game; leave out the state "
                          "or the checkpoint.")
    for s in walks:
        if not s.splits:
            raise KeypegError(f"{s.label} is not walked part by part, so a checkpoint cannot "
                              "keep its walk; give one-step strategies only.")
    if rules.size > CHECKPOINT_SPLIT_MAX_CODES:
        raise LimitExceededError(
            f"a game of {rules.size:,} codes is too big to walk part by part, even with a "
            f"checkpoint (at most {CHECKPOINT_SPLIT_MAX_CODES:,} codes).")
    if isinstance(checkpoint, Store):
        return checkpoint
    if not isinstance(checkpoint, (str, os.PathLike)):
        raise KeypegError("checkpoint must be the path of an SQLite file or a Store, not "
                          f"{shown(checkpoint)}.")
    return Store(os.fspath(checkpoint))  # (a file it cannot use: KeypegError, one sentence)


def _strategies_of(given: object) -> list[Strategy]:
    """Return `evaluate`'s strategies as a list (one strategy, or several); anything else
    is refused in one sentence."""
    if isinstance(given, Strategy):
        given = [given]
    try:
        items = list(given)  # type: ignore[call-overload]
    except TypeError:
        raise KeypegError("strategies must be a list of strategies or their names, not "
                          f"{shown(given)}.") from None
    for item in items:
        if not isinstance(item, Strategy):
            raise KeypegError("strategies must be a list of strategies or their names, not "
                              f"a list holding {shown(item)}.")
    return items


def python_walk(strategy: Strategy, space: CodeSpace, state: GameState, *,
                follow_belief: bool = False) -> DecisionTree:
    """Build a tree by asking `strategy` at every node (for strategies without a compiled
    walk): `strategy.choose` on the secrets that reach the node, or, with `follow_belief`,
    `strategy.next_guess` on the node's state (the belief updated with the answers so far,
    whatever noise it assumes; the answers themselves are true). Parts are expanded in
    answer order, depth first."""
    guess: list[int] = []
    parent: list[int] = []
    response: list[int] = []
    depth: list[int] = []
    size: list[int] = []
    played = [c.guess.index for c in state.history]
    stack: list[tuple[np.ndarray, int, int, int, list[int], GameState]] = [
        (state.candidates, -1, -1, len(played) + 1, played, state)
    ]
    while stack:
        secrets, par, resp, d, played, node = stack.pop()
        if d > MAX_DEPTH:
            raise LimitExceededError(f"{strategy.label} needs over {MAX_DEPTH} guesses here.")
        if follow_belief:
            g = strategy.next_guess(node).index
        else:
            g = strategy.choose(space, secrets, played)
        me = len(guess)
        guess.append(g)
        parent.append(par)
        response.append(resp)
        depth.append(d)
        size.append(secrets.size)
        parts = space.partition(g, secrets)
        for r in sorted(parts, reverse=True):
            if r != space.win:
                child = node.after(space.code(g), space.feedback(r)) if follow_belief else node
                stack.append((parts[r], me, r, d + 1, [*played, g], child))
    as32 = lambda xs: np.asarray(xs, dtype=np.int32)  # noqa: E731
    return DecisionTree(space.rules, strategy.label, as32(guess), as32(parent), as32(response),
                        as32(depth), as32(size))
