"""Table chat (issue 33): everyone at the table reads, the text arrives exactly as written, the
journal keeps it across a restart and for the replay, mutes and the host's settings, and the
turn timer's stand-in move told in the chat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import Client, LiveServer, live_server


def seated(server: LiveServer, players: int = 2, **body: Any) -> tuple[str, list[Client]]:
    t = server.create(game="toy", players=players, seats=[{"kind": "human"}] * players, **body)
    clients = [server.ws(t["code"], row["token"]) for row in t["seats"]]
    for c in clients:
        c.until("welcome")
        c.until("state")
    return t["code"], clients


def test_a_message_reaches_every_reader_exactly(server: LiveServer) -> None:
    code, (a, b) = seated(server)
    watcher = server.ws(code)
    watcher.until("welcome")
    text = 'Good luck <b>all</b> & "you" — 🂡 ♠'
    a.send({"type": "chat", "text": text})
    for c in (a, b, watcher):
        msg = c.until("chat")
        assert msg["text"] == text and msg["seat"] == 0 and msg["name"] == "Player 1"
        assert msg["quick"] is False and isinstance(msg["seq"], int)
    b.send({"type": "chat", "text": "Well played", "quick": True})
    assert a.until("chat")["quick"] is True
    # a connection that asks gets the log so far
    a.send({"type": "chat_log"})
    log = a.until("chat_log")
    assert [m["text"] for m in log["messages"]] == [text, "Well played"]
    assert log["quick"] == ["Good luck", "Well played", "Your turn", "Thanks", "Oops"]
    # spectators read but do not write (unless the host lets them)
    watcher.send({"type": "chat", "text": "hi"})
    assert watcher.until("error")["code"] == "spectator"


def test_chat_survives_a_restart_and_is_in_the_replay_log(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'j.db'}"
    with live_server(db) as server:
        code, (a, b) = seated(server)
        a.send({"type": "chat", "text": "kept"})
        b.until("chat")
        a.close()
        b.close()
    with live_server(db) as server:
        c = server.ws(code)
        c.until("welcome")
        c.send({"type": "chat_log"})
        assert [m["text"] for m in c.until("chat_log")["messages"]] == ["kept"]
        r = server.http.get(f"/api/tables/{code}/chat")
        assert r.status_code == 200 and [m["text"] for m in r.json()["messages"]] == ["kept"]
        assert "version" in r.json()["messages"][0]
        assert server.http.get("/api/tables/NOPE99/chat").status_code == 404


def test_mute_is_for_oneself_and_host_settings(server: LiveServer) -> None:
    code, (a, b, c) = seated(server, players=3)
    # A mutes B: A no longer gets B's messages; C does; B is not told
    a.send({"type": "chat_mute", "seat": 1, "mute": True})
    assert a.until("chat_muted")["muted"] == [1]
    b.send({"type": "chat", "text": "from B"})
    assert c.until("chat")["text"] == "from B"
    c.send({"type": "chat", "text": "from C"})
    assert a.until("chat")["text"] == "from C"  # B's message never came before it
    assert not any(m["type"] == "chat" and m["text"] == "from B" for m in a.messages)
    # only the host (seat 0) changes the settings
    b.send({"type": "chat_settings", "on": False})
    assert b.until("error")["code"] == "not_host"
    a.send({"type": "chat_settings", "silenced": [2]})
    assert a.until("table")["table"]["chat"]["silenced"] == [2]
    c.send({"type": "chat", "text": "silenced?"})
    assert c.until("error")["code"] == "muted"
    a.send({"type": "chat_settings", "on": False})
    a.until("table")
    b.send({"type": "chat", "text": "off?"})
    err = b.until("error")
    assert err["code"] == "chat_off" and err["request"]["text"] == "off?"
    a.send({"type": "chat_settings", "on": True, "spectators": True})
    a.until("table")
    watcher = server.ws(code)
    watcher.until("welcome")
    watcher.send({"type": "chat", "text": "hello from the rail"})
    msg = a.until("chat")
    assert msg["seat"] is None and msg["name"] == "Spectator"


def test_turn_timer_plays_the_stand_in_and_says_so() -> None:
    """With a 30 s timer (the clock sped up for the test), a player who does not move has that
    one decision played by the stand-in bot; the chat says so; the player keeps the seat."""
    from parlour.server import house

    saved = house.TIMERS
    house.TIMERS = (1, 30, 60, 120)
    try:
        with live_server() as server:
            t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
            code, host = t["code"], t["seats"][0]["token"]
            r = server.http.post(f"/api/tables/{code}/house", json={"token": host, "turn_timer": 1})
            assert r.status_code == 200, r.text
            clients = [server.ws(code, row["token"]) for row in t["seats"]]
            for c in clients:
                c.until("welcome")
            timer = clients[0].until("timer")
            assert timer["seconds"] == 1 and timer["seat"] in (0, 1)
            note = clients[0].until("chat", timeout=10)
            assert note["system"] is True and "Time ran out" in note["text"]
            # the server's own clock: the stand-in moved no sooner than the timer said
            assert note["ts"] - timer["ts"] >= 0.9
            assert clients[0].state is not None and clients[0].state["version"] >= 1
            seats = server.http.get(f"/api/tables/{code}").json()["seats"]
            assert [s["controller"] for s in seats] == ["human", "human"]
    finally:
        house.TIMERS = saved
