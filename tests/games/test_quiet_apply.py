"""The quiet apply (issue 18): ``apply_quiet`` builds no events but must reach exactly the state
``apply_unchecked`` reaches — seeded random matches of every preset of the engines that override
it, compared at every step (and the state given is left as it was)."""

from __future__ import annotations

import copy
import random

import pytest

from parlour import games

GAMES = ("samba", "cheat", "scat")
VARIANTS = [v for v in games.all_variants() if v.name in GAMES]


def test_the_engines_override_the_quiet_apply() -> None:
    for name in GAMES:
        game = games.get(name).game
        assert "apply_quiet" in type(game).__dict__, name


@pytest.mark.parametrize("variant", VARIANTS, ids=[f"{v.name}-{v.preset}" for v in VARIANTS])
def test_quiet_apply_reaches_the_same_states(variant: games.Variant) -> None:
    game = variant.game
    rules = variant.rules.replace(**variant.entry.random_play_options)
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_game(rules, seed)
        steps = 0
        while game.to_act(state) is not None and steps < 3000:
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            before = copy.deepcopy(state)
            quiet = game.apply_quiet(state, action)
            loud, _ = game.apply_unchecked(state, action)
            assert quiet == loud, f"seed {seed} step {steps}: {action}"
            assert state == before, f"seed {seed} step {steps}: the state given changed"
            state = quiet if steps % 2 else loud  # carry on from either
            steps += 1
        assert steps > 0
