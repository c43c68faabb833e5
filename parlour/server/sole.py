"""One server per journal, unless the processes share it through Redis (issue 31, hole 4).

Two ``parlour serve`` processes on one journal without ``--redis`` do not know of each other: the
second would replay each table as it was and serve that frozen copy (its moves refused as the
first process's journal rows took their numbers).  So a server holds a lock on its journal for as
long as it runs, and a second one is refused at start (``parlour serve`` exits with code 2):

- **PostgreSQL**: an advisory lock of the database, named after the journal's schema, on a
  connection of its own.  A lone server takes it *exclusive*; each process of a cluster
  (``--redis``, which shares the tables through the leases of :mod:`parlour.server.leases`) takes
  it *shared*: cluster processes start side by side, a lone server and a cluster never do.  The
  database drops the lock with the connection, so a killed server's lock goes with its socket
  (no waiting out an expiry, as the leases' ``ttl`` would make a restarted server do).
- **SQLite**: an exclusive ``flock`` on ``<file>.server-lock`` beside the database, which the
  system drops when the process ends however it ends.  (SQLite has no leases or cluster.)
"""

from __future__ import annotations

import contextlib
from typing import Any

from parlour.server.storage import StorageError

#: what the advisory lock is named after (with the journal's schema)
_LOCK_NAME = "parlour journal: "


class JournalBusy(StorageError):
    """Another server already serves this journal."""


class SoleLock:
    """The lock a server holds on its journal; :meth:`release` (or the process ending) drops it."""

    def __init__(self, handle: Any, kind: str) -> None:
        self._handle = handle
        self.kind = kind

    def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is None:
            return
        if self.kind != "file":
            # PostgreSQL: unlock before closing; a closed connection's backend lets go of its
            # advisory locks only when it has exited, a moment later (a server started right
            # after this one stopped was refused in that moment, and CI's test_sole once)
            with contextlib.suppress(Exception):
                handle.execute("SELECT pg_advisory_unlock_all()")
        with contextlib.suppress(Exception):
            handle.close()


def hold(url: str, *, shared: bool = False) -> SoleLock | None:
    """Take the journal's lock (``shared``: as one process of a cluster), or raise
    :class:`JournalBusy` naming what holds it.  ``None`` for a journal nobody else can open (a
    SQLite database in memory)."""
    if url.startswith(("postgresql://", "postgres://")):
        return _hold_pg(url, shared)
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///").partition("?")[0]
        if path in ("", ":memory:"):
            return None
        return _hold_file(path)
    return None


def _hold_file(path: str) -> SoleLock:
    try:
        import fcntl
    except ImportError:  # Windows: no flock; one process per file is the operator's to keep
        return SoleLock(None, "none")
    f = open(f"{path}.server-lock", "a+")  # noqa: SIM115 -- held open as long as the lock
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise JournalBusy(
            f"another parlour server is already serving the journal {path}: stop it first "
            "(SQLite serves one process; several processes need PostgreSQL and --redis)"
        ) from None
    return SoleLock(f, "file")


def _hold_pg(url: str, shared: bool) -> SoleLock:
    import psycopg

    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
    except psycopg.Error as exc:
        raise StorageError(f"cannot connect to PostgreSQL to lock the journal: {exc}") from exc
    fn = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
    try:
        row = conn.execute(
            f"SELECT {fn}(hashtext(%s || current_schema())), current_schema()", (_LOCK_NAME,)
        ).fetchone()
    except psycopg.Error as exc:
        conn.close()
        raise StorageError(f"cannot lock the journal in PostgreSQL: {exc}") from exc
    if row is None or not row[0]:
        conn.close()
        schema = row[1] if row else "?"
        if shared:
            what = (
                "a parlour server without --redis is serving this journal (schema "
                f"{schema}); stop it before starting processes that share it"
            )
        else:
            what = (
                f"another parlour server is already serving this journal (schema {schema}): "
                "two processes on one journal need --redis (both of them), else stop the other"
            )
        raise JournalBusy(what)
    return SoleLock(conn, "shared" if shared else "exclusive")
