"""The entropy float study of seed 000: how spelling the entropy sum in floating point
changes the strategy's decisions.

Maximising entropy is minimising the integer prod n^n, so the exact strategy has many exact
ties, broken by the stated rule (a probe that could be the secret, then the lexically
first). Written as a float sum, a tie may instead be broken by rounding. For each spelling
this reports the total of the resulting tree and how many decisions along the exact tree it
takes differently; for the exact tree, how many decisions are tied and whether any tie is
between different part-size multisets.

    python -m keypeg.study                       # classic MM(4,6) and MM(4,7)
    python -m keypeg.study --rules mini --rules 'MM(3,3)'
    python -m keypeg.study --rules mini --json   # a list of studies as JSON

>>> s = entropy_study(find_rules("classic"))
>>> s.exact_total, s.decisions, s.tied, s.tied_across_sizes
(5722, 404, 375, 0)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

import numpy as np

from ._kernels.onestep import entropy_qtab
from .errors import KeypegError
from .limits import EXACT_HINT_CODES
from .rules import Rules, find_rules, rules_name
from .space import get_space
from .strategies import ENTROPY_SPELLINGS, find_strategy
from .studyargs import SentenceParser

FLOAT_SPELLINGS = [s for s in ENTROPY_SPELLINGS if s != "exact"]
SPELLING_TEXT = {
    "exact": "exact (prod n^n as an integer)",
    "nlog2n": "sum n*log2 n",
    "plog2p": "sum p*log2 p",
    "plnp": "sum p*ln p",
    "plog2p-float32": "sum p*log2 p (float32)",
}


@dataclass
class SpellingResult:
    """One float spelling: the total of its tree and the decisions that differ."""

    spelling: str
    total: int
    differing: int


@dataclass
class EntropyStudy:
    """The study for one rules value."""

    rules: Rules
    exact_total: int
    decisions: int
    tied: int
    tied_across_sizes: int
    spellings: list[SpellingResult] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "rules": rules_name(self.rules),
            "exact_total": self.exact_total,
            "decisions": self.decisions,
            "tied": self.tied,
            "tied_across_sizes": self.tied_across_sizes,
            "spellings": [s.__dict__ for s in self.spellings],
        }


def entropy_study(rules: Rules, *, order: list[int] | None = None,
                  on_step: Callable[[str], None] | None = None) -> EntropyStudy:
    """Return the study for `rules`; `order` is the answer order of the float sums (the
    alphabet order, black then white ascending, by default). `on_step(what)` is told what
    is computed next."""
    def step(what: str) -> None:
        if on_step is not None:
            on_step(what)

    space = get_space(rules)
    step("the exact entropy tree")
    exact = find_strategy("entropy").tree(space)
    spellings = {s: find_strategy("entropy", entropy=s, order=order) for s in FLOAT_SPELLINGS}
    # candidate sets and guesses so far for each node of the exact tree (depth-first order)
    sets: list[np.ndarray] = [space.all()]
    paths: list[list[int]] = [[]]
    for i in range(1, exact.nodes):
        p = int(exact.parent[i])
        g = int(exact.guess[p])
        sets.append(space.filter(sets[p], g, int(exact.response[i])))
        paths.append([*paths[p], g])
    qtab = entropy_qtab(space.size)
    near = space.n_responses * 1024
    everything = space.all()
    decisions = tied = across = 0
    differing = dict.fromkeys(FLOAT_SPELLINGS, 0)
    step(f"each decision of the exact tree, exactly and as {len(spellings)} float sums")
    for i in range(exact.nodes):
        cands = sets[i]
        if cands.size < 2:
            continue
        decisions += 1
        counts = space.count_matrix(everything, cands)
        keys = qtab[counts].sum(axis=1)
        close = np.flatnonzero(keys <= keys.min() + near)
        exact_keys = [math.prod(int(n) ** int(n) for n in counts[j] if n > 1) for j in close]
        best = min(exact_keys)
        winners = [j for j, key in zip(close, exact_keys, strict=True) if key == best]
        if len(winners) > 1:
            tied += 1
            shapes = {tuple(sorted(counts[j].tolist())) for j in winners}
            across += len(shapes) > 1
        for name, strategy in spellings.items():
            if strategy.choose(space, cands, paths[i]) != int(exact.guess[i]):
                differing[name] += 1
    step(f"the trees of the {len(spellings)} float spellings")
    results = [
        SpellingResult(name, strategy.tree(space).total, differing[name])
        for name, strategy in spellings.items()
    ]
    return EntropyStudy(rules, exact.total, decisions, tied, across, results)


def format_study(study: EntropyStudy) -> str:
    """Return the study as a plain-text table like seed 000's."""
    lines = [
        f"{rules_name(study.rules)}: {study.tied:,} of {study.decisions:,} decisions of the exact "
        f"tree are tied, {study.tied_across_sizes:,} of them between different part sizes.",
        f"{'entropy computed as':<32} {'total':>7}  decisions that differ from exact",
        f"{SPELLING_TEXT['exact']:<32} {study.exact_total:>7,}  -",
    ]
    for s in study.spellings:
        lines.append(f"{SPELLING_TEXT[s.spelling]:<32} {s.total:>7,}  "
                     f"{s.differing:,} of {study.decisions:,}")
    return "\n".join(lines)


