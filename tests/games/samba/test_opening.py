"""The first meld of a side in a hand (RULES.md §1 "First meld"; seed 002 "Your side's first
meld")."""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalAction
from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from parlour.games.samba.rules import SambaRules
from tests.games.samba.helpers import c, play, pos, stage

HAND = "Jk 8♥ 8♣ A♦ A♠ A♣ 5♠ 6♠ 7♠ 9♦ 9♣ K♠"


def _meld_phase(**kw: object) -> object:
    return pos(hands={0: HAND}, to_act=0, phase="meld", **kw)  # type: ignore[arg-type]


def test_joker_8_8_is_enough_at_the_start() -> None:
    """002_91a2786a682fea8f.txt: 'At the start of the game you need 50. Joker 8♥ 8♣ (50 + 10 +
    10 = 70) is enough on its own'."""
    s = play(_meld_phase(), *stage("Jk", "8♥", "8♣"))
    assert s.opened[0]
    assert A.Discard(c("K♠")) in GAME.legal_actions(s)


def test_three_aces_are_enough() -> None:
    """002_91a2786a682fea8f.txt: 'A♦ A♠ A♣ (60) is too'."""
    s = play(_meld_phase(), *stage("A♦", "A♠", "A♣"))
    assert s.opened[0]


def test_5_6_7_is_not_enough() -> None:
    """002_91a2786a682fea8f.txt: '5♠ 6♠ 7♠ (15) is not'.  The turn cannot end until the minimum is
    met; the staged meld can be taken back."""
    s = play(_meld_phase(), *stage("5♠", "6♠", "7♠"))
    assert not s.opened[0]
    legal = GAME.legal_actions(s)
    assert not any(isinstance(a, A.Discard) for a in legal)
    assert A.UNDO in legal
    reason = GAME.explain(s, A.Discard(c("K♠")))
    assert reason is not None and "at least 50" in reason and "15" in reason
    with pytest.raises(IllegalAction):
        GAME.apply(s, A.Discard(c("K♠")))
    back = play(s, A.UNDO)
    assert back.melds[0] == () and back.hands[0] == _meld_phase().hands[0]  # type: ignore[attr-defined]


def test_several_melds_add_up() -> None:
    """002_91a2786a682fea8f.txt: 'Several melds together may make up the minimum': 5♠ 6♠ 7♠ (15)
    then 9♦ 9♣ Jk (70) together reach 50."""
    s = play(_meld_phase(), *stage("5♠", "6♠", "7♠"))
    assert not s.opened[0]
    s = play(s, *stage("9♦", "9♣", "Jk"))
    assert s.opened[0]


def test_minimum_depends_on_score() -> None:
    """002_91a2786a682fea8f.txt: the minimum 'depends on your side's score so far' (RULES.md table:
    <0: 15, 0–1,495: 50, 1,500–2,995: 90, 3,000–6,995: 120, ≥7,000: 150)."""
    r = SambaRules()
    assert [r.opening_minimum(x) for x in (-5, 0, 1495, 1500, 2995, 3000, 6995, 7000)] == [
        15,
        50,
        50,
        90,
        90,
        120,
        120,
        150,
    ]
    s = play(_meld_phase(scores=(-20, 0)), *stage("5♠", "6♠", "7♠"))
    assert s.opened[0]  # 15 is enough below zero
    s = play(_meld_phase(scores=(3000, 0)), *stage("Jk", "8♥", "8♣"))
    assert not s.opened[0]  # 70 < 120


def test_opening_table_high_option() -> None:
    """RULES.md option opening_table ('some books say 160 at ≥ 7,000'; seed 002 table lost)."""
    assert SambaRules().opening_minimum(8000) == 150
    assert SambaRules(opening_table="high").opening_minimum(8000) == 160


