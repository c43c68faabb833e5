"""Taking from the discard pile (RULES.md §1; seed 002 "Taking the discard pile", seed 000)."""

from __future__ import annotations

from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from tests.games.samba.helpers import cs, play, pos, stage


def _top_actions(s: object) -> list[object]:
    return [a for a in GAME.legal_actions(s) if isinstance(a, (A.TakeTop, A.TakePile))]  # type: ignore[arg-type]


def test_sequence_melded_may_take_top() -> None:
    """002_91a2786a682fea8f.txt: 'Your side has 6♥ 7♥ 8♥ 9♥ on the table. The top discard is the
    10♥: you may take it and add it to your sequence.'"""
    s = pos(hands={0: "K♣ 4♦"}, melds={0: ["6♥ 7♥ 8♥ 9♥"]}, pile="5♣ 10♥", to_act=0)
    assert _top_actions(s) == [A.TakeTop(0)]
    after = play(s, A.TakeTop(0))
    assert after.melds[0][0].cards == cs("6♥ 7♥ 8♥ 9♥ 10♥")
    assert after.pile == cs("5♣")  # only the top card
    assert after.phase == "meld" and after.sizes[0] == 2


def test_sequence_in_hand_may_not_take() -> None:
    """002_91a2786a682fea8f.txt: 'If the 6♥ to 9♥ were still in your hand, you could not take it.'"""
    s = pos(hands={0: "6♥ 7♥ 8♥ 9♥"}, pile="10♥", to_act=0)
    assert _top_actions(s) == []
    reason = GAME.explain(s, A.TakeTop(0))
    assert reason is not None and "sequence" in reason


def test_sequence_678_melded_9_in_hand_may_not_take_10() -> None:
    """000_0fa2fe02243ab02b.txt: 'if I have 6-7-8 melded and 9 in my hand 10 is discarded by the
    player before me, I cannot take the discard'."""
    s = pos(hands={0: "9♥ K♣"}, melds={0: ["6♥ 7♥ 8♥"]}, pile="10♥", to_act=0)
    assert _top_actions(s) == []
    assert GAME.explain(s, A.TakeTop(0)) is not None


def test_take_whole_pile_with_natural_pair() -> None:
    """002_91a2786a682fea8f.txt: 'if you hold two natural cards of the same rank as the top card,
    take the top card, lay it out with the two cards as a new group … then take the rest of the
    pile into your hand'."""
    s = pos(
        hands={0: "9♥ 9♠ K♣"},
        melds={0: ["A♣ A♦ A♠"]},
        pile="4♦ 7♣ 9♦",
        to_act=0,
    )
    legal = _top_actions(s)
    assert legal == [A.TakePile(cs("9♥ 9♠"))]
    after = play(s, legal[0])
    assert after.melds[0][-1].cards == tuple(sorted(cs("9♦ 9♥ 9♠")))
    assert after.pile == ()
    assert after.sizes[0] == 1 + 2
    assert sorted(after.known[0][k] for k in cs("4♦ 7♣")) == [1, 1]  # publicly known


def test_wild_cannot_replace_the_pair() -> None:
    """002_91a2786a682fea8f.txt: 'You also can't take it to add the top card to a group already on
    the table (unless you add two naturals of that rank from your hand)'."""
    s = pos(hands={0: "9♥ Jk K♣"}, melds={0: ["9♣ 9♣ 9♠"]}, pile="9♦", to_act=0)
    assert _top_actions(s) == []
    reason = GAME.explain(s, A.TakePile(cs("9♥ Jk")))
    assert reason is not None and "two natural" in reason


def test_blocked_by_three_two_joker() -> None:
    """002_91a2786a682fea8f.txt: 'You can never take the pile or its top card when it is a 3, a 2
    or a joker.'"""
    for top in ("3♣", "3♥", "2♦", "Jk"):
        s = pos(hands={0: "9♥ 9♠"}, melds={0: ["6♥ 7♥ 8♥"]}, pile=f"9♦ {top}", to_act=0)
        assert _top_actions(s) == []
        reason = GAME.explain(s, A.TakePile(cs("9♥ 9♠")))
        assert reason is not None and "blocks" in reason and "a 3, a 2 or a joker" in reason


def test_opening_with_pile_counts_hand_and_top_card_only() -> None:
    """000_0fa2fe02243ab02b.txt: 'If you have not yet melded, you can only take the pile if you
    meet the initial meld requirements using the top card of the discard pile plus cards from
    your hand' — the rest of the pile comes after."""
    s = pos(hands={0: "5♥ 5♠ K♣ K♦ Jk 6♦"}, pile="A♠ A♥ A♦ 5♦", to_act=0, opened=(False, False))
    s = play(s, A.TakePile(cs("5♥ 5♠")))
    assert s.phase == "pile_open" and not s.opened[0]
    assert s.pile == cs("A♠ A♥ A♦")  # the rest stays until the minimum is met
    assert not any(isinstance(a, A.Discard) for a in GAME.legal_actions(s))
    undone = play(s, A.UNDO)
    assert undone.phase == "draw" and undone.pile == cs("A♠ A♥ A♦ 5♦")
    s = play(s, *stage("K♣", "K♦", "Jk"))  # 15 + 70 = 85 ≥ 50
    assert s.opened[0] and s.phase == "meld" and s.pile == ()
    assert s.sizes[0] == 1 + 3


def test_sequence_take_whole_pile_option() -> None:
    """RULES.md option sequence_take_whole_pile (seed 002 default: 'you may take only that card')."""
    kw = {
        "hands": {0: "K♣ 4♦"},
        "melds": {0: ["6♥ 7♥ 8♥ 9♥"]},
        "pile": "5♣ Q♠ 10♥",
        "to_act": 0,
    }
    default = play(pos(**kw), A.TakeTop(0))  # type: ignore[arg-type]
    assert default.pile == cs("5♣ Q♠") and default.sizes[0] == 2
    whole = play(pos(sequence_take_whole_pile=True, **kw), A.TakeTop(0))  # type: ignore[arg-type]
    assert whole.pile == () and whole.sizes[0] == 4


def test_pile_top_only_onto_own_sequence_not_group() -> None:
    """002_91a2786a682fea8f.txt: the top card alone goes only onto 'a sequence your side already
    has on the table (with fewer than seven cards)'."""
    s = pos(
        hands={0: "K♣"},
        melds={0: ["4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥", "J♦ J♣ J♠"], 1: ["J♥ Q♥ K♥"]},
        pile="J♥",
        to_act=0,
    )
    assert _top_actions(s) == []  # samba full; a group does not take it; not the other side's
    assert "does not fit" in (GAME.explain(s, A.TakeTop(0)) or "")
