"""`keypeg tree`: show, export, import and verify decision trees (keypeg.treeformats).

Rules come as a positional preset name (``keypeg tree verify t.txt mini``) or the usual
options (``--rules``, ``--pegs``/``--colors``...). A tree from a strategy uses classic when
none are given; a tree from a file uses the file's own rules (arfst23's files, which name
none, the game their codes show; an Irving or JSON file that names none, the given rules,
else classic), and given rules must be the file's game. `export` takes its format from the
extension of --out when --format is not given.
"""

import dataclasses
import functools
import inspect
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from ..catalog import ALIASES, STRATEGY_NAMES, TREE_EXPORT_FORMATS, TREE_IMPORT_FORMATS
from ..errors import KeypegError, LimitExceededError, TimeLimitError, UnknownRulesError
from ..limits import OPTIMAL_TREE_SECONDS, check_seed, plural, shorten
from ..rules import Rules, rules_name
from .common import (
    RULE_PARAMETERS,
    PlainUsage,
    build_rules,
    check_output_path,
    command,
    err_console,
    fail,
)
from .evaluate import histogram_text, optimal_tree_late

if TYPE_CHECKING:
    from ..tree import DecisionTree

tree_app = typer.Typer(
    help="Decision trees: show, export, import and verify them (keypeg JSON, Irving-style "
    "text, arfst23's solution files; Graphviz and SVG pictures).",
    no_args_is_help=True,
)

_RULE_NAMES = [p.name for p in RULE_PARAMETERS]
_IMPORT_HELP = "Format of FILE: " + ", ".join(TREE_IMPORT_FORMATS) + " (arfst: punch card or YAML)."

RulesArgument = Annotated[str | None, typer.Argument(
    metavar="RULES", help="A rules preset (like --rules); or give --rules / --pegs ...")]
StrategyOption = Annotated[str | None, typer.Option(
    "--strategy", "-s", help="The strategy whose tree to build: " + ", ".join(STRATEGY_NAMES)
    + " (or an alias such as knuth); default optimal.")]
FromOption = Annotated[Path | None, typer.Option(
    "--from", help="Take the tree from this file (keypeg JSON, Irving-style text or an "
    "arfst23 file) instead of a strategy.")]
DepthOption = Annotated[int | None, typer.Option(
    "--depth", "-d", help="Show guesses this deep (0: all; default 2 for the text view, "
    "all for dot, as many as fit 300 boxes for svg).")]
PathOption = Annotated[str | None, typer.Option(
    "--path", help="Open one branch: the answers from the first guess, like 0B0W,1B1W.")]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the random and genetic "
                                         "strategies.")]


def note(text: str) -> None:
    """Print a line on stderr as it is (rules names hold brackets, not markup)."""
    err_console.print(text, markup=False)


def with_rules(func: Any) -> Any:
    """Wrap a tree command: add the rules options, and hand `func` `rule_options` (None
    when no rules were given at all) instead of built rules; keypeg errors exit 2."""
    sig = inspect.signature(func)

    @functools.wraps(func)
    def wrapper(**kwargs: Any) -> Any:
        options = {name: kwargs.pop(name) for name in _RULE_NAMES}
        kwargs["rule_options"] = options
        return func(**kwargs)

    params = [p for p in sig.parameters.values() if p.name != "rule_options"] + RULE_PARAMETERS
    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    annotations = {k: v for k, v in func.__annotations__.items() if k != "rule_options"}
    annotations.update({p.name: p.annotation for p in RULE_PARAMETERS})
    wrapper.__annotations__ = annotations
    return command(wrapper)


def given_rules(positional: str | None, options: dict[str, Any]) -> Rules | None:
    """Return the rules given by a positional preset name or the options, None if none."""
    if positional is not None:
        if options["rules_name"] is not None:
            raise KeypegError(f"give the rules once: {shorten(positional)!r} or --rules "
                              f"{shorten(options['rules_name'])!r}, not both.")
        options = {**options, "rules_name": positional}
    defaults = {p.name: p.default for p in RULE_PARAMETERS}
    if all(options[k] == defaults[k] for k in _RULE_NAMES):
        return None
    try:
        return build_rules(**options)
    except UnknownRulesError:
        name = options["rules_name"]
        key = str(name).strip().lower()
        if key in STRATEGY_NAMES or key in ALIASES:
            # ('keypeg tree show knuth': a strategy given where the rules go)
            raise UnknownRulesError(f"unknown rules {shorten(name)!r}: {shorten(key)} is a "
                                    f"strategy; did you mean --strategy {shorten(key)}?"
                                    ) from None
        raise


