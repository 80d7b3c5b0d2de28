"""keypeg: an exact engine for Mastermind-family codebreaking games.

>>> from keypeg import find_rules, GameState
>>> GameState.start(find_rules("classic")).after("1122", "1B1W").count
208

Hints (`hint`), the strategies (`find_strategy`, `evaluate`: whole trees) and the exact
optimum (`solve_optimal`) are here too; the README's Library section shows each.

The names below are loaded on first use, so that ``import keypeg`` (and ``keypeg --help``)
does not load numpy and numba before they are needed.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_EXPORTS = {
    "Code": "codes",
    "InconsistentHistoryError": "errors",
    "InvalidCodeError": "errors",
    "InvalidFeedbackError": "errors",
    "InvalidRulesError": "errors",
    "KeypegError": "errors",
    "LimitExceededError": "errors",
    "NoStrategyError": "errors",
    "UnknownRulesError": "errors",
    "TimeLimitError": "errors",
    "BeliefStrategy": "bayes",
    "Hint": "hints",
    "OptimalResult": "solver",
    "DecisionTree": "tree",
    "GameValue": "value",
    "game_value": "value",
    "Feedback": "feedback",
    "score": "feedback",
    "Clue": "game",
    "GameState": "game",
    "PRESETS": "rules",
    "Rules": "rules",
    "find_rules": "rules",
    "CodeSpace": "space",
    "get_space": "space",
    "hint": "hints",
    "solve_optimal": "solver",
    "evaluate": "strategies",
    "find_strategy": "strategies",
}

__all__ = [
    "BeliefStrategy",
    "Clue",
    "Code",
    "CodeSpace",
    "DecisionTree",
    "Feedback",
    "GameState",
    "GameValue",
    "Hint",
    "InconsistentHistoryError",
    "InvalidCodeError",
    "InvalidFeedbackError",
    "InvalidRulesError",
    "KeypegError",
    "LimitExceededError",
    "NoStrategyError",
    "OptimalResult",
    "PRESETS",
    "Rules",
    "TimeLimitError",
    "UnknownRulesError",
    "evaluate",
    "find_rules",
    "find_strategy",
    "game_value",
    "get_space",
    "hint",
    "score",
    "solve_optimal",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'keypeg' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


assert sorted(__all__) == sorted(_EXPORTS)


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


if TYPE_CHECKING:  # the names as type checkers see them
    from .bayes import BeliefStrategy
    from .codes import Code
    from .errors import (
        InconsistentHistoryError,
        InvalidCodeError,
        InvalidFeedbackError,
        InvalidRulesError,
        KeypegError,
        LimitExceededError,
        NoStrategyError,
        TimeLimitError,
        UnknownRulesError,
    )
    from .feedback import Feedback, score
    from .game import Clue, GameState
    from .hints import Hint, hint
    from .rules import PRESETS, Rules, find_rules
    from .solver import OptimalResult, solve_optimal
    from .space import CodeSpace, get_space
    from .strategies import evaluate, find_strategy
    from .tree import DecisionTree
    from .value import GameValue, game_value
