"""`keypeg play` (you break the computer's secret) and `keypeg assist` (you play on a real
board and keypeg follows along). The sessions themselves live in `sessions`, loaded when
one starts."""

from typing import Annotated

import typer

from ..rules import Rules
from .common import NoiseOption, PriorOption, command


@command
def play(
    rules: Rules,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for the secret.")] = None,
    prior: PriorOption = None,
    noise: NoiseOption = None,
) -> None:
    """Break a secret the computer picked (from --prior); with --noise its answers are
    sometimes wrong. Type a code, 'hint', 'cut CODE' (how a guess would cut the codes
    still possible), 'give up' or 'quit'."""
    from .sessions import play_game

    play_game(rules, seed, prior, noise)


@command
def assist(rules: Rules, prior: PriorOption = None, noise: NoiseOption = None) -> None:
    """Follow a game on a real board: enter guesses and feedback, see what is possible.
    With --noise (e.g. symmetric:0.05, lies:1) a wrong clue does not end the game. Type a
    guess and its feedback ('1122 2B1W', '1122=2,1'), or 'hint', 'list', 'cut CODE',
    'history', 'undo', 'drop N', 'fix N FEEDBACK', 'help' or 'quit'."""
    from .sessions import assist_game

    assist_game(rules, prior, noise)