def check_formats(value: str, allowed: tuple[str, ...], option: str) -> str:
    if value.lower() not in allowed:
        raise KeypegError(f"{option} {shorten(value)!r} is not a tree format; choose one of: "
                          f"{', '.join(allowed)}.")
    return value.lower()


def path_steps(path: str | None) -> list[str]:
    """Return the answers of a --path (commas, slashes or spaces between them)."""
    if not path:
        return []
    return [s for s in path.replace("/", ",").replace(" ", ",").split(",") if s]


def read_tree_file(file: Path, fmt: str, rules: Rules | None) -> "DecisionTree":
    """Return the tree in `file`: a bad file exits 2, an invalid tree 1."""
    from ..treeformats import InvalidTreeError, load_tree

    try:
        tree = load_tree(file, fmt, rules)
    except InvalidTreeError as exc:
        fail(f"{shorten(str(file))} is {exc}", 1)  # (fail escapes)
    if tree.meta.get("rules_from") == "codes":
        note(f"{shorten(str(file))}: read as {rules_name(tree.rules)} "
                          f"({tree.rules.describe()}), the game its codes show; give RULES "
                          "to say otherwise.")
    return tree


def strategy_tree(rules: Rules, name: str, seed: int) -> "DecisionTree":
    """Return the whole tree of strategy `name` (the optimum for 'optimal')."""
    from ..space import get_space, require_table, whole_tree_route
    from ..strategies import find_strategy

    check_seed(seed)
    key = find_strategy(name).name
    if key == "optimal":
        # (no tree shipped: a bounded search; super's ran on in silence, with no way to
        # stop it but Ctrl-C)
        strategy = find_strategy(name, time_limit=OPTIMAL_TREE_SECONDS, max_candidates=None)
    elif key in ("random", "genetic"):
        strategy = find_strategy(name, seed=seed)
    else:
        strategy = find_strategy(name)
    # a one-step strategy's tree past the full table is walked part by part (Codebreaker
    # 4-6: as `keypeg evaluate` does, on both cores); past that, `evaluate --checkpoint`
    route = "search" if key == "optimal" else whole_tree_route(rules, strategy.splits)
    split = route == "split"
    if route in ("checkpoint", "none"):
        try:
            require_table(rules, "a strategy's whole tree")
        except LimitExceededError as exc:
            if route == "none":
                raise
            raise LimitExceededError(
                f"{exc} Or walk it part by part, in hours: keypeg evaluate --rules "
                f"{rules_name(rules)} -s {key} --checkpoint FILE --save-tree TREE, then "
                "--from TREE.") from None
    searched = key == "optimal" and not strategy.stored_whole_tree(rules)
    what = (f"searching for the optimal tree (up to {OPTIMAL_TREE_SECONDS:g} s)" if searched
            else f"the {strategy.label} tree" + (", walked part by part" if split else ""))
    with err_console.status(escape(f"{rules_name(rules)}: {what}")):
        try:
            tree = (strategy.split_whole_tree(get_space(rules), 2) if split
                    else strategy.tree(rules))
        except TimeLimitError:
            if not searched:
                raise
            raise optimal_tree_late(rules, OPTIMAL_TREE_SECONDS, "--from FILE") from None
    # a shipped tree is stored for the plain game: name it by the rules asked for
    return dataclasses.replace(tree, rules=rules) if tree.rules.key == rules.key else tree


def the_tree(positional: str | None, options: dict[str, Any], strategy: str | None,
             source: Path | None, seed: int) -> "DecisionTree":
    rules = given_rules(positional, options)
    if source is not None:
        if strategy is not None:
            raise KeypegError("give --strategy or --from, not both.")
        return read_tree_file(source, "auto", rules)
    return strategy_tree(rules or build_rules(), strategy or "optimal", seed)


#: The format a known extension of `export -o` names (after any .gz), and the other
#: formats that may be written under it (text files: Irving's and arfst23's are text).
_EXTENSION_FORMATS: dict[str, tuple[str, ...]] = {
    ".json": ("json",),
    ".svg": ("svg",),
    ".dot": ("dot",), ".gv": ("dot",),
    ".irving": ("irving",),
    ".txt": ("irving", "text", "arfst"),
    ".text": ("text",),
    ".arfst": ("arfst",),
    ".yml": ("arfst-yaml",), ".yaml": ("arfst-yaml",),
}
#: Extensions of files keypeg does not write (pictures other than SVG).
_OTHER_FILES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF",
                ".pdf": "PDF", ".webp": "WebP", ".html": "HTML"}


