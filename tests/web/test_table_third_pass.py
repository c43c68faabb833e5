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


# --- many melds: nothing under the dock (item 1), whose meld is being built (item 3) -----------

RANKS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def samba_many_melds(**fields: Any) -> Any:
    """Thirteen melds a side (seed 002: groups of one rank, sequences of one suit)."""
    from parlour.games.samba.position import position as samba_position

    side0 = [f"{r}♣ {r}♦ {r}♥" for r in RANKS] + ["4♠ 5♠ 6♠ 7♠", "8♠ 9♠ 10♠"]
    side1 = [f"{r}♠ {r}♦ {r}♥ {r}♠" for r in RANKS] + ["4♣ 5♣ 6♣", "8♣ 9♣ 10♣ J♣"]
    args: dict[str, Any] = {
        "hands": {
            0: "K♦ Q♦ 9♦ 9♥ 5♦ 6♥ 7♦ 2♥ Jk 3♣ 8♥",
            1: "3♠ 3♠",
            2: "3♠ Jk",
            3: "3♣ Jk",
        },
        "melds": {0: side0, 1: side1},
        "opened": [True, True],
        "to_act": 0,
        "phase": "meld",
        "pile": "K♥ J♥ 7♥",
        "hand_number": 1,
    }
    return samba_position(**{**args, **fields})


def handfoot_many_melds() -> Any:
    """Twelve books a side (seed 004: books of one rank, 7s, wild cards)."""
    books = ["4", "5", "6", "8", "9", "10", "J", "Q", "K", "A"]
    side0 = [f"{r}♣ {r}♦ {r}♥" for r in books] + ["7♣ 7♦ 7♥", "2♣ 2♦ Jk"]
    side1 = [f"{r}♠ {r}♦ {r}♥ {r}♠" for r in books] + ["7♠ 7♦ 7♥ 7♠", "A♠ K♠ Q♠"]
    return handfoot_position(
        hands={0: "K♠ Q♦ 9♠ 9♣ 5♠ 6♠ 7♠ 4♠", 1: "3♠ 3♠", 2: "3♠ Jk", 3: "3♣ Jk"},
        melds={0: side0, 1: side1},
        down=[0, 1, 2, 3],
        to_act=0,
        phase="drawn",
        pile="5♣ 6♠ 8♥",
    )


OUT_OF_SIGHT_JS = """() => {
  const felt = document.querySelector('#felt');
  const phone = getComputedStyle(felt).overflowY === 'visible';
  const bottom = phone ? document.querySelector('#dock').getBoundingClientRect().top
                       : felt.getBoundingClientRect().bottom;
  return [...document.querySelectorAll('#melds .card')]
    .filter((c) => c.getBoundingClientRect().bottom > bottom + 2).length;
}"""

SIZES = [(1280, 900, False), (1366, 768, False), (390, 844, True)]

#: every meld card and pile: brought into sight by scrolling the table, is the card itself (or
#: its own meld, whose cards overlap as a fan) the element at its visible corner?
COVERED_JS = """() => {
  const bad = [];
  const targets = [...document.querySelectorAll('#melds .card, #stock, #pile')];
  for (const el of targets) {
    el.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    const x = r.left + 3, y = r.top + 6;
    const at = document.elementFromPoint(x, y);
    const own = el.closest('.meld') || el;
    if (!at || !(own === at || own.contains(at))) {
      bad.push({card: el.dataset.card || el.id, at: at ? (at.id || at.className || at.tagName) : null, x, y});
    }
  }
  return {checked: targets.length, bad};
}"""


@pytest.mark.parametrize(
    ("width", "height", "phone"), SIZES, ids=["1280x900", "1366x768", "390x844"]
)
@pytest.mark.parametrize("game", ["samba", "handfoot"])
def test_no_meld_is_hidden_under_the_dock(
    browser: Any, server: Any, game: str, width: int, height: int, phone: bool
) -> None:
    """Issue 32 item 1: with twelve or more melds a side, every meld card and both piles can be
    brought into sight, and then nothing (the dock, the turn banner) covers them
    (``elementFromPoint``); what is out of sight is named by the "↓ Below: …" button, which
    scrolls to it."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    try:
        state = samba_many_melds() if game == "samba" else handfoot_many_melds()
        open_position(page, server, game, state, 0)
        counts = page.evaluate("parlour.view.sides.map((s) => s.melds.length)")
        assert min(counts) >= 12
        more = page.locator("#more-below")
        page.wait_for_timeout(150)
        # melds out of sight at first (below the felt's edge, or under the pinned dock on a
        # phone): the button names them; none: no button
        out_of_sight = page.evaluate(OUT_OF_SIGHT_JS)
        assert more.count() == (1 if out_of_sight else 0), out_of_sight
        if out_of_sight:
            assert more.inner_text().startswith("↓ Below:")
        if phone or (game, height) == ("handfoot", 768):
            assert out_of_sight  # what does not fit a phone or a short window
        for _ in range(12):
            if not more.count():
                break
            more.click()
            page.wait_for_timeout(150)
        assert not more.count(), "the Below button never reached the end of the table"
        result = page.evaluate(COVERED_JS)
        assert result["checked"] > 60
        assert not result["bad"], result["bad"][:5]
    finally:
        context.close()


@pytest.mark.parametrize(("to_act", "owner"), [(1, "West's"), (0, "Your")])
def test_a_meld_being_built_says_whose(page: Any, server: Any, to_act: int, owner: str) -> None:
    """Issue 32 item 3: the cards of a Samba meld being built (staged) are the acting seat's
    side's — the box under the pile says whose."""
    from parlour.games.samba.position import position as samba_position

    state = samba_position(
        hands={0: "5♣ 6♦ 8♥ 8♠ 9♠", 1: "5♦ 6♣ 9♣ 8♣", 2: "4♣ 4♦", 3: "4♥ 4♠"},
        melds={0: ["A♣ A♦ A♥"], 1: ["K♣ K♦ K♥"]},
        opened=[True, True],
        to_act=to_act,
        phase="meld",
        pending="9♦ 9♥",
        pile="Q♥ J♥ 7♥",
    )
    open_position(page, server, "samba", state, 0)
    # another seat's turn is drawn after the page's animation of it: wait for the box
    page.wait_for_selector("#pending .lbl", timeout=15_000)
    box = page.locator("#pending")
    assert box.count() == 1
    label = box.locator(".lbl").inner_text()
    assert label.startswith(f"{owner} new meld being built"), label
    assert box.locator(".card").count() == 2


