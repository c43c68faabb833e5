"""Two players ask for a rematch at the same moment (issue 31, hole 5): they used to make two
tables with two hosts.  Exactly one rematch per finished table; the second caller takes a seat
at it."""

from __future__ import annotations

import random
import threading
from typing import Any

from tests.server.conftest import LiveServer, live_server
from tests.server.test_play import _play_out


def _finished(server: LiveServer) -> dict[str, Any]:
    t = server.create(
        game="toy",
        players=2,
        options={"hand_size": 1, "max_hands": 1},
        seats=[{"kind": "human"}, {"kind": "human"}],
    )
    clients = [server.ws(t["code"], row["token"]) for row in t["seats"]]
    r = server.http.post(f"/api/tables/{t['code']}/start", json={"token": t["you"]["token"]})
    assert r.status_code == 200, r.text
    for c in clients:
        while c.until("state")["status"] != "playing":
            pass
    _play_out(clients, random.Random(5))
    for c in clients:
        c.conn.close()
    return t


def _at_once(server: LiveServer, code: str, tokens: list[str]) -> list[Any]:
    barrier = threading.Barrier(len(tokens))
    out: list[Any] = [None] * len(tokens)

    def ask(i: int) -> None:
        barrier.wait()
        out[i] = server.http.post(f"/api/tables/{code}/rematch", json={"token": tokens[i]})

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(tokens))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    return out


def _tables(server: LiveServer) -> int:
    return len(server.http.get("/api/tables", params={"status": "all"}).json()["tables"])


def test_two_players_asking_at_once_make_one_rematch() -> None:
    with live_server() as server:
        for attempt in range(3):
            t = _finished(server)
            before = _tables(server)
            a, b = _at_once(server, t["code"], [row["token"] for row in t["seats"]])
            assert a.status_code == 200 and b.status_code == 200, (a.text, b.text)
            assert a.json()["code"] == b.json()["code"]
            assert sorted([a.json()["host"], b.json()["host"]]) == [False, True]
            assert {a.json()["seat"], b.json()["seat"]} == {0, 1}
            assert _tables(server) == before + 1, attempt


def test_one_player_asking_twice_at_once_makes_one_rematch() -> None:
    with live_server() as server:
        t = _finished(server)
        before = _tables(server)
        token = t["seats"][0]["token"]
        a, b = _at_once(server, t["code"], [token, token])
        assert sorted([a.status_code, b.status_code]) == [200, 409], (a.text, b.text)
        assert _tables(server) == before + 1
