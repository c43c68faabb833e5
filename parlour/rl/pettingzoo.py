"""PettingZoo AEC environments for every Parlour game and preset.

>>> from parlour.rl.pettingzoo import env
>>> e = env("scat", players=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), bool(obs["action_mask"].sum() > 0)
(['action_mask', 'observation'], True)

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers).  An observation is a dict with
``observation`` (the seat's float32 tensor, see ``docs/research.md``) and ``action_mask``
(int8, 1 where the action id is legal; all 0 when it is not the agent's turn).  Rewards are
those of :mod:`parlour.rl.core`: per hand (scaled, zero-sum) and ±1-style at match end.
``info["legal_ids"]`` lists the legal ids in the engine's order for the agent to act.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from parlour.core.registry import Variant
from parlour.rl.core import Table, make_variant, outcome_json
from parlour.rl.fill.common import put_ones


class ParlourAECEnv(AECEnv):  # type: ignore[misc]
    """One Parlour match as an AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "parlour_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Variant = "scat",
        preset: str | None = None,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        hand_reward_scale: float | None = None,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        #: steps after which the match is truncated (``None``: never; some rules let a policy
        #: play for ever, e.g. Scat's "always take the previous discard" once the stock is out)
        self.max_steps = max_steps
        variant = make_variant(game, preset, players, options)
        self.table = Table(variant, hand_reward_scale)
        self.variant = variant
        self.encoding = self.table.encoding
        self.metadata = {  # type: ignore[misc]
            **type(self).metadata,
            "name": f"parlour_{variant.name}_{variant.preset}_v0",
        }
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: 'ansi' or 'human'")
        self.render_mode = render_mode
        n = self.table.seats
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = self._num_actions = self.encoding.num_distinct_actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-np.inf,
                    high=np.inf,
                    shape=self.encoding.observation_shape,
                    dtype=np.float32,
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
            }
        )
        self._observation_spaces = {a: obs_space for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        table = self.table
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if table.to_act == seat:
            put_ones(mask.data, 0, table.legal_ids_view())
        return {"observation": table.observation(seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last`` (the agent to act's observation, cumulative reward,
        termination, truncation and info), read without its method hops."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewarded = False  # whether self.rewards holds a non-zero reward
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.table.to_act
        if seat is not None:
            agent = self.agent_selection = self.possible_agents[seat]
            self.infos[agent] = {"legal_ids": list(self.table.legal_ids_view())}

    def _accumulate_rewards(self) -> None:
        if not self._rewarded:
            return
        cumulative = self._cumulative_rewards
        for agent, reward in self.rewards.items():
            if reward:
                cumulative[agent] += reward

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: pass an action id (see the action_mask)")
        self._cumulative_rewards[agent] = 0.0
        rewards = self.table.step(int(action))
        # every agent stays in until the match ends: agents are possible_agents, in seat order
        # (most steps give no reward: the dict of zeros stays as it is)
        if any(rewards):
            self.rewards = dict(zip(self.agents, rewards, strict=True))
            self._rewarded = True
        elif self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        self.infos[agent] = {}
        table = self.table
        seat = table.to_act
        if seat is None:
            self.terminations = {a: True for a in self.agents}
            outcome = outcome_json(table.outcome())  # once: one dict for every agent
            self.infos = {a: {"outcome": outcome} for a in self.agents}
        elif self.max_steps is not None and table.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        else:  # _select with the seat read
            agent = self.agent_selection = self.possible_agents[seat]
            self.infos[agent] = {"legal_ids": list(table.legal_ids_view())}
        if self._rewarded:
            self._accumulate_rewards()

    def render(self) -> str | None:
        """``ansi``: the table in words (from the seat to act); ``human``: printed."""
        if self.render_mode is None:
            return None
        text = self.table.describe()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(
    game: str | Variant = "scat",
    preset: str | None = None,
    players: int | None = None,
    **kwargs: Any,
) -> ParlourAECEnv:
    """The environment without PettingZoo's checking wrappers."""
    return ParlourAECEnv(game, preset, players, **kwargs)


class CheckedEnv(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` in one layer,
    with the same checks: an action outside the action space fails an assertion; ``step``,
    ``observe``, ``last`` and ``agent_iter`` before ``reset`` raise; the loop over
    ``agent_iter`` must step between agents.  PettingZoo's two wrappers reach every attribute
    of the env through two ``__getattr__`` hops, which cost a whole engine step each call; the
    attributes a loop reads are properties here."""

    def __init__(self, env: ParlourAECEnv) -> None:
        super().__init__(env)
        self._size = env.encoding.num_distinct_actions

    def _reset_first(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            self._reset_first("agent_selection")
        return str(self.env.agent_selection)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            self._reset_first("agents")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def rewards(self) -> dict[str, float]:
        self._reset_first("rewards")
        return self.env.rewards  # type: ignore[no-any-return]

    @property
    def terminations(self) -> dict[str, bool]:
        self._reset_first("terminations")
        return self.env.terminations  # type: ignore[no-any-return]

    @property
    def truncations(self) -> dict[str, bool]:
        self._reset_first("truncations")
        return self.env.truncations  # type: ignore[no-any-return]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        self._reset_first("infos")
        return self.env.infos  # type: ignore[no-any-return]

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            self._reset_first("agent_selection")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        # OrderEnforcingWrapper.step, with the bounds check, calling the env directly
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        inner = self.env
        if not inner.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = inner.agent_selection
        if type(action) is int:
            fits = 0 <= action < self._size
        elif action is None:
            fits = inner.terminations[agent] or inner.truncations[agent]
        else:
            fits = inner.action_space(agent).contains(action)
        assert fits, "action is not in action space"
        self._has_updated = True
        inner.step(action)

    def __str__(self) -> str:
        return str(self.env)


def env(
    game: str | Variant = "scat",
    preset: str | None = None,
    players: int | None = None,
    **kwargs: Any,
) -> Any:
    """The environment with the checks PettingZoo's classic games have (an action outside the
    action space fails, an illegal one raises, the order of calls is checked): PettingZoo's
    ``OrderEnforcingWrapper`` with the bounds check of its ``AssertOutOfBoundsWrapper``
    (:class:`CheckedEnv`)."""
    return CheckedEnv(raw_env(game, preset, players, **kwargs))
