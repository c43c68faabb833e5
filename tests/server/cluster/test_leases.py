"""The lease and its fencing token, on the journal itself: a process whose lease expired or was
taken cannot write a table's journal, whatever it believes."""

from __future__ import annotations

import functools
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from parlour.server.leases import LeasedStorage, LeaseLost
from parlour.server.storage import TableMeta
from tests.server.test_recovery import pg_schema


@pytest.fixture
def url() -> Iterator[str]:
    with pg_schema() as u:
        yield u


def _meta(code: str) -> TableMeta:
    return TableMeta(code, "toy", "toy", {"players": 2}, 1, 0, [], "playing", "", 1.0)


def test_stale_owner_is_refused_by_the_journal(url: str) -> None:
    a = LeasedStorage(url, "node-a", ttl=0.6)
    b = LeasedStorage(url, "node-b", ttl=0.6)
    lost: list[str] = []
    a.on_lost = lost.append
    try:
        a.create_table(_meta("LEASE1"))
        a.append_action("LEASE1", 0, {"type": "Draw"}, 0, 1.0)
        assert b.acquire("LEASE1") is None  # held and not expired
        with pytest.raises(LeaseLost):  # b does not hold it: its writes are refused
            b.append_action("LEASE1", 1, {"type": "Draw"}, 0, 1.0)
        assert a.renew() == []
        time.sleep(0.8)  # a froze: its lease ran out
        # …but nobody took it yet: a is still the only possible writer, its token is current
        a.append_action("LEASE1", 1, {"type": "Pass"}, 1, 1.5)
        assert b.acquire("LEASE1") == 2
        # a wakes up and carries on as if nothing happened: every kind of write is refused
        with pytest.raises(LeaseLost):
            a.append_action("LEASE1", 2, {"type": "Pass"}, 1, 2.0)
        assert lost == ["LEASE1"] and not a.holds("LEASE1")
        a.fences["LEASE1"] = 1  # even with the old token forced back in
        with pytest.raises(LeaseLost):
            a.add_record("LEASE1", "chat", {}, 2.0)
        a.fences["LEASE1"] = 1
        with pytest.raises(LeaseLost):
            a.update_table("LEASE1", [], "finished", 2.0)
        a.fences["LEASE1"] = 1
        assert a.renew() == ["LEASE1"]  # and its renewal says so
        b.append_action("LEASE1", 2, {"type": "Draw"}, 0, 3.0)
        _, actions = b.load_table("LEASE1")  # type: ignore[misc]
        assert [e.action for e in actions] == [{"type": "Draw"}, {"type": "Pass"}, {"type": "Draw"}]
        with psycopg.connect(url, autocommit=True) as conn:
            log = conn.execute(
                "SELECT token, owner FROM parlour_lease_log WHERE code = 'LEASE1' ORDER BY token"
            ).fetchall()
        assert log == [(1, "node-a"), (2, "node-b")]
        # released leases are free at once
        b.release()
        assert a.acquire("LEASE1") == 3
    finally:
        a.close()
        b.close()


def test_a_write_in_flight_and_a_takeover_never_both_win(url: str) -> None:
    """The write locks the lease row (FOR KEY SHARE) in its statement: a takeover that comes while a
    write is in flight waits for it, and a write after a takeover finds the new token."""
    a = LeasedStorage(url, "node-a", ttl=0.3)
    b = LeasedStorage(url, "node-b", ttl=0.3)
    try:
        a.create_table(_meta("RACE01"))
        time.sleep(0.4)
        results: dict[str, object] = {}

        def take() -> None:
            results["token"] = b.acquire("RACE01")

        # a transaction of a's holds the lease row as a fenced write does, then commits
        with psycopg.connect(url, autocommit=False) as conn:
            conn.execute(
                "SELECT 1 FROM parlour_leases WHERE code = 'RACE01' AND token = 1 FOR KEY SHARE"
            )
            taker = threading.Thread(target=take)
            taker.start()
            taker.join(0.5)
            assert taker.is_alive()  # the takeover waits for the write's transaction
            conn.commit()
        taker.join(5)
        assert results["token"] == 2
        with pytest.raises(LeaseLost):
            a.append_action("RACE01", 0, {"type": "Draw"}, 0, 1.0)
    finally:
        a.close()
        b.close()


