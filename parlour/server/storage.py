"""The journal: every table as (game, rules JSON, engine version, seed, seats, actions in order).

The table state is never stored, only replayed from the journal, so a restarted server serves each
table exactly as it was.  An action is committed here before any connection hears of it.

Two backends behind one interface: SQLite (a file, the default) and PostgreSQL (psycopg 3, a
small connection pool).  Methods are blocking and thread-safe; the server calls them from worker
threads (at most ``storage.concurrency`` at a time do useful work) so the event loop never waits
on the disk.  Besides the actions, a table has an append-only list of records (``add_record``):
numbered events of any kind, kept in order.

>>> store = open_storage("sqlite:///:memory:")
>>> store.create_table(TableMeta("ABC123", "toy", "toy", {"players": 2}, 1, 7, [], "waiting",
...                              "", 1.0))
>>> store.append_action("ABC123", 0, {"type": "Draw"}, 1, 2.0)
>>> store.append_action("ABC123", 1, {"type": "Pass"}, 0, 3.0, chain="9f86d0")
>>> meta, actions = store.load_table("ABC123")
>>> meta.seed, actions[0].action, actions[0].chain, actions[1].chain
(7, {'type': 'Draw'}, None, '9f86d0')
>>> store.add_record("ABC123", "deal_reveal", {"hand": 1}, 4.0)
0
>>> store.add_record("ABC123", "chat", {"text": "gg"}, 5.0)
1
>>> [(r.seq, r.kind, r.data) for r in store.records("ABC123")]
[(0, 'deal_reveal', {'hand': 1}), (1, 'chat', {'text': 'gg'})]
>>> store.concurrency
1
>>> store.close()
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import select
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import parse_qs, urlparse

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool


class StorageError(Exception):
    """The journal could not be read or written."""


class JournalTimeout(StorageError):
    """The database did not answer within the deadline: the call may or may not have been
    written (the caller must read the journal again before it relies on it)."""


class CorruptJournal(StorageError):
    """A table's journal is damaged for good (a move missing): not a database that is away for
    a moment, so the table is answered 410, not 503."""


class _Duplicate(StorageError):
    """A row with that key is already there (an action index, a record number)."""


#: a write whose key is taken (an action index already journaled: the memory is behind)
Duplicate = _Duplicate


@dataclass
class TableMeta:
    """What a table is, apart from its actions."""

    code: str
    game: str
    preset: str
    rules: dict[str, Any]
    engine_version: int
    seed: int
    seats: list[dict[str, Any]]
    status: str
    name: str
    created: float
    updated: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class JournalEntry:
    index: int
    action: dict[str, Any]
    seat: int | None
    ts: float
    chain: str | None = None


@dataclass(frozen=True)
class Record:
    """One entry of a table's append-only record list."""

    seq: int
    kind: str
    data: dict[str, Any]
    ts: float


DURABILITY = ("normal", "full")


