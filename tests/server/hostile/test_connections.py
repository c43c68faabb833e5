"""Connections no client can break (issue 14 items 1, 2, 7, 10): a socket that never reads, a
reader that falls behind, lone surrogates, deep nesting, a sender that fails, a journal that
fails while a seat connects."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from parlour.server.connection import Connection, encode
from parlour.server.session import _sender
from parlour.server.storage import StorageError
from tests.server.conftest import LiveServer, free_port, live_server, serve_subprocess, wait_http
from tests.server.test_recovery import pg_schema
from tests.support.scripts import load_script

# the raw never-reading socket and the RSS reader are bench/hostile.py's own (one copy)
_hostile = load_script("bench/hostile.py", "bench_hostile")
_rss_mb = _hostile._rss_mb
_raw_ws = _hostile._raw_ws


@pytest.mark.slow
def test_ten_sockets_that_never_read_keep_memory_flat(db_url: str) -> None:
    """Issue 14 item 1 (reproduction: 10 raw sockets on one busy table grew the server by 2.7 GB
    in 30 s and slowed the table from 2,817 to 180 actions/s): with bounded send queues the
    server grows by less than 50 MB in 30 s, the table keeps its pace, and the server answers
    (on each journal)."""
    port = free_port()
    proc = serve_subprocess(db_url, port)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base, proc)
        t = httpx.post(
            f"{base}/api/tables",
            json={
                "game": "samba",
                "players": 4,
                "seats": [{"kind": "bot", "bot": "random"}] * 4,
                "options": {"target_score": 1_000_000},
            },
            timeout=20,
        ).json()
        code = t["code"]

        def version() -> int:
            return int(httpx.get(f"{base}/api/tables/{code}", timeout=20).json()["version"])

        time.sleep(2)
        # the table's own log grows with every move, sockets or not: measure that first
        rss0, v0, t0 = _rss_mb(proc.pid), version(), time.monotonic()
        time.sleep(10)
        rss1, v1, t1 = _rss_mb(proc.pid), version(), time.monotonic()
        pace_alone = (v1 - v0) / (t1 - t0)
        log_mb_per_move = max(0.0, rss1 - rss0) / max(1, v1 - v0)
        sockets = [_raw_ws(port, f"/ws/{code}") for _ in range(10)]
        time.sleep(3)  # the sockets' buffers fill; the server's queues reach their bounds
        before, v2, t2 = _rss_mb(proc.pid), version(), time.monotonic()
        time.sleep(30)
        after, v3, t3 = _rss_mb(proc.pid), version(), time.monotonic()
        pace_watched = (v3 - v2) / (t3 - t2)
        started = time.monotonic()
        assert httpx.get(f"{base}/api/info", timeout=5).status_code == 200
        answer = time.monotonic() - started
        for s in sockets:
            s.close()
        growth = after - before
        from_sockets = growth - log_mb_per_move * (v3 - v2)
        assert from_sockets < 50, (
            f"grew {growth:.1f} MB in 30 s ({before:.0f} → {after:.0f}), of which the log of "
            f"{v3 - v2} moves accounts for {growth - from_sockets:.1f} MB"
        )
        status = httpx.get(f"{base}/api/tables/{code}", timeout=20).json()["status"]
        assert status == "playing"
        assert pace_watched > 0.5 * pace_alone, (pace_alone, pace_watched)
        assert answer < 2.0
        print(
            f"RSS {before:.0f} → {after:.0f} MB in 30 s with 10 non-reading sockets "
            f"({from_sockets:+.1f} MB beyond the log's own growth); pace {pace_alone:.0f} → "
            f"{pace_watched:.0f} moves/s"
        )
    finally:
        proc.kill()
        proc.wait(timeout=20)
        if proc.stdout:
            proc.stdout.close()


def _read_exact(s: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = s.recv(n - len(out))
        if not chunk:
            raise EOFError("the server closed the socket")
        out += chunk
    return out


def _read_frames(s: socket.socket) -> Iterator[tuple[int, bytes]]:
    """Server frames (unmasked) after the HTTP 101 response: (opcode, payload)."""
    head = b""
    while b"\r\n\r\n" not in head:
        head += _read_exact(s, 1)
    assert head.startswith(b"HTTP/1.1 101"), head
    while True:
        b0, b1 = _read_exact(s, 2)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(_read_exact(s, 2), "big")
        elif n == 127:
            n = int.from_bytes(_read_exact(s, 8), "big")
        yield b0 & 0x0F, _read_exact(s, n)


def test_a_reader_that_falls_behind_gets_the_latest_full_state() -> None:
    """Issue 14 item 1: a connection whose backlog passes the bound loses the backlog and gets
    one full state of the table as it is when it reads again (``full_log: true``)."""
    with live_server(send_queue_messages=8) as server:
        t = server.create(
            game="toy",
            players=4,
            seats=[{"kind": "bot", "bot": "random"}] * 4,
            options={"max_hands": 50, "hand_size": 8},
        )
        code = t["code"]
        s = _raw_ws(int(server.base.rsplit(":", 1)[1]), f"/ws/{code}")
        try:
            table = server.app.state.server.tables[code]
            deadline = time.monotonic() + 20
            while (not table.connections or table.connections[0].behind == 0) and (
                time.monotonic() < deadline
            ):
                time.sleep(0.05)  # read nothing while the bots play flat out
            conn = table.connections[0]
            assert conn.behind > 0 and len(conn.queue) <= 8
            s.settimeout(20)
            states = []
            for opcode, payload in _read_frames(s):
                assert opcode == 1
                msg = json.loads(payload)
                if msg["type"] == "state":
                    states.append(msg)
                    if len(states) > 1 and msg["full_log"]:
                        break
            resync = states[-1]
            # the dropped backlog: some versions were never sent, the resync jumped over them
            assert len(states) < table.version
            assert len({m["version"] for m in states}) < resync["version"]
            assert resync["full_log"] and resync["version"] >= states[-2]["version"]
            assert resync["events"][0]["i"] == 0  # the whole visible log, not a gap
        finally:
            s.close()


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "ping", "t": "\\udfff"}',
        '{"type": "\\udfff"}',
        '{"type": "action", "version": 0, "id": "\\ud800", "action": {"type": "Draw"}}',
        '{"type": "action", "version": 0, "action": {"type": "Play", "card": "\\udc00"}}',
        '{"\\udfff": 1, "type": "ping"}',
    ],
)
def test_a_lone_surrogate_never_silences_the_connection(server: LiveServer, raw: str) -> None:
    """Issue 14 item 2 (reproduction: ``{"type":"ping","t":"\\udfff"}`` killed the sender task
    and every later message queued for ever): the message is refused with ``bad_text`` and the
    connection keeps working."""
    t = server.create(
        game="toy", players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    )
    c = server.ws(t["code"], t["you"]["token"])
    c.until("state")
    c.send(raw)
    err = c.until("error")
    assert err["code"] == "bad_text" and "surrogate" in err["message"]
    c.send({"type": "ping", "t": 42})
    assert c.until("pong")["t"] == 42
    rec = server.http.get(f"/api/tables/{t['code']}").json()
    assert rec["seats"][0]["controller"] == "human"
    c.close()


def test_encode_escapes_what_utf8_cannot_carry() -> None:
    """Issue 14 item 2: whatever reaches the encoder goes out as valid UTF-8 JSON."""
    text = encode({"t": "\udfff", "card": "7♦"})
    text.encode("utf-8")
    assert json.loads(text) == {"t": "\udfff", "card": "7♦"}
    assert "7♦" in encode({"card": "7♦"})  # plain text stays readable


def test_a_failing_sender_closes_the_socket_and_ends_the_connection() -> None:
    """Issue 14 item 2: a send that fails (any error) closes the socket with a reason and marks
    the connection closed, so the seat counts as away and a bot can stand in."""

    class BrokenSocket:
        closed_with: tuple[int, str] | None = None

        async def send_text(self, text: str) -> None:
            raise RuntimeError("boom")

        async def close(self, code: int = 1000, reason: str = "") -> None:
            self.closed_with = (code, reason)

    async def run() -> tuple[Connection, BrokenSocket]:
        ws = BrokenSocket()
        conn = Connection(0)
        conn.send({"type": "pong"})
        await asyncio.wait_for(_sender(ws, conn, 5.0), 5)  # type: ignore[arg-type]
        return conn, ws

    conn, ws = asyncio.run(run())
    assert conn.closed and "send failed" in conn.close_reason
    assert ws.closed_with is not None and ws.closed_with[0] == 4008


def test_a_stalled_socket_is_closed_after_the_send_timeout() -> None:
    """Issue 14 item 1: a socket that takes no message within the timeout is closed with a
    reason, not kept for ever."""

    class StalledSocket:
        closed_with: tuple[int, str] | None = None

        async def send_text(self, text: str) -> None:
            await asyncio.sleep(3600)

        async def close(self, code: int = 1000, reason: str = "") -> None:
            self.closed_with = (code, reason)

    async def run() -> tuple[Connection, StalledSocket]:
        ws = StalledSocket()
        conn = Connection(None)
        conn.send({"type": "pong"})
        await asyncio.wait_for(_sender(ws, conn, 0.2), 5)  # type: ignore[arg-type]
        return conn, ws

    conn, ws = asyncio.run(run())
    assert conn.closed and "too slow" in conn.close_reason
    assert ws.closed_with is not None and "too slow" in ws.closed_with[1]


def test_the_queue_is_bounded_in_bytes_too() -> None:
    """Issue 14 item 1: a few huge messages cannot pile up either."""
    conn = Connection(0, lambda c: '{"type": "state", "full_log": true}', max_bytes=10_000)
    for _ in range(20):
        conn.send_text("x" * 3000)
    assert conn.bytes <= 10_000 and conn.behind >= 1

    async def drain() -> list[str]:
        out = []
        while conn.queue or conn.lagging:
            text = await conn.next()
            assert text is not None
            out.append(text)
        return out

    sent = asyncio.run(drain())
    assert sent[-1] == '{"type": "state", "full_log": true}'


@pytest.mark.parametrize("depth", [40, 10_000, 100_000])
def test_deeply_nested_json_is_refused_clearly(server: LiveServer, depth: int) -> None:
    """Issue 14 item 10: deep nesting over the WebSocket and in an HTTP body is a clear 4xx /
    error message, never a RecursionError or a 500."""
    t = server.create(
        game="toy", players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    )
    c = server.ws(t["code"], t["you"]["token"])
    c.until("state")
    nested = "[" * depth + "]" * depth
    if len(nested) < 64 * 1024:
        c.send('{"type": "ping", "t": ' + nested + "}")
        err = c.until("error")
        assert err["code"] == "bad_json" and "nested deeper" in err["message"]
    body = '{"game": "toy", "name": ' + nested + "}"
    r = server.http.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code in (400, 413)
    assert "nested deeper" in r.json()["detail"] or "over" in r.json()["detail"]
    c.send({"type": "ping", "t": 1})
    assert c.until("pong")["t"] == 1
    c.close()


def test_lone_surrogates_and_nan_in_http_bodies(server: LiveServer) -> None:
    """Issue 14 item 10: an HTTP body with a lone surrogate or NaN is a 400 naming the problem;
    nothing is written."""
    before = server.http.get("/api/tables?status=all").json()["total"]
    for body in (
        '{"game": "toy", "name": "\\udfff"}',
        '{"game": "toy", "options": {"max_hands": NaN}}',
        '{"game": "toy", "name": "x", "name": "\\ud800"}',
    ):
        r = server.http.post(
            "/api/tables", content=body, headers={"content-type": "application/json"}
        )
        assert r.status_code == 400, r.text
        assert "surrogate" in r.json()["detail"] or "NaN" in r.json()["detail"]
    r = server.http.post(
        "/api/tables", content=b"\xff\xfe{", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and "UTF-8" in r.json()["detail"]
    assert server.http.get("/api/tables?status=all").json()["total"] == before


def test_a_journal_error_while_a_seat_connects_leaves_no_ghost(server: LiveServer) -> None:
    """Issue 14 item 7 (a journal error while a seat connected left a ghost connection that
    stalled the table for ever): the seat's connection works, and the seat is saved once the
    journal answers again."""
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    code = t["code"]
    store = server.app.state.server.storage
    real = store.update_table
    failures = {"n": 0}

    def flaky(*args: Any, **kwargs: Any) -> None:
        if failures["n"] < 3:
            failures["n"] += 1
            raise StorageError("the database is not reachable: test")
        real(*args, **kwargs)

    store.update_table = flaky
    try:
        a = server.ws(code, t["seats"][0]["token"])
        b = server.ws(code, t["seats"][1]["token"])
        for c in (a, b):
            while c.state is None or c.state["status"] != "playing":
                c.until("state")
        table = server.app.state.server.tables[code]
        assert len(table.connections) == 2
        deadline = time.monotonic() + 10
        while table.persist_due and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not table.persist_due and failures["n"] == 3
        meta, _ = store.load_table(code)
        assert meta.status == "playing" and all(s["ever_connected"] for s in meta.seats)
        a.close()
        time.sleep(0.3)
        assert len(table.connections) == 1  # the closed one is gone: no ghost
        b.close()
    finally:
        store.update_table = real


def test_a_brief_journal_error_does_not_swap_a_bot_for_random_for_good(
    server: LiveServer,
) -> None:
    """Issue 14 item 7: while the journal is away the bots wait and retry; afterwards every
    bot seat is still played by its own bot, and the match goes on."""
    t = server.create(
        game="toy",
        players=2,
        seats=[{"kind": "bot", "bot": "strong:0.3"}, {"kind": "bot", "bot": "strong:0.3"}],
        options={"max_hands": 1},
    )
    code = t["code"]
    store = server.app.state.server.storage
    real = store.append_action
    away = {"until": time.monotonic() + 1.5, "refused": 0}

    def flaky(*args: Any, **kwargs: Any) -> None:
        if time.monotonic() < away["until"]:
            away["refused"] += 1
            raise StorageError("the database is not reachable: test")
        real(*args, **kwargs)

    store.append_action = flaky
    try:
        table = server.app.state.server.tables[code]
        deadline = time.monotonic() + 60
        while time.monotonic() < away["until"]:
            time.sleep(0.05)
        back = table.version  # the journal is back: the match goes on by its own bots
        while (
            table.status != "finished" and table.version < back + 6 and time.monotonic() < deadline
        ):
            time.sleep(0.1)
        assert away["refused"] >= 1
        assert table.status == "finished" or table.version >= back + 6
        assert {b.name for b in table._bots.values()} == {"strong"}
    finally:
        store.append_action = real


def test_database_away_gives_clear_errors(server: LiveServer) -> None:
    """Issue 14 item 8: while the journal cannot be written, an action is refused with
    ``unavailable`` (nothing changed) and creating a table is a 503 with the reason — not a bare
    500; afterwards play goes on."""
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    code = t["code"]
    a = server.ws(code, t["seats"][0]["token"])
    b = server.ws(code, t["seats"][1]["token"])
    for c in (a, b):
        while c.state is None or c.state["status"] != "playing":
            c.until("state")
    store = server.app.state.server.storage
    real_append, real_create = store.append_action, store.create_table

    def down(*args: Any, **kwargs: Any) -> None:
        raise StorageError("the database is not reachable: test")

    store.append_action = store.create_table = down
    try:
        mover = a if a.state["your_turn"] else b  # type: ignore[index]
        mover.act(mover.state["legal"][0]["action"])  # type: ignore[index]
        err = mover.until("error")
        assert err["code"] == "unavailable" and "try again" in err["message"]
        r = server.http.post("/api/tables", json={"game": "toy"})
        assert r.status_code == 503 and "not reachable" in r.json()["detail"]
    finally:
        store.append_action, store.create_table = real_append, real_create
    mover.act(mover.state["legal"][0]["action"])  # type: ignore[index]
    assert mover.until("state")["version"] == 1
    a.close()
    b.close()


def _playing_pair(server: LiveServer) -> tuple[str, Any, Any]:
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    a = server.ws(t["code"], t["seats"][0]["token"])
    b = server.ws(t["code"], t["seats"][1]["token"])
    for c in (a, b):
        while c.state is None or c.state["status"] != "playing":
            c.until("state")
    return t["code"], a, b


def test_a_slow_write_of_one_table_does_not_hold_up_the_others() -> None:
    """Issue 14 item 8 (a 20 s partition froze every table): on PostgreSQL, while one table's
    journal write hangs for 3 s, another table's move is journaled and answered at once — no
    lock is held across the slow write but that table's own."""
    with pg_schema() as url, live_server(url) as server:
        slow_code, sa, sb = _playing_pair(server)
        fast_code, fa, fb = _playing_pair(server)
        store = server.app.state.server.storage
        assert store.concurrency > 1
        real = store.append_action

        def slow(code: str, *args: Any, **kwargs: Any) -> None:
            if code == slow_code:
                time.sleep(3.0)
            real(code, *args, **kwargs)

        store.append_action = slow
        try:
            mover = sa if sa.state["your_turn"] else sb  # type: ignore[index]
            mover.act(mover.state["legal"][0]["action"])  # type: ignore[index]
            time.sleep(0.3)  # the slow write is under way
            fast = fa if fa.state["your_turn"] else fb  # type: ignore[index]
            started = time.monotonic()
            fast.act(fast.state["legal"][0]["action"])  # type: ignore[index]
            assert fast.until("state", timeout=10)["version"] == 1
            took = time.monotonic() - started
            assert took < 1.5, f"the other table waited {took:.2f} s behind the slow write"
            # the slow table's own move is answered once its write is done
            assert mover.until("state", timeout=10)["version"] == 1
            info = server.http.get(f"/api/tables/{fast_code}", timeout=5)
            assert info.status_code == 200
        finally:
            store.append_action = real
        for c in (sa, sb, fa, fb):
            c.close()


