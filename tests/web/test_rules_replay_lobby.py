"""Issue 17 (second pass), the pages around the table: "How to play" pages, the replay viewer,
the lobby (a player name, bot levels in words, the open tables list) and the Chicago pad on a
phone."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.driver import no_horizontal_scroll, play_scat_to_the_end, seat_path, wait_state

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def finished_table(server: Any, game: str = "scat", timeout: float = 90) -> dict[str, Any]:
    """A table of bots that played its match to the end (two hands of Scat by default)."""
    body: dict[str, Any] = {
        "game": game,
        "players": 3 if game == "scat" else 4,
        "options": {} if game == "cheat" else {"max_hands": 2 if game == "scat" else 1},
        "seats": [{"kind": "bot", "bot": "basic"}] * (3 if game == "scat" else 4),
    }
    t = server.post("/api/tables", body)
    deadline = time.monotonic() + timeout
    while server.get(f"/api/tables/{t['code']}")["status"] != "finished":
        assert time.monotonic() < deadline, f"the {game} bots did not finish"
        time.sleep(0.2)
    return t  # type: ignore[no-any-return]


# --- How to play -------------------------------------------------------------------------------


def test_rules_pages_are_served_and_linked(page: Any, server: Any) -> None:
    """Every game has a "How to play" page from docs/rules/GAME.md, with its sections' anchors;
    the lobby links the chosen game's page and the table page links its game's."""
    for game, heading, anchor in (
        ("samba", "Samba — how to play", "taking-the-discard-pile"),
        ("handfoot", "Samba Hand and Foot — how to play", "picking-up-your-foot"),
        ("cheat", "Cheat — how to play", "calling-cheat"),
        ("scat", "Scat / 31 — how to play", "knocking"),
        ("chicago", "Chicago bridge scoring — how to keep the score", "going-down"),
    ):
        page.goto(f"{server.base}/rules/{game}#{anchor}")
        assert page.locator("h1").inner_text() == heading
        assert page.locator(f"#{anchor}").is_visible()
        assert page.locator("#options").count() == 1
        assert "seed" not in page.locator("main").inner_text().lower()
    page.goto(server.base + "/rules/31")  # an alias finds its game
    assert page.locator("h1").inner_text() == "Scat / 31 — how to play"
    status, _ = server.call("GET", "/rules/poker")
    assert status == 404

    page.goto(server.base + "/")
    page.wait_for_selector("#seats select")
    link = page.locator("#rules-for-game")
    assert link.get_attribute("href") == "/rules/samba"
    page.select_option("#game", "cheat")
    assert link.get_attribute("href") == "/rules/cheat"
    assert link.inner_text() == "How to play Cheat / I Doubt It / Bullshit"
    link.click()
    page.wait_for_selector("#rank-order")

    t = server.post("/api/tables", {"game": "handfoot", "options": {"max_hands": 1}})
    page.goto(server.base + seat_path(t))
    wait_state(page)
    assert page.locator("#rules-link").get_attribute("target") == "_blank"
    href = page.locator("#rules-link").get_attribute("href")
    assert href == f"/t/{t['code']}/rules"
    page.goto(server.base + href)
    page.wait_for_url(server.base + "/rules/handfoot")
    assert page.locator("#the-meld-requirement").count() == 1


def test_lobby_options_in_words(page: Any, server: Any) -> None:
    """Options are shown by their meaning (the rules page's words), not snake_case names and
    "allowed: bool"; choices read as words."""
    page.goto(server.base + "/?game=scat")
    page.wait_for_selector("#seats select")
    page.locator("#options-box summary").click()
    row = page.locator('.opt[data-option="knock_tie"]')
    assert row.locator(".name").inner_text() == "Knock tie"
    assert "knocker safe" in row.locator("select").inner_text()
    assert "knocker_safe" not in row.locator("select").inner_text()
    text = page.locator("#options").inner_text()
    assert "allowed: bool" not in text and "seed" not in text.lower()


# --- replay viewer -----------------------------------------------------------------------------


def test_replay_viewer_steps_through_a_finished_match(page: Any, server: Any) -> None:
    """/replay/CODE: every seat's hand shown, step with buttons and arrow keys, jump to a hand,
    the deals checked by the browser — no raw JSON."""
    t = finished_table(server)
    code = t["code"]
    data = server.get(f"/api/tables/{code}/replay")
    steps = len(data["steps"]) - 1
    page.goto(f"{server.base}/replay/{code}")
    page.wait_for_selector("#verify-result")
    assert page.locator("#verify-result").inner_text().startswith("✓")
    assert page.locator('#verify li[data-ok="false"]').count() == 0
    assert page.locator("#verify li").count() >= 4
    # Step 0: the deal; every seat's three cards face up.
    assert page.locator("#step-of").inner_text().startswith(f"Move 0 of {steps}")
    assert page.locator(".replay-seat").count() == 3
    for seat in range(3):
        assert page.locator(f'.replay-seat[data-seat="{seat}"] .card[data-card]').count() == 3
    first = data["steps"][0]["hands"]
    shown = page.locator('.replay-seat[data-seat="1"] .card').evaluate_all(
        "(cs) => cs.map((c) => c.dataset.card)"
    )
    assert shown == first["1"]
    # Scat: each hand's value (best suit, ace 11, court cards 10) beside it.
    values = {"A": 11, "K": 10, "Q": 10, "J": 10}
    suits: dict[str, int] = {}
    for card in first["1"]:
        rank = card[:-1]
        value = values[rank] if rank in values else int(rank)
        suits[card[-1]] = suits.get(card[-1], 0) + value
    worth = page.locator('.replay-seat[data-seat="1"] p').inner_text()
    assert f"worth {max(suits.values())}" in worth
    # Arrow keys and buttons.
    page.keyboard.press("ArrowRight")
    assert page.locator("#step-of").inner_text().startswith("Move 1 of")
    assert page.locator("#move").inner_text() != "The cards are dealt."
    assert "seat " not in page.locator("#move").inner_text()
    page.click("#next")
    assert page.locator("#step-of").inner_text().startswith("Move 2 of")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#step-of").inner_text().startswith("Move 1 of")
    page.keyboard.press("End")
    assert page.locator("#step-of").inner_text().startswith(f"Move {steps} of")
    assert page.locator("#next").is_disabled()
    # Jump to the second hand: the step where its deal was sealed.
    second = data["deals"][1]["step"]
    page.click('.hand-jump button[data-hand="1"]')
    assert page.locator("#step-of").inner_text() == f"Move {second} of {steps} · hand 2"
    assert page.locator('.hand-jump button[data-hand="1"]').get_attribute("aria-pressed") == "true"
    # The step is in the address: a link to it opens there.
    page.goto(f"{server.base}/replay/{code}#step=3")
    page.wait_for_selector("#verify-result")
    assert page.locator("#step-of").inner_text().startswith("Move 3 of")
    body = page.locator("main").inner_text()
    assert '{"' not in body and '"type"' not in body
    assert page.locator("#final table.sheet").count() == 1


def test_replay_of_an_unfinished_table_says_so(page: Any, server: Any) -> None:
    t = server.post("/api/tables", {"game": "scat", "players": 3})
    # The page shows "Loading the replay…" in the same element until the answer
    # arrives, so wait for the answer's words, not only for the element.
    status = "(document.getElementById('replay-status')?.innerText || '').toLowerCase()"
    page.goto(f"{server.base}/replay/{t['code']}")
    page.wait_for_function(f"{status}.includes('not finished')")
    assert "not finished" in page.locator("#replay-status").inner_text()
    page.goto(f"{server.base}/replay/NOSUCH")
    page.wait_for_function(f"{status}.includes('no table')")
    assert "no table" in page.locator("#replay-status").inner_text().lower()


def test_match_end_links_the_replay(page: Any, server: Any) -> None:
    t = server.post(
        "/api/tables",
        {
            "game": "scat",
            "players": 3,
            "options": {"max_hands": 1},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "basic"}] * 2,
        },
    )
    page.goto(server.base + seat_path(t))
    wait_state(page)
    play_scat_to_the_end(page)
    link = page.locator("#match-end #replay-link")
    assert link.get_attribute("href") == f"/replay/{t['code']}"
    link.click()
    page.wait_for_selector("#verify-result")
    # This browser played the match: its own record is checked too, and every check passes.
    checks = page.locator("#verify").inner_text()
    assert "What you saw: Your randomness was used in the shuffle" in checks
    assert page.locator('#verify li[data-ok="false"]').count() == 0, checks


def test_a_spectator_of_a_finished_match_reads_no_null(page: Any, server: Any) -> None:
    """Someone watching a finished table (no seat, no rematch yet) reads "The match is over."
    and a way back to the lobby, not the word "null" (a missing rematch link once was)."""
    t = finished_table(server)
    page.goto(f"{server.base}/t/{t['code']}")
    page.wait_for_function("document.body.innerText.includes('The match is over.')")
    page.wait_for_selector("#to-lobby")
    text = page.locator("body").inner_text()
    assert "null" not in text and "undefined" not in text, text
    assert page.locator("#watch-rematch").count() == 0


# --- lobby -------------------------------------------------------------------------------------


def test_lobby_asks_a_name_once_and_sends_it(browser: Any, server: Any) -> None:
    """The name is asked once, kept in this browser, and given to the seat on create and join."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#seats select")
        assert page.locator("#name-form").is_visible()
        page.fill("#player-name", "  Anna  Maria ")
        page.click("#name-save")
        # saving the name makes the player on the server first (issue 33): wait for the answer
        page.wait_for_function(
            "document.getElementById('name-value').textContent === 'Anna Maria'", timeout=20_000
        )
        assert page.locator("#name-shown").inner_text().startswith("Playing as Anna Maria")
        page.reload()
        page.wait_for_selector("#seats select")
        assert not page.locator("#name-form").is_visible()  # asked once
        assert page.evaluate("localStorage.getItem('parlour.name')") == "Anna Maria"
        page.select_option('#seats select[data-seat="1"]', "human")
        page.click("#create")
        page.wait_for_selector("#created-code")
        code = page.locator("#created-code").inner_text()
        seats = server.get(f"/api/tables/{code}")["seats"]
        assert seats[0]["name"] == "Anna Maria" and "name" not in seats[1]
        invite = page.locator('.link-row.invite[data-seat="1"] input').input_value()
    finally:
        ctx.close()
    # The invited friend's browser knows its player's name: the invite gives it to the seat.
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.add_init_script("localStorage.setItem('parlour.name', 'Cy')")
        page.goto(invite)
        page.wait_for_url(f"{server.base}/t/{code}")
        page.wait_for_function("window.parlour && window.parlour.connected")
        assert server.get(f"/api/tables/{code}")["seats"][1]["name"] == "Cy"
    finally:
        ctx.close()
    # A stranger joins an open seat by code with their name.
    t = server.post(
        "/api/tables",
        {
            "game": "scat",
            "players": 3,
            "seats": [{"kind": "human"}, {"kind": "human", "open": True}, {"kind": "bot"}],
        },
    )
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.add_init_script("localStorage.setItem('parlour.name', 'Bea')")
        page.goto(server.base + "/")
        page.fill("#join-code", t["code"])
        page.click("#join")
        page.wait_for_url(f"{server.base}/t/{t['code']}")
        assert server.get(f"/api/tables/{t['code']}")["seats"][1]["name"] == "Bea"
    finally:
        ctx.close()


