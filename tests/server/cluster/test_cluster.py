"""Issue 21: several server processes on one PostgreSQL journal and Redis.

Players of one table connect to different processes; a process is cut off from Redis; the owner
is killed mid-hand.  Every time: the journal has one writer at a time, every client ends with the
journal's state, and no action a client saw accepted is lost.  The three processes are started
once for the module (see ``conftest.cluster``); the SIGKILL test comes last."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.server.cluster.conftest import (
    Cluster,
    Player,
    check_against_journal,
    claim,
    create,
    finished,
    lease_log,
    run_until,
)

TOY = {"game": "toy", "options": {"max_hands": 2, "hand_size": 5}}


def test_two_processes_one_table_lobby_and_play_across(cluster: Cluster) -> None:
    a, b, db = cluster.a, cluster.b, cluster.db
    seats = [{"kind": "human"}, {"kind": "human", "open": True}, {"kind": "bot", "bot": "random"}]
    t = create(a.base, players=3, seats=seats, **TOY)
    code = t["code"]
    # the lobby of the other process lists the table, shows it and takes the open seat
    listed = httpx.get(f"{b.base}/api/tables", timeout=30).json()
    row = next(r for r in listed["tables"] if r["code"] == code)
    assert row["free_seats"] == [1] and row["status"] == "waiting"
    assert httpx.get(f"{b.base}/api/tables/{code}", timeout=30).json()["code"] == code
    joined = httpx.post(f"{b.base}/api/tables/{code}/join", json={"seat": 1}, timeout=30)
    assert joined.status_code == 200, joined.text
    listed = httpx.get(f"{b.base}/api/tables", timeout=30).json()
    assert code not in [r["code"] for r in listed["tables"]]  # no open seat left
    # an unknown table is refused the same way on every process
    assert httpx.get(f"{b.base}/api/tables/ZZZZZZ", timeout=30).status_code == 404

    players = [
        Player(a.ws_base, code, t["you"]["token"], seed=1),
        Player(b.ws_base, code, joined.json()["token"], seed=2),
    ]
    run_until(players, finished(players), 90)
    for p in players:
        assert p.reconnects == 1 and not p.closes  # one connection each, never dropped
        assert p.acked  # both played
    check_against_journal(db, code, players)
    assert [tok for tok, _ in lease_log(db, code)] == [1]  # one owner, never changed
    # a finished table's replay, from the process that did not play it
    replay = httpx.get(f"{b.base}/api/tables/{code}/replay", timeout=30)
    assert replay.status_code == 200
    assert len(replay.json()["steps"]) == players[0].state["version"] + 1  # type: ignore[index]
    # a rematch asked on the other process is made by the owner, once for both players
    again = [
        httpx.post(f"{base}/api/tables/{code}/rematch", json={"token": tok}, timeout=30)
        for base, tok in ((b.base, t["you"]["token"]), (a.base, joined.json()["token"]))
    ]
    assert [r.status_code for r in again] == [200, 200], [r.text for r in again]
    assert again[0].json()["code"] == again[1].json()["code"] != code


def test_partition_between_a_process_and_redis(cluster: Cluster) -> None:
    a, c, db, proxy = cluster.a, cluster.c, cluster.db, cluster.proxy
    t = create(a.base, players=2, seats=[{"kind": "human"}] * 2, **TOY)
    code = t["code"]
    token = claim(c.base, code, t["seats"][1]["invite"])
    players = [Player(a.ws_base, code, t["you"]["token"], 6), Player(c.ws_base, code, token, 7)]
    run_until(players, lambda: all(p.state and p.state["version"] >= 4 for p in players), 60)
    proxy.cut()
    try:
        # the player on the cut-off process loses its link to the table and keeps trying
        run_until(players, lambda: bool(players[1].closes), 30)
        cut_version = players[0].state["version"]  # type: ignore[index]
        end = time.monotonic() + 3
        while time.monotonic() < end:
            for p in players:
                p.poll(0.05)
        assert players[1].state["version"] <= cut_version + 1  # type: ignore[index]
    finally:
        proxy.heal()
    run_until(players, finished(players), 90)
    check_against_journal(db, code, players)
    assert [tok for tok, _ in lease_log(db, code)] == [1]  # Redis is not the lease: no takeover


@pytest.mark.slow  # three processes and a takeover: in the second tier, one test at a time
def test_three_processes_sigkill_owner_mid_hand(cluster: Cluster) -> None:
    a, b, c, db = cluster.a, cluster.b, cluster.c, cluster.db
    t = create(a.base, players=3, seats=[{"kind": "human"}] * 3, **TOY)
    code = t["code"]
    tokens = [t["you"]["token"]] + [claim(b.base, code, s["invite"]) for s in t["seats"][1:]]
    players = [
        Player(a.ws_base, code, tokens[0], seed=3),
        Player(b.ws_base, code, tokens[1], seed=4),
        Player(c.ws_base, code, tokens[2], seed=5),
    ]
    # a table of bots owned by the same process: adopted by another after the kill.  Long
    # enough to be still playing then: its bots play without delay, and with the journal's
    # appends on the event loop 3 hands were sometimes over before the kill
    bots = create(
        a.base,
        players=4,
        seats=[{"kind": "bot", "bot": "random"}] * 4,
        game="toy",
        options={"max_hands": 12, "hand_size": 6},
    )["code"]
    run_until(players, lambda: all(p.state and p.state["version"] >= 6 for p in players), 60)
    before = max(p.state["version"] for p in players)  # type: ignore[index]
    killed_at = time.monotonic()
    a.kill()
    players[0].base = b.ws_base  # its process is dead: the balancer sends it elsewhere
    players[0].ws, players[0].pending = None, {}
    # the players of the other processes reconnect by themselves; play resumes
    run_until(players, lambda: max(p.state["version"] for p in players) > before, 60)  # type: ignore[index]
    resumed = time.monotonic() - killed_at
    run_until(players, finished(players), 90)
    check_against_journal(db, code, players)
    log = lease_log(db, code)
    assert [tok for tok, _ in log] == list(range(1, len(log) + 1)) and len(log) >= 2
    watcher = Player(c.ws_base, bots, None)
    run_until([watcher], finished([watcher]), 60)
    check_against_journal(db, bots, [watcher])
    assert len(lease_log(db, bots)) >= 2
    print(f"failover: play resumed {resumed:.2f} s after SIGKILL")
    assert resumed < 20, resumed
