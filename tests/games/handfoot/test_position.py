"""The public position builder of Samba Hand and Foot (``parlour.games.handfoot.position``): it
sets every part of a position and refuses the ones the rules of seed 004_bae80ddcdedd4514.txt
could never reach, naming the problem."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlour.core.cards import parse_cards, shoe
from parlour.core.conformance import check_view_consistency
from parlour.games.handfoot import GAME, HandFootRules
from parlour.games.handfoot.actions import Discard, Draw, Meld, Retract, TakePile
from parlour.games.handfoot.position import PHASES, PositionError, meld_of, position
from parlour.games.handfoot.state import PHASE_DRAW, PHASE_OVER, PHASE_PLAY, State

PACK = Counter(shoe(7, 14))

#: side 0 holds every book the seed asks for: "1 Samba …, 1 book of 7s, 1 book of wilds, 5 clean
#: books (no wild cards), and 1 dirty book (wilds)"
ALL_BOOKS = [
    "8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥",
    "7♣ 7♣ 7♣ 7♣ 7♦ 7♦ 7♦",
    "2♣ 2♣ 2♣ 2♣ 2♣ Jk Jk",
    "4♣ 4♣ 4♣ 4♣ 4♣ 4♣ 4♣",
    "5♣ 5♣ 5♣ 5♣ 5♣ 5♣ 5♣",
    "6♣ 6♣ 6♣ 6♣ 6♣ 6♣ 6♣",
    "8♣ 8♣ 8♣ 8♣ 8♣ 8♣ 8♣",
    "9♣ 9♣ 9♣ 9♣ 9♣ 9♣ 9♣",
    "K♣ K♣ K♣ K♣ K♣ 2♦ Jk",
]


def conserved(state: State) -> bool:
    return Counter(GAME.all_cards(state)) == PACK


def test_default_position_is_a_whole_pack_and_views_agree() -> None:
    s = position()
    assert conserved(s)
    assert s.round == 0 and s.to_act == 0 and s.phase == PHASE_DRAW
    assert [len(f) for f in s.feet] == [15, 15, 15, 15] and s.scores == [0, 0]
    assert GAME.legal_actions(s) == [Draw()]
    check_view_consistency(GAME, s, random.Random(1))


def test_sets_hands_feet_melds_red_threes_pile_and_stock() -> None:
    s = position(
        hands={0: "9♥ 9♠ 5♣ 3♠", 1: "K♦ Q♦", 2: "J♣", 3: "4♦"},
        feet={1: "A♣ " * 6 + "K♠ " * 7 + "Q♠ Q♠"},
        foot_taken=[0, 2],
        down=[0, 2],
        melds={0: ["A♣ A♦ A♥ A♠ A♠ A♠ Jk", "8♠ 9♠ 10♠"], 1: []},
        red_threes={0: "3♦ 3♥", 1: "3♥"},
        pile="4♦ 7♣ 8♠ 10♦ 6♥ J♣ Q♥ 9♦",
        stock="Q♣ J♦",
        known={0: "9♠"},
        scores=[1200, -300],
        round=2,
        first=1,
        to_act=0,
    )
    assert conserved(s)
    assert s.order == [1, 2, 3, 0] and s.opening_minimum() == 120
    assert Counter(s.hands[0][c] for c in parse_cards("9♥ 9♠ 5♣ 3♠")) == Counter({1: 4})
    assert (
        s.feet[0] == []
        and s.feet[2] == []
        and s.feet[1] == parse_cards("A♣ " * 6 + "K♠ " * 7 + "Q♠ Q♠")
    )
    assert s.melds[0][0].is_dirty and not s.melds[0][1].complete
    assert s.stock[-2:] == parse_cards("J♦ Q♣")  # the top of the stock is drawn first
    view = GAME.observe(s, 1)
    assert view.players[0].known == tuple(parse_cards("9♠"))
    assert view.sides[0].opened and not view.sides[1].opened
    assert view.scores == (1200, -300) and view.pile_top == parse_cards("9♦")[0]
    assert (
        GAME.action_text(s, TakePile(tuple(parse_cards("9♥ 9♠")), -1))
        == "take the pile (9♦ with 9♥ 9♠)"
    )
    assert TakePile(tuple(parse_cards("9♥ 9♠")), -1) in GAME.legal_actions(s)
    check_view_consistency(GAME, s, random.Random(2))


def test_stock_order_is_drawn_top_first() -> None:
    """004_bae80ddcdedd4514.txt: "To begin your turn you draw 4 cards"."""
    s = position(hands={2: "5♣"}, to_act=2, stock="9♣ 10♣ J♣ Q♣ K♣")
    after, _ = GAME.apply(s, Draw())
    assert Counter(c for c, n in enumerate(after.hands[2]) for _ in range(n)) == Counter(
        parse_cards("5♣ 9♣ 10♣ J♣ Q♣")
    )


def test_stock_length_when_the_cards_add_up() -> None:
    rules = HandFootRules(decks=4, jokers_per_deck=0)
    red = "3♦ 3♦ 3♦ 3♦ 3♥ 3♥ 3♥ 3♥"
    stock = parse_cards("9♣ 10♣ J♣")
    rest = Counter(shoe(4)) - Counter(parse_cards(red)) - Counter(stock)
    pile = sorted(rest.elements())[: sum(rest.values()) - 4 * 15]
    s = position(rules, red_threes={0: red}, pile=pile, stock=stock, stock_size=3)
    assert s.stock == stock[::-1] and len(s.pile) == 137
    assert Counter(GAME.all_cards(s)) == Counter(shoe(4))
    with pytest.raises(PositionError, match=r"stock_size 2: .* leaves 3 for the stock"):
        position(rules, red_threes={0: red}, pile=pile, stock=stock, stock_size=2)
    with pytest.raises(PositionError, match="cards do not add up — place 145 more cards elsewhere"):
        position(rules, stock_size=3)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("7♥ 7♠ 2♣", "wild cards may never be played in the book of 7s"),
        ("9♥ 9♠ 2♣ 2♦", "a book needs more natural cards than wild cards"),
        ("8♥ 9♥ J♥", "a samba is a run of consecutive ranks"),
        ("5♥ 6♥ 7♥", "a samba runs A K Q J 10 9 8 only; 5♥ cannot be in it"),
        ("9♥ 10♥ Jk", "not a meld"),
        ("3♣ 3♠ 3♣", "black 3s are never melded"),
        ("3♦ 3♥ 3♦", "red 3s are laid out beside the melds"),
        ("9♥ 9♠", "at least 3 cards"),
        ("9♥ 9♥ 9♥ 9♥ 9♥ 9♥ 9♥ 9♥", "a book holds 7 cards"),
        ("2♣ 2♦ 9♠", "a book needs more natural cards than wild cards"),
    ],
)
def test_an_illegal_meld_is_named(text: str, problem: str) -> None:
    """004_bae80ddcdedd4514.txt: "Wild cards may not be played as part of a samba or book of 7s";
    "there must be more natural cards than wild cards"; black 3s "are never played to the
    board"; sets "must contain at least 3 cards", books are 7."""
    with pytest.raises(PositionError, match=f"side 1, meld 1 \\({text}\\): .*{problem}"):
        position(melds={1: ["K♣ K♦ K♥", text]}, down=[1])
    with pytest.raises(PositionError, match=problem):
        meld_of(text)


