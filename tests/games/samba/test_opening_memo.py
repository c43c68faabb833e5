"""The first-meld checks of a side that has not opened (issue 18): the steps of a meld being
built and the first cards of a new one, each checked over every way of finishing that meld with
answers shared by the meld's cards, equal a plain check of each move (seed 002, RULES.md §1
"First meld": the melds of the turn must be able to reach the minimum), over positions of seeded
random games of both presets."""

from __future__ import annotations

import random

from parlour import games
from parlour.games.samba import actions as A
from parlour.games.samba.parts.lookahead import (
    _after_cards,
    _completions,
    opening_filter,
    opening_steps,
)
from parlour.games.samba.parts.melds import held_kinds
from parlour.games.samba.parts.reach import opening_reachable
from parlour.games.samba.state import MELD, PILE_OPEN, State, side_minimum


def _reachable_after(s: State, side: int, a: A.SambaAction) -> bool:
    """The minimum is still within reach after the card move ``a``: every way of finishing the
    meld being built checked on its own, no memo."""
    after = _after_cards(s, side, a)
    assert after is not None
    h, table, pending = after
    keep_one = not (s.phase == PILE_OPEN and s.pile)
    return any(
        opening_reachable(h2, t2, side_minimum(s, side), keep_one=keep_one, rules=s.rules)
        for h2, t2, _ in _completions(s, h, table, pending)
    )


def test_opening_checks_equal_a_plain_check_of_each_move() -> None:
    checked = building = 0
    for preset, matches, seed0 in (("samba", 40, 8100), ("bolivia", 15, 8500)):
        variant = games.get("samba", preset=preset, players=4, max_hands=1)
        game = variant.game
        rng = random.Random(seed0)
        for seed in range(matches):
            state = game.new_game(variant.rules, seed0 + seed)
            while game.to_act(state) is not None:
                s = state
                side = s.side_of[s.to_act]
                if s.phase in (MELD, PILE_OPEN) and not s.opened[side]:
                    h = s.hands[s.to_act]
                    steps = [A.STAGE[k] for k in held_kinds(h) if k % 13 != 1]  # no 3s
                    expected = [a for a in steps if _reachable_after(s, side, a)]
                    if s.pending:
                        assert opening_steps(s.clone(), side, steps) == expected, s
                        building += 1
                    else:
                        ok = opening_filter(s.clone(), side)
                        assert [a for a in steps if ok(a)] == expected, s
                    checked += 1
                legal = game.legal_actions(state)
                state = game.apply_quiet(state, legal[rng.randrange(len(legal))])
    assert checked > 300 and building > 50
