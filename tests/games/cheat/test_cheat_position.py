"""The public Cheat position builder (issue 16: public position builders): every phase can be
set up, the result plays on like a dealt game, and impossible positions are refused."""

from __future__ import annotations

import random

import pytest

from parlour.core.cards import parse_card, parse_cards
from parlour.core.conformance import check_view_consistency
from parlour.games.cheat import GAME, PositionError, position
from parlour.games.cheat.actions import Challenge, Claim, Pass, Pick
from parlour.games.cheat.rules import CheatRules
from parlour.games.cheat.state import ALL_RANKS, CHOOSE_FIRST, LATE, PLAY


def _apply(state, *actions):  # type: ignore[no-untyped-def]
    for a in actions:
        state, _ = GAME.apply(state, a)
    return state


def _play(state, cards: str, rank: int, count: int | None = None):  # type: ignore[no-untyped-def]
    picks = [Pick(c) for c in sorted(parse_cards(cards))]
    return _apply(state, *picks, Claim(len(picks) if count is None else count, rank))


def _views_hold(state) -> None:  # type: ignore[no-untyped-def]
    check_view_consistency(GAME, state, random.Random(4))


def test_rebuilds_a_dealt_game() -> None:
    """001_e8630c614840283e.txt: "A turn consists of discarding one or more cards face down on
    the pile, and calling out their rank. The first player must discard Aces, the second
    player discards Twos" — two unchallenged plays of a dealt game, and a challenge window in
    which one seat has answered, are rebuilt exactly from the cards."""
    rules = CheatRules(players=3, first_player="random")
    state = GAME.new_game(rules, 9)
    first = state.turn_seat
    aces = [c for c in range(52) if state.hands[first][c] and c % 13 == 12]
    lie = [next(c for c in range(52) if state.hands[first][c])]
    opened = aces[:1] or lie
    state = _apply(state, *(Pick(c) for c in opened), Claim(1, 14), Pass(), Pass())
    second = state.turn_seat
    card = next(c for c in range(52) if state.hands[second][c])
    state = _apply(state, Pick(card), Claim(1, 2), Challenge())  # one seat answered
    hands = ["".join(f"{c} " for c in []) for _ in range(3)]
    from parlour.core.cards import card_str

    hands = [" ".join(card_str(c) for c in range(52) for _ in range(h[c])) for h in state.hands]
    built = position(
        rules,
        hands=hands,
        pile=[(first, card_str(opened[0]), 14), (second, card_str(card), 2)],
        phase="window",
        asked=1,
        challengers=[state.askers[0]],
        seed=9,
    )
    assert built == state
    _views_hold(built)


def test_every_phase() -> None:
    """000_0fa2fe02243ab02b.txt: "When two or more people call out a player and it turns out
    they were wrong, the pile will be divided among them"; "In the Hawaiian version of
    Bullshit, a player can challenge another player regardless of whose turn it currently is";
    "the first player to set down their cards is picked by another player" (Canada)."""
    # play: a selection being built
    s = position(hands=["A♦ 5♥", "2♣ 9♠", "K♦"], selection="A♣", rest=2)
    assert s.phase == PLAY and s.selection == (parse_card("AC"),) and s.shown[0] == 3
    assert Claim(1, 14) in GAME.legal_actions(s) and Pick(parse_card("AD")) in GAME.legal_actions(s)
    _views_hold(s)
    # window: seat 1 challenged (hidden), seat 2 answers; wrong challengers split the pile
    s = position(
        hands=["5♥", "9♠", "K♦ 3♣", "4♣"],
        pile=[(3, "K♠", 13), (0, "A♣ A♦", 14)],
        turns=7,
        phase="window",
        asked=1,
        challengers=[1],
        rest=3,
    )
    assert GAME.observe(s, 2).my_decision == "" and GAME.observe(s, 1).my_decision == "challenge"
    _views_hold(s)
    s = _apply(s, Challenge(), Pass())
    record = s.challenges[-1]
    assert record.truthful and record.takers == (1, 2) and record.shares == (2, 1)
    # late round (Hawaiian): seat 1 passed openly, seat 2 asked
    s = (
        position(
            hands=["5♥", "9♠", "K♦"],
            pile=[(0, "2♣ 7♦", 2)],
            phase="late",
            late_passed=[1],
            rest=2,
            preset_rules=None,
        )
        if False
        else position(
            CheatRules(rank_rule="bullshit", challenge_any_time=True),
            hands=["5♥", "9♠", "K♦"],
            pile=[(0, "2♣ 7♦", 2)],
            phase="late",
            late_passed=[1],
            rest=2,
        )
    )
    assert s.phase == LATE and s.to_act == 2 and GAME.observe(s, 0).late_passed == (1,)
    _views_hold(s)
    assert not _apply(s, Challenge()).challenges[-1].truthful
    # the dealer chooses the first player (Canada)
    s = position(
        CheatRules(rank_rule="bullshit", first_player="dealer_chooses"),
        hands=["5♥", "9♠", "K♦"],
        phase="choose_first",
        rest=2,
    )
    assert s.phase == CHOOSE_FIRST and s.to_act == 2
    _views_hold(s)