def test_red_threes_and_bonuses_do_not_count() -> None:
    """002_91a2786a682fea8f.txt: 'Only card values count – not bonuses' (red 3s are bonus cards)."""
    s = pos(hands={0: "3♥ 3♦ 5♠ 6♠ 7♠ K♣ K♦ K♥ K♠ 9♣"}, to_act=0, phase="meld")
    s = play(s, A.LayRedThree(c("3♥")), A.LayRedThree(c("3♦")), *stage("5♠", "6♠", "7♠"))
    assert not s.opened[0]  # 15 (the red 3s' 200 do not count)
    s = play(s, *stage("K♣", "K♦", "K♥"))
    assert not s.opened[0]  # 45
    s = play(s, A.AddToMeld(1, c("K♠")))
    assert s.opened[0]  # 55


def test_a_first_meld_that_cannot_reach_the_minimum_is_not_started() -> None:
    """issue 16 item 4 (legal actions are legal) — 002_91a2786a682fea8f.txt: 'the cards you put
    down in that turn must be worth at least a minimum … 5♠ 6♠ 7♠ (15) is not.'  With nothing
    else to meld, that first meld is not offered (it could only be taken back); below zero,
    where 15 is enough, it is."""
    s = pos(hands={0: "5♠ 6♠ 7♠ 9♦ K♣"}, to_act=0, phase="meld")
    legal = GAME.legal_actions(s)
    assert legal and all(isinstance(a, A.Discard) for a in legal)
    reason = GAME.explain(s, A.Stage(c("5♠")))
    assert reason is not None and "must reach 50" in reason and "keeping a card" in reason
    low = pos(hands={0: "5♠ 6♠ 7♠ 9♦ K♣"}, to_act=0, phase="meld", scores=(-10, 0))
    assert A.Stage(c("5♠")) in GAME.legal_actions(low)


def test_first_meld_steps_match_a_brute_force_search() -> None:
    """issue 16 items 4 and 6 — 002_91a2786a682fea8f.txt: 'the cards you put down in that turn
    must be worth at least a minimum'.  On random small hands of a side that has not opened, a
    new meld may be started with a card exactly when some meld with it, and then some way of
    melding the rest (tried move by move, tests/games/samba/brute.py), reaches the minimum while
    keeping a card — so no step leads where only a take-back is left."""
    import itertools
    import random

    from parlour.core.cards import card_str
    from parlour.games.samba.parts.melds import BLACK3, make_meld
    from parlour.games.samba.position import PositionError
    from tests.games.samba.brute import brute_opening

    rng = random.Random(6)
    checked = offered = 0
    while checked < 600:
        suits = rng.sample(range(4), rng.choice([1, 2]))
        ranks = rng.sample(range(4, 15), rng.randint(4, 6))
        kinds = [x * 13 + r - 2 for x in suits for r in ranks] * 2 + [52, 0, 1, 14]
        hand = " ".join(card_str(rng.choice(kinds)) for _ in range(rng.randint(3, 7)))
        options = {"no_wild_on_canasta": rng.random() < 0.3, "wild_melds": rng.random() < 0.3}
        score = rng.choice([-5, 0, 0, 1600])
        try:
            s = pos(hands={0: hand}, to_act=0, phase="meld", scores=(score, 0), **options)  # type: ignore[arg-type]
        except PositionError:
            continue
        legal = set(GAME.legal_actions(s))
        h = s.hands[0]
        held = [k for k in range(53) if h[k]]
        for k in held:
            want = False
            for a, b in itertools.combinations_with_replacement(held, 2):
                rest = h[:]
                for x in (k, a, b):
                    rest[x] -= 1
                m = make_meld((k, a, b), wild_melds=s.rules.wild_melds)
                if min(rest) < 0 or m is None or m.kind == BLACK3:
                    continue
                minimum = s.rules.opening_minimum(score)
                if brute_opening(rest, [m], minimum, keep_one=True, rules=s.rules):
                    want = True
                    break
            assert (A.Stage(k) in legal) == want, (hand, score, options, card_str(k))
            checked += 1
            offered += want
    assert 50 < offered < 500
