"""Issue 33: a table with a turn timer counts the decision down in the dock, on the seat and in
the tab's title (the stand-in's move when it runs out is tested in tests/server/test_chat.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.driver import seat_path, wait_seat

pytestmark = pytest.mark.browser


def test_the_clock_counts_down_on_my_turn(page: Any, server: Any) -> None:
    t = server.post(
        "/api/tables",
        {
            "game": "scat",
            "players": 3,
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "bot": "basic"},
                {"kind": "bot", "bot": "basic"},
            ],
        },
    )
    status, house = server.call(
        "POST", f"/api/tables/{t['code']}/house", {"token": t["you"]["token"], "turn_timer": 30}
    )
    assert status == 200 and house["turn_timer"] == 30
    page.goto(server.base + seat_path(t))
    assert wait_seat(page, timeout=20) == 0
    # the first decision that is ours has a clock
    page.wait_for_function(
        "window.parlour.legal && window.parlour.legal.length && document.getElementById('turn-clock')",
        timeout=30_000,
    )
    clock = page.locator("#turn-clock").inner_text()
    assert "You" in clock and ":" in clock
    first = int(clock.split(":")[-1])
    assert 20 <= first <= 30
    page.wait_for_function("/Your turn 0:[0-9]{2}/.test(document.title)", timeout=5_000)
    assert page.locator('#felt .player[data-seat="0"] .seat-clock').count() == 1
    page.wait_for_timeout(2200)
    later = int(page.locator("#turn-clock").inner_text().split(":")[-1])
    assert later < first  # it counts down
