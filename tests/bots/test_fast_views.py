"""The cheap views the ``strong`` bot's play-outs give the basic bots (the game's declared
``SearchHints.rollout_view``: Samba's ``FastView``, Hand and Foot's ``QuickView``, Scat's
``FastView``) must make the basic bot decide exactly as the real ``observe`` view does — in whole matches, decision by
decision, with one bot fed each kind of view per seat (so their memories stay in step)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour import games


@pytest.mark.parametrize(
    ("name", "preset", "seeds"),
    [
        ("samba", "samba", 3),
        ("samba", "bolivia", 2),
        ("handfoot", "handfoot", 1),
        ("scat", "scat", 12),
    ],
)
def test_basic_bot_decides_the_same_on_the_fast_view(name: str, preset: str, seeds: int) -> None:
    entry = games.entry(name)
    assert entry.hints is not None and entry.hints.rollout_view is not None
    fast_view = entry.hints.rollout_view
    variant = games.get(name, preset, max_hands=1)
    # the basic bot, and the search's own play-out policy where the game declares one
    for bot_cls in dict.fromkeys(c for c in (entry.basic_bot, entry.hints.rollout_bot) if c):
        _same_decisions(variant, fast_view, bot_cls, name, seeds)


def _same_decisions(variant: Any, fast_view: Any, bot_cls: Any, name: str, seeds: int) -> None:
    game = variant.game
    decisions = 0
    for seed in range(seeds):
        state = variant.new_game(seed)
        players = game.num_seats(state)
        observed = [bot_cls(game, s, seed, rules=variant.rules) for s in range(players)]
        fast = [bot_cls(game, s, seed, rules=variant.rules) for s in range(players)]
        rng = random.Random(seed)
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state)
            chosen = observed[seat].act(game.observe(state, seat), legal)
            again = fast[seat].act(fast_view(game, state, seat), legal)
            assert again == chosen, f"{name} seed {seed} step {decisions}: {again} ≠ {chosen}"
            # now and then a random move, so the bots meet positions they would not make
            action = legal[rng.randrange(len(legal))] if rng.random() < 0.2 else chosen
            state, _ = game.apply(state, action)
            decisions += 1
    assert decisions > 100


def test_samba_fast_view_shows_what_observe_shows() -> None:
    """Field by field (issue 18: the fast view builds hands with ``expand_counts``, skips empty
    known-card lists and works out the sides' minimum and going-out requirement when read)."""
    from parlour.games.samba.bot import FastView

    variant = games.get("samba", "samba", max_hands=1)
    game = variant.game
    rng = random.Random(18)
    checked = 0
    for seed in range(4):
        state = variant.new_game(seed)
        while (seat := game.to_act(state)) is not None:
            view = game.observe(state, seat)
            fast = FastView(state, seat)
            for name in (
                "asked",
                "hand",
                "hand_number",
                "pending",
                "phase",
                "pile_size",
                "pile_top",
                "seat",
                "stock_size",
            ):
                assert getattr(fast, name) == getattr(view, name), name
            for fp, p in zip(fast.players, view.players, strict=True):
                assert (fp.seat, fp.side, fp.hand_size, fp.known) == (
                    p.seat,
                    p.side,
                    p.hand_size,
                    p.known,
                )
            for fs, sv in zip(fast.sides, view.sides, strict=True):
                assert (fs.side, fs.melds, fs.opened, fs.opening_minimum, fs.can_go_out) == (
                    sv.side,
                    sv.melds,
                    sv.opened,
                    sv.opening_minimum,
                    sv.can_go_out,
                )
            checked += 1
            legal = game.legal_actions(state)
            state = game.apply_quiet(state, legal[rng.randrange(len(legal))])
    assert checked > 200
