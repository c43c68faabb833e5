"""Crash recovery: ``parlour serve`` killed with SIGKILL mid-game and restarted serves every table
exactly as it was, with no acknowledged action lost — on SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import (
    PG_URL,
    Client,
    free_port,
    pg_available,
    require_pg,
    serve_subprocess,
    wait_http,
)


@contextlib.contextmanager
def pg_schema() -> Iterator[str]:
    """A throwaway schema in the test database, as a connection URL that uses it."""
    require_pg()
    import psycopg

    schema = f"parlour_test_{secrets.token_hex(4)}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


class Proc:
    def __init__(self, db: str, *extra: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = serve_subprocess(db, self.port, *extra)
        wait_http(self.base, self.proc)
        assert self.proc.stdout is not None
        # `parlour serve` tells the user where to point the browser
        lines = [self.proc.stdout.readline() for _ in range(2)]
        assert any(f"http://localhost:{self.port}/" in line for line in lines), lines

    def ws(self, code: str, token: str | None = None) -> Client:
        return Client(f"ws://127.0.0.1:{self.port}/ws/{code}" + (f"?seat={token}" if token else ""))

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=20)
        if self.proc.stdout:
            self.proc.stdout.close()


def _play(clients: list[Client], n: int, rng: random.Random) -> None:
    for _ in range(n):
        mover = next(c for c in clients if c.state["your_turn"])  # type: ignore[index]
        mover.act(rng.choice(mover.state["legal"])["action"])  # type: ignore[index]
        v = mover.state["version"]  # type: ignore[index]
        for c in clients:
            while c.until("state")["version"] != v + 1:
                pass


def test_sigkill_mid_game_then_restart_serves_every_table_as_it_was(tmp_path: Path) -> None:
    """SIGKILL with two tables in play, then restart on the same journal — SQLite and PostgreSQL
    side by side (two servers at once, to keep the test short):

    - a table of people: every action a player saw acknowledged survives; each seat sees the very
      same view, log and legal actions, and the match plays on to the end with verified deals;
    - a table of bots playing flat out: every state a spectator was shown before the kill is
      exactly that step of the finished match's replay (no acknowledged action lost)."""
    with ThreadPoolExecutor(2) as pool:
        sqlite = pool.submit(_scenario, f"sqlite:///{tmp_path / 'journal.db'}")
        if pg_available() or os.environ.get("CI") == "true":
            with pg_schema() as url:
                pool.submit(_scenario, url).result()
        sqlite.result()
    require_pg()  # reports (fails under CI) when PostgreSQL was not there to test


def _scenario(db_url: str) -> None:
    server = Proc(db_url, "--bot-delay", "0.01")
    try:
        t = httpx.post(
            f"{server.base}/api/tables",
            json={
                "game": "toy",
                "players": 3,
                "seats": [{"kind": "human"}] * 3,
                "options": {"max_hands": 2},
            },
            timeout=20,
        ).json()
        code = t["code"]
        tokens = [t["you"]["token"]] + [
            httpx.post(
                f"{server.base}/api/tables/{code}/claim", json={"invite": s["invite"]}, timeout=20
            ).json()["token"]
            for s in t["seats"][1:]
        ]
        clients = [server.ws(code, tok) for tok in tokens]
        for c in clients:
            while c.state is None or c.state["status"] != "playing":
                c.until("state")
        _play(clients, 9, random.Random(4))
        before = [c.state for c in clients]
        bots = httpx.post(
            f"{server.base}/api/tables",
            json={
                "game": "toy",
                "players": 4,
                "seats": [{"kind": "bot", "bot": "random"}] * 4,
                "options": {"max_hands": 6, "hand_size": 6},
            },
            timeout=20,
        ).json()["code"]
        watcher = server.ws(bots)
        seen: dict[int, Any] = {}
        deadline = time.monotonic() + 30
        while len(seen) < 30 and time.monotonic() < deadline:
            msg = watcher.until("state")
            seen[msg["version"]] = msg["view"]
        assert len(seen) >= 30
        # an action in flight when the process dies: either journaled (then served) or lost
        # without anyone having been told it happened
        mover = next(c for c in clients if c.state["your_turn"])  # type: ignore[index]
        mover.act(mover.state["legal"][0]["action"])  # type: ignore[index]
    finally:
        server.kill()
    server = Proc(db_url)
    try:
        again = [server.ws(code, tok) for tok in tokens]
        for c, old in zip(again, before, strict=True):
            assert c.until("welcome")["seat"] == old["seat"]  # type: ignore[index]
            st = c.until("state")
            assert st["version"] in (9, 10)
            if st["version"] == 9:
                for key in ("view", "legal", "to_act", "outcome"):
                    assert st[key] == old[key]  # type: ignore[index]
                assert st["events"] == [e for m in _states(clients, c) for e in m["events"]]
        while again[0].state["status"] != "finished":  # type: ignore[index]
            _play(again, 1, random.Random(8))
        verify = httpx.get(f"{server.base}/api/tables/{code}/verify", timeout=20).json()
        assert verify["all_verified"] and len(verify["deals"]) == 2

        watcher = server.ws(bots)
        deadline = time.monotonic() + 60
        while watcher.until("state")["status"] != "finished":
            assert time.monotonic() < deadline
        replay = httpx.get(f"{server.base}/api/tables/{bots}/replay", timeout=30).json()
        steps = replay["steps"]
        assert max(seen) < len(steps)
        for version, view in seen.items():
            assert steps[version]["view"] == view
        assert all(d["verified"] for d in replay["deals"])
        for c in [*clients, *again, watcher]:
            with contextlib.suppress(Exception):
                c.close()
    finally:
        server.kill()


def _states(old_clients: list[Client], new: Client) -> list[dict[str, Any]]:
    """The state messages the same seat's old connection got (its log before the crash)."""
    seat = new.state["seat"]  # type: ignore[index]
    old = next(c for c in old_clients if c.messages and c.messages[0].get("seat") == seat)
    out: list[dict[str, Any]] = []
    for m in old.messages:
        if m["type"] == "state":
            if m["full_log"]:
                out = []
            out.append(m)
    return out
