"""The single-seat Gymnasium environment passes Gymnasium's ``check_env`` for every game and
each kind of opponent, and its rewards add up to the match result."""

from __future__ import annotations

import pytest

from tests.rl.conftest import need

need("gymnasium")

# Gymnasium's checker warns about unbounded Box observations and registry-less render checks
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from parlour.rl.core import match_rewards  # noqa: E402
from parlour.rl.gym import ENV_ID, SeatEnv  # noqa: E402

CASES = [
    ("scat", None, "basic", {"max_hands": 2}),
    ("scat", "gin", "random", {"max_hands": 2}),
    ("cheat", None, "basic", {"max_turns": 20}),
    ("cheat", "bullshit", "random", {"max_turns": 20}),
    ("samba", None, "basic", {"max_hands": 1}),
    ("samba", "bolivia", "random", {"max_hands": 1}),
    ("handfoot", None, "random", {"max_hands": 1}),
]


@pytest.mark.parametrize(("name", "preset", "opponents", "options"), CASES)
def test_check_env(name: str, preset: str | None, opponents: str, options: dict[str, int]) -> None:
    env = SeatEnv(name, preset, options=options, opponents=opponents, render_mode="ansi")
    check_env(env, skip_render_check=False)


def test_strong_opponents_and_another_seat() -> None:
    env = SeatEnv("scat", players=2, seat=1, opponents="strong:20it", options={"max_hands": 1})
    check_env(env, skip_render_check=True)


def test_rewards_add_up_and_masks_are_followed() -> None:
    env = SeatEnv("scat", players=3, opponents=["basic", "random"], options={"max_hands": 3})
    rng = np.random.default_rng(0)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        total = info["reward_before_first_decision"]
        done = False
        while not done:
            mask = obs["action_mask"]
            assert (np.flatnonzero(mask) == sorted(info["legal_ids"])).all()
            assert (env.action_masks() == mask.astype(bool)).all()
            obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert not info["illegal_action"] and not truncated
            total += reward
        outcome = env.table.outcome()
        hands = sum(
            env.table.hand_reward_scale * (h.scores[0] - sum(h.scores) / 3) for h in outcome.hands
        )
        assert total == pytest.approx(hands + match_rewards(outcome, 3)[0])


def test_illegal_actions() -> None:
    env = SeatEnv("scat", players=2, options={"max_hands": 1}, illegal_action="raise")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    env = SeatEnv("scat", players=2, options={"max_hands": 1}, illegal_reward=-0.1)
    obs, _ = env.reset(seed=1)
    _, _, _, _, info = env.step(illegal)
    assert info["illegal_action"]


def test_gymnasium_make() -> None:
    env = gymnasium.make(ENV_ID, game="cheat", opponents="basic", options={"max_turns": 10})
    obs, _ = env.reset(seed=3)
    assert obs["action_mask"].sum() > 0
    assert isinstance(env.unwrapped, SeatEnv)
