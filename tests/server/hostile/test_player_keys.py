"""Hostile players (issue 33): made-up, stolen-shaped and malformed player keys, names and move
links get a clear refusal; nothing of a key or a seat token is ever shown back."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import LiveServer, live_server


def _player(server: LiveServer, name: str = "Anna") -> dict[str, Any]:
    r = server.http.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("", 422),
        ("   ", 422),
        ("\n\t\x00", 422),
        (None, 422),
        (5, 422),
        (["Anna"], 422),
        ({"first": "Anna"}, 422),
        ("x" * 10_000, 422),
        ("x" * 81, 422),
    ],
)
def test_bad_names_are_refused(server: LiveServer, name: Any, status: int) -> None:
    r = server.http.post("/api/players", json={"name": name})
    assert r.status_code == status, r.text
    assert "name" in r.text


def test_names_are_cleaned_and_shown_as_text(server: LiveServer) -> None:
    p = _player(server, "<b>Bo</b>\x07\nbby  ")
    assert p["name"] == "<b>Bo</b> bby"  # printable, one line; markup is kept as characters
    p = _player(server, "Z" * 30)
    assert p["name"] == "Z" * 24
    r = server.http.post(
        "/api/players", content=b'{"name": "\\ud800"}', headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and "surrogate" in r.json()["detail"]


@pytest.mark.parametrize(
    "key", ["", "short", "k" * 43, "k" * 200, "../../etc/passwd" * 3, "' OR '1'='1' --" * 3]
)
def test_unknown_keys_act_for_nobody(server: LiveServer, key: str) -> None:
    _player(server)
    for path, extra in (
        ("/api/players/me", {}),
        ("/api/players/rename", {"name": "Mallory"}),
        ("/api/players/move", {}),
        ("/api/players/tables", {}),
    ):
        r = server.http.post(path, json={"key": key, **extra})
        assert r.status_code == 403, (path, r.text)


@pytest.mark.parametrize("key", [None, 5, ["k"], {"k": 1}, "k" * 201])
def test_malformed_keys_are_schema_errors(server: LiveServer, key: Any) -> None:
    r = server.http.post("/api/players/me", json={"key": key})
    assert r.status_code == 422


def test_player_ids_and_pages_leak_nothing(db_url: str, tmp_path: Path) -> None:
    with live_server(db_url) as server:
        p = _player(server)
        t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
        token = t["seats"][0]["token"]
        r = server.http.post(f"/api/tables/{t['code']}/sit", json={"key": p["key"], "token": token})
        assert r.status_code == 200
        page = server.http.get(f"/api/players/{p['id']}").text
        table = server.http.get(f"/api/tables/{t['code']}").text
        for text in (page, table):
            assert p["key"] not in text and token not in text
        for bad in ("nope", "0" * 12, "%3Cb%3E", "A" * 12, "x" * 500):
            assert server.http.get(f"/api/players/{bad}").status_code == 404
        # another player's key cannot bind a seat it does not hold
        q = _player(server, "Mallory")
        other = t["seats"][1]["token"]
        r = server.http.post(f"/api/tables/{t['code']}/sit", json={"key": q["key"], "token": "x"})
        assert r.status_code == 403
        r = server.http.post(f"/api/tables/{t['code']}/sit", json={"key": q["key"], "token": other})
        assert r.status_code == 200 and r.json()["seat"] == 1  # its own seat: fine
        mine = server.http.post("/api/players/tables", json={"key": p["key"]}).json()
        assert [x["seat"] for x in mine["tables"]] == [0]


def test_move_links_are_one_time_and_not_guessable(server: LiveServer) -> None:
    p = _player(server)
    link = server.http.post("/api/players/move", json={"key": p["key"]}).json()["url"][6:]
    assert len(link) >= 43
    for bad in ("", "x", link[:-1] + ("A" if link[-1] != "A" else "B"), "k" * 201):
        r = server.http.post("/api/players/move/claim", json={"link": bad})
        assert r.status_code in (403, 422), r.text
    ok = server.http.post("/api/players/move/claim", json={"link": link})
    assert ok.status_code == 200
    # many racing claims of one spent link: all refused
    codes = {
        server.http.post("/api/players/move/claim", json={"link": link}).status_code
        for _ in range(5)
    }
    assert codes == {410}


def test_the_journal_keeps_no_key(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with live_server(f"sqlite:///{db}") as server:
        p = _player(server)
        link = server.http.post("/api/players/move", json={"key": p["key"]}).json()["url"][6:]
        moved = server.http.post("/api/players/move/claim", json={"link": link}).json()["key"]
    dump = "\n".join(sqlite3.connect(db).iterdump())
    for secret in (p["key"], link, moved):
        assert secret not in dump


@pytest.mark.parametrize(
    "body",
    [
        {"turn_timer": 45},
        {"turn_timer": -30},
        {"turn_timer": 10**20},
        {"turn_timer": "thirty"},
        {"turn_timer": [30]},
        {"turn_timer": 30.5},
        {"rated": {"yes": 1}},
        {"rated": [True]},
    ],
)
def test_house_settings_refuse_what_is_not_offered(server: LiveServer, body: Any) -> None:
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
    token = t["seats"][0]["token"]
    r = server.http.post(f"/api/tables/{t['code']}/house", json={"token": token, **body})
    assert r.status_code == 422, r.text
    record = server.http.get(f"/api/tables/{t['code']}").json()
    assert record["turn_timer"] is None and record["rated"] is None


def test_reseat_and_sit_refuse_strangers(server: LiveServer) -> None:
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
    code = t["code"]
    p = _player(server)
    for body in ({"key": p["key"]}, {"key": "k" * 43}, {"key": ""}):
        assert server.http.post(f"/api/tables/{code}/reseat", json=body).status_code == 403
    for body in ({"key": p["key"], "token": "t" * 200}, {"key": p["key"], "token": ""}):
        assert server.http.post(f"/api/tables/{code}/sit", json=body).status_code == 403
    r = server.http.post(f"/api/tables/{code}/sit", json={"key": p["key"], "token": "t" * 201})
    assert r.status_code == 422
    assert server.http.post("/api/tables/NOPE99/reseat", json={"key": p["key"]}).status_code == 404
