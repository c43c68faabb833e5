"""Melds: groups, canastas, sequences, sambas, red and black 3s (RULES.md §1 "Melds"; seed 002
"Melds" and "The 3s")."""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalAction
from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from parlour.games.samba.parts.melds import make_meld
from tests.games.samba.helpers import c, cs, play, pos, stage


def _meld_pos(hand: str, melds: list[str] | None = None, **kw: object) -> object:
    return pos(hands={0: hand}, melds={0: melds or []}, to_act=0, phase="meld", **kw)  # type: ignore[arg-type]


def test_group_wild_limits() -> None:
    """002_91a2786a682fea8f.txt: 'at least twice as many natural cards as wild cards, and never
    more than two wild cards in one group. So 9 9 Joker is fine, 9 Joker 2 is not.'"""
    assert make_meld(cs("9♣ 9♦ Jk")) is not None
    assert make_meld(cs("9♣ Jk 2♥")) is None
    assert make_meld(cs("9♣ 9♦ 9♥ 9♠ Jk Jk")) is not None
    assert make_meld(cs("9♣ 9♦ 9♥ 9♠ 9♠ 9♥ Jk Jk 2♣")) is None  # three wilds
    s = _meld_pos("9♣ Jk 2♥ K♠ 5♦")
    assert A.Stage(c("9♣")) not in GAME.legal_actions(s)  # 9 Jk 2 can never become a meld
    assert "at most two wild" in (GAME.explain(s, A.Stage(c("9♣"))) or "")
    s = play(_meld_pos("9♣ 9♦ Jk 2♥ K♠"), A.Stage(c("9♣")), A.Stage(c("Jk")))
    assert A.Stage(c("2♥")) not in GAME.legal_actions(s)
    assert A.Stage(c("9♦")) in GAME.legal_actions(s)
    g = _meld_pos("2♥ 2♣ K♠ 5♦", ["9♣ 9♦ 9♥ 9♠ Jk"])
    assert A.AddToMeld(0, c("2♥")) in GAME.legal_actions(g)
    g = play(g, A.AddToMeld(0, c("2♥")))
    assert A.AddToMeld(0, c("2♣")) not in GAME.legal_actions(g)
    assert "at most two wild" in (GAME.explain(g, A.AddToMeld(0, c("2♣"))) or "")


def test_several_groups_of_a_rank_and_merging() -> None:
    """002_91a2786a682fea8f.txt: 'Your side may have two separate groups of the same rank … and
    may merge them on your turn if you like.'"""
    s = _meld_pos("A♣ A♦ A♥ K♠ 5♦", ["A♠ A♠ Jk"])
    s = play(s, *stage("A♣", "A♦", "A♥"))
    assert [m.rank for m in s.melds[0]] == [14, 14]
    assert A.MergeGroups(0, 1) in GAME.legal_actions(s)
    s = play(s, A.MergeGroups(0, 1))
    assert len(s.melds[0]) == 1 and s.melds[0][0].size == 6


def test_merge_respects_wild_cap() -> None:
    """002_91a2786a682fea8f.txt: merged groups still obey 'never more than two wild cards'."""
    s = _meld_pos("K♠ 5♦", ["A♠ A♠ A♦ A♦ Jk Jk", "A♣ A♣ 2♣"])
    assert A.MergeGroups(0, 1) not in GAME.legal_actions(s)
    assert "wild" in (GAME.explain(s, A.MergeGroups(0, 1)) or "")


def test_canasta_pure_mixed_and_adding_past_seven() -> None:
    """002_91a2786a682fea8f.txt: 'A group of seven or more cards is a canasta … You may keep adding
    cards to a canasta; adding a wild card to a pure canasta turns it into a mixed one.'"""
    s = _meld_pos("Q♦ Q♥ 2♠ K♠ 5♦", ["Q♣ Q♣ Q♦ Q♥ Q♠ Q♠"])
    assert s.melds[0][0].canasta == ""
    s = play(s, A.AddToMeld(0, c("Q♦")))
    assert s.melds[0][0].canasta == "pure"
    s = play(s, A.AddToMeld(0, c("Q♥")))
    assert s.melds[0][0].size == 8 and s.melds[0][0].canasta == "pure"
    s = play(s, A.AddToMeld(0, c("2♠")))
    assert s.melds[0][0].canasta == "mixed"


