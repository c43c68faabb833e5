"""Whole matches over real WebSockets, the lobby, seats, bots, reconnects and replays."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from parlour import games
from parlour.server.deals import _scored
from tests.server.conftest import Client, LiveServer, live_server


def _play_out(clients: list[Client], rng: random.Random, max_steps: int = 20_000) -> int:
    """Random legal actions from whichever client is to act, until the match ends."""
    steps = 0
    while clients[0].state is not None and clients[0].state["status"] != "finished":
        acting = [c for c in clients if c.state and c.state["your_turn"]]
        assert len(acting) == 1, [c.state and c.state["to_act"] for c in clients]
        mover = acting[0]
        choice = rng.choice(mover.state["legal"])  # type: ignore[index]
        mover.act(choice["action"])
        version = mover.state["version"]  # type: ignore[index]
        for c in clients:
            while c.until("state")["version"] != version + 1:
                pass
        steps += 1
        assert steps < max_steps, "match did not end"
    return steps


def _match_game() -> tuple[str, dict[str, Any]]:
    """Samba with one hand when it is registered (the issue asks for Samba); Toy otherwise."""
    if "samba" in games.names():
        entry = games.entry("samba")
        opts = dict(entry.random_play_options) or {}
        if "max_hands" in entry.rules_type.json_schema()["properties"]:
            opts["max_hands"] = 1
        return "samba", opts
    return "toy", {"max_hands": 2}


def test_full_four_seat_match_over_websockets(server: LiveServer) -> None:
    """Four WebSocket clients play a whole 4-seat match (Samba, one hand, when registered) to the
    end; a spectator watches; the final views agree with a replay of the journal."""
    game, options = _match_game()
    t = server.create(game=game, options=options, players=4, seats=[{"kind": "human"}] * 4)
    code = t["code"]
    clients = [server.ws(code, s["token"]) for s in t["seats"]]
    watcher = server.ws(code)
    for c in [*clients, watcher]:
        assert c.until("welcome")["protocol"] == 1
        c.until("state")
    # the table starts once every human seat has connected
    for c in clients:
        while c.state["status"] != "playing":  # type: ignore[index]
            c.until("state")
    steps = _play_out(clients, random.Random(7))
    watcher.drain(0.3)
    final = clients[0].state
    assert final is not None and final["outcome"]["finished"]
    assert watcher.state is not None and watcher.state["version"] == steps
    assert watcher.state["view"]["seat"] is None and watcher.state["legal"] is None
    replay = server.http.get(f"/api/tables/{code}/replay").json()
    assert len(replay["record"]["actions"]) == steps
    assert replay["steps"][-1]["view"] == watcher.state["view"]
    # the record keeps the hands' notes as data, each seat reads them in words (issue 15)
    assert _scored(replay["record"]["outcome"]) == _scored(final["outcome"])
    assert replay["outcome"] == watcher.state["outcome"]
    assert [h["note_kind"] for h in final["outcome"]["hands"]] == [
        h["note"] for h in replay["record"]["outcome"]["hands"]
    ]
    assert all(d["verified"] for d in replay["deals"]) and replay["deals"]
    # Every seat's hand at every step (all public once the match is over): the steps carry the
    # hands that changed; carried forward they end as each player's own last view of its hand.
    assert set(replay["steps"][0]["hands"]) == {"0", "1", "2", "3"}
    held: dict[str, list[str]] = {}
    for st in replay["steps"]:
        held.update(st["hands"])
    for seat, c in enumerate(clients):
        assert held[str(seat)] == c.state["view"]["hand"]  # type: ignore[index]
    for c in [*clients, watcher]:
        c.close()


def test_player_names_on_seats(server: LiveServer) -> None:
    """The creator's, an invited friend's and a joiner's names are kept on their seats (cleaned),
    shown in the table record and kept in the journal."""
    r = server.http.post(
        "/api/tables",
        json={
            "game": "toy",
            "players": 3,
            "player": " Anna\n ",
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human", "open": True}],
        },
    )
    assert r.status_code == 201, r.text
    t = r.json()
    code = t["code"]
    invite = t["seats"][1]["invite"]
    c = server.http.post(f"/api/tables/{code}/claim", json={"invite": invite, "player": "Bea"})
    assert c.status_code == 200, c.text
    j = server.http.post(f"/api/tables/{code}/join", json={"player": "C" * 40})
    assert j.status_code == 200, j.text
    seats = server.http.get(f"/api/tables/{code}").json()["seats"]
    assert [s.get("name") for s in seats] == ["Anna", "Bea", "C" * 24]
    bad = server.http.post(f"/api/tables/{code}/join", json={"player": "x" * 81})
    assert bad.status_code == 422
    stored = server.app.state.server.storage.load_table(code)[0].seats
    assert [s.get("name") for s in stored] == ["Anna", "Bea", "C" * 24]
    # The host invites someone new for Bea's seat: her name goes with her.
    r = server.http.post(f"/api/tables/{code}/invite", json={"token": t["you"]["token"], "seat": 1})
    assert r.status_code == 200, r.text
    seats = server.http.get(f"/api/tables/{code}").json()["seats"]
    assert [s.get("name") for s in seats] == ["Anna", None, "C" * 24]


def test_lobby_games_catalogue(server: LiveServer) -> None:
    """GET /api/games lists every registered game with presets, documented options and bots."""
    data = server.http.get("/api/games").json()["games"]
    names = {g["name"] for g in data}
    assert set(games.names()) == names and "toy" in names
    toy = next(g for g in data if g["name"] == "toy")
    assert {p["name"] for p in toy["presets"]} == {"toy", "quick"}
    assert toy["presets"][1]["options"] == {"hand_size": 2, "max_hands": 1}
    players = next(o for o in toy["options"] if o["name"] == "players")
    assert players["choices"] == [2, 3, 4] and players["default"] == 4 and players["doc"]
    assert "random" in toy["bots"] and toy["default_bot"] in toy["bots"]
    assert toy["schema"]["additionalProperties"] is False
    openapi = server.http.get("/openapi.json").json()
    assert "/api/tables" in openapi["paths"] and "/api/tables/{code}/join" in openapi["paths"]


def test_create_validates_options_seats_and_bots(server: LiveServer) -> None:
    """Options are checked by the rules schema; seats and bot levels are checked too."""
    r = server.http.post("/api/tables", json={"game": "toy", "options": {"max_hands": 0}})
    assert r.status_code == 422 and "max_hands" in r.json()["detail"]
    r = server.http.post("/api/tables", json={"game": "toy", "options": {"colour": "red"}})
    assert r.status_code == 422 and "unknown option 'colour'" in r.json()["detail"]
    r = server.http.post("/api/tables", json={"game": "nonesuch"})
    assert r.status_code == 422 and "no game 'nonesuch'" in r.json()["detail"]
    r = server.http.post(
        "/api/tables", json={"game": "toy", "players": 2, "seats": [{"kind": "human"}]}
    )
    assert r.status_code == 422 and "2 players need 2 seats" in r.json()["detail"]
    r = server.http.post(
        "/api/tables",
        json={
            "game": "toy",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "genius"}],
        },
    )
    assert r.status_code == 422 and "no bot level 'genius'" in r.json()["detail"]
    r = server.http.post("/api/tables", json={"game": "quick", "players": 3})
    assert r.status_code == 201
    body = r.json()
    assert body["preset"] == "quick" and body["rules"]["hand_size"] == 2 and body["players"] == 3


def test_join_tokens_and_open_list(server: LiveServer) -> None:
    """Join by code hands out open seats only, each with a fresh token; invite-only seats are
    neither listed nor joinable (issue 14 item 5)."""
    t = server.create(
        game="toy",
        players=3,
        seats=[{"kind": "human"}, {"kind": "human", "open": True}, {"kind": "human"}],
        claim_invites=False,
    )
    code = t["code"]
    assert t["you"]["seat"] == 0 and len(t["you"]["token"]) >= 40
    assert "token" not in t["seats"][1] and "token" not in t["seats"][2]
    assert t["seats"][1]["invite_url"] == f"/t/{code}?invite={t['seats'][1]['invite']}"
    listed = server.http.get("/api/tables").json()
    assert code in [x["code"] for x in listed["tables"]]
    assert next(x for x in listed["tables"] if x["code"] == code)["free_seats"] == [1]
    j = server.http.post(f"/api/tables/{code}/join", json={}).json()
    assert j["seat"] == 1 and j["url"] == f"/t/{code}" and len(j["token"]) >= 40
    assert j["token"] != t["seats"][1]["invite"]
    r = server.http.post(f"/api/tables/{code}/join", json={"seat": 1})
    assert r.status_code == 409 and "not open" in r.json()["detail"]
    r = server.http.post(f"/api/tables/{code}/join", json={"seat": 2})
    assert r.status_code == 409 and "not open" in r.json()["detail"]
    r = server.http.post(f"/api/tables/{code}/join", json={})
    assert r.status_code == 409 and "no open seat" in r.json()["detail"]
    assert code not in [x["code"] for x in server.http.get("/api/tables").json()["tables"]]
    assert code in [x["code"] for x in server.http.get("/api/tables?status=all").json()["tables"]]
    assert server.http.get("/api/tables/ZZZZZZ").status_code == 404


def test_leave_hands_the_seat_to_a_bot_and_revokes_the_token(server: LiveServer) -> None:
    """A player who leaves is replaced by a bot at once and the token stops working (issue 14
    item 5: ``leave`` revokes it)."""
    t = server.create(
        game="toy",
        players=2,
        seats=[{"kind": "human"}, {"kind": "human"}],
        options={"max_hands": 50},
    )
    code, tokens = t["code"], [s["token"] for s in t["seats"]]
    a, b = server.ws(code, tokens[0]), server.ws(code, tokens[1])
    for c in (a, b):
        while c.state is None or c.state["status"] != "playing":
            c.until("state")
    r = server.http.post(f"/api/tables/{code}/leave", json={"token": "nope"})
    assert r.status_code == 403 and "holds no seat" in r.json()["detail"]
    r = server.http.post(f"/api/tables/{code}/leave", json={"token": tokens[1]})
    assert r.json() == {"seat": 1, "left": True}
    err = b.until("error")
    assert err["code"] == "left" and "a bot plays it" in err["message"]
    assert b.until("state")["seat"] is None  # now watching
    info = server.http.get(f"/api/tables/{code}").json()
    assert info["seats"][1]["controller"] == "bot"
    # the bot plays seat 1 whenever it is its turn; seat 0 plays a few moves against it
    msg = a.state
    assert msg is not None
    while msg["version"] < 4:
        if msg["your_turn"]:
            a.act(msg["legal"][0]["action"])
        msg = a.until("state")
    b2 = server.ws(code, tokens[1])
    assert b2.until("welcome")["seat"] is None
    assert b2.until("error")["code"] == "bad_token"
    r = server.http.post(f"/api/tables/{code}/leave", json={"token": tokens[1]})
    assert r.status_code == 403
    for c in (a, b, b2):
        c.close()


def test_bots_play_their_seats_and_spectator_sees_everything_public(server: LiveServer) -> None:
    """A table of one human and three bots: the bots play whenever it is their turn."""
    t = server.create(game="toy", options={"max_hands": 1})
    human = server.ws(t["code"], t["you"]["token"])
    human.until("welcome")
    rng = random.Random(3)
    deadline = time.monotonic() + 60
    while True:
        msg = human.until("state")
        if msg["status"] == "finished":
            break
        if msg["your_turn"]:
            human.act(rng.choice(msg["legal"])["action"])
        assert time.monotonic() < deadline
    assert msg["outcome"]["finished"]
    movers = {
        e["data"]["seat"]
        for m in human.messages
        if m["type"] == "state"
        for e in m["events"]
        if e["kind"] in ("play", "draw")
    }
    assert movers == {0, 1, 2, 3}
    info = server.http.get(f"/api/tables/{t['code']}").json()
    assert info["status"] == "finished"
    assert [s["controller"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    human.close()


def test_reconnect_restores_seat_and_log(server: LiveServer) -> None:
    """Reload mid-match: the same link gives the seat back with the whole visible log."""
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    code = t["code"]
    a = server.ws(code, t["seats"][0]["token"])
    b = server.ws(code, t["seats"][1]["token"])
    for c in (a, b):
        c.until("welcome")
    for c in (a, b):
        while c.state is None or c.state["status"] != "playing":
            c.until("state")
    _moves(a, b, 5)
    a.close()
    a2 = server.ws(code, t["seats"][0]["token"])
    assert a2.until("welcome")["seat"] == 0
    st = a2.until("state")
    assert st["full_log"] is True and st["version"] == 5 and st["view"]["seat"] == 0
    kinds = [e["kind"] for e in st["events"]]
    assert kinds[0] == "deal_commitment" and kinds.count("play") + kinds.count("draw") == 5
    assert st["view"] == a.state["view"] or st["version"] > a.state["version"]  # type: ignore[index]
    b.close()
    a2.close()


def _moves(a: Client, b: Client, n: int) -> None:
    rng = random.Random(5)
    for _ in range(n):
        mover = a if a.state["your_turn"] else b  # type: ignore[index]
        mover.act(rng.choice(mover.state["legal"])["action"])  # type: ignore[index]
        v = mover.state["version"]  # type: ignore[index]
        for c in (a, b):
            while c.until("state")["version"] != v + 1:
                pass


def test_bot_takes_over_after_grace_and_player_reclaims() -> None:
    """A player who stays away past the grace period is replaced by a bot; the token takes the
    seat back."""
    with live_server(grace=0.3) as server:
        t = server.create(
            game="toy",
            players=2,
            seats=[{"kind": "human"}, {"kind": "human"}],
            options={"max_hands": 50},
        )
        code = t["code"]
        a = server.ws(code, t["seats"][0]["token"])
        b = server.ws(code, t["seats"][1]["token"])
        for c in (a, b):
            while c.state is None or c.state["status"] != "playing":
                c.until("state")
        b.close()
        # seat 1 stands in as a bot after 0.3 s: seat 0 sees the game move on by itself
        deadline = time.monotonic() + 20
        controllers: list[str] = []
        msg = a.state
        assert msg is not None
        while time.monotonic() < deadline:
            if msg["your_turn"]:
                a.act(msg["legal"][0]["action"])
            msg = a.until("state")
            controllers = [s["controller"] for s in msg["seats"]]
            if msg["version"] >= 6 and controllers[1] == "bot":
                break
        assert controllers[1] == "bot"
        b2 = server.ws(code, t["seats"][1]["token"])
        assert b2.until("welcome")["seat"] == 1
        table = b2.until("state")
        assert table["seats"][1]["controller"] == "human"
        info = server.http.get(f"/api/tables/{code}").json()
        assert info["seats"][1]["controller"] == "human"
        a.close()
        b2.close()


def test_start_fills_free_seats_with_bots(server: LiveServer) -> None:
    """A waiting table starts on request; unclaimed human seats are played by bots until joined."""
    t = server.create(
        game="toy",
        players=2,
        seats=[{"kind": "human"}, {"kind": "human"}],
        options={"max_hands": 1},
        claim_invites=False,
    )
    a = server.ws(t["code"], t["you"]["token"])
    st = a.until("state")
    assert st["status"] == "waiting" and st["legal"] is None
    a.send({"type": "start"})
    deadline = time.monotonic() + 20
    while st["status"] != "finished" and time.monotonic() < deadline:
        st = a.until("state")
        if st["your_turn"]:
            a.act(st["legal"][0]["action"])
    assert st["status"] == "finished"
    assert st["seats"][1]["controller"] == "bot"
    a.close()


@pytest.mark.parametrize("path", ["/", "/t/ABCDEF"])
def test_pages_are_served(server: LiveServer, path: str) -> None:
    """The browser client's pages are served (or a placeholder when it is not installed)."""
    r = server.http.get(path)
    text = r.text.lower()
    assert r.status_code == 200 and ("<html" in text or "<!doctype" in text)
