"""Issue 34, the words the server sends: the move buttons of a Scat table and its players'
standings read in Dutch (the server tells each connection its moves, ``Game.action_words``), and
a finished match's replay reads in German (``/api/tables/CODE/replay?lang=de``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.driver import open_invite, seat_path
from tests.web.test_rules_replay_lobby import finished_table

pytestmark = pytest.mark.browser

#: English words of the moves and standings no Dutch or German line uses
ENGLISH = re.compile(
    r"\b(draw|discard|knock|stock|pennies|penny|county|the|take|declare|seat)\b", re.IGNORECASE
)


def test_scat_moves_and_standings_in_dutch(browser: Any, server: Any) -> None:
    t = server.post("/api/tables", {"game": "scat", "players": 2})
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="nl")
    page = context.new_page()
    try:
        page.goto(server.base + seat_path(t) + "&lang=nl")
        page.wait_for_function(
            "() => window.parlour && window.parlour.legal && window.parlour.legal.length",
            timeout=20000,
        )
        page.wait_for_selector("#actions button.action")
        buttons = page.locator("#actions button.action").all_inner_texts()
        assert buttons and not [b for b in buttons if ENGLISH.search(b)], buttons
        # the moves the server words ("knock", "hammer" …) are Dutch on their buttons
        assert any(
            b.startswith(("Kloppen", "Hamer", "Neergooien", "Doorspelen")) for b in buttons
        ), buttons
        players = page.locator("#players").inner_text()
        assert "3 cent" in players and "pennies" not in players, players
    finally:
        context.close()


def test_a_replay_in_german(browser: Any, server: Any) -> None:
    t = finished_table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de")
    page = context.new_page()
    try:
        page.goto(f"{server.base}/replay/{t['code']}?lang=de")
        page.wait_for_selector("#verify-result")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "() => !document.querySelector('#step-of').innerText.startsWith('Zug 0')"
        )
        moves = []
        for _ in range(6):
            moves.append(page.locator("#move").inner_text())
            moves += page.locator("#events li").all_inner_texts()
            page.keyboard.press("ArrowRight")
        assert moves and not [m for m in moves if ENGLISH.search(m)], moves
        assert any(re.search(r"\b(zieht|nimmt|klopft|legt)\b", m) for m in moves), moves
    finally:
        context.close()


def test_a_used_invite_is_said_in_dutch(browser: Any, server: Any) -> None:
    """An invite opened a second time: the server refuses it in the reader's language and the
    page still knows it for a used invite (its own notice, in Dutch), not a bare refusal."""
    body = {"game": "scat", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    t = server.post("/api/tables", body)
    row = next(r for r in t["seats"] if r.get("invite"))
    status, _ = server.call("POST", f"/api/tables/{t['code']}/claim", {"invite": row["invite"]})
    assert status == 200
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="nl")
    page = context.new_page()
    try:
        open_invite(page, f"{server.base}/t/{t['code']}?invite={row['invite']}&lang=nl", "Wim")
        notice = page.locator("#notice")
        notice.wait_for()
        assert "Deze uitnodigingslink is al gebruikt." in notice.inner_text(), notice.inner_text()
    finally:
        context.close()
