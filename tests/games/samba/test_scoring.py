"""Hand scoring (RULES.md §1 "Scoring a hand"), with the seed's worked example."""

from __future__ import annotations

from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from parlour.games.samba.position import meld_of
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.scoring import hand_result, side_score
from tests.games.samba.helpers import c, cs, play, pos


def _vec(text: str) -> list[int]:
    v = [0] * 53
    for k in cs(text):
        v[k] += 1
    return v


def test_worked_example_anna_2370_other_side_500() -> None:
    """002_91a2786a682fea8f.txt worked example: 'Total 2370' for Anna's side; the other side
    'Score: 170 − 70 + 500 − 100 = 500'.  Built as a position and ended by Anna going out."""
    state = pos(
        hands={0: "5♣", 2: "8♠ 4♦", 1: "Jk K♠ 7♣ 4♠", 3: ""},
        melds={
            0: ["6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥", "K♣ K♣ K♦ K♥ K♠ K♠ Jk", "5♦ 5♥ 5♠"],
            1: ["A♣ A♣ A♦ A♥ A♠ A♠ A♦", "9♣ 9♦ 9♠"],
        },
        red_threes={0: "3♦ 3♥", 1: "3♥"},
        to_act=0,
        phase="meld",
    )
    # Anna (seat 0) goes out by discarding her last card (the example keeps exactly three 5s).
    end = play(state, A.Discard(c("5♣")))
    result = end.history[0]
    assert result.scores == (2370, 500)
    anna, other = result.breakdown
    assert anna["cards_melded"] == 185 and anna["cards_in_hand"] == -15
    assert anna["sambas"] == 1500 and anna["mixed_canastas"] == 300
    assert anna["going_out"] == 200 and anna["red_threes"] == 200
    assert other["cards_melded"] == 170 and other["cards_in_hand"] == -70
    assert other["pure_canastas"] == 500 and other["red_threes"] == -100
    assert end.scores == (2370, 500)
    assert GAME.outcome(end).hands[0].scores == (2370, 500)


def test_red_threes_all_six_score_1000() -> None:
    """002_91a2786a682fea8f.txt: 'If your side lays out all six, it gets 1000 instead of 600'."""
    melds = [meld_of("A♣ A♣ A♦ A♥ A♠ A♠ A♦"), meld_of("K♣ K♣ K♦ K♥ K♠ K♠ K♦")]
    b = side_score(SambaRules(), melds, 6, [[0] * 53], False)
    assert b["red_threes"] == 1000


def test_red_threes_without_requirement_cost_100_each() -> None:
    """002_91a2786a682fea8f.txt: red 3s score 'only if your side reaches the requirement for going
    out … otherwise each costs 100 points'."""
    melds = [meld_of("A♣ A♣ A♦ A♥ A♠ A♠ A♦")]
    assert side_score(SambaRules(), melds, 2, [[0] * 53], False)["red_threes"] == -200


def test_six_red_threes_without_requirement_cost_600() -> None:
    """issue 16 item 2 — 002_91a2786a682fea8f.txt: 'Each laid-out red 3 is worth 100 bonus points
    – but only if your side reaches the requirement for going out … by the end of the hand;
    otherwise each costs 100 points.'  Six laid out without the requirement cost 6 × 100 = 600
    (only the bonus has the 'all six' rule: 'If your side lays out all six, it gets 1000 instead
    of 600').  The mirrored −1,000 stays an option value (``six_red_threes_penalty=1000``)."""
    melds = [meld_of("A♣ A♣ A♦ A♥ A♠ A♠ A♦")]
    assert SambaRules().six_red_threes_penalty == 600
    assert side_score(SambaRules(), melds, 6, [[0] * 53], False)["red_threes"] == -600
    mirrored = SambaRules(six_red_threes_penalty=1000)
    assert side_score(mirrored, melds, 6, [[0] * 53], False)["red_threes"] == -1000
    # with the requirement met, all six still earn 1,000 under either setting
    two = [*melds, meld_of("K♣ K♣ K♦ K♥ K♠ K♠ K♦")]
    assert side_score(SambaRules(), two, 6, [[0] * 53], False)["red_threes"] == 1000
    # a whole hand ends with the six laid out and the side short of two canastas
    state = pos(
        hands={0: "5♣", 1: "K♠ 4♦"},
        melds={0: ["Q♣ Q♣ Q♦ Q♥ Q♠ Q♠ Q♦", "J♣ J♣ J♦ J♥ J♠ J♠ 2♦"], 1: ["A♣ A♦ A♠"]},
        red_threes={1: "3♦ 3♦ 3♦ 3♥ 3♥ 3♥"},
        to_act=0,
        phase="meld",
    )
    end = play(state, A.Discard(c("5♣")))
    assert end.history[0].breakdown[1]["red_threes"] == -600


