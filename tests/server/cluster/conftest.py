"""Several ``parlour serve`` processes on 127.0.0.1 sharing a PostgreSQL journal (a schema of its
own per test) and the machine's Redis; a TCP proxy to cut a process off from Redis; players that
reconnect by themselves, as the browser does.

PostgreSQL and Redis must be reachable: under ``CI=true`` a test fails when one is not, elsewhere
it skips."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.support import needs

# the whole directory skips without the `scale` extra (the Redis client, psycopg)
redis = needs.module("redis", needs.SCALE)
psycopg = needs.module("psycopg", needs.SCALE)

from tests.server.conftest import PG_URL, ROOT, free_port  # noqa: E402
from tests.server.test_recovery import pg_schema  # noqa: E402

REDIS_URL = os.environ.get("PARLOUR_TEST_REDIS", "redis://127.0.0.1:6379/0")


def require_redis() -> None:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except Exception as exc:
        needs.missing(
            f"Redis is not reachable at {REDIS_URL} ({exc}): start a Redis server on "
            "127.0.0.1:6379 (or set PARLOUR_TEST_REDIS)"
        )


@dataclasses.dataclass
class Cluster:
    db: str
    #: a and b reach Redis directly, c through ``proxy`` (which a test may cut)
    a: Node
    b: Node
    c: Node
    proxy: TcpProxy


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """Three processes on a fresh journal (PostgreSQL schema), started once for the module (a
    process takes seconds to start on a busy machine); the last test may kill one."""
    require_redis()
    proxy = TcpProxy(redis_target())
    try:
        with pg_schema() as url, nodes(url, REDIS_URL, REDIS_URL, proxy.url) as (a, b, c):
            yield Cluster(url, a, b, c, proxy)
    finally:
        proxy.close()


def journal(db: str, code: str) -> list[tuple[int, dict[str, Any], str | None]]:
    """The journaled actions of a table: (index, action, chain)."""
    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT idx, action, chain FROM parlour_actions WHERE code = %s ORDER BY idx", (code,)
        ).fetchall()
    return [(int(r[0]), json.loads(r[1]), r[2]) for r in rows]


def lease_log(db: str, code: str) -> list[tuple[int, str]]:
    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT token, owner FROM parlour_lease_log WHERE code = %s ORDER BY acquired, token",
            (code,),
        ).fetchall()
    return [(int(r[0]), str(r[1])) for r in rows]


class Node:
    """One ``parlour serve --redis …`` process."""

    def __init__(
        self,
        db: str,
        redis_url: str = REDIS_URL,
        ttl: float = 2.0,
        *extra: str,
        rate_limit: bool = False,
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        # the log goes to a file (a pipe nobody reads would stop the process once full)
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - open while the process runs
            "w+", prefix="parlour-node-", suffix=".log"
        )
        cmd = [
            sys.executable,
            "-c",
            "from parlour.cli import main; main()",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            db,
            "--bot-delay",
            "0",
            "--game-module",
            "tests.server.toygame",
            "--rate-limit" if rate_limit else "--no-rate-limit",
            "--redis",
            redis_url,
            "--lease-ttl",
            str(ttl),
            "--grace",
            "60",
            *extra,
        ]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, text=True
        )

    def output(self) -> str:
        self.log.flush()
        with open(self.log.name) as f:
            return f.read()

    def ready(self) -> Node:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.output()}")
            try:
                if httpx.get(f"{self.base}/api/info", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("server did not come up")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=20)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


@contextlib.contextmanager
def nodes(
    db: str, *redis_urls: str, ttl: float = 2.0, rate_limit: bool = False
) -> Iterator[list[Node]]:
    """Processes started side by side (one per Redis URL)."""
    started = [Node(db, url, ttl, rate_limit=rate_limit) for url in redis_urls]
    try:
        with ThreadPoolExecutor(len(started)) as pool:
            list(pool.map(Node.ready, started))
        yield started
        for n in started:
            if "Traceback" in n.output():
                print(f"--- node {n.port} log ---\n{n.output()[-6000:]}")
    except BaseException:
        for n in started:
            print(f"--- node {n.port} log ---\n{n.output()[-6000:]}")
        raise
    finally:
        for n in started:
            n.stop()


class TcpProxy:
    """A TCP proxy to Redis that can be cut (every connection closed, new ones refused) and
    healed: a network partition between one process and Redis."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.open = True
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.open = False
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                s.close()

    def heal(self) -> None:
        self.open = True

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.sock.close()


def redis_target() -> tuple[str, int]:
    from urllib.parse import urlparse

    u = urlparse(REDIS_URL)
    return (u.hostname or "127.0.0.1", u.port or 6379)


