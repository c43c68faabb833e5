"""Invite links that work once, seat tokens that stay in the browser holding the seat, and deals
the browser checks itself (commitments, the server's secret, its own randomness, the chain of
moves): a real ``parlour serve``, Chromium, the pages used as a person uses them."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

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

USED_INVITE = "This invite link has already been used."
DEAL_OK = "✓ the deal matches the commitment shown before it was dealt"
#: a short match: three Scat players, two hands, two basic bots (they knock)
SHORT_SCAT = {
    "game": "scat",
    "players": 3,
    "options": {"max_hands": 2},
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "basic"}, {"kind": "bot", "bot": "basic"}],
}


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def canonical(x: Any) -> str:
    return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain(code: str, commitment: str, actions: list[Any]) -> list[str]:
    heads = [sha(f"parlour-chain:{code}:{commitment}")]
    for a in actions:
        heads.append(sha(f"{heads[-1]}|{canonical(a)}"))
    return heads


def match_seed(secret: str, contributions: dict[int, str]) -> int:
    p = ",".join(f"{s}={contributions[s]}" for s in sorted(contributions))
    digest = hashlib.sha256(f"parlour-match:{secret}:{p}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def fair_module(page: Any, server: Any, expression: str, arg: Any) -> Any:
    """Evaluate ``expression`` (using ``m``, the page's fair.js, and ``arg``) in the page."""
    if not page.url.startswith(server.base):
        page.goto(server.base + "/")
    return page.evaluate(
        f"async (arg) => {{ const m = await import('/static/js/fair.js'); return {expression}; }}",
        arg,
    )


def table_url(server: Any, code: str) -> str:
    return f"{server.base}/t/{code}"


# --- the pieces the browser checks with ---------------------------------------------------------


def test_sha256_in_plain_javascript_matches_known_vectors(page: Any, server: Any) -> None:
    """The page's own SHA-256 (plain http on a home network has no crypto.subtle) gives the
    standard digests, for text as UTF-8, across the block boundaries."""
    page.goto(server.base + "/")
    texts = ["", "abc", "".join(chr(97 + i % 26) for i in range(1000)), "7♥ and 10♥ ♥♥"]
    texts += ["é" * n + "x" * (n % 3) for n in range(0, 130, 7)]
    got = page.evaluate(
        "async (texts) => { const m = await import('/static/js/sha256.js');"
        " return texts.map((t) => m.sha256(t)); }",
        texts,
    )
    assert got[0] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert got[1] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert got == [sha(t) for t in texts]
    # 127.0.0.1 is a secure context: the browser's own digest agrees.
    subtle = page.evaluate(
        """async (texts) => Promise.all(texts.map(async (t) => {
          const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(t));
          return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
        }))""",
        texts[:4],
    )
    assert subtle == got[:4]


def test_chain_and_seeds_computed_in_the_page_match_python(page: Any, server: Any) -> None:
    """The hash chain over moves uses Python's canonical JSON (sorted keys, no spaces, non-ASCII
    as is); the match seed and the deal commitments follow the published formulas; 63-bit deal
    numbers keep every digit."""
    actions = [
        {"type": "Discard", "card": "7♦"},
        {"type": "Meld", "cards": ["10♥", "J♥", "Q♥"], "to": None, "z": {"b": 1, "a": [True]}},
        {"type": "Say", "text": 'quote " backslash \\ line\nbreak \t\x01 é ♥ 😀 \u2028'},
        {"type": "Pass", "count": -3, "nested": [[], {}, [{"ü": "ö"}]]},
    ]
    code = "K7QX2M"
    secret = "ab" * 32
    commitment = sha(f"parlour-secret:{secret}")
    got = fair_module(
        page,
        server,
        "{canon: arg.actions.map(m.canon), heads: m.chainHeads(arg.code, arg.c, arg.actions),"
        " secret: m.secretCommitment(arg.secret)}",
        {"actions": actions, "code": code, "c": commitment, "secret": secret},
    )
    assert got["canon"] == [canonical(a) for a in actions]
    assert got["heads"] == chain(code, commitment, actions)
    assert got["secret"] == commitment

    contributions = {2: "0f" * 16, 0: "a1" * 16, 10: "33" * 16}
    seeds = fair_module(
        page,
        server,
        "[m.matchSeed(arg.secret, arg.c), m.matchSeed(arg.secret, {})]",
        {"secret": secret, "c": {str(k): v for k, v in contributions.items()}},
    )
    assert seeds == [str(match_seed(secret, contributions)), str(match_seed(secret, {}))]

    seed, salt = 9007199254740993, "5e" * 32  # 2**53 + 1: a JavaScript number would round it
    text = json.dumps({"events": [{"data": {"seed": seed, "salt": salt}}], "match_seed": seed})
    parsed = fair_module(
        page,
        server,
        "(() => { const x = m.parseKeepingSeeds(arg); const d = x.events[0].data;"
        " return [d.seed, x.match_seed, m.dealCommitment(d.seed, d.salt)]; })()",
        text,
    )
    assert parsed == [str(seed), str(seed), sha(f"parlour-deal:{seed}:{salt}")]


# --- invites, open seats, seat keys -------------------------------------------------------------


def test_an_invite_link_takes_the_seat_once(browser: Any, server: Any) -> None:
    """The lobby hands out one invite per seat; opening it takes the seat and leaves the address
    bar with a link for watching only; the same link opened again elsewhere says it was used and
    watches; the browser holding the seat keeps it across reloads."""
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850}) for _ in range(3)]
    try:
        host, friend, stranger = (c.new_page() for c in contexts)
        host.goto(server.base + "/")
        host.select_option("#game", "scat")
        host.wait_for_selector('select[data-seat="1"]')
        host.select_option('select[data-seat="1"]', "human")
        host.click("#create")
        invite_row = host.locator('.link-row.invite[data-seat="1"]')
        invite_row.wait_for()
        code = host.locator("#created-code").inner_text().strip()
        invite = invite_row.locator("input").input_value()
        assert re.fullmatch(rf"{re.escape(server.base)}/t/{code}\?invite=[^&]+", invite), invite
        assert "Works once, for one person" in invite_row.inner_text()
        # No seat token anywhere on the page: the creator's own is only in this browser.
        own = stored_token(host, code)
        assert own and own not in host.content()
        assert "?seat=" not in host.locator("#invite-links").inner_html()

        host.click("#go-to-table")
        host.wait_for_url(table_url(server, code))
        assert wait_seat(host) == 0
        host.wait_for_selector("#waiting")  # nothing is dealt until the friend sits down
        assert "Still to come: West" in host.locator("#waiting").inner_text()
        host.click("#invite")  # the invite is shown again while nobody has taken the seat
        assert invite in [i.input_value() for i in host.locator("#invite-dialog input").all()]
        host.click("#invite-dialog-close")

        open_invite(friend, invite)
        friend.wait_for_url(table_url(server, code))  # no invite, no token in the address
        assert wait_seat(friend) == 1
        token = stored_token(friend, code)
        assert token and token != own
        assert friend.evaluate("location.search") == ""
        friend.reload()
        assert wait_state(friend)["seat"] == 1  # the token kept in this browser
        assert wait_state(host)["seat"] == 0  # everyone is here: the cards are dealt

        open_invite(stranger, invite, "Stranger")
        notice = stranger.locator("#notice")
        notice.wait_for()
        assert USED_INVITE in notice.inner_text()
        assert "otherwise ask the table's host for a new link" in notice.inner_text()
        assert wait_seat(stranger) is None
        stranger.wait_for_function("document.querySelector('#status').textContent === 'watching'")
        assert stranger.url == table_url(server, code)
        assert stored_token(stranger, code) is None

        # The server agrees: the invite is spent, a second claim is refused.
        claim = invite.split("invite=")[1]
        status, body = server.call("POST", f"/api/tables/{code}/claim", {"invite": claim})
        assert status == 410 and "already been used" in body["detail"]
        # Once taken, the host's dialog no longer offers that invite.
        host.wait_for_function(
            "window.parlour.table.seats.find((s) => s.seat === 1).claimed === true"
        )
        host.click("#invite")
        assert invite not in [i.input_value() for i in host.locator("#invite-dialog input").all()]
    finally:
        for c in contexts:
            c.close()


