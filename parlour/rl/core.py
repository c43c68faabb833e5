"""A running match seen through the encodings: apply action ids, read observations, masks and
rewards.  The PettingZoo, Gymnasium and batch interfaces are thin layers over :class:`Table`.

Rewards (per seat; a seat's reward is its side's):

- **per hand**: when a hand ends, ``hand_reward_scale × (the side's hand score − the mean hand
  score of all sides)``.  Default scales: Samba ``1 / target_score``; Hand and Foot ``1 /
  10000``; Scat ``1 / starting lives`` (``1 / target_points`` when playing for points);
  Cheat ``0`` (a match is a single hand).  Zero-sum over sides.
- **at match end**: ``2 × (won − W / S)`` where ``won`` is 1 if the side is among the ``W``
  winners of ``S`` sides: with two sides +1 / −1, a draw (no winner) 0 for all; always
  zero-sum over sides.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from parlour import games
from parlour.core.game import HandResult, Outcome
from parlour.core.registry import Variant
from parlour.rl.encoding import Encoding, encoding_for
from parlour.rl.fill.common import put_ones


def make_variant(
    game: str | Variant,
    preset: str | None = None,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Variant:
    """A registry variant from a name (or the variant itself)."""
    if isinstance(game, Variant):
        if preset is not None or players is not None or options:
            raise ValueError("pass either a Variant or a name with preset/players/options")
        return game
    return games.get(game, preset=preset, players=players, **dict(options or {}))


def default_hand_reward_scale(variant: Variant) -> float:
    rules: Any = variant.rules
    name = variant.name
    if name == "samba":
        return 1.0 / float(rules.target_score)
    if name == "handfoot":
        return 1.0 / 10000
    if name == "scat":
        if rules.plays_for_points:
            return 1.0 / float(rules.target_points)
        return 1.0 / float(rules.starting_lives)
    return 0.0


def match_rewards(outcome: Outcome, seats: int) -> list[float]:
    """Each seat's reward at the end of a match (see the module docstring)."""
    nsides = len(outcome.sides)
    winners = set(outcome.winners)
    if not winners:
        return [0.0] * seats
    share = len(winners) / nsides
    side_reward = [2.0 * ((1.0 if s in winners else 0.0) - share) for s in range(nsides)]
    out = [0.0] * seats
    for side, members in enumerate(outcome.sides):
        for seat in members:
            out[seat] = side_reward[side]
    return out


def rewards_since(
    outcome: Outcome, seats: int, scale: float, hands_scored: int, over: bool
) -> tuple[list[float], int]:
    """Each seat's rewards for the hands ``outcome`` lists from ``hands_scored`` on (none when
    ``scale`` is 0) and, when ``over``, for the match; and the number of hands scored now."""
    rewards = hand_rewards(outcome.sides, outcome.hands, seats, scale, hands_scored)
    if over:
        for seat, r in enumerate(match_rewards(outcome, seats)):
            rewards[seat] += r
    return rewards, len(outcome.hands)


def hand_rewards(
    sides: Sequence[Sequence[int]],
    hands: Sequence[HandResult],
    seats: int,
    scale: float,
    hands_scored: int,
) -> list[float]:
    """Each seat's rewards for the hands from ``hands_scored`` on (none when ``scale`` is 0)."""
    rewards = [0.0] * seats
    if scale:
        for result in hands[hands_scored:]:
            mean = sum(result.scores) / len(result.scores)
            for side, members in enumerate(sides):
                r = scale * (result.scores[side] - mean)
                for seat in members:
                    rewards[seat] += r
    return rewards


_FIELDS: dict[type, tuple[str, ...]] = {}


def _plain(value: Any) -> Any:
    cls = type(value)
    if cls is int or cls is float or cls is str or cls is bool or value is None:
        return value
    names = _FIELDS.get(cls)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """``outcome.to_json()`` without ``dataclasses.asdict``'s deep copies: the same dict, made
    once per match end (as ``to_json`` it cost a Scat match a tenth of its steps' time)."""
    out: dict[str, Any] = _plain(outcome)
    return out


def utility_bound(variant: Variant) -> float:
    """The largest absolute match reward for this game's number of sides."""
    state = variant.new_game(0)
    sides = len(variant.game.outcome(state).sides)
    return 2.0 * (sides - 1) / sides


