"""Black 3s melded on going out, wild cards in their group (option ``black_three_wilds``).

Sources: 002_91a2786a682fea8f.txt line 84 "Black 3s: can be laid out as a group (following the
normal group rules) only in the turn in which you go out."; 000_0fa2fe02243ab02b.txt line 42
"These can be melded in groups (following the normal rules for groups), but only on the turn on
which you go out."; the normal group rules, 002 lines 35-40: "Wild cards may be used in a group,
but: there must be at least twice as many natural cards as wild cards, and never more than two
wild cards in one group. So 9 9 Joker is fine, 9 Joker 2 is not."; 000 line 31: "It is also
possible to meld a group, or even a canasta of black threes".
"""

from __future__ import annotations

import pytest

from parlour import games
from parlour.core.errors import IllegalAction
from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from parlour.games.samba.parts.melds import BLACK3, make_meld
from parlour.games.samba.parts.reach import can_go_out, counts
from parlour.games.samba.position import meld_of
from parlour.games.samba.rules import PRESETS, SambaRules
from parlour.games.samba.state import State
from tests.games.samba.helpers import cs, play, pos
from tests.support import needs

CANASTAS = ["A♣ A♣ A♦ A♥ A♠ A♠ A♦", "K♣ K♣ K♦ K♥ K♠ K♠ K♦"]
OLD = SambaRules(black_three_wilds=False)


def _out_pos(hand: str, rules: SambaRules | None = None, melds: list[str] | None = None) -> State:
    """Seat 0 has drawn; its side holds two canastas (it may go out)."""
    return pos(
        rules=rules,
        hands={0: hand},
        melds={0: CANASTAS if melds is None else melds},
        to_act=0,
        phase="meld",
    )


def _black(state: State) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state) if isinstance(a, A.MeldBlackThrees)]


def test_default_and_presets() -> None:
    """002 line 84: the group follows the normal group rules (wild cards allowed) — the default;
    Bolivia (RULES.md §1 "Bolivia": Samba plus wild melds …) says nothing else, so keeps it."""
    assert SambaRules().black_three_wilds is True
    assert "black_three_wilds" not in PRESETS["bolivia"]
    assert GAME.version == 4


def test_group_limits_of_black_threes() -> None:
    """002 lines 35-40 applied to black 3s: twice as many black 3s as wild cards, at most two."""
    for text in ("3♣ 3♠ Jk", "3♣ 3♣ 3♠ 2♥", "3♣ 3♣ 3♠ 3♠ 2♦ 2♥", "3♣ 3♣ 3♣ 3♠ 3♠ 3♠"):
        m = make_meld(cs(text), black_three_wilds=True)
        assert m is not None and m.kind == BLACK3, text
    for text in ("3♣ Jk 2♥", "3♣ 3♣ 3♠ Jk 2♥", "3♣ 3♣ 3♠ 3♠ Jk 2♦ 2♥", "3♣ 3♠", "3♣ 3♠ 5♥"):
        assert make_meld(cs(text), black_three_wilds=True) is None, text
    # the old reading (black 3s alone)
    assert make_meld(cs("3♣ 3♠ Jk")) is None
    assert make_meld(cs("3♣ 3♣ 3♠")).kind == BLACK3  # type: ignore[union-attr]


def test_legal_black_three_groups_with_wild_cards() -> None:
    """002 line 84 with lines 35-40: b3 b3 Joker is a group ('9 9 Joker is fine'), and so is
    b3 b3 b3 b3 2 2; the group is melded last, leaving at most the discard."""
    assert _black(_out_pos("3♣ 3♠ Jk 9♦")) == ["meld black 3s 3♣ 3♠ Jk"]
    s = _out_pos("3♣ 3♣ 3♠ 3♠ 2♦ 2♥")
    assert "meld black 3s 3♣ 3♣ 3♠ 3♠ 2♦ 2♥" in _black(s)
    # everything melded, or one card kept for the discard: a black 3 or one of the wild cards
    assert _black(_out_pos("3♣ 3♣ 3♠ Jk")) == [
        "meld black 3s 3♣ 3♣ 3♠ Jk",
        "meld black 3s 3♣ 3♠ Jk",
        "meld black 3s 3♣ 3♣ Jk",
        "meld black 3s 3♣ 3♣ 3♠",
    ]
    # three black 3s take one wild card, not two (3 < 2 × 2): b3 b3 b3 2 2 is no group
    assert _black(_out_pos("3♣ 3♣ 3♠ 2♦ 2♥")) == [
        "meld black 3s 3♣ 3♣ 3♠ 2♥",
        "meld black 3s 3♣ 3♣ 3♠ 2♦",
    ]
    # the meld goes out: melded, then the last card discarded
    s = play(_out_pos("3♣ 3♠ Jk 9♦"), A.MeldBlackThrees(cs("3♣ 3♠ Jk")))
    s = play(s, A.Discard(cs("9♦")[0]))
    assert s.history and s.history[0].note == "went_out"


