"""Issue 34: each connection is told the table in its own language (``/ws/CODE?lang=nl``): two
readers of one table, one Dutch and one German, get the same events in two languages; an
unknown language is English; a value that is no language is refused before the socket opens;
``/i18n/<lang>.json`` is the catalog, and ``/rules/<game>`` follows ``Accept-Language``."""

from __future__ import annotations

import pytest
from websockets.exceptions import InvalidStatus

from tests.server.conftest import Client, LiveServer, live_server


def _lines(client: Client, word: str) -> list[str]:
    """The lines told on ``client`` until one holds ``word`` (20 s at most)."""
    texts: list[str] = []
    while not any(word in x for x in texts):
        msg = client.until("state", timeout=20)
        texts += [e["text"] for e in msg.get("events", [])]
    return texts


def test_two_readers_two_languages(server: LiveServer) -> None:
    t = server.create(
        game="cheat", players=3, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    )
    nl = Client(f"{server.ws_base}/ws/{t['code']}?seat={t['you']['token']}&lang=nl")
    de = Client(f"{server.ws_base}/ws/{t['code']}?lang=de")
    en = Client(f"{server.ws_base}/ws/{t['code']}?lang=fr")
    try:
        said_nl = _lines(nl, "verzegeld")
        said_de = _lines(de, "versiegelt")
        said_en = _lines(en, "sealed")  # French: not here, so English
        assert not any("sealed" in x for x in said_nl + said_de)
        assert not any("verzegeld" in x or "versiegelt" in x for x in said_en)
    finally:
        for c in (nl, de, en):
            c.close()


def test_a_hostile_language_is_refused(server: LiveServer) -> None:
    t = server.create(
        game="cheat", players=3, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    )
    with pytest.raises(InvalidStatus) as caught:
        Client(f"{server.ws_base}/ws/{t['code']}?lang=%3Cscript%3Ealert(1)%3C/script%3E")
    assert caught.value.response.status_code == 400
    assert b"not a language" in caught.value.response.body


def test_the_catalogs_and_the_rules_page_follow_the_reader(server: LiveServer) -> None:
    r = server.http.get("/i18n/de.json")
    assert (
        r.status_code == 200 and r.json()["messages"]["Draw from the stock"] == "Vom Talon ziehen"
    )
    assert server.http.get("/i18n/%3Cb%3E.json").status_code == 400
    page = server.http.get("/rules/scat", headers={"accept-language": "es-MX,es;q=0.9,en;q=0.5"})
    assert page.status_code == 200 and '<html lang="es"' in page.text
    assert "accept-language" in page.headers.get("vary", "").lower()
    assert '<html lang="en"' in server.http.get("/rules/scat").text
    page = server.http.get("/rules/scat?lang=es")
    assert '<html lang="es"' in page.text
    games = server.http.get("/api/games?lang=nl").json()["games"]
    samba = next(g for g in games if g["name"] == "samba")
    english = next(g for g in server.http.get("/api/games").json()["games"] if g["name"] == "samba")
    assert [o["label"] for o in samba["options"]] != [o["label"] for o in english["options"]]


def test_the_games_are_named_and_described_in_the_readers_language(server: LiveServer) -> None:
    """The lobby's game list (GET /api/games?lang=…): each game's name as the players of that
    language call it (the table's and the terminal's names) and its one-line description from
    the catalog; English keeps the long names ("Cheat / I Doubt It / Bullshit")."""

    def listed(lang: str) -> dict[str, dict[str, str]]:
        games = server.http.get(f"/api/games?lang={lang}").json()["games"]
        return {g["name"]: g for g in games}

    english, german, dutch = listed("en"), listed("de"), listed("nl")
    assert english["cheat"]["title"] == "Cheat / I Doubt It / Bullshit"
    assert german["cheat"]["title"] == "Mogeln"
    assert german["scat"]["title"] == "Schwimmen (31)"
    assert dutch["handfoot"]["title"] == "Hand en voet"
    assert german["samba"]["description"].startswith("Samba, das Canasta mit drei Kartenspielen")
    assert english["samba"]["description"].startswith("Samba, the three-deck Canasta")
    for lang in ("de", "nl", "es", "pt-BR"):
        there = listed(lang)
        for name in ("samba", "handfoot", "cheat", "scat"):  # (a test game has no words)
            assert there[name]["description"] != english[name]["description"], (lang, name)
            assert there[name]["title"] != english[name]["title"] or name == "samba", (lang, name)


def test_a_refusal_is_told_in_the_connections_language(server: LiveServer) -> None:
    """The engine's reason for refusing a move reaches a Dutch connection in Dutch (issue 34:
    ``parlour.core.said``; the English words are the engine's, checked by the games' tests)."""
    t = server.create(game="cheat", players=3, seats=[{"kind": "human"}] * 3)
    clients = [
        Client(f"{server.ws_base}/ws/{t['code']}?seat={s['token']}&lang=nl") for s in t["seats"]
    ]
    try:
        for c in clients:
            while c.state is None or c.state["status"] != "playing":
                c.until("state")
        mover = next(c for c in clients if c.state is not None and c.state["your_turn"])
        mover.act({"type": "Challenge"})
        err = mover.until("error")
        assert err["code"] == "illegal_action"
        assert err["message"] == "twijfelen kan alleen direct na een beurt, vóór de volgende"
    finally:
        for c in clients:
            c.close()


def _advice_reasons(lang: str) -> list[str]:
    """The hint reasons of ``parlour.bots.advice`` in ``lang``, as templates cut at their first
    placeholder (``pakt de pot (``)."""
    from babel.messages.pofile import read_po

    from parlour.i18n import po_path

    with po_path(lang).open("rb") as f:
        catalog = read_po(f)
    return [
        str(m.string).split("{")[0]
        for m in catalog
        if m.id and any(loc == "parlour/bots/advice.py" for loc, _ in m.locations)
    ]


def test_a_hint_is_told_in_the_connections_language() -> None:
    """The hint's reason reaches a Dutch connection in Dutch (``parlour.core.said``)."""
    with live_server(hint_iterations=12) as server:
        t = server.create(game="scat")
        c = Client(f"{server.ws_base}/ws/{t['code']}?seat={t['you']['token']}&lang=nl")
        try:
            while c.state is None or not c.state["your_turn"]:
                c.until("state")
            c.send({"type": "hint"})
            hint = c.until("hint")
        finally:
            c.close()
    dutch = _advice_reasons("nl")
    assert any(hint["reason"].startswith(d) for d in dutch if d), hint["reason"]
    assert all(any(o["reason"].startswith(d) for d in dutch if d) for o in hint["options"])
