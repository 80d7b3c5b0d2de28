"""Rules of a Mastermind-family game, and the named presets.

A `Rules` value says everything that decides which codes exist and what feedback a guess
gets: pegs, colours, whether colours may repeat, the feedback model, blanks, the number of
board rows, and how symbols are written (colours 1..c or digits 0..c-1).

>>> r = find_rules("classic")
>>> r.pegs, r.colors, r.repeats, r.max_guesses
(4, 6, True, 10)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Literal

from .errors import InvalidRulesError, UnknownRulesError
from .limits import MAX_CODES, MAX_PEGS, MAX_SYMBOLS, check_flag, plural, shorten, shown

FeedbackModel = Literal["blackwhite", "positional"]
FEEDBACK_MODELS: tuple[str, ...] = ("blackwhite", "positional")


@dataclass(frozen=True)
class Rules:
    """Rules of one game; a frozen, hashable value.

    Raises `InvalidRulesError` when the rules cannot be played.
    """

    pegs: int
    colors: int
    repeats: bool = True
    feedback: FeedbackModel = "blackwhite"
    blanks: bool = False
    max_guesses: int | None = None
    digits: bool = False
    name: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        for flag in ("repeats", "blanks", "digits"):
            check_flag(flag, getattr(self, flag), InvalidRulesError)
            object.__setattr__(self, flag, bool(getattr(self, flag)))
        if self.name is not None and (not isinstance(self.name, str) or not self.name.strip()):
            raise InvalidRulesError(f"name must be a text that is not blank, or None, not "
                                    f"{shown(self.name)}.")
        if isinstance(self.pegs, bool) or isinstance(self.colors, bool) or isinstance(
                self.max_guesses, bool):
            raise InvalidRulesError("pegs, colors and max_guesses are whole numbers, not "
                                    "True or False.")
        if not isinstance(self.pegs, int) or not 1 <= self.pegs <= MAX_PEGS:
            raise InvalidRulesError(
                f"pegs must be a whole number from 1 to {MAX_PEGS}, not {shown(self.pegs)}."
            )
        if not isinstance(self.colors, int) or self.colors < 1:
            raise InvalidRulesError(
                f"colors must be a whole number of at least 1, not {shown(self.colors)}."
            )
        limit = MAX_SYMBOLS + (1 if self.digits else 0)
        if self.colors > limit:
            raise InvalidRulesError(
                f"colors must be at most {limit} with this notation, not {self.colors}."
            )
        if self.feedback not in FEEDBACK_MODELS:
            raise InvalidRulesError(
                f"feedback must be 'blackwhite' or 'positional', not {shown(self.feedback)}."
            )
        if not self.repeats and self.symbols < self.pegs:
            raise InvalidRulesError(
                f"without repeats there must be at least as many colours as pegs "
                f"({self.symbols} symbols for {self.pegs} pegs)."
            )
        if self.max_guesses is not None and (
            not isinstance(self.max_guesses, int) or self.max_guesses < 1
        ):
            raise InvalidRulesError(
                "max_guesses must be a whole number of at least 1, not "
                f"{shown(self.max_guesses)}."
            )
        if self.size > MAX_CODES:
            raise InvalidRulesError(
                f"these rules have {self.size:,} codes; keypeg enumerates at most {MAX_CODES:,}."
            )

    @property
    def symbols(self) -> int:
        """Return the number of symbols a peg can take (colours, plus one for blanks)."""
        return self.colors + (1 if self.blanks else 0)

    @property
    def size(self) -> int:
        """Return the number of codes."""
        if self.repeats:
            return int(self.symbols**self.pegs)
        return math.perm(self.symbols, self.pegs)

    @property
    def key(self) -> str:
        """Return a short text that identifies the code space (not the board length)."""
        parts = [f"p{self.pegs}", f"c{self.colors}"]
        if not self.repeats:
            parts.append("norep")
        if self.blanks:
            parts.append("blanks")
        if self.feedback == "positional":
            parts.append("pos")
        return "-".join(parts)

    def describe(self) -> str:
        """Return a one-line human description, e.g. '4 pegs, 6 colours, 10 rows' (the rows
        of the board: the guesses a player has, not those a strategy needs)."""
        kind = "digit" if self.digits else "colour"
        text = f"{plural(self.pegs, 'peg')}, {plural(self.colors, kind)}"
        if not self.repeats:
            text += ", no repeats"
        if self.blanks:
            text += ", blanks allowed"
        if self.feedback == "positional":
            text += ", positional feedback"
        if self.max_guesses:
            text += f", {plural(self.max_guesses, 'row')}"
        return text

    def with_max_guesses(self, max_guesses: int | None) -> Rules:
        """Return the same rules with another board length."""
        return replace(self, max_guesses=max_guesses)


@dataclass(frozen=True)
class Preset:
    """A named rules preset with its aliases and a short description."""

    name: str
    rules: Rules
    aliases: tuple[str, ...]
    description: str
    #: What the two kinds of black/white key peg are called in this game (singular).
    terms: tuple[str, str] = ("black", "white")


def _preset(name: str, description: str, *aliases: str,
            terms: tuple[str, str] = ("black", "white"), **kwargs: object) -> Preset:
    rules = Rules(name=name, **kwargs)  # type: ignore[arg-type]
    return Preset(name, rules, aliases, description, terms)


PRESETS: tuple[Preset, ...] = (
    _preset("classic", "Mastermind: 4 pegs, 6 colours, repeats, 10 rows", "mastermind", "mm",
            pegs=4, colors=6, max_guesses=10),
    _preset("mini", "Mini Mastermind: 4 pegs, 4 colours", "mini-mastermind",
            pegs=4, colors=4),
    _preset("super", "Super Mastermind / Logik: 5 pegs, 8 colours, 12 rows", "logik",
            "super-mastermind", pegs=5, colors=8, max_guesses=12),
    _preset("bulls-and-cows", "Bulls and Cows: 4 distinct digits 0-9", "bulls", "bc",
            pegs=4, colors=10, repeats=False, digits=True, max_guesses=10,
            terms=("bull", "cow")),
)
PRESETS += tuple(
    _preset(
        f"codebreaker-{level}",
        f"RAW Codebreaker level {level}: 5 digits, "
        + ("distinct" if level <= 3 else "repeats allowed")
        + f", {(8, 7, 6)[(level - 1) % 3]} attempts, green/amber/gray",
        f"cb{level}",
        pegs=5,
        colors=10,
        repeats=level > 3,
        feedback="positional",
        digits=True,
        max_guesses=(8, 7, 6)[(level - 1) % 3],
    )
    for level in range(1, 7)
)
PRESETS += (
    _preset("mm-6-9", "Mastermind 6 × 9: 6 pegs, 9 colours, 531,441 codes", "mm69",
            pegs=6, colors=9),
    _preset("mm-8-8", "Mastermind 8 × 8: 8 pegs, 8 colours, 16.8 million codes", "mm88",
            pegs=8, colors=8),
)

_BY_NAME: dict[str, Preset] = {}
for _p in PRESETS:
    for _alias in (_p.name, *_p.aliases):
        _BY_NAME[_alias] = _p


def preset_names() -> list[str]:
    """Return the canonical names of every preset, in registry order."""
    return [p.name for p in PRESETS]


def find_rules(name: str) -> Rules:
    """Return the preset called `name` (canonical name or alias, any case), or the game
    written MM(pegs,colours) with any of the flags `rules_name` adds.

    Raises `UnknownRulesError` listing the valid names.

    >>> find_rules("logik").colors
    8
    >>> find_rules("MM(5,7) [no repeats]").size
    2520
    """
    if not isinstance(name, str):
        raise UnknownRulesError(f"a preset's name is text (one of: {', '.join(preset_names())}"
                                f"), not {type(name).__name__}.")
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    preset = _BY_NAME.get(key)
    if preset is not None:
        return preset.rules
    m = _MM.match(name.strip().lower())
    if m is None:
        raise UnknownRulesError(
            f"unknown rules {shorten(name)!r}; choose one of: {', '.join(preset_names())}, "
            "or MM(pegs,colours) for plain Mastermind (flags in brackets, as in "
            "'MM(5,7) [no repeats]')."
        )
    options: dict[str, object] = {}
    flags = m.group(3) if m.group(3) is not None else m.group(4)
    for flag in ([] if flags is None else flags.split(",")):
        flag = " ".join(flag.split())
        if flag not in _MM_FLAGS:
            raise UnknownRulesError(
                f"unknown flag {shorten(flag)!r} in {shorten(name)!r}; the flags are: "
                f"{', '.join(_MM_FLAGS)}.")
        options.update(_MM_FLAGS[flag])
    # (a number of thousands of digits is not read: Rules refuses its text, shortened)
    pegs, colors = (int(g) if len(g) <= 9 else g for g in m.group(1, 2))
    return Rules(pegs=pegs, colors=colors, **options)  # type: ignore[arg-type]


def rules_of(rules: Rules | str) -> Rules:
    """Return `rules` as `Rules`: a `Rules`, or a name `find_rules` reads; anything else is
    refused in one sentence."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return find_rules(rules)
    raise InvalidRulesError(f"rules must be Rules or a name such as 'classic' or 'MM(5,7)', "
                            f"not {type(rules).__name__}.")


