"""Decision trees: a strategy played against every secret at once (no sampling).

A `DecisionTree` stores its nodes flat, in depth-first order: the guess each node plays,
its parent, the answer that leads to it, the number of the guess (its depth) and how many
secrets reach it. From these come the exact total, mean, worst case and histogram
(``histogram[i]`` = secrets found on guess i+1). Trees round-trip through JSON, and
`replay` plays the tree against every secret to check it finds each one in the recorded
number of guesses.

>>> from keypeg.rules import find_rules
>>> from keypeg.strategies import find_strategy
>>> t = find_strategy("maxsize").tree(find_rules("classic"))
>>> t.total, t.histogram
(5801, [1, 6, 62, 533, 694])
"""

from __future__ import annotations

import gzip
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import KeypegError
from .feedback import Feedback
from .limits import shorten
from .rules import Rules, find_rules, rules_name
from .space import CodeSpace, get_space

if TYPE_CHECKING:
    from .game import GameState

FORMAT = "keypeg-tree"
VERSION = 1


@dataclass(eq=False)
class DecisionTree:
    """A strategy's whole decision tree from some state (the start of the game by default).

    One entry per node (a guess played), the root first, in the arrays below; codes and
    answers are indices (`CodeSpace.text(i)` writes a code, `CodeSpace.feedback(r)` an
    answer), so `first_guess` is an index too (`summary()["first_guess"]` and
    `OptimalResult.first_guess` are written codes).
    """

    rules: Rules
    #: The strategy's label ("maxsize", "optimal", ...).
    strategy: str
    #: The code index each node plays.
    guess: np.ndarray
    #: Each node's parent node (-1 at the root).
    parent: np.ndarray
    #: The answer index to the parent's guess that leads to the node (-1 at the root).
    response: np.ndarray
    #: Which guess of the game the node's is (1 at the root).
    depth: np.ndarray
    #: How many secrets reach the node.
    size: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        """Two trees are equal when they are of the same rules and strategy and play the same
        guesses to the same secrets (their arrays equal; `meta` aside). (The dataclass's own
        == had compared the arrays as truth values: numpy's ambiguity error.)"""
        if not isinstance(other, DecisionTree):
            return NotImplemented
        return (self.rules == other.rules and self.strategy == other.strategy
                and all(np.array_equal(getattr(self, f), getattr(other, f))
                        for f in ("guess", "parent", "response", "depth", "size")))

    __hash__ = None  # type: ignore[assignment]  # (mutable arrays: no hash, as before)

    def __repr__(self) -> str:
        # (the arrays run to thousands of numbers: what `summary` says instead)
        if not self.nodes:
            return f"DecisionTree({rules_name(self.rules)}, {self.strategy!r}, empty)"
        s = self.summary()
        return (f"DecisionTree({rules_name(self.rules)}, {self.strategy!r}, first guess "
                f"{s['first_guess']}, {s['total']:,} guesses for {self.secrets:,} secrets, "
                f"worst {s['worst']}, {self.nodes:,} nodes)")

    # --------------------------------------------------------------- derived
    @property
    def nodes(self) -> int:
        """Return the number of nodes (decisions)."""
        return int(self.guess.shape[0])

    @property
    def secrets(self) -> int:
        """Return how many secrets the tree covers."""
        return int(self.size[0]) if self.nodes else 0

    def found(self) -> np.ndarray:
        """Return, per node, True when its guess is one of the secrets reaching it."""
        below = np.zeros(self.nodes, dtype=np.int64)
        has_parent = self.parent >= 0
        np.add.at(below, self.parent[has_parent], self.size[has_parent])
        return (self.size - below) == 1

    @property
    def histogram(self) -> list[int]:
        """Return secrets found on guess 1, 2, ... (``histogram[i]`` = on guess i+1)."""
        depths = self.depth[self.found()]
        if depths.size == 0:
            return []
        return [int(x) for x in np.bincount(depths, minlength=int(depths.max()) + 1)[1:]]

    @property
    def total(self) -> int:
        """Return the total number of guesses over every secret."""
        return int(self.depth[self.found()].sum())

    @property
    def mean(self) -> float:
        """Return the mean number of guesses per secret."""
        return self.total / self.secrets if self.secrets else 0.0

    @property
    def worst(self) -> int:
        """Return the most guesses any secret needs."""
        return len(self.histogram)

    @property
    def first_guess(self) -> int:
        """Return the code index played at the root."""
        return int(self.guess[0])

    def summary(self) -> dict[str, Any]:
        """Return the evaluation row: strategy, first guess, total, mean, worst, histogram."""
        space = get_space(self.rules)
        return {
            "strategy": self.strategy,
            "first_guess": space.text(self.first_guess),
            "total": self.total,
            "mean": round(self.mean, 4),
            "worst": self.worst,
            "histogram": self.histogram,
        }

    def children(self) -> np.ndarray:
        """Return ``child[node, answer]``: the node reached by that answer, or -1."""
        space = get_space(self.rules)
        child = np.full((self.nodes, space.n_responses), -1, dtype=np.int32)
        has_parent = self.parent >= 0
        child[self.parent[has_parent], self.response[has_parent]] = np.flatnonzero(has_parent)
        return child

    # --------------------------------------------------------------- replay
    def placed(self, state: GameState | None) -> DecisionTree:
        """Return this tree (changed in place) with the position it starts from in `meta`:
        its clues, and the noise or prior the candidates came from, so that a tree saved and
        loaded again replays over its own secrets (it had been saved with no word of its
        clues, and `replay` had said "the tree covers 208 secrets, not 1296")."""
        if state is not None and state.history:
            self.meta["clues"] = [str(clue) for clue in state.history]
            if str(state.noise) != "exact":
                self.meta["noise"] = str(state.noise)
            if state.belief.prior:
                self.meta["prior"] = True
        return self

    def start_secrets(self, space: CodeSpace) -> np.ndarray:
        """Return the secrets this tree covers when none are given: every code, or the
        candidates after the clues in `meta` (`placed`); raises `KeypegError` for a
        position under a prior, which the file does not hold."""
        clues = self.meta.get("clues")
        if not clues:
            return space.all()
        if self.meta.get("prior"):
            raise KeypegError("this tree starts from a position under a prior, which it does "
                              "not hold: give its secrets (secrets=state.candidates).")
        from .game import GameState

        state = GameState.start(space, noise=self.meta.get("noise"))
        for clue in clues:
            guess, _, feedback = str(clue).partition("=")
            state = state.after(guess, feedback)
        return state.candidates

    def replay(self, space: CodeSpace | None = None, secrets: np.ndarray | None = None) -> None:
        """Play the tree against every secret; raise `KeypegError` if one is not found in
        the recorded number of guesses or the recorded sizes are wrong."""
        self.depths(space, secrets)

    def depths(self, space: CodeSpace | None = None, secrets: np.ndarray | None = None
               ) -> np.ndarray:
        """Return the number of guesses the tree needs for each secret (every code by
        default), by playing it; raises `KeypegError` as `replay` does."""
        space = space or get_space(self.rules)
        secrets = (self.start_secrets(space) if secrets is None
                   else np.asarray(secrets, dtype=np.int32))
        if secrets.size != self.secrets:
            raise KeypegError(f"the tree covers {self.secrets} secrets, not {secrets.size}.")
        child = self.children()
        node = np.zeros(secrets.size, dtype=np.int64)
        found_at = np.zeros(secrets.size, dtype=np.int64)
        reach = np.zeros(self.nodes, dtype=np.int64)
        active = np.arange(secrets.size)
        depth = int(self.depth[0])
        while active.size:
            if depth > 64:
                raise KeypegError("replay went past 64 guesses: the tree loops.")
            np.add.at(reach, node[active], 1)
            resp = np.empty(active.size, dtype=np.int64)
            # the secrets grouped by the guess their node plays: one slice per guess
            played = self.guess[node[active]]
            order = np.argsort(played, kind="stable")
            guesses, starts = np.unique(played[order], return_index=True)
            ends = np.append(starts[1:], order.size)
            for g, a, b in zip(guesses.tolist(), starts.tolist(), ends.tolist(), strict=True):
                sel = order[a:b]
                resp[sel] = space.responses(int(g), secrets[active[sel]])
            win = resp == space.win
            found_at[active[win]] = depth
            active, resp = active[~win], resp[~win]
            nxt = child[node[active], resp]
            if (nxt < 0).any():
                bad = secrets[active[nxt < 0][0]]
                raise KeypegError(f"the tree has no branch for secret {space.text(bad)}.")
            node[active] = nxt
            depth += 1
        if not np.array_equal(reach, self.size):
            raise KeypegError("the recorded part sizes do not match a replay.")
        hist = np.bincount(found_at, minlength=len(self.histogram) + 1)[1:].tolist()
        if hist != self.histogram:
            raise KeypegError(f"replay found secrets on guesses {hist}, not {self.histogram}.")
        return found_at

    def weighted(self, weights: np.ndarray, space: CodeSpace | None = None,
                 secrets: np.ndarray | None = None) -> tuple[float, float]:
        """Return (weighted total, weighted mean) of the tree under `weights` (one per code
        of the space): the sum of weight x guesses over the secrets, and that divided by
        their total weight."""
        space = space or get_space(self.rules)
        secrets = space.all() if secrets is None else np.asarray(secrets, dtype=np.int32)
        w = np.asarray(weights, dtype=np.float64)[secrets]
        total = float((w * self.depths(space, secrets)).sum())
        return total, total / float(w.sum())

    # --------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        """Return the tree as nested JSON-ready data (guesses and answers as text)."""
        space = get_space(self.rules)
        kids: list[list[int]] = [[] for _ in range(self.nodes)]
        for i in range(1, self.nodes):
            kids[int(self.parent[i])].append(i)

        def node(i: int) -> dict[str, Any]:
            out: dict[str, Any] = {"guess": space.text(int(self.guess[i])), "n": int(self.size[i])}
            if kids[i]:
                out["parts"] = {
                    str(space.feedback(int(self.response[k]))): node(k) for k in kids[i]
                }
            return out

        rules = asdict(self.rules)
        rules.pop("name", None)
        out = {
            "format": FORMAT,
            "version": VERSION,
            "rules": rules,
            "rules_name": rules_name(self.rules),
            "strategy": self.strategy,
            "summary": self.summary(),
            "meta": self.meta,
            "root": node(0),
        }
        if self.nodes and int(self.depth[0]) != 1:
            # a tree from a position: its first guess is guess number `first_depth`
            out["first_depth"] = int(self.depth[0])
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DecisionTree:
        """Rebuild a tree from `to_dict` data; raises `KeypegError` when malformed (a field
        missing or of the wrong kind, or secret counts that do not add up)."""
        try:
            tree = cls._from_dict(data)
        except KeypegError:
            raise
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            what = f"no {exc.args[0]!r} field" if isinstance(exc, KeyError) else str(exc)
            raise KeypegError(f"not a keypeg tree ({what}).") from None
        # every secret reaching a node goes on to one of its answers, or is its guess
        if tree.nodes:
            below = np.bincount(tree.parent[1:], weights=tree.size[1:], minlength=tree.nodes)
            left = tree.size - below  # (a leaf: its one secret)
            wrong = (tree.size < 1) | (left < 0) | (left > 1) | ((below == 0) & (tree.size != 1))
            if wrong.any():
                bad = int(np.flatnonzero(wrong)[0])
                raise KeypegError(
                    f"not a keypeg tree: the secrets at the guess {_node_text(tree, bad)} "
                    f"(node {bad}, {int(tree.size[bad])}) are not those of its answers "
                    f"({int(below[bad])}) plus at most its own.")
        return tree

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> DecisionTree:
        if not isinstance(data, dict):
            raise KeypegError(f"not a keypeg tree (a {type(data).__name__}, not an object).")
        if data.get("format") != FORMAT:
            raise KeypegError("not a keypeg tree file (missing format 'keypeg-tree').")
        rules = rules_from_json(data["rules"])
        space = get_space(rules)
        guess: list[int] = []
        parent: list[int] = []
        response: list[int] = []
        depth: list[int] = []
        size: list[int] = []
        first_depth = data.get("first_depth", 1)
        if not isinstance(first_depth, int) or isinstance(first_depth, bool) or first_depth < 1:
            raise KeypegError("a tree's first_depth must be a whole number of at least 1.")
        stack: list[tuple[dict[str, Any], int, int, int]] = [(data["root"], -1, -1,
                                                               first_depth)]
        # each text read once (Codebreaker 4-6's tree: 103,450 nodes, 11 s -> a few tenths)
        codes: dict[str, int] = {}
        answers: dict[str, int] = {}
        while stack:
            item, par, resp, d = stack.pop()
            me = len(guess)
            text = item["guess"]
            if not isinstance(text, str):
                # (a number had been taken as a code index: "guess": 3 played 22)
                raise KeypegError(f"not a keypeg tree: a guess must be text, like "
                                  f"{space.text(0)!r}, not {shorten(repr(text))}.")
            g = codes.get(text)
            if g is None:
                g = codes[text] = space.index(text)
            guess.append(g)
            parent.append(par)
            response.append(resp)
            depth.append(d)
            size.append(int(item["n"]))
            parts = list(item.get("parts", {}).items())
            for fb_text, sub in reversed(parts):
                r = answers.get(fb_text)
                if r is None:
                    r = answers[fb_text] = space.response_index(Feedback.parse(fb_text, rules))
                stack.append((sub, me, r, d + 1))
        as32 = lambda xs: np.asarray(xs, dtype=np.int32)  # noqa: E731
        return cls(rules, data.get("strategy", "?"), as32(guess), as32(parent), as32(response),
                   as32(depth), as32(size), dict(data.get("meta", {})))

    def save(self, path: str | Path) -> None:
        """Write the tree as JSON (gzip-compressed when the name ends in .gz)."""
        text = json.dumps(self.to_dict(), separators=(",", ":"))
        p = Path(path)
        if p.suffix == ".gz":
            p.write_bytes(gzip.compress(text.encode(), mtime=0))
        else:
            p.write_text(text)

    @classmethod
    def load(cls, path: str | Path) -> DecisionTree:
        """Read a tree written by `save`; a file that cannot be read, or is not JSON, raises
        `KeypegError` in a sentence."""
        p = Path(path)
        try:
            raw = p.read_bytes()
            if p.suffix == ".gz":
                raw = gzip.decompress(raw)
            data = json.loads(raw)
        except OSError as exc:  # (no such file, a folder, a broken gzip file)
            raise KeypegError(f"cannot read the tree {str(p)!r}: "
                              f"{exc.strerror or exc}.") from None
        except ValueError as exc:  # (not JSON, not UTF-8)
            raise KeypegError(f"cannot read the tree {str(p)!r}: it is not keypeg's tree "
                              f"JSON ({exc}).") from None
        return cls.from_dict(data)

    # --------------------------------------------------------------- text
    def render(self, max_depth: int = 2) -> str:
        """Return a compact indented text view down to guess `max_depth`."""
        space = get_space(self.rules)
        lines: list[str] = []
        kids: list[list[int]] = [[] for _ in range(self.nodes)]
        for i in range(1, self.nodes):
            kids[int(self.parent[i])].append(i)
        found = self.found()

        def visit(i: int, indent: str) -> None:
            label = "" if self.parent[i] < 0 else f"{space.feedback(int(self.response[i]))}: "
            mark = " *" if found[i] else ""
            lines.append(f"{indent}{label}{space.text(int(self.guess[i]))} "
                         f"({int(self.size[i])}){mark}")
            if self.depth[i] < max_depth:
                for k in kids[i]:
                    visit(k, indent + "  ")

        visit(0, "")
        return "\n".join(lines)


