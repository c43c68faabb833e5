"""Scat / 31 / Blitz rules under the default options (seed 001_e8630c614840283e.txt)."""

from __future__ import annotations

import random

import pytest

from parlour.core.cards import parse_cards, shuffled_shoe
from parlour.core.errors import IllegalAction
from parlour.games.scat import GAME
from parlour.games.scat.actions import Declare31, Discard, DrawStock, EndHand, Knock, TakeDiscard
from parlour.games.scat.parts.values import hand_value
from parlour.games.scat.position import position as build
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import DEALT31, DISCARD, DRAW, OVER

from .helpers import card, cards, play, position


def cards_in_order(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


R = ScatRules()


# --- cards and their value ---------------------------------------------------------------------


def test_maximum_hand_is_ace_and_two_ten_point_cards() -> None:
    """001_e8630c614840283e.txt: "The maximum hand value is 31, consisting of the ace and two
    ten-point cards in the same suit"; A 11, K Q J 10."""
    assert hand_value(cards("A♥ K♥ J♥"), R) == 31
    assert hand_value(cards("A♥ Q♥ 10♥"), R) == 31
    assert hand_value(cards("K♠ Q♠ J♠"), R) == 30


def test_value_of_two_suited_hand_uses_pair_or_odd_card() -> None:
    """001_e8630c614840283e.txt: "If only two cards are in the same suit you can add those, or
    use the value of the odd card if it is higher than the sum of the other two"."""
    assert hand_value(cards("7♥ 5♥ K♣"), R) == 12
    assert hand_value(cards("4♥ 3♥ A♣"), R) == 11
    assert hand_value(cards("4♥ 3♥ 6♣"), R) == 7


def test_value_of_three_suits_is_highest_card() -> None:
    """001_e8630c614840283e.txt: "If you have three different suits the value of your hand is
    the value of the highest card in it"."""
    assert hand_value(cards("A♥ K♣ 2♠"), R) == 11
    assert hand_value(cards("9♥ 8♣ 2♠"), R) == 9


# --- the deal ----------------------------------------------------------------------------------


def test_deal_three_each_one_at_a_time_from_dealers_left_then_upcard() -> None:
    """001_e8630c614840283e.txt: "dealt out one at a time, starting with the player to dealer's
    left ... until everyone has a hand of three cards.  The next card is turned face up"."""
    state = GAME.new_game(ScatRules(players=3), 11)
    deck = shuffled_shoe(random.Random(GAME.hand_seed(state)), 1)
    order = [(state.dealer + 1 + i) % 3 for i in range(3)]
    for k, seat in enumerate(order):
        assert state.hands[seat] == tuple(sorted(deck[k:9:3]))
    assert state.pile == (deck[9],)
    assert state.stock == tuple(deck[10:])
    assert len(state.stock) == 52 - 10
    if state.phase == DRAW:
        assert state.to_act == order[0]


def test_first_player_is_dealers_left_and_deal_passes_clockwise() -> None:
    """001_e8630c614840283e.txt: "The player to dealer's left begins" and "The turn to deal
    passes on clockwise after each hand"."""
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠", "9♣ 9♥ 9♠"], dealer=2)
    assert GAME.to_act(state) == 0
    dealer = state.dealer
    # seat 0 knocks; seats 1 and 2 play; the next hand is dealt by seat 0
    state = play(state, Knock(), DrawStock(), Discard(card("7♣")), DrawStock(), Discard(card("6♣")))
    assert state.hand_no == 1
    assert state.dealer == (dealer + 1) % 3


# --- the turn ----------------------------------------------------------------------------------


def test_card_taken_from_pile_may_not_be_discarded() -> None:
    """001_e8630c614840283e.txt: "if you choose to take the top card from the discard pile, it
    is illegal to discard the same card"."""
    state = play(position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], pile="9♦"), TakeDiscard())
    assert state.phase == DISCARD
    assert Discard(card("9♦")) not in GAME.legal_actions(state)
    with pytest.raises(IllegalAction, match="just taken from the discard pile"):
        GAME.apply(state, Discard(card("9♦")))