def test_no_wild_on_canasta_option() -> None:
    """RULES.md option no_wild_on_canasta ('some rule books forbid adding wilds to a finished
    canasta'); seed 002 default allows it."""
    kw = {"hand": "2♠ K♠ 5♦", "melds": ["Q♣ Q♣ Q♦ Q♥ Q♠ Q♠ Q♦"]}
    assert A.AddToMeld(0, c("2♠")) in GAME.legal_actions(_meld_pos(**kw))  # type: ignore[arg-type]
    strict = _meld_pos(no_wild_on_canasta=True, **kw)  # type: ignore[arg-type]
    assert A.AddToMeld(0, c("2♠")) not in GAME.legal_actions(strict)
    assert "no_wild_on_canasta" in (GAME.explain(strict, A.AddToMeld(0, c("2♠"))) or "")


def test_sequence_rules() -> None:
    """002_91a2786a682fea8f.txt: 'three or more natural cards of the same suit in a row … 4 5 6 7 8
    9 10 J Q K A (Ace high only). Wild cards and 3s may never be used in a sequence.'"""
    assert make_meld(cs("Q♣ K♣ A♣")).kind == "sequence"  # type: ignore[union-attr]
    assert make_meld(cs("A♣ 2♣ 3♣")) is None
    assert make_meld(cs("3♣ 4♣ 5♣")) is None
    assert make_meld(cs("4♣ 5♣ Jk")) is None
    assert make_meld(cs("4♣ 5♣ 6♦")) is None
    s = _meld_pos("3♥ Jk K♠ 5♦", ["4♥ 5♥ 6♥"])
    assert A.AddToMeld(0, c("3♥")) not in GAME.legal_actions(s)
    assert "never be used in a sequence" in (GAME.explain(s, A.AddToMeld(0, c("Jk"))) or "")


def test_samba_is_seven_and_closed() -> None:
    """002_91a2786a682fea8f.txt: 'A sequence can grow to at most seven cards; a seven-card sequence
    is a samba – … nothing more can be added.'"""
    s = _meld_pos("10♠ J♠ K♠ 5♦", ["4♠ 5♠ 6♠ 7♠ 8♠ 9♠"])
    s = play(s, A.AddToMeld(0, c("10♠")))
    assert s.melds[0][0].samba
    assert A.AddToMeld(0, c("J♠")) not in GAME.legal_actions(s)
    assert "samba" in (GAME.explain(s, A.AddToMeld(0, c("J♠"))) or "")


def test_sequences_never_join() -> None:
    """002_91a2786a682fea8f.txt: 'Two sequences on the table can never be joined together.'"""
    s = _meld_pos("7♦ K♠ 5♦", ["4♦ 5♦ 6♦", "8♦ 9♦ 10♦"])
    s = play(s, A.AddToMeld(0, c("7♦")))
    assert [m.size for m in s.melds[0]] == [4, 3]
    assert not any(isinstance(a, A.MergeGroups) for a in GAME.legal_actions(s))
    assert "only two groups" in (GAME.explain(s, A.MergeGroups(0, 1)) or "")


def test_red_three_laid_singly_optional() -> None:
    """002_91a2786a682fea8f.txt: 'you may lay a red 3 out on its own at any point during your
    turn' — optional: discarding it (which blocks the pile) is also allowed."""
    s = _meld_pos("3♥ K♠ 5♦")
    legal = GAME.legal_actions(s)
    assert A.LayRedThree(c("3♥")) in legal and A.Discard(c("3♥")) in legal
    s = play(s, A.LayRedThree(c("3♥")))
    assert s.red3[0] == cs("3♥")


