"""The generic ``strong`` bot (SO-ISMCTS): budgets, determinism, view-only play, strength on a
small hidden-information game."""

from __future__ import annotations

import random

import pytest

from parlour.bots import available, make
from parlour.bots.ismcts import IsmctsBot, parse_budget
from parlour.sim.stats import wilson
from parlour.sim.tournament import Tournament, summarize
from tests.bots.toygame import TOY, toy_variant


def test_budget_parsing() -> None:
    assert parse_budget("0.5") == (None, 0.5)
    assert parse_budget("2s") == (None, 2.0)
    assert parse_budget("300it") == (300, None)
    assert parse_budget(40) == (40, None)
    assert parse_budget(None) == (None, 1.0)
    for bad in ("fast", "0", "-1s", "0it", True):
        with pytest.raises(ValueError, match="budget"):
            parse_budget(bad)


def test_registered_as_strong_with_budget_from_name() -> None:
    v = toy_variant()
    assert "strong" in available(v)
    bot = make("strong:25it", v, seat=0, seed=1)
    assert isinstance(bot, IsmctsBot)
    assert (bot.iterations, bot.seconds) == (25, None)


def _first_decision(players: int, seed: int) -> tuple[object, object]:
    v = toy_variant(players)
    state = TOY.new_game(v.rules, seed)
    return v, state


def test_seeded_bot_is_deterministic() -> None:
    v, state = _first_decision(4, 3)
    view = TOY.observe(state, 0)
    legal = TOY.legal_actions(state)
    picks = {make("strong:60it", v, 0, seed=9).act(view, legal) for _ in range(3)}
    assert len(picks) == 1
    bot = make("strong:60it", v, 0, seed=9)
    bot.act(view, legal)
    # the statistics a benchmark calibrates an iteration budget with (CPU time per search)
    assert bot.decisions == 1 and bot.total_iterations == 60  # type: ignore[attr-defined]
    assert bot.max_cpu_seconds == bot.total_cpu_seconds > 0  # type: ignore[attr-defined]
    a = Tournament(v, ["strong:20it", "random"], games=3, seed=4, duplicate=True).run(workers=1)
    b = Tournament(v, ["strong:20it", "random"], games=3, seed=4, duplicate=True).run(workers=1)
    assert a == b


def test_bot_uses_only_the_view() -> None:
    """Two states that differ only in cards the seat cannot see: the same choice."""
    v, state = _first_decision(4, 11)
    rng = random.Random(5)
    other = TOY.determinize(TOY.observe(state, 0), rng)
    while other.hands[1:] == state.hands[1:]:
        other = TOY.determinize(TOY.observe(state, 0), rng)
    assert other.hands[0] == state.hands[0] and other.hands != state.hands
    for seed in range(5):
        one = make("strong:40it", v, 0, seed=seed).act(
            TOY.observe(state, 0), TOY.legal_actions(state)
        )
        two = make("strong:40it", v, 0, seed=seed).act(
            TOY.observe(other, 0), TOY.legal_actions(other)
        )
        assert one == two


def test_single_legal_action_needs_no_search() -> None:
    v, state = _first_decision(2, 1)
    for _ in range(4):  # play down to one card each
        state, _ = TOY.apply_unchecked(state, TOY.legal_actions(state)[0])
    seat = TOY.to_act(state)
    bot = make("strong:1000it", v, seat, seed=0)
    legal = TOY.legal_actions(state)
    assert len(legal) == 1
    assert bot.act(TOY.observe(state, seat), legal) == legal[0]
    assert bot.last_iterations == 0


def test_strong_beats_random_on_the_toy_game() -> None:
    """Duplicate deals (luck cancels): ISMCTS wins clearly more than half the games."""
    v = toy_variant(2)
    results = Tournament(v, ["strong:40it", "random"], games=60, seed=2, duplicate=True).run(
        workers=1
    )
    s = summarize(results)["bots"]["strong:40it"]
    assert s["games"] == 120
    assert wilson(s["wins"], s["games"])[0] > 0.5
    assert s["mean_score_diff_ci"][0] > 0
