"""scripts/tune_samba.py's experimental settings (issue 36, sixth pass): the ``hold_out`` policy
decides the same on ``observe``'s view and on the search's ``FastView`` (else the play-outs would
play another policy than the favourite), and it changes the play of some hands."""

from __future__ import annotations

from parlour.core.rng import derive_seed
from parlour.games.samba.bot import FastView, SambaBasicBot
from parlour.sim.ladder import ladder_variant
from tests.support.scripts import load_script

tune = load_script("scripts/tune_samba.py", "tune_samba_script")


def test_hold_out_sees_the_same_on_both_views() -> None:
    variant = ladder_variant("samba")
    game = variant.game
    hold = tune._hold_out_bot()
    changed = 0
    for seed in range(12):
        state = game.new_game(variant.rules, seed)
        a = [hold(game, s, derive_seed(seed, "s", s), rules=variant.rules) for s in range(4)]
        b = [hold(game, s, derive_seed(seed, "s", s), rules=variant.rules) for s in range(4)]
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state)
            move = a[seat].act(game.observe(state, seat), legal)
            assert b[seat].act(FastView(state, seat), legal) == move
            state = game.apply_quiet(state, move)
        changed += game.outcome(state).hands[-1].scores != _basic_scores(seed)
    assert changed > 0


def _basic_scores(seed: int) -> object:
    variant = ladder_variant("samba")
    game = variant.game
    bots = [
        SambaBasicBot(game, s, derive_seed(seed, "s", s), rules=variant.rules) for s in range(4)
    ]
    state = game.new_game(variant.rules, seed)
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state)
        state = game.apply_quiet(state, bots[seat].act(game.observe(state, seat), legal))
    return game.outcome(state).hands[-1].scores
