"""Playing through the page like a person: read whose turn it is from the page's own state
(``window.parlour``), act only by clicking what a person would click."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

#: milliseconds a click may wait for its element (a table that moved on is looked at again)
CLICK_TIMEOUT = 5000

STATE_JS = """() => {
  const c = window.parlour;
  if (!c || !c.view) return null;
  return {
    version: c.version, status: c.status, pending: c.pending, queue: (c.queue || []).length,
    error: c.error, phase: c.view.phase, hand: c.view.hand || [], seat: c.seat,
    legal: (c.legal || []).map((l) => l.action),
    finished: !!(c.outcome && c.outcome.finished),
    hands: (c.outcome && c.outcome.hands || []).length,
    selected: c.selected || [],
  };
}"""


def table_state(page: Any) -> dict[str, Any] | None:
    return page.evaluate(STATE_JS)  # type: ignore[no-any-return]


def wait_state(page: Any, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        st = table_state(page)
        if st is not None:
            return st
        page.wait_for_timeout(50)
    raise AssertionError("the table page never received a state")


def wait_seat(page: Any, timeout: float = 10) -> int | None:
    """The seat the page plays (None: watching), once the table has welcomed it (a table still
    waiting for players has nothing dealt, so no view yet)."""
    page.wait_for_function(
        "window.parlour && window.parlour.table !== null && window.parlour.connected",
        timeout=timeout * 1000,
    )
    return page.evaluate("window.parlour.seat")  # type: ignore[no-any-return]


def click_card(page: Any, card: str, where: str = "#hand") -> None:
    """Click the first not-yet-selected copy of ``card`` in the hand, on its visible corner
    (cards in a hand overlap, as held cards do)."""
    page.locator(f'{where} .card[data-card="{card}"]:not(.selected)').first.click(
        position={"x": 7, "y": 24}, timeout=CLICK_TIMEOUT
    )


def same_rank_triple(hand: list[str]) -> list[str] | None:
    """Three natural cards (4…A) of one rank, if the hand has them."""
    by_rank: dict[str, list[str]] = {}
    for c in hand:
        rank = c[:-1]
        if rank in ("2", "3") or c == "Jk":
            continue
        by_rank.setdefault(rank, []).append(c)
    for cards in by_rank.values():
        if len(cards) >= 3:
            return cards[:3]
    return None


def take_one_turn_step(page: Any, st: dict[str, Any], memo: dict[str, Any]) -> str:
    """Make one click-level decision for the seat whose turn it is; returns what was done."""
    legal = st["legal"]
    types = {a["type"] for a in legal}
    if st.get("selected") and page.locator("#clear-selection:enabled").count():
        # cards left selected by a step the table moved on under (a meld whose third card's
        # click timed out): a person clears them before going on, or every later click adds to
        # them and the selected discard is never found again (a stall CI saw once)
        page.locator("#clear-selection").click(timeout=CLICK_TIMEOUT)
        return "clear the selection"
    if "AnswerGoOut" in types:
        page.locator('button.action[data-type="AnswerGoOut"]', has_text="Yes").click(
            timeout=CLICK_TIMEOUT
        )
        return "answer yes"
    if "Draw" in types:
        page.locator("#stock").click(timeout=CLICK_TIMEOUT)
        memo["melded_at"] = None
        return "draw"
    if st["phase"] == "meld" and memo.get("melded_at") is None and "Stage" in types:
        triple = same_rank_triple(st["hand"])
        staged_ok = triple and all(
            any(a["type"] == "Stage" and a["card"] == c for a in legal) for c in triple
        )
        if triple and staged_ok:
            memo["melded_at"] = st["version"]
            for c in triple:
                click_card(page, c)
            page.locator("#meld-new").click(timeout=CLICK_TIMEOUT)
            return f"meld {' '.join(triple)}"
    if "Discard" in types:
        card = next(a["card"] for a in legal if a["type"] == "Discard")
        click_card(page, card)
        page.locator("#pile").click(timeout=CLICK_TIMEOUT)
        return f"discard {card}"
    for kind in ("UndoOpening", "Unstage", "Pass"):
        if kind in types:
            page.locator(f'button.action[data-type="{kind}"]').first.click(timeout=CLICK_TIMEOUT)
            return kind
    page.locator("button.action").first.click(timeout=CLICK_TIMEOUT)
    return "first action"


def play_until(page: Any, done: Any, timeout: float = 90, pages: list[Any] | None = None) -> int:
    """Click through turns on ``page`` (and the other ``pages``) until ``done(state)`` is true.

    Returns the number of decisions made by clicking."""
    everyone = [page, *(pages or [])]
    memos: list[dict[str, Any]] = [{} for _ in everyone]
    deadline = time.monotonic() + timeout
    clicks = 0
    while time.monotonic() < deadline:
        acted = False
        for p, memo in zip(everyone, memos, strict=True):
            if p.locator("#hand-end-close").is_visible():
                p.locator("#hand-end-close").click(timeout=CLICK_TIMEOUT)
            st = table_state(p)
            if st is None:
                continue
            if p is page and done(st):
                return clicks
            if not st["legal"] or st["pending"] or st["queue"]:
                continue
            # Our last click at this version changed nothing yet: give the server a moment.
            unchanged = memo.get("version") == st["version"] and memo.get("error") == st["error"]
            if unchanged and time.monotonic() - memo.get("at", 0) < 2:
                continue
            memo.update(version=st["version"], error=st["error"], at=time.monotonic())
            try:
                take_one_turn_step(p, st, memo)
            except PlaywrightTimeout:
                # The table moved on under the click (the element went away): look again.
                continue
            clicks += 1
            acted = True
        if not acted:
            page.wait_for_timeout(30)
    # every page's last state: a stall is usually the other page's turn that nobody took
    states = [table_state(p) for p in everyone]
    raise AssertionError(f"timed out after {clicks} clicks; last state of each page {states}")


def seat_path(table: dict[str, Any]) -> str:
    """The creator's seat as an old-style link (``/t/CODE?seat=TOKEN``): the page keeps the token
    in this browser and takes it out of the address bar."""
    return f"/t/{table['code']}?seat={table['you']['token']}"


def stored_token(page: Any, code: str) -> str | None:
    """The seat token this browser keeps for the table (localStorage), if any."""
    return page.evaluate(  # type: ignore[no-any-return]
        """(code) => {
          const seats = JSON.parse(localStorage.getItem("parlour.seats") || "[]");
          const s = seats.find((x) => x.code === code);
          return s ? s.token : null;
        }""",
        code,
    )


# Elements sticking out past the right edge of the window, except inside a box that scrolls on its
# own (a wide score table in a scrolling frame is fine; the page itself must not be wider). The
# page clips sideways overflow as a safety net, so this looks at every element, not scrollWidth.
WIDER_THAN_WINDOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= width + 1) continue;
    let p = el.parentElement, scrolls = false;
    for (; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") { scrolls = true; break; }
    }
    if (!scrolls) out.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(r.right)}`);
  }
  return out.slice(0, 8);
}"""


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"{page.url}: page is {width}px wide in a {inner}px window"
    wide = page.evaluate(WIDER_THAN_WINDOW_JS)
    assert not wide, f"{page.url}: wider than the {inner}px window: {wide}"