def _extension(out: Path) -> str:
    """Return the extension that names a file's kind: '.svg' for t.svg.gz, '.irving' for
    t.irving.txt (an Irving file named as text), '' for none."""
    suffixes = [x.lower() for x in out.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
    if len(suffixes) >= 2 and suffixes[-1] == ".txt" and suffixes[-2] in (".irving", ".arfst"):
        return suffixes[-2]
    return suffixes[-1] if suffixes else ""


def export_format(fmt: str | None, out: str | None) -> str:
    """Return the format to export: --format, else the one the extension of --out names
    (.svg, .dot, .json, .txt ...), else json; an extension that names another kind of file
    than --format writes is refused (an unknown extension is not)."""
    if fmt is not None:
        fmt = check_formats(fmt, TREE_EXPORT_FORMATS, "--format")
    if out is None or out == "-":
        return fmt or "json"
    ext = _extension(Path(out))
    if ext in _OTHER_FILES:
        raise KeypegError(f"--out {shorten(out)!r} names a {_OTHER_FILES[ext]} file, which "
                          "keypeg does not write; name an .svg picture (or .dot, .json, .txt, "
                          ".yml) and convert it if need be.")
    allowed = _EXTENSION_FORMATS.get(ext)
    if allowed is None:
        return fmt or "json"
    if fmt is None:
        return allowed[0]
    if fmt not in allowed:
        raise KeypegError(f"--format {fmt} does not fit --out {shorten(out)!r}: a {ext} file "
                          f"holds {' or '.join(allowed)}; give the file a name that fits "
                          "(or leave out --format).")
    return fmt


def output_path(out: str | None, option: str, source: Path | None = None) -> Path | None:
    """Return --out as a path (None for none or '-'), checked before any work: a name
    ending in / is a folder (refused, as an existing folder is), and the file being read
    is not written over."""
    if out is None or out == "-":
        return None
    path = Path(out)
    if out.endswith(("/", "\\")) and not path.is_dir():
        raise KeypegError(f"{option} {shorten(out)!r} names a folder (it ends in /), and "
                          "there is no such folder; give a file name, like tree.json.")
    check_output_path(path, option)
    if source is not None and path.exists() and path.resolve() == source.resolve():
        raise KeypegError(f"{option} {shorten(out)!r} is the file being read; write to "
                          "another file, so the tree read stays as it is.")
    return path


def emit(text: str, out: Path | None, what: str) -> None:
    """Write `text` to `out` (stdout for None or '-'); gzip when the name ends in .gz."""
    if out is None or str(out) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    if out.suffix == ".gz":
        import gzip

        out.write_bytes(gzip.compress(text.encode(), mtime=0))
    else:
        out.write_text(text)
    note(f"wrote {what} to {out}")  # in full: the user's own path, already written


@tree_app.command("show")
@with_rules
def show_command(
    rule_options: dict[str, Any],
    rules_arg: RulesArgument = None,
    strategy: StrategyOption = None,
    source: FromOption = None,
    depth: DepthOption = None,
    path: PathOption = None,
    seed: SeedOption = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the view as JSON.")] = False,
) -> None:
    """Show a tree as an indented view: each guess, its answers with their part sizes and
    totals, the next guesses. --depth opens more levels, --path one branch."""
    from ..treeformats import make_view, render_view, view_dict

    tree = the_tree(rules_arg, rule_options, strategy, source, seed)
    view = make_view(tree, 2 if depth is None else depth, path_steps(path))
    if as_json:
        print(json.dumps(view_dict(view)))
    else:
        sys.stdout.write(render_view(view))


@tree_app.command("export")
@with_rules
def export_command(
    rule_options: dict[str, Any],
    rules_arg: RulesArgument = None,
    strategy: StrategyOption = None,
    source: FromOption = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", "-f", help="One of: " + ", ".join(TREE_EXPORT_FORMATS) + " (default: "
        "the one the extension of --out names: .json, .svg, .dot, .txt (irving), .text, "
        ".yml (arfst-yaml), .arfst; else json).")] = None,
    out: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="<path>", help="The file to write ('-' or none: standard "
        "output; .gz: gzip).")] = None,
    depth: DepthOption = None,
    path: PathOption = None,
    seed: SeedOption = 0,
) -> None:
    """Write a strategy's tree (or one read with --from) as keypeg JSON, Graphviz source,
    an SVG picture, Irving-style text, the text view, or arfst23's punch card or YAML."""
    from ..treeformats import export_document

    fmt = export_format(fmt, out)
    target = output_path(out, "--out", source)
    tree = the_tree(rules_arg, rule_options, strategy, source, seed)
    text, shown = export_document(tree, fmt, depth, path_steps(path))
    nodes = (plural(tree.nodes, "node") if shown == tree.nodes
             else f"{shown:,} of its {plural(tree.nodes, 'node')}")
    emit(text, target, f"the {tree.strategy} tree of {rules_name(tree.rules)} as {fmt} "
         f"({nodes})")


