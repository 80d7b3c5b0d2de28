"""The store: SQLite (stdlib, WAL) for solved results, their trees, web games and matches.

This module owns the schema and its migrations (``PRAGMA user_version``). The database
lives in the user's data directory, or at ``KEYPEG_DB``.

>>> import tempfile, os
>>> s = Store(os.path.join(tempfile.mkdtemp(), "k.db"))
>>> s.put_result("demo", {"total": 5}, b"tree")
>>> s.get_result("demo")["summary"]["total"]
5
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs

from .errors import KeypegError

SCHEMA_VERSION = 5
_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE results (
        key TEXT PRIMARY KEY,
        summary TEXT NOT NULL,
        tree BLOB,
        created REAL NOT NULL
    );
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        rules TEXT NOT NULL,
        secret TEXT NOT NULL,
        history TEXT NOT NULL,
        over INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE cache (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created REAL NOT NULL
    );
    """,
    # whether a seed chose the secret (so it is predictable); the game says so
    2: """
    ALTER TABLE games ADD COLUMN seeded INTEGER NOT NULL DEFAULT 0;
    """,
    # a game's belief: the prior its secret was drawn from and the noise of its answers
    # (NULL: uniform, exact, as every game before), the seed of the answers' noise (never
    # sent), and the answers that were misreported ([{"guess", "reported", "true"}])
    3: """
    ALTER TABLE games ADD COLUMN prior TEXT;
    ALTER TABLE games ADD COLUMN noise TEXT;
    ALTER TABLE games ADD COLUMN noise_seed INTEGER;
    ALTER TABLE games ADD COLUMN wrong TEXT NOT NULL DEFAULT '[]';
    """,
    # two-player matches (keypeg.match): the whole match as JSON (secrets and seed too,
    # never sent as they are), a version that grows with every save (a save from a stale
    # copy is refused), and whether it is over; the tables before are untouched
    4: """
    CREATE TABLE matches (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        over INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    """,
    # checkpoints of optimal searches (solver/resume.py): one row per solved part of the
    # root, keyed by the search (`context`), a digest of the part's codes and symmetry
    # context, and the guesses left; its exact value (`exact` 1, with its subtree) or a
    # lower bound proven under `budget`; the tables before are untouched
    5: """
    CREATE TABLE parts (
        context TEXT NOT NULL,
        digest TEXT NOT NULL,
        guesses_left INTEGER NOT NULL,
        value INTEGER NOT NULL,
        exact INTEGER NOT NULL,
        budget INTEGER NOT NULL,
        tree BLOB,
        created REAL NOT NULL,
        PRIMARY KEY (context, digest, guesses_left)
    );
    """,
}


def default_path() -> Path:
    """Return the database path (``KEYPEG_DB`` overrides the user data directory)."""
    env = os.environ.get("KEYPEG_DB")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("keypeg")) / "keypeg.sqlite3"


#: How long `_while_busy` tries again, in all, and its pause between tries (seconds).
BUSY_SECONDS, BUSY_PAUSE = 30.0, 0.02