class Player:
    """A seat's browser: plays when it is its turn, reconnects by itself when its socket closes
    (to the same process, as behind a sticky balancer), and remembers every action the server
    acknowledged (the state that carried the action's ``id``)."""

    def __init__(self, base: str, code: str, token: str | None, seed: int = 0) -> None:
        self.base = base
        self.code = code
        self.token = token
        self.rng = random.Random(seed)
        self.ws: Any = None
        self.state: dict[str, Any] | None = None
        self.acked: dict[int, dict[str, Any]] = {}
        self.pending: dict[str, tuple[int, dict[str, Any]]] = {}
        self.reconnects = 0
        self.closes: list[tuple[int | None, float]] = []
        self.errors: list[dict[str, Any]] = []
        self.welcomes = 0
        self.last_state_at = 0.0

    def _url(self) -> str:
        return f"{self.base}/ws/{self.code}" + (f"?seat={self.token}" if self.token else "")

    def connect(self) -> None:
        self.ws = connect(self._url(), open_timeout=10, max_size=1 << 22, legacy=True)

    def _closed(self, exc: ConnectionClosed | OSError) -> None:
        code = getattr(getattr(exc, "rcvd", None), "code", None)
        self.closes.append((code, time.monotonic()))
        self.ws = None
        self.pending.clear()

    def poll(self, timeout: float = 0.05) -> None:
        """Read what arrived (reconnecting if the socket is closed); act if it is our turn."""
        if self.ws is None:
            try:
                self.connect()
                self.reconnects += 1
            except (OSError, TimeoutError, ConnectionClosed, Exception):
                time.sleep(0.1)
                return
        try:
            while True:
                text = self.ws.recv(timeout=timeout)
                self._got(json.loads(text))
                timeout = 0
        except TimeoutError:
            pass
        except (ConnectionClosed, OSError) as exc:
            self._closed(exc)
            return
        self._maybe_act()

    def _got(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "welcome":
            self.welcomes += 1
        elif msg["type"] == "state":
            self.state = msg
            self.last_state_at = time.monotonic()
            rid = msg.get("id")
            if rid in self.pending:
                version, action = self.pending.pop(rid)
                assert msg["version"] == version + 1
                self.acked[version] = action
        elif msg["type"] == "error":
            self.errors.append(msg)
            rid = msg.get("id")
            if rid in self.pending:
                self.pending.pop(rid)

    def _maybe_act(self) -> None:
        st = self.state
        if self.ws is None or st is None or self.pending or not st.get("your_turn"):
            return
        if st.get("status") != "playing" or not st.get("legal"):
            return
        action = self.rng.choice(st["legal"])["action"]
        rid = f"{st['seat']}-{st['version']}-{self.rng.random()}"
        self.pending[rid] = (st["version"], action)
        try:
            self.ws.send(
                json.dumps(
                    {"type": "action", "version": st["version"], "action": action, "id": rid}
                )
            )
        except (ConnectionClosed, OSError) as exc:
            self._closed(exc)

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()


def create(base: str, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def claim(base: str, code: str, invite: str) -> str:
    r = httpx.post(f"{base}/api/tables/{code}/claim", json={"invite": invite}, timeout=30)
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def run_until(players: list[Player], done: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, [
            (p.state and p.state["version"], p.closes[-3:], p.errors[-3:]) for p in players
        ]
        for p in players:
            p.poll(0.02)


def finished(players: list[Player]) -> Any:
    return lambda: all(p.state is not None and p.state["status"] == "finished" for p in players)


def check_against_journal(db: str, code: str, players: list[Player]) -> None:
    """Every client ends with the journal's state, and every acknowledged action is in it."""
    from parlour.server.deals import chain_next

    rows = journal(db, code)
    assert [i for i, _, _ in rows] == list(range(len(rows)))
    for p in players:
        assert p.state is not None
        assert p.state["version"] == len(rows), (p.state["version"], len(rows))
        assert p.state["chain"] == rows[-1][2]
        for version, action in p.acked.items():
            assert rows[version][1] == action, (version, action, rows[version][1])
    # one history: each journaled chain follows from the one before it
    for (_, action, chain), (_, _, prev) in zip(rows[1:], rows[:-1], strict=True):
        assert chain == chain_next(prev, action)  # type: ignore[arg-type]


__all__ = ["PG_URL"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The cluster tests share the machine's Redis (rate-limit buckets keyed by 127.0.0.1) and
    start several server processes each: under pytest-xdist they run on one worker, one at a
    time, never beside each other."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.xdist_group("cluster"))
