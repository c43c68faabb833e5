"""The compiled fillers (``parlour.rl.fill``) write byte-for-byte the tensor of each encoding's
readable ``_write`` (its reference), for every seat at every state of random matches of every
game and preset — through ``observation`` with a fresh vector and with a reused one — and the
compiled ids of the legal actions are those of the encoding's ``_action_to_id``."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.rl.encoding import encoding_for
from tests.rl.conftest import CASES, capped, case_id, random_states

MATCHES = {"samba": 4, "handfoot": 2, "cheat": 6, "scat": 10}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_filler_writes_the_reference_tensor(case: tuple[str, str, int | None]) -> None:
    variant = capped(*case)
    enc = encoding_for(variant)
    assert enc.filler is not None, "every game has a compiled filler"
    assert enc.id_maker is not None, "every game has compiled ids"
    game = variant.game
    reused = np.full(enc.observation_shape, 7.0, dtype=np.float32)  # stale entries to clear
    checked = 0
    for state in random_states(variant, MATCHES[variant.name]):
        legal = game.legal_actions(state)
        assert enc.ids_of(state, legal) == enc.reference_ids(state, legal)
        for seat in range(game.num_seats(state)):
            view = game.observe(state, seat)
            want = enc.reference_observation(view)
            got = enc.observation(view)
            assert got.tobytes() == want.tobytes(), enc.tensor_string(got - want)
            enc.observation(view, out=reused)
            assert reused.tobytes() == want.tobytes()
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_state_filler_writes_the_reference_tensor(case: tuple[str, str, int | None]) -> None:
    """``Encoding.observe(state, seat)`` — the filler's ``fill_state`` where it has one, which
    reads the state without building the view — writes byte-for-byte the reference tensor of
    the seat's view (so it reads nothing the view does not hold), into a fresh vector, a reused
    one and a row of a flat buffer."""
    variant = capped(*case)
    enc = encoding_for(variant)
    game = variant.game
    width = enc.observation_shape[0]
    reused = np.full(enc.observation_shape, 7.0, dtype=np.float32)
    rows = np.zeros((2, width), dtype=np.float32)
    checked = 0
    for state in random_states(variant, MATCHES[variant.name], seed=5):
        for seat in range(game.num_seats(state)):
            want = enc.reference_observation(game.observe(state, seat))
            got = enc.observe(state, seat)
            assert got.tobytes() == want.tobytes(), enc.tensor_string(got - want)
            enc.observe(state, seat, out=reused)
            assert reused.tobytes() == want.tobytes()
            if enc.fill_state is not None:
                rows.fill(0.0)
                enc.fill_state(state, seat, rows.reshape(-1).data, width)
                assert rows[1].tobytes() == want.tobytes() and not rows[0].any()
            checked += 1
    assert checked > 100