class Table:
    """One match in progress: ``reset(seed)``, then ``step(action_id)`` for the seat to act."""

    def __init__(self, variant: Variant, hand_reward_scale: float | None = None) -> None:
        self.variant = variant
        self.game = variant.game
        self.encoding: Encoding = encoding_for(variant)
        self.hand_reward_scale = (
            default_hand_reward_scale(variant) if hand_reward_scale is None else hand_reward_scale
        )
        self.state: Any = None
        self.seats = int(variant.rules.players)  # type: ignore[attr-defined]
        self.hands_scored = 0
        self.hand_no = 0
        self.steps = 0
        # the legal actions and ids of the state they were computed for (states never change)
        self._legal_of: Any = None
        self._legal: Sequence[Any] = ()
        self._ids: list[int] = []
        # the seat to act, and the state it was read from
        self._seat_of: Any = None
        self._seat: int | None = None
        # read once (properties of the encoding, looked up every step otherwise)
        self._num_actions = self.encoding.num_distinct_actions
        self._obs_size = self.encoding.observation_shape[0]
        self._fill_state: Any = self.encoding.fill_state
        fresh = getattr(self.encoding.filler, "fresh", None)
        if self._fill_state is not None and fresh is not None:
            # a filler of its own: its last-seen entries are this match's (with several
            # tables in one process, the encoding's shared filler would see each in turn)
            self._fill_state = fresh().fill_state

    def _legal_now(self) -> tuple[Sequence[Any], list[int]]:
        state = self.state
        if self._legal_of is not state:
            legal = self.game.legal_actions(state)
            self._ids = self.encoding.ids_of(state, legal)
            self._legal = legal
            self._legal_of = state
        return self._legal, self._ids

    def reset(self, seed: int | None = None) -> None:
        if seed is None:
            seed = random.getrandbits(63)
        self.state = self.game.new_game(self.variant.rules, seed)
        self.hands_scored = 0
        self.hand_no = self.game.hand_number(self.state)
        self.steps = 0

    @property
    def to_act(self) -> int | None:
        if self._seat_of is not self.state:
            seat = self.game.to_act(self.state)
            self._seat = None if seat is None else int(seat)
            self._seat_of = self.state
        return self._seat

    @property
    def over(self) -> bool:
        return self.to_act is None

    def observation(self, seat: int) -> np.ndarray:
        fill_state = self._fill_state
        if fill_state is None or seat is None:
            return self.encoding.observe(self.state, seat)
        # encoding.observe's fast path, without its call and lookups
        out = np.zeros(self._obs_size, dtype=np.float32)
        fill_state(self.state, seat, out.data, 0)
        return out

    def legal_mask(self) -> np.ndarray:
        """A new ``int8`` mask of the legal ids (its ones written by compiled code: a lookup
        of the set of ids among masks made before, and the copy, cost more)."""
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if self.to_act is not None:
            put_ones(mask.data, 0, self._legal_now()[1])
        return mask

    def legal_actions(self) -> Sequence[Any]:
        """The engine's legal actions now (computed once per state)."""
        return () if self.over else self._legal_now()[0]

    def legal_ids(self) -> list[int]:
        """The legal ids in the engine's order."""
        return [] if self.to_act is None else list(self._legal_now()[1])

    def legal_ids_view(self) -> list[int]:
        """:meth:`legal_ids` without the copy (do not change it)."""
        return [] if self.to_act is None else self._legal_now()[1]

    def step(self, action_id: int) -> list[float]:
        """Apply the action an id names for the seat to act; the rewards this step gave.
        An id naming no legal action raises (``IllegalAction`` or ``ValueError``), the match
        unchanged."""
        legal, ids = self._legal_now()
        i = int(action_id)
        try:
            k = ids.index(i)
        except ValueError:
            k = -1
        if k >= 0:
            self.state = self.game.apply_quiet(self.state, legal[k])
        else:
            action = self.encoding.id_to_action(self.state, i)
            self.state, _ = self.game.apply(self.state, action)
        self.steps += 1
        return self.rewards_now()

    def step_action(self, action: Any) -> list[float]:
        """Apply an engine action (bots); the rewards this step gave."""
        if action in self.legal_actions():
            self.state = self.game.apply_quiet(self.state, action)
        else:
            self.state, _ = self.game.apply(self.state, action)
        self.steps += 1
        return self.rewards_now()

    def rewards_now(self) -> list[float]:
        """Rewards for hands ended and the match ended since the last call."""
        over = self.to_act is None
        hand = self.game.hand_number(self.state)
        if hand == self.hand_no and not over:
            return [0.0] * self.seats
        self.hand_no = hand
        rewards, self.hands_scored = rewards_since(
            self.game.outcome(self.state),
            self.seats,
            self.hand_reward_scale,
            self.hands_scored,
            over,
        )
        return rewards

    def outcome(self) -> Outcome:
        return self.game.outcome(self.state)

    def describe(self) -> str:
        """The table in words from the seat to act (or seat 0 when the match is over)."""
        seat = self.to_act
        head = (
            f"{self.variant.name} ({self.variant.preset}), hand {self.hand_no + 1}, "
            f"step {self.steps}: "
        )
        if seat is None:
            out = self.outcome()
            head += f"over ({out.termination}), scores {list(out.scores)}, winners "
            head += f"{list(out.winners)}"
            seat = 0
        else:
            head += f"seat {seat} to act"
        view = self.game.observe(self.state, seat)
        return head + "\n" + self.encoding.observation_string(view)
