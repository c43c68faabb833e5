"""Vectorised play: N matches stepped together, numpy arrays in and out.

>>> import numpy as np
>>> from parlour.rl.batch import BatchEnv
>>> env = BatchEnv("scat", 8, options={"max_hands": 2}, seed=0)
>>> obs, mask, seat = env.reset()
>>> obs.shape[0], mask.shape == (8, env.num_actions), seat.shape
(8, True, (8,))
>>> obs, mask, seat, rewards, done = env.step(env.sample(mask, np.random.default_rng(0)))
>>> rewards.shape
(8, 4)

Each row is one match, observed by the seat to act (self-play: every seat is played by the
caller).  ``step(actions)`` applies one action id per match for its seat to act and returns the
next observations, masks and seats to act, the rewards every seat got (``(N, players)``, the
rewards of :mod:`parlour.rl.core`) and which matches ended; an ended match is dealt again at
once (its row then shows the new match; ``done`` tells it ended).  Arrays are reused between
calls: copy them to keep them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from parlour.core.registry import Variant
from parlour.rl.core import Table, hand_rewards, make_variant, rewards_since
from parlour.rl.fill.rows import Rows


class _SlowIds:
    """``ids(state, actions, slow)`` of an encoding without compiled ids."""

    def __init__(self, ids_of: Any) -> None:
        self.ids_of = ids_of

    def ids(self, state: Any, actions: Any, slow: Any) -> list[int]:
        out: list[int] = self.ids_of(state, actions)
        return out


class BatchEnv:
    def __init__(
        self,
        game: str | Variant,
        n: int,
        preset: str | None = None,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        hand_reward_scale: float | None = None,
        observe: bool = True,
    ) -> None:
        if n < 1:
            raise ValueError("n must be at least 1")
        self.variant = make_variant(game, preset, players, options)
        # one table, for what every match shares: the encoding, seats and reward scale (the
        # matches themselves are stepped by the compiled ``Rows``, as a ``Table`` steps one)
        table = Table(self.variant, hand_reward_scale)
        self.encoding = enc = table.encoding
        self.n = n
        self.players = table.seats
        self.num_actions = enc.num_distinct_actions
        self.observe = observe
        self.obs = np.zeros((n, *enc.observation_shape), dtype=np.float32)
        self.mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self.seat = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, self.players), dtype=np.float32)
        self.done = np.zeros(n, dtype=bool)
        # the arrays as flat buffers the compiled loop writes row by row
        self._width = int(self.obs.shape[1])
        self._flat = self.obs.reshape(-1).data
        self._mask_flat = self.mask.reshape(-1).data
        self._buffers: tuple[Any, ...] = (
            self._flat,
            self._mask_flat,
            self.seat.data,
            self.rewards.reshape(-1).data,
            self.done.data,
        )
        g = self.variant.game
        rules = self.variant.rules
        seats, scale = table.seats, table.hand_reward_scale

        def new_game(seed: int) -> Any:
            return g.new_game(rules, seed)

        def apply_id(state: Any, action_id: int) -> Any:
            # an id no legal action has: checked, so it raises as Table.step does
            return g.apply(state, enc.id_to_action(state, action_id))[0]

        def rewards(state: Any, hands_scored: int, over: bool) -> tuple[list[float], int]:
            if over:
                return rewards_since(g.outcome(state), seats, scale, hands_scored, over)
            # a hand ended, the match goes on: its sides and hands, not the whole outcome
            sides, hands = g.hand_results(state)
            return hand_rewards(sides, hands, seats, scale, hands_scored), len(hands)

        fills: list[Any] = []
        observe_slow: Any = None
        if observe and table._fill_state is not None:
            # each match a filler of its own where the filler keeps last-seen entries (as each
            # Table has: one shared filler would see the matches in turn)
            fresh = getattr(enc.filler, "fresh", None)
            fills = [enc.fill_state if fresh is None else fresh().fill_state for _ in range(n)]
        elif observe:
            observe_slow = self._observe_slow
        id_maker = enc.id_maker if enc.id_maker is not None else _SlowIds(enc.ids_of)
        self._rows = Rows(
            n,
            seats,
            self.num_actions,
            self._width,
            seed,
            (new_game, g.to_act, g.legal_actions, g.apply_quiet, g.hand_number, apply_id),
            id_maker,
            enc._action_to_id,
            fills,
            observe_slow,
            rewards,
        )

    @property
    def matches_finished(self) -> int:
        """Matches ended (and dealt again) since the batch was made."""
        return self._rows.matches_finished

    def _observe_slow(self, i: int, state: Any, seat: int) -> None:
        """Row ``i``'s observation for an encoding without ``fill_state``."""
        enc = self.encoding
        view = self.variant.game.observe(state, seat)
        filler = enc.filler
        if filler is not None:
            filler.fill(view, self._flat, i * self._width)
        else:
            enc.observation(view, out=self.obs[i])

    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.obs.fill(0.0)
        self.mask.fill(0)
        flat, mask, seat, _, _ = self._buffers
        self._rows.reset(flat, mask, seat)
        return self.obs, self.mask, self.seat

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        actions = np.asarray(actions)
        if actions.shape != (self.n,):
            raise ValueError(f"one action per match: shape ({self.n},), not {actions.shape}")
        self.rewards.fill(0.0)
        self.done.fill(False)
        self.obs.fill(0.0)
        self.mask.fill(0)
        self._rows.step(actions.astype(np.int64, copy=False).tolist(), *self._buffers)
        return self.obs, self.mask, self.seat, self.rewards, self.done

    @staticmethod
    def sample(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One uniformly random legal id per row of ``mask`` (vectorised; a row with no legal
        id gives 0).  One random number per row, not one per entry: the legal ids of every
        row in one ``nonzero``, then a uniform pick among each row's (a few times faster than
        the argmax of a random key per entry: a sixth of a Hand and Foot batch step was the
        64 × 716 keys)."""
        legal = np.asarray(mask) != 0  # a bool array's nonzero is several times an int8's
        rows, width = legal.shape
        flat = np.flatnonzero(legal)  # row by row, each row's ids in order
        counts = np.bincount(flat // width, minlength=rows)
        starts = np.cumsum(counts) - counts
        offset = (rng.random(rows) * counts).astype(np.intp)
        np.minimum(offset, np.maximum(counts - 1, 0), out=offset)
        out = np.zeros(rows, dtype=np.intp)
        held = counts > 0
        out[held] = flat[starts[held] + offset[held]] - np.flatnonzero(held) * width
        return out
