"""Seats that move: a player moves a seat to another device with a one-time link; the table's
host makes a new invite for a friend's seat (the old holder watches from then on); a table that
does not exist, or is gone, or whose server is down, is said in words without hammering the
server; a player who sat down after the start gets no false alarm about its randomness."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import serve
from tests.web.driver import (
    no_horizontal_scroll,
    open_info_tab,
    open_invite,
    play_scat_to_the_end,
    seat_path,
    stored_token,
    wait_seat,
    wait_state,
)

pytestmark = pytest.mark.browser

#: Scat for three: two human seats (the creator's and one invite), one bot, one hand
TWO_HUMANS = {
    "game": "scat",
    "players": 3,
    "options": {"max_hands": 1},
    "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "basic"}],
}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def table_url(server: Any, code: str) -> str:
    return f"{server.base}/t/{code}"


def count_sockets(page: Any) -> list[str]:
    """The WebSockets the page opens from now on (their URLs)."""
    opened: list[str] = []
    page.on("websocket", lambda ws: opened.append(ws.url))
    return opened


def door_errors(page: Any) -> list[dict[str, Any]]:
    """The ``error`` messages the page's WebSockets receive from now on."""
    errors: list[dict[str, Any]] = []

    def frame(payload: Any) -> None:
        if isinstance(payload, str) and '"error"' in payload:
            msg = json.loads(payload)
            if msg.get("type") == "error":
                errors.append(msg)

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return errors


def open_table_tab(page: Any) -> None:
    open_info_tab(page)
    page.locator("#tab-body .kv").first.wait_for()


def screenshots(page: Any, artifacts: Path, name: str, target: str) -> None:
    """The page at desktop and phone size, scrolled to ``target``; nothing sticks out sideways."""
    for size, tag in ((DESKTOP, "1280"), (PHONE, "390")):
        page.set_viewport_size(size)
        page.locator(target).scroll_into_view_if_needed()
        no_horizontal_scroll(page)
        page.screenshot(path=str(artifacts / f"{name}-{tag}.png"))
    page.set_viewport_size(DESKTOP)


def test_a_seat_moves_to_another_device(browser: Any, server: Any, artifacts: Path) -> None:
    """ "Move my seat to another device" gives a one-time link; opened in another browser it takes
    the seat there (this browser's randomness is already in, so the other one's is refused and the
    fair deal check says so without an alarm); the first browser is told, forgets its token and
    watches."""
    t = server.post("/api/tables", TWO_HUMANS)
    code, old = t["code"], t["you"]["token"]
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    try:
        first, second = (c.new_page() for c in contexts)
        first.goto(server.base + seat_path(t))
        assert wait_seat(first) == 0
        first.locator("#waiting").wait_for()  # the friend has not come: nothing is dealt
        mine = first.evaluate("window.parlour.fairRecord.contribution")
        first.wait_for_function(
            f"window.parlour.table.fairness.contributions['0'] === {json.dumps(mine)}"
        )
        open_table_tab(first)
        assert first.locator("#host-invites").count() == 0  # made through the API: not the host
        first.click("#move-seat")
        link = first.locator("#move-link input")
        link.wait_for()
        url = link.input_value()
        assert re.fullmatch(rf"{re.escape(server.base)}/t/{code}\?invite=[\w-]+", url), url
        note = first.locator("#move-link").inner_text()
        assert "Open this link on the other device; this one will then watch." in note
        screenshots(first, artifacts, "move-seat", "#move-box")

        refused = door_errors(second)
        open_invite(second, url, "Me")
        second.wait_for_url(table_url(server, code))  # no invite in the address any more
        assert wait_seat(second) == 0
        assert stored_token(second, code) not in (None, old)

        notice = first.locator("#notice")
        notice.wait_for()
        assert "Your seat moved to the other device. This browser now watches." in (
            notice.inner_text()
        )
        first.wait_for_function("document.querySelector('#status').textContent === 'watching'")
        assert first.evaluate("window.parlour.seat") is None
        assert stored_token(first, code) is None
        assert first.locator("#move-seat").count() == 0  # the Table tab is a watcher's now
        status, _ = server.call("POST", f"/api/tables/{code}/invite", {"token": old})
        assert status == 403  # the old token holds nothing
        screenshots(first, artifacts, "seat-moved", "#notice")

        # The seat already had this table's randomness from the first browser: the second one's
        # is refused, quietly (no error in the banner or the log).
        second.wait_for_function("window.parlour.connected")
        assert [e["code"] for e in refused] == ["bad_contribution"]
        assert second.evaluate("window.parlour.error") == ""
        assert second.locator("#log li.error").count() == 0

        second.click("#start-now")  # a bot takes the friend's seat
        play_scat_to_the_end(second)
        panel = second.locator('#fair-check[data-state="done"]')
        panel.wait_for(timeout=20000)
        text = panel.inner_text()
        assert second.locator("#fair-check li.bad").count() == 0, text
        assert panel.get_attribute("data-ok") == "true"
        assert "This browser's randomness was not used: your seat's came from the browser" in text
        table = server.get(f"/api/tables/{code}")
        assert table["fairness"]["contributions"] == {"0": mine}
        # The first browser watched it all and sees the end too, with its randomness used.
        first_panel = first.locator('#fair-check[data-state="done"]')
        first_panel.wait_for(timeout=20000)
        assert "Your randomness was used in the shuffle" in first_panel.inner_text()
        assert first_panel.get_attribute("data-ok") == "true"
    finally:
        for c in contexts:
            c.close()