def rules_literal(rules: Rules) -> str:
    """Return how `rules` are written in a repr: the quoted name `find_rules` reads back
    as the same rules ('classic', 'MM(5,7) [no repeats]'), else the full `Rules(...)`."""
    name = rules_name(rules)
    try:
        if find_rules(name) == rules:
            return repr(name)
    except (UnknownRulesError, InvalidRulesError):
        pass
    return repr(rules)


def feedback_terms(rules: Rules) -> tuple[str, str]:
    """Return what the black and white key pegs are called under `rules` (singular):
    ("bull", "cow") for bulls and cows, else ("black", "white").

    >>> feedback_terms(find_rules("bulls"))
    ('bull', 'cow')
    """
    for p in PRESETS:
        if p.rules == rules:
            return p.terms
    return ("black", "white")


#: Plain Mastermind written as `rules_name` writes it: MM(p,c), and the flags in brackets
#: (or after a comma: "MM(6,7), no repeats").
_MM = re.compile(r"^mm\s*\(\s*([-+]?\d+)\s*,\s*([-+]?\d+)\s*\)\s*(?:\[(.*)\]|,(.*))?$")
_MM_FLAGS: dict[str, dict[str, object]] = {
    "no repeats": {"repeats": False}, "blanks": {"blanks": True},
    "positional": {"feedback": "positional"}, "digits": {"digits": True}}


def rules_name(rules: Rules) -> str:
    """Return the preset name of `rules`, or a compact MM(p,c) description."""
    if rules.name:
        return rules.name
    for p in PRESETS:
        if p.rules == rules:
            return p.name
    text = f"MM({rules.pegs},{rules.colors})"
    extras = [flag for flag, options in _MM_FLAGS.items()
              if all(getattr(rules, k) == v for k, v in options.items())]
    return text + (f" [{', '.join(extras)}]" if extras else "")
