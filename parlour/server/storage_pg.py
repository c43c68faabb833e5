"""The PostgreSQL journal: psycopg 3 with a small connection pool, a journal batch in one
transaction, timeouts and keepalives so a silent database is noticed within the deadline.  The
hot append can also go from the event loop itself (``parlour.server.pgloop``)."""

from __future__ import annotations

import contextlib
import functools
import json
import re
import select
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from parlour.server.storage_base import (
    _SCHEMA,
    StorageError,
    _call,
    _Duplicate,
    _safe_url,
    _SqlStorage,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

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
        conninfo = _conninfo(url, timeout, statement_timeout)
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
        _first_connection(conninfo, where)
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


def _conninfo(url: str, timeout: float, statement_timeout: float) -> str:
    """The connection string: the URL with the statement timeout, the keepalives and the
    connect timeout (a URL that sets any of these keeps its own)."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    try:
        params = conninfo_to_dict(url)
    except psycopg.Error as exc:
        raise StorageError(f"bad PostgreSQL URL {_safe_url(url)}: {exc}") from exc
    options = f"{params.get('options') or ''} -c statement_timeout={int(statement_timeout * 1000)}"
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
    return conninfo


def _first_connection(conninfo: str, where: str) -> None:
    """One plain connection before the pool: the journal's tables made or brought up to date."""
    import psycopg

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
