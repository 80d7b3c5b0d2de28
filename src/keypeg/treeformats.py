"""Trees as documents: read, check and write decision trees in the formats people exchange.

Readers turn a file into a `RawTree` (the nodes as written, in depth-first order, before
any replay); `replay` plays it against every secret and says whether it is a valid strategy
(and, if not, the first secret it fails on and why); `to_decision_tree` then gives a
`DecisionTree` whose part sizes come from that replay. Writers turn a `DecisionTree` into
text. Formats:

* **json** -- keypeg's own tree JSON (`DecisionTree.to_dict`), rules included; a
  hand-written one may name its rules (``"rules": "classic"`` or ``"MM(2,2)"``) or leave
  them out, to be given (classic when none are).
* **irving** -- Irving-style indented text, one line per guess (see `write_irving`)::

      # keypeg decision tree, Irving-style text
      # rules: classic
      # strategy: maxsize
      1122 (1296)
        0B0W: 3345 (256)
          0B0W: 6666 (1) *

  The root line is the first guess; every other line is ``ANSWER: GUESS``, indented two
  spaces more than the guess it answers. ``(N)`` (secrets reaching the guess) and ``*``
  (the guess can be the secret; on a line with nothing below it, it is the secret) are
  written for people and recomputed on reading. The winning answer takes no line.
  ``# rules:`` (a rules name such as ``classic`` or ``MM(3,3) [positional]``, or the rules
  as JSON) and ``# strategy:`` are optional.
* **arfst** -- the solution files of arfst23/Mastermind (a C solver on GitHub): colours
  are digits from 0 (arfst23's ``0012`` is keypeg's classic ``1123``) and answers are
  written ``X`` (black), ``O`` (white), ``-`` per key peg, blacks first (``XO--``).
  The *punch card* file has a header line with the answers in order, then one line per
  guess: line number, guess number, guess, and one field per answer: ``>NNN`` (go to line
  NNN), a code (the only secret left, guessed next), or dashes (no secret gives that
  answer); the last column (all ``X``) repeats the guess when it can be the secret. The
  *YAML* file nests ``[guess, {answer: code or [guess, {...}]}]``. Neither file names its
  rules: they are given, or taken from the codes (pegs from their length, colours from the
  largest digit, repeats if any code repeats a colour).
* **dot** (Graphviz source), **svg** (a picture laid out here, no Graphviz needed) and
  **text** (the indented view of `render_view`) show a tree; they are not read back.
"""

from __future__ import annotations

import gzip
import html
import json
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from .errors import KeypegError
from .feedback import Feedback
from .limits import plural, shorten
from .rules import PRESETS, Rules, feedback_terms, find_rules, rules_name, rules_of
from .space import get_space
from .tree import FORMAT as JSON_FORMAT
from .tree import DecisionTree, rules_from_json

#: The formats `read_tree` tells apart by itself.
READ_FORMATS = ("json", "irving", "arfst")
#: How many nodes an SVG shows when no depth is asked for.
SVG_NODES = 300


class TreeFileError(KeypegError):
    """A tree file that cannot be read: not found, not text, or not in the format."""


class InvalidTreeError(KeypegError):
    """A tree that reads fine but is not a valid strategy for its rules."""


# ====================================================================== raw trees
@dataclass
class RawTree:
    """A tree as written in a file: per node (depth-first order, root first) the guess as
    written, its code index (-1 when it is not a code of the rules, with `problem` saying
    why), its parent and the answer index leading to it."""

    rules: Rules
    strategy: str = "imported"
    text: list[str] = field(default_factory=list)
    guess: list[int] = field(default_factory=list)
    problem: list[str | None] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    response: list[int] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._space = get_space(self.rules)
        self._answers: list[dict[int, int]] = []

    @property
    def nodes(self) -> int:
        """Return how many guesses the file writes."""
        return len(self.guess)

    def add(self, code: str | tuple[int, ...], parent: int, response: int, where: str) -> int:
        """Append a node (a code as keypeg text, or as symbol indices) under `parent`;
        raises `TreeFileError` (naming `where`) for a second branch with the same answer."""
        if parent >= 0:
            if response == self._space.win:
                raise TreeFileError(f"{where}: the winning answer {self._space.feedback(response)}"
                                    " ends the game, so it takes no branch.")
            if response in self._answers[parent]:
                raise TreeFileError(f"{where}: a second branch for the answer "
                                    f"{self._space.feedback(response)} after "
                                    f"{self.text[parent]}.")
            self._answers[parent][response] = len(self.guess)
        index, problem, text = self._code(code)
        self.text.append(text)
        self.guess.append(index)
        self.problem.append(problem)
        self.parent.append(parent)
        self.response.append(response)
        self._answers.append({})
        return len(self.guess) - 1

    def _code(self, code: str | tuple[int, ...]) -> tuple[int, str | None, str]:
        space, rules = self._space, self.rules
        if isinstance(code, str):
            try:
                return space.index(code), None, code
            except KeypegError as exc:
                return -1, str(exc).rstrip("."), code
        text = "".join(str(s) for s in code) + " (in the file's digits)"
        if len(code) != rules.pegs:
            return -1, f"it has {len(code)} pegs, not {rules.pegs}", text
        if max(code) >= rules.symbols:
            return -1, f"the digit {max(code)} is past the {rules.symbols} colours", text
        try:
            index = space.index_of_symbols(code)
        except KeypegError:
            return -1, "a colour repeats, and these rules have no repeats", text
        return index, None, space.text(index)


def _answer(text: str, rules: Rules, where: str) -> int:
    """Return the answer index of an answer written in keypeg's notation."""
    try:
        return get_space(rules).response_index(Feedback.parse(text, rules))
    except KeypegError as exc:
        raise TreeFileError(f"{where}: {str(exc).rstrip('.')}.") from None


def _same_game(a: Rules, b: Rules) -> bool:
    return replace(a, max_guesses=None) == replace(b, max_guesses=None)


def _rules_text(rules: Rules) -> str:
    """Return the rules' name when `find_rules` reads it back as the same rules (a preset,
    or 'MM(3,3) [positional]'), else the rules as JSON (a board of other rows, a custom
    name)."""
    for p in PRESETS:
        if p.rules == rules:
            return p.name
    name = rules_name(rules)
    try:
        if find_rules(name) == rules:
            return name
    except KeypegError:
        pass
    data = asdict(rules)
    data.pop("name", None)
    return json.dumps(data)


def _rules_from_text(text: str, where: str) -> Rules:
    text = text.strip()
    try:
        if text.startswith("{"):
            return Rules(**json.loads(text))
        return find_rules(text)
    except (ValueError, TypeError) as exc:
        raise TreeFileError(f"{where}: cannot read the rules {shorten(text)!r} "
                            f"({str(exc).rstrip('.')}).") from None


def _pick_rules(found: Rules | None, given: Rules | None, name: str) -> Rules:
    """Return the rules to read a tree with: the given ones (which must be the file's game
    when the file names one), else the file's, else classic."""
    if given is not None and found is not None and not _same_game(given, found):
        raise TreeFileError(f"{name} holds a tree for {rules_name(found)} "
                            f"({found.describe()}), not {rules_name(given)}; give the "
                            "file's rules or none.")
    return given or found or find_rules("classic")