def test_the_host_makes_a_new_invite_for_a_friends_seat(
    browser: Any, server: Any, artifacts: Path
) -> None:
    """The table's creator (the host) makes a new invite link for a friend's seat: the friend's
    browser is told and watches, the old link stops working, whoever opens the new one plays the
    seat. A player who is not the host has no such buttons (and the server refuses them)."""
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(3)]
    try:
        host, friend, newcomer = (c.new_page() for c in contexts)
        host.goto(server.base + "/")
        host.select_option("#game", "scat")
        host.wait_for_selector('select[data-seat="1"]')
        host.select_option('select[data-seat="1"]', "human")
        host.click("#create")
        host.locator('.link-row.invite[data-seat="1"]').wait_for()
        code = host.locator("#created-code").inner_text().strip()
        invite = host.locator('.link-row.invite[data-seat="1"] input').input_value()
        host.click("#go-to-table")
        assert wait_seat(host) == 0

        open_invite(friend, invite)
        assert wait_seat(friend) == 1
        friend_token = stored_token(friend, code)
        wait_state(host)  # both are here: dealt

        open_table_tab(host)
        row = host.locator('#host-invites .host-seat[data-seat="1"]')
        row.wait_for()
        host.wait_for_function(
            "document.querySelector('#host-invites .host-seat[data-seat=\"1\"]')"
            ".textContent.includes('playing')"
        )
        asked: list[str] = []

        def accept(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept()

        host.once("dialog", accept)
        row.locator('button[data-reinvite="1"]').click()
        new = host.locator("#invite-1 input")
        new.wait_for()
        url = new.input_value()
        assert url != invite and re.fullmatch(
            rf"{re.escape(server.base)}/t/{code}\?invite=\S+", url
        )
        assert asked and "The old link stops working" in asked[0]
        assert (
            "it replaces the old one, which no longer works"
            in host.locator("#invite-1").inner_text()
        )
        screenshots(host, artifacts, "host-invites", "#host-invites")

        # The friend's browser is told at once and watches; its token is forgotten.
        notice = friend.locator("#notice")
        notice.wait_for()
        assert "Your seat moved away from this browser" in notice.inner_text()
        assert "the host made a new invite for this seat" in notice.inner_text()
        friend.wait_for_function("window.parlour.seat === null && window.parlour.spectator")
        assert stored_token(friend, code) is None
        status, _ = server.call("POST", f"/api/tables/{code}/invite", {"token": friend_token})
        assert status == 403
        status, body = server.call(
            "POST", f"/api/tables/{code}/claim", {"invite": invite.split("invite=")[1]}
        )
        assert status == 403, body  # the old link is dead

        # The host's "Invite / links" dialog offers the new link, not the old one.
        host.click("#invite")
        shown = [i.input_value() for i in host.locator("#invite-dialog input").all()]
        assert url in shown and invite not in shown
        host.click("#invite-dialog-close")

        open_invite(newcomer, url, "Newcomer")
        assert wait_seat(newcomer) == 1
        assert wait_state(newcomer)["seat"] == 1
        host.wait_for_function(
            "document.querySelector('#host-invites .host-seat[data-seat=\"1\"]')"
            ".textContent.includes('playing')"
        )
        # The newcomer is not the host: it may move its own seat, not make links for others.
        open_table_tab(newcomer)
        assert newcomer.locator("#move-seat").count() == 1
        assert newcomer.locator("#host-invites").count() == 0
        token = stored_token(newcomer, code)
        status, _ = server.call("POST", f"/api/tables/{code}/invite", {"token": token, "seat": 0})
        assert status == 403
    finally:
        for c in contexts:
            c.close()


def test_joining_after_the_start_raises_no_alarm(page: Any, server: Any) -> None:
    """A friend who opens an invite after the table started (bots played the seat meanwhile)
    could not add randomness: the fair deal check says so, as information, not as an alarm."""
    t = server.post("/api/tables", TWO_HUMANS)
    code = t["code"]
    server.post(f"/api/tables/{code}/start", {"token": t["you"]["token"]})
    invite = next(s["invite_url"] for s in t["seats"] if s["seat"] == 1)
    open_invite(page, server.base + invite)
    assert wait_seat(page) == 1
    assert page.evaluate("window.parlour.table.fairness.seeded") is True
    play_scat_to_the_end(page)
    panel = page.locator('#fair-check[data-state="done"]')
    panel.wait_for(timeout=20000)
    text = panel.inner_text()
    assert page.locator("#fair-check li.bad").count() == 0, text
    assert panel.get_attribute("data-ok") == "true"
    assert "This browser's randomness was not used (you joined after the start)." in text
    assert "missing" not in text
    assert page.evaluate("window.parlour.fairRecord.contributed") is False


def test_a_table_that_does_not_exist_is_said_once(page: Any, server: Any, artifacts: Path) -> None:
    """No such table: the page says so and stops (one WebSocket, no reconnecting)."""
    opened = count_sockets(page)
    page.goto(table_url(server, "NOSUCH7"))
    closed = page.locator("#closed")
    closed.wait_for()
    assert "There is no table NOSUCH7 on this server" in closed.inner_text()
    page.wait_for_timeout(4000)
    assert len(opened) == 1, opened
    assert page.locator("#status").inner_text() == "not connected"
    assert "Connecting" not in page.locator("#felt").inner_text()
    screenshots(page, artifacts, "no-table", "#closed")


def test_a_gone_table_and_a_server_that_went_away(browser: Any, tmp_path: Path) -> None:
    """A table that expired: said in plain words, no reconnecting. A server that stops: the page
    keeps trying (with its backoff) and after a few failed tries says it cannot reach the table."""
    with serve(tmp_path, "--no-rate-limit") as s:
        expired = s.post("/api/tables", TWO_HUMANS)["code"]
        waiting = s.post("/api/tables", TWO_HUMANS)["code"]
    with sqlite3.connect(tmp_path / "parlour.db") as db:  # as the sweep leaves an expired table
        db.execute("UPDATE parlour_tables SET status = 'expired' WHERE code = ?", (expired,))
    context = browser.new_context(viewport=DESKTOP)
    try:
        gone, watcher = context.new_page(), context.new_page()
        with serve(tmp_path, "--no-rate-limit") as s:
            opened = count_sockets(gone)
            gone.goto(table_url(s, expired))
            closed = gone.locator("#closed")
            closed.wait_for()
            assert f"This table is gone: table {expired} expired before it started." in (
                closed.inner_text()
            )
            watcher.goto(table_url(s, waiting))
            assert wait_seat(watcher) is None
            gone.wait_for_timeout(3000)
            assert len(opened) == 1, opened
        # The server is down now: the watcher retries, then says why it cannot get in.
        started = time.monotonic()
        notice = watcher.locator("#notice")
        notice.wait_for(timeout=15000)
        assert "Cannot reach the table" in notice.inner_text()
        assert time.monotonic() - started > 2  # not at the first failure: after a few tries
        assert watcher.locator("#status").inner_text() == "reconnecting…"
        assert watcher.locator("#closed").count() == 0
    finally:
        context.close()
