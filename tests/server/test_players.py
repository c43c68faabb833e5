"""Players who come back (issue 33): a player key and name, seats bound to the player, the move
link, history and ratings after a match, and the journal's schema migration."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from parlour.server import ratings, schema
from parlour.server.players import PlayerStore
from parlour.server.storage import _SCHEMA, open_storage
from tests.server.conftest import Client, LiveServer, live_server
from tests.server.test_recovery import pg_schema


def new_player(server: LiveServer, name: str) -> dict[str, Any]:
    r = server.http.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def sit(server: LiveServer, code: str, key: str, token: str) -> dict[str, Any]:
    r = server.http.post(f"/api/tables/{code}/sit", json={"key": key, "token": token})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def play_out(clients: list[Client], rng: random.Random) -> None:
    """Random legal moves by whichever client is to act until the match ends (bots play too);
    every client reads every state, so none acts on an old one."""
    for _ in range(5000):
        st = clients[0].state
        assert st is not None
        if st["status"] == "finished":
            return
        mover = next((c for c in clients if c.state and c.state["your_turn"]), None)
        if mover is not None:
            mover.act(rng.choice(mover.state["legal"])["action"])  # type: ignore[index]
        version = st["version"]
        for c in clients:
            while c.state is None or c.state["version"] <= version:
                c.until("state")
    raise AssertionError("the match did not end")


def wait_for(fn: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def test_a_player_is_a_name_and_a_key_kept_only_as_a_hash(tmp_path: Path) -> None:
    """The first visit makes a player; the key (≥ 128 bits) is the browser's alone: the journal
    holds its hash; a rename is seen by /me and the player page."""
    db = tmp_path / "j.db"
    with live_server(f"sqlite:///{db}") as server:
        p = new_player(server, "  Tess \n")
        assert p["name"] == "Tess" and len(p["key"]) >= 43 and len(p["id"]) == 12
        me = server.http.post("/api/players/me", json={"key": p["key"]}).json()
        assert me == {"id": p["id"], "name": "Tess", "url": f"/p/{p['id']}"}
        r = server.http.post("/api/players/rename", json={"key": p["key"], "name": "Tessa"})
        assert r.status_code == 200 and r.json()["name"] == "Tessa"
        page = server.http.get(f"/api/players/{p['id']}").json()
        assert page["name"] == "Tessa" and page["matches"] == [] and page["ratings"] == {}
        assert p["key"] not in str(page)
        # two players may share a name; each has their own page
        q = new_player(server, "Tessa")
        assert q["id"] != p["id"]
    dump = "\n".join(sqlite3.connect(db).iterdump())
    assert p["key"] not in dump and q["key"] not in dump
    assert "Tessa" in dump


def test_move_link_works_once_within_ten_minutes(server: LiveServer) -> None:
    """A move link gives a new device a key of the same player, once; used or expired it says
    so; the QR code is an SVG of the link."""
    p = new_player(server, "Anna")
    r = server.http.post("/api/players/move", json={"key": p["key"]})
    assert r.status_code == 200, r.text
    move = r.json()
    assert move["url"].startswith("/move/") and move["seconds"] == 600
    assert move["qr_svg"].lstrip().startswith("<svg") and "path" in move["qr_svg"]
    link = move["url"].removeprefix("/move/")
    got = server.http.post("/api/players/move/claim", json={"link": link})
    assert got.status_code == 200, got.text
    new_key = got.json()["key"]
    assert new_key != p["key"] and got.json()["id"] == p["id"]
    for key in (p["key"], new_key):  # both devices act for the player
        assert server.http.post("/api/players/me", json={"key": key}).json()["id"] == p["id"]
    again = server.http.post("/api/players/move/claim", json={"link": link})
    assert again.status_code == 410 and "used" in again.json()["detail"]
    # an expired link
    link2 = server.http.post("/api/players/move", json={"key": p["key"]}).json()["url"][6:]
    storage = server.app.state.server.storage
    storage._execute("UPDATE parlour_player_moves SET expires = 0 WHERE used IS NULL")
    late = server.http.post("/api/players/move/claim", json={"link": link2})
    assert late.status_code == 410 and "expired" in late.json()["detail"]
    wrong = server.http.post("/api/players/move/claim", json={"link": "x" * 43})
    assert wrong.status_code == 403


def test_seats_take_the_players_name_and_list_as_my_tables(server: LiveServer) -> None:
    """Sitting binds a seat to the player: the seat shows the player's name, the table is under
    the player's tables; a wrong key or token is refused."""
    a, b = new_player(server, "Anna"), new_player(server, "Bea")
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
    code = t["code"]
    tok_a, tok_b = t["seats"][0]["token"], t["seats"][1]["token"]
    assert sit(server, code, a["key"], tok_a) == {"seat": 0, "player": a["id"], "name": "Anna"}
    sit(server, code, b["key"], tok_b)
    seats = server.http.get(f"/api/tables/{code}").json()["seats"]
    assert [s.get("name") for s in seats] == ["Anna", "Bea"]
    mine = server.http.post("/api/players/tables", json={"key": a["key"]}).json()
    assert [(x["code"], x["seat"], x["status"]) for x in mine["tables"]] == [(code, 0, "waiting")]
    assert mine["matches"] == []
    bad = server.http.post(f"/api/tables/{code}/sit", json={"key": "k" * 43, "token": tok_a})
    assert bad.status_code == 403
    bad = server.http.post(f"/api/tables/{code}/sit", json={"key": a["key"], "token": "t" * 43})
    assert bad.status_code == 403
    # a rename shows at once at every seat the player holds, to everyone at the table
    watcher = server.ws(code, tok_b)
    watcher.until("state")
    r = server.http.post("/api/players/rename", json={"key": a["key"], "name": "Annie"})
    assert r.status_code == 200, r.text
    seats = server.http.get(f"/api/tables/{code}").json()["seats"]
    assert [s.get("name") for s in seats] == ["Annie", "Bea"]
    told = watcher.until("table")
    while told["table"]["seats"][0].get("name") != "Annie":
        told = watcher.until("table")
    watcher.close()
    # a seat the player no longer holds (its token changed hands) keeps its name
    r = server.http.post(f"/api/tables/{code}/leave", json={"token": tok_b})
    server.http.post("/api/players/rename", json={"key": b["key"], "name": "Beatrix"})
    seats = server.http.get(f"/api/tables/{code}").json()["seats"]
    assert seats[1].get("name") != "Beatrix"


