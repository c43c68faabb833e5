"""Issue 34: what the session layer says to a client is told in the connection's language — the
protocol's errors (bad JSON, a message too large, an unknown type, another seat's move, a binary
frame that is not UTF-8), a table that cannot be opened (broken, unknown), the reason a socket is
closed, a body the guard refuses (``Accept-Language``) and a socket refused before it opens —
while the machine-readable ``code`` stays as it was."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from parlour.core.said import N_
from parlour.server.errors import said_from_json, said_to_json
from parlour.server.session import close_reason
from tests.server.conftest import Client, LiveServer, live_server


def _playing(server: LiveServer, lang: str) -> tuple[str, list[Client]]:
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    clients = [
        Client(f"{server.ws_base}/ws/{t['code']}?seat={s['token']}&lang={lang}") for s in t["seats"]
    ]
    for c in clients:
        while c.state is None or c.state["status"] != "playing":
            c.until("state")
    return t["code"], clients


def _error(c: Client, send: Any) -> dict[str, Any]:
    if isinstance(send, bytes):
        c.conn.send(send)
    else:
        c.send(send)
    return c.until("error")


def test_bad_json_in_dutch_and_an_unknown_type_in_german(server: LiveServer) -> None:
    _, nl = _playing(server, "nl")
    err = _error(nl[0], "{not json")
    assert err["code"] == "bad_json"
    assert err["message"].startswith("het bericht is geen geldige JSON: "), err
    assert "not valid JSON" not in err["message"]
    err = _error(nl[0], "[1, 2]")
    assert err["code"] == "bad_json"
    assert err["message"] == "een bericht moet een JSON-object met een 'type' zijn"
    err = _error(nl[0], b'{"type": "ping", "t": "\xff"}')
    assert err["code"] == "bad_json" and "binair frame" in err["message"]
    assert "binary frame" not in err["message"]
    err = _error(nl[0], '{"type": "ping", "t": NaN}')
    assert err["code"] == "bad_json" and err["message"].startswith("NaN is geen JSON-getal"), err
    for c in nl:
        c.close()

    _, de = _playing(server, "de")
    err = _error(de[0], {"type": "cheat", "give_me": "aces"})
    assert err["code"] == "unknown_type"
    assert err["message"].startswith("unbekannter Nachrichtentyp 'cheat'; erwartet wird einer von")
    assert "unknown message type" not in err["message"]
    err = _error(de[0], "[" * 40 + "]" * 40)
    assert err["code"] == "bad_json"
    assert err["message"] == "die Nachricht ist tiefer als 32 Ebenen verschachtelt"
    for c in de:
        c.close()


def test_too_large_and_another_seats_move_in_spanish_and_portuguese(server: LiveServer) -> None:
    limit = server.app.state.server.config.max_message
    _, es = _playing(server, "es")
    err = _error(es[0], {"type": "ping", "t": "x" * (limit + 10)})
    assert err["code"] == "too_large"
    assert err["message"].startswith("mensaje de ") and "el límite es" in err["message"], err
    assert "the limit is" not in err["message"]
    for c in es:
        c.close()

    _, pt = _playing(server, "pt-BR")
    mover, other = pt if pt[0].state["your_turn"] else pt[::-1]  # type: ignore[index]
    other.act(mover.state["legal"][0]["action"], seat=mover.state["seat"])  # type: ignore[index]
    err = other.until("error")
    assert err["code"] == "not_your_seat"
    assert "não pode jogar pela posição" in err["message"], err
    assert "cannot act for seat" not in err["message"]
    for c in pt:
        c.close()


def test_a_broken_table_and_an_unknown_one_are_refused_in_the_readers_language(
    tmp_path: Path,
) -> None:
    """A table the server cannot play (journaled by another engine version) is ``gone`` with
    its reason in the reader's language, over the WebSocket (``?lang``) and HTTP
    (``Accept-Language``); the English reason is unchanged."""
    db = tmp_path / "j.db"
    with live_server(f"sqlite:///{db}") as server:
        old = server.create(game="toy", players=2)["code"]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE parlour_tables SET engine_version = 99 WHERE code = ?", (old,))
    with live_server(f"sqlite:///{db}") as server:
        c = Client(f"{server.ws_base}/ws/{old}?lang=nl")
        err = c.until("error")
        assert err["code"] == "gone"
        assert err["message"].startswith(f"tafel {old} is gespeeld met toy versie v99"), err
        assert "engine" not in err["message"]
        r = server.http.get(f"/api/tables/{old}", headers={"accept-language": "de"})
        assert r.status_code == 410
        assert r.json()["detail"].startswith(f"Tisch {old} wurde mit toy Version v99 gespielt")
        r = server.http.get(f"/api/tables/{old}")
        assert "was played with toy engine v99" in r.json()["detail"]
        c = Client(f"{server.ws_base}/ws/ZZZZZZ?lang=es")
        err = c.until("error")
        assert err["code"] == "no_table" and err["message"].startswith("no hay ninguna mesa"), err


def test_the_guard_refuses_a_body_in_the_callers_language(server: LiveServer) -> None:
    r = server.http.post(
        "/api/tables",
        content=b'{"game": "toy", "game": "cheat"}',
        headers={"content-type": "application/json", "accept-language": "pt-BR,pt;q=0.9"},
    )
    assert r.status_code == 400
    assert r.json()["detail"] == "a chave 'game' aparece duas vezes num objeto"
    r = server.http.post(
        "/api/tables",
        content=b'{"game": "toy", "x": NaN}',
        headers={"content-type": "application/json", "accept-language": "nl"},
    )
    assert r.status_code == 400 and r.json()["detail"] == "NaN is geen JSON-getal"
    r = server.http.post(
        "/api/tables",
        content=b'{"game": "toy", "game": "cheat"}',
        headers={"content-type": "application/json"},
    )
    assert r.json()["detail"] == "the key 'game' appears twice in one object"


def test_a_socket_from_another_site_is_refused_in_its_language(server: LiveServer) -> None:
    t = server.create(game="toy", players=2)
    with pytest.raises(InvalidStatus) as caught:
        _connect_from(f"{server.ws_base}/ws/{t['code']}?lang=de")
    body = json.loads(caught.value.response.body)
    assert body["detail"] == "Seiten einer anderen Website dürfen diesen Tisch nicht öffnen"


def _connect_from(url: str) -> None:
    from websockets.sync.client import connect

    connect(url, origin="http://evil.example", open_timeout=20)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("lang", "start"),
    [
        ("de", "zu langsam: eine Nachricht wartete über 2.5 s"),
        ("pt-BR", "lenta demais: uma mensagem esperou mais de 2.5 s"),
        ("en", "too slow: a message waited over 2.5 s to be read"),
    ],
)
def test_a_close_reason_is_told_and_fits_a_close_frame(lang: str, start: str) -> None:
    reason = N_("too slow: a message waited over {seconds} s to be read", seconds="2.5")
    told = close_reason(reason, lang)
    assert told.startswith(start) and len(told.encode("utf-8")) <= 123
    long = close_reason(N_("the table moves to another server; reconnecting") * 1, lang)
    assert len(long.encode("utf-8")) <= 123
    assert close_reason("ä" * 200, lang) == "ä" * 60  # cut on a character, not inside one


def test_a_refusal_crosses_the_bus_as_a_message_to_tell() -> None:
    """A lobby call answered by another process (``Cluster._answer``) keeps its catalog message,
    so the process that answers the caller tells it in the caller's language."""
    from parlour.core.text import tell
    from parlour.i18n import messages

    said = N_("table {code} could not be restored: {error}", code="ABC123", error="disk full")
    back = said_from_json(json.loads(json.dumps(said_to_json(said))))
    assert back == said
    assert tell(back, messages("nl")) == "tafel ABC123 kon niet worden hersteld: disk full"
    assert said_from_json("plain text") == "plain text"
    assert said_to_json("plain") == "plain"