def test_defaults_follow_the_rules() -> None:
    """000_0fa2fe02243ab02b.txt: "The player who is holding the two of clubs begins the game";
    "After the challenge is resolved, play continues in normal rotation: the player to the
    left of the one who was challenged plays" (001_e8630c614840283e.txt)."""
    s = position(CheatRules(rank_rule="bullshit"), hands=["5♥", "9♠ 2♣", "K♦"], rest=0)
    assert s.turn_seat == 1 and s.must_include == parse_card("2C") and s.allowed == (2,)
    assert GAME.legal_actions(s) == [Pick(parse_card("2C"))]
    s = position(hands=["5♥", "9♠", "K♦"], pile=[(1, "9♦", 9)], turns=4, rest=2)
    assert s.turn_seat == 2 and s.allowed == (10,)
    s = position(
        CheatRules(after_challenge="restart"), hands=["5♥", "9♠", "K♦"], turns=4, to_play=1, rest=2
    )
    assert s.allowed == ALL_RANKS
    s = position(hands=["5♥", "9♠", "K♦"], turns=4, to_play=1, allowed=[6], rest=2)
    assert s.allowed == (6,)
    # an over-claim awaiting challenges: three Aces claimed, one card put down
    s = position(
        CheatRules(overclaim=True),
        hands=["5♥ 6♥", "9♠", "K♦"],
        pile=[(0, "A♣", 14, 3)],
        phase="window",
        shown=[0, 1, 48],
        rest=2,
    )
    assert GAME.observe(s, 1).pile_size == 3 and GAME.observe(s, 1).hand_sizes[0] == 0
    _views_hold(s)
    s = _apply(s, Pass(), Challenge())
    assert not s.challenges[-1].truthful and s.shown[0] == 3 == sum(s.hands[0])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": ["A♣ A♣"], "rest": 0, "players": 2}, "2 × A♣ named"),
        ({"hands": ["A♣", "K♦"]}, "do not add up"),
        ({"hands": ["A♣", "K♦"], "rest": 5}, "no seat 5"),
        ({"hands": ["5♥", "9♠"], "pile": [(0, "7♦", 7)], "rest": 1}, "first play"),
        (
            {"hands": ["5♥", "9♠"], "pile": [(0, "7♦", 7), (1, "8♦", 9)], "turns": 5, "rest": 1},
            "cannot follow",
        ),
        (
            {"hands": ["5♥", "9♠"], "pile": [(0, "7♦ 8♦", 7, 1)], "turns": 3, "rest": 1},
            "claim of 1",
        ),
        ({"hands": ["5♥", "9♠"], "pile": [(0, "7♦", 7, 2)], "turns": 3, "rest": 1}, "claim of 2"),
        ({"hands": ["5♥", "9♠"], "phase": "window", "rest": 1}, "no play in the pile"),
        (
            {"hands": ["5♥", "9♠"], "pile": [(0, "7♦", 7)], "turns": 3, "to_play": 0, "rest": 1},
            "seat 1 plays",
        ),
        ({"hands": ["", "9♠", "5♥"], "out": [0], "rest": 1}, "play_on_for_places"),
        ({"hands": ["5♥", "9♠"], "shown": [3, 50], "rest": 1}, "only with overplay"),
        ({"hands": ["5♥", "", "9♠"], "rest": 2}, "seat 1 holds no card"),
        ({"hands": ["5♥", "9♠"], "phase": "late", "pile": [(0, "A♦", 14)], "rest": 1}, "late"),
        ({"hands": ["5♥", "9♠"], "rank_rule": "bullshit", "to_play": 0, "rest": 1}, "2♣"),
        ({"hands": ["5♥", "9♠"], "phase": "dream", "rest": 1}, "phase must be"),
        ({"hands": ["", "9♠"], "to_play": 0, "rest": 1}, "holds no card"),
        (
            {
                "hands": ["5♥", "9♠", "3♦"],
                "pile": [(0, "A♦", 14)],
                "phase": "window",
                "asked": 2,
                "rest": 1,
            },
            "one must be left",
        ),
        (
            {
                "hands": ["5♥", "9♠", "3♦"],
                "pile": [(0, "A♦", 14)],
                "phase": "window",
                "challengers": [2],
                "asked": 1,
                "rest": 1,
            },
            "only seats that answered",
        ),
        ({"hands": ["5♥", "9♠"], "turns": 3, "to_play": 0, "rest": 1}, "allowed=…"),
    ],
)
def test_impossible_positions_are_refused(kwargs: dict[str, object], message: str) -> None:
    """001_e8630c614840283e.txt: "One standard pack of 52 cards is used"; "All the cards are
    dealt out to the players"; the claims follow the rank order — a position that breaks these
    is refused with a message saying why."""
    with pytest.raises(PositionError, match=message):
        position(**kwargs)  # type: ignore[arg-type]


