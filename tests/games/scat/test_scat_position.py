"""The public Scat position builder (issue 16: public position builders): hands, discard pile,
stock order, lives, a pending knock, the hand number and the dealer; impossible positions are
refused."""

from __future__ import annotations

import random

import pytest

from parlour.core.cards import card_str, cards_str
from parlour.core.conformance import check_view_consistency
from parlour.games.scat import GAME, PositionError, position
from parlour.games.scat.actions import (
    Declare31,
    Discard,
    DrawStock,
    EndHand,
    Hammer,
    Knock,
    TakeDiscard,
    ThrowDown,
)
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import DEALT31, DISCARD, THROW_DOWN

from .helpers import card, cards


def _views_hold(state) -> None:  # type: ignore[no-untyped-def]
    check_view_consistency(GAME, state, random.Random(2))


def _apply(state, *actions):  # type: ignore[no-untyped-def]
    for a in actions:
        state, _ = GAME.apply(state, a)
    return state


def test_rebuilds_a_dealt_hand() -> None:
    """001_e8630c614840283e.txt: "The cards are shuffled and are dealt out one at a time,
    starting with the player to dealer's left … The next card is turned face up on the table to
    start the discard pile, and the remaining undealt cards are placed face down next to it to
    form the draw pile or stock" — a dealt hand, and the same hand after a draw, are rebuilt
    exactly, stock order included."""
    rules = ScatRules(players=3)
    state = GAME.new_game(rules, 3)
    assert state.phase == "draw"
    built = position(
        rules,
        hands=[cards_str(h) for h in state.hands],
        pile=cards_str(state.pile),
        stock=" ".join(card_str(c) for c in reversed(state.stock)),
        dealer=state.dealer,
        seed=3,
    )
    assert built == state
    after = _apply(state, DrawStock())
    rebuilt = position(
        rules,
        hands=[cards_str(h) for h in after.hands],
        pile=cards_str(after.pile),
        stock=" ".join(card_str(c) for c in reversed(after.stock)),
        dealer=after.dealer,
        to_act=after.to_act,
        phase="discard",
        seed=3,
    )
    assert rebuilt == after
    _views_hold(rebuilt)


def test_stock_order_and_the_rest() -> None:
    """001_e8630c614840283e.txt: "drawing the top card either from the stock pile (without
    showing it to the other players) or from the discard pile" — ``stock`` names the top cards
    in drawing order; the rest of the pack lies under them."""
    s = position(hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "4♣ 6♦ 7♠"], pile="5♥ 2♦", stock="A♥ 9♣")
    assert len(s.stock) == 52 - 9 - 2 and s.pile[-1] == card("2♦")
    s = _apply(s, DrawStock())
    assert card("A♥") in s.hands[0]
    assert Discard(card("2♣"), True) in GAME.legal_actions(s)  # K♥ Q♥ A♥ = 31
    s = _apply(s, Discard(card("2♣")))  # not declared: an undeclared 31 (counts 30)
    s = _apply(s, DrawStock())
    assert card("9♣") in s.hands[1]
    assert GAME.counted_value(s, 0) == 30