def test_an_open_seat_is_listed_and_joined(page: Any, server: Any) -> None:
    """A seat the creator marked open is in the lobby's list and taken with one click; a table
    whose seats are all private is not listed."""
    seats = [{"kind": "human"}, {"kind": "human", "open": True}, {"kind": "bot", "bot": "basic"}]
    open_table = server.post("/api/tables", {"game": "scat", "players": 3, "seats": seats})
    seats[1] = {"kind": "human"}
    private = server.post("/api/tables", {"game": "scat", "players": 3, "seats": seats})
    assert all("token" not in s for s in open_table["seats"])  # only the creator's own token
    page.goto(server.base + "/")
    row = page.locator(f'#open-tables tr[data-code="{open_table["code"]}"]')
    row.wait_for()
    assert "1 open" in row.inner_text()
    assert private["code"] not in page.locator("#open-tables").inner_text()
    page.click(f'button[data-join="{open_table["code"]}"]')
    page.wait_for_url(table_url(server, open_table["code"]))
    assert wait_seat(page) == 1
    # "Your seats" in the lobby goes back to it (the token comes from this browser).
    page.goto(server.base + "/")
    link = page.locator("#my-seats a", has_text=open_table["code"])
    assert link.get_attribute("href") == f"/t/{open_table['code']}"
    link.click()
    page.wait_for_url(table_url(server, open_table["code"]))
    assert wait_seat(page) == 1


