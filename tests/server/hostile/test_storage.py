"""The journal storage under hostile conditions (issue 14): the new calls (action chain, the
record list), old databases, broken files, lost and unreachable PostgreSQL servers, durability.

Tests run on SQLite (a file under ``tmp_path``) and, where it applies, on this machine's PostgreSQL
in a schema of their own (``require_pg``: fails under CI=true when PostgreSQL is unreachable, skips
elsewhere)."""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from parlour.server.storage import (
    PostgresStorage,
    Record,
    SQLiteStorage,
    Storage,
    StorageError,
    TableMeta,
    open_storage,
)
from tests.server.conftest import PG_URL, require_pg

# the schema as it was before issue 14: no chain column, no record table
OLD_SCHEMA = (
    """CREATE TABLE parlour_tables (
        code TEXT PRIMARY KEY, game TEXT NOT NULL, preset TEXT NOT NULL, rules TEXT NOT NULL,
        engine_version INTEGER NOT NULL, seed BIGINT NOT NULL, seats TEXT NOT NULL,
        status TEXT NOT NULL, name TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL, extra TEXT NOT NULL)""",
    """CREATE TABLE parlour_actions (
        code TEXT NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL, seat INTEGER,
        ts DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, idx))""",
)


@dataclass
class Backend:
    """An empty database: ``url`` opens it; ``raw`` runs SQL on it beside the storage."""

    name: str
    url: str
    raw: Callable[..., list[Any]]
    schema: str = ""


def _code() -> str:
    """A table code no other test (or parallel run) uses."""
    return "H" + secrets.token_hex(4).upper()


def _meta(code: str, status: str = "playing") -> TableMeta:
    return TableMeta(code, "toy", "toy", {"players": 2}, 1, 2**62 + 3, [], status, "t", 1.0)


