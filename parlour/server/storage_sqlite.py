"""The SQLite journal: a file in WAL mode, one connection behind a lock, a journal batch
(``parlour.server.batch``) in one transaction."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parlour.server.storage_base import (
    _SCHEMA,
    StorageError,
    _call,
    _check_durability,
    _Duplicate,
    _SqlStorage,
)


class SQLiteStorage(_SqlStorage):
    """A SQLite file in WAL mode.

    ``durability="normal"`` (``PRAGMA synchronous=NORMAL``, the default): a committed action
    survives the process being killed; power loss or an OS crash can lose the last few commits.
    ``durability="full"`` (``synchronous=FULL``): a commit also survives power loss, at the cost
    of an fsync per commit.
    """

    concurrency = 1

    def __init__(self, path: str, durability: str = "normal") -> None:
        self.durability = _check_durability(durability)
        query = "" if self.durability == "normal" else "?synchronous=full"
        self.url = f"sqlite:///{path}{query}"
        self.path = path
        # re-entrant: a batch (``run_batch``) holds it around the calls it runs
        self._lock = threading.RLock()
        #: batches run as one transaction, and their commits (for tests and the curious)
        self.group_commits = 0
        if path != ":memory:":
            _check_sqlite_path(path)
        try:
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open the SQLite database {path}: {exc}") from exc
        try:
            self._setup()
        except sqlite3.Error as exc:
            self._conn.close()
            if "not a database" in str(exc) or "malformed" in str(exc):
                raise StorageError(
                    f"{path} is not a SQLite database (or is corrupt): {exc}"
                ) from exc
            raise StorageError(f"cannot open the SQLite database {path}: {exc}") from exc

    def _setup(self) -> None:
        conn = self._conn
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self.durability.upper()}")
        for stmt in _SCHEMA:
            conn.execute(stmt)
        # a journal made before actions had a chain column
        columns = {row[1] for row in conn.execute("PRAGMA table_info(parlour_actions)")}
        if "chain" not in columns:
            try:
                conn.execute("ALTER TABLE parlour_actions ADD COLUMN chain TEXT")
            except sqlite3.OperationalError as exc:
                if "duplicate column" not in str(exc):  # another process added it just now
                    raise
        # --- issue 33 hook: the numbered migrations (players, matches, ratings) ---
        from parlour.server import schema

        schema.migrate_sqlite(conn)

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            try:
                cur = self._conn.execute(sql, params)
                return cur.fetchall()
            except sqlite3.IntegrityError as exc:
                if "UNIQUE" in str(exc):
                    raise _Duplicate(f"SQLite: {exc}") from exc
                raise StorageError(f"SQLite: {exc}") from exc
            except sqlite3.Error as exc:
                raise StorageError(f"SQLite ({self.path}): {exc}") from exc

    def run_batch(self, calls: list[Callable[[], Any]]) -> list[tuple[bool, Any]]:
        """Run the calls of one journal batch (``parlour.server.batch``) in one transaction: one
        commit for the batch instead of one per call (a SQLite commit costs several times an
        append).  Each call runs in a savepoint of its own, so one that fails (a duplicate, a
        bad row) leaves nothing behind and the others are kept.  The results are returned only
        once the commit has returned: a caller is still told only of what is committed, and if
        the commit fails every call of the batch fails (nothing of it was committed)."""
        with self._lock:
            if len(calls) < 2 or self._conn.in_transaction:
                return [_call(fn) for fn in calls]
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error:  # busy, read-only, …: each call on its own, as before
                return [_call(fn) for fn in calls]
            try:
                out: list[tuple[bool, Any]] = []
                for fn in calls:
                    self._conn.execute("SAVEPOINT parlour_call")
                    result = _call(fn)
                    if not result[0]:
                        self._conn.execute("ROLLBACK TO parlour_call")
                    self._conn.execute("RELEASE parlour_call")
                    out.append(result)
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                failed = StorageError(f"SQLite ({self.path}): a batch was not committed: {exc}")
                return [(False, failed)] * len(calls)
            self.group_commits += 1
            return out

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _check_sqlite_path(path: str) -> None:
    """Refuse, with a message that says what is wrong, a path SQLite cannot use."""
    p = Path(path)
    if p.is_dir():
        raise StorageError(f"{path} is a directory, not a SQLite database file")
    if p.exists():
        if not os.access(p, os.R_OK | os.W_OK):
            raise StorageError(f"{path} cannot be read and written (permission denied)")
        return
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(
            f"cannot create the folder for the SQLite database {path}: {exc}"
        ) from exc
    if not os.access(p.parent, os.W_OK):
        raise StorageError(f"cannot create {path}: its folder is not writable")
