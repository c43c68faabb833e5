"""The ``basic`` Samba bot: sound club play from the view only (seed 002 "Tips for beginners")."""

from __future__ import annotations

import random

from parlour import games
from parlour.bots import make
from parlour.core.cards import parse_cards
from parlour.games.samba import actions as A
from parlour.games.samba.bot import SambaBasicBot, plan_melds
from parlour.games.samba.position import make_position
from parlour.games.samba.state import MELD
from parlour.sim.tournament import Tournament, summarize

SEED = "002_91a2786a682fea8f.txt"
VARIANT = games.get("samba", max_hands=1)
GAME = VARIANT.game


def _act(state: object, seat: int = 0, seed: int = 0) -> object:
    bot = make("basic", VARIANT, seat, seed)
    return bot.act(GAME.observe(state, seat), GAME.legal_actions(state))


def test_registered_for_samba() -> None:
    assert isinstance(make("basic", VARIANT, 0, 1), SambaBasicBot)


def test_lays_out_red_threes() -> None:
    """002: "Don't hold on to red 3s: lay them out – one left in your hand costs 750"."""
    s = make_position(hands={0: "3♥ 9♠ 9♦ 5♣ K♠"}, pile="4♦", to_act=0, phase=MELD)
    assert _act(s) == A.LAY_RED3[27]


def test_takes_the_pile_with_a_natural_pair_once_opened() -> None:
    """002: taking the pile needs two natural cards of the top card's rank."""
    s = make_position(hands={0: "9♥ 9♠ 5♣ K♦"}, melds={0: ["7♣ 7♦ 7♥"]}, pile="4♦ 6♣ 9♦", to_act=0)
    assert isinstance(_act(s), A.TakePile)


def test_takes_the_top_card_onto_a_sequence() -> None:
    """002: the top card may be taken to extend a sequence of the side."""
    s = make_position(hands={0: "5♣ K♦ Q♠"}, melds={0: ["6♥ 7♥ 8♥"]}, pile="4♦ 9♥", to_act=0)
    assert isinstance(_act(s), A.TakeTop)


def test_does_not_open_below_the_minimum() -> None:
    """002: the first meld must reach the minimum (50 at the start): 5♠ 6♠ 7♠ (15) does not."""
    s = make_position(hands={0: "5♠ 6♠ 7♠ 9♦ K♣"}, pile="4♦", to_act=0, phase=MELD)
    assert isinstance(_act(s), A.Discard)


def test_opens_with_enough_and_melds_the_run_first() -> None:
    """002 tips: meld middle runs like 8-9-10 early; A♦ A♠ A♣ (60) suffices to open."""
    hand = parse_cards("A♦ A♠ A♣ 8♥ 9♥ 10♥ 4♣")
    melds = plan_melds(hand, use_wilds=False)
    assert melds[0] == parse_cards("8♥ 9♥ 10♥")
    s = make_position(hands={0: "A♦ A♠ A♣ 8♥ 9♥ 10♥ 4♣"}, pile="4♦", to_act=0, phase=MELD)
    assert isinstance(_act(s), A.Stage)


def test_discards_a_black_three_on_a_big_pile() -> None:
    """002: a discarded 3 blocks the pile for the next player."""
    s = make_position(
        hands={0: "3♠ 9♦ 9♥ K♣ 6♠"},
        melds={0: ["7♣ 7♦ 7♥"]},
        pile="4♦ 5♣ 6♦ 8♠ 10♣ J♦ Q♥ K♥ 5♥ 6♥",
        to_act=0,
        phase=MELD,
    )
    assert _act(s) == A.DISCARD[40]


def test_does_not_feed_the_opponents_sequence() -> None:
    """002: the top card fits a sequence of the side that may take it."""
    s = make_position(
        hands={0: "9♥ 5♣ 5♦ K♠ K♦ 4♣"},
        melds={0: ["7♣ 7♦ 7♥"], 1: ["6♥ 7♥ 8♥"]},
        pile="4♦",
        to_act=0,
        phase=MELD,
    )
    assert _act(s) != A.DISCARD[parse_cards("9♥")[0]]


def test_answers_no_while_holding_a_red_three() -> None:
    """002: "a player still holding one or more red 3s at the end of the hand costs 750"."""
    s = make_position(hands={2: "3♦ 5♣"}, to_act=2, phase="answer")
    assert _act(s, seat=2) == A.NO
    s = make_position(hands={2: "5♣"}, to_act=2, phase="answer")
    assert _act(s, seat=2) == A.YES


def test_uses_only_the_view_and_is_deterministic() -> None:
    state = VARIANT.new_game(21)
    for _ in range(40):  # into the middle of the hand
        seat = GAME.to_act(state)
        state, _ = GAME.apply_unchecked(state, _act(state, seat))
    seat = GAME.to_act(state)
    other = GAME.determinize(GAME.observe(state, seat), random.Random(3))
    assert other.hands[seat] == state.hands[seat] and other.hands != state.hands
    for seed in range(3):
        assert _act(state, seat, seed) == _act(other, seat, seed) == _act(state, seat, seed)


def test_basic_pair_beats_random_pair() -> None:
    """Duplicate hands, 4 players in partnerships: the basic side wins every hand."""
    res = Tournament(VARIANT, ["basic", "random"], games=3, seed=1, duplicate=True).run(workers=1)
    s = summarize(res)["bots"]["basic"]
    assert s["hands"] == 6 and s["hands_won"] == 6
    assert s["mean_hand_score_diff"] > 1000


def test_never_cycles_taking_the_pile_back_and_forth() -> None:
    """002 "First meld": a pile taken for an opening that falls short goes back; the bot must not
    take it again in the same turn (this deal once cycled take/undo for ever)."""
    from parlour.sim.match import play_match
    from parlour.sim.tournament import plan

    variant = games.get("samba", players=4, max_hands=1)
    spec = plan(variant, ["basic", "random"], 68, seed=2026, duplicate=True)[135]
    result = play_match(variant, spec.seed, spec.seating, record=False, max_decisions=3000)
    assert result.outcome.finished
