"""Batched play: N matches stepped from one call agree with the same matches played one by one."""

from __future__ import annotations

import pytest

from tests.rl.conftest import need

need("numpy")

import numpy as np  # noqa: E402

from parlour.rl.batch import BatchEnv  # noqa: E402
from parlour.rl.core import Table, make_variant  # noqa: E402


@pytest.mark.parametrize(
    ("name", "options"),
    [("scat", {"max_hands": 2}), ("cheat", {"max_turns": 15}), ("samba", {"max_hands": 1})],
)
def test_batch_matches_single_tables(name: str, options: dict[str, int]) -> None:
    env = BatchEnv(name, 4, options=options, seed=100)
    obs, mask, seat = env.reset()
    singles = [Table(make_variant(name, options=options)) for _ in range(4)]
    for i, t in enumerate(singles):
        t.reset(100 + i)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        for i, t in enumerate(singles):
            if t.over:
                continue
            assert seat[i] == t.to_act
            assert (obs[i] == t.observation(t.to_act)).all()
            assert (mask[i] == t.legal_mask()).all()
        actions = env.sample(mask, rng)
        assert all(mask[i, a] for i, a in enumerate(actions))
        expected = []
        for i, t in enumerate(singles):
            expected.append(None if t.over else t.step(int(actions[i])))
        obs, mask, seat, rewards, done = env.step(actions)
        for i, t in enumerate(singles):
            if expected[i] is None:
                continue
            assert rewards[i] == pytest.approx(expected[i])
            assert done[i] == t.over
            finished += int(done[i])
        if all(t.over for t in singles):
            break
    assert finished == 4
    assert env.matches_finished >= 4
    assert rewards.shape == (4, env.players)