# ====================================================================== reading
def read_text(path: str | Path) -> str:
    """Return a tree file's text (gzip-compressed files too); raises `TreeFileError`."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise TreeFileError(f"cannot read {shorten(str(p))!r}: there is no such file.") from None
    except IsADirectoryError:
        raise TreeFileError(f"cannot read {shorten(str(p))!r}: it is a folder, not a "
                            "tree file.") from None
    except OSError as exc:
        raise TreeFileError(f"cannot read {shorten(str(p))!r}: {exc.strerror}.") from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError):
            raise TreeFileError(f"cannot read {shorten(str(p))!r}: it is a broken gzip "
                                "file.") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TreeFileError(f"cannot read {shorten(str(p))!r}: it is not UTF-8 text; trees "
                            "are read from keypeg JSON, Irving-style text or arfst23 "
                            "files.") from None


def _meaningful_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def detect_format(text: str) -> str:
    """Return which of json, irving and arfst a tree file's text is written in."""
    if text.lstrip().startswith(("{", "[")):  # (a broken '[1,2' was read as Irving's)
        return "json"
    lines = _meaningful_lines(text)
    if not lines:
        return "irving"
    first = lines[0].strip()
    if first in ("---", "-") or first.startswith("- "):
        return "arfst"
    tokens = first.split()
    if len(tokens) > 1 and all(re.fullmatch(r"[XO-]+", t) for t in tokens):
        return "arfst"
    return "irving"


#: The second line of the text view (`export --format text`): it marks the view.
_TEXT_VIEW_LINE = ("each answer: its secrets, their total guesses (from the first), the "
                   "next guess")


def _view_format(text: str) -> str | None:
    """Return which of the views keypeg writes (a Graphviz graph, an SVG picture, the text
    view) `text` is, or None for none of them."""
    head = text.lstrip()[:200]
    if head.startswith(("digraph", "graph ", "strict digraph")):
        return "Graphviz graph (dot)"
    if head.startswith(("<svg", "<?xml")):
        return "SVG picture"
    lines = text.splitlines()
    if len(lines) > 1 and lines[1].strip() == _TEXT_VIEW_LINE:
        return "text view"
    return None


def read_tree(path: str | Path, fmt: str = "auto", rules: Rules | str | None = None
              ) -> RawTree:
    """Read a tree file in `fmt` (auto, json, irving or arfst) under `rules` (a `Rules` or
    a name; None: the file's own, or for arfst23's files taken from the codes); raises
    `TreeFileError`."""
    return parse_tree(read_text(path), fmt, None if rules is None else rules_of(rules),
                      name=shorten(str(path)))


def parse_tree(text: str, fmt: str = "auto", rules: Rules | None = None,
               name: str = "the tree") -> RawTree:
    """Read a tree from text; see `read_tree`."""
    fmt = fmt.lower()
    if fmt == "auto":
        view = _view_format(text)
        if view is not None:
            raise TreeFileError(
                f"{name} is a tree's {view}, which keypeg writes to be looked at, not read "
                "back; export the tree as json, irving or arfst to read it again.")
        fmt = detect_format(text)
    if fmt == "json":
        raw = read_json(text, rules, name)
    elif fmt == "irving":
        raw = read_irving(text, rules, name)
    elif fmt in ("arfst", "arfst-yaml"):
        raw = read_arfst(text, rules, name)
    else:
        raise TreeFileError(f"unknown tree format {shorten(fmt)!r}; choose one of: auto, "
                            f"{', '.join(READ_FORMATS)}.")
    if raw.nodes == 0:
        raise TreeFileError(f"{name} holds no guesses.")
    raw.meta.setdefault("format", fmt)
    return raw