class Storage(ABC):
    """The storage interface both backends implement."""

    url: str
    #: how many calls can usefully run at the same time (size a worker thread pool with it)
    concurrency: int

    @abstractmethod
    def create_table(self, meta: TableMeta) -> None: ...

    @abstractmethod
    def update_table(
        self, code: str, seats: list[dict[str, Any]], status: str, updated: float
    ) -> None: ...

    @abstractmethod
    def append_action(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> None:
        """Journal the ``index``-th action of a table (fails if that index is already taken);
        ``chain`` is an optional text kept with it (e.g. a hash chaining the journal)."""

    @abstractmethod
    def load_table(self, code: str) -> tuple[TableMeta, list[JournalEntry]] | None: ...

    @abstractmethod
    def codes(self, *, active: bool) -> list[str]:
        """Codes of the tables still waiting or playing (``active``) or of every table."""

    @abstractmethod
    def add_record(self, code: str, kind: str, data: dict[str, Any], ts: float) -> int:
        """Append a record to the table's list and return its number (0, 1, 2, … per table).
        Safe with several writers at once: each record gets its own number."""

    @abstractmethod
    def records(self, code: str) -> list[Record]:
        """The table's records in order of their numbers."""

    @abstractmethod
    def close(self) -> None: ...


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS parlour_tables (
        code TEXT PRIMARY KEY, game TEXT NOT NULL, preset TEXT NOT NULL, rules TEXT NOT NULL,
        engine_version INTEGER NOT NULL, seed BIGINT NOT NULL, seats TEXT NOT NULL,
        status TEXT NOT NULL, name TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL, extra TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS parlour_actions (
        code TEXT NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL, seat INTEGER,
        ts DOUBLE PRECISION NOT NULL, chain TEXT, PRIMARY KEY (code, idx))""",
    """CREATE TABLE IF NOT EXISTS parlour_records (
        code TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
        ts DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, seq))""",
)

_META_COLUMNS = (
    "code, game, preset, rules, engine_version, seed, seats, status, name, created, updated, extra"
)

# how often add_record retries when a concurrent writer took the number it computed
_RECORD_RETRIES = 50


def _meta_row(meta: TableMeta) -> tuple[Any, ...]:
    return (
        meta.code,
        meta.game,
        meta.preset,
        json.dumps(meta.rules),
        meta.engine_version,
        meta.seed,
        json.dumps(meta.seats),
        meta.status,
        meta.name,
        meta.created,
        meta.updated or meta.created,
        json.dumps(meta.extra),
    )


def _meta_from_row(row: Any) -> TableMeta:
    return TableMeta(
        code=row[0],
        game=row[1],
        preset=row[2],
        rules=json.loads(row[3]),
        engine_version=int(row[4]),
        seed=int(row[5]),
        seats=json.loads(row[6]),
        status=row[7],
        name=row[8],
        created=float(row[9]),
        updated=float(row[10]),
        extra=json.loads(row[11]),
    )


class _SqlStorage(Storage):
    """Shared SQL of both backends; ``_p`` is the driver's parameter marker."""

    _p = "?"

    @abstractmethod
    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Run one statement in its own transaction; its rows (or [])."""

    def _sql(self, sql: str) -> str:
        return sql.replace("?", self._p)

    def create_table(self, meta: TableMeta) -> None:
        marks = ", ".join("?" * 12)
        self._execute(
            self._sql(f"INSERT INTO parlour_tables ({_META_COLUMNS}) VALUES ({marks})"),
            _meta_row(meta),
        )

    def update_table(
        self, code: str, seats: list[dict[str, Any]], status: str, updated: float
    ) -> None:
        self._execute(
            self._sql(
                "UPDATE parlour_tables SET seats = ?, status = ?, updated = ? WHERE code = ?"
            ),
            (json.dumps(seats), status, updated, code),
        )

    def append_action(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> None:
        self._execute(
            self._sql(
                "INSERT INTO parlour_actions (code, idx, action, seat, ts, chain) "
                "VALUES (?, ?, ?, ?, ?, ?)"
            ),
            (code, index, json.dumps(action, ensure_ascii=False), seat, ts, chain),
        )

    def load_table(self, code: str) -> tuple[TableMeta, list[JournalEntry]] | None:
        rows = self._execute(
            self._sql(f"SELECT {_META_COLUMNS} FROM parlour_tables WHERE code = ?"), (code,)
        )
        if not rows:
            return None
        meta = _meta_from_row(rows[0])
        acts = self._execute(
            self._sql(
                "SELECT idx, action, seat, ts, chain FROM parlour_actions WHERE code = ? "
                "ORDER BY idx"
            ),
            (code,),
        )
        entries = [JournalEntry(int(r[0]), json.loads(r[1]), r[2], float(r[3]), r[4]) for r in acts]
        for i, e in enumerate(entries):
            if e.index != i:
                raise CorruptJournal(
                    f"table {code}: the journal has a gap at action {i} (move {i + 1} is "
                    "missing): the table cannot be played back"
                )
        return meta, entries

    def codes(self, *, active: bool) -> list[str]:
        if active:
            rows = self._execute(
                self._sql(
                    "SELECT code FROM parlour_tables WHERE status NOT IN (?, ?) ORDER BY created"
                ),
                ("finished", "expired"),
            )
        else:
            rows = self._execute("SELECT code FROM parlour_tables ORDER BY created")
        return [r[0] for r in rows]

    def add_record(self, code: str, kind: str, data: dict[str, Any], ts: float) -> int:
        # the number is computed and taken in one statement; two writers computing the same
        # number at once make one of them hit the primary key, and that one tries again
        sql = self._sql(
            "INSERT INTO parlour_records (code, seq, kind, data, ts) "
            "SELECT ?, COALESCE(MAX(seq) + 1, 0), ?, ?, ? FROM parlour_records WHERE code = ? "
            "RETURNING seq"
        )
        params = (code, kind, json.dumps(data, ensure_ascii=False), ts, code)
        for _ in range(_RECORD_RETRIES):
            try:
                rows = self._execute(sql, params)
            except _Duplicate:
                continue
            return int(rows[0][0])
        raise StorageError(
            f"table {code}: could not number a record after {_RECORD_RETRIES} tries "
            "(too many concurrent writers)"
        )

    def records(self, code: str) -> list[Record]:
        rows = self._execute(
            self._sql(
                "SELECT seq, kind, data, ts FROM parlour_records WHERE code = ? ORDER BY seq"
            ),
            (code,),
        )
        return [Record(int(r[0]), r[1], json.loads(r[2]), float(r[3])) for r in rows]


def _check_durability(durability: str) -> str:
    value = durability.lower()
    if value not in DURABILITY:
        raise StorageError(
            f"unknown durability {durability!r}: use 'normal' (the default) or 'full'"
        )
    return value


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


def _call(fn: Callable[[], Any]) -> tuple[bool, Any]:
    try:
        return True, fn()
    except Exception as exc:
        return False, exc


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


#: several tables' action appends in one statement (six text/number arrays, one row a table);
#: also what ``parlour.server.pgloop`` sends from the event loop (numbered by :func:`numbered`)
APPEND_MANY_SQL = (
    "INSERT INTO parlour_actions (code, idx, action, seat, ts, chain) "
    "SELECT * FROM unnest(%s::text[], %s::int[], %s::text[], %s::int[], "
    "%s::float8[], %s::text[])"
)


def numbered(sql: str) -> str:
    """``sql`` with its ``%s`` placeholders (psycopg's) as ``$1``, ``$2``, … (libpq's, for a
    statement prepared by hand)."""
    count = iter(range(1, sql.count("%s") + 1))
    return re.sub("%s", lambda _: f"${next(count)}", sql)


class PostgresStorage(_SqlStorage):
    """PostgreSQL through psycopg 3: a pool of 1 to ``pool_size`` connections.  A call on its own
    is one statement in its own transaction (autocommit); the calls of a journal batch
    (``run_batch``) share one transaction and one commit.

    ``timeout``: seconds to wait for a connection (opening the storage, or a call while every
    connection is busy or the server is down); ``statement_timeout``: seconds one statement may
    run.  A connection taken from the pool after more than ``_CHECK_IDLE`` seconds unused is
    checked first (an empty query) and replaced if the server dropped it; one in steady use is not
    (that check was a round trip per statement), so a connection dropped moments after its last
    use fails the call (or batch) that meets it, and is replaced.  Every database error is raised
    as :class:`StorageError`.
    """

    _p = "%s"

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 4,
        timeout: float = 5.0,
        statement_timeout: float = 10.0,
    ) -> None:
        try:
            import psycopg
            from psycopg.conninfo import conninfo_to_dict, make_conninfo
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise StorageError(
                "a PostgreSQL journal needs psycopg and psycopg-pool, the postgres extra: "
                "uv sync --extra postgres; without them use sqlite:///path/file.db"
            ) from None

        if pool_size < 1:
            raise StorageError(f"pool_size must be at least 1, not {pool_size}")
        self.url = url
        self.concurrency = pool_size
        self.timeout = timeout
        self.statement_timeout = statement_timeout
        try:
            params = conninfo_to_dict(url)
        except psycopg.Error as exc:
            raise StorageError(f"bad PostgreSQL URL {_safe_url(url)}: {exc}") from exc
        options = (
            f"{params.get('options') or ''} -c statement_timeout={int(statement_timeout * 1000)}"
        )
        # a connection cut silently (packets dropped, no RST) must fail, not hang: probe an idle
        # one after a few seconds, and give up on data not acknowledged within the statement's
        # own limit (a URL that sets any of these keeps its own)
        alive = {
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 3,
            "tcp_user_timeout": int((statement_timeout + timeout) * 1000),
        }
        conninfo = make_conninfo(
            url,
            options=options.strip(),
            application_name=params.get("application_name") or "parlour",
            connect_timeout=max(1, round(timeout)),
            **{k: v for k, v in alive.items() if k not in params},
        )
        #: the longest a caller waits for a call's answer (a connection, then the statement),
        #: counted by the server (``TableServer.db``): a database that went silent is answered
        #: ``unavailable`` after it, whatever TCP does
        self.deadline = timeout + statement_timeout
        self._conninfo = conninfo
        #: the connection of the batch this thread is running (``run_batch``), if any
        self._batch = threading.local()
        #: batches run as one transaction, and their commits (for tests and the curious)
        self.group_commits = 0
        where = _safe_url(url)
        # one plain connection first: an unreachable server fails here, fast and with the
        # reason libpq gives (the pool would only say that it timed out)
        try:
            conn = psycopg.connect(conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise StorageError(
                f"cannot connect to PostgreSQL at {where}: the database is not reachable: {exc}"
            ) from exc
        try:
            with conn:
                _create_pg_schema(conn)
        except psycopg.Error as exc:
            raise StorageError(
                f"PostgreSQL at {where}: cannot create or update the journal tables: {exc}"
            ) from exc
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True},
            timeout=timeout,
            configure=_stamp,
            check=_check_if_idle,
            name="parlour",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except psycopg.Error as exc:
            self._pool.close(timeout=1)
            raise StorageError(
                f"cannot connect to PostgreSQL at {where}: the database is not reachable: {exc}"
            ) from exc

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        import psycopg

        batch = getattr(self._batch, "conn", None)
        if batch is not None:
            return self._execute_in_batch(batch, sql, params)
        try:
            with self._pool.connection() as conn:
                cur = conn.execute(sql, params)
                return cur.fetchall() if cur.description else []
        except Exception as exc:
            if isinstance(exc, psycopg.Error) or _is_pool_timeout(exc):
                self._sweep_if_lost(exc)
                raise self._error(exc) from exc
            raise

    def _execute_prepared(
        self, name: bytes, sql: str, params: list[bytes | None]
    ) -> list[tuple[bytes | None, ...]]:
        """:meth:`_execute` of one hot statement (an action's append) straight through libpq:
        prepared once per connection under ``name``, its parameters and rows as text bytes.
        The same connections, transactions, savepoints and errors as :meth:`_execute`, at a
        third of the Python CPU (psycopg's cursor, adaptation and wait layers cost ~0.08 ms a
        statement, more than the statement's own round trip)."""
        import psycopg

        batch = getattr(self._batch, "conn", None)
        if batch is not None:
            try:
                return _exec_prepared(batch, name, sql, params)
            except psycopg.Error as exc:
                error = self._error(exc)
                if not (batch.closed or batch.broken):
                    try:
                        batch.execute("ROLLBACK TO SAVEPOINT parlour_call")
                    except psycopg.Error as lost:
                        raise self._error(lost) from lost
                raise error from exc
        try:
            with self._pool.connection() as conn:
                return _exec_prepared(conn, name, sql, params)
        except Exception as exc:
            if isinstance(exc, psycopg.Error) or _is_pool_timeout(exc):
                self._sweep_if_lost(exc)
                raise self._error(exc) from exc
            raise

    def append_action(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> None:
        self._execute_prepared(
            b"parlour_append",
            "INSERT INTO parlour_actions (code, idx, action, seat, ts, chain) "
            "VALUES ($1, $2::int, $3, $4::int, $5::float8, $6)",
            [
                code.encode(),
                b"%d" % index,
                json.dumps(action, ensure_ascii=False).encode(),
                None if seat is None else b"%d" % seat,
                repr(float(ts)).encode(),
                None if chain is None else chain.encode(),
            ],
        )

    def _sweep_if_lost(self, exc: Exception) -> None:
        """After a call met a lost connection (the server restarted, a network cut), check every
        idle connection of the pool now: the others were most likely lost with it, and the check
        on checkout tests only long-idle ones (or ones whose goodbye has already arrived), so
        without this sweep the next calls could meet them one by one."""
        import psycopg

        if not isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)) or isinstance(
            exc, (psycopg.errors.QueryCanceled, psycopg.errors.TransactionRollback)
        ):
            return
        with contextlib.suppress(Exception):
            self._pool.check()

    def _execute_in_batch(
        self, conn: psycopg.Connection[Any], sql: str, params: tuple[Any, ...]
    ) -> list[Any]:
        """One statement of a call inside a batch (in the call's savepoint)."""
        import psycopg

        try:
            cur = conn.execute(sql, params)
            return cur.fetchall() if cur.description else []
        except psycopg.Error as exc:
            error = self._error(exc)
            if not (conn.closed or conn.broken):
                # undo the failed statement so the transaction goes on (add_record tries again
                # after a duplicate number); the call's earlier statements go with it
                try:
                    conn.execute("ROLLBACK TO SAVEPOINT parlour_call")
                except psycopg.Error as lost:
                    raise self._error(lost) from lost
            raise error from exc

    def _error(self, exc: Exception) -> StorageError:
        """The StorageError saying what a psycopg (or pool) error means for the journal."""
        import psycopg

        if isinstance(exc, psycopg.errors.UniqueViolation):
            return _Duplicate(f"PostgreSQL: {exc}")
        if isinstance(exc, psycopg.errors.QueryCanceled):
            return StorageError(
                f"PostgreSQL: a statement took longer than {self.statement_timeout:g} s "
                f"(statement_timeout) and was cancelled: {exc}"
            )
        if isinstance(exc, psycopg.errors.TransactionRollback):  # a deadlock, a serialization
            return StorageError(f"PostgreSQL: {exc}")
        if _is_pool_timeout(exc):
            return StorageError(
                f"the database is not reachable: no connection to PostgreSQL at "
                f"{_safe_url(self.url)} within {self.timeout:g} s (the server is down, or all "
                f"{self.concurrency} connections stayed busy): {exc}"
            )
        if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):
            # a lost connection, or the pool closed (PoolClosed)
            return StorageError(
                f"the database is not reachable: PostgreSQL at {_safe_url(self.url)}: {exc}"
            )
        return StorageError(f"PostgreSQL: {exc}")

    def run_batch(self, calls: list[Callable[[], Any]]) -> list[tuple[bool, Any]]:
        """Run the calls of one journal batch (``parlour.server.batch``) on one connection in one
        transaction: one commit for the batch instead of one per call (a commit's WAL flush and
        round trips cost ~10 times an append).  The batch's action appends (one a table, the
        usual batch) are one multi-row ``INSERT`` (:meth:`_append_many`): one statement and no
        savepoint per action.  Each other call runs in a savepoint of its own, so one that fails
        (a duplicate, a write the lease fence refuses) leaves nothing behind and is answered with
        its error while the others are kept; if the multi-row ``INSERT`` fails (a duplicate
        index), the transaction is rolled back and the batch run again call by call, each in its
        savepoint.  The results are returned only once the COMMIT has returned: a caller is told
        only of what is committed; if the connection or the commit fails, every call of the
        batch fails (none of it is known committed)."""
        import psycopg

        if len(calls) < 2 or getattr(self._batch, "conn", None) is not None:
            return [_call(fn) for fn in calls]
        appends = self._appends(calls)
        out: list[tuple[bool, Any]] = []
        try:
            with self._pool.connection() as conn:
                after: list[Callable[[], None]] = []
                try:
                    conn.execute("BEGIN")
                    self._batch.conn = conn
                    self._batch.after = after
                    try:
                        out = self._run_calls(conn, calls, appends)
                    finally:
                        self._batch.conn = None
                        self._batch.after = None
                    conn.execute("COMMIT")
                except BaseException:
                    # the pool would roll it back too, but with a warning in the log
                    with contextlib.suppress(Exception):
                        if not conn.closed:
                            conn.execute("ROLLBACK")
                    raise
        except Exception as exc:
            if not isinstance(exc, psycopg.Error) and not _is_pool_timeout(exc):
                raise
            self._sweep_if_lost(exc)
            failed = self._error(exc)
            failed.args = (f"a journal batch was not committed: {failed}",)
            return [(False, failed)] * len(calls)
        for fn in after:
            fn()
        self.group_commits += 1
        return out

    def _after_commit(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` once what this call wrote is committed: at once for a call on its own,
        after the COMMIT for a call in a journal batch (never, if the batch is not committed)."""
        after = getattr(self._batch, "after", None)
        if after is None:
            fn()
        else:
            after.append(fn)

    def _appends(self, calls: list[Callable[[], Any]]) -> dict[int, tuple[Any, ...]] | None:
        """The batch's ``append_action`` calls (position → arguments), when they can be one
        statement: at least two, each of another table, and no other call of the batch about
        one of those tables (its order against the append would matter); else ``None``."""
        mine = self.append_action
        found: dict[int, tuple[Any, ...]] = {}
        codes: set[str] = set()
        others: list[Callable[[], Any]] = []
        for i, fn in enumerate(calls):
            if (
                isinstance(fn, functools.partial)
                and fn.func == mine
                and not fn.keywords
                and len(fn.args) in (5, 6)
                and isinstance(fn.args[0], str)
                and fn.args[0] not in codes
            ):
                found[i] = fn.args
                codes.add(fn.args[0])
            else:
                others.append(fn)
        if len(found) < 2:
            return None
        for fn in others:
            if not isinstance(fn, functools.partial):
                return None
            first = fn.args[0] if fn.args else None
            code = getattr(first, "code", first)
            if not isinstance(code, str) or code in codes:
                return None
        return found

    def _run_calls(
        self,
        conn: psycopg.Connection[Any],
        calls: list[Callable[[], Any]],
        appends: dict[int, tuple[Any, ...]] | None,
    ) -> list[tuple[bool, Any]]:
        """The calls of a batch inside its transaction (see :meth:`run_batch`)."""
        import psycopg

        out: list[tuple[bool, Any] | None] = [None] * len(calls)
        if appends is not None:
            try:
                done = self._append_many(conn, list(appends.values()))
            except Exception as exc:
                if isinstance(exc, psycopg.Error) and (conn.closed or conn.broken):
                    raise
                # a duplicate index, an action JSON cannot hold: start again, call by call
                conn.execute("ROLLBACK")
                conn.execute("BEGIN")
                self._batch.after.clear()
            else:
                for i, outcome in zip(appends, done, strict=True):
                    out[i] = outcome
        for i, fn in enumerate(calls):
            if out[i] is not None:
                continue
            conn.execute("SAVEPOINT parlour_call")
            result = _call(fn)
            if not result[0]:
                conn.execute("ROLLBACK TO SAVEPOINT parlour_call")
            out[i] = result
        return cast("list[tuple[bool, Any]]", out)

    def _append_many(
        self, conn: psycopg.Connection[Any], rows: list[tuple[Any, ...]]
    ) -> list[tuple[bool, Any]]:
        """``append_action`` of several tables in one statement; each one's outcome.  Raises
        the driver's error when the statement fails (nothing of it is written)."""
        cols: list[list[Any]] = [[], [], [], [], [], []]
        for args in rows:
            code, index, action, seat, ts = args[:5]
            cols[0].append(code)
            cols[1].append(index)
            cols[2].append(json.dumps(action, ensure_ascii=False))
            cols[3].append(seat)
            cols[4].append(ts)
            cols[5].append(args[5] if len(args) > 5 else None)
        conn.execute(APPEND_MANY_SQL, tuple(cols))
        return [(True, None)] * len(rows)

    def close(self) -> None:
        self._pool.close(timeout=5)


# a pooled connection unused for longer than this is checked (an empty query) before use
_CHECK_IDLE = 2.0


def _stamp(conn: psycopg.Connection[Any]) -> None:
    """The pool's ``configure``: a new connection counts as just used."""
    conn._parlour_used = time.monotonic()  # type: ignore[attr-defined]


def _check_if_idle(conn: psycopg.Connection[Any]) -> None:
    """The pool's ``check``, on every checkout: an empty query (a round trip) only for a
    connection unused for ``_CHECK_IDLE`` seconds (a network cut may have dropped it unnoticed)
    or one with something to read while idle (a server that terminated it, or restarted, sent its
    goodbye and closed the socket: seen by a poll, no round trip); one in steady use goes out as
    it is."""
    from psycopg_pool import ConnectionPool

    now = time.monotonic()
    if now - getattr(conn, "_parlour_used", 0.0) > _CHECK_IDLE or _readable(conn):
        ConnectionPool.check_connection(conn)
    conn._parlour_used = now  # type: ignore[attr-defined]


def _readable(conn: psycopg.Connection[Any]) -> bool:
    """Whether an idle connection's socket has something to read (or is closed)."""
    try:
        poller = select.poll()  # not select(): a busy server has sockets past its 1,024 limit
        poller.register(conn.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except Exception:
        return True  # no usable socket: let the full check decide


def _exec_prepared(
    conn: psycopg.Connection[Any], name: bytes, sql: str, params: list[bytes | None]
) -> list[tuple[bytes | None, ...]]:
    """Run the statement ``sql`` prepared as ``name`` on ``conn`` (preparing it the first time
    on this connection) with text parameters; its rows, as text bytes.  libpq's blocking calls
    let go of the interpreter lock while they wait.  Raises the psycopg error of a failed
    statement (a lost connection leaves ``conn.closed`` true: the pool drops it)."""
    from psycopg import pq

    pgconn = conn.pgconn
    prepared: set[bytes] | None = getattr(conn, "_parlour_prepared", None)
    if prepared is None:
        prepared = set()
        conn._parlour_prepared = prepared  # type: ignore[attr-defined]
    if name not in prepared:
        res = pgconn.prepare(name, sql.encode())
        if res.status != pq.ExecStatus.COMMAND_OK:
            raise _result_error(conn, res)
        prepared.add(name)
    res = pgconn.exec_prepared(name, params)  # type: ignore[arg-type]  # None is NULL
    status = res.status
    if status == pq.ExecStatus.TUPLES_OK:
        return [tuple(res.get_value(r, c) for c in range(res.nfields)) for r in range(res.ntuples)]
    if status == pq.ExecStatus.COMMAND_OK:
        return []
    raise _result_error(conn, res)


def _result_error(conn: psycopg.Connection[Any], res: Any) -> Exception:
    import psycopg

    if conn.pgconn.status == psycopg.pq.ConnStatus.BAD:
        return psycopg.OperationalError(
            f"the connection is lost: {conn.pgconn.error_message.decode(errors='replace')}"
        )
    return psycopg.errors.error_from_result(res, encoding="utf-8")


def _is_pool_timeout(exc: BaseException) -> bool:
    from psycopg_pool import PoolTimeout

    return isinstance(exc, PoolTimeout)


def _create_pg_schema(conn: psycopg.Connection[Any]) -> None:
    import psycopg

    for stmt in _SCHEMA:
        # two servers creating the schema at the same moment: the other one won (a duplicate
        # key in the catalogue, or, after waiting for the other's lock, 'type "…" already
        # exists': seen once in a two-process bench start)
        with contextlib.suppress(
            psycopg.errors.UniqueViolation,
            psycopg.errors.DuplicateObject,
            psycopg.errors.DuplicateTable,
        ):
            conn.execute(stmt)
    # a journal made before actions had a chain column; look first, so a second server
    # starting on a busy database does not queue for the table's exclusive lock
    has_chain = conn.execute(
        "SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('parlour_actions') "
        "AND attname = 'chain' AND NOT attisdropped"
    ).fetchone()
    if not has_chain:
        conn.execute("ALTER TABLE parlour_actions ADD COLUMN IF NOT EXISTS chain TEXT")
    # --- issue 33 hook: the numbered migrations (players, matches, ratings) ---
    from parlour.server import schema

    schema.migrate_pg(conn)


def _safe_url(url: str) -> str:
    parsed = urlparse(url)
    if parsed.password:
        return url.replace(f":{parsed.password}@", ":***@")
    return url


def default_db_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("parlour")) / "parlour.db"


def _sqlite_from_url(rest: str, durability: str | None) -> SQLiteStorage:
    path, _, query = rest.partition("?")
    from_url: str | None = None
    if query:
        options = parse_qs(query, keep_blank_values=True)
        unknown = set(options) - {"synchronous"}
        if unknown:
            raise StorageError(
                f"unknown SQLite URL option(s) {', '.join(sorted(unknown))}: "
                "the one option is ?synchronous=normal|full"
            )
        from_url = _check_durability(options["synchronous"][-1])
    if durability is not None:
        durability = _check_durability(durability)
        if from_url is not None and from_url != durability:
            raise StorageError(
                f"the URL says synchronous={from_url} but durability={durability!r} was asked for"
            )
    return SQLiteStorage(path, durability or from_url or "normal")


def open_storage(url: str | None = None, *, durability: str | None = None) -> Storage:
    """``sqlite:///path``, ``sqlite:///:memory:``, ``postgresql://…`` or ``None`` (the default
    SQLite file in the user data directory).

    ``durability`` (SQLite): ``"normal"`` (default) or ``"full"``, also given as
    ``sqlite:///path.db?synchronous=full``.  PostgreSQL accepts either and keeps its server's
    own setting (``synchronous_commit``, on by default: a commit survives power loss).
    """
    if url is None or url == "":
        return SQLiteStorage(str(default_db_path()), _check_durability(durability or "normal"))
    if url.startswith("sqlite:///"):
        return _sqlite_from_url(url[len("sqlite:///") :], durability)
    if url.startswith(("postgresql://", "postgres://")):
        if durability is not None:
            _check_durability(durability)
        return PostgresStorage(url)
    raise StorageError(
        f"unsupported database URL {_safe_url(url)!r}: use sqlite:///path/file.db or "
        "postgresql://user@host:port/dbname"
    )
