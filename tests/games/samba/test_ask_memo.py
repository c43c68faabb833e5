"""The ask check ``can_go_out_this_turn`` (seed 002, RULES.md §1 "Going out": "Before going
out, you may ask your partner" — offered whenever going out this turn is possible) remembers the
position it last answered yes for (docs/speed.md "tenth pass"): a meld begun and taken back
gives the same hand and melds again.  Not for the rest of the turn — a move can spoil going
out — so the memo is keyed by the position; over seeded random games of both presets every
answer equals a fresh search's, the remembered ones included, and a move that spoils going out
within a turn is seen."""

from __future__ import annotations

import random

from parlour import games
from parlour.games.samba.parts import lookahead
from parlour.games.samba.parts.lookahead import can_go_out_this_turn
from parlour.games.samba.state import MELD, State


def _fresh(s: State) -> bool:
    lookahead._LAST_YES.melds = None  # forget the remembered position
    return can_go_out_this_turn(s)


def test_remembered_yes_equals_a_fresh_search() -> None:
    remembered = spoiled = checked = 0
    for preset, matches, seed0 in (("samba", 60, 7100), ("bolivia", 25, 7500)):
        variant = games.get("samba", preset=preset, players=4, max_hands=1)
        game = variant.game
        rng = random.Random(seed0)
        for seed in range(matches):
            state = game.new_game(variant.rules, seed0 + seed)
            yes_turn = -1  # the turn in which the ask check said yes
            turn = 0
            seat = (state.hand_no, state.to_act)
            while game.to_act(state) is not None:
                if (state.hand_no, state.to_act) != seat:
                    seat = (state.hand_no, state.to_act)
                    turn += 1
                if state.phase == MELD and not state.pending and state.permission != -1:
                    last = lookahead._LAST_YES
                    side = state.side_of[state.to_act]
                    hit = last.melds is state.melds[side] and last.hand == state.hands[state.to_act]
                    got = can_go_out_this_turn(state)
                    assert got == _fresh(state.clone())
                    checked += 1
                    remembered += hit and got
                    if got:
                        yes_turn = turn
                    elif yes_turn == turn:
                        spoiled += 1  # yes earlier in this turn, no now
                legal = game.legal_actions(state)
                state = game.apply_quiet(state, legal[rng.randrange(len(legal))])
    assert checked > 1000
    assert remembered > 20
    assert spoiled > 0