def scat_discard(page: Any, timeout: float = CLICK_TIMEOUT, **click: Any) -> None:
    """Discard in Scat as a person does: select a card that may be discarded, then confirm with
    its "Discard" button (one tap never discards)."""
    page.locator("#hand .card.hint").first.click(timeout=timeout, **click)
    page.locator('#actions button.action[data-type="Discard"]').first.click(timeout=timeout)


def scat_move(
    page: Any, st: dict[str, Any], timeout: float = CLICK_TIMEOUT, until: str = ""
) -> None:
    """One Scat move of ours by clicking, as a person: draw from the stock, discard a hinted card
    (:func:`scat_discard`), else the first move button; then wait until the table is past
    ``st``'s version, shows an error, or the JavaScript condition ``until`` holds. Raises
    Playwright's timeout when a click found nothing or nothing happened (a screen came up)."""
    types = {a["type"] for a in st["legal"]}
    if "DrawStock" in types:
        page.click("#stock", timeout=timeout)
    elif "Discard" in types:
        scat_discard(page, timeout=timeout)
    else:
        page.locator("#actions button.action").first.click(timeout=timeout)
    also = f" || ({until})" if until else ""
    page.wait_for_function(
        f"window.parlour.version > {st['version']} || !!window.parlour.error{also}",
        timeout=timeout,
    )


def play_scat_to_the_end(page: Any, timeout: float = 120) -> int:
    """Play our Scat seat by clicking (draw from the stock, discard a hinted card) and close the
    end-of-hand screens, until the match is over; returns our decisions."""
    deadline = time.monotonic() + timeout
    ours = 0
    missed: list[str] = []  # clicks that found nothing to click (the last few)
    while time.monotonic() < deadline:
        if page.locator("#match-end").count():
            return ours
        if page.locator("#hand-end-close").count():
            page.locator("#hand-end-close").click(timeout=CLICK_TIMEOUT)
            continue
        st = table_state(page)
        if st is None or not st["legal"] or st["pending"]:
            page.wait_for_timeout(30)
            continue
        try:
            scat_move(page, st)
        except PlaywrightTimeout as exc:
            types = sorted({a["type"] for a in st["legal"]})
            missed = [*missed[-2:], f"{types}: {str(exc).splitlines()[0]}"]
            continue  # a screen came up over the table: the loop sees it
        ours += 1
    raise AssertionError(
        f"the match did not end after {ours} decisions; last state {table_state(page)}; "
        f"missed clicks {missed}"
    )


def open_info_tab(page: Any) -> None:
    """Open the "Table" tab, first closing a hand's score sheet if one is up (a player dealt 31
    in Scat ends the hand before anyone moves, so the sheet may be showing already)."""
    for close in ("#hand-end-close", "#match-end-close"):
        if page.locator(close).count():
            page.locator(close).click()
    page.click('.tabs button[data-tab="info"]')


def open_invite(page: Any, url: str, name: str = "Friend") -> None:
    """Open an invite link as a friend who has no player yet: the page asks for a name first
    (issue 33), then takes the seat."""
    page.goto(url)
    page.locator("#name-dialog").wait_for(timeout=CLICK_TIMEOUT)
    page.fill("#ask-name", name)
    page.click("#ask-name-ok")