@tree_app.command("import", cls=PlainUsage)
@with_rules
def import_command(
    rule_options: dict[str, Any],
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The tree file to read.")],
    rules_arg: RulesArgument = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help=_IMPORT_HELP)] = "auto",
    out: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="<path>", help="Where to write keypeg's tree JSON ('-' or "
        "none: standard output; .gz: gzip).")] = None,
    name: Annotated[str | None, typer.Option(
        "--name", help="The strategy name to record (default: the file's, or 'imported').")
    ] = None,
) -> None:
    """Read a tree (keypeg JSON, Irving-style text, arfst23's punch card or YAML), check it
    by playing every secret, and write it as keypeg's tree JSON with the sizes replayed."""
    from ..treeformats import write_json

    fmt = check_formats(fmt, TREE_IMPORT_FORMATS, "--format")
    target = output_path(out, "--out", file)
    ext = "" if out is None or out == "-" else _extension(Path(out))
    if ext in _OTHER_FILES or _EXTENSION_FORMATS.get(ext, ("json",)) != ("json",):
        raise KeypegError(f"--out {shorten(out)!r} names another kind of file, and import "
                          "writes keypeg's tree JSON; name it .json (tree export writes "
                          "the other formats).")
    tree = read_tree_file(file, fmt, given_rules(rules_arg, rule_options))
    if name:
        tree.strategy = name
    tree.meta["source"] = Path(file).name
    dropped = tree.meta.get("unreached_dropped")
    if dropped:
        note(f"left out {plural(dropped, 'guess', 'guesses')} no secret reaches.")
    emit(write_json(tree), target, f"{rules_name(tree.rules)} tree: {tree.secrets:,} secrets, "
         f"total {tree.total:,}, worst {tree.worst}")


@tree_app.command("verify", cls=PlainUsage)
@with_rules
def verify_command(
    rule_options: dict[str, Any],
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The tree file to check.")],
    rules_arg: RulesArgument = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help=_IMPORT_HELP)] = "auto",
    as_json: Annotated[bool, typer.Option(
        "--json", help='Print {"total", "worst", "histogram", "valid": true, "max_guesses", '
        '"beyond_rows", "unreached"}, or "valid": false with the first secret it fails on '
        "and why.")] = False,
) -> None:
    """Play a tree file against every secret: total, worst case and histogram when it is
    a valid strategy (exit 0), else the first secret it fails on (exit 1); a file it
    cannot read exits 2."""
    from ..treeformats import read_tree, replay, rows_note

    fmt = check_formats(fmt, TREE_IMPORT_FORMATS, "--format")
    raw = read_tree(file, fmt, given_rules(rules_arg, rule_options))
    verdict = replay(raw)
    if as_json:
        print(json.dumps(verdict.as_dict()))
    else:
        rules = raw.rules
        name = shorten(str(file))
        if raw.meta.get("rules_from") == "codes":
            note(f"{name}: read as {rules_name(rules)}, the game its codes show; "
                              "give RULES to say otherwise.")
        if verdict.valid:
            secrets = int(verdict.found_at.size)
            print(f"{name}: a valid strategy for {rules_name(rules)} ({rules.describe()}): "
                  f"{secrets:,} secrets, total {verdict.total:,} (mean "
                  f"{verdict.total / secrets:.4f}), worst {verdict.worst}")
            print(f"found on guess 1 / 2 / 3 / ...: {histogram_text(verdict.histogram)}")
            note_text = rows_note(rules, verdict.histogram)
            if note_text:
                print(note_text)
            if verdict.unreached:
                print(f"note: {plural(verdict.unreached, 'guess', 'guesses')} in the file "
                      "no secret reaches.")
        else:
            print(f"{name}: not a valid strategy for {rules_name(rules)}: it fails on "
                  f"{plural(verdict.failures, 'secret')}, the first {verdict.message()}")
    if not verdict.valid:
        raise typer.Exit(1)