def test_red_three_in_hand_costs_750_per_player() -> None:
    """002_91a2786a682fea8f.txt: 'A player still holding one or more red 3s at the end of the hand
    costs their side 750 points' — per player, however many they hold."""
    b = side_score(SambaRules(), [], 0, [_vec("3♥ 3♦ 3♥"), _vec("3♦")], False)
    assert b["red_three_penalty"] == -1500
    assert b["cards_in_hand"] == 0  # red 3s have no card value


def test_bonuses_samba_pure_mixed_going_out() -> None:
    """002_91a2786a682fea8f.txt scoring: samba 1500, pure canasta 500, mixed 300, going out 200."""
    melds = [
        meld_of("4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠"),
        meld_of("Q♣ Q♣ Q♦ Q♥ Q♠ Q♠ Q♦"),
        meld_of("J♣ J♣ J♦ J♥ J♠ J♠ 2♦"),
    ]
    b = side_score(SambaRules(), melds, 0, [[0] * 53], True)
    assert (b["sambas"], b["pure_canastas"], b["mixed_canastas"], b["going_out"]) == (
        1500,
        500,
        300,
        200,
    )
    assert b["cards_melded"] == 50 + 70 + 80


def test_card_values() -> None:
    """RULES.md §1 card values (checked by seed 002's example): joker 50, 2 and A 20, K–8 10,
    7–4 5, black 3 5, red 3 no card value."""
    b = side_score(SambaRules(), [], 0, [_vec("Jk 2♣ A♦ K♠ 8♥ 7♣ 4♦ 3♣ 3♦")], False)
    assert b["cards_in_hand"] == -(50 + 20 + 20 + 10 + 10 + 5 + 5 + 5)


def test_bolivia_black_three_in_hand_costs_100() -> None:
    """000_0fa2fe02243ab02b.txt Bolivia (RULES.md: 'black 3 left in hand −100 each'): option
    black_three_penalty replaces the 5-point card value."""
    rules = SambaRules(black_three_penalty=100)
    b = side_score(rules, [], 0, [_vec("3♣ 3♠ 4♦")], False)
    assert b["black_three_penalty"] == -200 and b["cards_in_hand"] == -5
    default = side_score(SambaRules(), [], 0, [_vec("3♣ 3♠ 4♦")], False)
    assert default["black_three_penalty"] == 0 and default["cards_in_hand"] == -15


def test_bolivia_bonus_and_escalera() -> None:
    """002_91a2786a682fea8f.txt Variants: 'seven of them make a bolivia worth 2500'; a 7-card
    sequence (escalera) scores as a samba."""
    rules = SambaRules(wild_melds=True, going_out="two_sevens_one_sequence")
    melds = [meld_of("2♣ 2♦ 2♥ 2♠ Jk Jk 2♣"), meld_of("8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦")]
    b = side_score(rules, melds, 0, [[0] * 53], False)
    assert b["bolivias"] == 2500 and b["sambas"] == 1500


def test_hand_result_sums_breakdown() -> None:
    """002_91a2786a682fea8f.txt: each side's hand score is the sum of cards and bonuses."""
    rules = SambaRules(players=2)
    r = hand_result(
        0,
        rules,
        ((0,), (1,)),
        [(meld_of("9♣ 9♦ 9♠"),), ()],
        [(), ()],
        [_vec(""), _vec("K♠")],
        0,
        "",
    )
    assert r.scores == (30 + 200, -10)
    assert all(sum(b.values()) == s for b, s in zip(r.breakdown, r.scores, strict=True))
