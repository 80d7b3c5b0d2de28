"""Every size and time limit keypeg applies, in one place, named for what it bounds.

Limits protect the machine (memory, CPU) and the person waiting (seconds). A request past a
limit is refused at once with `LimitExceededError` (HTTP 413, CLI exit 2), or answered
approximately and labelled so; it is never allowed to run for minutes or exhaust memory.

Three limits can be changed from the environment: ``KEYPEG_TABLE_BUDGET`` (bytes for one
feedback table), ``KEYPEG_MEMO_BUDGET`` (bytes for the optimal search's memo, all
workers together) and ``KEYPEG_SPLIT_CODES`` (the fewest codes of a part a resumable
search solves a guess at a time). A value that is not a whole number is a clear error.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Iterable, Sequence
from typing import Any, cast

from .errors import KeypegError

# ----------------------------------------------------------------------------- rules
#: Most codes keypeg enumerates into memory (MM(8,8) has 16.8 million).
MAX_CODES = 20_000_000
#: Longest code and most symbols the notation can write.
MAX_PEGS = 12
MAX_SYMBOLS = 35

# ----------------------------------------------------------------------------- memory
#: Most codes a game may have for a whole-tree evaluation without its full feedback table
#: (one-step strategies walked part by part, `onestep.split_tree`): Codebreaker's 100,000.
SPLIT_MAX_CODES = 100_000
#: ... and with a checkpoint (each part's subtree kept on disk as it is finished, so a walk
#: of hours resumes): MM(6,9)'s 531,441 took hours per strategy on one core, and MM(8,8)
#: is 32 times bigger.
CHECKPOINT_SPLIT_MAX_CODES = 600_000
#: Default bytes for one game's full feedback table (``KEYPEG_TABLE_BUDGET`` overrides).
DEFAULT_TABLE_BUDGET = 2 * 1024**3
#: Default bytes for the optimal search's memo over all workers (``KEYPEG_MEMO_BUDGET``).
DEFAULT_MEMO_BUDGET = 1024**3
#: Spaces up to this many codes build their whole table whenever answers are needed.
SMALL_SPACE = 8192

# ----------------------------------------------------------------------------- input
#: Most clues in one history given to the web API (a game has at most a few dozen rows).
MAX_CLUES = 200
#: Most bytes in one web API request body.
MAX_BODY_BYTES = 64 * 1024
#: Most characters in one text field of a web request (a code, feedback, a rules name).
MAX_TEXT = 8 * MAX_PEGS
#: Most characters of a user's input repeated back in an error message.
MAX_ECHO = 40

# ----------------------------------------------------------------------------- hints
#: Candidates are listed in a hint when there are at most this many.
HINT_LIST = 20
#: Candidates `keypeg solve` prints before pointing at --json.
SOLVE_LIST = 50
#: Spaces up to this size get exact one-step hints whatever the position.
EXACT_HINT_CODES = 8192
#: Bigger spaces get exact hints while the one-step scoring stays under this many
#: (probe, candidate) pairs; past it each strategy chooses among sampled candidates.
EXACT_HINT_WORK = 60_000_000
#: Candidates a strategy chooses among when the exact choice is too expensive.
HINT_SAMPLE = 400
#: Most candidates the shortlist of a sampled choice is rescored against (a random draw of
#: this many when there are more).
HINT_RESCORE_CANDIDATES = 100_000
#: Seconds a hint may spend searching for the optimal guess off the stored trees.
HINT_OPTIMAL_SECONDS = 1.0
#: A live optimal search (hints, the optimal strategy in a game) is tried only for at most
#: this many candidates...
LIVE_OPTIMAL_CANDIDATES = 600
#: ... and gives up after this many seconds when no other limit is given.
LIVE_OPTIMAL_SECONDS = 5.0
#: ... in games of at most this many codes (MM(6,9)'s 531,441; past it every code against
#: even a few candidates is too many answers to compute for a hint: MM(8,8)).
LIVE_OPTIMAL_CODES = 600_000
#: The most candidates the optimal guess is bounded from the candidates alone
#: (`solver.endgame`) where the search cannot run or finish: their answers are m x m
#: (600 candidates: 0.36 million answers, a few hundredths of a second).
ENDGAME_MAX_CODES = 600
#: Most seconds the page's "search longer" for the optimal guess may take (POST
#: /api/optimal: one such search at a time per server process).
LONG_OPTIMAL_SECONDS = 60.0

# ----------------------------------------------------------------------------- labs
#: Secrets played by each strategy in a sampled (approximate) lab.
LAB_SAMPLE_GAMES = 40
#: Seconds a sampled lab may take in all (and a web request's optimal search for the tree
#: explorer or the first-guess table, per search).
LAB_SECONDS = 15.0
#: Decision trees the web server keeps ready for the tree explorer (the least recently
#: used one goes first); MM(4,7)'s optimal tree and its index take under 1 MB.
EXPLORER_TREES = 12
#: Seconds `keypeg report` gives each optimal search it needs (the optimum, the optimum
#: after each first guess) by default; a search past it leaves its cell empty, said so.
REPORT_OPTIMAL_SECONDS = 30.0

# ----------------------------------------------------------------------------- game value
#: The web computes a game value that does not ship with keypeg only for spaces of at most
#: this many codes (classic's 1,296 takes some seconds; the next preset is 5,040)...
LIVE_VALUE_CODES = 1296
#: ... and gives up after this many seconds (`keypeg value` has no such limit).
LIVE_VALUE_SECONDS = 20.0

# ----------------------------------------------------------------------------- search
#: A strategy that needs more guesses than this for some secret is reported as looping.
MAX_GUESSES_PER_GAME = 60
#: Subset checks spent looking for a smallest contradiction (times the distinct patterns)
#: before settling for a minimal, not necessarily smallest, one.
CONFLICT_WORK = 20_000_000
#: ... and at most this many subset checks, whatever their size (each costs some 17 us of
#: Python: 35 clues of MM(1,35), 35 patterns, had taken 571,000 checks and 10 s).
CONFLICT_CHECKS = 20_000
#: Sets at least this big are solved with the parts of each first guess on both cores.
PARALLEL_MIN_CODES = 2000
#: Sets at least this big whose root has many first guesses (a position) share them out
#: between both cores (`solver.parallel.share_root`); smaller ones take milliseconds.
SHARED_ROOT_MIN_CODES = 100

# ----------------------------------------------------------------------------- web caches
#: Positions and hints each server process keeps in memory.
CACHED_POSITIONS = 5000


def _env_whole(name: str, default: int, unit: str = "bytes", least: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise KeypegError(
            f"{name} must be a whole number of {unit}, like {default}, not {shorten(raw)!r}."
        ) from None
    if value < least:
        raise KeypegError(f"{name} must be {'zero' if least == 0 else least} or more "
                          f"{unit}, not {value}.")
    return value


def table_budget() -> int:
    """Return the memory budget for one feedback table, in bytes (``KEYPEG_TABLE_BUDGET``)."""
    return _env_whole("KEYPEG_TABLE_BUDGET", DEFAULT_TABLE_BUDGET)


def memo_budget() -> int:
    """Return the memory budget of the optimal search's memo, in bytes
    (``KEYPEG_MEMO_BUDGET``)."""
    return _env_whole("KEYPEG_MEMO_BUDGET", DEFAULT_MEMO_BUDGET)


def split_codes(default: int) -> int:
    """Return the fewest codes of a part that a checkpointed search solves a guess at a
    time, each part of its guesses recorded as it finishes (``KEYPEG_SPLIT_CODES``, else
    `default`): fewer codes lose less of a killed run and cost more to search (see
    `solver.roots.SPLIT_MIN_CODES`)."""
    return _env_whole("KEYPEG_SPLIT_CODES", default, "codes", 3)


def shorten(text: object, limit: int = MAX_ECHO) -> str:
    """Return `text` as a string of at most `limit` characters (a long input is cut in the
    middle, so an error message never repeats a huge input back)."""
    s = str(text)
    if len(s) <= limit:
        return s
    keep = max(1, limit - 5) // 2
    return f"{s[:keep]} ... {s[-keep:]}" if keep > 1 else s[:limit]


def plural(n: float, one: str, many: str | None = None) -> str:
    """Return '1 code', '2 codes', '1,296 codes', '2.5 seconds'."""
    word = one if n == 1 else (many or one + "s")
    return f"{int(n):,} {word}" if float(n).is_integer() else f"{n:g} {word}"


def some_of(items: Sequence[str], most: int, noun: str = "answer") -> str:
    """Return the items as a choice in a sentence, past `most` the rest counted: '0B1W,
    1B0W or 3 other answers', '0B1W or 1B0W' (a list cut to ', ...' ended its sentence in
    four dots; one item left out was counted as '1 other answer' instead of shown)."""
    if len(items) <= most + 1:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
    return ", ".join(items[:most]) + f" or {plural(len(items) - most, 'other ' + noun)}"


def percent(p: float) -> str:
    """Return a probability as a percentage for people: '12.3%', and a small one with
    three significant figures, '0.00123%' (not '0.0%'); 0 is '0%'."""
    if p == 0:
        return "0%"
    return f"{100 * p:.1f}%" if p >= 0.001 else f"{100 * p:.3g}%"


def bytes_text(n: float) -> str:
    """Return a byte count for people: '1.0 GiB', '256 TiB', '640 KiB'."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:,.0f} {unit}" if unit == "bytes" or n >= 100 else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def shown(value: object) -> str:
    """Return a value as an error message echoes it: a text quoted, anything else as
    written (``'abc'``, ``2.5``, ``None``), cut to `MAX_ECHO` characters."""
    return repr(shorten(value)) if isinstance(value, str) else shorten(value)


