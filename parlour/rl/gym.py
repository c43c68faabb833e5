"""A single-agent Gymnasium environment: one seat learns, Parlour bots play the others.

>>> from parlour.rl.gym import SeatEnv
>>> env = SeatEnv("scat", players=3, opponents="random", options={"max_hands": 2})
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape == env.observation_space["observation"].shape
True

Observations are dicts like PettingZoo's (``observation``, ``action_mask``); ``action_masks()``
returns the mask too (the name maskable-PPO implementations call).  The reward of a step is the
learning seat's rewards from its action up to its next decision (per-hand rewards and the
match-end reward of :mod:`parlour.rl.core`).  An action id that is not legal is, by default,
replaced by a uniformly random legal action (``info["illegal_action"] = True``, plus
``illegal_reward``); ``illegal_action="raise"`` raises instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from parlour import bots
from parlour.core.registry import Variant
from parlour.rl.core import Table, make_variant, outcome_json


class SeatEnv(gymnasium.Env[Any, Any]):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str | Variant = "scat",
        preset: str | None = None,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        hand_reward_scale: float | None = None,
        illegal_action: str = "replace",
        illegal_reward: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        variant = make_variant(game, preset, players, options)
        self.variant = variant
        self.table = Table(variant, hand_reward_scale)
        self.encoding = self.table.encoding
        n = self.table.seats
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not one of 0..{n - 1}")
        self.seat = seat
        if isinstance(opponents, str):
            opponents = [opponents] * (n - 1)
        if len(opponents) != n - 1:
            raise ValueError(f"{n - 1} opponents needed, got {len(opponents)}")
        self.opponent_names = list(opponents)
        known = set(bots.available(variant))
        for name in self.opponent_names:
            if name.partition(":")[0] not in known:
                raise ValueError(f"no bot {name!r} for {variant.name}; bots: {sorted(known)}")
        if illegal_action not in ("replace", "raise"):
            raise ValueError("illegal_action: 'replace' or 'raise'")
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi'")
        self.render_mode = render_mode
        size = self.encoding.num_distinct_actions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    -np.inf, np.inf, shape=self.encoding.observation_shape, dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(size)
        self._bots: dict[int, Any] = {}

    # --- gymnasium API ------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(0, 2**62))
        self.table.reset(match_seed)
        others = [s for s in range(self.table.seats) if s != self.seat]
        self._bots = {
            s: bots.make(name, self.variant, s, seed=match_seed + s)
            for s, name in zip(others, self.opponent_names, strict=True)
        }
        reward = self._play_others()
        info = self._info()
        info["reward_before_first_decision"] = reward
        return self._obs(), info

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.table.over:
            raise RuntimeError("the match is over: call reset()")
        legal = self.table.legal_ids()
        reward = 0.0
        illegal = int(action) not in legal
        if illegal:
            if self.illegal_action == "raise":
                raise ValueError(f"action id {action} is not legal now (legal: {legal})")
            action = legal[int(self.np_random.integers(len(legal)))]
            reward += self.illegal_reward
        reward += self.table.step(int(action))[self.seat]
        reward += self._play_others()
        info = self._info()
        info["illegal_action"] = illegal
        terminated = self.table.over
        if terminated:
            info["outcome"] = outcome_json(self.table.outcome())
        return self._obs(), float(reward), terminated, False, info

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.table.describe()
        return None

    def action_masks(self) -> np.ndarray:
        """The legal-action mask as booleans (for maskable policies)."""
        return self.table.legal_mask().astype(bool)

    # --- internals ----------------------------------------------------------------------------

    def _play_others(self) -> float:
        reward = 0.0
        table = self.table
        game = table.game
        while not table.over and table.to_act != self.seat:
            seat = table.to_act
            assert seat is not None
            bot = self._bots[seat]
            legal = table.legal_actions()
            view = game.observe(table.state, seat) if bot.needs_view else None
            action = bot.act(view, legal)
            reward += table.step_action(action)[self.seat]
        return reward

    def _obs(self) -> dict[str, np.ndarray]:
        return {
            "observation": self.table.observation(self.seat),
            "action_mask": self.table.legal_mask(),
        }

    def _info(self) -> dict[str, Any]:
        return {"legal_ids": self.table.legal_ids()}


#: ``gymnasium.make("parlour/Seat-v0", game="cheat", opponents="basic")``
ENV_ID = "parlour/Seat-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="parlour.rl.gym:SeatEnv")
