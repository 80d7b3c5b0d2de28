"""The `keypeg` command line (typer + rich). Thin: parse, call the library, print."""

import gc
import os
import sys

import click
import typer

from .common import PlainUsage
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
    context_settings={"help_option_names": ["-h", "--help"]},  # (every command inherits it)
)
#: commands that keep running (a session, a server, figures): they collect cyclic garbage
#: as usual; the others compute, print and exit with the collector off (see _command.py)
_LONG_RUNNING = frozenset({"play", "assist", "match", "serve", "report"})


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            shown = version("keypeg")
        except PackageNotFoundError:  # run from a source tree that is not installed
            from .. import __version__ as shown
        print(f"keypeg {shown}")
        raise typer.Exit()


@app.callback()
def _collector(ctx: typer.Context, show_version: bool = typer.Option(
        False, "--version", help="Print keypeg's version and exit.", is_eager=True,
        callback=_show_version)) -> None:
    """Turn the garbage collector back on for a command that keeps running; what the
    imports made is frozen first, so it is never walked again."""
    if ctx.invoked_subcommand in _LONG_RUNNING and not gc.isenabled():
        gc.freeze()
        gc.enable()


app.command(cls=PlainUsage)(solve)
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


def _first_sentence(doc: str) -> str:
    """The first sentence of a docstring's first paragraph, on one line."""
    words = " ".join(doc.split("\n\n")[0].split())
    end = words.find(". ")
    return words if end < 0 else words[: end + 1]


def _short_helps(*apps: typer.Typer) -> None:
    """Give each command the first sentence of its docstring as the line `--help` lists
    (typer kept the docstring's own line breaks there, half-empty lines in a panel)."""
    for each in apps:
        for info in each.registered_commands:
            if info.short_help is None and info.callback is not None and info.callback.__doc__:
                info.short_help = _first_sentence(info.callback.__doc__)


_short_helps(app, tree_app)


def _usage_errors() -> tuple[type[Exception], ...]:
    """Return the usage-error classes of the click that typer uses (vendored or not)."""
    classes: list[type[Exception]] = [click.ClickException]
    try:
        from typer._click.exceptions import ClickException as TyperClickException

        classes.append(TyperClickException)
    except ImportError:  # older typer uses click itself
        pass
    return tuple(classes)


class _Refuse:
    """An import finder that refuses some modules (see `_numba_without_blas`)."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name in self.names:
            raise ImportError(f"{name} is not needed here")


def _numba_without_blas() -> None:
    """Load numba's numpy support without scipy.linalg, and its typing without cffi.

    numba imports scipy.linalg (about 0.2 s of every command) only to find a BLAS for
    np.dot and np.linalg, and cffi with its C parser (about 0.03 s, when the first kernel
    loads) only to call cffi functions; no keypeg kernel uses either, and without them
    numba leaves those features out. Only the command's own process does this, not the
    library: a program that imports keypeg keeps its numba whole. Later imports of
    scipy.linalg (the linear programs) and cffi work as usual."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    finder = _Refuse("scipy.linalg", "cffi")
    sys.meta_path.insert(0, finder)
    try:
        import numba.np.arraymath  # noqa: F401
        if "cffi" not in sys.modules:
            import numba.core.typing.cffi_utils  # noqa: F401
    except ImportError:  # pragma: no cover - numba itself is required
        pass
    finally:
        sys.meta_path.remove(finder)


#: typer's wording for a value of the wrong type, and ours.
_TYPE_WORDS = (
    ("Input should be a valid integer, unable to parse string as an integer",
     "it must be a whole number"),
    ("Input should be a valid integer", "it must be a whole number"),
    ("Input should be a valid number, unable to parse string as a number", "it must be a number"),
    ("Input should be a valid number", "it must be a number"),
)


def _plain(message: str) -> str:
    """Return a usage error in keypeg's words ("invalid value for '--seed': it must be a
    whole number", not typer's "Input should be a valid integer, unable to parse string as
    an integer")."""
    for theirs, ours in _TYPE_WORDS:
        message = message.replace(theirs, ours)
    return message


def main() -> None:
    """Run the command line; a usage error is one sentence on stderr with exit code 2."""
    _numba_without_blas()
    import warnings

    from ..errors import NoiseCaution

    # (play and assist say it in a line of their own; the library's warning would repeat it
    # with a file name and line)
    warnings.simplefilter("ignore", NoiseCaution)
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
        message = _plain(exc.format_message())  # type: ignore[attr-defined]
        if hint:  # (click's own end their sentence: "missing argument 'clues'. (see ...)")
            message = message.rstrip(".")
        if message:  # (none when a group ran without a command printed its help: it wrote
            # 'error:  (see ...)', empty)
            sys.stderr.write(f"error: {message[:1].lower()}{message[1:]}{hint}\n")
        sys.exit(getattr(exc, "exit_code", 2))
    code = code if isinstance(code, int) else 0
    # Done: exit at once. The interpreter's teardown (freeing a big search's memo, collecting
    # every module) takes about 0.2 s and does nothing the command needs: its output is
    # flushed here, and the store commits each write as it is made.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        sys.exit(code)
    os._exit(code)
