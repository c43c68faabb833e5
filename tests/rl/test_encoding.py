"""Action ids round-trip on every legal action of every state of random matches, the mask is
exact, and observation tensors and id decoding depend on the seat's view only (re-dealing every
hidden card gives the byte-identical tensor and the same actions) — for every game and preset."""

from __future__ import annotations

import random

import numpy as np
import pytest

from parlour.rl.encoding import encoding_for
from tests.rl.conftest import CASES, capped, case_id, random_states

MATCHES = {"samba": 6, "handfoot": 3, "cheat": 8, "scat": 12}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_action_ids_round_trip_and_mask_is_exact(case: tuple[str, str, int | None]) -> None:
    variant = capped(*case)
    enc = encoding_for(variant)
    game = variant.game
    rng = random.Random(7)
    n = enc.num_distinct_actions
    states = 0
    for state in random_states(variant, MATCHES[variant.name]):
        legal = list(game.legal_actions(state))
        ids = [enc.action_to_id(state, a) for a in legal]
        assert len(set(ids)) == len(ids), "two legal actions share an id"
        for action, i in zip(legal, ids, strict=True):
            assert 0 <= i < n
            assert enc.id_to_action(state, i) == action, enc.describe_id(i)
        mask = enc.legal_mask(state)
        assert mask.shape == (n,) and mask.dtype == np.int8
        assert set(np.flatnonzero(mask)) == set(ids)
        # ids outside the mask name no legal action: a few random ones per state
        for i in rng.sample(range(n), min(n, 8)):
            if mask[i]:
                continue
            try:
                action = enc.id_to_action(state, i)
            except ValueError:
                continue
            assert action not in legal, (enc.describe_id(i), action)
        states += 1
    assert states > 50


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_observation_depends_on_the_view_only(case: tuple[str, str, int | None]) -> None:
    variant = capped(*case)
    enc = encoding_for(variant)
    game = variant.game
    rng = random.Random(3)
    shape = enc.observation_shape
    checked = 0
    for k, state in enumerate(random_states(variant, max(2, MATCHES[variant.name] // 2), 5)):
        if k % 3:
            continue
        seats = range(game.num_seats(state)) if k % 9 == 0 else [game.to_act(state)]
        for seat in seats:
            view = game.observe(state, seat)
            tensor = enc.observation(view)
            assert tensor.shape == shape and tensor.dtype == np.float32
            assert np.isfinite(tensor).all()
            redealt = game.determinize(view, rng)
            again = enc.observation(game.observe(redealt, seat))
            assert tensor.tobytes() == again.tobytes(), enc.observation_string(view)
            if seat == game.to_act(state):
                # ids decode from what the seat knows: the same actions on the re-dealt state
                for i in enc.legal_ids(state):
                    assert enc.id_to_action(redealt, i) == enc.id_to_action(state, i)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("name", ["samba", "handfoot", "cheat", "scat"])
def test_observation_string_names_the_hand(name: str) -> None:
    from parlour import games

    variant = capped(name, games.entry(name).default_preset)
    enc = encoding_for(variant)
    state = variant.new_game(1)
    seat = variant.game.to_act(state)
    view = variant.game.observe(state, seat)
    text = enc.observation_string(view)
    assert "hand:" in text
    assert "phase:" in text


def test_sizes_are_fixed_per_rules() -> None:
    from parlour import games

    assert encoding_for(games.get("scat")).num_distinct_actions == 112
    # 921 + 320 groups of black 3s with wild cards (black_three_wilds, the default)
    assert encoding_for(games.get("samba")).num_distinct_actions == 1241
    assert encoding_for(games.get("samba", preset="bolivia")).num_distinct_actions == 1241
    samba_alone = games.get("samba", black_three_wilds=False)
    assert encoding_for(samba_alone).num_distinct_actions == 921
    assert encoding_for(games.get("handfoot")).num_distinct_actions == 716
    assert encoding_for(games.get("cheat")).num_distinct_actions == 53 + 13 + 2 + 4
    # overplay: a claim names its count too (up to 52 cards in one pack)
    assert encoding_for(games.get("cheat", preset="overplay")).num_distinct_actions == (
        53 + 52 * 13 + 2 + 4
    )
    a = encoding_for(games.get("samba", players=4)).observation_shape
    b = encoding_for(games.get("samba", players=6)).observation_shape
    assert a != b