def test_names_are_cleaned(server: Any) -> None:
    long = "Zoë\u0007 the\n  very " + "x" * 60
    t = server.post("/api/tables", {"game": "scat", "players": 3, "player": long, "seats": None})
    seat = server.get(f"/api/tables/{t['code']}")["seats"][0]
    assert seat["name"] == ("Zoë the very " + "x" * 60)[:24].strip()
    status, _ = server.call("POST", "/api/tables", {"game": "scat", "player": "x" * 81})
    assert status == 422


def test_bot_levels_in_words_and_strong_at_two_strengths(page: Any, server: Any) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#seats select")
    options = page.locator('#seats select[data-seat="1"] option').evaluate_all(
        "(os) => os.map((o) => [o.value, o.textContent])"
    )
    assert options == [
        ["human", "Human player"],
        ["bot:random", "Bot — Beginner"],
        ["bot:basic", "Bot — Casual"],
        ["bot:strong:0.3", "Bot — Strong, quick"],
        ["bot:strong:1", "Bot — Strong, thoughtful"],
        ["bot:expert", "Bot — Expert"],
    ]
    page.locator("#bot-levels summary").click()
    levels = page.locator("#bot-levels-list").inner_text()
    assert "0.3 s a move" in levels and "a full second a move" in levels
    assert "up to 3 s a move" in levels
    page.select_option('#seats select[data-seat="1"]', "bot:strong:0.3")
    page.click("#create")
    # with only bots to play with, the creator goes straight to the table, seated
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/tables/{code}")["seats"][1]["bot"] == "strong:0.3"


