"""After the partner's "yes" (issue 18), the moves of a position share the answers of their
searches (the ways to finish a meld, looked up by the meld's cards before the hand and table
after them are made), and the legal actions stay those of searching every move on its own with
the plain solver, over seeded random games of both presets.  Rule: seed 002 (RULES.md §1 "Going out") — after "yes" only the moves
after which the player can still go out are legal."""

from __future__ import annotations

import random

from parlour import games
from parlour.games.samba import actions as A
from parlour.games.samba.apply import apply
from parlour.games.samba.legal import legal_actions, raw_legal_actions
from parlour.games.samba.parts.lookahead import (
    _after_cards,
    _completions,
    can_go_out_this_turn,
    vouched_out,
)
from parlour.games.samba.parts.reach import can_go_out
from parlour.games.samba.state import MELD, State, side_minimum


def _keeps_going_out_reference(s: State, a: A.SambaAction) -> bool:
    """The check of one move as it was before the shared answers: a fresh search of every way to
    finish the meld being built, no memo."""
    t = type(a)
    if t is A.Discard:
        return s.sizes[s.to_act] == 1
    if t is A.Pass:
        return False
    if t is A.MeldBlackThrees:
        return True
    side = s.side_of[s.to_act]
    after = _after_cards(s, side, a)
    if after is not None:
        h, table, pending = after
        if not pending and not any(h):
            return True
        if s.permission == -1:
            return False
        minimum = None if s.opened[side] else side_minimum(s, side)
        return any(
            can_go_out(h2, t2, s.rules, need_value=minimum)
            for h2, t2, _ in _completions(s, h, table, pending)
        )
    after_state = apply(s, a, None)
    if after_state.hand_no != s.hand_no or after_state.finished:
        return True
    if after_state.to_act != s.to_act:
        return False
    return can_go_out_this_turn(after_state)


def _reference(s: State) -> list[A.SambaAction]:
    out = raw_legal_actions(s.clone())
    vouched = vouched_out(s)
    kept: list[A.SambaAction] = []
    for a in out:
        if vouched(a) or (kept and a is A.UNSTAGE) or _keeps_going_out_reference(s, a):
            kept.append(a)
    return kept or out


def test_shared_answers_equal_searching_each_move_alone() -> None:
    checked = building = 0
    for preset, matches, seed0 in (("samba", 80, 9100), ("bolivia", 30, 9500)):
        variant = games.get("samba", preset=preset, players=4, max_hands=1)
        game = variant.game
        rng = random.Random(seed0)
        for seed in range(matches):
            state = game.new_game(variant.rules, seed0 + seed)
            while game.to_act(state) is not None:
                if state.permission == 1 and state.phase == MELD:
                    assert legal_actions(state.clone()) == _reference(state), state
                    checked += 1
                    building += bool(state.pending)
                legal = game.legal_actions(state)
                state = game.apply_quiet(state, legal[rng.randrange(len(legal))])
    assert checked > 200 and building > 30