def test_a_new_seat_key_locks_out_the_old_link_and_leave_forgets_it(
    browser: Any, server: Any
) -> None:
    """ "New seat key" replaces the token: this browser keeps playing, the old link now only
    watches (and the browser that tried it forgets it). Leaving gives the seat to a bot."""
    t = server.post("/api/tables", SHORT_SCAT)
    code, old = t["code"], t["you"]["token"]
    contexts = [browser.new_context() for _ in range(2)]
    try:
        me, other = (c.new_page() for c in contexts)
        me.goto(server.base + seat_path(t))  # an old-style link: the token leaves the address
        me.wait_for_url(table_url(server, code))
        assert wait_state(me)["seat"] == 0
        assert stored_token(me, code) == old
        open_info_tab(me)
        me.click("#new-seat-key")
        me.wait_for_function(
            "document.querySelector('#seat-key-note').textContent.startsWith('Done')"
        )
        new = stored_token(me, code)
        assert new and new != old
        assert me.evaluate("window.parlour.token") == new
        status, _ = server.call("POST", f"/api/tables/{code}/rotate", {"token": old})
        assert status in (403, 410)  # the old token holds nothing any more

        other.goto(server.base + f"/t/{code}?seat={old}")
        other.locator("#notice").wait_for()
        assert "This seat key does not work at this table" in other.locator("#notice").inner_text()
        assert wait_state(other)["seat"] is None
        assert stored_token(other, code) is None

        me.reload()  # the new key works
        assert wait_state(me)["seat"] == 0
        me.once("dialog", lambda d: d.accept())
        open_info_tab(me)
        with me.expect_navigation():
            me.click("#leave-seat")
        assert wait_state(me)["seat"] is None  # watching now
        assert stored_token(me, code) is None
        status, _ = server.call("POST", f"/api/tables/{code}/rotate", {"token": new})
        assert status in (403, 410)  # revoked for good
        seat0 = server.get(f"/api/tables/{code}")["seats"][0]
        assert seat0["controller"] == "bot"
    finally:
        for c in contexts:
            c.close()


# --- a whole match, checked by the browser ----------------------------------------------------------