def test_open_tables_refresh_and_keep_invited_seats_private(browser: Any, server: Any) -> None:
    """The list updates itself; a seat kept for an invited friend is not offered to strangers,
    one the creator marked open is."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.add_init_script("window.parlourRefreshMs = 300")
        page.goto(server.base + "/")
        page.wait_for_selector("#open-tables p, #open-tables table")
        invited = server.post(
            "/api/tables",
            {
                "game": "scat",
                "players": 3,
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}],
            },
        )
        opened = server.post(
            "/api/tables",
            {
                "game": "scat",
                "players": 3,
                "seats": [{"kind": "human"}, {"kind": "human", "open": True}, {"kind": "bot"}],
                "player": "Dora",
            },
        )
        # No click on Refresh: the list shows the new open table by itself.
        page.wait_for_selector(f'#open-tables tr[data-code="{opened["code"]}"]', timeout=5000)
        assert page.locator(f'#open-tables tr[data-code="{invited["code"]}"]').count() == 0
        assert (
            "with Dora"
            in page.locator(f'#open-tables tr[data-code="{opened["code"]}"]').inner_text()
        )
        # Once the open seat is taken the table leaves the list by itself too.
        server.post(f"/api/tables/{opened['code']}/join", {})
        page.wait_for_selector(
            f'#open-tables tr[data-code="{opened["code"]}"]', state="detached", timeout=5000
        )
    finally:
        ctx.close()


# --- Chicago pad on a phone --------------------------------------------------------------------

RIGHT_EDGES_JS = """() => [...document.querySelectorAll('#round-1 tr.total td, #round-1 tr.deal-row td')]
  .map((td) => td.getBoundingClientRect().right)"""


def test_chicago_pad_readable_on_a_phone(browser: Any, server: Any, artifacts: Path) -> None:
    """390×844: both sides' columns and the round's difference are on screen without sideways
    scrolling (before: a seven-column sheet put E-W and the difference off-screen)."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        entries = ["3S N +1", "3NT E =", "3DX W =", "6S S = honors4"]
        page.add_init_script(
            "localStorage.setItem('parlour.chicago', "
            + json.dumps(json.dumps({"entries": entries, "options": {}}))
            + ")"
        )
        page.goto(server.base + "/chicago")
        page.wait_for_selector("#round-1 tr.total")
        no_horizontal_scroll(page)
        edges = page.evaluate(RIGHT_EDGES_JS)
        assert edges and max(edges) <= PHONE["width"], edges
        scroller = page.locator("#round-1").evaluate(
            "(t) => t.parentElement.scrollWidth <= t.parentElement.clientWidth"
        )
        assert scroller, "the sheet must fit its box, not scroll inside it"
        total = page.locator("#round-1 tr.total")
        total.scroll_into_view_if_needed()
        text = total.inner_text()
        assert "1,650" in text and "1,070" in text and "+6" in text
        ew = page.locator('#round-1 tr[data-deal="2"] td').nth(3)
        assert ew.inner_text() == "600" and ew.is_visible()
        page.screenshot(path=str(artifacts / "chicago-phone.png"))
    finally:
        ctx.close()