def test_the_discard_pile_is_squared_up_only_the_top_card_shows() -> None:
    """001_e8630c614840283e.txt: "During play, the discard pile is always kept 'squared up' so
    that only the top card is visible and available to be taken" — every seat's view (and a
    spectator's) holds the top card and the pile's size, never the cards under it; a re-deal of
    the view changes the cards under the top and keeps the top."""
    state = build(hands=["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], pile="5♥ 4♣ 6♠ 7♣")
    for seat in (0, 1, None):
        view = GAME.observe(state, seat)
        assert view.pile_top == card("7♣") and view.pile_size == 4 and view.pile == ()
        data = GAME.view_to_json(view)
        assert data["pile_top"] == "7♣" and data["pile_size"] == 4 and data["pile"] == []
        assert not {"5♥", "4♣", "6♠"} & set(str(data).replace("'", " ").split())
    rng = random.Random(3)
    unders = set()
    for _ in range(30):
        other = GAME.determinize(GAME.observe(state, 0), rng)
        assert other.pile[-1] == card("7♣") and len(other.pile) == 4
        assert GAME.observe(other, 0) == GAME.observe(state, 0)
        unders.add(other.pile[:-1])
    assert len(unders) > 20


def test_open_pile_house_rule_shows_the_whole_pile() -> None:
    """A house rule (``open_pile``), not from seed 001: the pile spread so every card shows."""
    state = build(hands=["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], pile="5♥ 4♣ 6♠ 7♣", open_pile=True)
    view = GAME.observe(state, 1)
    assert view.pile == cards_in_order("5♥ 4♣ 6♠ 7♣") and view.pile_size == 4
    other = GAME.determinize(view, random.Random(1))
    assert other.pile == state.pile


def test_card_drawn_from_stock_may_be_discarded() -> None:
    """001_e8630c614840283e.txt: "if you draw the top card of the stock, you are free to discard
    the card that you drew"."""
    state = play(position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], stock="8♠ 7♣"), DrawStock())
    assert Discard(card("7♣")) in GAME.legal_actions(state)
    state = play(state, Discard(card("7♣")))
    assert state.hands[0] == cards("A♥ K♥ 2♣") and state.pile[-1] == card("7♣")


def test_illegal_action_leaves_state_unchanged() -> None:
    """001_e8630c614840283e.txt: a turn is "drawing ... then discarding one card" — discarding
    before drawing is refused and nothing changes."""
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"])
    before = state.copy()
    with pytest.raises(IllegalAction, match="draw a card"):
        GAME.apply(state, Discard(card("2♣")))
    assert state == before


# --- knocking ----------------------------------------------------------------------------------


def test_knock_gives_each_other_player_one_final_turn_then_showdown() -> None:
    """001_e8630c614840283e.txt: "Knocking ends your turn ... each other player gets one final
    turn ... After the player to the knocker's right has discarded, all players reveal"."""
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠", "9♣ 9♥ 8♠"], stock="2♦ 7♣ 6♣")
    state = play(state, Knock())
    assert state.knocker == 0 and state.to_act == 1
    assert Knock() not in GAME.legal_actions(state)
    state = play(state, DrawStock(), Discard(card("6♣")))
    assert state.to_act == 2 and state.hand_no == 0
    state = play(state, DrawStock(), Discard(card("7♣")))
    assert state.hand_no == 1  # showdown: next hand dealt
    assert state.last is not None and state.last.reason == "knock"
    assert state.last.values == (21, 7, 9)
    assert state.lives == (3, 2, 3)  # seat 1 (3♦ 4♦ = 7) is lowest


def test_knocker_tied_for_lowest_is_safe() -> None:
    """001_e8630c614840283e.txt: "If there is a tie involving the knocker, the other player(s)
    lose a life, but the knocker is safe"."""
    state = position(["9♥ 2♣ 3♦", "9♣ 4♥ 2♠", "K♠ Q♠ 5♦"], stock="2♦ 2♥ 3♣")
    state = play(state, Knock(), DrawStock(), Discard(card("3♣")), DrawStock(), Discard(card("2♥")))
    assert state.last is not None and state.last.changes == (0, -1, 0)


def test_knocker_strictly_lowest_loses_two() -> None:
    """001_e8630c614840283e.txt: "If the knocker's score is lower than that of every other
    player, the knocker loses two lives"."""
    state = position(["9♥ 2♣ 3♦", "10♣ 4♥ 2♠", "K♠ Q♠ 5♦"], stock="2♦ 2♥ 3♣")
    state = play(state, Knock(), DrawStock(), Discard(card("3♣")), DrawStock(), Discard(card("2♥")))
    assert state.last is not None and state.last.changes == (-2, 0, 0)
    assert state.lives == (1, 3, 3)


def test_tie_for_lowest_between_non_knockers_both_lose() -> None:
    """001_e8630c614840283e.txt: "If there is a tie for lowest between two or more players other
    than the knocker, then both (all) of those players lose a life"."""
    state = position(["K♥ Q♥ 3♦", "8♣ 4♥ 2♠", "8♠ 3♥ 5♦"], stock="2♦ 2♥ 3♣")
    state = play(state, Knock(), DrawStock(), Discard(card("3♣")), DrawStock(), Discard(card("2♥")))
    assert state.last is not None and state.last.changes == (0, -1, -1)


def test_knocker_hand_is_frozen_and_gets_no_more_turn() -> None:
    """001_e8630c614840283e.txt: "You must keep the hand you had at the start of that turn"."""
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], stock="2♦ 7♣ 6♣")
    state = play(state, Knock(), DrawStock(), Discard(card("6♣")))
    assert state.hand_no == 1 and state.last is not None
    assert state.last.shown[0].cards == cards("A♥ K♥ 2♣")


