"""The browser table for Samba, end to end: a real server, Chromium, every move a click.

Rules quoted come from seed ``002_91a2786a682fea8f.txt`` (Samba, primary spec)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from parlour import games
from parlour.core.replay import MatchRecord, replay
from tests.web.driver import (
    click_card,
    open_invite,
    play_until,
    seat_path,
    table_state,
    wait_state,
)

pytestmark = pytest.mark.browser

RANDOM_SEATS = [
    {"kind": "human"},
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "random"},
]


def fmt(n: float) -> str:
    """The page's number format: thousands commas, a true minus sign."""
    s = f"{abs(n):,.0f}" if float(n).is_integer() else f"{abs(n):,.1f}"
    return f"−{s}" if n < 0 else s


def create_table_in_lobby(page: Any, server: Any) -> str:
    """Create a capped Samba table with three random bots by using the lobby's form."""
    page.goto(server.base + "/")
    page.select_option("#game", "samba")
    page.select_option("#preset", "samba")
    page.locator("#options-box summary").click()
    # Every option is shown with its meaning (the lobby reads it from GET /api/games).
    assert (
        "stop the match after this many hands"
        in page.locator('.opt[data-option="max_hands"]').inner_text()
    )
    page.fill("#opt-max_hands", "1")
    page.locator("#opt-max_hands").dispatch_event("change")
    for seat in (1, 2, 3):
        page.select_option(f'select[data-seat="{seat}"]', "bot:random")
    page.click("#create")
    # Only bots to play with: the creator sits down at once, no "Take my seat" click.
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))  # the seat's token stays in this browser
    # the table's script sets window.parlour once its language's messages are loaded
    page.wait_for_function("window.parlour && window.parlour.code")
    return str(page.evaluate("window.parlour.code"))


def test_lobby_rejects_a_bad_option_with_the_reason(page: Any, server: Any) -> None:
    """The lobby shows the rules schema's own message for a bad option value."""
    page.goto(server.base + "/")
    page.select_option("#game", "samba")
    page.locator("#options-box summary").click()
    page.fill("#opt-max_hands", "0")
    page.locator("#opt-max_hands").dispatch_event("change")
    page.click("#create")
    error = page.locator("#create-error")
    error.wait_for()
    page.wait_for_function("document.querySelector('#create-error').textContent.length > 0")
    assert "max_hands" in error.inner_text()
    assert "minimum" in error.inner_text()


def test_a_whole_hand_by_clicking_matches_the_engine(
    page: Any, server: Any, artifacts: Any
) -> None:
    """Play a complete hand of Samba against three bots through the page only; the page's score
    sheet equals the engine's replay of the journal, and an illegal click shows the rule.

    Seed 002: "Draw two cards from the stock, or take the discard pile" — a discard before
    drawing is refused with the engine's reason."""
    code = create_table_in_lobby(page, server)
    wait_state(page)

    # The first time it is our turn (draw phase): try to discard without drawing.
    deadline_state = None
    for _ in range(400):
        st = table_state(page)
        if st and st["legal"] and st["phase"] == "draw" and not st["pending"]:
            deadline_state = st
            break
        page.wait_for_timeout(25)
    assert deadline_state is not None, "our turn never came"
    illegal_card = deadline_state["hand"][0]
    illegal_version = deadline_state["version"]
    click_card(page, illegal_card)
    page.click("#pile")
    page.wait_for_selector("#error")
    shown_rule = page.locator("#error").inner_text()
    # The selection is not lost silently: the refusal is in the log too.
    assert shown_rule in page.locator("#log").inner_text()

    clicks = play_until(page, lambda s: s["finished"], timeout=120)
    assert clicks >= 5

    # End of the hand (max_hands=1: also the end of the match): the screen and the artifacts.
    page.wait_for_selector("#match-end")
    assert "Match over" in page.locator("#match-end").inner_text()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "samba-hand-end.png"))
    page.click("#match-end-close")
    page.screenshot(path=str(artifacts / "samba-table-end.png"), full_page=True)

    # The engine's own account of the match, from the journal.
    data = server.get(f"/api/tables/{code}/replay")
    record = MatchRecord.from_json(data["record"])
    entry = games.entry(record.game)
    rules = entry.rules_type.from_json(record.rules)
    final, _ = replay(entry.game, rules, record.seed, record.actions)
    outcome = entry.game.outcome(final)
    assert outcome.finished and len(outcome.hands) == 1

    # The illegal attempt: the text shown is the engine's explain() for that state and action.
    before, _ = replay(entry.game, rules, record.seed, record.actions[:illegal_version])
    action = entry.game.action_from_json({"type": "Discard", "card": illegal_card})
    reason = entry.game.explain(before, action)
    assert reason is not None
    assert shown_rule == page.evaluate("(t) => window.parlour.say(t)", reason)

    # The score sheet on the page, cell by cell, against the engine's hand result.
    page.click('.tabs button[data-tab="score"]')
    sheet = page.locator("#score-sheet")
    sheet.wait_for()
    hand = outcome.hands[0]
    for key in hand.breakdown[0]:
        cells = sheet.locator(f'tr[data-key="{key}"] td').all_inner_texts()
        if not any(b[key] for b in hand.breakdown):
            assert cells == [], f"{key}: a row of zeros is left out"
            continue
        assert cells[1:] == [fmt(b[key]) for b in hand.breakdown], key
    totals = sheet.locator('tr.hand-total[data-hand="0"] td').all_inner_texts()
    assert totals[1:] == [fmt(s) for s in hand.scores]
    final_row = sheet.locator("tr.total td").all_inner_texts()
    assert final_row[1:] == [fmt(s) for s in outcome.scores]
    # Each side's current opening minimum is on the sheet too.
    assert "needs" in page.locator("#opening-minimums").inner_text()

    # The deal was sealed before anyone acted, opened at the end, and this browser checked the
    # opening against the commitment it had recorded.
    page.click('.tabs button[data-tab="log"]')
    checks = page.locator("#log .fair-ok").all_inner_texts()
    assert checks == ["✓ the deal matches the commitment shown before it was dealt"]
    assert page.locator("#log .fair-bad").count() == 0