def test_canastas_of_every_kind_and_one_unfinished_meld_per_rank() -> None:
    s = position(hands={0: "4♦"}, melds={0: [*ALL_BOOKS, "10♦ 10♦ 10♠", "K♠ K♠ 2♠"]}, down=[0])
    side = GAME.observe(s, 0).sides[0]
    assert side.can_go_out and side.missing == ()
    assert dict(side.books) == {"sambas": 1, "sevens": 1, "wilds": 1, "clean": 5, "dirty": 1}
    with pytest.raises(PositionError, match="already has an unfinished book of 10s"):
        position(melds={0: ["10♦ 10♦ 10♠", "10♣ 10♥ Jk"]}, down=[0])


def test_card_counts_must_fit_the_packs() -> None:
    """004_bae80ddcdedd4514.txt: "7 decks - including 2 jokers with each deck": 7 of a card, 14
    jokers."""
    with pytest.raises(
        PositionError,
        match=r"8 × A♠ are placed \(hand of seat 0 2, meld 0 of side 0 6\) but 7 decks",
    ):
        position(hands={0: "A♠ A♠"}, melds={0: ["A♠ A♠ A♠ A♠ A♠ A♠ Jk"]}, down=[0])
    with pytest.raises(PositionError, match="15 × Jk"):
        position(hands={0: "Jk " * 8, 1: "Jk " * 7})
    with pytest.raises(PositionError, match="a foot holds 15 cards"):
        position(feet={1: "9♣ 9♣"})