def test_fenced_write_inside_a_batch_is_refused_and_the_others_commit(url: str) -> None:
    """in a journal batch (one transaction) each write is still fenced on its
    own: the write to a table another process took is refused (LeaseLost), nothing of it is
    kept, and the batch's other writes commit."""
    a = LeasedStorage(url, "node-a", ttl=0.3)
    b = LeasedStorage(url, "node-b", ttl=0.3)
    lost: list[str] = []
    a.on_lost = lost.append
    try:
        a.create_table(_meta("KEEP01"))
        a.create_table(_meta("TAKE01"))
        time.sleep(0.4)  # both of a's leases ran out; b takes one, a does not know
        assert b.acquire("TAKE01") == 2
        assert a.fences["TAKE01"] == 1
        out = a.run_batch(
            [
                lambda: a.append_action("KEEP01", 0, {"type": "Draw"}, 0, 1.0),
                lambda: a.append_action("TAKE01", 0, {"type": "Draw"}, 0, 1.0),
                lambda: a.add_record("TAKE01", "chat", {}, 1.0),
                lambda: a.update_table("TAKE01", [], "finished", 1.0),
                lambda: a.add_record("KEEP01", "chat", {}, 1.0),
            ]
        )
        assert [ok for ok, _ in out] == [True, False, False, False, True]
        assert all(isinstance(v, LeaseLost) for _, v in out[1:4])
        assert lost == ["TAKE01"] and a.group_commits == 1
        _, kept = a.load_table("KEEP01")  # type: ignore[misc]
        assert len(kept) == 1 and len(a.records("KEEP01")) == 1
        meta, taken = a.load_table("TAKE01")  # type: ignore[misc]
        assert taken == [] and a.records("TAKE01") == [] and meta.status == "playing"
    finally:
        a.close()
        b.close()


def test_renewal_never_deadlocks_with_a_batch(url: str) -> None:
    """a batch holds the lease rows of the tables it wrote until it commits; the
    renewal (one UPDATE of all this process's leases) must neither wait for it nor deadlock with
    it (a batch holding table B's row and asking for A's while the renewal holds A's and waits
    for B's)."""
    a = LeasedStorage(url, "node-a", ttl=5)
    try:
        a.create_table(_meta("DLOCKA"))
        a.create_table(_meta("DLOCKB"))
        renewed: list[object] = []

        def renew() -> None:
            try:
                renewed.append(a.renew())
            except Exception as exc:
                renewed.append(exc)

        def renew_meanwhile() -> None:
            t = threading.Thread(target=renew)
            t.start()
            t.join(0.5)  # the renewal runs while the batch holds B's lease row
            renewed.append("alive" if t.is_alive() else "done")
            t.join(10)

        t0 = time.monotonic()
        out = a.run_batch(
            [
                lambda: a.append_action("DLOCKB", 0, {"type": "Draw"}, 0, 1.0),
                renew_meanwhile,
                lambda: a.append_action("DLOCKA", 0, {"type": "Draw"}, 0, 1.0),
            ]
        )
        assert [ok for ok, _ in out] == [True, True, True], out
        assert renewed[0] == [] and renewed[1] == "done", renewed
        assert time.monotonic() - t0 < 1.0  # no deadlock_timeout (1 s) waited out
    finally:
        a.close()


def test_a_batchs_appends_are_one_fenced_statement(url: str) -> None:
    """the appends of a batch (one a table) are one multi-row INSERT, each row
    still fenced by its own table's lease: the row of a table another process took is refused
    (LeaseLost, on_lost, nothing written), the others are written and committed, and a call
    about another table in the same batch still runs in its savepoint."""
    a = LeasedStorage(url, "node-a", ttl=0.3)
    b = LeasedStorage(url, "node-b", ttl=0.3)
    lost: list[str] = []
    a.on_lost = lost.append
    statements: list[str] = []
    try:
        for code in ("MULTIA", "MULTIB", "MULTIC", "MULTID", "MULTIE"):
            a.create_table(_meta(code))
        time.sleep(0.4)  # a's leases ran out; b takes one, a does not know
        assert b.acquire("MULTIB") == 2
        a.fences.pop("MULTID")  # a dropped this one already: refused before any statement
        calls = [
            functools.partial(a.append_action, "MULTIA", 0, {"type": "Draw"}, 0, 1.0, "c0"),
            functools.partial(a.append_action, "MULTIB", 0, {"type": "Draw"}, 1, 1.0),
            functools.partial(a.add_record, "MULTIC", "chat", {"n": 1}, 1.0),
            functools.partial(a.append_action, "MULTIC", 0, {"type": "Pass"}, None, 2.0),
            functools.partial(a.append_action, "MULTID", 0, {"type": "Pass"}, 0, 2.0),
        ]
        assert a._appends(calls) is None  # MULTIC has a record in the batch too: call by call
        del calls[2]
        assert a._appends(calls) is not None
        real = a._append_many

        def counted(conn: Any, rows: list[tuple[Any, ...]]) -> list[tuple[bool, Any]]:
            statements.append("many")
            return real(conn, rows)

        a._append_many = counted  # type: ignore[method-assign]
        out = a.run_batch([*calls, functools.partial(a.add_record, "MULTIE", "chat", {}, 3.0)])
        assert statements == ["many"]
        assert [ok for ok, _ in out] == [True, False, True, False, True]
        assert isinstance(out[1][1], LeaseLost) and isinstance(out[3][1], LeaseLost)
        assert lost == ["MULTIB"] and not a.holds("MULTIB") and a.group_commits == 1
        _, rows_a = a.load_table("MULTIA")  # type: ignore[misc]
        assert [(e.index, e.action, e.seat, e.chain) for e in rows_a] == [
            (0, {"type": "Draw"}, 0, "c0")
        ]
        assert len(a.records("MULTIE")) == 1
        _, rows_c = a.load_table("MULTIC")  # type: ignore[misc]
        assert [(e.action, e.seat, e.chain) for e in rows_c] == [({"type": "Pass"}, None, None)]
        assert b.load_table("MULTIB")[1] == [] and b.load_table("MULTID")[1] == []  # type: ignore[index]
    finally:
        a.close()
        b.close()


