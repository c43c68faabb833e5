"""Players who come back (issue 33, "Done when"): in Chromium, A creates a rated Samba table with
one invite and two bots, B opens the invite on a phone and types a name, both chat (one quick
phrase from the phone), A reloads and finds the table under "your tables", the match is played
to the end (fast bots), the rematch keeps both names, both player pages show the match, the
result and changed ratings, and the replay shows the chat.

With ``PARLOUR_DOC_SHOTS=1`` the screenshots of docs/web.md (lobby, table with chat, player page;
1280×900 and 390×844) are written to ``docs/img/``; otherwise to ``tests/artifacts/``."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.driver import play_until, table_state, wait_seat

pytestmark = pytest.mark.browser

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _shot(page: Any, name: str, artifacts: Path) -> None:
    docs = os.environ.get("PARLOUR_DOC_SHOTS") == "1"
    path = (DOCS_IMG if docs else artifacts) / f"{name}.png"
    page.screenshot(path=str(path))
    if docs:  # a 256-colour PNG, as scripts/screenshots.py writes them
        from PIL import Image

        with Image.open(path) as img:
            small = img.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        small.save(path, optimize=True)


def _player(page: Any) -> dict[str, Any]:
    return page.evaluate("JSON.parse(localStorage.getItem('parlour.player'))")  # type: ignore[no-any-return]


def _chat(page: Any, text: str, timeout: float = 10_000) -> None:
    page.locator("#chat-log", has_text=text).wait_for(timeout=timeout)


def test_players_story(browser: Any, server: Any, artifacts: Path) -> None:
    errors: list[str] = []
    a_ctx = browser.new_context(viewport=DESKTOP)
    b_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    for p in (a, b):
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        # --- A: a name, then a rated Samba table with one invite and two bots --------------
        a.goto(server.base + "/")
        a.fill("#player-name", "Anna")
        a.click("#name-save")
        a.locator("#name-value", has_text="Anna").wait_for()
        assert _player(a)["name"] == "Anna"
        a.select_option("#game", "samba")
        a.select_option("#preset", "samba")
        a.locator("#options-box summary").click()
        a.fill("#opt-max_hands", "1")
        a.locator("#opt-max_hands").dispatch_event("change")
        a.select_option('select[data-seat="1"]', "bot:random")
        a.select_option('select[data-seat="2"]', "human")
        a.select_option('select[data-seat="3"]', "bot:random")
        assert a.locator("#rated-on").is_checked()
        a.click("#create")
        invite = a.locator('input[aria-label="invite link seat 2"]').input_value()
        code = a.locator("#created-code").inner_text()
        assert server.get(f"/api/tables/{code}")["rated"] is True

        # --- B on a phone: the invite asks for a name first --------------------------------
        b.goto(invite)
        b.locator("#name-dialog").wait_for()
        b.fill("#ask-name", "Bea")
        b.click("#ask-name-ok")
        assert wait_seat(b, timeout=20) == 2
        assert "invite=" not in b.url
        a.click("#go-to-table")
        assert wait_seat(a, timeout=20) == 0
        a.wait_for_function("window.parlour.status === 'playing'", timeout=20_000)
        seats = server.get(f"/api/tables/{code}")["seats"]
        assert seats[0]["name"] == "Anna" and seats[2]["name"] == "Bea"

        # --- both chat; B with a quick phrase -------------------------------------------------
        a.click('.tabs button[data-tab="chat"]')
        a.fill("#chat-input", "Hello Bea <b>bold?</b>")
        a.click("#chat-send")
        b.click('.tabs button[data-tab="chat"]')
        _chat(b, "Hello Bea")
        b.locator('#quick-phrases button[data-phrase="Good luck"]').tap()
        _chat(a, "Good luck")
        # shown as text: the markup is characters, no element was made of it
        assert "<b>bold?</b>" in a.locator("#chat-log").inner_text()
        assert a.locator("#chat-log .text b").count() == 0
        _shot(a, "players-table-chat-laptop", artifacts)
        _shot(b, "players-table-chat-phone", artifacts)

        # --- A reloads and finds the table under "your tables" -------------------------------
        a.goto(server.base + "/")
        row = a.locator(f'#my-tables [data-code="{code}"]')
        row.wait_for(timeout=10_000)
        _shot(a, "players-lobby-laptop", artifacts)
        row.locator("a").click()
        assert wait_seat(a, timeout=20) == 0

        # --- the match to the end (the bots are quick) ---------------------------------------
        play_until(a, lambda s: s["finished"], timeout=300, pages=[b])
        b.wait_for_function("window.parlour.outcome && window.parlour.outcome.finished")
        assert table_state(b)["finished"]  # type: ignore[index]

        # --- the rematch keeps both names -----------------------------------------------------
        a.locator("#match-end #rematch").click()
        a.wait_for_url(re.compile(r"/t/(?!" + code + r")[A-Z0-9]+$"), timeout=20_000)
        a.wait_for_function(
            f"window.parlour && window.parlour.code && window.parlour.code !== '{code}'"
        )
        new = a.evaluate("window.parlour.code")
        b.locator("#match-end #rematch", has_text="Join the rematch").click(timeout=20_000)
        b.wait_for_url(re.compile(r"/t/" + new + "$"), timeout=20_000)
        wait_seat(b, timeout=20)
        a.wait_for_function(
            "(window.parlour.table.seats || []).filter((s) => s.name).length === 2",
            timeout=20_000,
        )
        names = [s.get("name") for s in server.get(f"/api/tables/{new}")["seats"]]
        assert names[0] == "Anna" and names[2] == "Bea"

        # --- both player pages: the match, its result and changed ratings --------------------
        for page, who, size in ((a, "Anna", "laptop"), (b, "Bea", "phone")):
            me = _player(page)
            page.goto(f"{server.base}/p/{me['id']}")
            page.locator("#player-name", has_text=who).wait_for()
            match = page.locator(f'table.matches tr[data-code="{code}"]')
            match.wait_for(timeout=20_000)
            assert re.search(r"\b(won|lost)\b", match.inner_text())
            card = page.locator('.rating-card[data-game="samba"]')
            card.wait_for()
            mu = float(card.locator(".big").inner_text())
            assert mu != 25.0  # moved from a new player's rating
            assert card.locator("svg.rating-chart polyline").count() == 1
            html = page.content()
            assert me["key"] not in html
            _shot(page, f"players-page-{size}", artifacts)
        data = server.get(f"/api/players/{_player(a)['id']}")
        assert data["ratings"]["samba"]["matches"] == 1 and data["matches"][0]["rated"]

        # --- the replay shows the chat --------------------------------------------------------
        a.goto(f"{server.base}/replay/{code}")
        log = a.locator("#replay-chat-log")
        log.wait_for(timeout=20_000)
        assert "Hello Bea" in log.inner_text() and "Good luck" in log.inner_text()
        b.goto(server.base + "/")
        b.locator("#mine-panel").wait_for()
        b.locator(f'#my-matches tr[data-code="{code}"]').wait_for(timeout=10_000)
        _shot(b, "players-lobby-phone", artifacts)
    finally:
        a_ctx.close()
        b_ctx.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"