def test_red_threes_as_canasta_option() -> None:
    """002_91a2786a682fea8f.txt Variants: 'a red 3 laid out as soon as you get it and replaced by a
    card from the stock'."""
    s = pos(hands={0: "K♠ 5♦"}, to_act=0, stock="3♥ 9♣ 4♠", red_threes_as_canasta=True)
    s = play(s, A.DRAW)
    assert s.red3[0] == cs("3♥") and s.sizes[0] == 4
    assert s.hands[0][c("3♥")] == 0
    default = play(pos(hands={0: "K♠ 5♦"}, to_act=0, stock="3♥ 9♣ 4♠"), A.DRAW)
    assert default.hands[0][c("3♥")] == 1 and default.red3[0] == ()


def test_red_threes_as_canasta_at_the_deal() -> None:
    """002_91a2786a682fea8f.txt Variants: red 3s are laid out at once — none stays in a hand."""
    from parlour.games.samba.rules import SambaRules

    for seed in range(20):
        s = GAME.new_game(SambaRules(red_threes_as_canasta=True), seed)
        assert all(h[c("3♥")] == 0 and h[c("3♦")] == 0 for h in s.hands)
        assert all(n == 15 for n in s.sizes) or s.stock_len < 100


def test_black_threes_only_when_going_out() -> None:
    """002_91a2786a682fea8f.txt: 'Black 3s: can be laid out as a group … only in the turn in which
    you go out.'"""
    canastas = ["A♣ A♣ A♦ A♥ A♠ A♠ A♦", "K♣ K♣ K♦ K♥ K♠ K♠ K♦"]
    s = _meld_pos("3♣ 3♣ 3♠ 9♦", canastas)
    legal = GAME.legal_actions(s)
    assert A.MeldBlackThrees(cs("3♣ 3♣ 3♠")) in legal
    s = play(s, A.MeldBlackThrees(cs("3♣ 3♣ 3♠")))
    # the last card must go: discard it (or first ask the partner)
    rest = [a for a in GAME.legal_actions(s) if not isinstance(a, (A.Discard, A.AskGoOut))]
    assert rest == []
    # without two canastas they cannot be melded at all
    t = _meld_pos("3♣ 3♣ 3♠ 9♦", canastas[:1])
    assert not any(isinstance(a, A.MeldBlackThrees) for a in GAME.legal_actions(t))
    reason = GAME.explain(t, A.MeldBlackThrees(cs("3♣ 3♣ 3♠")))
    assert reason is not None and "only in the turn you go out" in reason
    # with more cards left than one to discard it is not the going-out turn
    u = _meld_pos("3♣ 3♣ 3♠ 9♦ 7♣", canastas)
    assert not any(isinstance(a, A.MeldBlackThrees) for a in GAME.legal_actions(u))
    with pytest.raises(IllegalAction):
        GAME.apply(u, A.MeldBlackThrees(cs("3♣ 3♣ 3♠")))


def test_wild_melds_only_in_bolivia() -> None:
    """002_91a2786a682fea8f.txt Variants, Bolivia: 'melds made entirely of wild cards are allowed;
    seven of them make a bolivia'.  In Samba wild cards are never melded alone."""
    hand = "2♣ 2♦ Jk K♠ 5♦"
    assert A.Stage(c("2♣")) not in GAME.legal_actions(_meld_pos(hand))
    b = _meld_pos(hand, wild_melds=True)
    s = play(b, *stage("2♣", "2♦", "Jk"))
    assert s.melds[0][0].kind == "wild"
    full = _meld_pos("2♥ K♠ 5♦", ["2♣ 2♦ 2♥ 2♠ Jk Jk Jk"], wild_melds=True)
    assert full.melds[0][0].bolivia
    assert A.AddToMeld(0, c("2♥")) not in GAME.legal_actions(full)
