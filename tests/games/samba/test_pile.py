"""Taking from the discard pile (RULES.md §1; seed 002 "Taking the discard pile", seed 000)."""

from __future__ import annotations

from parlour.core.cards import card_str
from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from tests.games.samba.helpers import c, cs, play, pos, stage


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


def test_pile_opening_may_use_every_card_in_the_hand() -> None:
    """issue 16 item 1 — 002_91a2786a682fea8f.txt: 'take the top card, lay it out with the two
    cards as a new group (plus more cards if this is your side's first meld and you need them to
    reach the minimum), then take the rest of the pile into your hand'.  Not opened, minimum 50:
    9♦ 9♥ take the 9♣, then K♠ K♣ K♦ make 9 9 9 (30) + K K K (30) = 60 — the third K leaves the
    hand empty only until the rest of the pile comes in: not going out."""
    s = pos(hands={0: "9♦ 9♥ K♠ K♣ K♦"}, pile="4♦ 7♣ 9♣", to_act=0)
    assert A.TakePile(cs("9♦ 9♥")) in GAME.legal_actions(s)
    s = play(s, A.TakePile(cs("9♦ 9♥")), A.Stage(c("K♠")), A.Stage(c("K♣")))
    assert A.Stage(c("K♦")) in GAME.legal_actions(s)
    assert GAME.explain(s, A.Stage(c("K♦"))) is None
    s = play(s, A.Stage(c("K♦")))
    assert s.opened[0] and s.phase == "meld" and s.hand_no == 0 and not s.history
    assert s.sizes[0] == 2 and s.hands[0][c("4♦")] == 1 and s.hands[0][c("7♣")] == 1
    assert sum(m.value for m in s.melds[0]) == 60


def test_pile_opening_joker_on_the_new_group_uses_the_last_card() -> None:
    """issue 16 item 1 — 002_91a2786a682fea8f.txt: 'Wild cards may be used in a group' with 'at
    least twice as many natural cards as wild cards'.  9♦ 9♥ Jk take the 9♣: 9 9 9 Jk = 80 opens
    and the rest of the pile comes in; the joker is not refused, least of all with the wild-card
    limit (one wild card on three naturals is within it)."""
    s = pos(hands={0: "9♦ 9♥ Jk"}, pile="4♦ 7♣ 9♣", to_act=0)
    s = play(s, A.TakePile(cs("9♦ 9♥")))
    assert s.phase == "pile_open" and A.AddToMeld(0, c("Jk")) in GAME.legal_actions(s)
    s = play(s, A.AddToMeld(0, c("Jk")))
    assert s.opened[0] and s.melds[0][0].value == 80 and s.sizes[0] == 2
    # a wild card that does break the limit is refused for that reason
    two = pos(hands={0: "9♦ 9♥ Jk 2♣ 5♠"}, pile="4♦ 7♣ 9♣", to_act=0)
    two = play(two, A.TakePile(cs("9♦ 9♥")), A.AddToMeld(0, c("Jk")))
    reason = GAME.explain(two, A.AddToMeld(0, c("2♣")))
    assert reason is not None and "at most two wild cards" in reason


def test_pile_opening_with_nothing_under_the_top_card_keeps_a_card() -> None:
    """issue 16 item 1 — 002_91a2786a682fea8f.txt: 'then take the rest of the pile into your hand'
    — with nothing under the top card nothing comes in, and 'Until then you must always keep at
    least one card'.  The pile is offered only if the minimum can be met keeping a card, and the
    last card is refused as going out (not with another rule's words)."""
    exact = pos(hands={0: "9♦ 9♥ K♠ K♣ K♦"}, pile="9♣", to_act=0)
    assert not any(isinstance(a, A.TakePile) for a in GAME.legal_actions(exact))
    reason = GAME.explain(exact, A.TakePile(cs("9♦ 9♥")))
    assert reason is not None and "a card must stay" in reason and "50" in reason
    spare = pos(hands={0: "9♦ 9♥ K♠ K♣ K♦ 4♠"}, pile="9♣", to_act=0)
    assert A.TakePile(cs("9♦ 9♥")) in GAME.legal_actions(spare)
    # a position with the pile taken and only the joker left: adding it would be going out
    last = pos(
        hands={0: "Jk"},
        melds={0: ["9♣ 9♦ 9♥"]},
        opened=(False, False),
        phase="pile_open",
        taken_top="9♣",
        to_act=0,
    )
    assert A.AddToMeld(0, c("Jk")) not in GAME.legal_actions(last)
    reason = GAME.explain(last, A.AddToMeld(0, c("Jk")))
    assert reason is not None and "going out" in reason and "wild cards" not in reason


