"""A PostgreSQL that goes silent (issue 31, hole 2): packets dropped, not refused.  An action was
answered only after 30 s and ``POST /api/tables`` not within 10 s: the statement timeout is the
database's, which a silent network never lets answer.  The server counts its own deadline (the
connection wait plus the statement timeout) and answers ``unavailable`` within it; play resumes
when the database answers again.  The silence is a TCP proxy in this test that stops forwarding
(it holds what it got, as a network that drops packets makes TCP send them again later)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest

from parlour.server.storage import PostgresStorage
from tests.server.conftest import Client, live_server
from tests.server.test_recovery import pg_schema


class SilentProxy:
    """Forwards TCP to ``target`` until :meth:`pause`, then holds every byte (both ways, and
    new connections) until :meth:`resume`."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.flowing = threading.Event()
        self.flowing.set()
        self.closed = False
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._open, args=(client,), daemon=True).start()

    def _open(self, client: socket.socket) -> None:
        self.flowing.wait()
        try:
            upstream = socket.create_connection(self.target, timeout=5)
        except OSError:
            client.close()
            return
        upstream.settimeout(None)
        self.conns += [client, upstream]
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                self.flowing.wait()
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def pause(self) -> None:
        self.flowing.clear()

    def resume(self) -> None:
        self.flowing.set()

    def close(self) -> None:
        self.closed = True
        self.flowing.set()
        for s in [self.sock, *self.conns]:
            with contextlib.suppress(OSError):
                s.close()


@pytest.fixture
def silent_pg() -> Iterator[tuple[str, SilentProxy]]:
    with pg_schema() as url:
        parts = urlsplit(url)
        proxy = SilentProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
        netloc = f"{parts.username}@127.0.0.1:{proxy.port}" if parts.username else None
        via = urlunsplit(parts._replace(netloc=netloc or f"127.0.0.1:{proxy.port}"))
        try:
            yield via, proxy
        finally:
            proxy.close()


def _to_act(clients: list[Client], version: int = 0) -> Client:
    """The client to act once every client has seen ``version`` (at least) in play."""
    for c in clients:
        while c.state is None or c.state["status"] != "playing" or c.state["version"] < version:
            c.until("state")
    top = max(c.state["version"] for c in clients)  # type: ignore[index]
    for c in clients:
        while c.state["version"] < top:  # type: ignore[index]
            c.until("state")
    return next(c for c in clients if c.state and c.state["your_turn"])


def _answer(c: Client, timeout: float) -> dict[str, Any]:
    """The answer to the last action: a newer state or an error."""
    version = c.state["version"]  # type: ignore[index]
    while True:
        msg = c.recv(timeout=timeout)
        if msg["type"] == "error" or (msg["type"] == "state" and msg["version"] > version):
            return msg


def test_a_silent_database_is_answered_unavailable_in_time_and_play_resumes(
    silent_pg: tuple[str, SilentProxy],
) -> None:
    url, proxy = silent_pg
    storage = PostgresStorage(url, timeout=1.0, statement_timeout=2.0)
    deadline = storage.deadline  # 3 s
    with live_server(storage) as server:  # type: ignore[arg-type]
        t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "human"}])
        code = t["code"]
        tokens = [row["token"] for row in t["seats"]]
        clients = [server.ws(code, tok) for tok in tokens]
        r = server.http.post(f"/api/tables/{code}/start", json={"token": tokens[0]})
        assert r.status_code == 200
        mover = _to_act(clients)
        mover.act(mover.state["legal"][0]["action"])  # type: ignore[index]
        played = _answer(mover, 20)
        assert played["type"] == "state"  # the database answers: a move is played

        proxy.pause()
        started = time.monotonic()
        mover = _to_act(clients, played["version"])
        mover.act(mover.state["legal"][0]["action"])  # type: ignore[index]
        answer = _answer(mover, 30)
        took = time.monotonic() - started
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
        assert took < deadline + 3.0, took
        started = time.monotonic()
        with httpx.Client(base_url=server.base, timeout=30) as http:
            r = http.post("/api/tables", json={"game": "toy", "players": 2})
        took = time.monotonic() - started
        assert r.status_code == 503 and took < deadline + 3.0, (r.status_code, took)

        proxy.resume()
        # play resumes: the table is read again from the journal (the move in doubt is there
        # or not, as the database says) and the next move is taken
        for c in clients:
            c.conn.close()
        end = time.monotonic() + 60
        tries = 0
        while True:
            assert time.monotonic() < end, f"play did not resume ({tries} tries)"
            tries += 1
            try:
                clients = [server.ws(code, tok) for tok in tokens]
                mover = _to_act(clients)
                before = mover.state["version"]  # type: ignore[index]
                mover.act(mover.state["legal"][0]["action"])  # type: ignore[index]
                answer = _answer(mover, 30)
            except Exception:
                time.sleep(0.5)
                continue
            finally:
                for c in clients:
                    c.conn.close()
            if answer["type"] == "state":
                assert answer["version"] == before + 1
                break
            assert answer["code"] == "unavailable", answer
            time.sleep(0.5)
        assert tries <= 5, tries
        r = server.http.post("/api/tables", json={"game": "toy", "players": 2})
        assert r.status_code == 201