def _while_busy(action: Callable[[], Any]) -> Any:
    """Run `action`, again while SQLite says the database is locked or busy, for up to
    `BUSY_SECONDS`. SQLite answers some of these at once instead of waiting out the
    connection's timeout: a new file switched to WAL by two connections together (the
    checkpoint's walk and its progress watcher), one of them then refused it ("database is
    locked": 3 of 40 tries of six threads opening a new file, before)."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            return action()
        except sqlite3.OperationalError as exc:
            text = str(exc).lower()
            if ("locked" not in text and "busy" not in text) or time.monotonic() > deadline:
                raise
            time.sleep(BUSY_PAUSE)


class Store:
    """A connection to the keypeg database; safe to share between threads."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._local = threading.local()
        self._write_lock = threading.Lock()
        try:
            if path is None and not os.environ.get("KEYPEG_DB"):
                self.path.parent.mkdir(parents=True, exist_ok=True)  # the user data folder
            elif not self.path.parent.is_dir():
                # (a typo in a path of one's own made the folders it names: say so instead)
                raise FileNotFoundError(errno.ENOENT, f"no folder {str(self.path.parent)!r}")
            if self.path.is_dir():
                raise IsADirectoryError(errno.EISDIR, "a folder, not a file")
            _while_busy(lambda: self._migrate(self._conn()))
            _while_busy(lambda: self._check_writable(self._conn()))
        except (OSError, sqlite3.Error) as exc:
            conn = getattr(self._local, "conn", None)
            if conn is not None:
                conn.close()
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            named = ("KEYPEG_DB" if path is None and os.environ.get("KEYPEG_DB")
                     else "keypeg's store" if path is None else "the store")
            raise KeypegError(f"{named} {str(self.path)!r} cannot be used as keypeg's SQLite "
                              f"database ({reason}); point "
                              + ("KEYPEG_DB" if path is None else "it")
                              + " at a writable file that is new or a keypeg store.") from exc

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            _while_busy(lambda: conn.execute("PRAGMA journal_mode=WAL"))
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A write transaction. Writers in this process take turns on a lock first: two
        threads racing for SQLite's write lock would otherwise sleep in its busy handler."""
        conn = self._conn()
        with self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @staticmethod
    def _check_writable(conn: sqlite3.Connection) -> None:
        """Raise sqlite3's error now if the store cannot be written (a read-only file
        system reads it fine, and failed only when a finished search stored its result:
        the result was lost with a traceback). A write rolled back: the header's version."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            conn.execute(f"PRAGMA user_version = {version}")
        finally:
            conn.execute("ROLLBACK")

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        """Bring the schema to SCHEMA_VERSION, one migration per transaction (another
        process migrating at the same time simply wins the race)."""
        while True:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version >= SCHEMA_VERSION:
                return
            target = version + 1
            conn.execute("BEGIN IMMEDIATE")
            try:
                if conn.execute("PRAGMA user_version").fetchone()[0] == version:
                    for statement in _MIGRATIONS[target].split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {target}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    # ------------------------------------------------------------------ results
    def get_result(self, key: str) -> dict[str, Any] | None:
        """Return ``{"summary": dict, "tree": bytes | None}`` for `key`, or None."""
        row = self._conn().execute(
            "SELECT summary, tree FROM results WHERE key = ?", (key,)
        ).fetchone()
        if row is None:
            return None
        return {"summary": json.loads(row[0]), "tree": row[1]}

    def put_result(self, key: str, summary: dict[str, Any], tree: bytes | None) -> None:
        """Store (or replace) a solved result and its compressed tree."""
        with self._connect() as db:
            db.execute(
                "INSERT OR REPLACE INTO results (key, summary, tree, created) VALUES (?,?,?,?)",
                (key, json.dumps(summary), tree, time.time()),
            )

    # ------------------------------------------------------------------ search checkpoints
    def get_part(self, context: str, digest: str, guesses_left: int
                 ) -> tuple[int, bool, int, bytes | None] | None:
        """Return (value, exact, budget, tree) of a checkpointed part, or None."""
        row = self._conn().execute(
            "SELECT value, exact, budget, tree FROM parts WHERE context = ? AND digest = ? "
            "AND guesses_left = ?", (context, digest, guesses_left)).fetchone()
        return None if row is None else (int(row[0]), bool(row[1]), int(row[2]), row[3])

    def part_keys(self, context: str) -> set[tuple[str, int]]:
        """Return (digest, guesses left) of every part checkpointed for `context`."""
        rows = self._conn().execute(
            "SELECT digest, guesses_left FROM parts WHERE context = ?", (context,)).fetchall()
        return {(str(d), int(g)) for d, g in rows}

    def put_part(self, context: str, digest: str, guesses_left: int, value: int,
                 exact: bool, budget: int, tree: bytes | None) -> None:
        """Checkpoint a solved part in one transaction: an exact value is never replaced,
        a lower bound only by an exact value or a higher bound."""
        with self._connect() as db:
            db.execute(
                "INSERT INTO parts (context, digest, guesses_left, value, exact, budget, tree, "
                "created) VALUES (?,?,?,?,?,?,?,?) "
                "ON CONFLICT (context, digest, guesses_left) DO UPDATE SET "
                "value = excluded.value, exact = excluded.exact, budget = excluded.budget, "
                "tree = excluded.tree, created = excluded.created "
                "WHERE parts.exact = 0 AND (excluded.exact = 1 OR excluded.value > parts.value)",
                (context, digest, guesses_left, value, int(exact), budget, tree, time.time()))

    def count_parts(self, prefix: str) -> int:
        """Return how many parts are checkpointed for contexts starting with `prefix`."""
        row = self._conn().execute(
            "SELECT COUNT(*) FROM parts WHERE substr(context, 1, ?) = ?",
            (len(prefix), prefix)).fetchone()
        return int(row[0])

    def clear_parts(self, prefix: str) -> None:
        """Forget the checkpoints of every context starting with `prefix`."""
        with self._connect() as db:
            db.execute("DELETE FROM parts WHERE substr(context, 1, ?) = ?",
                       (len(prefix), prefix))

    def part_contexts(self) -> list[tuple[str, int, int, int, float, float]]:
        """Return, for every context with checkpointed parts, in context order: (context,
        parts, exact parts, bytes of their subtrees, first and last written, as Unix
        seconds)."""
        rows = self._conn().execute(
            "SELECT context, COUNT(*), SUM(exact), COALESCE(SUM(LENGTH(tree)), 0), "
            "MIN(created), MAX(created) FROM parts GROUP BY context ORDER BY context"
        ).fetchall()
        return [(str(c), int(n), int(e), int(b), float(f), float(la))
                for c, n, e, b, f, la in rows]

    def drop_contexts(self, contexts: list[str]) -> int:
        """Forget every part checkpointed under these contexts; return how many went."""
        with self._connect() as db:
            return sum(db.execute("DELETE FROM parts WHERE context = ?", (c,)).rowcount
                       for c in contexts)

    # ------------------------------------------------------------------ games
    def create_game(self, game_id: str, rules: str, secret: str, *,
                    seeded: bool = False, prior: str | None = None,
                    noise: str | None = None, noise_seed: int | None = None) -> None:
        """Record a new game (the secret never leaves the server); `seeded` when a seed
        chose the secret; `prior` and `noise` as written (None: uniform, exact), and the
        seed of the answers' noise (secret like the secret itself)."""
        now = time.time()
        with self._connect() as db:
            db.execute(
                "INSERT INTO games (id, rules, secret, history, over, seeded, prior, noise, "
                "noise_seed, wrong, created, updated) VALUES (?,?,?,?,0,?,?,?,?,?,?,?)",
                (game_id, rules, secret, "[]", int(seeded), prior, noise, noise_seed, "[]",
                 now, now),
            )

    def get_game(self, game_id: str) -> dict[str, Any] | None:
        """Return the game's rules, secret, history ([guess, feedback] pairs), state, prior
        and noise (None: uniform, exact), noise seed and misreported answers."""
        return _read_game(self._conn(), game_id)

    def update_game_with(
        self, game_id: str,
        play: Callable[[dict[str, Any]], tuple[Any, ...]],
    ) -> bool:
        """Read a game, let `play` compute its new (history, over) or (history, over,
        wrong answers), and save that, all in one write transaction; return False for an
        unknown game."""
        with self._connect() as db:
            game = _read_game(db, game_id)
            if game is None:
                return False
            history, over, *rest = play(game)
            wrong = rest[0] if rest else game["wrong"]
            db.execute("UPDATE games SET history = ?, over = ?, wrong = ?, updated = ? "
                       "WHERE id = ?",
                       (json.dumps(history), int(over), json.dumps(wrong), time.time(),
                        game_id))
        return True

    # ------------------------------------------------------------------ matches
    def create_match(self, match_id: str, state: dict[str, Any], *, over: bool = False
                     ) -> None:
        """Record a new match (`state`: `keypeg.match.Match.to_dict()`), at version 0."""
        now = time.time()
        with self._connect() as db:
            db.execute("INSERT INTO matches (id, state, version, over, created, updated) "
                       "VALUES (?,?,0,?,?,?)", (match_id, json.dumps(state), int(over), now,
                                                now))

    def get_match(self, match_id: str) -> dict[str, Any] | None:
        """Return ``{"state": dict, "version": int, "over": bool}`` for a match, or None."""
        row = self._conn().execute(
            "SELECT state, version, over FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        if row is None:
            return None
        return {"state": json.loads(row[0]), "version": row[1], "over": bool(row[2])}

    def update_match(self, match_id: str, state: dict[str, Any], *, over: bool,
                     version: int) -> bool:
        """Save a match read at `version` (its version then grows by one); return False,
        saving nothing, when it is unknown or was saved meanwhile by someone else."""
        with self._connect() as db:
            cur = db.execute(
                "UPDATE matches SET state = ?, over = ?, version = version + 1, updated = ? "
                "WHERE id = ? AND version = ?",
                (json.dumps(state), int(over), time.time(), match_id, version))
            return cur.rowcount == 1

    # ------------------------------------------------------------------ cache
    def get_cached(self, key: str) -> Any:
        """Return a cached JSON value, or None."""
        row = self._conn().execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put_cached(self, key: str, value: Any) -> None:
        """Cache a JSON value under `key`."""
        with self._connect() as db:
            db.execute("INSERT OR REPLACE INTO cache (key, value, created) VALUES (?,?,?)",
                       (key, json.dumps(value), time.time()))


def _read_game(db: sqlite3.Connection, game_id: str) -> dict[str, Any] | None:
    row = db.execute(
        "SELECT rules, secret, history, over, seeded, prior, noise, noise_seed, wrong "
        "FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if row is None:
        return None
    return {"rules": row[0], "secret": row[1], "history": json.loads(row[2]),
            "over": bool(row[3]), "seeded": bool(row[4]), "prior": row[5], "noise": row[6],
            "noise_seed": row[7], "wrong": json.loads(row[8] or "[]")}
