"""The `keypeg` command line (typer + rich). Thin: parse, call the library, print."""

import typer

from .evaluate import evaluate_command
from .interactive import assist, play
from .solve import solve

app = typer.Typer(
    name="keypeg",
    help="Mastermind-family codebreaking: play, get hints, solve clues, evaluate strategies.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command()(solve)
app.command()(play)
app.command()(assist)
app.command("evaluate")(evaluate_command)


def main() -> None:
    """Run the command line."""
    app()
