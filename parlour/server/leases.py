"""Table ownership across server processes: leases in PostgreSQL with expiry and fencing tokens.

Several ``parlour serve`` processes share one PostgreSQL journal.  Each table is played by exactly
one of them at a time, its *owner*, which holds the table's lease: a row of ``parlour_leases``
(``code``, ``owner``, ``token``, ``expires``).  The owner renews its leases every ``ttl / 3``
seconds; a lease not renewed for ``ttl`` seconds (its process died, froze, or lost the database)
may be taken by any other process, which adds one to its ``token`` (the fencing token).

The journal itself refuses a write from a process that is not the current holder:
:class:`LeasedStorage` writes every action, record and seat update of a table in one statement
that also locks the table's lease row (``FOR KEY SHARE``) and checks that it still carries this
process's ``owner`` and ``token``.  A takeover (which locks that row ``FOR UPDATE`` before
changing it) waits for such a write to commit, and a write that comes after a takeover finds the
new token and writes nothing (:class:`LeaseLost`).  The renewal and the release only move the
expiry, which the fence does not read: they take no lock a write holds (a journal batch holds its
tables' lease rows until its one commit; a renewal of all the rows in one statement waiting for
them would deadlock with it).  So a table's journal never has two writers, even when an
old owner wakes up after a long pause and carries on as if nothing happened.

Times are the database's clock (``now()``), never a process's, so machines need not agree on the
time.  Every acquisition is logged in ``parlour_lease_log`` (primary key ``code, token``: a token
is never handed out twice).
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from parlour.server.storage import PostgresStorage, StorageError, TableMeta, _meta_row

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("parlour.server")

_LEASE_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS parlour_leases (
        code TEXT PRIMARY KEY, owner TEXT NOT NULL, token BIGINT NOT NULL,
        expires TIMESTAMPTZ NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS parlour_lease_log (
        code TEXT NOT NULL, token BIGINT NOT NULL, owner TEXT NOT NULL,
        acquired TIMESTAMPTZ NOT NULL, PRIMARY KEY (code, token))""",
)

# the lease of one table, locked against a takeover until the statement that uses it commits.
# The token decides, not the expiry: a lease that ran out but that nobody took is still this
# process's alone (no other writer can exist until a takeover adds one to the token), so a write
# delayed past the expiry by a busy machine is not refused for nothing; once another process took
# the lease, the old token is refused whatever the clock says.
_FENCE = (
    "fence AS (SELECT 1 FROM parlour_leases WHERE code = %s AND owner = %s AND token = %s "
    "FOR KEY SHARE)"
)


class LeaseLost(StorageError):
    """This process no longer holds the table's lease: the journal refused the write."""


@dataclass(frozen=True)
class LeaseInfo:
    """Who holds a table's lease, as the database says now."""

    status: str
    owner: str | None
    token: int | None
    valid: bool


#: several tables' action appends in one statement, each row written only if its table's lease
#: row carries this process (the last parameter) and the row's token, locked ``FOR KEY SHARE``
#: until the statement commits; returns the codes written.  Also what ``parlour.server.pgloop``
#: sends from the event loop.  Each table's lease row is looked up by its key, one ``LATERAL``
#: subquery a row (the subquery holds the row lock, so the planner cannot flatten it into a
#: join): as a plain join, the prepared statement's generic plan read every lease row of the
#: cluster (a sequential scan and a hash join) for each statement, ~0.2 ms of the backend's CPU
#: per statement at 1,800 tables.  Prepared with
#: ``plan_cache_mode = force_generic_plan`` (the event loop's connections) it is planned once;
#: otherwise PostgreSQL plans it for each call, still cheaper than the join.
FENCED_APPEND_MANY_SQL = (
    "WITH v AS (SELECT * FROM unnest(%s::text[], %s::bigint[], %s::int[], "
    "%s::text[], %s::int[], %s::float8[], %s::text[]) "
    "AS v(code, token, idx, action, seat, ts, chain)), "
    "fence AS (SELECT f.code FROM v, LATERAL (SELECT l.code FROM parlour_leases l "
    "WHERE l.code = v.code AND l.token = v.token AND l.owner = %s FOR KEY SHARE) f) "
    "INSERT INTO parlour_actions (code, idx, action, seat, ts, chain) "
    "SELECT v.code, v.idx, v.action, v.seat, v.ts, v.chain FROM v "
    "JOIN fence ON fence.code = v.code RETURNING code"
)