def test_hand_and_foot_pile_cards_are_shown_face_down(page: Any, server: Any) -> None:
    """Seed 004 ("without looking take the next 7 cards … keeping them face down"): after a
    pile is taken the table shows seven backs and says they are face down; the faces are in
    neither the page nor its state."""
    seven = "4♦ 7♣ 8♠ 10♦ 6♥ J♣ K♠"
    state = handfoot_position(
        hands={0: "5♣ 5♦ 5♥ A♣ A♦ 6♠", 1: "3♠ 3♠", 2: "3♠ Jk", 3: "3♣ Jk"},
        melds={0: ["9♦ 9♥ 9♠"]},
        pile="4♠ 5♠",
        phase="pile_taken",
        taken_top="9♠",
        pending=seven,
        turn_melds=1,
    )
    open_position(page, server, "handfoot", state, 0)
    box = page.locator("#pending")
    assert "face down" in box.inner_text() and box.inner_text().startswith("Your pile cards")
    assert box.locator(".card.back, .backs .card").count() >= 1
    assert "7 cards" in box.inner_text()
    assert page.evaluate("parlour.view.pending") == []
    assert page.evaluate("parlour.view.pending_size") == 7


# --- Scat: select then confirm (item 7), who knocked (item 8) ------------------------------------


def test_scat_one_tap_never_discards(page: Any, server: Any) -> None:
    """Issue 32 item 7: a tap on a Scat card selects it (lifted, tinted); the discard is its
    button, as in every game; a second tap takes the selection back."""
    from parlour.games.scat.position import position as scat_position

    state = scat_position(hands=["A♥ K♥ 2♣ 9♠", "3♦ 4♦ 5♠"], pile="5♥", phase="discard", taken="9♠")
    table = open_position(page, server, "scat", state, 0)
    page.locator('#hand .card[data-card="2♣"]').click()
    page.wait_for_timeout(200)
    assert table.sent == []
    card = page.locator('#hand .card[data-card="2♣"]')
    assert "selected" in (card.get_attribute("class") or "")
    lift = page.evaluate(
        """() => { const cs = [...document.querySelectorAll('#hand .card')];
        const sel = cs.find((c) => c.classList.contains('selected'));
        const other = cs.find((c) => !c.classList.contains('selected'));
        return other.getBoundingClientRect().top - sel.getBoundingClientRect().top; }"""
    )
    assert lift >= 8  # item 4: the selected card is lifted, not only tinted
    button = page.locator('#actions button.action[data-type="Discard"]')
    assert button.count() == 1 and button.inner_text().startswith("Discard 2♣")
    card.click()  # taken back
    page.wait_for_timeout(200)
    assert page.locator('#actions button.action[data-type="Discard"]').count() == 0
    assert table.sent == []
    page.locator('#hand .card[data-card="2♣"]').click()
    page.locator('#actions button.action[data-type="Discard"]').click()
    page.wait_for_function("parlour.version === 2")
    assert table.sent == [{"type": "Discard", "card": "2♣", "declare": False}]


