"""A real server on 127.0.0.1 (uvicorn in a thread, or ``parlour serve`` in a subprocess) and a
small synchronous WebSocket client for the tests."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import connect

from parlour.server.app import create_app
from parlour.server.lobby import ServerConfig
from tests.server import toygame
from tests.support import needs

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("PARLOUR_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture(autouse=True)
def toy_game() -> Iterator[None]:
    """The Toy test game is registered while a server test runs, and only then."""
    with toygame.registered():
        yield


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, base: str, app: Any) -> None:
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.app = app
        self.http = httpx.Client(base_url=base, timeout=20)

    def create(self, *, claim_invites: bool = True, **body: Any) -> dict[str, Any]:
        """Create a table; with ``claim_invites`` every invite is opened at once and the seat's
        fresh token is put in its row as ``token`` (what each invited browser would hold)."""
        r = self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        t: dict[str, Any] = r.json()
        for row in t["seats"]:
            if row["kind"] != "human":
                continue
            if t["you"] is not None and row["seat"] == t["you"]["seat"]:
                row["token"] = t["you"]["token"]
            elif claim_invites:
                c = self.http.post(f"/api/tables/{t['code']}/claim", json={"invite": row["invite"]})
                assert c.status_code == 200, c.text
                row["token"] = c.json()["token"]
        return t

    def ws(self, code: str, token: str | None = None) -> Client:
        url = f"{self.ws_base}/ws/{code}" + (f"?seat={token}" if token else "")
        return Client(url)

    def busy_with(self, bot: str) -> tuple[Client, dict[str, Any]]:
        """Two 4-seat toy tables of ``bot`` playing on, and a person at a 2-seat toy table
        against ``random``: the person's socket and the first state where it is their turn."""
        for _ in range(2):
            self.create(
                game="toy",
                players=4,
                seats=[{"kind": "bot", "bot": bot}] * 4,
                options={"max_hands": 1},
            )
        t = self.create(
            game="toy",
            players=2,
            seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            options={"max_hands": 1},
        )
        c = self.ws(t["code"], t["you"]["token"])
        st = c.until("state")
        while not st["your_turn"]:
            st = c.until("state")
        return c, st


@contextlib.contextmanager
def live_server(db: str = "sqlite:///:memory:", **config: Any) -> Iterator[LiveServer]:
    cfg = ServerConfig(**{"bot_delay": 0.0, "grace": 30.0, "rate_limits": {}, **config})
    app = create_app(db, cfg)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=1 << 20)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("test server did not start")
        time.sleep(0.02)
    live = LiveServer(f"http://127.0.0.1:{port}", app)
    try:
        yield live
    finally:
        live.http.close()
        server.should_exit = True
        thread.join(timeout=20)


@pytest.fixture
def server() -> Iterator[LiveServer]:
    with live_server() as live:
        yield live


class Client:
    """A blocking WebSocket client that keeps every message it got, raw and parsed."""

    def __init__(self, url: str) -> None:
        self.conn = connect(url, max_size=1 << 22, open_timeout=20, legacy=True)
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        text = self.conn.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg = json.loads(text)
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
        return msg  # type: ignore[no-any-return]

    def until(self, kind: str, timeout: float = 20, **match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg

    def send(self, msg: Any) -> None:
        self.conn.send(msg if isinstance(msg, str) else json.dumps(msg))

    def act(self, action: dict[str, Any], version: int | None = None, **extra: Any) -> None:
        assert self.state is not None
        v = self.state["version"] if version is None else version
        self.send({"type": "action", "version": v, "action": action, **extra})

    def drain(self, quiet: float = 0.2) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(timeout=quiet)
            except TimeoutError:
                return

    def close(self) -> None:
        self.conn.close()


def pg_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG_URL, connect_timeout=3):
            return True
    except Exception:
        return False


def require_pg() -> None:
    """PostgreSQL tests fail under CI when the server is unreachable, and skip elsewhere."""
    needs.module("psycopg", needs.POSTGRES)
    if pg_available():
        return
    needs.missing(
        f"PostgreSQL is not reachable at {PG_URL}: start a PostgreSQL server on 127.0.0.1:5432 "
        "with a database `test` (or set PARLOUR_TEST_PG)"
    )


def serve_subprocess(db: str, port: int, *extra: str) -> subprocess.Popen[str]:
    """``parlour serve`` as its own process (with the Toy game plugged in)."""
    cmd = [
        sys.executable,
        "-c",
        "from parlour.cli import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        db,
        "--bot-delay",
        "0",
        "--game-module",
        "tests.server.toygame",
        "--no-rate-limit",  # tests create many tables from one address; --rate-limit in extra
        *extra,
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def wait_http(base: str, proc: subprocess.Popen[str], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout else ""
            raise RuntimeError(f"server exited with {proc.returncode}:\n{out}")
        try:
            if httpx.get(f"{base}/api/info", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("server did not come up")
