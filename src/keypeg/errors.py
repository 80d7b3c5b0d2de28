"""Errors raised by keypeg. Every one is a `ValueError` with a one-sentence message."""

from __future__ import annotations

from typing import Self


class KeypegError(ValueError):
    """Base class: bad input or an impossible request, explained in one sentence."""


class InvalidRulesError(KeypegError):
    """Raised for rules that cannot be played (zero pegs, too few colours for no repeats...)."""


class UnknownRulesError(InvalidRulesError):
    """Raised by `find_rules` for a name that is not a preset."""


class InvalidCodeError(KeypegError):
    """Raised for a code of the wrong length, with an unknown symbol or a forbidden repeat."""


class InvalidFeedbackError(KeypegError):
    """Raised for feedback that no guess can receive under the rules."""


class LimitExceededError(KeypegError):
    """Raised when a request would need more memory or time than allowed.

    An optimal guess out of reach may say what was found instead: `best_guess`, the code
    index of the first guess of the best tree found, `best_total`, that tree's total, and
    `lower`, a proven lower bound on the optimal total (both counted from the position, its
    next guess included, the guesses already played not); all None otherwise. `found_how`
    says how that tree was found where the message does not (None: from the candidates
    alone, or by the search stopped).
    """

    best_guess: int | None = None
    best_total: int | None = None
    lower: int | None = None
    found_how: str | None = None

    def found(self, other: LimitExceededError) -> Self:
        """Return self with what `other` found (when re-raised in other words)."""
        self.found_how = other.found_how
        return self.with_best(other.best_guess, other.best_total, other.lower)

    def with_best(self, guess: int | None, total: int | None,
                  lower: int | None) -> Self:
        """Return self saying that `guess` starts a tree of `total` and none beats `lower`."""
        self.best_guess, self.best_total, self.lower = guess, total, lower
        return self


class TimeLimitError(LimitExceededError):
    """Raised when a search runs out of the time it was given (the CLI's exit code 3).

    An optimal search (least total, no cap it must meet, unweighted) stopped after it had
    finished a first guess says how far it got in the fields of `LimitExceededError`.
    `kernels_loading` is true when the time went on compiling the search kernels (the
    first search after installing), not on the search.
    """

    kernels_loading: bool = False


class NoStrategyError(KeypegError):
    """Raised when no strategy meets the conditions asked: no tree finds every secret
    within the guesses allowed (a cap too tight, perhaps after a forced first guess)."""


class InconsistentHistoryError(KeypegError):
    """Raised when no secret satisfies every clue of a history.

    `conflict` holds the 0-based indices of a smallest set of clues that cannot all hold;
    `suspects` the indices of the clues any one of which, if wrong, would explain it, and
    `corrections` maps each suspect to the feedback texts it could have had.
    """

    def __init__(
        self,
        message: str,
        *,
        conflict: tuple[int, ...] = (),
        suspects: tuple[int, ...] = (),
        corrections: dict[int, tuple[str, ...]] | None = None,
    ) -> None:
        super().__init__(message)
        self.conflict = conflict
        self.suspects = suspects
        self.corrections = corrections or {}


class NoiseCaution(UserWarning):
    """Warned by `GameState.start` for a noise rate that makes answers more often wrong
    than right (`belief.noise_caution`); the terminal sessions say it in their own words."""


class SearchStopped(Exception):
    """Not an error of the caller's: raised inside the solver by `_Search.subtree` when its
    search is told to stop (its STOP slot set from another thread) while it re-solves a set
    the memo does not hold, so the tree is not wanted (caught by `roots.part_subtree`)."""
