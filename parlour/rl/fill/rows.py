"""The batched step's loop over its matches (:class:`parlour.rl.batch.BatchEnv`; compiled).

:class:`Rows` holds the ``N`` matches of a batch (their states, legal actions and ids, hand
numbers) and steps them all in one call: per row, the action id's legal action applied, the
rewards of a hand or match that ended, a finished match dealt again, then the seat to act, its
mask's ones and its observation written straight into the batch's numpy buffers (passed in as
``memoryview``s: this module imports no numpy).  It does what
:class:`parlour.rl.core.Table` does for one match — ``tests/rl/test_batch.py`` steps both side by
side and compares every array — with the engine's calls read once (compiled functions where the
game offers them: an interpreted frame per call otherwise) and no per-row Python loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

#: ``rewards(state, hands_scored, over)``: the rewards of the hands ended since
#: ``hands_scored`` (and of the match, when ``over``), and the hands scored now
#: (:func:`parlour.rl.core.rewards_since`)
RewardsFn = Callable[[Any, int, bool], tuple[list[float], int]]


class Rows:
    """``n`` matches of one variant, stepped together; the arrays are the caller's."""

    def __init__(
        self,
        n: int,
        seats: int,
        num_actions: int,
        width: int,
        seed: int,
        engine: Sequence[Any],
        id_maker: Any,
        slow: Any,
        fills: list[Any],
        observe_slow: Any,
        rewards: RewardsFn,
    ) -> None:
        """``engine``: the game's ``new_game(seed)`` (rules bound), ``to_act``,
        ``legal_actions``, ``apply_quiet``, ``hand_number``, and the checked
        ``apply_id(state, action_id)`` of an id no legal action has (raises, as
        :meth:`Table.step` does); ``id_maker.ids(state, actions, slow)`` gives the legal ids;
        ``fills[i](state, seat, buffer, base)`` writes row ``i``'s observation (empty list:
        ``observe_slow(i, state, seat)`` does, or ``None``: no observation)."""
        self.n = n
        self.seats = seats
        self.num_actions = num_actions
        self.width = width
        self.next_seed = seed
        self.new_game: Callable[[int], Any] = engine[0]
        self.to_act: Callable[[Any], Any] = engine[1]
        self.legal_actions: Callable[[Any], Sequence[Any]] = engine[2]
        self.apply_quiet: Callable[[Any, Any], Any] = engine[3]
        self.hand_number: Callable[[Any], int] = engine[4]
        self.apply_id: Callable[[Any, int], Any] = engine[5]
        self.id_maker = id_maker
        self.slow = slow
        self.fills = fills
        self.observe_slow = observe_slow
        self.rewards = rewards
        self.states: list[Any] = [None] * n
        self.legal: list[Sequence[Any]] = [()] * n
        self.ids: list[list[int]] = [[] for _ in range(n)]
        self.hand_no: list[int] = [0] * n
        self.hands_scored: list[int] = [0] * n
        self.matches_finished = 0

    def deal(self, i: int) -> None:
        state = self.new_game(self.next_seed)
        self.next_seed += 1
        self.states[i] = state
        self.hands_scored[i] = 0
        self.hand_no[i] = int(self.hand_number(state))

    def fill(
        self,
        i: int,
        seat: int,
        obs: memoryview[float],
        mask: memoryview[int],
        seats: memoryview[int],
    ) -> None:
        """Row ``i``'s seat, legal ids (kept for the next step), mask ones and observation (the
        row's mask and observation are zero)."""
        state = self.states[i]
        seats[i] = seat
        legal = self.legal_actions(state)
        ids: list[int] = self.id_maker.ids(state, legal, self.slow)
        self.legal[i] = legal
        self.ids[i] = ids
        base = i * self.num_actions
        for a in ids:
            mask[base + a] = 1
        fills = self.fills
        if fills:
            fills[i](state, seat, obs, i * self.width)
        elif self.observe_slow is not None:
            self.observe_slow(i, state, seat)

    def reset(self, obs: memoryview[float], mask: memoryview[int], seats: memoryview[int]) -> None:
        for i in range(self.n):
            self.deal(i)
            self.fill(i, int(self.to_act(self.states[i])), obs, mask, seats)

    def step(
        self,
        actions: list[int],
        obs: memoryview[float],
        mask: memoryview[int],
        seats: memoryview[int],
        rewards: memoryview[float],
        done: memoryview[bool],
    ) -> None:
        """One action id per row for its seat to act (the arrays' rows zero: rewards, done,
        masks and observations)."""
        players = self.seats
        to_act = self.to_act
        hand_number = self.hand_number
        for i in range(self.n):
            action = actions[i]
            state = self.states[i]
            ids = self.ids[i]
            k = -1
            for j in range(len(ids)):
                if ids[j] == action:
                    k = j
                    break
            if k >= 0:
                state = self.apply_quiet(state, self.legal[i][k])
            else:
                state = self.apply_id(state, action)
            self.states[i] = state
            seat = to_act(state)
            over = seat is None
            hand = int(hand_number(state))
            if over or hand != self.hand_no[i]:
                self.hand_no[i] = hand
                got, scored = self.rewards(state, self.hands_scored[i], over)
                self.hands_scored[i] = scored
                nonzero = False
                for r in got:
                    if r:
                        nonzero = True
                if nonzero:
                    b = i * players
                    for s in range(players):
                        rewards[b + s] = got[s]
            if over:
                done[i] = True
                self.matches_finished += 1
                self.deal(i)
                seat = to_act(self.states[i])
            self.fill(i, int(seat), obs, mask, seats)
