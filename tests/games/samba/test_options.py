"""Each option of the RULES.md §1 options table changes behaviour (the ones not already covered by
the rule tests), plus the red-3 subtleties of seed 002's "Variants"."""

from __future__ import annotations

import random

from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from parlour.games.samba.position import meld_of
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.scoring import side_score
from tests.games.samba.helpers import c, cs, play, pos


def test_bolivia_bonus_option() -> None:
    """002_91a2786a682fea8f.txt Variants: a bolivia is 'worth 2500' — option bolivia_bonus."""
    melds = [meld_of("2♣ 2♦ 2♥ 2♠ Jk Jk 2♣")]
    assert side_score(SambaRules(wild_melds=True), melds, 0, [[0] * 53], False)["bolivias"] == 2500
    other = SambaRules(wild_melds=True, bolivia_bonus=2000)
    assert side_score(other, melds, 0, [[0] * 53], False)["bolivias"] == 2000


def test_red_threes_from_the_pile_laid_not_replaced() -> None:
    """002_91a2786a682fea8f.txt Variants (RULES.md: 'replaced from stock (not when taken with the
    pile)'): with red_threes_as_canasta a red 3 in the taken pile is laid out, no card drawn."""
    kw = {
        "hands": {0: "9♥ 9♠ K♣"},
        "melds": {0: ["A♣ A♦ A♠"]},
        "pile": "3♥ 7♣ 9♦",
        "to_act": 0,
    }
    s = play(pos(red_threes_as_canasta=True, **kw), A.TakePile(cs("9♥ 9♠")))  # type: ignore[arg-type]
    assert s.red3[0] == cs("3♥") and s.sizes[0] == 2 and s.hands[0][c("3♥")] == 0
    d = play(pos(**kw), A.TakePile(cs("9♥ 9♠")))  # type: ignore[arg-type]
    assert d.red3[0] == () and d.hands[0][c("3♥")] == 1


def test_red_threes_as_canasta_determinize_keeps_red_threes_out_of_hands() -> None:
    """002_91a2786a682fea8f.txt Variants: no hand ever holds a red 3 with this option, so a search
    bot's determinized deal must not give one to a hidden hand."""
    rules = SambaRules(red_threes_as_canasta=True)
    s = GAME.new_game(rules, 5)
    v = GAME.observe(s, 0)
    for seed in range(10):
        d = GAME.determinize(v, random.Random(seed))
        assert all(h[c("3♥")] == 0 and h[c("3♦")] == 0 for h in d.hands)
        assert GAME.observe(d, 0) == v


def test_options_change_a_random_match() -> None:
    """RULES.md §1 options: every option is read by the engine — each non-default value gives a
    different seeded random hand than the default rules (or a different deal)."""
    base = SambaRules(max_hands=1)

    def trace(rules: SambaRules) -> list[object]:
        out: list[object] = []
        for seed in range(4):
            rng = random.Random(seed)
            s = GAME.new_game(rules, seed)
            while GAME.to_act(s) is not None:
                legal = GAME.legal_actions(s)
                a = legal[rng.randrange(len(legal))]
                out.append((len(legal), a))
                s, _ = GAME.apply_unchecked(s, a)
            out.append(GAME.outcome(s).scores)
        return out

    default = trace(base)
    changed = {
        "hand_size": 13,
        "red_threes_as_canasta": True,
        "wild_melds": True,
        "going_out": "two_sevens_one_sequence",
        "upcard_redeal": True,
    }
    for name, value in changed.items():
        assert trace(base.replace(**{name: value})) != default, name
