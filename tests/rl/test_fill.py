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
