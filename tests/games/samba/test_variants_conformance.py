"""The shared conformance checks on Samba variants the preset sweep does not reach: every player
count and the non-default options (RULES.md §1 options table; seeds 002/000 layouts)."""

from __future__ import annotations

import pytest

from parlour.core.conformance import run_random_game
from parlour.games.samba import GAME
from parlour.games.samba.rules import SambaRules

VARIANTS = {
    "2p": {"players": 2},
    "3p": {"players": 3},
    "5p": {"players": 5},
    "6p": {"players": 6},
    "options": {
        "red_threes_as_canasta": True,
        "sequence_take_whole_pile": True,
        "no_wild_on_canasta": True,
        "upcard_redeal": True,
        "opening_table": "high",
        "six_red_threes_penalty": 1000,
    },
    # 002_91a2786a682fea8f.txt line 84 read as black 3s alone (the default lets the group take
    # wild cards: the presets sweep plays it)
    "black-threes-alone": {"black_three_wilds": False},
    "bolivia-6p-no-ask": {
        "players": 6,
        "wild_melds": True,
        "going_out": "two_sevens_one_sequence",
        "partner_permission": False,
        "black_three_penalty": 100,
    },
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_conformance(name: str) -> None:
    """002_91a2786a682fea8f.txt: 'Players: 2–6' and the Variants — random play of whole hands with
    card conservation, replay, views that hide hands, and rejected illegal actions."""
    rules = SambaRules(max_hands=2, **VARIANTS[name])  # type: ignore[arg-type]
    for seed in range(4):
        stats = run_random_game(GAME, rules, seed, deep_every=23)
        assert stats["decisions"] > 50