def test_rules_and_replay_on_a_phone(browser: Any, server: Any, artifacts: Path) -> None:
    """390×844: the rules pages and the replay viewer do not scroll sideways; an options table is
    shown a row at a time, each cell named and as wide as the page (not a squeezed column)."""
    t = finished_table(server)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        for game in ("samba", "handfoot", "cheat", "scat", "chicago"):
            page.goto(f"{server.base}/rules/{game}")
            no_horizontal_scroll(page)
            meaning = page.locator("#options ~ .table-scroll td[data-label]").nth(2)
            assert meaning.evaluate("(td) => td.getBoundingClientRect().width") > 250, game
            assert meaning.evaluate("(td) => getComputedStyle(td, '::before').content").startswith(
                '"what it means'
            )
        page.goto(server.base + "/rules/scat#options")
        page.screenshot(path=str(artifacts / "rules-phone.png"))
        page.goto(f"{server.base}/replay/{t['code']}")
        page.wait_for_selector("#verify-result")
        no_horizontal_scroll(page)
        page.locator("#next").tap()
        assert page.locator("#step-of").inner_text().startswith("Move 1 of")
        page.screenshot(path=str(artifacts / "replay-phone.png"))
    finally:
        ctx.close()


def test_player_names_are_shown_at_the_table_and_in_the_log(browser: Any, server: Any) -> None:
    """Issue 17, "Names": a player's name is shown at the table (players panel) and in the log
    lines others read (the server tells events with the table's player names), while the
    player reads "you"."""
    t = server.post(
        "/api/tables",
        {
            "game": "scat",
            "players": 3,
            "player": "Dora",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "basic"}, {"kind": "bot"}],
        },
    )
    code = t["code"]
    contexts = [browser.new_context() for _ in range(2)]
    try:
        me, watcher = (c.new_page() for c in contexts)
        me.goto(server.base + seat_path(t))
        wait_state(me)
        watcher.goto(f"{server.base}/t/{code}")
        wait_state(watcher)
        # the watcher's players panel names seat 0 by its player's name
        watcher.wait_for_function(
            "[...document.querySelectorAll('#players .player')].some(e => e.innerText.includes('Dora'))"
        )
        # Dora plays a move; the watcher's log says "Dora …", Dora's own log says "You …"
        for _ in range(160):  # the bots move first or not; wait for Dora's draw
            if me.locator("#hand-end-close").count():
                me.locator("#hand-end-close").click()
            st = wait_state(me)
            if any(a["type"] == "DrawStock" for a in st["legal"]) and not st.get("pending"):
                break
            me.wait_for_timeout(250)
        else:
            raise AssertionError("Dora never got to draw")
        me.click("#stock")
        watcher.wait_for_function(
            "[...document.querySelectorAll('#log li')].some(e => /^Dora draws/.test(e.innerText))",
            timeout=15000,
        )
        me.wait_for_function(
            "[...document.querySelectorAll('#log li')].some(e => /^You draw/.test(e.innerText))"
        )
        assert "Dora draws" not in me.locator("#log").inner_text()
    finally:
        for c in contexts:
            c.close()
