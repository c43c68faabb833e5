"""The research API's tests need the ``rl`` extra (numpy, pettingzoo, gymnasium, open-spiel).

Without it they skip — except under ``CI=true``, where they fail, so a CI that forgot
``--extra rl`` cannot pass silently."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from parlour import games
from parlour.core.registry import Variant
from tests.support import needs


def need(module: str) -> Any:
    """``import module`` from the ``rl`` extra, or skip (fail under ``CI=true``) saying so."""
    return needs.module(module, needs.RL)


# the whole directory skips without the extra (at module level: before any test module imports it)
need("numpy")

#: every game × preset, plus other seat counts; random-play caps keep matches short
CASES: list[tuple[str, str, int | None]] = [
    (name, preset, None)
    for name in ("samba", "handfoot", "cheat", "scat")
    for preset in games.entry(name).presets
] + [
    ("samba", "samba", 2),
    ("samba", "bolivia", 3),
    ("samba", "samba", 6),
    ("cheat", "cheat", 2),
    ("cheat", "hawaiian", 6),
    ("scat", "scat", 2),
    ("scat", "french_canadian", 7),
]


def case_id(case: tuple[str, str, int | None]) -> str:
    name, preset, players = case
    return f"{name}-{preset}" + (f"-{players}p" if players else "")


def capped(name: str, preset: str, players: int | None = None) -> Variant:
    """The variant with its random-play caps (e.g. one hand of Samba)."""
    options = dict(games.entry(name).random_play_options)
    return games.get(name, preset=preset, players=players, **options)


def random_states(variant: Variant, matches: int, seed: int = 0) -> Iterator[Any]:
    """Every state (with a seat to act) of ``matches`` random matches."""
    game = variant.game
    rng = random.Random(seed)
    for m in range(matches):
        state = game.new_game(variant.rules, seed * 1000 + m)
        while game.to_act(state) is not None:
            yield state
            legal = game.legal_actions(state)
            state, _ = game.apply_unchecked(state, legal[rng.randrange(len(legal))])
