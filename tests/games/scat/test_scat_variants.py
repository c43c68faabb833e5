"""Scat variants and presets (seed 001_e8630c614840283e.txt, "Variations").  Each test plays
the same position under the default rules too and checks that the variant changes the result."""

from __future__ import annotations

import pytest

from parlour import games
from parlour.core.errors import IllegalAction, RulesError
from parlour.games.scat import ENTRY, GAME
from parlour.games.scat.actions import Discard, DrawStock, EndHand, Hammer, Knock, ThrowDown
from parlour.games.scat.parts.values import hand_value
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import DRAW, OVER, THROW_DOWN

from .helpers import card, cards, play, position

DEFAULT = ScatRules()


def preset(name: str, players: int = 3) -> ScatRules:
    rules = ENTRY.rules(name, players)
    assert isinstance(rules, ScatRules)
    return rules


def knock_tie_hand(rules: ScatRules) -> tuple[int, ...]:
    """Seat 0 knocks with 9; seat 1 ends with 9 too; seat 2 has 20."""
    state = position(["9♥ 2♣ 3♦", "9♣ 4♥ 2♠", "K♠ Q♠ 5♦"], stock="2♦ 2♥ 3♣", rules=rules)
    state = play(state, Knock(), DrawStock(), Discard(card("3♣")), DrawStock(), Discard(card("2♥")))
    assert state.last is not None
    return state.last.changes


def knocker_lowest_hand(rules: ScatRules) -> tuple[int, ...]:
    state = position(["9♥ 2♣ 3♦", "10♣ 4♥ 2♠", "K♠ Q♠ 5♦"], stock="2♦ 2♥ 3♣", rules=rules)
    state = play(state, Knock(), DrawStock(), Discard(card("3♣")), DrawStock(), Discard(card("2♥")))
    assert state.last is not None
    return state.last.changes


def thirty_one_after_knock(rules: ScatRules) -> tuple[int, ...]:
    state = position(["K♣ Q♣ 2♦", "A♥ K♥ 2♣", "3♦ 4♦ 5♠"], stock="Q♥", rules=rules)
    state = play(state, Knock(), DrawStock(), Discard(card("2♣"), True))
    assert state.last is not None
    return state.last.changes


# --- knock ties --------------------------------------------------------------------------------


def test_knock_tie_knocker_loses_two_others_one() -> None:
    """001_e8630c614840283e.txt: "in case of a tie for lowest score between a knocker and one or
    more other players, the knocker loses two lives while the other players in the tie lose one"."""
    rules = ScatRules(players=3, knock_tie="knocker_loses_two_others_one")
    assert knock_tie_hand(ScatRules(players=3)) == (0, -1, 0)
    assert knock_tie_hand(rules) == (-2, -1, 0)


def test_knock_tie_variant_31_after_knock_costs_knocker_two() -> None:
    """001_e8630c614840283e.txt: "If a player declares 31 after a knock, the player with 31 is
    safe, knocker loses two lives and the other players each lose one life"."""
    rules = ScatRules(players=3, knock_tie="knocker_loses_two_others_one")
    assert thirty_one_after_knock(ScatRules(players=3)) == (-1, 0, -1)
    assert thirty_one_after_knock(rules) == (-2, 0, -1)


def test_all_remaining_lose_last_life_play_another_hand() -> None:
    """001_e8630c614840283e.txt: "possible for all the remaining players to lose their last life
    simultaneously, in which case those players play another hand (in which they will all be on
    their honour / on the county)"."""
    rules = ScatRules(players=2, knock_tie="knocker_loses_two_others_one")
    state = position(["9♥ 2♣ 3♦", "9♣ 4♥ 2♠"], stock="2♦ 3♣", rules=rules, lives=(1, 0))
    state = play(state, Knock(), DrawStock(), Discard(card("3♣")))
    assert state.out == (False, False) and state.lives == (0, 0) and state.phase != OVER


def test_knock_tie_only_knocker_loses() -> None:
    """001_e8630c614840283e.txt: "Some play that in a tie involving the knocker, only the knocker
    loses"."""
    assert knock_tie_hand(ScatRules(players=3, knock_tie="only_knocker_loses")) == (-1, 0, 0)


def test_knocker_lowest_loses_only_one() -> None:
    """001_e8630c614840283e.txt: "Some play that a knocker who has the lowest score only loses
    one life, not two"."""
    assert knocker_lowest_hand(ScatRules(players=3)) == (-2, 0, 0)
    assert knocker_lowest_hand(ScatRules(players=3, knocker_lowest_loses=1)) == (-1, 0, 0)