def _finished_match(server: LiveServer, *, rated: bool | None) -> tuple[dict[str, Any], str]:
    """A player against a random bot at Toy (one hand) played to the end; the player, the code."""
    p = new_player(server, "Solo")
    t = server.create(
        game="toy",
        players=2,
        options={"max_hands": 1, "hand_size": 2},
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
    )
    code, token = t["code"], t["seats"][0]["token"]
    sit(server, code, p["key"], token)
    if rated is not None:
        r = server.http.post(f"/api/tables/{code}/house", json={"token": token, "rated": rated})
        assert r.status_code == 200 and r.json()["rated"] is rated
    c = server.ws(code, token)
    c.until("welcome")
    c.until("state")
    while c.state["status"] != "playing":  # type: ignore[index]
        c.until("state")
    play_out([c], random.Random(3))
    c.close()
    return p, code


def test_a_finished_match_goes_into_history_and_rating(server: LiveServer) -> None:
    """The match is on the player page (game, result, replay link) with a rating and its
    history; nothing of a key; a second look at the history is the same."""
    p, code = _finished_match(server, rated=None)

    def page() -> dict[str, Any]:
        return server.http.get(f"/api/players/{p['id']}").json()  # type: ignore[no-any-return]

    data = wait_for(lambda: page()["matches"] and page())
    assert data, "the match never reached the player page"
    m = data["matches"][0]
    assert m["code"] == code and m["game"] == "toy" and m["rated"] is True
    assert m["replay_url"] == f"/replay/{code}" and m["players"][0]["name"] == "Solo"
    assert data["games"]["toy"]["played"] == 1
    rating = data["ratings"]["toy"]
    assert rating["matches"] == 1 and len(rating["history"]) == 1
    assert rating["mu"] != 25.0 and rating["sigma"] < 25 / 3
    assert p["key"] not in str(data)
    lobby = server.http.post("/api/players/tables", json={"key": p["key"]}).json()
    assert [x["code"] for x in lobby["matches"]] == [code] and lobby["tables"] == []


def test_host_can_play_unrated(server: LiveServer) -> None:
    p, code = _finished_match(server, rated=False)
    data = wait_for(lambda: server.http.get(f"/api/players/{p['id']}").json()["matches"])
    assert data and data[0]["rated"] is False and data[0]["code"] == code
    assert server.http.get(f"/api/players/{p['id']}").json()["ratings"] == {}


def test_house_settings_are_the_hosts_and_checked(server: LiveServer) -> None:
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
    code, host, guest = t["code"], t["seats"][0]["token"], t["seats"][1]["token"]
    r = server.http.post(f"/api/tables/{code}/house", json={"token": guest, "rated": False})
    assert r.status_code == 403
    r = server.http.post(f"/api/tables/{code}/house", json={"token": host, "turn_timer": 45})
    assert r.status_code == 422
    r = server.http.post(f"/api/tables/{code}/house", json={"token": host, "turn_timer": 30})
    assert r.status_code == 200 and r.json()["turn_timer"] == 30
    assert server.http.get(f"/api/tables/{code}").json()["turn_timer"] == 30


