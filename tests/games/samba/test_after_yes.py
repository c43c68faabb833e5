"""After the partner's "yes", the take-back of a meld being built is kept without a search once a
way to finish that meld is found (issue 18): the legal actions equal those of checking every move
by a search.  Rule: seed 002 (RULES.md §1 "Going out") — after "yes" only the moves after which
the player can still go out are legal."""

from __future__ import annotations

import random

from parlour import games
from parlour.games.samba import actions as A
from parlour.games.samba.legal import legal_actions, raw_legal_actions
from parlour.games.samba.parts.lookahead import keeps_going_out, vouched_out
from parlour.games.samba.state import MELD, State


def _every_move_searched(s: State) -> list[A.SambaAction]:
    out = raw_legal_actions(s.clone())
    vouched = vouched_out(s)
    return [a for a in out if vouched(a) or keeps_going_out(s, a)] or out


def _after_yes(preset: str, matches: int) -> list[State]:
    """Positions after "yes" (a meld being built among them) from seeded random play."""
    variant = games.get("samba", preset=preset, players=4, max_hands=1)
    game = variant.game
    rng = random.Random(18)
    states: list[State] = []
    for seed in range(matches):
        state = game.new_game(variant.rules, 7000 + seed)
        while game.to_act(state) is not None:
            if state.permission == 1 and state.phase == MELD:
                states.append(state)
            legal = game.legal_actions(state)
            state = game.apply_quiet(state, legal[rng.randrange(len(legal))])
    return states


def test_take_back_short_cut_equals_searching_every_move() -> None:
    building = 0
    for preset, matches in (("samba", 60), ("bolivia", 20)):
        for s in _after_yes(preset, matches):
            assert legal_actions(s.clone()) == _every_move_searched(s), s
            building += bool(s.pending)
    assert building > 30  # enough positions with a meld being built to mean something