def read_json(text: str, rules: Rules | None = None, name: str = "the tree") -> RawTree:
    """Read keypeg's tree JSON (`DecisionTree.to_dict`)."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise TreeFileError(f"{name} is not valid JSON ({exc}).") from None
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
        raise TreeFileError(f"{name} is not a keypeg tree (its JSON lacks "
                            f"\"format\": \"{JSON_FORMAT}\").")
    use = _pick_rules(_json_rules(data, name), rules, name)
    if "root" not in data:
        raise TreeFileError(f"{name} has no \"root\" field; give the first guess as "
                            f"\"root\": {{\"guess\": \"{get_space(use).text(0)}\", "
                            "\"parts\": {...}}.")
    root = data["root"]
    first_depth = data.get("first_depth", 1)
    if first_depth != 1:
        raise TreeFileError(f"{name} plays from a position (its first guess is guess number "
                            f"{shorten(str(first_depth))}); keypeg tree reads trees that "
                            "start a game.")
    raw = RawTree(use, str(data.get("strategy", "imported")),
                  meta=dict(data.get("meta") or {}))
    stack: list[tuple[Any, int, int, str]] = [(root, -1, -1, "the root")]
    while stack:
        item, par, resp, where = stack.pop()
        if not isinstance(item, dict) or "guess" not in item:
            raise TreeFileError(f"{name}: {where} has no guess; write it as "
                                f"{{\"guess\": \"{get_space(use).text(0)}\", \"parts\": "
                                "{...}}.")
        if not isinstance(item["guess"], str):
            raise TreeFileError(f"{name}: the guess of {where} must be text, like "
                                f"{json.dumps(_as_text(item['guess']))}, not "
                                f"{shorten(json.dumps(item['guess']))}.")
        me = raw.add(item["guess"], par, resp, f"{name}, {where}")
        parts = item.get("parts") or {}
        if not isinstance(parts, dict):
            raise TreeFileError(f"{name}: the parts under {item['guess']} are not a mapping.")
        for answer, sub in reversed(list(parts.items())):
            r = _answer(answer, use, f"{name}, under {item['guess']}")
            stack.append((sub, me, r, f"the branch {answer} under {item['guess']}"))
    return raw


def _json_rules(data: dict[str, Any], name: str) -> Rules | None:
    """Return the rules a tree's JSON names (None when it has no "rules"; see
    `tree.rules_from_json`)."""
    if "rules" not in data:
        return None
    try:
        return rules_from_json(data["rules"])
    except KeypegError as exc:
        raise TreeFileError(f"{name}: {exc}") from None


def _as_text(value: Any) -> str:
    """Return how a guess written as JSON data (11, [1, 1]) would be written as text."""
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return str(value)


_IRVING_LINE = re.compile(
    r"^(?:(?P<answer>[^:]+?)\s*:\s*)?(?P<guess>[^\s(*]+)"
    r"(?:\s*\(\s*(?P<n>[\d,_ ]+)\s*\))?(?:\s*(?P<star>\*))?\s*$")


def read_irving(text: str, rules: Rules | None = None, name: str = "the tree") -> RawTree:
    """Read Irving-style text (see the module docstring and `write_irving`)."""
    found: Rules | None = None
    strategy = "imported"
    body: list[tuple[int, int, str]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            key, _, value = stripped[1:].partition(":")
            if key.strip().lower() == "rules" and value.strip():
                found = _rules_from_text(value, f"{name}, line {lineno}")
            elif key.strip().lower() == "strategy" and value.strip():
                strategy = value.strip()
            continue
        expanded = line.rstrip().expandtabs(8)
        body.append((lineno, len(expanded) - len(expanded.lstrip(" ")), stripped))
    use = _pick_rules(found, rules, name)
    raw = RawTree(use, strategy)
    stack: list[tuple[int, int]] = []  # (indent, node) of the open guesses
    for lineno, indent, content in body:
        where = f"{name}, line {lineno}"
        m = _IRVING_LINE.match(content)
        if m is None:
            raise TreeFileError(f"{where}: cannot read {shorten(content)!r}; write the first "
                                "guess alone and every other line as ANSWER: GUESS.")
        if not stack:
            if m["answer"] is not None:
                raise TreeFileError(f"{where}: cannot read {shorten(content)!r} as a first "
                                    "guess; Irving-style text starts with the first guess "
                                    "alone (keypeg reads json, irving and arfst trees).")
            if raw.nodes:
                raise TreeFileError(f"{where}: a second first guess; a file holds one tree.")
            stack.append((indent, raw.add(m["guess"], -1, -1, where)))
            continue
        closed = None
        while stack and indent <= stack[-1][0]:
            closed = stack.pop()[0]
        if closed is not None and closed != indent:
            raise TreeFileError(f"{where}: its indentation matches no line above; answers "
                                "to one guess line up, two spaces in from the guess.")
        if not stack:
            raise TreeFileError(f"{where}: lines below the first guess are indented under it.")
        if m["answer"] is None:
            raise TreeFileError(f"{where}: write the answer that leads to this guess, "
                                "as ANSWER: GUESS.")
        parent = stack[-1][1]
        r = _answer(m["answer"], use, where)
        stack.append((indent, raw.add(m["guess"], parent, r, where)))
    return raw


# ---------------------------------------------------------------- arfst23's files
def _arfst_label(label: str, pegs: int, where: str) -> tuple[int, int]:
    if len(label) != pegs or not re.fullmatch(r"X*O*-*", label):
        raise TreeFileError(f"{where}: {shorten(label)!r} is not an answer of {pegs} key "
                            "pegs written X (black), O (white), - (none), blacks first.")
    return label.count("X"), label.count("O")


def _arfst_code(token: str, error: str | None = None) -> tuple[int, ...] | None:
    """Return a code's digits, or None when `token` is all dashes (no code); raise
    `TreeFileError` with `error` when it is neither (tokens already checked pass none)."""
    if re.fullmatch(r"-+", token):
        return None
    if not token.isdigit() or not token.isascii():
        raise TreeFileError(error or f"{shorten(token)!r} is not a code of digits.")
    return tuple(int(ch) for ch in token)


def _infer_rules(codes: list[tuple[int, ...]]) -> Rules:
    """Return the game of a tree from its codes: every secret of a valid tree is one of them."""
    pegs = len(codes[0])
    colors = max(max(c) for c in codes) + 1
    repeats = any(len(set(c)) < len(c) for c in codes)
    for p in PRESETS:
        r = p.rules
        if (r.pegs, r.colors, r.repeats, r.feedback, r.blanks) == (
                pegs, colors, repeats, "blackwhite", False):
            return r
    return Rules(pegs=pegs, colors=max(colors, 1 if repeats else pegs), repeats=repeats)


def _arfst_pegs(rules: Rules, pegs: int, where: str) -> None:
    if pegs != rules.pegs:
        raise TreeFileError(f"{where}: the answers have {pegs} key pegs, but "
                            f"{rules_name(rules)} has {rules.pegs} pegs.")


def _arfst_response(rules: Rules, black: int, white: int, where: str) -> int:
    if rules.feedback != "blackwhite":
        raise TreeFileError(f"{where}: arfst23's files hold black/white answers, but "
                            f"{rules_name(rules)} has positional feedback.")
    return _answer(f"{black}B{white}W", rules, where)


def read_arfst(text: str, rules: Rules | None = None, name: str = "the tree") -> RawTree:
    """Read one of arfst23's solution files, the punch card or the YAML (see the module
    docstring), under `rules` (None: the game the codes show)."""
    lines = _meaningful_lines(text)
    first = lines[0].strip() if lines else ""
    if first in ("---", "-") or first.startswith("- "):
        return _read_arfst_yaml(text, rules, name)
    return _read_arfst_card(lines, rules, name)


def _read_arfst_card(lines: list[str], rules: Rules | None, name: str) -> RawTree:
    if not lines:
        raise TreeFileError(f"{name} is empty.")
    labels = lines[0].split()
    rows: dict[int, tuple[int, list[str], str]] = {}
    order: list[int] = []
    notes: list[str] = []
    for k, line in enumerate(lines[1:], 2):
        tokens = line.split()
        where = f"{name}, line {k}"
        if len(tokens) < 3 and not tokens[0].isdigit():
            notes.append(line)  # a note such as arfst23's closing "cpu=0.0s": written back
            continue
        if len(tokens) != 3 + len(labels) or not tokens[0].isdigit():
            raise TreeFileError(f"{where}: expected a line number, a guess number, a guess "
                                f"and {len(labels)} answer fields, one per header column.")
        num = int(tokens[0])
        if num in rows:
            raise TreeFileError(f"{where}: line number {tokens[0]} appears twice.")
        rows[num] = (k, tokens[2:], where)
        order.append(num)
    if not rows:
        raise TreeFileError(f"{name} has a header but no guesses.")
    answers = [_arfst_label(lb, len(labels[0]), f"{name}, line 1") for lb in labels]
    codes: list[tuple[int, ...]] = []
    for _, tokens, where in rows.values():
        for tok in tokens:
            if tok.startswith(">"):
                continue
            code = _arfst_code(tok, f"{where}: {shorten(tok)!r} is neither a code (digits), "
                                    "a line reference (>NNN) nor dashes.")
            if code is not None:
                codes.append(code)
    if not codes:
        raise TreeFileError(f"{name} holds no codes.")
    use = rules or _infer_rules(codes)
    _arfst_pegs(use, len(labels[0]), f"{name}, line 1")
    raw = RawTree(use, "imported", meta={"rules_from": "given" if rules else "codes"})
    if notes:
        raw.meta["arfst_notes"] = notes
    resp: list[int | None] = []
    for b, w in answers:  # the header lists every answer, even ones the rules rule out
        try:
            resp.append(_arfst_response(use, b, w, f"{name}, line 1"))
        except TreeFileError:
            if use.feedback != "blackwhite":
                raise
            resp.append(None)
    win = get_space(use).win
    seen: set[int] = set()

    def visit(num: int, parent: int, r: int, where: str) -> None:
        if num not in rows:
            raise TreeFileError(f"{where}: refers to line {num:03d}, which the file lacks.")
        if num in seen:
            raise TreeFileError(f"{where}: line {num:03d} is reached twice; a tree reaches "
                                "each guess once.")
        seen.add(num)
        _, tokens, here = rows[num]
        me = raw.add(_arfst_code(tokens[0]) or (), parent, r, here)
        for tok, ri, (b, w) in zip(tokens[1:], resp, answers, strict=True):
            if ri == win or (ri is None and re.fullmatch(r"-+", tok)):
                continue
            if ri is None:
                _arfst_response(use, b, w, here)  # raises: no guess gets this answer
                continue
            if tok.startswith(">"):
                if not tok[1:].isdigit():
                    raise TreeFileError(f"{here}: {shorten(tok)!r} is not a line reference.")
                visit(int(tok[1:]), me, ri, here)
            else:
                code = _arfst_code(tok)
                if code is not None:
                    raw.add(code, me, ri, here)

    visit(order[0], -1, -1, f"{name}, line 2")
    missing = [n for n in order if n not in seen]
    if missing:
        raise TreeFileError(f"{name}: line {missing[0]:03d} is reached from no other line.")
    return raw


_YAML_KEY = re.compile(r"^(?P<key>'[^']*'|\"[^\"]*\"|[^:'\"]+?)\s*:(?:\s+(?P<value>.*))?$")


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def parse_block_yaml(text: str, name: str = "the file") -> Any:
    """Return the data of block-style YAML as arfst23 writes it: sequences (``- x``),
    mappings (``key: value``) and plain or quoted scalars, always as strings (``0012``
    stays text, where a YAML library would read it as a number)."""
    toks: list[tuple[int, int, str]] = []  # (line, column, content)
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.rstrip()
        body = line.lstrip(" ")
        if not body or body.startswith("#") or body in ("---", "..."):
            continue
        if "\t" in line[: len(line) - len(body) + 1]:
            raise TreeFileError(f"{name}, line {lineno}: YAML is indented with spaces, "
                                "not tabs.")
        col = len(line) - len(body)
        while body == "-" or body.startswith("- "):
            toks.append((lineno, col, "-"))
            rest = body[1:]
            col += 1 + len(rest) - len(rest.lstrip(" "))
            body = rest.lstrip(" ")
        if body:
            if body[0] in "[{&*!|>":
                raise TreeFileError(f"{name}, line {lineno}: only block YAML (- items and "
                                    "key: value lines) is read, as arfst23 writes it.")
            toks.append((lineno, col, body))

    def node(i: int) -> tuple[Any, int]:
        lineno, col, content = toks[i]
        if content == "-":
            items = []
            while i < len(toks) and toks[i][1] == col and toks[i][2] == "-":
                i += 1
                if i < len(toks) and toks[i][1] > col:
                    item, i = node(i)
                else:
                    item = None
                items.append(item)
            return items, i
        if _YAML_KEY.match(content):
            mapping: dict[str, Any] = {}
            while i < len(toks) and toks[i][1] == col and toks[i][2] != "-":
                m = _YAML_KEY.match(toks[i][2])
                if m is None:
                    raise TreeFileError(f"{name}, line {toks[i][0]}: expected key: value.")
                key = _unquote(m["key"])
                if key in mapping:
                    raise TreeFileError(f"{name}, line {toks[i][0]}: the key {key} appears "
                                        "twice.")
                i += 1
                if m["value"] is not None and m["value"].strip():
                    mapping[key] = _unquote(m["value"])
                elif i < len(toks) and (toks[i][1] > col or (toks[i][1] == col
                                                             and toks[i][2] == "-")):
                    mapping[key], i = node(i)
                else:
                    mapping[key] = None
            return mapping, i
        return _unquote(content), i + 1

    if not toks:
        raise TreeFileError(f"{name} is empty.")
    data, end = node(0)
    if end != len(toks):
        raise TreeFileError(f"{name}, line {toks[end][0]}: its indentation fits no item "
                            "above it.")
    return data


def _read_arfst_yaml(text: str, rules: Rules | None, name: str) -> RawTree:
    data = parse_block_yaml(text, name)

    def check(item: Any, where: str) -> tuple[str, dict[str, Any]]:
        if (not isinstance(item, list) or not 1 <= len(item) <= 2
                or not isinstance(item[0], str)
                or (len(item) == 2 and not isinstance(item[1], dict))):
            raise TreeFileError(f"{name}: {where} is not [guess, {{answer: ...}}].")
        return item[0], item[1] if len(item) == 2 else {}

    codes: list[tuple[int, ...]] = []

    def gather(item: Any, where: str) -> None:
        guess, parts = check(item, where)
        for tok in [guess, *(v for v in parts.values() if isinstance(v, str))]:
            code = _arfst_code(tok, f"{name}: {where}: {shorten(tok)!r} is not a code of "
                                    "digits.")
            if code is not None:
                codes.append(code)
        for key, sub in parts.items():
            if isinstance(sub, list):
                gather(sub, f"{where}, {key}")
            elif not isinstance(sub, str):
                raise TreeFileError(f"{name}: {where}, {key} has no code or guess.")

    gather(data, "the root")
    use = rules or _infer_rules(codes)
    raw = RawTree(use, "imported", meta={"rules_from": "given" if rules else "codes"})
    win = get_space(use).win

    def visit(item: Any, parent: int, r: int, where: str) -> None:
        guess, parts = check(item, where)
        me = raw.add(_arfst_code(guess) or (), parent, r, f"{name}, {where}")
        for key, sub in parts.items():
            ri = _arfst_response(use, *_arfst_label(key, use.pegs, f"{name}, {where}"),
                                 f"{name}, {where}")
            if ri == win:
                continue
            if isinstance(sub, list):
                visit(sub, me, ri, f"{where}, {key}")
            else:
                code = _arfst_code(sub)
                if code is not None:
                    raw.add(code, me, ri, f"{name}, {where}, {key}")

    visit(data, -1, -1, "the root")
    return raw


# ====================================================================== replay
@dataclass
class Verdict:
    """The replay of a `RawTree` over every secret."""

    raw: RawTree
    size: np.ndarray  # secrets reaching each node
    depth: np.ndarray  # each node's guess number
    found_at: np.ndarray  # per secret: the guess that finds it (0: never)
    failures: int
    secret: int | None = None  # the first secret it fails on
    reason: str | None = None

    @property
    def valid(self) -> bool:
        """Return True when the tree finds every secret."""
        return self.failures == 0

    @property
    def histogram(self) -> list[int]:
        """Return secrets found on guess 1, 2, ... (over the secrets it finds)."""
        hits = self.found_at[self.found_at > 0]
        if hits.size == 0:
            return []
        return [int(x) for x in np.bincount(hits)[1:]]

    @property
    def total(self) -> int:
        """Return the guesses over every secret found."""
        return int(self.found_at.sum())

    @property
    def worst(self) -> int:
        """Return the most guesses a secret takes."""
        return int(self.found_at.max()) if self.found_at.size else 0

    @property
    def unreached(self) -> int:
        """Return how many written guesses no secret reaches."""
        return int((self.size == 0).sum())

    def message(self) -> str:
        """Return the first failure as a sentence (empty when valid)."""
        if self.valid:
            return ""
        space = get_space(self.raw.rules)
        return f"secret {space.text(int(self.secret))}: {self.reason}"  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON verdict: total, worst, histogram, valid, the board's rows
        (`max_guesses`), the secrets beyond them (`beyond_rows`) and the guesses no secret
        reaches (`unreached`); or, for a tree that fails, valid false with the first secret
        it fails on and why. Every key is always there (null where it does not apply)."""
        rules = rules_name(self.raw.rules)
        rows = self.raw.rules.max_guesses
        if self.valid:
            secrets = int(self.found_at.size)
            return {"rules": rules, "secrets": secrets, "total": self.total,
                    "mean": round(self.total / secrets, 4) if secrets else 0.0,
                    "worst": self.worst, "histogram": self.histogram, "valid": True,
                    "max_guesses": rows,
                    "beyond_rows": beyond_rows(self.raw.rules, self.histogram),
                    "unreached": self.unreached}
        space = get_space(self.raw.rules)
        # (a tree that fails: its secrets stop early, so neither count is the tree's)
        return {"rules": rules, "valid": False,
                "secret": space.text(int(self.secret)),  # type: ignore[arg-type]
                "reason": self.reason, "failures": self.failures,
                "max_guesses": rows, "beyond_rows": None, "unreached": None}