def test_a_whole_match_passes_the_fair_deal_check(
    page: Any, server: Any, artifacts: Path, tmp_path: Path
) -> None:
    """Two hands of Scat played by clicking: each opened deal is checked in the log; at the end
    the browser checks the secret, its own randomness, the shuffle number and every move it saw
    against the record, and its downloaded record passes ``parlour verify``."""
    t = server.post("/api/tables", SHORT_SCAT)
    code = t["code"]
    page.goto(server.base + seat_path(t))
    wait_state(page)
    contribution = page.evaluate("window.parlour.fairRecord.contribution")
    assert re.fullmatch(r"[0-9a-f]{32}", contribution)
    play_scat_to_the_end(page)

    panel = page.locator('#fair-check[data-state="done"]')
    panel.wait_for(timeout=20000)
    text = panel.inner_text().replace("\xa0", " ")
    assert page.locator("#fair-check li.bad").count() == 0, text
    assert panel.get_attribute("data-ok") == "true"
    hands = len(page.evaluate("window.parlour.outcome.hands"))
    assert hands == 2
    assert f"Every deal matched the commitment shown before it was dealt ({hands} of {hands})" in (
        text
    )
    assert "The table's secret matches the commitment it showed before the first deal" in text
    assert "Your randomness was used in the shuffle" in text
    assert "The shuffle follows from the secret and the players' randomness" in text
    moves = re.search(r"The moves in the record are the moves you saw \((\d+) of (\d+)\)", text)
    assert moves and moves.group(1) == moves.group(2) and int(moves.group(1)) > 10
    assert page.locator("#fair-check li.ok").count() == 5
    assert page.locator("#log .fair-ok").count() == hands

    page.locator("#fair-check").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "fair-check-1280.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#fair-check").scroll_into_view_if_needed()
    no_horizontal_scroll(page)
    page.screenshot(path=str(artifacts / "fair-check-390.png"))

    # The record this browser kept equals what the server published, move by move.
    with page.expect_download() as dl:
        page.click("#download-record")
    kept = json.loads(Path(dl.value.path()).read_text())
    assert set(kept) == {
        "code",
        "server_commitment",
        "contribution",
        "seat",
        "commitments",
        "heads",
    }
    table = server.get(f"/api/tables/{code}")
    replay = server.get(f"/api/tables/{code}/replay")
    assert kept["code"] == code and kept["seat"] == 0
    assert kept["server_commitment"] == table["fairness"]["server_commitment"]
    assert kept["contribution"] == contribution == table["fairness"]["contributions"]["0"]
    shown = page.evaluate(
        "window.parlour.log.filter((e) => e.kind === 'deal_commitment').map((e) => e.data)"
    )
    assert [c["hand"] for c in kept["commitments"]] == list(range(hands))
    assert kept["commitments"] == [
        {"hand": d["hand"], "step": d["step"], "commitment": d["commitment"]} for d in shown
    ]
    heads = chain(code, kept["server_commitment"], replay["record"]["actions"])
    assert kept["heads"] and all(heads[int(v)] == h for v, h in kept["heads"].items())
    assert str(len(heads) - 1) in kept["heads"]  # the last move too

    log = tmp_path / "record.json"
    log.write_text(json.dumps(kept))
    cli = [sys.executable, "-c", "from parlour.cli import main; main()"]
    verify = subprocess.run(
        [*cli, "verify", table_url(server, code), "--log", str(log)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_a_deal_that_differs_from_its_commitment_is_flagged(
    page: Any, server: Any, artifacts: Path
) -> None:
    """If the deal opened at the end of a hand does not hash to the commitment this browser
    recorded before the hand (here the recorded one is changed in the page, as if the server had
    sent another), the log and the felt warn, and the end check fails that line."""
    t = server.post("/api/tables", {**SHORT_SCAT, "options": {"max_hands": 1}})
    page.goto(server.base + seat_path(t))
    wait_state(page)  # window.parlour exists once the table's script ran (after the catalog)
    page.wait_for_function("window.parlour.fairRecord.commitments[0] !== undefined")
    page.evaluate("window.parlour.fairRecord.commitments[0].commitment = '00'.repeat(32)")
    play_scat_to_the_end(page)
    bad = page.locator("#log .fair-bad")
    bad.wait_for()
    assert "does NOT match the commitment shown before it was dealt" in bad.inner_text()
    assert page.locator("#log .fair-ok").count() == 0
    page.locator('#fair-check[data-state="done"]').wait_for(timeout=20000)
    assert page.locator("#fair-check").get_attribute("data-ok") == "false"
    failed = page.locator("#fair-check li.bad").all_inner_texts()
    assert len(failed) == 1 and "Only 0 of 1 deals matched" in failed[0]
    page.click("#match-end-close")
    alarm = page.locator("#notice.alarm")
    assert "Hand 1" in alarm.inner_text() and "NOT match" in alarm.inner_text()
    page.screenshot(path=str(artifacts / "fair-check-warning.png"))


# --- rate limits --------------------------------------------------------------------------------


def test_a_refusal_to_go_faster_is_shown_with_its_reason(page: Any, limited_server: Any) -> None:
    """Creating tables faster than the server allows one address: the lobby shows the server's
    own reason for the 429 (it says how long to wait), not a bare status."""
    error = ""
    for _ in range(40):
        # A table with only bots takes its creator straight to it: back to the lobby each time.
        page.goto(limited_server.base + "/")
        page.select_option("#game", "scat")
        page.click("#create")
        deadline = time.monotonic() + 10
        while "/t/" not in page.url and not error and time.monotonic() < deadline:
            with contextlib.suppress(PlaywrightError):
                error = page.locator("#create-error").inner_text(timeout=200)
            page.wait_for_timeout(30)
        if error:
            break
    request = urllib.request.Request(
        limited_server.base + "/api/tables",
        data=json.dumps({"game": "scat"}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    assert error, "the lobby never showed a refusal"
    # a token may have come back while the page worked (a loaded machine): ask until refused
    refused: urllib.error.HTTPError | None = None
    for _ in range(20):
        try:
            urllib.request.urlopen(request, timeout=10).close()
        except urllib.error.HTTPError as exc:
            refused = exc
            break
    assert refused is not None and refused.code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    detail = json.loads(refused.read())["detail"]
    assert re.fullmatch(re.sub(r"\d+", r"\\d+", re.escape(detail)), error), (error, detail)
