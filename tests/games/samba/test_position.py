"""The public position builder (issue 16, "Public position builders"): any point of a turn, the
hand number and the dealer, and impossible positions refused with the reason."""

from __future__ import annotations

import pytest

from parlour.core.cards import cards_str
from parlour.games.samba import GAME, PositionError, position
from parlour.games.samba import actions as A
from tests.games.samba.helpers import c, cs, play

CANASTAS = ["A♣ A♣ A♦ A♥ A♠ A♠ A♦", "K♣ K♣ K♦ K♥ K♠ K♠ K♦"]


def test_a_meld_half_built() -> None:
    """002_91a2786a682fea8f.txt '2. Meld (optional): lay out new melds' — a position with a meld
    being built card by card (``pending``) continues like a played one."""
    s = position(hands={0: "7♥ 9♥ 5♦"}, melds={0: CANASTAS}, pending="8♥", phase="meld")
    assert s.pending == cs("8♥") and s.sizes[0] == 3
    assert {a for a in GAME.legal_actions(s) if isinstance(a, A.Stage)} == {
        A.Stage(c("7♥")),
        A.Stage(c("9♥")),
    }
    after = play(s, A.Stage(c("7♥")), A.Stage(c("9♥")))
    assert after.melds[0][-1].cards == cs("7♥ 8♥ 9♥")
    with pytest.raises(PositionError, match="cannot become a meld"):
        position(hands={0: "5♦ K♣"}, melds={0: CANASTAS}, pending="8♥", phase="meld")
    with pytest.raises(PositionError, match="phases meld and pile_open"):
        position(hands={0: "7♥ 9♥"}, pending="8♥")


def test_a_pile_taken_for_a_first_meld() -> None:
    """002_91a2786a682fea8f.txt: 'take the top card, lay it out with the two cards as a new group
    (plus more cards if this is your side's first meld …), then take the rest of the pile' — the
    position between the two, with the rest of the pile still on the table."""
    s = position(
        hands={0: "K♠ K♣ K♦ 4♥"},
        melds={0: ["9♣ 9♦ 9♥"]},
        opened=(False, False),
        pile="4♦ 7♣",
        phase="pile_open",
        taken_top="9♣",
    )
    assert s.taken_top == c("9♣") and not s.opened[0]
    s = play(s, A.Stage(c("K♠")), A.Stage(c("K♣")), A.Stage(c("K♦")))
    assert s.opened[0] and s.sizes[0] == 3 and s.pile == ()
    undone = position(
        hands={0: "K♠ K♣"},
        melds={0: ["9♣ 9♦ 9♥"]},
        opened=(False, False),
        pile="4♦",
        phase="pile_open",
        taken_top="9♣",
    )
    back = play(undone, A.UNDO)
    assert back.phase == "draw" and back.pile == cs("4♦ 9♣") and back.sizes[0] == 4
    with pytest.raises(PositionError, match="must be in a group of side 0"):
        position(
            hands={0: "K♠"},
            melds={0: ["9♣ 9♦ 9♥"]},
            opened=(False, False),
            phase="pile_open",
            taken_top="8♣",
        )
    with pytest.raises(PositionError, match="needs taken_top"):
        position(hands={0: "K♠"}, melds={0: ["9♣ 9♦ 9♥"]}, opened=(False, False), phase="pile_open")


def test_a_question_waiting_for_its_answer() -> None:
    """002_91a2786a682fea8f.txt: 'Before going out, you may ask your partner "Partner, may I go
    out?" – you must obey the answer.'  Phase answer: the partner (``to_act``) answers."""
    s = position(hands={0: "5♦", 2: "K♠"}, melds={0: CANASTAS}, to_act=2, phase="answer")
    assert s.asked and GAME.legal_actions(s) == [A.YES, A.NO]
    assert play(s, A.YES).to_act == 0
    told = position(hands={0: "5♦"}, melds={0: CANASTAS}, phase="meld", permission="no")
    assert GAME.legal_actions(told) == [A.PASS]
    with pytest.raises(PositionError, match="partnership"):
        position(hands={0: "5♦"}, melds={0: CANASTAS}, to_act=1, phase="answer", players=3)


def test_hand_number_dealer_and_scores() -> None:
    """002_91a2786a682fea8f.txt: 'the deal then passes to the left after each hand' and the first
    meld's minimum 'depends on your side's score so far'."""
    s = position(hands={2: "K♠ 5♦"}, to_act=2, hand_number=5, dealer=1, scores=[3100, -20])
    view = GAME.observe(s, 2)
    assert (view.hand_number, view.dealer, view.sides[0].opening_minimum) == (5, 1, 120)
    assert view.sides[1].opening_minimum == 15
    with pytest.raises(PositionError, match="one total per side"):
        position(scores=[0, 0, 0])