def test_a_missing_rules_page_in_dutch_and_german(server: LiveServer) -> None:
    page = server.http.get("/rules/nonesuch?lang=nl")
    assert page.status_code == 404
    assert "Deze spelregels bestaan niet" in page.text and '<html lang="nl"' not in page.text
    assert "<html lang=nl>" in page.text and "No such rules page" not in page.text
    page = server.http.get("/rules/nonesuch", headers={"accept-language": "de"})
    assert "Diese Spielregeln gibt es nicht" in page.text and "How to play" not in page.text


def test_an_action_with_a_wrong_field_is_told_in_dutch_and_spanish(server: LiveServer) -> None:
    """``parlour.core.codec``'s reasons for an action it cannot read are catalog messages."""
    _, nl = _playing(server, "nl")
    err = _error(nl[0], {"type": "action", "version": 0, "action": {"type": "Teleport"}})
    assert err["code"] == "bad_action"
    assert err["message"].startswith("de zet is niet te lezen: onbekend soort zet 'Teleport'"), err
    assert "unknown action type" not in err["message"]
    for c in nl:
        c.close()
    _, es = _playing(server, "es")
    err = _error(es[0], {"type": "action", "version": 0, "action": {"type": "Teleport"}})
    assert "tipo de jugada desconocido 'Teleport'" in err["message"], err
    for c in es:
        c.close()


def test_refused_options_are_told_in_the_callers_language(server: LiveServer) -> None:
    """``parlour.core.rules``' reasons (an unknown option, a value not allowed) are catalog
    messages: a table asked for with them is refused in ``Accept-Language``."""
    r = server.http.post(
        "/api/tables",
        json={"game": "samba", "options": {"colour": 1}},
        headers={"accept-language": "nl"},
    )
    assert r.status_code == 422
    assert "onbekende optie 'colour'; de opties zijn: " in r.json()["detail"], r.text
    r = server.http.post(
        "/api/tables",
        json={"game": "samba", "options": {"target_score": "lots"}},
        headers={"accept-language": "pt-BR"},
    )
    assert r.status_code == 422 and "deve ser um número inteiro de" in r.json()["detail"], r.text
    r = server.http.post("/api/tables", json={"game": "samba", "options": {"colour": 1}})
    assert "unknown option 'colour'; options are: " in r.json()["detail"]
