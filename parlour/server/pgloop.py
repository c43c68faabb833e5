"""PostgreSQL journal appends on the event loop.

The thread path (``parlour.server.batch``) hands each journal batch to a worker thread: a queue
put that wakes the thread, the thread waiting for the interpreter lock, a wake-up of the loop
when it is done, psycopg's pool checkout.  For the one hot call, an action's append, that
hand-off costs the server more than the append's own statement.  A :class:`LoopAppender` sends
the appends from the event loop itself, with libpq in non-blocking mode on connections of its
own (``psycopg.pq``: ``send_query_prepared``, then ``loop.add_reader`` on the socket for the
answer, ``add_writer`` only when libpq could not send everything at once):

- every append made in one turn of the loop (and those made while both connections were busy)
  goes out as ONE multi-row ``INSERT … SELECT FROM unnest(…)``, prepared once per connection;
- in autocommit: the statement is its own transaction, so its answer means its rows are
  committed, and only then is any caller answered (a table tells nobody of an action before it
  is committed, exactly as before);
- on a :class:`~parlour.server.leases.LeasedStorage` (a cluster), the statement is the same
  fenced ``INSERT`` as the thread path's ``LeasedStorage._append_many``: each row is written
  only if its table's lease row still carries this process's owner and token (locked ``FOR KEY
  SHARE`` until the statement commits); a row the fence refuses is not written and its caller
  gets :class:`~parlour.server.leases.LeaseLost` (``on_lost`` is called), a table this process
  does not hold is refused before any statement;
- a statement that fails for another reason (a duplicate index) is sent again row by row, so
  that row alone fails (with the storage's own error, ``_Duplicate``) and the others commit;
- a connection lost with a statement in flight fails that statement's callers with a
  :class:`~parlour.server.storage.StorageError` (none of it is known to be committed, as on the
  thread path), and is replaced in the background; the other connection carries on meanwhile.

``PARLOUR_PG_LOOP=0`` (or ``ServerConfig.pg_loop=False``) keeps the thread path; SQLite always
uses it.  Every other storage call (table creation, records, seats, loads) stays on the thread
path.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
import contextlib
import json
import logging
import os
from typing import TYPE_CHECKING, Any

from parlour.server.leases import FENCED_APPEND_MANY_SQL
from parlour.server.storage import APPEND_MANY_SQL, PostgresStorage, StorageError, numbered

if TYPE_CHECKING:
    import psycopg
    from psycopg import pq

log = logging.getLogger("parlour.server")

#: the switch: ``0`` keeps the journal appends on the worker threads
ENV = "PARLOUR_PG_LOOP"

#: upper bounds of the rows-per-statement histogram (``LoopAppender.counters``)
SIZES = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128, 256, 500)

_NAME = b"parlour_loop_append"

# the thread path's statements (``PostgresStorage._append_many`` and, fenced by the lease,
# ``LeasedStorage._append_many``), with libpq's numbered placeholders
_PLAIN_SQL = numbered(APPEND_MANY_SQL)
_FENCED_SQL = numbered(FENCED_APPEND_MANY_SQL)


def enabled(storage: Any, setting: bool | None = None) -> bool:
    """Whether this storage's appends run on the event loop: PostgreSQL, unless ``setting`` is
    False or (``setting`` None) ``PARLOUR_PG_LOOP=0``."""
    if not isinstance(storage, PostgresStorage):
        return False
    if setting is None:
        return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")
    return setting


class _Row:
    """One pending append: its arguments as the statement's text, and its caller's future."""

    __slots__ = ("action", "chain", "code", "fut", "index", "seat", "solo", "token", "ts")

    def __init__(
        self,
        code: str,
        index: int,
        action: str,
        seat: int | None,
        ts: float,
        chain: str | None,
        token: int,
        fut: asyncio.Future[None],
    ) -> None:
        self.code = code
        self.index = index
        self.action = action
        self.seat = seat
        self.ts = ts
        self.chain = chain
        self.token = token
        self.fut = fut
        #: sent in a statement of its own (its batch's statement failed)
        self.solo = False


def _text(value: str | None) -> str:
    """An element of a text array literal."""
    if value is None:
        return "NULL"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Conn:
    """One connection of the appender: libpq non-blocking, its socket watched by the loop."""

    def __init__(self, owner: LoopAppender, aconn: psycopg.AsyncConnection[Any]) -> None:
        self.owner = owner
        self.aconn = aconn
        self.pg: pq.abc.PGconn = aconn.pgconn
        self.fd = self.pg.socket
        self.loop = owner.loop
        #: the rows of the statement in flight (``None``: idle)
        self.rows: list[_Row] | None = None
        self.results: list[pq.abc.PGresult] = []
        #: the prepare in flight (``open``)
        self.ready: asyncio.Future[None] | None = None
        self.writing = False
        self.dead = False

    async def open(self, sql: str) -> None:
        self.pg.nonblocking = 1
        self.loop.add_reader(self.fd, self._readable)
        self.ready = self.loop.create_future()
        self.pg.send_prepare(_NAME, sql.encode())
        self._flush()
        await self.ready

    def send(self, rows: list[_Row], params: list[bytes | None]) -> None:
        self.rows = rows
        self.results = []
        try:
            self.pg.send_query_prepared(_NAME, params)
            self._flush()
        except Exception as exc:
            self._lost(exc)

    def _flush(self) -> None:
        if self.pg.flush() and not self.writing:
            self.writing = True
            self.loop.add_writer(self.fd, self._writable)

    def _writable(self) -> None:
        try:
            if self.pg.flush() == 0:
                self.writing = False
                self.loop.remove_writer(self.fd)
        except Exception as exc:
            self._lost(exc)

    def _readable(self) -> None:
        pg = self.pg
        try:
            pg.consume_input()
            while not pg.is_busy():
                res = pg.get_result()
                if res is None:
                    break
                self.results.append(res)
            else:
                return  # more of the answer to come
        except Exception as exc:
            self._lost(exc)
            return
        if self.owner.bad(pg):
            self._lost(None)
            return
        if self.ready is not None:
            ready, self.ready = self.ready, None
            results, self.results = self.results, []
            error = next((r for r in results if r.status != self.owner._command_ok), None)
            if not ready.done():
                if error is None:
                    ready.set_result(None)
                else:
                    ready.set_exception(self.owner.result_error(error))
            return
        if self.rows is None:
            self.results = []  # nothing asked (a notice while idle)
        elif self.results:
            rows, self.rows = self.rows, None
            results, self.results = self.results, []
            self.owner._answered(self, rows, results[-1])

    def _lost(self, exc: BaseException | None) -> None:
        """The connection is gone: whatever was in flight is not known committed."""
        if self.dead:
            return
        self.dead = True
        why: object = exc
        if exc is None:
            with contextlib.suppress(Exception):
                why = self.pg.error_message.decode(errors="replace").strip()
        self.close()
        error = StorageError(
            "a journal batch was not committed: the database is not reachable: PostgreSQL at "
            f"{self.owner.where}: the connection was lost: {why}"
        )
        if self.ready is not None:
            ready, self.ready = self.ready, None
            if not ready.done():
                ready.set_exception(error)
        rows, self.rows = self.rows, None
        self.owner._gone(self, rows or [], error)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.loop.remove_reader(self.fd)
        if self.writing:
            with contextlib.suppress(Exception):
                self.loop.remove_writer(self.fd)
            self.writing = False
        with contextlib.suppress(Exception):
            self.pg.finish()


class LoopAppender:
    """Action appends of a PostgreSQL journal sent from the event loop (see the module's text).

    ``append`` returns a future answered once the row is committed (or with the error).  The
    connections open with :meth:`start` (or the first append) and close with :meth:`close`.
    """

    def __init__(self, storage: PostgresStorage, connections: int = 2, most: int = 500) -> None:
        from parlour.server.leases import LeasedStorage

        self.storage = storage
        self.leased: LeasedStorage | None = storage if isinstance(storage, LeasedStorage) else None
        self.width = max(1, connections)
        #: most rows in one statement
        self.most = max(1, most)
        self.sql = _FENCED_SQL if self.leased is not None else _PLAIN_SQL
        from parlour.server.storage import _safe_url

        self.where = _safe_url(storage.url)
        # the running loop, once started (``start`` or the first append)
        self.loop: asyncio.AbstractEventLoop = None  # type: ignore[assignment]
        self._idle: list[_Conn] = []
        self._conns: list[_Conn] = []
        self._pending: collections.deque[_Row] = collections.deque()
        self._scheduled = False
        self._connecting = 0
        self._closed = False
        self._started = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._drained: asyncio.Future[None] | None = None
        #: statements sent and rows they carried; connections opened (for tests and the curious)
        self.batches = 0
        self.rows = 0
        self.connects = 0
        #: statements by rows carried: ``sizes[i]`` counts those of at most ``SIZES[i]`` rows
        self.sizes = [0] * len(SIZES)
        from psycopg import pq

        self._bad = pq.ConnStatus.BAD
        self._tuples_ok = pq.ExecStatus.TUPLES_OK
        self._command_ok = pq.ExecStatus.COMMAND_OK

    # --- life ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the connections (on the running loop); raises StorageError if none opens."""
        if self._started:
            return
        self._started = True
        self.loop = asyncio.get_running_loop()
        results = await asyncio.gather(
            *(self._connect() for _ in range(self.width)), return_exceptions=True
        )
        errors = [r for r in results if isinstance(r, BaseException)]
        if len(errors) == len(results):
            raise StorageError(
                f"cannot connect to PostgreSQL at {self.where} for the journal appends: {errors[0]}"
            )
        for _ in errors:
            self._reconnect_later()

    async def close(self, timeout: float = 5.0) -> None:
        """Wait (up to ``timeout``) for the statements in flight, then close the connections;
        appends still pending fail."""
        if self._closed:
            return
        self._closed = True
        if self._started and (self._pending or len(self._idle) < len(self._conns)):
            self._drained = self.loop.create_future()
            self._pump()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._drained), timeout)
        for task in list(self._tasks):
            task.cancel()
        error = StorageError("the server is stopping: the journal append was not sent")
        while self._pending:
            row = self._pending.popleft()
            if not row.fut.done():
                row.fut.set_exception(error)
        for conn in self._conns:
            conn.dead = True
            if conn.rows is not None:
                for row in conn.rows:
                    if not row.fut.done():
                        row.fut.set_exception(error)
            conn.close()
            with contextlib.suppress(Exception):
                await conn.aconn.close()
        self._conns = []
        self._idle = []

    @property
    def open_connections(self) -> int:
        return sum(1 for c in self._conns if not c.dead)

    async def _connect(self) -> None:
        import psycopg

        self._connecting += 1
        try:
            aconn = await psycopg.AsyncConnection.connect(
                self.storage._conninfo,
                autocommit=True,
                connect_timeout=max(1, round(self.storage.timeout)),
            )
            # these connections run one prepared statement: plan it once, for good (its custom
            # plans, PostgreSQL's default for the first five and whenever they look cheaper,
            # cost a planning per call)
            try:
                await aconn.execute("SET plan_cache_mode = force_generic_plan")
            except BaseException:
                await aconn.close()
                raise
        finally:
            self._connecting -= 1
        conn = _Conn(self, aconn)
        try:
            await conn.open(self.sql)
        except BaseException:
            conn.close()
            raise
        if self._closed:
            conn.close()
            return
        self.connects += 1
        self._conns.append(conn)
        self._idle.append(conn)
        self._pump()

    def _reconnect_later(self, delay: float = 0.0) -> None:
        if self._closed:
            return
        task = self.loop.create_task(self._reconnect(delay))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reconnect(self, delay: float) -> None:
        backoff = 0.2
        await asyncio.sleep(delay)
        while not self._closed:
            try:
                await self._connect()
                return
            except Exception as exc:
                log.warning("journal appends: cannot reconnect to PostgreSQL: %s", exc)
                if not self.open_connections and self._connecting == 0:
                    # nothing can send them: the waiting appends fail, as on the thread path
                    # when no pooled connection comes within the timeout
                    self._fail_pending(
                        StorageError(
                            f"the database is not reachable: PostgreSQL at {self.where}: {exc}"
                        )
                    )
            await asyncio.sleep(backoff)
            backoff = min(2.0, backoff * 2)

    def _fail_pending(self, error: StorageError) -> None:
        while self._pending:
            row = self._pending.popleft()
            if not row.fut.done():
                row.fut.set_exception(error)

    # --- appends -------------------------------------------------------------------------------

    def append(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> asyncio.Future[None]:
        """Journal the ``index``-th action of a table (the storage's ``append_action``); the
        future is answered once the row is committed."""
        loop = self.loop if self._started else asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        if self._closed:
            fut.set_exception(StorageError("the server is stopping: the journal is closed"))
            return fut
        token = 0
        if self.leased is not None:
            try:
                token = self.leased._token(code)
            except StorageError as exc:
                fut.set_exception(exc)
                return fut
        text = json.dumps(action, ensure_ascii=False)
        if not text.isascii():
            try:
                text.encode()
            except UnicodeEncodeError:
                # a lone surrogate: refused here, to its caller, not inside the batch's statement
                # (where it would fail every row of the turn in a loop callback)
                fut.set_exception(
                    StorageError("the action cannot be stored: its text is not valid Unicode")
                )
                return fut
        self._pending.append(
            _Row(
                code,
                index,
                text,
                seat,
                ts,
                chain,
                token,
                fut,
            )
        )
        if not self._started:
            self._started = True
            self.loop = loop
            for _ in range(self.width):
                self._reconnect_later()
        elif not self._scheduled and self._idle:
            # after the other callbacks of this turn of the loop: their appends join the batch
            self._scheduled = True
            loop.call_soon(self._pump)
        return fut

    def counters(self) -> dict[str, int]:
        """Statements sent, rows they carried, and the rows-per-statement histogram
        (``pg_loop_rows_le_<n>``), for ``parlour.server.loopstats``."""
        return {
            "pg_loop_batches": self.batches,
            "pg_loop_appends": self.rows,
            **{f"pg_loop_rows_le_{b}": n for b, n in zip(SIZES, self.sizes, strict=True)},
        }

    def _pump(self) -> None:
        self._scheduled = False
        pending = self._pending
        while pending and self._idle:
            conn = self._idle.pop()
            rows: list[_Row] = []
            codes: set[str] = set()
            later: list[_Row] = []
            if pending[0].solo:
                row = pending.popleft()
                if not row.fut.done():
                    rows.append(row)
            else:
                while pending and len(rows) < self.most:
                    row = pending.popleft()
                    if row.fut.done():  # its caller gave up before it was sent
                        continue
                    if row.solo or row.code in codes:  # one row a table a statement
                        later.append(row)
                        continue
                    codes.add(row.code)
                    rows.append(row)
                pending.extendleft(reversed(later))
            if not rows:
                self._idle.append(conn)
                continue
            self.batches += 1
            self.rows += len(rows)
            self.sizes[min(bisect.bisect_left(SIZES, len(rows)), len(SIZES) - 1)] += 1
            conn.send(rows, self._params(rows))
        drained = self._drained
        idle = not pending and len(self._idle) == len(self._conns)
        if drained is not None and idle and not drained.done():
            drained.set_result(None)

    def _params(self, rows: list[_Row]) -> list[bytes | None]:
        codes = ",".join([r.code for r in rows])
        idx = ",".join([str(r.index) for r in rows])
        actions = ",".join([_text(r.action) for r in rows])
        seats = ",".join(["NULL" if r.seat is None else str(r.seat) for r in rows])
        ts = ",".join([repr(float(r.ts)) for r in rows])
        chains = ",".join([_text(r.chain) for r in rows])
        if self.leased is None:
            return [
                f"{{{codes}}}".encode(),
                f"{{{idx}}}".encode(),
                f"{{{actions}}}".encode(),
                f"{{{seats}}}".encode(),
                f"{{{ts}}}".encode(),
                f"{{{chains}}}".encode(),
            ]
        tokens = ",".join([str(r.token) for r in rows])
        return [
            f"{{{codes}}}".encode(),
            f"{{{tokens}}}".encode(),
            f"{{{idx}}}".encode(),
            f"{{{actions}}}".encode(),
            f"{{{seats}}}".encode(),
            f"{{{ts}}}".encode(),
            f"{{{chains}}}".encode(),
            self.leased._node_bytes,
        ]

    def bad(self, pg: pq.abc.PGconn) -> bool:
        return bool(pg.status == self._bad)

    def result_error(self, res: pq.abc.PGresult) -> StorageError:
        import psycopg

        exc = psycopg.errors.error_from_result(res, encoding="utf-8")
        return self.storage._error(exc)

    def _answered(self, conn: _Conn, rows: list[_Row], res: pq.abc.PGresult) -> None:
        """The statement's answer: it is committed (autocommit), or failed as a whole."""
        self._idle.append(conn)
        status = res.status
        if status == self._tuples_ok or status == self._command_ok:
            if self.leased is None:
                for row in rows:
                    if not row.fut.done():
                        row.fut.set_result(None)
            else:
                written = {(res.get_value(i, 0) or b"").decode() for i in range(res.ntuples)}
                for row in rows:
                    if row.code in written:
                        if not row.fut.done():
                            row.fut.set_result(None)
                    else:
                        lost = self.leased._lost(row.code, row.token)
                        if not row.fut.done():
                            row.fut.set_exception(lost)
        elif len(rows) > 1:
            # a duplicate index, a value the column refuses: nothing of it was written; each
            # row again in a statement of its own, so only the bad one fails
            for row in rows:
                row.solo = True
            self._pending.extendleft(reversed(rows))
        else:
            error = self.result_error(res)
            for row in rows:
                if not row.fut.done():
                    row.fut.set_exception(error)
        if self._pending and not self._scheduled:
            self._scheduled = True
            self.loop.call_soon(self._pump)
        elif self._drained is not None:
            self._pump()

    def _gone(self, conn: _Conn, rows: list[_Row], error: StorageError) -> None:
        """A connection was lost: its statement's callers fail, it is replaced."""
        log.warning("journal appends: %s", error)
        with contextlib.suppress(ValueError):
            self._idle.remove(conn)
        opened = conn in self._conns
        if opened:
            self._conns.remove(conn)
        for row in rows:
            if not row.fut.done():
                row.fut.set_exception(error)
        if opened:  # (one lost while opening: its ``_connect`` fails, and is tried again)
            self._reconnect_later()
        if self._drained is not None:
            self._pump()