def test_pile_with_the_last_two_cards_when_opened() -> None:
    """issue 16 item 1 (the other 'no card left' test of the pile) — 002_91a2786a682fea8f.txt: 'You
    may only go out if your side has at least two sambas, two canastas, or one of each'.  Taking
    a one-card pile with the last two cards empties the hand: only as going out."""
    s = pos(hands={0: "9♦ 9♥"}, melds={0: ["A♣ A♦ A♠"]}, pile="9♣", to_act=0)
    assert not any(isinstance(a, A.TakePile) for a in GAME.legal_actions(s))
    assert "leave you with none" in (GAME.explain(s, A.TakePile(cs("9♦ 9♥"))) or "")
    out = pos(
        hands={0: "9♦ 9♥"},
        melds={0: ["A♣ A♣ A♦ A♥ A♠ A♠ A♦", "K♣ K♣ K♦ K♥ K♠ K♠ K♦"]},
        pile="9♣",
        to_act=0,
    )
    end = play(out, A.TakePile(cs("9♦ 9♥")))
    assert (end.history[0].note, end.history[0].note_data) == ("went_out", {"seat": 0})
    # below zero the minimum is 15: the pair and the top card open at once, the pile comes in
    low = pos(hands={0: "9♦ 9♥"}, pile="4♠ 9♣", to_act=0, scores=(-40, 0))
    after = play(low, A.TakePile(cs("9♦ 9♥")))
    assert after.opened[0] and after.phase == "meld" and after.sizes[0] == 1
    assert not any(
        isinstance(a, A.TakePile)
        for a in GAME.legal_actions(pos(hands={0: "9♦ 9♥"}, pile="9♣", to_act=0, scores=(-40, 0)))
    )


def test_pile_offered_only_when_the_minimum_can_be_met() -> None:
    """issue 16 item 4 — 002_91a2786a682fea8f.txt: the pile is taken for a first meld with 'more
    cards if this is your side's first meld and you need them to reach the minimum'; 'Example:
    … 5♠ 6♠ 7♠ (15) is not' enough.  9 9 9 + 5 6 7 = 45 < 50: the pile is not offered (and a
    try is refused naming the minimum); with the 8♠ too (55) it is."""
    s = pos(hands={0: "9♦ 9♥ 5♠ 6♠ 7♠"}, pile="4♣ 9♣", to_act=0)
    assert GAME.legal_actions(s) == [A.DRAW]
    reason = GAME.explain(s, A.TakePile(cs("9♦ 9♥")))
    assert reason is not None and "minimum of 50" in reason and "30" in reason
    more = pos(hands={0: "9♦ 9♥ 5♠ 6♠ 7♠ 8♠"}, pile="4♣ 9♣", to_act=0)
    assert A.TakePile(cs("9♦ 9♥")) in GAME.legal_actions(more)
    # every step of that first meld stays legal until the minimum is met
    s = play(more, A.TakePile(cs("9♦ 9♥")), *stage("5♠", "6♠", "7♠"))
    assert not s.opened[0] and A.AddToMeld(1, c("8♠")) in GAME.legal_actions(s)
    s = play(s, A.AddToMeld(1, c("8♠")))
    assert s.opened[0] and s.sizes[0] == 1  # the 4♣ came in


def test_legal_pile_takes_match_a_brute_force_search() -> None:
    """issue 16 item 4 — 002_91a2786a682fea8f.txt 'Taking the discard pile' with 'Your side's
    first meld': on random small hands, ``TakePile`` is offered exactly when some way of melding
    from the hand (tried move by move, tests/games/samba/brute.py) reaches the minimum."""
    import random

    from parlour.games.samba.parts.melds import GROUP, RANK, build
    from parlour.games.samba.position import PositionError
    from parlour.games.samba.rules import SambaRules
    from tests.games.samba.brute import brute_opening

    rng = random.Random(16)
    checked = offered = 0
    while checked < 300:
        suits = rng.sample(range(4), 2)
        ranks = rng.sample(range(4, 15), 5)
        kinds = [x * 13 + r - 2 for x in suits for r in ranks] + [52, 0, 1, 14]
        top = rng.choice([x * 13 + ranks[0] - 2 for x in suits])
        hand = [rng.choice([x * 13 + ranks[0] - 2 for x in suits]) for _ in range(2)]
        hand += [rng.choice(kinds) for _ in range(rng.randint(0, 6))]
        text = " ".join(card_str(k) for k in hand)
        pile = card_str(top) if rng.random() < 0.3 else f"4♣ {card_str(top)}"
        score = rng.choice([-20, 0, 0, 1600])
        try:
            s = pos(hands={0: text}, pile=pile, to_act=0, scores=(score, 0))
        except PositionError:
            continue  # more copies of a card than the shoe holds
        legal = [a for a in GAME.legal_actions(s) if isinstance(a, A.TakePile)]
        pairs = {tuple(sorted(p)) for p in _pairs_of(hand, top)}
        for pair in pairs:
            h = [0] * 53
            for k in hand:
                h[k] += 1
            for k in pair:
                h[k] -= 1
            group = build(GROUP, RANK[top], -1, RANK[top], (top, *pair))
            want = brute_opening(
                h,
                [group],
                SambaRules().opening_minimum(score),
                keep_one=len(s.pile) == 1,
                rules=SambaRules(),
            )
            assert (A.TakePile(pair) in legal) == want, (text, pile, score, pair)
            checked += 1
            offered += want
    assert 50 < offered < 250


def _pairs_of(hand: list[int], top: int) -> list[tuple[int, int]]:
    from parlour.games.samba.parts.melds import IS_NATURAL, RANK

    same = sorted(k for k in hand if IS_NATURAL[k] and RANK[k] == RANK[top])
    return [(a, b) for i, a in enumerate(same) for b in same[i + 1 :]]