def test_illegal_melds_are_named() -> None:
    """002_91a2786a682fea8f.txt 'Melds': groups with 'at least twice as many natural cards as
    wild cards' and 'never more than two wild cards', sequences of one suit in a row, no wild
    cards in a sequence, seven at most.  The meld at fault is named, with its rule."""
    cases = {
        "9♠ Jk 2♥": "twice as many natural cards",
        "6♥ 7♥ 2♣": "wild cards may never be used in a sequence",
        "6♥ 7♥ 9♥": "in a row",
        "4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠": "at most seven",
        "2♣ 2♦ Jk": "only with wild_melds",
        "3♣ 3♣ 3♠": "black 3s are melded only in the turn",
        "9♠ 9♥": "at least three cards",
    }
    for text, words in cases.items():
        with pytest.raises(PositionError, match=words) as err:
            position(melds={1: ["Q♣ Q♦ Q♥", text]})
        assert str(err.value).startswith(f"side 1, meld 1 ({cards_str(cs(text))})")
    assert position(melds={1: ["2♣ 2♦ Jk"]}, wild_melds=True).melds[1][0].kind == "wild"


def test_card_counts_must_add_up() -> None:
    """002_91a2786a682fea8f.txt: 'three standard 52-card decks and 6 jokers (162 cards)'."""
    with pytest.raises(PositionError, match=r"4 × Q♠ are placed .* hold only 3"):
        position(hands={0: "Q♠ Q♠"}, pile="Q♠ Q♠")
    s = position(hands={0: "K♠ 5♦", 1: "4♣"}, stock="9♣ 4♠", stock_size=20)
    assert s.stock_len == 20 and s.stock[-2:] == cs("4♠ 9♣")
    assert sum(s.sizes) + 20 == 162 and s.sizes[2] > 60
    assert sorted(GAME.all_cards(s)) == sorted(GAME.all_cards(position()))
    with pytest.raises(PositionError, match="do not add up"):
        position(hands={0: "K♠", 1: "4♣", 2: "5♣", 3: "6♣"}, stock_size=20)


def test_impossible_turns_are_refused() -> None:
    """002_91a2786a682fea8f.txt: the first meld 'must be worth at least a minimum' (melds that
    miss it never stay on the table past the turn), and a player with no cards has gone out."""
    with pytest.raises(PositionError, match="has melds but has not opened"):
        position(hands={0: "5♦"}, melds={1: ["Q♣ Q♦ Q♥"]}, opened=(False, False))
    with pytest.raises(PositionError, match="meets its minimum of 50"):
        position(hands={0: "5♦"}, melds={0: ["A♣ A♦ A♥"]}, opened=(False, False), phase="meld")
    building = position(
        hands={0: "5♦ 9♣"}, melds={0: ["5♠ 6♠ 7♠"]}, opened=(False, False), phase="meld"
    )
    assert not any(isinstance(a, A.Discard) for a in GAME.legal_actions(building))
    with pytest.raises(PositionError, match="holds no card"):
        position(melds={0: CANASTAS}, phase="meld")
    with pytest.raises(PositionError, match="has opened but has no melds"):
        position(hands={0: "5♦"}, opened=(True, False))
    with pytest.raises(PositionError, match="phase 'lobby'"):
        position(phase="lobby")
    with pytest.raises(PositionError, match="not in that hand"):
        position(hands={0: "5♦"}, known={0: "9♣"})
    with pytest.raises(PositionError, match="red_threes_as_canasta"):
        position(hands={0: "3♥ 5♦"}, red_threes_as_canasta=True)


def test_the_hand_as_it_stands_and_as_it_ended() -> None:
    """002_91a2786a682fea8f.txt 'Scoring': 'plus the value of all cards in its melds, minus the
    value of all cards still in its players' hands, plus bonuses (or minus penalties)'.  A hand
    can be scored as it stands; a finished hand's result stays in the state's history."""
    s = position(
        hands={0: "5♦", 1: "K♠ 3♥"},
        melds={0: CANASTAS, 1: ["9♣ 9♦ 9♥"]},
        red_threes={0: "3♦"},
        phase="meld",
    )
    now = GAME.hand_breakdown(s)
    assert now.scores == (140 + 70 + 2 * 500 + 100 - 5, 30 - 10 - 750)
    end = play(s, A.Discard(c("5♦")))
    last = end.history[-1]
    assert last.scores == (now.scores[0] + 5 + 200, now.scores[1])
    assert last.breakdown[0]["going_out"] == 200 and end.hand_no == 1
    assert GAME.observe(end, None).score_sheet[-1] == last