def test_stock_length() -> None:
    """001_e8630c614840283e.txt: "If the stock runs out the play can continue as long as each
    player wishes to take the previous player's discard. If the player whose turn it is does not
    wish to draw the top discard, the play ends and all players show their cards" —
    ``stock_size`` sets how many cards are left to draw (the named ``stock`` on top); the cards
    not named beyond those lie under the named pile, so the cards still add up."""
    hands = ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "4♣ 6♦ 7♠"]
    s = position(hands=hands, pile="5♥", stock="A♥", stock_size=1)
    assert [card_str(c) for c in s.stock] == ["A♥"] and len(s.pile) == 52 - 9 - 1
    assert s.pile[-1] == card("5♥") and len(GAME.all_cards(s)) == 52
    assert GAME.observe(s, 1).stock_size == 1
    _views_hold(s)
    again = position(hands=hands, pile="5♥", stock="A♥", stock_size=1)
    assert again.pile == s.pile  # the unnamed cards are placed from the seed
    assert position(hands=hands, pile="5♥", stock_size=1, seed=1).pile != s.pile
    s = _apply(s, DrawStock(), Discard(card("2♣")))  # K♥ Q♥ A♥ = 31, not declared
    assert not s.stock and DrawStock() not in GAME.legal_actions(s)
    assert EndHand() in GAME.legal_actions(s) and TakeDiscard() in GAME.legal_actions(s)
    s = _apply(s, EndHand())  # seat 1 will not take the 2♣: everyone shows
    assert s.hand_no == 1 and s.last is not None
    assert s.history[-1].scores == (0.0, 0.0, -1.0)  # 4♣ 6♦ 7♠ = 7 is lowest
    # a stock of every card not named, the default without stock_size
    full = position(hands=hands, pile="5♥", stock_size=52 - 10)
    assert full.stock == position(hands=hands, pile="5♥").stock
    empty = position(hands=hands, pile="5♥", stock_size=0)
    assert not empty.stock and EndHand() in GAME.legal_actions(empty)
    for size, message in ((43, "leaves 42 for the stock"), (-1, "from 0 to 42")):
        with pytest.raises(PositionError, match=message):
            position(hands=hands, pile="5♥", stock_size=size)
    with pytest.raises(PositionError, match="2 of them named on top: give a stock_size from 2"):
        position(hands=hands, pile="5♥", stock="A♥ 9♣", stock_size=1)
    with pytest.raises(PositionError, match="whole number"):
        position(hands=hands, stock_size=True)  # type: ignore[arg-type]


def test_pending_knock_lives_hand_number_and_dealer() -> None:
    """001_e8630c614840283e.txt: "Knocking ends your turn … each other player gets one final
    turn to draw and discard. After the player to the knocker's right has discarded, all
    players reveal their cards"; "If the knocker's score is lower than that of every other
    player, the knocker loses two lives"; "If you lose while on the county, you are out"."""
    s = position(
        hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "A♠ 4♣ 6♦", ""],
        pile="5♥",
        stock="2♥ 3♥",
        knocker=1,
        to_act=2,
        lives=[3, 2, 0, 0],
        out=[3],
        hand_number=5,
        dealer=0,
    )
    view = GAME.observe(s, 0)
    assert view.knocker == 1 and view.hand_number == 5 and view.dealer == 0
    assert view.status == ("3 pennies", "2 pennies", "on the county", "out")
    assert Knock() not in GAME.legal_actions(s)
    _views_hold(s)
    s = _apply(s, DrawStock(), Discard(card("2♥")))  # seat 2 keeps A♠ 4♣ 6♦ = 11
    s = _apply(s, DrawStock(), Discard(card("3♥")))  # seat 0 keeps K♥ Q♥ 2♣ = 20; showdown
    assert s.history[-1].scores == (0.0, 0.0, -1.0, 0.0)  # seat 2 lowest (11 < 17 < 20)
    assert s.out[2] and s.hand_no == 6 and s.dealer == 1