# --- special hands -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [30, 30.5])
def test_three_of_a_kind(value: float) -> None:
    """001_e8630c614840283e.txt: "Some play that 3-of-a-kind of any rank counts as 30 (or 30.5)
    points ... If it counts 30.5, it beats all hands except a 31"."""
    trips = cards("7♠ 7♥ 7♦")
    assert hand_value(trips, DEFAULT) == 7
    rules = ScatRules(three_of_a_kind=value)
    assert hand_value(trips, rules) == value
    beats_kqj = hand_value(trips, rules) > hand_value(cards("K♠ Q♠ J♠"), rules)
    assert beats_kqj == (value == 30.5)


def test_straight_flush_30() -> None:
    """001_e8630c614840283e.txt: "any straight-flush (three cards of the same suit in sequence) is
    worth 30 (except for A-K-Q, which is 31)"."""
    rules = ScatRules(straight_flush_30=True)
    assert hand_value(cards("4♥ 5♥ 6♥"), DEFAULT) == 15
    assert hand_value(cards("4♥ 5♥ 6♥"), rules) == 30
    assert hand_value(cards("A♥ K♥ Q♥"), rules) == 31
    assert hand_value(cards("A♥ 2♥ 3♥"), rules) == 16  # ace is high only


# --- knocking restrictions ---------------------------------------------------------------------


def test_min_knock() -> None:
    """001_e8630c614840283e.txt: "a minimum score with which you are allowed to knock - for
    example 17, 19 or 21"."""
    hands = ["K♥ 8♥ 2♣", "3♦ 4♦ 5♠"]  # 18
    assert Knock() in GAME.legal_actions(position(hands))
    for limit, ok in ((17, True), (19, False), (21, False)):
        state = position(hands, rules=ScatRules(players=2, min_knock=limit))
        assert (Knock() in GAME.legal_actions(state)) is ok
    with pytest.raises(IllegalAction, match="at least 19"):
        GAME.apply(position(hands, rules=ScatRules(players=2, min_knock=19)), Knock())


def test_knock_needs_one_suit() -> None:
    """001_e8630c614840283e.txt: "a knock is only allowed by a player who has three cards of the
    same suit"."""
    rules = ScatRules(players=2, knock_needs_one_suit=True)
    assert Knock() in GAME.legal_actions(position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"]))
    with pytest.raises(IllegalAction, match="three cards of the same suit"):
        GAME.apply(position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], rules=rules), Knock())
    assert Knock() in GAME.legal_actions(position(["A♥ K♥ 2♥", "3♦ 4♦ 5♠"], rules=rules))


