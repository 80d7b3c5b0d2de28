"""The code space of some rules: every code, the answers, and how guesses cut sets.

`CodeSpace(rules)` holds every code as a row of symbol indices, in lexical order (a code's
row is its index), and the answer alphabet. The feedback table ``table[guess, secret]``
(uint8, or uint16 for big positional alphabets) is built by a compiled kernel on first need
and cached on disk; when it would not fit the memory budget (2 GiB by default, the
``KEYPEG_TABLE_BUDGET`` environment variable in bytes overrides it), answers are computed
on the fly instead. Callers see the same results either way.

>>> from keypeg.rules import find_rules
>>> space = get_space(find_rules("classic"))
>>> space.size, len(space.alphabet)
(1296, 14)
"""

from __future__ import annotations

import itertools
import os
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

from ._kernels import feedback as kfb
from ._kernels import partition as kpart
from .codes import Code, check_index, format_symbols, parse_symbols
from .errors import InvalidCodeError, InvalidRulesError, LimitExceededError
from .feedback import Feedback, ResponseAlphabet, response_alphabet
from .limits import (
    CHECKPOINT_SPLIT_MAX_CODES,
    SMALL_SPACE,
    SPLIT_MAX_CODES,
    bytes_text,
    check_count,
    check_flag,
    table_budget,
)
from .pages import huge_pages, prefer_small_pages
from .rules import Rules, rules_name, rules_of

# (numpy's advice for huge pages cost keypeg's fresh big arrays more than it saved: see
# keypeg.pages; KEYPEG_HUGE_PAGES=1 keeps it)
prefer_small_pages()

TABLE_FORMAT_VERSION = 1
INDEX_DTYPE = np.int32


