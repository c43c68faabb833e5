"""PostgreSQL journal appends sent from the event loop (``parlour.server.pgloop``),
batched into one fenced multi-row INSERT a turn of the loop, on connections of their own.

Each test runs on this machine's PostgreSQL in a schema of its own (``pg_schema``: fails under
CI=true when PostgreSQL is unreachable, skips elsewhere)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import pytest

from parlour.server.leases import LeasedStorage, LeaseLost
from parlour.server.lobby import ServerConfig, TableServer
from parlour.server.pgloop import LoopAppender
from parlour.server.storage import PostgresStorage, StorageError, TableMeta, open_storage
from tests.server.conftest import PG_URL
from tests.server.hostile.test_storage import terminate_backends
from tests.server.test_recovery import pg_schema
from tests.support import needs

psycopg = needs.module("psycopg", needs.POSTGRES)

T = TypeVar("T")


@pytest.fixture
def url() -> Iterator[str]:
    with pg_schema() as u:
        yield u


def _app_url(url: str) -> tuple[str, str]:
    """The URL with an application_name of this test's own (its backends can be found)."""
    app = f"parlour_l{secrets.token_hex(4)}"
    return f"{url}&application_name={app}", app


def _meta(code: str) -> TableMeta:
    return TableMeta(code, "toy", "toy", {"players": 2}, 1, 0, [], "playing", "", 1.0)


def _backends(app: str) -> int:
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (app,)
        ).fetchone()
    return int(row[0]) if row else 0


def _journal(url: str) -> dict[tuple[str, int], tuple[str, str | None]]:
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute("SELECT code, idx, action, chain FROM parlour_actions").fetchall()
    return {(r[0], int(r[1])): (r[2], r[3]) for r in rows}


def _run(make: Callable[[], Coroutine[Any, Any, T]], loop: str = "asyncio") -> T:
    if loop == "uvloop":
        import uvloop

        return uvloop.run(make())
    return asyncio.run(make())


def test_append_is_answered_only_once_committed(url: str) -> None:
    """The append's future stays unanswered while its statement waits (a lock held by another
    transaction); once answered, another connection already sees the row (autocommit: the
    answer is the commit's), with its action, seat, time and chain as given."""
    store = PostgresStorage(url)
    store.create_table(_meta("LOOPA1"))
    app = LoopAppender(store)

    async def main() -> None:
        await app.start()
        with psycopg.connect(url) as blocker:
            blocker.execute("LOCK TABLE parlour_actions IN ACCESS EXCLUSIVE MODE")
            fut = app.append("LOOPA1", 0, {"type": "Say", "text": 'a "quote" \\ é'}, 1, 2.5, "c0")
            await asyncio.sleep(0.4)
            assert not fut.done()  # not committed: nobody is told
            blocker.rollback()
            await asyncio.wait_for(fut, 5)
        assert _journal(url) == {
            ("LOOPA1", 0): ('{"type": "Say", "text": "a \\"quote\\" \\\\ é"}', "c0")
        }
        await app.close()

    try:
        _run(main)
        _, entries = store.load_table("LOOPA1")  # type: ignore[misc]
        assert [(e.action, e.seat, e.ts, e.chain) for e in entries] == [
            ({"type": "Say", "text": 'a "quote" \\ é'}, 1, 2.5, "c0")
        ]
    finally:
        store.close()


def test_a_lone_surrogate_is_refused_to_its_caller_and_the_turns_other_rows_commit(
    url: str,
) -> None:
    """An action whose text holds a lone surrogate (a hostile client's JSON ``"\\udc80"``)
    cannot be UTF-8: its append fails at once with a clear StorageError, and the other appends
    of the same turn of the loop are written as if it had not been there."""
    store = PostgresStorage(url)
    for code in ("LOOPS1", "LOOPS2"):
        store.create_table(_meta(code))
    app = LoopAppender(store)

    async def main() -> None:
        await app.start()
        bad = app.append("LOOPS1", 0, {"type": "Say", "text": "x\udc80y"}, 0, 1.0)
        good = app.append("LOOPS2", 0, {"type": "Say", "text": "é"}, 1, 2.0)
        with pytest.raises(StorageError, match="not valid Unicode"):
            await asyncio.wait_for(bad, 5)
        await asyncio.wait_for(good, 5)
        again = app.append("LOOPS1", 0, {"type": "Say", "text": "fine"}, 0, 3.0)
        await asyncio.wait_for(again, 5)
        await app.close()

    try:
        _run(main)
        assert _journal(url) == {
            ("LOOPS1", 0): ('{"type": "Say", "text": "fine"}', None),
            ("LOOPS2", 0): ('{"type": "Say", "text": "é"}', None),
        }
    finally:
        store.close()


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_appends_of_one_turn_are_one_fenced_insert(url: str, loop: str) -> None:
    """The appends made in one turn of the loop, 60 tables' worth, go out as one statement (and
    the journal has each row as given); the next turn's appends are another statement."""
    store = LeasedStorage(url, "node-a", ttl=30)
    codes = [f"BAT{i:03d}" for i in range(60)]
    for code in codes:
        store.create_table(_meta(code))
    app = LoopAppender(store)

    async def main() -> None:
        await app.start()
        futs = [
            app.append(c, 0, {"type": "Draw", "n": i}, i % 4, 1.0 + i, None)
            for i, c in enumerate(codes)
        ]
        await asyncio.wait_for(asyncio.gather(*futs), 10)
        assert (app.batches, app.rows) == (1, 60)
        futs = [app.append(c, 1, {"type": "Pass"}, None, 9.0, f"h{c}") for c in codes[:5]]
        await asyncio.wait_for(asyncio.gather(*futs), 10)
        assert (app.batches, app.rows) == (2, 65)
        await app.close()

    try:
        _run(main, loop)
        journal = _journal(url)
        assert len(journal) == 65
        assert journal[("BAT007", 0)] == ('{"type": "Draw", "n": 7}', None)
        assert journal[("BAT003", 1)] == ('{"type": "Pass"}', "hBAT003")
    finally:
        store.close()