def test_scat_hand_end_says_who_knocked(page: Any, server: Any) -> None:
    """Issue 32 item 8: the end-of-hand sheet after a knock names the knocker."""
    from parlour.games.scat.position import position as scat_position

    state = scat_position(hands=["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], pile="5♥", stock="9♣ 8♣", knocker=1)
    table = open_position(page, server, "scat", state, 0)
    page.locator("#stock").click()
    page.wait_for_function("parlour.version === 2")
    page.locator('#hand .card[data-card="2♣"]').click()
    page.locator('#actions button.action[data-type="Discard"]').click()
    page.locator("#hand-end").wait_for(timeout=5000)
    row = page.locator('#hand-end tr[data-key="knocked"]')
    assert row.count() == 1
    assert "knocked" in row.inner_text()
    assert table.game.to_act(table.state) is not None  # the match goes on: a hand ended


# --- polish: touch targets (5), room for melds (6), unknown table (9), skip link (10) -----------

TARGETS_JS = """() => {
  const small = [];
  for (const b of document.querySelectorAll('#dock button, .topbar button, .topbar a, .tabs button')) {
    const r = b.getBoundingClientRect();
    if (r.width && r.height < 44 - 0.5) small.push([b.id || b.innerText.slice(0, 20), r.height]);
  }
  // each card of the hand: the strip not covered by the next card (it is what a finger taps)
  const strips = [];
  for (const g of document.querySelectorAll('#hand .hand-group')) {
    const cs = [...g.querySelectorAll('.card')];
    cs.forEach((c, i) => {
      const r = c.getBoundingClientRect();
      const next = cs[i + 1] && cs[i + 1].getBoundingClientRect();
      strips.push(next && Math.abs(next.top - r.top) < 2 ? next.left - r.left : r.width);
    });
  }
  return {small, strips};
}"""


def test_touch_targets_on_a_phone(browser: Any, server: Any) -> None:
    """Issue 32 item 5: on a touch phone every control of the dock, the top bar and the tabs is
    at least 44 px tall, and every card of a stacked run shows a strip of at least 24 px (WCAG
    2.5.8) to tap."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    try:
        state = handfoot_position(
            hands={0: "4♣ 4♦ 4♥ 4♥ 4♠ 9♣ 9♦ 9♥ K♠ K♠ K♦ Q♦ 5♠ 6♠ 8♠ 8♦ 10♣ J♣ A♦ A♣", 1: "6♣"},
            down=[0],
            melds={0: ["A♣ A♦ A♥"]},
            to_act=0,
            phase="drawn",
            pile="5♣ 6♠",
        )
        open_position(page, server, "handfoot", state, 0)
        click_card(page, "9♦")
        page.wait_for_timeout(200)
        got = page.evaluate(TARGETS_JS)
        assert not got["small"], got["small"]
        assert len(got["strips"]) == 20 and min(got["strips"]) >= 24, got["strips"]
    finally:
        context.close()


def test_melds_are_bigger_when_there_is_room(page: Any, server: Any) -> None:
    """Issue 32 item 6: with a few melds at 1280×900 the meld cards grow (the felt has room);
    with thirteen a side they keep their compact size."""
    from parlour.games.samba.position import position as samba_position

    few = samba_position(
        hands={0: "5♣ 6♦ 8♥ 8♠ 9♠", 1: "5♦ 6♣ 9♣ 8♣", 2: "4♣ 4♦", 3: "4♥ 4♠"},
        melds={0: ["A♣ A♦ A♥"], 1: ["K♣ K♦ K♥"]},
        opened=[True, True],
        to_act=0,
        phase="meld",
        pile="Q♥ J♥ 7♥",
    )
    width = "document.querySelector('#melds .meld .card').getBoundingClientRect().width"
    open_position(page, server, "samba", few, 0)
    page.wait_for_selector("#melds .meld .card")
    page.wait_for_timeout(200)
    roomy = page.evaluate(width)
    open_position(page, server, "samba", samba_many_melds(), 0)
    page.wait_for_function("document.querySelectorAll('#melds .meld').length >= 26")
    page.wait_for_timeout(200)
    packed = page.evaluate(width)
    assert roomy >= 1.2 * packed, (roomy, packed)


def test_an_unknown_table_shows_the_message_and_the_way_back(page: Any, server: Any) -> None:
    """Issue 32 item 9: no Invite button, no Log / Score / Table / Review tabs, no dock."""
    page.goto(f"{server.base}/t/NOSUCH1")
    page.locator("#closed").wait_for(timeout=10000)
    assert "no table" in page.locator("#closed").inner_text().lower()
    assert page.locator("#closed a[href='/']").is_visible()
    for hidden in ("#invite", ".side", ".tabs", "#dock", "#rules-link"):
        assert not page.locator(hidden).is_visible(), hidden


def test_the_first_tab_skips_to_the_hand(page: Any, server: Any) -> None:
    """Issue 32 item 10: the first Tab on a table page is "Skip to your hand and moves"; Enter
    puts the keyboard on the hand (Cheat: it took nine Tabs)."""
    from parlour.games.cheat.position import position as cheat_position

    state = cheat_position(hands={0: "2♣ 3♣ 4♣ 5♣ 6♣", 1: "2♦ 3♦", 2: "2♥ 3♥", 3: "2♠ 3♠"}, rest=0)
    open_position(page, server, "cheat", state, 0)
    page.keyboard.press("Tab")
    first = page.evaluate("document.activeElement.id")
    assert first == "skip-to-hand"
    assert page.locator("#skip-to-hand").is_visible()
    page.keyboard.press("Enter")
    inside = page.evaluate("!!document.activeElement.closest('#hand')")
    assert inside, page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