@contextlib.contextmanager
def _sqlite_backend(tmp_path: Path) -> Iterator[Backend]:
    path = tmp_path / "journal.db"

    def raw(sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
            return conn.execute(sql, params).fetchall()

    yield Backend("sqlite", f"sqlite:///{path}", raw)


def _pg_url(schema: str, **params: str) -> str:
    extra = "".join(f"&{k}={v}" for k, v in params.items())
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options=-csearch_path%3D{schema}{extra}"


@contextlib.contextmanager
def _pg_backend() -> Iterator[Backend]:
    require_pg()
    import psycopg

    schema = f"parlour_hostile_{secrets.token_hex(4)}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = _pg_url(schema)

    def raw(sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with psycopg.connect(url, autocommit=True) as conn:
            cur = conn.execute(sql.replace("?", "%s"), params)
            return cur.fetchall() if cur.description else []

    try:
        yield Backend("postgresql", url, raw, schema)
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    maker = _sqlite_backend(tmp_path) if request.param == "sqlite" else _pg_backend()
    with maker as b:
        yield b


@pytest.fixture
def pg() -> Iterator[Backend]:
    with _pg_backend() as b:
        yield b


@contextlib.contextmanager
def opened(store: Storage) -> Iterator[Storage]:
    try:
        yield store
    finally:
        store.close()


# --- item 6: the action chain and the record list ---------------------------------------------


def test_records_round_trip_in_order(backend: Backend) -> None:
    """issue 14 item 6: records (published commitments, reveals…) are kept per table, numbered
    0, 1, 2… in the order they were added, with their kind, data and time."""
    a, b = _code(), _code()
    with opened(open_storage(backend.url)) as store:
        store.create_table(_meta(a))
        store.create_table(_meta(b))
        assert store.records(a) == []
        seqs = [
            store.add_record(a, "deal_commitment", {"hand": i, "h": "ab" * 32}, 10.0 + i)
            for i in range(3)
        ]
        assert seqs == [0, 1, 2]
        assert store.add_record(b, "chat", {"text": "10♥ ✓"}, 20.0) == 0  # numbered per table
        assert store.add_record(a, "deal_reveal", {"hand": 0, "seed": 2**62 + 3}, 13.5) == 3
    # a fresh open reads the same list back, in order
    with opened(open_storage(backend.url)) as store:
        got = store.records(a)
        assert got == [
            Record(0, "deal_commitment", {"hand": 0, "h": "ab" * 32}, 10.0),
            Record(1, "deal_commitment", {"hand": 1, "h": "ab" * 32}, 11.0),
            Record(2, "deal_commitment", {"hand": 2, "h": "ab" * 32}, 12.0),
            Record(3, "deal_reveal", {"hand": 0, "seed": 2**62 + 3}, 13.5),
        ]
        assert store.records(b) == [Record(0, "chat", {"text": "10♥ ✓"}, 20.0)]
        assert store.records(_code()) == []


def test_records_numbered_once_under_concurrent_writers(backend: Backend) -> None:
    """issue 14 item 6: several writers (threads, and two storage objects as two server processes
    would have) adding records to one table at once each get their own number, with no gap."""
    code = _code()
    stores = [open_storage(backend.url), open_storage(backend.url)]
    try:
        stores[0].create_table(_meta(code))
        got: list[int] = []
        errors: list[BaseException] = []
        lock = threading.Lock()
        start = threading.Barrier(8)

        def writer(k: int) -> None:
            try:
                start.wait()
                for i in range(15):
                    seq = stores[k % 2].add_record(code, "w", {"writer": k, "i": i}, float(i))
                    with lock:
                        got.append(seq)
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == []
        assert sorted(got) == list(range(120))
        records = stores[0].records(code)
        assert [r.seq for r in records] == list(range(120))
        # each writer's own records stay in the order it wrote them
        for k in range(8):
            mine = [r.data["i"] for r in records if r.data["writer"] == k]
            assert mine == list(range(15))
    finally:
        for s in stores:
            s.close()


def test_action_chain_round_trip(backend: Backend) -> None:
    """issue 14 item 6 (c): each journalled action keeps its hash-chain text (or none)."""
    code = _code()
    heads = [secrets.token_hex(32) for _ in range(3)]
    with opened(open_storage(backend.url)) as store:
        store.create_table(_meta(code))
        store.append_action(code, 0, {"type": "Draw"}, 0, 1.0)  # no chain: stays None
        for i, head in enumerate(heads, start=1):
            store.append_action(code, i, {"type": "Play", "card": "Q♠"}, 1, 1.0 + i, chain=head)
        with pytest.raises(StorageError):
            store.append_action(code, 2, {"type": "Draw"}, 0, 9.0, chain="x")  # index taken
    with opened(open_storage(backend.url)) as store:
        loaded = store.load_table(code)
        assert loaded is not None
        _, actions = loaded
        assert [a.chain for a in actions] == [None, *heads]
        assert [a.index for a in actions] == [0, 1, 2, 3]
        assert actions[3].action == {"type": "Play", "card": "Q♠"} and actions[3].ts == 4.0


def test_old_schema_database_opens_and_works(backend: Backend) -> None:
    """issue 14 item 6: a journal written by the old schema (no chain column, no record table)
    opens, its tables load unchanged, and the new calls work on it."""
    code = _code()
    for stmt in OLD_SCHEMA:
        backend.raw(stmt)
    backend.raw(
        "INSERT INTO parlour_tables VALUES (?, 'toy', 'toy', ?, 1, 42, '[]', 'playing', 'old', "
        "1.0, 1.0, '{}')",
        (code, '{"players": 2}'),
    )
    backend.raw("INSERT INTO parlour_actions VALUES (?, 0, ?, 1, 2.0)", (code, '{"type": "Draw"}'))
    with opened(open_storage(backend.url)) as store:
        loaded = store.load_table(code)
        assert loaded is not None
        meta, actions = loaded
        assert (meta.seed, meta.name, meta.rules) == (42, "old", {"players": 2})
        assert len(actions) == 1
        assert (actions[0].action, actions[0].seat, actions[0].chain) == ({"type": "Draw"}, 1, None)
        store.append_action(code, 1, {"type": "Pass"}, 0, 3.0, chain="c1")
        assert store.add_record(code, "deal_commitment", {"hand": 0}, 3.0) == 0
    # opening it again (the column is there now) changes nothing
    with opened(open_storage(backend.url)) as store:
        loaded = store.load_table(code)
        assert loaded is not None
        assert [a.chain for a in loaded[1]] == [None, "c1"]
        assert [r.kind for r in store.records(code)] == ["deal_commitment"]


# --- item 10: unreadable SQLite files ------------------------------------------------------------


def test_garbage_sqlite_file_is_a_clear_error(tmp_path: Path) -> None:
    """issue 14 item 10: a file of random bytes at start gives a StorageError that names the file
    and says it is not a SQLite database, not a raw sqlite3.DatabaseError."""
    path = tmp_path / "garbage.db"
    path.write_bytes(os.urandom(8192))
    with pytest.raises(StorageError) as info:
        open_storage(f"sqlite:///{path}")
    assert str(path) in str(info.value)
    assert "is not a SQLite database (or is corrupt)" in str(info.value)
    assert not isinstance(info.value, sqlite3.Error)


def test_directory_as_sqlite_file_is_a_clear_error(tmp_path: Path) -> None:
    """issue 14 item 10: a directory where the database file should be is named as such."""
    folder = tmp_path / "journal.db"
    folder.mkdir()
    with pytest.raises(StorageError, match="is a directory") as info:
        open_storage(f"sqlite:///{folder}")
    assert str(folder) in str(info.value)


def test_sqlite_folder_that_cannot_be_made_is_a_clear_error(tmp_path: Path) -> None:
    """issue 14 item 10: a database path under a plain file (its folder cannot be created)."""
    blocker = tmp_path / "plain-file"
    blocker.write_text("not a folder")
    with pytest.raises(StorageError, match="cannot create the folder") as info:
        open_storage(f"sqlite:///{blocker / 'journal.db'}")
    assert str(blocker / "journal.db") in str(info.value)


# --- item 12: durability -------------------------------------------------------------------------


def _synchronous(store: Storage) -> int:
    assert isinstance(store, SQLiteStorage)
    return int(store._execute("PRAGMA synchronous")[0][0])


def test_sqlite_durability_full_sets_synchronous_full(tmp_path: Path) -> None:
    """issue 14 item 12: durability "full" (argument or URL ?synchronous=full) runs SQLite with
    synchronous=FULL (2); the default is NORMAL (1)."""
    path = tmp_path / "j.db"
    with opened(open_storage(f"sqlite:///{path}")) as store:
        assert _synchronous(store) == 1
    with opened(open_storage(f"sqlite:///{path}", durability="full")) as store:
        assert _synchronous(store) == 2
        assert store.url.endswith("?synchronous=full")
    with opened(open_storage(f"sqlite:///{path}?synchronous=full")) as store:
        assert _synchronous(store) == 2
        # still the same file, and it works
        store.create_table(_meta("DURA01"))
        store.append_action("DURA01", 0, {"type": "Draw"}, 0, 1.0)
    with opened(open_storage(f"sqlite:///{path}?synchronous=NORMAL")) as store:
        assert _synchronous(store) == 1
        assert store.load_table("DURA01") is not None


def test_sqlite_durability_bad_values_refused(tmp_path: Path) -> None:
    """issue 14 item 12: an unknown durability, an unknown URL option or a URL that contradicts
    the argument is a StorageError naming the choices."""
    path = tmp_path / "j.db"
    with pytest.raises(StorageError, match=r"'normal'.*'full'"):
        open_storage(f"sqlite:///{path}", durability="off")
    with pytest.raises(StorageError, match=r"'normal'.*'full'"):
        open_storage(f"sqlite:///{path}?synchronous=off")
    with pytest.raises(StorageError, match="unknown SQLite URL option"):
        open_storage(f"sqlite:///{path}?journal=delete")
    with pytest.raises(StorageError, match="synchronous=full"):
        open_storage(f"sqlite:///{path}?synchronous=full", durability="normal")
    assert not path.exists()  # nothing was opened


# --- item 8: PostgreSQL pool, timeouts, reconnect ------------------------------------------------


def terminate_backends(app: str) -> int:
    """Cut every PostgreSQL connection named ``app`` (as a restarted database would)."""
    import psycopg

    with psycopg.connect(PG_URL, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = %s AND pid <> pg_backend_pid()",
            (app,),
        ).fetchall()
    return len(rows)


def test_pg_connections_named_parlour_and_pool_sized(pg: Backend) -> None:
    """issue 14 item 8: the pool's connections say application_name 'parlour', run with the
    statement timeout, and the storage tells its concurrency (the pool's maximum size)."""
    store = PostgresStorage(pg.url, pool_size=3, statement_timeout=7)
    with opened(store):
        assert store.concurrency == 3
        with store._pool.connection() as conn:
            row = conn.execute("SHOW application_name").fetchone()
            assert row is not None and row[0] == "parlour"
            row = conn.execute("SHOW statement_timeout").fetchone()
            assert row is not None and row[0] == "7s"
            # the URL's own options (the test schema) are kept beside the timeout
            row = conn.execute("SHOW search_path").fetchone()
            assert row is not None and row[0].startswith("parlour_hostile_")
    with opened(open_storage(pg.url)) as default:
        assert default.concurrency == 4
    with opened(open_storage("sqlite:///:memory:")) as lite:
        assert lite.concurrency == 1


def test_pg_dropped_connections_recover_without_restart(pg: Backend) -> None:
    """issue 14 item 8: every connection of the pool killed by the server (a restart, a network
    cut): at most the next call fails, with a StorageError; the one after works, no restart."""
    app = f"parlour_t{secrets.token_hex(4)}"  # this test's connections only, not other runs'
    code = _code()
    with opened(open_storage(_pg_url(pg.schema, application_name=app))) as store:
        store.create_table(_meta(code))
        store.append_action(code, 0, {"type": "Draw"}, 0, 1.0)
        assert terminate_backends(app) >= 1
        try:
            store.append_action(code, 1, {"type": "Draw"}, 1, 2.0)
            done = 2
        except StorageError as exc:  # allowed: the one call that met the dead connection
            assert "not reachable" in str(exc)
            done = 1
        store.append_action(code, done, {"type": "Draw"}, 0, 3.0)
        loaded = store.load_table(code)
        assert loaded is not None and len(loaded[1]) == done + 1
        # and again: the replaced connections can be lost and replaced as well
        assert terminate_backends(app) >= 1
        with contextlib.suppress(StorageError):
            store.codes(active=True)
        assert code in store.codes(active=True)


def test_pg_connection_lost_in_flight_fails_only_that_call(pg: Backend) -> None:
    """issue 14 item 8: a connection killed while a call is waiting on it fails that call with a
    StorageError (never a raw psycopg error); the next call works on a new connection."""
    import psycopg

    app = f"parlour_t{secrets.token_hex(4)}"
    code = _code()
    with opened(open_storage(_pg_url(pg.schema, application_name=app))) as store:
        store.create_table(_meta(code))
        outcome: list[BaseException | None] = []
        with psycopg.connect(pg.url) as blocker:  # a transaction holding the table's lock
            blocker.execute("LOCK TABLE parlour_actions IN ACCESS EXCLUSIVE MODE")

            def call() -> None:
                try:
                    store.append_action(code, 0, {"type": "Draw"}, 0, 1.0)
                    outcome.append(None)
                except BaseException as exc:
                    outcome.append(exc)

            worker = threading.Thread(target=call)
            worker.start()
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:  # until our call waits for the lock
                waiting = blocker.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s "
                    "AND wait_event_type = 'Lock'",
                    (app,),
                ).fetchone()
                if waiting and waiting[0]:
                    break
                time.sleep(0.05)
            assert terminate_backends(app) >= 1
            worker.join(10)
            blocker.rollback()
        assert len(outcome) == 1 and isinstance(outcome[0], StorageError), outcome
        assert "not reachable" in str(outcome[0])
        store.append_action(code, 0, {"type": "Draw"}, 0, 2.0)  # the very next call works
        loaded = store.load_table(code)
        assert loaded is not None and [a.ts for a in loaded[1]] == [2.0]


def test_pg_statement_timeout_is_a_storage_error(pg: Backend) -> None:
    """issue 14 item 8: a statement stuck behind a lock (a frozen database) is cancelled after the
    statement timeout with a StorageError, instead of freezing the journal thread for good."""
    import psycopg

    code = _code()
    store = PostgresStorage(pg.url, statement_timeout=0.5)
    with opened(store):
        store.create_table(_meta(code))
        with psycopg.connect(pg.url) as blocker:
            blocker.execute("LOCK TABLE parlour_actions IN ACCESS EXCLUSIVE MODE")
            t0 = time.monotonic()
            with pytest.raises(StorageError, match="statement_timeout"):
                store.append_action(code, 0, {"type": "Draw"}, 0, 1.0)
            assert time.monotonic() - t0 < 5
            blocker.rollback()
        store.append_action(code, 0, {"type": "Draw"}, 0, 1.0)


def test_pg_pool_exhausted_is_a_storage_error(pg: Backend) -> None:
    """issue 14 item 8: when every pooled connection stays busy, a call waits at most the pool
    timeout and then fails with a StorageError."""
    import psycopg

    code = _code()
    store = PostgresStorage(pg.url, pool_size=1, timeout=0.5, statement_timeout=3)
    with opened(store):
        store.create_table(_meta(code))
        with psycopg.connect(pg.url) as blocker:
            blocker.execute("LOCK TABLE parlour_actions IN ACCESS EXCLUSIVE MODE")
            busy: list[BaseException] = []

            def hold() -> None:
                try:
                    store.append_action(code, 0, {"type": "Draw"}, 0, 1.0)
                except BaseException as exc:
                    busy.append(exc)

            worker = threading.Thread(target=hold)
            worker.start()
            time.sleep(0.3)  # the only connection now waits for the lock
            t0 = time.monotonic()
            with pytest.raises(StorageError, match=r"within 0\.5 s"):
                store.codes(active=True)
            assert time.monotonic() - t0 < 2.5
            worker.join(10)
            blocker.rollback()
        assert len(busy) == 1 and isinstance(busy[0], StorageError)
        assert store.codes(active=True) == [code]


def test_pg_unreachable_fails_fast() -> None:
    """issue 14 item 8: opening a PostgreSQL journal that nothing answers fails within seconds
    with a StorageError that says the database is not reachable."""
    t0 = time.monotonic()
    with pytest.raises(StorageError, match="the database is not reachable"):
        open_storage("postgresql://postgres@127.0.0.1:1/test")
    assert time.monotonic() - t0 < 6


# --- a PostgreSQL journal batch is one transaction, one commit ----------------


def _count(pg: Backend, code: str) -> int:
    return int(pg.raw("SELECT count(*) FROM parlour_actions WHERE code = ?", (code,))[0][0])


def test_pg_batch_is_one_commit(pg: Backend) -> None:
    """A batch's appends are committed together: another connection sees none of them while the
    batch runs and all of them once it has returned."""
    code = _code()
    with opened(PostgresStorage(pg.url)) as store:
        store.create_table(_meta(code))
        seen: list[int] = []

        def peek() -> None:  # inside the batch, after the first append
            seen.append(_count(pg, code))

        out = store.run_batch(
            [
                lambda: store.append_action(code, 0, {"type": "Draw"}, 0, 1.0),
                peek,
                lambda: store.append_action(code, 1, {"type": "Pass"}, 1, 2.0),
            ]
        )
        assert [ok for ok, _ in out] == [True, True, True]
        assert seen == [0]
        assert _count(pg, code) == 2
        assert store.group_commits == 1
        # one call alone runs as before, in its own transaction
        assert store.run_batch([lambda: store.append_action(code, 2, {}, 0, 3.0)])[0][0]
        assert store.group_commits == 1 and _count(pg, code) == 3


def test_pg_batch_failing_call_leaves_nothing_and_the_rest_commit(pg: Backend) -> None:
    """A call that fails (a taken index) is rolled back alone and answered with its error; the
    calls after it (a record numbered after a duplicate, too) still run and are committed."""
    code = _code()
    with opened(PostgresStorage(pg.url)) as store:
        store.create_table(_meta(code))
        store.append_action(code, 0, {"type": "Draw"}, 0, 1.0)
        store.add_record(code, "chat", {"n": 0}, 1.0)
        pg.raw(
            "INSERT INTO parlour_records (code, seq, kind, data, ts) VALUES (?, 1, 'x', '{}', 0)",
            (code,),
        )

        def bad_then_good() -> None:  # a duplicate, then a second statement of the same call
            with contextlib.suppress(StorageError):
                store.append_action(code, 0, {"type": "Again"}, 0, 2.0)
            store.append_action(code, 2, {"type": "After"}, 0, 2.5)

        out = store.run_batch(
            [
                lambda: store.append_action(code, 1, {"type": "Pass"}, 1, 2.0),
                lambda: store.append_action(code, 0, {"type": "Dup"}, 0, 2.0),
                lambda: store.add_record(code, "chat", {"n": 2}, 3.0),  # meets seq 1 taken
                bad_then_good,
            ]
        )
        assert [ok for ok, _ in out] == [True, False, True, True]
        assert isinstance(out[1][1], StorageError)
        assert out[2][1] == 2
        loaded = store.load_table(code)
        assert loaded is not None
        assert [a.action["type"] for a in loaded[1]] == ["Draw", "Pass", "After"]
        assert [r.seq for r in store.records(code)] == [0, 1, 2]
        assert store.group_commits == 1


def test_pg_batch_appends_are_one_statement(pg: Backend) -> None:
    """a batch's appends of several tables are one multi-row INSERT (the
    values, seats, chains and timestamps as given); when one of them fails (a taken index, an
    action JSON cannot hold), the batch runs again call by call and that call alone fails."""
    a, b, c = _code(), _code(), _code()
    with opened(PostgresStorage(pg.url)) as store:
        assert isinstance(store, PostgresStorage)
        for code in (a, b, c):
            store.create_table(_meta(code))
        many: list[int] = []
        real = store._append_many

        def counted(conn: Any, rows: list[tuple[Any, ...]]) -> list[tuple[bool, Any]]:
            many.append(len(rows))
            return real(conn, rows)

        store._append_many = counted  # type: ignore[method-assign]
        out = store.run_batch(
            [
                functools.partial(store.append_action, a, 0, {"type": "Draw", "t": "é"}, 0, 1.5),
                functools.partial(store.append_action, b, 0, {"type": "Pass"}, None, 2.5, "ch"),
                functools.partial(store.add_record, c, "chat", {"n": 1}, 3.0),
            ]
        )
        assert out == [(True, None), (True, None), (True, 0)] and many == [2]
        loaded = store.load_table(a)
        assert loaded is not None
        assert [(e.action, e.seat, e.ts, e.chain) for e in loaded[1]] == [
            ({"type": "Draw", "t": "é"}, 0, 1.5, None)
        ]
        loaded = store.load_table(b)
        assert loaded is not None
        assert [(e.action, e.seat, e.ts, e.chain) for e in loaded[1]] == [
            ({"type": "Pass"}, None, 2.5, "ch")
        ]
        out = store.run_batch(
            [
                functools.partial(store.append_action, a, 0, {"type": "Again"}, 0, 4.0),
                functools.partial(store.append_action, b, 1, {"type": "Draw"}, 1, 4.0),
                functools.partial(store.append_action, c, 0, {"type": object()}, 1, 4.0),
            ]
        )
        assert [ok for ok, _ in out] == [False, True, False] and many == [2, 3]
        assert isinstance(out[0][1], StorageError) and isinstance(out[2][1], TypeError)
        assert [_count(pg, x) for x in (a, b, c)] == [1, 2, 0]
        assert store.group_commits == 2


@pytest.mark.parametrize("when", ["in a call", "before the commit"])
def test_pg_batch_lost_transaction_fails_every_call(pg: Backend, when: str) -> None:
    """The batch's connection killed in the middle of it, or just before its COMMIT: every call
    fails with a StorageError (even those that had run), nothing of the batch is in the journal,
    and the next call works on a new connection."""
    code = _code()
    with opened(PostgresStorage(pg.url)) as store:
        store.create_table(_meta(code))

        def kill() -> None:
            pid = store._execute("SELECT pg_backend_pid()")[0][0]
            pg.raw("SELECT pg_terminate_backend(?)", (pid,))

        calls: list[Callable[[], Any]] = [
            lambda: store.append_action(code, 0, {"type": "Draw"}, 0, 1.0),
            kill,
            lambda: store.append_action(code, 1, {"type": "Pass"}, 1, 2.0),
        ]
        if when == "before the commit":
            calls = [calls[0], calls[2], calls[1]]
        out = store.run_batch(calls)
        assert [ok for ok, _ in out] == [False, False, False]
        for _, exc in out:
            assert isinstance(exc, StorageError) and "not committed" in str(exc)
        assert _count(pg, code) == 0 and store.group_commits == 0
        store.append_action(code, 0, {"type": "Draw"}, 0, 3.0)
        assert _count(pg, code) == 1


def test_pg_steady_connection_is_not_checked_idle_one_is(
    pg: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's check (an empty query, a round trip) runs on a connection that sat unused for a
    while, not on every checkout of one in steady use."""
    from psycopg_pool import ConnectionPool

    checks: list[object] = []
    real = ConnectionPool.check_connection
    monkeypatch.setattr(
        ConnectionPool, "check_connection", staticmethod(lambda c: (checks.append(c), real(c)))
    )
    code = _code()
    with opened(PostgresStorage(pg.url, pool_size=1)) as store:
        store.create_table(_meta(code))
        for i in range(20):
            store.append_action(code, i, {}, 0, 1.0)
        assert checks == []
        with store._pool.connection() as conn:
            conn._parlour_used -= 10  # type: ignore[attr-defined]  # as if unused for 10 s
        store.append_action(code, 20, {}, 0, 1.0)
        assert len(checks) == 1