def cache_dir() -> Path:
    """Return the directory for cached tables (``KEYPEG_CACHE_DIR`` overrides it)."""
    env = os.environ.get("KEYPEG_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("keypeg"))


def enumerate_codes(rules: Rules) -> np.ndarray:
    """Return every code of `rules` as an (N, pegs) uint8 array in lexical order."""
    n, p = rules.symbols, rules.pegs
    if rules.repeats:
        grids = np.indices((n,) * p, dtype=np.uint8)
        return grids.reshape(p, -1).T.copy()
    perms = np.fromiter(
        itertools.chain.from_iterable(itertools.permutations(range(n), p)),
        dtype=np.uint8,
        count=rules.size * p,
    )
    return perms.reshape(-1, p)


def table_bytes(rules: Rules) -> int:
    """Return the size the full feedback table of `rules` would have, in bytes (known from
    the rules alone, before any code is enumerated)."""
    return rules.size * rules.size * np.dtype(response_alphabet(rules).dtype).itemsize


def require_table(rules: Rules, job: str, budget: int | None = None) -> None:
    """Raise `LimitExceededError` at once when `job` (which needs the full feedback table)
    cannot run under the memory budget (`KEYPEG_TABLE_BUDGET` unless given): decided from
    the sizes, before any work."""
    need = table_bytes(rules)
    budget = table_budget() if budget is None else budget
    if need > budget:
        raise LimitExceededError(
            f"{job} needs the full feedback table of {rules_name(rules)} ({rules.size:,} "
            f"codes, {bytes_text(need)}), over the {bytes_text(budget)} budget "
            "(KEYPEG_TABLE_BUDGET); play it, or ask for hints, instead."
        )


def whole_tree_route(rules: Rules, splits: bool) -> str:
    """How keypeg builds a strategy's whole tree over `rules` (`splits`: a one-step
    strategy, walked part by part where the table does not fit): "table" (the full
    feedback table fits the budget), "split" (part by part, in memory: Codebreaker 4-6),
    "checkpoint" (only by `keypeg evaluate --checkpoint`, hours: MM(6,9)) or "none"."""
    if table_bytes(rules) <= table_budget():
        return "table"
    if splits and rules.size <= SPLIT_MAX_CODES:
        return "split"
    if splits and rules.size <= CHECKPOINT_SPLIT_MAX_CODES:
        return "checkpoint"
    return "none"


class CodeSpace:
    """Every code of some rules, the answer alphabet, and partition / filter operations."""

    def __init__(self, rules: Rules | str, *, budget: int | None = None,
                 disk_cache: bool = True):
        rules = rules_of(rules)
        if budget is not None:
            check_count("budget", budget, least=0)
        check_flag("disk_cache", disk_cache)
        self.rules = rules
        self.alphabet: ResponseAlphabet = response_alphabet(rules)
        self.codes = enumerate_codes(rules)
        self.size = int(self.codes.shape[0])
        self.counts, self.packed, self.colmask, self._values, keys = kfb.code_stats(
            self.codes, rules.symbols)  # _values: each code read as a base-n number
        self.multiset, self.common = kfb.multisets(self.counts, keys)
        del keys
        self._budget = table_budget() if budget is None else budget
        self._disk_cache = disk_cache
        self._table: np.ndarray | None = None
        self._table_lock = threading.Lock()
        self._lut = self.alphabet.lut
        self._positional = rules.feedback == "positional"
        self._wide = self.common.shape[0] == 0

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the rules (and budget): unpickled, the process's shared space, or one
        made alike (a state or space could not go to another process or a cache: its lock
        cannot be pickled; the codes and table are rebuilt there, not carried)."""
        shared = _SPACES.get((self.rules, rules_name(self.rules))) is self
        return (_space_again, (self.rules, self._budget, self._disk_cache, shared))

    # ------------------------------------------------------------------ codes
    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"CodeSpace({rules_name(self.rules)}, {self.size:,} codes)"

    @property
    def n_responses(self) -> int:
        """Return how many answers the rules allow (14 for 4 pegs black/white)."""
        return len(self.alphabet)

    @property
    def win(self) -> int:
        """Return the index of the winning answer."""
        return self.alphabet.win

    def all(self) -> np.ndarray:
        """Return every code index, as a fresh int32 array."""
        return np.arange(self.size, dtype=INDEX_DTYPE)

    def index(self, code: str | Code | int) -> int:
        """Return the index of a code given as text, `Code` or index.

        Raises `InvalidCodeError` when it is not a code of these rules.
        """
        if isinstance(code, Code):  # (a code of another game is refused, not read again)
            code = Code.parse(code, self.rules).index
        if isinstance(code, (int, np.integer)):
            if not 0 <= int(code) < self.size:
                raise InvalidCodeError(f"code index {code} is outside 0..{self.size - 1}.")
            return int(code)
        return self.index_of_symbols(parse_symbols(code, self.rules))

    def index_of_symbols(self, symbols: tuple[int, ...] | np.ndarray) -> int:
        """Return the index of a code given as symbol indices (assumed valid)."""
        value = 0
        for s in symbols:
            value = value * self.rules.symbols + int(s)
        i = int(np.searchsorted(self._values, value))
        if i >= self.size or self._values[i] != value:
            raise InvalidCodeError(f"{format_symbols(symbols, self.rules)!r} is not a code here.")
        return i

    def played_mask(self, guesses: list[int] | tuple[int, ...]) -> int:
        """Return the bit mask of the symbols used by any of `guesses` (code indices)."""
        return played_mask(self.colmask, guesses)

    def code(self, index: int) -> Code:
        """Return the `Code` at `index`."""
        return Code(self.rules, self.checked(index))

    def text(self, index: int) -> str:
        """Return the written form of the code at `index`."""
        return format_symbols(self.codes[self.checked(index)], self.rules)

    def checked(self, index: Any) -> int:
        """Return `index` as an int when it is a code index of this space; else raise
        `InvalidCodeError` (the compiled kernels read past the end of their arrays)."""
        return check_index(index, self.size)

    def guess_index(self, guess: Any) -> int:
        """Return the index of `guess`, a code given as text, `Code` or index (the methods
        that cut candidates by a guess take all three)."""
        return self.index(guess) if isinstance(guess, (str, Code)) else self.checked(guess)

    def checked_indices(self, indices: Any) -> np.ndarray:
        """Return `indices` as a contiguous int32 array of code indices of this space; else
        raise `InvalidCodeError`."""
        out = np.ascontiguousarray(indices)
        if out.size and out.dtype.kind not in "iu":
            raise InvalidCodeError(f"code indices are whole numbers, not {out.dtype} values.")
        # (the range first: a cast to int32 would wrap an index past it)
        if out.size and (int(out.min()) < 0 or int(out.max()) >= self.size):
            bad = int(out.min()) if int(out.min()) < 0 else int(out.max())
            raise InvalidCodeError(f"code index {bad} is outside 0..{self.size - 1}.")
        return np.ascontiguousarray(out, dtype=INDEX_DTYPE)

    def texts(self, indices: np.ndarray | list[int]) -> list[str]:
        """Return the written forms of many codes."""
        return [self.text(i) for i in indices]

    # ------------------------------------------------------------------ answers
    def feedback(self, index: int) -> Feedback:
        """Return the answer with index `index` (0 to n_responses - 1)."""
        return self.alphabet[check_index(index, self.n_responses, "answer index")]

    def response_index(self, fb: Feedback | str) -> int:
        """Return the index of an answer; raises `InvalidFeedbackError` if impossible."""
        return self.alphabet.index(fb)

    # ------------------------------------------------------------------ table
    @property
    def table_bytes(self) -> int:
        """Return the size a full feedback table would have, in bytes."""
        return table_bytes(self.rules)

    @property
    def budget(self) -> int:
        """Return the bytes this space's tables may take (``KEYPEG_TABLE_BUDGET`` when the
        space was made, unless given)."""
        return self._budget

    @property
    def fits_table(self) -> bool:
        """Return True when the full table fits the memory budget."""
        return self.table_bytes <= self._budget

    @property
    def symmetric_table(self) -> bool:
        """Return True when ``table[g, s] == table[s, g]`` (black/white answers)."""
        return self.rules.feedback == "blackwhite"

    @property
    def has_table(self) -> bool:
        """Return True when the table is in memory."""
        return self._table is not None

    def table(self) -> np.ndarray | None:
        """Return the feedback table ``[guess, secret]``, building or loading it on first
        call; None when it does not fit the budget. Every user of the space shares it
        (the compiled kernels take it as it is): read it, never write to it."""
        if self._table is None and self.fits_table:
            with self._table_lock:  # threads share spaces: build it once
                if self._table is None:
                    with huge_pages():  # (read at random by every search: keypeg.pages)
                        self._table = self._load_or_build_table()
        return self._table

    def build_table(self) -> np.ndarray:
        """Compute the full feedback table with the compiled kernel (no cache)."""
        everything = self.all()
        return self._compute_block(everything, everything)

    def _compute_block(self, probes: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        out = np.empty((probes.shape[0], secrets.shape[0]), dtype=self.alphabet.dtype)
        if self._positional:
            kfb.block_positional(self.codes, self.packed, self._lut, probes, secrets, out)
        elif self._wide:
            kfb.block_blackwhite_wide(self.codes, self.counts, self._lut, probes, secrets, out)
        elif self._by_halves(probes.shape[0]):
            kfb.block_blackwhite_halves(self.codes, self.multiset, self.common, self._lut,
                                        self.rules.symbols, probes, secrets, out)
        else:
            block = kfb.block_blackwhite_bytes if self.rules.pegs <= 8 else kfb.block_blackwhite
            block(self.codes, self.multiset, self.common, self._lut, probes, secrets, out)
        return out

    def _by_halves(self, probes: int) -> bool:
        """Whether `block_blackwhite_halves` answers `probes` guesses (black/white, the
        multisets numbered) faster than a pass per pair: its tables (each half's symbol
        tuples and the multisets, a row each) are small, and there are many more probes
        than their rows (MM(6,9)'s 531,441 codes by 213 candidates: 0.05 s against 0.34 s)."""
        pegs, symbols = self.rules.pegs, self.rules.symbols
        hi, lo = symbols ** (pegs // 2), symbols ** (pegs - pegs // 2)
        return (lo <= kfb.HALF_CODES and pegs * (pegs + 1) < 256
                and probes >= 2 * (hi + lo + self.common.shape[0]))

    def block(self, probes: np.ndarray | None, secrets: np.ndarray) -> np.ndarray:
        """Return ``out[i, j]``, the answer to guess ``probes[i]`` (every code when None)
        against secret ``secrets[j]``: a slice of the table when it is loaded (or small
        enough to build at once), else computed on the fly. `InvalidCodeError` for an
        index outside the space."""
        secrets = self.checked_indices(secrets)
        if probes is not None:
            probes = self.checked_indices(probes)
        if self._table is None and self.size <= SMALL_SPACE:
            self.table()
        if self._table is not None:
            table = self._table
            # (np.take, not table[:, secrets]: row-major like a computed block, so the
            # kernels see one layout, and twice as fast)
            return (np.take(table, secrets, axis=1) if probes is None
                    else table[np.ix_(probes, secrets)])
        probes = self.all() if probes is None else probes
        return self._compute_block(probes, secrets)

    def _table_path(self) -> Path:
        return cache_dir() / f"table-{self.rules.key}-v{TABLE_FORMAT_VERSION}.npy"

    def _load_or_build_table(self) -> np.ndarray:
        path = self._table_path()
        if self._disk_cache and path.exists():
            try:
                table = np.load(path)
                if table.shape == (self.size, self.size) and table.dtype == self.alphabet.dtype:
                    return table
            except (OSError, ValueError):
                pass
        table = self.build_table()
        if self._disk_cache:
            _save_atomic(path, table)
        return table

    # ------------------------------------------------------------------ cuts
    def responses(self, guess: int | str | Code, secrets: np.ndarray) -> np.ndarray:
        """Return the answer index of `guess` (text, `Code` or index) against each of
        `secrets` (code indices; `InvalidCodeError` for one outside the space)."""
        secrets = self.checked_indices(secrets).ravel()
        guess = self.guess_index(guess)
        out = np.empty(secrets.shape[0], dtype=np.int32)
        if self._table is not None:
            kfb.row_from_table(self._table, guess, secrets, out)
        elif self._positional:
            kfb.row_positional(self.codes, self.packed, self._lut, guess, secrets, out)
        elif self._wide:
            kfb.row_blackwhite_wide(self.codes, self.counts, self._lut, guess, secrets, out)
        else:
            kfb.row_blackwhite(
                self.codes, self.multiset, self.common, self._lut, guess, secrets, out
            )
        return out

    def part_sizes(self, guess: int | str | Code, candidates: np.ndarray) -> np.ndarray:
        """Return how many of `candidates` give each answer to `guess` (length R)."""
        return np.bincount(self.responses(guess, candidates), minlength=self.n_responses)

    def partition(self, guess: int | str | Code,
                  candidates: np.ndarray) -> dict[int, np.ndarray]:
        """Return the non-empty parts of `candidates` under `guess` (text, `Code` or index),
        keyed by answer index (`feedback(key)` is the answer)."""
        candidates = self.checked_indices(candidates).ravel()
        resp = self.responses(guess, candidates)
        order = np.argsort(resp, kind="stable")
        resp_sorted = resp[order]
        cuts = np.flatnonzero(np.diff(resp_sorted)) + 1
        parts: dict[int, np.ndarray] = {}
        for chunk in np.split(order, cuts):
            if chunk.size:
                parts[int(resp[chunk[0]])] = candidates[chunk]
        return parts

    def filter(self, candidates: np.ndarray, guess: int | str | Code,
               response: int | str | Feedback) -> np.ndarray:
        """Return the candidates that give answer `response` (text such as 1B1W, a
        `Feedback` or an answer index) to `guess` (text, `Code` or index)."""
        if isinstance(response, (str, Feedback)):
            response = self.response_index(response)
        check_index(response, self.n_responses, "answer index")
        candidates = self.checked_indices(candidates).ravel()
        return candidates[self.responses(guess, candidates) == response]

    def count_matrix(self, probes: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """Return ``m[i, r]``: how many candidates give answer r to ``probes[i]`` (code
        indices; `InvalidCodeError` for one outside the space)."""
        probes = self.checked_indices(probes).ravel()
        candidates = self.checked_indices(candidates).ravel()
        out = np.zeros((probes.shape[0], self.n_responses), dtype=np.int32)
        table = self.table()
        if table is not None:
            kpart.counts_table(table, probes, candidates, out)
        elif self._positional:
            kpart.counts_positional(self.codes, self.packed, self._lut, probes, candidates, out)
        elif self._wide:
            kpart.counts_blackwhite_wide(
                self.codes, self.counts, self._lut, probes, candidates, out
            )
        else:
            counts = (kpart.counts_blackwhite_bytes if self.rules.pegs <= 8
                      else kpart.counts_blackwhite)
            counts(self.codes, self.multiset, self.common, self._lut, probes, candidates, out)
        return out


def _save_atomic(path: Path, array: np.ndarray) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, array)
        os.replace(tmp, path)
    except OSError:
        pass  # a cache that cannot be written is only slower


def played_mask(colmask: np.ndarray, guesses: list[int] | tuple[int, ...]) -> int:
    """Return the bit mask of the symbols used by any of `guesses` (rows of `colmask`)."""
    mask = 0
    for g in guesses:
        mask |= int(colmask[int(g)])
    return mask


def probe_pool(space: CodeSpace, candidates: np.ndarray) -> np.ndarray:
    """Return, per code, whether a search from `candidates` may score it: it uses, of the
    colours absent from every candidate, only the smallest (with repeats) or the smallest
    ones in ascending order of position (without), the rule the search's symmetry applies
    at every node (a colour absent here stays absent in every part)."""
    rules = space.rules
    present = np.bitwise_or.reduce(space.colmask[candidates]) if candidates.size else 0
    zero = np.array([c for c in range(rules.symbols) if not (int(present) >> c) & 1],
                    dtype=np.int64)
    keep = np.ones(space.size, dtype=np.bool_)
    if zero.size == 0:
        return keep
    is_zero = np.zeros(rules.symbols, dtype=np.bool_)
    is_zero[zero] = True
    seen = np.zeros(space.size, dtype=np.int64)
    for k in range(rules.pegs):
        c = space.codes[:, k].astype(np.int64)
        z = is_zero[c]
        want = zero[0] if rules.repeats else zero[np.minimum(seen, zero.size - 1)]
        keep &= ~z | (c == want)
        seen += z
    return keep


class CandidateView:
    """A game seen from a set of candidates, for searches that would otherwise need the
    full feedback table: the codes a search from there can score, re-indexed so that the
    candidates come first (view index i < m is candidate i, in the order given), and their
    answers against the candidates only, an N' x m table instead of N x N.

    A search run on the view with the candidates as ``0..m-1`` reads ``table[g, s]`` for a
    probe g and a candidate s exactly as on the full table: the same answers, the same
    symbols per code (so the same symmetry classes), only numbered differently. The codes
    left out are those no search from the candidates scores: a colour absent from every
    candidate is absent from every set below them too, and the search plays only the
    smallest such colour (ascending ones without repeats), so a code using another one is
    never tried (`probe_pool`); nor is a code that cuts the candidates exactly like an
    earlier one (the same answers up to their names: `partition.distinct_rows`). The
    guesses in `extra` (those played) are kept as well.
    `order[i]` is the space's index of view index i; `indices` (or the array `inverse`)
    the way back (-1 for codes left out); `probe_order` lists the view indices in the
    space's code order.

    With `probes` (codes of the space), the view holds the candidates, those and `extra`
    only (`restricted`), with no pass over every code (MM(8,8)'s 16.8 million): a search on
    it finds the best tree among those guesses, not the optimum, and only without symmetry
    (they need not hold a code of each class): see `solver.search.solve_among`.
    """

    def __init__(self, space: CodeSpace, candidates: np.ndarray,
                 extra: np.ndarray | Sequence[int] = (), probes: np.ndarray | None = None) -> None:
        cands = np.ascontiguousarray(candidates, dtype=INDEX_DTYPE)
        self.space = space
        self.rules = space.rules
        self.alphabet = space.alphabet
        self.m = int(cands.size)
        self.restricted = probes is not None
        extra = np.asarray(extra, dtype=np.int64)
        if probes is None:
            keep = probe_pool(space, cands)
            keep[extra] = True
            keep[cands] = False
            others = np.flatnonzero(keep).astype(INDEX_DTYPE)
        else:
            others = np.setdiff1d(np.union1d(np.asarray(probes, dtype=np.int64), extra),
                                  cands).astype(INDEX_DTYPE)  # (sorted: in code order)
        order = np.concatenate([cands, others])
        # Of the other codes that cut the candidates alike (the same answers up to their
        # names), only the first in code order: every set below the candidates is cut alike
        # by them, so the search, which takes the first of equals, never plays the others
        # (nor, under symmetry, their images: an earlier alike code's image comes first).
        table = space.block(order, cands)
        kept = kpart.distinct_rows(table, self.m)
        kept |= np.isin(order, extra)  # the guesses played stay
        if not kept.all():  # (moved up in place: the view never holds two tables)
            order = order[kept]
            kpart.compact_rows(table, np.flatnonzero(kept))
            table = table[: order.size]
        self.order = order
        self.size = int(self.order.size)
        self._inverse: np.ndarray | None = None
        self.probe_order = np.argsort(self.order, kind="stable").astype(np.int64)
        self.codes = space.codes[self.order]
        self.colmask = space.colmask[self.order]
        #: answers ``[probe (view index), candidate (0..m-1)]``
        self._table = np.ascontiguousarray(table)
        self._columns: np.ndarray | None = None
        self._by_sets: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._columns_lock = threading.Lock()
        self.symmetric_table = False  # not square: only the candidates are columns

    @property
    def inverse(self) -> np.ndarray:
        """Each code's view index, -1 for codes left out (one entry per code of the space:
        made when first asked for; `indices` needs none)."""
        if self._inverse is None:
            inverse = np.full(self.space.size, -1, dtype=INDEX_DTYPE)
            inverse[self.order] = np.arange(self.size, dtype=INDEX_DTYPE)
            self._inverse = inverse
        return self._inverse

    def indices(self, codes: np.ndarray | list[int]) -> np.ndarray:
        """Return the view indices of `codes` (the space's indices), -1 for codes left out."""
        codes = np.asarray(codes, dtype=np.int64)
        ranked = self.order[self.probe_order]  # the view's codes in code order
        at = np.minimum(np.searchsorted(ranked, codes), ranked.size - 1)
        return np.where(ranked[at] == codes, self.probe_order[at], -1)

    @staticmethod
    def bytes_needed(space: CodeSpace, count: int) -> int:
        """Return the most bytes a view of `count` candidates holds (every code a row)."""
        return space.size * count * np.dtype(space.alphabet.dtype).itemsize

    @property
    def n_responses(self) -> int:
        return len(self.alphabet)

    @property
    def win(self) -> int:
        return self.alphabet.win

    @property
    def has_table(self) -> bool:
        return True

    def table(self) -> np.ndarray:
        """Return the answers ``[probe, candidate]`` (view indices)."""
        return self._table

    def columns(self) -> np.ndarray:
        """Return the answers by candidate, in probe order (``[candidate, i]``: probe
        ``probe_order[i]``), made once and shared by the searches on this view. With
        black/white answers in bytes and multisets numbered (`CodeSpace.multiset`), two
        more rows follow the m candidates': each probe's multiset id, low byte then high
        byte, which the search reads along with the answers (`_kernels.optimal._tiny_scan`)."""
        with self._columns_lock:
            if self._columns is None:
                sets = self.sets_in_columns
                n = self.probe_order.size
                columns = np.empty((self.m + (2 if sets else 0), n), dtype=self._table.dtype)
                # (one compiled pass: numpy's gather, stack and transpose took 0.4 s for
                # MM(6,9)'s 132 candidates by 530,000 probes)
                kpart.gather_columns(self._table, self.probe_order, columns)
                if sets:
                    ids = self.space.multiset[self.order[self.probe_order]]
                    columns[self.m] = ids & 255
                    columns[self.m + 1] = ids >> 8
                self._columns = columns
            return self._columns

    def columns_by_set(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the answers by candidate again, with the probes grouped by multiset
        (`CodeSpace.multiset`; probe order within a multiset), for `_kernels.optimal.
        _tiny_scan`, which then reads only the probes of the multisets it cannot rule out,
        in runs: (columns ``[candidate, i]``, where each multiset's probes start (one entry
        per multiset and one past the last), and each grouped probe's place in probe order
        (i of `columns`)). Made once and shared, like `columns`; black/white answers in
        bytes only (`sets_in_columns`)."""
        if not self.sets_in_columns:
            raise ValueError("a view's columns are grouped by multiset only with black/white "
                             "answers in bytes and at most 65,536 multisets.")
        columns = self.columns()
        with self._columns_lock:
            if self._by_sets is None:
                ids = columns[self.m].astype(np.uint16) | (
                    columns[self.m + 1].astype(np.uint16) << np.uint16(8))
                # (a stable sort of 16-bit keys: numpy's radix sort)
                ranks = np.argsort(ids, kind="stable").astype(np.int32)
                starts = np.zeros(self.space.common.shape[0] + 1, dtype=np.int64)
                np.cumsum(np.bincount(ids, minlength=starts.size - 1), out=starts[1:])
                grouped = np.empty((self.m, ranks.size), dtype=self._table.dtype)
                kpart.gather_along(columns, ranks, grouped)
                self._by_sets = (grouped, starts, ranks)
            return self._by_sets

    @property
    def sets_in_columns(self) -> bool:
        """Whether `columns` ends with the rows of each probe's multiset id."""
        space = self.space
        return (self.rules.feedback == "blackwhite" and space.common.shape[0] > 0
                and self._table.dtype == np.uint8 and int(space.multiset.max()) < 1 << 16)

    def played_mask(self, guesses: list[int] | tuple[int, ...]) -> int:
        """Return the bit mask of the symbols used by `guesses` (view indices)."""
        return played_mask(self.colmask, guesses)

    def text(self, index: int) -> str:
        """Return the written form of the code at view index `index`."""
        return self.space.text(int(self.order[int(index)]))

    def partition(self, guess: int, candidates: np.ndarray) -> dict[int, np.ndarray]:
        """Return the non-empty parts of `candidates` (view indices below m) under `guess`."""
        candidates = np.asarray(candidates, dtype=INDEX_DTYPE)
        resp = self._table[int(guess), candidates]
        order = np.argsort(resp, kind="stable")
        cuts = np.flatnonzero(np.diff(resp[order])) + 1
        return {int(resp[chunk[0]]): candidates[chunk]
                for chunk in np.split(order, cuts) if chunk.size}


#: The shared spaces, by rules and the name they go by (`rules_name`): rules alike but for
#: a name of one's own (`Rules(4, 4, name="my-variant")`) get a space of their own, so that
#: neither labels the other's results.
_SPACES: dict[tuple[Rules, str], CodeSpace] = {}
_SPACES_LOCK = threading.Lock()


def get_space(rules: Rules | str) -> CodeSpace:
    """Return the shared `CodeSpace` for `rules` (a `Rules` or a preset's name; one per
    rules value in a process, also when several threads ask at once)."""
    rules = as_rules(rules)
    key = (rules, rules_name(rules))
    with _SPACES_LOCK:
        space = _SPACES.get(key)
        if space is None:
            space = _SPACES[key] = CodeSpace(rules)
        return space


def _space_again(rules: Rules, budget: int, disk_cache: bool, shared: bool) -> CodeSpace:
    """The code space a pickled one stood for (`CodeSpace.__reduce__`)."""
    if shared:
        return get_space(rules)
    return CodeSpace(rules, budget=budget, disk_cache=disk_cache)


def as_rules(rules: Any) -> Rules:
    """Return `rules` as `Rules`: a `Rules`, a preset's name (`find_rules`) or a code
    space's rules; anything else is refused in one sentence."""
    if isinstance(rules, CodeSpace):
        return rules.rules
    if isinstance(rules, Rules | str):
        return rules_of(rules)
    raise InvalidRulesError(f"rules must be Rules, a CodeSpace or a preset's name such as "
                            f"'classic', not {type(rules).__name__}.")


def as_space(rules: Any, state: Any = None) -> CodeSpace:
    """Return the shared code space of `rules` (a `Rules`, a preset's name, or a code space
    itself); with a `state` (a `GameState`), check it is a position of the same game: its
    codes are indices into that game's codes, and another game's would be read as
    others (or past the end)."""
    space = rules if isinstance(rules, CodeSpace) else get_space(rules)
    if state is not None:
        check_state_rules(space.rules, state)
    return space


def check_state_rules(rules: Rules, state: Any) -> None:
    """Raise `InvalidRulesError` unless `state` is a position of `rules` (the board's
    length aside)."""
    theirs = getattr(state, "rules", None)
    if not isinstance(theirs, Rules):
        raise InvalidRulesError(f"state must be a GameState, not {type(state).__name__}.")
    if theirs.with_max_guesses(None) != rules.with_max_guesses(None):
        raise InvalidRulesError(
            f"the state is a position of {theirs.with_max_guesses(None).describe()}, not of "
            f"{rules.with_max_guesses(None).describe()}: start it from the same rules.")
