"""Codes: how they are written, parsed and numbered.

Colour games write colours 1..c as the seeds do (`1123`); in games of at most 9 colours
the letters R G B Y O P W K C (red, green, blue, yellow, orange, purple, white, black, cyan)
are accepted for colours 1-9 as well. Digit games write 0..c-1. Past 9 (colours) or 10
(digits) the symbols go on with A, B, ..., which there are colours 10, 11, ... (no longer
colour letters).
A blank, where the rules allow blanks, is written `_` (`.` is accepted too, and `0` in
colour games).

Every code has an index: its rank in lexical order among all codes of the rules, which is
also its row in the `CodeSpace` arrays.

>>> from keypeg.rules import find_rules
>>> c = Code.parse("RRBY", find_rules("classic"))
>>> str(c), c.index
('1134', 15)
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import total_ordering
from typing import Any
from unicodedata import normalize

from .errors import InvalidCodeError
from .limits import MAX_PEGS, plural, shorten, shown, whole_numbers
from .rules import Rules, rules_literal, rules_name, rules_of

COLOR_ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGIT_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
COLOR_LETTERS = "RGBYOPWKC"
COLOR_NAMES = ("red", "green", "blue", "yellow", "orange", "purple", "white", "black", "cyan")
BLANK = "_"
_SEPARATORS = " ,\t"


def symbol_text(symbol: int, rules: Rules) -> str:
    """Return the character that writes symbol index `symbol` under `rules`."""
    if symbol == rules.colors:
        return BLANK
    return (DIGIT_ALPHABET if rules.digits else COLOR_ALPHABET)[symbol]


def alphabet_text(rules: Rules) -> str:
    """Return the symbols of `rules` as written, in order (e.g. '123456')."""
    return "".join(symbol_text(i, rules) for i in range(rules.symbols))


def allowed_text(rules: Rules) -> str:
    """Return a short phrase naming the allowed symbols, for error messages."""
    alphabet = DIGIT_ALPHABET if rules.digits else COLOR_ALPHABET
    kind = "digits" if rules.digits else "colours"
    first, last = alphabet[0], alphabet[rules.colors - 1]
    text = f"{kind} {first}-{last}" if rules.colors > 1 else f"{kind} {first}"
    if not last.isdigit():  # ('colours 1-C' left the letters to guess)
        base = 0 if rules.digits else 1  # (symbol i is written as the number i + base)
        low, high = alphabet.index("A") + base, rules.colors - 1 + base
        letters = "A" if last == "A" else f"A-{last}"
        numbers = str(low) if high == low else f"{low}-{high}"
        text = f"{kind} {first}-9 and {letters} (for {numbers})"
    if not rules.digits and rules.colors <= len(COLOR_LETTERS):
        text += f" or letters {' '.join(COLOR_LETTERS[: rules.colors])}"
    if rules.blanks:
        text += f" and the blank {BLANK}"
    return text


def symbol_index(ch: str, rules: Rules) -> int | None:
    up = ch.upper()
    if rules.blanks and (ch in (BLANK, ".") or (ch == "0" and not rules.digits)):
        return rules.colors
    if not rules.digits and rules.colors <= len(COLOR_LETTERS) and up in COLOR_LETTERS:
        i = COLOR_LETTERS.index(up)
        return i if i < rules.colors else None
    alphabet = DIGIT_ALPHABET if rules.digits else COLOR_ALPHABET
    i = alphabet.find(up)
    return i if 0 <= i < rules.colors else None


def parse_symbols(text: str, rules: Rules) -> tuple[int, ...]:
    """Parse a written code into symbol indices.

    Raises `InvalidCodeError` for a wrong length, an unknown symbol or a forbidden repeat;
    the message says what is allowed.
    """
    if not isinstance(text, str):
        # (an int would read as its digits, 123 for 0123, while code indices are ints too)
        raise InvalidCodeError(
            "a written code is text, like "
            f"{format_symbols(tuple(i % rules.symbols for i in range(rules.pegs)), rules)!r}"
            f" for {rules_name(rules)}, not {type(text).__name__}; a code index goes to "
            "Code.from_index.")
    # full-width and other compatibility forms read as their plain letters and digits
    raw = "".join(ch for ch in normalize("NFKC", text[: 4 * MAX_PEGS + 64]).strip()
                  if ch not in _SEPARATORS)
    example = format_symbols(tuple(i % rules.symbols for i in range(rules.pegs)), rules)
    if not raw:
        raise InvalidCodeError(
            f"empty code; {rules_name(rules)} codes have {plural(rules.pegs, 'symbol')}, e.g. "
            f"{example}, using {allowed_text(rules)}."
        )
    # (the length first: its message names the symbols allowed too; mini's 12345 was "an
    # unknown symbol '5'" where classic's was "5 symbols")
    length = len(raw) if len(text) <= 4 * MAX_PEGS + 64 else len(text)
    if length != rules.pegs:
        raise InvalidCodeError(
            f"{shorten(text)!r} has {plural(length, 'symbol')}; {rules_name(rules)} codes have "
            f"{rules.pegs}, e.g. {example}, using {allowed_text(rules)}."
        )
    symbols: list[int] = []
    for ch in raw:
        s = symbol_index(ch, rules)
        if s is None:
            raise InvalidCodeError(
                f"{shorten(text)!r} has an unknown symbol {ch!r}; allowed are "
                f"{allowed_text(rules)}."
            )
        symbols.append(s)
    if not rules.repeats:
        seen: set[int] = set()
        for s in symbols:
            if s in seen:
                raise InvalidCodeError(
                    f"{shorten(text)!r} repeats {symbol_text(s, rules)!r}; in {rules_name(rules)} "
                    f"each symbol may appear at most once."
                )
            seen.add(s)
    return tuple(symbols)


def example_symbols(rules: Rules) -> list[int]:
    p, c = rules.pegs, rules.colors
    pairs = rules.repeats and p >= 4
    return [min(i // 2, c - 1) if pairs else i % rules.symbols for i in range(p)]


def example_code(rules: Rules) -> str:
    """Return a code to show as an example of the rules' notation: colours in pairs where
    repeats are allowed and there are four pegs or more (1122, 11223344), else distinct
    ones in order (123, 01234)."""
    return format_symbols(example_symbols(rules), rules)


def format_symbols(symbols: Iterable[int], rules: Rules) -> str:
    """Return the written form of a sequence of symbol indices."""
    return "".join(symbol_text(int(s), rules) for s in symbols)


def rank(symbols: Sequence[int], rules: Rules) -> int:
    """Return the lexical index of a code given as symbol indices (no validation)."""
    n, p = rules.symbols, rules.pegs
    index = 0
    if rules.repeats:
        for s in symbols:
            index = index * n + int(s)
        return index
    used: list[int] = []
    for i, s in enumerate(symbols):
        smaller = int(s) - sum(1 for u in used if u < s)
        index += smaller * math.perm(n - 1 - i, p - 1 - i)
        used.append(int(s))
    return index


def unrank(index: int, rules: Rules) -> tuple[int, ...]:
    """Return the symbol indices of the code with lexical index `index` (no validation)."""
    n, p = rules.symbols, rules.pegs
    if rules.repeats:
        out = []
        for _ in range(p):
            index, s = divmod(index, n)
            out.append(s)
        return tuple(reversed(out))
    free = list(range(n))
    result = []
    for i in range(p):
        block = math.perm(n - 1 - i, p - 1 - i)
        k, index = divmod(index, block)
        result.append(free.pop(k))
    return tuple(result)


def same_codes(a: Rules, b: Rules) -> bool:
    """Whether a code index means the same symbols under both rules (their row counts,
    feedback or notation may differ)."""
    return (a.pegs, a.colors, a.repeats, a.blanks) == (b.pegs, b.colors, b.repeats, b.blanks)


def check_symbols(symbols: Any, rules: Rules) -> tuple[int, ...]:
    """Return `symbols` as a tuple of ints when they are a code of `rules` as symbol
    indices (whole numbers from 0 to symbols - 1, one per peg, no repeat where none is
    allowed); else raise `InvalidCodeError` in one sentence (a float or True is refused,
    not rounded)."""
    out = whole_numbers(symbols)
    if out is None or len(out) != rules.pegs or not all(0 <= x < rules.symbols for x in out):
        shown_as = shorten(tuple(symbols)) if isinstance(symbols, (list, tuple)) else shown(
            symbols)
        raise InvalidCodeError(f"a code of {rules_name(rules)} as symbol indices is "
                               f"{rules.pegs} whole numbers from 0 to {rules.symbols - 1}, "
                               f"not {shown_as}.")
    if not rules.repeats and len(set(out)) != len(out):
        raise InvalidCodeError(f"{shorten(out)} repeats a symbol; in {rules_name(rules)} "
                               "each symbol may appear at most once.")
    return out


def check_index(index: Any, size: int, what: str = "code index") -> int:
    """Return `index` as an int when it is a whole number from 0 to size - 1; else raise
    `InvalidCodeError` in one sentence (a float or a text is refused, not rounded)."""
    try:
        if isinstance(index, bool):
            raise TypeError
        i = operator.index(index)
    except TypeError:
        article = "an" if what[:1] in "aeiou" else "a"
        raise InvalidCodeError(f"{article} {what} is a whole number, not {shown(index)}.") from None
    if not 0 <= i < size:
        raise InvalidCodeError(f"{what} {i} is outside 0..{size - 1}.")
    return i


@total_ordering
@dataclass(frozen=True, eq=True)
class Code:
    """One code of a game: a friendly, frozen view of an index into the code space.

    >>> from keypeg.rules import find_rules
    >>> Code.parse("1123", find_rules("classic")).symbols
    (0, 0, 1, 2)
    """

    rules: Rules
    index: int

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):  # (a preset's name; else refused in a sentence)
            object.__setattr__(self, "rules", rules_of(self.rules))
        object.__setattr__(self, "index", check_index(self.index, self.rules.size))

    @classmethod
    def parse(cls, text: str | Code, rules: Rules | str) -> Code:
        """Parse a written code under `rules` (or a name `find_rules` reads); raises
        `InvalidCodeError` with what is allowed."""
        rules = rules_of(rules)
        if isinstance(text, Code):
            if text.rules == rules:
                return text
            if same_codes(text.rules, rules):  # (another row count or feedback, say)
                return cls(rules, text.index)
            # (read again as text, '1234' of classic became the digits 1234 of
            # bulls-and-cows: other symbols)
            raise InvalidCodeError(
                f"{text} is a code of {rules_name(text.rules)}, not of {rules_name(rules)}; "
                "write it as text to read it under these rules.")
        return cls(rules, rank(parse_symbols(text, rules), rules))

    @classmethod
    def from_symbols(cls, symbols: Sequence[int], rules: Rules | str) -> Code:
        """Build a code from symbol indices (0 to symbols - 1); raises `InvalidCodeError`
        when not a code."""
        rules = rules_of(rules)
        return cls(rules, rank(check_symbols(symbols, rules), rules))

    @classmethod
    def from_index(cls, index: int, rules: Rules | str) -> Code:
        """Build a code from its lexical index; raises `InvalidCodeError` when out of range."""
        rules = rules_of(rules)
        return cls(rules, check_index(index, rules.size))

    @property
    def symbols(self) -> tuple[int, ...]:
        """Return the symbol index of each peg."""
        return unrank(self.index, self.rules)

    def __str__(self) -> str:
        return format_symbols(self.symbols, self.rules)

    def __repr__(self) -> str:
        return f"Code.parse({str(self)!r}, {rules_literal(self.rules)})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Code):
            return NotImplemented
        return self.index < other.index