#: The games `python -m keypeg.study` studies when no --rules is given.
DEFAULT_RULES = ("classic", "MM(4,7)")
USAGE = "python -m keypeg.study [-h] [--rules NAME]... [--json]"


#: What the study's command line takes (said when it is given something else).
ALLOWED = "the study takes --rules NAME (any number of times), --json and --help"


def _refuse(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    parser = SentenceParser(
        prog="python -m keypeg.study", usage=USAGE, add_help=False, allow_abbrev=False,
        description="The entropy float study: the totals of the float spellings of the "
        "entropy rule and how many decisions of the exact tree each takes differently. "
        "Progress goes to stderr, the tables to stdout.")
    parser.add_argument("-h", "--help", action="help", help="Show this message and exit.")
    parser.add_argument("--rules", action="append", metavar="NAME",
                        help="A preset name or MM(pegs,colours) with flags, as keypeg's "
                        f"--rules takes; repeat for more games (at most {EXACT_HINT_CODES:,} "
                        f"codes each; default: {' and '.join(DEFAULT_RULES)}).")
    parser.add_argument("--json", action="store_true",
                        help="Print the studies as one JSON list (with the keypeg version) "
                        "instead of the tables.")
    return parser


def main(argv: list[str]) -> None:
    """Print the study for each --rules game (classic MM(4,6) and MM(4,7) by default),
    saying on stderr what is computed; refuse unknown options and rules (exit 2)."""
    try:
        args, extra = _parser().parse_known_args(argv)
    except KeypegError as exc:
        _refuse(f"{exc}; {ALLOWED}.")
    if extra:
        what = "option" if extra[0].startswith("-") else "argument"
        _refuse(f"unknown {what} {extra[0]!r}; {ALLOWED}.")
    games = []
    for name in args.rules or DEFAULT_RULES:
        try:
            rules = find_rules(name)
        except KeypegError as exc:
            _refuse(str(exc))
        if rules.size > EXACT_HINT_CODES:
            _refuse(f"the study of {rules_name(rules)} ({rules.size:,} codes) walks every "
                    f"decision of its exact entropy tree, which takes too long here; give "
                    f"rules of at most {EXACT_HINT_CODES:,} codes.")
        games.append(rules)
    studies = []
    for rules in games:
        name = rules_name(rules)

        def say(what: str, name: str = name) -> None:
            print(f"{name}: computing {what} ...", file=sys.stderr, flush=True)

        done = entropy_study(rules, on_step=say)
        if args.json:  # (a study's export: the tables alone had to be parsed)
            studies.append(done.to_dict())
            continue
        print(format_study(done), flush=True)
        print(flush=True)
    if args.json:
        from . import __version__

        print(json.dumps([{**x, "keypeg_version": __version__} for x in studies]))


if __name__ == "__main__":
    main(sys.argv[1:])
