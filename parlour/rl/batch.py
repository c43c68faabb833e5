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
from parlour.rl.core import Table, make_variant
from parlour.rl.fill.common import put_ones


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
        self.tables = [Table(self.variant, hand_reward_scale) for _ in range(n)]
        self.encoding = self.tables[0].encoding
        self.n = n
        self.players = self.tables[0].seats
        self.num_actions = self.encoding.num_distinct_actions
        self.observe = observe
        self._next_seed = seed
        self.obs = np.zeros((n, *self.encoding.observation_shape), dtype=np.float32)
        self.mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self.seat = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, self.players), dtype=np.float32)
        self.done = np.zeros(n, dtype=bool)
        self.matches_finished = 0
        # the observations as one flat float32 buffer the compiled filler writes row by row
        self._width = int(self.obs.shape[1])
        self._flat = self.obs.reshape(-1).data
        #: the masks as one flat int8 buffer (zeroed each step, the legal ids' ones written)
        self._mask_flat = self.mask.reshape(-1).data

    def _deal(self, i: int) -> None:
        self.tables[i].reset(self._next_seed)
        self._next_seed += 1

    def _fill(self, i: int) -> None:
        """Row ``i``'s seat, mask and observation (the observation rows are zero)."""
        table = self.tables[i]
        seat = table.to_act
        assert seat is not None
        self.seat[i] = seat
        enc = self.encoding
        put_ones(self._mask_flat, i * self.num_actions, table.legal_ids_view())
        if self.observe:
            fill_state = table._fill_state  # the table's own filler (Table.__init__)
            if fill_state is not None:
                fill_state(table.state, seat, self._flat, i * self._width)
                return
            view = table.game.observe(table.state, seat)
            filler = enc.filler
            if filler is not None:
                filler.fill(view, self._flat, i * self._width)
            else:
                enc.observation(view, out=self.obs[i])

    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.obs.fill(0.0)
        self.mask.fill(0)
        for i in range(self.n):
            self._deal(i)
            self._fill(i)
        return self.obs, self.mask, self.seat

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        actions = np.asarray(actions)
        if actions.shape != (self.n,):
            raise ValueError(f"one action per match: shape ({self.n},), not {actions.shape}")
        self.rewards[:] = 0.0
        self.done[:] = False
        self.obs.fill(0.0)
        self.mask.fill(0)
        for i, (table, action) in enumerate(zip(self.tables, actions.tolist(), strict=True)):
            got = table.step(int(action))
            if any(got):
                self.rewards[i] = got
            if table.over:
                self.done[i] = True
                self.matches_finished += 1
                self._deal(i)
            self._fill(i)
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
