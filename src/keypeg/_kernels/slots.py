"""The arrays and slots the kernels share with Python, named in the game's words: what each
option, counter, memo column and trace field of the optimal search holds, and the tuples
that group the arrays a kernel needs (so a call passes a few named groups, not 23 arrays).

The groups are namedtuples: numba passes them to compiled functions as typed records, and
a kernel reads ``game.table`` or ``memo.entries`` by name.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

# ----------------------------------------------------------------------------- options
# Slots of a search's `options` array (int64), set once by the Python side.
OPT_ANSWERS = 0  # how many answers a guess can get (R)
OPT_WIN = 1  # the index of the winning answer
OPT_POSSIBLE_ONLY = 2  # only play codes that could be the secret
OPT_CAPPED = 3  # the number of guesses is capped (the memo then keys by guesses left)
OPT_SYMBOLS = 4  # symbols a peg can take (colours, plus one for blanks)
OPT_REPEATS = 5  # a code may repeat a symbol
OPT_SYMMETRY = 6  # score one probe per symmetry class
OPT_TRACE = 7  # record the root's decisions in the trace
OPT_FIRST_GUESS = 8  # a forced first guess, or -1
OPT_SYMMETRIC_TABLE = 9  # table[g, s] == table[s, g] (black/white feedback)
OPT_WEIGHTED = 10  # minimise the weighted total (`bounds.weights`); 0: every code counts 1
OPT_POSITIVE_SETS = 11  # the sets searched hold only codes of positive weight (codes of
#                         weight 0 ride along in the tree, see solver/search.py)
OPT_IMAGES_FROM = 12  # sets this far from the root or further are also looked up by their
#                      permuted image (canon.py); the tree's rebuild raises it to re-solve a
#                      set that was answered that way
OPT_COLUMN_COPIES = 13  # codes the copies of a view's columns may hold (its share of them)
OPT_PROBE_CODES = 14  # codes the cache of canonical probes may hold (Run.probe_cache)
OPT_ROOT_WORKER = 15  # which of the searches sharing a set's probes this one is (`Run.root_best`)
OPT_SHARE_DIST = 16  # the distance from the root of the set whose probes are shared: 0 for a
#                      position's first guesses, 1 for a part of the root (`parallel._probe`)
OPTION_SLOTS = 17

# ----------------------------------------------------------------------------- counters
# Slots of a search's `counters` array (int64), read by Python while the search runs.
N_SETS = 0  # candidate sets expanded
N_PROBES = 1  # probes scored
N_MEMO_HITS = 2
N_SHORTCUTS = 3  # sets settled in closed form
N_FIRST_GUESSES_DONE = 4  # first guesses fully explored at the root
N_FIRST_GUESSES = 5  # first guesses to explore at the root
BEST_TOTAL = 6  # the best root total found so far (0 before any)
STOP = 7  # set to 1 to make every node return its lower bound at once
N_TRACE_ROWS = 8
N_MEMO_RESETS = 9
N_PARTS_DONE = 10  # parts of the current first guess solved
N_PARTS = 11  # parts of the current first guess
LOWER_BOUND = 12  # the best lower bound proven for the root set (raised as the root's
#                   first guesses are taken, cheapest bound first)
N_CANON_CODES = 13  # codes held in the cache of canonical probes
N_COLUMN_CODES = 14  # probes held in the cache of a view's columns (Run.column_cache)
N_PROBES_FULL = 15  # 1 once the cache of canonical probes had no room for a list: from
#                     then on its lookups are counted per key (Run.probe_uses)
BEST_GUESS = 16  # the root's first guess of total BEST_TOTAL (read only when that is set)
N_PEER_HITS = 17  # sets answered from the memo of another worker (`Memo.peer_heads`)
N_SPLIT_DONE = 18  # guesses settled (costed, or passed over: cutting as one costed) of the
#                    root's part this worker solves a guess at a time (`parallel.solve_split`)
N_SPLIT = 19  # that part's guesses (its bound lets the last of them go uncosted); 0: none
COUNTER_SLOTS = 20

# ----------------------------------------------------------------------------- memo
# Columns of a memo entry (one row of `memo.entries`).
ENTRY_NEXT = 0  # the next entry in the hash chain, or -1
ENTRY_OFFSET = 1  # where the set's codes start in `memo.pool`
ENTRY_LENGTH = 2  # how many codes the set has
ENTRY_GUESSES_LEFT = 3  # guesses left (0 when uncapped)
ENTRY_VALUE = 4  # the set's cost, or a lower bound on it
ENTRY_GUESS = 5  # the optimal guess, or -1 when ENTRY_VALUE is only a lower bound
ENTRY_HASH = 6
ENTRY_COLUMNS = 7
# Slots of `memo.meta`.
MEMO_USED_ENTRIES = 0
MEMO_USED_CODES = 1
MEMO_SEQ = 2  # odd while the memo starts over: a peer reading it meanwhile ignores what it read

# ----------------------------------------------------------------------------- trace
# Kinds of trace rows (kind, probe, a, b, c, d), as seed 002's listing prints them.
TRACE_PROBE, TRACE_PART, TRACE_DONE, TRACE_PRUNED = 1, 2, 3, 4
TRACE_COLUMNS = 6

# ----------------------------------------------------------------------------- groups
#: The game's arrays: answers (table[guess, secret]), each code's symbols and colour mask,
#: the position permutations (with their inverses) the symmetry group is made of, every
#: code in the order probes are tried (int64; the space's code order, also on a view whose
#: indices differ, so ties between probes are broken the same way), and each answer's marks
#: per position (positional answers, int8 [answer, position]; no rows for black/white, whose
#: answers every element of the group keeps); and each code's index by its base-symbols key
#: (``canon.code_lookup``), or no entries when sets are not looked up by their permuted
#: image (``canon.canonical_set``: weighted searches, candidate views, blanks); on a
#: candidate view, its answers again by column, in probe order (``columns[s, t]``: probe
#: `probe_order[t]` against candidate s), else an array with no columns; with black/white
#: answers, each code's multiset of symbols (int32, by table row; no entries else) and the
#: pegs two multisets share (uint8 [multiset, multiset]); each code's inversions of first
#: appearance (``symmetry.first_inversions``; no entries when not kept); and on a candidate
#: view with those multisets, its answers by column once more with the probes grouped by
#: multiset, where each multiset's probes start and each grouped probe's place in probe
#: order (``CandidateView.columns_by_set``; no columns otherwise).
Game = namedtuple("Game", ["table", "codes", "colours", "perms", "inverse_perms",
                           "probe_order", "marks", "code_at", "columns", "code_sets",
                           "set_shared", "inversions", "set_columns", "set_starts",
                           "set_ranks"])
#: What the guesses played so far leave: the group elements that fix them (position
#: permutation index, colour map; -1 for colours free to map anywhere new), and the
#: mask of the colours played.
History = namedtuple("History", ["perms", "colour_maps", "played"])
#: Perfect-tree bounds: fewest[k, n] guesses n codes need and most[k, d] codes d guesses
#: can finish when no probe makes more than k parts; and each code's weight (int64, indexed
#: by code) when OPT_WEIGHTED is set (a one-element array otherwise, never read).
Bounds = namedtuple("Bounds", ["fewest", "most", "weights"])
#: The memo: hash heads, entries (ENTRY_* columns), the sets' codes, and its fill level;
#: then the same arrays of a peer's memo (another worker of the same search, written by its
#: thread while this one reads it: `memo.peer_find`), or no heads.
Memo = namedtuple("Memo", ["heads", "entries", "pool", "meta", "peer_heads", "peer_entries",
                           "peer_pool", "peer_meta"])
#: One search's options (OPT_*), counters (N_* and friends), trace rows, the cache of
#: canonical probes per (played, absent colours), and of a candidate view's columns for
#: those probes under the same keys, and the lookups counted per key (which lists the
#: cache keeps when full); and, when several searches share the probes of one set (the
#: root's first guesses, or a part of the root's: OPT_SHARE_DIST), a team array
#: (`team_array`) read and written by all, else an array of one entry or none.
Run = namedtuple("Run", ["options", "counters", "trace", "probe_cache", "column_cache",
                         "probe_uses", "root_best"])
ROOT_RANK_BITS = 26
ROOT_NONE = 1 << 62


def team_array(n: int) -> np.ndarray:
    """Return the array `n` searches sharing a set's probes read and write (`Run.root_best`):
    entry i < n is the best search i has found, as (total << ROOT_RANK_BITS) | the probe's
    rank in the order of exploration (ROOT_NONE before any); entry n + i its probe; entry
    2n the next rank no search has claimed. Each search claims the next rank when it is
    free to explore one, so the probes are dealt out as the searches come free, and a
    search may join while the others run. (Claims are plain reads and writes: two searches
    may claim the same rank, which costs time, never a rank.)"""
    out = np.full(2 * n + 1, ROOT_NONE, dtype=np.int64)
    out[n:2 * n] = -1
    out[2 * n] = 0
    return out


def team_winner(team: np.ndarray) -> int:
    """Return which search of `team` has found the best total so far, or -1 (none yet)."""
    winner = int(np.argmin(team[:team.shape[0] // 2]))
    return winner if int(team[winner]) < ROOT_NONE else -1


def team_best(team: np.ndarray) -> tuple[int, int]:
    """Return (total, probe) of the best any search of `team` has found, or (-1, -1)."""
    winner = team_winner(team)
    if winner < 0:
        return -1, -1
    return int(team[winner]) >> ROOT_RANK_BITS, int(team[team.shape[0] // 2 + winner])
#: The codes, as the one-step kernels need them: each code's symbols and colour mask,
#: whether symbols may repeat, how many symbols a peg can take, and the position
#: permutations of the symmetry group with their inverses and each answer's marks (as in
#: `Game`; the identity alone where codes are not in lexicographic order, a candidate view).
Codes = namedtuple("Codes", ["codes", "colours", "repeats", "symbols", "perms",
                             "inverse_perms", "marks"])
#: How a one-step strategy scores a probe: its kind (onestep.CONSISTENT...), the float
#: entropy spelling (FLOAT_ENTROPY only), the order the answers are summed in, the tie rule,
#: possible codes only, n*log2(n) in fixed point, and whether to score one probe per
#: symmetry class.
Scoring = namedtuple("Scoring", ["kind", "float_spelling", "answer_order", "tie_last",
                                 "possible_only", "entropy_table", "use_symmetry"])