def test_no_knock_in_first_round() -> None:
    """RULES.md §4 / 001_e8630c614840283e.txt (Ride the Bus software): "the bus cannot be stopped
    in your first turn to play" — option knock_first_round=False."""
    rules = ScatRules(players=2, knock_first_round=False)
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], rules=rules)
    assert Knock() in GAME.legal_actions(position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"]))
    assert Knock() not in GAME.legal_actions(state)
    state = play(state, DrawStock(), Discard(card("7♣")), DrawStock(), Discard(card("6♣")))
    assert Knock() in GAME.legal_actions(state)


# --- hammer and throw-down ---------------------------------------------------------------------


def test_hammer_first_player_calls_immediate_showdown() -> None:
    """001_e8630c614840283e.txt: "the very first player ... has the option to call a 'hammer' ...
    no one gets to draw a card ... If the first player ... has the lowest hand value, they lose
    two lives"."""
    hands = ["9♥ 2♣ 3♦", "10♣ 4♥ 2♠", "K♠ Q♠ 5♦"]
    assert Hammer() not in GAME.legal_actions(position(hands))
    rules = ScatRules(players=3, hammer=True)
    state = position(hands, rules=rules)
    assert Hammer() in GAME.legal_actions(state)
    state = play(state, Hammer())
    assert state.last is not None and state.last.reason == "hammer"
    assert state.last.changes == (-2, 0, 0)
    later = play(position(hands, rules=rules), DrawStock(), Discard(card("7♣")))
    assert Hammer() not in GAME.legal_actions(later)


def test_throw_down_decided_before_looking() -> None:
    """001_e8630c614840283e.txt: "'throw-down' or 'shotgun' where the first player must decide
    before looking at their cards whether or not to call for an immediate showdown"."""
    rules = ScatRules(players=3, throw_down=True)
    for seed in range(50):
        state = GAME.new_game(rules, seed)
        if state.phase == THROW_DOWN:
            break
    first = state.to_act
    assert GAME.new_game(ScatRules(players=3), seed).phase == DRAW
    assert GAME.legal_actions(state) == [ThrowDown(True), ThrowDown(False)]
    assert GAME.observe(state, first).hand == ()  # has not looked
    assert GAME.observe(state, (first + 1) % 3).hand != ()
    plays_on = play(state, ThrowDown(False))
    assert plays_on.phase == DRAW and plays_on.to_act == first
    assert GAME.observe(plays_on, first).hand == state.hands[first]
    called = play(state, ThrowDown(True))
    assert called.last is not None and called.last.reason == "throw_down"
    assert called.last.knocker == first


# --- presets -----------------------------------------------------------------------------------


def test_cadillac_four_nickels_and_grand_cadillac() -> None:
    """001_e8630c614840283e.txt: Cadillac: "each player begins with four nickels ... Three Aces
    make a 'Grand Cadillac' worth 33 points ... declared in the same way as a Cadillac ...
    Three-of-a-kind of a rank other than Aces is worth 30 points"."""
    rules = preset("cadillac")
    state = GAME.new_game(rules, 1)
    assert state.lives == (4, 4, 4)
    assert GAME.observe(state, 0).status[0] == "4 nickels"
    assert hand_value(cards("A♠ A♥ A♦"), rules) == 33
    assert hand_value(cards("A♠ A♥ A♦"), DEFAULT) == 11
    assert hand_value(cards("8♠ 8♥ 8♦"), rules) == 30
    state = position(["A♠ A♥ 2♣", "3♦ 4♦ 5♠", "9♣ 9♥ 8♠"], stock="A♦", rules=rules)
    state = play(state, DrawStock())
    assert Discard(card("2♣"), True) in GAME.legal_actions(state)
    state = play(state, Discard(card("2♣"), True))
    assert state.last is not None and state.last.changes == (0, -1, -1)


def test_cadillac_knocker_tied_for_lowest_loses_two_others_nothing() -> None:
    """001_e8630c614840283e.txt: Cadillac: "If the knocker ties with one or more other players for
    lowest hand the knocker loses two lives and the others lose nothing"."""
    assert knock_tie_hand(preset("cadillac")) == (-2, 0, 0)


def test_cadillac_poverty_then_out() -> None:
    """001_e8630c614840283e.txt: Cadillac: "a player who has no nickels is on poverty and a player
    who loses a life when on poverty is out of the game"."""
    rules = preset("cadillac")
    state = position(["A♥ K♥ 2♣", "8♦ 4♠ 3♠", "9♣ 9♥ 8♠"], stock="", lives=(4, 1, 4), rules=rules)
    state = play(state, EndHand())
    assert GAME.observe(state, 0).status[1] == "on poverty" and not state.out[1]


def test_gin_knocker_highest_everyone_else_gets_a_letter() -> None:
    """001_e8630c614840283e.txt: GIN: "if after this the knocker's hand is highest or equal
    highest, everyone except the knocker gets a letter.  If another player beats the knocker,
    the knocker gets a letter"."""
    rules = preset("gin")
    hands = ["K♥ Q♥ 2♦", "K♣ Q♣ 2♠", "8♦ 4♠ 3♠"]
    default = play(
        position(hands), Knock(), DrawStock(), Discard(card("7♣")), DrawStock(), Discard(card("6♣"))
    )
    assert default.last is not None and default.last.changes == (0, 0, -1)
    state = play(
        position(hands, rules=rules),
        Knock(),
        DrawStock(),
        Discard(card("7♣")),
        DrawStock(),
        Discard(card("6♣")),
    )
    assert state.last is not None and state.last.changes == (0, -1, -1)
    assert GAME.observe(state, 0).status[1] == "G"
    beaten = ["K♥ 8♥ 2♦", "K♣ Q♣ 2♠", "8♦ 4♠ 3♠"]
    state = play(
        position(beaten, rules=rules),
        Knock(),
        DrawStock(),
        Discard(card("7♣")),
        DrawStock(),
        Discard(card("6♣")),
    )
    assert state.last is not None and state.last.changes == (-1, 0, 0)


def test_gin_three_letters_out_and_three_of_a_kind_30_5() -> None:
    """001_e8630c614840283e.txt: GIN: "a player who has all three letters is out of the game ...
    a three-of-a-kind is worth 30.5 points"."""
    rules = preset("gin")
    assert hand_value(cards("7♠ 7♥ 7♦"), rules) == 30.5
    hands = ["K♥ 8♥ 2♦", "K♣ Q♣ 2♠", "8♦ 4♠ 3♠"]
    state = play(
        position(hands, rules=rules, lives=(1, 3, 3)),
        Knock(),
        DrawStock(),
        Discard(card("7♣")),
        DrawStock(),
        Discard(card("6♣")),
    )
    assert state.out[0]  # no 'county' in GIN
    default = play(
        position(hands, lives=(1, 3, 3)),
        Knock(),
        DrawStock(),
        Discard(card("7♣")),
        DrawStock(),
        Discard(card("6♣")),
    )
    assert not default.out[0]


def test_ride_the_bus_positions_and_extra_levels() -> None:
    """001_e8630c614840283e.txt: Ride the Bus: "first, you stand at the back of the bus, then you
    are in the middle of the bus, then at the front of the bus, then you are on the stairs, then
    you are off the bus ... 'on the second step' ... If extra levels are introduced, they apply to
    all players"."""
    rules = preset("ride_the_bus")
    seen = []
    state = GAME.new_game(rules, 3)
    for lives in (4, 3, 2, 1, 0):
        seen.append(
            GAME.observe(
                position(["A♥ K♥ 2♣", "8♦ 4♠ 3♠", "9♣ 9♥ 8♠"], rules=rules, lives=(4, lives, 4)), 0
            ).status[1]
        )
    assert seen == [
        "seated at the back",
        "standing at the back",
        "in the middle of the bus",
        "at the front of the bus",
        "on the stairs",
    ]
    state = position(["A♥ K♥ 2♣", "8♦ 4♠ 3♠", "9♣ 9♥ 8♠"], stock="", lives=(4, 0, 4), rules=rules)
    assert play(state, EndHand()).out[1]
    more = ENTRY.rules("ride_the_bus", 3, {"extra_levels": 2})
    assert isinstance(more, ScatRules)
    state = GAME.new_game(more, 3)
    assert state.lives == (6, 6, 6)
    on_step = position(["A♥ K♥ 2♣", "8♦ 4♠ 3♠", "9♣ 9♥ 8♠"], stock="", lives=(6, 1, 6), rules=more)
    assert GAME.observe(on_step, 0).status[1] == "on the second step"
    after = play(on_step.copy(), EndHand())
    assert not after.out[1]
    assert GAME.observe(after, 0).status[1] == "asking the driver to stop"


def _fc_showdown(rules: ScatRules, hands: list[str]) -> tuple[int, ...]:
    state = play(
        position(hands, rules=rules),
        Knock(),
        DrawStock(),
        Discard(card("7♣")),
        DrawStock(),
        Discard(card("6♣")),
    )
    assert state.last is not None
    return state.last.changes


def test_french_canadian_highest_scores_non_knocker_wins_ties() -> None:
    """001_e8630c614840283e.txt: French Canadian: "the player with the highest score is awarded
    one point.  If there is a tie the player who did not knock wins it"."""
    rules = preset("french_canadian").replace(poker_tiebreak=False)
    hands = ["K♥ Q♥ 2♦", "K♣ Q♣ 2♠", "8♦ 4♠ 3♠"]
    assert _fc_showdown(DEFAULT.replace(players=3), hands) == (0, 0, -1)
    assert _fc_showdown(rules, hands) == (0, 1, 0)
    assert _fc_showdown(rules, ["8♦ 4♠ 3♠", "K♥ Q♥ 2♦", "K♣ Q♣ 2♠"]) == (0, 1, 1)


def test_french_canadian_poker_tiebreak() -> None:
    """001_e8630c614840283e.txt: "the tie is broken if possible by looking at the ranks of the
    cards as in poker - for example A-10-9 beats K-Q-J, K-10-9 beats Q-J-9 and K-J-7 beats
    K-9-8"."""
    rules = preset("french_canadian")
    assert rules.poker_tiebreak
    plain = rules.replace(poker_tiebreak=False)
    hands = ["8♦ 4♠ 3♠", "K♥ J♥ 7♥", "K♣ 9♣ 8♣"]
    assert _fc_showdown(plain, hands) == (0, 1, 1)
    assert _fc_showdown(rules, hands) == (0, 1, 0)
    # the tie-break beats the knocker rule: the knocker with A-10-9 wins against K-Q-J
    assert _fc_showdown(rules, ["A♥ 10♥ 9♥", "K♣ Q♣ J♣", "8♦ 4♠ 3♠"]) == (1, 0, 0)
    assert _fc_showdown(plain, ["A♥ 10♥ 9♥", "K♣ Q♣ J♣", "8♦ 4♠ 3♠"]) == (0, 1, 0)


def test_french_canadian_31_scores_a_point_and_31_points_win() -> None:
    """001_e8630c614840283e.txt: French Canadian: "A player who makes 31 declares it and score a
    point immediately.  The game apparently goes on until someone reaches a score of 31"."""
    rules = preset("french_canadian")
    state = position(
        ["A♥ K♥ 2♣", "3♦ 4♦ 5♠", "9♣ 9♥ 8♠"], stock="Q♥", rules=rules, lives=(30, 12, 0)
    )
    state = play(state, DrawStock(), Discard(card("2♣"), True))
    assert state.last is not None and state.last.changes == (1, 0, 0)
    assert state.lives == (31, 12, 0)
    out = GAME.outcome(state)
    assert out.finished and out.termination == "target_points" and out.winners == (0,)


def test_knock_needs_one_suit_option_in_french_canadian() -> None:
    """001_e8630c614840283e.txt: "Jeffrey Jacobs describes a version of this game in which players
    are not allowed to knock unless they have three cards of the same suit"."""
    rules = preset("french_canadian").replace(knock_needs_one_suit=True)
    assert Knock() in GAME.legal_actions(
        position(["K♥ Q♥ 2♦", "3♦ 4♦ 5♠", "9♣ 9♥ 8♠"], rules=preset("french_canadian"))
    )
    assert Knock() not in GAME.legal_actions(
        position(["K♥ Q♥ 2♦", "3♦ 4♦ 5♠", "9♣ 9♥ 8♠"], rules=rules)
    )


# --- more players, safety cap, registry ------------------------------------------------------


def test_ten_or_more_players_with_one_pack() -> None:
    """issue 16 item 12 — 001_e8630c614840283e.txt: "From 2 to 9 or more people can play";
    "A standard 52 card deck is used". One pack seats 10 or more: 12 players still leave a
    15-card stock (52 − 36 dealt − the upcard); two packs stay an option (decks=2)."""
    for n in (10, 12, 16):
        rules = ScatRules.from_json({"players": n})
        assert rules.decks == 1
        state = GAME.new_game(rules, 5)
        assert len(GAME.all_cards(state)) == 52
        assert [len(h) for h in state.hands] == [3] * n and len(state.pile) == 1
        assert len(state.stock) == 52 - 3 * n - 1
        assert GAME.observe(state, 0).stock_size == 52 - 3 * n - 1
    assert len(GAME.new_game(ScatRules(players=12), 1).stock) == 15
    assert games.get("scat", players=12).rules.decks == 1  # type: ignore[attr-defined]
    with pytest.raises(RulesError, match="players"):
        ScatRules.from_json({"players": 17})
    rules = ScatRules.from_json({"players": 12, "decks": 2})
    state = GAME.new_game(rules, 5)
    assert len(GAME.all_cards(state)) == 104 and len(state.stock) == 104 - 37
    assert sum(len(h) for h in state.hands) == 36


def test_max_hands_cap_ends_match() -> None:
    """Safety cap (not in the seed): option max_hands ends the match, termination 'max_hands'."""
    rules = ScatRules(players=3, max_hands=1)
    state = position(["A♥ K♥ 2♣", "8♦ 4♠ 3♠", "9♣ 9♥ 8♠"], stock="", rules=rules)
    state = play(state, EndHand())
    out = GAME.outcome(state)
    assert out.finished and out.termination == "max_hands" and out.winners == (0, 2)


def test_registry_names_and_presets() -> None:
    """001_e8630c614840283e.txt: "In the USA it has various names including Scat, 31, Blitz"."""
    for name in ("scat", "31", "blitz", "thirty-one"):
        assert games.get(name).name == "scat"
    assert games.get("cadillac").preset == "cadillac"
    assert set(ENTRY.presets) == {"scat", "cadillac", "gin", "ride_the_bus", "french_canadian"}
