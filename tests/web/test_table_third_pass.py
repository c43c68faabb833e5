"""The browser table, third pass (issue 32), on positions built with the games' position
builders and served to the real page by ``tests/web/fake_table.py``: many melds a side, cards
that make one move in several engine actions, whose meld is being built."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.games.handfoot.position import position as handfoot_position
from tests.web.driver import click_card
from tests.web.fake_table import open_position

pytestmark = pytest.mark.browser


def _melds_of(state: Any, side: int) -> list[list[str]]:
    from parlour.core.cards import card_str

    return [sorted(card_str(c) for c in m.cards) for m in state.melds[side]]


def _select(page: Any, cards: list[str]) -> None:
    for c in cards:
        click_card(page, c)


def _wait_sent(page: Any, table: Any, count: int) -> None:
    for _ in range(200):
        if len(table.sent) >= count and not page.evaluate("parlour.queue.length"):
            break
        page.wait_for_timeout(25)
    page.wait_for_timeout(100)


@pytest.mark.parametrize(
    ("hand", "picked", "want"),
    [
        # the example: five 4s (seed 004: books of one rank; 4s are interchangeable)
        ("4♣ 4♦ 4♥ 4♥ 4♠ 9♣ K♠", "4♣ 4♦ 4♥ 4♥ 4♠", [["4♠", "4♣", "4♥", "4♥", "4♦"]]),
        # a dirty book of four with a wild card
        ("K♣ K♦ K♥ 2♣ 9♣ 5♠", "K♣ 2♣ K♦ K♥", [["2♣", "K♣", "K♥", "K♦"]]),
        # two new books at once
        (
            "4♣ 4♦ 4♥ K♣ K♦ K♥ K♠ 9♣ 5♠",
            "K♣ 4♣ K♦ 4♦ K♥ 4♥ K♠",
            [["4♣", "4♥", "4♦"], ["K♠", "K♣", "K♥", "K♦"]],
        ),
    ],
    ids=["five-fours", "dirty-four", "two-books"],
)
def test_hand_and_foot_lays_any_legal_set_in_one_click(
    page: Any, server: Any, hand: str, picked: str, want: list[list[str]]
) -> None:
    """Issue 32 item 2: selecting cards that make new melds (more than the three cards a
    ``Meld`` takes) offers one "Meld …" button, and one click lays them all — the page sends a
    ``Meld`` of three and adds the rest, each step chosen from the legal moves the last led to."""
    state = handfoot_position(
        hands={0: hand, 1: "6♣ 6♦", 2: "8♣ 8♦", 3: "9♦ 9♥"},
        down=[0],
        melds={0: ["A♣ A♦ A♥"]},
        to_act=0,
        phase="drawn",
        pile="5♣ 6♠",
    )
    table = open_position(page, server, "handfoot", state, 0)
    _select(page, picked.split())
    # one button lays the whole selection (it is drawn once the last pick is rendered)
    page.wait_for_function(
        "(t) => (document.querySelector('#meld-new')?.innerText || '').startsWith(t)",
        arg=f"Meld {picked}",
        timeout=5000,
    )
    button = page.locator("#meld-new")
    button.click()
    _wait_sent(page, table, len(picked.split()) - 2 * len(want))
    assert not table.refused, table.refused
    assert sorted(_melds_of(table.state, 0)[1:]) == sorted(sorted(m) for m in want)
    assert table.sent[0]["type"] == "Meld"
    assert not page.evaluate("parlour.error")


@pytest.mark.parametrize(
    ("hand", "picked", "want"),
    [
        # seed 002: a group is three or more cards of one rank, at most two wild cards
        ("9♣ 9♦ 9♥ 9♠ 2♣ 5♠ 6♦", "9♣ 9♦ 2♣ 9♥ 9♠", [["2♣", "9♠", "9♣", "9♥", "9♦"]]),
        # two new melds in one move: a group and a sequence
        (
            "7♣ 7♥ 7♠ 8♦ 9♦ 10♦ J♦ 5♠ 6♦",
            "7♣ 8♦ 7♥ 9♦ 7♠ 10♦ J♦",
            [["7♠", "7♣", "7♥"], ["10♦", "8♦", "9♦", "J♦"]],
        ),
    ],
    ids=["group-of-five", "group-and-sequence"],
)
def test_samba_lays_any_legal_set_in_one_click(
    page: Any, server: Any, hand: str, picked: str, want: list[list[str]]
) -> None:
    """Issue 32 item 2 in Samba: a selection that makes one or several new melds is one "Meld …"
    button (``Stage`` until each meld has three cards, then ``AddToMeld``)."""
    from parlour.games.samba.position import position as samba_position

    state = samba_position(
        hands={0: hand, 1: "6♣ 6♦", 2: "8♣ 8♦", 3: "9♦ 9♥"},
        melds={0: ["A♣ A♦ A♥"]},
        opened=[True, False],
        to_act=0,
        phase="meld",
        pile="5♣ 6♠",
    )
    table = open_position(page, server, "samba", state, 0)
    _select(page, picked.split())
    label = "Meld " + " + ".join(" ".join(g) for g in want) if len(want) > 1 else f"Meld {picked}"
    text = ""
    for _ in range(100):  # the button once the last pick is drawn
        text = page.evaluate("document.querySelector('#meld-new')?.innerText || ''")
        if sorted(text.replace("+", " ").replace("(M)", "").split()[1:]) == sorted(picked.split()):
            break
        page.wait_for_timeout(50)
    assert sorted(text.replace("+", " ").replace("(M)", "").split()[1:]) == sorted(picked.split())
    assert label.split()[0] == text.split()[0]
    page.locator("#meld-new").click()
    _wait_sent(page, table, len(picked.split()))
    assert not table.refused, table.refused
    assert sorted(_melds_of(table.state, 0)[1:]) == sorted(sorted(m) for m in want)
    assert {a["type"] for a in table.sent} <= {"Stage", "AddToMeld"}