def test_a_duplicate_in_a_batchs_appends_fails_alone(url: str) -> None:
    """one row of the multi-row INSERT meets a taken index: the statement is
    undone and the batch runs again call by call, so that call alone fails and the others
    commit."""
    a = LeasedStorage(url, "node-a", ttl=30)
    try:
        for code in ("DUPA01", "DUPB01", "DUPC01"):
            a.create_table(_meta(code))
        a.append_action("DUPB01", 0, {"type": "Draw"}, 0, 1.0)
        out = a.run_batch(
            [
                functools.partial(a.append_action, "DUPA01", 0, {"type": "Draw"}, 0, 2.0),
                functools.partial(a.append_action, "DUPB01", 0, {"type": "Again"}, 0, 2.0),
                functools.partial(a.append_action, "DUPC01", 0, {"type": "Draw"}, 0, 2.0),
            ]
        )
        assert [ok for ok, _ in out] == [True, False, True]
        assert a.group_commits == 1 and a.holds("DUPB01")  # a duplicate is not a lost lease
        assert [len(a.load_table(c)[1]) for c in ("DUPA01", "DUPB01", "DUPC01")] == [1, 1, 1]  # type: ignore[index]
        assert a.load_table("DUPB01")[1][0].action == {"type": "Draw"}  # type: ignore[index]
    finally:
        a.close()


def test_a_renewal_during_a_batch_that_creates_a_table_keeps_it(url: str) -> None:
    """a table created in a journal batch holds its lease only once the batch
    committed; a renewal meanwhile (which cannot see the uncommitted lease row) must not count
    it lost and drop it (seen at 600 bench tables: creations refused, "does not hold the
    table's lease")."""
    a = LeasedStorage(url, "node-a", ttl=5)
    try:
        a.create_table(_meta("OLDT01"))
        renewed: list[object] = []

        def renew_meanwhile() -> None:
            t = threading.Thread(target=lambda: renewed.append(a.renew()))
            t.start()
            t.join(5)
            renewed.append(a.holds("NEWT01"))

        out = a.run_batch(
            [
                functools.partial(a.create_table, _meta("NEWT01")),
                renew_meanwhile,
                functools.partial(a.append_action, "OLDT01", 0, {"type": "Draw"}, 0, 1.0),
            ]
        )
        assert [ok for ok, _ in out] == [True, True, True], out
        assert renewed == [[], False]  # nothing lost; the new lease not yet held mid-batch
        assert a.holds("NEWT01") and a.renew() == []
        a.append_action("NEWT01", 0, {"type": "Draw"}, 0, 2.0)
    finally:
        a.close()


def test_the_fenced_appends_read_the_lease_rows_by_key(url: str) -> None:
    """the multi-row append's fence looks its tables' lease rows up by their key,
    in the generic plan the event loop's connections use (``force_generic_plan``).  As a plain
    join, that plan read every lease row of the cluster (a sequential scan and a hash join) for
    each statement: ~0.2 ms of the backend's CPU at 1,800 tables."""
    from parlour.server.leases import FENCED_APPEND_MANY_SQL
    from parlour.server.storage import numbered

    a = LeasedStorage(url, "node-a", ttl=30)
    try:
        a.create_table(_meta("PLAN01"))
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO parlour_leases (code, owner, token, expires) SELECT 'L' || i, "
                "CASE WHEN i % 2 = 0 THEN 'node-a' ELSE 'node-b' END, 1, now() "
                "FROM generate_series(1, 2000) i"
            )
            conn.execute("ANALYZE parlour_leases")
            conn.execute("SET plan_cache_mode = force_generic_plan")
            conn.execute(
                "PREPARE fenced(text[], bigint[], int[], text[], int[], float8[], text[], text) "
                "AS " + numbered(FENCED_APPEND_MANY_SQL)
            )
            plan = "\n".join(
                r[0]
                for r in conn.execute(
                    "EXPLAIN EXECUTE fenced('{PLAN01}', '{1}', '{0}', '{\"{}\"}', '{0}', '{1}', "
                    "'{NULL}', 'node-a')"
                )
            )
        assert "Index Scan using parlour_leases_pkey on parlour_leases" in plan, plan
        assert re.search(r"Index Cond: \(code = v(_\d+)?\.code\)", plan), plan
        assert "Seq Scan on parlour_leases" not in plan, plan
    finally:
        a.close()