def check_max_seconds(value: float | None, option: str = "--max-seconds") -> None:
    """Raise `KeypegError` unless `value` is None or a positive number of seconds."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise KeypegError(f"{option} must be a positive number of seconds, not "
                          f"{shown(value)}.")
    if not value > 0:
        raise KeypegError(f"{option} must be a positive number of seconds, not {value:g}.")


#: Seconds `keypeg tree` and `keypeg evaluate` search for an optimal tree keypeg does not
#: ship (super's searched with no end in sight; `keypeg optimal` takes --max-seconds).
OPTIMAL_TREE_SECONDS = 60.0


def whole_numbers(values: object) -> tuple[int, ...] | None:
    """Return `values` as a tuple of ints when each is a whole number (a Python or numpy
    integer; not a bool, a float or a text, and not a text itself), else None."""
    if isinstance(values, (str, bytes)):
        return None
    try:
        items = tuple(cast(Iterable[Any], values))
        if any(isinstance(v, bool) for v in items):
            return None
        return tuple(operator.index(v) for v in items)
    except TypeError:
        return None


def check_flag(option: str, value: object,
               error: type[KeypegError] = KeypegError) -> None:
    """Raise `error` unless `value` is True or False (a numpy bool too: its dtype's kind is
    "b"): a text such as 'no' would read as true."""
    if not isinstance(value, bool) and getattr(getattr(value, "dtype", None), "kind",
                                               None) != "b":
        raise error(f"{option} must be True or False, not {shown(value)}.")


def check_count(option: str, value: object, least: int = 1) -> None:
    """Raise `KeypegError` unless `value` is a whole number of at least `least` (a Python
    or numpy integer; not a bool, a float or a text)."""
    try:
        if isinstance(value, bool):
            raise TypeError
        value = operator.index(cast(Any, value))
    except TypeError:
        raise KeypegError(f"{option} must be a whole number of at least {least}, not "
                          f"{shown(value)}.") from None
    if value < least:
        raise KeypegError(f"{option} must be at least {least}, not {value}.")


def check_seed(value: int | None, option: str = "--seed") -> None:
    """Raise `KeypegError` unless `value` is None or a whole number from 0 to 2**63 - 1."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise KeypegError(f"{option} must be a whole number from 0 to {2**63 - 1:,}, not "
                          f"{shown(value)}.")


def usable_cores() -> int:
    """Return the CPU cores this process may run on (its affinity, so `taskset -c 1` gives
    1; the machine's count where affinity is unknown)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1
