"""Shared pieces of the command line: rules options, error handling, the console."""

import functools
import inspect
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
import typer.core
from rich.console import Console
from rich.markup import escape

from ..errors import (
    InconsistentHistoryError,
    InvalidRulesError,
    KeypegError,
    NoStrategyError,
    TimeLimitError,
)
from ..limits import memo_budget, shorten, split_codes, table_budget
from ..rules import Rules, find_rules, preset_names, rules_name

if TYPE_CHECKING:
    from ..space import CodeSpace

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


class PlainUsage(typer.core.TyperCommand):
    """A command whose usage line writes a required argument plainly, FILE (Typer writes
    {FILE}: 'keypeg tree import [OPTIONS] {file} [[RULES]]' read as braces to type; solve's
    {CLUES}...)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [re.sub(r"^\{(.*)\}(\.\.\.)?$", r"\1\2", p)
                for p in super().collect_usage_pieces(ctx)]


#: What ends a terminal session (play, assist, match) at any prompt.
QUIT_WORDS = frozenset({"quit", "q", "exit"})
#: What gives up a game in play and in a match.
GIVE_UP_WORDS = frozenset({"give up", "giveup", "resign"})


def gives_up(word: str) -> bool:
    """Whether a line gives up the game ('give up' with any spacing and case)."""
    return " ".join(word.lower().split()) in GIVE_UP_WORDS


def not_a_code(text: str, rules: Rules) -> bool:
    """Whether `text` reads as words rather than a mistyped code: two letters or more that
    are no symbol of the rules ('undo', 'give up', 'hint me'; one stray letter, '12x4', is
    a code's typo, which the code's own message names)."""
    from ..codes import symbol_index  # (numpy: not for keypeg --help)

    return sum(ch.isalpha() and symbol_index(ch, rules) is None for ch in text) >= 2


def shown_name(rules: Rules) -> str:
    """Return `rules_name(rules)` for rich output: escaped, so that its brackets, as in
    "MM(6,7) [no repeats]", are shown and not read as markup (and lost)."""
    return escape(rules_name(rules))


def tell(exc: BaseException) -> None:
    """Print the error of an input a session goes on after, in red, as written (escaped:
    it may echo what was typed, brackets and all)."""
    console.print(f"[red]{escape(str(exc))}[/]")

F = TypeVar("F", bound=Callable[..., Any])

_RULES_HELP = ("Rules preset: " + ", ".join(preset_names()) + ", or MM(pegs,colours) with"
               " flags in brackets, as in 'MM(5,7) \\[no repeats]' (default classic).")
RULE_PARAMETERS = [
    inspect.Parameter(
        "rules_name", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[str | None, typer.Option("--rules", "-r", help=_RULES_HELP)],
    ),
    inspect.Parameter(
        "pegs", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[
            int | None, typer.Option("--pegs", help="Custom rules: pegs per code.")
        ],
    ),
    inspect.Parameter(
        "colors", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[
            int | None, typer.Option("--colors", "--colours", help="Custom rules: colours.")
        ],
    ),
    inspect.Parameter(
        "no_repeats", inspect.Parameter.KEYWORD_ONLY, default=False,
        annotation=Annotated[
            bool, typer.Option("--no-repeats", help="Custom rules: a colour at most once per code.")
        ],
    ),
    inspect.Parameter(
        "positional", inspect.Parameter.KEYWORD_ONLY, default=False,
        annotation=Annotated[
            bool, typer.Option("--positional", help="Custom rules: green/amber/gray per peg.")
        ],
    ),
    inspect.Parameter(
        "blanks", inspect.Parameter.KEYWORD_ONLY, default=False,
        annotation=Annotated[
            bool, typer.Option("--blanks", help="Custom rules: blank (_) as an extra colour.")
        ],
    ),
    inspect.Parameter(
        "digits", inspect.Parameter.KEYWORD_ONLY, default=False,
        annotation=Annotated[
            bool, typer.Option("--digits", help="Custom rules: write symbols as digits 0-9.")
        ],
    ),
    inspect.Parameter(
        "max_guesses", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[
            int | None, typer.Option("--max-guesses", help="Board rows (most guesses allowed).")
        ],
    ),
]
_RULE_NAMES = [p.name for p in RULE_PARAMETERS]


def build_rules(
    *,
    rules_name: str | None = None,
    pegs: int | None = None,
    colors: int | None = None,
    no_repeats: bool = False,
    positional: bool = False,
    blanks: bool = False,
    digits: bool = False,
    max_guesses: int | None = None,
) -> Rules:
    """Return the rules named by the options; raises `InvalidRulesError` for a bad mix."""
    custom = pegs is not None or colors is not None or no_repeats or positional or blanks or digits
    if rules_name is not None and custom:
        raise InvalidRulesError(
            "use either --rules NAME or the custom flags (--pegs, --colors, --no-repeats, "
            "--positional, --blanks, --digits), not both."
        )
    if max_guesses is not None and max_guesses < 1:
        raise InvalidRulesError(f"--max-guesses must be at least 1, not {max_guesses}.")
    if custom:
        rules = Rules(
            pegs=4 if pegs is None else pegs,
            colors=6 if colors is None else colors,
            repeats=not no_repeats,
            feedback="positional" if positional else "blackwhite",
            blanks=blanks,
            digits=digits,
        )
        return rules.with_max_guesses(max_guesses)
    rules = find_rules("classic" if rules_name is None else rules_name)
    return rules if max_guesses is None else rules.with_max_guesses(max_guesses)


PriorOption = Annotated[
    str | None,
    typer.Option("--prior", help="Prior over the secrets: uniform (default), pin (how people "
                 "choose digit PINs; pin:year=20,same=100 changes a feature's weight), or "
                 "file:PATH (CSV code,weight; unlisted codes weigh 0)."),
]
NoiseOption = Annotated[
    str | None,
    typer.Option("--noise", help="How the answers may be wrong: exact (default), "
                 "symmetric:EPS (wrong with probability EPS), per-peg:EPS (each "
                 "green/amber/gray mark), or lies:K (at most K wrong answers)."),
]


def check_output_path(path: Path | None, option: str) -> None:
    """Raise `KeypegError` at once (before any work) unless `path` can be written: its
    folder exists and it is not itself a folder."""
    if path is None:
        return
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise KeypegError(f"{option} {shorten(path)!r} is a folder; give a file name, "
                          "like tree.json.")
    if not folder.is_dir():
        raise KeypegError(f"{option} {shorten(path)!r}: the folder {shorten(folder)!r} "
                          "does not exist; create it first or choose another path.")
    if not os.access(folder, os.W_OK):
        raise KeypegError(f"{option} {shorten(path)!r}: the folder {shorten(folder)!r} "
                          "cannot be written to.")


def fail(message: str, code: int = 2) -> None:
    """Print one sentence on stderr and exit with `code`."""
    # escaped: a message may name rules such as "MM(3,3) [blanks, positional]"
    err_console.print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)


def command(func: F) -> F:
    """Wrap a command: add the rules options if it takes `rules`, and turn keypeg errors
    into one sentence on stderr with exit code 2 (1 for contradicting clues or no tree within
    the guesses allowed, 3 for a search that ran out of its --max-seconds)."""
    sig = inspect.signature(func)
    takes_rules = "rules" in sig.parameters

    @functools.wraps(func)
    def wrapper(**kwargs: Any) -> Any:
        try:
            # a bad KEYPEG_*_BUDGET or KEYPEG_SPLIT_CODES is reported up front
            table_budget(), memo_budget(), split_codes(3)
            if takes_rules:
                rule_kwargs = {name: kwargs.pop(name) for name in _RULE_NAMES}
                kwargs["rules"] = build_rules(**rule_kwargs)
            return func(**kwargs)
        except (InconsistentHistoryError, NoStrategyError) as exc:
            fail(str(exc), 1)  # the answer is no: the clues contradict, or no tree exists
        except TimeLimitError as exc:
            fail(str(exc), 3)
        except KeypegError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            err_console.print("interrupted.")
            raise typer.Exit(130) from None

    if takes_rules:
        params = [p for p in sig.parameters.values() if p.name != "rules"] + RULE_PARAMETERS
        wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
        annotations = {k: v for k, v in func.__annotations__.items() if k != "rules"}
        annotations.update({p.name: p.annotation for p in RULE_PARAMETERS})
        wrapper.__annotations__ = annotations
    return wrapper  # type: ignore[return-value]


#: Games with more codes than this show a spinner while their code space is prepared.
SPINNER_CODES = 1_000_000


def load_space(rules: Rules) -> "CodeSpace":
    """Return the code space of `rules`, with a spinner when preparing it takes a while."""
    from ..space import get_space

    if rules.size <= SPINNER_CODES:
        return get_space(rules)
    with err_console.status(f"preparing the {rules.size:,} codes of {shown_name(rules)}"):
        return get_space(rules)


def ask(prompt: str) -> str | None:
    """Read one line from the user after `prompt`; None at end of input."""
    console.print(prompt, end="")
    try:
        line = sys.stdin.readline()
    except KeyboardInterrupt:
        return None
    if not line:
        console.print()
        return None
    return line.strip()
