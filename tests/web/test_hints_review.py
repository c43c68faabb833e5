"""Issue 19 in the browser: the "Hint (?)" button of the action bar (and its key) shows the
search's move, the moves it compared with their estimated values and a reason; after a hand the
"Review" tab lists the decisions the search would change.  (That a hint depends on the seat's
view only is checked at the server: tests/server/test_hints.py.)"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from tests.web.driver import scat_move, seat_path, table_state, wait_state


def _my_turn(page: Any, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("#hand-end-close").count():
            page.locator("#hand-end-close").click()
        st = table_state(page)
        if st and st["legal"] and not st["pending"]:
            return st
        page.wait_for_timeout(30)
    raise AssertionError("never our turn")


def _close_screens(page: Any) -> None:
    """Close the end-of-hand and end-of-match screens, also one that comes up after another was
    closed (the match's end after the hand's: it covered the tabs once in CI)."""
    closers = ("#hand-end-close", "#match-end-close")
    deadline = time.monotonic() + 20
    quiet_since = None
    while time.monotonic() < deadline:
        shown = [c for c in closers if page.locator(c).count()]
        for c in shown:
            # it may go by itself, or another screen come over it: look again
            with contextlib.suppress(Exception):
                page.locator(c).click(timeout=2000)
        if shown:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > 1.0:
            return
        page.wait_for_timeout(100)
    raise AssertionError("an end screen stayed open")


def test_hint_button_key_and_review_tab(page: Any, server: Any, artifacts: Path) -> None:
    t = server.post("/api/tables", {"game": "scat", "players": 2})
    assert t["hints"] is True
    page.goto(server.base + seat_path(t))
    wait_state(page)
    st = _my_turn(page)
    button = page.locator("#actions #hint-button")
    assert button.inner_text() == "Hint (?)"
    assert button.get_attribute("aria-keyshortcuts") == "?"
    page.keyboard.press("?")
    page.wait_for_selector("#hint strong", timeout=15000)
    box = page.locator("#hint")
    page.wait_for_function(
        "document.querySelector('#hint') && document.querySelector('#hint').innerText.includes('Hint:')",
        timeout=15000,
    )
    text = box.inner_text()
    page.screenshot(path=str(artifacts / "table-hint.png"))
    hint = page.evaluate("parlour.hint")
    assert hint["version"] == st["version"]
    assert hint["move"] in st["legal"]
    assert f"Hint: {hint['text'][0].upper()}" in text and hint["reason"] in text
    if len(st["legal"]) > 1:
        items = page.locator("#hint ol li")
        assert items.count() == len(hint["options"]) >= 2
        assert "%" in items.first.inner_text()
        # moves of one rank (equal within the search's noise) share their number
        numbers = [items.nth(i).get_attribute("value") for i in range(items.count())]
        assert numbers == [str(o["rank"]) for o in hint["options"]]
        ties = [o for o in hint["options"][1:] if o["rank"] == 1]
        assert ("About as good" in text) == bool(ties)
    # the hint is for this turn only: after a move it is gone
    page.click("#hint button")
    page.wait_for_selector("#hint", state="detached", timeout=10000)
    assert not page.locator("#hint").count()

    # play the hand out by clicking; then the Review tab lists the search's remarks
    deadline = time.monotonic() + 120
    while not page.locator("#hand-end").count() and not page.locator("#match-end").count():
        assert time.monotonic() < deadline, "no hand ended"
        st = table_state(page)
        if not st or not st["legal"] or st["pending"]:
            page.wait_for_timeout(20)
            continue
        try:
            scat_move(page, st, timeout=3000, until="!!document.querySelector('#hand-end')")
        except Exception:
            continue
    _close_screens(page)
    page.click('.tabs button[data-tab="review"]')
    page.wait_for_function("document.querySelector('#review h3') !== null", timeout=60000)
    heading = page.locator("#review h3").first.inner_text()
    assert heading.startswith("Hand 1:") and "decisions checked" in heading
    review = page.evaluate("parlour.review")
    remarks = review["hands"][0]["remarks"]
    # the scale is explained once, above the hands
    assert page.locator("#review .review-scale").count() == 1
    assert "50% = level" in page.locator("#review .review-scale").inner_text()
    if remarks:
        first = page.locator("#review li").first.inner_text()
        assert first.startswith("You played") and "the bot prefers" in first
    else:
        assert "No decision stands out" in page.locator("#review").inner_text()
    page.screenshot(path=str(artifacts / "table-review.png"))
