"""The shared conformance suite over every registered game and preset (docs/architecture.md).

``PARLOUR_CONFORMANCE_GAMES`` sets the number of seeded random matches per preset: 40 in the quick
tier (``uv run pytest``), 200 in ``.ci/run``'s slower tier."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour import games
from parlour.core.conformance import run_random_game

N_GAMES = int(os.environ.get("PARLOUR_CONFORMANCE_GAMES", "40"))
VARIANTS = games.all_variants()
IDS = [f"{v.name}-{v.preset}" for v in VARIANTS]


def _random_play_rules(variant: games.Variant) -> object:
    return variant.rules.replace(**variant.entry.random_play_options)


def test_every_game_is_registered() -> None:
    assert "samba" in games.names()
    assert len(VARIANTS) >= 2


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_random_play_conformance(variant: games.Variant) -> None:
    rules = _random_play_rules(variant)
    total = 0
    for seed in range(N_GAMES):
        stats = run_random_game(variant.game, rules, seed, deep_every=97 if seed % 10 else 7)
        total += stats["decisions"]
    assert total > N_GAMES  # every match made decisions


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**62))
def test_property_any_seed(variant: games.Variant, seed: int) -> None:
    run_random_game(variant.game, _random_play_rules(variant), seed, deep_every=5)