def test_red_threes_never_stay_in_a_hand_or_the_pile() -> None:
    """004_bae80ddcdedd4514.txt: red 3s are "played to the board"."""
    with pytest.raises(PositionError, match="red 3s go to the side's board at once"):
        position(hands={0: "3♦ 9♣"})
    with pytest.raises(PositionError, match="red 3s are never discarded"):
        position(pile="9♣ 3♥")
    with pytest.raises(PositionError, match="9♣ is not a red 3"):
        position(red_threes={0: "3♦ 9♣"})


def test_feet_follow_the_meld_requirement() -> None:
    """004_bae80ddcdedd4514.txt: "If you did lay down the required meld or played on your
    partner's meld you can now pick up your foot"."""
    with pytest.raises(PositionError, match="seat 1 picked up its foot without meeting"):
        position(foot_taken=[1], hands={1: "9♣"})
    with pytest.raises(PositionError, match="seat 2 met the meld requirement in an earlier turn"):
        position(down=[2], foot_taken=[], melds={0: ["9♣ 9♦ 9♥"]})
    with pytest.raises(PositionError, match="seat 2 has picked up its foot and holds no card"):
        position(down=[2], melds={0: ["9♣ 9♦ 9♥"]})
    with pytest.raises(PositionError, match="side 1 has melds from earlier turns"):
        position(melds={1: ["9♣ 9♦ 9♥"]})
    with pytest.raises(PositionError, match="no melds on the table"):
        position(down=[1], hands={1: "9♣"})
    with pytest.raises(PositionError, match="that seat has picked up its foot"):
        position(
            down=[0],
            hands={0: "5♣"},
            melds={0: ["9♣ 9♦ 9♥"]},
            feet={0: "4♣ " * 7 + "4♦ " * 7 + "5♦"},
        )
    # the player to act who met the requirement this turn still holds the foot until the discard
    s = position(
        hands={0: "5♣ 6♣"},
        melds={0: ["9♣ 9♦ 9♥", "K♣ K♦ K♥"]},
        down=[0],
        foot_taken=[],
        phase="melding",
        turn_melds=2,
    )
    after, events = GAME.apply(s, Discard(parse_cards("5♣")[0]))
    assert after.foot_taken[0] and any(e.kind == "foot" for e in events)


