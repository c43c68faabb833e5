"""parlour.server.flow: a score-sheet pause is bounded (at most ``HOLD_MAX`` seconds, once per
seat and table version), a table's own speed wins over the server's, journaled records are read
back."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from types import SimpleNamespace
from typing import Any

import pytest

from parlour.server import flow, flowroutes


class FakeServer:
    config = SimpleNamespace(bot_delay=0.6)

    async def seat_of(self, table: Any, token: str) -> int:
        return {"a": 0, "b": 1}[token]


def fake_table() -> Any:
    t = SimpleNamespace(
        flow=flow.Flow(), status="playing", version=7, server=FakeServer(), kicks=0, broadcasts=0
    )
    t.kick = lambda: setattr(t, "kicks", t.kicks + 1)
    t.broadcast_table = lambda: setattr(t, "broadcasts", t.broadcasts + 1)
    return t


def test_a_hold_is_bounded_and_once_per_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(flow, "HOLD_MAX", 0.3)
    table, server = fake_table(), FakeServer()

    async def run() -> None:
        r = await flowroutes.hold(server, table, "a", True)  # type: ignore[arg-type]
        assert r["held"] and 0 < r["for"] <= 0.3
        started = time.monotonic()
        await flow.wait_holds(table)  # a player who walked away: the bots go on after 0.3 s
        assert 0.2 < time.monotonic() - started < 1.0
        # the same seat at the same version cannot hold again
        r = await flowroutes.hold(server, table, "a", True)  # type: ignore[arg-type]
        assert not r["held"]
        # another seat can, and closing the sheet ends its hold at once
        r = await flowroutes.hold(server, table, "b", True)  # type: ignore[arg-type]
        assert r["held"]
        r = await flowroutes.hold(server, table, "b", False)  # type: ignore[arg-type]
        assert not r["held"] and flow.held_for(table) == 0
        # at the next version the first seat may hold again
        table.version = 8
        assert (await flowroutes.hold(server, table, "a", True))["held"]  # type: ignore[arg-type]
        # a finished table is never held
        await flowroutes.hold(server, table, "a", False)  # type: ignore[arg-type]
        table.status, table.version = "finished", 9
        assert not (await flowroutes.hold(server, table, "b", True))["held"]  # type: ignore[arg-type]

    # (a thread of its own: the browser tests' event loop may be running in this one)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()
    assert table.kicks >= 5 and table.broadcasts >= 5


def test_speed_and_records() -> None:
    table = fake_table()
    assert flow.bot_delay(table) == 0.6
    flow.read_record(table.flow, "bot_delay", {"delay": 1.5})
    flow.read_record(table.flow, "rematch", {"code": "ABC123"})
    flow.read_record(table.flow, "something_else", {"x": 1})
    assert flow.bot_delay(table) == 1.5
    assert flow.public(table) == {
        "bot_delay": 1.5,
        "speed_set": True,
        "rematch": "ABC123",
        "held": False,
    }
    flow.read_record(table.flow, "bot_delay", {"delay": None})
    assert flow.bot_delay(table) == 0.6 and not flow.public(table)["speed_set"]


def test_speed_and_rematch_over_http_and_across_a_restart(tmp_path: Any) -> None:
    """The routes: a seated token sets the speed (journaled: a restarted server keeps it); a
    rematch waits for the match's end; a wrong token is refused."""
    from tests.server.conftest import live_server

    db = f"sqlite:///{tmp_path / 'flow.db'}"
    with live_server(db) as s:
        r = s.http.post("/api/tables", json={"game": "scat", "players": 3})
        assert r.status_code == 201, r.text
        t = r.json()
        code, token = t["code"], t["you"]["token"]
        assert s.http.get(f"/api/tables/{code}").json()["speed_set"] is False
        r = s.http.post(f"/api/tables/{code}/speed", json={"token": token, "delay": 1.5})
        assert r.json() == {"bot_delay": 1.5, "speed_set": True}
        assert (
            s.http.post(f"/api/tables/{code}/speed", json={"token": "x", "delay": 1}).status_code
            == 403
        )
        assert (
            s.http.post(f"/api/tables/{code}/speed", json={"token": token, "delay": 9}).status_code
            == 422
        )
        r = s.http.post(f"/api/tables/{code}/rematch", json={"token": token})
        assert r.status_code == 409 and "not over" in r.json()["detail"]
        r = s.http.post(f"/api/tables/{code}/hold", json={"token": token, "on": True})
        assert r.status_code == 200 and r.json()["seat"] == 0
    with live_server(db) as s:
        rec = s.http.get(f"/api/tables/{code}").json()
        assert rec["bot_delay"] == 1.5 and rec["speed_set"] is True and rec["rematch"] is None
