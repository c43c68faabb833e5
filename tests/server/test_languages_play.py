"""Issue 34: everything the server tells a player reaches a Dutch (German, Spanish) connection in
that language — the moves on the buttons, the table's status words, the refusals (not your turn,
stale version, spectators, the chat's rate limit), the hint's move, the replay — and a whole
match played in Dutch carries no English sentence in any text a player reads."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.server.conftest import Client, LiveServer, live_server

#: words of the English messages that no Dutch message uses
ENGLISH = re.compile(
    r"\b(the|draw|draws|discard|discards|knock|knocks|stock|penny|pennies|county|you|your|"
    r"takes?|declares?|seat|with|and|loses?|scores?|turn|hint|moved|version|spectators?)\b",
    re.IGNORECASE,
)


def _texts(msg: dict[str, Any]) -> list[str]:
    """Every text of ``msg`` a player reads: event lines, the moves' words, the table's status
    words, the hands' notes, refusals, a hint's move and reasons."""
    out = [e["text"] for e in msg.get("events") or []]
    out += [m["text"] for m in msg.get("legal") or []]
    view = msg.get("view") or {}
    out += [s for s in view.get("status") or [] if isinstance(s, str)]
    outcome = msg.get("outcome") or {}
    out += [h["note"] for h in outcome.get("hands") or [] if h.get("note")]
    if msg.get("type") == "error":
        out.append(msg["message"])
    if msg.get("type") == "hint":
        out += [msg["text"], msg["reason"]]
        out += [o["text"] for o in msg["options"]] + [o["reason"] for o in msg["options"]]
    return out


def _playing(c: Client) -> dict[str, Any]:
    while c.state is None or c.state["status"] != "playing":
        c.until("state")
    return c.state


def _my_turn(c: Client) -> dict[str, Any]:
    _playing(c)
    while True:
        s = c.state
        if s is not None and (s["your_turn"] or s["status"] != "playing"):
            return s
        c.until("state")


def test_a_match_in_dutch_has_no_english_text() -> None:
    """A whole Scat match against a bot, read in Dutch: the moves, status words, event lines,
    notes, a hint and the replay (in Dutch and German) hold no English word."""
    with live_server(hint_iterations=8) as server:
        t = server.create(game="scat", players=2, options={"lives": 1})
        code = t["code"]
        c = Client(f"{server.ws_base}/ws/{code}?seat={t['you']['token']}&lang=nl")
        rng = random.Random(5)
        hinted = False
        try:
            state = _my_turn(c)
            assert "van de stapel trekken" in [m["text"] for m in state["legal"]]
            while state["status"] == "playing":
                if not hinted:
                    c.send({"type": "hint"})
                    hint = c.until("hint", timeout=60)
                    assert hint["text"] in [m["text"] for m in state["legal"]]
                    hinted = True
                c.act(rng.choice(state["legal"])["action"])
                while c.state is not None and c.state["version"] <= state["version"]:
                    c.until("state")  # the answer (a quick bot may make it a later version)
                state = _my_turn(c)
            c.drain(0.3)
        finally:
            c.close()
        seen = [x for m in c.messages for x in _texts(m)]
        assert len(seen) > 10 and hinted
        english = [x for x in seen if ENGLISH.search(x)]
        assert english == [], english[:10]
        # the replay in the reader's language: every move and line told anew, English as before
        english = server.http.get(f"/api/tables/{code}/replay").json()["steps"]
        assert all(ENGLISH.search(s["text"]) for s in english[1:])
        for lang in ("nl", "de"):
            replay = server.http.get(f"/api/tables/{code}/replay?lang={lang}").json()
            steps = replay["steps"]
            assert len(steps) == len(english)
            assert all(a["text"] != b["text"] for a, b in zip(steps[1:], english[1:], strict=True))
            lines = [s["text"] for s in steps[1:]]
            lines += [e["text"] for s in steps for e in s["events"]]
            lines += [h["note"] for h in replay["outcome"]["hands"] if h.get("note")]
            assert [x for x in lines if ENGLISH.search(x)] == [], lang
            # the watcher's view of each step too: the lives' words ("1 penny" in English)
            told = [w for s in steps for w in s["view"].get("status") or []]
            assert told and not [w for w in told if "penny" in w or "pennies" in w], lang
        assert any("penn" in w for s in english for w in s["view"].get("status") or [])


def test_refusals_in_the_readers_language(server: LiveServer) -> None:
    """Not your turn, a stale version, a spectator's move and hint: each refusal the table page
    shows is in its reader's words (three seats in Dutch, German and Portuguese, a Spanish
    spectator)."""
    t = server.create(game="cheat", players=3, seats=[{"kind": "human"}] * 3)
    langs = ["nl", "de", "pt-BR"]
    clients = [
        Client(f"{server.ws_base}/ws/{t['code']}?seat={s['token']}&lang={lang}")
        for s, lang in zip(t["seats"], langs, strict=True)
    ]
    watcher = Client(f"{server.ws_base}/ws/{t['code']}?lang=es")
    not_yours = {
        "nl": "plaats {} is aan de beurt",
        "de": "Platz {} ist am Zug",
        "pt-BR": "é a vez do lugar {}",
    }
    stale = {"nl": "het spel is verder", "de": "das Spiel ist weiter", "pt-BR": "a mesa andou"}
    try:
        for c in clients:
            _playing(c)
        turn = next(i for i, c in enumerate(clients) if c.state and c.state["your_turn"])
        other = (turn + 1) % 3
        clients[other].act({"type": "Pass"})
        err = clients[other].until("error")
        assert err["code"] == "not_your_turn"
        assert err["message"].startswith(not_yours[langs[other]].format(turn)), err["message"]
        mover = clients[turn]
        mover.act({"type": "Pass"}, version=mover.state["version"] - 1)  # type: ignore[index]
        err = mover.until("error")
        assert err["code"] == "stale_version"
        assert err["message"].startswith(stale[langs[turn]]), err["message"]
        _playing(watcher)
        watcher.act({"type": "Pass"})
        err = watcher.until("error")
        assert err["code"] == "spectator"
        assert err["message"] == (
            "los espectadores no pueden jugar; abre la mesa con tu enlace de asiento"
        )
        watcher.send({"type": "hint"})
        assert watcher.until("error")["message"] == "los espectadores no pueden pedir pistas"
    finally:
        for c in [*clients, watcher]:
            c.close()


def test_a_stale_version_in_german(server: LiveServer) -> None:
    t = server.create(game="scat", players=2)
    c = Client(f"{server.ws_base}/ws/{t['code']}?seat={t['you']['token']}&lang=de")
    try:
        state = _my_turn(c)
        c.act(state["legal"][0]["action"], version=state["version"] + 5)
        err = c.until("error")
        assert err["code"] == "stale_version"
        assert err["message"].startswith("das Spiel ist weiter: du hast Version ")
    finally:
        c.close()


def test_the_chat_rate_limit_in_dutch(server: LiveServer) -> None:
    t = server.create(game="scat", players=2)
    c = Client(f"{server.ws_base}/ws/{t['code']}?seat={t['you']['token']}&lang=nl")
    try:
        _playing(c)
        for i in range(8):
            c.send({"type": "chat", "text": f"hallo {i}"})
        err = c.until("error", code="too_fast")
        assert err["message"].startswith("hoogstens 5 berichten per 10 s"), err["message"]
    finally:
        c.close()


def test_http_refusals_follow_accept_language() -> None:
    """A rate-limited HTTP call is refused in the caller's language (the pages send the language
    the reader picked as ``Accept-Language``)."""
    from parlour.server.guard import Limit

    with live_server(rate_limits={"lookup": Limit(1, 1)}) as server:
        t = server.create(game="scat", players=2)
        url = f"/api/tables/{t['code']}/replay"
        codes = []
        for _ in range(3):
            r = server.http.get(url, headers={"accept-language": "de"})
            codes.append(r.status_code)
        assert 429 in codes
        assert r.json()["detail"].startswith("zu viele Anfragen dieser Art von deiner Adresse")


def test_chicago_score_items_in_the_readers_language(server: LiveServer) -> None:
    """The Chicago pad's score items come told in the caller's language (the pad sends the
    reader's language as ``Accept-Language``); without one, English as before."""
    body = {"entries": ["3S N +1", "3NT E =", "3DX W =", "6S S = honors4"]}

    def items(lang: str | None) -> list[str]:
        headers = {"accept-language": lang} if lang else {}
        r = server.http.post("/api/chicago/sheet", json=body, headers=headers)
        assert r.status_code == 200, r.text
        return [
            i["what"]
            for rnd in r.json()["rounds"]
            for deal in rnd["deals"]
            for side in ("NS", "EW")
            for i in deal[side]["items"]
        ]

    english, dutch, german = items(None), items("nl"), items("de")
    assert "1 overtrick" in english and "trick score" in english
    assert "1 overslag" in dutch and "slagpunten" in dutch and "klein slem" in dutch
    assert "1 Überstich" in german and "Kleinschlemm" in german
    assert len(english) == len(dutch) and not set(english) & set(dutch)


def test_chicago_pad_mistakes_in_the_readers_language(server: LiveServer) -> None:
    """A pad line the sheet cannot take is answered 422 with what is wrong in the caller's
    language (the typed syntax — 3NT, honors4, :def — stays as typed); English without one."""

    def detail(entries: list[str], lang: str | None) -> str:
        headers = {"accept-language": lang} if lang else {}
        r = server.http.post("/api/chicago/sheet", json={"entries": entries}, headers=headers)
        assert r.status_code == 422, r.text
        return str(r.json()["detail"])

    bad = ["3NT S =", "8NT S ="]
    assert detail(bad, None) == (
        "entry 2 ('8NT S ='): level 8 in '8NT': a contract is 1 to 7 odd tricks (7 = all 13 tricks)"
    )
    dutch, german = detail(bad, "nl"), detail(bad, "de")
    assert "'8NT S ='" in dutch and "'8NT S ='" in german
    assert "contract" in dutch and "slagen" in dutch, dutch
    assert "Stich" in german, german
    for lang in ("nl", "de", "es", "pt-BR"):
        for entries in (["3Q S ="], ["3NT S +5"], ["3NT"], ["3NT S = honors4"], ["4S Z ="]):
            told = detail(entries, lang)
            assert told != detail(entries, None), (lang, entries, told)
            assert not re.search(r"\b(write|entry|the|contract is|tricks|declarer)\b", told), told


def test_a_hints_move_names_the_seat_as_the_table_does() -> None:
    """A hint's or review's move that names a seat (Cheat's "seat 2 plays first") is told with
    the player's name at the table, like the move buttons, not as "stoel 2"."""
    from parlour.core.said import N_, SeatNo
    from parlour.core.text import Names
    from parlour.i18n import messages
    from parlour.server.table_advice import WORDS, _told, _told_option

    said = N_("seat {seat} plays first", seat=SeatNo(2))
    option: dict[str, Any] = {"action": {"seat": 2}, "text": str(said), WORDS: said}
    option["reason"] = "the best by the search"
    t = messages("nl")
    names = Names.table(4, ((0, 2), (1, 3)), ["Tess", None, "Bram", None], "nl")
    told = _told_option(option, t, names)
    assert "Bram" in told["text"] and "2" not in told["text"], told
    assert WORDS not in told
    review = _told([{"remarks": [{"played": option, "better": option}]}], t, names)
    assert "Bram" in review[0]["remarks"][0]["played"]["text"]
    english = _told_option(option, messages("en"), names)
    assert english["text"] == "seat 2 plays first"  # English: the engine's text, as before


def test_a_missing_table_and_a_rematch_too_soon_in_the_readers_language(
    server: LiveServer,
) -> None:
    """The lobby's own refusals (no such table, a rematch before the match ends) come in the
    caller's language; English without one, as before."""
    r = server.http.get("/api/tables/NOSUCH7", headers={"accept-language": "nl"})
    assert r.status_code == 404 and r.json()["detail"] == "er is geen tafel 'NOSUCH7'"
    r = server.http.get("/api/tables/NOSUCH7")
    assert r.json()["detail"] == "no table 'NOSUCH7'"
    t = server.create(game="scat", players=2)
    body = {"token": t["you"]["token"]}
    r = server.http.post(
        f"/api/tables/{t['code']}/rematch", json=body, headers={"accept-language": "es"}
    )
    assert r.status_code == 409, r.text
    assert (
        r.json()["detail"] == "la partida aún no ha terminado: la revancha empieza cuando termine"
    )


def test_player_refusals_in_the_readers_language(server: LiveServer) -> None:
    """What a returning player may meet — a name the server refuses, a key it does not know, a
    move link that is spent or made up — comes in the caller's language (English without)."""

    def detail(path: str, body: dict[str, Any], lang: str | None) -> tuple[int, str]:
        headers = {"accept-language": lang} if lang else {}
        r = server.http.post(path, json=body, headers=headers)
        return r.status_code, str(r.json().get("detail"))

    assert detail("/api/players", {"name": "\x01"}, "de") == (
        422,
        "ein Name hat 1 bis 24 druckbare Zeichen (Buchstaben, Ziffern, Leerzeichen…)",
    )
    assert detail("/api/players", {"name": "\x01"}, None)[1].startswith("a name is 1 to 24")
    unknown = {"key": "k" * 43}
    assert detail("/api/players/me", unknown, "nl") == (
        403,
        "die spelerssleutel is hier niet bekend",
    )
    made_up = {"link": "m" * 43}
    status, said = detail("/api/players/move/claim", made_up, "es")
    assert status == 403 and said.startswith("este enlace para pasar el asiento"), said
    r = server.http.post("/api/players", json={"name": "Tess"})
    key = r.json()["key"]
    link = server.http.post("/api/players/move", json={"key": key}).json()["url"].split("/")[-1]
    assert detail("/api/players/move/claim", {"link": link}, None)[0] == 200
    status, said = detail("/api/players/move/claim", {"link": link}, "pt-BR")
    assert status == 410 and said.startswith("este link para passar o lugar já foi usado"), said