def test_several_packs_and_jokers() -> None:
    """001_e8630c614840283e.txt: "you may use two or more packs shuffled together";
    000_0fa2fe02243ab02b.txt: "You can keep the Jokers in and use them as wild cards"."""
    s = position(CheatRules(decks=2, jokers=2), hands=["A♣ A♣ Jk", "Jk 3♦"], rest=1)
    assert sum(map(sum, s.hands)) == 106
    with pytest.raises(PositionError, match="3 × Jk"):
        position(CheatRules(decks=2, jokers=2), hands=["Jk Jk Jk"], rest=0, players=2)


def test_the_end_of_the_game_as_a_state() -> None:
    """001_e8630c614840283e.txt: "The first player to get rid of all their cards and survive any
    challenge resulting from their final play wins the game" — a last play awaiting its
    challenges, built directly, and the finished game inspected: the result with each seat's
    score (−cards held) as Cheat's one hand."""
    s = position(hands=["", "2D 9D", ""], pile=[(0, "AC", 14)], phase="window", rest=2)
    assert GAME.to_act(s) == 1 and not GAME.outcome(s).finished
    _views_hold(s)
    end = _apply(s, Pass(), Pass())
    assert GAME.to_act(end) is None and end.termination == "went_out"
    outcome = GAME.outcome(end)
    assert outcome.winners == (0,) and outcome.scores == (0.0, -2.0, -49.0)
    assert [(h.scores, h.note) for h in outcome.hands] == [((0.0, -2.0, -49.0), "went_out")]
    # the same play caught as a lie: no end, the player takes the pile back
    lie = position(hands=["", "2D 9D", ""], pile=[(0, "5C", 14)], phase="window", rest=2)
    caught = _apply(lie, Challenge(), Pass())
    assert GAME.to_act(caught) == 1 and sum(caught.hands[0]) == 1 and not GAME.outcome(caught).hands