def test_two_players_left_may_take_back_own_discard_after_knock() -> None:
    """001_e8630c614840283e.txt: "only two players left in the game and your opponent knocks.
    The card you discarded just before the knock ... is now available for you to take back"."""
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], stock="2♦ 7♣ Q♥")
    state = play(state, DrawStock(), Discard(card("K♥")))  # breaks up hearts, tactically
    state = play(state, Knock())
    assert state.to_act == 0 and TakeDiscard() in GAME.legal_actions(state)
    state = play(state, TakeDiscard(), Discard(card("2♣")))
    assert state.last is not None and state.last.shown[0].cards == cards("A♥ K♥ Q♥")


# --- declaring 31 ------------------------------------------------------------------------------


def test_declared_31_all_others_lose_a_life() -> None:
    """001_e8630c614840283e.txt: "If after drawing and discarding a player achieves hand value of
    31, they show their cards immediately ... all the other players lose a life"."""
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠", "9♣ 9♥ 8♠"], stock="Q♥")
    state = play(state, DrawStock())
    assert Discard(card("2♣"), True) in GAME.legal_actions(state)
    state = play(state, Discard(card("2♣"), True))
    assert state.last is not None and state.last.reason == "declared_31"
    assert state.lives == (3, 2, 2)


def test_31_after_knock_costs_knocker_one_life_too() -> None:
    """001_e8630c614840283e.txt: "A player who makes 31 after another player has knocked still
    declares it and every other player including the the knocker loses one life"."""
    state = position(["K♣ Q♣ 2♦", "A♥ K♥ 2♣", "3♦ 4♦ 5♠"], stock="Q♥")
    state = play(state, Knock(), DrawStock(), Discard(card("2♣"), True))
    assert state.last is not None and state.last.changes == (-1, 0, -1)


def test_dealt_31_no_play_all_others_lose() -> None:
    """001_e8630c614840283e.txt: "A player who is dealt 31 ... declares it - there is no play and
    all the other players lose a life"."""
    for seed in range(2000):
        state = GAME.new_game(ScatRules(players=3), seed)
        if state.phase == DEALT31:
            break
    else:
        raise AssertionError("no dealt 31 in 2000 seeds")
    assert GAME.legal_actions(state) == [Declare31()]
    holder = state.to_act
    state = play(state, Declare31())
    assert state.last is not None and state.last.reason == "dealt_31"
    assert [state.last.changes[s] for s in range(3) if s != holder] == [-1, -1]
    assert state.last.changes[holder] == 0


def test_several_dealt_31_all_others_lose() -> None:
    """001_e8630c614840283e.txt: "If it happens that two or more players get 31 on the initial
    deal then all the players other than those with 31 lose"."""
    state = position(["A♥ K♥ Q♥", "A♠ K♠ J♠", "3♦ 4♦ 5♠"], phase=DEALT31)
    state = play(state, Declare31())
    assert state.last is not None and state.last.changes == (0, 0, -1)


def test_undeclared_31_cannot_be_claimed_later_and_counts_30() -> None:
    """001_e8630c614840283e.txt: "does not declare it as soon as they make it ... cannot claim it
    later.  An undeclared 31 ... effectively counts as 30"."""
    state = position(["A♥ K♥ 2♣", "K♣ Q♣ J♣"], stock="5♦ 9♠ 7♦ Q♥")
    state = play(state, DrawStock(), Discard(card("2♣")))  # 31 made, not declared
    state = play(state, DrawStock(), Discard(card("7♦")))
    state = play(state, DrawStock())  # seat 0 draws 9♠ and keeps the same hand
    assert Discard(card("9♠"), True) not in GAME.legal_actions(state)
    with pytest.raises(IllegalAction, match="cannot be claimed later"):
        GAME.apply(state, Discard(card("9♠"), True))
    state = play(state, Discard(card("9♠")), Knock(), DrawStock(), Discard(card("5♦")))
    # seat 0's undeclared 31 counts 30 and ties the knocker's K-Q-J: the knocker is safe
    assert state.last is not None and state.last.values == (30, 30)
    assert state.last.changes == (-1, 0)


