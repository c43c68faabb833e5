"""Scripted Cheat positions for the rule tests."""

from __future__ import annotations

from typing import Any

from parlour.core.cards import NUM_KINDS, parse_cards, shoe
from parlour.core.state import copy_with
from parlour.games.cheat import GAME
from parlour.games.cheat.actions import Challenge, Claim, Pass, Pick
from parlour.games.cheat.legal import opening_ranks
from parlour.games.cheat.rules import CheatRules
from parlour.games.cheat.state import State

SEED_001 = "001_e8630c614840283e.txt"
SEED_000 = "000_0fa2fe02243ab02b.txt"


def rules(**options: Any) -> CheatRules:
    return CheatRules.from_json(options)


def position(hands: list[str], first: int = 0, *, fill: bool = False, **options: Any) -> State:
    """A fresh game whose hands are the given cards (``"7C 9D"`` per seat); ``first`` plays.

    ``fill`` gives the rest of the shoe to the last seat (a full deal, as determinize expects)."""
    r = rules(players=len(hands), **options)
    state = GAME.new_game(r, 1)
    vectors = []
    rest = [0] * NUM_KINDS
    for c in shoe(r.packs, r.jokers):
        rest[c] += 1
    for text in hands:
        v = [0] * NUM_KINDS
        for c in parse_cards(text):
            v[c] += 1
            rest[c] -= 1
        vectors.append(v)
    if fill:
        vectors[-1] = [a + b for a, b in zip(vectors[-1], rest, strict=True)]
    vectors = [tuple(v) for v in vectors]
    return copy_with(
        state,
        hands=tuple(vectors),
        shown=tuple(sum(v) for v in vectors),
        turn_seat=first,
        to_act=first,
        first_player=first,
        allowed=opening_ranks(r.rank_rule),
        must_include=-1,
    )


def play(state: State, cards: str, rank: int, count: int | None = None) -> State:
    """The seat in turn puts down ``cards`` and claims ``count`` (default: all) × ``rank``."""
    picked = sorted(parse_cards(cards))
    for c in picked:
        state, _ = GAME.apply(state, Pick(c))
    state, _ = GAME.apply(state, Claim(len(picked) if count is None else count, rank))
    return state


def answer(state: State, challengers: tuple[int, ...] = ()) -> State:
    """Every asked seat answers: a challenge from those in ``challengers``, else a pass."""
    while GAME.to_act(state) is not None and state.phase in ("window", "late"):
        seat = state.to_act
        state, _ = GAME.apply(state, Challenge() if seat in challengers else Pass())
    return state


def all_pass(state: State) -> State:
    """Every asked seat passes (both rounds with ``challenge_any_time``)."""
    return answer(state, ())
