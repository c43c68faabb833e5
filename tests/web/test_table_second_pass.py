"""Issue 17, the table page's second pass: seeing what just happened, words instead of internals,
the Samba opening count and the pile rules, score sheets that explain themselves, the flow around
a match (rematch, the lobby, bots waiting while a score sheet is read, a table's speed, the
creator seated at once), errors (the reconnect banner, a spectator never sees a seat's prompts)
and card faces (two indices, pips clear of them, court cards, readable known cards).

Each test drives the page as a person would (clicks, keys), with positions reached quickly by a
small policy sent through the page, as in ``test_blocking``."""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.driver import (
    click_card,
    play_scat_to_the_end,
    same_rank_triple,
    scat_discard,
    scat_move,
    seat_path,
    table_state,
    wait_seat,
    wait_state,
)
from tests.web.test_blocking import samba_table, stageable, steer, wait_selected

pytestmark = pytest.mark.browser

#: records every anim-* class the page puts on an element (the animations are short)
ANIMATIONS_JS = """
window.__anims = [];
new MutationObserver((records) => {
  for (const r of records) {
    const el = r.target;
    if (!el.classList) continue;
    for (const c of el.classList) if (c.startsWith("anim-")) window.__anims.push(c);
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["class"] });
"""


def my_turn(page: Any, types: set[str], timeout: float = 20) -> dict[str, Any]:
    """Wait for our turn with one of ``types`` legal (closing hand-end screens)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("#hand-end-close").count():
            page.locator("#hand-end-close").click()
        st = table_state(page)
        if st and not st["pending"] and not st["queue"]:
            legal = {a["type"] for a in st["legal"]}
            if legal & types:
                return st
            if "AnswerGoOut" in legal:  # a partner asks to go out: "no", the hand goes on
                page.locator('button.action[data-type="AnswerGoOut"]', has_text="No").click()
        page.wait_for_timeout(20)
    raise AssertionError(f"not our turn with {types}: {table_state(page)}")


def opened_triple_position(page: Any, server: Any) -> list[str]:
    """Our turn to meld, our side opened, three naturals of one rank in the hand that may start
    a meld (so that the turn can end with a discard after it)."""
    found: list[str] = []

    def ready(st: dict[str, Any]) -> bool:
        triple = same_rank_triple(st["hand"])
        opened = page.evaluate(
            "parlour.view.sides.find((s) => s.seats.includes(parlour.seat)).opened"
        )
        if not opened or not triple or not stageable(st, triple):
            return False
        found[:] = triple
        return True

    for _ in range(10):
        t = samba_table(server)
        page.goto(server.base + seat_path(t))
        wait_state(page)
        if steer(page, ready, "melds", stop=2):
            return found
    raise AssertionError("ten Samba hands ended before the position came")


# --- 1. see what just happened ------------------------------------------------------------------


def test_moves_are_animated_new_cards_marked_and_last_moves_shown(
    page: Any, server: Any, artifacts: Path
) -> None:
    page.add_init_script(ANIMATIONS_JS)
    for _ in range(3):
        triple = opened_triple_position(page, server)
        hands = table_state(page)["hands"]
        # Your turn: the tab's title says so; no sound unless asked for.
        assert page.title().startswith("● Your turn"), page.title()
        # The three of a rank become a meld: it appears with a short animation.
        for c in triple:
            click_card(page, c)
        wait_selected(page, 3)
        page.click("#meld-new")
        page.wait_for_function("!(window.parlour.queue || []).length && !window.parlour.pending")
        st = my_turn(page, {"Discard"})
        card = next(a["card"] for a in st["legal"] if a["type"] == "Discard")
        click_card(page, card)
        page.click("#pile")
        # The others play; each player box shows its last move, the latest mover highlighted.
        st = my_turn(page, {"Draw"}, timeout=30)
        page.wait_for_timeout(50)
        if table_state(page)["hands"] == hands:
            break  # (else the hand ended before our next turn: another table)
    else:
        raise AssertionError("three hands ended before our next turn")
    moves = page.locator('#players .player[data-seat="0"] .last-move').all_inner_texts()
    assert moves == [f"You discard {card}"], moves
    assert page.locator("#players .player.just-moved").count() == 1
    assert page.evaluate("window.parlour.beeps || 0") == 0
    # Draw: the cards drawn are marked "new" in the hand (and said so to screen readers).
    before = st["hand"]
    page.click("#stock")
    page.wait_for_function(f"window.parlour.view.hand.length > {len(before)}")
    page.wait_for_timeout(50)
    drawn = list(table_state(page)["hand"])
    for c in before:
        drawn.remove(c)
    fresh = page.locator("#hand .card.fresh")
    assert sorted(fresh.evaluate_all("(els) => els.map((e) => e.dataset.card)")) == sorted(drawn)
    labels = fresh.evaluate_all("(els) => els.map((e) => e.getAttribute('aria-label'))")
    assert all(label.endswith(", new") for label in labels), labels
    anims = set(page.evaluate("window.__anims"))
    assert {"anim-draw", "anim-meld", "anim-discard"} <= anims, anims
    page.screenshot(path=str(artifacts / "table-last-moves.png"))
    # The movements are CSS animations, none when the system asks for reduced motion.
    probe = """() => {
      const el = document.createElement("div");
      el.className = "card anim-draw";
      document.body.append(el);
      const name = getComputedStyle(el).animationName;
      el.remove();
      return name;
    }"""
    assert page.evaluate(probe) == "card-draw"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(probe) == "none"
    # The optional sound: off by default, on from the Table tab.
    page.click('.tabs button[data-tab="info"]')
    assert not page.locator("#turn-sound").is_checked()
    page.check("#turn-sound")
    page.click('.tabs button[data-tab="log"]')
    st = my_turn(page, {"Discard"})
    card = next(a["card"] for a in st["legal"] if a["type"] == "Discard")
    click_card(page, card)
    page.click("#pile")
    my_turn(page, {"Draw", "TakePile"}, timeout=30)
    page.wait_for_function("(window.parlour.beeps || 0) >= 1")
    assert page.title().startswith("● Your turn")


# --- 2. words, not internals --------------------------------------------------------------------


SAY = [
    ("seat 0 discards 6♦", "You discard 6♦"),
    ("South: discard 6♦", "You discard 6♦"),
    ("seat 2 takes 1 more cards from the pile", "Your partner takes 1 more card from the pile"),
    ("seat 1 draws 2", "West draws 2 cards"),
    ("seat 1's side has opened with 80", "West's side has opened with 80"),
    ("seat 2's side has opened with 80", "Your side has opened with 80"),
    (
        "seat 2 challenges seat 0: A♣ A♠ — it was true",
        "Your partner challenges you: A♣ A♠ — it was true",
    ),
    ("hand 1 (knock): seat 0 loses 1", "Hand 1 (knock): you lose 1"),
    ("the game is over (went_out)", "The game is over (went out)"),
    ("you draw 5♥ Q♥", "You draw 5♥ Q♥"),
    ("South lays out 3♥ and draws replacements", "You lay out 3♥ and draw replacements"),
    ("seat 0 melds 4♥ 4♣ and 4s", "You meld 4♥ 4♣ and 4s"),
]


def test_log_and_rules_in_words(page: Any, server: Any) -> None:
    t = samba_table(server)
    page.goto(server.base + seat_path(t))
    wait_state(page)
    for text, want in SAY:
        assert page.evaluate("(t) => window.parlour.say(t)", text) == want, text
    # What the page shows: no "seat N", no snake_case in the log.
    st = my_turn(page, {"Draw"})
    page.click("#stock")
    st = my_turn(page, {"Discard"})
    card = next(a["card"] for a in st["legal"] if a["type"] == "Discard")
    click_card(page, card)
    page.click("#pile")
    page.wait_for_function("window.parlour.view.to_act === 0 || window.parlour.outcome.finished")
    log = page.locator("#log").inner_text()
    assert f"You discard {card}" in log, log[:500]
    assert not re.search(r"\b[Ss]eat \d|\w_\w", log), log
    # The Table tab: the rules as sentences, each option's meaning, no JSON, no source notes.
    page.click('.tabs button[data-tab="info"]')
    rules = page.locator("#rules-text")
    rules.wait_for()
    page.wait_for_function("document.querySelector('#rules-text').innerText.includes('—')")
    text = rules.inner_text()
    # each option by the rules page's label and meaning (docs/rules/samba.md, "Options")
    assert '"May I go out?"' in text and "Going-out requirement" in text
    assert "two canastas" in text  # a value in words, not "two_canastas"
    assert "may ask their partner for permission to go out" in text  # the option's meaning
    # no JSON (an option's label may quote what a player says: "May I go out?")
    assert not re.search(r"\w_\w|\btrue\b|\bfalse\b|\bnull\b|[{}]|\":|\bseed \d", text), text
    assert (
        page.locator('#rules-text dt[data-option="partner_permission"] + dd b').inner_text()
        == "yes"
    )


# --- 3. Samba opening and the pile rules --------------------------------------------------------


def test_samba_opening_count_and_pile_requirement(page: Any, server: Any) -> None:
    def unopened(st: dict[str, Any]) -> bool:
        return not page.evaluate(
            "parlour.view.sides.find((s) => s.seats.includes(parlour.seat)).opened"
        )

    def reach(done: Any, phase: str) -> None:
        """A table where ``done`` comes true at our turn in ``phase`` (new tables until then)."""
        for _ in range(8):
            t = samba_table(server)
            page.goto(server.base + seat_path(t))
            wait_state(page)
            if steer(page, done, "collect", phase=phase):
                return
        raise AssertionError("no such position in eight hands")

    # Before drawing: what the side needs and what taking the pile takes.
    reach(unopened, "draw")
    prompt = page.locator("#opening-prompt")
    need = page.evaluate(
        "parlour.view.sides.find((s) => s.seats.includes(parlour.seat)).opening_minimum"
    )
    assert f"first melds must reach {need} points" in prompt.inner_text()
    assert re.search(
        r"To take the pile you need two natural|cannot be taken now", prompt.inner_text()
    )
    assert "Card values: joker 50, A and 2 = 20" in prompt.inner_text()

    # While melding: the running count, each meld and the meld being built with its points.
    def can_stage(st: dict[str, Any]) -> bool:
        return unopened(st) and any(a["type"] == "Stage" for a in st["legal"])

    if not steer(page, can_stage, "collect"):
        reach(can_stage, "meld")
    need = page.evaluate(
        "parlour.view.sides.find((s) => s.seats.includes(parlour.seat)).opening_minimum"
    )
    count = page.locator("#opening-count")
    assert count.inner_text() == f"Opening: melded 0 of {need}"
    stage = page.evaluate("parlour.legal.map((l) => l.action).find((a) => a.type === 'Stage').card")
    page.evaluate("(c) => parlour.send({type: 'Stage', card: c})", stage)
    page.wait_for_function("parlour.view.pending.length === 1 && !parlour.pending")
    # the prompt is redrawn after the state arrives: wait for the redraw, then read it
    page.wait_for_function(
        "document.querySelector('#opening-prompt').innerText.includes('being built')",
        timeout=5000,
    )
    text = page.locator("#opening-prompt").inner_text()
    assert f"being built {stage} = " in text, text
    # the take-back offered is explained
    assert "Take back the unfinished meld” returns the cards being built" in text, text
    melded = page.evaluate(
        "parlour.view.sides.find((s) => s.seats.includes(parlour.seat)).melds"
        ".reduce((n, m) => n + m.value, 0)"
    )
    assert page.locator("#opening-count").inner_text() == f"Opening: melded {melded} of {need}"
    assert int(page.locator("#opening-prompt").get_attribute("data-melded")) == melded


def test_hand_and_foot_pile_requirement_is_shown(page: Any, server: Any) -> None:
    t = server.post(
        "/api/tables",
        {"game": "handfoot", "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3},
    )
    page.goto(server.base + seat_path(t))
    wait_state(page)
    assert page.locator("#pile-take-rule").inner_text() == "8 cards needed to take the pile"
    my_turn(page, {"Draw"})
    rule = page.locator("#pile-rule").inner_text()
    assert re.search(r"8 cards needed to take the pile; it has \d+|You may take the pile", rule)


# --- 4. score sheets ------------------------------------------------------------------------------


SHEET_JS = """async () => {
  const { scoreSheet } = await import("/static/js/sheet.js");
  const outcome = {
    sides: [[0, 2], [1, 3]], scores: [1480, 395],
    hands: [{number: 0, scores: [1480, 395], note: "seat 1 went out", breakdown: [
      {cards_melded: 685, cards_in_hand: -305, sambas: 0, mixed_canastas: 600, red_threes: 500,
       going_out: 0, red_three_penalty: 0},
      {cards_melded: 630, cards_in_hand: -135, sambas: 0, mixed_canastas: 0, red_threes: -100,
       going_out: 0, red_three_penalty: 0}]}],
  };
  const c = { ...window.parlour, game: "samba", name: (s) => ["South", "West", "North", "East"][s] };
  const t = scoreSheet(outcome, c, { explain: true });
  document.body.append(t);
  const rows = [...t.querySelectorAll("tr[data-key]")].map((r) => r.dataset.key);
  const red = t.querySelector('tr[data-key="red_threes"]').innerText;
  const head = t.querySelector("tr.hand-head").innerText;
  t.remove();
  return { rows, red, head };
}"""


def test_score_sheets_explain_themselves(page: Any, server: Any) -> None:
    t = samba_table(server)
    page.goto(server.base + seat_path(t))
    wait_state(page)
    sheet = page.evaluate(SHEET_JS)
    # No rows of zeros; the red 3s say why they counted against a side; seats in words.
    assert sheet["rows"] == ["cards_melded", "cards_in_hand", "mixed_canastas", "red_threes"]
    assert "−100" in sheet["red"] and "going-out requirement" in sheet["red"]
    assert "West went out" in sheet["head"]


def test_scat_hand_end_shows_hand_values_and_bots_wait(
    page: Any, server: Any, artifacts: Path
) -> None:
    """The end of a Scat hand shows every hand shown with its value; while a player reads it the
    bots wait; closing it lets them go on."""
    t = server.post("/api/tables", {"game": "scat", "players": 4})
    page.goto(server.base + seat_path(t))
    wait_state(page)
    waited = False
    for _ in range(12):
        deadline = time.monotonic() + 60
        while not page.locator("#hand-end").count():
            assert time.monotonic() < deadline, "no hand ended"
            assert not page.locator("#match-end").count(), "the match ended first"
            st = table_state(page)
            if st and st["legal"] and not st["pending"]:
                try:
                    scat_move(page, st, timeout=3000, until="!!document.querySelector('#hand-end')")
                except Exception:
                    continue
            else:
                page.wait_for_timeout(20)
        last = page.evaluate("parlour.view.last_hand")
        page.screenshot(path=str(artifacts / "table-scat-hand-end.png"))
        values = page.locator("#hand-sheet tr.scat-values td").all_inner_texts()
        # a hand nobody had to show (the hand ended on a declared 31) has no value: a dash
        expected = ["—" if v is None else str(v) for v in last["values"]]
        assert values[1:] == expected, (values, last)
        shown = page.locator("#hand-sheet tr.scat-cards td").all_inner_texts()
        by_seat = {s["seat"]: " ".join(s["cards"]) for s in last["shown"]}
        assert shown[1:] == [by_seat.get(seat) or "—" for seat in range(len(last["values"]))]
        bot_next = page.evaluate(
            "parlour.view.to_act !== parlour.seat && parlour.view.to_act !== null"
        )
        if bot_next:
            v = page.evaluate("parlour.version")
            page.wait_for_function("parlour.table && parlour.table.held === true", timeout=3000)
            page.wait_for_timeout(1200)  # bots play every 0.01 s in these tests
            assert page.evaluate("parlour.version") == v, "a bot played while the sheet was open"
            page.click("#hand-end-close")
            page.wait_for_function(f"parlour.version > {v}", timeout=3000)
            waited = True
            break
        page.click("#hand-end-close")
    assert waited, "no hand ended with a bot to play next"


# --- 5. flow -----------------------------------------------------------------------------------


def test_rematch_and_back_to_the_lobby(page: Any, server: Any, artifacts: Path) -> None:
    t = server.post(
        "/api/tables",
        {"game": "scat", "players": 2, "options": {"lives": 1, "on_the_county": False}},
    )
    page.goto(server.base + seat_path(t))
    wait_state(page)
    play_scat_to_the_end(page)
    dialog = page.locator("#match-end")
    assert dialog.locator("#to-lobby").get_attribute("href") == "/"
    page.screenshot(path=str(artifacts / "table-match-end.png"))
    dialog.locator("#rematch").click()
    page.wait_for_url(lambda url: "/t/" in url and t["code"] not in url)
    new = page.evaluate("location.pathname.split('/').pop()")
    assert new != t["code"]
    assert wait_seat(page) == t["you"]["seat"]
    # the player who asked first made the table: this browser is its host (new invite links)
    seats = page.evaluate("JSON.parse(localStorage.getItem('parlour.seats'))")
    assert next(x for x in seats if x["code"] == new).get("host") is True
    wait_state(page)  # every human seat is here: the new match is dealt at once
    old = server.get(f"/api/tables/{t['code']}")
    assert old["rematch"] == new
    rec = server.get(f"/api/tables/{new}")
    assert rec["rules"] == old["rules"] and rec["game"] == "scat"
    assert [s["kind"] for s in rec["seats"]] == [s["kind"] for s in old["seats"]]
    assert rec["fairness"]["server_commitment"] != old["fairness"]["server_commitment"]
    # The seat is not handed out twice.
    status, body = server.call(
        "POST", f"/api/tables/{t['code']}/rematch", {"token": t["you"]["token"]}
    )
    assert status == 409 and "taken" in body["detail"]


def test_table_speed_is_set_per_table(page: Any, server: Any) -> None:
    t = server.post("/api/tables", {"game": "scat", "players": 3})
    page.goto(server.base + seat_path(t))
    wait_state(page)
    if page.locator("#hand-end-close").count():
        page.click("#hand-end-close")
    page.click('.tabs button[data-tab="info"]')
    page.select_option("#table-speed", "1.5")
    page.wait_for_function("parlour.table.bot_delay === 1.5")
    rec = server.get(f"/api/tables/{t['code']}")
    assert rec["bot_delay"] == 1.5 and rec["speed_set"] is True
    other = server.post("/api/tables", {"game": "scat", "players": 3})
    assert server.get(f"/api/tables/{other['code']}")["bot_delay"] == pytest.approx(0.01)
    # The bots now take their time: after our move the next one comes 1.5 s later.
    st = my_turn(page, {"DrawStock"})
    page.click("#stock")
    st = my_turn(page, {"Discard"})
    scat_discard(page)
    # (a hand's end would hold the bots while its sheet is open: close it at once)
    seen = [(st["version"], time.monotonic())]
    deadline = time.monotonic() + 15
    while len(seen) < 4 and time.monotonic() < deadline:
        if page.locator("#hand-end-close").count():
            page.locator("#hand-end-close").click()
        v = page.evaluate("parlour.version")
        if v > seen[-1][0]:
            seen.append((v, time.monotonic()))
        page.wait_for_timeout(20)
    gaps = [b[1] - a[1] for a, b in itertools.pairwise(seen[1:])]
    assert gaps and min(gaps) > 1.0, seen


def test_the_creator_sits_down_at_once(page: Any, server: Any) -> None:
    page.goto(server.base + "/")
    page.select_option("#game", "scat")
    page.wait_for_selector('select[data-seat="1"]')
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    assert wait_seat(page) == 0
    assert page.locator("#go-to-table").count() == 0


# --- 6. errors --------------------------------------------------------------------------------


SOCKETS_JS = """
window.__sockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};
"""


def test_not_connected_banner_clears_after_reconnect(page: Any, server: Any) -> None:
    page.add_init_script(SOCKETS_JS)
    t = server.post("/api/tables", {"game": "scat", "players": 3})
    page.goto(server.base + seat_path(t))
    wait_state(page)
    # The connection drops and a move is tried before the page reconnected (0.5 s later).
    shown = page.evaluate(
        """() => new Promise((done) => {
          window.__sockets.at(-1).close();
          parlour.send({type: "DrawStock"});
          // the banner is drawn on the next frame
          setTimeout(() => done(document.querySelector("#error")?.innerText || ""), 60);
        })"""
    )
    assert "Not connected" in shown, shown
    page.wait_for_function("window.__sockets.length >= 2 && parlour.connected", timeout=5000)
    page.wait_for_function("!document.querySelector('#error') && !parlour.error", timeout=3000)
    assert page.locator("#status").inner_text() == "you are Player 1"


def test_a_spectator_never_sees_a_seats_prompts(browser: Any, server: Any) -> None:
    t = server.post(
        "/api/tables",
        {
            "game": "samba",
            "options": {"max_hands": 1},
            "seats": [{"kind": "bot", "bot": "random"}] * 4,
        },
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        watcher = context.new_page()
        watcher.goto(f"{server.base}/t/{t['code']}")
        wait_state(watcher)
        assert watcher.evaluate("parlour.spectator")
        # The match over after "yes" to "may I go out?": nobody is to act, the answer is public.
        watcher.evaluate(
            """() => { Object.assign(parlour.view, {to_act: null, asked: true, permission: "yes",
                 phase: "over"}); parlour.rerender(); }"""
        )
        watcher.wait_for_timeout(50)
        text = watcher.locator("#dock").inner_text()
        assert "you must go out" not in text and "Your partner said" not in text, text
        assert watcher.locator(".prompt").count() == 0
    finally:
        context.close()


# --- 7. card faces ------------------------------------------------------------------------------


FACES_JS = """async () => {
  const { cardEl } = await import("/static/js/cards.js");
  const box = document.createElement("div");
  box.style.cssText = "position:fixed;left:0;top:0;display:flex;flex-wrap:wrap;--card-w:58px;z-index:99";
  document.body.append(box);
  const ranks = ["2","3","4","5","6","7","8","9","10","J","Q","K","A"];
  const out = [];
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const all = [];
  for (const s of "♣♦♥♠") for (const r of ranks) all.push(r + s);
  for (const text of [...all, "Jk"]) {
    const el = cardEl(text);
    box.append(el);
    const corners = [...el.querySelectorAll(".corner")].map((g) => g.getBoundingClientRect());
    const marks = [...el.querySelectorAll(".pip, .ace-pip, .court-frame, .court-figure, .court-letter, .court-suit, .joker-star, .joker-word")]
      .map((x) => x.getBoundingClientRect());
    out.push({ card: text, corners: corners.length,
               covers: marks.some((m) => corners.some((c) => hit(m, c))),
               figure: el.querySelector(".court-figure")?.getAttribute("d") || null });
  }
  const mini = cardEl("Q♥", { mini: true });
  box.append(mini);
  const size = parseFloat(getComputedStyle(mini).fontSize);
  const rect = mini.getBoundingClientRect();
  box.remove();
  return { out, mini: { size, width: rect.width, height: rect.height, text: mini.textContent } };
}"""


def test_card_faces(page: Any, server: Any, artifacts: Path) -> None:
    t = samba_table(server)
    page.goto(server.base + seat_path(t))
    wait_state(page)
    faces = page.evaluate(FACES_JS)
    for f in faces["out"]:
        assert f["corners"] == 2, f  # an index in two corners
        assert not f["covers"], f"{f['card']}: a pip or the court panel covers an index"
    figures = {f["card"][:-1]: f["figure"] for f in faces["out"] if f["card"][0] in "JQK"}
    assert len({figures["J"], figures["Q"], figures["K"]}) == 3  # each court card its own figure
    # Cards known to be in another hand: a readable chip, not a 24 px face with a 6.8 px index.
    mini = faces["mini"]
    assert mini["text"] == "Q♥" and mini["size"] >= 12 and mini["height"] >= 16, mini
    page.screenshot(path=str(artifacts / "table-card-faces.png"))
