"""The `keypeg` command line (typer + rich). Thin: parse, call the library, print."""

import sys

import click
import typer

from .evaluate import evaluate_command
from .interactive import assist, play
from .match import match
from .optimal import ledger_command, optimal_command
from .report import report_command
from .serve import serve
from .solve import solve
from .tree import tree_app
from .value import value_command

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
app.command()(match)
app.command("evaluate")(evaluate_command)
app.command("optimal")(optimal_command)
app.command("ledger")(ledger_command)
app.command("value")(value_command)
app.add_typer(tree_app, name="tree")
app.command("report")(report_command)
app.command()(serve)


def _usage_errors() -> tuple[type[Exception], ...]:
    """Return the usage-error classes of the click that typer uses (vendored or not)."""
    classes: list[type[Exception]] = [click.ClickException]
    try:
        from typer._click.exceptions import ClickException as TyperClickException

        classes.append(TyperClickException)
    except ImportError:  # older typer uses click itself
        pass
    return tuple(classes)


def main() -> None:
    """Run the command line; a usage error is one sentence on stderr with exit code 2."""
    try:
        code = app(standalone_mode=False)
    except (click.exceptions.Exit, typer.Exit) as exc:
        sys.exit(exc.exit_code)
    except (click.Abort, typer.Abort, KeyboardInterrupt):
        sys.stderr.write("interrupted.\n")
        sys.exit(130)
    except _usage_errors() as exc:
        ctx = getattr(exc, "ctx", None)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        sys.stderr.write(f"error: {exc.format_message()}{hint}\n")  # type: ignore[attr-defined]
        sys.exit(getattr(exc, "exit_code", 2))
    sys.exit(code if isinstance(code, int) else 0)