def test_refused_black_three_groups() -> None:
    """'9 Joker 2 is not' (002 line 40), nor three wild cards ('never more than two')."""
    s = _out_pos("3♣ 3♣ 3♠ Jk 2♦ 2♥")
    for text in ("3♣ Jk 2♦", "3♣ 3♣ 3♠ Jk 2♦ 2♥"):
        action = A.MeldBlackThrees(cs(text))
        assert action not in GAME.legal_actions(s)
        reason = GAME.explain(s, action)
        assert reason is not None and "at most two wild cards" in reason
        assert "twice as many black 3s as wild cards" in reason
        with pytest.raises(IllegalAction):
            GAME.apply(s, action)
    # a valid group that is not the going-out turn: more than one card would stay
    t = _out_pos("3♣ 3♠ Jk 9♦ 7♣")
    assert _black(t) == []
    reason = GAME.explain(t, A.MeldBlackThrees(cs("3♣ 3♠ Jk")))
    assert reason is not None and "only in the turn you go out" in reason
    # nor without the going-out requirement
    u = _out_pos("3♣ 3♠ Jk", melds=CANASTAS[:1])
    assert _black(u) == []
    # a legal group named in another order: the refusal gives the order
    v = _out_pos("3♣ 3♠ Jk 9♦")
    reason = GAME.explain(v, A.MeldBlackThrees(cs("Jk 3♠ 3♣")))
    assert reason is not None and "meld black 3s 3♣ 3♠ Jk" in reason


def test_option_off_keeps_black_threes_alone() -> None:
    """black_three_wilds=False: the previous reading (RULES.md §1 default until engine 4)."""
    assert _black(_out_pos("3♣ 3♠ Jk 9♦", OLD)) == []
    assert _black(_out_pos("3♣ 3♣ 3♠ Jk", OLD)) == ["meld black 3s 3♣ 3♣ 3♠"]
    assert _black(_out_pos("3♣ 3♣ 3♠ 9♦", OLD)) == ["meld black 3s 3♣ 3♣ 3♠"]
    s = _out_pos("3♣ 3♣ 3♠ Jk", OLD)
    reason = GAME.explain(s, A.MeldBlackThrees(cs("3♣ 3♣ 3♠ Jk")))
    assert reason is not None and "black_three_wilds" in reason
    # two black 3s and a wild card cannot go out; with the option they can
    h = counts(cs("3♣ 3♠ Jk 9♦"))
    melds = tuple(meld_of(m) for m in CANASTAS)
    assert not can_go_out(h, melds, OLD)
    assert can_go_out(h, melds, SambaRules())


def test_mixed_black_three_canasta_scores_as_mixed_canasta() -> None:
    """000 line 31 'or even a canasta of black threes': only six black 3s exist in three packs, so
    a canasta of black 3s holds wild cards — a mixed canasta (002 line 42: 'a mixed canasta (one
    or two wild cards)'), 300 points, its cards counted as melded."""
    s = _out_pos("3♣ 3♣ 3♣ 3♠ 3♠ 2♥ Jk")
    group = A.MeldBlackThrees(cs("3♣ 3♣ 3♣ 3♠ 3♠ 2♥ Jk"))
    assert group in GAME.legal_actions(s)
    end = play(s, group)
    side = end.history[0].breakdown[0]
    assert side["mixed_canastas"] == 300  # the black 3s; the two canastas of the table are pure
    assert side["pure_canastas"] == 1000
    assert side["cards_melded"] == 140 + 70 + 5 * 5 + 20 + 50
    assert side["going_out"] == 200
    # the same hand without the option: no group of black 3s takes the wild cards
    assert _black(_out_pos("3♣ 3♣ 3♣ 3♠ 3♠ 2♥ Jk", OLD)) == []