class LeasedStorage(PostgresStorage):
    """The PostgreSQL journal of one process among several: every write to a table is fenced by
    the table's lease (see the module's text).

    ``node`` names this process (unique per run).  ``fences`` maps each table this process holds
    to its token; a write to a table not in it is refused, so a table dropped after losing its
    lease cannot be written by a task that still runs.  ``on_lost(code)`` is called (from the
    thread that made the call) when the journal refuses a write because the lease is gone.
    """

    def __init__(
        self,
        url: str,
        node: str,
        *,
        ttl: float = 3.0,
        pool_size: int = 4,
        timeout: float = 5.0,
        statement_timeout: float = 10.0,
    ) -> None:
        super().__init__(
            url, pool_size=pool_size, timeout=timeout, statement_timeout=statement_timeout
        )
        self.node = node
        self._node_bytes = node.encode()
        self.ttl = ttl
        self.fences: dict[str, int] = {}
        #: when each lease was taken (``time.monotonic``): a table just created or taken is not
        #: in the server's memory yet, and must not be mistaken for a stray lease
        self.taken_at: dict[str, float] = {}
        self._fence_lock = threading.Lock()
        self.on_lost: Callable[[str], None] | None = None
        # lease bookkeeping (renewals above all) has a connection of its own: it never waits
        # behind the tables' writes for one of the pool's
        self._lease_conn: Any = None
        self._lease_lock = threading.Lock()
        for stmt in _LEASE_SCHEMA:
            try:
                self._execute(stmt)
            except StorageError as exc:  # two processes creating the schema at once
                if "already exists" not in str(exc) and "duplicate key" not in str(exc):
                    raise

    def _lease_execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        import psycopg

        with self._lease_lock:
            for attempt in range(2):
                try:
                    if self._lease_conn is None or self._lease_conn.closed:
                        self._lease_conn = psycopg.connect(
                            self._conninfo,
                            autocommit=True,
                            connect_timeout=max(1, round(self.timeout)),
                        )
                    cur = self._lease_conn.execute(sql, params)
                    return cur.fetchall() if cur.description else []
                except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                    if self._lease_conn is not None:
                        with contextlib.suppress(Exception):
                            self._lease_conn.close()
                    self._lease_conn = None
                    if attempt:
                        raise StorageError(
                            f"the database is not reachable for the leases: {exc}"
                        ) from exc
                except psycopg.Error as exc:
                    raise StorageError(f"PostgreSQL (leases): {exc}") from exc
        raise AssertionError("unreachable")

    def close(self) -> None:
        with self._lease_lock:
            if self._lease_conn is not None:
                with contextlib.suppress(Exception):
                    self._lease_conn.close()
        super().close()

    # --- the fence ---------------------------------------------------------------------------

    def _token(self, code: str) -> int:
        with self._fence_lock:
            token = self.fences.get(code)
        if token is None:
            raise LeaseLost(f"table {code}: this server does not hold the table's lease")
        return token

    def _lost(self, code: str, token: int) -> LeaseLost:
        with self._fence_lock:
            if self.fences.get(code) == token:
                del self.fences[code]
        if self.on_lost is not None:
            self.on_lost(code)
        return LeaseLost(
            f"table {code}: the lease (token {token}) expired or another server took it; "
            "the journal refused the write"
        )

    def strays(self, known: Collection[str], age: float) -> list[str]:
        """Leases held for tables not in ``known`` (the server's tables in memory) and taken
        more than ``age`` seconds ago: finished tables unloaded, tables that failed to load."""
        now = time.monotonic()
        with self._fence_lock:
            return [
                c for c in self.fences if c not in known and now - self.taken_at.get(c, 0.0) > age
            ]

    def holds(self, code: str) -> bool:
        with self._fence_lock:
            return code in self.fences

    def create_table(self, meta: TableMeta) -> None:
        """The table and its lease (token 1, held by this process) in one statement."""
        cols = (
            "code, game, preset, rules, engine_version, seed, seats, status, name, created, "
            "updated, extra"
        )
        marks = ", ".join(["%s"] * 12)
        self._execute(
            f"WITH t AS (INSERT INTO parlour_tables ({cols}) VALUES ({marks}) RETURNING code), "
            "l AS (INSERT INTO parlour_leases (code, owner, token, expires) "
            "SELECT code, %s, 1, now() + make_interval(secs => %s) FROM t RETURNING code) "
            "INSERT INTO parlour_lease_log (code, token, owner, acquired) "
            "SELECT code, 1, %s, now() FROM l",
            (*_meta_row(meta), self.node, self.ttl, self.node),
        )

        def held() -> None:
            with self._fence_lock:
                self.fences[meta.code] = 1
                self.taken_at[meta.code] = time.monotonic()

        # in a journal batch, once it committed: a renewal meanwhile cannot see the new lease
        # row yet and would count it lost (seen at 600 bench tables)
        self._after_commit(held)

    def append_action(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> None:
        token = self._token(code)
        name = code.encode()
        rows = self._execute_prepared(
            b"parlour_append_fenced",
            "WITH fence AS (SELECT 1 FROM parlour_leases WHERE code = $1 AND owner = $2 "
            "AND token = $3::bigint FOR KEY SHARE) "
            "INSERT INTO parlour_actions (code, idx, action, seat, ts, chain) "
            "SELECT $1, $4::int, $5, $6::int, $7::float8, $8 FROM fence RETURNING idx",
            [
                name,
                self._node_bytes,
                b"%d" % token,
                b"%d" % index,
                json.dumps(action, ensure_ascii=False).encode(),
                None if seat is None else b"%d" % seat,
                repr(float(ts)).encode(),
                None if chain is None else chain.encode(),
            ],
        )
        if not rows:
            raise self._lost(code, token)

    def _append_many(
        self, conn: psycopg.Connection[Any], rows: list[tuple[Any, ...]]
    ) -> list[tuple[bool, Any]]:
        """``append_action`` of several tables in one statement, each row fenced by its table's
        lease as in :meth:`append_action` (the lease rows locked ``FOR KEY SHARE`` until the
        batch commits); a row the fence refuses is not written and its call gets
        :class:`LeaseLost`, the others are written."""
        out: list[tuple[bool, Any] | None] = [None] * len(rows)
        tokens: dict[str, int] = {}
        cols: list[list[Any]] = [[], [], [], [], [], [], []]
        for i, args in enumerate(rows):
            code, index, action, seat, ts = args[:5]
            try:
                token = self._token(code)
            except LeaseLost as exc:
                out[i] = (False, exc)
                continue
            tokens[code] = token
            cols[0].append(code)
            cols[1].append(token)
            cols[2].append(index)
            cols[3].append(json.dumps(action, ensure_ascii=False))
            cols[4].append(seat)
            cols[5].append(ts)
            cols[6].append(args[5] if len(args) > 5 else None)
        written: set[str] = set()
        if tokens:
            cur = conn.execute(FENCED_APPEND_MANY_SQL, (*cols, self.node))
            written = {r[0] for r in cur.fetchall()}
        for i, args in enumerate(rows):
            if out[i] is None:
                code = args[0]
                out[i] = (
                    (True, None) if code in written else (False, self._lost(code, tokens[code]))
                )
        return cast("list[tuple[bool, Any]]", out)

    def update_table(
        self, code: str, seats: list[dict[str, Any]], status: str, updated: float
    ) -> None:
        token = self._token(code)
        rows = self._execute(
            f"WITH {_FENCE} UPDATE parlour_tables SET seats = %s, status = %s, updated = %s "
            "WHERE code = %s AND EXISTS (SELECT 1 FROM fence) RETURNING code",
            (code, self.node, token, json.dumps(seats), status, updated, code),
        )
        if not rows:
            raise self._lost(code, token)

    def add_record(self, code: str, kind: str, data: dict[str, Any], ts: float) -> int:
        token = self._token(code)
        sql = (
            f"WITH {_FENCE} INSERT INTO parlour_records (code, seq, kind, data, ts) "
            "SELECT %s, COALESCE(MAX(seq) + 1, 0), %s, %s, %s FROM parlour_records "
            "WHERE code = %s HAVING EXISTS (SELECT 1 FROM fence) RETURNING seq"
        )
        params = (
            code,
            self.node,
            token,
            code,
            kind,
            json.dumps(data, ensure_ascii=False),
            ts,
            code,
        )
        from parlour.server.storage import _Duplicate

        for _ in range(50):
            try:
                rows = self._execute(sql, params)
            except _Duplicate:
                continue
            if not rows:
                raise self._lost(code, token)
            return int(rows[0][0])
        raise StorageError(f"table {code}: could not number a record (too many writers)")

    # --- leases ------------------------------------------------------------------------------

    def lease_info(self, code: str) -> LeaseInfo | None:
        """The table's status and lease (``None``: no such table)."""
        rows = self._lease_execute(
            "SELECT t.status, l.owner, l.token, l.expires > now() FROM parlour_tables t "
            "LEFT JOIN parlour_leases l ON l.code = t.code WHERE t.code = %s",
            (code,),
        )
        if not rows:
            return None
        status, owner, token, valid = rows[0]
        return LeaseInfo(status, owner, None if token is None else int(token), bool(valid))

    def acquire(self, code: str) -> int | None:
        """Take the table's lease if it is free, expired or already ours; the new fencing token,
        or ``None`` (another process holds it)."""
        rows = self._lease_execute(
            # the row is locked FOR UPDATE first (the ON CONFLICT update alone takes a lock the
            # fence's FOR KEY SHARE does not wait for): a write in flight commits before the
            # token moves on
            "WITH lk AS (SELECT 1 FROM parlour_leases WHERE code = %s FOR UPDATE), "
            "a AS (INSERT INTO parlour_leases (code, owner, token, expires) "
            "SELECT %s, %s, 1, now() + make_interval(secs => %s) FROM (SELECT count(*) FROM lk) x "
            "ON CONFLICT (code) DO UPDATE SET owner = EXCLUDED.owner, "
            "token = parlour_leases.token + 1, expires = EXCLUDED.expires "
            "WHERE parlour_leases.expires < now() OR parlour_leases.owner = EXCLUDED.owner "
            "RETURNING code, token) "
            "INSERT INTO parlour_lease_log (code, token, owner, acquired) "
            "SELECT code, token, %s, now() FROM a RETURNING token",
            (code, code, self.node, self.ttl, self.node),
        )
        if not rows:
            return None
        token = int(rows[0][0])
        with self._fence_lock:
            self.fences[code] = token
            self.taken_at[code] = time.monotonic()
        return token

    def renew(self) -> list[str]:
        """Extend every lease this process holds; the codes whose lease was lost meanwhile (they
        are no longer fenced for writing)."""
        with self._fence_lock:
            held = dict(self.fences)
        if not held:
            return []
        rows = self._lease_execute(
            "UPDATE parlour_leases SET expires = now() + make_interval(secs => %s) "
            "WHERE owner = %s AND code = ANY(%s) RETURNING code, token",
            (self.ttl, self.node, list(held)),
        )
        kept = {r[0]: int(r[1]) for r in rows}
        lost = [c for c, t in held.items() if kept.get(c) != t]
        with self._fence_lock:
            for code in lost:
                if self.fences.get(code) == held[code]:
                    del self.fences[code]
        return lost

    def release(self, codes: list[str] | None = None) -> None:
        """Give leases back at once (``None``: all of this process's), so another process may
        take the tables without waiting for the expiry."""
        with self._fence_lock:
            chosen = list(self.fences) if codes is None else [c for c in codes if c in self.fences]
            for c in chosen:
                del self.fences[c]
        if chosen:
            self._lease_execute(
                # expired, not deleted: the next holder's token still counts up from this one
                "UPDATE parlour_leases SET expires = now() - interval '1 second' "
                "WHERE owner = %s AND code = ANY(%s)",
                (self.node, chosen),
            )

    def orphans(self, limit: int) -> list[str]:
        """Tables in play whose lease is missing or expired (their owner is gone)."""
        rows = self._lease_execute(
            "SELECT t.code FROM parlour_tables t LEFT JOIN parlour_leases l ON l.code = t.code "
            "WHERE t.status = 'playing' AND (l.code IS NULL OR l.expires < now()) "
            "ORDER BY random() LIMIT %s",
            (limit,),
        )
        return [r[0] for r in rows]

    def active_summaries(self) -> list[tuple[TableMeta, int]]:
        """Every waiting or playing table with its number of journaled actions (the lobby list
        of a cluster: tables of every process)."""
        rows = self._execute(
            "SELECT t.code, t.game, t.preset, t.rules, t.engine_version, t.seed, t.seats, "
            "t.status, t.name, t.created, t.updated, t.extra, "
            # the last index + 1, read from the primary key's index (no count over the rows)
            "(SELECT COALESCE(MAX(a.idx) + 1, 0) FROM parlour_actions a WHERE a.code = t.code) "
            "FROM parlour_tables t WHERE t.status IN ('waiting', 'playing') ORDER BY t.created"
        )
        from parlour.server.storage import _meta_from_row

        return [(_meta_from_row(r[:12]), int(r[12])) for r in rows]