def test_rows_per_statement_histogram(url: str) -> None:
    """``counters`` gives the statements sent, the rows they carried and how many
    statements carried at most 1, 2, 3, … rows (``pg_loop_rows_le_<n>``, for the loop stats)."""
    store = PostgresStorage(url)
    codes = [f"HIST{i:02d}" for i in range(10)]
    for code in codes:
        store.create_table(_meta(code))
    app = LoopAppender(store)

    async def main() -> None:
        await app.start()
        await asyncio.wait_for(app.append(codes[0], 0, {"type": "Draw"}, 0, 1.0), 5)
        futs = [app.append(c, 0, {"type": "Draw"}, 0, 1.0) for c in codes[1:4]]
        await asyncio.wait_for(asyncio.gather(*futs), 5)
        futs = [app.append(c, 0, {"type": "Draw"}, 0, 1.0) for c in codes[4:]]
        await asyncio.wait_for(asyncio.gather(*futs), 5)
        counters = app.counters()
        assert (counters["pg_loop_batches"], counters["pg_loop_appends"]) == (3, 10)
        assert counters["pg_loop_rows_le_1"] == 1 and counters["pg_loop_rows_le_3"] == 1
        assert counters["pg_loop_rows_le_6"] == 1
        assert sum(v for k, v in counters.items() if k.startswith("pg_loop_rows_le_")) == 3
        await app.close()

    try:
        _run(main)
        assert len(_journal(url)) == 10
    finally:
        store.close()


def test_append_after_the_lease_was_taken_is_refused(url: str) -> None:
    """The fence: a row of a table whose lease another process took is refused by the journal
    (LeaseLost, on_lost called, the table no longer held, nothing written) while the statement's
    other rows commit; a table this process does not hold is refused before any statement."""
    a = LeasedStorage(url, "node-a", ttl=0.3)
    b = LeasedStorage(url, "node-b", ttl=0.3)
    lost: list[str] = []
    a.on_lost = lost.append
    for code in ("FENCEA", "FENCEB", "FENCEC"):
        a.create_table(_meta(code))
    time.sleep(0.4)  # a froze: its leases ran out, and b takes one of them
    assert b.acquire("FENCEB") == 2
    a.fences.pop("FENCEC")
    app = LoopAppender(a)

    async def main() -> list[BaseException | None]:
        await app.start()
        futs = [app.append(c, 0, {"type": "Draw"}, 0, 1.0) for c in ("FENCEA", "FENCEB", "FENCEC")]
        out = await asyncio.gather(*futs, return_exceptions=True)
        await app.close()
        return out

    try:
        out = _run(main)
        assert out[0] is None
        assert isinstance(out[1], LeaseLost) and "another server took it" in str(out[1])
        assert isinstance(out[2], LeaseLost) and "does not hold" in str(out[2])
        assert app.rows == 2  # FENCEC never reached the database
        assert lost == ["FENCEB"] and not a.holds("FENCEB") and a.holds("FENCEA")
        assert set(_journal(url)) == {("FENCEA", 0)}
        # the new owner writes the table as usual
        b.append_action("FENCEB", 0, {"type": "Draw"}, 0, 2.0)
    finally:
        a.close()
        b.close()


