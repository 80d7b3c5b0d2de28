"""keypeg: an exact engine for Mastermind-family codebreaking games.

>>> from keypeg import find_rules, GameState
>>> GameState.start(find_rules("classic")).after("1122", "1B1W").count
208
"""

from .codes import Code
from .errors import (
    InconsistentHistoryError,
    InvalidCodeError,
    InvalidFeedbackError,
    InvalidRulesError,
    KeypegError,
    LimitExceededError,
    UnknownRulesError,
)
from .feedback import Feedback, score
from .game import Clue, GameState
from .rules import PRESETS, Rules, find_rules
from .space import CodeSpace, get_space

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Clue",
    "Code",
    "CodeSpace",
    "Feedback",
    "GameState",
    "InconsistentHistoryError",
    "InvalidCodeError",
    "InvalidFeedbackError",
    "InvalidRulesError",
    "KeypegError",
    "LimitExceededError",
    "Rules",
    "UnknownRulesError",
    "find_rules",
    "get_space",
    "score",
]
