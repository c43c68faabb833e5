"""Loose lobby input (issue 31, hole 10): ``"hints": "yes"`` was taken as true, unknown fields
and duplicate keys were accepted.  Request bodies are strict: exact JSON types (422), no field a
route does not name (422), no key twice in one object (400, the body means two things)."""

from __future__ import annotations

import pytest

from tests.server.conftest import LiveServer


@pytest.mark.parametrize(
    "body",
    [
        {"game": "toy", "hints": "yes"},
        {"game": "toy", "hints": 1},
        {"game": "toy", "players": "2"},
        {"game": "toy", "players": 2.0},
        {"game": "toy", "players": True},
        {"game": "toy", "claim": "0"},
        {"game": "toy", "seats": [{"kind": "human", "open": "true"}, {"kind": "bot"}]},
        {"game": "toy", "evil": 1},
        {"game": "toy", "seats": [{"kind": "human", "is_admin": True}, {"kind": "bot"}]},
        {"game": 5},
    ],
)
def test_a_create_body_of_wrong_types_or_unknown_fields_is_422(
    server: LiveServer, body: dict[str, object]
) -> None:
    r = server.http.post("/api/tables", json=body)
    assert r.status_code == 422, (body, r.status_code, r.text[:200])


@pytest.mark.parametrize(
    "raw",
    [
        '{"game": "toy", "game": "samba"}',
        '{"game": "toy", "hints": false, "hints": true}',
        '{"game": "toy", "seats": [{"kind": "human", "kind": "bot"}, {"kind": "bot"}]}',
    ],
)
def test_a_body_with_a_key_twice_is_400(server: LiveServer, raw: str) -> None:
    r = server.http.post("/api/tables", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "appears twice" in r.json()["detail"], r.text


def test_the_table_routes_are_strict_too(server: LiveServer) -> None:
    t = server.create(game="toy", players=2)
    code, token = t["code"], t["you"]["token"]
    bad = [
        ("join", {"seat": "1"}),
        ("join", {"seat": 1, "extra": 1}),
        ("claim", {"invite": "x", "evil": 1}),
        ("rotate", {"token": token, "also": 1}),
        ("invite", {"token": token, "seat": "1"}),
        ("hold", {"token": token, "on": "yes"}),
        ("speed", {"token": token, "delay": "1"}),
        ("rematch", {"token": token, "x": 1}),
        ("start", {"token": 12345}),
    ]
    for route, body in bad:
        r = server.http.post(f"/api/tables/{code}/{route}", json=body)
        assert r.status_code == 422, (route, body, r.status_code, r.text[:200])
    # well-typed bodies still work (a whole number where a float is asked is a number)
    r = server.http.post(f"/api/tables/{code}/speed", json={"token": token, "delay": 1})
    assert r.status_code == 200 and r.json()["bot_delay"] == 1.0
    r = server.http.post("/api/tables", json={"game": "toy", "players": 2, "hints": True})
    assert r.status_code == 201
    r = server.http.post(
        "/api/tables",
        json={
            "game": "toy",
            "players": 2,
            "claim": 1,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
    )
    assert r.status_code == 201 and r.json()["you"]["seat"] == 1