def test_a_duplicate_index_fails_alone(url: str) -> None:
    """One row of the statement meets a taken index: the statement is sent again row by row, so
    that append alone fails (the storage's own error) and the others commit."""
    store = LeasedStorage(url, "node-a", ttl=30)
    for code in ("DUPLA1", "DUPLB1", "DUPLC1"):
        store.create_table(_meta(code))
    store.append_action("DUPLB1", 0, {"type": "Draw"}, 0, 1.0)
    app = LoopAppender(store)

    async def main() -> list[BaseException | None]:
        await app.start()
        futs = [
            app.append("DUPLA1", 0, {"type": "Draw"}, 0, 2.0),
            app.append("DUPLB1", 0, {"type": "Again"}, 0, 2.0),
            app.append("DUPLC1", 0, {"type": "Draw"}, 0, 2.0),
        ]
        out = await asyncio.gather(*futs, return_exceptions=True)
        await app.close()
        return out

    try:
        out = _run(main)
        assert out[0] is None and out[2] is None
        assert isinstance(out[1], StorageError) and "duplicate key" in str(out[1])
        assert store.holds("DUPLB1")  # a duplicate is not a lost lease
        journal = _journal(url)
        assert len(journal) == 3 and journal[("DUPLB1", 0)][0] == '{"type": "Draw"}'
    finally:
        store.close()


def test_connections_killed_mid_run_reconnect_and_lose_nothing_acknowledged(url: str) -> None:
    """The appender's connections terminated by the server (pg_terminate_backend) twice while
    20 tables append as fast as they can: the appends in flight fail with a StorageError (none
    of them is known committed), new connections are opened, and every append that was answered
    as committed is in the journal (and each table's journal has no gap)."""
    db, name = _app_url(url)
    store = LeasedStorage(db, "node-a", ttl=30)
    codes = [f"KILL{i:02d}" for i in range(20)]
    for code in codes:
        store.create_table(_meta(code))
    app = LoopAppender(store)
    acked: set[tuple[str, int]] = set()
    failures: list[BaseException] = []

    async def table(code: str, stop: float) -> None:
        index = 0
        while time.monotonic() < stop:
            try:
                await app.append(code, index, {"type": "Draw", "i": index}, 0, time.time())
            except StorageError as exc:
                failures.append(exc)
                await asyncio.sleep(0.05)
                continue  # the same index again, as a player would try the action again
            acked.add((code, index))
            index += 1

    async def killer() -> None:
        for _ in range(2):
            await asyncio.sleep(0.6)
            assert await asyncio.to_thread(terminate_backends, name) >= 2

    async def main() -> None:
        await app.start()
        stop = time.monotonic() + 2.5
        await asyncio.gather(killer(), *(table(c, stop) for c in codes))
        assert app.open_connections == 2
        await app.close()

    try:
        _run(main)
        journal = _journal(url)
        assert acked <= set(journal)
        assert len(acked) > 100 and app.connects >= 4  # 2 at the start, 2 a kill at least
        assert all("not reachable" in str(f) for f in failures), failures[:3]
        for code in codes:
            got = sorted(i for c, i in journal if c == code)
            assert got == list(range(len(got)))
    finally:
        store.close()


def test_thread_path_with_pg_loop_0(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """PARLOUR_PG_LOOP=0 keeps the appends on the journal threads (the batches of
    parlour.server.batch); unset, PostgreSQL appends go through the loop; SQLite never does."""

    async def append(server: TableServer, code: str) -> None:
        await server.startup()
        await server.append_action(code, 0, {"type": "Draw"}, 0, 1.0, "c")
        await server.shutdown()

    monkeypatch.setenv("PARLOUR_PG_LOOP", "0")
    store = open_storage(url)
    store.create_table(_meta("THRD01"))
    threaded = TableServer(store, ServerConfig())
    assert threaded.appender is None
    _run(lambda: append(threaded, "THRD01"))
    assert threaded.journal.calls >= 2  # the startup's codes() and the append

    monkeypatch.delenv("PARLOUR_PG_LOOP")
    store = open_storage(url)
    store.create_table(_meta("LOOP01"))
    looped = TableServer(store, ServerConfig())
    assert looped.appender is not None
    _run(lambda: append(looped, "LOOP01"))
    assert looped.appender.rows == 1 and looped.loop_counters()["pg_loop_appends"] == 1
    assert set(_journal(url)) == {("THRD01", 0), ("LOOP01", 0)}

    assert TableServer(open_storage(url), ServerConfig(pg_loop=False)).appender is None
    lite = TableServer(open_storage("sqlite:///:memory:"), ServerConfig(pg_loop=True))
    assert lite.appender is None
    lite.storage.close()


def test_shutdown_closes_the_connections(url: str) -> None:
    """The server's startup opens the appender's two connections, its shutdown closes them (and
    the pool's): no backend of the server is left."""
    db, name = _app_url(url)

    async def main() -> None:
        server = TableServer(open_storage(db), ServerConfig())
        await server.startup()
        assert server.appender is not None and server.appender.open_connections == 2
        assert await asyncio.to_thread(_backends, name) >= 3  # the pool's one and the loop's two
        await server.shutdown()
        assert server.appender.open_connections == 0

    _run(main)
    deadline = time.monotonic() + 5
    while _backends(name) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _backends(name) == 0
