"""Feedback: the answer to a guess, its text form, and the alphabet of possible answers.

Two models:

* ``blackwhite`` -- one black for every peg of the right colour in the right place, one white
  for every further peg whose colour is in the secret, repeats counted only as often as they
  occur in both (secret RRBB, guess RRRB: 3 black, 0 white). Written ``2B1W``.
* ``positional`` -- one mark per peg: green (right symbol, right place), amber (present
  elsewhere), gray. Greens are allocated first, then ambers left to right from the unmatched
  inventory of the secret; surplus copies are gray (secret 00123, guess 00000: ``GG---``).
  Written ``G``, ``A``, ``-`` (``Y`` is read as amber, ``.``/``X``/``_`` as gray).

>>> from keypeg.rules import find_rules
>>> r = find_rules("classic")
>>> str(score((0, 0, 2, 2), (0, 0, 0, 2), r))
'3B0W'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from unicodedata import normalize

import numpy as np

from .codes import Code, check_symbols, example_symbols
from .errors import InvalidFeedbackError
from .limits import plural, shorten, shown, whole_numbers
from .rules import Rules, feedback_terms, rules_of

GRAY, AMBER, GREEN = 0, 1, 2
MARK_TEXT = {GRAY: "-", AMBER: "A", GREEN: "G"}
BLACK_TEXT, WHITE_TEXT = "B", "W"
#: The characters answers are written with (what the web page is told in /api/rules).
NOTATION = {"black": BLACK_TEXT, "white": WHITE_TEXT, "green": MARK_TEXT[GREEN],
            "amber": MARK_TEXT[AMBER], "gray": MARK_TEXT[GRAY]}
_MARK_INPUT = {"G": GREEN, "A": AMBER, "Y": AMBER, "-": GRAY, ".": GRAY, "X": GRAY, "_": GRAY}
_BW_PATTERNS = (
    # (C: cows, as bulls and cows players write whites: 1B2C; a comma between: 2B, 1W)
    re.compile(r"^(?P<b>[0-9]{1,3})\s*B\s*(?:,?\s*(?P<w>[0-9]{1,3})\s*[WC])?$", re.I),
    re.compile(r"^(?P<w>[0-9]{1,3})\s*[WC](?:\s*,?\s*(?P<b>[0-9]{1,3})\s*B)?$", re.I),
    # two counts, black first: 2,1 2/1 2-1 2 1
    re.compile(r"^(?P<b>[0-9]{1,3})\s*[,/-]\s*(?P<w>[0-9]{1,3})$|"
               r"^(?P<b2>[0-9]{1,3})\s+(?P<w2>[0-9]{1,3})$"),
)
#: The key pegs read off a board, one letter each: BBW (B black or bull; W white, C cow).
_BW_LETTERS = re.compile(r"^[BWC](?:\s*[BWC])*$", re.I)
#: An empty row of key pegs.
_BW_NONE = ("0", "-", "--", "none", "nothing")


@dataclass(frozen=True)
class Feedback:
    """One answer. `marks` is ``(black, white)`` or one mark per peg (0 gray, 1 amber, 2 green)."""

    model: str
    marks: tuple[int, ...]

    def __post_init__(self) -> None:
        # the model and the marks' form (against no rules: `parse` checks those): whole
        # numbers (1.7 was cut to 1, 1.5 written '1.5B0W', True read as 1)
        whole = whole_numbers(self.marks)
        if whole is not None:
            object.__setattr__(self, "marks", whole)
        if self.model == "blackwhite":
            ok = whole is not None and len(whole) == 2 and min(whole) >= 0
        elif self.model == "positional":
            ok = bool(whole) and all(m in (GRAY, AMBER, GREEN) for m in whole or ())
        else:
            raise InvalidFeedbackError(f"the feedback model is 'blackwhite' or 'positional', "
                                       f"not {shown(self.model)}.")
        if not ok:
            raise InvalidFeedbackError(
                "a black/white answer is two counts of at least 0 (black, white), not "
                f"{shorten(self.marks)}." if self.model == "blackwhite" else
                "a positional answer is one mark per peg, 0 (gray), 1 (amber) or 2 (green), "
                f"not {shorten(self.marks)}.")

    @classmethod
    def blackwhite(cls, black: int, white: int) -> Feedback:
        """Build a black/white answer (not validated against any rules)."""
        return cls("blackwhite", (black, white))

    @classmethod
    def positional(cls, marks: Sequence[int]) -> Feedback:
        """Build a per-peg answer from marks 0 (gray), 1 (amber), 2 (green)."""
        return cls("positional", marks)  # type: ignore[arg-type]

    @classmethod
    def parse(cls, text: str | Feedback, rules: Rules | str) -> Feedback:
        """Parse feedback text under `rules` (or a name `find_rules` reads); raises
        `InvalidFeedbackError` if impossible.

        >>> from keypeg.rules import find_rules
        >>> str(Feedback.parse("2b", find_rules("classic")))
        '2B0W'
        """
        rules = rules_of(rules)
        if isinstance(text, Feedback):
            fb = text
        elif not isinstance(text, str):
            # (11 read as its digits, 1B1W, where CodeSpace.filter reads an int as an answer
            # index, 2B2W: ints are never written feedback, as they are never written codes)
            raise InvalidFeedbackError(
                f"written feedback is text, like {example_answer(rules)!r}, not "
                f"{type(text).__name__}; CodeSpace.feedback(i) gives the answer with index i.")
        else:
            # full-width and other compatibility forms read as plain letters and digits
            raw = normalize("NFKC", str(text)[:256]) if len(str(text)) <= 256 else str(text)
            fb = (_parse_blackwhite if rules.feedback == "blackwhite" else _parse_positional)(
                raw, rules)
        check_feedback(fb, rules)
        return fb

    @property
    def black(self) -> int:
        """Return the blacks (greens, for positional feedback)."""
        if self.model == "blackwhite":
            return self.marks[0]
        return sum(1 for m in self.marks if m == GREEN)

    @property
    def white(self) -> int:
        """Return the whites (ambers, for positional feedback)."""
        if self.model == "blackwhite":
            return self.marks[1]
        return sum(1 for m in self.marks if m == AMBER)

    def is_win(self, rules: Rules) -> bool:
        """Return True when this answer says the guess is the secret."""
        return self.black == rules.pegs

    def __str__(self) -> str:
        if self.model == "blackwhite":
            return f"{self.marks[0]}{BLACK_TEXT}{self.marks[1]}{WHITE_TEXT}"
        return "".join(MARK_TEXT[m] for m in self.marks)


def _parse_blackwhite(text: str, rules: Rules) -> Feedback:
    raw = text.strip()
    for pattern in _BW_PATTERNS:
        m = pattern.match(raw)
        if m:
            found = m.groupdict()
            black = int(found.get("b") or found.get("b2") or 0)
            white = int(found.get("w") or found.get("w2") or 0)
            return Feedback.blackwhite(black, white)
    if _BW_LETTERS.match(raw):
        letters = raw.upper()
        return Feedback.blackwhite(letters.count("B"), letters.count("W") + letters.count("C"))
    if raw.lower() in _BW_NONE:
        return Feedback.blackwhite(0, 0)
    if rules.pegs <= 9 and re.fullmatch(r"[0-9]{2}", raw):
        # (two digits, black then white, as many bulls and cows players write them: 12)
        return Feedback.blackwhite(int(raw[0]), int(raw[1]))
    term_b, term_w = feedback_terms(rules)
    b, w = ("B", "C") if term_b == "bull" else ("B", "W")
    raise InvalidFeedbackError(
        f"cannot read feedback {shorten(text)!r}; write {term_b}s and {term_w}s like 2{b}1{w} "
        f"(or 2{b}, 1{w}, 0{b}0{w}, 2 1, {b}{b}{w})."
    )


def _parse_positional(text: str, rules: Rules) -> Feedback:
    raw = "".join(ch for ch in text.strip() if ch not in " ,")
    marks = []
    for ch in raw:
        mark = _MARK_INPUT.get(ch.upper())
        if mark is None:
            raise InvalidFeedbackError(
                f"feedback {shorten(text)!r} has an unknown mark {ch!r}; use G (green), A (amber) "
                f"and - (gray), one per peg, like {'GA-' + '-' * max(0, rules.pegs - 3)}."
            )
        marks.append(mark)
    if len(marks) != rules.pegs:
        raise InvalidFeedbackError(
            f"feedback {shorten(text)!r} has {plural(len(marks), 'mark')}; give one per peg "
            f"({rules.pegs}), each G, A or -."
        )
    return Feedback.positional(marks)


def feedback_problem(fb: Feedback, rules: Rules) -> str | None:
    """Return why `fb` cannot be an answer under `rules`, or None when it can."""
    p, n = rules.pegs, rules.symbols
    if fb.model != rules.feedback:
        return f"{fb} is {fb.model} feedback but these rules use {rules.feedback} feedback"
    black, white = fb.black, fb.white
    if fb.model == "blackwhite":
        if black < 0 or white < 0:
            return f"{fb} has a negative count"
        if black + white > p:
            return f"{fb} has {black + white} key pegs but codes have only {p} pegs"
        if black == p - 1 and white == 1:
            return f"{fb} cannot happen: {p - 1} right in place leaves no room for one misplaced"
    else:
        if len(fb.marks) != p or any(m not in (GRAY, AMBER, GREEN) for m in fb.marks):
            return f"{fb} must have one mark per peg ({p})"
        if black == p - 1 and white == 1:
            return f"{fb} cannot happen: with one peg not green, it cannot be amber"
    if n == 1 and black != p:
        return f"{fb} cannot happen: with one symbol every guess is right"
    if not rules.repeats and black + white < 2 * p - n:
        return (
            f"{fb} cannot happen: two codes of {p} distinct symbols out of {n} share at "
            f"least {2 * p - n}"
        )
    return None


def check_feedback(fb: Feedback, rules: Rules) -> None:
    """Raise `InvalidFeedbackError` when `fb` cannot be an answer under `rules`."""
    problem = feedback_problem(fb, rules)
    if problem is not None:
        raise InvalidFeedbackError(problem + ".")


def score(secret: Sequence[int] | str | Code, guess: Sequence[int] | str | Code,
          rules: Rules | str) -> Feedback:
    """Return the answer to `guess` when the secret is `secret` (the secret first, as a
    codemaker holds it), under `rules` (or a name `find_rules` reads). Each is a written
    code (``"1122"``, in the rules' notation), a `Code`, or its symbol indices
    (``(0, 0, 1, 1)``); `InvalidCodeError` when it is not a code of the rules."""
    rules = rules_of(rules)
    secret, guess = _symbols(secret, rules), _symbols(guess, rules)
    if rules.feedback == "blackwhite":
        black = sum(1 for s, g in zip(secret, guess, strict=True) if s == g)
        common = sum((Counter(secret) & Counter(guess)).values())
        return Feedback.blackwhite(black, common - black)
    marks = [GREEN if s == g else GRAY for s, g in zip(secret, guess, strict=True)]
    unmatched = Counter(s for s, m in zip(secret, marks, strict=True) if m != GREEN)
    for i, g in enumerate(guess):
        if marks[i] != GREEN and unmatched[g] > 0:
            marks[i] = AMBER
            unmatched[g] -= 1
    return Feedback.positional(marks)


def _symbols(code: Sequence[int] | str | Code, rules: Rules) -> Sequence[int]:
    """Return a code's symbol indices (checked: a written code is parsed, a `Code` of other
    rules read again in these, symbol indices checked for their length and range)."""
    if isinstance(code, (str, Code)):
        return Code.parse(code, rules).symbols
    return check_symbols(code, rules)


def answer_legend(rules: Rules) -> str:
    """Return one sentence saying what an answer means under `rules`, for a newcomer."""
    like = example_answer(rules)
    if rules.feedback == "positional":
        return ("Answers mark each peg: G the right symbol in the right place, A a symbol "
                f"of the code in another place, - not in the code (like {like}).")
    black, _white = feedback_terms(rules)
    if black == "bull":
        return ("Answers count bulls (B: right digit, right place) and cows (W or C: right "
                f"digit, wrong place), like {like}.")
    return ("Answers count blacks (B: right colour, right place) and whites (W: right "
            f"colour, wrong place), like {like}.")


def example_answer(rules: Rules) -> str:
    """Return an answer to show with `codes.example_code`: the one it gets when the secret
    is the same code turned by one peg (1122 against 2112: 2B2W), so always a possible
    answer."""
    s = example_symbols(rules)
    return str(score(s[-1:] + s[:-1], s, rules))


class ResponseAlphabet:
    """The answers possible under some rules, numbered 0..R-1; the win is R-1.

    The kernels compute a raw key per answer (``black*(pegs+1)+white``, or the marks read
    as a base-3 number); `lut` maps a raw key to its index (-1 when impossible).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        p = rules.pegs
        candidates: list[Feedback]
        if rules.feedback == "blackwhite":
            candidates = [
                Feedback.blackwhite(b, w) for b in range(p + 1) for w in range(p + 1 - b)
            ]
            raw_size = (p + 1) ** 2
        else:
            candidates = [
                Feedback.positional(_base3(k, p)) for k in range(3**p)
            ]
            raw_size = 3**p
        ok = [fb for fb in candidates if feedback_problem(fb, rules) is None]
        ok.sort(key=lambda fb: (fb.is_win(rules), self.raw_key(fb)))
        self.responses: tuple[Feedback, ...] = tuple(ok)
        self._index = {fb: i for i, fb in enumerate(ok)}
        self.lut = np.full(raw_size, -1, dtype=np.int32)
        for i, fb in enumerate(ok):
            self.lut[self.raw_key(fb)] = i
        self.win = len(ok) - 1

    def raw_key(self, fb: Feedback) -> int:
        """Return the kernel's raw key of an answer."""
        if fb.model == "blackwhite":
            return fb.marks[0] * (self.rules.pegs + 1) + fb.marks[1]
        key = 0
        for m in fb.marks:
            key = key * 3 + m
        return key

    def __len__(self) -> int:
        return len(self.responses)

    def __getitem__(self, index: int) -> Feedback:
        return self.responses[index]

    def index(self, fb: Feedback | str) -> int:
        """Return the index of an answer; raises `InvalidFeedbackError` if impossible."""
        fb = Feedback.parse(fb, self.rules)
        return self._index[fb]

    @property
    def dtype(self) -> type[np.unsignedinteger]:
        """Return the smallest unsigned dtype that holds every answer index."""
        return np.uint8 if len(self) <= 256 else np.uint16


def _base3(k: int, p: int) -> tuple[int, ...]:
    out = []
    for _ in range(p):
        k, d = divmod(k, 3)
        out.append(d)
    return tuple(reversed(out))


@cache
def response_alphabet(rules: Rules) -> ResponseAlphabet:
    """Return the (cached) answer alphabet of `rules`."""
    return ResponseAlphabet(rules)