def test_other_phases() -> None:
    """001_e8630c614840283e.txt: "A player who is dealt 31 in their original three cards
    declares it - there is no play"; "if you choose to take the top card from the discard pile,
    it is illegal to discard the same card"; the hammer ("the very first player … has the
    option to call a 'hammer'") and the throw-down ("decide before looking at their cards")."""
    s = position(hands=["K♥ Q♥ 2♣", "A♠ K♠ J♠", "4♣ 6♦ 7♠"], pile="5♥", phase="dealt31")
    assert s.phase == DEALT31 and s.to_act == 1 and GAME.legal_actions(s) == [Declare31()]
    s = position(
        hands=["K♥ Q♥ 2♣ 5♥", "A♠ 9♠ J♦", "4♣ 6♦ 7♠"], pile="", phase="discard", taken="5♥"
    )
    assert s.phase == DISCARD and Discard(card("5♥")) not in GAME.legal_actions(s)
    assert GAME.observe(s, 1).known[0].cards == (card("5♥"),)
    _views_hold(s)
    s = position(
        ScatRules(players=3, throw_down=True, hammer=True),
        hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "4♣ 6♦ 7♠"],
        pile="5♥",
        phase="throw_down",
    )
    assert s.phase == THROW_DOWN and GAME.legal_actions(s) == [ThrowDown(True), ThrowDown(False)]
    assert GAME.observe(s, 0).hand == ()
    s = _apply(s, ThrowDown(False))
    assert Hammer() in GAME.legal_actions(s) and TakeDiscard() in GAME.legal_actions(s)
    s = position(
        ScatRules(showdown="highest_scores_point"),
        hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "4♣ 6♦ 7♠"],
        lives=[30, 12, 0],
        stock="2♥",
        hand_number=40,
    )
    assert GAME.observe(s, 1).status == ("30 points", "12 points", "0 points")
    s = position(hands=["A♥ K♥ Q♥", "9♦ 8♦ 3♠", "4♣ 6♦ 7♠"], pile="5♥", to_act=1, turn=3, dealer=2)
    assert s.silent[0] == cards("A♥ K♥ Q♥") and GAME.counted_value(s, 0) == 30


def test_twelve_players_one_pack() -> None:
    """issue 16 item 12 — 001_e8630c614840283e.txt: "From 2 to 9 or more people can play"
    with "A standard 52 card deck": twelve hands, the upcard and a 15-card stock."""
    hands = [cards_str(tuple(range(3 * i, 3 * i + 3))) for i in range(12)]
    s = position(hands=hands, pile=card_str(36))
    assert len(s.stock) == 15 and s.rules.decks == 1
    _views_hold(s)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": ["K♥ Q♥ 2♣", "K♥ 8♦ 3♠"]}, "2 × K♥ named"),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦"]}, "holds 3 cards, not 2"),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], "phase": "discard"}, "holds 4 cards, not 3"),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "4♣ 6♦ 7♠"], "out": [2]}, "hand_number ≥ 1"),
        (
            {"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠", "4♣ 6♦ 7♠"], "out": [2], "hand_number": 2},
            "seat 2 is out",
        ),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], "lives": [4, 3]}, "lives 4 out of 0..3"),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], "knocker": 0, "to_act": 0}, "knocked"),
        ({"hands": ["A♥ K♥ Q♥", "9♦ 8♦ 3♠"]}, "dealt 31"),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], "phase": "dealt31"}, "nobody holds a 31"),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], "to_act": 1, "dealer": 1}, "the first player"),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], "phase": "throw_down"}, "option throw_down"),
        (
            {"hands": ["K♥ Q♥ 2♣ 4♦", "9♦ 8♦ 3♠"], "phase": "discard", "taken": "5♥"},
            "does not hold 5♥",
        ),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], "known": {1: "K♥"}}, "does not hold K♥"),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], "to_act": 7}, "no seat 7"),
        (
            {
                "hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"],
                "showdown": "highest_scores_point",
                "lives": [31, 3],
            },
            "match is over",
        ),
        ({"hands": ["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], "phase": "bidding"}, "phase must be"),
    ],
)
def test_impossible_positions_are_refused(kwargs: dict[str, object], message: str) -> None:
    """001_e8630c614840283e.txt: "A standard 52 card deck is used"; "until everyone has a hand
    of three cards"; "each player begins the game with three pennies" — positions that break
    these are refused with a message saying why."""
    with pytest.raises(PositionError, match=message):
        position(**kwargs)  # type: ignore[arg-type]


def test_two_packs() -> None:
    """001_e8630c614840283e.txt: 'From 2 to 9 or more' — two packs stay an option, and then two
    copies of a card may be named."""
    s = position(ScatRules(decks=2), hands=["K♥ Q♥ 2♣", "K♥ 8♦ 3♠"], pile="5♥")
    assert len(GAME.all_cards(s)) == 104