_ILLEGAL, _LEAF, _NO_BRANCH = 1, 2, 3


def replay(raw: RawTree) -> Verdict:
    """Play `raw` against every secret of its rules: a secret fails where the guess is not
    a code of the rules, where the tree stops with a guess that is not the secret, or where
    the tree has no branch for the answer it gets."""
    space = get_space(raw.rules)
    n = raw.nodes
    guess = np.asarray(raw.guess, dtype=np.int64)
    parent = np.asarray(raw.parent, dtype=np.int64)
    response = np.asarray(raw.response, dtype=np.int64)
    depth = np.ones(n, dtype=np.int64)
    for i in range(1, n):
        depth[i] = depth[parent[i]] + 1
    child = np.full((n, space.n_responses), -1, dtype=np.int64)
    child[parent[1:], response[1:]] = np.arange(1, n)
    has_kids = np.asarray((child >= 0).any(axis=1))
    secrets = space.all()
    found_at = np.zeros(secrets.size, dtype=np.int64)
    fail_kind = np.zeros(secrets.size, dtype=np.int64)
    fail_node = np.zeros(secrets.size, dtype=np.int64)
    fail_resp = np.zeros(secrets.size, dtype=np.int64)
    reach = np.zeros(n, dtype=np.int64)
    node = np.zeros(secrets.size, dtype=np.int64)
    active = np.arange(secrets.size)
    while active.size:
        np.add.at(reach, node[active], 1)
        g = guess[node[active]]
        illegal = g < 0
        bad = active[illegal]
        fail_kind[bad], fail_node[bad] = _ILLEGAL, node[bad]
        active, g = active[~illegal], g[~illegal]
        resp = np.empty(active.size, dtype=np.int64)
        for code in np.unique(g):
            sel = g == code
            resp[sel] = space.responses(int(code), secrets[active[sel]])
        win = resp == space.win
        found_at[active[win]] = depth[node[active[win]]]
        active, resp = active[~win], resp[~win]
        nxt = child[node[active], resp]
        lost = nxt < 0
        bad = active[lost]
        fail_kind[bad] = np.where(has_kids[node[bad]], _NO_BRANCH, _LEAF)
        fail_node[bad], fail_resp[bad] = node[bad], resp[lost]
        active = active[~lost]
        node[active] = nxt[~lost]
    failed = np.flatnonzero(fail_kind)
    verdict = Verdict(raw, reach, depth, found_at, int(failed.size))
    if failed.size:
        s = int(failed[0])
        k, d = int(fail_node[s]), int(depth[fail_node[s]])
        written = raw.text[k]
        if fail_kind[s] == _ILLEGAL:
            reason = (f"guess {d} of the tree, {written}, is not a code of "
                      f"{rules_name(raw.rules)} ({raw.problem[k]}).")
        elif fail_kind[s] == _LEAF:
            reason = (f"the tree ends at guess {d}, {written}, which is not the secret "
                      f"(it answers {space.feedback(int(fail_resp[s]))}).")
        else:
            reason = (f"after guess {d}, {written}, the answer is "
                      f"{space.feedback(int(fail_resp[s]))}, and the tree has no branch "
                      "for it.")
        verdict.secret, verdict.reason = s, reason
    return verdict