def test_phase_drawn_and_going_out_scores_exactly() -> None:
    """004_bae80ddcdedd4514.txt "Scoring": going out 2000, samba, book of 7s and book of wilds
    2000 each, clean books 500, dirty books 300, plus card points; cards left in hand subtract,
    black 3s 100 each."""
    s = position(
        hands={0: "Q♣", 1: "5♦", 2: "4♦ 3♠", 3: "6♦"},
        feet={1: "Q♦ " * 7 + "J♦ " * 7 + "3♠", 3: "10♦ " * 7 + "9♦ " * 7 + "A♦"},
        down=[0, 2],
        melds={0: ALL_BOOKS},
        to_act=0,
        phase="drawn",
    )
    assert GAME.legal_actions(s) == [Discard(parse_cards("Q♣")[0])]
    after, events = GAME.apply(s, Discard(parse_cards("Q♣")[0]))
    assert [e.kind for e in events][:3] == ["discard", "out", "round_over"]
    result = after.results[0]
    side0 = {k: int(v) for k, v in result.breakdown[0].items()}
    assert side0 == {
        "exact_cut": 0,  # default cuts: nobody took exactly 30
        "going_out": 2000,
        "red_threes": 0,
        "sambas": 2000,
        "sevens_books": 2000,
        "wild_books": 2000,
        "clean_books": 2500,
        "dirty_books": 300,
        "table_cards": 680,  # samba 80, 7s 35, wilds 200, clean 245, dirty 120
        "hand_cards": -5,  # North keeps 4♦
        "black_threes": -100,  # and 3♠
        "total": 11375,
    }
    side1 = {k: int(v) for k, v in result.breakdown[1].items()}
    # 5♦ and 6♦ in hand; the unpicked feet count against (foot_counts_against): 140 and 160
    assert side1["hand_cards"] == -310 and side1["black_threes"] == -100
    assert side1["total"] == -410


def test_phase_melding_is_provisional_until_the_minimum() -> None:
    """004_bae80ddcdedd4514.txt: the first melds of a round must reach the round's minimum
    ("1st – 50 points")."""
    s = position(
        hands={0: "9♣ 9♦ 9♥ 5♣ 4♠"}, melds={0: ["K♣ K♦ K♥"]}, phase="melding", turn_melds=1
    )
    assert s.provisional and s.turn_value == 30
    legal = GAME.legal_actions(s)
    assert Retract() in legal and not any(isinstance(a, Discard) for a in legal)
    assert Meld(tuple(parse_cards("9♣ 9♦ 9♥"))) in legal
    met, events = GAME.apply(s, Meld(tuple(parse_cards("9♣ 9♦ 9♥"))))
    assert met.down[0] and any(e.kind == "requirement_met" for e in events)
    with pytest.raises(PositionError, match="melded 60 points this turn, which meets the minimum"):
        position(melds={0: ["K♣ K♦ K♥", "Q♣ Q♦ Q♥"]}, phase="melding", turn_melds=2)
    with pytest.raises(PositionError, match=r"turn_melds 2: side 0 .* has 1 melds"):
        position(melds={0: ["K♣ K♦ K♥"]}, phase="melding", turn_melds=2)
    with pytest.raises(PositionError, match="belong to phases melding and pile_taken"):
        position(turn_melds=1, melds={0: ["K♣ K♦ K♥"]}, down=[0], hands={0: "4♣"})


def test_phase_pile_taken_sets_the_pending_cards() -> None:
    """004_bae80ddcdedd4514.txt: the top card is played "with 2 cards from your hand"; the next 7
    are set aside and join the hand "once you have discarded"."""
    pending = "4♦ 7♣ 8♠ 10♦ 6♥ J♣ K♠"
    s = position(
        hands={0: "5♣ 5♦ 5♥ A♣ A♦ 6♠"},
        melds={0: ["9♦ 9♥ 9♠"]},
        pile="4♠ 5♠",
        phase="pile_taken",
        taken_top="9♠",
        pending=pending,
        turn_melds=1,
    )
    assert s.took_pile and s.provisional and s.turn_value == 30 and conserved(s)
    # "without looking take the next 7 cards … keeping them face down" (seed 004): the view
    # has their number, not their faces
    assert s.pending == list(parse_cards(pending))
    assert GAME.observe(s, 2).pending == () and GAME.observe(s, 2).pending_size == 7
    s2, _ = GAME.apply(s, Meld(tuple(parse_cards("5♣ 5♦ 5♥"))))
    assert s2.provisional  # 45 < 50
    s3, _ = GAME.apply(s2, Retract())
    assert s3.phase == PHASE_DRAW and s3.pile_refused and s3.pile[-1] == parse_cards("9♠")[0]
    with pytest.raises(PositionError, match=r"needs taken_top .*the 7 cards below it"):
        position(melds={0: ["9♦ 9♥ 9♠"]}, phase="pile_taken", taken_top="9♠", turn_melds=1)
    with pytest.raises(PositionError, match="it must be in a meld of side 0"):
        position(melds={0: ["9♦ 9♥ 9♠"]}, phase="pile_taken", taken_top="K♠", pending=pending)
    with pytest.raises(PositionError, match="taken_top and pending belong to phase"):
        position(taken_top="9♠")


