"""Bad input never changes a table or drops a connection: each gets a clear error message."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import Client, LiveServer


@pytest.fixture
def table(server: LiveServer) -> Iterator[tuple[LiveServer, str, list[Client], list[str]]]:
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    tokens = [s["token"] for s in t["seats"]]
    clients = [server.ws(t["code"], tok) for tok in tokens]
    for c in clients:
        while c.state is None or c.state["status"] != "playing":
            c.until("state")
    yield server, t["code"], clients, tokens
    for c in clients:
        c.close()


def _mover(clients: list[Client]) -> tuple[Client, Client]:
    a, b = clients
    return (a, b) if a.state["your_turn"] else (b, a)  # type: ignore[index]


def _error(c: Client) -> dict[str, Any]:
    return c.until("error")


def _unchanged(server: LiveServer, code: str, clients: list[Client], version: int) -> None:
    """The table is where it was and the connection still works (a ping is answered)."""
    assert server.http.get(f"/api/tables/{code}").json()["version"] == version
    for c in clients:
        c.send({"type": "ping", "t": 42})
        assert c.until("pong")["t"] == 42


def test_malformed_json(table: Any) -> None:
    """Malformed JSON is answered with bad_json; nothing changes."""
    server, code, clients, _ = table
    c = clients[0]
    c.send("{not json")
    err = _error(c)
    assert err["code"] == "bad_json" and "not valid JSON" in err["message"]
    c.send("[1, 2]")
    assert _error(c)["code"] == "bad_json"
    _unchanged(server, code, clients, 0)


def test_unknown_message_type(table: Any) -> None:
    """An unknown message type names the types there are."""
    server, code, clients, _ = table
    clients[0].send({"type": "cheat", "give_me": "aces"})
    err = _error(clients[0])
    assert (
        err["code"] == "unknown_type" and "'cheat'" in err["message"] and "action" in err["message"]
    )
    clients[0].send({"no_type": 1})
    assert _error(clients[0])["code"] == "unknown_type"
    _unchanged(server, code, clients, 0)


def test_action_for_another_seat_and_out_of_turn(table: Any) -> None:
    """A token acts only for its seat: naming another seat, or acting out of turn, is refused."""
    server, code, clients, _ = table
    mover, other = _mover(clients)
    legal = mover.state["legal"][0]["action"]  # type: ignore[index]
    other.act(legal, seat=mover.state["seat"])  # type: ignore[index]
    err = _error(other)
    assert err["code"] == "not_your_seat" and "cannot act for seat" in err["message"]
    other.act(legal)
    err = _error(other)
    assert err["code"] == "not_your_turn" and "turn" in err["message"]
    _unchanged(server, code, clients, 0)


def test_wrong_and_missing_tokens(table: Any) -> None:
    """A wrong token watches as a spectator (told so); spectators cannot act or start."""
    server, code, clients, _ = table
    bad = server.ws(code, "not-a-real-token")
    welcome = bad.until("welcome")
    assert welcome["seat"] is None and welcome["spectator"] is True
    err = _error(bad)
    assert err["code"] == "bad_token" and "spectator" in err["message"]
    st = bad.until("state")
    assert st["legal"] is None and st["view"]["seat"] is None
    bad.act({"type": "Draw"})
    err = _error(bad)
    assert err["code"] == "spectator" and "seat link" in err["message"]
    bad.send({"type": "start"})
    assert _error(bad)["code"] == "spectator"
    anon = server.ws(code)
    anon.until("state")
    anon.act({"type": "Draw"})
    assert _error(anon)["code"] == "spectator"
    r = server.http.post(f"/api/tables/{code}/start", json={"token": "wrong"})
    assert r.status_code == 403 and "holds no seat" in r.json()["detail"]
    r = server.http.post(f"/api/tables/{code}/leave", json={})
    assert r.status_code == 422
    _unchanged(server, code, [*clients, bad, anon], 0)
    bad.close()
    anon.close()


def test_stale_version(table: Any) -> None:
    """An action chosen on an old state is refused with the current version, and a fresh state
    follows."""
    server, code, clients, _ = table
    mover, _ = _mover(clients)
    action = mover.state["legal"][0]["action"]  # type: ignore[index]
    mover.act(action, version=7)
    err = _error(mover)
    assert err["code"] == "stale_version" and "version 7" in err["message"] and err["version"] == 0
    assert mover.until("state")["version"] == 0
    mover.send({"type": "action", "action": action})
    assert _error(mover)["code"] == "stale_version"
    _unchanged(server, code, clients, 0)


def test_illegal_move_gets_the_rule(table: Any) -> None:
    """An illegal move is answered with explain()'s rule; a malformed action names the field."""
    server, code, clients, _ = table
    mover, _ = _mover(clients)
    hand = mover.state["view"]["hand"]  # type: ignore[index]
    missing = next(c for c in ("2♣", "3♣", "4♣", "5♣", "6♣") if c not in hand)
    mover.act({"type": "Play", "card": missing})
    err = _error(mover)
    assert err["code"] == "illegal_action" and f"you hold no {missing}" in err["message"]
    assert err["request"]["action"] == {"type": "Play", "card": missing}
    mover.act({"type": "Play", "card": "11Z"})
    err = _error(mover)
    assert err["code"] == "bad_action" and "Play.card" in err["message"]
    mover.act({"type": "Teleport"})
    err = _error(mover)
    assert err["code"] == "bad_action" and "unknown action type 'Teleport'" in err["message"]
    mover.act("Draw")  # type: ignore[arg-type]
    assert _error(mover)["code"] == "bad_action"
    _unchanged(server, code, clients, 0)
    # and the table still plays
    mover.act(mover.state["legal"][0]["action"])  # type: ignore[index]
    assert mover.until("state")["version"] == 1


def test_oversized_message(table: Any) -> None:
    """A message over the 64 KiB limit is refused with too_large; the connection stays."""
    server, code, clients, _ = table
    c = clients[0]
    c.send(json.dumps({"type": "ping", "pad": "x" * 70_000}))
    err = _error(c)
    assert err["code"] == "too_large" and "limit is 65536" in err["message"]
    _unchanged(server, code, clients, 0)


def test_unknown_table(server: LiveServer) -> None:
    """A WebSocket to a table that does not exist is told so."""
    c = server.ws("NOSUCH")
    err = c.until("error")
    assert err["code"] == "no_table" and "NOSUCH" in err["message"]