def test_undeclared_31_holder_loses_when_another_declares() -> None:
    """001_e8630c614840283e.txt: "if another player declares 31 the holder of the undeclared 31
    will lose a life along with the other players"."""
    state = position(["A♥ K♥ 2♣", "A♣ K♣ 2♦", "3♦ 4♦ 5♠"], stock="7♠ 8♠ Q♣ Q♥")
    state = play(state, DrawStock(), Discard(card("2♣")))  # seat 0: 31, undeclared
    state = play(state, DrawStock(), Discard(card("2♦"), True))  # seat 1 declares
    assert state.last is not None and state.last.changes == (-1, 0, -1)


# --- the stock runs out ------------------------------------------------------------------------


def test_stock_exhausted_play_ends_when_discard_refused_lowest_loses() -> None:
    """001_e8630c614840283e.txt: "If the player whose turn it is does not wish to draw the top
    discard, the play ends ... If no one has knocked then the player who has the lowest score
    loses one life"."""
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠", "9♣ 9♥ 8♠"], stock="")
    legal = GAME.legal_actions(state)
    assert DrawStock() not in legal and EndHand() in legal and TakeDiscard() in legal
    with pytest.raises(IllegalAction, match="stock is empty"):
        GAME.apply(state, DrawStock())
    state = play(state, TakeDiscard(), Discard(card("2♣")), EndHand())
    assert state.last is not None and state.last.reason == "stock_exhausted"
    assert state.last.changes == (0, -1, 0)


def test_stock_exhausted_tie_for_lowest_all_lose() -> None:
    """001_e8630c614840283e.txt: "or if there is a tie all the players with the lowest score lose
    a life"."""
    state = position(["A♥ K♥ 2♣", "9♦ 4♠ 5♠", "9♣ 9♥ 8♠"], stock="")
    state = play(state, EndHand())
    assert state.last is not None and state.last.changes == (0, -1, -1)


# --- lives -------------------------------------------------------------------------------------


def test_on_the_county_then_out() -> None:
    """001_e8630c614840283e.txt: "If you have no money left ... 'on the county' ... If you lose
    while on the county, you are out of the game"."""
    state = position(["A♥ K♥ 2♣", "8♦ 4♠ 3♠", "9♣ 9♥ 8♠"], stock="", lives=(3, 1, 3))
    state = play(state, EndHand())
    assert state.lives[1] == 0 and not state.out[1]
    assert GAME.observe(state, 0).status[1] == "on the county"
    state2 = position(["A♥ K♥ 2♣", "8♦ 4♠ 3♠", "9♣ 9♥ 8♠"], stock="", lives=(3, 0, 3))
    state2 = play(state2, EndHand())
    assert state2.out[1] and state2.hands[1] == ()


def test_losing_two_with_one_penny_is_out() -> None:
    """001_e8630c614840283e.txt: "If you lose two lives when you only have one penny you are also
    out of the game"."""
    state = position(["9♥ 2♣ 3♦", "10♣ 4♥ 2♠", "K♠ Q♠ 5♦"], stock="2♦ 2♥ 3♣", lives=(1, 3, 3))
    state = play(state, Knock(), DrawStock(), Discard(card("3♣")), DrawStock(), Discard(card("2♥")))
    assert state.out[0]


def test_last_player_wins() -> None:
    """001_e8630c614840283e.txt: "The game continues until only one player has not been
    eliminated, and that player is the winner"."""
    state = position(["A♥ K♥ 2♣", "9♦ 4♠ 3♠"], stock="", lives=(2, 0))
    state = play(state, EndHand())
    assert state.phase == OVER and GAME.to_act(state) is None
    out = GAME.outcome(state)
    assert out.finished and out.termination == "last_player" and out.winners == (0,)


def test_all_tied_on_the_county_replay_the_hand() -> None:
    """001_e8630c614840283e.txt: "all the remaining players are on the county, the draw pile runs
    out ... and all remaining players have equal scores ... the hand would have to be replayed"."""
    state = position(["A♥ K♥ 2♣", "A♠ K♠ 2♦"], stock="", lives=(0, 0))
    state = play(state, EndHand())
    assert state.out == (False, False) and state.lives == (0, 0)
    assert state.phase != OVER and state.hand_no == 1


def test_eliminated_players_are_skipped() -> None:
    """001_e8630c614840283e.txt: a player out of the game takes no more part: no cards, no turn,
    no deal."""
    state = position(["A♥ K♥ 2♣", "8♦ 4♠ 3♠", "9♣ 9♥ 8♠"], stock="", lives=(3, 0, 3))
    state = play(state, EndHand())
    assert state.out[1]
    assert state.hands[1] == () and state.dealer != 1
    assert state.to_act != 1