def test_partners_in_two_browsers(browser: Any, server: Any) -> None:
    """Two people as partners (seats 0 and 2, opposite — seed 002: "partners sit opposite each
    other") play in two browser contexts; both see the same table and their shared side."""
    t = server.post(
        "/api/tables",
        {
            "game": "samba",
            "options": {"max_hands": 1},
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "bot": "random"},
                {"kind": "human"},
                {"kind": "bot", "bot": "random"},
            ],
        },
    )
    partner_url = next(s["invite_url"] for s in t["seats"] if s["seat"] == 2)
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850}) for _ in range(2)]
    try:
        south, north = (c.new_page() for c in contexts)
        south.goto(server.base + seat_path(t))
        open_invite(north, server.base + partner_url, "North")
        for p, seat in ((south, 0), (north, 2)):
            st = wait_state(p)
            assert st["seat"] == seat
        # Both see their side as theirs, with both partners' names.
        for p in (south, north):
            p.wait_for_selector("#side-0.mine")
            assert "South & North (your side)" in p.locator("#side-0 h3").inner_text()
        # Play until each partner has had at least two turns (clicks on both pages).
        start = table_state(south)["version"]
        play_until(south, lambda s: s["version"] >= start + 30, timeout=60, pages=[north])

        # At a quiet moment (a human to act) both pages show the same public table.
        def public(p: Any) -> dict[str, Any]:
            return p.evaluate(
                """() => ({v: parlour.version, pile: parlour.view.pile, stock: parlour.view.stock_size,
                    sides: JSON.stringify(parlour.view.sides),
                    melds: document.querySelector('#melds').innerText})"""
            )

        for _ in range(200):
            a, b = public(south), public(north)
            if a["v"] == b["v"]:
                break
            south.wait_for_timeout(25)
        assert a["v"] == b["v"]
        assert (a["pile"], a["stock"], a["sides"]) == (b["pile"], b["stock"], b["sides"])
        # Melds are numbered from 1, as in the terminal: on the table and in engine texts.
        said = south.evaluate("parlour.say('seat 2 adds 2♥ to meld 0; meld 10♥ J♥ Q♥')")
        # ... and seats from where the reader sits: North is South's partner.
        assert said == "Your partner adds 2♥ to meld #1; meld 10♥ J♥ Q♥"
        tags = south.locator("#melds .tag.index").all_inner_texts()
        assert "#0" not in tags and (not tags or "#1" in tags)
        # Neither page ever holds the partner's cards: each hand is its own.
        ha, hb = table_state(south)["hand"], table_state(north)["hand"]
        assert len(ha) == south.evaluate("parlour.view.players[0].hand_size")
        assert len(hb) == north.evaluate("parlour.view.players[2].hand_size")
    finally:
        for c in contexts:
            c.close()


def test_reload_mid_hand_resumes(page: Any, server: Any) -> None:
    """A reload keeps the seat (its token kept in this browser), the hand and the whole log."""
    t = server.post(
        "/api/tables", {"game": "samba", "options": {"max_hands": 1}, "seats": RANDOM_SEATS}
    )
    page.goto(server.base + seat_path(t))
    wait_state(page)
    play_until(page, lambda s: s["version"] >= 12 and bool(s["legal"]), timeout=60)
    before = table_state(page)
    log_before = page.locator("#log li").all_inner_texts()
    page.reload()
    after = wait_state(page)
    page.wait_for_function("window.parlour.log.length > 0")
    assert after["seat"] == 0
    assert after["version"] == before["version"]  # our turn: nothing moved meanwhile
    assert after["hand"] == before["hand"]
    assert page.locator("#log li").all_inner_texts() == log_before
    # The seat is remembered in this browser for the lobby's "Your seats".
    # (the lobby lists them once its script has read this browser's seats: wait for it)
    page.goto(server.base + "/")
    expect(page.locator("#my-seats")).to_contain_text(t["code"], timeout=15_000)