def test_rematch_keeps_names(server: LiveServer) -> None:
    """Issue 33: a rematch no longer turns "Tess" back into "South"."""
    r = server.http.post(
        "/api/tables",
        json={
            "game": "toy",
            "players": 2,
            "player": "Tess",
            "options": {"max_hands": 1, "hand_size": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
    )
    t = r.json()
    code = t["code"]
    c = server.http.post(
        f"/api/tables/{code}/claim", json={"invite": t["seats"][1]["invite"], "player": "Uma"}
    )
    tokens = [t["you"]["token"], c.json()["token"]]
    clients = [server.ws(code, tok) for tok in tokens]
    for cl in clients:
        cl.until("welcome")
        cl.until("state")
    for cl in clients:
        while cl.state["status"] != "playing":  # type: ignore[index]
            cl.until("state")
    play_out(clients, random.Random(5))
    for cl in clients:
        cl.close()
    first = server.http.post(f"/api/tables/{code}/rematch", json={"token": tokens[1]}).json()
    server.http.post(f"/api/tables/{code}/rematch", json={"token": tokens[0]})
    seats = server.http.get(f"/api/tables/{first['code']}").json()["seats"]
    assert [s.get("name") for s in seats] == ["Tess", "Uma"]


def _old_sqlite_journal(path: Path) -> None:
    """A journal as today's (pre-issue-33) server leaves it: the three tables, one table row."""
    conn = sqlite3.connect(path)
    for stmt in _SCHEMA:
        conn.execute(stmt)
    conn.execute(
        "INSERT INTO parlour_tables VALUES ('OLD123', 'toy', 'toy', '{\"players\": 2}', 1, 0, "
        "'[]', 'waiting', 'old', 1.0, 1.0, '{}')"
    )
    conn.commit()
    conn.close()


def test_an_old_sqlite_journal_gains_the_new_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _old_sqlite_journal(path)
    store = open_storage(f"sqlite:///{path}")
    try:
        assert store.load_table("OLD123") is not None
        conn = sqlite3.connect(path)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"parlour_players", "parlour_ratings", "parlour_schema"} <= tables
        assert [r[0] for r in conn.execute("SELECT version FROM parlour_schema")] == [
            schema.latest()
        ]
        conn.close()
    finally:
        store.close()
    # opened again: nothing to do
    again = open_storage(f"sqlite:///{path}")
    again.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT COUNT(*) FROM parlour_schema").fetchone()[0] == 1


def test_an_old_postgresql_journal_gains_the_new_tables() -> None:
    import psycopg

    with pg_schema() as url:
        with psycopg.connect(url, autocommit=True) as conn:
            for stmt in _SCHEMA:
                conn.execute(stmt)
            conn.execute(
                "INSERT INTO parlour_tables VALUES ('OLD123', 'toy', 'toy', '{}', 1, 0, '[]', "
                "'waiting', 'old', 1.0, 1.0, '{}')"
            )
        for _ in range(2):  # a second server finds the migration done
            store = open_storage(url)
            try:
                assert store.load_table("OLD123") is not None
            finally:
                store.close()
        with psycopg.connect(url, autocommit=True) as conn:
            versions = [r[0] for r in conn.execute("SELECT version FROM parlour_schema")]
            assert versions == [schema.latest()]
            conn.execute("SELECT id, name FROM parlour_players")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_players_on_both_journals(backend: str, tmp_path: Path) -> None:
    """The same calls on SQLite and PostgreSQL, and a restart keeps the player."""

    def run(url: str) -> None:
        with live_server(url) as server:
            p = new_player(server, "Bo")
        with live_server(url) as server:
            me = server.http.post("/api/players/me", json={"key": p["key"]})
            assert me.status_code == 200 and me.json()["name"] == "Bo"
        store = open_storage(url)  # the startup's look for matches missing from the history
        try:
            assert ratings.unrecorded(PlayerStore(store), 0.0, 10) == []
        finally:
            store.close()

    if backend == "sqlite":
        run(f"sqlite:///{tmp_path / 'j.db'}")
    else:
        with pg_schema() as url:
            run(url)


def test_leaderboard_route(server: LiveServer) -> None:
    r = server.http.get("/api/leaders/samba")
    assert r.status_code == 200 and r.json() == {"game": "samba", "min_matches": 5, "players": []}
    assert server.http.get("/api/leaders/nosuchgame").status_code == 404
    assert server.http.get("/leaders/samba").status_code == 200
    assert server.http.get("/p/0123456789ab").status_code == 200  # the page; its data says 404
    # a program asking for JSON gets the page's data at the page's address
    as_json = {"accept": "application/json"}
    r = server.http.get("/leaders/samba", headers=as_json)
    assert r.json()["players"] == [] and r.json()["min_matches"] == 5
    assert server.http.get("/p/0123456789ab", headers=as_json).status_code == 404
    p = new_player(server, "Json")
    assert server.http.get(f"/p/{p['id']}", headers=as_json).json()["name"] == "Json"


def test_a_player_takes_the_seat_back_on_another_device(server: LiveServer) -> None:
    """Back on another device (no token there), the key gets the seat a fresh token, while the
    token the player sat with still holds it; the old tabs get the new token; a seat that moved
    to someone else is not taken back."""
    p = new_player(server, "Anna")
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
    code, token = t["code"], t["seats"][0]["token"]
    sit(server, code, p["key"], token)
    tab = server.ws(code, token)
    tab.until("welcome")
    r = server.http.post(f"/api/tables/{code}/reseat", json={"key": p["key"]})
    assert r.status_code == 200, r.text
    fresh = r.json()["token"]
    assert r.json()["seat"] == 0 and fresh != token
    assert tab.until("token")["token"] == fresh
    tab.close()
    c = server.ws(code, fresh)
    assert c.until("welcome")["seat"] == 0
    c.close()
    # someone else's key gets nothing
    q = new_player(server, "Mallory")
    r = server.http.post(f"/api/tables/{code}/reseat", json={"key": q["key"]})
    assert r.status_code == 403
    # the host gives seat 1 to someone new: its old player cannot take it back
    b = new_player(server, "Bea")
    sit(server, code, b["key"], t["seats"][1]["token"])
    server.http.post(f"/api/tables/{code}/invite", json={"token": fresh, "seat": 1})
    r = server.http.post(f"/api/tables/{code}/reseat", json={"key": b["key"]})
    assert r.status_code == 403


def test_a_seat_that_changed_hands_is_not_rated_nor_credited(server: LiveServer) -> None:
    """Bea sat at seat 1; the host gave the seat to a newcomer (a new invite) who played it to
    the end: the match is unrated, and Bea is not credited with it."""
    a, b = new_player(server, "Anna"), new_player(server, "Bea")
    t = server.create(
        game="toy",
        players=2,
        options={"max_hands": 1, "hand_size": 2},
        seats=[{"kind": "human"}] * 2,
    )
    code, host = t["code"], t["seats"][0]["token"]
    sit(server, code, a["key"], host)
    sit(server, code, b["key"], t["seats"][1]["token"])
    r = server.http.post(f"/api/tables/{code}/invite", json={"token": host, "seat": 1})
    newcomer = server.http.post(
        f"/api/tables/{code}/claim", json={"invite": r.json()["invite"]}
    ).json()["token"]
    clients = [server.ws(code, tok) for tok in (host, newcomer)]
    for c in clients:
        c.until("welcome")
        c.until("state")
    for c in clients:
        while c.state["status"] != "playing":  # type: ignore[index]
            c.until("state")
    play_out(clients, random.Random(9))
    for c in clients:
        c.close()
    data = wait_for(lambda: server.http.get(f"/api/players/{a['id']}").json()["matches"])
    assert data and data[0]["code"] == code and data[0]["rated"] is False
    assert server.http.get(f"/api/players/{b['id']}").json()["matches"] == []
    assert server.http.get(f"/api/players/{a['id']}").json()["ratings"] == {}


def test_a_match_that_finished_just_before_a_stop_reaches_the_history(tmp_path: Path) -> None:
    """The table is journaled as finished before its history row is written (in the
    background): a process stopped in between leaves the match out of the history. The next
    start writes it, with the time of the last move, once."""
    db = tmp_path / "j.db"
    with live_server(f"sqlite:///{db}") as server:
        p, code = _finished_match(server, rated=None)
        wait_for(lambda: server.http.get(f"/api/players/{p['id']}").json()["matches"])
    # the state a stop between the last move and the history row leaves behind
    with sqlite3.connect(db) as con:
        finished = con.execute("SELECT finished FROM parlour_matches").fetchone()[0]
        for name in ("parlour_matches", "parlour_match_players", "parlour_rating_history"):
            con.execute(f"DELETE FROM {name}")
        con.execute("DELETE FROM parlour_ratings")
    with live_server(f"sqlite:///{db}") as server:

        def matches() -> list[dict[str, Any]]:
            return server.http.get(f"/api/players/{p['id']}").json()["matches"]  # type: ignore[no-any-return]

        got = wait_for(matches)
        assert [m["code"] for m in got] == [code]
        assert got[0]["finished"] == pytest.approx(finished, abs=1.0)
        assert got[0]["rated"] is True
        assert server.http.get(f"/api/players/{p['id']}").json()["ratings"]["toy"]["matches"] == 1
    with live_server(f"sqlite:///{db}") as server:  # a third start writes nothing twice
        time.sleep(0.5)
        page = server.http.get(f"/api/players/{p['id']}").json()
        assert len(page["matches"]) == 1 and page["ratings"]["toy"]["matches"] == 1
