"""Issue 17's five blocking items: the hand and the moves always on screen, every move of the
selection in the action bar on a phone, a Samba meld of four or more cards in one click, Cheat
picks chosen freely and taken back, and a table that can be played from the keyboard.

Positions are reached quickly: the page's own seat is moved by a small policy sent through the
page (``window.parlour.send``, the same messages a click sends), with bots at the test delay; what
is checked is then done by clicking and pressing keys, as a person would."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.server.test_deltas import Whole
from tests.web.driver import (
    click_card,
    no_horizontal_scroll,
    same_rank_triple,
    seat_path,
    table_state,
    wait_state,
)

pytestmark = pytest.mark.browser

VIEWPORTS = [(360, 640), (390, 844), (1280, 900), (1920, 1080), (2560, 1440)]
PHONE = {"width": 390, "height": 844}

#: One decision for our seat when it is our turn: ``goal`` says what to steer for.
#: - "melds": meld (stage, add) until our side has ``stop`` melds, then draw and discard; the
#:   pile is taken whenever it can be (a big hand).
#: - "collect": never meld; keep the naturals of the rank we hold most of (discard others).
#: Partners are told "no" when they ask to go out, so the hand goes on.
SAMBA_POLICY_JS = """([goal, stop]) => {
  const c = window.parlour;
  if (!c || !c.view || c.pending || (c.queue || []).length || !c.legal || !c.legal.length) return null;
  if (c.view.to_act !== c.seat) return null;
  const L = c.legal.map((l) => l.action);
  const pick = (t) => L.find((a) => a.type === t);
  const no = L.find((a) => a.type === "AnswerGoOut" && !a.yes);
  const side = c.view.players[c.seat].side;
  const mine = c.view.sides.find((s) => s.side === side).melds.length;
  let a = no || pick("TakePile") || pick("Draw");
  if (!a && goal === "melds" && (mine < stop || c.view.pending.length)) a = pick("Stage") || pick("AddToMeld");
  if (!a) a = pick("LayRedThree") || pick("UndoOpening") || pick("Unstage");
  if (!a && L.some((x) => x.type === "Discard")) {
    const rank = (card) => card.slice(0, -1);
    const count = {};
    for (const card of c.view.hand) count[rank(card)] = (count[rank(card)] || 0) + 1;
    const wild = (card) => card === "Jk" || rank(card) === "2";
    // keep wild cards and the ranks held most; discard from the smallest group
    const order = L.filter((x) => x.type === "Discard").sort((x, y) =>
      (wild(x.card) - wild(y.card)) || (count[rank(x.card)] - count[rank(y.card)]));
    a = order[0];
  }
  a = a || pick("Pass") || L[0];
  c.send(a);
  return a.type;
}"""

MELD_COUNTS_JS = "() => parlour.view ? parlour.view.sides.map((s) => s.melds.length) : []"


def samba_table(server: Any, bot: str = "random") -> dict[str, Any]:
    return server.post(  # type: ignore[no-any-return]
        "/api/tables",
        {
            "game": "samba",
            "options": {"max_hands": 1},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * 3,
        },
    )


def steer(
    page: Any, done: Any, goal: str, stop: int = 0, phase: str = "meld", timeout: float = 40
) -> bool:
    """Play our seat with the policy until ``done(state)`` holds at our turn in ``phase`` (True),
    or the match ends (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        st = table_state(page)
        if st is None:
            page.wait_for_timeout(20)
            continue
        if st["finished"]:
            return False
        mine = st["legal"] and not st["pending"] and not st["queue"]
        at_phase = mine and st["phase"] == phase
        if at_phase and not page.evaluate("parlour.view.pending.length") and done(st):
            return True
        if page.locator("#hand-end-close").count():
            page.locator("#hand-end-close").click()
        if page.evaluate(SAMBA_POLICY_JS, [goal, stop]) is None:
            page.wait_for_timeout(15)
    raise AssertionError(f"no such position within {timeout}s; last state {table_state(page)}")


def many_melds_position(page: Any, server: Any, melds: int = 6, hand: int = 9) -> dict[str, Any]:
    """A Samba table mid-hand at our turn to meld, each side with at least ``melds`` melds and
    our hand at least ``hand`` cards (a new table when a hand ends first)."""
    for _ in range(10):
        t = samba_table(server)
        page.goto(server.base + seat_path(t))
        wait_state(page)

        def enough(st: dict[str, Any]) -> bool:
            counts = page.evaluate(MELD_COUNTS_JS)
            return min(counts) >= melds and len(st["hand"]) >= hand

        if steer(page, enough, "melds", stop=melds + 1):
            return t
    raise AssertionError("ten Samba hands ended before the position was reached")


BOXES_JS = """(sels) => {
  const out = {};
  for (const s of sels) {
    const e = document.querySelector(s);
    if (!e) { out[s] = null; continue; }
    const b = e.getBoundingClientRect();
    out[s] = {top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height};
  }
  out.cards = [...document.querySelectorAll("#hand .card")].map((e) => {
    const b = e.getBoundingClientRect();
    return {card: e.dataset.card, top: b.top, bottom: b.bottom, left: b.left, right: b.right};
  });
  out.buttons = [...document.querySelectorAll("#actions button")].map((e) => {
    const b = e.getBoundingClientRect();
    return {text: e.innerText, top: b.top, bottom: b.bottom};
  });
  out.vw = innerWidth;
  out.vh = innerHeight;
  out.scroll = document.scrollingElement.scrollHeight;
  return out;
}"""


def assert_dock_on_screen(page: Any, where: str) -> dict[str, Any]:
    """The hand (every card of it) and the action bar (every button) lie inside the window, and
    the page itself does not scroll (the table scrolls inside it)."""
    page.wait_for_timeout(120)  # a redraw after the resize, if any
    b = page.evaluate(BOXES_JS, ["#hand", "#actions", "#dock", "#turn-banner"])
    vw, vh = b["vw"], b["vh"]
    assert b["scroll"] <= vh + 1, f"{where}: the page scrolls ({b['scroll']}px in {vh}px)"
    for name in ("#hand", "#actions", "#turn-banner"):
        box = b[name]
        assert box is not None and box["height"] > 0, f"{where}: no {name}"
        assert box["top"] >= 0 and box["bottom"] <= vh + 0.5, f"{where}: {name} {box} not in {vh}px"
    assert b["cards"], f"{where}: no cards in the hand"
    for c in b["cards"]:
        assert c["top"] >= -15 and c["bottom"] <= vh + 0.5, f"{where}: {c} off screen"
        assert c["left"] >= 0 and c["right"] <= vw + 0.5, f"{where}: {c} off screen"
    for btn in b["buttons"]:
        assert btn["top"] >= 0 and btn["bottom"] <= vh + 0.5, f"{where}: {btn} off screen"
    no_horizontal_scroll(page)
    return b


@pytest.mark.parametrize(("melds", "hand"), [(6, 9), (3, 18)], ids=["many-melds", "big-hand"])
def test_hand_and_actions_always_on_screen_with_many_melds(
    browser: Any, server: Any, artifacts: Path, melds: int, hand: int
) -> None:
    """Issue 17 blocking item 1: mid-hand in Samba with many melds on both sides (six or more
    each), or with a big hand (eighteen cards or more, the pile taken), the hand and the action
    bar are inside the window without scrolling, from 360×640 to 2560×1440; the melds scroll on
    their own above the dock."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        many_melds_position(page, server, melds=melds, hand=hand)
        counts = page.evaluate(MELD_COUNTS_JS)
        # A card selected: the bar holds the moves for it (discard, add to a meld…).
        card = table_state(page)["hand"][0]
        click_card(page, card)
        page.wait_for_selector("#actions button.action")
        for w, hgt in VIEWPORTS:
            page.set_viewport_size({"width": w, "height": hgt})
            page.wait_for_timeout(120)  # the redraw after the resize, if any
            shot = f"blocking-samba-{'melds' if hand < 18 else 'big-hand'}-{w}x{hgt}.png"
            page.screenshot(path=str(artifacts / shot))
            b = assert_dock_on_screen(page, f"{w}×{hgt} with melds {counts}")
            assert any("Discard" in x["text"] for x in b["buttons"]), b["buttons"]
            # The melds are there, scrolling inside the felt when they do not fit.
            assert page.locator("#melds .meld").count() == sum(counts)
        # The felt scrolls on its own: its last meld can be brought into view, and the dock
        # stays where it was.
        page.set_viewport_size({"width": 1280, "height": 900})
        dock_top = page.evaluate("document.querySelector('#dock').getBoundingClientRect().top")
        page.locator("#melds .meld").last.scroll_into_view_if_needed()
        assert page.evaluate("document.querySelector('#dock').getBoundingClientRect().top") == (
            pytest.approx(dock_top, abs=1)
        )
        assert_dock_on_screen(page, "1280×900 with the felt scrolled")
    finally:
        context.close()


HANDFOOT_POLICY_JS = """() => {
  const c = window.parlour;
  if (!c || !c.view || c.pending || (c.queue || []).length || !c.legal || !c.legal.length) return null;
  if (c.view.to_act !== c.seat) return null;
  const L = c.legal.map((l) => l.action);
  const pick = (t) => L.find((a) => a.type === t);
  const a = pick("TakePile") || pick("Draw") || pick("Meld") || pick("AddToMeld") || pick("Retract")
    || pick("Discard") || L[0];
  c.send(a);
  return a.type;
}"""


def test_hand_and_foot_hand_stays_on_screen(browser: Any, server: Any, artifacts: Path) -> None:
    """Issue 17 blocking item 1, Hand and Foot (its page grew to ~1,400 px): after a dozen of our
    turns with melds on the table, the hand and the action bar are inside the window at every
    size."""
    t = server.post(
        "/api/tables",
        {
            "game": "handfoot",
            "options": {"max_hands": 1},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        },
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(server.base + seat_path(t))
        wait_state(page)
        ours = 0
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            st = table_state(page)
            melds = page.evaluate("parlour.view.sides.map((s) => s.melds.length)")
            if st["finished"] or (ours >= 12 and sum(melds) >= 4 and st["legal"]):
                break
            if page.locator("#hand-end-close").count():
                page.locator("#hand-end-close").click()
            if page.evaluate(HANDFOOT_POLICY_JS):
                ours += 1
            else:
                page.wait_for_timeout(15)
        st = table_state(page)
        assert not st["finished"], "the hand ended before the position"
        click_card(page, st["hand"][0])  # the moves with that card in the bar
        page.wait_for_selector("#actions button.action")
        for w, hgt in VIEWPORTS:
            page.set_viewport_size({"width": w, "height": hgt})
            page.wait_for_timeout(120)
            page.screenshot(path=str(artifacts / f"blocking-handfoot-{w}x{hgt}.png"))
            assert_dock_on_screen(page, f"Hand and Foot {w}×{hgt}")
    finally:
        context.close()


# --- item 2: every move of the selection in the action bar, on a phone ----------------------------


def action_cards(action: dict[str, Any]) -> list[str]:
    """The cards of a Samba action (as generic.js reads them)."""
    cards = [action["card"]] if "card" in action else []
    return cards + list(action.get("pair", [])) + list(action.get("cards", []))


def stageable(st: dict[str, Any], cards: list[str]) -> bool:
    return all(any(a["type"] == "Stage" and a["card"] == c for a in st["legal"]) for c in cards)


def triple_position(page: Any, server: Any, phase: str = "meld") -> list[str]:
    """Our turn (in ``phase``) with three naturals of one rank in the hand that may start a
    meld; returns them."""
    found: list[str] = []

    def ready(st: dict[str, Any]) -> bool:
        triple = same_rank_triple(st["hand"])
        if not triple or (phase == "meld" and not stageable(st, triple)):
            return False
        found[:] = triple
        return True

    for _ in range(6):
        t = samba_table(server)
        page.goto(server.base + seat_path(t))
        wait_state(page)
        if steer(page, ready, "collect", phase=phase):
            return found
    raise AssertionError("six Samba hands ended before a triple came")


def wait_selected(page: Any, n: int) -> None:
    """Until ``n`` cards are selected and the hand is drawn so."""
    page.wait_for_function(
        """(n) => window.parlour.selected.length === n
          && document.querySelectorAll('#hand .card.selected').length === n""",
        arg=n,
    )


def tap_card(page: Any, card: str) -> None:
    page.locator(f'#hand .card[data-card="{card}"]:not(.selected)').first.tap(
        position={"x": 6, "y": 20}
    )


def my_melds(page: Any) -> list[list[str]]:
    return page.evaluate(  # type: ignore[no-any-return]
        """() => { const v = parlour.view; const side = v.players[parlour.seat].side;
          return v.sides.find((s) => s.side === side).melds.map((m) => m.cards); }"""
    )


def settled(page: Any, timeout: float = 10) -> None:
    """Until the page sends nothing more (a sequence of actions finished or stopped)."""
    page.wait_for_function(
        "!window.parlour.pending && !(window.parlour.queue || []).length", timeout=timeout * 1000
    )
    page.wait_for_timeout(60)


def test_phone_every_move_of_the_selection_is_in_the_action_bar(
    browser: Any, server: Any, artifacts: Path
) -> None:
    """Issue 17 blocking item 2: on a 390×844 phone, with cards selected, every move they allow
    is a button in the action bar, on screen — one card: each legal move with exactly that card;
    three of a rank: "Meld …" (which was hidden under the docked bar while the bar said "No
    legal move uses exactly the selected cards")."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        triple = triple_position(page, server)
        st = table_state(page)
        vh = PHONE["height"]

        def bar() -> list[dict[str, Any]]:
            page.wait_for_timeout(60)
            return page.evaluate(  # type: ignore[no-any-return]
                """() => [...document.querySelectorAll('#actions button')].map((b) => {
                  const r = b.getBoundingClientRect();
                  return {type: b.dataset.type, id: b.id, text: b.innerText, top: r.top,
                          bottom: r.bottom, combo: b.classList.contains('combo')}; })"""
            )

        # One card: its discard, its start of a meld, each meld it can go on…
        one = triple[0]
        tap_card(page, one)
        want = Counter(a["type"] for a in st["legal"] if action_cards(a) == [one])
        assert want["Discard"] == 1 and want["Stage"] == 1, want
        buttons = bar()
        assert Counter(b["type"] for b in buttons if not b["combo"] and b["type"] in want) == want
        for b in buttons:
            assert b["top"] >= 0 and b["bottom"] <= vh, f"{b} is off the screen"
        page.locator("#clear-selection").tap()

        # Three of a rank: "Meld …" in the bar, on screen; no "no legal move" hint.
        for card in triple:
            tap_card(page, card)
        wait_selected(page, 3)
        buttons = bar()
        meld = [b for b in buttons if b["id"] == "meld-new"]
        assert meld, buttons
        assert meld[0]["text"].startswith(f"Meld {' '.join(triple)}")
        assert meld[0]["top"] >= 0 and meld[0]["bottom"] <= vh
        assert "No legal move" not in page.locator("#actions").inner_text()
        assert page.locator("#melds #meld-new").count() == 0  # not down in the melds any more
        page.screenshot(path=str(artifacts / "blocking-phone-meld-button.png"))
        before = my_melds(page)
        page.locator("#actions #meld-new").tap()
        settled(page)
        error = table_state(page)["error"]
        if error:
            # the deal can make this triple a first meld the rest of the hand cannot bring to the
            # opening minimum (seed 002's minimum rule): the engine refuses its last card and the
            # page shows the rule — a legal refusal, not a hidden button (seen once in CI)
            assert "first meld" in error and "must reach" in error, error
            return
        after = my_melds(page)
        assert len(after) == len(before) + 1
        assert sorted(after[-1]) == sorted(triple)
    finally:
        context.close()


# --- item 3: a Samba meld of four or more cards in one click --------------------------------------


def four_of_a_rank(st: dict[str, Any]) -> list[str] | None:
    """Every natural of the rank we hold most of (four or more), plus one wild card if held."""
    by_rank: dict[str, list[str]] = {}
    wilds = [c for c in st["hand"] if c == "Jk" or c[:-1] == "2"]
    for c in st["hand"]:
        if c[:-1] not in ("2", "3") and c != "Jk":
            by_rank.setdefault(c[:-1], []).append(c)
    best = max(by_rank.values(), key=len, default=[])
    if len(best) < 4 or not stageable(st, best):
        return None
    return best + wilds[:1]


def big_meld_position(page: Any, server: Any) -> list[str]:
    found: list[str] = []

    def ready(st: dict[str, Any]) -> bool:
        cards = four_of_a_rank(st)
        found[:] = cards or []
        return bool(cards)

    for _ in range(8):
        t = samba_table(server)
        page.goto(server.base + seat_path(t))
        wait_state(page)
        if steer(page, ready, "collect", timeout=60):
            return found
    raise AssertionError("eight Samba hands ended before four of a rank came")


def test_samba_meld_of_four_or_more_in_one_click(page: Any, server: Any, artifacts: Path) -> None:
    """Issue 17 blocking item 3: four or more selected cards (all the naturals of a rank, and a
    wild card when held) become one new meld with one click on "Meld …" — the page stages three,
    then adds the rest to the meld just made (the fourth card used to fail with "… cannot become
    a meld")."""
    cards = big_meld_position(page, server)
    before = my_melds(page)
    hand = table_state(page)["hand"]
    for c in cards:
        click_card(page, c)
    wait_selected(page, len(cards))
    page.screenshot(path=str(artifacts / "blocking-samba-big-meld-selected.png"))
    page.locator("#meld-new").click()  # the one click
    settled(page)
    st = table_state(page)
    assert not st["error"], st["error"]
    after = my_melds(page)
    assert len(after) == len(before) + 1, after
    assert Counter(after[-1]) == Counter(cards)
    assert Counter(st["hand"]) == Counter(hand) - Counter(cards)
    page.screenshot(path=str(artifacts / "blocking-samba-big-meld-done.png"))


#: Rewrite the page's ``n``-th action message from now on into a move the server refuses.
SPOIL_JS = """(n) => {
  const send = WebSocket.prototype.send;
  let seen = 0;
  WebSocket.prototype.send = function (data) {
    const msg = JSON.parse(data);
    if (msg.type === "action" && ++seen === n) {
      msg.action = { type: "Stage", card: "Q♠", note: "spoiled" };
      const held = window.parlour.view.hand.includes("Q♠");
      if (held) msg.action.card = "nope";
      data = JSON.stringify(msg);
      WebSocket.prototype.send = send;
    }
    return send.call(this, data);
  };
}"""


def test_samba_big_meld_refused_midway_recovers(page: Any, server: Any) -> None:
    """Issue 17 blocking item 3, a refusal mid-sequence: the server refuses the second step of a
    four-card meld; the page shows the rule, stops, gives back the selection of the cards not
    played, asks for the whole state again (the refusal stays in the log), and one more click on
    "Meld …" finishes the same meld."""
    cards = big_meld_position(page, server)
    before = my_melds(page)
    for c in cards:
        click_card(page, c)
    wait_selected(page, len(cards))
    resets = page.evaluate("window.parlour.logResets || 0")
    page.evaluate(SPOIL_JS, 2)
    page.locator("#meld-new").click()
    page.wait_for_selector("#error")
    settled(page)
    rule = page.locator("#error").inner_text()
    assert rule, "no rule shown"
    page.wait_for_function(f"(window.parlour.logResets || 0) > {resets}")  # the resync
    assert rule in page.locator("#log").inner_text()
    st = table_state(page)
    staged = page.evaluate("parlour.view.pending")
    assert len(staged) == 1 and staged[0] in cards
    left = list((Counter(cards) - Counter(staged)).elements())
    assert Counter(page.evaluate("parlour.selected")) == Counter(left)
    assert any(a["type"] == "Unstage" for a in st["legal"])  # the unfinished meld can be undone
    # The rest of the same meld, with one more click.
    page.locator("#meld-new").click()
    settled(page)
    assert not table_state(page)["error"]
    after = my_melds(page)
    assert len(after) == len(before) + 1
    assert Counter(after[-1]) == Counter(cards)


# --- item 4: Cheat picks chosen freely, taken back, sent in the engine's order ---------------------

CARD_ORDER = {s: i for i, s in enumerate("♣♦♥♠")}
RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}


def engine_kind(card: str) -> int:
    """The engine's card order (2♣ … A♣ 2♦ … A♠, then jokers)."""
    if card == "Jk":
        return 52
    rank = RANKS.get(card[:-1]) or int(card[:-1])
    return CARD_ORDER[card[-1]] * 13 + rank - 2


def test_cheat_picks_in_any_order_and_take_back(page: Any, server: Any, artifacts: Path) -> None:
    """Issue 17 blocking item 4: Cheat cards are picked for a play in any order and a pick can
    be taken back, all in this browser (nothing is sent); the claim then sends the picks in the
    engine's order and the claim (two cards picked high-then-low used to fail with "pick cards
    in order … 8♦ comes before 3♥" and could not be undone). Answering a play: "Let it stand (P)" and
    "Cheat! (challenge) (C)" on the buttons, and the P key passes."""
    t = server.post(
        "/api/tables",
        {
            "game": "cheat",
            "players": 3,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2,
        },
    )
    sent: list[dict[str, Any]] = []  # the page's action messages
    states: dict[int, dict[str, Any]] = {}  # the states it received, by version

    def watch(ws: Any) -> None:
        def out(payload: Any) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "action":
                sent.append(msg["action"])

        whole = Whole()  # the page asks for deltas: made whole as the page does

        def back(payload: Any) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "state":
                states[msg["version"]] = whole(msg)

        ws.on("framesent", out)
        ws.on("framereceived", back)

    page.on("websocket", watch)
    page.goto(server.base + seat_path(t))
    wait_state(page)

    def our_turn(want_play: bool) -> dict[str, Any]:
        """Wait for our play (answering the others' plays meanwhile), or, without ``want_play``,
        for a play to answer: with the P key, the keys shown on the buttons."""
        deadline = time.monotonic() + 30
        while True:
            assert time.monotonic() < deadline, f"our turn never came: {table_state(page)}"
            st = table_state(page)
            types = {a["type"] for a in st["legal"]}
            if st["pending"] or not types:
                page.wait_for_timeout(20)
                continue
            if "Pass" in types:  # a play to answer
                pass_button = page.locator('#actions button[data-type="Pass"]')
                pass_button.wait_for()
                if want_play:
                    pass_button.click()
                else:  # the keys shown on the buttons, and P passes
                    assert pass_button.inner_text() == "Let it stand (P)"
                    challenge = page.locator('#actions button[data-type="Challenge"]')
                    assert challenge.inner_text() == "Cheat! (challenge) (C)"
                    page.keyboard.press("p")
                page.wait_for_function(f"window.parlour.version > {st['version']}")
                if not want_play:
                    return st
                continue
            play = page.evaluate("parlour.view.phase") == "play" and len(st["hand"]) >= 2
            if want_play and play:
                return st
            if play:  # our play while waiting for an answer: one card, claimed truthfully or not
                click_card(page, st["hand"][0])
                page.locator("#actions button.claim").first.click()
                page.wait_for_function(f"window.parlour.version > {st['version']}")
            page.wait_for_timeout(20)

    st = our_turn(want_play=True)
    must = page.evaluate("parlour.view.must_include")
    hand = sorted(set(st["hand"]), key=engine_kind)
    low, high = (must, hand[-1]) if must else (hand[0], hand[-1])
    assert engine_kind(low) < engine_kind(high)
    version = st["version"]

    def pressed(card: str) -> str | None:
        return page.locator(f'#hand .card[data-card="{card}"]').first.get_attribute("aria-pressed")

    # The engine's later card first, then the earlier one: both selected, nothing sent.
    click_card(page, high)
    click_card(page, low)
    page.wait_for_timeout(150)
    assert table_state(page)["version"] == version, "a pick was sent before the claim"
    wait_selected(page, 2)
    assert pressed(high) == "true" and pressed(low) == "true"
    claims = page.locator("#actions button.claim")
    assert claims.count() >= 1
    assert claims.first.inner_text().startswith("Claim 2 ×")
    # Taken back, chosen again: still nothing sent.
    page.locator(f'#hand .card.selected[data-card="{high}"]').first.click(
        position={"x": 7, "y": 24}
    )
    wait_selected(page, 1)
    assert pressed(high) == "false"
    assert page.locator("#actions button.claim").first.inner_text().startswith("Claim 1 ×")
    click_card(page, high)
    wait_selected(page, 2)
    assert table_state(page)["version"] == version
    sent_before = len(sent)
    page.screenshot(path=str(artifacts / "blocking-cheat-selected.png"))
    rank = int(claims.first.get_attribute("data-rank"))
    claims.first.click()
    # Sent only now: the picks in the engine's order, then the claim; each one accepted.
    page.wait_for_function(f"window.parlour.version >= {version + 3}")
    settled(page)
    assert not table_state(page)["error"]
    assert sent[sent_before:] == [
        {"type": "Pick", "card": low},
        {"type": "Pick", "card": high},
        {"type": "Claim", "count": 2, "rank": rank},
    ]
    claimed = states[version + 3]
    mine = [c for c in claimed["view"]["claims"] if c["seat"] == st["seat"]]
    assert (mine[-1]["count"], mine[-1]["rank"]) == (2, rank)
    assert Counter(claimed["view"]["hand"]) == Counter(st["hand"]) - Counter([low, high])
    if not table_state(page)["finished"]:
        our_turn(want_play=False)  # the keys for answering a play


# --- item 5: the keyboard ------------------------------------------------------------------------

FOCUS_JS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return {where: "body", at: -1, card: null, id: null};
  const cards = [...document.querySelectorAll('#hand button.card')];
  return {where: e.closest('#hand') ? 'hand' : e.id || e.tagName, at: cards.indexOf(e),
          card: e.dataset.card || null, id: e.id || null};
}"""


def keyboard_meld(page: Any, cards: list[str]) -> list[str]:
    """Select ``cards`` and meld them with the keyboard alone, the shortest way the page allows:
    the card's rank to jump to it (else H to reach the hand, else Tab), the arrows along the hand
    (else Tab), Space to select, M to meld (else Tab to the "Meld" button and Enter). Each way is
    tried once and dropped if it does nothing. Returns the keys pressed."""
    keys: list[str] = []
    works = {"rank": True, "h": True, "arrows": True}

    def press(key: str) -> None:
        keys.append(key)
        page.keyboard.press(key)
        page.wait_for_timeout(50)  # the page's redraw
        assert len(keys) < 400, "the card could not be reached"

    def at() -> int:
        return page.evaluate(FOCUS_JS)["at"]  # type: ignore[no-any-return]

    def hand() -> list[tuple[str, bool]]:
        return [
            (c, sel)
            for c, sel in page.evaluate(
                "[...document.querySelectorAll('#hand button.card')]"
                ".map((e) => [e.dataset.card, e.classList.contains('selected')])"
            )
        ]

    shown = [c for c, _ in hand()]
    for card in sorted(cards, key=shown.index):  # as a person would: left to right
        goal = next(i for i, (c, sel) in enumerate(hand()) if c == card and not sel)
        if at() != goal and works["rank"]:
            before = at()
            press("0" if card[:-1] == "10" else card[:-1].lower())
            works["rank"] = at() != before
        if at() < 0 and works["h"]:
            press("h")
            works["h"] = at() >= 0
        while at() != goal:
            now = at()
            if now >= 0 and works["arrows"]:
                press("ArrowRight" if goal > now else "ArrowLeft")
                if at() != now:
                    continue
                works["arrows"] = False
            press("Tab")
        press("Space")
    v = page.evaluate("parlour.version")
    press("m")
    if not page.evaluate(f"parlour.pending || parlour.version > {v}"):
        while page.evaluate(FOCUS_JS)["id"] != "meld-new":
            press("Tab")
        press("Enter")
    return keys


def test_keyboard_focus_shortcuts_and_live_log(page: Any, server: Any, artifacts: Path) -> None:
    """Issue 17 blocking item 5: focus survives every redraw (it used to fall to <body> after each
    action); the common moves have keys shown on their buttons ("Draw (D)", "Meld … (M)");
    selected cards have aria-pressed; the log, not the felt, is the live region and only new lines
    are added to it. A three-card meld by keyboard takes at most 8 keys, wherever the cards are
    in the hand (before: Tab through the whole table again after every card)."""
    triple_position(page, server, phase="draw")
    assert page.locator("#felt").get_attribute("aria-live") is None
    assert page.locator("#log").get_attribute("aria-live") == "polite"
    page.evaluate("document.querySelector('#log').dataset.probe = 'same list'")
    lines = page.locator("#log li").count()

    # Draw with D, the keyboard on a hand card: the same card keeps the focus after the redraw.
    draw = page.locator('#actions button[data-type="Draw"]')
    assert draw.inner_text().endswith("(D)") and draw.get_attribute("aria-keyshortcuts") == "D"
    page.keyboard.press("h")
    focused = page.evaluate(FOCUS_JS)
    assert focused["where"] == "hand"
    v = table_state(page)["version"]
    page.keyboard.press("d")
    page.wait_for_function(f"window.parlour.version > {v} && !window.parlour.pending")
    page.wait_for_timeout(60)
    now = page.evaluate(FOCUS_JS)
    assert now["where"] == "hand" and now["card"] == focused["card"], now

    # The meld by keyboard: Space keeps the focus on the card it selected (aria-pressed).
    st = table_state(page)
    rank = (same_rank_triple(st["hand"]) or ["?"])[0][:-1]
    # the first three cards of that rank as the hand shows them (grouped by rank, side by side)
    shown = page.evaluate(
        "[...document.querySelectorAll('#hand button.card')].map((e) => e.dataset.card)"
    )
    triple = [c for c in shown if c[:-1] == rank][:3]
    assert len(triple) == 3 and stageable(st, triple), (rank, shown)
    before = my_melds(page)
    keys = keyboard_meld(page, triple)
    settled(page)
    assert not table_state(page)["error"]
    after = my_melds(page)
    assert len(after) == len(before) + 1 and sorted(after[-1]) == sorted(triple)
    print(f"keys for a three-card meld: {len(keys)}: {' '.join(keys)}")
    assert len(keys) <= 8, keys
    # The cards melded left the hand: the focus is on a card of the hand, not on <body>.
    assert page.evaluate(FOCUS_JS)["where"] == "hand"

    # Space selects and the focus stays; aria-pressed says so; Escape clears the selection.
    page.keyboard.press("Space")
    wait_selected(page, 1)
    page.wait_for_timeout(60)
    focus = page.evaluate(FOCUS_JS)
    assert focus["where"] == "hand"
    card = page.locator("#hand button.card").nth(focus["at"])
    assert card.get_attribute("aria-pressed") == "true"
    assert page.locator("#hand button.card[aria-pressed='false']").count() == (
        page.locator("#hand button.card").count() - 1
    )
    page.screenshot(path=str(artifacts / "blocking-keyboard.png"))
    page.keyboard.press("Escape")
    wait_selected(page, 0)
    page.wait_for_timeout(60)
    assert card.get_attribute("aria-pressed") == "false"
    assert page.evaluate(FOCUS_JS)["where"] == "hand"

    # The log is the same list, grown at the top: only the new lines are announced.
    assert page.locator("#log").get_attribute("data-probe") == "same list"
    assert page.locator("#log li").count() > lines
