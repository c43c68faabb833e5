"""The caches and short cuts behind Samba's legal actions (issue 18) give exactly the uncached
answers: the memo of going-out answers shared between positions
(``parlour.games.samba.parts.lookahead._OUT_MEMO``) and, after the partner's "yes", the take-back
of a meld being built kept without a search once a way to finish it is.  Rule: seed 002 (RULES.md
§1 "Going out") — after "yes" only the moves after which the player can still go out are legal."""

from __future__ import annotations

import random

from parlour import games
from parlour.games.samba import actions as A
from parlour.games.samba.legal import legal_actions, raw_legal_actions
from parlour.games.samba.parts import lookahead
from parlour.games.samba.parts.lookahead import keeps_going_out, vouched_out
from parlour.games.samba.state import MELD, State


def _uncached_legal(s: State) -> list[A.SambaAction]:
    """The legal actions as before the short cuts: every move after "yes" checked by a search
    with an empty memo."""
    lookahead._OUT_MEMO.clear()
    out = raw_legal_actions(s.clone())
    if s.permission == 1 and s.phase == MELD:
        vouched = vouched_out(s)
        checked = []
        for a in out:
            lookahead._OUT_MEMO.clear()
            if vouched(a) or keeps_going_out(s, a):
                checked.append(a)
        out = checked or out
    return out


def _states(preset: str, matches: int) -> list[State]:
    variant = games.get("samba", preset=preset, players=4, max_hands=1)
    game = variant.game
    rng = random.Random(18)
    states: list[State] = []
    for seed in range(matches):
        state = game.new_game(variant.rules, 7000 + seed)
        while game.to_act(state) is not None:
            if state.phase == MELD:
                states.append(state)
            legal = game.legal_actions(state)
            state = game.apply_quiet(state, legal[rng.randrange(len(legal))])
    return states


def test_cached_legal_actions_equal_uncached() -> None:
    checked = after_yes = 0
    for preset, matches in (("samba", 40), ("bolivia", 15)):
        for s in _states(preset, matches):
            # the memo is warm from the play-out and from the states checked before
            assert legal_actions(s.clone()) == _uncached_legal(s), s
            checked += 1
            after_yes += s.permission == 1
    assert checked > 2000 and after_yes > 50  # enough positions after "yes" to mean something