def tree_bytes(tree: DecisionTree) -> bytes:
    """Return a tree as compressed JSON (how the store and the package keep trees)."""
    return gzip.compress(json.dumps(tree.to_dict(), separators=(",", ":")).encode(), mtime=0)


def tree_from_bytes(data: bytes) -> DecisionTree:
    """Return the tree stored by `tree_bytes`."""
    return DecisionTree.from_dict(json.loads(gzip.decompress(data)))


def rules_from_json(given: Any) -> Rules:
    """Return the rules a tree's JSON gives (its "rules"): an object of the rules' options,
    or a name `find_rules` reads ("classic", "MM(2,2)") as hand-written trees may give them;
    `KeypegError` in a sentence otherwise (the one reader for `from_dict` and
    `treeformats.read_json`)."""
    if isinstance(given, str):
        return find_rules(given)
    try:
        if not isinstance(given, dict):
            raise TypeError
        return Rules(**given)
    except TypeError:
        # (Python's own words, "Rules.__init__() missing 1 required positional argument",
        # said nothing to the reader of a tree file)
        raise KeypegError("its \"rules\" must be a rules name such as \"classic\" or "
                          "\"MM(2,2)\", or an object giving pegs and colors and only the "
                          "rules' options.") from None
    except ValueError as exc:
        raise KeypegError(f"its \"rules\" cannot be read ({str(exc).rstrip('.')}).") from None


def _node_text(tree: DecisionTree, node: int) -> str:
    """Return the written guess of `node` in `tree`."""
    return get_space(tree.rules).text(int(tree.guess[node]))