def to_decision_tree(raw: RawTree, verdict: Verdict | None = None) -> DecisionTree:
    """Return the `DecisionTree` of a valid raw tree, sizes from the replay, guesses no
    secret reaches left out; raises `InvalidTreeError` naming the first secret it fails on."""
    verdict = verdict or replay(raw)
    if not verdict.valid:
        raise InvalidTreeError(f"not a valid strategy for {rules_name(raw.rules)}: "
                               f"{verdict.message()}")
    keep = np.flatnonzero(verdict.size > 0)
    new = np.full(raw.nodes, -1, dtype=np.int64)
    new[keep] = np.arange(keep.size)
    parent = np.asarray(raw.parent, dtype=np.int64)[keep]
    parent = np.where(parent >= 0, new[np.maximum(parent, 0)], -1)
    as32 = lambda xs: np.asarray(xs, dtype=np.int32)  # noqa: E731
    meta = dict(raw.meta)
    if verdict.unreached:
        meta["unreached_dropped"] = verdict.unreached
    return DecisionTree(raw.rules, raw.strategy, as32(np.asarray(raw.guess)[keep]),
                        as32(parent), as32(np.asarray(raw.response)[keep]),
                        as32(verdict.depth[keep]), as32(verdict.size[keep]), meta)


def load_tree(path: str | Path, fmt: str = "auto", rules: Rules | str | None = None
              ) -> DecisionTree:
    """Read, replay and convert a tree file; raises `TreeFileError` or `InvalidTreeError`."""
    return to_decision_tree(read_tree(path, fmt, rules))


# ====================================================================== writing
def _kids(tree: DecisionTree) -> list[list[int]]:
    kids: list[list[int]] = [[] for _ in range(tree.nodes)]
    for i in range(1, tree.nodes):
        kids[int(tree.parent[i])].append(i)
    return kids


def write_json(tree: DecisionTree) -> str:
    """Return keypeg's tree JSON."""
    return json.dumps(tree.to_dict(), separators=(",", ":"))


def write_irving(tree: DecisionTree) -> str:
    """Return the tree as Irving-style text: comment lines (``# rules:`` the rules' name
    when it reads back as the same rules, else the rules as JSON; ``# strategy:``), then
    one line per guess in depth-first order, indented two spaces per guess: the first
    guess as ``GUESS (N)``, every other guess as ``ANSWER: GUESS (N)``, where ANSWER is
    keypeg's text of the answer to the guess above (2B1W, or one G/A/- mark per peg) and N
    the secrets that reach it. ``*`` ends the line when the guess can be the secret (it is
    the secret when nothing is indented below)."""
    space = get_space(tree.rules)
    found = tree.found()
    lines = ["# keypeg decision tree, Irving-style text (keypeg tree import reads it back)",
             f"# rules: {_rules_text(tree.rules)}",
             f"# strategy: {tree.strategy}",
             f"# {tree.secrets} secrets, total {tree.total}, worst {tree.worst}; each line "
             "ANSWER: GUESS (secrets reaching it), * = the guess can be the secret"]
    for i in range(tree.nodes):
        indent = "  " * (int(tree.depth[i]) - int(tree.depth[0]))
        label = "" if i == 0 else f"{space.feedback(int(tree.response[i]))}: "
        star = " *" if found[i] else ""
        lines.append(f"{indent}{label}{space.text(int(tree.guess[i]))} ({int(tree.size[i])})"
                     f"{star}")
    return "\n".join(lines) + "\n"


def _arfst_check(tree: DecisionTree) -> None:
    r = tree.rules
    if r.feedback != "blackwhite" or r.symbols > 10:
        raise KeypegError(f"arfst23's format holds black/white games of at most 10 colours "
                          f"(digits 0-9), not {rules_name(r)}; export json or irving.")


