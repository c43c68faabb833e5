"""Slow request heads (issue 31, hole 7): 300 sockets sending a header byte every 5 s stayed
open.  ``parlour serve`` gives a request's line and headers ``--header-timeout`` seconds (then
408 and close); WebSockets and ordinary requests are not affected."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from parlour.cli import serve
from parlour.server import headtimeout
from tests.server.conftest import free_port, serve_subprocess, wait_http

SLOW = 40  # sockets (bounded: the machine is shared)


def _slow_sockets(port: int, n: int, seconds: float) -> tuple[list[float | None], list[bytes]]:
    """``n`` sockets sending one header byte every 0.25 s for at most ``seconds``: when each was
    closed by the server (seconds after it opened; ``None``: still open) and what it got."""
    head = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10_000
    socks, opened = [], []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.setblocking(False)
        socks.append(s)
        opened.append(time.monotonic())
    closed: list[float | None] = [None] * n
    got = [b""] * n
    start = time.monotonic()
    pos = 0
    while time.monotonic() - start < seconds and any(c is None for c in closed):
        for i, s in enumerate(socks):
            if closed[i] is not None:
                continue
            try:
                s.send(head[pos : pos + 1])
            except OSError:
                closed[i] = time.monotonic() - opened[i]
                continue
            try:
                data = s.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                closed[i] = time.monotonic() - opened[i]
                continue
            got[i] += data
            if not data:
                closed[i] = time.monotonic() - opened[i]
        pos += 1
        time.sleep(0.25)
    for s in socks:
        s.close()
    return closed, got


def test_slow_request_heads_are_closed_after_the_header_timeout(tmp_path: Path) -> None:
    port = free_port()
    proc = serve_subprocess(f"sqlite:///{tmp_path / 'j.db'}", port, "--header-timeout", "1.5")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base, proc, timeout=90)  # a loaded machine starts it slowly
        from tests.server.conftest import Client

        r = httpx.post(f"{base}/api/tables", json={"game": "toy", "players": 2})
        assert r.status_code == 201
        t = r.json()
        ws = Client(f"ws://127.0.0.1:{port}/ws/{t['code']}?seat={t['you']['token']}")
        ws.until("state")
        closed, got = _slow_sockets(port, SLOW, seconds=12)
        assert all(c is not None for c in closed), f"{closed.count(None)} of {SLOW} still open"
        assert max(c for c in closed if c is not None) < 6.0, sorted(closed)[-3:]  # type: ignore[type-var]
        assert sum(b"408" in g for g in got) >= SLOW // 2
        # the WebSocket opened before them has lived longer than the deadline and still answers
        ws.send({"type": "ping", "t": 1})
        assert ws.until("pong")["t"] == 1
        ws.close()
        # and an ordinary request (kept alive between two calls) is served
        with httpx.Client(base_url=base) as http:
            assert http.get("/api/info").status_code == 200
            time.sleep(0.5)
            assert http.get("/api/info").status_code == 200
    finally:
        proc.kill()
        proc.communicate(timeout=20)


def test_the_default_is_stated_once() -> None:
    assert serve.HEAD_TIMEOUT == headtimeout.HEAD_TIMEOUT


def test_the_h11_protocol_has_the_deadline_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without httptools uvicorn reads HTTP with h11: the same deadline."""
    import threading

    import uvicorn

    from parlour.server.app import create_app

    monkeypatch.setenv(headtimeout.ENV, "1")
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app("sqlite:///:memory:"),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            http=headtimeout.H11HeadDeadline,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        closed, got = _slow_sockets(port, 5, seconds=8)
        assert all(c is not None and c < 5.0 for c in closed), closed
        assert all(b"408" in g for g in got)
        assert httpx.get(f"http://127.0.0.1:{port}/api/info").status_code == 200
    finally:
        server.should_exit = True
        thread.join(timeout=20)
