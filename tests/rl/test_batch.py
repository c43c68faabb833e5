"""Batched play: N matches stepped from one call agree with the same matches played one by one."""

from __future__ import annotations

import pytest

from tests.rl.conftest import CASES, capped, case_id, need

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


class _Reference:
    """What ``BatchEnv`` must give, built from one :class:`Table` per row (a match that ends
    is dealt again at once with the next seed, as the batch does)."""

    def __init__(self, variant: object, n: int, seed: int, observe: bool) -> None:
        self.tables = [Table(variant) for _ in range(n)]  # type: ignore[arg-type]
        self.next_seed = seed
        self.observe = observe
        for t in self.tables:
            self._deal(t)

    def _deal(self, t: Table) -> None:
        t.reset(self.next_seed)
        self.next_seed += 1

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        seats = [t.to_act for t in self.tables]
        if self.observe:
            obs = np.stack([t.observation(s) for t, s in zip(self.tables, seats, strict=True)])
        else:
            obs = np.zeros((len(seats), self.tables[0].encoding.observation_shape[0]), np.float32)
        mask = np.stack([t.legal_mask() for t in self.tables])
        return obs, mask, np.array(seats, dtype=np.int64)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rewards = np.zeros((len(self.tables), self.tables[0].seats), dtype=np.float32)
        done = np.zeros(len(self.tables), dtype=bool)
        for i, t in enumerate(self.tables):
            got = t.step(int(actions[i]))
            if any(got):
                rewards[i] = got
            if t.over:
                done[i] = True
                self._deal(t)
        return rewards, done


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    return got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_batch_step_is_the_tables_step_byte_for_byte(case: tuple[str, str, int | None]) -> None:
    """Observations, masks, seats, rewards and done flags of the batched step (the compiled
    loop over the rows) equal, byte for byte, those of one ``Table`` per row, over random play
    across many matches (re-deals included)."""
    variant = capped(*case)
    n, seed = 3, 40
    observe = case[0] != "scat" or case[2] is None  # one case without observations
    env = BatchEnv(variant, n, seed=seed, observe=observe)
    ref = _Reference(variant, n, seed, observe)
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(7)
    ended = 0
    steps = 700 if case[0] in ("samba", "handfoot") else 400
    for _ in range(steps):
        want_obs, want_mask, want_seat = ref.arrays()
        assert _same(seat, want_seat)
        assert _same(mask, want_mask)
        assert _same(obs, want_obs)
        actions = env.sample(mask, rng)
        want_rewards, want_done = ref.step(actions)
        obs, mask, seat, rewards, done = env.step(actions)
        assert _same(rewards, want_rewards)
        assert _same(done, want_done)
        ended += int(done.sum())
    assert env.matches_finished == ended
    assert ended >= n  # the re-deals were compared too


def test_batch_illegal_id_raises_as_the_table_does() -> None:
    env = BatchEnv("scat", 2, options={"max_hands": 2}, seed=3)
    _, mask, _ = env.reset()
    illegal = int(np.flatnonzero(mask[0] == 0)[0])
    table = Table(make_variant("scat", options={"max_hands": 2}))
    table.reset(3)
    with pytest.raises(Exception) as want:
        table.step(illegal)
    with pytest.raises(type(want.value)):
        env.step(np.array([illegal, int(np.flatnonzero(mask[1])[0])]))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_hand_results_are_the_outcomes(case: tuple[str, str, int | None]) -> None:
    """What the batch reads at a hand's end (``Game.hand_results``, Scat's without building
    the outcome) is the outcome's sides and hands, in every state and at the match's end."""
    variant = capped(*case)
    game = variant.game
    rng = np.random.default_rng(9)
    seen = 0
    for m in range(3):
        state = game.new_game(variant.rules, 900 + m)
        while True:
            sides, hands = game.hand_results(state)
            out = game.outcome(state)
            assert sides == out.sides and hands == out.hands
            if game.to_act(state) is None:
                break
            legal = game.legal_actions(state)
            state = game.apply_quiet(state, legal[int(rng.integers(len(legal)))])
        seen += len(hands)
    assert seen >= 3
