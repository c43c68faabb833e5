"""Scoring of Samba Hand and Foot, hand-computed (seed 004_bae80ddcdedd4514.txt, "Scoring")."""

from __future__ import annotations

from parlour.core.cards import parse_card
from parlour.games.handfoot import GAME, HandFootRules
from parlour.games.handfoot.actions import Discard
from parlour.games.handfoot.scoring import red_three_score
from tests.games.handfoot.test_rules import GOING_OUT_BOOKS
from tests.games.handfoot.util import scenario

SIDE0_EXPECTED = {
    "exact_cut": 200,  # seats 0 and 2 both cut exactly 30
    "going_out": 2000,
    "red_threes": 300,  # 3 red 3s
    "sambas": 2000,
    "sevens_books": 2000,
    "wild_books": 2000,
    "clean_books": 2500,  # 4s 5s 6s 9s Ks
    "dirty_books": 300,  # queens with 2 2s and a joker
    # samba 80, 7s 35, wilds 200, 4s/5s/6s 35 each, 9s 70, Ks 70, dirty Qs 130, unfinished Js 30
    "table_cards": 720,
    "hand_cards": -25,  # North keeps A♣ 5♦
    "black_threes": -100,  # and 3♠
    "total": 11895,
}
SIDE1_EXPECTED = {
    "exact_cut": 0,  # 28 and 33 cards
    "going_out": 0,
    "red_threes": 1100,  # 8 red 3s: the book of seven (1,000) + 100
    "sambas": 0,
    "sevens_books": 0,
    "wild_books": 0,
    "clean_books": 0,
    "dirty_books": 300,  # K K K K K 2 2
    "table_cards": 135,  # kings 90, 8-9-10 of hearts 30, three 7s 15
    # West: Jk 2♣ 9♦ = 80 and an unpicked foot of 100; East: Q♠ Q♠ = 20
    "hand_cards": -200,
    "black_threes": -200,  # West's two 3♣
    "total": 1135,
}


def finished_round_state():  # type: ignore[no-untyped-def]
    return scenario(
        hands={0: "10d", 1: "Jk 2c 3c 3c 9d", 2: "Ac 3s 5d", 3: "Qs Qs"},
        melds={
            0: [*GOING_OUT_BOOKS, "Jc Jd Jh"],
            1: ["Kh Ks 2d 2h Kc Kd Kh", "8h 9h 10h", "7c 7d 7h"],
        },
        red_threes={0: "3d 3h 3d", 1: "3d 3d 3d 3d 3h 3h 3h 3h"},
        feet={1: "4c 4c 4c 4c 4c 5c 5c 5c 5c 5c 8c 8c 8c 8c 8c"},
        foot_taken=[0, 2, 3],
        down=[0, 1, 2, 3],
        cuts=[30, 28, 30, 33],
    )


def test_exact_score_of_a_finished_round() -> None:
    """004_bae80ddcdedd4514.txt "Scoring": "30 Cards Exact cut - 100 pts - Going Out - 2000 points
    - Red 3s (individual) - 100 points each - Red 3s (book) - 1000 points - Samba - 2000 pts each
    - Book of 7s - 2000 pts each - Book of Wilds - 2000 pts each - Clean Books - 500 each - Dirty
    Books - 300 each", then "count every card, except the red 3s that were played", minus cards
    in hand, black 3s −100 each."""
    state = finished_round_state()
    after, events = GAME.apply(state, Discard(parse_card("10♦")))
    result = after.results[0]
    assert dict(result.breakdown[0]) == SIDE0_EXPECTED
    assert dict(result.breakdown[1]) == SIDE1_EXPECTED
    assert result.scores == (11895.0, 1135.0)
    assert after.scores == [11895, 1135]
    assert after.round == 1  # the next round is dealt at once
    assert (result.note, result.note_data) == ("went_out", {"seat": 0})
    assert any(e.kind == "round_over" for e in events)


def test_unpicked_foot_option() -> None:
    """004_bae80ddcdedd4514.txt counts "cards remaining in their hand"; whether an unpicked foot
    counts too is not in the seed: option foot_counts_against (default on)."""
    state = finished_round_state()
    state.rules = HandFootRules(cut_spread=0.0, foot_counts_against=False)
    after, _ = GAME.apply(state, Discard(parse_card("10♦")))
    assert after.results[0].breakdown[1]["hand_cards"] == -100


def test_red_three_book() -> None:
    """004_bae80ddcdedd4514.txt: "If a team manages to get 7 red 3s they have created a book and
    will get 1000 points for the book. If they get additional red 3s they get 100 points for each
    one"."""
    rules = HandFootRules()
    assert [red_three_score(rules, n) for n in (0, 1, 6, 7, 8, 14)] == [
        0,
        100,
        600,
        1000,
        1100,
        1700,
    ]


def test_highest_total_after_four_rounds_wins() -> None:
    """004_bae80ddcdedd4514.txt: "The partnership with the highest total score after all four
    rounds have been scored wins"."""
    state = finished_round_state()
    state.round = 3
    after, events = GAME.apply(state, Discard(parse_card("10♦")))
    out = GAME.outcome(after)
    assert out.finished and out.termination == "rounds"
    assert out.winners == (0,) and out.scores == (11895.0, 1135.0)
    assert GAME.to_act(after) is None
    assert any(e.kind == "match_over" for e in events)
