"""The lobby under a flood of strangers (issue 14 items 3, 9, 10, 11): rate limits, pagination,
expiry, memory, origins and hosts, tokens out of logs, broken tables skipped at startup."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from parlour.server.guard import DEFAULT_LIMITS, Limit, install_log_redaction
from tests.server.conftest import (
    ROOT,
    LiveServer,
    free_port,
    live_server,
    serve_subprocess,
    wait_http,
)


def test_table_creation_is_rate_limited_per_address() -> None:
    """Issue 14 item 9: creating tables, joining and looking up are limited per client address;
    past the limit the answer is 429 with a ``Retry-After`` and a reason in words."""
    limits = {"create": Limit(5, 6), "join": Limit(3, 6), "lookup": Limit(20, 60)}
    with live_server(rate_limits=limits) as server:
        made = 0
        while True:
            r = server.http.post("/api/tables", json={"game": "toy", "players": 2})
            if r.status_code != 201:
                break
            made += 1
            assert made <= 5
        assert made == 5 and r.status_code == 429
        assert int(r.headers["Retry-After"]) >= 1 and "too many" in r.json()["detail"]
        statuses = [server.http.get("/api/tables/ZZZZZZ").status_code for _ in range(25)]
        assert statuses.count(404) == 20 and statuses[-1] == 429
        # a WebSocket opened past the lookup limit is refused at the handshake
        with pytest.raises(Exception, match="HTTP 429"):
            server.ws("ZZZZZZ").recv(timeout=5)
        # joins (claims, joins, rotations, leaves) have their own bucket
        joins = [
            server.http.post("/api/tables/ZZZZZZ/claim", json={"invite": "x" * 43})
            for _ in range(4)
        ]
        assert [r.status_code for r in joins[:3]] == [404] * 3, [r.text for r in joins]
        assert joins[3].status_code == 429 and int(joins[3].headers["Retry-After"]) >= 1


def test_the_default_creation_limit_lets_ten_tables_through() -> None:
    """Issue 14 item 9 ("tables created before the rate limit"): with the server's default
    budget one address creates 10 tables at once; the 11th is a 429 with ``Retry-After``."""
    with live_server(rate_limits=dict(DEFAULT_LIMITS)) as server:
        statuses = [
            server.http.post("/api/tables", json={"game": "toy", "players": 2}).status_code
            for _ in range(12)
        ]
        assert statuses[:10] == [201] * 10 and statuses[10:] == [429, 429], statuses
        print(f"tables created before the rate limit (default budget): {statuses.index(429)}")


def test_the_table_list_is_paginated(server: LiveServer) -> None:
    """Issue 14 item 9: ``GET /api/tables`` answers a page at a time (at most 200)."""
    codes = [
        server.create(
            game="toy",
            players=2,
            seats=[{"kind": "human"}, {"kind": "human", "open": True}],
            claim_invites=False,
        )["code"]
        for _ in range(5)
    ]
    page = server.http.get("/api/tables?limit=2").json()
    assert page["total"] == 5 and page["limit"] == 2 and len(page["tables"]) == 2
    seen = []
    offset = 0
    while offset < page["total"]:
        chunk = server.http.get(f"/api/tables?limit=2&offset={offset}").json()["tables"]
        seen += [t["code"] for t in chunk]
        offset += 2
    assert seen == codes
    assert server.http.get("/api/tables?limit=100000").status_code == 422


def test_waiting_tables_expire_and_finished_tables_leave_memory() -> None:
    """Issue 14 item 9: a table nobody started expires after the configured time (then 410);
    a finished table nobody watches is dropped from memory (the journal keeps it; it loads again
    on demand)."""
    with live_server(waiting_expiry=0.0, finished_linger=0.0, sweep_interval=3600) as server:
        lobby = server.app.state.server
        waiting = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)["code"]
        done = server.create(
            game="toy",
            players=2,
            seats=[{"kind": "bot", "bot": "random"}] * 2,
            options={"max_hands": 1},
        )["code"]
        deadline = time.monotonic() + 20
        while lobby.tables[done].status != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)
        asyncio.run_coroutine_threadsafe(lobby.sweep(), _loop(server)).result(10)
        assert waiting not in lobby.tables and done not in lobby.tables
        r = server.http.get(f"/api/tables/{waiting}")
        assert r.status_code == 410 and "expired" in r.json()["detail"]
        assert server.http.get(f"/api/tables/{done}").json()["status"] == "finished"
        assert server.http.get(f"/api/tables/{done}/replay").status_code == 200
        listed = server.http.get("/api/tables?status=all").json()["tables"]
        assert waiting not in [t["code"] for t in listed]


def _loop(server: LiveServer) -> asyncio.AbstractEventLoop:
    """The event loop the live server runs on (its lobby's tasks live there)."""
    lobby = server.app.state.server
    task = lobby._sweeper
    assert task is not None
    return task.get_loop()


def test_unknown_hosts_and_foreign_origins_are_refused(server: LiveServer) -> None:
    """Issue 14 item 11: the server answers only its own address (DNS rebinding) and a browser
    page of another site can neither open a table's socket nor post to the lobby."""
    r = server.http.get("/api/info", headers={"Host": "evil.example"})
    assert r.status_code == 400 and "Host" in r.json()["detail"]
    r = server.http.post(
        "/api/tables", json={"game": "toy"}, headers={"Origin": "https://evil.example"}
    )
    assert r.status_code == 403
    r = server.http.post("/api/tables", json={"game": "toy"}, headers={"Origin": server.base})
    assert r.status_code == 201
    code = r.json()["code"]
    with (
        pytest.raises(Exception, match="HTTP 403"),
        connect(
            f"{server.ws_base}/ws/{code}", additional_headers={"Origin": "https://evil.example"}
        ) as ws,
    ):
        ws.recv(timeout=5)
    with connect(f"{server.ws_base}/ws/{code}", additional_headers={"Origin": server.base}) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
    # DNS rebinding on the WebSocket too: an upgrade request naming another host is refused
    # (a raw request: the client library would send its own Host header first)
    port = int(server.base.rsplit(":", 1)[1])
    for host, status in (("evil.example", b"403"), (f"127.0.0.1:{port}", b"101")):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall(
                f"GET /ws/{code} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            assert s.recv(4096).split(b"\r\n", 1)[0].split()[1] == status, host


def test_allowed_origins_are_configurable() -> None:
    """Issue 14 item 11: ``--allow-origin`` adds an origin (e.g. a proxy's public address)."""
    with live_server(allow_origins=("https://cards.example.org",)) as server:
        t = server.create(game="toy", players=2)
        with connect(
            f"{server.ws_base}/ws/{t['code']}",
            additional_headers={"Origin": "https://cards.example.org"},
        ) as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"


def test_tokens_never_reach_the_access_log(tmp_path: Path) -> None:
    """Issue 14 item 11: with access logging on, a seat's token, an invite and a contribution
    never appear in the server's output."""
    port = free_port()
    proc = serve_subprocess(f"sqlite:///{tmp_path / 'j.db'}", port, "--log-level", "info")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base, proc)
        t = httpx.post(
            f"{base}/api/tables",
            json={"game": "toy", "players": 2, "seats": [{"kind": "human"}] * 2},
        ).json()
        token, invite = t["you"]["token"], t["seats"][1]["invite"]
        with connect(f"ws://127.0.0.1:{port}/ws/{t['code']}?seat={token}&contrib={'a' * 32}") as ws:
            ws.recv(timeout=5)
        httpx.get(f"{base}/t/{t['code']}?invite={invite}")
        httpx.get(f"{base}/t/{t['code']}?seat={token}")
        time.sleep(0.5)
    finally:
        proc.terminate()
        out = proc.communicate(timeout=20)[0]
    assert "WebSocket /ws/" in out and f"/t/{t['code']}" in out  # the log is on
    assert token not in out and invite not in out and "a" * 32 not in out
    assert "seat=***" in out


def test_broken_tables_are_reported_once_and_skipped_at_startup(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 14 items 3 and 10 (reproduction: ``hand_size: [1]`` wrote a row that failed to load
    at every restart): a table whose stored rules, game or moves cannot be played back is
    reported once with its reason, skipped, and never blocks the others."""
    db = tmp_path / "j.db"
    with live_server(f"sqlite:///{db}") as server:
        good = server.create(game="toy", players=2)["code"]
        bad_rules = server.create(game="toy", players=2)["code"]
        bad_game = server.create(game="toy", players=2)["code"]
        bad_move = server.create(
            game="toy",
            players=2,
            seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        )
        c = server.ws(bad_move["code"], bad_move["you"]["token"])
        st = c.until("state")
        while st["status"] != "playing" or not st["your_turn"]:
            st = c.until("state")
        c.act(st["legal"][0]["action"])
        c.until("state")
        c.close()
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE parlour_tables SET rules = ? WHERE code = ?",
            (json.dumps({"players": 2, "hand_size": [1]}), bad_rules),
        )
        conn.execute("UPDATE parlour_tables SET game = 'nonesuch' WHERE code = ?", (bad_game,))
        conn.execute(
            "UPDATE parlour_actions SET action = ? WHERE code = ?",
            (json.dumps({"type": "Play", "card": None}), bad_move["code"]),
        )
    caplog.set_level("ERROR", logger="parlour.server")
    started = time.monotonic()
    with live_server(f"sqlite:///{db}") as server:
        assert time.monotonic() - started < 20
        assert server.http.get(f"/api/tables/{good}").status_code == 200
        for code, words in (
            (bad_rules, "hand_size"),
            (bad_game, "nonesuch"),
            (bad_move["code"], "move 1 in the journal"),
        ):
            for _ in range(2):
                r = server.http.get(f"/api/tables/{code}")
                assert r.status_code == 410 and words in r.json()["detail"], r.text
        reported = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
        assert len(reported) == 3, reported
        assert "Traceback" not in caplog.text


def test_an_unreadable_database_file_gives_a_clear_message(tmp_path: Path) -> None:
    """Issue 14 item 10: ``parlour serve`` on a file that is not a SQLite database stops with a
    message naming the file, not a raw ``DatabaseError`` traceback."""
    bad = tmp_path / "garbage.db"
    bad.write_bytes(os.urandom(4096))
    res = subprocess.run(
        [
            sys.executable,
            "-c",
            "from parlour.cli import main; main()",
            "serve",
            "--port",
            str(free_port()),
            "--db",
            f"sqlite:///{bad}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = res.stdout + res.stderr
    assert res.returncode != 0
    assert str(bad) in out and "not a SQLite database" in out and "Traceback" not in out


def test_text_is_compressed_and_static_files_revalidate(server: LiveServer) -> None:
    """Issue 17 (serving): text is gzip-compressed, static files carry a validator (ETag) and
    ``Cache-Control: no-cache`` so a 304 answers a repeat visit, and there is a favicon."""
    r = server.http.get("/static/js/table.js", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert r.headers["cache-control"] == "no-cache" and r.headers.get("etag")
    again = server.http.get("/static/js/table.js", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304
    r = server.http.get("/api/games", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    icon = server.http.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")


def test_refused_upgrades_do_not_fill_the_log_with_errors(
    server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 14 items 10 and 11: an upgrade refused on purpose (another host, too many
    requests) is answered with its HTTP status and logs no ERROR line (uvicorn 0.54's
    sans-I/O protocol logs "ASGI callable returned without completing handshake" after any
    denial), so strangers cannot fill the operator's log; that message is kept otherwise."""
    install_log_redaction()
    caplog.set_level(logging.WARNING)
    code = server.create(game="toy", players=2)["code"]
    port = int(server.base.rsplit(":", 1)[1])
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall(
                f"GET /ws/{code} HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            assert b" 403 " in s.recv(4096).split(b"\r\n", 1)[0]
    time.sleep(0.3)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors
    # the same message outside a refusal still reaches the log
    logging.getLogger("uvicorn.error").error("ASGI callable returned without completing handshake.")
    assert any("without completing handshake" in r.getMessage() for r in caplog.records)