def test_solver_counts_the_places_of_wild_cards() -> None:
    """The wild cards a group of black 3s takes are the ones no other meld has room for; melded
    after a first meld's minimum is reached, they count for none of it."""
    full = ["A♣ A♣ A♦ A♥ A♠ Jk Jk", "K♣ K♣ K♦ K♥ K♠ 2♣ 2♦"]  # no room for more wild cards
    melds = tuple(meld_of(m) for m in full)
    rules = SambaRules()
    assert can_go_out(counts(cs("3♣ 3♣ 3♠ 3♠ Jk 2♥")), melds, rules)
    assert not can_go_out(counts(cs("3♣ 3♣ 3♠ Jk 2♥ 9♦")), melds, rules)  # 3 < 2 × 2
    assert can_go_out(counts(cs("3♣ 3♣ 3♠ Jk 2♥")), melds, rules)  # a wild card discarded
    assert not can_go_out(counts(cs("3♣ 3♣ 3♠ Jk 2♥")), melds, OLD)
    # a first meld (``need_value``): the table is worth 290; the group's 2♥ counts for nothing
    h = counts(cs("3♣ 3♣ 3♠ 3♠ 2♥ 9♦"))
    assert can_go_out(h, melds, rules, need_value=290)
    assert not can_go_out(h, melds, rules, need_value=291)


def test_rl_ids_of_black_three_groups() -> None:
    """Every group of black 3s has an id that decodes to it; the ids of the rules without the
    option are unchanged (the new range comes last)."""
    needs.module("numpy", needs.RL)
    from parlour.rl.encoding import encoding_for

    enc = encoding_for(games.get("samba"))
    old = encoding_for(games.get("samba", black_three_wilds=False))
    assert old.num_distinct_actions == 921
    assert enc.num_distinct_actions == 921 + 320
    for hand in ("3♣ 3♣ 3♠ Jk", "3♣ 3♣ 3♠ 3♠ 2♦ 2♥", "3♣ 3♠ Jk 9♦", "3♣ 3♣ 3♣ 3♠ 3♠ 3♠ 2♠"):
        s = _out_pos(hand)
        legal = GAME.legal_actions(s)
        ids = enc.legal_ids(s)
        assert [enc.id_to_action(s, i) for i in ids] == list(legal)
        for a in legal:
            if isinstance(a, A.MeldBlackThrees) and not set(a.cards) - {1, 40}:
                assert enc.action_to_id(s, a) == old.action_to_id(s, a)


def test_vouched_moves_keep_going_out_with_black_threes() -> None:
    """The moves vouched for without a search after "yes" (lookahead.vouched_out: two black 3s
    take a wild card of the quick placement) keep going out possible, as a search says — on
    random hands with black 3s and wild cards, with and without the option."""
    import random

    from parlour.games.samba.legal import raw_legal_actions
    from parlour.games.samba.parts.lookahead import keeps_going_out, vouched_out

    rng = random.Random(16)
    tables = [CANASTAS, [*CANASTAS, "9♣ 9♦ 9♥"], ["A♣ A♣ A♦ A♥ A♠ Jk Jk", CANASTAS[1], "7♠ 8♠ 9♠"]]
    pool = ["Jk", "2♥", "2♦", "9♠", "9♥", "A♥", "K♠", "7♥", "7♦", "5♣", "5♣", "Q♦", "10♠", "A♦"]
    seen = {True: 0, False: 0}
    for _ in range(1500):
        rules = SambaRules(black_three_wilds=rng.random() < 0.7)
        threes = rng.choice([["3♣", "3♠"], ["3♣", "3♠"], ["3♣", "3♠", "3♠"], ["3♣"]])
        hand = " ".join(threes + rng.sample(pool, rng.randint(1, 6)))
        s = _out_pos(hand, rules, rng.choice(tables))
        vouched = vouched_out(s)
        for a in raw_legal_actions(s.clone()):
            if vouched(a):
                seen[rules.black_three_wilds and len(threes) == 2] += 1
                assert keeps_going_out(s, a), (hand, rules.black_three_wilds, a)
    assert min(seen.values()) > 100, seen  # two black 3s and a wild card among them