def test_every_lobby_call_is_a_clear_503_while_the_database_is_away(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 14 item 8 (a 20 s partition: the lobby returned bare 500s): with every journal call
    failing, each lobby call that needs the journal is a 503 with the reason — no 500, no
    traceback — and everything works again once the journal is back. (``leave`` is answered:
    the seat change is kept in memory and written when the journal answers, docs/server.md.)"""
    import logging

    caplog.set_level(logging.WARNING)
    with live_server(finished_linger=0.0) as server:
        kept = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
        done = server.create(
            game="toy",
            players=2,
            seats=[{"kind": "bot", "bot": "random"}] * 2,
            options={"max_hands": 1},
        )["code"]
        lobby = server.app.state.server
        deadline = time.monotonic() + 20
        while lobby.tables[done].status != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)
        lobby.tables.pop(done)  # gone from memory: reading it needs the journal
        store = lobby.storage
        names = ("create_table", "update_table", "append_action", "load_table", "codes")
        names += ("add_record", "records")
        real = {n: getattr(store, n) for n in names}

        def down(*args: Any, **kwargs: Any) -> Any:
            raise StorageError("the database is not reachable: test")

        for n in names:
            setattr(store, n, down)
        try:
            calls = [
                ("POST", "/api/tables", {"game": "toy"}),
                ("GET", f"/api/tables/{done}", None),
                ("GET", f"/api/tables/{done}/replay", None),
                ("GET", f"/api/tables/{done}/verify", None),
                ("GET", "/api/tables/ZZZZZZ", None),
                ("POST", f"/api/tables/{kept['code']}/rotate", {"token": kept["you"]["token"]}),
            ]
            for method, path, body in calls:
                r = server.http.request(method, path, json=body)
                assert r.status_code == 503, (method, path, r.status_code, r.text)
                assert "not reachable" in r.json()["detail"] or "just now" in r.json()["detail"]
            assert server.http.get("/api/info").status_code == 200
        finally:
            for n, fn in real.items():
                setattr(store, n, fn)
        assert server.http.get(f"/api/tables/{done}").json()["status"] == "finished"
        r = server.http.post(
            f"/api/tables/{kept['code']}/rotate", json={"token": kept["you"]["token"]}
        )
        assert r.status_code == 200
        tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
        assert not tracebacks, tracebacks