def _arfst_columns(tree: DecisionTree) -> list[tuple[str, int | None]]:
    """Return arfst23's answer columns, blacks then whites ascending, the win last: every
    answer of black/white pegs, with its answer index (None where the rules rule it out,
    as without repeats)."""
    space, p = get_space(tree.rules), tree.rules.pegs
    index = {(fb.black, fb.white): i for i, fb in enumerate(space.alphabet.responses)}
    return [("X" * b + "O" * w + "-" * (p - b - w), index.get((b, w)))
            for b in range(p + 1) for w in range(p + 1 - b) if (b, w) != (p - 1, 1)]


def _arfst_labels(tree: DecisionTree) -> list[str]:
    """Return arfst23's text of each answer index."""
    labels = [""] * get_space(tree.rules).n_responses
    for label, r in _arfst_columns(tree):
        if r is not None:
            labels[r] = label
    return labels


def _digits(tree: DecisionTree, node: int) -> str:
    return "".join(str(int(s)) for s in get_space(tree.rules).codes[int(tree.guess[node])])


def write_arfst(tree: DecisionTree) -> str:
    """Return the tree as arfst23's punch card: a header with the answers, then one line per
    guess in breadth-first order (line number, guess number, guess, a field per answer)."""
    _arfst_check(tree)
    space, p = get_space(tree.rules), tree.rules.pegs
    kids, found = _kids(tree), tree.found()
    columns = _arfst_columns(tree)
    dashes = "-" * p
    is_line = [i == 0 or bool(kids[i]) or not found[i] for i in range(tree.nodes)]
    order, number = [0], {0: 0}
    for i in order:  # breadth first: the list grows while it is walked
        for k in kids[i]:
            if is_line[k]:
                number[k] = len(order)
                order.append(k)
    out = [" " * (7 + p) + " ".join(label for label, _ in columns)]
    for i in order:
        by_answer = {int(tree.response[k]): k for k in kids[i]}
        fields = []
        for _, r in columns:
            if r == space.win:
                fields.append(_digits(tree, i) if found[i] else dashes)
            elif r is None or r not in by_answer:
                fields.append(dashes)
            elif is_line[by_answer[r]]:
                fields.append(f">{number[by_answer[r]]:03d}")
            else:
                fields.append(_digits(tree, by_answer[r]))
        out.append(f"{number[i]:03d} {int(tree.depth[i])} {_digits(tree, i)} "
                   + " ".join(fields))
    # the notes a punch card read in ended with (arfst23's "cpu=33261.9s"), so that one of
    # its files is written back byte for byte
    out += [str(note) for note in tree.meta.get("arfst_notes") or []]
    return "\n".join(out) + "\n"


def write_arfst_yaml(tree: DecisionTree) -> str:
    """Return the tree as arfst23's YAML: ``[guess, {answer: code or [guess, {...}]}]``."""
    _arfst_check(tree)
    space = get_space(tree.rules)
    kids, found = _kids(tree), tree.found()
    labels = _arfst_labels(tree)
    out = ["---"]

    def node(i: int, col: int) -> None:
        pad = " " * col
        out.append(f"{pad}- {_digits(tree, i)}")
        entries = [(labels[int(tree.response[k])], k) for k in kids[i]]
        if found[i]:
            entries.append((labels[space.win], -1))
        for j, (label, k) in enumerate(entries):
            lead = f"{pad}- " if j == 0 else f"{pad}  "
            if k < 0:
                out.append(f"{lead}{label}: {_digits(tree, i)}")
            elif kids[k] or not found[k]:
                out.append(f"{lead}{label}:")
                node(k, col + 4)
            else:
                out.append(f"{lead}{label}: {_digits(tree, k)}")

    node(0, 0)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the view
def subtree_totals(tree: DecisionTree) -> tuple[np.ndarray, np.ndarray]:
    """Return per node the total guesses (counted from the start of the game) of the
    secrets in its subtree, and how many nodes its subtree has (itself included)."""
    found = tree.found()
    total = np.where(found, tree.depth, 0).astype(np.int64)
    count = np.ones(tree.nodes, dtype=np.int64)
    depth = tree.depth.astype(np.int64)
    for d in range(int(depth.max()) if tree.nodes else 0, int(depth[0]), -1):
        sel = depth == d
        np.add.at(total, tree.parent[sel], total[sel])
        np.add.at(count, tree.parent[sel], count[sel])
    return total, count


def path_spellings(rules: Rules) -> str:
    """Return how `--path` takes one answer under `rules` (each answer a word: commas,
    slashes or spaces between answers, so '2 1' is two answers)."""
    if rules.feedback != "blackwhite":
        dashes = "-" * max(0, rules.pegs - 2)
        return f"one mark per peg, G (green), A (amber) or - (gray), like GA{dashes}"
    b, w = ("B", "C") if feedback_terms(rules)[0] == "bull" else ("B", "W")
    p = rules.pegs
    arfst = "XO" + "-" * max(0, p - 2) if p >= 2 else "X"
    two = ", 21" if p <= 9 else ""
    return (f"like 2{b}1{w} (or 2{b}, 1{w}, 0{b}0{w}{two}, {b}{b}{w}, or arfst23's {arfst}), "
            f"the answers separated by commas, like 0{b}0{w},1{b}1{w}")


def follow(tree: DecisionTree, path: list[str]) -> list[int]:
    """Return the nodes from the root along `path` (answers); raises `KeypegError` when
    the tree has no branch for one of them."""
    space = get_space(tree.rules)
    child = tree.children()
    found = tree.found()
    win = str(space.feedback(space.win))
    nodes = [0]
    for n, step in enumerate(path):
        if tree.rules.feedback == "blackwhite" and re.fullmatch(r"X*O*-*", step) and step:
            step = f"{step.count('X')}B{step.count('O')}W"  # arfst23's XO--
        try:
            fb = Feedback.parse(step, tree.rules)
        except KeypegError as exc:
            if str(exc).startswith(("cannot read feedback", "feedback ")):
                # (the parser's own list offered '2 1', which --path splits in two)
                raise KeypegError(f"--path: cannot read the answer {shorten(step)!r}; write "
                                  f"each answer {path_spellings(tree.rules)}.") from None
            raise KeypegError(f"--path: {str(exc).rstrip('.')}.") from None
        r = space.response_index(fb)
        here = space.text(int(tree.guess[nodes[-1]]))
        before = (f" after {','.join(path[:n])}" if n else "")
        if r == space.win and found[nodes[-1]]:
            raise KeypegError(f"--path: the answer {win} to {here}{before} means {here} is "
                              f"the secret: the game ends there, so leave {win} out of "
                              "--path.")
        k = int(child[nodes[-1], r])
        if k < 0 and found[nodes[-1]] and not (tree.parent == nodes[-1]).any():
            raise KeypegError(f"--path: {here} is the secret{before}: it answers {win} and "
                              f"the game ends there, so no {space.feedback(r)} follows.")
        if k < 0:
            have = ", ".join(str(space.feedback(int(tree.response[c])))
                             for c in sorted(np.flatnonzero(tree.parent == nodes[-1]),
                                             key=lambda c: int(tree.response[c])))
            raise KeypegError(f"--path: after {here} the tree has no branch "
                              f"{space.feedback(r)}; its answers are: {have or 'none'}.")
        nodes.append(k)
    return nodes


@dataclass
class View:
    """The part of a tree a view shows: from node `top`, guesses down to `depth` levels
    (0: all); the nodes shown, and how many are hidden below them."""

    tree: DecisionTree
    top: int
    depth: int
    path: list[int]
    shown: list[int]
    hidden_below: dict[int, int]
    total: np.ndarray
    count: np.ndarray
    kids: list[list[int]]

    @property
    def hidden(self) -> int:
        """Return how many nodes of the subtree under `top` are not shown."""
        return sum(self.hidden_below.values())