def test_phases_after_a_take_back() -> None:
    returned = position(
        hands={0: "9♣ 9♦ 5♣"}, phase="pile_returned", pile="4♦ 4♥ 4♠ 5♦ 5♥ 6♦ 6♥ 6♠ 9♥"
    )
    assert returned.phase == PHASE_DRAW and GAME.legal_actions(returned) == [Draw()]
    melds_back = position(hands={0: "9♣ 5♣"}, phase="melds_returned")
    assert melds_back.phase == PHASE_PLAY
    assert all(isinstance(a, Discard) for a in GAME.legal_actions(melds_back))
    with pytest.raises(PositionError, match="only melds that miss the requirement are taken back"):
        position(hands={0: "9♣"}, melds={0: ["K♣ K♦ K♥"]}, down=[0], phase="melds_returned")
    with pytest.raises(PositionError, match="phase 'waiting': one of draw, drawn"):
        position(phase="waiting")
    assert set(PHASES) >= {"draw", "drawn", "melding", "pile_taken"}


def test_rounds_partners_scores_and_seats() -> None:
    s = position(HandFootRules(rotate_partners=True), round=1, first=2, scores=[1, 2, 3, 4])
    assert s.side_of == [0, 0, 1, 1] and s.order[0] == 2 and s.to_act == 2
    assert s.opening_minimum() == 90
    with pytest.raises(PositionError, match="scores: 4 totals"):
        position(HandFootRules(rotate_partners=True), scores=[0, 0])
    with pytest.raises(PositionError, match="scores: 2 totals"):
        position(scores=[0, 0, 0])
    with pytest.raises(PositionError, match="round 4: the match has rounds 0–3"):
        position(round=4)
    with pytest.raises(PositionError, match=r"round 1: .* max_hands 1"):
        position(round=1, max_hands=1)
    with pytest.raises(PositionError, match="to_act: 4 is not a seat"):
        position(to_act=4)
    with pytest.raises(PositionError, match="known cards of seat 1: 9♣ ×1 is not in that hand"):
        position(known={1: "9♣"})
    with pytest.raises(PositionError, match="hand of seat 0: not a card: 'Zz'"):
        position(hands={0: "Zz"})


def test_exact_cuts_score() -> None:
    """004_bae80ddcdedd4514.txt: "if the portion of the deck taken equals 30 cards, player
    scores 100 points"."""
    s = position(cuts=[30, 29, 30, 31])
    assert [b["exact_cut"] for b in GAME.round_breakdown(s)] == [200, 0]


def test_play_goes_on_from_a_position() -> None:
    """Random play from a built position conserves the packs to the end of the round."""
    s = position(
        hands={0: "9♣ 9♦ 9♥ K♣ K♦ 5♣ 4♠ 2♣", 1: "Q♣ Q♦ Q♥ 6♠ 7♠", 2: "8♣ 8♦ Jk", 3: "A♣ A♦ 4♦"},
        melds={1: ["10♣ 10♦ 10♥ 10♠"]},
        down=[1, 3],
        pile="4♦ 7♣ 8♠ 10♦ 6♥ J♣ K♠ 9♠",
        max_hands=1,
    )
    rng = random.Random(5)
    steps = 0
    while GAME.to_act(s) is not None and steps < 3000:
        legal = GAME.legal_actions(s)
        s, _ = GAME.apply(s, legal[rng.randrange(len(legal))])
        steps += 1
        assert conserved(s)
        if steps % 97 == 0:
            check_view_consistency(GAME, s, rng)
    assert s.phase == PHASE_OVER and len(s.results) == 1
