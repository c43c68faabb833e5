"""The shared conformance checks on Cheat options the preset sweep of ``tests/conformance`` does
not reach (issue 16: the conformance suite runs over the new options)."""

from __future__ import annotations

import pytest

from parlour.core.conformance import run_random_game
from parlour.games.cheat import GAME
from parlour.games.cheat.rules import CheatRules

VARIANTS = {
    "overclaim": {"overclaim": True},
    "overclaim-max4": {"overclaim": True, "max_cards": 4, "rank_rule": "up_or_down"},
    "overclaim-packs-jokers": {"overclaim": True, "decks": 2, "jokers": 2, "players": 6},
    "descending-from-twos-random-first": {
        "rank_rule": "descending_from_twos",
        "first_player": "random",
    },
    "two-of-clubs-up-or-down": {"rank_rule": "up_or_down", "first_player": "two_of_clubs"},
    "ten-players-one-pack": {"players": 10},
    "two-packs": {"players": 7, "decks": 2, "rank_rule": "same_up_or_down"},
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_conformance(name: str) -> None:
    """001_e8630c614840283e.txt: "One standard pack of 52 cards is used"; "you may use two or
    more packs"; 000_0fa2fe02243ab02b.txt: "you will start with twos, then move back to aces,
    kings, queens"; "they can lie about the number of cards they are playing" — random play
    with card conservation, replay, views that hide the hands and rejected illegal actions."""
    rules = CheatRules.from_json({**VARIANTS[name], "max_turns": 120})
    for seed in range(4):
        stats = run_random_game(GAME, rules, seed, deep_every=13)
        assert stats["decisions"] > 20