def make_view(tree: DecisionTree, depth: int = 2, path: list[str] | None = None) -> View:
    """Return the view of `tree` from the node `path` leads to, `depth` guesses deep."""
    if depth < 0:
        raise KeypegError(f"--depth must be 0 (everything) or more, not {depth}.")
    nodes = follow(tree, path or [])
    top = nodes[-1]
    total, count = subtree_totals(tree)
    # by answer, as a generated tree has them (a hand-written one has them in file order)
    kids = [sorted(k, key=lambda c: int(tree.response[c])) for k in _kids(tree)]
    shown: list[int] = []
    hidden: dict[int, int] = {}
    base = int(tree.depth[top])
    stack = [top]
    while stack:
        i = stack.pop()
        shown.append(i)
        if depth and int(tree.depth[i]) - base + 1 >= depth:
            if kids[i]:
                hidden[i] = int(count[i]) - 1
            continue
        stack.extend(reversed(kids[i]))
    return View(tree, top, depth, nodes, shown, hidden, total, count, kids)


def _n(x: int) -> str:
    return f"{x:,}"


def beyond_rows(rules: Rules, histogram: list[int]) -> int | None:
    """Return how many secrets need more guesses than the board's rows (None: no rows)."""
    if rules.max_guesses is None:
        return None
    return sum(histogram[rules.max_guesses:])


def rows_note(rules: Rules, histogram: list[int]) -> str | None:
    """Return the note for a worst case beyond the board's rows, or None."""
    rows, beyond = rules.max_guesses, beyond_rows(rules, histogram)
    if rows is None or not beyond:
        return None
    return (f"note: the worst case takes {len(histogram)} guesses, more than the "
            f"{rows} rows of {rules_name(rules)}: "
            f"{plural(beyond, 'secret')} {'needs' if beyond == 1 else 'need'} more than "
            f"{plural(rows, 'guess', 'guesses')} (the totals count every "
            "game played on to the end).")


def render_view(view: View) -> str:
    """Return the indented text view: a header, then per guess its answers, each with its
    part size and the subtree's total (guesses counted from the start), and the next
    guess; collapsed guesses say how many nodes are hidden below them."""
    tree = view.tree
    space = get_space(tree.rules)
    found = tree.found()
    lines = [f"{rules_name(tree.rules)}: {tree.rules.describe()}; {tree.strategy}: "
             f"{plural(tree.secrets, 'secret')}, total {_n(tree.total)} (mean "
             f"{tree.mean:.4f}), worst {plural(tree.worst, 'guess', 'guesses')}",
             _TEXT_VIEW_LINE]
    note = rows_note(tree.rules, tree.histogram)
    if note:
        lines.append(note)
    if len(view.path) > 1:
        steps = [space.text(int(tree.guess[0]))]
        for k in view.path[1:]:
            steps.append(f"-{space.feedback(int(tree.response[k]))}-> "
                         f"{space.text(int(tree.guess[k]))}")
        lines.append("path: " + " ".join(steps))
    top = view.top
    lines.append(f"guess {int(tree.depth[top])}: {space.text(int(tree.guess[top]))}, "
                 f"{plural(int(tree.size[top]), 'secret')}, total {_n(int(view.total[top]))}"
                 + (f" (mean {view.total[top] / tree.size[top]:.4f})"
                    if tree.size[top] > 1 else ""))
    shown = set(view.shown)
    base = int(tree.depth[top])

    def answers(i: int, indent: str) -> None:
        if i in view.hidden_below:
            return
        for k in view.kids[i]:
            if k not in shown:
                continue
            fb = space.feedback(int(tree.response[k]))
            line = (f"{indent}{fb}: {plural(int(tree.size[k]), 'secret')}, total "
                    f"{_n(int(view.total[k]))} -> {space.text(int(tree.guess[k]))}")
            if not view.kids[k] and found[k]:
                line += f", found on guess {int(tree.depth[k])}"
            elif k in view.hidden_below:
                line += f"  [+{plural(view.hidden_below[k], 'node')} hidden]"
            lines.append(line)
            answers(k, indent + "  ")
        if found[i] and view.kids[i]:
            lines.append(f"{indent}{space.feedback(space.win)}: found on guess "
                         f"{int(tree.depth[i])}")

    answers(top, "  ")
    if view.hidden:
        last = base + view.depth - 1
        lines.append(f"{plural(view.hidden, 'node')} hidden below guess {last}: --depth "
                     f"{view.depth + 1} shows more (0: all), --path ANSWER,ANSWER,... opens "
                     "one branch.")
    return "\n".join(lines) + "\n"


def view_dict(view: View) -> dict[str, Any]:
    """Return the view as JSON-ready data."""
    tree = view.tree
    space = get_space(tree.rules)
    found = tree.found()
    shown = set(view.shown)

    def node(i: int) -> dict[str, Any]:
        out: dict[str, Any] = {"guess": space.text(int(tree.guess[i])),
                               "guess_number": int(tree.depth[i]),
                               "secrets": int(tree.size[i]), "total": int(view.total[i]),
                               "can_be_secret": bool(found[i])}
        if i in view.hidden_below:
            out["hidden"] = view.hidden_below[i]
            return out
        parts = [{"answer": str(space.feedback(int(tree.response[k]))),
                  "secrets": int(tree.size[k]), "total": int(view.total[k]), "node": node(k)}
                 for k in view.kids[i] if k in shown]
        if found[i] and view.kids[i]:
            parts.append({"answer": str(space.feedback(space.win)), "secrets": 1,
                          "total": int(tree.depth[i])})
        if parts:
            out["answers"] = parts
        return out

    return {"rules": rules_name(tree.rules), "strategy": tree.strategy,
            "secrets": tree.secrets, "total": tree.total, "mean": round(tree.mean, 4),
            "worst": tree.worst, "histogram": tree.histogram,
            "max_guesses": tree.rules.max_guesses,
            "beyond_rows": beyond_rows(tree.rules, tree.histogram),
            "first_guess": space.text(int(tree.guess[0])),
            "path": [str(space.feedback(int(tree.response[k]))) for k in view.path[1:]],
            "depth": view.depth, "hidden": view.hidden, "node": node(view.top)}


# ---------------------------------------------------------------- pictures
def auto_depth(tree: DecisionTree, limit: int = SVG_NODES) -> int:
    """Return the most guesses deep a picture can go showing at most `limit` nodes (at
    least 1; 0 when the whole tree fits)."""
    if tree.nodes <= limit:
        return 0
    per_level = np.bincount(tree.depth.astype(np.int64))
    shown = np.cumsum(per_level)
    fits = [d for d in range(1, per_level.size) if shown[d] <= limit]
    return max(fits) if fits else 1


def write_dot(view: View) -> str:
    """Return Graphviz source of the view (left to right; doubled boxes: the guess can be
    the secret; dashed: nodes hidden below), a legend under the title."""
    tree = view.tree
    space = get_space(tree.rules)
    found = tree.found()
    q = lambda s: json.dumps(str(s))  # noqa: E731 -- DOT strings quote like JSON
    title = (f"{rules_name(tree.rules)}, {tree.strategy}: total {_n(tree.total)}, "
             f"worst {tree.worst}")
    if view.hidden:
        title += f"; {plural(view.hidden, 'node')} hidden (--depth)"
    # the legend, as the SVG's says it
    title += ("\nBox: a guess, below it the number of secrets reaching it; double border: "
              "the guess can be the secret; dashed: +N nodes hidden below it; arrow: the "
              "answer.")
    out = ["digraph tree {", "  rankdir=LR;", f"  label={q(title)}; labelloc=t;",
           '  node [shape=box, fontname="monospace"];', '  edge [fontname="monospace"];']
    for i in view.shown:
        label = f"{space.text(int(tree.guess[i]))}\\n{_n(int(tree.size[i]))}"
        style = ", peripheries=2" if found[i] else ""
        if i in view.hidden_below:
            label += f"\\n+{_n(view.hidden_below[i])} hidden"
            style += ", style=dashed"
        out.append(f'  n{i} [label="{label}"{style}];')
    shown = set(view.shown)
    for i in view.shown:
        if i != view.top and int(tree.parent[i]) in shown:
            out.append(f"  n{int(tree.parent[i])} -> n{i} "
                       f"[label={q(space.feedback(int(tree.response[i])))}];")
    out.append("}")
    return "\n".join(out) + "\n"


def write_svg(view: View) -> str:
    """Return an SVG picture of the view: guesses left to right, one row per leaf shown,
    each guess centred on its answers; the answer on each edge, the guess and the secrets
    reaching it in each box; a caption says how deep it goes and how many nodes are hidden."""
    tree = view.tree
    space = get_space(tree.rules)
    found = tree.found()
    shown = set(view.shown)
    base = int(tree.depth[view.top])
    char = 7.3  # width of a 12px monospace character

    def label(i: int) -> str:
        text = f"{space.text(int(tree.guess[i]))}  {_n(int(tree.size[i]))}"
        return text + (f" +{_n(view.hidden_below[i])}" if i in view.hidden_below else "")

    labels = {i: label(i) for i in view.shown}
    box_w = round(char * max(len(t) for t in labels.values()) + 12)
    ans_w = round(char * max(len(str(fb)) for fb in space.alphabet.responses) + 14)
    col_w = box_w + ans_w + 24
    row_h, left = 22, 12
    y: dict[int, float] = {}
    row = 0
    lines_above = 3 + (len(view.path) > 1)
    top_pad = 16 * lines_above + 24

    def place(i: int) -> float:
        nonlocal row
        visible = [k for k in view.kids[i] if k in shown]
        if not visible:
            y[i] = top_pad + row * row_h
            row += 1
        else:
            ys = [place(k) for k in visible]
            y[i] = (ys[0] + ys[-1]) / 2
        return y[i]

    place(view.top)
    levels = max(int(tree.depth[i]) for i in view.shown) - base + 1
    x = {i: left + (int(tree.depth[i]) - base) * col_w + ans_w for i in view.shown}
    e = html.escape
    title = (f"{rules_name(tree.rules)} ({tree.rules.describe()}), {tree.strategy}: "
             f"{_n(tree.secrets)} secrets, total {_n(tree.total)}, mean {tree.mean:.4f}, "
             f"worst {tree.worst}")
    last = base + levels - 1
    if view.hidden:
        caption = (f"Showing guesses {base} to {last} of {int(tree.depth.max())}; "
                   f"{_n(view.hidden)} deeper nodes are hidden (keypeg tree export --depth N "
                   "shows more, --depth 0 all).")
    else:
        caption = f"The whole tree from guess {base}: {_n(len(view.shown))} guesses."
    legend = ("Box: a guess, the secrets reaching it, +N nodes hidden below it (dashed "
              "border); green border: it can be the secret; filled: it is.")
    texts = [(title, 14, "bold", "#000"), (caption, 12, "normal", "#444"),
             (legend, 12, "normal", "#444")]
    if len(view.path) > 1:
        steps = " ".join(str(space.feedback(int(tree.response[k]))) for k in view.path[1:])
        texts.append((f"Path from the first guess: {steps}", 12, "normal", "#444"))
    width = round(max(left * 2 + levels * col_w,
                      *(left * 2 + len(t) * char * size / 12 * (1.1 if w == "bold" else 1)
                        for t, size, w, _ in texts)))
    height = round(top_pad + row * row_h + 12)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">',
           f"<title>{e(title)}</title>",
           '<rect width="100%" height="100%" fill="white"/>']
    for k, (text, size, weight, colour) in enumerate(texts):
        out.append(f'<text x="{left}" y="{18 + 16 * k}" font-size="{size}" '
                   f'font-weight="{weight}" fill="{colour}">{e(text)}</text>')
    for i in view.shown:
        if i == view.top:
            continue
        p = int(tree.parent[i])
        x1, y1 = x[p] + box_w, y[p]
        x2, y2 = x[i], y[i]
        xm = x2 - ans_w
        out.append(f'<path d="M{x1},{y1} L{xm - 8},{y1} L{xm},{y2} L{x2},{y2}" fill="none" '
                   'stroke="#999"/>')
        out.append(f'<text x="{xm + 2}" y="{y2 - 3}" fill="#036">'
                   f"{e(str(space.feedback(int(tree.response[i]))))}</text>")
    for i in view.shown:
        fill = "#dff2df" if found[i] and not view.kids[i] else "#f4f4f8"
        stroke = "#2a7" if found[i] else "#557"
        dash = ' stroke-dasharray="4 2"' if i in view.hidden_below else ""
        out.append(f'<rect x="{x[i]}" y="{y[i] - 9}" width="{box_w}" height="18" rx="3" '
                   f'fill="{fill}" stroke="{stroke}"{dash}/>')
        out.append(f'<text x="{x[i] + 6}" y="{y[i] + 4}">{e(labels[i])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def export_text(tree: DecisionTree, fmt: str, depth: int | None = None,
                path: list[str] | None = None) -> str:
    """Return `tree` written in `fmt` (json, dot, svg, irving, text, arfst, arfst-yaml).
    `depth` and `path` shape the pictures and the text view; the other formats carry the
    whole tree."""
    return export_document(tree, fmt, depth, path)[0]


def export_document(tree: DecisionTree, fmt: str, depth: int | None = None,
                    path: list[str] | None = None) -> tuple[str, int]:
    """Return `export_text` and how many of the tree's nodes (guesses) it shows: all of
    them but for the views (text, dot, svg), cut by `depth` and `path`."""
    fmt = fmt.lower()
    whole = {"json": write_json, "irving": write_irving, "arfst": write_arfst,
             "arfst-yaml": write_arfst_yaml}
    if fmt in whole:
        if depth is not None or path:
            raise KeypegError(f"--depth and --path shape the text, dot and svg views; "
                              f"{fmt} carries the whole tree.")
        return whole[fmt](tree), tree.nodes
    views = {"text": (render_view, 2), "dot": (write_dot, 0), "svg": (write_svg, None)}
    if fmt in views:
        writer, default = views[fmt]
        if depth is None:
            depth = auto_depth(tree) if default is None else default
        view = make_view(tree, depth, path)
        return writer(view), len(view.shown)
    raise KeypegError(f"unknown tree format {shorten(fmt)!r}; choose one of: json, dot, "
                      "svg, irving, text, arfst, arfst-yaml.")
